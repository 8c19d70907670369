"""Faults: damaged files, a full disk, DuckDB's invalidated state, kill -9 during writes,
and concurrent transitions on one memory (RELIABILITY.md, "Faults").

Servers and the CLI run as the installed console script, as a client starts them. Work
that has to die or hit a limit without taking pytest with it (``os._exit`` with a WAL
left behind, ``RLIMIT_FSIZE``) runs in a child Python process that imports the store.
"""

from __future__ import annotations

import itertools
import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import duckdb
import pytest

from store.db import Database
from tests.conftest import GitRepo, anchormem_env
from tests.conftest import store_file as default_store
from tests.server.conftest import PROJECT
from tests.stdio_session import StdioSession

SCRIPT = Path(sys.executable).with_name("anchormem")
ROOT = Path(__file__).resolve().parents[2]


def server_env() -> dict[str, str]:
    # Each process opens the store itself (ANCHORMEM_SHARE=0, the lease of adr/0002): these
    # tests damage, fill and race on the file between calls, which a store's owner process
    # (adr/0012) would hold open across them. The owner opens the file through the same
    # code (store/db.py, store/recovery.py); the kill harness below runs through it.
    env = anchormem_env()
    return {**env, "ANCHORMEM_SHARE": "0"}


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


def store_file(repo: GitRepo) -> Path:
    return default_store(repo.root)


def cli(repo: GitRepo, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=repo.root,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def child(code: str, db: Path, **kw: Any) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter with ``db`` bound; it prints one JSON line."""
    prelude = (
        "import json, os, sys, resource\nimport duckdb\n"
        "from pathlib import Path\n"
        "from store.db import Database\n"
        "from store.service import MemoryService\n"
        "from server.rendering import Rendered\n"
        f"DB = Path({str(db)!r})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        cwd=db.parent,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )
    assert done.returncode == 0, done.stderr
    return {"out": json.loads(done.stdout.strip().splitlines()[-1]), "stderr": done.stderr}


def texts_in(db: Path) -> set[str]:
    """The memories' texts as the store holds them (a journal left behind included)."""
    store = Database(db)
    try:
        with store.read() as cur:
            return {r[0] for r in cur.execute("SELECT text FROM memories").fetchall()}
    finally:
        store.close()


# -- damaged files ----------------------------------------------------------------------
LEAVE_A_WAL = """
db = Database(DB); svc = Rendered(MemoryService(db, None))
svc.remember("Checkpointed note: the billing team owns the invoice exporter", source="agent")
db.close()  # checkpoints: this one is in the main file
db = Database(DB); svc = Rendered(MemoryService(db, None))
svc.remember("WAL-only note: the search team owns the ranking config", source="agent")
db.drain()  # from the journal into the tables: a DuckDB commit, into its WAL
print(json.dumps({"wal": Path(f"{DB}.wal").stat().st_size}))
sys.stdout.flush()
os._exit(0)  # no close, no checkpoint: the second note lives only in the WAL
"""


def test_a_wal_left_by_a_crash_is_replayed(project: GitRepo) -> None:
    """The control case: an intact WAL is replayed, nothing is moved."""
    db = store_file(project)
    cli(project, "list")  # creates the store
    child(LEAVE_A_WAL, db)
    assert len(texts_in(db)) == 2
    assert not list(db.parent.glob("*.damaged-*"))


def test_a_damaged_wal_is_moved_aside_and_the_main_file_opens(project: GitRepo) -> None:
    db = store_file(project)
    cli(project, "list")
    wal_size = child(LEAVE_A_WAL, db)["out"]["wal"]
    wal = Path(f"{db}.wal")
    original = wal.read_bytes()
    # Keep the header, fill the entries with 0xFF: DuckDB fails the replay ("Failed to decode
    # LEB128 integer"). (A merely truncated WAL, or a garbage header, DuckDB skips itself.)
    wal.write_bytes(original[:20] + b"\xff" * (wal_size - 20))  # never valid LEB128
    with pytest.raises(duckdb.IOException, match="replaying WAL"):
        duckdb.connect(str(db)).close()

    listed = cli(project, "list", "--json")
    lines = [ln for ln in listed.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "write-ahead log was damaged" in lines[0], listed.stderr
    moved = list(db.parent.glob("memory.duckdb.wal.damaged-*"))
    assert len(moved) == 1 and moved[0].stat().st_size == wal_size  # kept, not deleted
    assert db.exists()
    assert texts_in(db) == {"Checkpointed note: the billing team owns the invoice exporter"}

    doctor = cli(project, "doctor", "--json", ok=False)
    checks = json.loads(doctor.stdout)["checks"]
    recovery = [c for c in checks if c["name"] == "recovery"]
    assert len(recovery) == 1 and moved[0].name in recovery[0]["detail"]
    assert "without the write-ahead log" in recovery[0]["detail"]
    assert all(c["ok"] for c in checks if c["name"] != "recovery"), checks
    # Opening again does not move anything else.
    cli(project, "list")
    assert len(list(db.parent.glob("*.damaged-*"))) == 1


@pytest.mark.parametrize(
    "damage",
    ["garbage", pytest.param("truncated", marks=pytest.mark.slow)],  # CI's budget: ~9 s each
)
def test_a_damaged_main_file_is_moved_aside_and_a_fresh_store_starts(
    project: GitRepo, damage: str
) -> None:
    db = store_file(project)
    cli(project, "list")
    child(LEAVE_A_WAL, db)
    if damage == "garbage":
        db.write_bytes(os.urandom(300_000))
    else:
        db.write_bytes(db.read_bytes()[: 4096 * 2])
    before = db.read_bytes()

    # a server, not only the CLI: it starts, answers, and exits normally
    listed = cli(project, "list", "--json")
    assert "the store's file was damaged" in listed.stderr
    assert "started a fresh, empty store" in listed.stderr
    assert json.loads(listed.stdout)["memories"] == []
    moved = sorted(p.name for p in db.parent.glob("*.damaged-*"))
    assert len(moved) == 2, moved  # the main file and its WAL (useless without it)
    main_moved = next(p for p in db.parent.glob("memory.duckdb.damaged-*"))
    assert main_moved.read_bytes() == before
    doctor = cli(project, "doctor", "--json", ok=False)
    recovery = [c for c in json.loads(doctor.stdout)["checks"] if c["name"] == "recovery"]
    assert len(recovery) == 1 and "fresh, empty store" in recovery[0]["detail"]
    # and the fresh store works
    cli(project, "remember", "After recovery: the ops team owns the deploy script")
    assert len(texts_in(db)) == 1


def test_an_unrelated_open_error_moves_nothing(tmp_path: Path) -> None:
    """A directory where the file should be is not "damage": refuse, move nothing."""
    from store.db import Database
    from store.errors import StoreUnavailable

    (tmp_path / "x.duckdb").mkdir()
    with pytest.raises(StoreUnavailable):
        Database(tmp_path / "x.duckdb", wait_limit_s=1)
    assert (tmp_path / "x.duckdb").is_dir()
    assert not list(tmp_path.glob("*.damaged-*"))


# -- invalidated ------------------------------------------------------------------------
INVALIDATE = """
from store.errors import StoreError
# The store's configuration is locked once open (adr/0022): this one is given at connect.
_connect = duckdb.connect
duckdb.connect = lambda path, config: _connect(path, config={**config, "wal_autocheckpoint": "1GB"})
db = Database(DB); svc = Rendered(MemoryService(db, None))
made = svc.remember("Before the fault: the data team owns the nightly export", source="agent")
# ~2 MB that lives only in the WAL, so the checkpoint must grow the main file
with db.transaction() as cur:
    cur.execute("CREATE TABLE IF NOT EXISTS ballast (x VARCHAR)")
    cur.execute("INSERT INTO ballast SELECT repeat(md5(i::VARCHAR), 64) FROM range(1000) t(i)")
size = DB.stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))
steps = []
try:
    with db.read() as cur:
        cur.execute("CHECKPOINT")  # a FATAL error: DuckDB invalidates the database
    steps.append("checkpoint passed")
except StoreError as exc:
    steps.append(f"checkpoint: {exc} <- {exc.__cause__!r}"[:400])
resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
after = svc.remember("After the fault: the web team owns the landing page", source="agent")
found = svc.recall("team owns", 10)
db.close()
print(json.dumps({"steps": steps, "ids": [made["id"], after["id"]],
                  "found": sorted(m["id"] for m in found["memories"])}))
"""


def test_after_duckdb_invalidates_the_database_the_next_call_reopens(tmp_path: Path) -> None:
    """A real FATAL error: a CHECKPOINT that cannot grow the file (``RLIMIT_FSIZE``, so the
    kernel answers EFBIG) makes DuckDB invalidate the database ("database has been
    invalidated because of a previous fatal error"), after which it refuses every call.
    The failing call reports an error; the next call reopens the file and succeeds."""
    got = child(INVALIDATE, tmp_path / "memory.duckdb")
    out = got["out"]
    assert len(out["steps"]) == 1 and "checkpoint:" in out["steps"][0], out
    assert "FatalException" in out["steps"][0], out
    assert "file size limit" in out["steps"][0]
    assert sorted(out["ids"]) == out["found"]
    assert "invalidated" not in got["stderr"]  # the next call never saw the invalid state


# -- disk full --------------------------------------------------------------------------
class StdioServer(StdioSession):
    """``anchormem serve`` over stdio, with writes past ``fsize`` bytes failing (EFBIG)."""

    def __init__(self, repo: GitRepo, errlog: Path, fsize: int | None = None) -> None:
        def limit() -> None:
            if fsize is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, resource.RLIM_INFINITY))

        super().__init__(repo.root, server_env(), errlog, "faults", limit)


def big_note(i: int) -> str:
    filler = " ".join(f"detail-{i}-{j}" for j in range(500))
    return f"Disk note {i}: the reporting team owns export job {i}. {filler}"[:7_900]


def fill_until_error(server: StdioServer, most: int = 400) -> tuple[list[str], str]:
    acked: list[str] = []
    for i in range(most):
        result = server.call("remember", text=big_note(i), anchors=["file:billing/client.py"])
        if result.get("isError"):
            return acked, result["content"][0]["text"]
        acked.append(result["structuredContent"]["id"])
    raise AssertionError(f"{most} remembers and the disk is still not full")


def assert_intact(repo: GitRepo, acked: list[str]) -> None:
    listed = cli(repo, "list", "--json", "--limit", "1000")  # the store opens
    assert "Traceback" not in listed.stderr
    con = duckdb.connect(str(store_file(repo)), read_only=True)
    try:
        rows = con.execute(
            "SELECT m.id, count(DISTINCT a.position), count(DISTINCT u.seq) FROM memories m"
            " LEFT JOIN anchors a ON a.memory_id = m.id"
            " LEFT JOIN audit u ON u.memory_id = m.id AND u.action = 'remember'"
            " GROUP BY m.id"
        ).fetchall()
    finally:
        con.close()
    stored = {r[0]: (r[1], r[2]) for r in rows}
    assert set(acked) <= set(stored), set(acked) - set(stored)
    assert all(stored[i] == (1, 1) for i in acked)


@pytest.mark.slow  # CI's budget; the RLIMIT_FSIZE run below fails the writes the same way
def test_disk_full_on_a_real_small_filesystem(project: GitRepo, tmp_path: Path) -> None:
    """A 4 MB tmpfs mounted over the store's folder (needs root and mount; skipped
    otherwise), filled to ~600 KB free before the server starts."""
    store_dir = store_file(project).parent
    store_dir.mkdir(mode=0o700, parents=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(store_dir)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        cli(project, "list")  # creates the store on the small filesystem (~0.8 MB)
        filler = store_dir / "filler"
        free = os.statvfs(store_dir).f_bavail * os.statvfs(store_dir).f_frsize
        filler.write_bytes(b"\0" * max(0, free - 600_000))
        server = StdioServer(project, tmp_path / "server.err")
        acked, message = fill_until_error(server)
        print(f"disk full (tmpfs): {len(acked)} acknowledged, then {message!r}")
        assert acked, "not one remember fitted"
        assert "disk is full" in message and "Traceback" not in message, message
        # still serving: reads work while the disk is full
        assert not server.call("recall", query="reporting team export job").get("isError")
        filler.unlink()  # space is freed
        after = server.call("remember", text=big_note(999), anchors=["file:billing/client.py"])
        assert not after.get("isError"), after
        acked.append(after["structuredContent"]["id"])
        assert server.close() == 0
        assert "Traceback" not in (tmp_path / "server.err").read_text()
        assert_intact(project, acked)
    finally:
        subprocess.run(["umount", "-l", str(store_dir)], check=False)


def test_disk_full_as_a_file_size_limit(project: GitRepo, tmp_path: Path) -> None:
    """Without root: ``RLIMIT_FSIZE`` (1 MB) in the server process, so the kernel fails
    the store's writes past it with EFBIG, as a full disk fails them with ENOSPC. Then a
    new server without the limit (the space is "freed") opens the store intact."""
    cli(project, "list")
    server = StdioServer(project, tmp_path / "server.err", fsize=1_000_000)
    acked, message = fill_until_error(server)
    print(f"disk full (RLIMIT_FSIZE): {len(acked)} acknowledged, then {message!r}")
    assert acked, "not one remember fitted"
    assert "file size limit" in message and "Traceback" not in message, message
    assert not server.call("recall", query="reporting team export job").get("isError")
    assert server.close() == 0
    err = (tmp_path / "server.err").read_text()
    assert "Traceback" not in err, err
    assert_intact(project, acked)
    cli(project, "remember", "After the limit: the ops team owns the deploy script")


# -- concurrent transitions ---------------------------------------------------------------
ROUNDS = 8
WITH_HTTPX = "import httpx\n\n\ndef charge(amount):\n    return httpx.post('/c')\n"
WITHOUT_HTTPX = "import urllib.request\n\n\ndef charge(amount):\n    return None\n"


def call_together(
    barrier: Any, got: dict[str, dict[str, Any]], server: StdioServer, tool: str, args: Any
) -> None:
    barrier.wait()
    got[tool] = server.call(tool, **args)


@pytest.mark.slow  # CI's budget (~5 s): a race of two calls, repeated
def test_verify_and_retract_racing_on_one_memory(project: GitRepo, tmp_path: Path) -> None:
    """Two servers: one verifies a memory that a new commit refutes while the other
    retracts it, ROUNDS times (a new memory each round). For each memory the audit rows
    form one chain (each row's from_status is the previous row's to_status: no row was
    written for a transition that rolled back or was overtaken), the memory's status is
    the last row's to_status, and an acknowledged retraction is never undone."""
    import threading

    project.commit({"billing/client.py": WITH_HTTPX}, "use httpx")
    a = StdioServer(project, tmp_path / "a.err")
    b = StdioServer(project, tmp_path / "b.err")
    outcomes: list[tuple[str, str, str]] = []
    try:
        for r in range(ROUNDS):
            project.commit({"billing/client.py": WITH_HTTPX}, f"restore httpx {r}")
            made = a.call(
                "remember",
                text=f"Round {r}: the billing client posts charges with httpx",
                anchors=["import:httpx@billing/client.py"],
            )
            assert not made.get("isError"), made
            mid = made["structuredContent"]["id"]
            project.commit({"billing/client.py": WITHOUT_HTTPX}, f"drop httpx {r}")
            got: dict[str, dict[str, Any]] = {}
            barrier = threading.Barrier(2)
            threads = [
                threading.Thread(
                    target=call_together, args=(barrier, got, a, "verify", {"id": mid})
                ),
                threading.Thread(
                    target=call_together,
                    args=(barrier, got, b, "retract", {"id": mid, "reason": f"round {r}"}),
                ),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert not got["verify"].get("isError"), got["verify"]
            assert not got["retract"].get("isError"), got["retract"]
            outcomes.append((mid, "retract", got["retract"]["structuredContent"]["outcome"]))
    finally:
        assert a.close() == 0
        assert b.close() == 0

    con = duckdb.connect(str(store_file(project)), read_only=True)
    try:
        kept = con.execute(
            "SELECT count(*) FROM memories WHERE refuted_by = 'retraction'"
        ).fetchone()
        verifies = con.execute("SELECT count(*) FROM audit WHERE action = 'verify'").fetchone()
        print(f"racing: rounds={ROUNDS} retractions_kept={kept} verify_rows={verifies}")
        for mid, _, outcome in outcomes:
            status, refuted_by = con.execute(
                "SELECT status, refuted_by FROM memories WHERE id = ?", [mid]
            ).fetchone() or (None, None)
            chain = con.execute(
                "SELECT action, from_status, to_status FROM audit WHERE memory_id = ? ORDER BY seq",
                [mid],
            ).fetchall()
            assert chain[0][0] == "remember", chain
            for before, after in itertools.pairwise(chain):
                assert after[1] == before[2], chain
            assert status == chain[-1][2], (status, chain)
            assert outcome == "retracted"
            # the retraction was acknowledged: a racing verify must not undo it
            assert (status, refuted_by) == ("REFUTED", "retraction"), (refuted_by, chain)
            receipts = con.execute(
                "SELECT count(*) FROM receipts WHERE memory_id = ? AND action = 'retract'", [mid]
            ).fetchone()
            assert receipts == (1,)
            retract_rows = [c for c in chain if c[0] == "retract"]
            assert len(retract_rows) == 1, chain
    finally:
        con.close()


# -- kill -9 during writes ----------------------------------------------------------------
# A stress run (~25 s): CI's budget. The default run kills an owner mid-call in
# tests/server/test_sharing.py and a fifth server in tests/store/test_multiprocess.py.
@pytest.mark.slow
def test_kill_harness_reduced(tmp_path: Path) -> None:
    """``scripts/kill_harness.py`` in a short form: 3 writers, at least 120 remembers (on
    until the kills are made), 5 SIGKILLs of a server with a call in flight, every third of
    them the store's owner. Every acknowledged memory is in the store with its anchors and
    its ``remember`` audit row."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "kill_harness.py"),
            "--kills",
            "5",
            "--remembers",
            "120",
            "--writers",
            "3",
            "--json",
        ],
        cwd=tmp_path,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0, (out, done.stderr)
    # The writers go on past 120 until the killer has made its five kills.
    assert out["kills"] == 5, out
    assert out["owner_kills"] == 1, out  # the store's owner was killed too (adr/0012)
    assert out["owner_tracebacks"] == 0, out
    assert out["acknowledged"] >= 120, out
    assert out["unique_acknowledged"] == out["acknowledged"], out
    assert (out["missing"], out["missing_anchors"], out["missing_audit"]) == (0, 0, 0), out
    assert out["tool_errors"] == [] and out["server_tracebacks"] == 0, out


def test_a_file_that_never_was_a_store_is_refused_not_moved(tmp_path: Path) -> None:
    """``--db`` naming some other file by mistake: refused as before (one line, exit 1,
    tests/server/test_lifecycle_signals.py), the file left where it is."""
    bad = tmp_path / "notes.duckdb"
    bad.write_text("this is not a DuckDB file")
    done = subprocess.run(
        [str(SCRIPT), "list", "--db", str(bad)],
        cwd=tmp_path,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith("anchormem: cannot open the store")
    assert bad.read_text() == "this is not a DuckDB file"
    assert not list(tmp_path.glob("*.damaged-*"))
