"""Parameters and keyword arguments a note states, read into ``param:`` and ``call:`` anchors
(issue #31).

"`get_status` takes an optional `now` argument", "`fetch` has a `timeout` parameter
defaulting to 30", "`get_status` no longer takes `now`", "`get_status(self, *, now=None)`",
"`create_engine` is called with `pool_pre_ping=True`", "we pass `pool_pre_ping=True` to
`create_engine`". A wrong reading would refute a true note, so one is kept only when

- the function and the parameter or keyword are written as code (backticks, ``_``, a dot,
  ``()``), and the sentence is a plain statement (no condition, plan, question or past:
  "should take", "used to take", "if ... takes");
- the function resolves to one definition with a signature (the note's subject file
  first), or the callee is seen passing keyword arguments somewhere in the code;
- a negation ("no longer takes", "does not accept", "is not called with") only ever
  negates a parameter or keyword named without a value.

A statement that matches a form here but does not resolve is an uncovered part (the note
stays ACTIVE and says which), never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint, Signature
from anchors.spec import Anchor, AnchorKind, AnchorSyntaxError, Expect, parse_anchor
from anchors.type_claims import read_type_claims

__all__ = ["ArgumentReading", "read_arguments"]


@dataclass(frozen=True)
class ArgumentReading:
    """What a note says of parameters and calls: ``anchors`` (each with the ``names`` of
    the note it covers and the ``spans`` of the values it checks), and ``uncovered``, the
    statements of that form that nothing could check."""

    anchors: tuple[Anchor, ...] = ()
    names: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()  # the parameters and keywords among ``names``
    # the functions and callees the statements name, resolved or not: code, never a package
    functions: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    uncovered: tuple[str, ...] = ()


_ID = r"[A-Za-z_]\w*"
_WORDS = re.compile(_ID)
_FUNC = (rf"`?(?P<func>{_ID}(?:\.{_ID})*)(?:\(\))?`?"
         r"(?:\s+(?:in|from)\s+`?(?P<path>[\w./-]+\.py)`?)?")  # fmt: skip
_NUMERAL = r"0[xXoObB][0-9a-fA-F_]+|-?\d[\d_]*(?:\.\d+)?"  # (0o644: a mode's octal)
_VALUE = rf"(?P<value>{_NUMERAL}|True|False|None|'[^'`]*'|\"[^\"`]*\"|`[^`]+`)"
_INLINE = rf"(?P<inline>{_NUMERAL}|True|False|None|'[^'`]*'|\"[^\"`]*\")"
_KIND = r"(?:keyword-only\s+|keyword\s+|positional\s+|named\s+)?"
_NOUN = r"(?:argument|arg|parameter|param|kwarg|keyword(?:\s+argument)?|option|flag)s?"
# "takes `now`" names a parameter by itself; "has `now`" only with a noun ("has a `now`
# parameter"): ``_NOUN_NEEDED`` marks the verbs that need one.
_TAKE = r"(?P<verb>takes|accepts|receives|has|gets|expects|supports)"
_NOUN_NEEDED = frozenset({"has", "gets", "expects", "supports", "receives"})
_NEG_TAKE = (r"(?P<neg>no\s+longer\s+(?:takes|accepts|has)|(?:does\s+not|doesn't|doesn’t)\s+"
             r"(?:take|accept|have)|(?:never|not)\s+(?:takes|accepts)"
             r"|(?:takes|accepts)\s+no)")  # fmt: skip
# "`f` takes an optional `now` argument", "`f` accepts a `timeout` parameter defaulting to 30"
_PARAM_NAMED_FIRST = re.compile(
    rf"{_FUNC}\s+(?:{_TAKE}|{_NEG_TAKE})\s+(?:(?:an?|the|one|its)\s+)?(?P<opt>optional\s+)?"
    rf"{_KIND}`(?P<name>{_ID})(?:\s?=\s?{_INLINE})?`(?P<noun>\s+{_NOUN})?"
)
# "`f` takes an optional argument `now`", "`f` has a keyword-only parameter `now`"
_PARAM_NOUN_FIRST = re.compile(
    rf"{_FUNC}\s+(?:{_TAKE}|{_NEG_TAKE})\s+(?:(?:an?|the|one|its)\s+)?(?P<opt>optional\s+)?"
    rf"{_KIND}{_NOUN}\s+(?:called\s+|named\s+)?`(?P<name>{_ID})(?:\s?=\s?{_INLINE})?`"
)
# "the `now` argument of `get_status` is optional", "the `timeout` parameter of `fetch`
# defaults to 30"
_PARAM_OF = re.compile(
    rf"(?P<opt>optional\s+)?`(?P<name>{_ID})(?:\s?=\s?{_INLINE})?`\s+{_NOUN}\s+(?:of|to|for)\s+"
    rf"`(?P<func>{_ID}(?:\.{_ID})*)(?:\(\))?`(?:\s+(?:in|from)\s+`?(?P<path>[\w./-]+\.py)`?)?"
    r"(?:\s+(?:is|stays)\s+(?P<optional>optional))?"
)
# "... defaulting to 30", "... that defaults to `None`", "... with a default of 30",
# "(default 30)", "... = 30"
_DEFAULT_AFTER = re.compile(
    rf"\s*(?:,\s*)?(?:\(\s*)?(?:(?:that|which)\s+)?(?:defaulting\s+to|defaults\s+to|"
    rf"with\s+(?:a\s+)?default(?:\s+value)?\s+(?:of\s+)?|default(?:s)?\s*[:=]?|=)\s*`?{_VALUE}`?"
    r"(?:\s*\))?"
)
# A word right after a default's value is its unit ("30 seconds", "5 MB", "10 s").
_UNIT = re.compile(r"\s*(?!and\b|or\b|but\b|so\b|when\b|if\b|in\b|for\b)[A-Za-z%]")
# "`f(self, *, now=None)`": a signature in backticks.
_SIGNATURE = re.compile(rf"`(?:def\s+)?(?P<func>{_ID}(?:\.{_ID})*)\((?P<params>[^()`]*)\)`")
_PARAM_ITEM = re.compile(
    rf"^(?P<star>\*{{0,2}})(?P<name>{_ID})?\s*(?::[^=]*)?(?:=\s*(?P<value>.+))?$"
)
_SIGNATURE_CUE = re.compile(
    r"\b(?:signature|defined\s+as|def|declared\s+as|takes|accepts|defaults)\b")
# "`create_engine` is called with `pool_pre_ping=True`", "we call `create_engine` with ...",
# "`get_engine` calls `create_engine` with ...", "we pass `pool_pre_ping=True` to `create_engine`"
_KWARG = rf"`?(?:{_ID})\s?(?:=\s?[^\s`,;]+)?`?"
_KWARGS = rf"(?P<args>{_KWARG}(?:\s*(?:,\s*(?:and\s+)?|and\s+){_KWARG})*)"
_CALLED_WITH = re.compile(
    rf"`(?P<callee>{_ID}(?:\.{_ID})*)(?:\(\))?`\s+(?:is|are|gets|get)\s+(?P<neg>(?:not|never|no\s+"
    rf"longer)\s+)?(?:always\s+)?(?:called|invoked|constructed|created|instantiated)\s+with\s+"
    rf"(?:the\s+)?{_KWARGS}"
)
_CALLS_WITH = re.compile(
    rf"\b(?:call|calls|invoke|invokes|construct|constructs|create|creates)\s+"
    rf"`(?P<callee>{_ID}(?:\.{_ID})*)(?:\(\))?`\s+with\s+(?:the\s+)?{_KWARGS}"
)
_PASS_TO = re.compile(
    rf"\b(?P<neg>(?:no\s+longer|never|not|don't|don’t|doesn't|doesn’t)\s+)?"
    rf"(?:pass|passes|passing|passed)\s+{_KWARGS}\s+(?:to|into|when\s+calling)\s+"
    rf"`(?P<callee>{_ID}(?:\.{_ID})*)(?:\(\))?`"
)
# "`pool_pre_ping=True` is passed to `create_engine`"
_IS_PASSED_TO = re.compile(
    rf"{_KWARGS}\s+(?:is|are)\s+(?P<neg>(?:not|never|no\s+longer)\s+)?(?:always\s+)?passed\s+"
    rf"(?:to|into)\s+`(?P<callee>{_ID}(?:\.{_ID})*)(?:\(\))?`"
)
# "builds its console with `Console(file=sys.stderr)`": a call written out with keywords
_KW_EQ = rf"{_ID}\s?=\s?[^\s`,;()]+"
_WITH_CALL = re.compile(
    rf"\b(?:with|using|via|through|calls?|calling)\s+(?:an?\s+|the\s+)?"
    rf"`(?P<callee>{_ID}(?:\.{_ID})*)\((?P<args>{_KW_EQ}(?:\s*,\s*{_KW_EQ})*)\)`"
)
_ONE_KWARG = re.compile(rf"`?(?P<kw>{_ID})\s?(?:=\s?(?P<value>[^\s`,;]+))?`?")
# "always", "every call": a claim about all calls, which the calls kept cannot settle.
_EVERY = re.compile(r"\b(?:always|every|all|each|everywhere|whenever)\b", re.IGNORECASE)
# Not what the code says now: a condition, a plan, a wish, the past, a question.
_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|whether|should|would|could|might|must|will|used\s+to|was|were|"
    r"previously|formerly|planned|plan|todo|maybe|perhaps|instead\s+of|rather\s+than)\b",
    re.IGNORECASE,
)


def read_arguments(
    text: str, fp: Fingerprint, scope: str | None, spans: Sequence[tuple[int, int, bool]]
) -> ArgumentReading:
    """The ``param:`` and ``call:`` anchors ``text`` supports against ``fp`` (module
    docstring); ``scope`` is the note's subject file, ``spans`` its sentences."""
    anchors: list[Anchor] = []
    names: list[str] = []
    keywords: list[str] = []
    code: list[str] = []
    values: list[tuple[int, int]] = []
    uncovered: list[str] = []
    for start, end, question in spans:
        if question:
            continue
        for found, covered, value_spans, part in _sentence(text[start:end], fp, scope):
            if found is None:
                uncovered.append(part)
                code.extend(covered)
                continue
            anchors.append(found)
            names.extend(covered)
            keywords.append(covered[0])
            code.append(covered[1])
            values.extend((start + a, start + b) for a, b in value_spans)
    return ArgumentReading(
        anchors=tuple(dict.fromkeys(anchors)),
        names=tuple(dict.fromkeys(names)),
        keywords=tuple(dict.fromkeys(keywords)),
        functions=tuple(dict.fromkeys(code)),
        spans=tuple(values),
        uncovered=tuple(dict.fromkeys(uncovered)),
    )


_Read = tuple[Anchor | None, tuple[str, ...], tuple[tuple[int, int], ...], str]


# "loads 50 commits by default (GitExtension.log(count = 50))": a default written as the
# signature's code, in a sentence about a default, without backticks
_LITERAL = _INLINE.replace("?P<inline>", "?:")
_DEFAULT_SIGNATURE = re.compile(
    rf"(?<![\w.`])(?P<func>{_ID}(?:\.{_ID})+)\((?P<params>{_ID}\s?=\s?{_LITERAL}"
    rf"(?:\s*,\s*{_ID}\s?=\s?{_LITERAL})*)\)(?!`)"
)


# "Database.__init__'s timeout defaults to 5.0", "Database.__init__ takes a timeout that
# defaults to 5.0": a parameter named without backticks, of a function written as code
_CODE_FUNC = rf"(?P<func>{_ID}(?:\.{_ID})+)"
_WORDED_DEFAULT = re.compile(
    rf"(?<![\w.`]){_CODE_FUNC}(?:['’]s\s+(?P<name>{_ID})(?:\s+{_NOUN})?"
    rf"|\s+(?:takes|accepts|has)\s+an?\s+(?P<taken>{_ID})(?:\s+{_NOUN})?\s+(?:that|which))"
    rf"\s+defaults\s+to\s+`?(?P<value>{_LITERAL})`?(?![\w.]|\.\d)"
)


def _worded_defaults(sentence: str, fp: Fingerprint, scope: str | None) -> list[_Read]:
    """A default stated of a parameter named in words (``_WORDED_DEFAULT``): read only where
    the function resolves and has a parameter of that name (a word that is none, or an
    attribute the function sets, is left alone)."""
    out: list[_Read] = []
    for m in _WORDED_DEFAULT.finditer(sentence):
        name = m["name"] or m["taken"]
        where = _function(m["func"], fp, scope)
        if where is None or not any(p.name == name for _, sig in fp.signatures_of(where[1])
                                    for p in sig.params):  # fmt: skip
            continue
        written = _DEFAULT_SIGNATURE.fullmatch(f"{m['func']}({name}={m['value']})")
        if written is not None:
            out += [(a, covered, ((m.start("value"), m.end("value")),), part)
                    for a, covered, _, part in _signature_claims(written, fp, scope)]  # fmt: skip
    return out


def _sentence(sentence: str, fp: Fingerprint, scope: str | None) -> list[_Read]:
    types = read_type_claims(sentence, fp)
    out: list[_Read] = [(anchor, (written, func, *_WORDS.findall(written)), (), "")
                        for anchor, func, written, _ in types]  # fmt: skip
    read = [span for *_, span in types]
    out += _unsigned(sentence, fp, read) + _bare_keywords(sentence, fp, scope)
    if "default" in sentence and not _NOT_PLAIN.search(sentence):
        for m in _DEFAULT_SIGNATURE.finditer(sentence):
            out.extend(_signature_claims(m, fp, scope))
        out += _worded_defaults(sentence, fp, scope)
    if "`" not in sentence:  # every statement read below names its parameter as code
        return out
    # A condition, a plan or the past before a statement leaves it unread (not uncovered).
    taken: list[tuple[int, int]] = [
        (m.start(), len(sentence)) for m in _NOT_PLAIN.finditer(sentence)][:1]  # fmt: skip
    for pattern in (_PARAM_NAMED_FIRST, _PARAM_NOUN_FIRST, _PARAM_OF):
        for m in pattern.finditer(sentence):
            if any(a <= m.start() < b for a, b in taken):
                continue
            reads = _param_claim(sentence, m, fp, scope)
            if reads is not None:
                taken.append((m.start(), m.end()))
                out.extend(reads)
    for m in _SIGNATURE.finditer(sentence):
        if any(a <= m.start() < b for a, b in taken):
            continue
        if (
            "*" in m.group("params")
            or "/" in m.group("params")
            or ":" in m.group("params")
            or (_SIGNATURE_CUE.search(sentence))
        ):  # a call written out ("run `f(now=None)`") is not a signature
            out.extend(_signature_claims(m, fp, scope))
    for m in _WITH_CALL.finditer(sentence):
        if not any(a <= m.start() < b for a, b in taken):
            out.extend(_written_call(sentence, m, fp, scope))
    for pattern in (_CALLED_WITH, _CALLS_WITH, _PASS_TO, _IS_PASSED_TO):
        for m in pattern.finditer(sentence):
            if not any(a <= m.start() < b for a, b in taken):
                out.extend(_call_claims(sentence, m, fp, scope))
    return out


# "with force_https=False", "(storage_uri="memory://" in app/utils.py)": a keyword argument
# written without its callee, as Python writes one (no spaces: ``python = "^3.6"`` is TOML);
# a snake_case keyword, or a literal that is no number
_BARE_KWARG = re.compile(
    r"(?<![\w.`=])(?P<kw>[a-z][a-z0-9]*(?:_[a-z0-9]+)*)=(?P<value>True|False|None"
    r"|-?\d[\d_]*(?:\.\d+)?|\"[^\"`\n]*\"|'[^'`\n]*')(?![\w(])"
)
_PY_PATH = re.compile(r"[\w./-]+\.py\b")


def _bare_keywords(sentence: str, fp: Fingerprint, scope: str | None) -> list[_Read]:
    """Keyword arguments a sentence writes without their callee: checked as a call of the
    one callee the code passes that keyword to (in the file the sentence or the subject
    names), since a setting's value is what the note states. Several callees, or none:
    an uncovered part."""
    if "=" not in sentence or _NOT_PLAIN.search(sentence):
        return []
    named = [p for m in _PY_PATH.finditer(sentence) if (p := fp.tracked_path(m.group()))]
    where = named[0] if len(named) == 1 else (scope if scope in fp.python else None)
    out: list[_Read] = []
    for m in _BARE_KWARG.finditer(sentence):
        kw, value = m["kw"], m["value"]
        if "_" not in kw and (value[0].isdigit() or value[0] == "-"):
            continue  # "x=1": arithmetic as likely as an argument
        if re.search(rf"\w\([^()]*\b{kw}\s?=", sentence):
            continue  # a call written out: ``_WITH_CALL``'s
        files = [where] if where is not None else list(fp.python)
        callees = {c.callee for path in files if (facts := fp.code.get(path)) is not None
                   for c in facts.calls if any(k == kw for k, _ in c.keywords)}  # fmt: skip
        part = f"the call passing {kw}={value}"
        if len(callees) != 1:
            out.append((None, (kw,), (), part))
            continue
        [callee] = callees
        anchor = _parsed(Anchor(AnchorKind.CALL, f"{callee}({kw})", Expect.PRESENT, where, value))
        out.append((anchor, (kw, callee, m.group(0)), (m.span(),), part))
    return out


# "Router.Use takes one MiddlewareFunc per call", "`handler()` is called with the request"
_TAKES = re.compile(
    rf"`?(?P<func>{_ID}(?:\.{_ID})*)(?:\(\))?`?\s+(?:(?:always|only)\s+)?(?:takes|accepts|"
    r"receives|expects|(?:is|gets)\s+(?:always\s+)?(?:called|invoked)\s+with)\b"
)


_TAKES_VERBS = ("takes", "accepts", "receives", "expects", "called", "invoked")


def _unsigned(sentence: str, fp: Fingerprint, read: Sequence[tuple[int, int]]) -> list[_Read]:
    """What a sentence says of the parameters of a function the code defines without a
    signature whose parameters a note names (a Go or Rust function's, or none read), where
    no type it takes was read (``read``, ``anchors.type_claims``): an uncovered part, since
    the definition existing says nothing of its parameters."""
    out: list[_Read] = []
    if not any(verb in sentence for verb in _TAKES_VERBS):
        return out  # most sentences say nothing of parameters: skip the pattern
    for m in _TAKES.finditer(sentence):
        func = m.group("func")
        camel = func[1:] != func[1:].lower() and func != func.upper()
        if not (_code_like(sentence, func, m.start("func")) or camel):
            continue
        if any(a <= m.start() < b for a, b in read):
            continue
        where = [p for p, _ in fp.definitions(func)]
        if where and not any(
                _named_params(fp.signature(p, func) or fp.signature(p, f"{func}.__init__"))
                for p in where):  # fmt: skip
            out.append((None, (func,), (), f"the parameters of {func}"))
    return out


def _named_params(signature: Signature | None) -> bool:
    """Whether a note may name ``signature``'s parameters as its reader reads them: a
    Python or JavaScript one (Go's and Rust's are read only for their types)."""
    return signature is not None and signature.language not in ("go", "rust")


def _param_claim(
    sentence: str, m: re.Match[str], fp: Fingerprint, scope: str | None
) -> list[_Read] | None:
    """The parameter ``m`` names, and those named after it ("... and a `retries` argument");
    None when ``m`` is not about a function's parameter at all."""
    func = m.group("func")
    named = m.groupdict()
    if not _code_like(sentence, func, m.start("func")) or func.endswith(".py"):
        return None  # "the module has `Confirm`": not a function's parameter
    if named.get("verb") in _NOUN_NEEDED and "noun" in named and not named["noun"]:
        return None
    stated_at = m.group("path")
    if stated_at:  # "`start` in tasks.py takes ...": found there or nowhere
        scope = fp.tracked_path(stated_at) or stated_at
    where = _function(func, fp, scope, strict=bool(stated_at))
    negated = bool(named.get("neg"))
    out: list[_Read] = []
    current: re.Match[str] | None = m
    while current is not None:
        read, after = _one_param(sentence, current, func, where, negated)
        out.append(read)
        current = _MORE.match(sentence, after)
    return out


# "..., and a `retries` argument", "and an optional `now` parameter"
_MORE = re.compile(
    rf"\s*(?:,\s*)?(?:and|or)\s+(?:(?:an?|the)\s+)?(?P<opt>optional\s+)?{_KIND}"
    rf"`(?P<name>{_ID})(?:\s?=\s?{_INLINE})?`(?P<noun>\s+{_NOUN})"
)


def _one_param(
    sentence: str, m: re.Match[str], func: str, where: tuple[str, str] | None, negated: bool
) -> tuple[_Read, int]:
    """One parameter claim, and where the text about it ends."""
    name = m.group("name")
    part = f"the parameter {name} of {func}"
    default = _DEFAULT_AFTER.match(sentence, m.end())
    optional = m.group("opt") or m.groupdict().get("optional")
    stated: str | None = "?" if optional else None
    value_spans: tuple[tuple[int, int], ...] = ()
    end = m.end()
    if m.group("inline"):
        stated = m.group("inline")
        value_spans = ((m.start("name"), m.end("inline")),)
    elif default is not None and _UNIT.match(sentence, default.end()):
        stated, end = "?", default.end()  # "defaults to 30 seconds": it has a default; the
        # value with its unit is not a literal to compare (it stays an uncovered value)
    elif default is not None:
        stated = default.group("value").strip("`")
        value_spans = ((default.start("value"), default.end("value")),)
        end = default.end()
    if where is None or (negated and stated is not None):
        # not found, or "does not take an optional `now`": not plainly negated
        return (None, (func,), (), part), end
    path, qualname = where
    expect = Expect.ABSENT if negated else Expect.PRESENT
    anchor = _parsed(Anchor(AnchorKind.PARAM, f"{qualname}({name})", expect, path, stated))
    return (anchor, (name, func), value_spans, part), end


def _signature_claims(m: re.Match[str], fp: Fingerprint, scope: str | None) -> list[_Read]:
    func = m.group("func")
    items = [p.strip() for p in m.group("params").split(",") if p.strip()]
    where = _function(func, fp, scope)
    out: list[_Read] = []
    for item in items:
        p = _PARAM_ITEM.match(item)
        if p is None or not p.group("name"):
            continue  # ``*``, ``/`` or something else
        name = p.group("name")
        part = f"the parameter {name} of {func}"
        if where is None:
            out.append((None, (func,), (), part))
            continue
        value = p.group("value")
        stated = value.strip() if value is not None and not p.group("star") else None
        path, qualname = where
        anchor = _parsed(Anchor(AnchorKind.PARAM, f"{qualname}({name})", Expect.PRESENT, path,
                                stated))  # fmt: skip
        # (the value's words are the anchor's: "sha1" in ``func="sha1"``)
        said = (name, func, m.group(0).strip("`"), *([stated.strip("\"'")] if stated else []))
        out.append((anchor, said, ((m.start(), m.end()),), part))
    return out


_SUBJECT_FUNCTION = re.compile(rf"^\W*(?:the\s+)?`(?P<func>{_ID}(?:\.{_ID})*)(?:\(\))?`")


def _written_call(
    sentence: str, m: re.Match[str], fp: Fingerprint, scope: str | None
) -> list[_Read]:
    """A call written out with its keywords ("`traceback.install` builds its console with
    `Console(file=sys.stderr)`"), checked in the file that defines the function the sentence
    is about: a call elsewhere is not this function's. With no such function, uncovered."""
    subject = _SUBJECT_FUNCTION.match(sentence)
    found = _function(subject["func"], fp, scope) if subject is not None else None
    if found is None and subject is not None and "." in subject["func"]:
        # "`traceback.install`": a module's function, the module named by its file's stem
        module, _, name = subject["func"].rpartition(".")
        files = {p for p, _ in fp.definitions(name)
                 if p.rpartition("/")[2].removesuffix(".py") == module.rpartition(".")[2]}
        found = (files.pop(), name) if len(files) == 1 else None
    if found is None:
        return [(None, (m["callee"],), (), f"{m['callee']} called with {m['args']}")]
    return _call_claims(sentence, m, fp, found[0])


def _call_claims(
    sentence: str, m: re.Match[str], fp: Fingerprint, scope: str | None
) -> list[_Read]:
    callee = m.group("callee")
    negated = bool(m.groupdict().get("neg"))
    out: list[_Read] = []
    if not negated and _EVERY.search(sentence, max(0, m.start() - 16), m.end()):
        # a call passing it is checked; that every call does is not (calls passing no
        # keyword are not kept): named as unchecked
        out.append((None, (callee,), (), f"every call of {callee}"))
    calls = fp.calls_of(callee)
    files = {p for p, _ in calls}
    where = scope if scope is not None and scope in files else None
    args_at = m.start("args")
    for kw in _ONE_KWARG.finditer(m.group("args")):
        name, value = kw.group("kw"), kw.group("value")
        if name in ("and", "the"):
            continue
        part = f"{callee} called with {kw.group(0).strip('`')}"
        if not calls or (negated and value is not None):
            out.append((None, (callee,), (), part))
            continue
        expect = Expect.ABSENT if negated else Expect.PRESENT
        anchor = _parsed(Anchor(AnchorKind.CALL, f"{callee}({name})", expect, where, value))
        spans = ((args_at + kw.start(), args_at + kw.end()),)
        out.append((anchor, (name, callee, kw.group(0).strip("`")), spans, part))
    return out


def _function(
    func: str, fp: Fingerprint, scope: str | None, strict: bool = False
) -> tuple[str, str] | None:
    """(path, qualified name) of the one function ``func`` names that has a signature (or
    a class with an ``__init__``): the subject file's first (``strict``: only there, a
    location the note states); ``Class.method`` or a bare method name is matched on the
    qualified name's tail."""

    def signed(path: str, qual: str) -> bool:
        return (fp.signature(path, qual) or fp.signature(path, f"{qual}.__init__")) is not None

    exact = [(p, func) for p, _ in fp.definitions(func) if signed(p, func)]
    tail = f".{func}"
    matches = exact or [
        (p, s.function) for p, facts in fp.python.items() for s in facts.signatures
        if s.function.endswith(tail)
    ]  # fmt: skip
    if scope is not None:
        here = [pair for pair in matches if pair[0] == scope]
        matches = here if here or strict else matches
    unique = sorted(set(matches))
    return unique[0] if len(unique) == 1 else None


def _code_like(sentence: str, name: str, at: int) -> bool:
    """Written as code: in backticks, called, with an underscore or a dot."""
    end = at + len(name)
    return (sentence[at - 1 : at] == "`" or sentence[end : end + 2] == "()" or "_" in name
            or "." in name)  # fmt: skip


def _parsed(anchor: Anchor) -> Anchor | None:
    """The anchor if its text is one ``parse_anchor`` accepts (every inferred anchor passes
    the parser), else None."""
    try:
        return parse_anchor(anchor.render())
    except AnchorSyntaxError:
        return None
