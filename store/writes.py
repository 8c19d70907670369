"""The rows each part of a plan writes (``store.effects``). It decides nothing: guards are
compared with this process's copy of the store, rows are made.

``PlanWriter.effects`` gives the rows of one plan, numbered after the copy's last audit
and conflict-log sequence numbers; ``Database`` writes them (or journals them) in one
transaction. A forget's statements are run at once (``write_forgets``): forgetting
erases, so it is never kept in the journal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import duckdb

from store.effects import IMPORTED_UPDATE, OBSERVED_UPDATE, STATUS_UPDATE, Effects
from store.errors import StalePlan, StoreError
from store.mirror import Mirror
from store.model import FORGOTTEN_REASON, AuditAction, Status
from store.plan import Imported, NewMemory, Plan, StatusChange
from store.rows import check_to_json, conflict_params, receipt_params

__all__ = ["PlanWriter", "check_guards", "write_forgets", "write_verdicts"]


def check_guards(plan: Plan, mirror: Mirror) -> None:
    """Every change still applies to the memory as the store holds it (the copy is current:
    this process holds the store), or as the plan itself inserts it; and every memory it
    inserts is new. Checked here, before the plan is journaled, so that writing the journal
    into its tables later cannot meet a duplicate key."""
    news = [*plan.memories, *(imp.new for imp in plan.imported)]
    inserted = {new.memory.id: new.memory for new in news}
    if len(inserted) != len(news) or any(i in mirror.memories for i in inserted):
        raise StoreError("a memory with this id is already stored; nothing was written")
    for change in plan.changes:
        mem = inserted.get(change.memory_id) or mirror.memories.get(change.memory_id)
        if mem is None:
            raise StoreError(f"memory {change.memory_id} vanished during the change")
        if (mem.status, mem.refuted_by) != change.expect:
            raise StalePlan(
                f"memory {change.memory_id} changed since it was read; nothing was written"
            )


class PlanWriter:
    def __init__(self, mirror: Mirror, at: datetime) -> None:
        self._mirror = mirror
        self._at = at
        self._audit_seq = mirror.audit_seq
        self._out = Effects()

    @property
    def audit_seq(self) -> int:
        """The last audit sequence number once the rows made so far are written."""
        return self._audit_seq

    def effects(self, plan: Plan) -> tuple[Effects, list[int]]:
        """The rows of every part but forgets and verdicts, and the conflict-log sequence
        numbers given, in order."""
        # A status change to a memory this plan inserts is folded into its insert (one
        # update fewer); its receipt and audit row are written as for any change.
        inserted = {new.memory.id for new in plan.memories}
        folded = {c.memory_id: c for c in plan.changes if c.memory_id in inserted}
        for new in plan.memories:
            self._memory(new, folded.get(new.memory.id))
        self._imported(plan.imported)
        self._changes(plan.changes, inserted)
        self._observations(plan)
        seqs = self._conflicts(plan)
        for event in plan.events:
            self._audit_row(event.memory_id, event.action, None, None, event.actor)
        for q in plan.questions:
            self._out.add("questions", [q.id, q.memory_id, q.user, q.at])
        for forget in plan.forgets:
            self._out.add("receipts", receipt_params(forget.receipt))
            self._audit_row(
                forget.memory_id,
                AuditAction.FORGET,
                forget.status,
                forget.status,
                forget.receipt.actor,
                forget.receipt.reason,
                forget.receipt.id,
                at=forget.receipt.created_at,
            )
        return self._out, seqs

    # -- parts ----------------------------------------------------------------------------
    def _memory(self, new: NewMemory, change: StatusChange | None) -> None:
        mem = new.memory
        status, refuted_by, code_commit = mem.status, mem.refuted_by, None
        if change is not None:
            status, refuted_by = change.to_status, change.refuted_by
            code_commit = change.commit if change.action is AuditAction.VERIFY else None
        self._out.add(
            "memories",
            [
                mem.id,
                mem.text,
                new.text_hash,
                new.search_text,
                mem.subject,
                mem.kind.value,
                mem.scope,
                mem.source.value,
                mem.origin,
                mem.created_at,
                mem.created_at,
                mem.commit,
                status.value,
                refuted_by.value if refuted_by else None,
                mem.confidence,
                mem.support,
                mem.contradiction,
                mem.supersedes,
                json.dumps(mem.flags),
                mem.observations,
                json.dumps(mem.origins),
                mem.evidence_at or mem.created_at,
                mem.expires_at,
                mem.attribute,
                mem.slot_value,
                new.core,
                code_commit,
            ],
        )
        self._anchors_and_links(new)
        self._audit_row(
            mem.id,
            AuditAction.REMEMBER,
            None,
            mem.status,
            mem.origin,
            commit=mem.commit,
            detail=new.detail,
            at=mem.created_at,
        )

    def _anchors_and_links(self, new: NewMemory) -> None:
        mem = new.memory
        for position, stored in enumerate(mem.anchors):
            a = stored.anchor
            self._out.add(
                "anchors",
                [
                    mem.id,
                    position,
                    a.kind.value,
                    a.value,
                    a.expect.value,
                    a.scope,
                    a.version,
                    stored.provenance.value,
                    json.dumps(stored.found_in),
                    stored.content_hash,
                ],
            )
        for parent in mem.derived_from:
            self._out.add("links", [mem.id, parent, "derived_from"])
        if mem.supersedes:
            self._out.add("links", [mem.id, mem.supersedes, "supersedes"])
        for term, tf in new.terms.items():
            self._out.add("terms", [mem.id, term, tf])

    def _imported(self, imported: Sequence[Imported]) -> None:
        """Memories from another store, as they were: rows, receipts, observations, and
        their trails in their original order (renumbered after this store's)."""
        for imp in imported:
            mem, new = imp.new.memory, imp.new
            gone = mem.forgotten_at is not None
            self._out.add(
                "memories",
                [
                    mem.id,
                    None if gone else mem.text,
                    None if gone else new.text_hash,
                    None if gone else new.search_text,
                    mem.subject,
                    mem.kind.value,
                    mem.scope,
                    mem.source.value,
                    mem.origin,
                    mem.created_at,
                    mem.updated_at or mem.created_at,
                    mem.commit,
                    mem.status.value,
                    mem.refuted_by.value if mem.refuted_by else None,
                    mem.confidence,
                    mem.support,
                    mem.contradiction,
                    mem.supersedes,
                    json.dumps(mem.flags),
                    mem.observations,
                    json.dumps(mem.origins),
                    mem.evidence_at or mem.created_at,
                    mem.expires_at,
                    mem.attribute,
                    mem.slot_value,
                    None if gone else new.core,
                    imp.code_commit,
                ],
            )
            if mem.forgotten_at is not None or mem.last_confirmed_at is not None:
                self._out.update(
                    "import", IMPORTED_UPDATE, [mem.forgotten_at, mem.last_confirmed_at, mem.id]
                )
            self._anchors_and_links(new)
            for receipt in imp.receipts:
                self._out.add("receipts", receipt_params(receipt))
            for obs in imp.observations:
                self._out.add(
                    "observations",
                    [
                        obs.id,
                        mem.id,
                        obs.at,
                        "confirms" if obs.agrees else "contradicts",
                        obs.kind.value,
                        obs.source.value,
                        obs.origin,
                        obs.weight,
                        obs.note,
                    ],
                )
        trail = sorted((e for imp in imported for e in imp.trail), key=lambda e: e.seq)
        for e in trail:
            self._audit_row(
                e.memory_id,
                e.action,
                e.from_status,
                e.to_status,
                e.actor,
                e.reason,
                e.receipt_id,
                e.commit,
                e.detail,
                at=e.at,
            )

    def _changes(self, changes: Sequence[StatusChange], inserted: set[str]) -> None:
        for ch in changes:
            if ch.memory_id not in inserted:  # else folded into its insert
                self._out.update(
                    "status",
                    STATUS_UPDATE,
                    [
                        ch.to_status.value,
                        ch.refuted_by.value if ch.refuted_by else None,
                        self._at,
                        ch.commit if ch.action is AuditAction.VERIFY else None,
                        ch.memory_id,
                    ],
                )
            if ch.receipt is not None:
                self._out.add("receipts", receipt_params(ch.receipt))
            self._audit_row(
                ch.memory_id,
                ch.action,
                ch.expect[0],
                ch.to_status,
                ch.actor,
                ch.reason,
                ch.receipt.id if ch.receipt else None,
                ch.commit,
                ch.detail,
            )

    def _observations(self, plan: Plan) -> None:
        for obs in plan.observations:
            self._out.add(
                "observations",
                [
                    obs.id,
                    obs.memory_id,
                    obs.at,
                    "confirms" if obs.agrees else "contradicts",
                    obs.kind.value,
                    obs.source.value,
                    obs.origin,
                    obs.weight,
                    obs.note,
                ],
            )
            flags = None
            if obs.add_flag:
                mem = self._mirror.memories[obs.memory_id]
                flags = json.dumps(sorted({*mem.flags, obs.add_flag}))
            self._out.update(
                "observation",
                OBSERVED_UPDATE,
                [
                    obs.at,
                    obs.support,
                    obs.contradiction,
                    obs.at,
                    json.dumps(obs.origins),
                    obs.confidence,
                    flags,
                    obs.confirmed,
                    obs.at,
                    obs.memory_id,
                ],
            )
            self._audit_row(
                obs.memory_id,
                AuditAction.OBSERVE,
                None,
                None,
                obs.origin,
                obs.note,
                detail={
                    "polarity": "confirms" if obs.agrees else "contradicts",
                    "kind": obs.kind.value,
                    "source": obs.source.value,
                    "weight": obs.weight,
                },
                at=obs.at,
            )

    def _conflicts(self, plan: Plan) -> list[int]:
        seqs: list[int] = []
        for record in plan.conflicts:
            seq = self._mirror.conflict_seq + len(seqs) + 1
            seqs.append(seq)
            self._out.add("conflict_log", conflict_params(record, seq))
        return seqs

    def _audit_row(
        self,
        memory_id: str,
        action: AuditAction,
        from_status: Status | None,
        to_status: Status | None,
        actor: str,
        reason: str | None = None,
        receipt_id: str | None = None,
        commit: str | None = None,
        detail: Mapping[str, Any] | None = None,
        at: datetime | None = None,
    ) -> None:
        # The audit table is append-only; its sequence continues the copy's, which is
        # current: this process holds the store (the lease) while the plan is written.
        self._audit_seq += 1
        self._out.add(
            "audit",
            [
                self._audit_seq,
                memory_id,
                at or self._at,
                action.value,
                from_status.value if from_status else None,
                to_status.value if to_status else None,
                actor,
                reason,
                receipt_id,
                commit,
                json.dumps(dict(detail or {}), sort_keys=True),
            ],
        )


def write_forgets(cur: Any, plan: Plan, step: Callable[[str], None]) -> None:
    """Erase what each forgotten memory said, from every table that holds it, in the
    caller's transaction (its receipt and audit row are among the plan's effects)."""
    for forget in plan.forgets:
        mid, at = forget.memory_id, forget.receipt.created_at
        cur.execute(
            "UPDATE memories SET text = NULL, text_hash = NULL, search_text = NULL,"
            " subject = NULL, scope = NULL, attribute = NULL, slot_value = NULL, core = NULL,"
            " forgotten_at = ?, updated_at = ? WHERE id = ?",
            [at, at, mid],
        )
        step("forget")
        for table in ("anchors", "verdicts", "terms"):
            cur.execute(f"DELETE FROM {table} WHERE memory_id = ?", [mid])
        cur.execute("UPDATE observations SET note = NULL WHERE memory_id = ?", [mid])
        # The trail keeps who changed what and when; the words (which may quote the text,
        # name its anchors or its subject) go, but for the forget's own.
        cur.execute(
            "UPDATE audit SET reason = NULL, detail = '{}' WHERE memory_id = ?"
            " AND action <> 'forget'",
            [mid],
        )
        cur.execute(
            f"UPDATE receipts SET reason = '{FORGOTTEN_REASON}', evidence = NULL"
            " WHERE memory_id = ? AND action <> 'forget'",
            [mid],
        )
        # The conflict log keeps that a pair was decided, not what the claims said.
        cur.execute("UPDATE conflict_log SET claim_a = NULL, slot = NULL WHERE a_id = ?", [mid])
        cur.execute("UPDATE conflict_log SET claim_b = NULL, slot = NULL WHERE b_id = ?", [mid])


def write_verdicts(cur: duckdb.DuckDBPyConnection, plan: Plan) -> None:
    """Cached verdicts, replacing those of the same memory, commit and work-tree key."""
    if not plan.verdicts:
        return
    encoded = [(v, *check_to_json(v.check)) for v in plan.verdicts]
    cur.execute(
        "INSERT OR REPLACE INTO verdicts SELECT unnest(?), unnest(?), unnest(?),"
        " unnest(?), unnest(?), unnest(?)",
        [
            [v.memory_id for v, _, _ in encoded],
            [v.check.commit for v, _, _ in encoded],
            [v.key for v, _, _ in encoded],
            [verdict for _, verdict, _ in encoded],
            [checks for _, _, checks in encoded],
            [v.at for v, _, _ in encoded],
        ],
    )
