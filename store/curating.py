"""Retracting, restoring and forgetting memories: each one plan, with receipts."""

from __future__ import annotations

from store.db import utcnow
from store.errors import StalePlan
from store.inputs import clean_actor, clean_reason, clean_text
from store.lifecycle import forget_plan, restore_plan, retraction_plan
from store.model import ReceiptAction
from store.reader import Reader
from store.results import ForgetResult, RestoreResult, RetractOutcome, RetractResult

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
        return ForgetResult(mem.id, plan.forgets[0].receipt)
