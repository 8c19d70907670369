"""This process's copy of the store, kept in memory while it is known to be current.

DuckDB answers a point read with a scan (~1-2 ms at 10k memories, several at 100k), so a
call that asked the file for each memory, receipt and candidate would spend most of its
time there. The copy is loaded in one pass when first needed, and kept right by applying
each plan to it after the plan's transaction commits. It stays valid while this process
holds the store; after another process has held it, it is kept only if the file shows no
write meanwhile: the number of the last plan in the tables, the journal's size, and the
last audit and conflict-log sequence numbers are the ones it knows (``Database._known``;
every plan changes the first or the second, not always the others).
It decides nothing: it answers lookups by id, claim hash, shared keys and terms.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from store.evidence.observing import observed
from store.model import FORGOTTEN_REASON, Memory, MemoryCheck, Receipt, StoredAnchor
from store.plan import ConflictRecord, NewMemory, Plan, code_commit_after
from store.rows import (
    ANCHOR_COLUMNS,
    CONFLICT_COLUMNS,
    MEMORY_COLUMNS,
    RECEIPT_COLUMNS,
    conflict_from_row,
    memory_from_row,
    receipt_from_row,
    stored_anchor_from_row,
)
from store.search import TermIndex

__all__ = ["AnchorKey", "Mirror"]

# A DuckDB connection or store.pg's cursor: both take ``?`` parameters.
Cursor = Any

AnchorKey = tuple[str, str, str, str]  # kind, value, scope ("" when none), expectation
Pair = tuple[str, str]


def anchor_key(stored: StoredAnchor, opposite: bool = False) -> AnchorKey:
    a = stored.anchor
    expect = a.expect.value
    if opposite:  # the same anchor expected the other way: only that can conflict
        expect = "absent" if expect == "present" else "present"
    return a.kind.value, a.value, a.scope or "", expect


Row = tuple[Any, ...]
Query = tuple[str, list[Any]]
# Runs statements in order and gives each one's rows.
Run = Callable[[Sequence[Query]], list[list[Row]]]

_SEQS: Query = (
    "SELECT (SELECT coalesce(max(seq), 0) FROM audit),"
    " (SELECT coalesce(max(seq), 0) FROM conflict_log)",
    [],
)


def _one_by_one(cur: Cursor) -> Run:
    def run(queries: Sequence[Query]) -> list[list[Row]]:
        return [list(cur.execute(sql, params).fetchall()) for sql, params in queries]

    return run


def _row_queries(ids: Sequence[str] | None) -> list[Query]:
    """The reads of the rows of ``ids`` (of every memory, and the latest resolution of
    each pair, when None), in the order ``Mirror._take_rows`` takes them."""
    of, on, params = "", "", []
    if ids is not None:
        marks = ", ".join("?" for _ in ids) or "NULL"
        of, on, params = f" WHERE memory_id IN ({marks})", f" WHERE id IN ({marks})", list(ids)
    queries = [
        (f"SELECT {ANCHOR_COLUMNS} FROM anchors{of} ORDER BY memory_id, position", params),
        (f"SELECT memory_id, target_id, relation FROM links{of} ORDER BY target_id", params),
        (
            f"SELECT {MEMORY_COLUMNS}, text_hash, core FROM memories{on} ORDER BY created_at, id",
            params,
        ),
        (f"SELECT {RECEIPT_COLUMNS} FROM receipts{of} ORDER BY created_at, id", params),
        (
            f"SELECT memory_id, array_agg(term), array_agg(tf) FROM terms{of}"
            " GROUP BY memory_id ORDER BY memory_id",
            params,
        ),
    ]
    if ids is None:
        queries.append(
            (
                f"SELECT {CONFLICT_COLUMNS} FROM conflict_log WHERE seq IN"
                " (SELECT max(seq) FROM conflict_log GROUP BY a_id, b_id) ORDER BY seq",
                [],
            )
        )
    return queries


class Mirror:
    def __init__(self) -> None:
        self.memories: dict[str, Memory] = {}
        self.by_hash: dict[str, list[str]] = {}
        self.by_attribute: dict[str, set[str]] = {}
        self.by_core: dict[str, set[str]] = {}
        self.by_anchor: dict[AnchorKey, set[str]] = {}
        self.keys_of: dict[str, tuple[str | None, str | None, str | None]] = {}
        self.children: dict[str, list[str]] = {}
        self.receipts: dict[str, list[Receipt]] = {}
        self.index = TermIndex()  # the recall index: term postings, as arrays
        self.conflicts: dict[Pair, ConflictRecord] = {}
        self.pairs_of: dict[str, set[Pair]] = {}
        self.audit_seq = 0
        self.conflict_seq = 0
        self.verdicts: dict[tuple[str, str], dict[str, MemoryCheck]] = {}

    # -- loading ------------------------------------------------------------------------
    # The reads are data (statement, parameters) run by ``run``: one after another on a
    # DuckDB connection, all in one round trip on PostgreSQL (``store.pg``). The SQL is
    # what both read.
    @classmethod
    def load(cls, cur: Cursor, run: Run | None = None) -> Mirror:
        m = cls()
        queries = [*_row_queries(None), _SEQS]
        m._take_rows(None, (run or _one_by_one(cur))(queries))
        return m

    def refresh(self, cur: Cursor, ids: Collection[str], run: Run | None = None) -> None:
        """Read ``ids`` again from the tables (another process wrote them: a shared store,
        store/pg), with the conflict-log rows and sequence numbers written since."""
        wanted = sorted(ids)
        queries = [
            *_row_queries(wanted),
            (
                f"SELECT {CONFLICT_COLUMNS} FROM conflict_log WHERE seq > ? ORDER BY seq",
                [self.conflict_seq],
            ),
            _SEQS,
        ]
        results = (run or _one_by_one(cur))(queries)
        for memory_id in ids:
            self._drop(memory_id)
        self._take_rows(wanted, results[:-2] + results[-1:])
        for memory_id in ids:  # forgotten by another process: its claims go here too
            mem = self.memories.get(memory_id)
            if mem is not None and mem.forgotten_at is not None:
                self._erase_claims(memory_id)
        for row in results[-2]:
            self._add_conflict(conflict_from_row(row))

    def _take_rows(self, ids: Sequence[str] | None, results: Sequence[Sequence[Row]]) -> None:
        """The rows ``_row_queries(ids)`` read, then ``_SEQS``'s, into the copy."""
        anchor_rows, link_rows, rows, receipt_rows, term_rows, *rest = results
        anchors: dict[str, list[StoredAnchor]] = {}
        for row in anchor_rows:
            anchors.setdefault(row[0], []).append(stored_anchor_from_row(row))
        parents: dict[str, list[str]] = {}
        for mid, target, relation in link_rows:
            if relation == "derived_from":
                parents.setdefault(mid, []).append(target)
                children = self.children.setdefault(target, [])
                if mid not in children:
                    children.append(mid)
        for row in rows:
            mem = memory_from_row(row[:-2], anchors.get(row[0], ()), parents.get(row[0], ()))
            self._add(mem, row[-2], row[-1])
        for row in receipt_rows:
            self.receipts.setdefault(row[1], []).append(receipt_from_row(row))
        for memory_id, terms, counts in term_rows:
            self.index.add(memory_id, dict(zip(terms, counts, strict=True)))
        for row in rows:
            self._stand(self.memories[row[0]])
        if ids is None:
            for row in rest[0]:
                self._add_conflict(conflict_from_row(row))
        seqs = rest[-1][0]
        self.audit_seq, self.conflict_seq = int(seqs[0]), int(seqs[1])

    def _drop(self, memory_id: str) -> None:
        """``memory_id`` out of the copy and its indexes (to be read again)."""
        mem = self.memories.pop(memory_id, None)
        if mem is None:
            return
        self._unindex(memory_id, mem)
        self.receipts.pop(memory_id, None)
        for cached in self.verdicts.values():
            cached.pop(memory_id, None)

    def _add(self, mem: Memory, text_hash: str | None, core: str | None) -> None:
        self.memories[mem.id] = mem
        if mem.forgotten_at is not None:
            return
        if text_hash:
            self.by_hash.setdefault(text_hash, []).append(mem.id)
        if mem.attribute:
            self.by_attribute.setdefault(mem.attribute, set()).add(mem.id)
        if core:
            self.by_core.setdefault(core, set()).add(mem.id)
        for stored in mem.anchors:
            self.by_anchor.setdefault(anchor_key(stored), set()).add(mem.id)
        self.keys_of[mem.id] = (text_hash, mem.attribute, core)

    def _add_conflict(self, record: ConflictRecord) -> None:
        pair = (record.a_id, record.b_id)
        self.conflicts[pair] = record
        for member in pair:
            self.pairs_of.setdefault(member, set()).add(pair)

    # -- lookups ------------------------------------------------------------------------
    def sharing_keys(self, memory: Memory, core: str | None, most: int | None = None) -> set[str]:
        """Live memories sharing a slot, a negation core or an anchor with ``memory``
        (written or about to be); with ``most``, a key held by more is left out."""
        found: set[str] = set()
        groups = [self.by_anchor.get(anchor_key(s, opposite=True), set()) for s in memory.anchors]
        if memory.attribute:
            groups.append(self.by_attribute.get(memory.attribute, set()))
        if core:
            groups.append(self.by_core.get(core, set()))
        for group in groups:
            if most is None or len(group) <= most:
                found |= group
        found.discard(memory.id)
        return found

    def descendants(self, memory_id: str) -> list[str]:
        seen: set[str] = set()
        todo = [memory_id]
        while todo:
            for child in self.children.get(todo.pop(), ()):
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
        seen.discard(memory_id)
        return sorted(seen)

    def conflicts_of(self, ids: Iterable[str] | None) -> list[ConflictRecord]:
        if ids is None:
            pairs: Iterable[Pair] = self.conflicts
        else:
            pairs = {p for i in ids for p in self.pairs_of.get(i, ())}
        return sorted((self.conflicts[p] for p in pairs), key=lambda r: r.seq)

    def latest_of(self, pairs: Iterable[Pair]) -> dict[Pair, ConflictRecord]:
        """The latest logged resolution of each of ``pairs`` that has one (in either
        order), keyed as it was logged."""
        found: dict[Pair, ConflictRecord] = {}
        for a, b in pairs:
            record = self.conflicts.get((a, b)) or self.conflicts.get((b, a))
            if record is not None:
                found[(record.a_id, record.b_id)] = record
        return found

    # -- keeping it current ------------------------------------------------------------------
    def apply(self, plan: Plan, at: datetime, seqs: Sequence[int]) -> None:
        """What ``plan`` wrote, applied to the copy (after its transaction committed);
        ``seqs`` are the conflict-log sequence numbers it was given."""
        for new in plan.memories:
            self._insert(new)
        for imp in plan.imported:  # receipts in the order ``load`` reads them
            memory = dataclasses.replace(imp.new.memory, code_commit=imp.code_commit)
            self._insert(dataclasses.replace(imp.new, memory=memory))
            kept = [*self.receipts.get(imp.new.memory.id, ()), *imp.receipts]
            self.receipts[imp.new.memory.id] = sorted(kept, key=lambda r: (r.created_at, r.id))
        for change in plan.changes:
            mem = self.memories[change.memory_id]
            self.memories[mem.id] = mem = dataclasses.replace(
                mem,
                status=change.to_status,
                refuted_by=change.refuted_by,
                updated_at=at,
                code_commit=code_commit_after(mem, change),
            )
            self._stand(mem)
            if change.receipt is not None:
                self.receipts.setdefault(mem.id, []).append(change.receipt)
        for obs in plan.observations:
            self.memories[obs.memory_id] = mem = dataclasses.replace(
                observed(self.memories[obs.memory_id], obs), updated_at=obs.at
            )
            self._stand(mem)
        for record, seq in zip(plan.conflicts, seqs, strict=True):
            self._add_conflict(dataclasses.replace(record, seq=seq))
        self.conflict_seq = max([self.conflict_seq, *seqs])
        for forget in plan.forgets:
            self._forget(forget.memory_id, forget.receipt, at)
        for verdict in plan.verdicts:
            cached = self.verdicts.setdefault((verdict.check.commit, verdict.key), {})
            cached[verdict.memory_id] = verdict.check

    def _insert(self, new: NewMemory) -> None:
        mem = new.memory
        self._add(mem, new.text_hash, new.core)
        for parent in mem.derived_from:
            self.children.setdefault(parent, []).append(mem.id)
        if mem.forgotten_at is None:  # an imported tombstone has no terms
            self.index.add(mem.id, new.terms)
            self._stand(mem)

    def _stand(self, mem: Memory) -> None:
        """Tell the recall index what it ranks ``mem`` by (``TermIndex.stand``)."""
        self.index.stand(mem.id, mem.status, mem.confidence, mem.created_at.timestamp())

    def _forget(self, memory_id: str, receipt: Receipt, at: datetime) -> None:
        mem = self.memories[memory_id]
        self._unindex(memory_id, mem)
        for cached in self.verdicts.values():
            cached.pop(memory_id, None)
        self._erase_claims(memory_id)
        self.memories[memory_id] = dataclasses.replace(
            mem,
            text="",
            subject=None,
            scope=None,
            attribute=None,
            slot_value=None,
            anchors=(),
            forgotten_at=receipt.created_at,
            updated_at=at,
        )
        self.receipts[memory_id] = [
            dataclasses.replace(r, reason=FORGOTTEN_REASON, evidence=None)
            for r in self.receipts.get(memory_id, ())
        ]
        self.receipts[memory_id].append(receipt)

    def _unindex(self, memory_id: str, mem: Memory) -> None:
        text_hash, attribute, core = self.keys_of.pop(memory_id, (None, None, None))
        if text_hash and memory_id in self.by_hash.get(text_hash, []):
            self.by_hash[text_hash].remove(memory_id)
        if attribute:
            self.by_attribute.get(attribute, set()).discard(memory_id)
        if core:
            self.by_core.get(core, set()).discard(memory_id)
        for stored in mem.anchors:
            self.by_anchor.get(anchor_key(stored), set()).discard(memory_id)
        self.index.remove(memory_id)

    def _erase_claims(self, memory_id: str) -> None:
        """The conflict log keeps that a forgotten memory's pairs were decided, not what it
        claimed (``writes.write_forgets``)."""
        for pair in self.pairs_of.get(memory_id, ()):
            record = self.conflicts[pair]
            self.conflicts[pair] = dataclasses.replace(
                record,
                claim_a=None if record.a_id == memory_id else record.claim_a,
                claim_b=None if record.b_id == memory_id else record.claim_b,
                slot=None,
            )
