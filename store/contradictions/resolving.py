"""What deciding conflicts does, as a plan: the loser superseded (REFUTED by correction,
with a receipt) or demoted (a contradicting observation), and one conflict-log row per
pair whose decision changed. Plain functions over claims and memories."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from datetime import datetime

from store.contradictions.candidates import candidate_pairs
from store.contradictions.claims import Slot, env_scope, negation_core, parse_slot, slot_key
from store.contradictions.rules import (
    Claim,
    Conflict,
    ConflictKind,
    ConflictState,
    Outcome,
    Question,
    ReasonCode,
    Resolution,
    Rule,
    judge,
    resolve,
)
from store.contradictions.slots import Slot as ReadSlot
from store.contradictions.slots import content_words, read_slots
from store.contradictions.values import parse_value
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.lifecycle import supersede_change
from store.model import Memory, ReceiptAction, Source, Status, is_retracted
from store.plan import ConflictRecord, Plan
from store.reading import confidence

__all__ = [
    "CONFLICT_ORIGIN",
    "WARM_LIMIT",
    "claim_keys",
    "claims_of",
    "question_record",
    "settle",
    "slots_of",
    "warm",
]

CONFLICT_ORIGIN = "anchormem:conflict"
_ENV_SCOPES = frozenset(
    {"staging", "production", "development", "test", "qa", "local", "ci", "preview", "sandbox"}
)


def claim_keys(
    text: str, subject: str | None, attribute: str | None, value: str | None
) -> tuple[Slot | None, str | None, str]:
    """The slot (given, or parsed from the text), the environment scope and the negation
    core of a claim."""
    slot = None
    if attribute and value:
        subject_words = " ".join(sorted(content_words(subject))) if subject else ""
        slot = Slot(subject_words, attribute.strip().lower(), value.strip().lower())
    elif not attribute and not value:
        slot = parse_slot(text, subject)
    return slot, env_scope(text), negation_core(text)[0]


def claims_of(
    memories: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> dict[str, Claim]:
    """What conflict detection needs of each live memory."""
    claims = {}
    for mem in memories:
        if mem.forgotten:
            continue
        scope = env_scope(mem.text) or (mem.scope if mem.scope in _ENV_SCOPES else None)
        core, negated = negation_core(mem.text)
        claims[mem.id] = Claim(
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


# What the caches below hold, a little under their size: warming more would evict.
WARM_LIMIT = 50_000


def warm(mem: Memory) -> None:
    """Read what conflict detection needs of ``mem`` into the caches (its slots, scope,
    negation core and content words), so a later check pays a lookup: a ``remember``
    judges the ~24 memories that share its rarest words, and reading their slots cold
    costs ~0.5 ms each (adr/0009)."""
    slots_of(mem)
    env_scope(mem.text)
    negation_core(mem.text)
    content_words(mem.text)


def slots_of(mem: Memory) -> tuple[ReadSlot, ...]:
    """The slots a memory fills: read from its text (with the caller's subject and
    environment scope), and the one the caller gave (``attribute``, ``value``) first."""
    return _slots(mem.text, mem.subject, mem.scope, mem.attribute, mem.slot_value)


@functools.lru_cache(maxsize=1 << 16)
def _slots(
    text: str, subject: str | None, scope_of: str | None, attribute: str | None, value: str | None
) -> tuple[ReadSlot, ...]:
    extra = content_words(subject) if subject else frozenset()
    scope = frozenset({scope_of.lower()}) if scope_of in _ENV_SCOPES and scope_of else frozenset()
    read = [
        s
        if not extra and not scope
        else dataclasses.replace(
            s, subject=s.subject | (extra - s.qualifiers), qualifiers=s.qualifiers | scope
        )
        for s in read_slots(text)
    ]
    if attribute and value:
        parsed = parse_slot(text, subject)
        if parsed is None or slot_key(parsed) != attribute:
            given_subject, _, given_attribute = attribute.partition("|")
            given = ReadSlot(
                content_words(given_subject), scope, given_attribute, parse_value(value)
            )
            return (given, *read)
    return tuple(read)


def pairs_with(
    new: Memory, others: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> list[tuple[Claim, Claim]]:
    """Candidate pairs of a memory just written with the live memories sharing a key."""
    claims = claims_of([new, *others], now, settings)
    live = [c for c in claims.values() if not _retracted(c)]
    fresh = [claims[new.id]] if new.id in claims else []
    return candidate_pairs(live, fresh)


def all_pairs(
    memories: Sequence[Memory], now: datetime, settings: EvidenceSettings
) -> tuple[int, list[tuple[Claim, Claim]]]:
    claims = claims_of(memories, now, settings)
    live = [c for c in claims.values() if not _retracted(c)]
    return len(live), candidate_pairs(live)


def settle(
    pairs: Sequence[tuple[Claim, Claim]],
    memories: Mapping[str, Memory],
    latest: Mapping[tuple[str, str], ConflictRecord],
    now: datetime,
    settings: EvidenceSettings,
) -> tuple[Plan, list[ConflictRecord]]:
    """Judge and decide each pair; a pair whose decision is the one logged last is left
    as it is, and a pair an agent or a person judged (``resolve``) is never judged again.
    Returns the plan and every conflict or question found (new or as logged)."""
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
            record = question_record(judged, now)
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


def question_record(question: Question, now: datetime) -> ConflictRecord:
    """A pair the rules cannot decide, logged as a question: nothing else changes."""
    a, b = question.a, question.b
    return ConflictRecord(
        a_id=a.id,
        b_id=b.id,
        kind=question.kind,
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


def _decided(
    res: Resolution, current: dict[str, Memory], now: datetime, settings: EvidenceSettings
) -> Plan:
    """The loser's part of a decision; ``current`` follows the plan as it grows."""
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


def _record(conflict: Conflict, res: Resolution, now: datetime) -> ConflictRecord:
    a, b = conflict.a, conflict.b
    return ConflictRecord(
        a_id=a.id,
        b_id=b.id,
        kind=conflict.kind,
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
        slot=conflict.slot if conflict.kind is ConflictKind.SLOT else None,
        at=now,
    )


def _retracted(c: Claim) -> bool:
    return is_retracted(c.status, c.refuted_by)
