"""The services on their own: a real store (a DuckDB file in tmp_path, a project on a
throwaway PostgreSQL server), no MCP, no repository. Each operation is one plan: one write
transaction (``Store.transactions``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from store.backend import Store
from store.contradictions.rules import ConflictState, Outcome, ReasonCode
from store.errors import StalePlan
from store.evidence.observations import Effect
from store.model import AuditAction, ReceiptAction, RefutedBy, Status
from store.plan import Plan, StatusChange
from store.results import RememberOutcome, RetractOutcome
from store.service import MemoryService
from tests.conftest import BACKENDS, GitRepo

pytestmark = pytest.mark.backends(*BACKENDS)
MakeStore = Callable[..., Store]


@pytest.fixture
def svc(make_store: MakeStore) -> Iterator[MemoryService]:
    yield MemoryService(make_store(), None)


def _writes(svc: MemoryService) -> int:
    return svc.db.transactions


def test_remember_is_one_transaction_and_a_duplicate_is_a_restatement(svc: MemoryService):
    before = _writes(svc)
    made = svc.remember("Releases ship on Thursdays", origin="alice")
    assert _writes(svc) == before + 1
    assert made.outcome is RememberOutcome.STORED and made.reading.memory.status is Status.ACTIVE
    again = svc.remember("releases ship on thursdays.", origin="bob")
    assert again.outcome is RememberOutcome.DUPLICATE and again.reading.id == made.reading.id
    assert again.reading.memory.observations == 2


def test_a_temporal_supersession_is_decided_in_the_remember_that_causes_it(svc: MemoryService):
    old = svc.remember("We use Python 3.8", origin="alice").reading.id
    before = _writes(svc)
    new = svc.remember("We upgraded to Python 3.12", origin="alice")
    assert _writes(svc) == before + 1
    (conflict,) = new.conflicts
    assert conflict.state is ConflictState.RESOLVED and conflict.outcome is Outcome.REFUTED
    assert conflict.reason_code is ReasonCode.TEMPORAL_SUPERSESSION and conflict.loser == old
    loser = svc.db.get(old)
    assert loser is not None and loser.refuted_by is RefutedBy.CORRECTION
    assert [r.action for r in svc.db.receipts(old)] == [ReceiptAction.SUPERSEDE]
    assert svc.conflicts().conflicts[0].loser == old


def test_a_retraction_and_its_cascade_are_one_transaction_and_restore_undoes_both(
    svc: MemoryService,
):
    parent = svc.remember("Billing retries charges three times").reading.id
    child = svc.remember("Summary: billing is resilient", derived_from=[parent]).reading.id
    before = _writes(svc)
    gone = svc.retract(parent, "it retries once", evidence="billing.py")
    assert _writes(svc) == before + 1
    assert gone.outcome is RetractOutcome.RETRACTED
    assert [r.memory_id for r in gone.cascaded] == [child]
    assert svc.retract(parent, "again").outcome is RetractOutcome.ALREADY_RETRACTED
    back = svc.restore(parent, "it retries three times after all")
    assert set(back.restored) == {parent, child}
    assert all(m.status is Status.ACTIVE for m in svc.db.load([parent, child]).values())


def test_a_correction_is_one_transaction_new_memory_superseded_old_and_an_observation(
    svc: MemoryService,
):
    old = svc.remember("Releases ship on Thursdays", origin="alice").reading.id
    before = _writes(svc)
    done = svc.observe(old, False, "correction", "user", "bob", "Releases ship on Fridays")
    assert _writes(svc) == before + 1
    assert done.effect is Effect.SUPERSEDE and done.new_memory is not None
    assert done.reading.memory.status is Status.REFUTED
    new = svc.db.get(done.new_memory)
    assert new is not None and new.supersedes == old and new.status is Status.ACTIVE
    actions = [e.action for e in svc.db.audit(old)]
    assert actions[:1] == [AuditAction.REMEMBER] and AuditAction.OBSERVE in actions


def test_forget_erases_text_everywhere_and_keeps_the_receipt(svc: MemoryService):
    a = svc.remember("The API timeout is 30s", origin="alice").reading.id
    svc.remember("The API timeout is 60s", origin="bob")
    svc.forget(a, "privacy request")
    tomb = svc.db.get(a)
    assert tomb is not None and tomb.forgotten and tomb.text == ""
    assert all(a not in (c.claim_a, c.claim_b) for c in svc.db.conflicts())
    assert all(c.claim_a != "The API timeout is 30s" for c in svc.db.conflicts())
    served = svc.recall("timeout 30s").readings
    assert [r.memory.text for r in served] == ["The API timeout is 60s"]
    assert served[0].conflicts == ()  # its other side is gone
    assert svc.db.receipts(a)[-1].action is ReceiptAction.FORGET


def test_a_plan_whose_guard_no_longer_holds_is_refused_whole(svc: MemoryService):
    made = svc.remember("Invoices are numbered per year").reading.id
    audit = svc.db.audit()
    stale = StatusChange(
        made,
        (Status.VERIFIED, None),  # decided on a status the memory no longer has
        Status.REFUTED,
        RefutedBy.CODE,
        AuditAction.VERIFY,
        "code",
    )
    with pytest.raises(StalePlan):
        svc.db.apply(Plan(changes=(stale,)))
    assert svc.db.audit() == audit
    mem = svc.db.get(made)
    assert mem is not None and mem.status is Status.ACTIVE


def test_review_and_stats_read_without_writing_unless_a_question_is_asked(svc: MemoryService):
    svc.remember("Releases ship on Thursdays", origin="alice")
    before = _writes(svc)
    assert svc.review(record_questions=False).questions == ()
    stats = svc.stats()
    assert stats.memories_written == 1 and stats.corrections == 0
    assert _writes(svc) == before


def test_recall_ranks_by_the_index_and_reads_each_memory_once(svc: MemoryService):
    svc.remember("The ledger service retries failed charges")
    svc.remember("The auth service signs tokens with HS256")
    svc.remember("Ledger invoices are numbered per year; ledger exports CSV")
    found = svc.recall("ledger")  # a word with no synonyms: BM25 alone decides
    texts = [r.memory.text for r in found.readings]
    assert len(texts) == 2 and texts[0].startswith("Ledger invoices")  # two mentions
    assert found.scores[found.readings[0].id] > found.scores[found.readings[1].id] > 0
    assert svc.recall("invoice").readings  # a plural is found by its singular
    assert svc.recall("tokens hs256").readings[0].memory.text.startswith("The auth")


def test_one_call_resolves_head_once_and_checks_everything_against_it(
    make_store: MakeStore, git_repo: GitRepo
):
    from anchors.fingerprint import CodeSource
    from store.factcache import StoreFactsCache

    git_repo.commit({"app/db.py": "import duckdb\n"}, "one")
    db = make_store()
    with CodeSource(git_repo.root, StoreFactsCache(db)) as code:
        service = MemoryService(db, code)
        service.remember("The app stores data in DuckDB", anchors=["import:duckdb@app/db.py"])
        resolved = []
        real = code.repo.head

        def counting() -> Any:
            resolved.append(1)
            return real()

        code.repo.head = counting  # type: ignore[method-assign]
        found = service.recall("duckdb data")
        assert found.readings and found.checked_commit == git_repo.head()
        assert len(resolved) == 1
        resolved.clear()
        service.remember("The app keeps its DuckDB file in data/", anchors=["file:app/db.py"])
        assert len(resolved) == 1


def test_warming_reads_every_live_memory_into_the_conflict_caches_once_the_copy_is_loaded(
    make_store: MakeStore,
):
    import threading

    from store.contradictions import resolving

    # A fresh process on a store written by another: nothing of it is in the caches.
    texts = [f"The service number {i} reads its timeout from warmcfg{i}.toml" for i in range(30)]
    db = make_store()
    writer = MemoryService(db, None)
    ids = [writer.remember(t, origin="alice").reading.id for t in texts]
    writer.forget(ids[0], "a mistake")
    db.close()
    resolving._slots.cache_clear()
    resolving._KEPT.cache_clear()

    db = make_store()
    try:
        svc = MemoryService(db, None)
        stop = threading.Event()
        stop.set()  # before the first call nothing is loaded: warming waits, then stops
        assert svc.warm(stop).stopped
        assert resolving._slots.cache_info().currsize == 0 and len(resolving._KEPT) == 0
        svc.list_memories()  # the first call loads the copy
        warmed = svc.warm(threading.Event())
        assert not warmed.stopped and warmed.memories == len(texts) - 1  # not the forgotten
        filled = resolving._slots.cache_info()
        assert filled.currsize == len(texts) - 1
        assert len(resolving._KEPT) == len(texts) - 1  # each live memory's claim, kept
        svc.remember("The service number 7 reads its retries from warmcfg7.toml", origin="bob")
        # The check on remember took its neighbour's claim as kept (a claim made again
        # would be one more entry): only the new note was read.
        assert len(resolving._KEPT) == len(texts)
        assert resolving._slots.cache_info().misses == filled.misses + 1
    finally:
        db.close()


def test_services_sharing_an_activity_see_each_others_calls(make_store: MakeStore):
    """The owner keeps a service per client's settings over one store: warming and the
    idle drain must step aside for a call on any of them, not only on their own."""
    from store.service import Activity

    db = make_store()
    try:
        shared = Activity()
        first = MemoryService(db, None, activity=shared)
        second = MemoryService(db, None, activity=shared)
        alone = MemoryService(db, None)
        first.remember("The billing service retries charges three times", origin="alice")
        assert second.idle_for() > 0.0 and alone.idle_for() > 0.0
        with first._call():  # a call in flight on the first service
            assert second.idle_for() == 0.0 and second.activity.busy
            assert alone.idle_for() > 0.0 and not alone.activity.busy
        assert 0.0 < second.idle_for() < 5.0 and not second.activity.busy
    finally:
        db.close()
