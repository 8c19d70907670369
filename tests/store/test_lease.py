"""The lease on its own (store/lease.py): one DuckDB file shared between processes.

Real files in tmp_path, real DuckDB connections, real flocks; where the behaviour is about
another process, a real second process (a short ``python -c``) takes part: a lease of its
own, or a bare flock on one of the lease's files. Each test takes well under a second
except those that start a child with DuckDB in it (~0.2 s each).

Note that in one process DuckDB hands every ``duckdb.connect`` of a path the same
database, so whether the file is really closed is seen from its ``.lock`` (free) and its
write-ahead log (checkpointed away), not from a second connection in the test.
"""

from __future__ import annotations

import fcntl
import json
import linecache
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import duckdb
import pytest

from store.errors import StoreBusy
from store.lease import STOPPING_MESSAGE, StoreLease
from tests.conftest import settings_env

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 60


# -- helpers ----------------------------------------------------------------------------
@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "store.duckdb"


@pytest.fixture
def make_lease(db: Path) -> Iterator[Callable[..., StoreLease]]:
    """``make_lease(**kw)``: a lease on ``db`` that connects with ``duckdb.connect``,
    closed when the test ends."""
    made: list[StoreLease] = []

    def make(**kw: Any) -> StoreLease:
        lease = StoreLease(db, lambda: duckdb.connect(str(db)), **kw)
        made.append(lease)
        return lease

    yield make
    for lease in made:
        lease.close()


def locked(path: Path, mode: int = fcntl.LOCK_EX) -> bool:
    """Whether some open file description (this process's lease, or another process)
    holds a flock on ``path`` that conflicts with ``mode``."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def lock_of(db: Path) -> Path:
    return Path(f"{db}.lock")


def want_of(db: Path) -> Path:
    return Path(f"{db}.want")


def rows(lease: StoreLease, sql: str = "SELECT who FROM t ORDER BY who") -> list[Any]:
    with lease.cursor() as cur:
        return [r[0] for r in cur.execute(sql).fetchall()]


def wait_for(condition: Callable[[], bool], failure: str) -> None:
    """Return once ``condition()`` holds; fail with ``failure`` after CHILD_TIMEOUT_S (a
    safety net, not a bound on how long it may take)."""
    deadline = time.monotonic() + CHILD_TIMEOUT_S
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.002)


class Calls:
    count = 0


def count_calls(lease: StoreLease, method: str) -> Calls:
    """Count the calls of one of ``lease``'s methods from now on; each still runs."""
    calls = Calls()
    real = getattr(lease, method)

    def counted(*args: Any) -> Any:
        calls.count += 1
        return real(*args)

    setattr(lease, method, counted)
    return calls


def _on_the_mutex(thread: threading.Thread) -> bool:
    """Whether ``thread`` is waiting for the lease's mutex (in ``StoreLease.hold``)."""
    frame = sys._current_frames().get(thread.ident or 0)
    while frame is not None:
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        if frame.f_code.co_name == "hold" and line.startswith("with self._mutex:"):
            return True
        frame = frame.f_back
    return False


def use(lease: StoreLease) -> None:
    """One call that reaches the database (or is refused before it)."""
    with lease.cursor() as cur:
        cur.execute("SELECT 1")


def swap(lease: StoreLease, replacement: Path) -> None:
    with lease.cursor():  # as db.py does: holding the lease
        lease.swap_file(replacement)


CHILD_LEASE = """
import json, os, sys, time
from pathlib import Path
import duckdb
from store.lease import StoreLease
DB = Path(sys.argv[1])
lease = StoreLease(DB, lambda: duckdb.connect(str(DB)), wait_limit_s=float(sys.argv[2]))
"""


def child_lease(db: Path, code: str, wait_limit_s: float = 10.0, **popen: Any) -> Any:
    """Another process with a lease of its own on ``db``, running ``code``."""
    return subprocess.Popen(
        [sys.executable, "-c", CHILD_LEASE + textwrap.dedent(code), str(db), str(wait_limit_s)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def finished(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=CHILD_TIMEOUT_S)
    assert proc.returncode == 0, err
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


HOLD_A_FLOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX if sys.argv[2] == "ex" else fcntl.LOCK_SH)
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin
"""


class FlockHolder:
    """Another process holding a flock on ``path`` until ``release()``."""

    def __init__(self, path: Path, mode: str = "ex") -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLD_A_FLOCK, str(path), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline().strip() == "held"

    def release(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=CHILD_TIMEOUT_S)


@pytest.fixture
def holders() -> Iterator[Callable[..., FlockHolder]]:
    made: list[FlockHolder] = []

    def hold(path: Path, mode: str = "ex") -> FlockHolder:
        made.append(FlockHolder(path, mode))
        return made[-1]

    yield hold
    for holder in made:
        if holder.proc.poll() is None:
            holder.proc.kill()
            holder.proc.wait()


# -- holding the database ---------------------------------------------------------------
def test_a_cursor_opens_the_file_and_holds_the_lock_exclusively(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    lease = make_lease()
    assert not db.exists() and not locked(lock_of(db))  # nothing opened before first use
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
        cur.execute("INSERT INTO t VALUES ('parent')")
        assert db.exists()
        assert locked(lock_of(db))  # exclusively: not even a shared lock is granted
        assert locked(lock_of(db), fcntl.LOCK_SH)
    # Nobody waits: the process keeps the database open (and locked) between uses. Its
    # watcher, idle past _IDLE_S, asked whether anyone waits, and kept the database.
    asked = count_calls(lease, "_someone_waits")
    wait_for(lambda: asked.count >= 3, "the watcher never asked whether anyone waits")
    assert locked(lock_of(db))
    assert lease.handovers == 0
    assert rows(lease) == ["parent"]
    # The lease is not waiting for anybody: its shared "want" lock is not held.
    assert not locked(want_of(db))


def test_a_second_process_cannot_open_the_file_while_the_lease_holds_it(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    """What the lock stands for: DuckDB itself keeps any other process out."""
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    done = subprocess.run(
        [sys.executable, "-c", "import duckdb, sys; duckdb.connect(sys.argv[1])", str(db)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
    )
    assert done.returncode != 0 and "lock" in done.stderr.lower(), done.stderr


def test_an_idle_holder_hands_the_database_to_a_waiting_process(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    # This process stays idle: its watcher hands over within _IDLE_S (+ _IDLE_CHECK_S)
    # of the last use once somebody waits, without any further call here.
    child = child_lease(
        db,
        """
        print("waiting", flush=True)
        started = time.monotonic()
        with lease.cursor() as cur:
            waited = time.monotonic() - started
            cur.execute("INSERT INTO t VALUES ('child')")
        lease.close()
        print(json.dumps({"waited": waited}))
        """,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "waiting"
    # No call here: only the watcher can hand over. (Without it the other process would
    # wait out its 10 s limit, then fail: ``finished`` checks that it exited 0.)
    wait_for(lambda: lease.handovers > 0, "the idle holder never handed over")
    out = finished(child)
    print(f"\nidle holder: the other waited {out['waited'] * 1000:.0f} ms")
    assert lease.handovers == 1
    assert not locked(lock_of(db))  # handed over, and not taken back unasked
    assert rows(lease) == ["child"]  # the next use reopens and sees the other's write
    assert locked(lock_of(db))
    assert lease.handovers == 1  # reopening is not a handover


def test_a_busy_holder_hands_over_at_the_end_of_a_call_after_its_quantum(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    """A process using the database without pause still lets a waiter in: when a call
    ends after the lease has had the database for _QUANTUM_S and somebody waits."""
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    child = child_lease(
        db,
        """
        started = time.monotonic()
        with lease.cursor() as cur:
            waited = time.monotonic() - started
            cur.execute("INSERT INTO t VALUES ('child')")
        lease.close()
        print(json.dumps({"waited": waited}))
        """,
    )
    calls = 0
    deadline = time.monotonic() + CHILD_TIMEOUT_S
    while child.poll() is None and time.monotonic() < deadline:
        with lease.cursor() as cur:  # never idle: only the end of a call hands over
            cur.execute("SELECT count(*) FROM t").fetchall()
        calls += 1
    # The waiter got in (within its 10 s limit: ``finished`` checks that it exited 0)
    # while this process called without pause.
    out = finished(child)
    print(f"\nbusy holder ({calls} calls): the waiter waited {out['waited'] * 1000:.0f} ms")
    assert lease.handovers >= 1 and calls > 1
    assert rows(lease) == ["child"]


def test_each_handover_is_counted(db: Path, make_lease: Callable[..., StoreLease]) -> None:
    """``handovers`` changes whenever this process closed the database (so another may
    have written since): db.py's read caches depend on it."""
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    for n in (1, 2):
        finished(
            child_lease(
                db,
                f"""
                with lease.cursor() as cur:
                    cur.execute("INSERT INTO t VALUES ('child {n}')")
                lease.close()
                print("{{}}")
                """,
            )
        )
        assert lease.handovers == n
        assert rows(lease)[-1] == f"child {n}"


def test_waiting_past_the_wait_limit_fails_with_store_busy(
    db: Path, make_lease: Callable[..., StoreLease], holders: Callable[..., FlockHolder]
) -> None:
    holder = holders(lock_of(db))
    lease = make_lease(wait_limit_s=2)
    refused: list[StoreBusy] = []

    def call() -> None:
        with pytest.raises(StoreBusy) as raised:
            use(lease)
        refused.append(raised.value)

    caller = threading.Thread(target=call)
    caller.start()
    wait_for(lambda: locked(want_of(db)) or not caller.is_alive(), "the call never waited")
    assert caller.is_alive()  # it waits, counted as a waiter, rather than failing at once
    caller.join(CHILD_TIMEOUT_S)
    assert [str(e) for e in refused] == ["the store stayed locked by another process; try again"]
    assert not db.exists()  # never opened
    assert not locked(want_of(db))  # no longer counted as waiting
    # Once the other process lets go, the same lease opens the file.
    holder.release()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    assert locked(lock_of(db))


def test_a_waiting_process_holds_the_want_lock_until_it_gets_the_database(
    db: Path, make_lease: Callable[..., StoreLease], holders: Callable[..., FlockHolder]
) -> None:
    """What the holder sees of a waiter: a shared lock on ``.want``."""
    holder = holders(lock_of(db))
    lease = make_lease(wait_limit_s=10)
    got_it = threading.Event()

    def use() -> None:
        with lease.cursor():
            got_it.set()

    user = threading.Thread(target=use)
    user.start()
    wait_for(lambda: locked(want_of(db)), "the call never waited")
    assert not got_it.is_set()
    holder.release()
    user.join(5)
    assert got_it.is_set() and not locked(want_of(db))


def test_a_holder_killed_with_sigkill_never_blocks_the_others(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    child = child_lease(
        db,
        """
        with lease.cursor() as cur:
            cur.execute("CREATE TABLE t (who VARCHAR)")
            cur.execute("INSERT INTO t VALUES ('killed')")
            print("held", flush=True)
            time.sleep(600)  # killed here, holding the database, its WAL not checkpointed
        """,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        assert locked(lock_of(db))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=CHILD_TIMEOUT_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    lease = make_lease(wait_limit_s=0)  # no wait: the lock must be free at the first try
    assert rows(lease) == ["killed"]  # the lock died with it; DuckDB replayed its WAL


# -- reset, close, swap_file ------------------------------------------------------------
def test_reset_closes_the_database_and_the_next_use_reopens_it(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
        cur.execute("INSERT INTO t VALUES ('before reset')")
    assert Path(f"{db}.wal").exists()
    lease.reset()
    assert not locked(lock_of(db))
    assert not Path(f"{db}.wal").exists()  # closed: DuckDB checkpointed its log
    assert lease.handovers == 1
    assert rows(lease) == ["before reset"]
    assert locked(lock_of(db))
    lease.reset()
    lease.reset()  # nothing open: nothing to do, nothing counted
    assert lease.handovers == 2


def test_close_releases_the_file_and_refuses_further_cursors(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
    lease.close()
    assert not locked(lock_of(db))
    assert not Path(f"{db}.wal").exists()
    with pytest.raises(StoreBusy, match=r"^the store has been closed$"):
        use(lease)
    assert not locked(lock_of(db))  # the refused call opened nothing
    lease.close()  # a second close does nothing (and closes no reused descriptor)
    assert lease._watcher is not None and not lease._watcher.is_alive()


def test_swap_file_replaces_the_file_and_reopens_it(
    db: Path, tmp_path: Path, make_lease: Callable[..., StoreLease]
) -> None:
    lease = make_lease()
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
        cur.execute("INSERT INTO t VALUES ('old file')")
    fresh = tmp_path / "store.duckdb.compact"
    con = duckdb.connect(str(fresh))
    con.execute("CREATE TABLE t (who VARCHAR)")
    con.execute("INSERT INTO t VALUES ('new file')")
    con.close()
    fresh_bytes = fresh.read_bytes()
    with lease.cursor():  # as db.py does: holding the lease
        lease.swap_file(fresh)
        assert locked(lock_of(db))  # never unlocked: no other process slips in between
    assert not fresh.exists()
    assert rows(lease) == ["new file"]
    lease.close()
    assert db.read_bytes() == fresh_bytes  # nothing written since: the same file


@pytest.mark.parametrize("failure", ["wal-left", "replacement-does-not-open"])
def test_a_failed_swap_unlocks_and_the_next_use_reopens(
    db: Path, tmp_path: Path, make_lease: Callable[..., StoreLease], failure: str
) -> None:
    """A swap that fails must not leave the lock held with the database closed: this
    process's next call would wait for its own lock (the wait limit, then StoreBusy), and
    every other process with it."""
    lease = make_lease(wait_limit_s=0.5)
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE t (who VARCHAR)")
        cur.execute("INSERT INTO t VALUES ('kept')")
        cur.execute("CHECKPOINT")
    fresh = tmp_path / "store.duckdb.compact"
    if failure == "wal-left":
        fresh.write_bytes(b"never used")
        # A log DuckDB did not checkpoint on close (e.g. a full disk): 5 stray bytes,
        # which DuckDB skips on the next open (a truncated log).
        Path(f"{db}.wal").write_bytes(b"stray")
        with pytest.raises(StoreBusy, match="write-ahead log was not checkpointed"):
            swap(lease, fresh)
        assert fresh.exists()  # not moved in
        expected = ["kept"]
    else:
        fresh.write_bytes(b"not a DuckDB file at all" * 100)
        with pytest.raises(duckdb.Error, match="not a valid DuckDB database file"):
            swap(lease, fresh)
        Path(db).unlink()  # what db.py's recovery would move aside; here: start afresh
        expected = []
    assert not locked(lock_of(db))
    # Reopened at once (before the fix: the wait limit, then "stayed locked by another
    # process", this process's own lock being the one held).
    with lease.cursor() as cur:
        cur.execute("CREATE TABLE IF NOT EXISTS t (who VARCHAR)")
    assert rows(lease) == expected


# -- stopping ---------------------------------------------------------------------------
def test_once_stopping_a_new_cursor_fails_at_once(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    stopping = threading.Event()
    lease = make_lease(stopping=stopping)
    assert lease.stopping is stopping
    stopping.set()
    with pytest.raises(StoreBusy, match=r"^the server is stopping; try again$"):
        use(lease)
    assert STOPPING_MESSAGE == "the server is stopping; try again"
    assert not db.exists()  # refused before reaching the database


def test_calls_queued_behind_the_one_in_flight_fail_when_stopping(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    stopping = threading.Event()
    lease = make_lease(stopping=stopping)
    in_flight, finish = threading.Event(), threading.Event()
    outcomes: list[str] = []

    def first() -> None:
        with lease.cursor() as cur:
            in_flight.set()
            finish.wait(5)
            cur.execute("CREATE TABLE t (who VARCHAR)")
        outcomes.append("first done")

    def queued() -> None:
        try:
            with lease.cursor():
                outcomes.append("queued ran")
        except StoreBusy as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert in_flight.wait(5)
    threads += [threading.Thread(target=queued) for _ in range(3)]
    for t in threads[1:]:
        t.start()
    # They wait for the mutex the first call holds.
    wait_for(lambda: all(_on_the_mutex(t) for t in threads[1:]), "a call never queued")
    stopping.set()
    finish.set()
    for t in threads:
        t.join(5)
    # The call that had reached the database finished; the queued ones never ran.
    assert sorted(outcomes) == ["first done", *[STOPPING_MESSAGE] * 3]


def test_a_call_waiting_for_another_process_stops_waiting_when_stopping(
    db: Path, make_lease: Callable[..., StoreLease], holders: Callable[..., FlockHolder]
) -> None:
    holders(lock_of(db))
    stopping = threading.Event()
    lease = make_lease(wait_limit_s=30, stopping=stopping)
    refused: list[StoreBusy] = []

    def call() -> None:
        with pytest.raises(StoreBusy) as raised:
            use(lease)
        refused.append(raised.value)

    caller = threading.Thread(target=call)
    caller.start()
    wait_for(lambda: locked(want_of(db)) or not caller.is_alive(), "the call never waited")
    stopping.set()
    caller.join(CHILD_TIMEOUT_S)
    # Refused as stopping, not as having waited out its 30 s limit.
    assert [str(e) for e in refused] == [STOPPING_MESSAGE]
    assert not locked(want_of(db))


def test_stopping_belongs_to_its_owner_not_to_the_process(
    db: Path, tmp_path: Path, make_lease: Callable[..., StoreLease]
) -> None:
    """No process-wide state: one owner stopping leaves other leases working, and each
    lease without an owner's event has one of its own."""
    stopped = make_lease()
    other_db = tmp_path / "other.duckdb"
    other = StoreLease(other_db, lambda: duckdb.connect(str(other_db)))
    try:
        stopped.stopping.set()
        assert other.stopping is not stopped.stopping
        with other.cursor() as cur:
            assert cur.execute("SELECT 42").fetchone() == (42,)
        with pytest.raises(StoreBusy, match="stopping"):
            use(stopped)
    finally:
        other.close()


def test_the_runtime_owns_the_stop_signal_of_its_store(tmp_path: Path) -> None:
    """``open_runtime(settings, stopping)`` (what the server's lifespan does with the event
    serve() made before any signal could come): setting it refuses the store's calls."""
    from server.config import Settings
    from server.runtime import open_runtime

    stopping = threading.Event()
    settings = Settings.resolve(db=str(tmp_path / "rt.duckdb"), env=settings_env(), cwd=tmp_path)
    assert settings.repo is None
    rt = open_runtime(settings, stopping)
    try:
        assert rt.stopping is stopping
        with rt.db.read() as cur:
            cur.execute("SELECT 1")
        stopping.set()
        with pytest.raises(StoreBusy, match="stopping"), rt.db.read():
            pass
    finally:
        rt.close()
    assert not locked(lock_of(tmp_path / "rt.duckdb"))
    cli_run = open_runtime(settings)  # as the CLI does: a fresh event, nobody sets it
    try:
        assert cli_run.stopping is not stopping and not cli_run.stopping.is_set()
        with cli_run.db.read() as cur:
            cur.execute("SELECT 1")
    finally:
        cli_run.close()


# -- close and the idle watcher ---------------------------------------------------------
def test_close_never_closes_the_descriptors_under_the_idle_watcher(
    db: Path, make_lease: Callable[..., StoreLease]
) -> None:
    """The race behind the EBADF warning: the watcher checked ``_closed``, then close()
    closed the ``.want`` descriptors, then the watcher flocked one (EBADF; or, had the
    number been reused meanwhile, some other file). The watcher is paused right where it
    probes, close() runs in another thread, then the watcher goes on."""
    at_probe, go_on = threading.Event(), threading.Event()

    def pause_at_probe(frame: FrameType, event: str, arg: Any) -> None:
        if (
            event == "call"
            and frame.f_code.co_name == "_someone_waits"
            and threading.current_thread().name == "anchormem-lease"
            and not at_probe.is_set()
        ):
            at_probe.set()
            go_on.wait(5)

    failures: list[BaseException | None] = []
    previous_hook = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)
    try:
        lease = make_lease()
        threading.settrace(pause_at_probe)  # traces the threads started from now on
        try:
            with lease.cursor():
                pass  # starts the watcher
        finally:
            threading.settrace(None)  # type: ignore[arg-type]
        assert at_probe.wait(5)  # idle for _IDLE_S: the watcher looks for waiters
        closer = threading.Thread(target=lease.close)
        closer.start()
        closer.join(0.2)  # close() must not get as far as closing the descriptors...
        go_on.set()  # ...while the watcher is about to use them
        closer.join(5)
        assert not closer.is_alive()
        watcher = lease._watcher
        assert watcher is not None
        watcher.join(5)
        assert not watcher.is_alive()
    finally:
        threading.excepthook = previous_hook
    assert failures == []
    assert not locked(lock_of(db))


def test_close_ends_the_watcher(db: Path, make_lease: Callable[..., StoreLease]) -> None:
    lease = make_lease()
    with lease.cursor():
        pass
    watcher = lease._watcher
    assert watcher is not None and watcher.is_alive()
    lease.close()
    assert not watcher.is_alive()  # close() returns with no thread of the lease left


def test_a_watcher_that_is_stopping_does_not_leave_the_next_session_without_one(
    db: Path, make_lease: Callable[..., StoreLease], holders: Callable[..., FlockHolder]
) -> None:
    """The watcher stops once the database is closed (here: reset()). Should the file be
    reopened while that thread is still finishing, the new session needs a watcher of its
    own, or this process, idle, would keep the database from every waiter. The old
    watcher is paused on its way out while the next call reopens the file."""
    at_exit, go_on = threading.Event(), threading.Event()

    def pause_on_exit(frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call" or frame.f_code.co_name != "_watch_idle":
            return None

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "return" and not at_exit.is_set():
                at_exit.set()
                go_on.wait(5)
            return local

        return local

    lease = make_lease()
    threading.settrace(pause_on_exit)
    try:
        use(lease)
        lease.reset()  # the watcher sees the database closed and stops...
        assert at_exit.wait(5)  # ...and is paused, still alive, on its way out
        use(lease)  # reopens: a new session
    finally:
        threading.settrace(None)  # type: ignore[arg-type]
        go_on.set()
    holders(want_of(db), "sh")  # somebody waits (a waiter holds .want shared)
    wait_for(lambda: not locked(lock_of(db)), "the idle process kept the database from a waiter")
    assert lease.handovers == 2
