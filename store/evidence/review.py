"""The review queue as plain functions: which memories need a person, and which one
question is worth asking this week (seed 001)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

__all__ = ["DEFAULT_IMPACT", "Candidate", "ReviewAction", "pick_questions", "review_action"]

ASK_WINDOW = timedelta(days=30)
ASK_CONTRADICTIONS = 3

# How much a wrong memory of each kind costs; set per kind, not inferred.
DEFAULT_IMPACT: dict[str, float] = {
    "identity": 3.0,
    "decision": 3.0,
    "convention": 2.0,
    "fact": 2.0,
    "incident": 1.5,
    "preference": 1.0,
    "context": 1.0,
    "episode": 0.5,
}


class ReviewAction(StrEnum):
    ASK = "ASK"  # a trend of contradictions: ask the user whether it still holds
    DEMOTE = "DEMOTE"  # below the hide threshold: no longer served
    STALE = "STALE"  # not verified or confirmed for too long
    HOLD = "HOLD"


@dataclass(frozen=True)
class Observed:
    at: datetime
    agrees: bool
    weight: float


def review_action(
    observations: Sequence[Observed],
    confidence: float,
    hide_below: float,
    last_confirmed: datetime,
    now: datetime,
    stale_after: timedelta,
) -> ReviewAction:
    """ASK when 3+ contradictions arrived within 30 days with no support among them (a
    trend, not a counter: support in between means the schema, not the fact, is in
    question); DEMOTE below the hide threshold; STALE when unconfirmed too long."""
    window = [o for o in observations if now - o.at <= ASK_WINDOW and o.weight > 0]
    against = [o for o in window if not o.agrees]
    support = [o for o in window if o.agrees]
    if len(against) >= ASK_CONTRADICTIONS and not support:
        return ReviewAction.ASK
    if confidence < hide_below:
        return ReviewAction.DEMOTE
    if now - last_confirmed > stale_after:
        return ReviewAction.STALE
    return ReviewAction.HOLD


@dataclass(frozen=True)
class Candidate:
    memory_id: str
    user: str
    staleness_days: float
    impact: float


def pick_questions(
    candidates: Sequence[Candidate],
    last_asked: dict[str, datetime],
    now: datetime,
    per_user_per_week: int = 1,
) -> list[Candidate]:
    """The questions to ask now: per user, the highest staleness x impact first, within a
    budget of ``per_user_per_week`` (a question buys the chance it changes something
    times what the change is worth)."""
    chosen: list[Candidate] = []
    taken: dict[str, int] = {}
    ranked = sorted(candidates, key=lambda c: (-(c.staleness_days * c.impact), c.memory_id))
    for cand in ranked:
        asked = last_asked.get(cand.user)
        if asked is not None and now - asked < timedelta(days=7):
            continue
        if taken.get(cand.user, 0) >= per_user_per_week:
            continue
        taken[cand.user] = taken.get(cand.user, 0) + 1
        chosen.append(cand)
    return chosen
