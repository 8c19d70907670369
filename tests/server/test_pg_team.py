"""A team on one shared store (store/pg): two clones of one repository at different
commits, each with its own MCP server on the same PostgreSQL project, driven through the
MCP SDK client as an agent drives them.

The clones share the project by default: it is named by the repository's first commit
(``server.runtime.repository_project``), which every clone has.
"""

from __future__ import annotations

from asyncio import gather
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from benchmarks.pg_cluster import Cluster
from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call, record
from tests.server.conftest import PROJECT

pytestmark = pytest.mark.anyio

CLAIM = "The store layer opens DuckDB in store/db.py"
ANCHOR = "import:duckdb@store/db.py"
WITHOUT_DUCKDB = (
    "import sqlite3\n\n\nclass Store:\n    def open(self, path):\n        return None\n"
)


def clone(upstream: GitRepo, where: Path) -> GitRepo:
    upstream.git("clone", "-q", "--", str(upstream.root), str(where))
    return GitRepo(where)


@pytest.fixture
def clones(tmp_path: Path, pg_project: str) -> tuple[GitRepo, GitRepo]:
    """Two clones of one repository: ``old`` at its first commit, ``new`` one commit on,
    where store/db.py no longer imports duckdb. (The upstream's first commit names a test
    of its own, so no other test's clones share its project.)"""
    upstream = GitRepo(tmp_path / "upstream")
    upstream.commit({**PROJECT, "README.md": f"{pg_project}\n"}, "initial project")
    old = clone(upstream, tmp_path / "old")
    new = clone(upstream, tmp_path / "new")
    new.commit({"store/db.py": WITHOUT_DUCKDB}, "open the store with sqlite3")
    return old, new


def settings_for(repo: GitRepo, cluster: Cluster) -> Settings:
    """A server of the clone at ``repo`` on the shared store, its project the default one;
    a generous verification budget (these tests are about verdicts: a loaded machine must
    not leave a memory unchecked)."""
    env = settings_env(ANCHORMEM_DB=cluster.url(), ANCHORMEM_VERIFY_BUDGET_MS="30000")
    return Settings.resolve(repo=str(repo.root), env=env)


async def served(client: Client, query: str) -> dict[str, Any]:
    """What ``recall`` serves for ``query``, and what it holds back: the served memories'
    statuses by id, the refuted ones' too (``include_refuted``), and the note on refuted
    matches."""
    plain = await call(client, "recall", query=query)
    every = await call(client, "recall", query=query, include_refuted=True)
    return {
        "commit": plain["commit"],
        "served": {m["id"]: m["status"] for m in plain["memories"]},
        "all": {m["id"]: (m["status"], m["why"]) for m in every["memories"]},
        "held_back": plain.get("refuted_matches", ""),
    }


async def test_one_memory_is_verified_in_one_clone_and_refuted_in_the_other(
    clones: tuple[GitRepo, GitRepo], pg_cluster: Cluster
):
    """A memory whose anchor holds at one clone's HEAD and is broken at the other's: on the
    same project at the same time, the old clone's server serves it VERIFIED and the new
    one's holds it back as REFUTED, call after call, alternating and concurrently; a
    verification through one never changes what the other serves."""
    old, new = clones
    s_old, s_new = settings_for(old, pg_cluster), settings_for(new, pg_cluster)
    assert s_old.project is None and s_new.project is None  # the default: one project
    async with Client(build_server(s_old)) as a, Client(build_server(s_new)) as b:
        made = await call(a, "remember", text=CLAIM, anchors=[ANCHOR])
        assert made["status"] == "VERIFIED"
        mid = made["id"]
        for _ in range(3):
            for client, repo in ((a, old), (b, new), (a, old)):
                seen = await served(client, "duckdb store")
                assert seen["commit"] == repo.head()
                if client is a:
                    assert seen["served"] == {mid: "VERIFIED"}
                    assert seen["all"][mid][1] == f"{ANCHOR} holds at {old.head()[:7]}"
                else:
                    assert seen["served"] == {}
                    assert f"memory://{mid}" in seen["held_back"]
                    status, why = seen["all"][mid]
                    assert status == "REFUTED"
                    assert why.startswith(f"{ANCHOR} broken at {new.head()[:7]}"), why
            checked_a, checked_b = await gather(
                call(a, "verify", id=mid), call(b, "verify", id=mid)
            )
            assert [m["status"] for m in checked_a["memories"]] == ["VERIFIED"]
            assert [m["status"] for m in checked_b["memories"]] == ["REFUTED"]
            full_a, full_b = await gather(record(a, mid), record(b, mid))
            assert (full_a["status"], full_a["checked_commit"]) == ("VERIFIED", old.head())
            assert (full_b["status"], full_b["checked_commit"]) == ("REFUTED", new.head())


async def test_what_one_clone_remembers_or_retracts_the_other_sees_at_its_next_call(
    clones: tuple[GitRepo, GitRepo], pg_cluster: Cluster
):
    """A memory remembered through one clone's server is recalled through the other's; a
    retraction through one hides the memory from the other at its very next call, which
    serves the retraction's reason and receipt."""
    old, new = clones
    async with (
        Client(build_server(settings_for(old, pg_cluster))) as a,
        Client(build_server(settings_for(new, pg_cluster))) as b,
    ):
        assert (await served(b, "billing httpx charges"))["all"] == {}  # b has read the store
        made = await call(
            a, "remember", text="The billing client posts charges with httpx",
            anchors=["import:httpx@billing/client.py"],
        )  # fmt: skip
        assert (await served(b, "billing httpx charges"))["served"] == {made["id"]: "VERIFIED"}
        theirs = await call(b, "remember", text="Tokens are checked in auth/jwt.py")
        assert theirs["id"] in (await served(a, "tokens checked jwt"))["served"]

        gone = await call(a, "retract", id=made["id"], reason="billing moved to requests")
        assert gone["outcome"] == "retracted"
        after = await served(b, "billing httpx charges")
        assert after["served"] == {}
        assert after["all"][made["id"]][0] == "REFUTED"
        assert after["all"][made["id"]][1].endswith("billing moved to requests")
        full = await call(
            b, "recall", query="billing httpx charges", include_refuted=True, detail=True
        )
        assert full["memories"][0]["receipt"]["id"] == gone["receipt"]
        # and the other way round, on the memory the second clone remembered
        await call(b, "retract", id=theirs["id"], reason="tokens moved to auth/tokens.py")
        assert (await served(a, "tokens checked jwt"))["served"] == {}
