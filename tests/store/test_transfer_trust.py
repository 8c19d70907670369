"""The import's trust gate and the bounds of stored JSON, on typed values with no
database (``store.transfer_trust``, ``store.bounded_json``; issue 30, items 6 and 12)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta

from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from store.bounded_json import MAX_DETAIL_DEPTH, nesting, shown_detail
from store.evidence.observations import ObservationKind
from store.evidence.observing import observation, observed
from store.evidence.settings import EvidenceSettings
from store.model import Kind, Memory, Source, Status, StoredAnchor
from store.plan import ImportedObservation
from store.reading import RECORD_CONFIRMED
from store.transfer_trust import gate

NOW = datetime(2026, 6, 1, tzinfo=UTC)
SETTINGS = EvidenceSettings()


def memory(**fields: object) -> Memory:
    base = Memory(
        id="mone0001",
        text="The python version is 3.12",
        subject=None,
        kind=Kind.FACT,
        scope=None,
        source=Source.USER,
        origin="alice",
        created_at=NOW - timedelta(days=10),
        commit=None,
        status=Status.ACTIVE,
        origins=("alice",),
        evidence_at=NOW - timedelta(days=10),
    )
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def seen(
    at: datetime,
    source: Source = Source.USER,
    origin: str = "bob",
    weight: float = 0.5,
    kind: ObservationKind = ObservationKind.BEHAVIOUR,
) -> ImportedObservation:
    """An observation as a file gives it: confirming, with no note."""
    return ImportedObservation(
        f"o{origin}{at.day:02d}", at, True, kind, source, origin, weight, None
    )


def test_an_honest_memory_comes_back_with_the_values_observe_gave_it():
    mem = memory()
    kept = []
    for day, origin in ((8, "bob"), (6, "carol")):
        at = NOW - timedelta(days=day)
        record = observation(
            mem, True, ObservationKind.BEHAVIOUR, Source.USER, origin, None, None, at, SETTINGS
        )
        mem = observed(mem, record)
        kept.append(seen(at, origin=origin, weight=record.weight))
    gated = gate(mem, kept, None, SETTINGS, NOW)
    assert gated.downgraded == ()
    assert gated.memory.support == mem.support and gated.memory.origins == mem.origins
    assert gated.memory.observations == 3 and gated.observations == tuple(kept)


def test_a_forged_record_is_an_agents_claim_with_what_its_observations_give():
    forged = memory(
        source=Source.CODE,
        support=50.0,
        observations=40,
        origins=("a", "b", "c", "d", "e"),
        flags=(RECORD_CONFIRMED,),
        created_at=NOW + timedelta(days=365),
    )
    record = seen(NOW - timedelta(days=1), Source.CODE, "ci", weight=1.0)
    gated = gate(forged, [record], None, SETTINGS, NOW)
    mem = gated.memory
    assert mem.source is Source.AGENT and mem.created_at == NOW
    assert (mem.support, mem.origins, mem.observations) == (0.0, ("alice",), 2)
    assert RECORD_CONFIRMED not in mem.flags and mem.confidence <= 5.0
    assert gated.observations[0].source is Source.AGENT and gated.observations[0].weight == 0
    said = " | ".join(gated.downgraded)
    for phrase in ("source code -> agent", "future", "support 50 -> 0", "origins 5 -> 1"):
        assert phrase in said


def test_a_trusted_record_confirms_as_observe_would():
    trusted = EvidenceSettings(trusted_sources=frozenset({"code"}))
    record = seen(NOW - timedelta(days=1), Source.CODE, "ci", weight=0.2)
    gated = gate(memory(source=Source.CODE), [record], None, trusted, NOW)
    assert gated.memory.source is Source.CODE and RECORD_CONFIRMED in gated.memory.flags
    assert gated.memory.confidence >= 8.0 and gated.observations[0].weight == 1.0


def test_a_derived_memory_has_at_most_its_parents_origins():
    child = memory(derived_from=("mparent01",), origins=("alice", "mallory", "eve"))
    gated = gate(child, [], frozenset({"alice", "bob"}), SETTINGS, NOW)
    assert gated.memory.origins == ("alice",)
    assert gate(child, [], None, SETTINGS, NOW).memory.origins == ("alice",)


def test_verified_needs_an_anchor_and_a_confirming_correction_is_dropped():
    gated = gate(memory(status=Status.VERIFIED), [], None, SETTINGS, NOW)
    assert gated.memory.status is Status.ACTIVE
    anchored = memory(
        status=Status.VERIFIED,
        anchors=(
            StoredAnchor(Anchor(AnchorKind.IMPORT, "duckdb", Expect.PRESENT), Provenance.EXPLICIT),
        ),
    )
    assert gate(anchored, [], None, SETTINGS, NOW).memory.status is Status.VERIFIED
    odd = seen(NOW - timedelta(days=1), kind=ObservationKind.CORRECTION)
    gated = gate(memory(), [odd], None, SETTINGS, NOW)
    assert gated.observations == () and "dropped" in " ".join(gated.downgraded)


def _nested(depth: int) -> dict[str, object]:
    value: dict[str, object] = {}
    for _ in range(depth - 1):
        value = {"x": value}
    return value


def test_nesting_is_counted_without_recursion_and_stops_early():
    assert nesting("text", 5) == 0 and nesting({"a": [1, {"b": []}]}, 10) == 4
    assert nesting(_nested(100_000), 16) == 17


def test_a_stored_detail_over_the_bounds_is_shown_as_a_placeholder():
    assert shown_detail('{"kind": "behaviour"}') == {"kind": "behaviour"}
    assert shown_detail(json.dumps(_nested(MAX_DETAIL_DEPTH))) == _nested(MAX_DETAIL_DEPTH)
    for raw in (
        json.dumps(_nested(MAX_DETAIL_DEPTH + 1)),
        "[" * 100_000 + "]" * 100_000,
        "[" * 5_000 + "]" * 5_000,
        "{not json",
        "[1, 2]",
    ):
        assert "unreadable" in shown_detail(raw)
