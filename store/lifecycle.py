"""Lifecycle rules as plain functions: which transitions happen, with which receipts.

ACTIVE -> VERIFIED / REFUTED. Refutation by code belongs to the commit it was computed at;
refutation by retraction is permanent until an explicit restore (adr/0002).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from store.errors import InvalidInput
from store.ids import new_id
from store.limits import MAX_REASON_CHARS, MAX_SUBJECT_CHARS, MAX_TEXT_CHARS
from store.model import Memory, Receipt, ReceiptAction, RefutedBy, Status, StatusChange

__all__ = [
    "clean_text",
    "code_verdict_change",
    "is_retracted",
    "parse_choice",
    "restore_changes",
    "retraction_changes",
    "text_hash",
]


def clean_text(value: object, what: str, limit: int = MAX_TEXT_CHARS, required: bool = True) -> str:
    """Validate free text from a caller: a non-empty string of valid Unicode within limit."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} contains invalid Unicode (a lone surrogate)") from None
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL character")
    stripped = value.strip()
    if required and not stripped:
        raise InvalidInput(f"{what} must not be empty")
    if len(stripped) > limit:
        raise InvalidInput(f"{what} is {len(stripped)} characters; the limit is {limit}")
    return stripped


def parse_choice(cls: Any, value: object, what: str) -> Any:
    """A member of the closed set ``cls`` (an enum) from caller input, case-insensitively,
    or a clear error listing what is allowed."""
    text = str(value).strip()
    for member in cls:
        if member.value.lower() == text.lower():
            return member
    allowed = ", ".join(m.value for m in cls)
    raise InvalidInput(f"unknown {what} {text[:40]!r}; expected one of: {allowed}")


def clean_subject(value: object) -> str | None:
    if value is None:
        return None
    subject = clean_text(value, "subject", MAX_SUBJECT_CHARS, required=False)
    return subject or None


def clean_reason(value: object) -> str:
    return clean_text(value, "reason", MAX_REASON_CHARS)


def text_hash(text: str) -> str:
    """Hash of the claim as written, ignoring case, spacing and trailing punctuation, so
    re-remembering the same claim finds the earlier memory."""
    norm = unicodedata.normalize("NFKC", text).casefold()
    norm = re.sub(r"\s+", " ", norm).strip().rstrip(".!;")
    return hashlib.blake2b(norm.encode("utf-8"), digest_size=16).hexdigest()


def is_retracted(memory: Memory) -> bool:
    """Refuted by a person or a record (retraction, correction): on every commit."""
    return memory.status is Status.REFUTED and memory.refuted_by in (
        RefutedBy.RETRACTION,
        RefutedBy.CORRECTION,
    )


def retraction_changes(
    target: Memory,
    descendants: Sequence[Memory],
    actor: str,
    reason: str,
    evidence: str | None,
    now: datetime,
    commit: str | None,
) -> list[StatusChange]:
    """Retract ``target`` and, each with its own receipt naming the cause, every memory
    derived from it that is not retracted already."""
    if is_retracted(target):
        return []
    changes = [_retract(target, actor, reason, evidence, now, commit, cause=None)]
    for child in descendants:
        if is_retracted(child) or child.forgotten_at is not None:
            continue
        child_reason = f"derived from retracted memory {target.id}: {reason}"
        changes.append(_retract(child, actor, child_reason, evidence, now, commit, target.id))
    return changes


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
        id=new_id("r"),
        memory_id=memory.id,
        action=ReceiptAction.RETRACT,
        actor=actor,
        reason=reason,
        created_at=now,
        evidence=evidence,
        cause_id=cause,
        commit=commit,
    )
    return StatusChange(
        memory.id,
        Status.REFUTED,
        RefutedBy.RETRACTION,
        "retract",
        actor,
        reason,
        receipt,
        commit,
        {"cascade_from": cause} if cause else {},
    )


def restore_changes(
    target: Memory,
    retracted_with_it: Sequence[Memory],
    actor: str,
    reason: str,
    now: datetime,
) -> list[StatusChange]:
    """Undo a retraction (back to ACTIVE; the code re-verifies it on the next read), and
    undo the cascade it caused. Anything else is refused."""
    if not is_retracted(target):
        raise InvalidInput(
            f"memory {target.id} is not retracted; only a retraction can be restored"
        )
    changes = []
    for memory in [target, *retracted_with_it]:
        if not is_retracted(memory):
            continue
        receipt = Receipt(
            id=new_id("r"),
            memory_id=memory.id,
            action=ReceiptAction.RESTORE,
            actor=actor,
            reason=reason,
            created_at=now,
            cause_id=None if memory is target else target.id,
        )
        changes.append(
            StatusChange(memory.id, Status.ACTIVE, None, "restore", actor, reason, receipt)
        )
    return changes


def code_verdict_change(
    memory: Memory,
    status: Status,
    commit: str,
    broken: Sequence[dict[str, object]],
    now: datetime,
) -> StatusChange | None:
    """The transition (if any) that a verdict of the code at ``commit`` causes.

    A retracted memory stays REFUTED whatever the code says; otherwise the status follows
    the code at the commit read, and a refutation carries a receipt naming the anchors."""
    if is_retracted(memory) or memory.forgotten_at is not None:
        return None
    if memory.status is status and memory.refuted_by is (
        RefutedBy.CODE if status is Status.REFUTED else None
    ):
        return None
    receipt = None
    reason = None
    if status is Status.REFUTED:
        reason = (
            "; ".join(f"{b['anchor']} expected {b['expect']}: {b['detail']}" for b in broken)
            or "an anchor is broken"
        )
        receipt = Receipt(
            id=new_id("r"),
            memory_id=memory.id,
            action=ReceiptAction.REFUTE_BY_CODE,
            actor="code",
            reason=reason,
            created_at=now,
            evidence=None,
            commit=commit,
        )
    return StatusChange(
        memory.id,
        status,
        RefutedBy.CODE if status is Status.REFUTED else None,
        "verify",
        "code",
        reason,
        receipt,
        commit,
        {"broken": list(broken)} if broken else {},
    )
