"""Compound operations are one plan in one transaction: a fault after the first write (an
exception, or the process killed) leaves the whole operation or nothing.

Each case runs the operation with a fault hook on the store (``Database(fault=...)``,
``PgDatabase(fault=...)``): the hook fails at the first write step of the plan, then the
store's tables are read once that process has ended and compared with the state before
the operation. On PostgreSQL a killed process's transaction dies with its connection.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BACKENDS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.backends(*BACKENDS)

# Every row of the store's tables, as strings, read straight from DuckDB's file or the
# project's schema: ``read_tables(backend, target, project)``.
TABLES = """
TABLES = ("memories", "receipts", "audit", "conflict_log", "observations", "terms",
          "anchors", "links")

def read_tables(backend, target, project):
    out = {}
    if backend == "duckdb":
        import duckdb
        con = duckdb.connect(target, read_only=True)
        for table in TABLES:
            rows = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
            out[table] = [[str(v) for v in row] for row in rows]
        con.close()
        return out
    import psycopg
    from store.pg.url import project_schema
    with psycopg.connect(target, autocommit=True) as con:
        con.execute(f'SET search_path TO "{project_schema(project)}"')
        for table in (*TABLES, "changes"):  # and the list other servers read changes by
            rows = con.execute(f"SELECT * FROM {table}").fetchall()
            out[table] = sorted([str(v) for v in row] for row in rows)
    return out
"""

PRELUDE = (
    """
import json, os, sys
from pathlib import Path
from server.rendering import Rendered
from store.db import Database
from store.service import MemoryService
BACKEND, TARGET, PROJECT, MODE, TMP = sys.argv[1:6]
FAULT = {"armed": False}

def fault(step):
    if FAULT["armed"]:
        if MODE == "kill":
            os._exit(9)
        raise RuntimeError(f"fault injected after {step}")

def open_store():
    if BACKEND == "duckdb":
        return Database(Path(TARGET), fault=fault)
    from store.pg.database import PgDatabase
    return PgDatabase(TARGET, PROJECT, fault=fault)

db = open_store()
svc = Rendered(MemoryService(db, None))
"""
    + TABLES
)

# Each case: setup (returns ids in a dict named S), then the operation under test.
CASES = {
    "correction": (
        """
S = {"old": svc.remember("Releases ship on Thursdays", origin="alice")["id"]}
""",
        """
svc.observe(S["old"], False, "correction", "user", "bob", "Releases ship on Fridays")
""",
    ),
    "resolved_conflict": (
        """
S = {"old": svc.remember("We use Python 3.8", origin="alice")["id"]}
""",
        """
svc.remember("We upgraded to Python 3.12", origin="alice")
""",
    ),
    "cascade": (
        """
parent = svc.remember("Billing retries charges three times")["id"]
child = svc.remember("Summary: billing is resilient", derived_from=[parent])["id"]
svc.remember("Digest: payments are robust", derived_from=[child])
S = {"parent": parent}
""",
        """
svc.retract(S["parent"], "it retries once")
""",
    ),
    "forget": (
        """
a = svc.remember("The API timeout is 30s", origin="alice")["id"]
svc.remember("The API timeout is 60s", origin="bob")
S = {"a": a}
""",
        """
svc.forget(S["a"], "privacy request")
""",
    ),
    "supersede": (
        """
S = {"old": svc.remember("Releases ship on Thursdays", origin="alice")["id"]}
""",
        """
svc.supersede(S["old"], "Releases ship on Fridays", "moved")
""",
    ),
    "import": (  # memories added, a retraction carried over: one plan
        """
side = Database(Path(TMP) / "side.duckdb")  # only the file's source: DuckDB will do
other = MemoryService(side, None)
gone = other.remember("Deploys happen on Fridays").reading.memory.id
other.retract(gone, "Mondays now")
other.remember("Releases are tagged vX.Y")
S = {"lines": list(other.export())}
side.close()
svc.remember("Deploys happen on Fridays")
""",
        """
svc._service.import_lines(S["lines"])
""",
    ),
}


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )


@pytest.fixture
def target(store_backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> list[str]:
    """The store the scripts open: backend, then its file or server, then the project."""
    if store_backend == "duckdb":
        return [store_backend, str(tmp_path / "store.duckdb"), ""]
    cluster = request.getfixturevalue("pg_cluster")
    return [store_backend, cluster.url(), request.getfixturevalue("pg_project")]


def _snapshot(target: list[str]) -> dict[str, Any]:
    """The tables as the operating process left them, read here once it has ended (on
    DuckDB, by a connection of this process's own; on PostgreSQL, by a new session)."""
    scope: dict[str, Any] = {}
    exec(TABLES, scope)  # the same reader the operating script uses
    snap: dict[str, Any] = scope["read_tables"](*target)
    return snap


def _operate(
    target: list[str], tmp_path: Path, case: str, mode: str
) -> subprocess.CompletedProcess[str]:
    setup, operation = CASES[case]
    script = (
        PRELUDE
        + textwrap.dedent(setup)
        + "db.close()\n"
        + "counts = {t: len(rows) for t, rows in read_tables(BACKEND, TARGET, PROJECT).items()}\n"
        + "print(json.dumps(counts), flush=True)\n"
        + "db = open_store()\nsvc = Rendered(MemoryService(db, None))\n"
        + ("FAULT['armed'] = True\n" if mode != "none" else "")
        + textwrap.dedent(operation)
        + "db.close()\nprint('done')\n"
    )
    return _run(script, *target, mode, str(tmp_path))


def _counts_before(done: subprocess.CompletedProcess[str]) -> dict[str, int]:
    counts: dict[str, int] = json.loads(done.stdout.splitlines()[0])
    return counts


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("mode", ["raise", "kill"])
def test_a_fault_after_the_first_write_leaves_nothing_of_the_operation(
    target: list[str], tmp_path: Path, case: str, mode: str
):
    done = _operate(target, tmp_path, case, mode)
    if mode == "kill":
        assert done.returncode == 9, done.stderr
    else:
        assert done.returncode != 0 and "fault injected" in done.stderr, done.stderr
    before = _counts_before(done)
    after = _snapshot(target)
    for table, count in before.items():
        assert len(after[table]) == count, (table, after[table])


@pytest.mark.parametrize("case", sorted(CASES))
def test_without_a_fault_the_whole_operation_is_written(
    target: list[str], tmp_path: Path, case: str
):
    done = _operate(target, tmp_path, case, "none")
    assert done.returncode == 0 and "done" in done.stdout, done.stderr
    before = _counts_before(done)
    after = _snapshot(target)
    grew = {t for t, count in before.items() if len(after[t]) != count}
    # Every operation writes its audit rows and receipts together with its changes.
    assert "audit" in grew
    if target[0] == "postgresql":  # and says so to the other servers
        assert "changes" in grew
    if case in ("correction", "cascade", "forget", "supersede", "import"):
        assert "receipts" in grew
    if case == "resolved_conflict":
        assert "conflict_log" in grew and "receipts" in grew
    if case == "correction":
        assert "observations" in grew and "memories" in grew
    if case == "forget":
        forgotten = [r for r in after["memories"] if r[1] == "None"]
        assert len(forgotten) == 1
