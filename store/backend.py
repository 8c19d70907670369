"""What both stores answer from their copy (``store.mirror``) and the few reads it does
not hold: the embedded DuckDB store (``store.db.Database``) and the shared PostgreSQL one
(``store.pg.database.PgDatabase``) differ in how they keep the copy current and write a
plan, not in what they answer. It decides nothing."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, TypeVar

from store import queries
from store.mirror import Mirror
from store.model import AuditEntry, Memory, MemoryCheck, Receipt, Status
from store.plan import ConflictRecord, Plan
from store.rows import CONFLICT_COLUMNS, conflict_from_row

__all__ = ["FaultHook", "Store", "utcnow"]

_Found = TypeVar("_Found")

# Called with the name of each step of ``apply`` right after it ran (tests inject a fault
# there to show that a plan is written whole or not at all).
FaultHook = Callable[[str], None]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Store(ABC):
    """A store: reads from this process's copy, plans written whole or not at all."""

    transactions: int = 0  # write transactions this process committed (benchmarks)
    # Servers at other commits write to it too (store.pg): a code verdict changes a stored
    # status only going forward in history (``lifecycle.moves_forward``).
    shared: bool = False
    compact_pending: bool = False
    _mirror: Mirror | None = None

    @abstractmethod
    def _read(self) -> AbstractContextManager[Mirror]:
        """The copy, current, for the block."""

    @abstractmethod
    def _query(self, drained: bool = True) -> AbstractContextManager[Any]:
        """A cursor (``?`` parameters) for the reads the copy does not hold."""

    @abstractmethod
    def apply(self, plan: Plan) -> None:
        """Write ``plan`` in one transaction, or nothing (``StalePlan`` when a guard no
        longer holds)."""

    @abstractmethod
    def verdicts(self, ids: Sequence[str], commit: str, key: str) -> dict[str, MemoryCheck]:
        """Cached checks at (commit, key)."""

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def drain(self) -> None:
        """Write what is kept unwritten (journal entries, verdicts)."""

    @abstractmethod
    def drain_idle(self) -> bool: ...

    @abstractmethod
    def backlog(self) -> int: ...

    @abstractmethod
    def read(self) -> AbstractContextManager[Any]:
        """A cursor for queries the copy does not answer (diagnostics, tests)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Any]:
        """A raw transaction, for maintenance outside the memory tables."""

    def begin_call(self) -> None:
        """A tool call starts: a shared store looks for other processes' writes at the
        first read after this (an embedded one holds the file and knows them)."""
        return

    # What a forget erases, and what it cannot (said with every forget).
    forget_reach = (
        "the text is erased from this store's file; copies of the file made before"
        " (backups, exports) are beyond anchormem's reach"
    )

    @property
    def label(self) -> str:
        """What the store is, for messages (never a password)."""
        return type(self).__name__

    # -- memories ---------------------------------------------------------------------------
    def load_copy(self) -> None:
        """Read this process's copy of the store now, if it has none (the first read
        would otherwise)."""
        with self._read():
            pass

    def copy_memories(self) -> list[Memory] | None:
        """The memories of this process's copy as it stands, without holding the store
        (None before the copy is loaded). Possibly stale: only for warming caches, which
        depend on a memory's text and nothing that changes."""
        mirror = self._mirror
        return None if mirror is None else list(mirror.memories.values())

    def get(self, memory_id: str) -> Memory | None:
        with self._read() as m:
            return m.memories.get(memory_id)

    def load(self, ids: Sequence[str]) -> dict[str, Memory]:
        with self._read() as m:
            return {i: m.memories[i] for i in ids if i in m.memories}

    def find_by_text_hash(self, text_hash: str) -> list[Memory]:
        with self._read() as m:
            return [m.memories[i] for i in m.by_hash.get(text_hash, ())]

    def sharing_keys(self, memory: Memory, core: str | None, most: int | None = None) -> list[str]:
        """Live memories sharing a slot, an anchor or a negation core with ``memory``
        (``Mirror.sharing_keys``)."""
        with self._read() as m:
            return sorted(m.sharing_keys(memory, core, most))

    def search(self, score: Callable[[Mirror], _Found]) -> _Found:
        """``score`` run over the copy's index (``store.search.TermIndex``); it returns
        values of its own (a new dict, a list of ids), never a part of the copy."""
        with self._read() as m:
            return score(m)

    def list_ids(
        self, statuses: Sequence[Status], limit: int, by_confidence: bool = False
    ) -> list[str]:
        with self._read() as m:
            live = [
                mem
                for mem in m.memories.values()
                if mem.forgotten_at is None and mem.status in statuses
            ]
        live.sort(key=lambda mem: mem.id)
        live.sort(key=lambda mem: mem.created_at, reverse=True)
        if by_confidence:
            live.sort(key=lambda mem: mem.confidence, reverse=True)
        return [mem.id for mem in live[:limit]]

    def count(self) -> dict[str, int]:
        with self._read() as m:
            counts: dict[str, int] = {}
            for mem in m.memories.values():
                if mem.forgotten_at is None:
                    counts[mem.status.value] = counts.get(mem.status.value, 0) + 1
            return counts

    def descendants(self, memory_id: str) -> list[str]:
        """Every memory derived, directly or transitively, from ``memory_id``."""
        with self._read() as m:
            return m.descendants(memory_id)

    def receipts(self, memory_id: str) -> list[Receipt]:
        with self._read() as m:
            return list(m.receipts.get(memory_id, ()))

    def conflicts(self, ids: Sequence[str] | None = None) -> list[ConflictRecord]:
        """The latest logged resolution of each pair (of pairs touching ``ids``)."""
        with self._read() as m:
            return m.conflicts_of(ids)

    def latest_conflicts(
        self, pairs: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], ConflictRecord]:
        """The latest logged resolution of each of ``pairs`` that has one, keyed as logged:
        a lookup per pair, however many others its members have."""
        with self._read() as m:
            return m.latest_of(pairs)

    # -- export (store.transfer) ----------------------------------------------------------
    def all_memories(self) -> list[Memory]:
        """Every memory, tombstones included, oldest first."""
        with self._read() as m:
            return sorted(m.memories.values(), key=lambda mem: (mem.created_at, mem.id))

    def observation_rows(self) -> list[tuple[Any, ...]]:
        """(id, memory_id, at, polarity, kind, source, origin, weight, note), oldest first."""
        with self._query() as cur:
            return cur.execute(
                "SELECT id, memory_id, happened_at, polarity, kind, source, origin, weight, note"
                " FROM observations ORDER BY happened_at, id"
            ).fetchall()

    def conflict_log(self) -> list[ConflictRecord]:
        """Every row of the conflict log, in order."""
        with self._query() as cur:
            rows = cur.execute(f"SELECT {CONFLICT_COLUMNS} FROM conflict_log ORDER BY seq")
            return [conflict_from_row(r) for r in rows.fetchall()]

    # -- rare reads (store.queries) ------------------------------------------------------
    def audit(self, memory_id: str | None = None, limit: int = 1000) -> list[AuditEntry]:
        with self._query() as cur:
            return queries.audit(cur, memory_id, limit)

    def observations(self, memory_id: str) -> list[tuple[datetime, bool, float, str, str]]:
        with self._query() as cur:
            return queries.observations(cur, memory_id)

    def all_observations(self) -> dict[str, list[tuple[datetime, bool, float]]]:
        with self._query() as cur:
            return queries.all_observations(cur)

    def last_questions(self) -> dict[str, datetime]:
        with self._query() as cur:
            return queries.last_questions(cur)

    def event_counts(self) -> dict[str, int]:
        with self._query() as cur:
            return queries.event_counts(cur)

    def slot_history(self) -> list[tuple[str, str, str]]:
        with self._query() as cur:
            return queries.slot_history(cur)

    # -- the fingerprint's cache (a table the journal never holds) ---------------------------
    def load_blob_facts(self, blob_ids: Sequence[str]) -> dict[str, str]:
        if not blob_ids:
            return {}
        with self._query(drained=False) as cur:
            return queries.load_blob_facts(cur, blob_ids)

    def save_blob_facts(self, facts: Mapping[str, str]) -> None:
        if facts:
            with self._query(drained=False) as cur:
                queries.save_blob_facts(cur, facts)
