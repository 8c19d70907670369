"""Pydantic models of what the MCP tools return: they give each tool its output schema, the
agent's compact view that ``server.rendering`` builds. The closed sets are the store's own
enums, so the schema pins the allowed values. The full record of a memory (``detail``,
``memory://<id>``, the CLI's JSON) is advertised only as an object."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from server.rendering import MARKS
from store.contradictions.outcomes import ConflictKind, ConflictState, Outcome, ReasonCode
from store.evidence.confidence import Band
from store.evidence.observations import Effect
from store.evidence.review import ReviewAction
from store.model import Status
from store.results import RememberOutcome, RetractOutcome

__all__ = [
    "MARKS",
    "AgentMemory",
    "Consolidated",
    "DecisionOut",
    "MemoryStatus",
    "Observed",
    "PairOut",
    "QuestionOut",
    "Recalled",
    "Remembered",
    "Resolved",
    "Retracted",
    "ReviewItemOut",
    "ReviewOut",
    "Superseded",
    "Verified",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


# -- What the agent is handed (the tools' results): compact, nulls and empty lists left out,
# the commit once per result. The full record of a memory (``detail``, ``memory://<id>``,
# the CLI's ``show``) is ``server.rendering.memory``.


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


# A full record (``detail``): the schema sent to clients says only that it is an object (its
# fields are those of memory://<id>, ``server.rendering.memory``).
Record = Annotated[dict[str, Any], WithJsonSchema({"type": "object", "description": "full record"})]


# Validated left to right: a brief is taken as one at once, never also tried as a record.
Served = Annotated[AgentMemory | Record, Field(union_mode="left_to_right")]


class Recalled(_Model):
    commit: str | None = None
    memories: list[Served] = Field(description="best first")
    refuted_matches: str | None = Field(default=None, description="REFUTED matches, not served")


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
    related: list[str] | None = Field(None, description="close pairs nobody judged: resolve")
    more_related: int | None = Field(None, description="the next consolidate lists them")
    related_compared: int | None = Field(None, description="notes compared, the newest first")


class Retracted(_Model):
    id: str
    status: Status
    outcome: RetractOutcome
    receipt: str | None = Field(None, description="the receipt's id")
    reason: str | None = None
    cascaded: list[str] | None = Field(None, description="memories retracted with it")
