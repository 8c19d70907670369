"""A team's shared store: who wrote a note counts as an origin of its own, the systems of
record are spoken for only where configured, a secret is redacted before anything leaves
the machine, and a forget erases the text for everyone, saying what it cannot reach.
Two servers (two clones, two identities) on one real PostgreSQL store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from benchmarks.pg_cluster import Cluster
from server.config import Settings
from server.runtime import Runtime, open_runtime
from store.errors import InvalidInput, StalePlan
from store.pg.url import project_schema
from tests.conftest import GitRepo, settings_env

FILES = {"app/cache.py": "import redis\n\nclient = redis.Redis()\n"}


@pytest.fixture
def clones(tmp_path: Path) -> tuple[Path, Path]:
    origin = GitRepo(tmp_path / "origin")
    origin.commit(FILES, "init")
    second = tmp_path / "second"
    origin.git("clone", "-q", "--", str(origin.root), str(second))
    return origin.root, second


def _open(repo: Path, url: str, project: str, **env: str) -> Runtime:
    settings = Settings.resolve(
        repo=str(repo), env=settings_env(ANCHORMEM_DB=url, ANCHORMEM_PROJECT=project, **env)
    )
    return open_runtime(settings)


@pytest.fixture
def team(
    clones: tuple[Path, Path], pg_cluster: Cluster, pg_project: str
) -> Iterator[tuple[Runtime, Runtime]]:
    alice = _open(clones[0], pg_cluster.url(), pg_project, ANCHORMEM_ORIGIN="alice")
    bob = _open(clones[1], pg_cluster.url(), pg_project, ANCHORMEM_ORIGIN="bob")
    try:
        yield alice, bob
    finally:
        alice.close()
        bob.close()


def _rows(cluster: Cluster, project: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(cluster.url()) as con:
        con.execute(f'SET search_path TO "{project_schema(project)}"')
        return con.execute(sql.encode()).fetchall()


def test_two_peoples_agents_stating_one_claim_are_two_origins(team: tuple[Runtime, Runtime]):
    alice, bob = team
    claim = "We cache sessions in Redis (app/cache.py)"
    first = alice.service.remember(claim)
    again = bob.service.remember(claim)
    assert again.reading.id == first.reading.id  # one memory, stated twice
    seen = alice.service.recall("redis sessions").readings[0]
    assert seen.memory.origins == ("alice", "bob")
    assert seen.standing.origins == 2
    # One identity stating it again is not a second origin.
    bob.service.remember(claim)
    assert alice.service.recall("redis sessions").readings[0].standing.origins == 2


def test_a_system_of_record_is_spoken_for_only_where_configured(
    clones: tuple[Path, Path], pg_cluster: Cluster, pg_project: str
):
    laptop = _open(clones[0], pg_cluster.url(), pg_project, ANCHORMEM_ORIGIN="alice")
    ci = _open(
        clones[1],
        pg_cluster.url(),
        pg_project,
        ANCHORMEM_ORIGIN="ci-runner",
        ANCHORMEM_TRUSTED_SOURCES="ci",
    )
    try:
        with pytest.raises(InvalidInput, match="ci"):
            laptop.service.remember("The test suite passes on Python 3.11", source="ci")
        made = ci.service.remember("The test suite passes on Python 3.11", source="ci")
        seen = laptop.service.recall("test suite python").readings
        assert [r.id for r in seen] == [made.reading.id]
        assert seen[0].memory.origin == "ci-runner"
    finally:
        laptop.close()
        ci.close()


def test_a_secret_is_redacted_before_it_reaches_the_shared_store(
    team: tuple[Runtime, Runtime], pg_cluster: Cluster, pg_project: str
):
    alice, _ = team
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    alice.service.remember(f"The deploy token is {secret} for app/cache.py")
    stored = _rows(pg_cluster, pg_project, "SELECT text, search_text FROM memories")
    assert stored and all(secret not in str(row) for row in stored)
    for table in ("anchors", "terms", "audit", "receipts"):
        assert all(
            secret not in str(row)
            for row in _rows(pg_cluster, pg_project, f"SELECT * FROM {table}")
        ), table


def test_a_forget_erases_the_text_for_everyone_and_says_what_it_cannot_reach(
    team: tuple[Runtime, Runtime], pg_cluster: Cluster, pg_project: str
):
    alice, bob = team
    text = "Customer Jane Roe's orders are cached in Redis (app/cache.py)"
    made = alice.service.remember(text)
    assert [r.id for r in bob.service.recall("Jane Roe orders").readings] == [made.reading.id]

    done = bob.service.forget(made.reading.id, "a customer's name")
    assert "backups" in done.reach and "every server" in done.reach
    assert not alice.service.recall("Jane Roe orders").readings
    assert alice.service.show(made.reading.id).reading.memory.forgotten
    for table in ("memories", "anchors", "terms", "audit", "receipts", "conflict_log"):
        rows = _rows(pg_cluster, pg_project, f"SELECT * FROM {table}")
        assert all("Jane Roe" not in str(row) for row in rows), table


def test_every_call_sees_the_other_servers_writes(team: tuple[Runtime, Runtime]):
    """Not only recall: the trail, the statistics and the conflicts list too."""
    alice, bob = team
    assert alice.service.stats().memories_written == 0
    made = bob.service.remember("We cache sessions in Redis (app/cache.py)")
    assert alice.service.stats().memories_written == 1
    first = alice.service.audit(made.reading.id).entries[0]
    assert first.action.value == "remember"
    bob.service.retract(made.reading.id, "we moved sessions to the database")
    trail = [e.action.value for e in alice.service.audit(made.reading.id).entries]
    assert trail[-1] == "retract"
    assert not alice.service.recall("redis sessions").readings


def test_a_forget_through_one_server_erases_its_claims_from_the_others_conflicts(
    team: tuple[Runtime, Runtime],
):
    alice, bob = team
    first = alice.service.remember("The nightly export job for account ACME-7781 runs at 02:00 UTC")
    alice.service.remember("The nightly export job runs at 03:00 UTC")
    logged = alice.service.conflicts().conflicts
    assert logged and "ACME-7781" in str(logged)  # the pair is logged with both claims
    bob.service.forget(first.reading.id, "an account id")
    after = alice.service.conflicts().conflicts
    assert [(c.a_id, c.b_id) for c in after] == [(c.a_id, c.b_id) for c in logged]
    assert "7781" not in str(after)  # neither the claim nor the slot it was read into


def test_two_servers_stating_one_claim_at_once_make_one_memory(team: tuple[Runtime, Runtime]):
    """Alice's note is planned as new; before it is written, Bob stores the same claim.
    Written, hers would be a second copy: it is planned again, as a restatement."""
    alice, bob = team
    claim = "We cache sessions in Redis (app/cache.py)"
    note = alice.service.remembering.note(claim)
    planned = alice.service.remembering.prepare(note)
    assert planned.outcome.value == "stored"
    theirs = bob.service.remember(claim)
    with pytest.raises(StalePlan):
        alice.service.db.apply(planned.plan)
    again = alice.service.remembering.remember(note)  # what remember does next
    assert again.reading.id == theirs.reading.id
    assert sorted(again.reading.memory.origins) == ["alice", "bob"]
