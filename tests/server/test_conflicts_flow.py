"""Contradictions end to end (seed 004's three patterns, and the code as the judge)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.conftest import BACKENDS, GitRepo, anchormem_env, store_settings
from tests.mcp_calls import call

pytestmark = [pytest.mark.anyio, pytest.mark.backends(*BACKENDS)]


def conflicts_json(settings: Settings) -> dict[str, Any]:
    """``anchormem conflicts --json`` run in the repository, on the store ``settings`` name."""
    exe = str(Path(sys.executable).with_name("anchormem"))
    env = anchormem_env(**store_settings(settings))
    done = subprocess.run(
        [exe, "conflicts", "--json"],
        cwd=settings.repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


async def test_temporal_supersession_refutes_the_older_value_with_a_receipt(settings: Settings):
    async with Client(build_server(settings)) as client:
        old = await call(client, "remember", text="We use Python 3.8", origin="alice")
        new = await call(client, "remember", text="We upgraded to Python 3.12", origin="alice")
        assert new["conflicts"][0]["reason_code"] == "TEMPORAL_SUPERSESSION"
        found = await call(client, "recall", query="python", include_refuted=True, detail=True)
    by_id = {m["id"]: m for m in found["memories"]}
    assert by_id[new["id"]]["status"] != "REFUTED"
    assert by_id[old["id"]]["status"] == "REFUTED"
    assert by_id[old["id"]]["receipt"]["cause"] == new["id"]  # linked, never deleted
    rows = conflicts_json(settings)["conflicts"]
    assert rows == [
        {
            "ids": [old["id"], new["id"]],
            "kind": "slot",
            "claims": ["We use Python 3.8", "We upgraded to Python 3.12"],
            "state": "resolved",
            "rule": "recency",
            "outcome": "refuted",
            "winner": new["id"],
            "loser": old["id"],
            "reason_code": "TEMPORAL_SUPERSESSION",
            "confidences": [5.0, 5.0],
        }
    ]


async def test_source_disagreement_is_decided_by_confidence_and_origins_not_recency(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        lead = await call(
            client,
            "remember",
            text="The team lead said the limit is 500",
            origin="lead",
            source="user",
        )
        for who in ("bob", "carol"):
            await call(
                client,
                "remember",
                text="The team lead said the limit is 500",
                origin=who,
                source="user",
            )
        doc = await call(
            client,
            "remember",
            text="The documentation says the limit is 100",
            origin="docs",
            source="doc",
        )
        verdict = doc["conflicts"][0]
        assert verdict["reason_code"] == "HIGHER_CONFIDENCE" and verdict["winner"] == lead["id"]
        assert verdict["outcome"] == "demoted"
        found = await call(client, "recall", query="limit", include_refuted=True)
    by_id = {m["id"]: m for m in found["memories"]}
    assert by_id[doc["id"]]["status"] != "REFUTED"  # demoted, not refuted
    assert doc["confidence"] < 5.0 and by_id[doc["id"]]["confidence"] < 5.0


async def test_a_disagreement_too_close_to_call_keeps_both_side_by_side(settings: Settings):
    async with Client(build_server(settings)) as client:
        a = await call(
            client,
            "remember",
            text="The documentation says the limit is 100",
            origin="docs",
            source="doc",
        )
        b = await call(
            client,
            "remember",
            text="The team lead said the limit is 500",
            origin="lead",
            source="user",
        )
        assert b["conflicts"][0]["state"] == "open"
        assert b["conflicts"][0]["reason_code"] == "TOO_CLOSE"
        found = await call(client, "recall", query="documentation limit")
    ids = [m["id"] for m in found["memories"]]
    assert ids[:2] == [a["id"], b["id"]]  # the other side right after it
    for m in found["memories"][:2]:
        assert m["conflicts"] and m["band"] != "assert"


async def test_different_scopes_are_not_a_conflict_and_an_unclear_scope_is_reported(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        staging = await call(client, "remember", text="The staging API uses HTTP")
        prod = await call(client, "remember", text="The production API uses HTTPS")
        assert "conflicts" not in staging and "conflicts" not in prod  # none: left out
        both = await call(client, "recall", query="API uses")
        assert {m["id"] for m in both["memories"]} == {staging["id"], prod["id"]}
        unclear = await call(client, "remember", text="The API uses HTTPS")
    reasons = {c["reason_code"] for c in unclear["conflicts"]}
    assert reasons == {"SCOPE_AMBIGUOUS"}
    assert all(c["state"] == "open" for c in unclear["conflicts"])


async def test_a_negated_claim_conflicts_with_its_positive(settings: Settings):
    async with Client(build_server(settings)) as client:
        await call(client, "remember", text="We deploy on Fridays", origin="alice")
        neg = await call(
            client, "remember", text="We don't deploy on Fridays anymore", origin="alice"
        )
    assert neg["conflicts"][0]["kind"] == "negation"
    assert neg["conflicts"][0]["reason_code"] == "TEMPORAL_SUPERSESSION"


async def test_an_anchored_conflict_is_decided_by_the_code_and_again_after_it_changes(
    project: GitRepo,
    settings: Settings,
):
    project.commit({"store/cache.py": "import redis\n\nclient = redis.Redis()\n"}, "redis")
    async with Client(build_server(settings)) as client:
        uses = await call(
            client, "remember", text="Sessions are cached with redis", anchors=["import:redis"]
        )
        dropped = await call(
            client, "remember", text="Redis was removed from the project", anchors=["!import:redis"]
        )
        assert uses["status"] == "VERIFIED" and dropped["status"] == "REFUTED"
        first = dropped["conflicts"][0]
        assert first["reason_code"] == "CODE_VERDICT" and first["winner"] == uses["id"]
        project.commit({"store/cache.py": None}, "drop redis")
        found = await call(client, "recall", query="redis", include_refuted=True)
    by_id = {m["id"]: m for m in found["memories"]}
    assert by_id[uses["id"]]["status"] == "REFUTED" and by_id[dropped["id"]]["status"] == "VERIFIED"
    rows = conflicts_json(settings)["conflicts"]
    assert [(r["reason_code"], r["winner"]) for r in rows] == [("CODE_VERDICT", dropped["id"])]


async def test_a_slot_that_keeps_flipping_is_reported(settings: Settings):
    async with Client(build_server(settings)) as client:
        await call(client, "remember", text="We use Python 3.8", origin="alice")
        await call(client, "remember", text="We upgraded to Python 3.12", origin="alice")
        await call(client, "remember", text="We moved back to Python 3.8 now", origin="alice")
        await call(client, "remember", text="We switched to Python 3.12 again", origin="alice")
    report = conflicts_json(settings)
    assert report["flipping_slots"][0]["slot"] == "|python version"
    assert report["flipping_slots"][0]["reversals"] >= 1


def _insert_without_detection(settings: Settings, text: str, origin: str) -> str:
    """A memory written straight to the store, as an older anchormem (without conflict
    detection) would have left it."""
    from datetime import timedelta

    from server.runtime import open_runtime
    from store.contradictions.claims import slot_key
    from store.contradictions.resolving import claim_keys
    from store.db import utcnow
    from store.ids import new_id
    from store.lifecycle import text_hash
    from store.model import Kind, Memory, Source, Status
    from store.plan import NewMemory, Plan
    from store.search import memory_terms

    rt = open_runtime(settings)
    try:
        slot, _, core = claim_keys(text, None, None, None)
        mem = Memory(
            id=new_id("m"),
            text=text,
            subject=None,
            kind=Kind.FACT,
            scope=None,
            source=Source.AGENT,
            origin=origin,
            created_at=utcnow() - timedelta(minutes=1),
            commit=None,
            status=Status.ACTIVE,
            origins=(origin,),
            attribute=slot_key(slot) if slot else None,
            slot_value=slot.value if slot else None,
        )
        new = NewMemory(mem, text_hash(text), memory_terms(text), text.lower(), core)
        rt.db.apply(Plan(memories=(new,)))
        return mem.id
    finally:
        rt.close()


async def test_consolidate_finds_conflicts_missed_at_write_and_touches_nothing_else(
    settings: Settings,
):
    a = _insert_without_detection(settings, "The request timeout is 30s", "a")
    async with Client(build_server(settings)) as client:
        others = [
            await call(client, "remember", text=f"Module {i} logs to stderr", origin="a")
            for i in range(5)
        ]
    b = _insert_without_detection(settings, "The request timeout is 60s now", "a")
    async with Client(build_server(settings)) as client:
        report = await call(client, "consolidate")
        again = await call(client, "consolidate")
        found = await call(client, "recall", query="module logs stderr", limit=20)
        timeout = await call(client, "recall", query="request timeout", include_refuted=True)
    assert [(c["winner"], c["loser"]) for c in report["conflicts"]] == [(b, a)]
    assert again["conflicts"] == []  # nothing is decided or logged twice
    assert {m["id"] for m in found["memories"]} == {o["id"] for o in others}
    assert all(m["status"] == "ACTIVE" and m["confidence"] == 5.0 for m in found["memories"])
    assert {m["id"]: m["status"] for m in timeout["memories"]}[a] == "REFUTED"


async def test_a_note_meeting_many_others_lists_ten_decisions_and_counts_the_rest(
    settings: Settings,
):
    """The store decides and logs every conflict; the agent's answer lists ten of them
    and counts the others, so one note meeting a hundred does not fill its context."""
    async with Client(build_server(settings)) as client:
        users = [
            await call(
                client,
                "remember",
                text=f"Service {i} posts its reports with httpx",
                subject=f"service{i}",
                anchors=["dep:httpx"],
            )
            for i in range(13)
        ]
        removed = await call(
            client, "remember", text="We removed httpx long ago", anchors=["!dep:httpx"]
        )
        result = await client.call_tool(
            "remember", {"text": "httpx is gone from this project", "anchors": ["!dep:httpx"]}
        )
    assert removed["status"] == "REFUTED"  # the code still declares httpx
    assert len(removed["conflicts"]) == 10 and removed["more_conflicts"] == 3
    listed = {i for c in removed["conflicts"] for i in c["ids"]}
    assert listed <= {u["id"] for u in users} | {removed["id"]}
    logged = [c for c in conflicts_json(settings)["conflicts"] if removed["id"] in c["ids"]]
    assert len(logged) == 13  # every decision is in the log
    (text,) = [c.text for c in result.content if c.type == "text"]
    assert "and 3 more conflicts decided (in the conflict log)" in text
