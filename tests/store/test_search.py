"""The recall index: ``TermIndex.top`` ranks exactly as BM25 computed one posting at a time
(``search.bm25``), as memories are added and forgotten."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from store.search import TermIndex, bm25, memory_terms, query_terms, query_tokens

WORDS = ["redis", "cache", "billing", "invoice", "token", "jwt", "db", "duckdb", "queue", "ops"]

documents = st.lists(
    st.dictionaries(st.sampled_from(WORDS), st.integers(1, 4), min_size=1, max_size=5),
    min_size=1,
    max_size=40,
)
queries = st.lists(
    st.tuples(st.sampled_from([*WORDS, "absent"]), st.sampled_from([1.0, 0.5])),
    min_size=1,
    max_size=4,
    unique_by=lambda t: t[0],
)


def _reference(docs: dict[str, dict[str, int]], terms: list[tuple[str, float]]) -> dict[str, float]:
    postings: dict[str, dict[str, int]] = {}
    for mid, doc in docs.items():
        for term, tf in doc.items():
            postings.setdefault(term, {})[mid] = tf
    lengths = {mid: sum(doc.values()) for mid, doc in docs.items()}
    n = len(docs) or 1
    return bm25(terms, postings, lengths, n, sum(lengths.values()) / n)


@settings(max_examples=150, deadline=None)
@given(documents, queries, st.sets(st.integers(0, 39)))
def test_top_scores_every_match_as_bm25_does(docs, terms, forgotten):
    index = TermIndex()
    kept: dict[str, dict[str, int]] = {}
    for i, doc in enumerate(docs):
        index.add(f"m{i}", doc)
        kept[f"m{i}"] = doc
    for i in forgotten:
        if f"m{i}" in kept:
            index.remove(f"m{i}")
            del kept[f"m{i}"]
    expected = _reference(kept, terms)
    got = dict(index.top(terms, len(kept) + 1))
    assert set(got) == {m for m, score in expected.items() if score > 0}
    for mid, score in got.items():
        assert math.isclose(score, expected[mid], rel_tol=1e-12)
    best = index.top(terms, 3)
    assert [s for _, s in best] == sorted((s for _, s in best), reverse=True)
    if best:
        assert math.isclose(best[0][1], max(expected.values()), rel_tol=1e-12)


def test_a_query_finds_a_memory_by_its_words_and_their_parts():
    index = TermIndex()
    index.add("a", memory_terms("tokens are checked in auth/jwt.py"))
    index.add("b", memory_terms("the billing service retries charges"))
    hits = index.top(query_terms(query_tokens("jwt token")), 5)
    assert [mid for mid, _ in hits] == ["a"]
    assert index.holders("jwt") == ["a"] and index.count("jwt") == 1
    assert index.holders("absent") == [] and index.count("absent") == 0
