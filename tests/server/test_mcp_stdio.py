"""The same flow over a real stdio subprocess: `anchormem serve` started as a client would."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import GitRepo, anchormem_env, store_file
from tests.mcp_calls import call

pytestmark = pytest.mark.anyio


def server_params(repo: GitRepo) -> StdioServerParameters:
    env = anchormem_env()
    # The installed console script, as a client would start it (``python -m`` would put
    # the project's own folders, e.g. a ``store/`` package, ahead of anchormem's).
    script = Path(sys.executable).with_name("anchormem")
    return StdioServerParameters(command=str(script), args=["serve"], cwd=str(repo.root), env=env)


async def test_the_full_flow_over_stdio_with_no_configuration(project: GitRepo):
    async with Client(server_params(project)) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"remember", "recall", "retract"} <= names
        made = await call(
            client,
            "remember",
            text="Billing calls the payment API with httpx",
            subject="billing/client.py",
        )
        assert made["outcome"] == "stored"
        found = await call(client, "recall", query="billing httpx")
        assert found["memories"][0]["id"] == made["id"]
        receipt = await call(client, "retract", id=made["id"], reason="wrong client")
        assert (await call(client, "recall", query="billing httpx"))["memories"] == []
        refuted = await call(client, "recall", query="billing httpx", include_refuted=True)
        assert refuted["memories"][0]["why"] == "refuted (retraction) by agent: wrong client"
        full = await call(
            client, "recall", query="billing httpx", include_refuted=True, detail=True
        )
        assert full["memories"][0]["receipt"]["id"] == receipt["receipt"]
        again = await call(client, "remember", text="Billing calls the payment API with httpx")
        assert again["outcome"] == "previously_retracted"
        assert again["receipt"] == receipt["receipt"]
    assert store_file(project.root).exists()
    assert project.git("status", "--porcelain", "--ignored") == ""  # nothing in the work tree
