"""Sets of versions as unions of intervals, over any totally ordered version type: the set
algebra that ``anchors.versions`` (PEP 440 over ``packaging.version.Version``) and
``anchors.semver`` (npm, Cargo and Go over tuple keys) share, so that each of them only
turns its own syntax into intervals.

A set is a tuple of ``Interval``. Every operation here returns it *normalised*: sorted,
without empty intervals, none overlapping, touching ones merged and unbounded ends open. A
set then has one spelling, so two equal sets are equal tuples, which ``relate`` relies on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "Interval",
    "Relation",
    "complement",
    "contains",
    "intersect",
    "normalise",
    "point",
    "relate",
]


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


V = TypeVar("V", bound=_Ordered)


class Relation(StrEnum):
    """How the versions a manifest declares relate to those an anchor states."""

    SUBSET = "subset"  # every version the declared spec allows, the anchor allows too
    DISJOINT = "disjoint"  # no version satisfies both
    OVERLAP = "overlap"  # some do, some do not
    UNDECIDABLE = "undecidable"  # a spec could not be turned into intervals


@dataclass(frozen=True)
class Interval(Generic[V]):
    """Versions between ``lo`` and ``hi`` (None: unbounded), each end open or closed."""

    lo: V | None = None
    lo_closed: bool = False
    hi: V | None = None
    hi_closed: bool = False

    def is_empty(self) -> bool:
        if self.lo is None or self.hi is None:
            return False
        if self.hi < self.lo:
            return True
        return self.lo == self.hi and not (self.lo_closed and self.hi_closed)


def point(v: V) -> Interval[V]:
    """The set holding only ``v``."""
    return Interval(v, True, v, True)


def normalise(items: Iterable[Interval[V]]) -> tuple[Interval[V], ...]:
    """``items`` as one set: sorted, non-empty, non-overlapping, touching intervals merged,
    unbounded ends open."""
    ordered = sorted(
        (Interval(iv.lo, iv.lo_closed and iv.lo is not None, iv.hi,
                  iv.hi_closed and iv.hi is not None)
         for iv in items if not iv.is_empty()),
        key=_lower_key,
    )  # fmt: skip
    merged: list[Interval[V]] = []
    for iv in ordered:
        if merged and _touches(merged[-1], iv):
            last = merged[-1]
            if _ends_before(last, iv):
                merged[-1] = Interval(last.lo, last.lo_closed, iv.hi, iv.hi_closed)
        else:
            merged.append(iv)
    return tuple(merged)


def intersect(a: Iterable[Interval[V]], b: Iterable[Interval[V]]) -> tuple[Interval[V], ...]:
    """The versions in both ``a`` and ``b``."""
    others = tuple(b)
    out = []
    for x in a:
        for y in others:
            lo, lo_closed = _max_lo(x, y)
            hi, hi_closed = _min_hi(x, y)
            out.append(Interval(lo, lo_closed, hi, hi_closed))
    return normalise(out)


def complement(a: Iterable[Interval[V]]) -> tuple[Interval[V], ...]:
    """The versions not in ``a``."""
    out: list[Interval[V]] = []
    lo: V | None = None
    lo_closed = False
    for iv in normalise(a):  # normalised: only the first can be unbounded below
        if iv.lo is not None:
            out.append(Interval(lo, lo_closed, iv.lo, not iv.lo_closed))
        if iv.hi is None:
            return normalise(out)
        lo, lo_closed = iv.hi, not iv.hi_closed
    out.append(Interval(lo, lo_closed))
    return normalise(out)


def contains(a: Iterable[Interval[V]], v: V) -> bool:
    """Whether ``v`` is in ``a``."""
    for iv in a:
        above = iv.lo is None or iv.lo < v or (iv.lo_closed and iv.lo == v)
        below = iv.hi is None or v < iv.hi or (iv.hi_closed and iv.hi == v)
        if above and below:
            return True
    return False


def relate(wanted: Iterable[Interval[V]], declared: Iterable[Interval[V]]) -> Relation:
    """SUBSET when every version of ``declared`` is in ``wanted``; DISJOINT when none is
    (an empty ``declared`` among them); OVERLAP otherwise."""
    declared_set = normalise(declared)
    common = intersect(wanted, declared_set)
    if not common:
        return Relation.DISJOINT
    return Relation.SUBSET if common == declared_set else Relation.OVERLAP


def _lower_key(iv: Interval[V]) -> tuple[int, V | None, int]:
    # unbounded first; at one version a closed end starts before an open one
    if iv.lo is None:
        return (0, None, 0)
    return (1, iv.lo, 0 if iv.lo_closed else 1)


def _ends_before(a: Interval[V], b: Interval[V]) -> bool:
    """``a`` ends before ``b`` does."""
    if a.hi is None:
        return False
    if b.hi is None:
        return True
    if a.hi != b.hi:
        return a.hi < b.hi
    return not a.hi_closed and b.hi_closed


def _touches(a: Interval[V], b: Interval[V]) -> bool:
    """``a`` starts no later than ``b``: do they overlap or meet with no gap?"""
    if a.hi is None or b.lo is None:
        return True
    if a.hi != b.lo:
        return b.lo < a.hi
    return a.hi_closed or b.lo_closed


def _max_lo(x: Interval[V], y: Interval[V]) -> tuple[V | None, bool]:
    """The later of two lower ends; at one version, closed only if both are."""
    if x.lo is None:
        return y.lo, y.lo_closed
    if y.lo is None or y.lo < x.lo:
        return x.lo, x.lo_closed
    if x.lo < y.lo:
        return y.lo, y.lo_closed
    return x.lo, x.lo_closed and y.lo_closed


def _min_hi(x: Interval[V], y: Interval[V]) -> tuple[V | None, bool]:
    """The earlier of two upper ends; at one version, closed only if both are."""
    if x.hi is None:
        return y.hi, y.hi_closed
    if y.hi is None or x.hi < y.hi:
        return x.hi, x.hi_closed
    if y.hi < x.hi:
        return y.hi, y.hi_closed
    return x.hi, x.hi_closed and y.hi_closed
