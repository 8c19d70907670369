"""The contradiction check as it was before adr/0019, kept as the reference the
equivalence tests compare with: a claim made afresh on every call with its confidence in
it, every key of every claim grouped, the anchors' expectations and the code's verdict
read on every pair, and the plan grown one pair at a time. Only what changed is copied
here; the readings (``slots_of``, ``env_scope``, ``negation_core``, ``content_words``)
and the rest of the rules (``_by_slots``, ``_by_values``) are the store's own."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from store.contradictions.claims import env_scope, negation_core
from store.contradictions.resolving import _ENV_SCOPES, CONFLICT_ORIGIN, slots_of
from store.contradictions.rules import (
    _ANONYMOUS,
    _TEMPORAL,
    CONFIDENCE_MARGIN,
    Conflict,
    ConflictKind,
    ConflictState,
    Outcome,
    Question,
    ReasonCode,
    Resolution,
    Rule,
    Strategy,
    _by_slots,
    _by_values,
    _close,
)
from store.contradictions.slots import Slot, content_words
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.lifecycle import supersede_change
from store.model import Kind, Memory, ReceiptAction, RefutedBy, Source, Status, is_retracted
from store.plan import ConflictRecord, Plan
from store.reading import confidence

MAX_GROUP = 200
MAX_WORD_GROUP = 40
RARE = 12
_RARE_SHARED = 2


@dataclass(frozen=True)
class OldClaim:
    id: str
    text: str
    kind: Kind
    slots: tuple[Slot, ...]
    scope: str | None
    anchors: frozenset[tuple[str, str, str | None, str]]
    status: Status
    refuted_by: RefutedBy | None
    confidence: float
    origins: int
    created_at: datetime
    origin: str
    supersedes: str | None = None
    core: str = ""
    negated: bool = False
    words: frozenset[str] = frozenset()


def claims_of(
    memories: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> dict[str, OldClaim]:
    claims = {}
    for mem in memories:
        if mem.forgotten:
            continue
        scope = env_scope(mem.text) or (mem.scope if mem.scope in _ENV_SCOPES else None)
        core, negated = negation_core(mem.text)
        claims[mem.id] = OldClaim(
            id=mem.id,
            text=mem.text,
            kind=mem.kind,
            slots=slots_of(mem),
            scope=scope,
            anchors=frozenset(
                (s.anchor.kind.value, s.anchor.value, s.anchor.scope, s.anchor.expect.value)
                for s in mem.anchors
            ),
            status=mem.status,
            refuted_by=mem.refuted_by,
            confidence=confidence(mem, now, settings),
            origins=len(mem.origins),
            created_at=mem.created_at,
            origin=mem.origin,
            supersedes=mem.supersedes,
            core=core,
            negated=negated,
            words=content_words(mem.text),
        )
    return claims


def pairs_with(
    new: Memory, others: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> list[tuple[OldClaim, OldClaim]]:
    claims = claims_of([new, *others], now, settings)
    live = [c for c in claims.values() if not is_retracted(c.status, c.refuted_by)]
    fresh = [claims[new.id]] if new.id in claims else []
    return candidate_pairs(live, fresh)


# -- candidates.py ------------------------------------------------------------------------
def keys(claim: OldClaim) -> Iterable[tuple[str, str]]:
    for slot in claim.slots:
        yield "slot:" + slot.key, ""
        for word in slot.about:
            yield f"attr:{slot.attribute}|{word}", ""
    for kind, value, scope, expect in claim.anchors:
        yield f"anchor:{kind}:{value}@{scope or ''}", expect
    if claim.core:
        yield "neg:" + claim.core, ""


def candidate_pairs(
    claims: Sequence[OldClaim], new: Sequence[OldClaim] | None = None
) -> list[tuple[OldClaim, OldClaim]]:
    groups: dict[str, dict[str, list[OldClaim]]] = {}
    for claim in claims:
        for key, side in keys(claim):
            groups.setdefault(key, {}).setdefault(side, []).append(claim)
    fresh = {c.id for c in new} if new is not None else None
    seen: set[tuple[str, str]] = set()
    pairs: list[tuple[OldClaim, OldClaim]] = []

    def add(a: OldClaim, b: OldClaim) -> None:
        if a.id == b.id:
            return
        if fresh is not None and a.id not in fresh and b.id not in fresh:
            return
        pair_id = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if pair_id not in seen:
            seen.add(pair_id)
            pairs.append(ordered(a, b))

    for key, sides in groups.items():
        if "" in sides:
            members = sides[""]
            cap = MAX_WORD_GROUP if key.startswith("attr:") else MAX_GROUP
            if 2 <= len(members) <= cap:
                for a, b in _within(members, fresh):
                    add(a, b)
        else:
            present, absent = sides.get("present", []), sides.get("absent", [])
            if len(present) <= MAX_GROUP and len(absent) <= MAX_GROUP:
                for a, b in _across(present, absent, fresh):
                    add(a, b)
    for a, b in _sharing_rare_words(claims, fresh):
        add(a, b)
    return pairs


def _within(members: Sequence[Any], fresh: Collection[object] | None) -> Iterator[tuple[Any, Any]]:
    if fresh is None:
        yield from itertools.combinations(members, 2)
        return
    marks = [(m if isinstance(m, int) else m.id) in fresh for m in members]
    later = [i for i, mark in enumerate(marks) if mark]
    for i, a in enumerate(members):
        if marks[i]:
            for b in members[i + 1 :]:
                yield a, b
        else:
            for j in later:
                if j > i:
                    yield a, members[j]


def _across(
    present: Sequence[OldClaim], absent: Sequence[OldClaim], fresh: Collection[str] | None
) -> Iterator[tuple[OldClaim, OldClaim]]:
    if fresh is None:
        yield from itertools.product(present, absent)
        return
    new_absent = [b for b in absent if b.id in fresh]
    for a in present:
        yield from ((a, b) for b in (absent if a.id in fresh else new_absent))


def ordered(a: OldClaim, b: OldClaim) -> tuple[OldClaim, OldClaim]:
    return (a, b) if (a.created_at, a.id) <= (b.created_at, b.id) else (b, a)


def _sharing_rare_words(
    claims: Sequence[OldClaim], fresh: set[str] | None
) -> Iterable[tuple[OldClaim, OldClaim]]:
    new = None if fresh is None else {i for i, c in enumerate(claims) if c.id in fresh}
    wanted = None if new is None else frozenset().union(*(claims[i].words for i in new))
    holders: dict[str, list[int]] = {}
    for i, claim in enumerate(claims):
        for word in claim.words:
            if wanted is None or word in wanted:
                holders.setdefault(word, []).append(i)
    shared: Counter[tuple[int, int]] = Counter()
    for members in holders.values():
        if 2 <= len(members) <= RARE:
            shared.update(_within(members, new))
    for (i, j), count in shared.items():
        if count >= _RARE_SHARED:
            a, b = claims[i], claims[j]
            if fresh is None or a.id in fresh or b.id in fresh:
                yield a, b


# -- rules.judge, the anchors' expectations read on every call -------------------------------
def judge(a: Any, b: Any) -> Conflict | Question | None:
    if a.scope and b.scope and a.scope != b.scope:
        return None
    ambiguous = bool(a.scope) != bool(b.scope)
    if _opposite_anchors(a, b):
        return Conflict(a, b, ConflictKind.ANCHOR, scope_ambiguous=ambiguous)
    slotted, agreed = _by_slots(a, b, ambiguous)
    if slotted is not None or agreed:
        return slotted
    if a.core and a.core == b.core and a.negated != b.negated:
        return Conflict(a, b, ConflictKind.NEGATION, scope_ambiguous=ambiguous)
    if a.negated != b.negated and _close(a.words, b.words, 0.6):
        return Question(a, b, ConflictKind.NEGATION, "whether one note denies the other")
    return _by_values(a, b)


def _opposite_anchors(a: Any, b: Any) -> bool:
    anchors_a = {(k, v, s): e for k, v, s, e in a.anchors}
    return any(anchors_a.get((k, v, s), e) != e for k, v, s, e in b.anchors)


def _by_code(a: Any, b: Any) -> Resolution | None:
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


# -- rules.resolve, with the confidence in the claims ----------------------------------------
def resolve(conflict: Conflict, strategy: Strategy = Strategy.DEFAULT) -> Resolution:
    a, b = conflict.a, conflict.b
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
        Strategy.RECENCY_FIRST: (_by_recency, _by_confidence),
        Strategy.CONFIDENCE_FIRST: (_by_confidence,),
    }[strategy]
    for step in steps:
        decided = step(a, b)
        if decided is not None:
            return decided
    return Resolution(
        ConflictState.OPEN, Rule.TOO_CLOSE, Outcome.KEPT_BOTH, None, None, ReasonCode.TOO_CLOSE
    )


def _by_confidence(a: Any, b: Any) -> Resolution | None:
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


def _by_recency(a: Any, b: Any) -> Resolution | None:
    same_author = a.origin == b.origin and a.origin not in _ANONYMOUS
    if b.created_at > a.created_at and (_TEMPORAL.search(b.text) or same_author):
        return Resolution(
            ConflictState.RESOLVED,
            Rule.RECENCY,
            Outcome.REFUTED,
            b.id,
            a.id,
            ReasonCode.TEMPORAL_SUPERSESSION,
        )
    return None


# -- resolving.settle, a plan added to per pair ----------------------------------------------
def settle(
    pairs: Sequence[tuple[OldClaim, OldClaim]],
    memories: Mapping[str, Memory],
    latest: Mapping[tuple[str, str], ConflictRecord],
    now: datetime,
    settings: EvidenceSettings,
) -> tuple[Plan, list[ConflictRecord]]:
    current = dict(memories)
    plan = Plan()
    found: list[ConflictRecord] = []
    for a, b in pairs:
        before = latest.get((a.id, b.id)) or latest.get((b.id, a.id))
        if before is not None and before.rule is Rule.JUDGEMENT:
            continue
        judged = judge(a, b)
        if judged is None:
            continue
        if isinstance(judged, Question):
            record = _record(judged, None, now)
            resolution = Resolution(
                record.state, record.rule, record.outcome, None, None, record.reason_code
            )
        else:
            resolution = resolve(judged, settings.strategy(a.kind))
            record = _record(judged, resolution, now)
        if before is not None and (before.state, before.winner, before.outcome) == (
            resolution.state,
            resolution.winner,
            resolution.outcome,
        ):
            found.append(before)
            continue
        plan += _decided(resolution, current, now, settings)
        plan += Plan(conflicts=(record,))
        found.append(record)
    return plan, found


def _record(judged: Conflict | Question, res: Resolution | None, now: datetime) -> ConflictRecord:
    a: Any = judged.a
    b: Any = judged.b
    if res is None:  # a question
        return ConflictRecord(
            a_id=a.id,
            b_id=b.id,
            kind=judged.kind,
            claim_a=a.text,
            claim_b=b.text,
            state=ConflictState.POSSIBLE,
            rule=Rule.QUESTION,
            outcome=Outcome.KEPT_BOTH,
            winner=None,
            loser=None,
            reason_code=ReasonCode.NEEDS_JUDGEMENT,
            confidence_a=round(a.confidence, 2),
            confidence_b=round(b.confidence, 2),
            slot=None,
            at=now,
        )
    assert isinstance(judged, Conflict)
    return ConflictRecord(
        a_id=a.id,
        b_id=b.id,
        kind=judged.kind,
        claim_a=a.text,
        claim_b=b.text,
        state=res.state,
        rule=res.rule,
        outcome=res.outcome,
        winner=res.winner,
        loser=res.loser,
        reason_code=res.reason,
        confidence_a=round(a.confidence, 2),
        confidence_b=round(b.confidence, 2),
        slot=judged.slot if judged.kind is ConflictKind.SLOT else None,
        at=now,
    )


def _decided(
    res: Resolution, current: dict[str, Memory], now: datetime, settings: EvidenceSettings
) -> Plan:
    if res.loser is None or res.winner is None:
        return Plan()
    loser = current.get(res.loser)
    if loser is None or loser.status is Status.REFUTED:
        return Plan()
    if res.outcome is Outcome.REFUTED:
        change = supersede_change(
            loser,
            "anchormem",
            f"conflicts with {res.winner}: {res.reason.value}",
            now,
            ReceiptAction.SUPERSEDE,
            cause=res.winner,
            detail={"conflict_with": res.winner, "reason_code": res.reason.value},
        )
        current[loser.id] = dataclasses.replace(
            loser, status=change.to_status, refuted_by=change.refuted_by
        )
        return Plan(changes=(change,))
    if res.outcome is Outcome.DEMOTED:
        record = observation(
            loser,
            False,
            ObservationKind.REPORT,
            Source.AGENT,
            CONFLICT_ORIGIN,
            f"lost a conflict to {res.winner}",
            1.0,
            now,
            settings,
        )
        current[loser.id] = observed(loser, record)
        return Plan(observations=(record,))
    return Plan()
