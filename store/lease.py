"""Sharing one DuckDB file between several server processes.

DuckDB lets one process open a file read-write and keeps every other process out, even
read-only. Opening costs ~15 ms and a held cursor ~0.4 ms (adr/0002), so a process keeps
the connection while nobody else needs it and hands it over the moment somebody does:

* ``<db>.lock`` (exclusive flock) — held by the process that has the database open.
* ``<db>.want`` (shared flock) — held by every process waiting for the database.

The holder checks ``.want`` after each call and every few milliseconds while idle; when
it cannot take it exclusively, somebody waits, so it closes the database and unlocks.
Locks die with their process, so a process killed with SIGKILL never blocks the others.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import duckdb

from store.errors import StoreBusy

__all__ = ["StoreLease"]

_POLL_S = 0.002
_IDLE_CHECK_S = 0.005


class StoreLease:
    """Process-wide access to one DuckDB file, shared fairly with other processes."""

    def __init__(
        self,
        db_path: Path,
        connect: Callable[[], duckdb.DuckDBPyConnection],
        wait_limit_s: float = 60.0,
    ) -> None:
        self._db_path = db_path
        self._connect = connect
        self._wait_limit_s = wait_limit_s
        self._mutex = threading.RLock()
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock_fd: int | None = None
        self._want_fd = os.open(f"{db_path}.want", os.O_RDWR | os.O_CREAT, 0o600)
        # A second open file description: flock on the same one would convert our own
        # shared "want" lock instead of testing for other processes' locks.
        self._probe_fd = os.open(f"{db_path}.want", os.O_RDWR)
        self._closed = False
        self._watcher: threading.Thread | None = None
        self._wake = threading.Event()
        self.handovers = 0

    # -- public ---------------------------------------------------------------------
    @contextmanager
    def cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A fresh cursor on the open database, held exclusively for the block."""
        with self._mutex:
            if self._closed:
                raise StoreBusy("the store has been closed")
            if self._con is None:
                self._acquire()
            assert self._con is not None
            cur = self._con.cursor()
            try:
                yield cur
            finally:
                with suppress(duckdb.Error):
                    cur.close()
                if self._someone_waits():
                    self._release()

    def reset(self) -> None:
        """Close the connection (for example after DuckDB invalidated it); the next call
        reopens the file."""
        with self._mutex:
            self._release()

    def swap_file(self, replacement: Path) -> None:
        """Replace the database file with ``replacement`` (a compacted copy) while this
        process holds the lock, then reopen it."""
        with self._mutex:
            if self._con is not None:
                self._con.close()
                self._con = None
            if Path(f"{self._db_path}.wal").exists():
                raise StoreBusy("the store's write-ahead log was not checkpointed")
            os.replace(replacement, self._db_path)
            dir_fd = os.open(self._db_path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
            self._con = self._connect()

    def close(self) -> None:
        with self._mutex:
            self._release()
            self._closed = True
            self._wake.set()
        for fd in (self._want_fd, self._probe_fd):
            with suppress(OSError):
                os.close(fd)

    # -- internals ------------------------------------------------------------------
    def _acquire(self) -> None:
        deadline = time.monotonic() + self._wait_limit_s
        fcntl.flock(self._want_fd, fcntl.LOCK_SH)
        try:
            lock_fd = os.open(f"{self._db_path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            while True:
                try:
                    fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        os.close(lock_fd)
                        raise StoreBusy(
                            "the store stayed locked by another process; try again"
                        ) from None
                    time.sleep(_POLL_S)
            try:
                self._con = self._connect()
            except BaseException:
                fcntl.flock(lock_fd, fcntl.LOCK_UN)
                os.close(lock_fd)
                raise
            self._lock_fd = lock_fd
        finally:
            fcntl.flock(self._want_fd, fcntl.LOCK_UN)
        self._start_watcher()

    def _release(self) -> None:
        if self._con is not None:
            try:
                self._con.close()
            except duckdb.Error as exc:  # a failed checkpoint leaves the WAL to replay
                print(f"anchormem: closing the store: {exc}", file=sys.stderr)
            self._con = None
            self.handovers += 1
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    def _someone_waits(self) -> bool:
        try:
            fcntl.flock(self._probe_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(self._probe_fd, fcntl.LOCK_UN)
        return False

    def _start_watcher(self) -> None:
        if self._watcher is not None and self._watcher.is_alive():
            return
        self._watcher = threading.Thread(
            target=self._watch_idle, name="anchormem-lease", daemon=True
        )
        self._watcher.start()

    def _watch_idle(self) -> None:
        # Hand the database over while this process is idle; a busy process hands it
        # over itself at the end of each call.
        while not self._closed:
            self._wake.wait(_IDLE_CHECK_S)
            if self._closed:
                return
            if self._con is None:
                return
            if not self._someone_waits():
                continue
            if self._mutex.acquire(blocking=False):
                try:
                    if self._con is not None:
                        self._release()
                        return
                finally:
                    self._mutex.release()
