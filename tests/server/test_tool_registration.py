"""Each server ``build_server`` makes holds registrations of its own tools, made through
the SDK's public ``Tool.from_function`` and given to its constructor (``ToolServer``).
These tests show that what the server lists is what it registered (so a refused
argument is explained from the schema the client saw), that each server answers from its
own store, and that no two servers share a schema object."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call
from tests.server.conftest import PROJECT

pytestmark = pytest.mark.anyio

TOOLS = {"remember", "recall", "retract", "supersede", "verify", "observe", "review"}
TOOLS |= {"consolidate", "resolve"}


async def listed(settings: Settings) -> dict[str, dict[str, Any]]:
    async with Client(build_server(settings)) as client:
        tools = (await client.list_tools()).tools
    return {t.name: t.model_dump(mode="json") for t in tools}


async def test_the_server_lists_what_it_registered(settings: Settings) -> None:
    server = build_server(settings)
    assert set(server.registered) == TOOLS
    for tool in await server.list_tools():
        registered = server.registered[tool.name]
        assert tool.input_schema == registered.parameters  # the schema a refusal reads
        assert tool.output_schema == registered.fn_metadata.output_schema
        assert "title" not in tool.input_schema  # compacted before any client lists it
    server.registered["recall"].parameters["properties"].pop("limit")
    listed = {t.name: t for t in await server.list_tools()}
    assert "limit" not in listed["recall"].input_schema["properties"]  # listed as registered


async def test_two_servers_list_the_same_tools(settings: Settings) -> None:
    first = await listed(settings)
    assert set(first) == TOOLS
    assert await listed(settings) == first


async def test_each_server_answers_from_its_own_store(project: GitRepo, tmp_path: Path) -> None:
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


async def test_no_two_servers_share_a_schema_object(settings: Settings) -> None:
    one, two = build_server(settings), build_server(settings)
    for name in ("remember", "recall"):
        a, b = one.registered[name], two.registered[name]
        assert a.parameters == b.parameters and a.parameters is not b.parameters
        assert a.fn_metadata.output_schema is not b.fn_metadata.output_schema
        a.parameters["properties"].clear()  # one server's schema changed in place...
        assert b.parameters["properties"]  # ...leaves the other's as it was
    assert build_server(settings).registered["remember"].parameters["properties"]
