"""Contradictions between memories as plain functions: candidate pairs, conflicts, and
their resolution (seed 004, adr/0006).

Candidates are found by shared keys — a slot, an anchor, the core of a negated claim —
never by comparing all pairs. Two memories conflict when one slot holds different
values, one anchor is expected both present and absent, or one text is the negation of
the other. Different scopes (staging, production) never conflict.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from store.contradictions.claims import Slot, negation_core, slot_key
from store.model import Kind, RefutedBy, Status

__all__ = [
    "Claim",
    "Conflict",
    "ConflictKind",
    "ConflictState",
    "Outcome",
    "ReasonCode",
    "Resolution",
    "Rule",
    "Strategy",
    "candidate_pairs",
    "detect",
    "resolve",
]

CONFIDENCE_MARGIN = 0.5
MAX_GROUP = 200  # a key shared by more memories than this is too common to pair on
_TEMPORAL = re.compile(
    r"\b(now|upgraded|downgraded|migrated|moved|switched|replaced|since|no longer|"
    r"anymore|any more|changed|from now on|these days|bumped|dropped|adopted)\b",
    re.I,
)


class ConflictKind(StrEnum):
    SLOT = "slot"
    ANCHOR = "anchor"
    NEGATION = "negation"


class ReasonCode(StrEnum):
    """Closed set of reasons a conflict was resolved (or not)."""

    CODE_VERDICT = "CODE_VERDICT"
    EXPLICIT_CORRECTION = "EXPLICIT_CORRECTION"
    HIGHER_CONFIDENCE = "HIGHER_CONFIDENCE"
    MORE_ORIGINS = "MORE_ORIGINS"
    TEMPORAL_SUPERSESSION = "TEMPORAL_SUPERSESSION"
    TOO_CLOSE = "TOO_CLOSE"
    SCOPE_AMBIGUOUS = "SCOPE_AMBIGUOUS"


class ConflictState(StrEnum):
    RESOLVED = "resolved"
    OPEN = "open"  # kept both; recall shows them side by side


class Outcome(StrEnum):
    """What happened to the loser."""

    REFUTED = "refuted"  # superseded: REFUTED by correction, with a receipt
    DEMOTED = "demoted"  # a contradicting observation lowers its confidence
    REFUTED_BY_CODE = "refuted_by_code"  # the code had refuted it already
    KEPT_BOTH = "kept_both"


class Rule(StrEnum):
    """Which step of the resolution order decided."""

    SCOPE = "scope"
    CODE_VERDICT = "code_verdict"
    EXPLICIT_CORRECTION = "explicit_correction"
    CONFIDENCE = "confidence"
    ORIGINS = "origins"
    RECENCY = "recency"
    TOO_CLOSE = "too_close"


class Strategy(StrEnum):
    DEFAULT = "default"  # code, correction, confidence/origins, temporal recency
    RECENCY_FIRST = "recency_first"  # code, correction, recency, confidence
    CONFIDENCE_FIRST = "confidence_first"  # code, correction, confidence; never recency


@dataclass(frozen=True)
class Claim:
    """What conflict detection needs to know of one live memory."""

    id: str
    text: str
    kind: Kind
    slot: Slot | None
    scope: str | None
    anchors: frozenset[tuple[str, str, str | None, str]]  # kind, value, scope, expect
    status: Status
    refuted_by: RefutedBy | None
    confidence: float
    origins: int
    created_at: datetime
    origin: str
    supersedes: str | None = None


@dataclass(frozen=True)
class Conflict:
    a: Claim
    b: Claim
    kind: ConflictKind
    scope_ambiguous: bool = False


@dataclass(frozen=True)
class Resolution:
    state: ConflictState
    rule: Rule
    outcome: Outcome
    winner: str | None
    loser: str | None
    reason: ReasonCode


def _keys(claim: Claim) -> Iterable[tuple[str, str]]:
    """(key, side): claims conflict only within a key; anchor keys pair across sides
    (present with absent), since the same expectation never conflicts."""
    if claim.slot is not None:
        yield "slot:" + slot_key(claim.slot), ""
    for kind, value, scope, expect in claim.anchors:
        yield f"anchor:{kind}:{value}@{scope or ''}", expect
    core, _ = negation_core(claim.text)
    if core:
        yield "neg:" + core, ""


def candidate_pairs(
    claims: Sequence[Claim], new: Sequence[Claim] | None = None
) -> list[tuple[Claim, Claim]]:
    """Pairs of claims sharing a key, each pair once. With ``new``, only pairs with at
    least one new claim (the check on remember)."""
    groups: dict[str, dict[str, list[Claim]]] = {}
    for claim in claims:
        for key, side in _keys(claim):
            groups.setdefault(key, {}).setdefault(side, []).append(claim)
    fresh = {c.id for c in new} if new is not None else None
    seen: set[tuple[str, str]] = set()
    pairs = []
    for sides in groups.values():
        candidates: Iterable[tuple[Claim, Claim]]
        if "" in sides:
            members = sides[""]
            candidates = (
                itertools.combinations(members, 2) if 2 <= len(members) <= MAX_GROUP else ()
            )
        else:
            present, absent = sides.get("present", []), sides.get("absent", [])
            too_many = len(present) > MAX_GROUP or len(absent) > MAX_GROUP
            candidates = () if too_many else itertools.product(present, absent)
        for a, b in candidates:
            if a.id == b.id:
                continue
            if fresh is not None and a.id not in fresh and b.id not in fresh:
                continue
            pair_id = (a.id, b.id) if a.id < b.id else (b.id, a.id)
            if pair_id not in seen:
                seen.add(pair_id)
                pairs.append((a, b) if a.created_at <= b.created_at else (b, a))
    return pairs


def detect(a: Claim, b: Claim) -> Conflict | None:
    """A conflict between two claims, or None. Different explicit scopes never conflict;
    one scoped and one unscoped claim is a scope ambiguity, reported and not resolved."""
    kind = _conflict_kind(a, b)
    if kind is None:
        return None
    if a.scope and b.scope and a.scope != b.scope:
        return None
    ambiguous = bool(a.scope) != bool(b.scope)
    return Conflict(a, b, kind, scope_ambiguous=ambiguous)


def _conflict_kind(a: Claim, b: Claim) -> ConflictKind | None:
    if a.slot and b.slot and slot_key(a.slot) == slot_key(b.slot) and a.slot.value != b.slot.value:
        return ConflictKind.SLOT
    anchors_a = {(k, v, s): e for k, v, s, e in a.anchors}
    for k, v, s, e in b.anchors:
        other = anchors_a.get((k, v, s))
        if other is not None and other != e:
            return ConflictKind.ANCHOR
    core_a, neg_a = negation_core(a.text)
    core_b, neg_b = negation_core(b.text)
    if core_a and core_a == core_b and neg_a != neg_b:
        return ConflictKind.NEGATION
    return None


def resolve(conflict: Conflict, strategy: Strategy = Strategy.DEFAULT) -> Resolution:
    """Decide a conflict: the code's verdict, then an explicit correction, then
    confidence and independent origins, then temporal recency; too close: keep both."""
    a, b = conflict.a, conflict.b  # a is the older
    if conflict.scope_ambiguous:
        return Resolution(
            ConflictState.OPEN,
            Rule.SCOPE,
            Outcome.KEPT_BOTH,
            None,
            None,
            ReasonCode.SCOPE_AMBIGUOUS,
        )
    by_code = _by_code(a, b)
    if by_code is not None:
        return by_code
    for x, y in ((a, b), (b, a)):
        if y.supersedes == x.id:
            return Resolution(
                ConflictState.RESOLVED,
                Rule.EXPLICIT_CORRECTION,
                Outcome.REFUTED,
                y.id,
                x.id,
                ReasonCode.EXPLICIT_CORRECTION,
            )
    steps = {
        Strategy.DEFAULT: (_by_confidence, _by_recency),
        Strategy.RECENCY_FIRST: (_by_any_recency, _by_confidence),
        Strategy.CONFIDENCE_FIRST: (_by_confidence,),
    }[strategy]
    for step in steps:
        decided = step(a, b)
        if decided is not None:
            return decided
    return Resolution(
        ConflictState.OPEN, Rule.TOO_CLOSE, Outcome.KEPT_BOTH, None, None, ReasonCode.TOO_CLOSE
    )


def _by_code(a: Claim, b: Claim) -> Resolution | None:
    verified = [c for c in (a, b) if c.status is Status.VERIFIED]
    refuted = [c for c in (a, b) if c.status is Status.REFUTED and c.refuted_by is RefutedBy.CODE]
    if len(verified) == 1 and len(refuted) == 1:
        return Resolution(
            ConflictState.RESOLVED,
            Rule.CODE_VERDICT,
            Outcome.REFUTED_BY_CODE,
            verified[0].id,
            refuted[0].id,
            ReasonCode.CODE_VERDICT,
        )
    return None


def _by_confidence(a: Claim, b: Claim) -> Resolution | None:
    if abs(a.confidence - b.confidence) >= CONFIDENCE_MARGIN:
        win, lose = (a, b) if a.confidence > b.confidence else (b, a)
        return Resolution(
            ConflictState.RESOLVED,
            Rule.CONFIDENCE,
            Outcome.DEMOTED,
            win.id,
            lose.id,
            ReasonCode.HIGHER_CONFIDENCE,
        )
    if a.origins != b.origins:
        win, lose = (a, b) if a.origins > b.origins else (b, a)
        return Resolution(
            ConflictState.RESOLVED,
            Rule.ORIGINS,
            Outcome.DEMOTED,
            win.id,
            lose.id,
            ReasonCode.MORE_ORIGINS,
        )
    return None


def _by_recency(a: Claim, b: Claim) -> Resolution | None:
    # Recency decides a temporal supersession: the newer claim states a change, or the
    # same origin restates its own fact. Otherwise two sources simply disagree.
    if b.created_at > a.created_at and (_TEMPORAL.search(b.text) or a.origin == b.origin):
        return Resolution(
            ConflictState.RESOLVED,
            Rule.RECENCY,
            Outcome.REFUTED,
            b.id,
            a.id,
            ReasonCode.TEMPORAL_SUPERSESSION,
        )
    return None


def _by_any_recency(a: Claim, b: Claim) -> Resolution | None:
    if b.created_at > a.created_at:
        return Resolution(
            ConflictState.RESOLVED,
            Rule.RECENCY,
            Outcome.REFUTED,
            b.id,
            a.id,
            ReasonCode.TEMPORAL_SUPERSESSION,
        )
    return None
