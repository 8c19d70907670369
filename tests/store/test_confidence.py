"""The evidence policy as plain functions, including seed 001's worked numbers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from store.evidence.confidence import (
    Band,
    Evidence,
    band,
    decay_factor,
    decayed,
    gated_confidence,
    observe,
    raw_confidence,
)
from store.evidence.observations import Effect, ObservationKind, route
from store.evidence.review import Candidate, Observed, ReviewAction, pick_questions, review_action

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def test_no_evidence_sits_at_five():
    assert raw_confidence(0.0, 0.0) == 5.0


def test_decay_halves_at_one_half_life_and_quarters_at_two():
    assert decay_factor(180, 180) == pytest.approx(0.5)
    assert decay_factor(360, 180) == pytest.approx(0.25)
    assert decay_factor(1000, None) == 1.0


def _seed_history() -> Evidence:
    # Seed 001: 47 observations over eight months, mostly inferred (0.5), some explicit
    # (1.0), one every ~5 days, at a 180-day half-life.
    start = NOW - timedelta(days=240)
    ev = Evidence(0.0, 0.0, start)
    for i in range(47):
        at = start + timedelta(days=240 * i / 46)
        weight = 1.0 if i % 5 in (0, 2) else 0.5
        ev = observe(ev, True, weight, at, 180.0)
    return decayed(ev, NOW, 180.0)


def test_seed_001_forty_seven_observations_decay_to_about_21_6_support():
    ev = _seed_history()
    assert ev.support == pytest.approx(21.6, abs=0.6)
    assert raw_confidence(21.6, 0.0) / 10 == pytest.approx(0.958, abs=0.0005)


def test_seed_001_one_contradicting_inferred_observation_takes_it_to_about_0_938():
    assert raw_confidence(21.6, 0.5) / 10 == pytest.approx(0.938, abs=0.0005)
    ev = observe(_seed_history(), False, 0.5, NOW, 180.0)
    before = raw_confidence(_seed_history().support, 0.0)
    after = raw_confidence(ev.support, ev.contradiction)
    assert after < before and after / 10 == pytest.approx(0.938, abs=0.01)


@pytest.mark.parametrize("support", [0.0, 1.0, 21.6, 100.0])
def test_confidence_crosses_one_half_exactly_when_contradiction_exceeds_support(support: float):
    assert raw_confidence(support, support) == pytest.approx(5.0)
    assert raw_confidence(support, support + 1e-6) < 5.0
    assert raw_confidence(support, max(support - 1e-6, 0.0)) >= 5.0


def test_observe_decays_old_evidence_before_adding_the_new_at_full_weight():
    ev = Evidence(2.0, 0.0, NOW - timedelta(days=180))
    after = observe(ev, True, 1.0, NOW, 180.0)
    assert after.support == pytest.approx(2.0)  # 2 * 0.5 + 1


def test_one_origin_is_capped_at_seven_two_below_eight_and_code_verification_lifts_to_eight():
    assert gated_confidence(50.0, 0.0, origins=1, code_verified=False) == 7.0
    assert 7.0 < gated_confidence(50.0, 0.0, origins=2, code_verified=False) < 8.0
    assert gated_confidence(50.0, 0.0, origins=3, code_verified=False) > 9.0
    assert gated_confidence(0.0, 0.0, origins=1, code_verified=True) == 8.0


def test_gates_cap_rises_but_never_soften_a_contradiction():
    assert gated_confidence(0.0, 1.0, origins=1, code_verified=False) == pytest.approx(10 / 3)


@pytest.mark.parametrize(
    ("confidence", "strict", "expected"),
    [
        (9.0, False, Band.ASSERT),
        (8.0, False, Band.ASSERT),
        (5.0, False, Band.HEDGE),
        (3.5, False, Band.HEDGE),
        (3.4, False, Band.HIDDEN),
        (6.9, True, Band.HIDDEN),
        (7.0, True, Band.HEDGE),
    ],
)
def test_read_bands(confidence: float, strict: bool, expected: Band):
    assert band(confidence, 3.5, strict) is expected


@pytest.mark.parametrize(
    ("kind", "agrees", "source", "effect", "weight"),
    [
        (ObservationKind.CORRECTION, False, "user", Effect.SUPERSEDE, 1.0),
        (ObservationKind.BEHAVIOUR, False, "user", Effect.COUNTERS, 0.5),
        (ObservationKind.EXCEPTION, False, "user", Effect.EPISODE, 0.0),
        (ObservationKind.PROXY, False, "user", Effect.IGNORE, 0.0),
        (ObservationKind.REPORT, False, "agent", Effect.COUNTERS, 0.2),
        (ObservationKind.RESTATEMENT, True, "user", Effect.COUNTERS, 1.0),
        (ObservationKind.RESTATEMENT, True, "agent", Effect.COUNTERS, 0.5),
        (ObservationKind.BEHAVIOUR, False, "ci", Effect.RECORD, 1.0),
    ],
)
def test_each_kind_of_observation_is_routed_to_its_effect(
    kind: ObservationKind, agrees: bool, source: str, effect: Effect, weight: float
):
    routing = route(kind, agrees, source)
    assert (routing.effect, routing.weight) == (effect, weight)


def test_three_contradictions_in_thirty_days_with_no_support_between_ask():
    obs = [Observed(NOW - timedelta(days=d), False, 0.5) for d in (1, 5, 20)]
    assert review_action(obs, 6.0, 3.5, NOW, NOW, timedelta(days=90)) is ReviewAction.ASK
    with_support = [*obs, Observed(NOW - timedelta(days=3), True, 0.5)]
    assert review_action(with_support, 6.0, 3.5, NOW, NOW, timedelta(days=90)) is ReviewAction.HOLD
    old = [Observed(NOW - timedelta(days=d), False, 0.5) for d in (1, 5, 40)]
    assert review_action(old, 6.0, 3.5, NOW, NOW, timedelta(days=90)) is ReviewAction.HOLD


def test_demote_below_the_hide_threshold_and_stale_when_unconfirmed_too_long():
    assert review_action([], 3.0, 3.5, NOW, NOW, timedelta(days=90)) is ReviewAction.DEMOTE
    stale = NOW - timedelta(days=91)
    assert review_action([], 6.0, 3.5, stale, NOW, timedelta(days=90)) is ReviewAction.STALE


def test_questions_are_budgeted_per_user_per_week_and_ranked_by_staleness_times_impact():
    cands = [
        Candidate("m1", "alice", 10, 1.0),
        Candidate("m2", "alice", 5, 3.0),
        Candidate("m3", "bob", 1, 1.0),
    ]
    chosen = pick_questions(cands, {}, NOW)
    assert [c.memory_id for c in chosen] == ["m2", "m3"]
    asked = pick_questions(cands, {"alice": NOW - timedelta(days=2)}, NOW)
    assert [c.memory_id for c in asked] == ["m3"]
