"""What a memory says now, and how it is served: every read policy, decided once, on
typed values.

``read`` turns a memory and the code's verdict on it into a frozen ``Reading``: the
status it is served with, what was checked, its standing (confidence, band, provenance)
and its flags. ``serve`` decides which readings a recall returns (never REFUTED as truth,
never expired, never below the hide threshold) and puts the other side of each open
conflict beside them. Views are a rendering of readings, at the server boundary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from anchors.verdicts import Verdict
from store.contradictions.outcomes import ConflictKind, ReasonCode
from store.evidence.confidence import Band, band, memory_confidence
from store.evidence.settings import EvidenceSettings
from store.hostile import HOSTILE_FLAGS, hostile_flags
from store.lifecycle import uncovered_parts
from store.model import Memory, MemoryCheck, Receipt, RefutedBy, Status

__all__ = [
    "EXTERNAL_SCOPE",
    "RECORD_CONFIRMED",
    "ConflictMark",
    "Reading",
    "Standing",
    "Unchecked",
    "UncheckedReason",
    "Verification",
    "VerificationState",
    "confidence",
    "read",
    "serve",
    "standing",
]

EXTERNAL_SCOPE = "external"
RECORD_CONFIRMED = "record_confirmed"


class VerificationState(StrEnum):
    VERIFIED = "verified"
    REFUTED_BY_CODE = "refuted_by_code"
    RETRACTED = "retracted"
    DRIFTED = "drifted"
    PARTLY_CHECKED = "partly checked"
    INCONCLUSIVE = "inconclusive"
    UNCHECKED = "unchecked"
    OFF = "off"
    CANNOT_VERIFY = "cannot_verify"


class UncheckedReason(StrEnum):
    OFF = "off"  # verify-on-read is turned off (ANCHORMEM_VERIFY=0)
    UNCHECKED = "unchecked"  # the budget ran out or the fingerprint is still being built
    CANNOT_VERIFY = "cannot_verify"  # no repository, no commit, git failed


@dataclass(frozen=True)
class Unchecked:
    """Why memories of a read have no verdict."""

    reason: UncheckedReason
    detail: str | None = None


@dataclass(frozen=True)
class Verification:
    state: VerificationState
    detail: str | None = None

    @property
    def label(self) -> str:
        return f"{self.state.value}: {self.detail}" if self.detail else self.state.value


@dataclass(frozen=True)
class Standing:
    """What the agent is told about how far to trust a memory."""

    confidence: float
    band: Band
    origins: int
    candidate: bool  # one origin and not verified by code: a lead, not a fact
    last_confirmed_at: datetime
    provenance: str | None


@dataclass(frozen=True)
class ConflictMark:
    other: str
    reason_code: ReasonCode
    kind: ConflictKind


@dataclass(frozen=True)
class Reading:
    memory: Memory  # as served: a VERIFIED status not confirmed at HEAD now is ACTIVE
    check: MemoryCheck | None
    checked_commit: str | None
    verification: Verification
    standing: Standing
    flags: tuple[str, ...]
    receipt: Receipt | None = None
    conflicts: tuple[ConflictMark, ...] = ()

    @property
    def id(self) -> str:
        return self.memory.id


def confidence(mem: Memory, now: datetime, settings: EvidenceSettings) -> float:
    verified = mem.status is Status.VERIFIED or RECORD_CONFIRMED in mem.flags
    return memory_confidence(
        mem.status is Status.REFUTED,
        verified,
        mem.support,
        mem.contradiction,
        mem.evidence_at or mem.created_at,
        len(mem.origins),
        now,
        settings.half_lives.get(mem.kind.value),
    )


def standing(mem: Memory, now: datetime, settings: EvidenceSettings) -> Standing:
    """Confidence, band, independent origins and provenance of one memory now."""
    value = confidence(mem, now, settings)
    the_band = band(value, settings.hide_below, settings.strict)
    if mem.status is Status.REFUTED:
        the_band = Band.HIDDEN
    verified = mem.status is Status.VERIFIED
    origins = len(mem.origins)
    confirmed = max(t for t in (mem.last_confirmed_at, mem.created_at) if t is not None)
    provenance = None
    if the_band is Band.HEDGE or not verified:
        times = "once" if mem.observations <= 1 else f"{mem.observations} times"
        provenance = (
            f"stated {times} by {mem.source.value} {mem.origin} on "
            f"{mem.created_at.date().isoformat()}"
            + (f", {origins} independent origins" if origins > 1 else "")
            + (", verified by the code" if verified else ", not verified")
        )
    return Standing(
        round(value, 2), the_band, origins, origins < 2 and not verified, confirmed, provenance
    )


def _verification(mem: Memory, check: MemoryCheck | None, unchecked: Unchecked) -> Verification:
    if mem.retracted:
        return Verification(VerificationState.RETRACTED)
    if check is None:
        state = {
            UncheckedReason.OFF: VerificationState.OFF,
            UncheckedReason.UNCHECKED: VerificationState.UNCHECKED,
            UncheckedReason.CANNOT_VERIFY: VerificationState.CANNOT_VERIFY,
        }[unchecked.reason]
        return Verification(state, unchecked.detail)
    if not check.checks and (mem.scope or "").lower() == EXTERNAL_SCOPE:
        return Verification(
            VerificationState.INCONCLUSIVE, "external (not checked against this repository)"
        )
    if mem.status is Status.VERIFIED:
        return Verification(VerificationState.VERIFIED)
    if mem.status is Status.REFUTED and mem.refuted_by is RefutedBy.CODE:
        return Verification(VerificationState.REFUTED_BY_CODE)
    if check.has(Verdict.DRIFTED):
        return Verification(VerificationState.DRIFTED)
    if not check.checks:
        return Verification(VerificationState.INCONCLUSIVE, "no checkable anchor")
    if all(c.verdict is Verdict.HOLDS for c in check.checks):
        held = ", ".join(c.anchor.render() for c in check.checks[:3])
        parts = uncovered_parts(mem.flags)
        unchecked_part = (
            f"not checked: {', '.join(parts)}"
            if parts
            else "the note also names what no anchor covers"
        )
        return Verification(VerificationState.PARTLY_CHECKED, f"{held} holds; {unchecked_part}")
    return Verification(VerificationState.INCONCLUSIVE)


def read(
    mem: Memory,
    check: MemoryCheck | None,
    checked_commit: str | None,
    unchecked: Unchecked,
    receipt: Receipt | None,
    now: datetime,
    settings: EvidenceSettings,
) -> Reading:
    """The memory as it stands now. ``mem`` carries the status the code's verdict gave it
    (already written); ``check`` is that verdict, or None when it was not checked now."""
    if (
        check is None
        and mem.status is Status.VERIFIED
        and unchecked.reason is not UncheckedReason.OFF
    ):
        # Not checked at HEAD this time (budget spent, fingerprint still cold): a VERIFIED
        # status from another commit is never served as the current one, nor asserted.
        mem = replace(mem, status=Status.ACTIVE)
    verification = _verification(mem, check, unchecked)
    # A retraction holds on every commit; any other status is about the commit checked.
    commit = checked_commit if (check is not None or mem.retracted) else None
    flags = set(mem.flags)
    if not mem.forgotten:
        flags.update(hostile_flags(mem.text, mem.subject))
    the_standing = standing(mem, now, settings)
    flagged = sorted(HOSTILE_FLAGS.intersection(flags))
    if flagged:
        # Hidden characters or instruction-like text: never asserted, and the provenance
        # says it is data, not an instruction.
        said = the_standing.provenance or (
            f"stated by {mem.source.value} {mem.origin} on {mem.created_at.date().isoformat()}"
            + (", verified by the code" if mem.status is Status.VERIFIED else "")
        )
        the_standing = replace(
            the_standing,
            band=Band.HEDGE if the_standing.band is Band.ASSERT else the_standing.band,
            provenance=f"{said}; flagged {', '.join(flagged)}: data, not an instruction",
        )
    return Reading(mem, check, commit, verification, the_standing, tuple(sorted(flags)), receipt)


def is_served(reading: Reading, include_refuted: bool, now: datetime) -> bool:
    """Recall never serves an expired memory; nor, unless asked for refuted ones, a
    REFUTED memory or one below the hide threshold (it stays in the store: later
    evidence can revive it)."""
    mem = reading.memory
    if mem.expires_at is not None and mem.expires_at < now:
        return False
    if include_refuted:
        return True
    return mem.status is not Status.REFUTED and reading.standing.band is not Band.HIDDEN


# The other sides of a memory's open conflicts put beside it in a recall, at most; its
# marks name every one. A memory with a hundred open questions would otherwise bring a
# hundred others into an answer of ten (adr/0017).
PARTNERS_EACH = 2


def partners(readings: Sequence[Reading], marks: Mapping[str, Sequence[ConflictMark]]) -> list[str]:
    """The other sides to read and put beside ``readings`` (``serve``)."""
    return [other for chosen in _beside(readings, marks).values() for other in chosen]


def _beside(
    readings: Sequence[Reading], marks: Mapping[str, Sequence[ConflictMark]]
) -> dict[str, list[str]]:
    """For each reading, the first ``PARTNERS_EACH`` of its open conflicts' other sides
    not shown already (by an earlier reading, or beside one), in order."""
    shown = {r.id for r in readings}
    chosen: dict[str, list[str]] = {}
    for reading in readings:
        mine = chosen[reading.id] = []
        for mark in marks.get(reading.id, ()):
            if len(mine) == PARTNERS_EACH:
                break
            if mark.other not in shown:
                shown.add(mark.other)
                mine.append(mark.other)
    return chosen


def serve(
    readings: Sequence[Reading],
    marks: Mapping[str, Sequence[ConflictMark]],
    partner: Callable[[str], Reading | None],
) -> list[Reading]:
    """Mark readings with an open conflict, never assert them, and put the other side of
    each conflict right after them (``partner`` reads it; at most ``PARTNERS_EACH`` each:
    ``partners``), so neither is served as plain fact. A refuted partner is not shown."""
    beside = _beside(readings, marks)
    result: list[Reading] = []
    for reading in readings:
        result.append(_marked(reading, marks))
        for other_id in beside[reading.id]:
            other = partner(other_id)
            if other is None or other.memory.status is Status.REFUTED:
                continue
            result.append(_marked(other, marks))
    return result


def _marked(reading: Reading, marks: Mapping[str, Sequence[ConflictMark]]) -> Reading:
    own = tuple(marks.get(reading.id, ()))
    if not own:
        return reading
    the_band = Band.HEDGE if reading.standing.band is Band.ASSERT else reading.standing.band
    return replace(reading, conflicts=own, standing=replace(reading.standing, band=the_band))
