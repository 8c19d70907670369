"""The hand-written pairs of contradictions as people write them, in a reduced run."""

from __future__ import annotations

from experiments.conflict_pairs import load, run

CONFLICT_TYPES = {
    "duration",
    "clock",
    "count",
    "retention",
    "owner",
    "technology",
    "version",
    "port",
    "limit",
    "boolean",
}
LOOKALIKE_KINDS = {"qualifiers", "multivalued", "equivalent", "compatible"}


def test_the_set_has_every_conflict_type_and_every_look_alike_kind():
    pairs = load()
    assert len(pairs) >= 150 and len({p.id for p in pairs}) == len(pairs)
    assert {p.type for p in pairs if p.category == "conflict"} == CONFLICT_TYPES
    assert {p.type for p in pairs if p.category == "lookalike"} == LOOKALIKE_KINDS
    assert all(p.winner in (None, "a", "b") for p in pairs)


def test_a_few_pairs_through_remember_and_consolidate():
    pairs = {p.id: p for p in load()}
    chosen = [pairs[i] for i in (1, 5, 23, 40, 89, 93, 125, 160)]
    result = run(chosen)
    assert result["conflicts_found"] == 1.0 and result["resolved_wrongly"] == 0
    assert result["lookalikes_changed"] == 0 and result["lookalikes_surfaced"] == 0
    assert result["ambiguous_surfaced"] == 1 and result["ambiguous_changed"] == 0
