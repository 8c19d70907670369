"""Patterns that must end where the text ends (``...$``), answered from the reversed text.

Searching ``\\b(?:use|uses|...)\\s+(?:(?:the|a|an)\\s+)?$`` tries the whole pattern at every
position of the text, although a match can only end at its end. The same question asked of
the reversed text is one anchored match: ``reversed_pattern(source)`` writes the pattern
backwards (each sequence in reverse order; alternatives, repetitions, classes and ``\\b``
as they are, ``\\b`` looking at the same two characters either way) so that
``backward.match(text[::-1])`` succeeds exactly when ``forward.search(text)`` does.

Only patterns without lookarounds, back-references, or anchors other than the final ``$``
(and ``\\b``/``\\B``) are reversed; for any other, and for a text ending in a newline (where
``$`` may also match before it), ``AtEnd`` searches forwards as before. A test compares
both answers on many texts (adr/0020).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

# The standard library's own regular-expression parser (``sre_parse`` before 3.11).
_c: Any = importlib.import_module("re._constants")
_p: Any = importlib.import_module("re._parser")

__all__ = ["AtEnd", "AtEndAll", "reversed_pattern"]

_CATEGORIES = {
    _c.CATEGORY_DIGIT: r"\d", _c.CATEGORY_NOT_DIGIT: r"\D",
    _c.CATEGORY_SPACE: r"\s", _c.CATEGORY_NOT_SPACE: r"\S",
    _c.CATEGORY_WORD: r"\w", _c.CATEGORY_NOT_WORD: r"\W",
}  # fmt: skip


class _CannotReverse(Exception):
    """The pattern has something ``reversed_pattern`` does not write backwards."""


def reversed_pattern(source: str, flags: int = 0) -> str | None:
    """The source of a pattern whose match at the start of a reversed text says whether
    ``re.compile(source, flags)`` finds a match in the text; None when ``source`` does not
    end with ``$`` or has a construct this cannot reverse."""
    if flags & (re.MULTILINE | re.VERBOSE):
        return None
    try:
        items = list(_p.parse(source, flags))
    except re.error:
        return None
    if not items or items[-1] != (_c.AT, _c.AT_END):
        return None
    try:
        return _sequence(items[:-1])
    except _CannotReverse:
        return None


def _sequence(items: list[tuple[Any, Any]]) -> str:
    return "".join(_node(op, av) for op, av in reversed(items))


def _char(code: int) -> str:
    return f"\\U{code:08x}"  # one spelling that means the character in and out of a class


def _node(op: Any, av: Any) -> str:
    if op is _c.LITERAL:
        return _char(av)
    if op is _c.NOT_LITERAL:
        return f"[^{_char(av)}]"
    if op is _c.ANY:
        return "."
    if op is _c.IN:
        return _set(av)
    if op is _c.AT and av in (_c.AT_BOUNDARY, _c.AT_NON_BOUNDARY):
        return r"\b" if av is _c.AT_BOUNDARY else r"\B"  # the same two characters either way
    if op is _c.SUBPATTERN:
        _group, add_flags, del_flags, pattern = av
        if add_flags or del_flags:
            raise _CannotReverse("inline flags")
        return f"(?:{_sequence(list(pattern))})"
    if op is _c.BRANCH:
        return "(?:" + "|".join(_sequence(list(alt)) for alt in av[1]) + ")"
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        low, high, pattern = av
        upper = "" if high is _c.MAXREPEAT else str(high)
        lazy = "?" if op is _c.MIN_REPEAT else ""
        return f"(?:{_sequence(list(pattern))}){{{low},{upper}}}{lazy}"
    raise _CannotReverse(str(op))  # lookarounds, back-references, other anchors, the unknown


def _set(items: Any) -> str:
    parts = []
    for op, av in items:
        if op is _c.NEGATE:
            parts.append("^")
        elif op is _c.LITERAL:
            parts.append(_char(av))
        elif op is _c.RANGE:
            parts.append(f"{_char(av[0])}-{_char(av[1])}")
        elif op is _c.CATEGORY and av in _CATEGORIES:
            parts.append(_CATEGORIES[av])
        else:
            raise _CannotReverse(f"set item {op}")
    return "[" + "".join(parts) + "]"


@dataclass(frozen=True, slots=True)
class AtEnd:
    """A pattern ending in ``$``: ``found(text, text[::-1])`` is
    ``forward.search(text) is not None``, usually by one match of the reversed pattern."""

    forward: re.Pattern[str]
    backward: re.Pattern[str] | None

    @classmethod
    def compiled(cls, source: str, flags: int = 0) -> AtEnd:
        backward = reversed_pattern(source, flags)
        return cls(re.compile(source, flags),
                   re.compile(backward, flags) if backward is not None else None)  # fmt: skip

    def found(self, text: str, backwards: str) -> bool:
        """Whether the pattern matches ``text``; ``backwards`` is ``text[::-1]``."""
        if self.backward is None or text.endswith("\n"):
            return self.forward.search(text) is not None
        return self.backward.match(backwards) is not None


@dataclass(frozen=True, slots=True)
class AtEndAll:
    """Several patterns ending in ``$``, asked of one text at once: ``found(text,
    text[::-1])`` holds, for each pattern, something (its match) where
    ``forward.search(text)`` finds one and None where it does not, from one match of their
    reversed patterns, each in a lookahead of its own (``(?=(R)|)``: it captures when the
    pattern matches, and always lets the next one be tried)."""

    forwards: tuple[re.Pattern[str], ...]
    backward: re.Pattern[str] | None

    @classmethod
    def compiled(cls, sources: tuple[str, ...], flags: int = 0) -> AtEndAll:
        backwards = [reversed_pattern(source, flags) for source in sources]
        together = None
        if all(b is not None for b in backwards):
            together = re.compile("".join(f"(?=({b})|)" for b in backwards), flags)
        return cls(tuple(re.compile(source, flags) for source in sources), together)

    def found(self, text: str, backwards: str) -> tuple[object | None, ...]:
        """Each pattern's match in ``text`` or None; ``backwards`` is ``text[::-1]``. (Its
        callers ask ``is not None``: making booleans of the answer would cost as much as the
        match.)"""
        if self.backward is not None and not text.endswith("\n"):
            match = self.backward.match(backwards)  # matches: every lookahead may be empty
            if match is not None:
                return match.groups()
        return tuple(p.search(text) for p in self.forwards)
