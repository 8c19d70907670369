"""Messages a note quotes as what the code says: "fails with "mux: unbalanced braces in
%q"", "`Editor.edit_file` raises ClickException("<editor>: Editing failed!")", "logs
'cache miss for %s'".

A quoted text is a message when the sentence says the code produces it (raises, fails,
errors, logs, prints, returns, shows, says, warns, prompts, answers or exits with it, or
a call in the note passes it: ``ClickException("...")``), and it has a space or a colon and
enough fixed text to find (``anchors.messages.MIN_FIXED`` characters outside
placeholders); or when the sentence names it as a string the code holds ("uses the
template "{wide_bar} {pos}/{len}"", a format string, a pattern, a prefix), with any fixed
text; or a name the code stores something under ("under the string key "vars"", "the
context key "user""), which the code writes as a string literal; or a series of numbered
names ("capture groups are named var0, var1, ..."), whose stem the code writes. Any other
quoted name ("the "Getting started" page"), a quoted value or an HTTP status's reason
phrase is none. The message is looked for in the one source file the
sentence's other anchors point at (a symbol's or a named file's), else anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.languages import language_of
from anchors.messages import MIN_FIXED, NAME_LIKE, fixed_segments
from anchors.spec import Anchor, AnchorKind

__all__ = ["Quote", "find_quotes", "header_names", "message_anchor"]

_I = re.IGNORECASE
_QUOTED = re.compile(
    r'"(?P<d>[^"\n]{4,200})"|“(?P<c>[^”\n]{4,200})”|(?<![^\s(\[{])\'(?P<s>[^\'\s][^\'\n]{3,199})\'(?!\w)'
)
# A verb of producing a message before the quote (within the sentence), or a call that
# passes it right before it: ``Error("...")``, ``log.warning('...')``.
_SAYING = re.compile(
    r"\b(?:rais\w*|throw\w*|fail\w*|error\w*|errs|log\w*|print\w*|return\w*|show\w*|"
    r"display\w*|say\w*|said|warn\w*|prompt\w*|respond\w*|answer\w*|exit\w*|output\w*|"
    r"emit\w*|write\w*|wrote|report\w*|message\w*|panic\w*|abort\w*|reject\w*|complain\w*|"
    r"refus\w*|den(?:y|ies|ied)|repl(?:y|ies|ied)|tell\w*|told|describ\w*)\b",
    _I,
)
# What people write, not the code: a commit's message, a pull request's title, a heading.
_NOT_CODE = re.compile(
    r"\b(?:commits?|pull\s+requests?|PRs?|merge\s+requests?|branch(?:es)?|changelog|"
    r"release\s+notes|headings?|titles?|sections?|pages?|docs?|documentation|readme|tickets?|"
    r"issues?|comments?|docstrings?)\b", _I
)
_CALL_BEFORE = re.compile(r"[A-Za-z_][\w.]*\($")
# A string of the code named by what it is for: "uses the template "...""
_NAMED_STRING = re.compile(r"\b(?:template|format\s+string|pattern|prefix|suffix)\s+$", _I)
# A key the code stores or finds something under: "under the string key "vars"", "the
# context key "user"", "with the key "token"" (a name the code writes as a string)
_KEY_BEFORE = re.compile(
    r"(?:\b(?:under|with|at|by|in|as)\s+(?:the\s+|a\s+|its\s+)?(?:(?:string|context|"
    r"dict(?:ionary)?|map|cache|session)\s+)?key|\b(?:string|context)\s+key)\s+`?$", _I
)
_REASON_PHRASES = frozenset({
    "not found", "bad request", "forbidden", "unauthorized", "internal server error",
    "method not allowed", "no content", "too many requests", "service unavailable",
    "unprocessable entity", "conflict", "created", "accepted", "gone", "bad gateway",
})  # fmt: skip


def _sentence(spans: Sequence[tuple[int, int, bool]], at: int, size: int) -> tuple[int, int]:
    return next(((a, b) for a, b, _ in spans if a <= at < b), (0, size))


def _file_of(anchors: Sequence[Anchor], fp: Fingerprint) -> str | None:
    """The one source file the anchors of a sentence point at, or None."""
    files: set[str] = set()
    for anchor in anchors:
        if anchor.kind is AnchorKind.FILE and language_of(anchor.value) is not None:
            files.add(anchor.value)
        elif anchor.kind in (AnchorKind.SYMBOL, AnchorKind.STATUS, AnchorKind.PARAM) and (
                anchor.scope is not None):  # fmt: skip
            files.add(anchor.scope)
        elif anchor.kind is AnchorKind.SYMBOL:
            found = {p for p, _ in fp.definitions(anchor.value)}
            if len(found) == 1:
                files |= found
    return files.pop() if len(files) == 1 else None


class Quote(NamedTuple):
    """A quoted message of the note: its text and the span of the quote."""

    message: str
    span: tuple[int, int]


# "capture groups are named var0, var1, ...": numbered names the code makes, from a string
# of their stem ("var" + n, "var%d")
_SERIES = re.compile(
    r"\b(?:named|called)\s+`?(?P<v>(?P<stem>[A-Za-z_][A-Za-z_\-]*?)[\-_]?\d+)`?"
    r"\s*,\s*`?(?P=stem)[\-_]?\d+`?"
)


# "the `lektor.plugins` entry-point group", "the "cloudsqlmysql" network": a name followed by
# what it names, which the code writes as a string
_NAMED_KIND = re.compile(
    r"(?:`(?P<t>[A-Za-z_][\w.\-]{1,63})`|\"(?P<d>[A-Za-z_][\w.\-]{1,63})\"|“(?P<c>[A-Za-z_][\w.\-]{1,63})”)"
    r"\s+(?:entry[\s-]?points?\s+group|group|event|signal|channel|topic|queue|network|namespace)\b",
    re.IGNORECASE,
)
# "registers a network called "cloudsqlmysql"": what it names, then the name
_KIND_NAMED = re.compile(
    r"\b(?:entry[\s-]?points?\s+group|group|event|signal|channel|topic|queue|network|namespace)"
    r"\s+(?:called|named)\s+(?:`(?P<t>[A-Za-z_][\w.\-]{1,63})`|\"(?P<d>[A-Za-z_][\w.\-]{1,63})\"|"
    r"“(?P<c>[A-Za-z_][\w.\-]{1,63})”)",
    re.IGNORECASE,
)
# "from the X-API-Key header": an HTTP header's name (``header_name``)
_HEADER = re.compile(
    r"(?:`(?P<t>[A-Za-z][\w\-]{1,63})`|\"(?P<d>[A-Za-z][\w\-]{1,63})\"|"
    r"(?P<w>X-[A-Za-z0-9\-]+|[A-Z][a-z]+(?:-[A-Z][A-Za-z0-9]*)+))\s+(?:HTTP\s+|request\s+)?"
    r"header\b"
)


def header_names(text: str) -> list[tuple[str, tuple[int, int]]]:
    """(name, span) of each HTTP header ``text`` names as one ("the X-API-Key header")."""
    found = []
    for m in _HEADER.finditer(text):
        group = "t" if m["t"] else "d" if m["d"] else "w"
        found.append((m[group], m.span(group)))
    return found


_EXAMPLE_BEFORE = re.compile(r"\b(?:like|such\s+as|e\.g\.|of\s+the\s+form|in\s+the\s+form|"
                             r"shaped|looking\s+like)\s*$", re.IGNORECASE)
_PLACEHOLDER_WORD = re.compile(r"<\w+>|\{\w*\}")


def find_quotes(text: str, spans: Sequence[tuple[int, int, bool]]) -> list[Quote]:
    """The quotes of ``text`` that are messages; the names inside them are the message's
    words, no claims of their own. A series of numbered names ("named var0, var1") is
    one too: the code writes their stem as a string."""
    found = []
    for m in _QUOTED.finditer(text):
        if (message := _message(text, spans, m)) is not None:
            found.append(Quote(message, m.span()))
    for m in _SERIES.finditer(text):
        if not any(a <= m.start() < b for _, (a, b) in found):
            found.append(Quote(m.group("v"), (m.start("v"), m.end())))
    for m in (*_NAMED_KIND.finditer(text), *_KIND_NAMED.finditer(text)):
        group = "t" if m["t"] else "d" if m["d"] else "c"
        if not any(a <= m.start() < b for _, (a, b) in found):
            found.append(Quote(m[group], m.span(group)))
    return found


def _message(text: str, spans: Sequence[tuple[int, int, bool]], m: re.Match[str]) -> str | None:
    message = (m.group("d") or m.group("c") or m.group("s") or "").strip()
    start, _end = _sentence(spans, m.start(), len(text))
    before = text[start : m.start()]
    if (_NAMED_STRING.search(before) and not _NOT_CODE.search(before) and fixed_segments(message)
            and (" " in message or ":" in message)):  # fmt: skip
        # "uses the template "{wide_bar} {pos}/{len}"": a string the code holds (with a space
        # or a colon, as the strings kept as messages have: another cannot be looked for)
        return message
    if _KEY_BEFORE.search(before) and NAME_LIKE.fullmatch(message):
        return message  # "under the string key "vars"": a name the code writes as a string
    if _EXAMPLE_BEFORE.search(before) and _PLACEHOLDER_WORD.search(message):
        return None  # "lines like "<prio>target[pid]: msg"": a shape, not a literal
    called = _CALL_BEFORE.search(before.rstrip("`")) is not None
    if (not called and _SAYING.search(before) is None) or _NOT_CODE.search(before):
        return None
    if (" " not in message and ":" not in message) or message.lower() in _REASON_PHRASES:
        return None
    if sum(len(part) for part in fixed_segments(message)) < MIN_FIXED:
        return None
    return message


def message_anchor(quote: Quote, text: str, spans: Sequence[tuple[int, int, bool]],
                   kept: Sequence[tuple[Anchor, str]], fp: Fingerprint) -> Anchor:  # fmt: skip
    """The anchor of a quoted message; ``kept``: the anchors read from the note so far,
    with the text each was read from (they place it)."""
    start, end = _sentence(spans, quote.span[0], len(text))
    sentence = text[start:end].lower()
    callee = _CALL_BEFORE.search(text[start : quote.span[0]].rstrip("`"))
    here = [a for a, origin in kept if origin and origin.lower() in sentence
            # the exception the message is passed to lives elsewhere than the raise
            and not (callee and a.value.endswith(callee.group().rstrip("(")))]  # fmt: skip
    return Anchor(AnchorKind.MESSAGE, quote.message.rstrip("."), scope=_file_of(here, fp))
