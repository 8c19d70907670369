"""DuckDB persistence: one store file, read through this process's copy of it, written one
plan per transaction.

It decides nothing. ``apply`` writes a ``Plan`` (made by the policy modules) in one
transaction: the guards of its status changes are checked first, and a plan whose guards
no longer hold is refused whole (``StalePlan``). A plan's rows go into the write journal
(one statement) and reach their tables in batches (``store.journal``); a forget, and a
plan too large for one journal entry (``journal.MAX_ENTRY``), is written into the tables
at once. Every plan written has a number, which the tables record once they hold it
(``meta.journal_seq``). Reads are answered from the ``Mirror``, which is loaded once and
kept current by applying each committed plan to it.
"""

from __future__ import annotations

import dataclasses
import errno
import os
import secrets
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path

import duckdb

from store.backend import FaultHook, Store, utcnow
from store.effects import Effects, execute
from store.errors import StoreError, StoreUnavailable
from store.journal import BATCH, MAX_ENTRY, Entry, Journal
from store.lease import StoreLease
from store.mirror import Mirror
from store.model import MemoryCheck
from store.plan import Plan, VerdictRecord
from store.recovery import damaged_part, is_a_store, move_aside
from store.rows import check_from_json
from store.safe_files import check_store_files
from store.schema import check_catalog, migrate
from store.writes import PlanWriter, check_guards, write_forgets, write_verdicts

__all__ = ["Database", "FaultHook", "utcnow"]


def connect_locked_down(path: Path) -> duckdb.DuckDBPyConnection:
    """Open the store file with DuckDB able to touch no other file, load no extension,
    and change neither later: a store file is data, never a program (adr/0022). The one
    file it may attach is the store's own rewrite (``Database._compact``)."""
    con = duckdb.connect(
        str(path),
        config={
            "autoload_known_extensions": False,
            "autoinstall_known_extensions": False,
            "allow_community_extensions": False,
            # the rows a plan writes are scanned from Python values: every one is looked
            # at for its type (store.effects), not a sample that a rare value escapes
            "pandas_analyze_sample": 1 << 62,
        },
    )
    try:
        fresh = f"{path}.compact"
        # Settable only once the database runs, so set here, then locked with the rest.
        con.execute("SET allowed_paths = ?", [[fresh, f"{fresh}.wal", f"{fresh}.wal.checkpoint"]])
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _private(path: Path) -> None:
    """The store and its WAL are this user's alone (DuckDB creates them with the umask)."""
    for part in (path, Path(f"{path}.wal")):
        with suppress(OSError):
            mode = os.stat(part, follow_symlinks=False).st_mode
            if stat.S_ISREG(mode) and mode & 0o077:
                os.chmod(part, 0o600)


class Database(Store):
    """One DuckDB store file, shared with other processes through a ``StoreLease``."""

    def __init__(
        self,
        path: Path,
        wait_limit_s: float = 60.0,
        fault: FaultHook | None = None,
        stopping: threading.Event | None = None,
        sync_interval_s: float = 0.1,
    ) -> None:
        """``stopping``: the owner's stop signal (``server.runtime.Runtime.stopping``):
        once set, calls that have not reached the store yet are refused at once.
        ``sync_interval_s``: how soon a write reaches the disk (``store.journal``; 0: before
        it is acknowledged)."""
        self.path = path
        if not path.parent.is_dir():
            raise StoreUnavailable(
                f"the directory for the store does not exist: {path.parent.name or path.parent}"
            )
        # Before the lease creates them: a ``.lock`` file means anchormem has opened this
        # file before, so a file that fails to open is a damaged store (store/recovery).
        self._opened_before = Path(f"{path}.lock").exists()
        self._fault = fault
        self._mirror: Mirror | None = None
        # What this process last knew of the file: the last audit and conflict-log
        # sequence numbers in the tables, the number of the last plan the tables hold, and
        # the journal's size. Every plan is appended to the journal (its size changes) or
        # written into the tables with its number (a drain, a forget, a large plan), so when
        # the file is opened again and all four are unchanged, no other process wrote
        # meanwhile. The audit and conflict-log numbers alone cannot tell: an import of
        # lines without an audit trail adds rows to neither.
        self._known: tuple[int, int, int, int] = (-1, -1, -1, -1)
        self._journal = Journal(Path(f"{path}.journal"), sync_interval_s)
        self._journaled = 0  # entries in the journal, not yet in their tables
        self._journal_seq = 0  # the last entry's number
        self._drained_seq = 0  # the last entry written into the tables (meta)
        self._lease = StoreLease(path, self._connect, wait_limit_s=wait_limit_s, stopping=stopping)
        self.transactions = 0  # write transactions this process committed (benchmarks)
        self._pending: tuple[VerdictRecord, ...] = ()  # verdicts not yet written
        self.compact_pending = False  # a forget's rewrite of the file is still owed
        with self._lease.cursor():
            pass  # opens the file and applies migrations, or refuses a newer store
        if self.compact_pending:
            self._compact()

    def _connect(self) -> duckdb.DuckDBPyConnection:
        check_store_files(self.path)  # DuckDB would follow a link to the store or its WAL
        # A file DuckDB creates now holds nothing anyone else made: its catalog is not
        # searched for what could run (the folder is this user's alone).
        made_here = not any(os.path.lexists(p) for p in (self.path, f"{self.path}.wal"))
        for _attempt in range(3):  # a damaged WAL, then a damaged main file, at most
            try:
                con = connect_locked_down(self.path)
                break
            except duckdb.Error as exc:
                part = damaged_part(str(exc))
                if part == "main" and not is_a_store(self.path, self._opened_before):
                    part = None
                if part is None:
                    raise StoreUnavailable(
                        f"cannot open the store {self.path.name}: {exc}"
                    ) from exc
                move_aside(self.path, part, str(exc))  # never deleted; see store/recovery
        else:
            raise StoreUnavailable(f"cannot open the store {self.path.name}: still damaged")
        try:
            if not made_here:
                check_catalog(con)
            migrate(con)
            known = self._tables(con)
            _private(self.path)
        except BaseException:
            con.close()
            raise
        if known != self._known:
            self._mirror = None  # another process wrote while it held the store
        return con

    def _tables(self, cur: duckdb.DuckDBPyConnection) -> tuple[int, int, int, int]:
        """(last audit seq, last conflict seq, last plan in the tables, journal size); the
        last also kept as ``_drained_seq``."""
        rows = cur.execute(
            "SELECT (SELECT coalesce(max(seq), 0) FROM audit),"
            " (SELECT coalesce(max(seq), 0) FROM conflict_log),"
            " (SELECT value FROM meta WHERE key = 'journal_seq'),"
            " (SELECT value FROM meta WHERE key = 'compact_pending')"
        ).fetchall()  # all of it: a result left open keeps its transaction open
        audit_seq, conflict_seq, drained, pending = rows[0]
        self._drained_seq = int(drained or 0)
        self.compact_pending = pending is not None
        return int(audit_seq), int(conflict_seq), self._drained_seq, self._journal.size()

    def close(self) -> None:
        if self._pending or self._journaled or self._journal.size():
            # The journal stays for the next process to write if this fails: nothing is
            # lost; pending verdicts are only a cache (the next read computes them again).
            with suppress(StoreError, OSError):
                self.drain()
        if self.compact_pending:
            with suppress(StoreError):
                self._compact()
        self._journal.close()
        self._lease.close()

    # -- access ---------------------------------------------------------------------------
    @contextmanager
    def _session(self) -> Iterator[tuple[Mirror, duckdb.DuckDBPyConnection]]:
        """This process's current copy of the store and a cursor, holding the store for
        the block (no other process can write meanwhile)."""
        with self._lease.cursor() as cur:
            try:
                if self._mirror is None:
                    self._mirror = self._load(cur)
                yield self._mirror, cur
            except duckdb.Error as exc:
                self._on_error(exc)
                raise StoreError(f"the store could not answer: {_why(exc)}") from exc

    def _load(self, cur: duckdb.DuckDBPyConnection) -> Mirror:
        """The copy: the tables, with the journal's entries applied in a transaction that
        is rolled back (reading changes nothing, so a process whose copy is current keeps
        it, and a full disk does not stop the reads)."""
        known = self._tables(cur)
        entries = self._journal.entries(after=self._drained_seq)
        self._journal_seq = max([self._drained_seq, *(e.seq for e in entries)])
        self._journaled = len(entries)
        if not entries:
            mirror = Mirror.load(cur)
        else:
            cur.execute("BEGIN TRANSACTION")
            try:
                execute(cur, _merged(entries), _no_step)
                mirror = Mirror.load(cur)
            finally:
                cur.execute("ROLLBACK")
        self._known = (*known[:3], self._journal.size())
        return mirror

    @contextmanager
    def _read(self) -> Iterator[Mirror]:
        """The copy, the store held for the block; no cursor unless the copy must be
        loaded (a read from memory costs no DuckDB call)."""
        with self._lease.hold():
            mirror = self._mirror
            if mirror is None:
                with self._session() as (loaded, _):
                    yield loaded
            else:
                yield mirror

    @contextmanager
    def _query(self, drained: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor for the rare reads the copy does not hold (audit, observations), with
        every journal entry in its table first (unless ``drained`` is False: for tables
        the journal never holds)."""
        with self._lease.cursor() as cur:
            try:
                if drained and (self._journaled or self._journal.size()):
                    self._drain(cur)
                yield cur
            except duckdb.Error as exc:
                self._on_error(exc)
                raise StoreError(f"the store could not answer: {_why(exc)}") from exc

    def read(self) -> AbstractContextManager[duckdb.DuckDBPyConnection]:
        """A cursor for queries the copy does not answer (diagnostics, tests)."""
        return self._query()

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A raw transaction, for maintenance outside the memory tables (settings,
        checkpoints, tests). Memories are written only by ``apply``; the copy is read
        again afterwards, whatever the block did."""
        with self._query() as cur:
            cur.execute("BEGIN TRANSACTION")
            try:
                yield cur
                cur.execute("COMMIT")
            except BaseException:
                with suppress(duckdb.Error):
                    cur.execute("ROLLBACK")
                raise
            finally:
                self._mirror = None

    def _on_error(self, exc: duckdb.Error) -> None:
        print(f"anchormem: store error: {exc}", file=sys.stderr)
        if isinstance(exc, duckdb.FatalException) or "invalidated" in str(exc).lower():
            # A FATAL error (e.g. a checkpoint that hit a full disk) invalidates the
            # database: this call fails, so reset now and let the next call reopen.
            self._mirror = None
            self._lease.reset()

    # -- writing --------------------------------------------------------------------------
    def apply(self, plan: Plan) -> None:
        """Write ``plan`` in one transaction: all of it or, on any failure (a guard that
        no longer holds, a full disk, a fault), nothing."""
        if plan.empty:
            return
        if plan.verdicts:
            # Verdicts are a cache: kept in the copy now and written 500 at a time (or at
            # close), so neither a read that computed them nor a remember pays for the
            # statement (an INSERT OR REPLACE on a keyed table is the slowest one).
            with self._read() as mirror:
                mirror.apply(Plan(verdicts=plan.verdicts), utcnow(), [])
            self._pending += plan.verdicts
            plan = dataclasses.replace(plan, verdicts=())
        if plan.forgets:  # a forgotten memory's verdicts are never written back
            gone = {f.memory_id for f in plan.forgets}
            self._pending = tuple(v for v in self._pending if v.memory_id not in gone)
        if not plan.empty:
            self._write(plan)
        if len(self._pending) >= _PENDING_VERDICTS or self._journaled >= BATCH:
            self.drain()

    def _write(self, plan: Plan) -> None:
        if plan.forgets:
            with self._session() as (mirror, cur):
                self._write_to(plan, mirror, cur)
            self._compact()
            return
        # A journaled plan needs no cursor (making one costs ~0.1 ms): the store is held,
        # and read only when this process has no copy of it yet.
        with self._read() as mirror:
            self._write_to(plan, mirror, None)

    def _write_to(self, plan: Plan, mirror: Mirror, cur: duckdb.DuckDBPyConnection | None) -> None:
        """``plan`` into the journal, or (a forget, with ``cur``; a plan too large for one
        entry) into the tables at once; then into the copy."""
        at = utcnow()
        check_guards(plan, mirror)
        writer = PlanWriter(mirror, at)
        effects, seqs = writer.effects(plan)
        conflict_seq = max([mirror.conflict_seq, *seqs])
        try:
            if cur is not None:
                # Forgetting erases: the journal (which may hold the text) goes into the
                # tables first, then the forget is written there, at once.
                self._drain(cur, then=lambda: self._forget(cur, plan, effects))
            else:
                self._step("journal")
                entry = Entry(self._journal_seq + 1, writer.audit_seq, conflict_seq, effects)
                record = self._journal.record(entry)
                if len(record) > MAX_ENTRY:
                    # Too large for the journal (an import of many memories): into the
                    # tables now, after the entries before it, in one transaction.
                    del record  # tens of megabytes, not needed for the transaction
                    with self._lease.cursor() as now:
                        self._drain(now, then=lambda: execute(now, effects, self._step))
                else:
                    size = self._journal.append(entry, record)
                    self._journal_seq += 1
                    self._journaled += 1
                    self._known = (*self._known[:3], size)
        except duckdb.Error as exc:
            self._on_error(exc)
            raise StoreError(f"the store could not save the change: {_why(exc)}") from exc
        except OSError as exc:
            raise StoreError(f"the store could not save the change: {_os_why(exc)}") from exc
        # Nothing was written if it failed, and the copy is changed only now: it was
        # still right (a full disk must not cost the reads their copy).
        self.transactions += 1
        try:
            mirror.audit_seq = writer.audit_seq
            mirror.apply(plan, at, seqs)
        except BaseException:
            self._mirror = None  # the file is right; read it again
            raise

    def _forget(self, cur: duckdb.DuckDBPyConnection, plan: Plan, effects: Effects) -> None:
        execute(cur, effects, self._step)
        write_forgets(cur, plan, self._step)
        # owed until the file is rewritten (``_compact``)
        cur.execute("INSERT OR REPLACE INTO meta VALUES ('compact_pending', '1')")

    def backlog(self) -> int:
        """Journal entries and verdicts not yet in their tables."""
        return self._journaled + len(self._pending)

    def drain_idle(self) -> bool:
        """Drain now if there is something to drain and this process holds the store
        (never waiting for another process for it): for a server with nothing to do."""
        if not self.backlog() or not self._lease.is_open():
            return False
        self.drain()
        return True

    def drain(self) -> None:
        """Write the journal into its tables, and the verdicts kept unwritten."""
        with self._lease.cursor() as cur:
            try:
                self._drain(cur)
            except duckdb.Error as exc:
                self._on_error(exc)
                raise StoreError(f"the store could not save the change: {_why(exc)}") from exc

    def _drain(
        self, cur: duckdb.DuckDBPyConnection, then: Callable[[], None] | None = None
    ) -> None:
        """In one transaction: the journal's entries into their tables, the pending
        verdicts, and ``then`` (a plan written at once, which takes the next number); the
        number of the last plan into ``meta``. The journal is emptied after the commit. A
        crash between the two leaves entries the next reader skips by their number."""
        entries = self._journal.entries(after=self._drained_seq)
        pending, self._pending = self._pending, ()
        if not entries and not pending and then is None:
            return
        last = entries[-1].seq if entries else None
        if then is not None:
            last = max(self._journal_seq, self._drained_seq, last or 0) + 1
        cur.execute("BEGIN TRANSACTION")
        try:
            if entries:
                execute(cur, _merged(entries), self._step)
            if last is not None:
                cur.execute("INSERT OR REPLACE INTO meta VALUES ('journal_seq', ?)", [str(last)])
            if entries:
                self._step("drain")
            if pending:
                kept = {(v.memory_id, v.check.commit, v.key): v for v in pending}
                write_verdicts(cur, Plan(verdicts=tuple(kept.values())))
            if then is not None:
                then()
            cur.execute("COMMIT")
        except BaseException:
            with suppress(duckdb.Error):
                cur.execute("ROLLBACK")
            raise  # pending verdicts are dropped: a cache, computed again by the next read
        self._journal.clear()
        self._journaled = 0
        self._journal_seq = max(self._journal_seq, last or 0)
        self._known = self._tables(cur)

    def _step(self, name: str) -> None:
        if self._fault is not None:
            self._fault(name)

    def _compact(self) -> None:
        """Rewrite the file, so that forgotten text is gone from disk: DuckDB leaves
        overwritten bytes in free blocks (adr/0002). The forget's transaction marked the
        store (``meta.compact_pending``); the copy is unmarked before it replaces the
        file, so a rewrite that fails (a full disk) or is killed leaves the mark, and the
        next open or close rewrites again. A failed rewrite leaves no partial copy."""
        fresh = self.path.with_name(self.path.name + ".compact")
        leftovers = (fresh, Path(f"{fresh}.wal"))
        alias = f"anchormem_rewrite_{secrets.token_hex(6)}"  # never the store's own name
        try:
            with self._lease.cursor() as cur:
                for leftover in leftovers:
                    leftover.unlink(missing_ok=True)
                cur.execute(f"ATTACH '{_sql_path(fresh)}' AS {alias}")
                try:
                    name = cur.execute("SELECT current_database()").fetchall()[0][0]
                    cur.execute(f"COPY FROM DATABASE {_identifier(name)} TO {alias}")
                    cur.execute(f"DELETE FROM {alias}.meta WHERE key = 'compact_pending'")
                    self._step("compact")
                finally:
                    with suppress(duckdb.Error):
                        cur.execute(f"DETACH {alias}")
                _private(fresh)  # made with the umask, it becomes the store
                self._lease.swap_file(fresh)
            self.compact_pending = False
        except (duckdb.Error, OSError, StoreError) as exc:
            for leftover in leftovers:
                with suppress(OSError):
                    leftover.unlink(missing_ok=True)
            why = _why(exc) if isinstance(exc, duckdb.Error) else str(exc)
            print(
                f"anchormem: forgotten text could not be erased from the file yet ({why});"
                " the store is marked, and the next open or close rewrites it",
                file=sys.stderr,
            )
            self.compact_pending = True

    # -- verdicts -------------------------------------------------------------------------------
    def verdicts(self, ids: Sequence[str], commit: str, key: str) -> dict[str, MemoryCheck]:
        """Cached checks at (commit, key): all of that pair are read once, then kept."""
        with self._read() as m:  # kept already: no cursor
            kept = m.verdicts.get((commit, key))
            if kept is not None:
                return {i: kept[i] for i in ids if i in kept}
        with self._session() as (m, cur):
            cached = m.verdicts.get((commit, key))
            if cached is None:
                cached = {}
                rows = cur.execute(
                    "SELECT memory_id, status, checks FROM verdicts"
                    " WHERE commit_id = ? AND overlay = ?",
                    [commit, key],
                ).fetchall()
                for memory_id, verdict, checks in rows:
                    mem = m.memories.get(memory_id)
                    if mem is None:
                        continue
                    check = check_from_json(verdict, checks, mem.anchors, commit)
                    if check is not None:
                        cached[memory_id] = check
                m.verdicts[(commit, key)] = cached
            return {i: cached[i] for i in ids if i in cached}


_PENDING_VERDICTS = 500  # verdicts kept unwritten at most


def _merged(entries: Sequence[Entry]) -> Effects:
    merged = Effects()
    for entry in entries:
        merged.extend(entry.effects)
    return merged


def _no_step(_name: str) -> None:
    """Reading the journal into a copy is not a write: no fault is injected there."""


def _os_why(exc: OSError) -> str:
    if exc.errno == errno.ENOSPC:
        return "the disk is full (no space left on device)"
    if exc.errno == errno.EFBIG:
        return "a file size limit was reached (file too large)"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is exceeded"
    return f"{type(exc).__name__}: {exc.strerror or exc}"


def _why(exc: duckdb.Error) -> str:
    """The error's type, and for a full disk or a file-size limit, that plainly."""
    text = str(exc)
    for sign, plain in (
        ("No space left on device", "the disk is full (no space left on device)"),
        ("File too large", "a file size limit was reached (file too large)"),
        ("Disk quota exceeded", "the disk quota is exceeded"),
    ):
        if sign in text:
            return plain
    return type(exc).__name__


def _sql_path(path: Path) -> str:
    return os.fspath(path).replace("'", "''")


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
