"""A write, planned: everything one operation changes, as plain data.

The policy modules (``store.lifecycle``, ``store.evidence``, ``store.contradictions``)
decide and return a ``Plan``; ``Database.apply`` writes it in one transaction and decides
nothing. A status change names the status it expects to change from: when the store no
longer holds that status (another process changed it since it was read), the whole plan
is refused (``StalePlan``) and nothing is written, so a decision is never applied to a
memory it was not made about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from store.contradictions.outcomes import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
from store.evidence.observations import ObservationKind
from store.model import (
    AuditAction,
    AuditEntry,
    Memory,
    MemoryCheck,
    Receipt,
    RefutedBy,
    Source,
    Status,
)

__all__ = [
    "ConflictRecord",
    "Event",
    "Forget",
    "Imported",
    "ImportedObservation",
    "NewMemory",
    "ObservationRecord",
    "Plan",
    "Question",
    "StatusChange",
    "VerdictRecord",
]


@dataclass(frozen=True)
class NewMemory:
    """A memory to insert, with what lookups need: its claim hash, its search terms (term
    -> count), its negation core, and the detail of its audit row."""

    memory: Memory
    text_hash: str
    terms: Mapping[str, int]
    search_text: str
    core: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StatusChange:
    """One status transition, guarded by the status (and refutation) it changes from, with
    the receipt (if any) and the audit row it produces."""

    memory_id: str
    expect: tuple[Status, RefutedBy | None]
    to_status: Status
    refuted_by: RefutedBy | None
    action: AuditAction
    actor: str
    reason: str | None = None
    receipt: Receipt | None = None
    commit: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ObservationRecord:
    """Evidence about one memory and the state of its counters after it."""

    id: str
    memory_id: str
    at: datetime
    agrees: bool
    kind: ObservationKind
    source: Source
    origin: str
    weight: float
    note: str | None
    support: float
    contradiction: float
    origins: tuple[str, ...]
    confidence: float
    confirmed: bool
    add_flag: str | None = None


@dataclass(frozen=True)
class ConflictRecord:
    """One row of the append-only conflict log: a pair, how it was decided, and why."""

    a_id: str
    b_id: str
    kind: ConflictKind
    claim_a: str | None
    claim_b: str | None
    state: ConflictState
    rule: Rule
    outcome: Outcome
    winner: str | None
    loser: str | None
    reason_code: ReasonCode
    confidence_a: float | None
    confidence_b: float | None
    slot: str | None
    at: datetime
    seq: int = 0  # given by the store when written


@dataclass(frozen=True)
class Event:
    """An audit row for something that changes no status (a retracted claim remembered
    again), so that ``stats`` can count it."""

    memory_id: str
    at: datetime
    action: AuditAction
    actor: str


@dataclass(frozen=True)
class Forget:
    """Erase a memory's text, anchors, verdicts and notes, leaving a tombstone and the
    receipt; its conflict-log rows lose their claim texts too."""

    memory_id: str
    receipt: Receipt
    status: Status


@dataclass(frozen=True)
class Question:
    id: str
    memory_id: str
    user: str
    at: datetime


@dataclass(frozen=True)
class VerdictRecord:
    """A verdict to cache: the code at (commit, overlay) on one memory never changes."""

    memory_id: str
    key: str
    check: MemoryCheck
    at: datetime


@dataclass(frozen=True)
class ImportedObservation:
    """An observation as another store recorded it (its effect is in the memory's
    counters already)."""

    id: str
    at: datetime
    agrees: bool
    kind: ObservationKind
    source: Source
    origin: str
    weight: float
    note: str | None


@dataclass(frozen=True)
class Imported:
    """A memory as another store held it (``store.transfer``): written as it is, with its
    status, counters, receipts, observations and trail, nothing decided again. A
    forgotten one (``memory.forgotten_at``) is its tombstone: no text, anchors or terms."""

    new: NewMemory
    receipts: tuple[Receipt, ...] = ()
    observations: tuple[ImportedObservation, ...] = ()
    trail: tuple[AuditEntry, ...] = ()  # written in the order of their ``seq``, renumbered
    code_commit: str | None = None


@dataclass(frozen=True)
class Plan:
    memories: tuple[NewMemory, ...] = ()
    changes: tuple[StatusChange, ...] = ()
    observations: tuple[ObservationRecord, ...] = ()
    conflicts: tuple[ConflictRecord, ...] = ()
    events: tuple[Event, ...] = ()
    forgets: tuple[Forget, ...] = ()
    questions: tuple[Question, ...] = ()
    verdicts: tuple[VerdictRecord, ...] = ()
    imported: tuple[Imported, ...] = ()

    def __add__(self, other: Plan) -> Plan:
        return Plan(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    @property
    def empty(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))


def code_commit_after(memory: Memory, change: StatusChange) -> str | None:
    """The commit that set ``memory``'s status once ``change`` is written: a code verdict's
    commit, else the one before (``effects.STATUS_UPDATE`` writes it so)."""
    if change.action is AuditAction.VERIFY and change.commit:
        return change.commit
    return memory.code_commit
