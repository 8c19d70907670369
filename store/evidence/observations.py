"""What an observation about a memory is, and what it may do (seed 001).

Five kinds of contradicting input are three different things: a statement about the
attribute (an explicit correction, acted on at once), evidence bearing on it (behaviour,
a third-party report: they move decayed counters by their weight) and events that are
not about it at all (an explained exception becomes an episode; a proxy action is
ignored). Facts with a system of record follow the record on one observation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from store.errors import InvalidInput

__all__ = [
    "DEFAULT_SOURCE_WEIGHTS",
    "RECORD_SOURCES",
    "Effect",
    "ObservationKind",
    "Routing",
    "check_claimed_source",
    "route",
]


class ObservationKind(StrEnum):
    CORRECTION = "correction"
    BEHAVIOUR = "behaviour"
    EXCEPTION = "exception"
    PROXY = "proxy"
    REPORT = "report"
    RESTATEMENT = "restatement"


class Effect(StrEnum):
    COUNTERS = "counters"  # move support or contradiction by the weight
    SUPERSEDE = "supersede"  # an explicit correction: the old memory is superseded now
    EPISODE = "episode"  # an explained exception: stored as an expiring episode
    IGNORE = "ignore"  # a proxy action: not evidence about this subject
    RECORD = "record"  # a system of record spoke: follow it on one observation


# Seed 001's trust ordering: an explicit statement 1.0, an inferred one 0.5, a third
# party 0.2. Configurable through ANCHORMEM_WEIGHT_EXPLICIT / _INFERRED / _THIRD_PARTY.
DEFAULT_SOURCE_WEIGHTS: Mapping[str, float] = {
    "explicit": 1.0,
    "inferred": 0.5,
    "third_party": 0.2,
}
RECORD_SOURCES = frozenset({"code", "ci"})


def check_claimed_source(source: str, trusted: frozenset[str]) -> None:
    """Refuse a caller speaking as a system of record (``code``, ``ci``) it was not
    trusted with: one such observation would count as the record itself (8.0, assert),
    and a remembered note would read as stated by the code. Only anchormem's own check
    of the code, or a caller the operator trusts (``ANCHORMEM_TRUSTED_SOURCES``), may."""
    if source in RECORD_SOURCES and source not in trusted:
        raise InvalidInput(
            f"source {source!r} is a system of record: only anchormem's own check of the code,"
            f" or a caller trusted with ANCHORMEM_TRUSTED_SOURCES={source}, may speak for it;"
            " use source 'agent', 'user' or 'doc'"
        )


@dataclass(frozen=True)
class Routing:
    effect: Effect
    weight: float


def route(
    kind: ObservationKind,
    agrees: bool,
    source: str,
    weights: Mapping[str, float] = DEFAULT_SOURCE_WEIGHTS,
    weight: float | None = None,
) -> Routing:
    """Decide what an observation does. ``weight`` overrides the default for the kind."""
    if weight is not None and not 0.0 <= weight <= 1.0:
        raise InvalidInput("weight must be between 0 and 1")
    if source in RECORD_SOURCES:
        return Routing(Effect.RECORD, 1.0)
    if kind is ObservationKind.PROXY:
        return Routing(Effect.IGNORE, 0.0)
    if kind is ObservationKind.EXCEPTION:
        return Routing(Effect.EPISODE, 0.0)
    if kind is ObservationKind.CORRECTION:
        if agrees:
            raise InvalidInput("a correction contradicts a memory; use --contradicts")
        return Routing(Effect.SUPERSEDE, weights["explicit"])
    if kind is ObservationKind.REPORT:
        default = weights["third_party"]
    elif kind is ObservationKind.RESTATEMENT:
        default = weights["explicit"] if source in ("user", "doc") else weights["inferred"]
    else:  # behaviour is inferred from an event, whoever reports it
        default = weights["inferred"]
    return Routing(Effect.COUNTERS, default if weight is None else weight)
