"""The lexical side of recall: which words of a query count, and what text they match."""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.spec import Anchor

__all__ = ["query_tokens", "search_text"]

_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "our",
        "that",
        "the",
        "their",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "with",
        "you",
        "your",
    ]
)
_TOKEN = re.compile(r"[a-z0-9_][a-z0-9_.\-/]*[a-z0-9_]|[a-z0-9_]")


def query_tokens(query: str) -> list[str]:
    """Lower-cased words of the query, without stop words, each once, in order."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall(query.casefold()):
        if token not in _STOP and len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)


def search_text(text: str, subject: str | None, anchors: Sequence[Anchor]) -> str:
    """What recall matches against: the text, the subject and the anchors' values."""
    parts = [text, subject or "", *(f"{a.value} {a.scope or ''}" for a in anchors)]
    return " ".join(parts).casefold()
