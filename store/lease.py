"""Sharing one DuckDB file between several server processes.

DuckDB lets one process open a file read-write and keeps every other process out, even
read-only. Opening costs ~15 ms and a held cursor ~0.4 ms (adr/0002), so a process keeps
the connection while nobody else needs it and hands it over soon after somebody does:

* ``<db>.lock`` (exclusive lock) — held by the process that has the database open.
* ``<db>.want`` (shared lock) — held by every process waiting for the database.

The locks come from ``store.sharing.platform`` (flock, or what the system has instead).
Since adr/0012 one process, the store's owner, usually holds the store for all the
others; the lease still arbitrates whatever else opens the file (a process with
``ANCHORMEM_SHARE=0``, ``anchormem doctor``, an older anchormem).

The holder checks ``.want`` after each use, every few milliseconds while idle, and every
100 ms once unused for a second; when it cannot take it exclusively, somebody waits, so
it closes the database and unlocks — once it has had the database for ``_QUANTUM_S`` or
has not used it for ``_IDLE_S``. A
handover costs an open and a close (~15-20 ms) and one tool call uses the database a
dozen times: handing over after every use left four busy servers 4-5 calls/s between
them, against 13-30 now (adr/0002). After a handover, the process that let go leaves the
lock to a waiter before asking for it again (waiters poll, so it would win every race).
Locks die with their process, so a process killed with SIGKILL never blocks the others.

Stopping: the lease's owner passes an event (``stopping``) that it sets when the process
is stopping (``anchormem serve``: the first signal). From then on, calls that have not yet reached
the database, queued behind the one in flight or waiting for another process's lock,
fail at once with ``StoreBusy`` instead of running in turn, so the process stops within
a second however many calls were in flight. A refused call was never acknowledged; a
client that resends it gets the memory (or a duplicate) back.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import duckdb

from store.errors import StoreBusy
from store.safe_files import open_private
from store.sharing import platform

__all__ = ["STOPPING_MESSAGE", "StoreLease"]

STOPPING_MESSAGE = "the server is stopping; try again"

_POLL_S = 0.002
_IDLE_CHECK_S = 0.005
# A holder unused for _QUIET_AFTER_S looks every _QUIET_CHECK_S instead: looking 200 times a
# second would cost every idle owner a few percent of a core (adr/0017); a waiter waits at
# most 100 ms more for a store nobody is using.
_QUIET_AFTER_S = 1.0
_QUIET_CHECK_S = 0.100
_QUANTUM_S = 0.200  # keep the database this long after opening it, even when others wait
_IDLE_S = 0.050  # ... unless this process has not used it for this long
_YIELD_S = 0.020  # after a handover, how long to leave the lock to a waiting process
_PROBE_S = 0.001  # how often, at most, a holder asks whether another process waits


class StoreLease:
    """Process-wide access to one DuckDB file, shared fairly with other processes."""

    def __init__(
        self,
        db_path: Path,
        connect: Callable[[], duckdb.DuckDBPyConnection],
        wait_limit_s: float = 60.0,
        stopping: threading.Event | None = None,
    ) -> None:
        """``stopping``: set by the owner when the process stops (see the module's
        docstring); by default a private event that nothing sets."""
        self._db_path = db_path
        self._connect = connect
        self._wait_limit_s = wait_limit_s
        self.stopping = stopping if stopping is not None else threading.Event()
        self._mutex = threading.RLock()
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock_fd: int | None = None
        self._want_fd = open_private(f"{db_path}.want", os.O_RDWR | os.O_CREAT)
        # A second open file description: flock on the same one would convert our own
        # shared "want" lock instead of testing for other processes' locks.
        self._probe_fd = open_private(f"{db_path}.want", os.O_RDWR)
        self._closed = False
        self._watcher: threading.Thread | None = None
        self._watching = False  # a watcher runs and has not decided to stop (under mutex)
        self._wake = threading.Event()
        self._opened_at = 0.0
        self._last_used = 0.0
        self._handed_over_at: float | None = None
        self._probed_at = 0.0
        self.handovers = 0

    # -- public ---------------------------------------------------------------------
    @contextmanager
    def cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A fresh cursor on the open database, held exclusively for the block."""
        with self.hold() as con:
            cur = con.cursor()
            try:
                yield cur
            finally:
                with suppress(duckdb.Error):
                    cur.close()

    @contextmanager
    def hold(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The store held exclusively for the block, opened if need be: for reads of what
        this process already holds in memory, which need no cursor (the connection is
        given for a caller that needs one, and must not be kept)."""
        if self.stopping.is_set():
            raise StoreBusy(STOPPING_MESSAGE)
        with self._mutex:  # calls queued here while the process stops are refused too
            if self.stopping.is_set():
                raise StoreBusy(STOPPING_MESSAGE)
            if self._closed:
                raise StoreBusy("the store has been closed")
            if self._con is None:
                self._acquire()
            assert self._con is not None
            try:
                yield self._con
            finally:
                self._last_used = now = time.monotonic()
                # A call makes many short holds: ask whether someone waits (two flock
                # calls) at most once a millisecond.
                if now - self._opened_at >= _QUANTUM_S and now - self._probed_at >= _PROBE_S:
                    self._probed_at = now
                    if self._someone_waits():
                        self._hand_over()

    def is_open(self) -> bool:
        """Whether this process holds the database open now (using it costs no wait for
        another process)."""
        return self._con is not None

    def reset(self) -> None:
        """Close the connection (for example after DuckDB invalidated it); the next call
        reopens the file."""
        with self._mutex:
            self._release()

    def swap_file(self, replacement: Path) -> None:
        """Replace the database file with ``replacement`` (a compacted copy) while this
        process holds the lock, then reopen it."""
        with self._mutex:
            try:
                if self._con is not None:
                    con, self._con = self._con, None
                    con.close()  # a checkpoint, which may fail (a full disk)
                if Path(f"{self._db_path}.wal").exists():
                    raise StoreBusy("the store's write-ahead log was not checkpointed")
                os.replace(replacement, self._db_path)
                dir_fd = os.open(self._db_path.parent, os.O_RDONLY)
                try:
                    os.fsync(dir_fd)
                finally:
                    os.close(dir_fd)
                self._con = self._connect()
            except BaseException:
                # Closed (or failed to close: as in _release, the connection is dropped),
                # so unlock: held with nothing open, the lock would keep every process
                # out, this one too (its next call opens with a lock of its own).
                # Counted as a handover: another process may write before the reopen.
                self.handovers += 1
                self._release()
                raise

    def close(self) -> None:
        """Close the database, unlock, and end the idle watcher; later cursors are
        refused. Closing twice does nothing."""
        with self._mutex:
            if self._closed:
                return
            self._release()
            self._closed = True
            self._wake.set()
            # Under the mutex: the watcher only uses these descriptors holding it, having
            # checked ``_closed`` (a closed number may be reused by any later open).
            for fd in (self._want_fd, self._probe_fd):
                with suppress(OSError):
                    os.close(fd)
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=1.0)

    # -- internals ------------------------------------------------------------------
    def _acquire(self) -> None:
        deadline = time.monotonic() + self._wait_limit_s
        self._yield_to_waiter()
        platform.lock(self._want_fd, shared=True, blocking=True)
        try:
            lock_fd = open_private(f"{self._db_path}.lock", os.O_RDWR | os.O_CREAT)
            while True:
                if platform.lock(lock_fd):
                    break
                if self.stopping.is_set():
                    os.close(lock_fd)
                    raise StoreBusy(STOPPING_MESSAGE)
                if time.monotonic() > deadline:
                    os.close(lock_fd)
                    raise StoreBusy("the store stayed locked by another process; try again")
                time.sleep(_POLL_S)
            try:
                self._con = self._connect()
            except BaseException:  # not handled: the lock is released, then re-raised
                platform.unlock(lock_fd)
                os.close(lock_fd)
                raise
            self._lock_fd = lock_fd
            self._opened_at = time.monotonic()
        finally:
            platform.unlock(self._want_fd)
        self._start_watcher()

    def _hand_over(self) -> None:
        self._release()
        self._handed_over_at = time.monotonic()

    def _yield_to_waiter(self) -> None:
        """Right after a handover, leave the free lock to the process that asked for it."""
        if self._handed_over_at is None:
            return
        until = self._handed_over_at + _YIELD_S
        self._handed_over_at = None
        probe = open_private(f"{self._db_path}.lock", os.O_RDWR | os.O_CREAT)
        try:
            while time.monotonic() < until and self._someone_waits():
                if not platform.lock(probe):
                    return  # a waiter has it now
                platform.unlock(probe)
                time.sleep(_POLL_S)
        finally:
            os.close(probe)

    def _release(self) -> None:
        if self._con is not None:
            try:
                self._con.close()
            except duckdb.Error as exc:  # a failed checkpoint leaves the WAL to replay
                print(f"anchormem: closing the store: {exc}", file=sys.stderr)
            self._con = None
            self.handovers += 1
        if self._lock_fd is not None:
            platform.unlock(self._lock_fd)
            os.close(self._lock_fd)
            self._lock_fd = None

    def _someone_waits(self) -> bool:
        if not platform.lock(self._probe_fd):
            return True
        platform.unlock(self._probe_fd)
        return False

    def _start_watcher(self) -> None:
        # Holding the mutex. Not ``is_alive()`` alone: a watcher that has just decided to
        # stop is alive for a moment still, and the new session would be left without one.
        if self._watching and self._watcher is not None and self._watcher.is_alive():
            return
        self._watching = True
        self._watcher = threading.Thread(
            target=self._watch_idle, name="anchormem-lease", daemon=True
        )
        self._watcher.start()

    def _watch_idle(self) -> None:
        # Hand the database over while this process is idle; a busy process hands it
        # over itself at the end of each call (so a held mutex means: nothing to do).
        # Everything after the wait runs holding the mutex, so that close() cannot close
        # the descriptors between the check of ``_closed`` and their use.
        while True:
            quiet = time.monotonic() - self._last_used >= _QUIET_AFTER_S
            self._wake.wait(_QUIET_CHECK_S if quiet else _IDLE_CHECK_S)
            if not self._closed and self._too_soon():
                continue
            if not self._mutex.acquire(blocking=False):
                continue
            try:
                if self._closed or self._con is None:
                    self._watching = False
                    return
                if self._too_soon():
                    continue
                if self._someone_waits():
                    self._hand_over()
                    self._watching = False
                    return
            finally:
                self._mutex.release()

    def _too_soon(self) -> bool:
        """Whether it is too soon to hand over: the database was opened less than
        ``_QUANTUM_S`` ago and used less than ``_IDLE_S`` ago."""
        now = time.monotonic()
        return now - self._opened_at < _QUANTUM_S and now - self._last_used < _IDLE_S
