"""An agent's (or a person's) judgement of a pair, as a plan: what rules cannot decide,
the language model can (``resolve``). Plain functions over memories.

- ``conflict``: the loser is wrong — REFUTED by correction with a receipt naming the
  winner, as an explicit correction is;
- ``compatible``: both hold — nothing changes, and the pair is never asked again;
- ``same``: one claim said twice — the newer counts as a restatement of the older (an
  observation), and the pair is never asked again.

Each writes one conflict-log row (rule ``judgement``) and an audit row per memory, with
the actor.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from store.contradictions.rules import (
    ConflictKind,
    ConflictState,
    Outcome,
    ReasonCode,
    Rule,
)
from store.errors import InvalidInput
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation
from store.evidence.settings import EvidenceSettings
from store.lifecycle import supersede_change
from store.model import AuditAction, Memory, ReceiptAction, is_retracted
from store.plan import ConflictRecord, Event, Plan
from store.reading import confidence

__all__ = ["Judgement", "judgement_plan"]


class Judgement(StrEnum):
    CONFLICT = "conflict"
    COMPATIBLE = "compatible"
    SAME = "same"


_REASONS = {
    Judgement.CONFLICT: ReasonCode.JUDGED_CONFLICT,
    Judgement.COMPATIBLE: ReasonCode.JUDGED_COMPATIBLE,
    Judgement.SAME: ReasonCode.JUDGED_SAME,
}


def judgement_plan(
    first: Memory,
    second: Memory,
    verdict: Judgement,
    winner: str | None,
    reason: str,
    actor: str,
    kind: ConflictKind,
    now: datetime,
    settings: EvidenceSettings,
) -> Plan:
    """The plan of one judgement of the pair (``first`` is the older)."""
    if first.id == second.id:
        raise InvalidInput("a memory cannot conflict with itself: give two different ids")
    for mem in (first, second):
        if mem.forgotten:
            raise InvalidInput(f"memory {mem.id} was forgotten; there is nothing to judge")
    win = lose = None
    plan = Plan()
    if verdict is Judgement.CONFLICT:
        if winner not in (first.id, second.id):
            raise InvalidInput("verdict 'conflict' needs winner: one of the two ids")
        win, lose = (first, second) if winner == first.id else (second, first)
        if is_retracted(win.status, win.refuted_by):
            raise InvalidInput(f"the winner {win.id} is retracted; restore it first")
        if not is_retracted(lose.status, lose.refuted_by):
            change = supersede_change(
                lose,
                actor,
                f"conflicts with {win.id}: {reason}",
                now,
                ReceiptAction.SUPERSEDE,
                cause=win.id,
                detail={"conflict_with": win.id, "reason_code": ReasonCode.JUDGED_CONFLICT.value},
            )
            plan += Plan(changes=(change,))
        outcome = Outcome.REFUTED
    elif winner is not None:
        raise InvalidInput(f"winner is only for verdict 'conflict', not '{verdict.value}'")
    elif verdict is Judgement.SAME:
        record = observation(
            first,
            True,
            ObservationKind.RESTATEMENT,
            second.source,
            second.origin,
            f"the same claim as {second.id}: {reason}",
            None,
            now,
            settings,
        )
        plan += Plan(observations=(record,))
        outcome = Outcome.MERGED
    else:
        outcome = Outcome.KEPT_BOTH
    row = ConflictRecord(
        a_id=first.id,
        b_id=second.id,
        kind=kind,
        claim_a=first.text,
        claim_b=second.text,
        state=ConflictState.RESOLVED,
        rule=Rule.JUDGEMENT,
        outcome=outcome,
        winner=win.id if win else None,
        loser=lose.id if lose else None,
        reason_code=_REASONS[verdict],
        confidence_a=round(confidence(first, now, settings), 2),
        confidence_b=round(confidence(second, now, settings), 2),
        slot=None,
        at=now,
    )
    events = tuple(Event(m.id, now, AuditAction.RESOLVE, actor) for m in (first, second))
    return plan + Plan(conflicts=(row,), events=events)
