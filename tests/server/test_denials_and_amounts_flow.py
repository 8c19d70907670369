"""Differences the slots do not place, asked through the MCP tools (issue #34): a note
that denies what a close note says, amounts of one kind that differ however written
(words, fractions, dozens), and notes that name one thing in other words. Each is only a
question: nothing changes. A rule and its exception, a denial of something else, a share
and its rest, equal shares, other subjects, a range and a default stay unasked."""

from __future__ import annotations

from typing import Any

import pytest

from server.config import Settings
from tests.mcp_calls import pair_asked

pytestmark = pytest.mark.anyio


async def _pair(settings: Settings, a: str, b: str) -> tuple[list[dict[str, Any]], set[tuple]]:
    return await pair_asked(settings, a, b, consolidate=True)


@pytest.mark.parametrize(
    ("a", "b", "about"),
    [
        (
            "Webhook deliveries are retried with exponential backoff by the dispatcher.",
            "The webhook dispatcher never retries a failed delivery.",
            "denies",
        ),
        (
            "Nightly exports are encrypted with the tenant's KMS key before upload.",
            "Nothing encrypts the nightly export files; they go up as plain CSV.",
            "denies",
        ),
        (
            "Maintainers are allowed to force-push a hotfix branch to fix a bad tag.",
            "Branch protection blocks force pushes to hotfix branches, maintainers included.",
            "denies",
        ),
        (
            "Invoices are stored as integer cents in the ledger table.",
            "The ledger keeps invoice amounts as decimals rather than integer cents.",
            "denies",
        ),
        (
            "Per the user, the ingest queue's visibility timeout is a quarter of an hour.",
            "Messages on the ingest queue stay invisible for 30 minutes after a worker takes them.",
            "duration",
        ),
        (
            "The ranking model uses a dropout of 0.1 in its head.",
            "We use 30% dropout in the ranking head to fight overfitting.",
            "share",
        ),
        (
            "Debug log lines are sampled at one in ten before they leave the pod.",
            "We keep half of the debug log lines (`sample_rate: 0.5` in the shipper).",
            "share",
        ),
    ],
)
async def test_a_difference_the_slots_did_not_place_is_asked_and_changes_nothing(
    settings: Settings, a: str, b: str, about: str
) -> None:
    records, standing = await _pair(settings, a, b)
    assert records, "the pair was not put to the agent"
    assert {r["state"] for r in records} == {"possible"}
    assert standing == {("ACTIVE", 5.0)}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a rule and its exception
        ("We never log request bodies.", "Request bodies are logged only for the debug endpoint."),
        # one rule said twice, each time as a denial
        ("Never commit secrets to the repository.", "Committing secrets to the repo is forbidden."),
        # a denial of something the other note does not speak of
        (
            "The exporter sidecar serves metrics on port 9102.",
            "The exporter sidecar is a static binary with no runtime dependencies.",
        ),
        # a share and its rest
        ("The disk alert fires at 80% used.", "We get paged when free disk drops below one fifth."),
        # one share, written two ways
        (
            "We sample 10% of traces in production.",
            "`traces_sample_rate=0.1` in the production tracing config.",
        ),
        # other subjects, each narrowed its own way
        (
            "The request timeout is 10 s for the public API.",
            "The request timeout is 60 s for batch jobs.",
        ),
        # a range and a value inside it
        ("The API autoscales between 3 and 12 pods.", "The API is running 5 pods right now."),
        # a default and its override
        (
            "The HTTP client's default timeout is 30 seconds.",
            "The export helper overrides the HTTP client timeout to 300 seconds.",
        ),
    ],
)
async def test_look_alikes_are_not_asked(settings: Settings, a: str, b: str) -> None:
    records, standing = await _pair(settings, a, b)
    assert not [r for r in records if r["state"] in ("possible", "open", "resolved")]
    assert standing == {("ACTIVE", 5.0)}
