"""The HTTP statuses a function's own body writes (issue #32), read for Go, Python,
JavaScript/TypeScript and Rust by the language extractors.

A status is read only where the code sets one: ``w.WriteHeader(http.StatusNotFound)``,
``http.Error(w, msg, 400)``, ``abort(404)``, ``return jsonify(x), 201``,
``Response(status=204)``, ``HTTPException(status_code=403)``, ``HttpResponseNotFound()``,
``res.status(404)``, ``res.sendStatus(401)``, ``ctx.status = 400``,
``new Response(null, { status: 204 })``, ``StatusCode::NOT_FOUND``,
``HttpResponse::NotFound()``; never a bare number in a body. Where the code sets a status it
cannot name (``w.WriteHeader(code)``, a ``raise`` or ``throw`` of an exception not in the
tables below, a Rust ``?``) the function gets a ``COMPUTED`` fact, and the names it calls a
``CALLS`` fact each: a checker must not say a function never answers 400 when a status it
cannot read, or a helper it calls, may.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING

from tree_sitter import Node

if TYPE_CHECKING:  # ``anchors.facts`` holds these facts: it imports this module
    from anchors.facts import Definition

__all__ = ["CALLS", "COMPUTED", "StatusFact", "may_answer", "status_number", "statuses_in"]

COMPUTED = 0  # a status set from a value the facts cannot read
CALLS = -1  # not a status: a name the function calls (``written``), which may set one


@dataclass(frozen=True)
class StatusFact:
    """One status a function sets: ``function`` its qualified name (as in ``Definition``),
    ``status`` the number (or ``COMPUTED``, ``CALLS``), ``line``, ``written`` as in the code."""

    function: str
    status: int
    line: int
    written: str


# Go's ``net/http`` names that are not the CamelCase of Python's ``HTTPStatus`` names.
_GO_NAMES = {
    "OK": 200, "NonAuthoritativeInfo": 203, "MultiStatus": 207, "IMUsed": 226, "Teapot": 418,
    "RequestEntityTooLarge": 413, "RequestURITooLong": 414, "HTTPVersionNotSupported": 505,
    "RequestedRangeNotSatisfiable": 416, "UnprocessableEntity": 422, "TooEarly": 425,
}  # fmt: skip
# Names other libraries use (the ``http`` crate, newer RFC names).
_ALIASES = {
    "PAYLOAD_TOO_LARGE": 413, "URI_TOO_LONG": 414, "RANGE_NOT_SATISFIABLE": 416,
    "UNPROCESSABLE_CONTENT": 422, "CONTENT_TOO_LARGE": 413, "IM_A_TEAPOT": 418, "OK": 200,
}  # fmt: skip
_UPPER: dict[str, int] = {s.name: int(s) for s in HTTPStatus} | _ALIASES


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


_CAMEL: dict[str, int] = {_camel(n): v for n, v in _UPPER.items()} | _GO_NAMES
# Exceptions and response classes that stand for one status (Django, Werkzeug, DRF, NestJS).
_CLASSES: dict[str, int] = {
    "Http404": 404, "PermissionDenied": 403, "SuspiciousOperation": 400,
    "NotAuthenticated": 401, "AuthenticationFailed": 401, "Throttled": 429,
    "HttpResponseNotFound": 404, "HttpResponseBadRequest": 400, "HttpResponseForbidden": 403,
    "HttpResponseNotAllowed": 405, "HttpResponseGone": 410, "HttpResponseServerError": 500,
    "HttpResponseRedirect": 302, "HttpResponsePermanentRedirect": 301,
    "HttpResponseNotModified": 304,
    **{name: code for name, code in _CAMEL.items() if code >= 400},
    **{f"{name}Exception": code for name, code in _CAMEL.items() if code >= 400},
    **{f"HTTP{name}": code for name, code in _CAMEL.items() if code >= 300},  # Pyramid, WebOb
}  # fmt: skip

_CONSTANT = re.compile(
    r"^(?:(?:http\.)?Status(?P<go>[A-Z]\w*)|(?:[\w.]*\.)?HTTP_(?P<py>\d{3})(?:_\w+)?"
    r"|(?:[\w.]*\.)?(?:HTTPStatus|HttpStatus|StatusCode|status_codes?)(?:\.|::)(?P<upper>[A-Z_]+)"
    r"|(?P<num>\d{3}))$"
)


def status_number(written: str) -> int | None:
    """The status ``written`` names (``404``, ``http.StatusNotFound``,
    ``status.HTTP_404_NOT_FOUND``, ``HTTPStatus.NOT_FOUND``, ``StatusCode::NOT_FOUND``), or
    None for any other text."""
    m = _CONSTANT.match(written.strip())
    if m is None:
        return None
    if m["go"]:
        number = _CAMEL.get(m["go"])
    elif m["upper"]:
        number = _UPPER.get(m["upper"])
    else:
        number = int(m["py"] or m["num"])
    return number if number is not None and 100 <= number <= 599 else None


_ARG = r"(?P<e>[^,()\n;]*?)\s*(?=[,)(])"  # one argument as written, up to , ) or (
_ARGS = r"(?:[^()\n;]|\([^()]*\)){0,300}?"  # arguments before the last, parentheses nested once
_PATTERNS: dict[str, tuple[str, ...]] = {
    "go": (
        rf"\.WriteHeader\(\s*{_ARG}",
        rf"\bhttp\.(?:Error|Redirect)\({_ARGS},\s*(?P<e>[\w.]+)\s*\)",
        r"\bhttp\.(?P<c>NotFound)\(",
        rf"\.(?:AbortWithStatus(?:JSON)?|NoContent)\(\s*{_ARG}",
        r"\.(?:JSON|IndentedJSON|String|XML|HTML|Blob|Data)\(\s*(?P<e>(?:http\.)?Status\w+|\d{3})\s*,",
        rf"\bNewHTTPError\(\s*{_ARG}",
    ),
    "python": (
        rf"\babort\(\s*{_ARG}",
        rf"[(,]\s*(?P<k>status(?:_code)?)\s*=\s*{_ARG}",
        r"\.status(?:_code)?\s*=(?!=)\s*(?P<e>[\w.]+)\s*$",
        rf"\bHTTPException\(\s*{_ARG}",
        rf"\bmake_response\({_ARGS},\s*(?P<e>[\w.]+)\s*\)",
        r"\b(?P<c>HttpResponse[A-Z]\w*)\(",
        # ``get_object_or_404``, ``first_or_404``: a library helper that answers 404
        r"(?<=\w)(?P<c>_or_404)\(",
        r"^\s*raise\s+(?P<r>[\w.]+)",
        r"^\s*return\s+(?P<t>\S)[^\n]*,\s*[\w.]+\s*\)?\s*$",
    ),
    "javascript": (
        rf"\.(?:status|sendStatus|code)\(\s*{_ARG}",
        r"\.status(?:Code)?\s*=(?!=)\s*(?P<e>[\w.]+)\s*(?:;|$)",
        r"\bstatus\s*:\s*(?P<e>[\w.]+)\s*[,}]",
        rf"\b(?:ctx\.throw|createError|createHttpError|httpErrors)\(\s*{_ARG}",
        r"\bthrow\s+(?:new\s+)?(?P<r>[\w.]+)",
    ),
    "rust": (
        r"(?<![=!]=\s)(?<![=!]=)\b(?P<e>StatusCode::[A-Z_]+)\b(?!\s*(?:=>|\|))",
        rf"\bStatusCode::from_u16\(\s*{_ARG}",
        r"\bHttpResponse::(?P<c>[A-Z]\w*)\(\)",
    ),
}
_PATTERNS["typescript"] = _PATTERNS["javascript"]
# What may set a status the facts cannot name: searched only in the bodies of functions
# that set one they can (a minified bundle is not searched through for them).
_DOUBT_PATTERNS: dict[str, tuple[str, ...]] = {
    "go": (
        # the writer handed on: what is called answers (``handler.ServeHTTP(w, r)``)
        rf"\b(?P<d>[\w.]+)\((?:{_ARGS},\s*)?(?:w|rw|writer|resp|res)\s*[,)]",
    ),
    "python": (
        # a library call that raises what its framework answers with (DRF, Django views)
        r"\b(?P<r>raise_exception)\s*=\s*True|\.(?P<r2>get_object|check_permissions|"
        r"check_object_permissions|full_clean)\(",
        r"\b(?P<d>redirect)\(",
        rf"^\s*return\s+(?P<d2>[\w.]+)\((?:{_ARGS},\s*)?request\s*[,)]",
        # the base class answers (``super().dispatch(request)``: 405, a login redirect)
        r"\bsuper\([^)\n]*\)\.(?P<d>\w+)\(",
    ),
    "javascript": (
        r"\bnext\(\s*(?P<r>[A-Za-z_]\w*)\s*\)",
        r"\.(?P<d>redirect)\(",
        r"\bsuper\.(?P<d>\w+)\(",
        # the response handed on: what is called answers (``sendError(res, err)``)
        rf"\b(?P<d2>[\w.]+)\((?:{_ARGS},\s*)?(?:res|response|reply|ctx)\s*[,)]",
    ),
    "rust": (r"\?\s*[;)]",),
}
_DOUBT_PATTERNS["typescript"] = _DOUBT_PATTERNS["javascript"]
# Each pattern alone (a group name repeats across them), as bytes: offsets are tree-sitter's.
_EACH = {
    lang: tuple(re.compile(p.encode(), re.MULTILINE) for p in patterns)
    for lang, patterns in _PATTERNS.items()
}
_DOUBTS = {
    lang: tuple(re.compile(p.encode(), re.MULTILINE) for p in patterns)
    for lang, patterns in _DOUBT_PATTERNS.items()
}
# The cheap test a file passes before its matches are attributed to functions.
_CUE = {
    "go": re.compile(rb"WriteHeader|http\.(?:Error|Redirect|NotFound)|Status[A-Z]|NewHTTPError"),
    "python": re.compile(rb"abort\(|status(?:_code)?\s*=[^=]|HTTPException|make_response"
                         rb"|HttpResponse\w|Http404"
                         rb"|HTTP_\d|HTTPStatus|_or_404|,\s*\d{3}\s*$|raise\s+(?:NotFound|BadRequest"
                         rb"|Forbidden|Unauthorized|PermissionDenied|MethodNotAllowed|Conflict)",
                         re.MULTILINE),
    "javascript": re.compile(rb"\.status\(|sendStatus|status(?:Code)?\s*[:=][^=]|\.code\("
                             rb"|createError|createHttpError|httpErrors|ctx\.throw"),
    "rust": re.compile(rb"StatusCode|HttpResponse::"),
}
_CUE["typescript"] = _CUE["javascript"]

# The nodes a function's body is; a match inside one with no definition (a closure, an
# arrow function) belongs to the named function around it.
_FUNCTIONS = {
    "go": frozenset({"function_declaration", "method_declaration"}),
    "python": frozenset({"function_definition", "decorated_definition"}),
    "javascript": frozenset({"function_declaration", "method_definition", "arrow_function",
                             "function_expression", "function", "generator_function_declaration",
                             "variable_declarator", "public_field_definition"}),
    "rust": frozenset({"function_item"}),
}
_FUNCTIONS["typescript"] = _FUNCTIONS["javascript"]
_CALL_NAME = re.compile(rb"(?<![\w.])(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\s*\(")
_KEYWORDS = frozenset({
    "if", "for", "while", "switch", "return", "func", "function", "print", "len", "str", "int",
    "catch", "match", "fn", "await", "async", "typeof", "super", "new", "not", "and", "or",
})  # fmt: skip
MAX_CALLED = 24
# Exceptions that carry the status they are given (``HTTPException(status_code=404)``).
_CARRIERS = frozenset({
    "HTTPException", "HttpException", "HTTPError", "HttpError", "createError",
    "createHttpError", "httpErrors", "NewHTTPError", "abort",
})  # fmt: skip


def statuses_in(
    source: bytes, root: Node, definitions: Sequence[Definition], language: str,
    line_offset: int = 0,
) -> tuple[StatusFact, ...]:
    """The statuses each function of ``definitions`` sets in its own body, in ``source``
    parsed as ``root`` (lines shifted by ``line_offset``: a script block of a component)."""
    cue = _CUE.get(language)
    if cue is None or not cue.search(source):
        return ()
    by_line: dict[int, list[str]] = {}
    for d in definitions:
        by_line.setdefault(d.line, []).append(d.qualname)
    found: dict[str, dict[tuple[str, int, int, str], None]] = {}
    bodies: dict[str, Node] = {}

    def add(matches: Iterable[tuple[int, int, int, str]], only: str | None = None) -> None:
        for start, end, status, written in matches:
            owner = _owner(root, start, end, by_line, _FUNCTIONS[language], line_offset)
            if owner is None or (only is not None and owner[0] != only):
                continue
            function, body = owner
            if status == COMPUTED and written == function.rpartition(".")[2]:
                continue  # its own definition's parameters (``function getUser(req, res)``)
            bodies[function] = body
            line = source.count(b"\n", 0, start) + 1 + line_offset
            found.setdefault(function, {})[(function, status, line, written)] = None

    add(_matches(source, root, _EACH[language]))
    # A function that sets no status the facts can name says nothing a check can use.
    known = [f for f, keys in found.items() if any(key[1] > 0 for key in keys)]
    facts: list[StatusFact] = []
    for function in known:
        body = bodies[function]
        add(_matches(source, root, _DOUBTS[language], (body.start_byte, body.end_byte)),
            only=function)  # fmt: skip
        facts += [StatusFact(*key) for key in found[function]]
        facts += _decorated(body, function, line_offset)
        facts += _called(source, body, function, line_offset)
    return tuple(facts)


def _matches(
    source: bytes, root: Node, patterns: Sequence[re.Pattern[bytes]],
    span: tuple[int, int] | None = None,
) -> Iterator[tuple[int, int, int, str]]:
    """(start, end, status, as written) of each place ``source`` (within ``span``) sets a
    status."""
    start, end = span or (0, len(source))
    for pattern in patterns:
        for m in pattern.finditer(source, start, end):
            groups = m.groupdict()
            if not groups:  # a Rust ``?``: an error's status is its type's to say
                yield m.start(), m.end(), COMPUTED, "?"
                continue
            if groups.get("c"):
                name = m["c"].decode()
                if name == "_or_404":  # the helper's whole name, for the receipt
                    name = _name_before(source, m.start()) + name
                number = _CLASSES.get(name) or _CAMEL.get(name) or (
                    404 if name.endswith("_or_404") else None)
                if number is not None:
                    yield m.start(), m.end(), number, name
                continue
            delegate = groups.get("d") or groups.get("d2")
            if delegate:
                name = delegate.decode()
                if m.group(0).startswith(b"super"):
                    name = f"super().{name}"  # never the function's own name
                if name.rpartition(".")[2] not in _BODY_WRITERS:
                    yield m.start(), m.end(), COMPUTED, name
                continue
            if groups.get("r2"):
                yield m.start(), m.end(), COMPUTED, m["r2"].decode()
                continue
            if groups.get("r"):
                name = m["r"].decode().rpartition(".")[2]
                if name not in _CARRIERS:  # a carrier's status is read by another pattern
                    yield m.start(), m.end(), _CLASSES.get(name, COMPUTED), m["r"].decode()
                continue
            if groups.get("t"):
                yield from _returned(source, root, m.start("t"))
                continue
            if groups.get("k") and not _passed(root, m.start("k")):
                continue
            written = (m["e"] or b"").decode(errors="replace").strip()
            if written and "=" not in written:  # a keyword argument is read by its own pattern
                yield m.start(), m.end(), status_number(written) or COMPUTED, written


# Methods of a test client or an HTTP client: ``status=404`` passed to one is what a test
# expects (``self.app.get(url, status=404)``) or a request sends, not what the code answers.
_CLIENT_CALLS = frozenset({
    "get", "post", "put", "patch", "delete", "head", "options", "request", "fetch", "open",
    "get_json", "post_json", "put_json", "patch_json", "delete_json", "assertStatus",
})  # fmt: skip


# Calls handed the response that write its body, never its status.
_BODY_WRITERS = frozenset({
    "Fprintf", "Fprint", "Fprintln", "Copy", "WriteString", "NewEncoder", "Execute",
    "ExecuteTemplate", "Write", "Header", "Set", "Add", "render", "render_to_response",
    "TemplateResponse", "next", "json", "send", "end", "WriteHeader", "Error", "NotFound",
    "Redirect", "status", "sendStatus",
})  # fmt: skip


# A helper whose name says it may answer for its caller (``_raise_412_if_modified``,
# ``send_error``, ``deny``).
_ANSWERING_NAME = re.compile(
    r"raise|abort|error|fail|den(?:y|ied)|reject|forbid|unauthori[sz]|not_?found|invalid|"
    r"respond|reply|[1-5]\d\d",
    re.IGNORECASE,
)
# The calls whose status the facts read where they are made.
_READ_CALLS = frozenset({
    "Error", "NotFound", "Redirect", "WriteHeader", "AbortWithStatus", "AbortWithStatusJSON",
    "NewHTTPError", "abort", "HTTPException", "make_response", "status", "sendStatus",
    "createError", "createHttpError", "httpErrors", "throw", "from_u16",
})  # fmt: skip


_LOGGING = frozenset({"error", "Error", "Errorf", "errorf", "exception", "warning", "warn"})
_EXCEPTION_CLASS = re.compile(r"^[A-Z]\w*(?:Error|Exception)$")


def may_answer(name: str) -> bool:
    """Whether a call of ``name`` (a ``CALLS`` fact) may set its caller's status by what
    its name says, where the facts did not read a status from the call itself."""
    if name in _READ_CALLS or name in _CLASSES or name.endswith("_or_404"):
        return False
    if name in _LOGGING or _EXCEPTION_CLASS.match(name):
        return False  # a log line, an error built (a raise or throw of it is read as such)
    return _ANSWERING_NAME.search(name) is not None


def _passed(root: Node, at: int) -> bool:
    """Whether the Python keyword at ``at`` is passed to a call that may set a status (not
    a parameter's default, nor a client's request)."""
    node = root.descendant_for_byte_range(at, at)
    keyword = node.parent if node is not None else None
    call = keyword.parent.parent if keyword is not None and keyword.parent is not None else None
    if keyword is None or keyword.type != "keyword_argument" or call is None:
        return False
    if call.type != "call":
        return False
    if call.parent is not None and call.parent.type == "decorator":
        return True  # ``@app.post("/items", status_code=201)``: the route's status
    function = call.child_by_field_name("function")
    name = (function.text or b"").decode(errors="replace") if function is not None else ""
    return name.rpartition(".")[2] not in _CLIENT_CALLS


def _name_before(source: bytes, at: int) -> str:
    """The identifier characters right before ``at`` (``get_object`` of ``get_object_or_404``)."""
    start = at
    while start > 0 and (source[start - 1 : start].isalnum() or source[start - 1] == 95):
        start -= 1
    return source[start:at].decode(errors="replace")


def _returned(source: bytes, root: Node, at: int) -> Iterator[tuple[int, int, int, str]]:
    """A Python ``return body, 201`` (or ``body, 201, headers``): the second item."""
    node: Node | None = root.descendant_for_byte_range(at, at)
    while node is not None and node.type != "return_statement":
        node = node.parent
    if node is None or not node.named_children:
        return
    value = node.named_children[0]
    if value.type != "expression_list" or len(value.named_children) not in (2, 3):
        return
    item = value.named_children[1]
    written = source[item.start_byte : item.end_byte].decode(errors="replace")
    number = status_number(written)
    if number is not None:
        yield item.start_byte, item.end_byte, number, written


def _owner(
    root: Node, start: int, end: int, by_line: dict[int, list[str]], kinds: frozenset[str],
    line_offset: int,
) -> tuple[str, Node] | None:
    """The innermost named function (its qualified name and node) around the bytes."""
    node: Node | None = root.descendant_for_byte_range(start, max(start, end - 1))
    while node is not None:
        if node.type in kinds:
            named = by_line.get(node.start_point[0] + 1 + line_offset, [])
            if len(named) == 1:
                return named[0], node
            if len(named) > 1:
                return None  # two definitions on one line: cannot tell whose
        node = node.parent
    return None


# Decorators that register a route or change nothing a response's status depends on; any
# other (``@login_required``, ``@require_POST``) may answer for the function.
_PLAIN_DECORATORS = frozenset({
    "route", "get", "post", "put", "patch", "delete", "head", "options", "api_route",
    "websocket", "api_view", "action", "staticmethod", "classmethod", "property",
    "cached_property", "abstractmethod", "override", "wraps", "csrf_exempt", "cache",
    "lru_cache", "never_cache", "vary_on_headers", "transaction", "atomic", "expose",
})  # fmt: skip
_DECORATOR_NAME = re.compile(r"@\s*([\w.]+)")


def _decorated(body: Node, function: str, line_offset: int) -> list[StatusFact]:
    """A Python decorator that may set a status for the function, as a ``COMPUTED`` fact."""
    outer = body if body.type == "decorated_definition" else body.parent
    if outer is None or outer.type != "decorated_definition":
        return []
    out = []
    for child in outer.children:
        m = _DECORATOR_NAME.match((child.text or b"").decode(errors="replace"))
        if child.type == "decorator" and m and m[1].rpartition(".")[2] not in _PLAIN_DECORATORS:
            out.append(StatusFact(function, COMPUTED, child.start_point[0] + 1 + line_offset,
                                  f"@{m[1]}"))  # fmt: skip
    return out


def _called(source: bytes, body: Node, function: str, line_offset: int) -> Iterable[StatusFact]:
    """The names ``body`` calls, as ``CALLS`` facts: a helper may set a status for it."""
    text = source[body.start_byte : body.end_byte]
    own = function.rpartition(".")[2]
    names = dict.fromkeys(
        n for m in _CALL_NAME.finditer(text)
        if (n := m[1].decode()) not in _KEYWORDS and n != own
    )
    line = body.start_point[0] + 1 + line_offset
    return [StatusFact(function, CALLS, line, n) for n in list(names)[:MAX_CALLED]]
