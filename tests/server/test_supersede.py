"""Supersede: a memory's text replaced by a new memory, never edited in place; through
the MCP client and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from server.runtime import open_runtime
from tests.conftest import BACKENDS, GitRepo, store_settings
from tests.mcp_calls import call, record
from tests.server.test_transfer import anchormem

pytestmark = [pytest.mark.anyio, pytest.mark.backends(*BACKENDS)]


async def test_supersede_through_mcp_is_one_new_memory_and_a_receipt(settings: Settings):
    async with Client(build_server(settings)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools["supersede"].output_schema["required"]) >= {"id", "status", "supersedes"}
        old = await call(
            client, "remember", text="We use DuckDB for storage", subject="store/db.py"
        )
        new = await call(
            client,
            "supersede",
            id=old["id"],
            text="We use DuckDB 1.1 for storage",
            reason="the version matters",
        )
        assert new["id"] != old["id"] and new["supersedes"] == old["id"]
        assert new["outcome"] == "stored" and new["status"] in ("ACTIVE", "VERIFIED")
        full = await record(client, new["id"])
        assert full["text"] == "We use DuckDB 1.1 for storage" and full["subject"] == "store/db.py"
        found = await call(
            client, "recall", query="duckdb storage", include_refuted=True, detail=True
        )
        by_id = {m["id"]: m for m in found["memories"]}
        assert by_id[old["id"]]["status"] == "REFUTED"
        assert by_id[old["id"]]["text"] == "We use DuckDB for storage"  # never edited
        receipt = by_id[old["id"]]["receipt"]
        assert receipt["action"] == "supersede" and new["id"] in receipt["reason"]
        assert "the version matters" in receipt["reason"]

        # Nothing changes on a refused supersede: same text, a retracted or unknown memory.
        for args, message in (
            ({"id": new["id"], "text": "we use duckdb 1.1 for storage."}, "says what"),
            ({"id": old["id"], "text": "Something else entirely"}, "retracted already"),
            ({"id": "mnothere1", "text": "Something else"}, "not found"),
        ):
            result = await client.call_tool("supersede", args)
            assert result.is_error and message in result.content[0].text  # type: ignore[union-attr]
        after = await call(client, "recall", query="duckdb storage", include_refuted=True)
        assert sorted(m["id"] for m in after["memories"]) == sorted(by_id)


def test_supersede_through_the_cli(project: GitRepo, settings: Settings):
    rt = open_runtime(settings)
    try:
        old = rt.service.remember("Deploys happen on Fridays", scope="external").reading.memory.id
    finally:
        rt.close()
    root: Path = project.root
    done = anchormem(
        "supersede",
        old,
        "Deploys happen on Mondays",
        "--reason",
        "moved",
        cwd=root,
        env=store_settings(settings),
    )
    assert done.returncode == 0, done.stderr
    new = json.loads(done.stdout)
    assert new["text"] == "Deploys happen on Mondays" and new["scope"] == "external"
    rt = open_runtime(settings)
    try:
        audit = rt.service.audit(old).entries
        assert [e.action.value for e in audit] == ["remember", "supersede"]
        assert rt.service.show(new["id"]).reading.memory.supersedes == old
    finally:
        rt.close()
