"""The precision check of contradiction detection, in a reduced run."""

from __future__ import annotations

from experiments.conflict_precision import generate, run


def test_every_planted_conflict_is_found_and_no_other_memory_is_touched():
    result = run(memories=300, planted=15, seed=3)
    assert result["planted_found"] == result["planted_conflicts"] == 15
    assert result["false_conflicts"] == 0
    assert result["collateral_memories_touched"] == 0
    # candidate selection pairs by shared keys, far fewer than all pairs
    assert 0 < result["pairs_compared"] < 300 * 299 // 2 // 10


def test_the_generator_plants_each_pattern_and_hard_negatives():
    specs, pairs = generate(200, 10, seed=1)
    assert len(specs) == 200 and len(pairs) == 10
    texts = [s.text for s in specs]
    assert any("does not retry" in t for t in texts)
    assert any(t.startswith("We do not deploy") for t in texts)  # negation without a twin
    assert any(s.anchors and s.anchors[0].startswith("!import:") for s in specs)
