"""Literal strings that every match of a regular expression contains.

``needles(source)`` reads a pattern (``anchors.regex_syntax``) and returns strings one of
which is inside every match (``{"longer"}`` for ``\\bno\\s+longer\\s+``), or None when it
can name none (``\\w+``). A text that holds none of them cannot match, so it
need not be searched: a test of a few substrings instead of a regular expression that must
try every position (adr/0020). Only what the pattern must match is used: literals, sets of
a few characters, alternatives (each must have needles) and repetitions of at least one;
lookarounds, ``.``, classes, anchors and anything unknown name nothing.

The needles hold for the pattern compiled *without* ``IGNORECASE`` (literal characters
match only themselves); ``anchors.cue_patterns`` uses them only where it matches the
case-sensitive patterns. ``Guarded`` puts them in front of any compiled pattern, a
case-blind one included: the readers of ``store.contradictions`` search each note with a
few dozen patterns compiled ``IGNORECASE``, most of which cannot match it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from anchors.regex_syntax import (
    ATOMIC,
    BRANCH,
    GROUP,
    IN,
    LITERAL,
    REPEAT,
    Node,
    Sequence,
    parse,
)

__all__ = ["ASCII_FOLDS", "Guarded", "Needles", "alternation", "ascii_key", "guarded", "needles"]

_MAX_SET = 4  # a character set of up to this many literals multiplies the needles
_MAX_NEEDLES = 64
_MAX_LOOKED = 6  # more needles than this are looked for with one search of their trie

Needles = frozenset[str]

# The letters besides the ASCII ones that a case-blind ASCII letter also matches, and that
# letter (``tests/anchors/test_cue_patterns.py`` checks every code point). ``str.lower``
# maps only the Kelvin sign to its letter ("İ" becomes two characters).
ASCII_FOLDS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
_TO_ASCII = str.maketrans(ASCII_FOLDS)


def ascii_key(matched: str) -> str:
    """A word a case-blind pattern of ASCII letters matched, as its lower-case ASCII key
    ("Nightly", "nıghtly" and "NIGHTLY" are all "nightly"): what such a word is looked up
    by, never its ``lower()``."""
    return matched.translate(_TO_ASCII).lower()


def needles(source: str, flags: int = 0) -> Needles | None:
    """Strings one of which every match of ``re.compile(source, flags)`` contains, when
    ``flags`` has no ``IGNORECASE``; None when no such strings can be named."""
    if flags & re.IGNORECASE:
        return None
    return _needles_of(source, flags, compiled=True)


def _needles_of(source: str, flags: int, compiled: bool = False) -> Needles | None:
    """``needles``; ``compiled`` False for a pattern not compiled here (a ``Guarded``
    compiles its own when a text needs it, and a wrong one fails there)."""
    parsed = parse(source, flags, compiled=compiled)
    if parsed is None or "i" in parsed.global_flags:  # (?i): the whole pattern case-blind
        return None
    return _sequence(parsed.sequence)


def _better(a: Needles | None, b: Needles | None) -> Needles | None:
    """The more selective of two needle sets: longer shortest needle, then fewer needles."""
    if a is None or b is None:
        return a if b is None else b
    key_a = (min(map(len, a)), -len(a))
    key_b = (min(map(len, b)), -len(b))
    return a if key_a >= key_b else b


def _sequence(items: Sequence) -> Needles | None:
    """Every element of a sequence is inside its match: the best element's needles, where
    consecutive elements that match only a few strings make one run of text (``n[’']t``:
    ``n't`` or ``n’t``; ``tr(?:y|ies)``: ``try`` or ``tries``)."""
    best: Needles | None = None
    run: set[str] = {""}
    for node in items:
        strings = _strings(node)
        if strings is not None and len(run) * len(strings) <= _MAX_NEEDLES:
            run = {r + s for r in run for s in strings}
            continue
        best = _better(best, _run(run))  # the run ends here
        run = {""}
        if strings is not None:
            run = set(strings)  # and the next one starts
        else:
            best = _better(best, _node(node))
    return _better(best, _run(run))


def _run(run: set[str]) -> Needles | None:
    """A run's strings, those that hold a shorter one left out (it is in them); None when
    the run may match nothing at all."""
    if "" in run:
        return None
    return frozenset(s for s in run if not any(o != s and o in s for o in run))


def _strings(node: Node) -> list[str] | None:
    """Every string one element can match, when they are a few (a literal, a set of a few
    characters, alternatives or an optional part made of those); else None."""
    op, value = node
    if op == LITERAL:
        return [chr(value)]
    if op == IN:
        if 0 < len(value) <= _MAX_SET and all(kind == LITERAL for kind, _ in value):
            return [chr(code) for _, code in value]
        return None
    if op == GROUP:
        _capturing, flagged, pattern = value
        return None if flagged else _product(pattern)
    if op == BRANCH:
        found: list[str] = []
        for alternative in value:
            some = _product(alternative)
            if some is None:
                return None
            found.extend(some)
        return found if len(found) <= _MAX_NEEDLES else None
    if op == REPEAT:
        low, high, kind, pattern = value
        if kind != "possessive" and high == 1 and low in (0, 1):
            inner = _product(pattern)
            if inner is None:
                return None
            return [*inner, ""] if low == 0 else inner
    return None


def _product(items: Sequence) -> list[str] | None:
    """Every string a sequence can match, when each element matches only a few."""
    found = [""]
    for node in items:
        strings = _strings(node)
        if strings is None or len(found) * len(strings) > _MAX_NEEDLES:
            return None
        found = [f + s for f in found for s in strings]
    return found


def _node(node: Node) -> Needles | None:
    op, value = node
    if op == GROUP:
        _capturing, flagged, pattern = value
        if flagged:
            return None  # (?i:...) and the like change what a literal matches
        return _sequence(pattern)
    if op == BRANCH:
        found: set[str] = set()
        for alternative in value:
            sub = _sequence(alternative)
            if sub is None:
                return None  # an alternative without needles: the whole has none
            found |= sub
        return frozenset(found) if len(found) <= _MAX_NEEDLES else None
    if op == REPEAT:
        low, _high, _kind, pattern = value
        return _sequence(pattern) if low >= 1 else None
    if op == ATOMIC:
        return _sequence(value)
    return None  # anchors, lookarounds, classes, "." and the unknown: no needle


def alternation(strings: frozenset[str] | set[str]) -> str:
    """A pattern that finds any of ``strings`` (none empty), written as a trie
    (``dro(?:pped|p)``...) so that each position of a text costs one branch per character,
    not one per string."""
    trie: dict[str, Any] = {}
    for string in strings:
        node = trie
        for char in string:
            node = node.setdefault(char, {})
        node[""] = {}  # a string ends here
    return _trie(trie)


def _trie(node: dict[str, Any]) -> str:
    branches = [re.escape(char) + _trie(child) for char, child in sorted(node.items()) if char]
    if "" in node:  # a string may end here: what follows is optional
        return f"(?:{'|'.join(branches)})?" if branches else ""
    return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"


class Guarded:
    """A pattern that is not searched in a text holding none of its needles: such a text
    cannot match, so ``search`` gives None, ``finditer`` nothing and ``sub`` the text
    itself, at the cost of a few substring tests. Every answer is the pattern's own.

    A case-blind pattern (``IGNORECASE``) matches a literal in any case, and ``ſ``, ``ı``,
    ``İ`` or the Kelvin sign for an ``s``, ``i`` or ``k``: its needles (lower-cased, all
    ASCII) are looked for in the lower-cased text only when that text is ASCII; any other
    text is searched. A pattern without needles is always searched.

    Nothing is done until a text is looked at: the needles are read then, and the pattern
    compiled for the first text that holds one. The readers hold dozens of these; a
    process pays only for those its texts reach (``re`` compiles in Python, and a command
    that never reads a note would otherwise compile them all at start)."""

    __slots__ = ("_blind", "_flags", "_looked", "_pattern", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._blind = bool(flags & re.IGNORECASE)
        self._pattern: re.Pattern[str] | None = None
        # (needles, their test) once read; a read twice by two threads gives the same.
        self._looked: tuple[tuple[str, ...] | None, Callable[[str], bool] | None] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        pattern = self._pattern
        if pattern is None:
            pattern = self._pattern = re.compile(self._source, self._flags)
        return pattern

    def _read(self) -> tuple[tuple[str, ...] | None, Callable[[str], bool] | None]:
        looked = self._looked
        if looked is not None:
            return looked
        found = _needles_of(self._source, self._flags & ~re.IGNORECASE)
        if found is not None and self._blind:
            found = frozenset(n.lower() for n in found) if all(map(str.isascii, found)) else None
        # What is looked for in a text (lower-cased first for a case-blind pattern).
        find: Callable[[str], bool] | None = None
        wanted: tuple[str, ...] | None = None
        if found is not None:
            wanted = tuple(sorted(found))
            if len(wanted) > _MAX_LOOKED:
                trie = re.compile(alternation(found))
                find = lambda text: trie.search(text) is not None  # noqa: E731
            else:
                find = lambda text: any(map(text.__contains__, wanted))  # noqa: E731
        looked = self._looked = (wanted, find)
        return looked

    @property
    def needles(self) -> tuple[str, ...] | None:
        """What is looked for in a text (lower-cased for a case-blind pattern), or None."""
        return self._read()[0]

    @property
    def needled(self) -> bool:
        """Whether a text is ever left unsearched (the pattern has needles)."""
        return self._read()[1] is not None

    def cannot_match(self, text: str) -> bool:
        """Whether ``text`` holds none of the needles, so that no part of it matches."""
        find = self._read()[1]
        if find is None:
            return False
        if self._blind:
            if not text.isascii():
                return False
            text = text.lower()
        return not find(text)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self.cannot_match(text) else self.pattern.search(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self.cannot_match(text) else self.pattern.match(text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return None if self.cannot_match(text) else self.pattern.fullmatch(text, pos, endpos)

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return iter(()) if self.cannot_match(text) else self.pattern.finditer(text, pos, endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return [] if self.cannot_match(text) else self.pattern.findall(text, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return text if self.cannot_match(text) else self.pattern.sub(repl, text, count)

    def __repr__(self) -> str:
        return f"Guarded({self._source!r}, {self._flags})"


def guarded(source: str, flags: int = 0) -> Guarded:
    """``re.compile(source, flags)``, searched only in texts that hold one of its needles
    (compiled when a text first needs it)."""
    return Guarded(source, flags)
