"""What the rules read to ask about a difference the slots did not place (issue #34):
shares however written, numbers said with a multiple, the generic things two notes name
in other words (a candidate pair), and what a denial is about. Plain functions, no
database."""

from __future__ import annotations

import pytest

from store.contradictions.related_words import groups_of
from store.contradictions.terms import kinds
from store.contradictions.values import number_at, parse_shares


@pytest.mark.parametrize(
    ("text", "shares"),
    [
        ("We sample 10% of traces.", [10.0]),
        ("Debug lines are sampled at one in ten.", [10.0]),
        ("A third of requests go to the canary.", [100 / 3]),
        ("Two thirds of traffic is served from the edge.", [200 / 3]),
        ("The head uses a dropout of 0.1.", [10.0]),
        ("`traces_sample_rate=.25` in the config", [25.0]),
        ("The canary gets 1/10 of requests.", [10.0, 10.0]),  # read twice: one share
    ],
)
def test_a_share_is_read_in_percent_however_written(text: str, shares: list[float]) -> None:
    assert parse_shares(text) == pytest.approx(shares)


@pytest.mark.parametrize(
    "text",
    [
        "The visibility timeout is a quarter of an hour.",  # a time, not a share
        "Sessions end after half an hour.",
        "The service runs Python 3.12 and Postgres 16.",  # versions, no decimal below one
        "Release v0.3.1 shipped.",
        "The ratio is 1.5.",
    ],
)
def test_times_versions_and_ratios_are_no_shares(text: str) -> None:
    assert parse_shares(text) == []


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("three dozen products", 36.0),
        ("two hundred rows", 200.0),
        ("a dozen retries", 12.0),  # the number word itself
        ("5 pods", 5.0),
    ],
)
def test_a_number_said_with_a_multiple_is_the_product(text: str, number: float) -> None:
    found = number_at(text)
    assert found is not None and found[0] == number


def test_notes_naming_one_thing_in_other_words_share_its_group() -> None:
    route, _ = kinds("The refunds route is idempotent.")
    endpoint, named = kinds("The refunds endpoint can pay out twice.")
    assert route & endpoint
    assert "endpoint" in named  # the word that named it is counted once, as its group
    assert not kinds("We cache sessions in Redis.")[0] & route


def test_a_phrase_names_a_group_only_by_all_its_words() -> None:
    whole, named = groups_of(frozenset({"build", "agent"}))  # "build agent": a CI runner
    assert whole and not named  # a phrase: no one word of it stands for the group
    assert groups_of(frozenset({"agent"})) == (frozenset(), frozenset())
