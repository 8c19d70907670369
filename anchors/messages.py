"""The messages code holds, and the check behind ``message:[PATH::]TEXT``: "fails with
"mux: unbalanced braces in %q"", "`Editor.edit_file` raises ClickException("<editor>:
Editing failed!")".

A note that quotes an error, a log line or a prompt claims the code says it. Each source
file's string literals that read as a message (letters and a space or a colon, 6 to 240
characters) are kept with its facts. A message is compared by its fixed text: a
placeholder, however the note or the code writes it (``<editor>``, ``{editor}``, ``%q``,
``%(name)s``, ``${x}``, ``{}``), splits it into segments, and the code says the message
when one literal holds every segment of it, in order, ignoring case and runs of spaces.
A note's final full stop is the sentence's, not the message's; any other character
counts ("Editing failed!" is not "Editing failed").

A quoted name ("under the string key "vars"") is looked for among the literals that read
as a name (``name_literals``: a letter or ``_`` and then letters, digits, ``_ . -``, up to
64 characters), whole and with its case; "var0" as what a function names things is also
said by a literal of its stem (``"var"``, ``"var%d"``). Where a file kept too many such
literals, or a file was not read, its absence is no answer.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.routes import find_route, is_route
from anchors.spec import Anchor

__all__ = ["MIN_FIXED", "NAME_LIKE", "URL_PATH", "Literals", "find_message", "fixed_segments",
           "header_literal", "literals", "name_literals", "said_in_code", "string_literals"]

# A string literal in any of the languages read: double- or single-quoted (with escapes),
# Python's triple quotes, a Go raw string or a JavaScript template.
_LITERAL = re.compile(
    rb'"""(.*?)"""|\'\'\'(.*?)\'\'\'|"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`([^`]*)`',
    re.DOTALL,
)
_MESSAGE_LIKE = re.compile(r"[A-Za-z]{2}.*[ :]|[ :].*[A-Za-z]{2}", re.DOTALL)
_MIN, _MAX = 6, 240
_PER_FILE = 400
_PLACEHOLDER = re.compile(
    r"\$\{[^{}]*\}|\{[^{}]*\}|<[^<>\s][^<>]{0,30}>|%\([^)]*\)[a-z]|%[-+ #0-9.*]*[a-zA-Z]"
)
_SPACES = re.compile(r"\s+")
_EDGES = " \t:;,-–—"
# How many fixed characters a message needs to be checked at all ("ok" is no message).
MIN_FIXED = 8


class Literals(NamedTuple):
    """What a file's string literals say: messages, names, URL paths."""

    messages: tuple[str, ...]
    names: tuple[str, ...] | None
    paths: tuple[str, ...]


def literals(source: bytes) -> Literals:
    """The message-like string literals of ``source`` (in order, without repeats, at most
    ``_PER_FILE``), those that read as a name (``name_literals``) and those that read as a
    URL path (``URL_PATH``, at most ``_PER_FILE``), in one pass."""
    messages: dict[str, None] = {}
    names: set[str] | None = set()
    paths: dict[str, None] = {}
    for m in _LITERAL.finditer(source):
        raw = next(g for g in m.groups() if g is not None)
        if b"/" in raw and len(paths) < _PER_FILE and len(raw) <= 160:
            path = raw.decode("utf-8", errors="replace").lstrip("^")
            if URL_PATH.fullmatch(path):
                paths.setdefault(path, None)
        if names is not None and 1 <= len(raw) <= 72:
            word = raw.decode("utf-8", errors="replace")
            if NAME_LIKE.fullmatch(word) or _NUMBERED.fullmatch(word):
                names.add(word)
                if len(names) > _MAX_NAMES:
                    names = None
        if len(messages) >= _PER_FILE or not _MIN <= len(raw) <= _MAX * 2:
            continue
        text = raw.decode("utf-8", errors="replace").replace("\\n", " ").replace('\\"', '"')
        text = _SPACES.sub(" ", text).strip()
        if _MIN <= len(text) <= _MAX and _MESSAGE_LIKE.search(text):
            messages.setdefault(text, None)
    return Literals(tuple(messages), None if names is None else tuple(sorted(names)),
                    tuple(paths))


# A literal that reads as a URL path: letters, digits and what a route writes, with a "/"
# (``/api/{id}``, ``/<int:pk>/``, ``/(.+)``, ``/ws/?``, Django's ``api/items/``)
URL_PATH = re.compile(r"/?[\w.~%:+\-{}<>()\[\]|?*$\\]*(?:/[\w.~%:+\-{}<>()\[\]|?*$\\]*)+")


def string_literals(source: bytes) -> tuple[str, ...]:
    """The message-like string literals of ``source``, in order, without repeats."""
    return literals(source).messages


# A literal that reads as a name: a key, an event, a header (``"vars"``, ``"X-Request-Id"``)
NAME_LIKE = re.compile(r"[A-Za-z_][\w.\-]{0,63}")
# A placeholder or format at the end of a literal naming things: ``"var%d"``, ``"var{}"``
_NUMBERED = re.compile(r"(?P<stem>[A-Za-z_][\w.\-]*?)(?:%d|%v|\{\w*\}|\$\{\w*\})?")
_MAX_NAMES = 1_500  # distinct name literals kept per file; more: not recorded (None)


def name_literals(source: bytes) -> tuple[str, ...] | None:
    """The distinct string literals of ``source`` that read as a name (``NAME_LIKE``), or
    a stem with a number's placeholder (``"var%d"``, kept as ``var%d``), sorted; None when
    more than ``_MAX_NAMES``. A quote in a comment counts too: a name too many, never one
    too few."""
    return literals(source).names


def fixed_segments(message: str) -> tuple[str, ...]:
    """The fixed parts of a message, lower-cased, split at its placeholders (as a note
    writes one too: "at most N tracks", "failed: ...")."""
    text = _SPACES.sub(" ", message.strip())
    return tuple(part.lower() for piece in _SAID_PLACEHOLDER.split(text)
                 if (part := piece.strip(_EDGES)))  # fmt: skip


# (and "[MSW] " opening a message: the tag a logger puts before it)
_SAID_PLACEHOLDER = re.compile(
    rf"{_PLACEHOLDER.pattern}|(?<![\w'])[A-Z](?![\w'])|\.\.\.|…|^\[[^\]]{{1,20}}\]\s*")


def _holds(literal: str, wanted: tuple[str, ...]) -> bool:
    """Whether ``literal`` holds every one of ``wanted`` in order (placeholders in the
    literal are no text: "{editor}: Editing failed" holds ": editing failed")."""
    text = _SPACES.sub(" ", literal.lower())
    at = 0
    for part in wanted:
        found = text.find(part, at)
        if found == -1:
            return _filled(text, wanted)
        at = found + len(part)
    return True


def _filled(text: str, wanted: tuple[str, ...]) -> bool:
    """Whether a literal with placeholders says ``wanted`` with values put in them, as a
    note quotes a message it saw ("DEBUG: %s not set" said as "DEBUG: PPROFLISTEN not
    set"): each placeholder stands for a few words, and the fixed text is long enough."""
    pieces = [p for p in _PLACEHOLDER.split(text.strip().rstrip(".")) if p]
    if not _PLACEHOLDER.search(text) or sum(map(len, pieces)) < MIN_FIXED:
        return False
    pattern = r".{1,60}?".join(re.escape(p.strip()) for p in pieces if p.strip())
    return any(re.search(pattern, part) is not None for part in wanted)


_WORD = re.compile(r"[a-z0-9_']{3,}")


def _index(fp: Fingerprint) -> dict[str, list[tuple[str, str]]]:
    """Each word of three characters or more to the (path, literal) pairs holding it."""
    index: dict[str, list[tuple[str, str]]] = {}
    for path, facts in fp.code.items():
        for literal in facts.strings:
            for word in set(_WORD.findall(literal.lower())):
                index.setdefault(word, []).append((path, literal))
    return index


def said_in_code(word: str, fp: Fingerprint) -> bool:
    """Whether a string literal the code holds has ``word`` as one of its words."""
    return word.lower() in fp.derived("messages.words", _index)


def _sayers(where: str | None, wanted: tuple[str, ...],
            fp: Fingerprint) -> list[tuple[str, str]]:  # fmt: skip
    """The (path, literal) pairs, in ``where`` if given, whose literal says ``wanted``."""
    words = [w for part in wanted for w in _WORD.findall(part)]
    if where is not None or not words:
        facts = fp.code.get(where) if where is not None else None
        pairs = [(where, lit) for lit in facts.strings] if facts and where else [
            (p, lit) for p, f in fp.code.items() for lit in f.strings]  # fmt: skip
    else:  # the pairs holding the message's rarest word: an index, not every literal
        # (a word no literal holds may be a value put in a placeholder: "DEBUG: %s not set")
        index = fp.derived("messages.words", _index)
        pairs = min((index[w] for w in words if w in index), key=len, default=[])
    found = sorted((p, lit) for p, lit in pairs if _holds(lit, wanted))
    if found or where is None or len(wanted) < 2:
        return found
    # ``"gin mode unknown: " + value + " (available mode: ...)"``: a message the file joins
    # from literals, each part in one of them
    parts = [next((lit for _, lit in pairs if _holds(lit, (part,))), None) for part in wanted]
    return [] if None in parts else [(where, '" + "'.join(dict.fromkeys(map(str, parts))))]


def find_message(anchor: Anchor, fp: Fingerprint) -> Finding:
    """Whether the file ``anchor.scope`` (or any source file) holds a literal that says
    the message ``anchor.value``."""
    if NAME_LIKE.fullmatch(anchor.value):
        return _find_name(anchor.value, anchor.scope, fp)
    if is_route(anchor.value):
        return find_route(anchor.value, fp)  # "/rootDesc.xml": a URL path the code serves
    wanted = fixed_segments(anchor.value.removesuffix("."))
    if sum(len(part) for part in wanted) < MIN_FIXED:
        # "{wide_bar} {pos}/{len}": too little fixed text to find; the string is looked
        # for whole, placeholders as written
        wanted = (_SPACES.sub(" ", anchor.value.strip().lower()),)
    where = anchor.scope
    if where is not None and (facts := fp.code.get(where)) is None:
        return Finding((), None, f"{where} is not source code the fingerprint reads", False)
    if where is not None and facts is not None and not facts.parsed:
        return Finding((), None, f"{where} was not read: {facts.why_not_read()}", False)
    said = _sayers(where, wanted, fp)
    if said:
        path, literal = said[0]
        more = f" and {len(said) - 1} more" if len(said) > 1 else ""
        return Finding(tuple(sorted({p for p, _ in said})), None,
                       f'{path} says "{literal}"{more}')  # fmt: skip
    if where is not None and (elsewhere := sorted({p for p, _ in _sayers(None, wanted, fp)})):
        # said by another file: a helper the code calls may raise it, so no answer
        detail = f'no string in {where} says "{anchor.value}"; {", ".join(elsewhere[:3])} does'
        return Finding((), None, detail, False)
    place = where or "the source code"
    return Finding((), None, f'no string in {place} says "{anchor.value}"')


# "var0" said of what code names: a stem and a number
_STEM = re.compile(r"(?P<stem>[A-Za-z_][A-Za-z_\-]*?)[\-_]?\d+")


def header_literal(name: str, fp: Fingerprint) -> str | None:
    """The string literal the code names the HTTP header ``name`` by, in any case, as
    Django's ``HTTP_X_API_KEY`` or as the one longer name it ends (``Allow-Methods`` of
    ``Access-Control-Allow-Methods``); None when no file writes one."""
    forms = fp.derived("messages.headers", _header_forms)
    low = name.lower()
    found = forms.get(low) or forms.get("http_" + low.replace("-", "_"))
    if found is None:  # "the Allow-Methods header": ``Access-Control-Allow-Methods``
        ends = {v for k, v in forms.items() if k.endswith("-" + low)}
        found = ends.pop() if len(ends) == 1 else None
    return found


def _header_forms(fp: Fingerprint) -> dict[str, str]:
    return {k.lower(): k for facts in fp.code.values() for k in facts.keys or ()}


def _stem_of(literal: str) -> str | None:
    """The stem a literal names numbered things by: ``var%d``, ``var-`` and ``var`` give
    ``var``."""
    m = _NUMBERED.fullmatch(literal)
    return m.group("stem").rstrip("-_") if m else None


def _find_name(name: str, where: str | None, fp: Fingerprint) -> Finding:
    """Whether a file (``where``, or any source file) writes ``name`` as a string literal;
    "var0" is written by ``"var"`` or ``"var%d"`` too (a numbered name is made)."""
    files = [where] if where is not None else sorted(fp.code)
    stem = m.group("stem") if (m := _STEM.fullmatch(name)) else None
    said, unknown, stems = [], [], []
    for path in files:
        facts = fp.code.get(path)
        if facts is None:
            return Finding((), None, f"{path} is not source code the fingerprint reads", False)
        if facts.keys is None or not facts.parsed:
            if facts.keys is None or facts.could_mention([stem or name]):
                unknown.append(path)
            continue
        if name in facts.keys:
            said.append(path)
        elif stem is not None and any(_stem_of(k) == stem for k in facts.keys
                                      if k.startswith(stem)):  # fmt: skip
            stems.append(path)
    if stems and where is None and not said:
        # ``"v"`` somewhere: a string of the stem in the one file the note places it in
        # makes the names; anywhere, it may be any other "v"
        detail = f'{listed(stems)} writes the string "{stem}"; cannot tell it makes "{name}"'
        return Finding((), None, detail, False)
    said += stems
    if said:
        return Finding(tuple(said), None, f'{listed(said)} writes the string "{name}"'
                       + (f' (or its stem "{stem}")' if stem else ""))  # fmt: skip
    if unknown:
        return Finding((), None, f'no file read writes the string "{name}"; {unknown[0]} was '
                       "not read whole: cannot tell", False)  # fmt: skip
    place = where or "the source code"
    written = f'"{name}" or "{stem}"' if stem else f'"{name}"'
    return Finding((), None, f"no string in {place} is {written}")
