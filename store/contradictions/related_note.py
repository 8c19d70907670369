"""A related note as the agent is shown it: one short line, at most ``LIMIT`` of them and
one question, within ``BYTES``. Apart from ``related`` (which finds them, reading the
store) so that what renders an answer loads no store: a served process never does."""

from __future__ import annotations

import json
from typing import NamedTuple

from store.hostile import reveal

__all__ = [
    "BYTES",
    "LIMIT",
    "LINE_CHARS",
    "PAIRS",
    "QUESTION",
    "Related",
    "RelatedPair",
]

LIMIT = 3  # at most this many related notes on one remember
PAIRS = 5  # at most this many related pairs on one consolidate (the closest first)
LINE_CHARS = 56  # a related note is shown as its id and this much of its text (``BYTES``)
QUESTION = "Does the new note contradict, update or agree with these? Answer with resolve."
# What ``related`` may add to a remember's answer at most, as compact JSON (three lines,
# the question and the two keys): a remember stays a short answer.
BYTES = 350


class Related(NamedTuple):
    """A live note close to a new one: its id, its text and how close (0-1)."""

    id: str
    text: str
    score: float

    def line(self) -> str:
        """Its id and the start of its text, on one short line: at most ``LINE_CHARS``
        bytes of text as it is served (hidden characters revealed, JSON escapes counted),
        so that three lines stay within ``BYTES`` whatever the notes hold."""
        text = reveal(" ".join(self.text.split()))
        if _served(text) > LINE_CHARS:
            text = text[:LINE_CHARS]  # a character is served as one byte or more
            while _served(text) > LINE_CHARS - 3:
                text = text[:-1]
            text = text.rstrip() + "..."
        return f"{self.id}: {text}"


def _served(text: str) -> int:
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


class RelatedPair(NamedTuple):
    """Two live notes close to each other that nobody has judged (``consolidate``)."""

    first: Related
    second: Related

    @property
    def score(self) -> float:
        return self.first.score

    def line(self) -> str:
        """Both notes' lines, the first's id first."""
        return f"{self.first.line()} ~ {self.second.line()}"
