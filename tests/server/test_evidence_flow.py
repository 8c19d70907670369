"""Evidence gating end to end, through the MCP client: confidence must be earned."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from server.rendering import Rendered
from store.errors import InvalidInput
from tests.conftest import BACKENDS, anchormem_env, run_sql, settings_env
from tests.mcp_calls import call, record, remember_full

pytestmark = [pytest.mark.anyio, pytest.mark.backends(*BACKENDS)]

CLAIM = "Releases are cut from the main branch on Thursdays"


async def remember(client: Client, origin: str, text: str = CLAIM, **extra: Any) -> dict[str, Any]:
    return await remember_full(
        client, text=text, source="user", origin=origin, kind="convention", **extra
    )


async def test_one_origin_repeating_a_claim_five_times_stays_at_or_below_seven(settings: Settings):
    async with Client(build_server(settings)) as client:
        first = await remember(client, "alice")
        assert first["confidence"] == 5.0 and first["candidate"] is True
        for _ in range(4):
            again = await remember(client, "alice")
            assert again["outcome"] == "duplicate" and again["id"] == first["id"]
        assert again["observations"] == 5
        assert again["origins"] == 1
        assert again["confidence"] <= 7.0
        assert again["band"] == "hedge" and "not verified" in again["provenance"]


async def test_a_second_independent_origin_lifts_it_above_seven_but_not_to_eight(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        first = await remember(client, "alice")
        for _ in range(4):
            await remember(client, "alice")
        second = await remember(client, "bob")
    assert second["id"] == first["id"] and second["origins"] == 2
    assert 7.0 < second["confidence"] < 8.0
    assert second["candidate"] is False


async def test_verification_by_code_lifts_it_to_eight_and_it_is_asserted(settings: Settings):
    async with Client(build_server(settings)) as client:
        made = await remember_full(
            client,
            text="Auth verifies tokens in auth/jwt.py",
            anchors=["symbol:auth/jwt.py::verify"],
            origin="alice",
        )
    assert made["status"] == "VERIFIED"
    assert made["confidence"] >= 8.0 and made["band"] == "assert"


async def test_a_derived_memory_inherits_origins_and_never_corroborates_its_parent(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        parent = await remember(client, "alice")
        summary = await remember_full(
            client,
            text="Summary: we release on Thursdays",
            origin="consolidator",
            derived_from=[parent["id"]],
        )
        again = await remember_full(
            client, text="Summary: we release on Thursdays", origin="consolidator"
        )
    assert summary["origins"] == 1 and again["origins"] == 1


async def test_an_explicit_correction_supersedes_at_once(settings: Settings):
    async with Client(build_server(settings)) as client:
        old = await remember_full(
            client, text="Sessions are cached in Redis", origin="alice", source="user"
        )
        fixed = await call(
            client,
            "observe",
            id=old["id"],
            confirms=False,
            kind="correction",
            note="Sessions are cached in the database since last month",
            origin="alice",
        )
        assert fixed["status"] == "REFUTED" and fixed["why"].startswith("refuted (correction)")
        old_record = await record(client, old["id"])
        assert old_record["refuted_by"] == "correction"
        assert old_record["receipt"]["action"] == "supersede"
        assert old_record["receipt"]["cause"] == fixed["new_memory"]
        found = await call(client, "recall", query="sessions cached", detail=True)
        assert [m["id"] for m in found["memories"]] == [fixed["new_memory"]]
        assert found["memories"][0]["supersedes"] == old["id"]
        back = await remember_full(client, text="Sessions are cached in Redis")
        assert back["outcome"] == "previously_retracted"


async def test_an_explained_exception_leaves_the_memory_and_stores_an_expiring_episode(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        made = await remember_full(
            client, text="HTTP calls use httpx", origin="alice", source="user"
        )
        seen = await call(
            client,
            "observe",
            id=made["id"],
            confirms=False,
            kind="exception",
            note="Used requests in the vendor shim only because their SDK needs it",
        )
        assert seen["confidence"] == made["confidence"] and seen["status"] == made["status"]
        episode_id = seen["episode"]
        found = await call(client, "recall", query="vendor shim requests", detail=True)
        assert [m["id"] for m in found["memories"]] == [episode_id]
        assert found["memories"][0]["kind"] == "episode" and found["memories"][0]["expires_at"]
    run_sql(
        settings,
        "UPDATE memories SET expires_at = now() - INTERVAL '1 day' WHERE id = ?",
        [episode_id],
    )
    async with Client(build_server(settings)) as client:
        found = await call(client, "recall", query="vendor shim requests", detail=True)
    assert found["memories"] == []


async def test_a_proxy_action_is_not_evidence_about_the_subject(settings: Settings):
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        seen = await call(client, "observe", id=made["id"], confirms=False, kind="proxy")
    assert seen["confidence"] == made["confidence"]


async def test_three_contradictions_in_a_window_put_the_memory_in_the_ask_queue(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        for _ in range(3):
            await call(
                client,
                "observe",
                id=made["id"],
                confirms=False,
                kind="behaviour",
                origin="ci-bot",
                source="agent",
            )
        queue = await call(client, "review")
        again = await call(client, "review")
    assert {"id": made["id"], "action": "ASK"}.items() <= next(
        i for i in queue["items"] if i["id"] == made["id"]
    ).items()
    assert [q["id"] for q in queue["questions"]] == [made["id"]]
    assert again["questions"] == []  # one question per user per week


async def test_below_the_hide_threshold_it_is_not_served_and_comes_back_after_confirmation(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        low = await call(
            client, "observe", id=made["id"], confirms=False, kind="behaviour", weight=1.0
        )
        assert low["confidence"] < 3.5 and low["band"] == "hidden"
        assert (await call(client, "recall", query="releases thursdays", detail=True))[
            "memories"
        ] == []
        up = await call(
            client,
            "observe",
            id=made["id"],
            confirms=True,
            kind="behaviour",
            origin="bob",
            weight=1.0,
        )
        assert up["confidence"] >= 3.5
        found = await call(client, "recall", query="releases thursdays", detail=True)
    assert [m["id"] for m in found["memories"]] == [made["id"]]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ({"id": "mnotthere1", "confirms": True}, "not found"),
        # The input schema's enum: refused in one sentence naming the allowed values.
        ({"kind": "gossip", "confirms": True}, "kind must be one of correction, behaviour,"),
        ({"weight": 1.5, "confirms": True}, "weight must be a number from 0 to 1, not 1.5"),
        ({"kind": "correction", "confirms": False}, "needs --note"),
    ],
)
async def test_bad_observations_are_clear_errors_and_change_nothing(
    settings: Settings, args: dict[str, Any], fragment: str
):
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        result = await client.call_tool("observe", {"id": made["id"], **args})
        assert result.is_error
        text = " ".join(getattr(c, "text", "") for c in result.content)
        assert fragment in text
        after = await call(client, "recall", query="releases thursdays", detail=True)
    assert after["memories"][0]["observations"] == 1
    assert after["memories"][0]["confidence"] == made["confidence"]


async def test_observing_a_forgotten_memory_is_an_error(settings: Settings):
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        rt_forget = await client.call_tool("observe", {"id": made["id"], "confirms": True})
        assert not rt_forget.is_error
    from server.runtime import open_runtime

    rt = open_runtime(settings)
    try:
        Rendered(rt.service).forget(made["id"], "privacy")
    finally:
        rt.close()
    async with Client(build_server(settings)) as client:
        result = await client.call_tool("observe", {"id": made["id"], "confirms": True})
    assert result.is_error


def test_stats_and_review_through_the_cli_count_wrong_and_missed_fact_signals(
    project: Any, store_env: dict[str, str]
):
    import json
    import subprocess
    import sys
    from pathlib import Path

    exe = str(Path(sys.executable).with_name("anchormem"))
    env = anchormem_env(**store_env)

    def run(*args: str) -> dict[str, Any]:
        done = subprocess.run(
            [exe, *args, "--json"],
            cwd=project.root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout)

    a = run("remember", "Deploys run from the ops laptop")
    b = run("remember", "Sessions live in Redis")
    run("remember", "Deploys run from the ops laptop")  # a restatement: a missed-fact signal
    run("retract", a["id"], "--reason", "deploys run in CI")
    run("remember", "Deploys run from the ops laptop")  # a retracted claim comes back
    run(
        "observe",
        b["id"],
        "--contradicts",
        "--kind",
        "correction",
        "--note",
        "Sessions live in memcached",
    )
    stats = run("stats")
    assert stats["wrong_fact_signals"]["retractions"] == 1
    assert stats["wrong_fact_signals"]["corrections"] == 1
    assert stats["missed_fact_signals"]["restatements"] == 1
    assert stats["retracted_claims_remembered_again"] == 1
    assert stats["memories_written"] == 3
    assert stats["correction_rate"] == pytest.approx(1 / 3, abs=1e-3)
    assert set(run("review")) == {"items", "questions"}


@pytest.mark.parametrize("record", ["code", "ci", "CODE"])
async def test_a_tool_caller_cannot_speak_for_the_code_or_ci_to_promote_a_memory(
    settings: Settings, record: str
):
    """Issue 14, item 2: one observe claiming source code must not give 8.0, assert."""
    async with Client(build_server(settings)) as client:
        made = await remember(client, "alice")
        assert made["confidence"] == 5.0 and made["band"] == "hedge"
        claimed = await client.call_tool(
            "observe", {"id": made["id"], "confirms": True, "source": record, "origin": "x"}
        )
        assert claimed.is_error and "system of record" in str(claimed.content)
        as_code = await client.call_tool(
            "remember", {"text": "Deploys go out on Fridays", "source": record}
        )
        assert as_code.is_error and "system of record" in str(as_code.content)
        # Any mix of ordinary observations still needs three origins for 8.0.
        for origin in ("bob", "carol"):
            seen = await call(client, "observe", id=made["id"], confirms=True, origin=origin)
            assert seen["confidence"] < 8.0 and seen["band"] != "assert"
        shown = await call(client, "recall", query="releases thursdays", detail=True)
    [memory] = shown["memories"]
    assert memory["confidence"] < 8.0 and memory["band"] == "hedge"
    assert "record_confirmed" not in memory["flags"]


async def test_a_trusted_caller_may_speak_for_ci(project: Any, store_env: dict[str, str]):
    trusted = Settings.resolve(
        repo=str(project.root), env=settings_env(ANCHORMEM_TRUSTED_SOURCES="ci", **store_env)
    )
    async with Client(build_server(trusted)) as client:
        made = await remember(client, "alice")
        seen = await call(client, "observe", id=made["id"], confirms=True, source="ci")
        assert seen["confidence"] >= 8.0
        refused = await client.call_tool(
            "observe", {"id": made["id"], "confirms": True, "source": "code"}
        )
        assert refused.is_error


def test_trusting_a_source_that_is_no_record_is_refused(project: Any):
    with pytest.raises(InvalidInput):
        Settings.resolve(repo=str(project.root), env=settings_env(ANCHORMEM_TRUSTED_SOURCES="user"))
