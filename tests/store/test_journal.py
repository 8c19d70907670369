"""The write journal (store/journal.py): what a crash at each point leaves, torn and
damaged entries, entries drained twice, and that nothing but its own data is decoded."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from server.rendering import Rendered
from store.db import Database
from store.effects import STATUS_UPDATE, Effects, decode_data, dumps, encode_data
from store.errors import StoreError
from store.journal import Entry, Journal
from store.service import MemoryService

ROOT = Path(__file__).resolve().parents[2]


def _child(code: str, db: Path) -> subprocess.CompletedProcess[str]:
    prelude = (
        "import os, sys\nfrom pathlib import Path\n"
        "from server.rendering import Rendered\nfrom store.db import Database\n"
        "from store.service import MemoryService\n"
        f"DB = Path({str(db)!r})\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _texts(db: Path) -> list[str]:
    """The memories' texts as the tables hold them (after the store drains its journal)."""
    store = Database(db)
    try:
        with store.read() as cur:
            return sorted(r[0] for r in cur.execute("SELECT text FROM memories").fetchall())
    finally:
        store.close()


def _raw_texts(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as con:
        return sorted(r[0] for r in con.execute("SELECT text FROM memories").fetchall())


def test_an_acknowledged_write_survives_the_process_being_killed(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    done = _child(
        """
        db = Database(DB)
        svc = Rendered(MemoryService(db, None))
        for i in range(3):
            svc.remember(f"note {i}: the reporting team owns export job {i}")
        print("acknowledged", flush=True)
        os.kill(os.getpid(), 9)
        """,
        db,
    )
    assert done.returncode == -9 and "acknowledged" in done.stdout, done.stderr
    assert Path(f"{db}.journal").stat().st_size > 0
    assert _raw_texts(db) == []  # in the journal only
    texts = _texts(db)
    assert texts == [f"note {i}: the reporting team owns export job {i}" for i in range(3)]
    assert Path(f"{db}.journal").stat().st_size == 0  # drained by the close
    assert _raw_texts(db) == texts


def test_a_process_reads_what_another_journaled_without_writing_anything(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    writer = Database(db)
    Rendered(MemoryService(writer, None)).remember("The billing team owns the invoice exporter")
    writer._lease.reset()  # let go of the file without closing (as a handover does)
    reader = Database(db)
    try:
        found = Rendered(MemoryService(reader, None)).recall("invoice exporter")
        assert [m["text"] for m in found["memories"]] == [
            "The billing team owns the invoice exporter"
        ]
    finally:
        reader._lease.reset()
    assert _raw_texts(db) == []  # reading applied the journal in a rolled-back transaction
    writer.close()
    reader.close()
    assert _raw_texts(db) == ["The billing team owns the invoice exporter"]


def test_a_torn_last_entry_is_cut_off_and_the_ones_before_it_are_kept(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    done = _child(
        """
        db = Database(DB)
        svc = Rendered(MemoryService(db, None))
        svc.remember("first: the search team owns the ranking config")
        svc.remember("second: the ops team owns the deploy script")
        os._exit(0)
        """,
        db,
    )
    assert done.returncode == 0, done.stderr
    journal = Path(f"{db}.journal")
    data = journal.read_bytes()
    journal.write_bytes(data[:-7])  # the second entry, cut short by a crash
    assert _texts(db) == ["first: the search team owns the ranking config"]


def test_damage_before_the_last_entry_is_refused_and_changes_nothing(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    _child(
        """
        db = Database(DB)
        svc = Rendered(MemoryService(db, None))
        svc.remember("first: the search team owns the ranking config")
        svc.remember("second: the ops team owns the deploy script")
        os._exit(0)
        """,
        db,
    )
    journal = Path(f"{db}.journal")
    data = bytearray(journal.read_bytes())
    data[20] ^= 0xFF  # inside the first entry's payload: its checksum fails
    journal.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="journal is damaged"):
        _texts(db)
    assert journal.read_bytes() == bytes(data)  # nothing cut, nothing drained


def test_a_kill_while_draining_leaves_every_entry_exactly_once(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    done = _child(
        """
        def fault(step):
            if step == "drain":
                os._exit(9)
        db = Database(DB, fault=fault)
        svc = Rendered(MemoryService(db, None))
        for i in range(4):
            svc.remember(f"note {i}: the data team owns pipeline {i}")
        db.drain()
        """,
        db,
    )
    assert done.returncode == 9, done.stderr
    assert len(_texts(db)) == 4
    assert len(_texts(db)) == 4  # reopened again: not drained twice


def test_entries_already_in_the_tables_are_skipped_by_their_number(tmp_path: Path):
    """A crash after the drain's commit and before the journal is emptied."""
    db = tmp_path / "store.duckdb"
    store = Database(db)
    svc = Rendered(MemoryService(store, None))
    svc.remember("The API gateway times out after 30 seconds")
    saved = tmp_path / "journal.copy"
    shutil.copyfile(f"{db}.journal", saved)
    store.close()  # drains: the entry is in the tables, the journal empty
    shutil.copyfile(saved, f"{db}.journal")  # as if the emptying never happened
    assert _texts(db) == ["The API gateway times out after 30 seconds"]
    with duckdb.connect(str(db), read_only=True) as con:
        audit = con.execute("SELECT count(*) FROM audit").fetchall()[0][0]
    assert audit == 1


def test_forget_leaves_the_text_in_neither_the_journal_nor_the_file(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    store = Database(db)
    svc = Rendered(MemoryService(store, None))
    made = svc.remember("The staging vault path is kv/zebra-quokka-4417")
    svc.remember("The billing team owns the invoice exporter")
    assert b"zebra-quokka" in Path(f"{db}.journal").read_bytes()
    svc.forget(made["id"], "privacy request")
    svc.remember("The ops team owns the deploy script")
    store.close()
    for path in tmp_path.iterdir():
        assert b"zebra-quokka" not in path.read_bytes(), path.name


def test_a_write_that_cannot_reach_the_journal_is_refused_and_the_reads_go_on(
    tmp_path: Path,
):
    db = tmp_path / "store.duckdb"
    store = Database(db)
    svc = MemoryService(store, None)
    svc.remember("The billing team owns the invoice exporter")
    journal = Path(f"{db}.journal")
    store._journal.close()  # closed: the next append reopens it...
    journal.unlink()
    os.mkdir(journal)  # ...and cannot, as the path is now a directory
    try:
        with pytest.raises(StoreError, match="could not save"):
            svc.remember("The ops team owns the deploy script")
        found = svc.recall("invoice exporter")
        assert [r.memory.text for r in found.readings] == [
            "The billing team owns the invoice exporter"
        ]
    finally:
        os.rmdir(journal)
        store._journal = Journal(journal)
        store.close()


# -- the entries' form ------------------------------------------------------------------------
def test_effects_round_trip_through_the_journal_form():
    from datetime import UTC, datetime

    effects = Effects()
    at = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    effects.add("links", ["m1", "m2", "derived_from"])
    effects.add("receipts", ["r1", "m1", "retract", "bob", "wrong", None, None, "abc", at])
    effects.update("status", STATUS_UPDATE, ["refuted", "retraction", at, None, "m1"])
    again = decode_data(json.loads(dumps(encode_data(effects))))
    assert again == effects


def test_a_timestamp_met_many_times_is_written_each_time_as_itself():
    """The same timestamp object in many rows, equal instants in other zones and a naive
    time each keep their own form, exactly as ``isoformat`` writes them."""
    from datetime import UTC, datetime, timedelta, timezone

    now = datetime(2026, 12, 1, 9, 30, 15, 123456, tzinfo=UTC)
    paris = now.astimezone(timezone(timedelta(hours=1)))
    naive = datetime(2026, 12, 1, 9, 30, 15, 123456)
    assert paris == now  # equal instants: only their offsets tell them apart
    effects = Effects()
    for i, at in enumerate([now, paris, now, naive, now.replace(microsecond=0), paris]):
        effects.add("receipts", [f"r{i}", "m1", "retract", "bob", "wrong", None, None, "a", at])
    text = dumps(encode_data(effects))
    written = [row[-1]["t"] for row in json.loads(text)["rows"]["receipts"]]
    assert written == [
        now.isoformat(), paris.isoformat(), now.isoformat(), naive.isoformat(),
        "2026-12-01T09:30:15+00:00", paris.isoformat(),
    ]  # fmt: skip
    assert written[1].endswith("+01:00") and written[3] == "2026-12-01T09:30:15.123456"
    assert decode_data(json.loads(text)) == effects


def test_a_row_holding_anything_the_journal_cannot_read_back_is_refused_when_planned():
    effects = Effects()
    with pytest.raises(TypeError, match="object"):
        effects.add("links", ["m1", {"os": "system"}, "x"])
    effects.add("links", ["m1", {1, 2}, "x"])  # no JSON form at all: refused when written
    with pytest.raises(TypeError, match="plain data"):
        dumps(encode_data(effects))


@pytest.mark.parametrize(
    "data",
    [
        {"rows": {"sqlite_master": [["x"]]}},
        {"rows": {"links": [["m1", "m2"]]}},
        {"rows": {"links": [["m1", {"os": "system"}, "x"]]}},
        {"updates": [["status", "DROP TABLE memories", []]]},
        {"updates": [["status"]]},
        [],
    ],
)
def test_a_journal_entry_anchormem_did_not_write_is_refused(data: object):
    with pytest.raises(ValueError):
        decode_data(data)


def test_a_framed_entry_that_is_not_anchormems_stops_the_store_with_a_clear_error(
    tmp_path: Path,
):
    import struct
    import zlib

    db = tmp_path / "store.duckdb"
    Database(db).close()
    payload = json.dumps(
        {"seq": 1, "audit_seq": 1, "conflict_seq": 0, "effects": {"updates": [["x", "DROP", []]]}}
    ).encode()
    record = struct.pack(">2sII", b"AJ", len(payload), zlib.crc32(payload)) + payload
    Path(f"{db}.journal").write_bytes(record)
    with pytest.raises(StoreError, match="did not write"):
        _texts(db)


def test_entries_are_read_back_in_order(tmp_path: Path):
    journal = Journal(tmp_path / "j", sync_interval_s=0)
    for seq in (1, 2, 3):
        effects = Effects()
        effects.add("links", [f"m{seq}", "m0", "derived_from"])
        journal.append(Entry(seq, seq, 0, effects))
    assert [e.seq for e in journal.entries(after=1)] == [2, 3]
    journal.clear()
    assert journal.entries(after=0) == []
    journal.close()
    assert os.stat(tmp_path / "j").st_mode & 0o777 == 0o600


def _on_disk(path: Path, after: int = 0) -> list[Entry]:
    """The entries as a fresh reader of the file parses them."""
    fresh = Journal(path, sync_interval_s=0)
    try:
        return fresh.entries(after=after)
    finally:
        fresh.close()


def test_the_entries_kept_in_memory_are_the_ones_a_fresh_reader_parses(tmp_path: Path):
    """A store's own journal answers ``entries`` from memory: for writes of every kind
    (new memories with anchors and terms, a duplicate's observation, conflicts decided,
    a retraction), what it keeps equals what a reader of the file parses, value for value
    and type for type (a tuple kept where the file gives a list would differ)."""
    db = tmp_path / "store.duckdb"
    store = Database(db)
    svc = Rendered(MemoryService(store, None))
    first = svc.remember("The request timeout is 30 seconds", kind="fact")
    svc.remember("The request timeout is 45 seconds", kind="fact")
    svc.remember("The request timeout is 30 seconds", kind="fact")  # a restatement
    svc.remember("We deploy with the staging pipeline on Fridays")
    svc.retract(first["id"], "it was measured wrong")
    journal = store._journal
    kept = journal.entries(after=0)
    assert len(kept) >= 5
    assert kept == _on_disk(journal.path)
    assert [type(v) for e in kept for r in e.effects.rows.values() for v in r[0]] == [
        type(v) for e in _on_disk(journal.path) for r in e.effects.rows.values() for v in r[0]
    ]
    store.close()


def test_a_journal_changed_by_another_writer_is_read_again(tmp_path: Path):
    """Entries appended by another ``Journal`` on the same file (another process holding
    the store before this one) are not in this one's memory: it parses the file again,
    and appends after them."""
    path = tmp_path / "j"
    mine, theirs = Journal(path, sync_interval_s=0), Journal(path, sync_interval_s=0)

    def entry(seq: int) -> Entry:
        effects = Effects()
        effects.add("links", [f"m{seq}", "m0", "derived_from"])
        return Entry(seq, seq, 0, effects)

    mine.append(entry(1))
    assert [e.seq for e in mine.entries(after=0)] == [1]
    theirs.append(entry(2))
    assert [e.seq for e in mine.entries(after=0)] == [1, 2]
    mine.append(entry(3))
    assert [e.seq for e in mine.entries(after=1)] == [2, 3]
    theirs.clear()
    assert mine.entries(after=0) == []
    mine.append(entry(4))
    assert [e.seq for e in mine.entries(after=0)] == [e.seq for e in _on_disk(path)] == [4]
    mine.close()
    theirs.close()


# -- entries of any size, and plans too large for one ----------------------------------------
def _import_file(path: Path, count: int, prefix: str = "mlong", trail: bool = False) -> Path:
    """An export file of ``count`` long memories: 8,000 characters of Cyrillic each, which
    the journal's JSON writes as six bytes a character (``\\uXXXX``), so a few dozen make
    an entry of megabytes. Without ``trail`` the lines carry no audit trail, as a file
    written by hand or by another tool."""
    header = {
        "type": "anchormem-export", "format": 1, "exported_at": "2026-01-05T10:00:00+00:00",
        "memories": count, "conflicts": 0,
    }  # fmt: skip
    lines = [json.dumps(header)]
    for i in range(count):
        line = {
            "type": "memory", "id": f"{prefix}{i}", "kind": "fact", "source": "user",
            "origin": "alice", "created_at": "2026-01-05T09:00:00+00:00", "status": "ACTIVE",
            "confidence": 0.7, "support": 1.0, "contradiction": 0.0, "observation_count": 1,
            "text": f"note {i}: the ledger rounds half-even. " + "наблюдение " * 716,
        }  # fmt: skip
        if trail:
            line["trail"] = [
                {"seq": 1, "at": "2026-01-05T09:00:00+00:00", "action": "remember",
                 "to": "ACTIVE", "actor": "alice"}
            ]  # fmt: skip
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_complete_entry_of_any_size_is_read_back_whole(tmp_path: Path):
    """A complete, checksummed entry is never called torn: not for being larger than some
    cap (a 70 MiB entry was cut off as torn once, and an acknowledged import with it). The
    reader's allocation is bounded by the file itself, not by a limit on entries."""
    path = tmp_path / "j"
    big = Effects()
    for i in range(70):
        big.add("terms", [f"m{i}", chr(ord("a") + i % 26) * (1 << 20), 1])
    small = Effects()
    small.add("links", ["m1", "m0", "derived_from"])
    writer = Journal(path, sync_interval_s=0)
    writer.append(Entry(1, 0, 0, small))
    writer.append(Entry(2, 0, 0, big))
    writer.close()
    size = path.stat().st_size
    assert size > 70 * (1 << 20)
    found = _on_disk(path)
    assert [e.seq for e in found] == [1, 2]
    assert found[1].effects == big
    assert path.stat().st_size == size  # nothing cut off


def test_an_entry_cut_short_before_a_complete_one_is_damage_never_a_torn_end(tmp_path: Path):
    """Only the end of the file can be torn: an entry whose stated length runs past the
    end, with a complete checksummed entry after it, is damage (reported, nothing cut),
    since cutting there would throw away the complete entry."""
    path = tmp_path / "j"
    writer = Journal(path, sync_interval_s=0)
    for seq in (1, 2):
        effects = Effects()
        effects.add("links", [f"m{seq}", "m0", "derived_from"])
        writer.append(Entry(seq, seq, 0, effects))
    writer.close()
    data = bytearray(path.read_bytes())
    data[2:6] = (len(data) * 2).to_bytes(4, "big")  # the first entry's length, damaged
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="journal is damaged"):
        _on_disk(path)
    assert path.read_bytes() == bytes(data)


@pytest.mark.slow  # CI's budget (~6 s): entries of any size are read back above
def test_a_plan_too_large_for_one_entry_is_in_the_tables_when_acknowledged(tmp_path: Path):
    """The writer never appends an entry above ``MAX_ENTRY``: a larger plan (an import of
    long memories) goes into the tables, with whatever the journal held before it, in one
    transaction before the call returns. The process is killed at once after the
    acknowledgement: every memory is in the tables, none waits in the journal."""
    from store.journal import MAX_ENTRY

    db = tmp_path / "store.duckdb"
    count = MAX_ENTRY // 100_000 + 10  # ~133 KB of journal each
    source = _import_file(tmp_path / "long.jsonl", count)
    done = _child(
        f"""
        db = Database(DB)
        svc = MemoryService(db, None)
        svc.remember("The billing team owns the invoice exporter")  # journaled before it
        lines = Path({str(source)!r}).read_text(encoding="utf-8").splitlines()
        report = svc.import_lines(lines)
        print("added", sum(1 for line in report.lines if line.outcome.value == "added"),
              flush=True)
        os.kill(os.getpid(), 9)
        """,
        db,
    )
    assert done.returncode == -9 and f"added {count}" in done.stdout, done.stderr
    assert Path(f"{db}.journal").stat().st_size == 0
    texts = _raw_texts(db)  # the tables, read without anchormem
    assert len(texts) == count + 1
    assert "The billing team owns the invoice exporter" in texts
    assert len(_texts(db)) == count + 1  # and reopened, nothing twice


@pytest.mark.parametrize("count", [1, 40], ids=["journaled", "written-at-once"])
def test_a_copy_is_read_again_after_another_process_wrote_without_an_audit_row(
    tmp_path: Path, count: int
):
    """A process keeps its copy of the store while no other wrote meanwhile. An import of
    lines without an audit trail adds no audit row and no conflict-log row, so those two
    sequences cannot tell: every plan written has a number that the tables record once
    they hold it, and that is what tells (a running owner missed such an import until it
    restarted)."""
    db = tmp_path / "store.duckdb"
    source = _import_file(tmp_path / "plain.jsonl", count, prefix="mplain")
    mine = Database(db)
    svc = MemoryService(mine, None)
    svc.remember("The billing team owns the invoice exporter")
    assert mine.get("mplain0") is None  # the copy is loaded
    mine.drain()  # and the journal empty: its size tells nothing either
    mine._lease.reset()  # let go of the file, as a handover does
    other = Database(db)
    report = MemoryService(other, None).import_lines(
        source.read_text(encoding="utf-8").splitlines()
    )
    assert {line.outcome.value for line in report.lines} == {"added"}
    assert not [e for e in other.audit(None) if e.memory_id.startswith("mplain")]
    other.close()  # the journal written into the tables and emptied, as before
    try:
        assert mine.get("mplain0") is not None
        assert mine.get(f"mplain{count - 1}") is not None
        found = Rendered(MemoryService(mine, None)).recall("ledger rounds", limit=100)
        assert len(found["memories"]) == count
    finally:
        mine.close()
