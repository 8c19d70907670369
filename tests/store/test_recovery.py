"""Recovery on its own (store/recovery.py): telling damage from other open errors, and
moving damaged files aside without ever deleting them.

The error messages are DuckDB's own (but for a few marked as typed here), from
``duckdb.connect`` on a real store file damaged by hand (bytes overwritten or cut off);
the store is made once per module and copied into each test's directory. store/db.py's
use of these functions (open, recover, reopen) is tested end to end in test_faults.py.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from store.recovery import (
    damaged_part,
    is_a_store,
    move_aside,
    recovery_log,
    recovery_records,
)

CHECKPOINTED = 2000  # rows in the main file; one more lives only in the WAL
STAMP = r"\d{8}T\d{6}\.\d{6}Z"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """The bytes of a real store's main file and of its write-ahead log, as a crash would
    leave them: CHECKPOINTED rows in the main file, one more only in the log."""
    path = tmp_path_factory.mktemp("template") / "memory.duckdb"
    con = duckdb.connect(str(path))
    con.execute("SET wal_autocheckpoint = '1GB'")
    con.execute("CREATE TABLE notes (text VARCHAR)")
    con.execute(
        f"INSERT INTO notes SELECT 'checkpointed note ' || i FROM range({CHECKPOINTED}) t(i)"
    )
    con.execute("CHECKPOINT")
    con.execute("INSERT INTO notes VALUES ('only in the log')")
    main, wal = path.read_bytes(), Path(f"{path}.wal").read_bytes()
    con.close()
    assert main[8:12] == b"DUCK" and len(main) > 3 * 4096 and len(wal) > 20
    return main, wal


# A store's directory may be named anything, words of DuckDB's damage messages included
# (a repository called "checksum"): what decides is the message, not the path it quotes.
PLAIN_DIR = "project"
TRICKY_DIR = "corrupt database file checksum, replaying WAL"


@pytest.fixture(params=[PLAIN_DIR, TRICKY_DIR], ids=["plain-dir", "dir-named-like-damage"])
def where(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    directory: Path = tmp_path / request.param
    directory.mkdir()
    return directory


def place(directory: Path, main: bytes | None, wal: bytes | None = None) -> Path:
    db = directory / "memory.duckdb"
    if main is not None:
        db.write_bytes(main)
    if wal is not None:
        Path(f"{db}.wal").write_bytes(wal)
    return db


def open_error(db: Path) -> str:
    """DuckDB's message for opening ``db`` (the test fails if it opens)."""
    with pytest.raises(duckdb.Error) as caught:
        duckdb.connect(str(db)).close()
    return str(caught.value)


def notes(db: Path) -> list[str]:
    con = duckdb.connect(str(db))
    try:
        return [r[0] for r in con.execute("SELECT text FROM notes").fetchall()]
    finally:
        con.close()


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.is_file()}


def flipped(data: bytes, at: int, n: int = 64) -> bytes:
    return data[:at] + bytes(b ^ 0xFF for b in data[at : at + n]) + data[at + n :]


# -- damaged_part and is_a_store on real files -----------------------------------------
DAMAGE = {
    # name: (main file from the template's, WAL, expected part, carries DuckDB's magic)
    "wal-undecodable": (lambda m: m, lambda w: w[:20] + b"\xff" * (len(w) - 20), "wal", True),
    "main-random-bytes": (lambda m: random.Random(0).randbytes(300_000), None, "main", False),
    "main-truncated": (lambda m: m[: 4096 * 2], None, "main", True),
    "main-block-checksum": (lambda m: flipped(m, 3 * 4096 + 100), None, "main", True),
    "main-header-checksum": (lambda m: flipped(m, 100), None, "main", True),
    "main-is-a-readme": (lambda m: b"# My project\n\nNot a database.\n", None, "main", False),
    "main-empty": (lambda m: b"", None, "main", False),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_part_names_the_damaged_file_from_duckdbs_own_message(
    where: Path, template: tuple[bytes, bytes], damage: str
) -> None:
    make_main, make_wal, part, magic = DAMAGE[damage]
    main, wal = template
    db = place(where, make_main(main), make_wal(wal) if make_wal else None)
    message = open_error(db)
    assert damaged_part(message) == part, message
    # A damaged main file is a store only if it looks like one (or was opened before).
    assert is_a_store(db, opened_before=False) is magic
    assert is_a_store(db, opened_before=True)


def test_an_intact_store_and_its_log_open_and_replay(
    tmp_path: Path, template: tuple[bytes, bytes]
) -> None:
    """The control case for the damage above: the same bytes, undamaged."""
    db = place(tmp_path, *template)
    assert is_a_store(db, opened_before=False)
    assert len(notes(db)) == CHECKPOINTED + 1


def test_a_truncated_log_is_no_damage_to_duckdb(
    tmp_path: Path, template: tuple[bytes, bytes]
) -> None:
    """DuckDB skips a cut-off WAL itself (what it held is lost, silently): recovery never
    sees it. Kept as a test so that a DuckDB that starts refusing it is noticed."""
    main, wal = template
    db = place(tmp_path, main, wal[: len(wal) // 2])
    assert len(notes(db)) == CHECKPOINTED


def test_a_store_another_process_holds_is_not_damaged(
    where: Path, template: tuple[bytes, bytes]
) -> None:
    """A lock conflict must never be taken for damage: that would move a live store."""
    db = place(where, template[0])
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('open', flush=True);"
            " sys.stdin.read()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        message = open_error(db)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
    assert "lock" in message.lower()
    assert damaged_part(message) is None


def test_a_directory_where_the_store_should_be_is_not_damaged(where: Path) -> None:
    db = where / "memory.duckdb"
    db.mkdir()
    message = open_error(db)
    assert damaged_part(message) is None, message
    assert not is_a_store(db, opened_before=False)


@pytest.mark.parametrize("directory", [PLAIN_DIR, TRICKY_DIR])
@pytest.mark.parametrize(
    "message",
    [  # typed here, in DuckDB's form (running as root, permissions cannot be provoked)
        "",
        'IO Error: Cannot open file "/x/{dir}/memory.duckdb": Permission denied',
        'IO Error: Could not set lock on file "/x/{dir}/memory.duckdb": Conflicting lock is'
        " held in /usr/bin/duckdb (PID 7)",
        "Out of Memory Error: could not allocate block of size 256.0 KiB",
    ],
)
def test_other_open_errors_are_not_damage(message: str, directory: str) -> None:
    assert damaged_part(message.format(dir=directory)) is None


def test_is_a_store_without_a_file(tmp_path: Path) -> None:
    missing = tmp_path / "memory.duckdb"
    assert not is_a_store(missing, opened_before=False)
    assert is_a_store(missing, opened_before=True)
    short = place(tmp_path, b"12345678DUC")  # shorter than the magic's end
    assert not is_a_store(short, opened_before=False)


# -- move_aside ------------------------------------------------------------------------
def test_a_damaged_log_is_moved_aside_and_the_main_file_opens_without_it(
    tmp_path: Path, template: tuple[bytes, bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    main, wal = template
    bad_wal = wal[:20] + b"\xff" * (len(wal) - 20)
    db = place(tmp_path, main, bad_wal)
    reason = open_error(db)

    moved = move_aside(db, "wal", reason)

    assert len(moved) == 1 and re.fullmatch(rf"memory\.duckdb\.wal\.damaged-{STAMP}", moved[0])
    assert (tmp_path / moved[0]).read_bytes() == bad_wal  # kept as it was
    assert not Path(f"{db}.wal").exists()
    assert db.read_bytes() == main  # the main file is not touched
    assert notes(db) == [f"checkpointed note {i}" for i in range(CHECKPOINTED)]

    [record] = recovery_records(db)
    assert record["file"] == "memory.duckdb.wal"
    assert record["moved_to"] == moved
    assert record["reason"] == reason.splitlines()[0]
    assert record["started"] == "started from the main file without the write-ahead log"
    assert re.match(r"\d{4}-\d\d-\d\dT", record["at"])

    said = capsys.readouterr().err.splitlines()
    assert said == [
        f"anchormem: the store's write-ahead log was damaged ({record['reason']}); moved it"
        f" aside to {moved[0]} and started from the main file without the write-ahead log"
    ]


@pytest.mark.parametrize("with_wal", [True, False], ids=["with-its-wal", "alone"])
def test_a_damaged_main_file_is_moved_aside_with_its_log_and_a_fresh_store_starts(
    tmp_path: Path,
    template: tuple[bytes, bytes],
    capsys: pytest.CaptureFixture[str],
    with_wal: bool,
) -> None:
    main, wal = template
    bad_main = flipped(main, 3 * 4096 + 100)
    db = place(tmp_path, bad_main, wal if with_wal else None)
    before = files(tmp_path)
    reason = open_error(db)

    moved = move_aside(db, "main", reason)

    expected = ["memory.duckdb", "memory.duckdb.wal"] if with_wal else ["memory.duckdb"]
    assert [re.sub(rf"\.damaged-{STAMP}$", "", name) for name in moved] == expected
    for name, original in zip(expected, moved, strict=True):
        assert (tmp_path / original).read_bytes() == before[name]  # nothing lost
    assert not db.exists() and not Path(f"{db}.wal").exists()
    con = duckdb.connect(str(db))  # a fresh, empty store
    assert con.execute("SELECT count(*) FROM duckdb_tables()").fetchone() == (0,)
    con.close()

    [record] = recovery_records(db)
    assert record["file"] == "memory.duckdb" and record["moved_to"] == moved
    assert record["started"] == "started a fresh, empty store"
    said = capsys.readouterr().err
    assert said.startswith("anchormem: the store's file was damaged (Corrupt database file")
    assert said.rstrip().endswith(
        f"moved it aside to {', '.join(moved)} and started a fresh, empty store"
    )


def test_recoveries_accumulate_and_nothing_is_ever_deleted(
    tmp_path: Path, template: tuple[bytes, bytes]
) -> None:
    """Two recoveries of one store: each moved file stays, with its bytes, under its own
    name, and the log beside the store keeps both records in order."""
    main, wal = template
    bad_wal = wal[:20] + b"\xff" * (len(wal) - 20)
    db = place(tmp_path, main, bad_wal)
    first = move_aside(db, "wal", open_error(db))
    # Later the main file is damaged too (here: cut off).
    cut = main[: 4096 * 2]
    db.write_bytes(cut)
    second = move_aside(db, "main", open_error(db))

    assert len(first) == len(second) == 1 and first != second
    kept = files(tmp_path)
    assert kept.pop(recovery_log(db).name)
    assert kept == {first[0]: bad_wal, second[0]: cut}
    records = recovery_records(db)
    assert [r["moved_to"] for r in records] == [first, second]
    assert [r["file"] for r in records] == ["memory.duckdb.wal", "memory.duckdb"]
    assert json.loads(recovery_log(db).read_text()) == records


def test_the_recorded_reason_is_its_first_line_cut_to_300_characters(
    tmp_path: Path, template: tuple[bytes, bytes], capsys: pytest.CaptureFixture[str]
) -> None:
    db = place(tmp_path, template[0], b"x" * 100)
    reason = "Failure while replaying WAL file: " + "y" * 400 + "\nsecond line\nthird"
    move_aside(db, "wal", reason)
    [record] = recovery_records(db)
    assert record["reason"] == reason.splitlines()[0][:300]
    assert "second line" not in capsys.readouterr().err


def test_recovery_records_reads_only_a_list_of_records(tmp_path: Path) -> None:
    db = tmp_path / "memory.duckdb"
    assert recovery_records(db) == []  # no log
    log = recovery_log(db)
    assert log.name == "memory.duckdb.recovery.json"
    log.write_text("{not json")
    assert recovery_records(db) == []
    log.write_text('{"file": "memory.duckdb"}')
    assert recovery_records(db) == []
    log.write_text('[{"file": "memory.duckdb"}, "junk", 3]')
    assert recovery_records(db) == [{"file": "memory.duckdb"}]
