"""Negated clauses no anchor checks.

"route.go doesn't touch regular expressions" names a file that exists; the anchor
``file:route.go`` holds, and the note says nothing that anchor can check. A negation is a
claim about what the code does *not* do: it is checked only by an absent anchor read from
its clause (``!import:regexp@route.go``). A negated clause with none is an uncovered part
of the note ("the negation 'doesn't touch regular expressions'"), so the note is served as
partly checked, never VERIFIED on the existence of the things it names. A restriction
("the default features are just color and humantime", "published on 127.0.0.1 only") says
that nothing else is: a negation too, named as a restriction.

Not negations of the note's claim: words inside quotes or backticks (a message, a name),
a command's option ("--no-cache-dir"), "yes/no", "not only", and conditions ("defaults to
20 when not set", "if no token is given"), which say when something happens, not that it
does not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

__all__ = ["Negated", "negated_clauses"]

_NEGATION = re.compile(
    r"\b(?:not|never|no|nothing|none|neither|nor|without|cannot|nowhere|no\s+longer)\b"
    r"|\b\w+n[’']t\b"
    # "the default features are just color and humantime": nothing else is, a negation too
    r"|(?<![-\w])(?:only|just|solely|exclusively)\b",  # ("read-only" restricts nothing)
    re.IGNORECASE,
)
# Quoted text (a message, a name) and code spans: what they hold is not the note's wording.
_QUOTED = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']*'(?!\w)|‘[^’]*’"
                     r"|(?<![\w-])--[a-z][\w-]*")  # ... and a command's option: "--no-deps"
_NOT_A_NEGATION = re.compile(
    r"yes\s*/\s*no|no\s*/\s*yes|not\s+only|no[.-]\s*\d|no-op|\bno\s+(?:more|less)\s+than\b"
    r"|\bnot\s+(?:more|less|later|earlier|fewer)\s+than\b",
    re.IGNORECASE,
)
# A condition in front of the negation: "when not set", "if no token is given", "unless",
# "rejects alerts whose environment is not in the list".
_CONDITION = re.compile(
    r"\b(?:if|when|whenever|unless|until|whether|or|once|where|whose)\s+(?:\S+\s+){0,3}$",
    re.IGNORECASE,
)
# Where a clause ends: a dot ends a sentence only before a space ("Route.GetVarNames").
_CLAUSE_END = re.compile(r"[;!?]|[:.](?=\s|$)|\s[-–—]\s|,\s+(?:but|while|whereas|so|and|which)\b"
                         r"|\s\(|\)")  # (an aside in parentheses is a clause of its own)
# A call's parentheses (``verify()``, ``matches(record)``), which open no aside
_CALL_PARENS = re.compile(r"(?<=[\w\]])\((?P<args>[^()\n]*)\)")
_MAX_WORDS = 7
_RESTRICTIONS = frozenset({"only", "just", "solely", "exclusively"})


class Negated(NamedTuple):
    """A clause (``start``..``end`` of the text) no absent anchor checks; ``part``: how it
    is named as an uncovered part, None when another part names it already."""

    start: int
    end: int
    restriction: bool
    part: str | None
    # Where what it denies begins: "in Linear, not GitHub issues" denies only what follows
    governs: int = 0


def negated_clauses(
    text: str,
    spans: Iterable[tuple[int, int, bool]],
    checked: Sequence[str],
    named: Sequence[str] = (),
) -> list[Negated]:
    """The negated clauses of ``text`` that none of ``checked`` stands in (the names absent
    anchors were read from, and those whose negation is already an uncovered part), each
    with where it stands and how it is named: the words from its negation on, ``the
    negation "doesn't touch regular expressions"``; a restriction ("only", "just": nothing
    else) likewise, as ``the restriction "..."``. ``named``: uncovered parts already found,
    which may quote the clause itself. ``spans``: the sentences, as
    ``anchors.subject.sentence_spans`` gives them."""
    masked = _QUOTED.sub(lambda m: " " * len(m.group()), text)
    masked = _NOT_A_NEGATION.sub(lambda m: " " * len(m.group()), masked)
    masked = _CALL_PARENS.sub(lambda m: f"<{m['args']}>", masked)
    folded = [c.split(" (", 1)[0].casefold() for c in checked if c.strip()]
    quoted = [n.casefold() for n in named]
    found_parts: list[str] = []
    clauses: list[Negated] = []
    for start, end, question in spans:
        if question:
            continue  # a question asserts nothing
        for found in _NEGATION.finditer(masked, start, end):
            clause_start = _clause_start(masked, start, found.start())
            if _CONDITION.search(masked, clause_start, found.start()):
                continue
            stop = _CLAUSE_END.search(masked, found.end(), end)
            clause_end = stop.start() if stop else end
            clause = text[clause_start:clause_end].casefold()
            if any(name in clause for name in folded):
                continue
            words = text[found.start() : clause_end].split()[:_MAX_WORDS]
            restriction = found.group().lower() in _RESTRICTIONS
            if restriction and len(words) < 2:  # "... on 127.0.0.1 only": what it restricts
                words = text[clause_start : found.end()].split()[-_MAX_WORDS:]
            part = " ".join(words).strip(" ,'\"`")
            opening = " ".join(words[:3]).casefold()
            kind = "restriction" if restriction else "negation"
            contrast = masked[clause_start : found.start()].rstrip().endswith(",")
            governs = found.start() if contrast else clause_start
            named_already = any(opening in n for n in quoted)  # in other words
            if part and not named_already and all(part not in p for p in found_parts):
                found_parts.append(part)
                clauses.append(Negated(clause_start, clause_end, restriction,
                                       f'the {kind} "{part}"', governs))  # fmt: skip
            else:
                clauses.append(Negated(clause_start, clause_end, restriction, None, governs))
    return clauses


def _clause_start(masked: str, sentence_start: int, at: int) -> int:
    """Where the clause holding position ``at`` begins (after the last clause break)."""
    begin = sentence_start
    asides: list[int] = []  # where the clause began before each aside still open
    for stop in _CLAUSE_END.finditer(masked, sentence_start, at):
        mark = stop.group()
        if mark.endswith("("):
            asides.append(begin)
        elif mark == ")":
            begin = asides.pop() if asides else stop.end()  # the clause goes on past it
            continue
        begin = stop.end()
    return begin
