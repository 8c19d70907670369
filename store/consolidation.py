"""Contradictions in the store: checked on every remember and in a ``consolidate`` pass
over the whole store, resolved by the rules of ``store.conflicts``, every resolution an
append-only row of ``conflict_log`` (adr/0006). A mixin of ``MemoryService``."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from store.claims import Slot, env_scope, negation_core, parse_slot, slot_key
from store.conflicts import Claim, Conflict, Resolution, Strategy, candidate_pairs, detect
from store.conflicts import resolve as resolve_conflict
from store.db import Database, utcnow
from store.evidence import ObservationKind
from store.ids import new_id
from store.model import Memory, Observation, Receipt, ReceiptAction, RefutedBy, Status, StatusChange

__all__ = ["Consolidation", "claim_keys"]

CONFLICT_ORIGIN = "anchormem:conflict"
FLIP_REPORT_AT = 2


def claim_keys(
    text: str, subject: str | None, attribute: str | None, value: str | None
) -> tuple[Slot | None, str | None, str]:
    """The slot (given, or parsed from the text), the environment scope and the negation
    core of a claim."""
    slot = None
    if attribute and value:
        slot = Slot(
            (subject or "").strip().lower(), attribute.strip().lower(), value.strip().lower()
        )
    elif attribute or value:
        slot = None
    else:
        slot = parse_slot(text, subject)
    return slot, env_scope(text), negation_core(text)[0]


class Consolidation:
    """Conflict detection and resolution for ``MemoryService``."""

    db: Database
    _confidence: Callable[[Memory, datetime], float]
    _observe_counters: Callable[..., Observation]

    def _strategy(self, kind: str) -> Strategy:
        raw = os.environ.get(f"ANCHORMEM_CONFLICT_{kind.upper()}", "")
        try:
            return Strategy(raw.strip().lower()) if raw else Strategy.DEFAULT
        except ValueError:
            return Strategy.DEFAULT

    def _claims(self, memories: Mapping[str, Memory], now: datetime) -> dict[str, Claim]:
        claims = {}
        for mem in memories.values():
            if mem.forgotten_at is not None:
                continue
            slot = None
            if mem.attribute and mem.slot_value:
                subject, _, attribute = mem.attribute.partition("|")
                slot = Slot(subject, attribute, mem.slot_value)
            claims[mem.id] = Claim(
                id=mem.id,
                text=mem.text,
                kind=mem.kind.value,
                slot=slot,
                scope=env_scope(mem.text) or (mem.scope if mem.scope in _ENV_SCOPES else None),
                anchors=frozenset(
                    (s.anchor.kind.value, s.anchor.value, s.anchor.scope, s.anchor.expect.value)
                    for s in mem.anchors
                ),
                status=mem.status.value,
                refuted_by=mem.refuted_by.value if mem.refuted_by else None,
                confidence=self._confidence(mem, now),
                origins=len(mem.origins),
                created_at=mem.created_at,
                origin=mem.origin,
                supersedes=mem.supersedes,
            )
        return claims

    def _check_new(self, memory_id: str) -> list[dict[str, Any]]:
        """Conflicts of a memory just written, resolved now."""
        mem = self.db.get(memory_id)
        if mem is None:
            return []
        ids = self.db.conflict_candidates(memory_id, mem.attribute, _core_of(mem))
        if not ids:
            return []
        now = utcnow()
        claims = self._claims(self.db.load([memory_id, *ids]), now)
        live = [c for c in claims.values() if not _retracted(c)]
        new = [claims[memory_id]] if memory_id in claims else []
        return self._settle(candidate_pairs(live, new), now)

    def consolidate(self) -> dict[str, Any]:
        """One pass over the whole store: find candidate pairs by shared keys, detect and
        resolve conflicts, re-decide earlier code-decided ones; report what changed."""
        started = time.perf_counter()
        now = utcnow()
        ids = self.db.list_ids([Status.ACTIVE, Status.VERIFIED, Status.REFUTED], 1_000_000)
        claims = self._claims(self.db.load(ids), now)
        live = [c for c in claims.values() if not _retracted(c)]
        pairs = candidate_pairs(live)
        settled = self._settle(pairs, now)
        return {
            "memories": len(live),
            "pairs_compared": len(pairs),
            "conflicts": settled,
            "seconds": round(time.perf_counter() - started, 4),
        }

    def _settle(self, pairs: Sequence[tuple[Claim, Claim]], now: datetime) -> list[dict[str, Any]]:
        latest = {
            (r["a_id"], r["b_id"]): r
            for r in self.db.conflict_rows(sorted({c.id for pair in pairs for c in pair}))
        }
        results = []
        for a, b in pairs:
            conflict = detect(a, b)
            if conflict is None:
                continue
            resolution = resolve_conflict(conflict, self._strategy(a.kind))
            key = (a.id, b.id)
            before = latest.get(key)
            unchanged = before is not None and (
                before["state"],
                before["winner"],
                before["outcome"],
            ) == (resolution.state, resolution.winner, resolution.outcome)
            if not unchanged:
                self._apply(conflict, resolution, now)
                row = _row(conflict, resolution)
                self.db.log_conflict(row, now)
                results.append(_public(row))
            elif before is not None:
                results.append(_public(before))
        return results

    def _apply(self, conflict: Conflict, res: Resolution, now: datetime) -> None:
        if res.loser is None or res.winner is None:
            return
        loser = self.db.get(res.loser)
        if loser is None or loser.status is Status.REFUTED:
            return
        if res.outcome == "refuted":
            receipt = Receipt(
                new_id("r"),
                loser.id,
                ReceiptAction.SUPERSEDE,
                "anchormem",
                f"conflicts with {res.winner}: {res.reason.value}",
                now,
                cause_id=res.winner,
            )
            self.db.apply_changes(
                [
                    StatusChange(
                        loser.id,
                        Status.REFUTED,
                        RefutedBy.CORRECTION,
                        "supersede",
                        "anchormem",
                        receipt.reason,
                        receipt,
                        detail={"conflict_with": res.winner, "reason_code": res.reason.value},
                    )
                ],
                now,
            )
        elif res.outcome == "demoted":
            self._observe_counters(
                loser,
                False,
                ObservationKind.REPORT,
                "agent",
                CONFLICT_ORIGIN,
                f"lost a conflict to {res.winner}",
                1.0,
                now,
            )

    def _resettle(self, ids: Sequence[str]) -> None:
        """Decide again the logged conflicts of memories whose status just changed."""
        rows = self.db.conflict_rows(ids)
        if not rows:
            return
        now = utcnow()
        involved = sorted({r["a_id"] for r in rows} | {r["b_id"] for r in rows})
        claims = self._claims(self.db.load(involved), now)
        pairs = [
            (claims[r["a_id"]], claims[r["b_id"]])
            for r in rows
            if r["a_id"] in claims and r["b_id"] in claims
        ]
        self._settle(pairs, now)

    def conflicts(self) -> dict[str, Any]:
        """Open and resolved conflicts, and slots whose value keeps flipping."""
        rows = [_public(r) for r in self.db.conflict_rows()]
        return {"conflicts": rows, "flipping_slots": self._flipping_slots()}

    def _flipping_slots(self) -> list[dict[str, Any]]:
        history: dict[str, list[str]] = {}
        memories: dict[str, str | None] = {}
        for slot, winner, loser in self.db.slot_history():
            for mid in (winner, loser):
                if mid not in memories:
                    found = self.db.get(mid)
                    memories[mid] = found.slot_value if found else None
            history.setdefault(slot, []).append(memories.get(winner) or "")
        flipping = []
        for slot, values in history.items():
            reversals = sum(
                1
                for i in range(2, len(values))
                if values[i] == values[i - 2] and values[i] != values[i - 1]
            )
            if reversals >= FLIP_REPORT_AT - 1 and len(values) >= 3:
                flipping.append(
                    {
                        "slot": slot,
                        "values": values,
                        "reversals": reversals,
                        "hint": "this slot keeps flipping; it may hold several "
                        "values (cardinality) rather than one",
                    }
                )
        return flipping

    def _open_conflicts(self, ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        marks: dict[str, list[dict[str, Any]]] = {}
        for row in self.db.conflict_rows(ids):
            if row["state"] != "open":
                continue
            for me, other in ((row["a_id"], row["b_id"]), (row["b_id"], row["a_id"])):
                marks.setdefault(me, []).append(
                    {"with": other, "reason_code": row["reason_code"], "kind": row["kind"]}
                )
        return marks


_ENV_SCOPES = frozenset(
    {"staging", "production", "development", "test", "qa", "local", "ci", "preview", "sandbox"}
)


def _retracted(c: Claim) -> bool:
    return c.status == "REFUTED" and c.refuted_by in ("retraction", "correction")


def _core_of(mem: Memory) -> str | None:
    core = negation_core(mem.text)[0]
    return core or None


def _row(conflict: Conflict, res: Resolution) -> dict[str, Any]:
    a, b = conflict.a, conflict.b
    return {
        "a_id": a.id,
        "b_id": b.id,
        "kind": conflict.kind.value,
        "claim_a": a.text,
        "claim_b": b.text,
        "state": res.state,
        "rule": res.rule,
        "outcome": res.outcome,
        "winner": res.winner,
        "loser": res.loser,
        "reason_code": res.reason.value,
        "confidence_a": round(a.confidence, 2),
        "confidence_b": round(b.confidence, 2),
        "slot": slot_key(a.slot) if conflict.kind.value == "slot" and a.slot else None,
    }


def _public(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "ids": [row["a_id"], row["b_id"]],
        "kind": row["kind"],
        "claims": [row["claim_a"], row["claim_b"]],
        "state": row["state"],
        "rule": row["rule"],
        "outcome": row["outcome"],
        "winner": row["winner"],
        "loser": row["loser"],
        "reason_code": row["reason_code"],
        "confidences": [row["confidence_a"], row["confidence_b"]],
    }
