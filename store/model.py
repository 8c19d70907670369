"""The memory model as plain, frozen data: statuses, kinds, sources, memories, receipts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from anchors.spec import Anchor, Provenance

__all__ = [
    "AuditEntry",
    "Kind",
    "Memory",
    "Observation",
    "Receipt",
    "ReceiptAction",
    "RefutedBy",
    "Source",
    "Status",
    "StatusChange",
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


class ReceiptAction(StrEnum):
    RETRACT = "retract"
    RESTORE = "restore"
    REFUTE_BY_CODE = "refute_by_code"
    SUPERSEDE = "supersede"
    FORGET = "forget"


@dataclass(frozen=True)
class StoredAnchor:
    """An anchor as captured at write time: how it was obtained, where it was found and a
    hash of what it pointed at (to tell "gone" from "changed since written")."""

    anchor: Anchor
    provenance: Provenance
    found_in: tuple[str, ...] = ()
    content_hash: str | None = None


@dataclass(frozen=True)
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
    action: str
    from_status: str | None
    to_status: str | None
    actor: str
    reason: str | None = None
    receipt_id: str | None = None
    commit: str | None = None
    detail: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class StatusChange:
    """One status transition with the receipt (if any) and audit row it produces."""

    memory_id: str
    to_status: Status
    refuted_by: RefutedBy | None
    action: str
    actor: str
    reason: str | None = None
    receipt: Receipt | None = None
    commit: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Observation:
    """Evidence about one memory and the state of its counters after it."""

    id: str
    memory_id: str
    at: datetime
    agrees: bool
    kind: str
    source: str
    origin: str
    weight: float
    note: str | None
    support: float
    contradiction: float
    origins: tuple[str, ...]
    confidence: float
    confirmed: bool
