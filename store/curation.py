"""Evidence about memories: observations, confidence and bands, the review queue, stats.

A mixin of ``MemoryService`` (it uses the service's store and its remember/retract
machinery); the rules themselves are the plain functions of ``store.confidence``,
``store.evidence`` and ``store.review``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from store.confidence import (
    DEFAULT_HALF_LIVES,
    Band,
    Evidence,
    band,
    decayed,
    gated_confidence,
)
from store.confidence import observe as add_observation
from store.db import Database, utcnow
from store.errors import InvalidInput
from store.evidence import DEFAULT_SOURCE_WEIGHTS, Effect, ObservationKind, route
from store.ids import new_id
from store.lifecycle import clean_text, is_retracted, parse_choice
from store.limits import MAX_ORIGIN_CHARS
from store.model import (
    Memory,
    Observation,
    Receipt,
    ReceiptAction,
    RefutedBy,
    Source,
    Status,
    StatusChange,
)
from store.review import (
    DEFAULT_IMPACT,
    Candidate,
    Observed,
    ReviewAction,
    pick_questions,
    review_action,
)

__all__ = ["Curation", "EvidenceSettings"]

RECORD_CONFIRMED = "record_confirmed"


@dataclass(frozen=True)
class EvidenceSettings:
    hide_below: float = 3.5
    strict: bool = False
    half_lives: Mapping[str, float | None] = field(default_factory=lambda: DEFAULT_HALF_LIVES)
    source_weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_SOURCE_WEIGHTS)
    stale_after_days: float = 90.0
    episode_days: float = 30.0
    questions_per_user_per_week: int = 1


class Curation:
    """Observations, confidence, review and stats for ``MemoryService``."""

    db: Database
    evidence: EvidenceSettings
    # Provided by MemoryService:
    remember: Callable[..., dict[str, Any]]
    _get_live: Callable[[object], Memory]
    _views: Callable[..., list[dict[str, Any]]]

    # -- standing: what the agent is told -------------------------------------------
    def _confidence(self, mem: Memory, now: datetime) -> float:
        if mem.status is Status.REFUTED:
            return 0.0
        ev = decayed(
            Evidence(mem.support, mem.contradiction, mem.evidence_at or mem.created_at),
            now,
            self.evidence.half_lives.get(mem.kind.value),
        )
        verified = mem.status is Status.VERIFIED or RECORD_CONFIRMED in mem.flags
        return gated_confidence(ev.support, ev.contradiction, len(mem.origins), verified)

    def _standing(self, mem: Memory, now: datetime) -> dict[str, Any]:
        """Confidence, band, independent origins and provenance of one memory now."""
        confidence = self._confidence(mem, now)
        the_band = band(confidence, self.evidence.hide_below, self.evidence.strict)
        verified = mem.status is Status.VERIFIED
        origins = len(mem.origins)
        confirmed = max(
            (t for t in (mem.last_confirmed_at, mem.created_at) if t is not None),
        )
        provenance = None
        if the_band is Band.HEDGE or not verified:
            times = "once" if mem.observations <= 1 else f"{mem.observations} times"
            provenance = (
                f"stated {times} by {mem.source.value} {mem.origin} on "
                f"{mem.created_at.date().isoformat()}"
                + (f", {origins} independent origins" if origins > 1 else "")
                + (", verified by the code" if verified else ", not verified")
            )
        return {
            "confidence": round(confidence, 2),
            "band": the_band.value if mem.status is not Status.REFUTED else Band.HIDDEN.value,
            "origins": origins,
            "candidate": origins < 2 and not verified,
            "last_confirmed_at": confirmed.isoformat(timespec="seconds"),
            "provenance": provenance,
            "expires_at": mem.expires_at.isoformat(timespec="seconds") if mem.expires_at else None,
        }

    def _origins_for_new(self, origin: str, parents: Sequence[str]) -> tuple[str, ...]:
        """A memory's own origin; a derived memory inherits its parents' origins instead,
        so a summary never corroborates what it summarises (seed 000)."""
        if not parents:
            return (origin,)
        found = self.db.load(parents)
        return tuple(sorted({o for p in found.values() for o in (p.origins or (p.origin,))}))

    # -- observations -------------------------------------------------------------------
    def _observe_counters(
        self,
        mem: Memory,
        agrees: bool,
        kind: ObservationKind,
        source: str,
        origin: str,
        note: str | None,
        weight: float | None,
        now: datetime,
        confirmed: bool = False,
    ) -> Observation:
        routing = route(kind, agrees, source, self.evidence.source_weights, weight)
        w = routing.weight if routing.effect in (Effect.COUNTERS, Effect.RECORD) else 0.0
        half_life = self.evidence.half_lives.get(mem.kind.value)
        ev = add_observation(
            Evidence(mem.support, mem.contradiction, mem.evidence_at or mem.created_at),
            agrees,
            w,
            now,
            half_life,
        )
        origins = set(mem.origins)
        derived = bool(mem.derived_from)
        if agrees and w > 0 and not derived:
            origins.add(origin)
        obs = Observation(
            id=new_id("o"),
            memory_id=mem.id,
            at=now,
            agrees=agrees,
            kind=kind.value,
            source=source,
            origin=origin,
            weight=w,
            note=note,
            support=ev.support,
            contradiction=ev.contradiction,
            origins=tuple(sorted(origins)),
            confidence=0.0,
            confirmed=(agrees and w > 0) or confirmed,
        )
        updated = Memory(
            **{
                **mem.__dict__,
                "support": ev.support,
                "contradiction": ev.contradiction,
                "evidence_at": now,
                "origins": obs.origins,
            }
        )
        obs = Observation(**{**obs.__dict__, "confidence": self._confidence(updated, now)})
        self.db.record_observation(obs)
        return obs

    def observe(
        self,
        memory_id: object,
        agrees: object,
        kind: object = "behaviour",
        source: object = "user",
        origin: object = None,
        note: object = None,
        weight: object = None,
    ) -> dict[str, Any]:
        """Record evidence about a memory; what it does depends on its kind (seed 001)."""
        mem = self._get_live(memory_id)
        if is_retracted(mem):
            raise InvalidInput(f"memory {mem.id} is retracted; restore it before observing it")
        if not isinstance(agrees, bool):
            raise InvalidInput("say whether the observation confirms or contradicts")
        the_kind = parse_choice(ObservationKind, kind, "observation kind")
        the_source = parse_choice(Source, source, "source")
        who = clean_text(origin, "origin", MAX_ORIGIN_CHARS) if origin else the_source.value
        text = clean_text(note, "note") if note is not None else None
        w = _weight(weight)
        routing = route(the_kind, agrees, the_source.value, self.evidence.source_weights, w)
        now = utcnow()
        extra: dict[str, Any] = {"effect": routing.effect.value}

        if routing.effect is Effect.SUPERSEDE:
            if text is None:
                raise InvalidInput("a correction needs --note with the corrected claim")
            new = self.remember(
                text,
                subject=mem.subject,
                kind=mem.kind.value,
                source=the_source.value,
                origin=who,
                supersedes=mem.id,
            )
            self._refute_by(
                mem,
                who,
                f"superseded by correction {new['id']}",
                now,
                ReceiptAction.SUPERSEDE,
                cause=new["id"],
            )
            self._observe_counters(mem, False, the_kind, the_source.value, who, text, 1.0, now)
            extra["new_memory"] = new["id"]
        elif routing.effect is Effect.EPISODE:
            if text is None:
                raise InvalidInput("an explained exception needs --note with the explanation")
            episode = self.remember(
                text,
                subject=mem.subject,
                kind="episode",
                source=the_source.value,
                origin=who,
                expires_at=now + timedelta(days=self.evidence.episode_days),
            )
            self._observe_counters(mem, agrees, the_kind, the_source.value, who, text, 0.0, now)
            extra["episode"] = episode["id"]
        elif routing.effect is Effect.RECORD and not agrees:
            self._refute_by(
                mem,
                who,
                text or f"contradicted by the {the_source.value} record",
                now,
                ReceiptAction.RETRACT,
                cause=None,
            )
            self._observe_counters(mem, False, the_kind, the_source.value, who, text, 1.0, now)
        elif routing.effect is Effect.RECORD:
            self.db.add_flag(mem.id, RECORD_CONFIRMED)
            self._observe_counters(
                mem, True, the_kind, the_source.value, who, text, 1.0, now, confirmed=True
            )
        else:  # counters, or ignored (a proxy action: recorded with no weight)
            self._observe_counters(mem, agrees, the_kind, the_source.value, who, text, w, now)
        view = self._views([mem.id], verify=True)[0]
        return {**view, **extra}

    def _refute_by(
        self,
        mem: Memory,
        actor: str,
        reason: str,
        now: datetime,
        action: ReceiptAction,
        cause: str | None,
    ) -> None:
        receipt = Receipt(new_id("r"), mem.id, action, actor, reason, now, cause_id=cause)
        self.db.apply_changes(
            [
                StatusChange(
                    mem.id,
                    Status.REFUTED,
                    RefutedBy.CORRECTION,
                    action.value,
                    actor,
                    reason,
                    receipt,
                )
            ],
            now,
        )

    # -- review and stats ---------------------------------------------------------------------
    def review(self, record_questions: bool = True) -> dict[str, Any]:
        """The review queue: ASK / DEMOTE / STALE for live memories, and the questions
        worth asking now within the budget (one per user per week by default)."""
        now = utcnow()
        ids = self.db.list_ids([Status.ACTIVE, Status.VERIFIED], 100_000)
        memories = self.db.load(ids)
        items, candidates = [], []
        stale_after = timedelta(days=self.evidence.stale_after_days)
        for mid in ids:
            mem = memories[mid]
            if mem.expires_at is not None and mem.expires_at < now:
                continue
            observed = [Observed(at, ok, w) for at, ok, w, _, _ in self.db.observations(mid)]
            confidence = self._confidence(mem, now)
            confirmed = mem.last_confirmed_at or mem.created_at
            action = review_action(
                observed, confidence, self.evidence.hide_below, confirmed, now, stale_after
            )
            if action is ReviewAction.HOLD:
                continue
            staleness = max((now - confirmed).total_seconds() / 86_400, 1.0)
            items.append(
                {
                    "id": mid,
                    "action": action.value,
                    "confidence": round(confidence, 2),
                    "text": mem.text,
                    "staleness_days": round(staleness, 1),
                }
            )
            if action in (ReviewAction.ASK, ReviewAction.STALE):
                boost = 10.0 if action is ReviewAction.ASK else 1.0
                candidates.append(
                    Candidate(
                        mid, mem.origin, staleness * boost, DEFAULT_IMPACT.get(mem.kind.value, 1.0)
                    )
                )
        chosen = pick_questions(
            candidates, self.db.last_questions(), now, self.evidence.questions_per_user_per_week
        )
        questions = []
        for cand in chosen:
            mem = memories[cand.memory_id]
            questions.append(
                {
                    "id": mem.id,
                    "user": cand.user,
                    "question": f"Is this still right: \u201c{mem.text}\u201d "
                    f"(noted {mem.created_at.date().isoformat()})?",
                }
            )
            if record_questions:
                self.db.record_question(new_id("q"), mem.id, cand.user, now)
        return {"items": items, "questions": questions}

    def stats(self) -> dict[str, Any]:
        """Wrong-fact and missed-fact signals, kept apart (seed 002)."""
        counts = self.db.event_counts()
        written = counts.get("remember", 0)
        corrections = counts.get("supersede", 0)
        return {
            "memories_written": written,
            "wrong_fact_signals": {
                "corrections": corrections,
                "retractions": counts.get("retract", 0),
                "refutations_by_code": counts.get("verify:REFUTED", 0),
            },
            "missed_fact_signals": {
                "restatements": counts.get("observe:restatement", 0),
            },
            "correction_rate": round(corrections / written, 4) if written else 0.0,
            "retracted_claims_remembered_again": counts.get("remember_retracted", 0),
        }


def _weight(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput("weight must be a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidInput("weight must be between 0 and 1")
    return float(value)
