"""The faster contradiction check decides as the check before it did (adr/0019). Claims
kept across calls are the claims made afresh. The pairs are those of grouping every key
of every claim, in the same order. Settling makes the same records and the same plan,
pair for pair. The reference is the check as it was (``tests/store/conflicts_before.py``);
the memories are drawn from the hand-written pairs' notes, with every status, anchor,
evidence and origin a decision reads. No database."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anchors.spec import Provenance, parse_anchor
from experiments.conflict_pairs import load
from store.contradictions.candidates import candidate_pairs
from store.contradictions.resolving import (
    _KEPT,
    KeptClaims,
    claim_of,
    claims_of,
    pairs_with,
    settle,
)
from store.contradictions.rules import ConflictState, Rule, Strategy
from store.evidence.settings import EvidenceSettings
from store.model import Kind, Memory, RefutedBy, Source, Status, StoredAnchor
from store.plan import ConflictRecord, Plan
from store.reading import RECORD_CONFIRMED
from tests.store import conflicts_before as before
from tests.store.test_claims_as_written import NOW

PAIRS = load()
# Notes as the seeded store has them: many holders of one anchor, one template.
SEEDED = (
    ("We depend on fastapi because the team already knew it", "dep:fastapi"),
    ("We depend on fastapi because it halved the cold start", "dep:fastapi"),
    ("We removed fastapi from shop long ago; keep it that way", "!dep:fastapi"),
    ("We removed redis from tests long ago; see the runbook", "!dep:redis"),
    ("orders uses Redis because it keeps the tests fast", "dep:redis"),
    ("Incident SHOP-1: the orders worker stalled when Kafka was slow; see the runbook", None),
    ("Incident SHOP-2: the orders worker stalled when Kafka was slow; see the runbook", None),
    ("DATABASE_URL configures auth; set it in .env for local runs", "env:DATABASE_URL"),
    ("We no longer read DATABASE_URL in auth", "!env:DATABASE_URL"),
)
STATUSES = (
    (Status.ACTIVE, None),
    (Status.ACTIVE, None),
    (Status.VERIFIED, None),
    (Status.REFUTED, RefutedBy.CODE),
    (Status.REFUTED, RefutedBy.RETRACTION),
    (Status.REFUTED, RefutedBy.CORRECTION),
)
EVIDENCE = (0.0, 0.0, 0.0, 0.5, 1.0, 2.5, 6.0)
SCOPES = (None, None, None, None, None, "staging", "production", "external")


@st.composite
def memory_sets(draw: Any, most_pairs: int = 12) -> list[Memory]:
    """Memories of a few hand-written pairs (both notes of each) and seeded notes, each
    with a status, evidence, origins, scope, anchors and sometimes a given slot."""
    texts: list[tuple[str, str | None]] = []
    for pair in draw(st.lists(st.sampled_from(PAIRS), min_size=1, max_size=most_pairs)):
        texts += [(pair.a, None), (pair.b, None)]
    texts += draw(st.lists(st.sampled_from(SEEDED), max_size=8))
    memories: list[Memory] = []
    for i, (text, anchor) in enumerate(texts):
        mid = f"m{i:03d}"
        status, refuted_by = draw(st.sampled_from(STATUSES))
        origin = draw(st.sampled_from(("agent", "agent", "alice", "bob")))
        created = NOW - timedelta(minutes=draw(st.integers(0, 400)))  # ties: ordered by id
        anchors = [anchor] if anchor else []
        anchors += draw(st.lists(st.sampled_from(("dep:redis", "!dep:redis")), max_size=1))
        given = draw(st.sampled_from((None, None, None, ("request|timeout", "30 seconds"))))
        memories.append(
            Memory(
                id=mid,
                text=text,
                subject=draw(st.sampled_from((None, None, "billing", "the public API"))),
                kind=draw(st.sampled_from(list(Kind))),
                scope=draw(st.sampled_from(SCOPES)),
                source=Source.AGENT,
                origin=origin,
                created_at=created,
                commit=None,
                status=status,
                refuted_by=refuted_by,
                support=draw(st.sampled_from(EVIDENCE)),
                contradiction=draw(st.sampled_from(EVIDENCE)),
                anchors=tuple(_stored(a) for a in dict.fromkeys(anchors)),
                supersedes=draw(st.sampled_from((None, None, None, f"m{max(i - 1, 0):03d}"))),
                flags=draw(st.sampled_from(((), (), (RECORD_CONFIRMED,)))),
                origins=draw(st.sampled_from(((origin,), (origin,), (origin, "carol"), ()))),
                evidence_at=created + timedelta(minutes=draw(st.integers(0, 2)) * 90),
                attribute=given[0] if given else None,
                slot_value=given[1] if given else None,
            )
        )
    for i in draw(st.sets(st.integers(0, len(memories) - 1), max_size=2)):
        # forgotten, as the store's copy leaves it
        memories[i] = dataclasses.replace(memories[i], text="", anchors=(), forgotten_at=NOW)
    return memories


def _stored(anchor: str) -> StoredAnchor:
    return StoredAnchor(parse_anchor(anchor), Provenance.EXPLICIT)


orders = st.dictionaries(
    st.sampled_from(list(Kind)), st.sampled_from(list(Strategy)), max_size=3
).map(lambda order: EvidenceSettings(conflict_order=order))


def _ids(pairs: Sequence[tuple[Any, Any]]) -> list[tuple[str, str]]:
    return [(a.id, b.id) for a, b in pairs]


def _plain(plan: Plan) -> Plan:
    """The plan without what is new on every call (receipt and observation ids)."""
    changes = tuple(
        dataclasses.replace(c, receipt=c.receipt and dataclasses.replace(c.receipt, id=""))
        for c in plan.changes
    )
    observations = tuple(dataclasses.replace(o, id="") for o in plan.observations)
    return dataclasses.replace(plan, changes=changes, observations=observations)


# 60 stores each: these four took 28 s of the default run at 150 (CI's budget is 10 min).
checked = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@checked
@given(memory_sets())
def test_a_kept_claim_is_the_claim_made_afresh_without_its_confidence(memories):
    kept = claims_of(memories)
    afresh = before.claims_of(memories, NOW, EvidenceSettings())
    assert list(kept) == list(afresh)
    fields = [f.name for f in dataclasses.fields(before.OldClaim) if f.name != "confidence"]
    for mid, claim in kept.items():
        assert [getattr(claim, f) for f in fields] == [getattr(afresh[mid], f) for f in fields]
        assert list(claim.keys) == list(before.keys(afresh[mid]))
    assert claims_of(memories) == kept  # asked again: the same claims


@checked
@given(memory_sets(), st.data())
def test_the_pairs_of_new_claims_are_those_of_grouping_every_key_in_the_same_order(memories, data):
    kept = [c for c in claims_of(memories).values() if not _retracted(c)]
    afresh = before.claims_of(memories, NOW, EvidenceSettings())
    old = [afresh[c.id] for c in kept]
    assert _ids(candidate_pairs(kept)) == _ids(before.candidate_pairs(old))
    fresh = data.draw(st.lists(st.sampled_from(kept), max_size=4) if kept else st.just([]))
    fresh_before = [afresh[c.id] for c in fresh]
    assert _ids(candidate_pairs(kept, fresh)) == _ids(before.candidate_pairs(old, fresh_before))
    for one in kept[:8]:  # the remember check: one new claim
        assert _ids(candidate_pairs(kept, [one])) == _ids(
            before.candidate_pairs(old, [afresh[one.id]])
        )


@checked
@given(memory_sets(), orders, st.data())
def test_settling_a_remember_makes_the_records_and_the_plan_it_made_before(
    memories, evidence, data
):
    new = data.draw(st.sampled_from(memories))
    others = [m for m in memories if m.id != new.id]
    pairs = pairs_with(new, others)
    pairs_before = before.pairs_with(new, others, NOW, evidence)
    assert _ids(pairs) == _ids(pairs_before)
    known = {m.id: m for m in memories}
    latest = _logged_before(data, before.settle(pairs_before, known, {}, NOW, evidence)[1])
    plan, found = settle(pairs, known, latest, NOW, evidence)
    plan_before, found_before = before.settle(pairs_before, known, latest, NOW, evidence)
    assert found == found_before
    assert _plain(plan) == _plain(plan_before)


@checked
@given(memory_sets(most_pairs=20), orders, st.data())
def test_settling_every_pair_of_the_store_makes_what_it_made_before(memories, evidence, data):
    live = [c for c in claims_of(memories).values() if not _retracted(c)]
    afresh = before.claims_of(memories, NOW, evidence)
    pairs = candidate_pairs(live)
    pairs_before = before.candidate_pairs([afresh[c.id] for c in live])
    known = {m.id: m for m in memories}
    latest = _logged_before(data, before.settle(pairs_before, known, {}, NOW, evidence)[1])
    plan, found = settle(pairs, known, latest, NOW, evidence)
    plan_before, found_before = before.settle(pairs_before, known, latest, NOW, evidence)
    assert found == found_before
    assert _plain(plan) == _plain(plan_before)


def _retracted(claim: Any) -> bool:
    return claim.status is Status.REFUTED and claim.refuted_by in (
        RefutedBy.RETRACTION,
        RefutedBy.CORRECTION,
    )


def _logged_before(data: Any, records: Sequence[ConflictRecord]) -> dict[tuple[str, str], Any]:
    """Some of the decisions logged already: as they are (left alone), decided otherwise
    (decided again), or judged by an agent (never judged again)."""
    latest = {}
    for record in records:
        how = data.draw(st.sampled_from(("none", "none", "same", "other", "judged")))
        if how == "same":
            latest[(record.a_id, record.b_id)] = record
        elif how == "other":
            latest[(record.a_id, record.b_id)] = dataclasses.replace(
                record, state=ConflictState.OPEN, winner=None, loser=None
            )
        elif how == "judged":
            latest[(record.b_id, record.a_id)] = dataclasses.replace(record, rule=Rule.JUDGEMENT)
    return latest


def _memory(mid: str = "m1", text: str = "The request timeout is 30 seconds.") -> Memory:
    return Memory(
        id=mid,
        text=text,
        subject=None,
        kind=Kind.FACT,
        scope=None,
        source=Source.AGENT,
        origin="agent",
        created_at=NOW,
        commit=None,
        status=Status.ACTIVE,
        origins=("agent",),
    )


def test_a_memory_changed_since_its_claim_was_kept_is_judged_as_it_is_now():
    kept = _memory()
    first = claim_of(kept)
    changed = dataclasses.replace(kept, status=Status.REFUTED, refuted_by=RefutedBy.RETRACTION)
    assert claim_of(changed).status is Status.REFUTED
    assert claim_of(changed).refuted_by is RefutedBy.RETRACTION
    assert claim_of(kept) is first  # the memory as it was keeps its own claim


def test_an_equal_memory_that_is_another_object_is_read_for_itself():
    one, other = _memory(), _memory()
    assert one == other and one is not other
    assert claim_of(one) is not claim_of(other)
    assert claim_of(one) == claim_of(other)


def test_the_kept_claims_are_bounded_and_a_dropped_one_is_made_again():
    kept = KeptClaims(8)
    memories = [_memory(f"m{i:03d}", f"The job {i} timeout is {i} seconds.") for i in range(20)]
    claims = [kept.get(m) for m in memories]
    assert len(kept) <= 8
    assert kept.get(memories[-1]) is claims[-1]  # the newest are kept
    again = kept.get(memories[0])  # the oldest was dropped: made again, the same claim
    assert again is not claims[0] and again == claims[0]
    assert _KEPT.size == 1 << 16


def test_claims_asked_for_from_many_threads_at_once_are_the_claims_of_one():
    memories = [_memory(f"m{i:03d}", f"The job {i} timeout is {i} seconds.") for i in range(200)]
    expected = claims_of(memories)
    _KEPT.cache_clear()
    got: list[dict[str, Any]] = []
    threads = [threading.Thread(target=lambda: got.append(claims_of(memories))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == [expected] * 8


def test_claims_asked_for_from_many_threads_while_others_are_dropped_are_their_own():
    kept = KeptClaims(16)  # far fewer than asked for: entries are dropped all along
    memories = [_memory(f"m{i:03d}", f"The job {i} timeout is {i} seconds.") for i in range(200)]
    expected = claims_of(memories)
    wrong: list[str] = []

    def ask(offset: int) -> None:
        for i in range(2000):
            mem = memories[(i * 7 + offset) % len(memories)]
            if kept.get(mem) != expected[mem.id]:
                wrong.append(mem.id)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == [] and len(kept) <= 16
