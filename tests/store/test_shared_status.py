"""In a shared store, servers at different commits each serve the status their own HEAD
gives a memory, and the stored status moves only forward in history: a server behind, or
on a commit the other never had, does not write its verdict over a newer one, so two
clones do not overwrite each other on every read."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks.pg_cluster import Cluster
from server.config import Settings
from server.runtime import Runtime, open_runtime
from store.lifecycle import moves_forward
from store.model import Kind, Memory, Source, Status
from tests.conftest import GitRepo, settings_env

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _memory(code_commit: str | None) -> Memory:
    return Memory(
        "m1", "we use redis", None, Kind.FACT, None, Source.AGENT, "agent", T0, "c0",
        Status.VERIFIED, code_commit=code_commit,
    )  # fmt: skip


def _history(*edges: tuple[str, str]) -> Callable[[str, str], bool | None]:
    """is_ancestor over a known history: (parent, child) edges; None for an unknown id."""
    parents = dict((child, parent) for parent, child in edges)
    known = set(parents) | set(parents.values())

    def is_ancestor(older: str, newer: str) -> bool | None:
        if older not in known or newer not in known:
            return None
        at: str | None = newer
        while at is not None:
            if at == older:
                return True
            at = parents.get(at)
        return False

    return is_ancestor


@pytest.mark.parametrize(
    ("last", "commit", "expected"),
    [
        (None, "c2", True),  # no code verdict set it yet
        ("c2", "c2", True),  # the same commit
        ("c1", "c2", True),  # this server is ahead
        ("c2", "c1", False),  # this server is behind
        ("cx", "c2", False),  # set at a commit this checkout never had
        ("b1", "c2", False),  # another branch
    ],
)
def test_a_code_verdict_moves_the_stored_status_only_forward(
    last: str | None, commit: str, expected: bool
):
    history = _history(("c0", "c1"), ("c1", "c2"), ("c0", "b1"))
    assert moves_forward(_memory(last), commit, history) is expected


def _open(repo: Path, cluster: Cluster, project: str) -> Runtime:
    env = settings_env(ANCHORMEM_DB=cluster.url(), ANCHORMEM_PROJECT=project)
    return open_runtime(Settings.resolve(repo=str(repo), env=env))


def test_two_clones_at_different_commits_each_serve_their_own_verdict_without_churn(
    tmp_path: Path, pg_cluster: Cluster, pg_project: str
):
    upstream = GitRepo(tmp_path / "upstream")
    upstream.commit({"app/cache.py": "import redis\n\nclient = redis.Redis()\n"}, "redis")
    behind = tmp_path / "behind"
    upstream.git("clone", "-q", "--", str(upstream.root), str(behind))
    upstream.commit({"app/cache.py": "import memcache\n\nclient = memcache.Client()\n"}, "memcache")
    ahead = tmp_path / "ahead"
    upstream.git("clone", "-q", "--", str(upstream.root), str(ahead))
    old, new = _open(behind, pg_cluster, pg_project), _open(ahead, pg_cluster, pg_project)
    try:
        made = old.service.remember("The cache client uses redis, in app/cache.py")
        assert made.reading.memory.status is Status.VERIFIED
        for _ in range(3):  # alternating reads, each at its own HEAD
            seen_new = new.service.show(made.reading.id).reading
            seen_old = old.service.show(made.reading.id).reading
            assert seen_new.memory.status is Status.REFUTED, seen_new.check
            assert seen_old.memory.status is Status.VERIFIED, seen_old.check
        trail = [
            (e.action.value, e.to_status, e.commit)
            for e in new.service.audit(made.reading.id).entries
        ]
        # remembered, verified at the older commit, refuted once at the newer one: the
        # server behind never writes its older verdict back
        assert trail == [
            ("remember", Status.ACTIVE, made.reading.memory.commit),
            ("verify", Status.VERIFIED, made.reading.memory.commit),
            ("verify", Status.REFUTED, GitRepo(ahead).head()),
        ], trail
    finally:
        old.close()
        new.close()
