"""The lexical side of recall: the terms a memory is found by, the terms of a query, and
how well a memory matches (BM25 over those terms).

A memory's terms are the words of its text, its subject and its anchors' values, lower
cased; a compound word (``store/db.py``, ``verify_token``, ``auth.jwt``) is a term and so
is each of its parts, and a plural is also found by its singular. The terms are written
with the memory, in the same transaction (``Database.apply``), so the index never lags
the store.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from anchors.spec import Anchor

__all__ = ["bm25", "memory_terms", "query_terms", "query_tokens", "search_text"]

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
_PARTS = re.compile(r"[./\-_]+")
K1 = 1.2
B = 0.75
PART_WEIGHT = 0.5  # a query word matched only as part of a compound counts half


def query_tokens(query: str) -> list[str]:
    """Lower-cased words of the query, without stop words, each once, in order."""
    seen: dict[str, None] = {}
    for token in _TOKEN.findall(query.casefold()):
        if token not in _STOP and len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _expand(token: str) -> Iterable[str]:
    yield token
    singular = _singular(token)
    if singular != token:
        yield singular
    parts = [p for p in _PARTS.split(token) if len(p) > 1 and p not in _STOP]
    if len(parts) > 1:
        for part in parts:
            yield part
            if _singular(part) != part:
                yield _singular(part)


def search_text(text: str, subject: str | None, anchors: Sequence[Anchor]) -> str:
    """What a memory is found by: its text, its subject and its anchors' values."""
    parts = [text, subject or "", *(f"{a.value} {a.scope or ''}" for a in anchors)]
    return " ".join(parts).casefold()


def memory_terms(text: str) -> dict[str, int]:
    """Term -> count for a memory's search text (``search_text``)."""
    counts: Counter[str] = Counter()
    for token in _TOKEN.findall(text.casefold()):
        if token in _STOP:
            continue
        counts.update(set(_expand(token)))
    return dict(counts)


def query_terms(tokens: Sequence[str]) -> list[tuple[str, float]]:
    """(term, weight) to look up for the query's tokens: each token at full weight, its
    singular and its parts at ``PART_WEIGHT``; a term once, at its highest weight."""
    weights: dict[str, float] = {}
    for token in tokens:
        for term in _expand(token):
            weight = 1.0 if term in (token, _singular(token)) else PART_WEIGHT
            weights[term] = max(weights.get(term, 0.0), weight)
    return list(weights.items())


def bm25(
    terms: Sequence[tuple[str, float]],
    postings: Mapping[str, Mapping[str, int]],
    lengths: Mapping[str, int],
    documents: int,
    average_length: float,
) -> dict[str, float]:
    """BM25 score of every memory holding at least one of ``terms``: postings maps a term
    to {memory id: count}, lengths a memory id to its number of terms."""
    scores: dict[str, float] = {}
    avg = average_length or 1.0
    for term, weight in terms:
        holders = postings.get(term)
        if not holders:
            continue
        df = len(holders)
        idf = math.log(1.0 + (documents - df + 0.5) / (df + 0.5))
        for memory_id, tf in holders.items():
            norm = tf + K1 * (1.0 - B + B * lengths.get(memory_id, 1) / avg)
            scores[memory_id] = scores.get(memory_id, 0.0) + weight * idf * tf * (K1 + 1) / norm
    return scores
