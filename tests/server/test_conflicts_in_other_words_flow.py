"""Conflicts in other words through the MCP tools (issue #34): a change stated in another
verb decides the conflict, a setting and a sentence about one interval are asked, and a
rule with its exception or a range with a value inside it changes nothing and is not put
to the agent."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from store.contradictions.related_note import QUESTION
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio


def _paired(answer: dict[str, Any], first: str, second: str) -> list[dict[str, Any]]:
    records = [*answer.get("conflicts", []), *answer.get("possible_conflicts", [])]
    return [r for r in records if set(r["ids"]) == {first, second}]


async def _two(settings: Settings, a: str, b: str) -> tuple[str, str, list[dict], dict]:
    """Remember ``a`` then ``b``, consolidate: their ids, every record of the pair the
    second remember and consolidate return, and each memory's status and confidence."""
    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=a, scope="external")
        second = await call(client, "remember", text=b, scope="external")
        report = await call(client, "consolidate")
        found = await call(client, "verify")
    ids = first["id"], second["id"]
    standing = {m["id"]: (m["status"], m["confidence"]) for m in found["memories"]}
    return *ids, _paired(second, *ids) + _paired(report, *ids), standing


async def test_a_dropped_name_and_where_the_thing_is_now_refute_the_older_note(
    settings: Settings,
) -> None:
    old, new, records, standing = await _two(
        settings, "Sessions are cached in Redis.", "We dropped Redis; sessions are in Postgres now."
    )
    decided = [r for r in records if r["state"] == "resolved"]
    assert decided and {(r["winner"], r["reason_code"]) for r in decided} == {
        (new, "TEMPORAL_SUPERSESSION")
    }
    assert standing[old][0] == "REFUTED"
    assert standing[new] == ("ACTIVE", 5.0)


async def test_a_setting_and_a_sentence_about_one_interval_are_asked_not_decided(
    settings: Settings,
) -> None:
    a, b, records, standing = await _two(
        settings,
        "The refresh interval of the products index is 1s.",
        "The products index has `refresh_interval: 30s` set.",
    )
    assert records and {r["state"] for r in records} == {"possible"}
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


@pytest.mark.parametrize(
    ("rule", "other"),
    [
        (
            "Every PR needs two approvals before merge.",
            "Docs-only PRs are exempt from the two-approval rule and can merge with one "
            "approval now.",
        ),
        (
            "The HPA keeps the API between 3 and 12 pods.",
            "Right now the API runs 5 pods, after the scale-up.",
        ),
    ],
)
async def test_a_rule_and_its_exception_or_a_range_and_a_value_in_it_change_nothing(
    settings: Settings, rule: str, other: str
) -> None:
    a, b, records, standing = await _two(settings, rule, other)
    assert records == []  # not even asked
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


def _related_ids(answer: dict[str, Any]) -> list[str]:
    return [line.split(":", 1)[0] for line in answer.get("related", [])]


def _asked_ids(answer: dict[str, Any], new: str) -> list[str]:
    """The notes a remember asks about as possible conflicts with its note ``new``."""
    return [i for r in answer.get("possible_conflicts", []) for i in r["ids"] if i != new]


# Pairs about one thing that share almost no word: an acronym and the words it stands for,
# one word in two derived forms behind a reason, generic names of one thing.
@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The classifier head on top of the encoder is frozen after the first epoch.",
            "We keep training the classification head to the end to fight underfitting.",
        ),
        (
            "The support widget's offline cache holds the last 50 conversations per visitor.",
            "For now the iOS client keeps 200 chats in local storage for offline reading.",
        ),
    ],
)
async def test_a_note_in_other_words_is_related_with_the_question(
    settings: Settings, old: str, new: str
) -> None:
    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=old, scope="external")
        await call(
            client,
            "remember",
            text="The frontend bundle is built by esbuild in the release pipeline.",
            scope="external",
        )
        second = await call(client, "remember", text=new, scope="external")
    assert _related_ids(second) == [first["id"]]
    assert second["related_question"] == QUESTION


async def test_a_close_note_the_rules_can_read_is_asked_as_a_possible_conflict(
    settings: Settings,
) -> None:
    """Recall finds the notes close (an acronym and the words it stands for); no key pairs
    them, yet the rules read two intervals that differ: a question, not a related note."""
    async with Client(build_server(settings)) as client:
        first = await call(
            client,
            "remember",
            text="The user mentioned that SLOs are reviewed quarterly in the leadership sync.",
            scope="external",
        )
        second = await call(
            client,
            "remember",
            text="We go over the service level objectives every six weeks.",
            scope="external",
        )
    assert _asked_ids(second, second["id"]) == [first["id"]]
    assert _related_ids(second) == []


async def test_a_pair_answered_compatible_is_never_asked_again(
    settings: Settings,
) -> None:
    old = "The user mentioned that SLOs are reviewed quarterly in the leadership sync."
    new = "We go over the service level objectives every six weeks."
    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=old, scope="external")
        second = await call(client, "remember", text=new, scope="external")
        assert _asked_ids(second, second["id"]) == [first["id"]]
        await call(
            client,
            "resolve",
            first=first["id"],
            second=second["id"],
            verdict="compatible",
            reason="the team reviews its own objectives; leadership reviews the company's",
        )
        report = await call(client, "consolidate")
        found = await call(client, "verify")
    pair = {first["id"], second["id"]}
    asked = [
        {side.split(":", 1)[0] for side in line.split(" ~ ")} for line in report.get("related", [])
    ]
    assert pair not in asked
    assert not _paired(report, first["id"], second["id"])
    standing = {m["id"]: m["status"] for m in found["memories"]}
    assert standing[first["id"]] == standing[second["id"]] == "ACTIVE"


async def test_accepting_and_rejecting_one_thing_are_asked_not_decided(
    settings: Settings,
) -> None:
    a, b, records, standing = await _two(
        settings,
        "The ingestion API accepts gzip-compressed request bodies, which the SDKs use.",
        "Compressed payloads are rejected by the ingestion API with a 415.",
    )
    assert records and {r["state"] for r in records} == {"possible"}
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


async def test_the_second_fact_of_a_two_fact_note_meets_a_note_that_states_only_it(
    settings: Settings,
) -> None:
    a, b, records, standing = await _two(
        settings,
        "The GraphQL gateway is built on Apollo Server and query depth is limited to 10.",
        "Max query depth on the GraphQL gateway is 7, enforced by the depthLimit rule.",
    )
    assert records and not [r for r in records if r["state"] == "resolved"]  # no change stated
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Webhook payloads larger than 1 MB are rejected by the receiver.",
            "The receiver accepts webhook payloads signed with the shared secret.",
        ),
        (
            "The login endpoint allows 5 attempts before lockout.",
            "The login endpoint allows password managers to autofill.",
        ),
    ],
)
async def test_a_bound_on_what_is_let_in_and_letting_it_in_change_nothing(
    settings: Settings, a: str, b: str
) -> None:
    first, second, records, standing = await _two(settings, a, b)
    assert records == []  # not even asked
    assert standing[first] == standing[second] == ("ACTIVE", 5.0)


async def test_a_flag_off_and_pages_that_pass_through_it_are_asked_not_decided(
    settings: Settings,
) -> None:
    a, b, records, standing = await _two(
        settings,
        "Caching is disabled for the admin pages because admins must see live state.",
        "Admin pages go through the same Varnish cache as the storefront.",
    )
    assert records and {r["state"] for r in records} == {"possible"}
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


async def test_two_branches_hotfixes_start_from_are_an_open_conflict_neither_refuted(
    settings: Settings,
) -> None:
    a, b, records, standing = await _two(
        settings,
        "Hotfixes start from the latest release tag, not from `main`.",
        "Hotfix branches are created off `main` and then cherry-picked onto the release branch.",
    )
    assert records and not [r for r in records if r["state"] == "resolved"]  # no change stated
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)


@pytest.mark.parametrize(
    ("other", "states"),
    [
        ("Heads up: ledger-sync now reads `ledger.v4`.", {"possible"}),  # asked, not decided
        ("ledger-sync is written in Go.", {"open"}),  # no change stated: nobody wins
    ],
)
async def test_each_fact_of_a_two_fact_note_meets_a_note_about_it(
    settings: Settings, other: str, states: set[str]
) -> None:
    two_facts = (
        "The `ledger-sync` service is written in Rust and consumes the Kafka topic `ledger.v3`."
    )
    a, b, records, standing = await _two(settings, two_facts, other)
    assert records and {r["state"] for r in records} == states
    assert standing[a] == standing[b] == ("ACTIVE", 5.0)
