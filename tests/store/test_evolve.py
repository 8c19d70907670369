"""``evolve``: the same object as ``dataclasses.replace`` for the store's records, and
``replace`` itself wherever a copy must run ``__init__``."""

from __future__ import annotations

import dataclasses
import functools
from datetime import UTC, datetime

import pytest

from store.contradictions.rules import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
from store.evolve import evolve
from store.model import Status
from store.plan import ConflictRecord
from tests.store.test_policy import ANCHOR, memory

_AT = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def _record() -> ConflictRecord:
    return ConflictRecord(
        a_id="m_1",
        b_id="m_2",
        kind=ConflictKind.SLOT,
        claim_a="we use duckdb",
        claim_b="we use sqlite",
        state=ConflictState.OPEN,
        rule=Rule.TOO_CLOSE,
        outcome=Outcome.KEPT_BOTH,
        winner=None,
        loser=None,
        reason_code=ReasonCode.TOO_CLOSE,
        confidence_a=0.5,
        confidence_b=0.5,
        slot="storage|database",
        at=_AT,
    )


@pytest.mark.parametrize(
    ("make", "changes"),
    [
        (memory, {"status": Status.VERIFIED}),
        (memory, {"status": Status.REFUTED, "updated_at": _AT, "support": 2.0}),
        (memory, {}),
        (_record, {"seq": 7}),
        (_record, {"state": ConflictState.RESOLVED, "winner": "m_2", "loser": "m_1"}),
    ],
)
def test_evolve_makes_what_replace_makes(make: object, changes: dict[str, object]) -> None:
    original = make()  # type: ignore[operator]
    made = evolve(original, **changes)
    assert made == dataclasses.replace(original, **changes)
    assert type(made) is type(original)
    assert made is not original
    assert original == make()  # type: ignore[operator]  # the original is unchanged
    for name, value in changes.items():
        assert getattr(made, name) is value


def test_an_evolved_record_is_still_frozen_and_hashable() -> None:
    for made in (evolve(memory(), status=Status.VERIFIED), evolve(_record(), seq=3)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.id = "x"  # type: ignore[misc, union-attr]
        assert hash(made) == hash(dataclasses.replace(made))


def test_a_slotted_record_keeps_its_nested_values() -> None:
    mem = memory()
    assert evolve(mem, status=Status.VERIFIED).anchors[0] is ANCHOR


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError):
        evolve(memory(), colour="red")
    with pytest.raises(TypeError):
        evolve(_record(), colour="red")


@dataclasses.dataclass(frozen=True)
class _Checked:
    value: int
    doubled: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "doubled", self.value * 2)


@dataclasses.dataclass(frozen=True)
class _Derived:
    value: int
    label: str = dataclasses.field(init=False, default="unset")


@dataclasses.dataclass(frozen=True)
class _Cached:
    value: int

    @functools.cached_property
    def squared(self) -> int:
        return self.value * self.value


@dataclasses.dataclass(frozen=True, slots=True)
class _Base:
    a: int


@dataclasses.dataclass(frozen=True, slots=True)
class _Child(_Base):
    b: int


def test_a_record_whose_init_does_work_goes_through_replace() -> None:
    assert evolve(_Checked(2), value=5).doubled == 10
    with pytest.raises(ValueError):
        evolve(_Derived(1), label="x")  # replace refuses a field left out of __init__
    assert evolve(_Derived(1), value=2) == _Derived(2)


def test_a_cached_property_is_not_carried_over() -> None:
    first = _Cached(3)
    assert first.squared == 9
    assert evolve(first, value=4).squared == 16


def test_slots_of_a_base_class_are_copied_too() -> None:
    assert evolve(_Child(1, 2), b=3) == _Child(1, 3)
    assert evolve(_Child(1, 2), a=5) == _Child(5, 2)
