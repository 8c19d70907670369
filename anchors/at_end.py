"""Cues that must end where their text ends (``...\\s+(?:the\\s+)?$``), asked of the window
of words before a name.

Each is one forward search of its pattern. Matching the pattern written backwards, once, at
the start of the reversed window, saves under 1% of a ``remember``: too little to keep code
that writes patterns backwards. ``found`` still accepts the reversed text its callers pass,
and does not read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AtEnd", "AtEndAll"]


@dataclass(frozen=True, slots=True)
class AtEnd:
    """A pattern ending in ``$``: ``found(text)`` is ``forward.search(text) is not None``."""

    forward: re.Pattern[str]

    @classmethod
    def compiled(cls, source: str, flags: int = 0) -> AtEnd:
        return cls(re.compile(source, flags))

    def found(self, text: str) -> bool:
        """Whether the pattern matches ``text``."""
        return self.forward.search(text) is not None


@dataclass(frozen=True, slots=True)
class AtEndAll:
    """Several patterns ending in ``$``, asked of one text: ``found(text)`` holds each
    pattern's match, or None where it finds none."""

    forwards: tuple[re.Pattern[str], ...]

    @classmethod
    def compiled(cls, sources: tuple[str, ...], flags: int = 0) -> AtEndAll:
        return cls(tuple(re.compile(source, flags) for source in sources))

    def found(self, text: str) -> tuple[re.Match[str] | None, ...]:
        """Each pattern's match in ``text`` or None. (Its callers ask ``is not None``:
        making booleans of the answer would cost as much as the match.)"""
        return tuple(pattern.search(text) for pattern in self.forwards)
