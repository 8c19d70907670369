"""The shared store on PostgreSQL: every server process talks to it directly, no owner.

It decides nothing, as ``store.db.Database`` decides nothing. The differences:

* **Writing.** ``apply`` writes a plan in one transaction holding the project's write lock
  (a transaction-scoped advisory lock): the copy is brought current inside it, the plan's
  guards are checked against that copy, its rows written, and one row added to
  ``changes``: the plan's number and the memories it touched. Plans of one project are
  thereby written one at a time across all servers, each against the latest state, so a
  retraction racing a verification is never lost: whichever comes second finds its guard
  broken (``StalePlan``) and is decided again.
* **Reading.** Each server keeps a copy (``store.mirror``). At the first read of every
  call (``begin_call``) it asks for ``changes`` after the last it knows: one indexed query,
  and when other servers wrote, their memories are read again (``Mirror.refresh``). So a
  retraction through one server hides the memory from every other at its next call.
* **Verdicts** belong to a commit: written with the plan that carries them, or alone
  holding the project's lock shared (a forget's erasure never runs beside them), and read
  by (commit, checker) for the memories the copy has none for, so two servers at the same
  commit share the work and two at different commits never mix.
* **Errors.** A lost connection (the server restarted, the network) fails that call with
  ``StoreUnavailable`` saying so, without the password. A connection idle for a while is
  checked before it is lent, a read or a write that failed before it began is asked once
  more on a new pool, and the next call after the server is back works, without a restart.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from store.backend import FaultHook, Store, utcnow
from store.effects import STEPS, TABLES, Effects
from store.errors import StalePlan, StoreError, StoreUnavailable
from store.mirror import Mirror, Query, Row, Run
from store.model import MemoryCheck
from store.pg.cursor import PgCursor
from store.pg.schema import migrate
from store.pg.url import project_schema, reason, shown
from store.plan import Plan, VerdictRecord
from store.rows import check_from_json, check_to_json
from store.writes import PlanWriter, check_guards, write_forgets

__all__ = ["PgDatabase"]

# A server this many changes behind reads its whole copy again rather than the memories
# one by one; ``changes`` keeps about this many rows.
_REFRESH_MOST = 2000
_KEEP_CHANGES = 10000
# A connection idle longer than this is checked before it is lent (``_check``).
_CHECK_IDLE_S = 1.0


class PgDatabase(Store):
    """One project's store in a PostgreSQL database (the schema ``anchormem_<project>``)."""

    shared = True
    forget_reach = (
        "the text is erased from the shared store, for every server at its next call; the"
        " database's backups, WAL archives and replicas' history are beyond anchormem's reach"
    )

    def __init__(
        self,
        url: str,
        project: str,
        wait_limit_s: float = 30.0,
        fault: FaultHook | None = None,
        pool_size: int = 4,
    ) -> None:
        self.url_shown = shown(url)
        self._url = url  # never shown: ``url_shown``, and ``reason`` for errors
        self.project = project
        self.schema = project_schema(project)
        self._fault = fault
        self._state = threading.RLock()  # the copy, and the call's freshness
        self._mirror: Mirror | None = None
        self._change_seq = 0  # the last change the copy holds
        self._fresh = False  # the copy was brought current during this call
        self.transactions = 0
        self._closed = False
        self._pool_size = pool_size
        self._wait_limit_s = wait_limit_s
        self._last_use: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = (
            weakref.WeakKeyDictionary()
        )
        self._pool_lock = threading.Lock()
        self._pool_failed = False  # the pool gave no connection: a new one at the next call
        try:
            # Once by hand first: a refusal (a wrong password, TLS required, no such
            # database) is said at once with libpq's reason, where the pool would retry it
            # until the wait limit and say only that it timed out.
            psycopg.connect(url, application_name="anchormem").close()
            self._pool = self._new_pool()
            self._pool.open(wait=True, timeout=wait_limit_s)
        except (psycopg.Error, PoolTimeout) as exc:
            raise StoreUnavailable(
                f"cannot reach the shared store {self.url_shown}: {reason(exc, self._url)}"
            ) from exc
        try:
            with self._connection() as con, con.transaction():
                migrate(PgCursor(con), self.schema)
        except BaseException:
            self._pool.close()
            raise

    def _new_pool(self) -> ConnectionPool:
        return ConnectionPool(
            self._url,
            min_size=1,
            max_size=self._pool_size,
            timeout=self._wait_limit_s,
            kwargs={"autocommit": True, "application_name": "anchormem"},
            configure=self._configure,
            check=self._check,
            reset=self._returned,
            open=False,
            name="anchormem",
        )

    def _check(self, con: psycopg.Connection[Any]) -> None:
        """Before a connection is lent: one that has been idle a while is asked whether
        the server is still there (a restart between calls then goes unnoticed); one in
        use a moment ago is not, which saves a round trip on most calls. A server lost
        within that moment fails one call, and the next gets a new pool
        (``_renew_pool``)."""
        if time.monotonic() - self._last_use.get(con, 0.0) > _CHECK_IDLE_S:
            ConnectionPool.check_connection(con)

    def _returned(self, con: psycopg.Connection[Any]) -> None:
        self._last_use[con] = time.monotonic()

    def _configure(self, con: psycopg.Connection[Any]) -> None:
        con.execute(f'SET search_path TO "{self.schema}"')
        con.execute("SET TIME ZONE 'UTC'")

    @property
    def label(self) -> str:
        return f"{self.url_shown} (project {self.project}, schema {self.schema})"

    def close(self) -> None:
        with self._pool_lock:  # not while a new pool replaces a failed one
            if not self._closed:
                self._closed = True
                self._pool.close()

    # -- connections --------------------------------------------------------------------------
    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; any failure of the server or the network as
        ``StoreUnavailable``, the address shown without its password."""
        if self._closed:
            raise StoreUnavailable("the shared store was closed")
        if self._pool_failed:
            self._renew_pool()
        try:
            with self._pool.connection() as con:
                yield con
        except PoolTimeout as exc:
            self._pool_failed = True
            raise StoreUnavailable(
                f"the shared store {self.url_shown} cannot be reached: {reason(exc, self._url)}"
            ) from exc
        except psycopg.OperationalError as exc:
            self._pool_failed = True  # its other connections are likely gone too
            print(f"anchormem: shared store error: {reason(exc, self._url)}", file=sys.stderr)
            raise StoreUnavailable(
                f"the shared store {self.url_shown} could not answer: {reason(exc, self._url)}"
            ) from exc
        except psycopg.Error as exc:
            why = reason(exc, self._url)
            raise StoreError(f"the shared store could not answer: {why}") from exc

    def _renew_pool(self) -> None:
        """A new pool in place of one that could give no connection. The pool retries a
        lost server with a growing delay, up to minutes after it is back; a new pool
        connects at once, so the first call after an outage works."""
        with self._pool_lock:
            if not self._pool_failed or self._closed:
                return
            old, self._pool = self._pool, self._new_pool()
            self._pool.open(wait=False)
            self._pool_failed = False
        old.close(timeout=1.0)  # a connection still lent is closed when it is given back

    # -- keeping the copy current ----------------------------------------------------------------
    def begin_call(self) -> None:
        with self._state:
            self._fresh = False

    def _current(self, cur: PgCursor) -> Mirror:
        """The copy, with every change other servers committed read in (``_state`` held).
        Every read is answered before the copy changes (``Mirror.refresh``), so a lost
        connection leaves it whole; any other failure drops it (read whole next time)."""
        try:
            return self._catch_up(cur)
        except psycopg.Error:
            raise
        except BaseException:
            self._mirror = None
            raise

    def _catch_up(self, cur: PgCursor) -> Mirror:
        if self._mirror is None:
            return self._reload(cur)
        rows = cur.execute(
            "SELECT seq, ids FROM changes WHERE seq > ? ORDER BY seq", [self._change_seq]
        ).fetchall()
        if not rows:
            return self._mirror
        if rows[0][0] != self._change_seq + 1 or len(rows) > _REFRESH_MOST:
            return self._reload(cur)  # too far behind: the rows in between are gone
        ids: set[str] = set()
        for _seq, touched in rows:
            ids.update(json.loads(touched))
        if len(ids) > _REFRESH_MOST:
            return self._reload(cur)
        self._mirror.refresh(cur, ids, _pipelined(cur))
        self._change_seq = int(rows[-1][0])
        return self._mirror

    def _reload(self, cur: PgCursor) -> Mirror:
        row = cur.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()
        self._mirror = Mirror.load(cur, _pipelined(cur))
        self._change_seq = int(row[0]) if row else 0
        return self._mirror

    @contextmanager
    def _read(self) -> Iterator[Mirror]:
        with self._state:
            if self._mirror is None or not self._fresh:
                for attempt in range(2):
                    try:
                        with self._connection() as con:
                            self._current(PgCursor(con))
                        break
                    except StoreUnavailable:
                        # A connection lost since its last use (the server restarted
                        # between calls): once more, on the new pool. Reading changes
                        # nothing, so it may be asked again.
                        if attempt or not self._pool_failed:
                            raise
                self._fresh = True
            assert self._mirror is not None
            yield self._mirror

    @contextmanager
    def _query(self, drained: bool = True) -> Iterator[PgCursor]:
        with self._connection() as con:
            yield PgCursor(con)

    def read(self) -> Any:
        return self._query()

    @contextmanager
    def transaction(self) -> Iterator[PgCursor]:
        with self._connection() as con, con.transaction():
            yield PgCursor(con)
        with self._state:
            self._mirror = None

    # -- writing ---------------------------------------------------------------------------------
    def apply(self, plan: Plan) -> None:
        if plan.empty:
            return
        verdicts = _latest(plan.verdicts)
        plan = dataclasses.replace(plan, verdicts=())
        if plan.empty:
            self._write_verdicts(verdicts)
            return
        with self._state:
            for attempt in range(2):
                began: list[bool] = []
                try:
                    self._write(plan, verdicts, began)
                    return
                except StoreUnavailable:
                    # Lost before the transaction began (a connection the server dropped
                    # since its last use): nothing was written, so once more on a new pool.
                    if attempt or began or not self._pool_failed:
                        raise

    def _write(self, plan: Plan, verdicts: list[VerdictRecord], began: list[bool]) -> None:
        """``plan`` in one transaction; ``began`` is appended to once it holds the lock."""
        claims = {n.text_hash for n in plan.memories}
        planned_on = self._mirror  # the copy the plan was made from
        held = {h for h in claims if planned_on is not None and planned_on.by_hash.get(h)}
        with self._connection() as con:
            cur = PgCursor(con)
            at = utcnow()
            with con.transaction():
                cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [self.schema])
                began.append(True)
                mirror = self._current(cur)
                check_guards(plan, mirror)
                if planned_on is not None and any(mirror.by_hash.get(h) for h in claims - held):
                    # Another server stored the same claim since this one was planned:
                    # planned again, it is a restatement of that one (one memory, two
                    # origins), not a second copy.
                    raise StalePlan("another server stored this claim meanwhile")
                writer = PlanWriter(mirror, at)
                effects, seqs = writer.effects(plan)
                seq = self._change_seq + 1
                # Sent without waiting for each answer: nothing below reads one back.
                with con.pipeline():
                    _execute(cur, effects, self._step)
                    if plan.forgets:
                        write_forgets(cur, plan, self._step)
                    forgotten = {f.memory_id for f in plan.forgets}
                    kept = [v for v in verdicts if v.memory_id not in forgotten]
                    if kept:
                        cur.executemany(_UPSERT_VERDICT, _verdict_rows(kept))
                    cur.execute(
                        "INSERT INTO changes VALUES (?, ?, ?)",
                        [seq, json.dumps(_touched(plan)), at],
                    )
                    if seq % 500 == 0:
                        cur.execute("DELETE FROM changes WHERE seq <= ?", [seq - _KEEP_CHANGES])
                self._step("commit")
            self.transactions += 1
            self._change_seq = seq
            try:
                mirror.audit_seq = writer.audit_seq
                mirror.apply(dataclasses.replace(plan, verdicts=tuple(kept)), at, seqs)
            except BaseException:
                self._mirror = None  # the tables are right; read them again
                raise

    def _write_verdicts(self, verdicts: Sequence[VerdictRecord]) -> None:
        """Verdicts alone (a read's): upserted at once, holding the project's lock shared
        (never waiting for another read's, and a forget's erasure never running beside
        it). A cache: a failure is said and dropped (the next read computes them again)."""
        if not verdicts:
            return
        try:
            with self._connection() as con, con.transaction():
                cur = PgCursor(con)
                with con.pipeline():
                    cur.execute(
                        "SELECT pg_advisory_xact_lock_shared(hashtextextended(?, 0))",
                        [self.schema],
                    )
                    cur.executemany(_UPSERT_VERDICT, _verdict_rows(verdicts))
        except StoreError as exc:
            print(f"anchormem: verdicts not cached: {exc}", file=sys.stderr)
            return
        with self._state:
            if self._mirror is not None:
                for v in verdicts:
                    cached = self._mirror.verdicts.setdefault((v.check.commit, v.key), {})
                    cached[v.memory_id] = v.check

    def _step(self, name: str) -> None:
        if self._fault is not None:
            self._fault(name)

    def drain(self) -> None:
        """Nothing is kept unwritten: every plan is in the tables when ``apply`` returns."""

    def drain_idle(self) -> bool:
        return False

    def backlog(self) -> int:
        return 0

    # -- verdicts ---------------------------------------------------------------------------------
    def verdicts(self, ids: Sequence[str], commit: str, key: str) -> dict[str, MemoryCheck]:
        """Cached checks at (commit, key): the copy's, and the table's for the rest (another
        server at the same commit may have computed them)."""
        with self._read() as m:
            cached = m.verdicts.setdefault((commit, key), {})
            missing = [i for i in ids if i not in cached and i in m.memories]
            if missing:
                with self._query() as cur:
                    rows = cur.execute(
                        "SELECT memory_id, status, checks FROM verdicts"
                        " WHERE commit_id = ? AND overlay = ? AND memory_id = ANY(?)",
                        [commit, key, missing],
                    ).fetchall()
                for memory_id, verdict, checks in rows:
                    mem = m.memories[memory_id]
                    check = check_from_json(verdict, checks, mem.anchors, commit)
                    if check is not None:
                        cached[memory_id] = check
            return {i: cached[i] for i in ids if i in cached}

    # -- reads whose SQL differs from DuckDB's -------------------------------------------------
    def event_counts(self) -> dict[str, int]:
        with self._query() as cur:
            rows = cur.execute(
                "SELECT CASE WHEN action = 'verify' THEN 'verify:' || to_status"
                " WHEN action = 'observe' THEN 'observe:' || (detail::jsonb ->> 'kind')"
                " ELSE action END, count(*) FROM audit GROUP BY 1"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def load_blob_facts(self, blob_ids: Sequence[str]) -> dict[str, str]:
        if not blob_ids:
            return {}
        with self._query() as cur:
            rows = cur.execute(
                "SELECT blob_id, facts FROM blob_facts WHERE blob_id = ANY(?)", [list(blob_ids)]
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def save_blob_facts(self, facts: Mapping[str, str]) -> None:
        if not facts:
            return
        with self._connection() as con, con.transaction():
            PgCursor(con).executemany(
                "INSERT INTO blob_facts VALUES (?, ?)"
                " ON CONFLICT (blob_id) DO UPDATE SET facts = EXCLUDED.facts",
                list(facts.items()),
            )


_UPSERT_VERDICT = (
    "INSERT INTO verdicts SELECT ?, ?, ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM memories WHERE id = ? AND forgotten_at IS NULL)"
    " ON CONFLICT (commit_id, overlay, memory_id) DO UPDATE SET"
    " status = EXCLUDED.status, checks = EXCLUDED.checks, checked_at = EXCLUDED.checked_at"
)


def _latest(verdicts: Sequence[VerdictRecord]) -> list[VerdictRecord]:
    """One verdict per (memory, commit, key): the last."""
    return list({(v.memory_id, v.check.commit, v.key): v for v in verdicts}.values())


def _verdict_rows(verdicts: Sequence[VerdictRecord]) -> list[list[Any]]:
    """Rows for ``_UPSERT_VERDICT``: a forgotten memory's verdict is never written back."""
    return [
        [v.memory_id, v.check.commit, v.key, *check_to_json(v.check), v.at, v.memory_id]
        for v in verdicts
    ]


def _pipelined(cur: PgCursor) -> Run:
    """Statements sent together and answered together: one round trip, not one each."""

    def run(queries: Sequence[Query]) -> list[list[Row]]:
        with cur.connection.pipeline():
            sent = [cur.execute(sql, params) for sql, params in queries]
        return [list(c.fetchall()) for c in sent]

    return run


def _execute(cur: PgCursor, effects: Effects, step: Callable[[str], None]) -> None:
    """``effects`` in the caller's transaction: each table's rows, then the updates."""
    for table, columns in TABLES.items():
        rows = effects.rows.get(table)
        if not rows:
            continue
        marks = ", ".join("?" for _ in columns)
        cur.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
        step(STEPS[table])
    for name, sql, params in effects.updates:
        cur.execute(sql, params)
        step(name)


def _touched(plan: Plan) -> list[str]:
    """The memories whose rows ``plan`` writes (their conflicts are read by sequence)."""
    ids = {n.memory.id for n in plan.memories}
    ids.update(i.new.memory.id for i in plan.imported)
    ids.update(c.memory_id for c in plan.changes)
    ids.update(o.memory_id for o in plan.observations)
    ids.update(f.memory_id for f in plan.forgets)
    return sorted(ids)
