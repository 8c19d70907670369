"""Colour for a person at a terminal: whether to use it, and the colour of each status,
verdict and review action. Text is laid out first and painted after, so a colour never
changes where a line is cut or wrapped."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

__all__ = ["PLAIN", "Palette", "palette_for"]

_RESET = "\033[0m"
_RED, _GREEN, _YELLOW, _MAGENTA, _DIM, _BOLD = "31", "32", "33", "35", "2", "1"

# A status says how far to trust a memory: green holds at HEAD, yellow is not (yet)
# checked to hold, red is wrong; a tombstone is dim.
_WORDS: Mapping[str, str] = {
    "VERIFIED": _GREEN,
    "ACTIVE": _YELLOW,
    "REFUTED": _RED,
    "FORGOTTEN": _DIM,
    "holds": _GREEN,
    "broken": _RED,
    "drifted": _YELLOW,
    "unknown": _DIM,
    "unchecked": _DIM,
    "ASK": _MAGENTA,
    "DEMOTE": _RED,
    "STALE": _YELLOW,
}


class Palette:
    """Paints words for a terminal, or leaves them as they are (``PLAIN``)."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _paint(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}{_RESET}" if self.on and text else text

    def word(self, word: str, width: int = 0) -> str:
        """``word`` in its colour (a status, a verdict, a review action), padded to
        ``width`` outside the colour."""
        pad = " " * max(0, width - len(word))
        code = _WORDS.get(word.strip())
        return (self._paint(code, word) if code else word) + pad

    def dim(self, text: str) -> str:
        return self._paint(_DIM, text)

    def bold(self, text: str) -> str:
        return self._paint(_BOLD, text)


PLAIN = Palette(False)


def palette_for(stream: TextIO, environ: Mapping[str, str] | None = None) -> Palette:
    """Colour only on a terminal, and not when ``NO_COLOR`` is set to anything
    (no-color.org) or the terminal says it cannot show it (``TERM=dumb``)."""
    env = os.environ if environ is None else environ
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        tty = False
    return Palette(tty and not env.get("NO_COLOR") and env.get("TERM") != "dumb")
