"""Contradictions in the store: checked for each memory written, in a ``consolidate`` pass
over the whole store, and again for memories whose status the code just changed. Every
decision is planned by ``resolving`` and written with the operation that caused it."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from store.backend import Store, utcnow
from store.contradictions.outcomes import ConflictKind, ConflictState
from store.evidence.settings import EvidenceSettings
from store.mirror import Mirror
from store.model import Memory, Status
from store.plan import ConflictRecord, Plan, StatusChange
from store.reading import ConflictMark
from store.results import ConflictsResult, ConsolidateResult, FlippingSlot
from store.search import memory_terms

if TYPE_CHECKING:
    from store.contradictions.rules import Claim

__all__ = ["Contradictions", "asked"]

# The readers of notes (``resolving``, ``rules``, ``candidates``) are imported by the calls
# that judge pairs, not by reading: a read-only call never loads them.

FLIP_REPORT_AT = 2
NEIGHBOURS = 24  # memories sharing the rarest words with a new one, judged on remember
_COMMON = 0.05  # a word in more than this share of memories does not find neighbours


_ASKED = (ConflictState.POSSIBLE, ConflictState.OPEN)


def asked(records: Sequence[ConflictRecord]) -> tuple[ConflictRecord, ...]:
    """The records that put a question to the agent: possible conflicts, and conflicts
    the rules found but could not decide (too close, scope ambiguous)."""
    return tuple(r for r in records if r.state in _ASKED)


class Contradictions:
    def __init__(self, db: Store, settings: EvidenceSettings) -> None:
        self._db = db
        self._settings = settings

    def on_remember(
        self, new: Memory, core: str | None, now: datetime, close: Collection[str] = ()
    ) -> tuple[Plan, list[ConflictRecord]]:
        """The conflicts (and questions) of a memory about to be written (as it will be
        stored): judged against the memories sharing a key or its rarest words, and the
        ``close`` notes recall found for it (``related``), which may say the same thing in
        other words. A key held by more than ``MAX_GROUP`` is too common to pair on
        (``candidates``): its holders are not even read."""
        from store.contradictions.candidates import MAX_GROUP
        from store.contradictions.resolving import pairs_with, settle

        sharing = self._db.sharing_keys(new, core, MAX_GROUP)
        ids = set(sharing) | set(self._neighbours(new)) | set(close)
        ids.discard(new.id)
        others = list(self._db.load(sorted(ids)).values())
        if not others:
            return Plan(), []
        pairs = pairs_with(new, others, close)
        if not pairs:
            return Plan(), []
        memories = {new.id: new, **{m.id: m for m in others}}
        return settle(pairs, memories, self._latest(pairs), now, self._settings)

    def _neighbours(self, new: Memory) -> list[str]:
        terms = memory_terms(f"{new.text} {new.subject or ''}".casefold())

        def rarest(m: Mirror) -> list[str]:
            most = max(NEIGHBOURS, _COMMON * (m.index.documents or 1))
            return m.index.rare_overlap(list(terms), most, NEIGHBOURS)

        return self._db.search(rarest)

    def kind_of(self, a: Memory, b: Memory) -> ConflictKind:
        """What the rules make of a pair an agent judges (``JUDGED`` if nothing)."""
        from store.contradictions.candidates import ordered
        from store.contradictions.resolving import claims_of
        from store.contradictions.rules import judge

        claims = claims_of([a, b])
        if a.id not in claims or b.id not in claims:
            return ConflictKind.JUDGED
        judged = judge(*ordered(claims[a.id], claims[b.id]))
        if judged is None:
            return ConflictKind.JUDGED
        return judged.kind

    def latest(self, a_id: str, b_id: str) -> ConflictRecord | None:
        """The last logged decision of a pair, in either order."""
        for record in self._db.conflicts([a_id]):
            if {record.a_id, record.b_id} == {a_id, b_id}:
                return record
        return None

    def after_changes(self, changes: Sequence[StatusChange], now: datetime) -> Plan:
        """Decide again the logged conflicts of memories whose status ``changes`` change:
        a code verdict that flipped may decide a conflict the other way."""
        if not changes:
            return Plan()
        records = self._db.conflicts([c.memory_id for c in changes])
        if not records:
            return Plan()
        from store.contradictions.resolving import claims_of, settle

        involved = sorted({r.a_id for r in records} | {r.b_id for r in records})
        memories = self._db.load(involved)
        for change in changes:  # as they will be once the changes are written
            if change.memory_id in memories:
                memories[change.memory_id] = replace(
                    memories[change.memory_id],
                    status=change.to_status,
                    refuted_by=change.refuted_by,
                )
        claims = claims_of(list(memories.values()))
        pairs = [
            (claims[r.a_id], claims[r.b_id])
            for r in records
            if r.a_id in claims and r.b_id in claims
        ]
        latest = {(r.a_id, r.b_id): r for r in records}
        plan, _ = settle(pairs, memories, latest, now, self._settings)
        return plan

    def consolidate(self) -> tuple[Plan, ConsolidateResult]:
        """One pass over the whole store: candidate pairs by shared keys, detected and
        decided; earlier decisions are re-decided and logged again only if they change."""
        from store.contradictions.related import related_pairs
        from store.contradictions.related_note import PAIRS
        from store.contradictions.resolving import all_pairs, settle

        started = time.perf_counter()
        now = utcnow()
        ids = self._db.list_ids([Status.ACTIVE, Status.VERIFIED, Status.REFUTED], 10_000_000)
        memories = self._db.load(ids)
        live, pairs = all_pairs(list(memories.values()))
        plan, found = settle(pairs, memories, self._latest(pairs), now, self._settings)
        # What the rules could not read is put to the agent: the close pairs nobody judged.
        close, more, compared = related_pairs(
            self._db, list(memories.values()), [(r.a_id, r.b_id) for r in found], PAIRS
        )
        seconds = round(time.perf_counter() - started, 4)
        decided = tuple(r for r in found if r.state is not ConflictState.POSSIBLE)
        result = ConsolidateResult(
            live, len(pairs), decided, seconds, asked(found), close, more, compared
        )
        return plan, result

    def report(self) -> ConflictsResult:
        """Open and resolved conflicts, and slots whose value keeps flipping."""
        return ConflictsResult(tuple(self._db.conflicts()), tuple(self._flipping_slots()))

    def marks(self, ids: Sequence[str]) -> dict[str, list[ConflictMark]]:
        """Open conflicts of ``ids``: for each memory, the other side."""
        marks: dict[str, list[ConflictMark]] = {}
        records = [r for r in self._db.conflicts(ids) if r.state is ConflictState.OPEN]
        sides = self._db.load(sorted({r.a_id for r in records} | {r.b_id for r in records}))
        for record in records:
            a, b = sides.get(record.a_id), sides.get(record.b_id)
            if a is None or b is None or a.forgotten or b.forgotten:
                continue  # a forgotten memory is gone, and so is its side of the pair
            for me, other in ((record.a_id, record.b_id), (record.b_id, record.a_id)):
                mark = ConflictMark(other, record.reason_code, record.kind)
                marks.setdefault(me, []).append(mark)
        return marks

    def _latest(
        self, pairs: Sequence[tuple[Claim, Claim]]
    ) -> Mapping[tuple[str, str], ConflictRecord]:
        return self._db.latest_conflicts([(a.id, b.id) for a, b in pairs])

    def _flipping_slots(self) -> list[FlippingSlot]:
        history: dict[str, list[str]] = {}
        for slot, winner, _loser in self._db.slot_history():
            found = self._db.get(winner)
            history.setdefault(slot, []).append((found.slot_value if found else None) or "")
        flipping = []
        for slot, values in history.items():
            reversals = sum(
                1
                for i in range(2, len(values))
                if values[i] == values[i - 2] and values[i] != values[i - 1]
            )
            if reversals >= FLIP_REPORT_AT - 1 and len(values) >= 3:
                flipping.append(FlippingSlot(slot, tuple(values), reversals))
        return flipping
