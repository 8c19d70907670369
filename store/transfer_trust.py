"""What an imported memory may claim about how far it is to be trusted (adr/0014,
addendum): the gate ``remember`` and ``observe`` apply, applied to a file.

An export file is a claim, not a record: a teammate's committed export, or a line written
by hand, can say ``source: code``, fifty confirmations and five origins, and would be
asserted, and win its conflicts, over the person's own notes. So of a memory it adds, an
import keeps what the file says happened (its observations, each one checked as
``observe`` checks it) and recomputes from them what follows (counters, origins,
confidence), never taking them at face value:

- ``code`` and ``ci`` speak for a system of record; only a source this process trusts
  (``ANCHORMEM_TRUSTED_SOURCES``) keeps them, on the memory and on each observation; any
  other becomes ``agent``; an observation that claims one is kept as an agent's, with no
  weight (``observe`` would have refused it);
- support, contradiction, independent origins, the observation count, the confidence and
  the ``record_confirmed`` flag are replayed from the observations kept, oldest first, as
  ``observe`` computed them (``store.evidence.observing``); a derived memory's origins
  are at most its parents' (a summary never corroborates what it summarises);
- VERIFIED names the code's verdict on anchors: a memory without any is ACTIVE;
- a time later than the import (created, observed) is the import's time, so a file
  cannot make a memory newer than any written after it;
- an observation no caller could have made (a correction that confirms) is dropped.

What was lowered is said, one phrase each, in the import's report. A file exported by a
store of the same trust gives the same values back: nothing is said for it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from store.errors import InvalidInput
from store.evidence.observations import RECORD_SOURCES, Effect, route
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.model import Memory, Source, Status
from store.plan import ImportedObservation
from store.reading import RECORD_CONFIRMED, confidence

__all__ = ["Gated", "gate"]

DOWNGRADED_SOURCE = Source.AGENT  # an untrusted claim of the record: an agent's claim


@dataclass(frozen=True)
class Gated:
    """A memory as this store will hold it, its observations as kept, and what the gate
    lowered or took away (empty when the file's values stand)."""

    memory: Memory
    observations: tuple[ImportedObservation, ...]
    downgraded: tuple[str, ...] = ()


def gate(
    memory: Memory,
    observations: Sequence[ImportedObservation],
    parent_origins: frozenset[str] | None,
    settings: EvidenceSettings,
    now: datetime,
) -> Gated:
    """``memory`` and its ``observations`` as a file gave them, through the trust gate.
    ``parent_origins``: for a derived memory, its parents' origins (None when none of them
    is known here)."""
    said: list[str] = []
    trusted = settings.trusted_sources
    source = _trusted_source(memory.source, trusted)
    if source is not memory.source:
        said.append(
            f"source {memory.source.value} -> {source.value}: not a trusted source"
            " (ANCHORMEM_TRUSTED_SOURCES)"
        )
    created = min(memory.created_at, now)
    if created != memory.created_at:
        said.append("created in the future: dated at the import")
    status = memory.status
    if status is Status.VERIFIED and not memory.anchors:
        status = Status.ACTIVE
        said.append("VERIFIED without an anchor -> ACTIVE")
    base = replace(
        memory,
        source=source,
        created_at=created,
        status=status,
        support=0.0,
        contradiction=0.0,
        observations=1,
        origins=_first_origins(memory, parent_origins),
        evidence_at=created,
        last_confirmed_at=None,
        flags=tuple(f for f in memory.flags if f != RECORD_CONFIRMED),
    )
    current = base
    kept: list[ImportedObservation] = []
    lowered = dropped = 0
    for obs in sorted(observations, key=lambda o: o.at):  # stable: the file's order on ties
        step = _replayed(current, obs, trusted, settings, now)
        if step is None:
            dropped += 1
            continue
        current, as_kept = step
        lowered += as_kept.source is not obs.source
        kept.append(as_kept)
    current = replace(current, confidence=confidence(current, now, settings))
    if lowered:
        said.append(
            f"{lowered} observation(s) claiming an untrusted system of record:"
            " kept as an agent's, with no weight"
        )
    if dropped:
        said.append(f"{dropped} observation(s) no caller could make were dropped")
    said += _recomputed(memory, current)
    return Gated(current, tuple(kept), tuple(said))


def _trusted_source(source: Source, trusted: frozenset[str]) -> Source:
    if source.value in RECORD_SOURCES and source.value not in trusted:
        return DOWNGRADED_SOURCE
    return source


def _first_origins(memory: Memory, parent_origins: frozenset[str] | None) -> tuple[str, ...]:
    """The origins a memory is written with (``Remembering._origins``): its own, or for a
    derived one its parents', of which the file can name no more than they have."""
    if not memory.derived_from or parent_origins is None:
        return (memory.origin,)
    inherited = sorted(set(memory.origins) & parent_origins)
    return tuple(inherited) or (memory.origin,)


def _replayed(
    mem: Memory,
    obs: ImportedObservation,
    trusted: frozenset[str],
    settings: EvidenceSettings,
    now: datetime,
) -> tuple[Memory, ImportedObservation] | None:
    """``mem`` after ``obs``, as ``observe`` would have recorded it, and the observation as
    kept; None for one no caller could have made."""
    source = _trusted_source(obs.source, trusted)
    at = min(obs.at, now)
    # The file's weight stands as observe lets a caller give one (0 to 1). An observation
    # claiming a record this process does not trust is one observe would have refused:
    # kept, as an agent's, with no weight.
    weight: float | None = obs.weight
    if source is not obs.source:
        weight = 0.0
    elif not (math.isfinite(obs.weight) and 0 <= obs.weight <= 1):
        weight = None
    try:
        routing = route(obs.kind, obs.agrees, source.value, settings.source_weights, weight)
    except InvalidInput:
        return None  # a correction that confirms
    record_confirms = routing.effect is Effect.RECORD and obs.agrees
    if routing.effect is Effect.RECORD:
        weight = 1.0  # observe's record rule: one observation of the record counts whole
    record = observation(
        mem,
        obs.agrees,
        obs.kind,
        source,
        obs.origin,
        obs.note,
        weight,
        at,
        settings,
        confirmed=record_confirms,
        add_flag=RECORD_CONFIRMED if record_confirms else None,
    )
    kept = replace(obs, at=at, source=source, weight=record.weight)
    return observed(mem, record), kept


def _recomputed(given: Memory, now_held: Memory) -> list[str]:
    """What the file claimed above what its observations give, one phrase each."""
    said = []
    counters = (
        ("support", given.support, now_held.support),
        ("contradiction", given.contradiction, now_held.contradiction),
    )
    changed = [f"{name} {was:g} -> {now:g}" for name, was, now in counters if not _same(was, now)]
    if changed:
        said.append("counters recomputed from its observations: " + ", ".join(changed))
    if set(given.origins) != set(now_held.origins):
        said.append(f"independent origins {len(given.origins)} -> {len(now_held.origins)}")
    if given.observations != now_held.observations:
        said.append(f"observations counted {given.observations} -> {now_held.observations}")
    if RECORD_CONFIRMED in given.flags and RECORD_CONFIRMED not in now_held.flags:
        said.append("record_confirmed not earned by a trusted observation: removed")
    return said


def _same(a: float, b: float) -> bool:
    # Observations at one instant may be added in another order than they were: the
    # last bits of a sum may differ, never a value a person would read.
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
