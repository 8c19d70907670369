"""The agent's view: the server driven through the MCP SDK client, in memory."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from server.app import build_server
from server.config import Settings
from server.rendering import Rendered
from tests.conftest import BACKENDS
from tests.mcp_calls import call, record

pytestmark = [pytest.mark.anyio, pytest.mark.backends(*BACKENDS)]


async def test_tools_are_listed_with_annotations_and_output_schemas(settings: Settings):
    async with Client(build_server(settings)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {"remember", "recall", "retract", "verify"} <= set(tools)
    assert tools["recall"].annotations and tools["recall"].annotations.read_only_hint is True
    assert tools["retract"].annotations and tools["retract"].annotations.destructive_hint is True
    for name in ("remember", "recall", "retract"):
        assert tools[name].output_schema is not None
        assert tools[name].description


async def test_remember_recall_retract_and_the_receipt_on_remembering_again(settings: Settings):
    claim = "The store layer opens DuckDB in store/db.py"
    async with Client(build_server(settings)) as client:
        made = await call(
            client,
            "remember",
            text=claim,
            subject="store/db.py",
            anchors=["import:duckdb@store/db.py"],
        )
        assert made["outcome"] == "stored"
        assert made["status"] == "VERIFIED"

        found = await call(client, "recall", query="duckdb store")
        assert [m["id"] for m in found["memories"]] == [made["id"]]
        first = found["memories"][0]
        head = settings_head(settings)
        assert found["commit"] == head
        assert first["anchors"] == ["import:duckdb@store/db.py ✓"]
        assert first["why"] == f"import:duckdb@store/db.py holds at {head[:7]}"
        assert first["score"] > 0
        # The full record: with detail, and from memory://<id>.
        full = (await call(client, "recall", query="duckdb store", detail=True))["memories"][0]
        assert full["checked_commit"] == head
        assert full["anchors"][0]["verdict"] == "holds"
        assert full["anchors"][0]["found_in"] == ["store/db.py"]
        assert await record(client, made["id"]) == {**full, "receipts": []}

        gone = await call(client, "retract", id=made["id"], reason="we moved to sqlite")
        assert gone["status"] == "REFUTED" and gone["outcome"] == "retracted"
        assert gone["reason"] == "we moved to sqlite"

        after = await call(client, "recall", query="duckdb store")
        assert after["memories"] == []

        audit = await call(client, "recall", query="duckdb store", include_refuted=True)
        assert audit["memories"][0]["status"] == "REFUTED"
        assert audit["memories"][0]["why"].endswith("we moved to sqlite")
        audit = await call(
            client, "recall", query="duckdb store", include_refuted=True, detail=True
        )
        assert audit["memories"][0]["receipt"]["id"] == gone["receipt"]

        again = await call(client, "remember", text=claim)
        assert again["outcome"] == "previously_retracted"
        assert again["id"] == made["id"]
        assert again["receipt"] == gone["receipt"]


async def test_recall_with_no_match_is_an_empty_list_not_an_error(settings: Settings):
    async with Client(build_server(settings)) as client:
        found = await call(client, "recall", query="kubernetes helm charts")
    assert found["memories"] == []


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("remember", {"text": ""}),
        ("remember", {"text": "x" * 9000}),
        ("remember", {"text": "ok", "anchors": ["file:/etc/passwd"]}),
        ("remember", {"text": "ok", "kind": "gossip"}),
        ("retract", {"id": "m00000000", "reason": "no such memory"}),
        ("retract", {"id": "m00000000", "reason": ""}),
        ("recall", {"query": ""}),
    ],
)
async def test_bad_input_is_an_error_the_model_can_read_and_stores_nothing(
    settings: Settings, tool: str, args: dict[str, Any]
):
    async with Client(build_server(settings)) as client:
        result = await client.call_tool(tool, args)
        assert result.is_error
        text = " ".join(getattr(c, "text", "") for c in result.content)
        assert "Traceback" not in text and "SELECT" not in text
        assert str(settings.db) not in text
        if settings.pg_url is not None:  # nor the shared store's password
            assert str(urlsplit(settings.pg_url).password) not in text
        listed = await call(client, "recall", query="ok x", include_refuted=True)
    assert listed["memories"] == []


async def test_memory_resource_and_digest_serve_json(settings: Settings):
    async with Client(build_server(settings)) as client:
        made = await call(
            client,
            "remember",
            text="Tokens are checked in auth/jwt.py",
            anchors=["symbol:auth/jwt.py::verify"],
        )
        res = await client.read_resource(f"memory://{made['id']}")
        digest = await client.read_resource("anchormem://digest")
    assert made["id"] in res.contents[0].text  # type: ignore[union-attr]
    assert made["id"] in digest.contents[0].text  # type: ignore[union-attr]


async def test_reading_a_missing_memory_is_invalid_params_not_an_internal_error(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("memory://nonexistent")
    assert raised.value.code == -32602  # JSON-RPC invalid params: no such memory
    assert "nonexistent" in raised.value.message
    assert raised.value.data == {"uri": "memory://nonexistent"}


def settings_head(settings: Settings) -> str:
    import subprocess

    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=settings.repo, capture_output=True, text=True, check=True
    ).stdout.strip()


async def test_retraction_cascades_to_derived_memories_and_restore_undoes_it(settings: Settings):
    async with Client(build_server(settings)) as client:
        parent = await call(client, "remember", text="Billing retries charges three times")
        child = await call(
            client,
            "remember",
            text="Summary: billing is resilient to failures",
            derived_from=[parent["id"]],
        )
        grandchild = await call(
            client, "remember", text="Digest: payments are robust", derived_from=[child["id"]]
        )
        other = await call(client, "remember", text="Billing logs to stderr")
        gone = await call(client, "retract", id=parent["id"], reason="it retries once")
        assert set(gone["cascaded"]) == {child["id"], grandchild["id"]}
        for mid in gone["cascaded"]:
            assert (await record(client, mid))["receipt"]["cause"] == parent["id"]
        seen = await call(
            client,
            "recall",
            query="billing summary digest payments",
            include_refuted=True,
            limit=20,
        )
        status = {m["id"]: m["status"] for m in seen["memories"]}
        assert status[child["id"]] == status[grandchild["id"]] == "REFUTED"
        assert status[other["id"]] == "ACTIVE"
    from server.runtime import open_runtime

    rt = open_runtime(settings)
    try:
        back = Rendered(rt.service).restore(parent["id"], "it does retry three times")
        assert set(back["restored"]) == {parent["id"], child["id"], grandchild["id"]}
        for mid in (parent["id"], child["id"], grandchild["id"]):
            actions = [e["action"] for e in Rendered(rt.service).audit(mid)["entries"]]
            assert actions == ["remember", "retract", "restore"], (mid, actions)
            assert Rendered(rt.service).show(mid)["status"] == "ACTIVE"
    finally:
        rt.close()
