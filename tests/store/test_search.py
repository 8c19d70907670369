"""The recall index: ``TermIndex.top`` ranks exactly as BM25 computed one posting at a time
(``search.bm25``), as memories are added and forgotten."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.model import Status
from store.search import (
    SYNONYM_WEIGHT,
    TermIndex,
    bm25,
    memory_terms,
    prior,
    query_terms,
    query_tokens,
    search_text,
    stem,
)

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


@pytest.mark.parametrize(
    ("forms", "stem_of_all"),
    [
        (["test", "tests", "testing", "tested"], "test"),
        (["use", "uses", "using", "used"], "us"),
        (["run", "runs", "running"], "run"),
        (["retry", "retries", "retried"], "retry"),
        (["cache", "caches", "cached", "caching"], "cach"),
    ],
)
def test_plurals_and_verb_forms_of_a_word_meet(forms, stem_of_all):
    assert {stem(w) for w in forms} == {stem_of_all}


def test_a_word_that_only_looks_inflected_stays_whole():
    assert stem("string") == "string" and stem("thing") == "thing" and stem("status") == "status"


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
