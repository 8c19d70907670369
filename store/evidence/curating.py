"""Evidence about memories, recorded: observations (each one plan, a correction included),
the review queue and the wrong-fact / missed-fact signals."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

from store.backend import utcnow
from store.errors import InvalidInput
from store.evidence.observations import Effect, ObservationKind, check_claimed_source, route
from store.evidence.observing import observation
from store.evidence.review import (
    DEFAULT_IMPACT,
    Candidate,
    Observed,
    ReviewAction,
    pick_questions,
    review_action,
)
from store.ids import new_id
from store.inputs import clean_actor, clean_text, parse_choice, parse_weight
from store.lifecycle import supersede_change
from store.model import Kind, ReceiptAction, Source, Status
from store.plan import Plan
from store.plan import Question as AskedQuestion
from store.reader import Reader
from store.reading import RECORD_CONFIRMED, confidence
from store.results import ObserveResult, Question, ReviewItem, ReviewResult, StatsResult

if TYPE_CHECKING:  # made on first use: a call that never writes never loads it
    from store.remembering import Remembering

__all__ = ["EvidenceCuration"]


class EvidenceCuration:
    def __init__(self, reader: Reader, remembering: Callable[[], Remembering]) -> None:
        self._reader = reader
        self._remembering = remembering
        self._db = reader.db
        self._evidence = reader.settings.evidence
        self._origin = reader.settings.origin

    def observe(
        self,
        memory_id: object,
        agrees: object,
        kind: object = ObservationKind.BEHAVIOUR,
        source: object = Source.USER,
        origin: object = None,
        note: object = None,
        weight: object = None,
    ) -> ObserveResult:
        """Record evidence about a memory; what it does depends on its kind (seed 001)."""
        mem = self._reader.get(memory_id, live=True)
        if mem.retracted:
            raise InvalidInput(f"memory {mem.id} is retracted; restore it before observing it")
        if not isinstance(agrees, bool):
            raise InvalidInput("say whether the observation confirms or contradicts")
        the_kind = parse_choice(ObservationKind, kind, "observation kind")
        the_source = parse_choice(Source, source, "source")
        check_claimed_source(the_source.value, self._evidence.trusted_sources)
        who = clean_actor(origin, self._origin or the_source.value, "origin")
        text = clean_text(note, "note") if note is not None else None
        w = parse_weight(weight)
        routing = route(the_kind, agrees, the_source.value, self._evidence.source_weights, w)
        now = utcnow()
        settings = self._evidence

        def counters(weight: float | None, agree: bool = agrees, **extra: object) -> Plan:
            record = observation(
                mem,
                agree,
                the_kind,
                the_source,
                who,
                text,
                weight,
                now,
                settings,
                **extra,  # type: ignore[arg-type]
            )
            return Plan(observations=(record,))

        new_id_: str | None = None
        episode: str | None = None
        if routing.effect is Effect.SUPERSEDE:
            if text is None:
                raise InvalidInput("a correction needs --note with the corrected claim")
            correction = self._remembering().note(
                text,
                subject=mem.subject,
                kind=mem.kind,
                source=the_source,
                origin=who,
                supersedes=mem.id,
            )
            prepared = self._remembering().prepare(correction)
            new_id_ = prepared.memory_id
            change = supersede_change(
                mem,
                who,
                f"superseded by correction {new_id_}",
                now,
                ReceiptAction.SUPERSEDE,
                new_id_,
            )
            self._db.apply(prepared.plan + Plan(changes=(change,)) + counters(1.0, False))
        elif routing.effect is Effect.EPISODE:
            if text is None:
                raise InvalidInput("an explained exception needs --note with the explanation")
            event = self._remembering().note(
                text,
                subject=mem.subject,
                kind=Kind.EPISODE,
                source=the_source,
                origin=who,
                expires_at=now + timedelta(days=self._evidence.episode_days),
            )
            prepared = self._remembering().prepare(event)
            episode = prepared.memory_id
            self._db.apply(prepared.plan + counters(0.0))
        elif routing.effect is Effect.RECORD and not agrees:
            reason = text or f"contradicted by the {the_source.value} record"
            change = supersede_change(mem, who, reason, now, ReceiptAction.RETRACT, None)
            self._db.apply(Plan(changes=(change,)) + counters(1.0, False))
        elif routing.effect is Effect.RECORD:
            self._db.apply(counters(1.0, True, confirmed=True, add_flag=RECORD_CONFIRMED))
        else:  # counters, or ignored (a proxy action: recorded with no weight)
            self._db.apply(counters(w))
        reading = self._reader.readings([mem.id])[0]
        return ObserveResult(reading, routing.effect, new_id_, episode)

    def review(self, record_questions: bool = True) -> ReviewResult:
        """The review queue: ASK / DEMOTE / STALE for live memories, and the questions
        worth asking now within the budget (one per user per week by default)."""
        now = utcnow()
        ids = self._db.list_ids([Status.ACTIVE, Status.VERIFIED], 10_000_000)
        memories = self._db.load(ids)
        observed = self._db.all_observations()
        items, candidates = [], []
        stale_after = timedelta(days=self._evidence.stale_after_days)
        for mid in ids:
            mem = memories[mid]
            if mem.expires_at is not None and mem.expires_at < now:
                continue
            seen = [Observed(at, ok, w) for at, ok, w in observed.get(mid, ())]
            value = confidence(mem, now, self._evidence)
            confirmed = mem.last_confirmed_at or mem.created_at
            action = review_action(
                seen, value, self._evidence.hide_below, confirmed, now, stale_after
            )
            if action is ReviewAction.HOLD:
                continue
            staleness = max((now - confirmed).total_seconds() / 86_400, 1.0)
            items.append(ReviewItem(mid, action, round(value, 2), mem.text, round(staleness, 1)))
            if action in (ReviewAction.ASK, ReviewAction.STALE):
                boost = 10.0 if action is ReviewAction.ASK else 1.0
                impact = DEFAULT_IMPACT.get(mem.kind.value, 1.0)
                candidates.append(Candidate(mid, mem.origin, staleness * boost, impact))
        chosen = pick_questions(
            candidates, self._db.last_questions(), now, self._evidence.questions_per_user_per_week
        )
        questions, asked = [], []
        for cand in chosen:
            mem = memories[cand.memory_id]
            questions.append(
                Question(
                    mem.id,
                    cand.user,
                    f"Is this still right: \u201c{mem.text}\u201d "
                    f"(noted {mem.created_at.date().isoformat()})?",
                )
            )
            asked.append(AskedQuestion(new_id("q"), mem.id, cand.user, now))
        if record_questions and asked:
            self._db.apply(Plan(questions=tuple(asked)))
        return ReviewResult(tuple(items), tuple(questions))

    def stats(self) -> StatsResult:
        """Wrong-fact and missed-fact signals, kept apart (seed 002)."""
        counts = self._db.event_counts()
        written = counts.get("remember", 0)
        corrections = counts.get("supersede", 0)
        return StatsResult(
            memories_written=written,
            corrections=corrections,
            retractions=counts.get("retract", 0),
            refutations_by_code=counts.get("verify:REFUTED", 0),
            restatements=counts.get("observe:restatement", 0),
            correction_rate=round(corrections / written, 4) if written else 0.0,
            retracted_claims_remembered_again=counts.get("remember_retracted", 0),
        )
