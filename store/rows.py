"""Rows of the store's tables to the model's values and back (no decisions)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from anchors.verdicts import AnchorCheck, MemoryVerdict, Verdict
from store.bounded_json import shown_detail
from store.contradictions.outcomes import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
from store.model import (
    AuditAction,
    AuditEntry,
    Kind,
    Memory,
    MemoryCheck,
    Receipt,
    ReceiptAction,
    RefutedBy,
    Source,
    Status,
    StoredAnchor,
)
from store.plan import ConflictRecord

__all__ = [
    "ANCHOR_COLUMNS",
    "CONFLICT_COLUMNS",
    "MEMORY_COLUMNS",
    "RECEIPT_COLUMNS",
    "audit_from_row",
    "check_from_json",
    "check_to_json",
    "conflict_from_row",
    "conflict_params",
    "memory_from_row",
    "receipt_from_row",
    "receipt_params",
    "stored_anchor_from_row",
]

MEMORY_COLUMNS = (
    "id, text, subject, kind, scope, source, origin, created_at, commit_id, status, "
    "refuted_by, confidence, support, contradiction, supersedes, flags, forgotten_at, "
    "updated_at, observations, origins, evidence_at, last_confirmed_at, expires_at, "
    "attribute, slot_value, code_commit"
)
_MEMORY_NAMES = tuple(c.strip() for c in MEMORY_COLUMNS.split(","))
ANCHOR_COLUMNS = (
    "memory_id, kind, value, expect, scope, version, provenance, found_in, content_hash"
)
RECEIPT_COLUMNS = "id, memory_id, action, actor, reason, created_at, evidence, cause_id, commit_id"
CONFLICT_COLUMNS = (
    "seq, a_id, b_id, kind, claim_a, claim_b, state, rule, outcome, winner, loser,"
    " reason_code, confidence_a, confidence_b, slot, happened_at"
)


def memory_from_row(
    row: Sequence[Any], anchors: Sequence[StoredAnchor], parents: Sequence[str]
) -> Memory:
    r = dict(zip(_MEMORY_NAMES, row, strict=True))
    return Memory(
        id=r["id"],
        text=r["text"] or "",
        subject=r["subject"],
        kind=Kind(r["kind"]),
        scope=r["scope"],
        source=Source(r["source"]),
        origin=r["origin"],
        created_at=r["created_at"],
        commit=r["commit_id"],
        status=Status(r["status"]),
        refuted_by=RefutedBy(r["refuted_by"]) if r["refuted_by"] else None,
        confidence=float(r["confidence"]),
        support=float(r["support"]),
        contradiction=float(r["contradiction"]),
        anchors=tuple(anchors),
        derived_from=tuple(parents),
        supersedes=r["supersedes"],
        flags=tuple(json.loads(r["flags"])),
        forgotten_at=r["forgotten_at"],
        updated_at=r["updated_at"],
        observations=int(r["observations"]),
        origins=tuple(json.loads(r["origins"])),
        evidence_at=r["evidence_at"],
        last_confirmed_at=r["last_confirmed_at"],
        expires_at=r["expires_at"],
        attribute=r["attribute"],
        slot_value=r["slot_value"],
        code_commit=r["code_commit"],
    )


def stored_anchor_from_row(row: Sequence[Any]) -> StoredAnchor:
    _mid, kind, value, expect, scope, version, prov, found_in, chash = row
    return StoredAnchor(
        Anchor(AnchorKind(kind), value, Expect(expect), scope, version),
        Provenance(prov),
        tuple(json.loads(found_in)),
        chash,
    )


def receipt_from_row(r: Sequence[Any]) -> Receipt:
    return Receipt(r[0], r[1], ReceiptAction(r[2]), r[3], r[4], r[5], r[6], r[7], r[8])


def receipt_params(r: Receipt) -> list[Any]:
    """In the column order of the receipts table."""
    return [
        r.id,
        r.memory_id,
        r.action.value,
        r.actor,
        r.reason,
        r.evidence,
        r.cause_id,
        r.commit,
        r.created_at,
    ]


def audit_from_row(r: Sequence[Any]) -> AuditEntry:
    return AuditEntry(
        r[0],
        r[1],
        r[2],
        AuditAction(r[3]),
        Status(r[4]) if r[4] else None,
        Status(r[5]) if r[5] else None,
        r[6],
        r[7],
        r[8],
        r[9],
        shown_detail(r[10]),  # one pathological detail must not break a listing
    )


def conflict_from_row(r: Sequence[Any]) -> ConflictRecord:
    return ConflictRecord(
        a_id=r[1],
        b_id=r[2],
        kind=ConflictKind(r[3]),
        claim_a=r[4],
        claim_b=r[5],
        state=ConflictState(r[6]),
        rule=Rule(r[7]),
        outcome=Outcome(r[8]),
        winner=r[9],
        loser=r[10],
        reason_code=ReasonCode(r[11]),
        confidence_a=r[12],
        confidence_b=r[13],
        slot=r[14],
        at=r[15],
        seq=int(r[0]),
    )


def conflict_params(c: ConflictRecord, seq: int) -> list[Any]:
    """In the column order of the conflict_log table."""
    return [
        seq,
        c.a_id,
        c.b_id,
        c.kind.value,
        c.claim_a,
        c.claim_b,
        c.state.value,
        c.rule.value,
        c.outcome.value,
        c.winner,
        c.loser,
        c.reason_code.value,
        c.confidence_a,
        c.confidence_b,
        c.slot,
        c.at,
    ]


def check_to_json(check: MemoryCheck) -> tuple[str, str]:
    """(verdict, checks) as cached: each anchor's check by position in ``Memory.anchors``."""
    checks = [[c.verdict.value, list(c.found_in), c.detail] for c in check.checks]
    return check.verdict.value, json.dumps(checks)


def check_from_json(
    verdict: str, checks: str, anchors: Sequence[StoredAnchor], commit: str
) -> MemoryCheck | None:
    """The cached check, or None when it does not fit the memory's anchors."""
    items = json.loads(checks)
    if not isinstance(items, list) or len(items) != len(anchors):
        return None
    try:
        parsed = tuple(
            AnchorCheck(stored.anchor, Verdict(item[0]), tuple(item[1]), str(item[2]))
            for stored, item in zip(anchors, items, strict=True)
        )
        return MemoryCheck(MemoryVerdict(verdict), parsed, commit)
    except (ValueError, TypeError, IndexError, KeyError):
        return None
