"""Lifecycle rules as plain functions: which transitions happen, with which receipts.

ACTIVE -> VERIFIED / REFUTED. Refutation by code belongs to the commit it was computed at;
refutation by retraction or correction stands on every commit until an explicit restore
(adr/0002). Every function returns the plan of its operation, each status change guarded
by the status it changes from; ``Database.apply`` writes a plan whole or not at all.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from anchors.verdicts import MemoryVerdict, Verdict
from store.errors import InvalidInput
from store.ids import new_id
from store.model import (
    AuditAction,
    Memory,
    MemoryCheck,
    Receipt,
    ReceiptAction,
    RefutedBy,
    Status,
)
from store.plan import Event, Forget, Plan, StatusChange

__all__ = [
    "NOT_ALL_CHECKED",
    "UNCOVERED",
    "UNRESOLVED_CODE",
    "code_status",
    "code_verdict_change",
    "forget_plan",
    "remembered_again",
    "restore_plan",
    "retraction_plan",
    "supersede_change",
    "text_hash",
    "uncovered_flags",
    "uncovered_parts",
]

UNRESOLVED_CODE = "unresolved_code"
# The note asserts something no anchor covers (a name neither the vocabulary nor the code
# knows): like unresolved code, it keeps the memory from VERIFIED.
UNCOVERED = "uncovered"
NOT_ALL_CHECKED = frozenset({UNRESOLVED_CODE, UNCOVERED})
# "uncovered:<part>" beside UNCOVERED names what no anchor checks, for the answer to say.
UNCOVERED_PART = f"{UNCOVERED}:"
_NAMED_PARTS = 3


def uncovered_flags(parts: list[str]) -> tuple[str, ...]:
    """The flags of a note with ``parts`` no anchor checks: UNCOVERED, and the first few
    parts named."""
    named = tuple(dict.fromkeys(parts))[:_NAMED_PARTS]
    return (UNCOVERED, *(f"{UNCOVERED_PART}{p[:80]}" for p in named))


def uncovered_parts(flags: tuple[str, ...]) -> list[str]:
    """The parts ``uncovered_flags`` named."""
    return [f.removeprefix(UNCOVERED_PART) for f in flags if f.startswith(UNCOVERED_PART)]


def text_hash(text: str) -> str:
    """Hash of the claim as written, ignoring case, spacing and trailing punctuation, so
    re-remembering the same claim finds the earlier memory."""
    norm = unicodedata.normalize("NFKC", text).casefold()
    norm = re.sub(r"\s+", " ", norm).strip().rstrip(".!;")
    return hashlib.blake2b(norm.encode("utf-8"), digest_size=16).hexdigest()


def _guard(memory: Memory) -> tuple[Status, RefutedBy | None]:
    return memory.status, memory.refuted_by


def code_status(memory: Memory, check: MemoryCheck) -> Status:
    """The status the code's verdict gives a memory: VERIFIED only when every anchor holds
    and the note names nothing its anchors leave uncovered."""
    if check.verdict is MemoryVerdict.REFUTED:
        return Status.REFUTED
    if check.verdict is MemoryVerdict.VERIFIED and not NOT_ALL_CHECKED.intersection(memory.flags):
        return Status.VERIFIED
    return Status.ACTIVE


def moves_forward(
    memory: Memory, commit: str, is_ancestor: Callable[[str, str], bool | None]
) -> bool:
    """In a shared store, whether the code's verdict at ``commit`` may change ``memory``'s
    stored status: when no code verdict set it yet, or the one that did was at ``commit``
    or before it. A server behind, or on a commit the other never had, serves its own
    verdict without writing it, so two clones at different commits do not overwrite each
    other's status on every read (adr/0034)."""
    last = memory.code_commit
    if last is None or last == commit:
        return True
    return is_ancestor(last, commit) is True


def code_standing(memory: Memory, check: MemoryCheck) -> tuple[Status, RefutedBy | None] | None:
    """The status (and why refuted) the code's verdict at ``check.commit`` gives ``memory``
    when it differs from the stored one; None when it does not, or when the memory is
    retracted or forgotten (left as it is whatever the code says)."""
    if memory.retracted or memory.forgotten:
        return None
    status = code_status(memory, check)
    refuted_by = RefutedBy.CODE if status is Status.REFUTED else None
    if memory.status is status and memory.refuted_by is refuted_by:
        return None
    return status, refuted_by


def code_verdict_change(memory: Memory, check: MemoryCheck, now: datetime) -> StatusChange | None:
    """The transition (if any) that the code's verdict at ``check.commit`` causes
    (``code_standing``), with its receipt and audit detail."""
    standing = code_standing(memory, check)
    if standing is None:
        return None
    status, refuted_by = standing
    broken = [c for c in check.checks if c.verdict is Verdict.BROKEN]
    receipt = None
    reason = None
    if status is Status.REFUTED:
        reason = (
            "; ".join(
                f"{c.anchor.render()} expected {c.anchor.expect.value}: {c.detail}" for c in broken
            )
            or "an anchor is broken"
        )
        receipt = Receipt(
            new_id("r"),
            memory.id,
            ReceiptAction.REFUTE_BY_CODE,
            "code",
            reason,
            now,
            commit=check.commit,
        )
    detail: Mapping[str, Any] = {}
    if broken:
        detail = {
            "broken": [
                {
                    "anchor": c.anchor.render(),
                    "expect": c.anchor.expect.value,
                    "verdict": c.verdict.value,
                    "found_in": list(c.found_in),
                    "detail": c.detail,
                }
                for c in broken
            ]
        }
    return StatusChange(
        memory.id,
        _guard(memory),
        status,
        refuted_by,
        AuditAction.VERIFY,
        "code",
        reason,
        receipt,
        check.commit,
        detail,
    )


def retraction_plan(
    target: Memory,
    descendants: Sequence[Memory],
    actor: str,
    reason: str,
    evidence: str | None,
    now: datetime,
    commit: str | None,
) -> Plan:
    """Retract ``target`` and, each with its own receipt naming the cause, every memory
    derived from it that is not retracted already."""
    if target.retracted:
        return Plan()
    changes = [_retract(target, actor, reason, evidence, now, commit, cause=None)]
    for child in descendants:
        if child.retracted or child.forgotten:
            continue
        child_reason = f"derived from retracted memory {target.id}: {reason}"
        changes.append(_retract(child, actor, child_reason, evidence, now, commit, target.id))
    return Plan(changes=tuple(changes))


def _retract(
    memory: Memory,
    actor: str,
    reason: str,
    evidence: str | None,
    now: datetime,
    commit: str | None,
    cause: str | None,
) -> StatusChange:
    receipt = Receipt(
        new_id("r"),
        memory.id,
        ReceiptAction.RETRACT,
        actor,
        reason,
        now,
        evidence=evidence,
        cause_id=cause,
        commit=commit,
    )
    return StatusChange(
        memory.id,
        _guard(memory),
        Status.REFUTED,
        RefutedBy.RETRACTION,
        AuditAction.RETRACT,
        actor,
        reason,
        receipt,
        commit,
        {"cascade_from": cause} if cause else {},
    )


def restore_plan(
    target: Memory,
    retracted_with_it: Sequence[Memory],
    actor: str,
    reason: str,
    now: datetime,
) -> Plan:
    """Undo a retraction (back to ACTIVE; the code re-verifies it on the next read), and
    undo the cascade it caused. Anything else is refused."""
    if not target.retracted:
        raise InvalidInput(
            f"memory {target.id} is not retracted; only a retraction can be restored"
        )
    changes = []
    for memory in [target, *retracted_with_it]:
        if not memory.retracted:
            continue
        receipt = Receipt(
            new_id("r"),
            memory.id,
            ReceiptAction.RESTORE,
            actor,
            reason,
            now,
            cause_id=None if memory is target else target.id,
        )
        changes.append(
            StatusChange(
                memory.id,
                _guard(memory),
                Status.ACTIVE,
                None,
                AuditAction.RESTORE,
                actor,
                reason,
                receipt,
            )
        )
    return Plan(changes=tuple(changes))


def supersede_change(
    memory: Memory,
    actor: str,
    reason: str,
    now: datetime,
    action: ReceiptAction,
    cause: str | None,
    detail: Mapping[str, Any] | None = None,
) -> StatusChange:
    """REFUTED by a correction: an explicit one, a record that contradicts it, or a lost
    conflict. It stands on every commit, like a retraction."""
    receipt = Receipt(new_id("r"), memory.id, action, actor, reason, now, cause_id=cause)
    audit = AuditAction.RETRACT if action is ReceiptAction.RETRACT else AuditAction.SUPERSEDE
    return StatusChange(
        memory.id,
        _guard(memory),
        Status.REFUTED,
        RefutedBy.CORRECTION,
        audit,
        actor,
        reason,
        receipt,
        detail=detail or {},
    )


def forget_plan(memory: Memory, actor: str, reason: str, now: datetime) -> Plan:
    if memory.forgotten:
        raise InvalidInput(f"memory {memory.id} was already forgotten")
    receipt = Receipt(new_id("r"), memory.id, ReceiptAction.FORGET, actor, reason, now)
    return Plan(forgets=(Forget(memory.id, receipt, memory.status),))


def remembered_again(memory: Memory, origin: str, now: datetime) -> Plan:
    """A retracted claim written again: not stored; the event is counted (``stats``)."""
    return Plan(events=(Event(memory.id, now, AuditAction.REMEMBER_RETRACTED, origin),))
