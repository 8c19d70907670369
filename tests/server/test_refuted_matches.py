"""Recall says when what matches a query is refuted (issue #31): the agent can tell
"nothing is known" from "what we believed is wrong", and the note is not served as truth.
Through the MCP client on a real git repository."""

from __future__ import annotations

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio

PROJECT = {
    "pyproject.toml": "[project]\nname = 'shop'\ndependencies = ['duckdb>=1.1']\n",
    "app/db.py": "import duckdb\n",
}


@pytest.fixture
def client_settings(git_repo: GitRepo) -> Settings:
    git_repo.commit(PROJECT, "a project")
    return Settings.resolve(
        repo=str(git_repo.root), env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000")
    )


async def test_a_query_whose_match_the_code_refutes_names_it_without_serving_it(
    client_settings: Settings,
):
    async with Client(build_server(client_settings)) as client:
        made = await call(client, "remember", text="The cache layer keeps sessions in Redis")
        assert made["status"] == "REFUTED"
        result = await client.call_tool("recall", {"query": "sessions cache redis"})
        data = result.structured_content
        assert data is not None and data["memories"] == []
        assert f"memory://{made['id']}" in data["refuted_matches"]
        assert "refuted" in result.content[0].text  # type: ignore[union-attr]
        shown = await call(client, "recall", query="sessions cache redis", include_refuted=True)
        assert [m["id"] for m in shown["memories"]] == [made["id"]]
        assert shown.get("refuted_matches") is None


async def test_a_retracted_match_is_named_and_an_unrelated_query_says_nothing(
    client_settings: Settings,
):
    async with Client(build_server(client_settings)) as client:
        made = await call(client, "remember", text="Team convention: squash every merge")
        await call(client, "retract", id=made["id"], reason="we keep every commit now")
        found = await call(client, "recall", query="squash merge convention")
        assert found["memories"] == []
        assert f"memory://{made['id']}" in found["refuted_matches"]
        other = await call(client, "recall", query="deployment region")
        assert other.get("refuted_matches") is None


async def test_a_refuted_match_below_the_served_ones_is_not_named(client_settings: Settings):
    async with Client(build_server(client_settings)) as client:
        kept = await call(client, "remember", text="The database layer in app/db.py uses duckdb")
        gone = await call(client, "remember", text="The database layer caches rows in Redis")
        found = await call(client, "recall", query="database layer duckdb", limit=1)
        assert [m["id"] for m in found["memories"]] == [kept["id"]]
        assert gone["id"] not in (found.get("refuted_matches") or "")
