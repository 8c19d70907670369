"""The interval algebra of ``anchors.intervals`` over integer "versions", checked against
membership counted point by point.

Ends are even integers from 0 to 20, so the integers from -1 to 21 form a complete grid: each
end is on it, an odd integer lies strictly between any two neighbouring ends, and -1 and 21
lie beyond them all. Two sets with these ends are equal exactly when they hold the same grid
points, so a check on the grid is a check on the sets.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anchors.intervals import (
    Interval,
    Relation,
    complement,
    contains,
    intersect,
    normalise,
    point,
    relate,
)

Set = tuple[Interval[int], ...]
GRID = range(-1, 22)
_END = st.none() | st.integers(0, 10).map(lambda n: 2 * n)
_INTERVAL = st.builds(Interval, _END, st.booleans(), _END, st.booleans())
_SET = st.lists(_INTERVAL, max_size=4).map(tuple)


def _member(items: Set, v: int) -> bool:
    """Whether ``v`` is in any of ``items``, read from their ends alone."""
    for iv in items:
        above = iv.lo is None or v > iv.lo or (iv.lo_closed and v == iv.lo)
        below = iv.hi is None or v < iv.hi or (iv.hi_closed and v == iv.hi)
        if above and below:
            return True
    return False


def _points(items: Set) -> set[int]:
    return {v for v in GRID if _member(items, v)}


@given(_SET)
def test_normalising_keeps_the_members_and_spells_the_set_one_way(items: Set) -> None:
    norm = normalise(items)
    assert _points(norm) == _points(items)
    assert normalise(norm) == norm
    assert normalise(reversed(items)) == norm
    assert not any(iv.is_empty() for iv in norm)
    for iv in norm:
        assert iv.lo is not None or not iv.lo_closed
        assert iv.hi is not None or not iv.hi_closed
    for a, b in pairwise(norm):
        assert a.hi is not None and b.lo is not None
        # a gap between neighbours: later, or at one end with both sides open
        assert a.hi < b.lo or (a.hi == b.lo and not a.hi_closed and not b.lo_closed)


@given(_SET, _SET)
def test_sets_with_the_same_members_are_equal_tuples(a: Set, b: Set) -> None:
    if _points(a) == _points(b):
        assert normalise(a) == normalise(b)
    else:
        assert normalise(a) != normalise(b)


@given(_SET)
def test_the_complement_of_the_complement_is_the_set(items: Set) -> None:
    assert complement(complement(items)) == normalise(items)


@given(_SET)
def test_a_set_and_its_complement_are_disjoint_and_cover_everything(items: Set) -> None:
    rest = complement(items)
    assert intersect(items, rest) == ()
    assert normalise((*items, *rest)) == (Interval(),)
    assert _points(rest) == set(GRID) - _points(items)


@given(_SET, _SET)
def test_intersect_holds_the_points_of_both(a: Set, b: Set) -> None:
    common = intersect(a, b)
    assert _points(common) == _points(a) & _points(b)
    assert common == intersect(b, a)
    assert normalise(common) == common


@given(_SET, st.sampled_from(GRID))
def test_contains_agrees_with_the_ends(items: Set, v: int) -> None:
    assert contains(items, v) is _member(items, v)
    assert contains(normalise(items), v) is _member(items, v)


@given(_SET, _SET)
def test_relate_agrees_with_membership_on_the_grid(wanted: Set, declared: Set) -> None:
    w, d = _points(wanted), _points(declared)
    if not w & d:
        expected = Relation.DISJOINT
    elif d <= w:
        expected = Relation.SUBSET
    else:
        expected = Relation.OVERLAP
    assert relate(wanted, declared) is expected


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([Interval(1, True, 2, False), Interval(2, True, 3, True)], (Interval(1, True, 3, True),)),
        (
            [Interval(1, False, 2, False), Interval(2, False, 3, False)],
            (Interval(1, False, 2, False), Interval(2, False, 3, False)),
        ),
        ([Interval(2, True, 2, False), Interval(3, False, 1, False)], ()),
        ([point(2), Interval(None, True, 2, False)], (Interval(None, False, 2, True),)),
        ([Interval(5, True, None, True), Interval(0, True, 9, False)], (Interval(0, True),)),
    ],
    ids=["touching-merge", "open-gap-stays", "empty-dropped", "point-joins", "open-ends"],
)
def test_normalise_examples(items: list[Interval[int]], expected: Set) -> None:
    assert normalise(items) == expected


def test_relate_takes_an_empty_declaration_as_disjoint() -> None:
    # checked before SUBSET: no version is in both, although the empty set is in every set
    assert relate((Interval(),), ()) is Relation.DISJOINT


def test_the_algebra_works_over_tuple_keys_as_well() -> None:
    """Any totally ordered type will do: semver's keys are tuples."""
    below_two = (Interval(None, False, (2, 0), False),)
    assert complement(below_two) == (Interval((2, 0), True),)
    assert relate(below_two, (Interval((1, 0), True, (1, 9), True),)) is Relation.SUBSET
    assert not contains(below_two, (2, 0))
