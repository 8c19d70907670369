"""Faults of the shared store (store/pg): a server killed with SIGKILL in the middle of a
write, PostgreSQL stopped and started under a running server, two servers retracting and
verifying one memory at once, and a store written by a newer anchormem.

Every test runs against a real PostgreSQL (the ``pg_cluster`` fixture) in a project of its
own. A server that has to die mid-write is a child Python process that opens the store as
``anchormem serve`` does (``server.runtime.open_runtime``) with the store's fault hook
(``PgDatabase(fault=...)``) holding it at one step of the write's transaction.
"""

from __future__ import annotations

import functools
import itertools
import json
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from benchmarks.pg_cluster import Cluster
from server.config import Settings
from server.runtime import Runtime, open_runtime
from store.errors import SchemaTooNew, StoreUnavailable
from store.pg.database import PgDatabase
from store.pg.schema import PG_SCHEMA_VERSION
from store.pg.url import project_schema
from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.server.conftest import PROJECT

SCRIPT = Path(sys.executable).with_name("anchormem")
ROOT = Path(__file__).resolve().parents[2]
ANCHOR = "import:duckdb@store/db.py"
WITH_DUCKDB = PROJECT["store/db.py"]
WITHOUT_DUCKDB = (
    "import sqlite3\n\n\nclass Store:\n    def open(self, path):\n        return None\n"
)


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


def pg_settings(repo: GitRepo, cluster: Cluster, name: str, **env: str) -> Settings:
    env = {"ANCHORMEM_PROJECT": name, "ANCHORMEM_VERIFY_BUDGET_MS": "30000", **env}
    return Settings.resolve(str(repo.root), cluster.url(), env=settings_env(**env))


@pytest.fixture
def runtimes() -> Iterator[list[Runtime]]:
    """Runtimes a test opens, closed at its end whatever happened."""
    opened: list[Runtime] = []
    yield opened
    for rt in opened:
        rt.close()


def opened(runtimes: list[Runtime], settings: Settings) -> Runtime:
    rt = open_runtime(settings)
    runtimes.append(rt)
    return rt


def rows(cluster: Cluster, name: str, sql: str, params: list[Any] | None = None) -> list[Any]:
    """``sql`` on the project's schema, as a person with ``psql`` would run it."""
    with psycopg.connect(cluster.url(), autocommit=True) as con:
        con.execute(f'SET search_path TO "{project_schema(name)}"')
        return con.execute(sql, params).fetchall()


def assert_whole(cluster: Cluster, name: str, anchors_each: int | None = 1) -> set[str]:
    """Nothing half-written: every memory has its anchors, terms and audit rows, no row
    names a memory that is not there, and the change list numbers every committed write
    once, naming every memory. ``anchors_each``: how many anchors each memory has (None:
    any number). Returns the memories' ids."""
    ids = {r[0] for r in rows(cluster, name, "SELECT id FROM memories")}
    for table in ("anchors", "terms", "audit", "receipts", "observations"):
        orphans = rows(
            cluster, name, f"SELECT memory_id FROM {table} WHERE memory_id NOT IN"
            " (SELECT id FROM memories)",
        )  # fmt: skip
        assert orphans == [], (table, orphans)
    for mid in ids:
        [(anchors,)] = rows(
            cluster, name, "SELECT count(*) FROM anchors WHERE memory_id = %s", [mid]
        )
        [(terms,)] = rows(cluster, name, "SELECT count(*) FROM terms WHERE memory_id = %s", [mid])
        audit = rows(
            cluster, name, "SELECT action FROM audit WHERE memory_id = %s ORDER BY seq", [mid]
        )
        assert anchors_each in (None, anchors) and terms > 0, (mid, anchors, terms)
        assert audit and audit[0][0] == "remember", (mid, audit)
    seqs = [r[0] for r in rows(cluster, name, "SELECT seq FROM changes ORDER BY seq")]
    assert seqs == list(range(1, len(seqs) + 1)), seqs
    named: set[str] = set()
    for (touched,) in rows(cluster, name, "SELECT ids FROM changes"):
        named.update(json.loads(touched))
    assert ids <= named, ids - named
    return ids


# -- SIGKILL in the middle of a write --------------------------------------------------------
HELD_AT_A_STEP = """
import os, sys, time
from pathlib import Path
import server.runtime as runtime
from server.config import Settings
from store.pg.database import PgDatabase

STEP, MARK, MODE = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
armed = False

def fault(name):
    if armed and name == STEP:
        MARK.write_text(name)
        time.sleep(600)  # killed here, inside the write's transaction

runtime.open_shared_store = lambda s: PgDatabase(s.pg_url, s.project, fault=fault)
rt = runtime.open_runtime(Settings.resolve(os.environ["REPO"]))
svc = rt.service
made = [
    svc.remember(f"Note {i}: the store layer opens DuckDB in store/db.py", anchors=[%r])
    for i in range(3)
]
armed = True
if MODE == "remember":
    svc.remember("The half-written note: the billing client posts with httpx", anchors=[%r])
else:
    svc.retract(made[0].reading.memory.id, reason="the half-written retraction")
print("not held", flush=True)
"""


def held_child(repo: GitRepo, cluster: Cluster, name: str, step: str, mode: str, mark: Path):
    code = textwrap.dedent(HELD_AT_A_STEP) % (ANCHOR, "import:httpx@billing/client.py")
    env = anchormem_env(ANCHORMEM_DB=cluster.url(), ANCHORMEM_PROJECT=name, REPO=str(repo.root))
    return subprocess.Popen(
        [sys.executable, "-c", code, step, str(mark), mode],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def killed_when_held(proc: subprocess.Popen[str], mark: Path) -> None:
    """SIGKILL ``proc`` once its write is held at the step (it has written ``mark``)."""
    for _ in range(600):
        if mark.exists() or proc.poll() is not None:
            break
        time.sleep(0.1)
    assert mark.exists(), proc.communicate(timeout=10)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize(
    ("mode", "step"),
    [
        pytest.param("remember", "memory", marks=pytest.mark.slow),
        ("remember", "anchor"),
        pytest.param("remember", "audit", marks=pytest.mark.slow),
        ("remember", "commit"),
        pytest.param("retract", "receipt", marks=pytest.mark.slow),
        ("retract", "status"),
        pytest.param("retract", "commit", marks=pytest.mark.slow),
    ],
)
def test_a_server_killed_mid_write_leaves_nothing_half_written(
    project: GitRepo,
    pg_cluster: Cluster,
    pg_project: str,
    runtimes: list[Runtime],
    tmp_path: Path,
    mode: str,
    step: str,
) -> None:
    """A server is killed with SIGKILL while its write's transaction is open, at each of the
    write's steps. Afterwards the store holds the three memories written before, whole,
    and nothing of the killed write: no memory, anchor, term or audit row of the note, no
    receipt or status change of the retraction, no entry in the change list. The killed
    server's write lock went with its connection: a new server writes at once and reads
    every memory."""
    mark = tmp_path / "held"
    proc = held_child(project, pg_cluster, pg_project, step, mode, mark)
    killed_when_held(proc, mark)

    ids = assert_whole(pg_cluster, pg_project)
    assert len(ids) == 3
    assert rows(pg_cluster, pg_project, "SELECT count(*) FROM changes") == [(3,)]
    assert rows(pg_cluster, pg_project, "SELECT count(*) FROM receipts") == [(0,)]
    statuses = rows(pg_cluster, pg_project, "SELECT DISTINCT status FROM memories")
    assert statuses == [("ACTIVE",)]  # as remembered: the retraction left no trace
    assert rows(pg_cluster, pg_project, "SELECT count(*) FROM terms WHERE term = 'httpx'") == [(0,)]

    svc = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    listed = svc.list_memories(limit=50)
    assert {r.memory.id for r in listed.readings} == ids
    made = svc.remember("After the kill: the billing client posts with httpx")
    assert made.outcome.value == "stored"
    gone = svc.retract(sorted(ids)[0], reason="retracted after the kill")
    assert gone.outcome.value == "retracted"
    assert len(assert_whole(pg_cluster, pg_project, anchors_each=None)) == 4


REMEMBERING_IN_A_LOOP = """
import os, sys
from server.config import Settings
from server.runtime import open_runtime
svc = open_runtime(Settings.resolve(os.environ["REPO"])).service
for i in range(100000):
    svc.remember(f"Loop note {i}: the store layer opens DuckDB in store/db.py", anchors=[%r])
    print(i, flush=True)
"""


@pytest.mark.slow
def test_a_server_killed_while_remembering_in_a_loop(
    project: GitRepo, pg_cluster: Cluster, pg_project: str, runtimes: list[Runtime]
) -> None:
    """A server remembering one note after another is killed with SIGKILL at no chosen
    moment, three times over: whatever it was doing, every memory in the store is whole,
    each acknowledged note is there, and a new server reads them all."""
    env = anchormem_env(
        ANCHORMEM_DB=pg_cluster.url(), ANCHORMEM_PROJECT=pg_project, REPO=str(project.root)
    )
    acknowledged: set[str] = set()
    for delay in (0.05, 0.13, 0.21):
        proc = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(REMEMBERING_IN_A_LOOP) % ANCHOR],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the first note is in: the server is writing
        assert line.strip() == "0", proc.communicate(timeout=10)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        acknowledged.update(f"Loop note {n}:" for n in [0, *map(int, out.split())])
    texts = {r[0] for r in rows(pg_cluster, pg_project, "SELECT text FROM memories")}
    assert all(any(t.startswith(a + " ") for t in texts) for a in acknowledged)
    ids = assert_whole(pg_cluster, pg_project)
    svc = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    assert {r.memory.id for r in svc.list_memories(limit=10000).readings} == ids


# -- PostgreSQL stopped and started under a running server -------------------------------------
@pytest.mark.slow  # CI's budget (~10 s): the faults above stop writes mid-call the same way
def test_calls_fail_clearly_while_postgresql_is_down_and_work_once_it_is_back(
    project: GitRepo, pg_cluster: Cluster, pg_project: str, runtimes: list[Runtime]
) -> None:
    """While the database server is stopped, every call fails with ``StoreUnavailable``
    naming the store (its address without the password); once it is started again the
    same server process, not restarted, remembers, recalls and retracts."""
    settings = pg_settings(project, pg_cluster, pg_project, ANCHORMEM_LOCK_WAIT="2")
    svc = opened(runtimes, settings).service
    first = svc.remember("The store layer opens DuckDB in store/db.py", anchors=[ANCHOR])
    mid = first.reading.memory.id
    pg_cluster.stop()
    try:
        calls = {
            "recall": lambda: svc.recall("duckdb store"),
            "remember": lambda: svc.remember("The billing client posts charges with httpx"),
            "retract": lambda: svc.retract(mid, reason="during the outage"),
        }
        for name, call in calls.items():
            with pytest.raises(StoreUnavailable) as failed:
                call()
            message = str(failed.value)
            assert f"127.0.0.1:{pg_cluster.port}" in message, (name, message)
            assert pg_cluster.password not in message, (name, message)
            assert "could not answer" in message or "cannot be reached" in message, message
    finally:
        pg_cluster.start()
    assert [r.memory.id for r in svc.recall("duckdb store").readings] == [mid]
    second = svc.remember("The billing client posts charges with httpx")
    assert second.outcome.value == "stored"
    assert svc.retract(mid, reason="after the outage").outcome.value == "retracted"
    assert svc.recall("duckdb store").readings == ()
    assert len(assert_whole(pg_cluster, pg_project, anchors_each=None)) == 2


def test_a_restart_between_calls_is_not_seen(
    project: GitRepo, pg_cluster: Cluster, pg_project: str, runtimes: list[Runtime]
) -> None:
    """PostgreSQL restarted between two calls (every pooled connection is dead): the next
    call gets a new connection and succeeds, and so do writes after it."""
    svc = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    mid = svc.remember("The store layer opens DuckDB in store/db.py", anchors=[ANCHOR])
    pg_cluster.restart()
    assert [r.memory.id for r in svc.recall("duckdb store").readings] == [mid.reading.memory.id]
    pg_cluster.restart()
    assert svc.remember("The billing client posts charges with httpx").outcome.value == "stored"


# -- two servers on one memory at once -----------------------------------------------------
ROUNDS = 6


def race(calls: dict[str, Any]) -> dict[str, Any]:
    """Each of ``calls`` in a thread of its own, released together; each one's result, or
    the exception it raised."""
    barrier = threading.Barrier(len(calls))
    got: dict[str, Any] = {}

    def run(name: str, call: Any) -> None:
        barrier.wait()
        try:
            got[name] = call()
        except Exception as exc:
            got[name] = exc

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return got


def test_a_retraction_racing_a_verification_is_never_lost(
    project: GitRepo, pg_cluster: Cluster, pg_project: str, runtimes: list[Runtime]
) -> None:
    """Two servers, each with its own connections: one verifies a memory at a commit that
    refutes it while the other retracts it, ROUNDS times. The retraction always stands: the
    memory ends REFUTED by the retraction with its one receipt, and its audit rows form one
    chain (each row starts where the one before ended)."""
    a = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    b = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    made_ids = []
    for r in range(ROUNDS):
        project.commit({"store/db.py": WITH_DUCKDB}, f"duckdb back {r}")
        mid = a.remember(f"Round {r}: the store layer opens DuckDB", anchors=[ANCHOR])
        mid_id = mid.reading.memory.id
        project.commit({"store/db.py": WITHOUT_DUCKDB}, f"sqlite {r}")
        got = race(
            {
                "verify": functools.partial(a.verify, mid_id),
                "retract": functools.partial(b.retract, mid_id, reason=f"round {r}"),
            }
        )
        assert not isinstance(got["verify"], Exception), got["verify"]
        assert got["retract"].outcome.value == "retracted", got["retract"]
        made_ids.append((mid_id, got["retract"].receipt.id))

    for mid_id, receipt in made_ids:
        [(status, refuted_by)] = rows(
            pg_cluster, pg_project, "SELECT status, refuted_by FROM memories WHERE id = %s",
            [mid_id],
        )  # fmt: skip
        assert (status, refuted_by) == ("REFUTED", "retraction")
        chain = rows(
            pg_cluster, pg_project,
            "SELECT action, from_status, to_status FROM audit WHERE memory_id = %s ORDER BY seq",
            [mid_id],
        )  # fmt: skip
        for before, after in itertools.pairwise(chain):
            assert after[1] == before[2], chain
        assert chain[-1][2] == "REFUTED" and [c[0] for c in chain].count("retract") == 1, chain
        receipts = rows(
            pg_cluster, pg_project,
            "SELECT id FROM receipts WHERE memory_id = %s AND action = 'retract'", [mid_id],
        )  # fmt: skip
        assert receipts == [(receipt,)]
    # each server, at its next call, serves every retraction (the other's included)
    for svc in (a, b):
        assert svc.recall("store layer opens DuckDB").readings == ()


# -- a store written by a newer anchormem -------------------------------------------------------
def test_a_store_newer_than_this_anchormem_is_refused_unchanged(
    project: GitRepo, pg_cluster: Cluster, pg_project: str, runtimes: list[Runtime]
) -> None:
    """A store whose schema version is higher than this code's is refused, by the store
    and by the CLI, with a message saying to upgrade, and not one row of it changes."""
    svc = opened(runtimes, pg_settings(project, pg_cluster, pg_project)).service
    svc.remember("The store layer opens DuckDB in store/db.py", anchors=[ANCHOR])
    newer = str(PG_SCHEMA_VERSION + 1)
    rows(
        pg_cluster,
        pg_project,
        "UPDATE meta SET value = %s WHERE key = 'schema_version' RETURNING 1",
        [newer],
    )

    def snapshot() -> list[Any]:
        return [
            rows(pg_cluster, pg_project, f"SELECT * FROM {table} ORDER BY 1")
            for table in ("meta", "memories", "anchors", "audit", "changes", "terms")
        ]

    before = snapshot()
    with pytest.raises(SchemaTooNew) as refused:
        PgDatabase(pg_cluster.url(), pg_project)
    assert f"schema version {newer}" in str(refused.value)
    assert "upgrade anchormem" in str(refused.value)
    done = subprocess.run(
        [str(SCRIPT), "remember", "A note the newer store must not take"],
        cwd=project.root,
        env=anchormem_env(ANCHORMEM_DB=pg_cluster.url(), ANCHORMEM_PROJECT=pg_project),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "upgrade anchormem" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert pg_cluster.password not in done.stderr + done.stdout
    assert snapshot() == before
