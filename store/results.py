"""What each operation of the service returns: typed values, rendered at the server
boundary (``server.rendering``) into the full view the CLI prints and the agent's view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from anchors.spec import Anchor, Provenance
from store.contradictions.related_note import Related, RelatedPair
from store.evidence.observations import Effect
from store.evidence.review import ReviewAction
from store.model import AuditEntry, Receipt
from store.plan import ConflictRecord
from store.reading import Reading

__all__ = [
    "AuditResult",
    "Captured",
    "ConflictsResult",
    "ConsolidateResult",
    "Dropped",
    "FlippingSlot",
    "ForgetResult",
    "ListResult",
    "ObserveResult",
    "Question",
    "RecallResult",
    "RememberOutcome",
    "RememberResult",
    "ResolveResult",
    "RestoreResult",
    "RetractOutcome",
    "RetractResult",
    "ReviewItem",
    "ReviewResult",
    "Rewritten",
    "ShowResult",
    "StatsResult",
]


class RememberOutcome(StrEnum):
    STORED = "stored"
    DUPLICATE = "duplicate"
    PREVIOUSLY_RETRACTED = "previously_retracted"


class RetractOutcome(StrEnum):
    RETRACTED = "retracted"
    ALREADY_RETRACTED = "already_retracted"


@dataclass(frozen=True)
class Captured:
    anchor: Anchor
    provenance: Provenance
    found_in: tuple[str, ...]


@dataclass(frozen=True)
class Dropped:
    candidate: str
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class Rewritten:
    given: str
    anchor: Anchor
    changes: tuple[str, ...]


@dataclass(frozen=True)
class RememberResult:
    reading: Reading
    outcome: RememberOutcome
    conflicts: tuple[ConflictRecord, ...] = ()
    captured: tuple[Captured, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    rewritten: tuple[Rewritten, ...] = ()
    # Pairs for the agent to judge (``resolve``): possible conflicts, and conflicts the
    # rules could not decide.
    possible_conflicts: tuple[ConflictRecord, ...] = ()
    # Close notes the rules did not judge (``store.contradictions.related``): asked of the
    # agent, never changed by themselves.
    related: tuple[Related, ...] = ()


@dataclass(frozen=True)
class RecallResult:
    query: str
    checked_commit: str | None
    readings: tuple[Reading, ...]
    scores: Mapping[str, float] = field(default_factory=dict)  # memory id -> its score
    # Matches ranked above the last one served that are not served because they are
    # REFUTED (by the code or a retraction): "what we believed is wrong" is not "nothing".
    refuted: tuple[str, ...] = ()


@dataclass(frozen=True)
class ListResult:
    """``list``, ``verify`` and ``digest``: readings, and the commit they were checked at."""

    readings: tuple[Reading, ...]
    checked_commit: str | None = None


@dataclass(frozen=True)
class ShowResult:
    reading: Reading
    receipts: tuple[Receipt, ...]


@dataclass(frozen=True)
class RetractResult:
    id: str
    receipt: Receipt | None
    cascaded: tuple[Receipt, ...]
    outcome: RetractOutcome


@dataclass(frozen=True)
class RestoreResult:
    reading: Reading
    receipt: Receipt | None
    restored: tuple[str, ...]


@dataclass(frozen=True)
class ForgetResult:
    id: str
    receipt: Receipt
    reach: str = ""  # where the text is gone from, and what is beyond the store's reach


@dataclass(frozen=True)
class AuditResult:
    entries: tuple[AuditEntry, ...]


@dataclass(frozen=True)
class ObserveResult:
    reading: Reading
    effect: Effect
    new_memory: str | None = None
    episode: str | None = None


@dataclass(frozen=True)
class ReviewItem:
    id: str
    action: ReviewAction
    confidence: float
    text: str
    staleness_days: float


@dataclass(frozen=True)
class Question:
    id: str
    user: str
    question: str


@dataclass(frozen=True)
class ReviewResult:
    items: tuple[ReviewItem, ...]
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class StatsResult:
    memories_written: int
    corrections: int
    retractions: int
    refutations_by_code: int
    restatements: int
    correction_rate: float
    retracted_claims_remembered_again: int


@dataclass(frozen=True)
class ConsolidateResult:
    memories: int
    pairs_compared: int
    conflicts: tuple[ConflictRecord, ...]
    seconds: float
    possible_conflicts: tuple[ConflictRecord, ...] = ()
    # Close pairs nobody has judged (``store.contradictions.related``): asked of the agent,
    # the closest first; ``more_related``: how many are left for the next consolidate.
    related: tuple[RelatedPair, ...] = ()
    more_related: int = 0
    related_compared: int = 0  # notes compared for them: the newest, within the pass's time


@dataclass(frozen=True)
class ResolveResult:
    """A judged pair: the conflict-log row written, and both memories as they are now."""

    conflict: ConflictRecord
    memories: tuple[Reading, ...]


@dataclass(frozen=True)
class FlippingSlot:
    slot: str
    values: tuple[str, ...]
    reversals: int
    hint: str = "this slot keeps flipping; it may hold several values (cardinality) rather than one"


@dataclass(frozen=True)
class ConflictsResult:
    conflicts: tuple[ConflictRecord, ...]
    flipping_slots: tuple[FlippingSlot, ...] = field(default_factory=tuple)
