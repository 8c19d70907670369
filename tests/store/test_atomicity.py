"""Compound operations are one plan in one transaction: a fault after the first write (an
exception, or the process killed) leaves the whole operation or nothing.

Each case runs the operation with a fault hook on the store (``Database(fault=...)``):
the hook fails at the first write step of the plan, then the store is reopened by a
fresh process and compared with the state before the operation.
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

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = """
import json, os, sys
from pathlib import Path
from server.rendering import Rendered
from store.db import Database
from store.service import MemoryService
DB = Path(sys.argv[1])
MODE = sys.argv[2]
FAULT = {"armed": False}

def fault(step):
    if FAULT["armed"]:
        if MODE == "kill":
            os._exit(9)
        raise RuntimeError(f"fault injected after {step}")

db = Database(DB, fault=fault)
svc = Rendered(MemoryService(db, None))
TABLES = ("memories", "receipts", "audit", "conflict_log", "observations", "terms",
          "anchors", "links")
"""

SNAPSHOT = """
import json, sys
import duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
out = {}
for table in ("memories", "receipts", "audit", "conflict_log", "observations", "terms",
              "anchors", "links"):
    rows = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
    out[table] = [[str(v) for v in row] for row in rows]
print(json.dumps(out))
"""

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
side = Database(DB.with_name("side.duckdb"))
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


def _snapshot(db: Path) -> dict[str, Any]:
    done = _run(SNAPSHOT, str(db))
    assert done.returncode == 0, done.stderr
    snap: dict[str, Any] = json.loads(done.stdout)
    return snap


def _operate(db: Path, case: str, mode: str) -> subprocess.CompletedProcess[str]:
    setup, operation = CASES[case]
    script = (
        PRELUDE
        + textwrap.dedent(setup)
        + "db.close()\n"
        + "import duckdb\n"
        + "with duckdb.connect(str(DB)) as con:\n"
        + "    counts = {t: con.execute(f'SELECT count(*) FROM {t}').fetchone()[0]\n"
        + "              for t in TABLES}\n"
        + "print(json.dumps(counts), flush=True)\n"
        + "db = Database(DB, fault=fault)\nsvc = Rendered(MemoryService(db, None))\n"
        + ("FAULT['armed'] = True\n" if mode != "none" else "")
        + textwrap.dedent(operation)
        + "db.close()\nprint('done')\n"
    )
    return _run(script, str(db), mode)


def _counts_before(done: subprocess.CompletedProcess[str]) -> dict[str, int]:
    counts: dict[str, int] = json.loads(done.stdout.splitlines()[0])
    return counts


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("mode", ["raise", "kill"])
def test_a_fault_after_the_first_write_leaves_nothing_of_the_operation(
    tmp_path: Path, case: str, mode: str
):
    db = tmp_path / "store.duckdb"
    done = _operate(db, case, mode)
    if mode == "kill":
        assert done.returncode == 9, done.stderr
    else:
        assert done.returncode != 0 and "fault injected" in done.stderr, done.stderr
    before = _counts_before(done)
    after = _snapshot(db)
    for table, count in before.items():
        assert len(after[table]) == count, (table, after[table])


@pytest.mark.parametrize("case", sorted(CASES))
def test_without_a_fault_the_whole_operation_is_written(tmp_path: Path, case: str):
    db = tmp_path / "store.duckdb"
    done = _operate(db, case, "none")
    assert done.returncode == 0 and "done" in done.stdout, done.stderr
    before = _counts_before(done)
    after = _snapshot(db)
    grew = {t for t, count in before.items() if len(after[t]) != count}
    # Every operation writes its audit rows and receipts together with its changes.
    assert "audit" in grew
    if case in ("correction", "cascade", "forget", "supersede", "import"):
        assert "receipts" in grew
    if case == "resolved_conflict":
        assert "conflict_log" in grew and "receipts" in grew
    if case == "correction":
        assert "observations" in grew and "memories" in grew
    if case == "forget":
        forgotten = [r for r in after["memories"] if r[1] == "None"]
        assert len(forgotten) == 1
