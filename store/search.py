"""The lexical side of recall: the terms a memory is found by, the terms of a query, and
how well a memory matches (BM25 over those terms).

A memory's terms are the words of its text, its subject and its anchors' values, lower
cased; a compound word (``store/db.py``, ``verify_token``, ``auth.jwt``) is a term and so
is each of its parts, and a plural is also found by its singular. The terms are written
with the memory, in the same transaction (``Database.apply``), so the index never lags
the store.
"""

from __future__ import annotations

import functools
import heapq
import math
import sys
from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from anchors.spec import Anchor
from store.model import Status
from store.text import STOP, SYNONYMS, parts, stem, tokens

if TYPE_CHECKING:
    import numpy as np


__all__ = [
    "DIGITS",
    "TermIndex",
    "memory_terms",
    "prior",
    "query_terms",
    "query_tokens",
    "search_text",
]

# Recall also skips the filler of questions about a codebase ("what does the project use").
_STOP = STOP | {"codebase", "project", "use", "used", "uses", "using"}
K1 = 1.2
B = 0.75
DIGITS = 9  # a recall score is rounded to this many decimals (ties compare rounded)
# Two scores this close may round to the same value: ``ranked`` keeps such near ties.
_TIE = 2.0 * 10.0**-DIGITS
PART_WEIGHT = 0.5  # a query word matched only as part of a compound counts half
SYNONYM_WEIGHT = 0.7  # a word the query did not say, but a synonym of one it did
# The memories from which the index scores with NumPy (``TermIndex``): below, a loop over
# the postings is about as quick, and NumPy's import costs more than the searches save.
NUMPY_FROM = 1_000


@functools.lru_cache(maxsize=1 << 16)  # a token is expanded the same way every time
def _expand(raw: str) -> tuple[str, tuple[str, ...]]:
    """A token's whole term and the terms of its parts (only for a compound)."""
    whole = raw.casefold()
    whole = stem(whole) if whole.isalpha() else whole
    stems = [stem(p) for p in parts(raw) if p not in _STOP and len(p) > 1]
    if len(stems) < 2:
        return whole, ()
    return whole, tuple(dict.fromkeys(p for p in stems if p != whole))


def query_tokens(query: str) -> list[str]:
    """Words of the query (case kept, for camelCase), without stop words, each once."""
    seen: dict[str, None] = {}
    for token in tokens(query, _STOP):
        if len(token) > 1:
            seen.setdefault(token, None)
    return list(seen)


def search_text(text: str, subject: str | None, anchors: Sequence[Anchor]) -> str:
    """What a memory is found by: its text, its subject and its anchors' values (case
    kept: camelCase names are split by their humps)."""
    return " ".join([text, subject or "", *(f"{a.value} {a.scope or ''}" for a in anchors)])


def memory_terms(text: str) -> dict[str, int]:
    """Term -> count for a memory's search text (``search_text``): each word stemmed,
    a compound as a whole and as its parts, each once per token."""
    counts: Counter[str] = Counter()
    for token in tokens(text, _STOP):
        whole, parts = _expand(token)
        counts.update({whole, *parts} if len(whole) > 1 else parts)
    return dict(counts)


def _phrase(text: str) -> tuple[str, ...]:
    """The words a query says a synonym with, as ``query_terms`` reads them: "e-mail" is
    one word (as in a memory's terms), "command-line" two ("command", "line")."""
    said: list[str] = []
    for token in tokens(text, _STOP):
        whole, parts = _expand(token)
        said += parts or [whole]
    return tuple(said)


# A query saying any phrase of a group also looks for the others (memories are indexed by
# their own words only).
_GROUPS = tuple(
    tuple(_phrase(p) for p in (group.name, *group.same, *group.related)) for group in SYNONYMS
)
# first word -> (group, phrase) of every phrase starting with it
_STARTING: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
for _g, _group in enumerate(_GROUPS):
    for _p in _group:
        if _p:
            _STARTING.setdefault(_p[0], []).append((_g, _p))


def _synonyms(said: Sequence[str]) -> dict[str, float]:
    """Terms of the synonyms of what the query said (``said``: its stemmed words, in
    order), with their weights: a group is hit by any of its phrases, words in a row; a
    one-word synonym weighs ``SYNONYM_WEIGHT``, the words of a longer one share it (so
    that "test suite" does not make "suite" alone a strong match)."""
    hits: dict[int, set[tuple[str, ...]]] = {}
    for i, word in enumerate(said):
        for g, p in _STARTING.get(word, ()):
            if tuple(said[i : i + len(p)]) == p:
                hits.setdefault(g, set()).add(p)
    found: dict[str, float] = {}
    for g in sorted(hits):  # in the groups' order, as a scan of every group would
        group, hit = _GROUPS[g], hits[g]
        if hit:
            for phrase in group:
                if phrase not in hit:
                    for word in phrase:
                        weight = SYNONYM_WEIGHT / len(phrase)
                        found[word] = max(found.get(word, 0.0), weight)
    return found


def query_terms(tokens: Sequence[str]) -> list[tuple[str, float]]:
    """(term, weight) to look up for the query's tokens: each token's whole term at full
    weight, its parts at ``PART_WEIGHT``, synonyms at ``SYNONYM_WEIGHT``; a term once, at
    its highest weight. The words go through the same stemming as a memory's."""
    weights: dict[str, float] = {}
    said: list[str] = []
    for token in tokens:
        whole, parts = _expand(token)
        said += parts or [whole]
        if len(whole) > 1:  # as a memory's terms: "xes" stems to "x", which no memory holds
            weights[whole] = max(weights.get(whole, 0.0), 1.0)
        for part in parts:
            weights[part] = max(weights.get(part, 0.0), PART_WEIGHT)
    for term, weight in _synonyms(said).items():
        weights[term] = max(weights.get(term, 0.0), weight)
    return list(weights.items())


# How much a memory's standing weighs on its rank: a match is scaled by its status and,
# within a status, by its confidence (0-10), so that among equal matches the checked and
# trusted note comes first, while a much better match still wins.
STATUS_PRIOR = {Status.VERIFIED: 1.0, Status.ACTIVE: 0.85, Status.REFUTED: 0.4}
CONFIDENCE_SHARE = 0.3


def prior(status: Status, confidence: float) -> float:
    """The factor a memory's match is multiplied by: its status's, times a share of its
    confidence (at most 1.0: a VERIFIED memory of confidence 10)."""
    share = min(max(confidence, 0.0), 10.0) / 10.0
    return STATUS_PRIOR.get(status, 0.0) * (1.0 - CONFIDENCE_SHARE + CONFIDENCE_SHARE * share)


def _floats(values: array[float]) -> np.ndarray:
    """A copy of ``values`` as an array (a copy: a view would stop ``values`` growing)."""
    import numpy as np

    return np.array(values, dtype=np.float64)


def _ints(values: array[int]) -> np.ndarray:
    import numpy as np

    return np.array(values, dtype=np.int64)


class TermIndex:
    """The recall index of every live memory: a term's postings are the rows of the
    memories holding it and their counts, in arrays. From ``numpy_from`` memories,
    ``ranked`` scores every posting at once with NumPy (a common term has thousands); below
    it, a loop over the postings scores them as quickly, to the same floating-point values,
    and a process that never holds that many never imports NumPy (adr/0044)."""

    def __init__(self, numpy_from: int = NUMPY_FROM) -> None:
        self.numpy_from = numpy_from
        self._row: dict[str, int] = {}
        self._ids: list[str] = []
        self._lengths = array("d")
        # Per row, for ``ranked``: the prior of the memory's standing (0 until ``stand``
        # says it) and when it was made (ties go to the newest).
        self._weights = array("d")
        self._created = array("d")
        self._postings: dict[str, _Postings] = {}
        self._terms: dict[int, tuple[str, ...]] = {}  # row -> its terms (interned), for remove
        self.documents = 0
        self.total_length = 0

    def add(self, memory_id: str, terms: Mapping[str, int]) -> None:
        if memory_id in self._row:
            self.remove(memory_id)
        row = len(self._ids)
        self._ids.append(memory_id)
        self._row[memory_id] = row
        length = sum(terms.values())
        self._lengths.append(length)
        self._weights.append(0.0)
        self._created.append(0.0)
        self.documents += 1
        self.total_length += length
        held = []
        for term, tf in terms.items():
            term = sys.intern(term)
            held.append(term)
            postings = self._postings.get(term)
            if postings is None:
                postings = self._postings[term] = _Postings()
            postings.rows.append(row)
            postings.counts.append(tf)
        self._terms[row] = tuple(held)

    def remove(self, memory_id: str) -> None:
        """Take a memory out (a forget)."""
        row = self._row.pop(memory_id, None)
        if row is None:
            return
        self.documents -= 1
        self.total_length -= int(self._lengths[row])
        self._lengths[row] = 0
        self._weights[row] = 0.0
        for term in self._terms.pop(row, ()):
            postings = self._postings.get(term)
            if postings is not None and postings.drop(row) and not postings.rows:
                del self._postings[term]

    def stand(self, memory_id: str, status: Status, confidence: float, created: float) -> None:
        """What ``ranked`` weighs a memory's match by: its stored status and confidence
        (``prior``), and its creation time (a POSIX timestamp, for ties). The copy of the
        store says it whenever they change; a memory not in the index is left alone."""
        row = self._row.get(memory_id)
        if row is not None:
            self._weights[row] = prior(status, confidence)
            self._created[row] = created

    def holders(self, term: str) -> list[str]:
        """The memories holding ``term``, in the order they were added."""
        postings = self._postings.get(term)
        return [self._ids[row] for row in postings.rows] if postings else []

    def rare_overlap(self, terms: Sequence[str], most: float, limit: int) -> list[str]:
        """The ``limit`` memories that share the most weight of ``terms`` (best first, ties
        by id): a term held by ``held`` memories, at most ``most``, adds ``1 / held`` to
        each of them. Summed in the order of ``terms``, as a loop over them would."""
        scores: dict[int, float] = {}
        get = scores.get
        for term in terms:
            postings = self._postings.get(term)
            if postings is None or len(postings.rows) > most:
                continue
            share = 1.0 / len(postings.rows)
            for row in postings.rows:
                scores[row] = get(row, 0.0) + share
        ids = self._ids
        tied: list[str] = []
        if len(scores) > limit:
            # Those above the limit-th best score are all in (fewer than ``limit``); the
            # rest are the lowest ids of those tied at it, often hundreds (one term's
            # holders), whose ids alone are sorted: no score to pair each with.
            cut = heapq.nlargest(limit, scores.values())[-1]
            tied = [ids[row] for row, score in scores.items() if score == cut]
            scores = {row: score for row, score in scores.items() if score > cut}
        found = [memory_id for _, memory_id in sorted((-s, ids[r]) for r, s in scores.items())]
        return found + sorted(tied)[: limit - len(found)]

    def count(self, term: str) -> int:
        """How many memories hold ``term``."""
        postings = self._postings.get(term)
        return len(postings.rows) if postings else 0

    def top(self, terms: Sequence[tuple[str, float]], k: int) -> list[tuple[str, float]]:
        """The ``k`` best-scoring memories for ``terms`` ((term, weight) pairs), with their
        BM25 scores, best first; only memories holding at least one term. (Recall ranks
        with ``ranked``; this is the plain ranking its tests and benchmarks compare with.)"""
        found = self._scores(terms)
        best = sorted(((self._ids[i], score) for i, score in found.items()), key=lambda x: -x[1])
        return best[:k] if k > 0 else best

    def ranked(
        self, terms: Sequence[tuple[str, float]], k: int, floor: float = 0.0
    ) -> list[tuple[str, float]]:
        """The memories among the ``k`` best for ``terms``, ranked as recall ranks them:
        BM25 weighed by the prior (``stand``), rounded to ``DIGITS``, ties to the newest,
        then by id. Each with its BM25 score, unweighed, in no order (the caller ranks
        these few exactly), and a few more only when tied with the last on score and
        age. Only weighed scores above 0 and at least ``floor``.

        A weighed score within ``_TIE`` of the ``k``-th best may round to the same value
        as it, or as one above it, so those are ordered exactly (rounded one distinct
        value at a time, then by age): notes written from one template tie by the
        hundred, and ranking them all would cost more than the rest of a recall."""
        if self.documents >= self.numpy_from:
            return self._array_ranked(terms, k, floor)
        scores = self._scores(terms)
        weights, created = self._weights, self._created
        weighed = {row: score * weights[row] for row, score in sorted(scores.items())}
        hit = [r for r, w in weighed.items() if w > 0 and (floor <= 0 or w >= floor - _TIE)]
        if len(hit) > k > 0:
            cut = heapq.nlargest(k, [weighed[r] for r in hit])[-1]
            # Above the band: fewer than k, each outranking everything at or below cut.
            sure = [r for r in hit if weighed[r] > cut + _TIE]
            band = [r for r in hit if cut - _TIE <= weighed[r] <= cut + _TIE]
            room = k - len(sure)
            if len(band) > room:

                def key(row: int) -> tuple[float, float]:
                    return -round(weighed[row], DIGITS), -created[row]

                band.sort(key=key)
                # The first ``room``, and those after them tied with the last on score and age.
                kept, last = room, key(band[room - 1])
                while kept < len(band) and key(band[kept]) == last:
                    kept += 1
                band = band[:kept]
            hit = sure + band
        return [(self._ids[row], scores[row]) for row in hit]

    def _scores(self, terms: Sequence[tuple[str, float]]) -> dict[int, float]:
        """The BM25 score of each row holding a term, one posting at a time (in the order
        and with the operations of ``_array_scores``, so to the same values)."""
        documents = self.documents or 1
        avg = (self.total_length / documents) or 1.0
        lengths = self._lengths
        scores: dict[int, float] = {}
        get = scores.get
        for term, weight in terms:
            postings = self._postings.get(term)
            if postings is None:
                continue
            df = len(postings.rows)
            idf = math.log(1.0 + (documents - df + 0.5) / (df + 0.5))
            factor = weight * idf
            for row, tf in zip(postings.rows, postings.counts, strict=True):
                norm = tf + K1 * (1.0 - B + B * lengths[row] / avg)
                scores[row] = get(row, 0.0) + factor * tf * (K1 + 1) / norm
        return scores

    # -- from ``numpy_from`` memories ----------------------------------------------------
    def _array_ranked(
        self, terms: Sequence[tuple[str, float]], k: int, floor: float
    ) -> list[tuple[str, float]]:
        """``ranked`` over every row at once (the same rows, in the same order)."""
        import numpy as np

        scores = self._array_scores(terms)
        weighed = scores * _floats(self._weights)
        hit = np.flatnonzero(weighed > 0)
        if floor > 0:
            hit = hit[weighed[hit] >= floor - _TIE]
        if len(hit) > k > 0:
            values = weighed[hit]
            cut = np.partition(values, len(hit) - k)[len(hit) - k]
            sure = hit[values > cut + _TIE]
            band = hit[(values >= cut - _TIE) & (values <= cut + _TIE)]
            room = k - len(sure)
            if len(band) > room:
                distinct, which = np.unique(weighed[band], return_inverse=True)
                rounded = np.array([round(v, DIGITS) for v in distinct.tolist()])[which]
                created = _floats(self._created)[band]
                order = np.lexsort((-created, -rounded))  # the last key sorts first
                rounded, created, band = rounded[order], created[order], band[order]
                last = room - 1
                tied = (rounded[room:] == rounded[last]) & (created[room:] == created[last])
                kept = room + (len(tied) if tied.all() else int(np.argmin(tied)))
                band = band[:kept]
            hit = np.concatenate([sure, band])
        return [
            (self._ids[i], score)
            for i, score in zip(hit.tolist(), scores[hit].tolist(), strict=True)
        ]

    def _array_scores(self, terms: Sequence[tuple[str, float]]) -> np.ndarray:
        """The BM25 score of every row for ``terms`` (0: no term held)."""
        import numpy as np

        documents = self.documents or 1
        avg = (self.total_length / documents) or 1.0
        scores = np.zeros(len(self._ids))
        lengths = _floats(self._lengths)
        for term, weight in terms:
            postings = self._postings.get(term)
            if postings is None:
                continue
            rows, tfs = _ints(postings.rows), _floats(postings.counts)
            df = len(rows)
            idf = math.log(1.0 + (documents - df + 0.5) / (df + 0.5))
            norm = tfs + K1 * (1.0 - B + B * lengths[rows] / avg)
            # A term's rows are distinct, so the indexed add is exact.
            scores[rows] += weight * idf * tfs * (K1 + 1) / norm
        return scores


class _Postings:
    """One term's postings: the rows holding it, in the order they were added, and its
    count in each."""

    __slots__ = ("counts", "rows")

    def __init__(self) -> None:
        self.rows = array("q")
        self.counts = array("d")

    def drop(self, row: int) -> bool:
        """Take ``row`` out; whether it was there."""
        try:
            at = self.rows.index(row)
        except ValueError:
            return False
        del self.rows[at]
        del self.counts[at]
        return True
