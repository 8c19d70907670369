"""Pydantic models of what the MCP tools return; they give each tool its output schema.
The closed sets are the store's own enums, so the schema pins the allowed values, and a
test pins each model to the dataclass it renders (tests/server/test_schemas.py)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from anchors.spec import AnchorKind, Expect, Provenance
from anchors.verify import Verdict
from store.contradictions.rules import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
from store.evidence.confidence import Band
from store.evidence.observations import Effect
from store.evidence.review import ReviewAction
from store.model import AuditAction, Kind, ReceiptAction, RefutedBy, Source, Status
from store.reading import VerificationState
from store.results import RememberOutcome, RetractOutcome

__all__ = [
    "AgentMemory",
    "AnchorOut",
    "AuditOut",
    "ConflictOut",
    "ConflictsOut",
    "ConsolidateOut",
    "Consolidated",
    "DecisionOut",
    "ForgetOut",
    "MemoryOut",
    "ObserveOut",
    "Observed",
    "PairOut",
    "PossibleConflictOut",
    "RecallOut",
    "Recalled",
    "ReceiptOut",
    "RememberOut",
    "Remembered",
    "ResolveOut",
    "Resolved",
    "RestoreOut",
    "RetractOut",
    "Retracted",
    "ReviewOut",
    "ShowOut",
    "ShownVerdict",
    "StatsOut",
    "Verified",
    "VerifyOut",
]


class ShownVerdict(StrEnum):
    """An anchor's verdict as served: the code's (``anchors.verify.Verdict``), or
    unchecked when the memory was not checked this time."""

    HOLDS = Verdict.HOLDS.value
    BROKEN = Verdict.BROKEN.value
    DRIFTED = Verdict.DRIFTED.value
    UNKNOWN = Verdict.UNKNOWN.value
    UNCHECKED = "unchecked"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReceiptOut(_Model):
    id: str
    memory_id: str
    action: ReceiptAction
    actor: str
    reason: str
    evidence: str | None = None
    cause: str | None = Field(None, description="the memory whose retraction cascaded here")
    commit: str | None = None
    at: str | None = None


class AnchorOut(_Model):
    anchor: str = Field(
        description="the anchor in anchormem syntax, e.g. import:duckdb@store/db.py"
    )
    kind: AnchorKind
    value: str
    expect: Expect
    scope: str | None = None
    version: str | None = None
    provenance: Provenance
    verdict: ShownVerdict
    found_in: list[str] = Field(default_factory=list)
    detail: str | None = None


class ConflictMarkOut(_Model):
    with_: str = Field(alias="with", serialization_alias="with")
    reason_code: ReasonCode
    kind: ConflictKind
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)


_VERIFICATION = ", ".join(s.value for s in VerificationState)


class MemoryOut(_Model):
    id: str
    text: str | None = None
    subject: str | None = None
    kind: Kind
    scope: str | None = None
    source: Source
    origin: str
    created_at: str | None = None
    written_at_commit: str | None = None
    status: Status
    refuted_by: RefutedBy | None = None
    confidence: float = Field(description="0-10; 5.0 means no evidence either way")
    observations: int = 1
    checked_commit: str | None = Field(None, description="the commit the anchors were checked at")
    verification: str = Field(description=f"one of: {_VERIFICATION}; some followed by ': <why>'")
    anchors: list[AnchorOut]
    derived_from: list[str] = Field(default_factory=list)
    supersedes: str | None = None
    flags: list[str] = Field(default_factory=list)
    receipt: ReceiptOut | None = None
    forgotten: bool = False
    band: Band = Field(
        description="assert: state it plainly (8.0+); hedge: give its provenance; hidden: "
        "below the hide threshold, not served",
    )
    origins: int = Field(description="independent origins that support it")
    candidate: bool = Field(
        description="only one origin and not verified by code: a lead, not a fact"
    )
    last_confirmed_at: str | None = None
    provenance: str | None = Field(
        None,
        description="who said it, when, and whether the code verified it; say this when hedging",
    )
    expires_at: str | None = None
    conflicts: list[ConflictMarkOut] = Field(
        default_factory=list,
        description="open conflicts with other memories: do not treat either as fact",
    )


class ConflictOut(_Model):
    ids: list[str]
    kind: ConflictKind
    claims: list[str | None]
    state: ConflictState
    rule: Rule
    outcome: Outcome
    winner: str | None = None
    loser: str | None = None
    reason_code: ReasonCode
    confidences: list[float | None]


class PossibleConflictOut(_Model):
    ids: list[str]
    claims: list[str | None]
    kind: ConflictKind
    state: ConflictState = Field(
        description="possible: perhaps a conflict; open: a conflict the rules could not decide"
    )
    reason_code: ReasonCode
    question: str = Field(description="what to decide; answer it with the resolve tool")


class Dropped(_Model):
    candidate: str
    reason: str
    detail: str = ""


class Captured(_Model):
    anchor: str
    provenance: Provenance
    found_in: list[str] = Field(default_factory=list)


class Rewritten(_Model):
    given: str
    anchor: str
    changes: list[str]


class RememberOut(MemoryOut):
    outcome: RememberOutcome = Field(
        description="stored: a new memory; duplicate: the same claim was already stored "
        "(counted as an observation); previously_retracted: the claim was retracted "
        "before — see receipt — and was NOT stored again"
    )
    conflicts: list[ConflictOut] = Field(  # type: ignore[assignment]
        default_factory=list, description="conflicts this memory was found in, and how decided"
    )
    captured: list[Captured] = Field(default_factory=list)
    dropped: list[Dropped] = Field(default_factory=list)
    rewritten: list[Rewritten] = Field(default_factory=list)
    possible_conflicts: list[PossibleConflictOut] = Field(
        default_factory=list,
        description="pairs the rules cannot decide: read both claims and call resolve",
    )
    related: list[str] = Field(
        default_factory=list,
        description="notes perhaps about the same thing (id: text), not judged by the rules",
    )
    related_question: str | None = Field(
        None, description="what to decide of the related notes; answer it with resolve"
    )


class RecallOut(_Model):
    query: str
    checked_commit: str | None = None
    memories: list[MemoryOut]
    refuted_matches: str | None = Field(
        default=None, description="REFUTED matches, not served"
    )


class Cascaded(_Model):
    id: str
    receipt: ReceiptOut | None = None


class RetractOut(_Model):
    id: str
    status: Status
    receipt: ReceiptOut | None = None
    cascaded: list[Cascaded] = Field(default_factory=list)
    outcome: RetractOutcome


class RestoreOut(MemoryOut):
    restored: list[str]


class ShowOut(MemoryOut):
    receipts: list[ReceiptOut]


class ForgetOut(_Model):
    id: str
    forgotten: bool
    receipt: ReceiptOut


class VerifyOut(_Model):
    checked_commit: str | None = None
    memories: list[MemoryOut]


class AuditEntryOut(_Model):
    seq: int
    memory_id: str
    at: str | None = None
    action: AuditAction
    from_status: Status | None = None
    to_status: Status | None = None
    actor: str
    reason: str | None = None
    receipt_id: str | None = None
    commit: str | None = None
    detail: dict[str, object] = Field(default_factory=dict)


class AuditOut(_Model):
    entries: list[AuditEntryOut]


class ObserveOut(MemoryOut):
    effect: Effect
    new_memory: str | None = None
    episode: str | None = None


class ReviewItemOut(_Model):
    id: str
    action: ReviewAction
    confidence: float
    text: str
    staleness_days: float


class QuestionOut(_Model):
    id: str
    user: str
    question: str


class ReviewOut(_Model):
    items: list[ReviewItemOut]
    questions: list[QuestionOut]


class WrongFactSignals(_Model):
    corrections: int
    retractions: int
    refutations_by_code: int


class MissedFactSignals(_Model):
    restatements: int


class StatsOut(_Model):
    memories_written: int
    wrong_fact_signals: WrongFactSignals
    missed_fact_signals: MissedFactSignals
    correction_rate: float
    retracted_claims_remembered_again: int


class ConsolidateOut(_Model):
    memories: int
    pairs_compared: int
    conflicts: list[ConflictOut]
    seconds: float
    possible_conflicts: list[PossibleConflictOut] = Field(
        default_factory=list,
        description="pairs the rules cannot decide: read both claims and call resolve",
    )


class ResolveOut(_Model):
    conflict: ConflictOut = Field(description="the conflict-log row written")
    memories: list[MemoryOut] = Field(description="both memories as they are now")


class FlippingSlotOut(_Model):
    slot: str
    values: list[str]
    reversals: int
    hint: str


class ConflictsOut(_Model):
    conflicts: list[ConflictOut]
    flipping_slots: list[FlippingSlotOut]


# -- What the agent is handed (the tools' results): compact, nulls and empty lists left out,
# the commit once per result. The full record of a memory is ``MemoryOut`` (``detail``,
# ``memory://<id>``, the CLI's ``show``).

MARKS = {"holds": "✓", "broken": "✗", "drifted": "~", "unknown": "?", "unchecked": "·"}


class _Brief(_Model):
    """One memory as the agent reads it."""

    id: str
    text: str | None = None
    status: Status
    why: str = Field(description="the status, in one line")
    band: Band = Field(description="assert: state it; hedge: say who said it and when")
    confidence: float = Field(description="0-10")
    source: str = Field(description="who said it, and how long ago")
    anchors: list[str] | None = Field(
        None, description="with the code's verdict: ✓ holds, ✗ broken, ~ drifted, ? unknown"
    )
    flags: list[str] | None = None
    conflicts: list[str] | None = Field(
        None, description="open conflicts: do not treat either side as fact"
    )


class AgentMemory(_Brief):
    score: float | None = Field(None, description="how well it matches the query")


class DecisionOut(_Model):
    """A conflict decision: the pair (older first), what was decided and why."""

    ids: list[str]
    kind: ConflictKind
    state: ConflictState
    outcome: Outcome
    reason_code: ReasonCode
    winner: str | None = None
    loser: str | None = None


class PairOut(_Model):
    """A pair of memories for the agent to judge (resolve)."""

    ids: list[str]
    claims: list[str | None]
    state: ConflictState
    reason_code: ReasonCode
    question: str


# A full record (``detail``) is validated on the server as ``MemoryOut``; the schema sent to
# clients says only that it is an object (its fields are those of memory://<id>).
Record = Annotated[MemoryOut, WithJsonSchema({"type": "object", "description": "full record"})]


# Validated left to right: a brief is taken as one at once, never also tried as a record.
Served = Annotated[AgentMemory | Record, Field(union_mode="left_to_right")]


class Recalled(_Model):
    commit: str | None = None
    memories: list[Served] = Field(description="best first")
    refuted_matches: str | None = Field(
        default=None, description="REFUTED matches, not served"
    )


class Verified(_Model):
    commit: str | None = None
    memories: list[Served]


class Remembered(_Brief):
    outcome: RememberOutcome = Field(
        description="previously_retracted: NOT stored again, see receipt"
    )
    commit: str | None = None
    receipt: str | None = Field(None, description="the id of its retraction receipt")
    captured: list[str] | None = Field(None, description="anchors read from the text")
    dropped: list[str] | None = None
    rewritten: list[str] | None = None
    conflicts: list[DecisionOut] | None = Field(  # type: ignore[assignment]
        None, description="conflicts decided now"
    )
    possible_conflicts: list[PairOut] | None = Field(
        None, description="judge each pair with resolve"
    )
    # Beyond the first ten of each list, only counted (server.rendering.LISTED).
    more_conflicts: int | None = None
    more_possible: int | None = Field(None, description="consolidate lists them")
    related: list[str] | None = Field(
        None, description="notes perhaps about the same thing: id: text"
    )
    related_question: str | None = Field(None, description="answer it with resolve")


class MemoryStatus(_Model):
    """Where a memory stands after a change."""

    id: str
    status: Status
    why: str
    band: Band
    confidence: float


class Superseded(MemoryStatus):
    """The new memory (``id``) and the one it superseded."""

    outcome: RememberOutcome
    supersedes: str
    commit: str | None = None


class Observed(MemoryStatus):
    effect: Effect
    commit: str | None = None
    new_memory: str | None = None
    episode: str | None = None


class Resolved(_Model):
    conflict: DecisionOut = Field(description="the decision logged")
    commit: str | None = None
    memories: list[MemoryStatus]


class Consolidated(_Model):
    memories: int
    pairs_compared: int
    conflicts: list[DecisionOut] = Field(description="decided now")
    seconds: float
    possible_conflicts: list[PairOut] | None = Field(None, description="judge with resolve")


class Retracted(_Model):
    id: str
    status: Status
    outcome: RetractOutcome
    receipt: str | None = Field(None, description="the receipt's id")
    reason: str | None = None
    cascaded: list[str] | None = Field(None, description="memories retracted with it")
