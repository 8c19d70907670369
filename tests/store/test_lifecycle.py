"""The lifecycle rules as plain functions, without a database."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from anchors.verdicts import AnchorCheck, MemoryVerdict, Verdict
from store.errors import InvalidInput
from store.inputs import clean_text
from store.lifecycle import (
    code_verdict_change,
    restore_plan,
    retraction_plan,
    text_hash,
)
from store.model import (
    Kind,
    Memory,
    MemoryCheck,
    ReceiptAction,
    RefutedBy,
    Source,
    Status,
    StoredAnchor,
)

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def memory(mid: str, status: Status = Status.ACTIVE, refuted_by: RefutedBy | None = None) -> Memory:
    return Memory(
        id=mid,
        text=f"claim {mid}",
        subject=None,
        kind=Kind.FACT,
        scope=None,
        source=Source.AGENT,
        origin="s1",
        created_at=NOW,
        commit="c0",
        status=status,
        refuted_by=refuted_by,
    )


def test_retraction_refutes_the_memory_and_each_descendant_with_a_receipt_naming_the_cause():
    parent, a, b = memory("m1"), memory("m2"), memory("m3")
    changes = retraction_plan(parent, [a, b], "alice", "wrong", "see x.py", NOW, "c1").changes
    assert [c.memory_id for c in changes] == ["m1", "m2", "m3"]
    assert all(
        c.to_status is Status.REFUTED and c.refuted_by is RefutedBy.RETRACTION for c in changes
    )
    assert changes[0].receipt is not None and changes[0].receipt.cause_id is None
    assert changes[0].receipt.action is ReceiptAction.RETRACT
    assert {c.receipt.cause_id for c in changes[1:] if c.receipt} == {"m1"}
    assert "derived from retracted memory m1" in (changes[1].reason or "")


def test_retraction_skips_descendants_that_are_already_retracted():
    parent = memory("m1")
    done = memory("m2", Status.REFUTED, RefutedBy.RETRACTION)
    changes = retraction_plan(parent, [done], "alice", "wrong", None, NOW, None).changes
    assert [c.memory_id for c in changes] == ["m1"]


def test_retracting_a_retracted_memory_changes_nothing():
    gone = memory("m1", Status.REFUTED, RefutedBy.RETRACTION)
    assert retraction_plan(gone, [], "a", "r", None, NOW, None).empty


def test_restore_refuses_a_memory_that_is_not_retracted():
    with pytest.raises(InvalidInput):
        restore_plan(memory("m1"), [], "a", "r", NOW)
    with pytest.raises(InvalidInput):
        restore_plan(memory("m1", Status.REFUTED, RefutedBy.CODE), [], "a", "r", NOW)


def test_restore_returns_the_memory_and_its_cascade_to_active_with_receipts():
    parent = memory("m1", Status.REFUTED, RefutedBy.RETRACTION)
    child = memory("m2", Status.REFUTED, RefutedBy.RETRACTION)
    changes = restore_plan(parent, [child], "bob", "it was right", NOW).changes
    assert [(c.memory_id, c.to_status) for c in changes] == [
        ("m1", Status.ACTIVE),
        ("m2", Status.ACTIVE),
    ]
    assert all(c.receipt and c.receipt.action is ReceiptAction.RESTORE for c in changes)


def _check(verdict: Verdict, commit: str = "c1") -> MemoryCheck:
    anchor = Anchor(AnchorKind.IMPORT, "redis", Expect.PRESENT)
    overall = MemoryVerdict.REFUTED if verdict is Verdict.BROKEN else MemoryVerdict.VERIFIED
    return MemoryCheck(
        overall, (AnchorCheck(anchor, verdict, (), "no file imports redis"),), commit
    )


def _anchored(mid: str, status: Status = Status.ACTIVE, refuted_by: RefutedBy | None = None):
    anchor = StoredAnchor(Anchor(AnchorKind.IMPORT, "redis", Expect.PRESENT), Provenance.EXPLICIT)
    return replace(memory(mid, status, refuted_by), anchors=(anchor,))


def test_a_code_verdict_never_changes_a_retracted_memory():
    gone = _anchored("m1", Status.REFUTED, RefutedBy.RETRACTION)
    assert code_verdict_change(gone, _check(Verdict.HOLDS), NOW) is None


def test_a_code_refutation_carries_a_receipt_naming_anchor_expectation_and_commit():
    change = code_verdict_change(_anchored("m1"), _check(Verdict.BROKEN, "abc123"), NOW)
    assert change is not None and change.receipt is not None
    assert change.refuted_by is RefutedBy.CODE
    assert change.receipt.commit == "abc123"
    assert "import:redis" in change.receipt.reason and "present" in change.receipt.reason


def test_a_code_verdict_that_matches_the_current_status_is_not_a_change():
    verified = _anchored("m1", Status.VERIFIED)
    assert code_verdict_change(verified, _check(Verdict.HOLDS), NOW) is None
    refuted = _anchored("m2", Status.REFUTED, RefutedBy.CODE)
    assert code_verdict_change(refuted, _check(Verdict.HOLDS, "c2"), NOW) is not None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 9000, "limit"),
        ("bad \ud800", "surrogate"),
        ("nul\x00", "NUL"),
        (42, "text"),
    ],
)
def test_bad_text_is_rejected_with_a_clear_reason(value: object, message: str):
    with pytest.raises(InvalidInput, match=message):
        clean_text(value, "text")


def test_the_same_claim_hashes_the_same_regardless_of_case_spacing_and_final_period():
    assert text_hash("We use  DuckDB.") == text_hash("we use duckdb")
    assert text_hash("we use duckdb") != text_hash("we use sqlite")
