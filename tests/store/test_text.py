"""The one text module: recall and the contradiction check read words with its stemmer,
its stop words and its synonym table (``store.text``)."""

from __future__ import annotations

import pytest

from store.contradictions import words as claim_words
from store.contradictions.claims import negation_core
from store.contradictions.slots import content_words
from store.search import SYNONYM_WEIGHT, query_terms, query_tokens
from store.text import STOP, SYNONYMS, singular, stem


@pytest.mark.parametrize(
    ("plural", "one"),
    [("tests", "test"), ("retries", "retry"), ("boxes", "box"), ("branches", "branch")],
)
def test_recall_and_claims_fold_a_plural_to_its_singular_alike(plural, one):
    assert singular(plural) == one
    assert claim_words.stem(plural) == one
    assert stem(plural) == stem(one)


@pytest.mark.parametrize("word", ["class", "status", "redis", "analysis"])
def test_a_word_ending_in_ss_us_or_is_is_no_plural_on_either_side(word):
    assert singular(word) == word and claim_words.stem(word) == word and stem(word) == word
    core, negated = negation_core(f"we no longer use {word}")
    assert negated and core == negation_core(f"we use {word}")[0] and core.endswith(word)


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
def test_recall_brings_plurals_and_verb_forms_of_a_word_to_one_stem(forms, stem_of_all):
    assert {stem(w) for w in forms} == {stem_of_all}


def test_a_word_that_only_looks_inflected_stays_whole():
    assert stem("string") == "string" and stem("thing") == "thing" and stem("need") == "need"


def test_claims_keep_verb_forms_apart():
    assert claim_words.stem("caching") == "caching" != claim_words.stem("cache")


def test_both_sides_skip_the_common_stop_words_and_each_a_few_of_its_own():
    sentence = " ".join(sorted(STOP))
    assert query_tokens(sentence) == [] and content_words(sentence) == frozenset()
    # A question's filler is no query word; the words of configuring are no slot's subject.
    assert query_tokens("what does the project use for config") == ["config"]
    assert content_words("the config for billing") == frozenset({"billing"})


@pytest.mark.parametrize("group", SYNONYMS, ids=lambda g: g.name)
def test_a_query_for_any_spelling_of_a_name_also_looks_for_the_name(group):
    for spelling in group.same:
        weights = dict(query_terms(query_tokens(spelling)))
        assert weights[stem(group.name)] == SYNONYM_WEIGHT, spelling


def test_claims_read_another_spelling_as_its_name_and_a_related_word_as_itself():
    assert content_words("the billing db") == content_words("the billing database")
    assert content_words("k8s cluster") == content_words("kubernetes clusters")
    # "sql" is related to a database for recall, but a claim about SQL is not one about a db.
    assert content_words("sql dialect") != content_words("database dialect")
    weights = dict(query_terms(query_tokens("sql dialect")))
    assert weights[stem("database")] == SYNONYM_WEIGHT
