"""The store's schema over its life: migrated when opened, refused when too new, intact
after `forget` rewrites the file, and an audit trail that only grows, in step with every
status change."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest

from server.config import Settings
from server.rendering import Rendered
from server.runtime import Runtime, open_runtime
from store.db import Database, utcnow
from store.errors import SchemaTooNew, StoreError
from store.ids import new_id
from store.model import AuditAction, Receipt, ReceiptAction, RefutedBy, Status
from store.plan import NewMemory, Plan, StatusChange
from store.schema import _MIGRATIONS, SCHEMA_VERSION
from store.service import MemoryService
from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.server.conftest import PROJECT

CORE_TABLES = {
    "meta",
    "memories",
    "anchors",
    "links",
    "receipts",
    "audit",
    "observations",
    "blob_facts",
    "verdicts",
}
TRANSITIONS = {"remember", "verify", "retract", "restore", "forget"}


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


@pytest.fixture
def runtime(project: GitRepo) -> Iterator[Runtime]:
    rt = open_runtime(Settings.resolve(repo=str(project.root), env=settings_env()))
    try:
        yield rt
    finally:
        rt.close()


def peek(path: Path, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """Read the file directly, as another process would (only while nobody holds it)."""
    with duckdb.connect(str(path), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def stored_version(path: Path) -> int:
    return int(peek(path, "SELECT value FROM meta WHERE key = 'schema_version'")[0][0])


def constraints(path: Path) -> set[tuple[str, str, str]]:
    rows = peek(
        path,
        "SELECT table_name, constraint_type, array_to_string(constraint_column_names, ',')"
        " FROM duckdb_constraints()",
    )
    return {(r[0], r[1], r[2]) for r in rows}


def audit_rows(path: Path) -> list[tuple[Any, ...]]:
    return peek(
        path,
        "SELECT seq, memory_id, action, from_status, to_status, receipt_id FROM audit ORDER BY seq",
    )


def write_newer_store(path: Path) -> None:
    Database(path).close()
    with duckdb.connect(str(path)) as con:
        con.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)]
        )
        con.execute("CHECKPOINT")


def fingerprint_of(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


# -- migrations -------------------------------------------------------------------------


def test_a_fresh_store_is_created_at_the_current_schema_version(tmp_path: Path):
    path = tmp_path / "fresh.duckdb"
    Database(path).close()
    assert stored_version(path) == SCHEMA_VERSION
    tables = {r[0] for r in peek(path, "SELECT table_name FROM duckdb_tables()")}
    assert tables >= CORE_TABLES


def test_an_older_store_is_migrated_forward_when_opened_and_keeps_its_memories(tmp_path: Path):
    path = tmp_path / "old.duckdb"
    with duckdb.connect(str(path)) as con:  # a store exactly as version 1 wrote it
        con.execute(_MIGRATIONS[0][0])
        con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        con.execute(
            "INSERT INTO memories (id, text, kind, source, origin, created_at, updated_at,"
            " status) VALUES ('mold00001', 'We deploy on Fridays', 'fact', 'user', 'alice',"
            " now(), now(), 'ACTIVE')"
        )
        con.execute(
            "INSERT INTO audit VALUES (1, 'mold00001', now(), 'remember', NULL, 'ACTIVE',"
            " 'alice', NULL, NULL, NULL, '{}')"
        )
    db = Database(path)
    try:
        old = db.get("mold00001")
        assert old is not None and old.text == "We deploy on Fridays"
        assert [e.action for e in db.audit("mold00001")] == ["remember"]
    finally:
        db.close()
    assert stored_version(path) == SCHEMA_VERSION


def test_a_version_5_store_has_its_negation_cores_made_again(tmp_path: Path):
    """Cores written by the plural rule before the one text module ("redi" for "redis")
    are made again on opening, so "we don't use redis" meets a later "we use redis"."""
    from store.contradictions.claims import negation_core

    path = tmp_path / "v5.duckdb"
    with duckdb.connect(str(path)) as con:
        for steps in _MIGRATIONS[:5]:
            for step in steps:
                con.execute(step) if isinstance(step, str) else step(con)
        con.execute("INSERT INTO meta VALUES ('schema_version', '5')")
        con.execute(
            "INSERT INTO memories (id, text, kind, source, origin, created_at, updated_at,"
            " status, core) VALUES ('mold00002', 'We don''t use redis any more', 'fact',"
            " 'user', 'alice', now(), now(), 'ACTIVE', 'we use redi'),"
            " ('mold00003', 'Plain', 'fact', 'user', 'alice', now(), now(), 'ACTIVE', NULL)"
        )
    Database(path).close()
    cores = dict(peek(path, "SELECT id, core FROM memories ORDER BY id"))
    assert cores == {"mold00002": negation_core("We don't use redis any more")[0],
                     "mold00003": None}  # fmt: skip
    assert "redis" in str(cores["mold00002"]) and stored_version(path) == SCHEMA_VERSION


def test_a_store_from_a_newer_anchormem_is_refused_and_left_untouched(tmp_path: Path):
    path = tmp_path / "newer.duckdb"
    write_newer_store(path)
    before = fingerprint_of(path)
    with pytest.raises(SchemaTooNew) as refused:
        Database(path)
    message = str(refused.value)
    assert f"schema version {SCHEMA_VERSION + 1}" in message
    assert "upgrade anchormem" in message and "not modified" in message
    assert fingerprint_of(path) == before
    assert not Path(f"{path}.wal").exists()
    assert stored_version(path) == SCHEMA_VERSION + 1


def test_the_cli_refuses_a_newer_store_with_exit_1_and_one_line(project: GitRepo, tmp_path: Path):
    path = tmp_path / "newer.duckdb"
    write_newer_store(path)
    before = fingerprint_of(path)
    env = anchormem_env()
    for args in (["list"], ["remember", "We deploy on Fridays"]):
        done = subprocess.run(
            [str(Path(sys.executable).with_name("anchormem")), "--db", str(path), *args],
            cwd=project.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1
        assert done.stdout == ""
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "schema version" in lines[0] and "upgrade" in lines[0]
        assert fingerprint_of(path) == before


# -- forget and compaction ----------------------------------------------------------------


def test_forget_rewrites_the_file_but_keeps_every_key_constraint_audit_row_and_receipt(
    tmp_path: Path,
):
    path = tmp_path / "store.duckdb"
    db = Database(path)
    service = Rendered(MemoryService(db, None))
    try:
        kept = service.remember("Payments are retried three times", anchors=["file:pay.py"])
        secret = service.remember("The staging vault path is kv/zebra-quokka-4417")
        service.retract(kept["id"], "we retry five times now")
        db.close()
        keys_before = constraints(path)
        audit_before = audit_rows(path)
        receipts_before = peek(path, "SELECT id FROM receipts ORDER BY id")
        db = Database(path)
        service = Rendered(MemoryService(db, None))

        service.forget(secret["id"], "privacy request")

        tombstone = db.get(secret["id"])
        assert tombstone is not None and tombstone.forgotten_at is not None
        # The same primary keys still hold: a second memory with a forgotten id, or with a
        # live one, is refused.
        for taken in (secret["id"], kept["id"]):
            clone = replace(tombstone, id=taken, text="a new claim", forgotten_at=None)
            with pytest.raises(StoreError):
                db.apply(Plan(memories=(NewMemory(clone, "hash", {"claim": 1}, "a new claim"),)))
    finally:
        db.close()
    assert b"zebra-quokka" not in path.read_bytes()
    assert constraints(path) == keys_before
    with duckdb.connect(str(path)) as con, pytest.raises(duckdb.ConstraintException):
        con.execute(
            "INSERT INTO audit (seq, memory_id, happened_at, action, actor)"
            " SELECT min(seq), 'mdup', now(), 'remember', 'x' FROM audit"
        )
    after = audit_rows(path)
    assert after[: len(audit_before)] == audit_before
    assert [(r[1], r[2]) for r in after[len(audit_before) :]] == [(secret["id"], "forget")]
    receipts_after = {r[0] for r in peek(path, "SELECT id FROM receipts")}
    assert {r[0] for r in receipts_before} < receipts_after
    kinds = peek(path, "SELECT action FROM receipts WHERE memory_id = ?", [secret["id"]])
    assert kinds == [("forget",)]
    assert stored_version(path) == SCHEMA_VERSION


# -- the audit trail ------------------------------------------------------------------------


def test_every_status_change_has_an_audit_row_and_the_trail_only_grows(
    project: GitRepo, runtime: Runtime
):
    service, db = Rendered(runtime.service), runtime.db
    trails: list[list[tuple[Any, ...]]] = []

    def snapshot() -> None:
        trails.append(
            [(e.seq, e.memory_id, e.action, e.from_status, e.to_status) for e in db.audit()]
        )

    made = service.remember(
        "The store layer opens DuckDB", subject="store/db.py", anchors=["import:duckdb@store/db.py"]
    )
    assert made["status"] == "VERIFIED"
    snapshot()
    service.retract(made["id"], "we are moving to sqlite")
    snapshot()
    service.restore(made["id"], "we stayed on duckdb")
    assert service.show(made["id"], wait_s=30)["status"] == "VERIFIED"
    snapshot()
    project.commit({"store/db.py": "import sqlite3\n"}, "drop duckdb")
    assert service.show(made["id"], wait_s=30)["status"] == "REFUTED"
    snapshot()
    service.forget(made["id"], "privacy request")
    snapshot()

    for earlier, later in itertools.pairwise(trails):
        assert later[: len(earlier)] == earlier  # nothing rewritten, nothing removed
        assert len(later) > len(earlier)
    trail = trails[-1]
    seqs = [row[0] for row in trail]
    assert seqs == sorted(set(seqs))
    assert {row[2] for row in trail} >= TRANSITIONS
    # Each change starts from the status the previous one left.
    changes = [row for row in trail if row[1] == made["id"] and row[2] != "forget"]
    for before, after in itertools.pairwise(changes):
        if after[3] is not None:
            assert after[3] == before[4], (before, after)
    assert changes[-1][4] == "REFUTED"
    refuted_by_code = [r for r in db.receipts(made["id"]) if r.action.value == "refute_by_code"]
    assert refuted_by_code and refuted_by_code[0].commit == project.head()


def test_a_batch_of_changes_that_fails_half_way_writes_nothing(tmp_path: Path):
    db = Database(tmp_path / "store.duckdb")
    try:
        service = Rendered(MemoryService(db, None))
        made = service.remember("Invoices are numbered per year")
        audit_before = db.audit()
        now = utcnow()
        receipt = Receipt(new_id("r"), made["id"], ReceiptAction.RETRACT, "alice", "wrong", now)
        valid = StatusChange(
            made["id"],
            (Status.ACTIVE, None),
            Status.REFUTED,
            RefutedBy.RETRACTION,
            AuditAction.RETRACT,
            "alice",
            "wrong",
            receipt,
        )
        missing = replace(valid, memory_id="mnothere0", receipt=None)
        with pytest.raises(StoreError, match="mnothere0"):
            db.apply(Plan(changes=(valid, missing)))
        unchanged = db.get(made["id"])
        assert unchanged is not None and unchanged.status is Status.ACTIVE
        assert unchanged.refuted_by is None
        assert db.receipts(made["id"]) == []
        assert db.audit() == audit_before
    finally:
        db.close()


def test_a_version_4_store_is_re_indexed_by_the_code_aware_tokeniser(project: GitRepo):
    # (the class the note names is in the file it names: the note is not refuted)
    project.commit({"billing/client.py": "class PaymentClient:\n    pass\n"}, "a client")
    settings = Settings.resolve(repo=str(project.root), env=settings_env())
    rt = open_runtime(settings)
    try:
        made = rt.service.remember(
            "PaymentClient retries charges", subject="billing/client.py", anchors=["dep:httpx"]
        )
        forgotten = rt.service.remember("The ops runbook lives in the wiki")
        rt.service.forget(forgotten.reading.id, "not ours")
    finally:
        rt.close()
    mid = made.reading.id
    with duckdb.connect(str(settings.db)) as con:  # as version 4 indexed it: whole words only
        con.execute("DELETE FROM terms")
        con.execute(
            "INSERT INTO terms VALUES (?, 'paymentclient', 1), (?, 'retries', 1)", [mid, mid]
        )
        con.execute("UPDATE memories SET search_text = lower(search_text)")
        con.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    rt = open_runtime(settings)
    try:
        found = rt.service.recall("payment client retry", 5)
        assert [r.id for r in found.readings] == [mid]
        assert found.scores[mid] > 0
    finally:
        rt.close()
    assert stored_version(settings.db) == SCHEMA_VERSION
    terms = {t for (t,) in peek(settings.db, "SELECT term FROM terms WHERE memory_id = ?", [mid])}
    assert {"payment", "client", "retry", "httpx", "billing/client.py"} <= terms
    # A forgotten memory is not indexed again.
    indexed = {m for (m,) in peek(settings.db, "SELECT DISTINCT memory_id FROM terms")}
    assert indexed == {mid}
