"""Contradictions in notes as agents write them, through the MCP tools: a note of two facts
is checked as two claims, each verb of a change is read as one, a rule and its opposite
conflict, and a look-alike of each kind changes nothing and is not put to the agent."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio


def _records(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [*answer.get("conflicts", []), *answer.get("possible_conflicts", [])]


def _paired(answer: dict[str, Any], first: str, second: str) -> list[dict[str, Any]]:
    return [r for r in _records(answer) if set(r["ids"]) == {first, second}]


async def _standing(client: Client, ids: list[str]) -> dict[str, tuple[str, float]]:
    found = await call(client, "verify")
    return {m["id"]: (m["status"], m["confidence"]) for m in found["memories"] if m["id"] in ids}


async def _two(settings: Settings, a: str, b: str) -> tuple[str, str, list[dict[str, Any]], dict]:
    """Remember ``a`` then ``b`` (about the world outside the code), consolidate: their
    ids, the records of the pair, and what each memory's status and confidence is."""
    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=a, scope="external")
        second = await call(client, "remember", text=b, scope="external")
        report = await call(client, "consolidate")
        standing = await _standing(client, [first["id"], second["id"]])
    ids = first["id"], second["id"]
    records = _paired(second, *ids) + _paired(report, *ids)
    return first["id"], second["id"], records, standing


async def test_a_note_of_two_facts_is_checked_as_two_claims(settings: Settings) -> None:
    two = "The ingest service is written in Rust and reads from events.v1, per the user."
    async with Client(build_server(settings)) as client:
        both = await call(client, "remember", text=two, scope="external")
        language = await call(
            client, "remember", text="The ingest service is written in Go.", scope="external"
        )
        topic = await call(
            client, "remember", text="The ingest service reads from events.v2.", scope="external"
        )
        standing = await _standing(client, [both["id"], language["id"], topic["id"]])
    by_language = _paired(language, both["id"], language["id"])
    assert {(r.get("kind", "slot"), r["state"]) for r in by_language} == {("slot", "open")}
    by_topic = _paired(topic, both["id"], topic["id"])
    assert {r["state"] for r in by_topic} == {"possible"}  # one of several topics: asked
    assert set(standing.values()) == {("ACTIVE", 5.0)}  # neither states a change


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Logs are shipped to Datadog.", "We dropped Datadog and switched log shipping to Loki."),
        ("Metrics are scraped by Prometheus.", "We got rid of Prometheus last month."),
        ("Builds run on the Jenkins server.", "Heads up: we shut down the Jenkins server."),
        ("Nightly reports run on Heroku.", "We decommissioned Heroku, the user confirmed it."),
        ("Images are stored in S3.", "We swapped S3 for Cloudflare R2 for images."),
        ("The app talks to the GraphQL gateway.", "The GraphQL gateway is gone since March."),
        ("Transactional email is sent through SendGrid.", "SendGrid was cancelled."),
        ("CI runs on GitHub Actions.", "We moved CI to GitLab CI to cut costs."),
        ("Package management is done with Poetry.", "We migrated package management to uv."),
    ],
)
async def test_each_verb_of_a_change_is_read_and_changes_nothing_it_cannot_decide(
    settings: Settings, old: str, new: str
) -> None:
    first, _, records, standing = await _two(settings, old, new)
    assert records, "the change was not read"
    decided = [r for r in records if r.get("state") == "resolved"]
    if not decided:
        assert standing[first] == ("ACTIVE", 5.0)
    else:  # a stated change about the same thing: the older note is superseded
        assert decided[0]["winner"] != first and standing[first][0] == "REFUTED"


async def test_a_change_about_the_same_thing_supersedes_the_older_note(settings: Settings) -> None:
    first, second, records, standing = await _two(
        settings,
        "Package management is done with Poetry; run poetry install to set up.",
        "We switched from Poetry to uv for package management.",
    )
    resolved = [r for r in records if r.get("state") == "resolved"]
    assert resolved and resolved[0]["winner"] == second
    assert resolved[0]["reason_code"] == "TEMPORAL_SUPERSESSION"
    assert standing[first][0] == "REFUTED" and standing[second][0] == "ACTIVE"


async def test_a_rule_and_its_opposite_conflict_and_neither_wins(settings: Settings) -> None:
    first, second, records, standing = await _two(
        settings,
        "Always squash commits when merging a PR.",
        "Never squash commits when merging a PR; we keep the full history.",
    )
    assert records and {r["state"] for r in records} == {"open"}
    assert standing == {first: ("ACTIVE", 5.0), second: ("ACTIVE", 5.0)}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Password reset links expire after 24 hours.", "Email links now expire after 7 days."),
        ("We use Redis for caching.", "We also use Redis for the job queue now."),
        ("Certificates are rotated every 30 days.", "Certificates are now rotated monthly."),
        ("The upload limit is 10 MB.", "After the migration, the upload limit is 10 MiB."),
        ("Rate limiting is disabled on staging.", "Rate limiting is now enabled on production."),
        ("We dropped Datadog for metrics.", "Logs are shipped to Datadog."),
        ("Dana cuts the releases.", "Eve now approves the releases."),
        ("Priya is on call this week.", "Marco is on call next week."),
        ("Always squash commits on feature branches.", "Never squash on release branches now."),
        ("The import job is idempotent.", "The export job is no longer idempotent."),
        ("The ingest worker reads from orders.", "The ingest worker is now written in Go."),
    ],
)
async def test_a_look_alike_of_each_kind_is_not_asked_and_changes_nothing(
    settings: Settings, a: str, b: str
) -> None:
    first, second, records, standing = await _two(settings, a, b)
    assert records == []
    assert standing == {first: ("ACTIVE", 5.0), second: ("ACTIVE", 5.0)}
