"""Retracting, restoring, forgetting memories and judging a pair of them (``resolve``):
each one plan, with receipts."""

from __future__ import annotations

from store.backend import utcnow
from store.contradictions.judging import Judgement, judgement_plan
from store.errors import InvalidInput, StalePlan
from store.inputs import clean_actor, clean_reason, clean_text, parse_choice
from store.lifecycle import forget_plan, restore_plan, retraction_plan
from store.model import ReceiptAction
from store.reader import Reader
from store.results import (
    ForgetResult,
    ResolveResult,
    RestoreResult,
    RetractOutcome,
    RetractResult,
)

__all__ = ["Curating"]

_ATTEMPTS = 3  # a plan refused as stale (another process wrote) is made again


class Curating:
    def __init__(self, reader: Reader) -> None:
        self._reader = reader
        self._db = reader.db

    def retract(
        self, memory_id: object, reason: object, actor: object = None, evidence: object = None
    ) -> RetractResult:
        why = clean_reason(reason)
        who = clean_actor(actor, self._reader.settings.actor)
        proof = clean_text(evidence, "evidence", required=False) if evidence else None
        for _attempt in range(_ATTEMPTS):
            mem = self._reader.get(memory_id, live=True)
            if mem.retracted:
                receipt = self._reader.latest_receipt(
                    mem.id, ReceiptAction.RETRACT, ReceiptAction.SUPERSEDE
                )
                return RetractResult(mem.id, receipt, (), RetractOutcome.ALREADY_RETRACTED)
            children = list(self._db.load(self._db.descendants(mem.id)).values())
            head = self._reader.verifier.head()
            plan = retraction_plan(mem, children, who, why, proof, utcnow(), head)
            try:
                self._db.apply(plan)
            except StalePlan:
                continue
            receipts = [c.receipt for c in plan.changes if c.receipt is not None]
            return RetractResult(mem.id, receipts[0], tuple(receipts[1:]), RetractOutcome.RETRACTED)
        raise StalePlan("the memory kept changing; try again")

    def restore(self, memory_id: object, reason: object, actor: object = None) -> RestoreResult:
        why = clean_reason(reason)
        who = clean_actor(actor, self._reader.settings.actor)
        for _attempt in range(_ATTEMPTS):
            mem = self._reader.get(memory_id, live=True)
            caused = [
                r.memory_id
                for child in self._db.descendants(mem.id)
                for r in self._db.receipts(child)
                if r.action is ReceiptAction.RETRACT and r.cause_id == mem.id
            ]
            with_it = list(self._db.load(sorted(set(caused))).values())
            plan = restore_plan(mem, with_it, who, why, utcnow())
            try:
                self._db.apply(plan)
            except StalePlan:
                continue
            reading = self._reader.readings([mem.id])[0]
            return RestoreResult(
                reading, plan.changes[0].receipt, tuple(c.memory_id for c in plan.changes)
            )
        raise StalePlan("the memory kept changing; try again")

    def forget(self, memory_id: object, reason: object, actor: object = None) -> ForgetResult:
        mem = self._reader.get(memory_id)
        why = clean_reason(reason)
        who = clean_actor(actor, self._reader.settings.actor)
        plan = forget_plan(mem, who, why, utcnow())
        self._db.apply(plan)
        return ForgetResult(mem.id, plan.forgets[0].receipt, self._db.forget_reach)

    def resolve(
        self,
        first_id: object,
        second_id: object,
        verdict: object,
        winner: object = None,
        reason: object = None,
        actor: object = None,
    ) -> ResolveResult:
        """An agent's or a person's judgement of a pair: ``conflict`` (the loser is
        REFUTED with a receipt naming the winner), ``compatible`` (both hold, never asked
        again) or ``same`` (the newer counts as a restatement of the older)."""
        judgement = parse_choice(Judgement, verdict, "verdict")
        why = clean_reason(reason)
        who = clean_actor(actor, self._reader.settings.actor)
        if winner is not None and not isinstance(winner, str):
            raise InvalidInput("winner must be a memory id")
        contradictions = self._reader.contradictions
        for _attempt in range(_ATTEMPTS):
            a = self._reader.get(first_id, live=True)
            b = self._reader.get(second_id, live=True)
            older, newer = (a, b) if (a.created_at, a.id) <= (b.created_at, b.id) else (b, a)
            before = contradictions.latest(older.id, newer.id)
            if before is not None:  # a pair is logged in one order: keep it
                older, newer = (a, b) if before.a_id == a.id else (b, a)
            kind = before.kind if before is not None else contradictions.kind_of(older, newer)
            plan = judgement_plan(
                older,
                newer,
                judgement,
                winner.strip() if isinstance(winner, str) else None,
                why,
                who,
                kind,
                utcnow(),
                self._reader.settings.evidence,
            )
            try:
                self._db.apply(plan)
            except StalePlan:
                continue
            readings = self._reader.readings([older.id, newer.id])
            return ResolveResult(plan.conflicts[0], tuple(readings))
        raise StalePlan("the memories kept changing; try again")
