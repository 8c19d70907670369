"""Confidence on one 0-10 scale: decayed evidence, then gates that must be earned.

Support and contradiction are decayed weights (seed 001): each observation enters at
full weight and halves every half-life of its memory's kind. The raw score is the
Beta(1, 1) posterior mean times ten, so a memory with no evidence sits at 5.0. Gates cap
how far evidence alone can raise it (seed 000): above 7.0 needs a second, independent
origin; 8.0 and above needs three origins or verification by code. Gates only cap rises,
so one credible contradiction lowers confidence at once while one confirmation cannot
raise it past 7.0 — lowering is easier than raising (adr/0005).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

__all__ = [
    "DEFAULT_HALF_LIVES",
    "Band",
    "Evidence",
    "band",
    "decay_factor",
    "gated_confidence",
    "memory_confidence",
    "observe",
    "raw_confidence",
]

PRIOR = 1.0
NEUTRAL = 5.0
ONE_ORIGIN_CAP = 7.0
TWO_ORIGIN_CAP = 7.99
CODE_VERIFIED_FLOOR = 8.0

# Days for an observation to lose half its weight; None: never decays.
DEFAULT_HALF_LIVES: dict[str, float | None] = {
    "convention": 180.0,
    "preference": 180.0,
    "decision": 180.0,
    "fact": 90.0,
    "context": 30.0,
    "incident": 30.0,
    "episode": 30.0,
    "identity": None,
}


class Band(StrEnum):
    """What the agent is told: assert it, hedge it with provenance, or keep it back."""

    ASSERT = "assert"
    HEDGE = "hedge"
    HIDDEN = "hidden"


@dataclass(frozen=True)
class Evidence:
    """Decayed support and contradiction as of ``at``."""

    support: float
    contradiction: float
    at: datetime


def decay_factor(age_days: float, half_life_days: float | None) -> float:
    """2 ** (-age / half_life); 1.0 for no decay or no age."""
    if half_life_days is None or age_days <= 0:
        return 1.0
    return math.exp(-math.log(2) * age_days / half_life_days)


def decayed(evidence: Evidence, now: datetime, half_life_days: float | None) -> Evidence:
    age = (now - evidence.at).total_seconds() / 86_400
    factor = decay_factor(age, half_life_days)
    return Evidence(evidence.support * factor, evidence.contradiction * factor, now)


def observe(
    evidence: Evidence, agrees: bool, weight: float, now: datetime, half_life_days: float | None
) -> Evidence:
    """Decay both counters to ``now``, then add the observation at its full weight."""
    current = decayed(evidence, now, half_life_days)
    if agrees:
        return Evidence(current.support + weight, current.contradiction, now)
    return Evidence(current.support, current.contradiction + weight, now)


def raw_confidence(support: float, contradiction: float) -> float:
    """(s + 1) / (s + c + 2) on the 0-10 scale; below 5.0 exactly when c > s."""
    return 10.0 * (support + PRIOR) / (support + contradiction + 2 * PRIOR)


def gated_confidence(
    support: float, contradiction: float, origins: int, code_verified: bool
) -> float:
    """Raw confidence capped by the evidence gates. For an anchored fact the code is the
    system of record: verified by it, the memory stands at 8.0 or above whatever people's
    observations say (they are recorded, and a trend of them asks the user)."""
    raw = raw_confidence(support, contradiction)
    if code_verified:
        return max(raw, CODE_VERIFIED_FLOOR)
    if origins < 2:
        return min(raw, ONE_ORIGIN_CAP)
    if origins < 3:
        return min(raw, TWO_ORIGIN_CAP)
    return raw


def band(confidence: float, hide_below: float, strict: bool = False) -> Band:
    """8.0 and above: assert; from the hide threshold (or 7.0 when strict): hedge."""
    if confidence >= CODE_VERIFIED_FLOOR:
        return Band.ASSERT
    floor = max(hide_below, ONE_ORIGIN_CAP) if strict else hide_below
    return Band.HEDGE if confidence >= floor else Band.HIDDEN


def memory_confidence(
    status_refuted: bool,
    verified: bool,
    support: float,
    contradiction: float,
    evidence_at: datetime,
    origins: int,
    now: datetime,
    half_life_days: float | None,
) -> float:
    """A memory's confidence now: 0 when refuted; else its evidence decayed to ``now``,
    gated (a memory verified by the code, or confirmed by its system of record, stands
    at 8.0 or above)."""
    if status_refuted:
        return 0.0
    ev = decayed(Evidence(support, contradiction, evidence_at), now, half_life_days)
    return gated_confidence(ev.support, ev.contradiction, origins, verified)
