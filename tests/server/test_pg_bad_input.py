"""Bad input on the shared store: each bad tool call of ``tests/store/test_bad_input.py`` is
answered with an error through the MCP client, the session goes on, and the store is
unchanged: no row in any table, no entry in the change list."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from mcp import Client

from benchmarks.pg_cluster import Cluster
from server.app import build_server
from server.config import Settings
from store.pg.url import project_schema
from tests.conftest import GitRepo, settings_env
from tests.store.test_bad_input import ID, MCP_CASES

pytestmark = pytest.mark.anyio

TABLES = ("memories", "anchors", "terms", "receipts", "audit", "observations", "changes")


def _counts(cluster: Cluster, project: str) -> dict[str, int]:
    with psycopg.connect(cluster.url()) as con:
        con.execute(f'SET search_path TO "{project_schema(project)}"')
        return {t: con.execute(f"SELECT count(*) FROM {t}".encode()).fetchone()[0] for t in TABLES}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


async def test_bad_tool_calls_change_nothing_in_the_shared_store(
    git_repo: GitRepo, pg_cluster: Cluster, pg_project: str
):
    git_repo.commit({"store/db.py": "import duckdb\n"}, "init")
    env = settings_env(ANCHORMEM_DB=pg_cluster.url(), ANCHORMEM_PROJECT=pg_project)
    settings = Settings.resolve(repo=str(git_repo.root), env=env)
    async with Client(build_server(settings)) as client:
        made = await client.call_tool(
            "remember", {"text": "The store layer opens DuckDB in store/db.py"}
        )
        assert made.structured_content is not None
        memory_id = made.structured_content["id"]
        before = _counts(pg_cluster, pg_project)
        for case in MCP_CASES:
            tool, arguments, message = case.values
            args: dict[str, Any] = {
                k: memory_id if v == ID else v for k, v in dict(arguments).items()
            }
            result = await client.call_tool(str(tool), args)
            text = " ".join(getattr(block, "text", "") for block in result.content)
            assert result.is_error and str(message) in text, (case.id, text)
            assert "Traceback" not in text and pg_cluster.password not in text
        found = await client.call_tool("recall", {"query": "duckdb store"})
        assert found.structured_content is not None
        assert [m["id"] for m in found.structured_content["memories"]] == [memory_id]
    after = _counts(pg_cluster, pg_project)
    assert after == before
