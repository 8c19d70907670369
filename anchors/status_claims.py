"""The HTTP status a note says a named function answers with, read into ``status:`` anchors
(issue #32): "methodNotAllowed answers with 400 Bad Request", "`get_user` returns a 404
when the user is missing", "a method mismatch is answered by methodNotAllowed with status
405 (http.StatusMethodNotAllowed)", "`create` never sends a 409".

A wrong reading would refute a true note, so a status is read only when

- a cue says it is a response's status ("answers", "responds", "with status", "HTTP 404";
  "returns", "sends" and the like only in a sentence about HTTP), the number is one from
  100 to 599 not followed by a unit ("500 items") nor part of a list ("404 or 410"), and
  a reason phrase after it, if any, is its own;
- the sentence is a plain statement: no plan, wish or past ("should return 404");
- the function is named before the status in the same sentence, as code, and the note's
  reading (or the code's definitions) resolves it;
- a negation ("never", "does not", "no longer") stands right before the cue.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from http import HTTPStatus

from anchors.codenames import own_names
from anchors.facts import Fingerprint
from anchors.http_status import status_number
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.status_anywhere import ANY, sets_anywhere, unnamed_subject

__all__ = ["StatusReading", "read_statuses"]


@dataclass(frozen=True)
class StatusReading:
    """``anchors`` (each with the text it was read from), the ``spans`` of the statuses they
    check, and the status ``constants`` named in the note that they bind."""

    anchors: tuple[tuple[Anchor, str], ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    constants: tuple[str, ...] = ()
    # the reason phrases after them ("Not Found"), which are no negation
    phrases: tuple[str, ...] = ()


_CONST = (r"(?:http\.)?Status[A-Z]\w+|(?:[\w.]*\.)?HTTP_[1-5]\d\d\w*"
          r"|(?:[\w.]*\.)?(?:HTTPStatus|StatusCode)(?:\.|::)[A-Z_]+")  # fmt: skip
_VALUE = rf"`?(?:HTTP\s+)?(?:(?P<num>[1-5]\d\d)(?![\d.,:]\d)|(?P<const>{_CONST}))`?"
_FILLER = r"(?:\s+(?:an?|the|status|code|HTTP|response|error|of|with|by|using|via))*"
# Verbs that say what a response is; those in ``_NEEDS_HTTP`` say so only beside HTTP words.
_VERB = (r"answer(?:s|ed|ing)?|respond(?:s|ed|ing)?|repl(?:y|ies|ied|ying)|"
         r"return(?:s|ed|ing)?|sends?|sending|sent|writes?|writing|abort(?:s|ed|ing)?|"
         r"fail(?:s|ed|ing)?|reject(?:s|ed|ing)?|raise[sd]?|raising|throws?|throwing|"
         r"gives?|giving|yields?|sets?|setting|emits?|emitting|redirect(?:s|ed|ing)?")  # fmt: skip
_NEEDS_HTTP = re.compile(r"^(?:return|send|sent|writ|fail|rais|throw|giv|yield|set|emit)",
                         re.IGNORECASE)  # fmt: skip
_CUE = re.compile(
    rf"\b(?:(?P<verb>{_VERB}){_FILLER}\s+|(?P<noun>status(?:\s+code)?|HTTP|code)\s*"
    rf"(?:of\s+|is\s+|=\s*|:\s*)?)(?:with\s+)?{_VALUE}",
    re.IGNORECASE,
)
_HTTP_WORDS = re.compile(
    r"\b(?:status|HTTP|response|respond|answer|request|handler|endpoint|route|reply|"
    r"abort|Bad\s+Request|Not\s+Found|Forbidden|Unauthorized|Created|No\s+Content)\b",
    re.IGNORECASE,
)
_UNIT = re.compile(
    r"\s*(?:ms\b|milliseconds?|s\b|secs?\b|seconds?|minutes?|hours?|bytes?|[KMG]i?B\b|items?|"
    r"rows?|records?|results?|entries|lines?|times|characters|chars|%|px|users?|requests|"
    r"retries|attempts|pages?|elements?)",
    re.IGNORECASE,
)
_LIST = re.compile(r"\s*(?:or|/|and/or|,)\s*`?(?:HTTP\s+)?[1-5]\d\d\b")
_LISTED_BEFORE = re.compile(r"[1-5]\d\d`?\s*(?:or|/|,)\s*$")
_NEGATION = re.compile(
    r"\b(?:never|not|no\s+longer|(?:does|do|did|will|would|can|could)n[’']t|cannot|won[’']t)"
    r"(?:\s+(?:ever|again|actually))?\s+$",
    re.IGNORECASE,
)
_SET_ASIDE = re.compile(r"(?:\bnot|\brather\s+than|\binstead\s+of|\bbut)\s+$", re.IGNORECASE)
_CONDITION_BEFORE = re.compile(
    r"\b(?:for|on|if|when|whenever|given|unless|than|from|to|against|after|before|of)"
    r"(?:\s+(?:an?|the|any|every|each))?\s+$",
    re.IGNORECASE,
)
_NOT_PLAIN = re.compile(
    r"\b(?:should|would|could|might|must|will|used\s+to|was|were|previously|formerly|"
    r"planned|plan|todo|maybe|perhaps|ought|wish|expected\s+to)\b",
    re.IGNORECASE,
)
_PHRASES = sorted(((s.phrase.lower(), int(s)) for s in HTTPStatus), key=lambda p: -len(p[0]))
_CODE_NAME = re.compile(r"`?(?P<name>[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)(?:\(\))?`?")


def read_statuses(
    text: str, fp: Fingerprint, kept: Sequence[tuple[Anchor, str]],
    spans: Sequence[tuple[int, int, bool]],
) -> StatusReading:
    """The ``status:`` anchors ``text`` supports: ``kept`` are the anchors read so far with
    the text each was read from (the functions a sentence names), ``spans`` its sentences."""
    anchors: list[tuple[Anchor, str]] = []
    values: list[tuple[int, int]] = []
    constants: list[str] = []
    phrases: list[str] = []
    functions = [(a, o) for a, o in kept if a.kind is AnchorKind.SYMBOL
                 and a.expect is Expect.PRESENT and a.stated is None]  # fmt: skip
    own = own_names(fp)
    for start, end, question in spans:
        sentence = text[start:end]
        if question or _NOT_PLAIN.search(sentence):
            continue
        for m in _CUE.finditer(sentence):
            negated = _NEGATION.search(sentence, max(0, m.start() - 30), m.start()) is not None
            found = _function(sentence, m.start(), functions, fp)
            if found is None and negated:  # "the router never writes a 405": no function named
                found = unnamed_subject(sentence, m.start(), fp, own)
            if found is None:
                continue
            function, scope = found
            stated = _stated(sentence, m, _sets_statuses(fp, function, scope, m))
            if stated is None:
                continue
            number, phrase = stated
            if phrase:
                phrases.append(phrase)
            expect = Expect.ABSENT if negated else Expect.PRESENT
            value_at = m.start("num") if m["num"] else m.start("const")
            written = m["num"] or m["const"]
            anchors.append((Anchor(AnchorKind.STATUS, function, expect, scope, str(number)),
                            written))  # fmt: skip
            values.append((start + value_at, start + m.end()))
            if m["const"]:
                constants.append(m["const"])
            # "(http.StatusMethodNotAllowed)" after the number names the same status
            for c in re.finditer(rf"`?(?P<c>{_CONST})`?", sentence[m.end() : m.end() + 60]):
                if status_number(c["c"]) == number:
                    constants.append(c["c"])
                    values.append((start + m.end() + c.start(), start + m.end() + c.end()))
    return StatusReading(
        tuple(dict.fromkeys(anchors)), tuple(values), tuple(dict.fromkeys(constants)),
        tuple(dict.fromkeys(phrases)),
    )


def _sets_statuses(fp: Fingerprint, function: str, scope: str | None,
                   m: re.Match[str]) -> bool:  # fmt: skip
    """Whether the code has ``function`` set an HTTP status: then "writes a 405" is one.
    Of any function (``ANY``): whether one of the place sets the very status ``m`` reads."""
    if function == ANY:
        number = int(m["num"]) if m["num"] else status_number(m["const"])
        return number is not None and sets_anywhere(fp, scope, number)
    paths = [scope] if scope is not None else [p for p, _ in fp.definitions(function)]
    return any(s.function == function for p in paths if (facts := fp.code.get(p)) is not None
               for s in facts.statuses)  # fmt: skip


def _stated(
    sentence: str, m: re.Match[str], sets_statuses: bool
) -> tuple[int, str] | None:
    """The status ``m`` reads, or None when the text does not plainly say one: a verb
    that says so only of HTTP needs HTTP words, a named status, or a function that sets
    statuses (``sets_statuses``). With the number, its reason phrase as written after it
    ("" when none)."""
    number = int(m["num"]) if m["num"] else status_number(m["const"])
    if number is None or not 100 <= number <= 599:
        return None
    after, before = sentence[m.end() :], sentence[: m.start()]
    if m["num"] and (_UNIT.match(after) or _LIST.match(after) or _LISTED_BEFORE.search(before)):
        return None
    if _SET_ASIDE.search(before[-16:]):
        return None  # "405, not 400": the one set aside is not what is said
    if m["noun"] and _CONDITION_BEFORE.search(before[-24:]):
        return None  # "returns False for status 404": a status it is given, not one it sets
    said = after.lstrip(" `(")
    phrase = next(((p, code) for p, code in _PHRASES if said.lower().startswith(p)), None)
    if phrase is not None and phrase[1] != number:
        return None  # "404 Bad Request": which one is meant is not clear
    verb = m["verb"]
    if (verb and _NEEDS_HTTP.match(verb) and not m["const"] and not sets_statuses
            and phrase is None and not _HTTP_WORDS.search(sentence)):  # fmt: skip
        return None  # ("writes 504 Gateway Timeout": its reason phrase says it is HTTP)
    return number, said[: len(phrase[0])] if phrase is not None else ""


def _function(
    sentence: str, at: int, functions: Sequence[tuple[Anchor, str]], fp: Fingerprint
) -> tuple[str, str | None] | None:
    """(qualified name, path or None) of the function named last before ``at``."""
    best: tuple[int, str, str | None] | None = None
    for anchor, origin in functions:
        where = sentence.rfind(origin, 0, at)
        if where >= 0 and (best is None or where > best[0]):
            best = (where, anchor.value, anchor.scope)
    if best is not None:
        return best[1], best[2]
    # A name the reading did not keep: resolved here when it is written as code.
    named = [m for m in _CODE_NAME.finditer(sentence, 0, at) if _code_like(m)]
    if not named:
        return None
    name = named[-1]["name"].replace("::", ".")
    paths = sorted({p for p, _ in fp.definitions(name)})
    if not paths:
        return None
    return name, paths[0] if len(paths) == 1 else None


# "the Timeout middleware": a capitalised name said to be a function of a web stack
_ROLE_NOUN = re.compile(r"\s+(?:middleware|handler|view|endpoint|function|method)\b")


def _code_like(m: re.Match[str]) -> bool:
    """Written as code: in backticks, called, with an underscore, a dot or an inner capital,
    or a capitalised name its noun says is a function ("the Timeout middleware")."""
    name, whole = m["name"], m.group(0)
    inner_capital = any(ch.isupper() for ch in name[1:]) and not name.isupper()
    named = name[:1].isupper() and _ROLE_NOUN.match(m.string, m.end()) is not None
    return whole.startswith("`") or whole.endswith("()") or "_" in name or "." in name or (
        inner_capital or named)  # fmt: skip
