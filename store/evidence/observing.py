"""An observation about a memory, as a plain function: the counters after it, its
confidence, and whether it confirms (seed 001). The caller puts the record in its plan."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from store.evidence.confidence import Evidence
from store.evidence.confidence import observe as add_observation
from store.evidence.observations import Effect, ObservationKind, route
from store.evidence.settings import EvidenceSettings
from store.ids import new_id
from store.model import Memory, Source
from store.plan import ObservationRecord
from store.reading import confidence

__all__ = ["observation", "observed"]


def observation(
    mem: Memory,
    agrees: bool,
    kind: ObservationKind,
    source: Source,
    origin: str,
    note: str | None,
    weight: float | None,
    now: datetime,
    settings: EvidenceSettings,
    confirmed: bool = False,
    add_flag: str | None = None,
) -> ObservationRecord:
    """The record of one observation: its weight routed by kind and source, the decayed
    counters after it, and the independent origins (a derived memory gains none)."""
    routing = route(kind, agrees, source.value, settings.source_weights, weight)
    w = routing.weight if routing.effect in (Effect.COUNTERS, Effect.RECORD) else 0.0
    ev = add_observation(
        Evidence(mem.support, mem.contradiction, mem.evidence_at or mem.created_at),
        agrees,
        w,
        now,
        settings.half_lives.get(mem.kind.value),
    )
    origins = set(mem.origins)
    if agrees and w > 0 and not mem.derived_from:
        origins.add(origin)
    flags = tuple(sorted({*mem.flags, add_flag})) if add_flag else mem.flags
    after = replace(
        mem,
        support=ev.support,
        contradiction=ev.contradiction,
        evidence_at=now,
        origins=tuple(sorted(origins)),
        flags=flags,
    )
    return ObservationRecord(
        id=new_id("o"),
        memory_id=mem.id,
        at=now,
        agrees=agrees,
        kind=kind,
        source=source,
        origin=origin,
        weight=w,
        note=note,
        support=ev.support,
        contradiction=ev.contradiction,
        origins=after.origins,
        confidence=confidence(after, now, settings),
        confirmed=(agrees and w > 0) or confirmed,
        add_flag=add_flag,
    )


def observed(mem: Memory, record: ObservationRecord) -> Memory:
    """The memory after ``record`` (what the store will hold once it is written)."""
    return replace(
        mem,
        observations=mem.observations + 1,
        support=record.support,
        contradiction=record.contradiction,
        evidence_at=record.at,
        origins=record.origins,
        confidence=record.confidence,
        last_confirmed_at=record.at if record.confirmed else mem.last_confirmed_at,
        flags=tuple(sorted({*mem.flags, record.add_flag})) if record.add_flag else mem.flags,
    )
