"""The SQL that writes each part of a plan, inside the transaction ``Database.apply``
opened. It decides nothing: guards are compared, rows are written.

Statements are few and batched (``unnest`` over lists): each one costs ~0.1-0.3 ms
whatever it writes, so a ``remember`` is one insert per table it touches.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import duckdb

from store.errors import StalePlan, StoreError
from store.mirror import Mirror
from store.model import AuditAction, Status
from store.plan import NewMemory, Plan, StatusChange
from store.rows import check_to_json, conflict_params, receipt_params

__all__ = ["PlanWriter"]

_MEMORY_INSERT = (
    "INSERT INTO memories (id, text, text_hash, search_text, subject, kind, scope,"
    " source, origin, created_at, updated_at, commit_id, status, refuted_by,"
    " confidence, support, contradiction, supersedes, flags, observations,"
    " origins, evidence_at, expires_at, attribute, slot_value, core, code_commit)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class PlanWriter:
    def __init__(
        self,
        cur: duckdb.DuckDBPyConnection,
        mirror: Mirror,
        at: datetime,
        step: Callable[[str], None],
    ) -> None:
        self._cur = cur
        self._mirror = mirror
        self._at = at
        self._step = step
        self._audit: list[list[Any]] = []
        self._receipts: list[list[Any]] = []

    def check_guards(self, plan: Plan) -> None:
        """Every change still applies to the memory as the file holds it (one query), or
        as the plan itself inserts it."""
        changes = plan.changes
        if not changes:
            return
        now = {
            new.memory.id: (
                new.memory.status.value,
                new.memory.refuted_by.value if new.memory.refuted_by else None,
            )
            for new in plan.memories
        }
        ids = sorted({c.memory_id for c in changes} - set(now))
        if ids:
            rows = self._cur.execute(
                "SELECT id, status, refuted_by FROM memories WHERE list_contains(?, id)", [ids]
            ).fetchall()
            now.update({r[0]: (r[1], r[2]) for r in rows})
        for change in changes:
            if change.memory_id not in now:
                raise StoreError(f"memory {change.memory_id} vanished during the change")
            status, refuted_by = change.expect
            expected = (status.value, refuted_by.value if refuted_by else None)
            if now[change.memory_id] != expected:
                raise StalePlan(
                    f"memory {change.memory_id} changed since it was read; nothing was written"
                )

    def write(self, plan: Plan) -> list[int]:
        """Write every part; the conflict-log sequence numbers given, in order."""
        # A status change to a memory this plan inserts is folded into its insert (one
        # statement fewer); its receipt and audit row are written as for any change.
        inserted = {new.memory.id for new in plan.memories}
        folded = {c.memory_id: c for c in plan.changes if c.memory_id in inserted}
        for new in plan.memories:
            self._memory(new, folded.get(new.memory.id))
        self._changes(plan.changes, inserted)
        self._observations(plan)
        seqs = self._conflicts(plan)
        for event in plan.events:
            self._audit_row(event.memory_id, event.action, None, None, event.actor)
        self._forgets(plan)
        if plan.questions:
            q = plan.questions
            self._cur.execute(
                "INSERT INTO questions SELECT unnest(?), unnest(?), unnest(?), unnest(?)",
                [
                    [x.id for x in q],
                    [x.memory_id for x in q],
                    [x.user for x in q],
                    [x.at for x in q],
                ],
            )
        self._verdicts(plan)
        self._flush()
        return seqs

    # -- parts ----------------------------------------------------------------------------
    def _memory(self, new: NewMemory, change: StatusChange | None) -> None:
        mem = new.memory
        status, refuted_by, code_commit = mem.status, mem.refuted_by, None
        if change is not None:
            status, refuted_by = change.to_status, change.refuted_by
            code_commit = change.commit if change.action is AuditAction.VERIFY else None
        self._cur.execute(
            _MEMORY_INSERT,
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
        self._step("memory")
        if mem.anchors:
            columns: list[list[Any]] = [[] for _ in range(10)]
            for position, stored in enumerate(mem.anchors):
                a = stored.anchor
                row = [
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
                ]
                for column, value in zip(columns, row, strict=True):
                    column.append(value)
            self._cur.execute(
                "INSERT INTO anchors SELECT " + ", ".join(["unnest(?)"] * 10), columns
            )
        links = [(mem.id, p, "derived_from") for p in mem.derived_from]
        if mem.supersedes:
            links.append((mem.id, mem.supersedes, "supersedes"))
        if links:
            self._cur.execute(
                "INSERT INTO links SELECT unnest(?), unnest(?), unnest(?)",
                [list(column) for column in zip(*links, strict=True)],
            )
        if new.terms:
            self._cur.execute(
                "INSERT INTO terms SELECT ?, unnest(?), unnest(?)",
                [mem.id, list(new.terms), list(new.terms.values())],
            )
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

    def _changes(self, changes: Sequence[StatusChange], inserted: set[str]) -> None:
        for ch in changes:
            if ch.memory_id not in inserted:  # else folded into its insert
                self._cur.execute(
                    "UPDATE memories SET status = ?, refuted_by = ?, updated_at = ?,"
                    " code_commit = coalesce(?, code_commit) WHERE id = ?",
                    [
                        ch.to_status.value,
                        ch.refuted_by.value if ch.refuted_by else None,
                        self._at,
                        ch.commit if ch.action is AuditAction.VERIFY else None,
                        ch.memory_id,
                    ],
                )
                self._step("status")
            if ch.receipt is not None:
                self._receipts.append(receipt_params(ch.receipt))
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
            self._cur.execute(
                "INSERT INTO observations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            self._step("observation")
            flags = None
            if obs.add_flag:
                mem = self._mirror.memories[obs.memory_id]
                flags = json.dumps(sorted({*mem.flags, obs.add_flag}))
            self._cur.execute(
                "UPDATE memories SET observations = observations + 1, updated_at = ?,"
                " support = ?, contradiction = ?, evidence_at = ?, origins = ?,"
                " confidence = ?, flags = coalesce(?, flags),"
                " last_confirmed_at = CASE WHEN ? THEN ? ELSE last_confirmed_at END"
                " WHERE id = ?",
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
        rows = []
        for record in plan.conflicts:
            seq = self._mirror.conflict_seq + len(seqs) + 1
            seqs.append(seq)
            rows.append(conflict_params(record, seq))
        if rows:
            self._cur.execute(
                "INSERT INTO conflict_log SELECT " + ", ".join(["unnest(?)"] * 16),
                [list(column) for column in zip(*rows, strict=True)],
            )
            self._step("conflict")
        return seqs

    def _forgets(self, plan: Plan) -> None:
        for forget in plan.forgets:
            mid, at = forget.memory_id, forget.receipt.created_at
            self._cur.execute(
                "UPDATE memories SET text = NULL, text_hash = NULL, search_text = NULL,"
                " subject = NULL, scope = NULL, attribute = NULL, slot_value = NULL, core = NULL,"
                " forgotten_at = ?, updated_at = ? WHERE id = ?",
                [at, at, mid],
            )
            self._step("forget")
            for table in ("anchors", "verdicts", "terms"):
                self._cur.execute(f"DELETE FROM {table} WHERE memory_id = ?", [mid])
            self._cur.execute("UPDATE observations SET note = NULL WHERE memory_id = ?", [mid])
            self._cur.execute(
                "UPDATE audit SET detail = '{}' WHERE memory_id = ? AND action = 'remember'",
                [mid],
            )
            # The conflict log keeps that a pair was decided, not what the claim said.
            self._cur.execute("UPDATE conflict_log SET claim_a = NULL WHERE a_id = ?", [mid])
            self._cur.execute("UPDATE conflict_log SET claim_b = NULL WHERE b_id = ?", [mid])
            self._receipts.append(receipt_params(forget.receipt))
            self._audit_row(
                mid,
                AuditAction.FORGET,
                forget.status,
                forget.status,
                forget.receipt.actor,
                forget.receipt.reason,
                forget.receipt.id,
                at=at,
            )

    def _verdicts(self, plan: Plan) -> None:
        if not plan.verdicts:
            return
        encoded = [(v, *check_to_json(v.check)) for v in plan.verdicts]
        self._cur.execute(
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

    # -- audit and receipts, batched ----------------------------------------------------------
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
        # current: this process holds the store (the lease) for the whole transaction.
        seq = self._mirror.audit_seq + len(self._audit) + 1
        self._audit.append(
            [
                seq,
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
            ]
        )

    def _flush(self) -> None:
        if self._receipts:
            self._cur.execute(
                "INSERT INTO receipts SELECT " + ", ".join(["unnest(?)"] * 9),
                [list(column) for column in zip(*self._receipts, strict=True)],
            )
            self._step("receipt")
        if self._audit:
            self._cur.execute(
                "INSERT INTO audit SELECT " + ", ".join(["unnest(?)"] * 11),
                [list(column) for column in zip(*self._audit, strict=True)],
            )
            self._step("audit")
            self._mirror.audit_seq += len(self._audit)
