"""Each tool is registered with the SDK once per process (``ToolServer.add_tool``): a
server built again gets a copy of the registration holding its own function. These
tests show that a copy lists as the registration it was made from, answers from its own
server's store, and shares no schema object with any other server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server import app
from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call
from tests.server.conftest import PROJECT

pytestmark = pytest.mark.anyio


async def listed(settings: Settings) -> dict[str, dict[str, Any]]:
    async with Client(build_server(settings)) as client:
        tools = (await client.list_tools()).tools
    return {t.name: t.model_dump(mode="json") for t in tools}


async def test_a_kept_registration_lists_as_a_fresh_one(settings: Settings):
    app._REGISTERED.clear()
    fresh = await listed(settings)  # registered by the SDK, and kept
    assert app._REGISTERED, "the first build keeps each tool's registration"
    kept = await listed(settings)  # copies of the kept registrations
    assert kept == fresh
    assert {"remember", "recall", "retract", "verify"} <= set(kept)


async def test_each_server_answers_from_its_own_store(project: GitRepo, tmp_path: Path):
    other = GitRepo(tmp_path / "other")
    other.commit(PROJECT, "the same project, elsewhere")
    first = Settings.resolve(
        repo=str(project.root), db=str(tmp_path / "a.duckdb"), env=settings_env()
    )
    second = Settings.resolve(
        repo=str(other.root), db=str(tmp_path / "b.duckdb"), env=settings_env()
    )
    claim = "The store layer opens DuckDB in store/db.py"
    async with Client(build_server(first)) as a, Client(build_server(second)) as b:
        made = await call(b, "remember", text=claim, anchors=["import:duckdb@store/db.py"])
        assert made["status"] == "VERIFIED"
        assert [m["id"] for m in (await call(b, "recall", query="duckdb"))["memories"]] == [
            made["id"]
        ]
        assert (await call(a, "recall", query="duckdb"))["memories"] == []


def test_no_two_servers_share_a_schema_object(settings: Settings):
    one, two = build_server(settings), build_server(settings)
    for name in ("remember", "recall"):
        a, b = one._tool_manager.get_tool(name), two._tool_manager.get_tool(name)
        assert a is not None and b is not None
        assert a.fn is not b.fn  # each server's own closure over its own runtime
        assert a.parameters == b.parameters and a.parameters is not b.parameters
        assert a.fn_metadata.output_schema is not b.fn_metadata.output_schema
        a.parameters["properties"].clear()  # one server's schema changed in place...
        assert b.parameters["properties"]  # ...leaves the other's as it was
    assert build_server(settings)._tool_manager.get_tool("remember").parameters["properties"]  # type: ignore[union-attr]
