"""The memory model as plain, frozen data: statuses, kinds, sources, memories, receipts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from anchors.spec import Anchor, Provenance
from anchors.verdicts import AnchorCheck, MemoryVerdict

__all__ = [
    "FORGOTTEN_REASON",
    "AuditAction",
    "AuditEntry",
    "Kind",
    "Memory",
    "MemoryCheck",
    "Receipt",
    "ReceiptAction",
    "RefutedBy",
    "Source",
    "Status",
    "StoredAnchor",
]


class Status(StrEnum):
    ACTIVE = "ACTIVE"
    VERIFIED = "VERIFIED"
    REFUTED = "REFUTED"


class RefutedBy(StrEnum):
    """Why a memory is REFUTED (adr/0002). Only CODE depends on the commit read; the
    others stand on every commit until an explicit restore."""

    CODE = "code"
    RETRACTION = "retraction"
    CORRECTION = "correction"  # superseded by an explicit correction or a record


class Kind(StrEnum):
    DECISION = "decision"
    FACT = "fact"
    CONVENTION = "convention"
    PREFERENCE = "preference"
    INCIDENT = "incident"
    EPISODE = "episode"
    CONTEXT = "context"
    IDENTITY = "identity"


class Source(StrEnum):
    USER = "user"
    AGENT = "agent"
    CODE = "code"
    CI = "ci"
    DOC = "doc"


# What a forgotten memory's earlier receipts say instead of their reasons (which may have
# quoted it).
FORGOTTEN_REASON = "(forgotten)"


class ReceiptAction(StrEnum):
    RETRACT = "retract"
    RESTORE = "restore"
    REFUTE_BY_CODE = "refute_by_code"
    SUPERSEDE = "supersede"
    FORGET = "forget"


class AuditAction(StrEnum):
    """What an audit row records."""

    REMEMBER = "remember"
    REMEMBER_RETRACTED = "remember_retracted"  # a retracted claim was remembered again
    VERIFY = "verify"  # the code's verdict changed the status
    RETRACT = "retract"
    RESTORE = "restore"
    SUPERSEDE = "supersede"  # a correction, a record, or a lost conflict
    OBSERVE = "observe"
    FORGET = "forget"
    RESOLVE = "resolve"  # an agent or a person judged a pair (conflict, compatible, same)


def is_retracted(status: Status, refuted_by: RefutedBy | None) -> bool:
    """Refuted by a person or a record (retraction, correction): that stands on every
    commit until an explicit restore, whatever the code says (adr/0002). The one place
    this rule is written."""
    return status is Status.REFUTED and refuted_by in (RefutedBy.RETRACTION, RefutedBy.CORRECTION)


@dataclass(frozen=True, slots=True)
class StoredAnchor:
    """An anchor as captured at write time: how it was obtained, where it was found and a
    hash of what it pointed at (to tell "gone" from "changed since written")."""

    anchor: Anchor
    provenance: Provenance
    found_in: tuple[str, ...] = ()
    content_hash: str | None = None


@dataclass(frozen=True, slots=True)
class Memory:
    id: str
    text: str
    subject: str | None
    kind: Kind
    scope: str | None
    source: Source
    origin: str
    created_at: datetime
    commit: str | None
    status: Status
    refuted_by: RefutedBy | None = None
    confidence: float = 5.0
    support: float = 0.0
    contradiction: float = 0.0
    anchors: tuple[StoredAnchor, ...] = ()
    derived_from: tuple[str, ...] = ()
    supersedes: str | None = None
    flags: tuple[str, ...] = ()
    forgotten_at: datetime | None = None
    updated_at: datetime | None = None
    observations: int = 1
    origins: tuple[str, ...] = ()
    evidence_at: datetime | None = None
    last_confirmed_at: datetime | None = None
    expires_at: datetime | None = None
    attribute: str | None = None
    slot_value: str | None = None
    # The commit whose verdict last set the status (a code transition), if any.
    code_commit: str | None = None

    @property
    def retracted(self) -> bool:
        return is_retracted(self.status, self.refuted_by)

    @property
    def forgotten(self) -> bool:
        return self.forgotten_at is not None


@dataclass(frozen=True, slots=True)
class MemoryCheck:
    """What the code at (commit, overlay) says about one memory: the verdict of its
    anchors as a whole and each anchor's check, in the order of ``Memory.anchors``."""

    verdict: MemoryVerdict
    checks: tuple[AnchorCheck, ...]
    commit: str

    def has(self, verdict: object) -> bool:
        return any(c.verdict == verdict for c in self.checks)


@dataclass(frozen=True)
class Receipt:
    """A signed-off status change: who, when, why, on what evidence."""

    id: str
    memory_id: str
    action: ReceiptAction
    actor: str
    reason: str
    created_at: datetime
    evidence: str | None = None
    cause_id: str | None = None
    commit: str | None = None


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    memory_id: str
    at: datetime
    action: AuditAction
    from_status: Status | None
    to_status: Status | None
    actor: str
    reason: str | None = None
    receipt_id: str | None = None
    commit: str | None = None
    detail: dict[str, object] = field(default_factory=dict)
