"""Notes the rules cannot judge, put to the agent: ``remember`` hands back the few closest
notes as ``related`` with one question, the agent answers with ``resolve``, and nothing
changes until it does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from store.contradictions.related_note import BYTES, LIMIT, PAIRS, QUESTION
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio

# Agent-style notes about one thing that the rules read no slot, anchor or negation in.
OLD = (
    "Logs are shipped to Datadog by the sidecar agent in every pod, "
    "which is why the user asked us to keep the agent image small."
)
NEW = "The sidecar agent in every pod now ships logs to Grafana Loki to cut costs."
OTHER = "The frontend bundle is built by esbuild in the release pipeline."


def _size(answer: dict[str, Any]) -> int:
    return len(json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode())


def _ids(answer: dict[str, Any]) -> list[str]:
    return [line.split(":", 1)[0] for line in answer.get("related", [])]


async def _standing(client: Client, ids: list[str]) -> dict[str, tuple[str, float]]:
    found = await call(client, "verify")
    return {m["id"]: (m["status"], m["confidence"]) for m in found["memories"] if m["id"] in ids}


async def test_remember_returns_related_notes_with_one_question_and_changes_nothing(
    settings: Settings,
) -> None:
    async with Client(build_server(settings)) as client:
        old = await call(client, "remember", text=OLD, scope="external")
        other = await call(client, "remember", text=OTHER, scope="external")
        before = await _standing(client, [old["id"], other["id"]])
        result = await client.call_tool("remember", {"text": NEW, "scope": "external"})
        new = result.structured_content
        assert new is not None
        assert not new.get("conflicts") and not new.get("possible_conflicts")  # rules: no
        assert _ids(new) == [old["id"]]  # the note about esbuild is not about this
        assert new["related"][0].startswith(f"{old['id']}: Logs are shipped to Datadog")
        assert new["related_question"] == QUESTION
        text = result.content[0].text  # type: ignore[union-attr]
        assert f"related: {QUESTION}" in text and old["id"] in text
        after = await _standing(client, [old["id"], other["id"]])
    assert after == before  # a candidate is asked, never decided


async def test_related_adds_at_most_its_byte_budget_to_a_remember(settings: Settings) -> None:
    # Quotes and accents take more bytes when served than characters in the note.
    long_tail = ' and the "retry policy" is documented in the runbook for the on-call équipe'

    async with Client(build_server(settings)) as client:
        for n in range(LIMIT + 2):
            await call(
                client,
                "remember",
                text=f"The billing worker {n} retries failed charges{long_tail}.",
                scope="external",
            )
        new = await call(
            client,
            "remember",
            text="Billing worker retries of failed charges are documented in the runbook.",
            scope="external",
        )
    assert len(new["related"]) == LIMIT
    without = {k: v for k, v in new.items() if k not in ("related", "related_question")}
    assert _size(new) - _size(without) <= BYTES


@pytest.mark.parametrize("verdict", ["conflict", "compatible", "same"])
async def test_resolve_answers_a_related_pair_with_each_verdict(
    settings: Settings, verdict: str
) -> None:
    async with Client(build_server(settings)) as client:
        old = await call(client, "remember", text=OLD, scope="external")
        new = await call(client, "remember", text=NEW, scope="external")
        assert _ids(new) == [old["id"]]
        winner = {"winner": new["id"]} if verdict == "conflict" else {}
        judged = await call(
            client,
            "resolve",
            first=old["id"],
            second=new["id"],
            verdict=verdict,
            reason="the user said logs go to Loki now",
            **winner,
        )
        standing = await _standing(client, [old["id"], new["id"]])
    decision = judged["conflict"]
    assert decision["state"] == "resolved"
    assert (
        decision["reason_code"]
        == {
            "conflict": "JUDGED_CONFLICT",
            "compatible": "JUDGED_COMPATIBLE",
            "same": "JUDGED_SAME",
        }[verdict]
    )
    if verdict == "conflict":
        assert decision["loser"] == old["id"]
        assert standing[old["id"]][0] == "REFUTED"
    else:
        assert standing[old["id"]][0] != "REFUTED"
    assert standing[new["id"]][0] != "REFUTED"


async def test_a_pair_judged_compatible_is_never_asked_again(settings: Settings) -> None:
    async with Client(build_server(settings)) as client:
        old = await call(client, "remember", text="The session cookie is called sid.")
        new = await call(client, "remember", text="The session cookie is called token_sid.")
        asked = {tuple(p["ids"]) for p in new.get("possible_conflicts", [])}
        assert (old["id"], new["id"]) in asked or _ids(new) == [old["id"]]
        await call(
            client,
            "resolve",
            first=old["id"],
            second=new["id"],
            verdict="compatible",
            reason="two cookies",
        )
        again = await call(client, "consolidate")
        repeated = await call(client, "remember", text="The session cookie is called token_sid.")
    pair = {old["id"], new["id"]}
    assert not [p for p in again.get("possible_conflicts", []) if set(p["ids"]) == pair]
    assert repeated["outcome"] == "duplicate"
    assert "related" not in repeated and "possible_conflicts" not in repeated


async def test_a_pair_the_rules_read_as_one_value_is_not_asked(settings: Settings) -> None:
    async with Client(build_server(settings)) as client:
        await call(client, "remember", text="The request timeout is 30 seconds.")
        new = await call(client, "remember", text="The request timeout is 30 s.")
    assert "related" not in new and "possible_conflicts" not in new


# Two products that do one job (or one and the name of the job), named by notes that share
# no other word of weight.
@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Errors from the web app land in Sentry, the DSN comes from SENTRY_DSN.",
            "We got rid of it after the pricing change: exceptions are reported to Rollbar.",
        ),
        (
            "The storefront's typo-tolerant search box is backed by Algolia.",
            "Product lookups now run on a self-hosted Meilisearch next to the API.",
        ),
        (
            "Pipelines are defined in the Jenkinsfile at the repository root.",
            "Every pipeline is a GitHub Actions workflow under .github/workflows.",
        ),
        # the name of the job meets a product that does it
        (
            "Each microservice keeps its own database; none reads another one's schema.",
            "All services share one Postgres cluster and query each other's tables.",
        ),
        (
            "Unhandled exceptions from the workers are sent to the error tracker.",
            "Worker crashes are reported to Bugsnag with the job's arguments.",
        ),
        # a lead-in that says who said it, then the claim
        (
            "As the user explained when we looked at the slow dashboard, the analytics API "
            "caches query results in Redis for 10 minutes.",
            "Cached analytics responses live for an hour (`ANALYTICS_CACHE_TTL = 3600`).",
        ),
        # retries and attempts are one thing
        (
            "The payment webhook handler retries a failed delivery 5 times before parking it.",
            "Stripe webhook processing gives up after 2 attempts (see `payments/webhooks.py`).",
        ),
    ],
)
async def test_a_note_naming_another_product_for_the_same_job_is_related(
    settings: Settings, old: str, new: str
) -> None:
    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=old, scope="external")
        await call(client, "remember", text=OTHER, scope="external")
        second = await call(client, "remember", text=new, scope="external")
    # related, or asked as a possible conflict where the rules read what differs
    asked = [i for r in second.get("possible_conflicts", []) for i in r["ids"] if i != second["id"]]
    assert _ids(second) + asked == [first["id"]]


async def test_a_close_note_leaves_out_notes_that_share_only_common_words(
    settings: Settings,
) -> None:
    async with Client(build_server(settings)) as client:
        close = await call(client, "remember", text=OLD, scope="external")
        # Shares "pod" and "agent" with the new note, nothing it is about.
        loose = await call(
            client,
            "remember",
            text="Each pod runs a health agent that restarts the worker after three failed probes.",
            scope="external",
        )
        alone = await call(client, "remember", text=NEW.replace("Grafana Loki", "Loki"))
        assert close["id"] in _ids(alone)
        assert loose["id"] not in _ids(alone)


def _pairs(report: dict[str, Any]) -> list[set[str]]:
    return [
        {side.split(":", 1)[0] for side in line.split(" ~ ")} for line in report.get("related", [])
    ]


async def test_consolidate_asks_about_close_pairs_until_they_are_judged(
    settings: Settings,
) -> None:
    async with Client(build_server(settings)) as client:
        old = await call(client, "remember", text=OLD, scope="external")
        other = await call(client, "remember", text=OTHER, scope="external")
        new = await call(client, "remember", text=NEW, scope="external")
        before = await _standing(client, [old["id"], new["id"], other["id"]])
        report = await call(client, "consolidate")
        assert _pairs(report) == [{old["id"], new["id"]}]  # the esbuild note pairs with none
        assert report["related_compared"] == 3
        assert await _standing(client, [old["id"], new["id"], other["id"]]) == before
        await call(
            client,
            "resolve",
            first=new["id"],
            second=old["id"],
            verdict="compatible",
            reason="both sidecars ship logs: one to Datadog, one to Loki",
        )
        again = await call(client, "consolidate")
    assert "related" not in again  # judged: never asked again


async def test_consolidate_lists_the_closest_pairs_and_counts_the_rest(
    settings: Settings,
) -> None:
    services = ["billing", "search", "checkout", "catalog", "mailer", "invoicing", "reports"]
    async with Client(build_server(settings)) as client:
        for name in services[: PAIRS + 2]:  # every two of them are close: more than shown
            text = f"Logs of the {name} service are shipped by the sidecar agent in every pod."
            await call(client, "remember", text=text, scope="external")
        report = await call(client, "consolidate")
    assert len(report["related"]) == PAIRS
    assert report["more_related"] > 0
