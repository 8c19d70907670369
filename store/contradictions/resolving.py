"""What deciding conflicts does, as a plan: the loser superseded (REFUTED by correction,
with a receipt) or demoted (a contradicting observation), and one conflict-log row per
pair whose decision changed. Plain functions over claims and memories."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import threading
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from store.contradictions.candidates import candidate_pairs, ordered
from store.contradictions.claims import (
    ENV_SCOPES,
    Slot,
    env_scope,
    negation_core,
    parse_slot,
    slot_key,
)
from store.contradictions.rules import (
    Claim,
    Conflict,
    ConflictKind,
    ConflictState,
    Outcome,
    Question,
    Rated,
    ReasonCode,
    Resolution,
    Rule,
    Strategy,
    judge,
    resolve,
)
from store.contradictions.slots import Slot as ReadSlot
from store.contradictions.slots import content_words, read_slots
from store.contradictions.terms import kinds
from store.contradictions.values import parse_value
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.lifecycle import supersede_change
from store.model import Kind, Memory, ReceiptAction, Source, Status, is_retracted
from store.plan import ConflictRecord, ObservationRecord, Plan, StatusChange
from store.reading import confidence

__all__ = [
    "CONFLICT_ORIGIN",
    "WARM_LIMIT",
    "claim_keys",
    "claim_of",
    "claims_of",
    "question_record",
    "settle",
    "slots_of",
    "warm",
]

CONFLICT_ORIGIN = "anchormem:conflict"
# How a question is decided: asked, nothing else changes (``question_record``).
_QUESTION = Resolution(
    ConflictState.POSSIBLE,
    Rule.QUESTION,
    Outcome.KEPT_BOTH,
    None,
    None,
    ReasonCode.NEEDS_JUDGEMENT,
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


def claims_of(memories: Sequence[Memory]) -> dict[str, Claim]:
    """What conflict detection needs of each live memory. A claim is made once per
    memory and kept (``claim_of``); nothing in it changes with time (a pair's confidence
    is rated when it is resolved: ``settle``)."""
    return {mem.id: claim_of(mem) for mem in memories if not mem.forgotten}


def claim_of(mem: Memory) -> Claim:
    """The claim of one memory (not forgotten), kept for as long as the memory object
    itself: a ``Memory`` never changes (a status change or an observation makes a new
    object), so a claim kept by the object's identity is never stale."""
    return _KEPT.get(mem)


class KeptClaims:
    """Claims by memory object, at most ``size`` (the oldest quarter dropped when full).
    Looking one up is a dict probe and an identity check: an equal memory that is
    another object is not the same key (hashing every field of a memory would cost more
    than the claim saves). An entry holds its memory, so the object's ``id`` is not
    reused while its claim is kept. Safe for threads: a probe is one dict read, and
    what changes the dict holds a lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[int, tuple[Memory, Claim]] = {}
        self._lock = threading.Lock()

    def get(self, mem: Memory) -> Claim:
        """The claim of ``mem``, made now if it is not kept."""
        entry = self._entries.get(id(mem))
        if entry is not None and entry[0] is mem:
            return entry[1]
        claim = _made(mem)
        with self._lock:
            entries = self._entries
            if len(entries) >= self.size:  # a quarter at a time: dropping the first entry
                for old in list(itertools.islice(entries, max(1, self.size // 4))):
                    del entries[old]  # of a dict one by one costs a scan of the gap
            entries[id(mem)] = (mem, claim)
        return claim

    def __len__(self) -> int:
        return len(self._entries)

    def cache_clear(self) -> None:
        """Forget every claim (tests, benchmarks)."""
        with self._lock:
            self._entries.clear()


def _made(mem: Memory) -> Claim:
    core, negated = negation_core(mem.text)
    named = kinds(mem.text)
    return Claim(
        id=mem.id,
        text=mem.text,
        kind=mem.kind,
        slots=slots_of(mem),
        scope=env_scope(mem.text) or (mem.scope if mem.scope in ENV_SCOPES else None),
        anchors=frozenset(
            (s.anchor.kind.value, s.anchor.value, s.anchor.scope, s.anchor.expect.value)
            for s in mem.anchors
        ),
        status=mem.status,
        refuted_by=mem.refuted_by,
        origins=len(mem.origins),
        created_at=mem.created_at,
        origin=mem.origin,
        supersedes=mem.supersedes,
        core=core,
        negated=negated,
        words=content_words(mem.text),
        kinds=named[0],
        naming=named[1],
    )


# What the caches below hold, a little under their size: warming more would evict.
WARM_LIMIT = 50_000
_KEPT = KeptClaims(1 << 16)  # as many as the readings of the texts (``_slots``)


def warm(mem: Memory) -> None:
    """Read what conflict detection needs of ``mem`` into the caches (its claim: slots,
    scope, negation core, content words, the keys it is paired by and what its anchors
    expect), so a later check pays a lookup: a ``remember`` judges the ~24 memories that
    share its rarest words, and reading their slots cold costs ~0.5 ms each (adr/0009);
    making their claims, ~15 µs each (adr/0019)."""
    if not mem.forgotten:
        claim = claim_of(mem)
        # read into the claim, which is kept
        _ = claim.key_set, claim.expectations, claim.says_replaced, claim.said
        _ = claim.denials, claim.shares, claim.counts, claim.intervals, claim.settings
        _ = claim.default_or_override, claim.stances


def slots_of(mem: Memory) -> tuple[ReadSlot, ...]:
    """The slots a memory fills: read from its text (with the caller's subject and
    environment scope), and the one the caller gave (``attribute``, ``value``) first."""
    return _slots(mem.text, mem.subject, mem.scope, mem.attribute, mem.slot_value)


@functools.lru_cache(maxsize=1 << 16)
def _slots(
    text: str, subject: str | None, scope_of: str | None, attribute: str | None, value: str | None
) -> tuple[ReadSlot, ...]:
    extra = content_words(subject) if subject else frozenset()
    scope = frozenset({scope_of.lower()}) if scope_of in ENV_SCOPES and scope_of else frozenset()
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
    new: Memory, others: Sequence[Memory], close: Collection[str] = ()
) -> list[tuple[Claim, Claim]]:
    """Candidate pairs of a memory just written with the live memories sharing a key,
    and with the ``close`` ones (``related``) however it words them."""
    claims = claims_of([new, *others])
    live = [c for c in claims.values() if not _retracted(c)]
    if new.id not in claims:
        return []
    pairs = candidate_pairs(live, [claims[new.id]])
    paired = {b.id if a.id == new.id else a.id for a, b in pairs}
    extra = (c for c in live if c.id in close and c.id not in paired and c.id != new.id)
    return pairs + [ordered(c, claims[new.id]) for c in extra]


def all_pairs(memories: Sequence[Memory]) -> tuple[int, list[tuple[Claim, Claim]]]:
    """The number of live claims, and every candidate pair among them (``consolidate``)."""
    claims = claims_of(memories)
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
    ``memories``: those the claims were made of (a pair's confidence is theirs, ``now``).
    Returns the plan and every conflict or question found (new or as logged)."""
    current = dict(memories)
    changes: list[StatusChange] = []
    observations: list[ObservationRecord] = []
    records: list[ConflictRecord] = []
    found: list[ConflictRecord] = []
    rated: dict[str, float] = {}  # each memory's confidence, rated once per call
    strategies: dict[Kind, Strategy] = {}

    def rate(a: Claim, b: Claim) -> Rated:
        for claim in (a, b):
            if claim.id not in rated:
                rated[claim.id] = confidence(memories[claim.id], now, settings)
        return Rated(rated[a.id], rated[b.id])

    def strategy(kind: Kind) -> Strategy:
        if kind not in strategies:
            strategies[kind] = settings.strategy(kind)
        return strategies[kind]

    for a, b in pairs:
        before = latest.get((a.id, b.id)) or latest.get((b.id, a.id))
        if before is not None and before.rule is Rule.JUDGEMENT:
            continue
        judged = judge(a, b)
        if judged is None:
            continue
        both = rate(a, b)
        if isinstance(judged, Question):
            resolution = _QUESTION
        else:
            resolution = resolve(judged, both, strategy(a.kind))
        if before is not None and (before.state, before.winner, before.outcome) == (
            resolution.state,
            resolution.winner,
            resolution.outcome,
        ):
            found.append(before)
            continue
        if isinstance(judged, Question):
            record = question_record(judged, both, now)
        else:
            record = _record(judged, resolution, both, now)
        change, observed_as = _decided(resolution, current, now, settings)
        changes += change
        observations += observed_as
        records.append(record)
        found.append(record)
    plan = Plan(changes=tuple(changes), observations=tuple(observations), conflicts=tuple(records))
    return plan, found


def question_record(question: Question, rated: Rated, now: datetime) -> ConflictRecord:
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
        confidence_a=round(rated.a, 2),
        confidence_b=round(rated.b, 2),
        slot=None,
        at=now,
    )


def _decided(
    res: Resolution, current: dict[str, Memory], now: datetime, settings: EvidenceSettings
) -> tuple[tuple[StatusChange, ...], tuple[ObservationRecord, ...]]:
    """The loser's part of a decision (a status change or an observation); ``current``
    follows the plan as it grows."""
    if res.loser is None or res.winner is None:
        return (), ()
    loser = current.get(res.loser)
    if loser is None or loser.status is Status.REFUTED:
        return (), ()
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
        return (change,), ()
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
        return (), (record,)
    return (), ()


def _record(conflict: Conflict, res: Resolution, rated: Rated, now: datetime) -> ConflictRecord:
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
        confidence_a=round(rated.a, 2),
        confidence_b=round(rated.b, 2),
        slot=conflict.slot if conflict.kind is ConflictKind.SLOT else None,
        at=now,
    )


def _retracted(c: Claim) -> bool:
    return is_retracted(c.status, c.refuted_by)
