"""The write journal: each plan's effects appended to a file beside the store, written into
the tables later, many plans at once.

A DuckDB statement costs about a millisecond, an insert into the 27-column memories table
several, and every commit an fsync (adr/0009). A ``remember`` touches five or six tables, so
writing it where it belongs costs far more than the call's other work.
Appending its effects (``store.effects``) to ``<store>.journal`` costs one ``write``.

* **Durability.** An appended entry is in the operating system when ``append`` returns,
  so it survives the process being killed (SIGKILL, OOM, a crash). It is on the disk
  after ``fdatasync``: at once when ``sync_interval_s`` is 0, else within that interval
  (a background flush), like SQLite's ``synchronous=NORMAL``: a power cut may lose the
  last interval's writes, never the store.
* **Framing.** Each entry is ``AJ`` + length + CRC-32 + JSON. A torn entry at the end (a
  crash in the middle of a write) is cut off when the journal is next read; nothing
  before it is affected. A complete entry with a valid checksum is never cut off,
  whatever its length: the reader reads the file it has, and the writer appends no entry
  above ``MAX_ENTRY`` (``Database`` writes a larger plan into the tables before it is
  acknowledged; adr/0009, the entry-size addendum). JSON, with one tagged type, is all
  that is ever decoded: a hostile journal can be refused, never run.
* **Draining.** ``Database`` writes the entries into their tables in one transaction that
  also records the last entry written (``meta.journal_seq``), then empties the file; a
  crash between the two leaves entries that the next reader skips by their number. Only
  the process holding the store's lease reads, appends or empties the journal.
* **Kept.** The entries this object appended (or read) are kept in memory with the file's
  identity, size and change time after the last of them; while the file still has those,
  reading the entries costs no parse (adr/0009: parsing was half of a drain's time). A file
  changed by anything else is read again.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

from store.effects import Effects, decode_data, dumps, encode_data
from store.errors import StoreError
from store.safe_files import open_private

__all__ = ["BATCH", "MAX_ENTRY", "Entry", "Journal"]

# Entries kept before a call writes them into their tables. A served store writes them
# sooner, once it has been idle a moment (``Database.drain_idle``), so a call pays for a
# batch only in a long burst (adr/0009).
BATCH = 512
_HEAD = struct.Struct(">2sII")  # magic, payload length, CRC-32 of the payload
_MAGIC = b"AJ"
# The largest entry the writer appends. A plan is a few KB (the largest remember ~0.2 MB),
# so only an import of many memories or a sweeping consolidation comes near it; the
# journal saves those nothing (one call, not thousands), and every reader would hold a
# larger entry in memory twice over (its bytes and its rows): such a plan is written into
# the tables at once instead (``Database``). The reader has no such limit.
MAX_ENTRY = 4 * 1024 * 1024
_fdatasync = getattr(os, "fdatasync", os.fsync)  # macOS and Windows have only fsync


@dataclass(frozen=True)
class Entry:
    """One plan's effects; ``audit_seq`` and ``conflict_seq`` are the last sequence numbers
    once it is applied."""

    seq: int
    audit_seq: int
    conflict_seq: int
    effects: Effects


class Journal:
    def __init__(self, path: Path, sync_interval_s: float = 0.1) -> None:
        self.path = path
        self._sync_interval_s = sync_interval_s
        self._fd: int | None = None
        self._lock = threading.Lock()  # the descriptor, between callers and the flusher
        self._dirty = threading.Event()
        self._closed = threading.Event()
        self._flusher: threading.Thread | None = None
        # Every entry in the file, as appended or read, and the file's (inode, size,
        # change time) just after: None until the file is first read.
        self._kept: list[Entry] = []
        self._kept_as: tuple[int, int, int] | None = None

    # -- reading ---------------------------------------------------------------------------
    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def entries(self, after: int) -> list[Entry]:
        """The entries numbered above ``after``, oldest first. A torn entry at the end is
        cut off (the file is truncated to the entries before it). The file is parsed only
        if it is not as this object last left it."""
        with self._lock:
            if self._kept_as is not None and self._kept_as == _stamp(self.path):
                return [e for e in self._kept if e.seq > after]
            everything = self._read()
            self._kept, self._kept_as = everything, _stamp(self.path)
        return [e for e in everything if e.seq > after]

    def _read(self) -> list[Entry]:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        found: list[Entry] = []
        offset = 0
        while offset < len(data):
            parsed = _parse(data, offset)
            if parsed is None:
                after = _complete_entry_after(data, offset)
                if after is not None:
                    raise StoreError(
                        f"the store's write journal is damaged at byte {offset} (a complete"
                        f" entry follows at byte {after}); nothing was changed. Move the"
                        " store and its .journal aside, then report this"
                    )
                print(
                    f"anchormem: the write journal ends in a torn entry at byte {offset}"
                    " (a crash while writing it); it was never acknowledged, and is cut off",
                    file=sys.stderr,
                )
                os.truncate(self.path, offset)
                break
            entry, offset = parsed
            found.append(entry)
        return found

    # -- writing ---------------------------------------------------------------------------
    @staticmethod
    def record(entry: Entry) -> bytes:
        """``entry`` as the journal frames it (its length is what ``MAX_ENTRY`` bounds)."""
        payload = dumps(
            {
                "seq": entry.seq,
                "audit_seq": entry.audit_seq,
                "conflict_seq": entry.conflict_seq,
                "effects": encode_data(entry.effects),
            }
        ).encode()
        return _HEAD.pack(_MAGIC, len(payload), zlib.crc32(payload)) + payload

    def append(self, entry: Entry, record: bytes | None = None) -> int:
        """Append ``entry`` (framed as ``record``, if the caller framed it already); the
        journal's size after it."""
        if record is None:
            record = self.record(entry)
        with self._lock:
            fd = self._open()
            start = os.lseek(fd, 0, os.SEEK_END)
            before = _fstamp(fd)
            try:
                written = 0
                while written < len(record):
                    written += os.write(fd, record[written:])
                if self._sync_interval_s <= 0:
                    _fdatasync(fd)
            except OSError:
                # Nothing half-written may stay: the next entry would follow a torn one.
                os.ftruncate(fd, start)
                self._kept_as = None  # read the file again next time
                raise
            end = start + len(record)
            if self._kept_as == before or (self._kept_as == _ABSENT and start == 0):
                self._kept.append(entry)
                self._kept_as = _fstamp(fd)
            else:  # entries this object has not seen are in the file: read it next time
                self._kept, self._kept_as = [], None
        if self._sync_interval_s > 0:
            self._dirty.set()
            self._start_flusher()
        return end

    def clear(self) -> None:
        """Empty the journal (its entries are in the tables)."""
        with self._lock:
            fd = self._open()
            os.ftruncate(fd, 0)
            self._dirty.clear()
            self._kept, self._kept_as = [], _fstamp(fd)

    def sync(self) -> None:
        """Put what was appended on the disk. The sync runs outside the lock: an append
        meanwhile is not held up by the disk (it marks the journal dirty again, so the
        next interval syncs it); ``close`` waits for the flusher before closing."""
        with self._lock:
            fd = self._fd
            self._dirty.clear()
        if fd is not None:
            _fdatasync(fd)

    def close(self) -> None:
        self._closed.set()
        self._dirty.set()  # wake the flusher, which syncs what is left and ends
        flusher = self._flusher
        if flusher is not None and flusher is not threading.current_thread():
            flusher.join(timeout=5.0)
        with self._lock:
            if self._fd is not None:
                try:
                    _fdatasync(self._fd)
                finally:
                    os.close(self._fd)
                    self._fd = None

    def _open(self) -> int:
        if self._fd is None:
            # never through a planted link, never a FIFO or another user's file
            self._fd = open_private(self.path, os.O_RDWR | os.O_CREAT)
        return self._fd

    def _start_flusher(self) -> None:
        if self._flusher is not None or self._closed.is_set():
            return
        self._flusher = threading.Thread(
            target=self._flush_loop, name="anchormem-journal-sync", daemon=True
        )
        self._flusher.start()

    def _flush_loop(self) -> None:
        while not self._closed.is_set():
            self._dirty.wait()
            self._closed.wait(self._sync_interval_s)  # gather the writes of an interval
            try:
                self.sync()
            except OSError as exc:  # reported; the next drain or close syncs again
                print(f"anchormem: the write journal could not be synced: {exc}", file=sys.stderr)


_ABSENT = (-1, 0, 0)  # the stamp of no file: one created empty since holds nothing unseen


def _stamp(path: Path) -> tuple[int, int, int]:
    try:
        return _as_stamp(path.stat())
    except FileNotFoundError:
        return _ABSENT


def _fstamp(fd: int) -> tuple[int, int, int]:
    return _as_stamp(os.fstat(fd))


def _as_stamp(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _parse(data: bytes, offset: int) -> tuple[Entry, int] | None:
    """The entry at ``offset`` and the offset after it, or None if it is the last one and
    torn. Damage anywhere else is an error: cutting there would lose the entries after it."""
    end = offset + _HEAD.size
    if end > len(data):
        return None
    magic, length, crc = _HEAD.unpack_from(data, offset)
    if magic == _MAGIC and end + length > len(data):
        return None  # cut short: the write did not finish
    payload = data[end : end + length]
    if magic != _MAGIC or zlib.crc32(payload) != crc:
        if end + length >= len(data):
            return None  # the last entry, damaged by the crash that interrupted it
        raise StoreError(
            f"the store's write journal is damaged at byte {offset} (entries follow it);"
            " nothing was changed. Move the store and its .journal aside, then report this"
        )
    try:
        item = json.loads(payload)
        entry = Entry(
            int(item["seq"]),
            int(item["audit_seq"]),
            int(item["conflict_seq"]),
            decode_data(item["effects"]),
        )
    except (ValueError, TypeError, KeyError) as exc:
        # Framed and checksummed, yet not an entry: not a crash, so never cut off silently.
        raise StoreError(
            f"the store's write journal holds an entry anchormem did not write (byte"
            f" {offset}): {exc}; nothing was changed"
        ) from exc
    return entry, end + length


def _complete_entry_after(data: bytes, offset: int) -> int | None:
    """Where a complete entry with a valid checksum starts after ``offset``, if one does.
    Only the end of the file can be torn (an append follows only a file read whole), so
    an entry that runs past the end with a complete one after it is damage, never a crash.
    The search is cheap: a payload is JSON, whose bytes are all at least 0x20, so an ``AJ``
    inside one reads as a length past the end of any journal and is passed over."""
    at = data.find(_MAGIC, offset + 1)
    while at != -1 and at + _HEAD.size <= len(data):
        _, length, crc = _HEAD.unpack_from(data, at)
        end = at + _HEAD.size + length
        if end <= len(data) and zlib.crc32(data[at + _HEAD.size : end]) == crc:
            return at
        at = data.find(_MAGIC, at + 1)
    return None
