"""The recall index: ``TermIndex.top`` ranks exactly as BM25 computed one posting at a time
(``_reference``), as memories are added and forgotten, and ``ranked`` keeps the best of it
whether it scores with NumPy (from ``numpy_from`` memories) or one posting at a time; both
give the same values."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from store.model import Status
from store.search import (
    K1,
    SYNONYM_WEIGHT,
    B,
    TermIndex,
    memory_terms,
    prior,
    query_terms,
    query_tokens,
    search_text,
)
from store.text import stem

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


# Each index test runs on both ways of scoring: arrays (NumPy) and the loop.
BOTH = pytest.mark.parametrize("numpy_from", [0, 10**9], ids=["arrays", "loop"])


def _reference(docs: dict[str, dict[str, int]], terms: list[tuple[str, float]]) -> dict[str, float]:
    """BM25 of every document holding one of ``terms``, one posting at a time."""
    postings: dict[str, dict[str, int]] = {}
    for mid, doc in docs.items():
        for term, tf in doc.items():
            postings.setdefault(term, {})[mid] = tf
    lengths = {mid: sum(doc.values()) for mid, doc in docs.items()}
    n = len(docs) or 1
    avg = sum(lengths.values()) / n or 1.0
    scores: dict[str, float] = {}
    for term, weight in terms:
        holders = postings.get(term)
        if not holders:
            continue
        df = len(holders)
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        for mid, tf in holders.items():
            norm = tf + K1 * (1.0 - B + B * lengths.get(mid, 1) / avg)
            scores[mid] = scores.get(mid, 0.0) + weight * idf * tf * (K1 + 1) / norm
    return scores


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


# Few words, few counts: many memories score the same, so the band of near ties is cut.
STANDINGS = st.tuples(
    st.sampled_from(list(Status)), st.sampled_from([0.0, 2.5, 5.0, 7.5, 10.0]), st.integers(0, 3)
)
TIED_STANDINGS = st.tuples(st.just(Status.ACTIVE), st.sampled_from([5.0, 10.0]), st.integers(0, 2))


@BOTH
@settings(max_examples=300, deadline=None)
@given(
    documents,
    queries,
    st.lists(STANDINGS, min_size=40, max_size=40),
    st.sets(st.integers(0, 39)),
    st.integers(1, 12),
    st.sampled_from([0.0, 0.5, 1.5]),
)
def test_ranked_holds_every_memory_of_the_exact_best_k(
    numpy_from, docs, terms, standings, forgotten, k, floor
):
    """``ranked`` keeps only a few rows, yet ranking those exactly (rounded score weighed
    by the prior, newest first, then id: as recall does) gives the same best ``k`` as
    ranking every match. Equal statuses, confidences and ages make ties often."""
    index = TermIndex(numpy_from)
    created: dict[str, int] = {}
    weight: dict[str, float] = {}
    for i, doc in enumerate(docs):
        status, confidence, age = standings[i]
        index.add(f"m{i:02d}", doc)
        index.stand(f"m{i:02d}", status, confidence, float(age))
        created[f"m{i:02d}"], weight[f"m{i:02d}"] = age, prior(status, confidence)
    index.stand("absent", Status.VERIFIED, 10.0, 0.0)  # not in the index: nothing happens
    for i in forgotten:
        index.remove(f"m{i:02d}")

    def best(found: dict[str, float]) -> list[str]:
        scores = {m: round(raw * weight[m], 9) for m, raw in found.items()}
        kept = [m for m, score in scores.items() if score >= floor and score > 0]
        return sorted(kept, key=lambda m: (-scores[m], -created[m], m))[:k]

    everything = dict(index.top(terms, len(docs) + 1))  # every match, unweighed
    ranked = dict(index.ranked(terms, k, floor))
    assert set(ranked) <= set(everything)
    assert all(ranked[m] == everything[m] for m in ranked)  # the same BM25, unweighed
    assert best(ranked) == best(everything)
    # Beyond the k best, only those tied with the last one on score and age.
    extra = set(ranked) - set(best(everything))
    if extra:
        last = best(everything)[-1]
        key = (round(everything[last] * weight[last], 9), created[last])
        assert all((round(ranked[m] * weight[m], 9), created[m]) == key for m in extra)


def _best(
    found: dict[str, float], weight: dict[str, float], created: dict[str, int], k: int
) -> list[str]:
    scores = {m: round(raw * weight[m], 9) for m, raw in found.items()}
    return sorted(scores, key=lambda m: (-scores[m], -created[m], m))[:k]


@BOTH
def test_ranked_cuts_a_band_of_ties_exactly(numpy_from):
    """Many memories of equal score and age (the case ``ranked`` orders by rounded score
    and age in arrays): its best ``k`` are the exact best ``k``, over 2,000 seeded draws."""
    cut = 0
    for seed in range(2000):
        rng = random.Random(seed)
        index = TermIndex(numpy_from)
        created: dict[str, int] = {}
        weight: dict[str, float] = {}
        for i in range(rng.randint(1, 40)):
            mid = f"m{i:02d}"
            index.add(mid, rng.choice([{"redis": 1}, {"redis": 1, "cache": 1}, {"cache": 2}]))
            status = rng.choice([Status.ACTIVE, Status.VERIFIED])
            confidence, age = rng.choice([5.0, 10.0]), rng.randint(0, 2)
            index.stand(mid, status, confidence, float(age))
            created[mid], weight[mid] = age, prior(status, confidence)
        terms = rng.choice([[("redis", 1.0)], [("redis", 1.0), ("cache", 0.5)]])
        k = rng.randint(1, 12)

        everything = dict(index.top(terms, 100))
        ranked = dict(index.ranked(terms, k))
        assert _best(ranked, weight, created, k) == _best(everything, weight, created, k), seed
        cut += len(everything) > len(ranked) > 0
    assert cut > 500  # the band was cut, not kept whole


@BOTH
def test_notes_from_one_template_tie_by_the_hundred_and_only_the_newest_are_kept(numpy_from):
    index = TermIndex(numpy_from)
    for i in range(500):
        index.add(f"m{i:03d}", {"release": 1, "checklist": 1, f"item{i}": 1})
        index.stand(f"m{i:03d}", Status.ACTIVE, 5.0, float(i))
    kept = dict(index.ranked([("release", 1.0), ("checklist", 1.0)], 10))
    assert sorted(kept) == [f"m{i:03d}" for i in range(490, 500)]


@BOTH
def test_a_memory_weighs_by_the_standing_it_was_last_given(numpy_from):
    index = TermIndex(numpy_from)
    index.add("old", {"redis": 1})
    index.add("new", {"redis": 1})
    index.stand("old", Status.VERIFIED, 10.0, 1.0)
    index.stand("new", Status.ACTIVE, 5.0, 2.0)
    assert set(dict(index.ranked([("redis", 1.0)], 1))) == {"old"}
    index.stand("old", Status.REFUTED, 0.0, 1.0)  # retracted, say: weighs least
    assert set(dict(index.ranked([("redis", 1.0)], 1))) == {"new"}
    index.add("unsaid", {"redis": 1})  # no standing said yet: weighs nothing
    assert set(dict(index.ranked([("redis", 1.0)], 5))) == {"new", "old"}


@settings(max_examples=150, deadline=None)
@given(documents, queries, st.lists(STANDINGS, min_size=40, max_size=40), st.integers(1, 12))
def test_the_loop_and_the_arrays_score_to_the_same_values(docs, terms, standings, k):
    """Below ``numpy_from`` memories a recall ranks with the loop, from it with arrays:
    a store crossing it ranks as before, to the last bit of every score."""
    loop, arrays = TermIndex(numpy_from=10**9), TermIndex(numpy_from=0)
    for i, doc in enumerate(docs):
        status, confidence, age = standings[i]
        for index in (loop, arrays):
            index.add(f"m{i:02d}", doc)
            index.stand(f"m{i:02d}", status, confidence, float(age))
    assert loop.ranked(terms, k) == arrays.ranked(terms, k)
    assert loop.ranked(terms, k, 0.5) == arrays.ranked(terms, k, 0.5)


def _overlap_reference(index: TermIndex, terms: list[str], most: float, limit: int) -> list[str]:
    """The neighbour search as a loop over the terms (how ``checking`` did it)."""
    scores: dict[str, float] = {}
    for term in terms:
        held = index.count(term)
        if not held or held > most:
            continue
        for memory_id in index.holders(term):
            scores[memory_id] = scores.get(memory_id, 0.0) + 1.0 / held
    return sorted(scores, key=lambda i: (-scores[i], i))[:limit]


@settings(max_examples=150, deadline=None)
@given(
    documents,
    st.lists(st.sampled_from([*WORDS, "absent"]), min_size=1, max_size=8),
    st.sets(st.integers(0, 39)),
    st.integers(1, 45),
    st.integers(1, 6),
)
def test_rare_overlap_is_the_loop_over_terms_exactly(docs, terms, forgotten, most, limit):
    index = TermIndex()
    for i, doc in enumerate(docs):
        index.add(f"m{i:02d}", doc)
    for i in forgotten:
        index.remove(f"m{i:02d}")
    assert index.rare_overlap(terms, most, limit) == _overlap_reference(index, terms, most, limit)


def test_a_query_finds_a_memory_by_its_words_and_their_parts():
    index = TermIndex()
    index.add("a", memory_terms("tokens are checked in auth/jwt.py"))
    index.add("b", memory_terms("the billing service retries charges"))
    hits = index.top(query_terms(query_tokens("jwt token")), 5)
    assert [mid for mid, _ in hits] == ["a"]
    assert index.holders("jwt") == ["a"] and index.count("jwt") == 1
    assert index.holders("absent") == [] and index.count("absent") == 0


# -- The code-aware tokeniser ---------------------------------------------------------------

words = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_./-0123456789 "),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(words)
@example("XES")  # stems to "x": a term no memory keeps, so no query may need it
def test_a_memory_is_found_by_its_own_words_the_same_tokeniser_on_both_sides(text):
    stored = memory_terms(search_text(text, None, []))
    for term, weight in query_terms(query_tokens(text)):
        if weight == 1.0:
            assert term in stored, (text, term)


def test_compounds_are_split_on_paths_snake_case_and_camel_case():
    terms = memory_terms("PaymentClient.charge_card in shop/billing/client.py talks HTTPServer")
    parts = ["payment", "client", "charge", "card", "shop", "billing", "http", "server"]
    assert {stem(p) for p in parts} <= set(terms)
    assert "shop/billing/client.py" in terms and "paymentclient.charge_card" in terms


def _rank(notes: dict[str, str], query: str) -> list[str]:
    index = TermIndex()
    for mid, text in notes.items():
        index.add(mid, memory_terms(search_text(text, None, [])))
    return [mid for mid, _ in index.top(query_terms(query_tokens(query)), 10)]


NOTES = {
    "cli": "The shop's CLI is built on click.",
    "pytest": "Tests run with pytest and pytest-cov.",
    "runner": "The job runner drains the Redis queue.",
    "project": "The project uses structlog for logging.",
    "db": "Orders are stored in PostgreSQL.",
}


def test_synonyms_of_the_query_find_what_a_note_calls_by_another_name():
    assert _rank(NOTES, "shop command line interface")[0] == "cli"
    assert _rank(NOTES, "What test runner does the project use?")[0] == "pytest"
    assert _rank(NOTES, "which database do we use")[0] == "db"


def test_a_synonym_counts_less_than_the_word_itself():
    weights = dict(query_terms(query_tokens("command line")))
    assert weights["command"] == 1.0 and weights["cli"] == SYNONYM_WEIGHT < 1.0


def test_the_prior_puts_a_checked_and_trusted_note_first_among_equal_matches():
    assert prior(Status.VERIFIED, 8.0) > prior(Status.ACTIVE, 8.0) > prior(Status.REFUTED, 8.0)
    assert prior(Status.ACTIVE, 9.0) > prior(Status.ACTIVE, 5.0) > prior(Status.ACTIVE, 1.0)
    assert prior(Status.VERIFIED, 10.0) == 1.0 and prior(Status.ACTIVE, 20.0) == prior(
        Status.ACTIVE, 10.0
    )


def _synonyms_by_scan(said: list[str]) -> dict[str, float]:
    """Every group scanned for a phrase in ``said`` (how ``_synonyms`` was written)."""
    from store.search import _GROUPS

    found: dict[str, float] = {}
    for group in _GROUPS:
        hit = [
            p
            for p in group
            if any(tuple(said[i : i + len(p)]) == p for i in range(len(said) - len(p) + 1))
        ]
        for phrase in group if hit else ():
            if phrase not in hit:
                for word in phrase:
                    found[word] = max(found.get(word, 0.0), SYNONYM_WEIGHT / len(phrase))
    return found


def test_synonyms_found_by_first_word_are_those_of_a_scan_of_every_group():
    from store.search import _GROUPS, _synonyms

    words = sorted({w for group in _GROUPS for p in group for w in p})
    phrases = [list(p) for group in _GROUPS for p in group]
    cases = [[w] for w in words] + phrases + [a + b for a, b in itertools.pairwise(phrases)]
    for said in cases:
        got = _synonyms(said)
        assert got == _synonyms_by_scan(said), said
        assert list(got) == list(_synonyms_by_scan(said)), said  # the same order too
