"""More differences asked through the MCP tools (issue #34): one attribute of a subject
said in other words, one setting given two values, counts of one thing, a setting named
for a time against a duration, a rule for a paraphrased subject, and a note recall finds
close though no key pairs it. Each is only a question: nothing changes. Other things of
one kind, a condition, one value written two ways and other environments stay unasked."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.mcp_calls import call, pair_asked

pytestmark = pytest.mark.anyio


async def _pair(settings: Settings, a: str, b: str) -> tuple[list[dict[str, Any]], set[tuple]]:
    return await pair_asked(settings, a, b, consolidate=False)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # one attribute, its subject in other words
        (
            "The mail fetcher checks the inbox six times a minute.",
            "Inbox polling happens every 30 seconds.",
        ),
        (
            "The photo uploader of the web app rejects images above 3 MB.",
            "Photos attached through the web uploader may be up to 12 MB each.",
        ),
        # digits grouped in thousands, against a size in other units
        (
            "The gateway refuses request bodies larger than 4 MiB.",
            "Max payload the gateway accepts is 1,000,000 bytes.",
        ),
        # one setting, two values
        (
            "Our auth cookie is sent with `SameSite=None` for the embedded widget.",
            "The auth cookie goes out with `SameSite=Lax` so cross-site posts drop it.",
        ),
        (
            "`ENABLE_PROFILER` is set in the release build of the game client.",
            "Release builds of the game client ship with `ENABLE_PROFILER=0`.",
        ),
        # counts of one thing
        (
            "The nightly backfill replays two thousand orders per run.",
            "Each backfill run of the orders table replays 800 orders.",
        ),
        (
            "Partner exports are capped at 20,000 lines per file.",
            "A partner export file holds at most 5k lines.",
        ),
        # a setting named for a time, a bare number, against a duration
        (
            "The report cache keeps results for twenty minutes.",
            "`REPORT_CACHE_TTL = 3600` in the report service settings.",
        ),
        # a rule about one subject in other words
        (
            "Always squash the commits of a pull request when merging it into main.",
            "Never squash a pull request before review; keep every commit as written.",
        ),
        # how often, said two ways
        (
            "The search index is rebuilt every four hours by the indexer.",
            "The indexer rebuilds the search index twice a day, at 01:00 and 13:00.",
        ),
        # so many times a second, in hertz and in words
        (
            "The flight controller samples the IMU at 400 Hz.",
            "On the flight controller the IMU is read 100 times a second.",
        ),
        # a property held both ways, in other words
        (
            "Usage analytics in the editor plugin are opt-in; nothing is sent before consent.",
            "The editor plugin reports usage analytics by default; people can switch it off.",
        ),
        (
            "`PUT /invoices/{id}/pay` is idempotent, so the SDK retries it on timeouts.",
            "Calling invoice pay twice charges the customer twice; never retry it blindly.",
        ),
        # "through" naming a tool, no range
        (
            "Jobs submitted through `batchctl` are killed after 2 hours on the CPU pool.",
            "Jobs sent through `batchctl` may run for up to 8 hours before they are stopped.",
        ),
    ],
)
async def test_a_difference_is_asked_and_changes_nothing(
    settings: Settings, a: str, b: str
) -> None:
    records, standing = await _pair(settings, a, b)
    assert records, "the pair was not put to the agent"
    assert {r["state"] for r in records} == {"possible"}
    assert standing == {("ACTIVE", 5.0)}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # other things of one kind, each narrowed by a word the other never says
        ("Access logs are kept for 30 days.", "Audit logs are kept for 2 years."),
        ("gunicorn --timeout is 120", "The HTTP client timeout is 5 s."),
        # a condition, not a denial
        (
            "Every merge request needs a passing pipeline before it lands.",
            "Merging stays blocked until the pipeline of the merge request is green.",
        ),
        (
            "Each PR needs one approving review before merge.",
            "No merging a PR without an approval from a reviewer.",
        ),
        # one setting, one value written two ways
        (
            "`VERBOSE_ERRORS=1` in the staging config.",
            "`VERBOSE_ERRORS` is on in the staging config.",
        ),
        # a setting named for a time, the same duration
        (
            "The session store drops idle entries after ten minutes.",
            "`SESSION_IDLE_TIMEOUT = 600` in the session store settings.",
        ),
        # counts in other environments
        (
            "The staging cluster runs 2 replicas of the API.",
            "The production cluster runs 6 replicas of the API.",
        ),
        # counts of other things
        (
            "The worker pool runs 6 celery workers.",
            "The worker pool's broker listens on port 5672.",
        ),
        # a default said with a condition, and an explicit value
        (
            "Jobs get a default memory limit of 512 MiB if the spec doesn't set one.",
            "The indexer job's spec asks for 4 GiB of memory explicitly.",
        ),
        # a range and a value inside it
        (
            "The data logger supports sampling from 1 Hz to 100 Hz.",
            "Field units of the data logger sample at 20 Hz.",
        ),
        # one property of other things of one kind
        (
            "The export endpoint is idempotent, so clients retry it freely.",
            "Calling the import endpoint twice creates duplicate rows.",
        ),
        # one property held the same way
        (
            "Crash reports from the desktop app are opt-in.",
            "The desktop app sends crash reports only to users who opted in.",
        ),
        # local and production are other environments
        ("uvicorn runs with --workers 2 locally", "uvicorn runs with --workers 8 in production"),
    ],
)
async def test_look_alikes_are_not_asked(settings: Settings, a: str, b: str) -> None:
    records, standing = await _pair(settings, a, b)
    assert not [r for r in records if r["state"] in ("possible", "open", "resolved")]
    assert standing == {("ACTIVE", 5.0)}


async def test_a_close_note_no_key_pairs_is_judged_too(settings: Settings) -> None:
    """The notes share no key nor two rare words, only an acronym and what it stands for:
    recall finds the first close to the second, and the rules judge the pair."""
    records, standing = await _pair(
        settings,
        "The user said OKRs are reviewed quarterly in the leadership sync.",
        "We go over the team's objectives and key results every six weeks.",
    )
    assert [r["state"] for r in records] == ["possible"]
    assert standing == {("ACTIVE", 5.0)}


async def test_a_tool_ripped_out_is_a_conflict_the_newer_note_wins_or_is_asked(
    settings: Settings,
) -> None:
    async with Client(build_server(settings)) as client:
        first = await call(
            client,
            "remember",
            text="Transactional email is sent through Sendgrid by the notifier.",
            scope="external",
        )
        second = await call(
            client,
            "remember",
            text="We ripped out Sendgrid last month; the notifier sends email through Postmark.",
            scope="external",
        )
    records = [*second.get("conflicts", []), *second.get("possible_conflicts", [])]
    paired = [r for r in records if set(r["ids"]) == {first["id"], second["id"]}]
    assert paired
    assert all(r.get("winner") in (None, second["id"]) for r in paired)
