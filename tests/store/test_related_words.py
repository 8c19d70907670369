"""Words two notes about one thing use though they share none (``related_words``), and the
closeness ``related`` reads with them: an acronym and the words it stands for, generic
names of one thing, one word in two derived forms, and a note's lead-in or reason that
must not drown what the two share. Plain functions, no database."""

from __future__ import annotations

import pytest

from store.contradictions.related import THRESHOLD
from store.contradictions.related_words import acronyms, initials, root, synonyms_of
from store.contradictions.terms import closeness, normalised, note_terms

_close = closeness  # in a store where every term is as rare


def test_an_acronym_is_read_where_it_is_written_in_capitals() -> None:
    assert acronyms("Our SLOs and the ALB config, not an ordinary Word") == {"slo", "alb"}


def test_words_in_a_row_spell_an_acronym_with_or_without_the_small_words() -> None:
    spelled = initials("We go over the service level objectives and the time to live.")
    assert {"slo", "ttl"} <= spelled
    assert "so" not in spelled  # "service ... objectives" across a skipped word only
    assert not initials("Logs")  # one word spells nothing


def test_generic_names_of_one_thing_bring_the_others() -> None:
    assert {"conversation", "thread"} <= synonyms_of(frozenset({"chat", "offlin"}))
    assert "chat" not in synonyms_of(frozenset({"chat"}))  # what was said is not added
    assert {"build", "agent"} <= synonyms_of(frozenset({"runner"}))
    assert "runner" in synonyms_of(frozenset({"build", "agent"}))  # a phrase, all its words
    assert not synonyms_of(frozenset({"agent"}))  # one word of a phrase brings nothing


def test_derived_forms_of_one_word_share_a_root() -> None:
    assert root("classifier") == root("classification") == "classif"
    assert root("notify") == root("notification")
    assert root("deployment") == root("deployabl") == "deploy"  # (stemmed "deployable")
    assert root("spy") == "spy"  # too short to be derived
    assert root("element") == "element"  # what is left is too short to be the word


def test_a_reason_is_cut_wherever_the_sentence_starts() -> None:
    assert normalised("We use 30% dropout in the head to fight overfitting.") == (
        "We use 30% dropout in the head"
    )
    assert "likes" not in normalised("The standup is at 9:30; the user likes to keep it short.")
    # what was said, or when, goes on with the claim itself
    assert "capped" in normalised("The pool runs 16. After the outage we capped it at 6.")


@pytest.mark.parametrize(
    ("note", "claim"),
    [
        # a lead-in that says who said it or when ends at its comma; the claim follows
        ("As the user explained when we looked at the slow dashboard, the analytics API "
         "caches query results in Redis for 10 minutes.",
         "the analytics API caches query results in Redis for 10 minutes."),
        ("Per the user, after the outage, we cap exports at 10,000 rows so the pods live.",
         "we cap exports at 10,000 rows"),
        # a lead-in with no comma to end it stays, with the claim after it
        ("Per the user, after the incident we cap CSV exports at 10,000 rows so pods live.",
         "Per the user, after the incident we cap CSV exports at 10,000 rows"),
        # a reason after the claim is cut, however short the claim
        ("We use Loki, per the user.", "We use Loki"),
    ],
)
def test_a_lead_in_is_cut_to_its_comma_and_a_reason_after_the_claim_to_the_end(
    note: str, claim: str
) -> None:
    assert normalised(note) == claim



@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The user mentioned that SLOs are reviewed quarterly in the leadership sync.",
            "We go over the service level objectives every six weeks.",
        ),
        (
            "The classifier head uses a dropout of 0.1.",
            "We use 30% dropout in the classification head to fight overfitting.",
        ),
        (
            "The support widget's offline cache holds the last 50 conversations.",
            "For now the iOS client keeps 200 chats in local storage for offline reading.",
        ),
    ],
)
def test_notes_about_one_thing_in_other_words_are_close(old: str, new: str) -> None:
    assert _close(old, new) >= THRESHOLD


def test_numbers_and_polarity_are_not_what_a_note_is_about() -> None:
    terms = note_terms("Never retry more than 0.5 or 1/10 of the time; always log it.")
    assert not {"0.5", "1/10", "never", "alway"} & terms
    assert "head" in note_terms("The classifier head is frozen.")  # a word, not "heads up"


def test_notes_on_other_things_stay_apart() -> None:
    assert (
        _close(
            "The mobile app's offline cache holds the last 50 conversations.",
            "The billing worker retries failed charges three times.",
        )
        < THRESHOLD
    )
