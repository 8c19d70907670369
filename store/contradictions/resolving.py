"""What deciding conflicts does, as a plan: the loser superseded (REFUTED by correction,
with a receipt) or demoted (a contradicting observation), and one conflict-log row per
pair whose decision changed. Plain functions over claims and memories."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime

from store.contradictions.claims import Slot, env_scope, negation_core, parse_slot, slot_key
from store.contradictions.rules import (
    Claim,
    Conflict,
    ConflictKind,
    Outcome,
    Resolution,
    candidate_pairs,
    detect,
    resolve,
)
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.lifecycle import supersede_change
from store.model import Memory, ReceiptAction, Source, Status, is_retracted
from store.plan import ConflictRecord, Plan
from store.reading import confidence

__all__ = ["CONFLICT_ORIGIN", "claim_keys", "claims_of", "settle"]

CONFLICT_ORIGIN = "anchormem:conflict"
_ENV_SCOPES = frozenset(
    {"staging", "production", "development", "test", "qa", "local", "ci", "preview", "sandbox"}
)


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
    elif not attribute and not value:
        slot = parse_slot(text, subject)
    return slot, env_scope(text), negation_core(text)[0]


def claims_of(
    memories: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> dict[str, Claim]:
    """What conflict detection needs of each live memory."""
    claims = {}
    for mem in memories:
        if mem.forgotten:
            continue
        slot = None
        if mem.attribute and mem.slot_value:
            subject, _, attribute = mem.attribute.partition("|")
            slot = Slot(subject, attribute, mem.slot_value)
        claims[mem.id] = Claim(
            id=mem.id,
            text=mem.text,
            kind=mem.kind,
            slot=slot,
            scope=env_scope(mem.text) or (mem.scope if mem.scope in _ENV_SCOPES else None),
            anchors=frozenset(
                (s.anchor.kind.value, s.anchor.value, s.anchor.scope, s.anchor.expect.value)
                for s in mem.anchors
            ),
            status=mem.status,
            refuted_by=mem.refuted_by,
            confidence=confidence(mem, now, settings),
            origins=len(mem.origins),
            created_at=mem.created_at,
            origin=mem.origin,
            supersedes=mem.supersedes,
        )
    return claims


def pairs_with(
    new: Memory, others: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> list[tuple[Claim, Claim]]:
    """Candidate pairs of a memory just written with the live memories sharing a key."""
    claims = claims_of([new, *others], now, settings)
    live = [c for c in claims.values() if not _retracted(c)]
    fresh = [claims[new.id]] if new.id in claims else []
    return candidate_pairs(live, fresh)


def all_pairs(
    memories: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> tuple[int, list[tuple[Claim, Claim]]]:
    claims = claims_of(memories, now, settings)
    live = [c for c in claims.values() if not _retracted(c)]
    return len(live), candidate_pairs(live)


def settle(
    pairs: Sequence[tuple[Claim, Claim]],
    memories: Mapping[str, Memory],
    latest: Mapping[tuple[str, str], ConflictRecord],
    now: datetime,
    settings: EvidenceSettings,
) -> tuple[Plan, list[ConflictRecord]]:
    """Detect and decide each pair; a pair whose decision is the one logged last is left
    as it is. Returns the plan and every conflict found (new or as logged)."""
    current = dict(memories)
    plan = Plan()
    found: list[ConflictRecord] = []
    for a, b in pairs:
        conflict = detect(a, b)
        if conflict is None:
            continue
        resolution = resolve(conflict, settings.strategy(a.kind))
        before = latest.get((a.id, b.id))
        if before is not None and (before.state, before.winner, before.outcome) == (
            resolution.state,
            resolution.winner,
            resolution.outcome,
        ):
            found.append(before)
            continue
        plan += _decided(resolution, current, now, settings)
        record = _record(conflict, resolution, now)
        plan += Plan(conflicts=(record,))
        found.append(record)
    return plan, found


def _decided(
    res: Resolution, current: dict[str, Memory], now: datetime, settings: EvidenceSettings
) -> Plan:
    """The loser's part of a decision; ``current`` follows the plan as it grows."""
    if res.loser is None or res.winner is None:
        return Plan()
    loser = current.get(res.loser)
    if loser is None or loser.status is Status.REFUTED:
        return Plan()
    if res.outcome is Outcome.REFUTED:
        change = supersede_change(
            loser,
            "anchormem",
            f"conflicts with {res.winner}: {res.reason.value}",
            now,
            ReceiptAction.SUPERSEDE,
            cause=res.winner,
            detail={"conflict_with": res.winner, "reason_code": res.reason.value},
        )
        current[loser.id] = dataclasses.replace(
            loser, status=change.to_status, refuted_by=change.refuted_by
        )
        return Plan(changes=(change,))
    if res.outcome is Outcome.DEMOTED:
        record = observation(
            loser,
            False,
            ObservationKind.REPORT,
            Source.AGENT,
            CONFLICT_ORIGIN,
            f"lost a conflict to {res.winner}",
            1.0,
            now,
            settings,
        )
        current[loser.id] = observed(loser, record)
        return Plan(observations=(record,))
    return Plan()


def _record(conflict: Conflict, res: Resolution, now: datetime) -> ConflictRecord:
    a, b = conflict.a, conflict.b
    return ConflictRecord(
        a_id=a.id,
        b_id=b.id,
        kind=conflict.kind,
        claim_a=a.text,
        claim_b=b.text,
        state=res.state,
        rule=res.rule,
        outcome=res.outcome,
        winner=res.winner,
        loser=res.loser,
        reason_code=res.reason,
        confidence_a=round(a.confidence, 2),
        confidence_b=round(b.confidence, 2),
        slot=slot_key(a.slot) if conflict.kind is ConflictKind.SLOT and a.slot else None,
        at=now,
    )


def _retracted(c: Claim) -> bool:
    return is_retracted(c.status, c.refuted_by)
