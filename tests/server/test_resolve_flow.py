"""Contradictions as people write them, through the MCP tools: pairs the rules cannot
decide are returned as ``possible_conflicts``, never resolved; the agent judges them with
``resolve``; a compatible pair is never asked again; look-alikes are left alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio


def _rows(settings: Settings, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    db = Path(str(settings.db))
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, list(params)).fetchall()


async def note(client: Client, text: str, **args: Any) -> dict[str, Any]:
    """A note about the infrastructure, outside the repository: never checked against
    its code, so only contradictions can change it."""
    return await call(client, "remember", text=text, scope="external", **args)


async def _state(client: Client, *ids: str) -> dict[str, tuple[str, float]]:
    found = await call(client, "verify")
    return {m["id"]: (m["status"], m["confidence"]) for m in found["memories"] if m["id"] in ids}


async def test_remember_returns_a_pair_it_cannot_decide_as_a_possible_conflict(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        a = await note(client, "We use SendGrid for transactional e-mail.")
        b = await note(client, "We use Mailgun for transactional e-mail.")
        state = await _state(client, a["id"], b["id"])
    (possible,) = b["possible_conflicts"]
    assert possible["ids"] == [a["id"], b["id"]]
    assert possible["claims"] == [a["text"], b["text"]]
    assert "resolve" in possible["question"]
    assert "conflicts" not in b  # a question, not a decision
    assert state == {a["id"]: ("ACTIVE", 5.0), b["id"]: ("ACTIVE", 5.0)}


async def test_a_conflict_too_close_to_call_is_asked_and_changes_nothing(settings: Settings):
    async with Client(build_server(settings)) as client:
        a = await note(client, "Access tokens live for 15 minutes.")
        b = await note(client, "Access tokens live for one hour.")
        report = await call(client, "consolidate")
        state = await _state(client, a["id"], b["id"])
    assert [c["reason_code"] for c in b["conflicts"]] == ["TOO_CLOSE"]
    assert [p["ids"] for p in b["possible_conflicts"]] == [[a["id"], b["id"]]]
    assert report["pairs_compared"] >= 1
    assert [p["ids"] for p in report["possible_conflicts"]] == [[a["id"], b["id"]]]
    assert state == {a["id"]: ("ACTIVE", 5.0), b["id"]: ("ACTIVE", 5.0)}


async def test_resolve_conflict_refutes_the_loser_with_an_audit_row_and_a_conflict_row(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        a = await note(client, "Background jobs are queued in RabbitMQ.")
        b = await note(client, "Background jobs are queued in SQS.")
        done = await call(
            client,
            "resolve",
            first=a["id"],
            second=b["id"],
            verdict="conflict",
            winner=b["id"],
            reason="the worker reads from SQS (worker/queue.py)",
            actor="session-7",
        )
        state = await _state(client, a["id"], b["id"])
        again = await call(client, "consolidate")
    row = done["conflict"]
    assert row["reason_code"] == "JUDGED_CONFLICT" and row["state"] == "resolved"
    assert (row["winner"], row["loser"], row["outcome"]) == (b["id"], a["id"], "refuted")
    assert state[a["id"]][0] == "REFUTED" and state[b["id"]] == ("ACTIVE", 5.0)
    audit = _rows(
        settings, "SELECT memory_id, action, actor FROM audit WHERE actor = ?", "session-7"
    )
    assert sorted(audit) == sorted(
        [
            (a["id"], "resolve", "session-7"),
            (b["id"], "resolve", "session-7"),
            (a["id"], "supersede", "session-7"),
        ]
    )
    logged = _rows(
        settings, "SELECT rule, reason_code, winner FROM conflict_log ORDER BY seq DESC LIMIT 1"
    )
    assert logged == [("judgement", "JUDGED_CONFLICT", b["id"])]
    assert "possible_conflicts" not in again and again["conflicts"] == []


@pytest.mark.parametrize(
    ("verdict", "outcome", "reason_code"),
    [("compatible", "kept_both", "JUDGED_COMPATIBLE"), ("same", "merged", "JUDGED_SAME")],
)
async def test_resolve_compatible_or_same_changes_no_status_and_is_never_asked_again(
    settings: Settings, verdict: str, outcome: str, reason_code: str
):
    async with Client(build_server(settings)) as client:
        a = await note(client, "We use SendGrid for transactional e-mail.")
        b = await note(client, "We use Mailgun for transactional e-mail.")
        done = await call(
            client,
            "resolve",
            first=b["id"],
            second=a["id"],
            verdict=verdict,
            reason="SendGrid for receipts, Mailgun for password resets",
        )
        report = await call(client, "consolidate")
        third = await note(client, "We use Postmark for transactional e-mail.")
        state = await _state(client, a["id"], b["id"])
    row = done["conflict"]
    assert row["ids"] == [a["id"], b["id"]]  # the pair as it was logged, older first
    assert (row["outcome"], row["reason_code"], row.get("winner")) == (outcome, reason_code, None)
    assert {m["status"] for m in done["memories"]} == {"ACTIVE"}
    assert state[a["id"]][0] == state[b["id"]][0] == "ACTIVE"
    assert state[b["id"]][1] == 5.0
    if verdict == "same":  # the newer counted as a restatement of the older
        assert _rows(
            settings, "SELECT count(*) FROM observations WHERE memory_id = ?", a["id"]
        ) == [(1,)]
    audit = _rows(settings, "SELECT memory_id FROM audit WHERE action = 'resolve'")
    assert sorted(audit) == sorted([(a["id"],), (b["id"],)])
    asked = [set(p["ids"]) for p in report.get("possible_conflicts", [])]
    asked += [set(p["ids"]) for p in third.get("possible_conflicts", [])]
    assert {a["id"], b["id"]} not in asked  # judged once, never asked again
    assert {a["id"], third["id"]} in asked or {b["id"], third["id"]} in asked


async def test_a_qualified_look_alike_is_never_resolved_even_when_it_says_now(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        a = await note(
            client,
            "The request timeout is 10 s for the public API.",
            origin="alice",
        )
        b = await note(
            client,
            "The request timeout is now 60 s for batch jobs.",
            origin="alice",
        )
        report = await call(client, "consolidate")
        state = await _state(client, a["id"], b["id"])
    assert "conflicts" not in b and "possible_conflicts" not in b
    assert report["conflicts"] == [] and "possible_conflicts" not in report
    assert state == {a["id"]: ("ACTIVE", 5.0), b["id"]: ("ACTIVE", 5.0)}


async def test_equivalent_values_in_other_units_are_not_a_conflict(settings: Settings):
    async with Client(build_server(settings)) as client:
        await note(client, "The worker memory limit is 4096 MB.", origin="a")
        b = await note(client, "The worker memory limit is now 4 GB.", origin="a")
        report = await call(client, "consolidate")
    assert "conflicts" not in b and "possible_conflicts" not in b
    assert report["conflicts"] == [] and "possible_conflicts" not in report


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"verdict": "conflict"}, "winner"),
        ({"verdict": "compatible", "winner": "FIRST"}, "winner"),
        ({"verdict": "maybe"}, "verdict"),
        ({"verdict": "same", "second": "FIRST"}, "itself"),
        ({"verdict": "same", "second": "m-missing"}, "not found"),
    ],
)
async def test_resolve_refuses_bad_input_and_changes_nothing(
    settings: Settings, args: dict[str, Any], error: str
):
    async with Client(build_server(settings)) as client:
        a = await note(client, "Tokens are signed with HS256.")
        b = await note(client, "Tokens are signed with RS256.")
        given = {"first": a["id"], "second": b["id"], "reason": "checked", **args}
        for key, value in given.items():
            if value == "FIRST":
                given[key] = a["id"]
        result = await client.call_tool("resolve", given)
        state = await _state(client, a["id"], b["id"])
    assert result.is_error and error in str(result.content).lower()
    assert state == {a["id"]: ("ACTIVE", 5.0), b["id"]: ("ACTIVE", 5.0)}
    assert _rows(settings, "SELECT count(*) FROM audit WHERE action = 'resolve'") == [(0,)]
