"""The contradiction check decides as recorded in ``data/check_as_before.jsonl`` (adr/0019):
the claims it makes of each memory, the pairs of grouping every key of every claim (of the
whole store, with some claims new, and of one remembered memory against the rest), and
what settling those pairs makes: the records and the plan, pair for pair, with some
decisions logged already (as they are, decided otherwise, or judged by an agent).

Each line is one store of memories drawn from the hand-written pairs' notes and the
seeded store's notes, with every status, anchor, evidence and origin a decision reads,
and the outputs the code gave. The outputs were first recorded when the check was made
faster, and were then the very outputs of the check before it. No database. A deliberate
change of a decision is recorded again, and its diff reviewed:

    .venv/bin/python -m tests.store.test_check_as_before --write
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import random
import sys
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

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
from store.contradictions.rules import Claim, ConflictState, Rule, Strategy
from store.evidence.settings import EvidenceSettings
from store.model import Kind, Memory, RefutedBy, Source, Status, StoredAnchor
from store.plan import ConflictRecord, Plan
from store.reading import RECORD_CONFIRMED
from tests.store.test_claims_as_written import NOW

RECORDED = Path(__file__).parent / "data" / "check_as_before.jsonl"
STORES = 30  # the first half settles one remembered memory, the second the whole store

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
HOWS = ("none", "none", "same", "other", "judged")  # how a decision was logged already


# -- the stores, as recorded --------------------------------------------------------------


def drawn_store(case: int) -> dict[str, Any]:
    """Store ``case``: its memories as recorded (what each field was drawn from), the
    order of strategies, the claims taken as new and the memory remembered."""
    rng = random.Random(case)
    pairs = load()
    texts: list[tuple[str, str | None]] = []
    for pair in rng.choices(pairs, k=rng.randint(1, 8 if case < STORES // 2 else 14)):
        texts += [(pair.a, None), (pair.b, None)]
    texts += rng.choices(SEEDED, k=rng.randint(0, 8))
    memories = []
    for i, (text, anchor) in enumerate(texts):
        status, refuted_by = rng.choice(STATUSES)
        origin = rng.choice(("agent", "agent", "alice", "bob"))
        anchors = [anchor] if anchor else []
        # Never both sides of one anchor: such a memory's expectation is whichever side
        # its set of anchors yields last, which changes with the hash seed.
        anchors += [a for a in rng.choice(([], [], ["dep:redis"], ["!dep:redis"]))
                    if a.lstrip("!") != (anchor or "").lstrip("!")]  # fmt: skip
        given = rng.choice((None, None, None, ["request|timeout", "30 seconds"]))
        memories.append({
            "id": f"m{i:03d}", "text": text,
            "subject": rng.choice((None, None, "billing", "the public API")),
            "kind": rng.choice(list(Kind)).value, "scope": rng.choice(SCOPES),
            "origin": origin, "minutes_ago": rng.randint(0, 400),  # ties: ordered by id
            "status": status.value, "refuted_by": refuted_by and refuted_by.value,
            "support": rng.choice(EVIDENCE), "contradiction": rng.choice(EVIDENCE),
            "anchors": list(dict.fromkeys(anchors)),
            "supersedes": rng.choice((None, None, None, f"m{max(i - 1, 0):03d}")),
            "flags": rng.choice(([], [], [RECORD_CONFIRMED])),
            "origins": rng.choice(([origin], [origin], [origin, "carol"], [])),
            "evidence_minutes_after": rng.randint(0, 2) * 90, "given": given,
            "forgotten": False,
        })  # fmt: skip
    for i in rng.sample(range(len(memories)), k=min(len(memories), rng.randint(0, 2))):
        memories[i].update(text="", anchors=[], forgotten=True)  # as the store's copy has it
    order = {rng.choice(list(Kind)).value: rng.choice(list(Strategy)).value
             for _ in range(rng.randint(0, 3))}  # fmt: skip
    return {
        "case": case,
        "memories": memories,
        "conflict_order": order,
        "new": [m["id"] for m in rng.sample(memories, k=min(len(memories), rng.randint(0, 4)))],
        "remembered": rng.choice(memories)["id"] if case < STORES // 2 else None,
        "logged": [rng.choice(HOWS) for _ in range(64)],
    }


def memory_of(entry: Mapping[str, Any]) -> Memory:
    created = NOW - timedelta(minutes=entry["minutes_ago"])
    given = entry["given"]
    return Memory(
        id=entry["id"],
        text=entry["text"],
        subject=entry["subject"],
        kind=Kind(entry["kind"]),
        scope=entry["scope"],
        source=Source.AGENT,
        origin=entry["origin"],
        created_at=created,
        commit=None,
        status=Status(entry["status"]),
        refuted_by=RefutedBy(entry["refuted_by"]) if entry["refuted_by"] else None,
        support=entry["support"],
        contradiction=entry["contradiction"],
        anchors=tuple(StoredAnchor(parse_anchor(a), Provenance.EXPLICIT) for a in entry["anchors"]),
        supersedes=entry["supersedes"],
        flags=tuple(entry["flags"]),
        origins=tuple(entry["origins"]),
        evidence_at=created + timedelta(minutes=entry["evidence_minutes_after"]),
        attribute=given[0] if given else None,
        slot_value=given[1] if given else None,
        forgotten_at=NOW if entry["forgotten"] else None,
    )


# -- what the check makes of a store ------------------------------------------------------


def plain(value: Any) -> Any:
    """``value`` as JSON has it: dataclasses as objects of their fields, enums as their
    values, sets sorted, tuples as lists, times in ISO 8601."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, frozenset | set):
        return sorted((plain(v) for v in value), key=json.dumps)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {"|".join(k) if isinstance(k, tuple) else str(k): plain(v) for k, v in value.items()}
    return value


def _ids(pairs: Sequence[tuple[Claim, Claim]]) -> list[list[str]]:
    """The pairs as ids, sorted: grouping follows the order of a claim's keys, which
    iterates sets of strings and so changes with the process's hash seed."""
    return sorted([a.id, b.id] for a, b in pairs)


def _sorted(values: Sequence[Any]) -> list[Any]:
    """``values`` as JSON, in an order that does not depend on the hash seed."""
    return sorted((plain(v) for v in values), key=lambda v: json.dumps(v, sort_keys=True))


def _without_new_ids(plan: Plan) -> Plan:
    """The plan without what is new on every call (receipt and observation ids)."""
    changes = tuple(
        dataclasses.replace(c, receipt=c.receipt and dataclasses.replace(c.receipt, id=""))
        for c in plan.changes
    )
    observations = tuple(dataclasses.replace(o, id="") for o in plan.observations)
    return dataclasses.replace(plan, changes=changes, observations=observations)


def _retracted(claim: Claim) -> bool:
    return claim.status is Status.REFUTED and claim.refuted_by in (
        RefutedBy.RETRACTION,
        RefutedBy.CORRECTION,
    )


def _logged(hows: Sequence[str], records: Sequence[ConflictRecord]) -> dict[Any, ConflictRecord]:
    """Some of the decisions logged already: as they are (left alone), decided otherwise
    (decided again), or judged by an agent (never judged again)."""
    latest = {}
    for how, record in zip(hows, sorted(records, key=_key), strict=False):
        if how == "same":
            latest[(record.a_id, record.b_id)] = record
        elif how == "other":
            latest[(record.a_id, record.b_id)] = dataclasses.replace(
                record, state=ConflictState.OPEN, winner=None, loser=None
            )
        elif how == "judged":
            latest[(record.b_id, record.a_id)] = dataclasses.replace(record, rule=Rule.JUDGEMENT)
    return latest


def _key(record: ConflictRecord) -> str:
    return json.dumps(plain(record), sort_keys=True)


def outputs(store: Mapping[str, Any]) -> dict[str, Any]:
    """What the check makes of ``store``, as recorded."""
    memories = [memory_of(m) for m in store["memories"]]
    evidence = EvidenceSettings(
        conflict_order={Kind(k): Strategy(v) for k, v in store["conflict_order"].items()}
    )
    claims = claims_of(memories)
    live = [c for c in claims.values() if not _retracted(c)]
    new = [claims[mid] for mid in store["new"] if mid in claims and not _retracted(claims[mid])]
    if store["remembered"] is not None:
        remembered = next(m for m in memories if m.id == store["remembered"])
        pairs = pairs_with(remembered, [m for m in memories if m.id != remembered.id])
    else:
        pairs = candidate_pairs(live)
    # Settled in the order of their ids, not as found: the order they are found in changes
    # with the hash seed (sets of strings), and what is recorded must not.
    pairs = sorted(pairs, key=lambda pair: (pair[0].id, pair[1].id))
    known = {m.id: m for m in memories}
    latest = _logged(store["logged"], settle(pairs, known, {}, NOW, evidence)[1])
    plan, found = settle(pairs, known, latest, NOW, evidence)
    return {
        "claims": {mid: {**plain(c), "keys": _sorted(c.keys)} for mid, c in claims.items()},
        "pairs": _ids(candidate_pairs(live)),
        "pairs_with_new": _ids(candidate_pairs(live, new)),
        "pairs_with_each": {c.id: _ids(candidate_pairs(live, [c])) for c in live[:8]},
        "settled_pairs": _ids(pairs),
        "found": _sorted(found),
        "plan": {part: _sorted(done) for part, done in plain(_without_new_ids(plan)).items()},
    }


@functools.cache
def _recorded() -> list[dict[str, Any]]:
    with RECORDED.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


@pytest.mark.parametrize("case", range(STORES))
def test_the_check_decides_each_store_as_recorded(case: int) -> None:
    entry = _recorded()[case]
    got = outputs(entry["store"])
    for part, expected in entry["outputs"].items():
        assert got[part] == expected, part


def test_the_recorded_stores_are_the_stores_drawn_and_reach_every_rule() -> None:
    entries = _recorded()
    assert [e["store"] for e in entries] == [drawn_store(case) for case in range(STORES)]
    plans = [e["outputs"]["plan"] for e in entries]
    assert sum(bool(p["conflicts"]) for p in plans) >= 5  # records written
    assert sum(bool(p["observations"]) for p in plans) >= 5  # evidence observed
    found = [record for e in entries for record in e["outputs"]["found"]]
    assert {"open", "resolved"} <= {r["state"] for r in found}
    rules = {"scope", "confidence", "origins", "code_verdict", "too_close", "recency"}
    assert rules | {"explicit_correction"} <= {r["rule"] for r in found}


def test_a_kept_claim_is_the_claim_made_afresh() -> None:
    memories = [memory_of(m) for e in _recorded() for m in e["store"]["memories"]][:400]
    made = [claim_of(m) for m in memories]
    assert all(claim_of(m) is claim for m, claim in zip(memories, made, strict=True))  # kept
    _KEPT.cache_clear()
    assert [claim_of(m) for m in memories] == made


def write(path: Path = RECORDED) -> int:
    """Record what the current code makes of every store; returns how many."""
    path.parent.mkdir(exist_ok=True)
    lines = []
    for case in range(STORES):
        store = drawn_store(case)
        lines.append(json.dumps({"store": store, "outputs": outputs(store)}, separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


# -- kept claims --------------------------------------------------------------------------


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


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.store.test_check_as_before --write")
    print(f"{write()} stores written to {RECORDED}")
