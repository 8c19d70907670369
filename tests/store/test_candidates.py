"""Candidate pairs on remember: only the pairs holding a new claim are made, and they are
exactly the pairs (in the same order) that pairing everything and keeping those would give."""

from __future__ import annotations

import itertools
import random

import pytest

from experiments.conflict_pairs import load
from store.contradictions.candidates import _within, candidate_pairs
from store.contradictions.resolving import claims_of
from tests.store.test_claims_as_written import memory


@pytest.fixture(scope="module")
def claims():  # the hand-written pairs' notes: many share slots, anchors and rare words
    texts = sorted({t for p in load() for t in (p.a, p.b)})
    memories = [memory(f"m{i:04d}", t, len(texts) - i) for i, t in enumerate(texts)]
    return list(claims_of(memories).values())


@pytest.mark.parametrize("seed", range(12))
def test_pairs_of_new_claims_are_the_full_pairing_filtered_in_order(claims, seed):
    rng = random.Random(seed)
    group = rng.sample(claims, 40)  # a remember's neighbourhood: a few dozen claims
    fresh = rng.sample(group, rng.choice([1, 2, 3, 10, 25]))
    ids = {c.id for c in fresh}
    every = candidate_pairs(group)
    assert every, "a neighbourhood with no candidate pair tests nothing"
    expected = [(a.id, b.id) for a, b in every if a.id in ids or b.id in ids]
    assert [(a.id, b.id) for a, b in candidate_pairs(group, fresh)] == expected


def test_the_whole_corpus_pairs_the_same_with_every_claim_fresh(claims):
    whole = [(a.id, b.id) for a, b in candidate_pairs(claims)]
    assert len(whole) > 100
    assert [(a.id, b.id) for a, b in candidate_pairs(claims, claims)] == whole


@pytest.mark.parametrize("seed", range(20))
def test_pairs_within_a_group_keep_the_order_of_all_combinations(seed):
    rng = random.Random(seed)
    members = list(range(rng.randint(2, 15)))
    fresh = set(rng.sample(members, rng.randint(1, len(members))))
    expected = [p for p in itertools.combinations(members, 2) if fresh & set(p)]
    assert list(_within(members, fresh)) == expected
    assert list(_within(members, None)) == list(itertools.combinations(members, 2))


def test_a_key_held_by_more_than_the_limit_brings_no_holders_into_the_remember_check(
    tmp_path,
):
    """``sharing_keys(..., most)``: memories reached only through a key too common to pair
    on (``MAX_GROUP``) are not read at all; a key within the limit still brings its own."""
    from store.db import Database
    from store.service import MemoryService

    db = Database(tmp_path / "store.duckdb")
    try:
        svc = MemoryService(db, None)
        common = [
            svc.remember(f"Service {i} never talks to redis", anchors=["!dep:redis"]).reading.id
            for i in range(4)
        ]
        rare = svc.remember("The cache never uses memcached", anchors=["!dep:memcached"])
        new = svc.remember(
            "The queue uses redis and memcached", anchors=["dep:redis", "dep:memcached"]
        ).reading.memory
        everyone = set(db.sharing_keys(new, None))
        assert everyone == {*common, rare.reading.id}
        assert set(db.sharing_keys(new, None, most=3)) == {rare.reading.id}
        assert set(db.sharing_keys(new, None, most=4)) == everyone
    finally:
        db.close()
