"""Version specifiers as sets of versions: the relation between an anchor's specifier and a
declared one (subset, disjoint, overlap, undecidable), the intervals behind it, and Poetry's
constraint syntax translated to PEP 440."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from anchors.versions import (
    Interval,
    Relation,
    bound_mismatch,
    declared_pep440,
    intervals,
    poetry_to_pep440,
    relation,
)

S, D, OV, U = Relation.SUBSET, Relation.DISJOINT, Relation.OVERLAP, Relation.UNDECIDABLE


@pytest.mark.parametrize(
    ("anchor", "declared", "expected"),
    [
        # equal sets, spelled differently
        (">=0.40", ">=0.40.0", S),
        (">=1.1,<2", "<2,>=1.1", S),
        ("==1.2.*", ">=1.2.dev0,<1.3.dev0", S),
        ("~=1.4", ">=1.4,<2", S),
        ("==2.0", "==2", S),
        # the declared set is strictly inside the anchor's
        (">=3", ">=3.1.0", S),
        (">=1", ">=1.1,<2", S),
        ("<3", "==2.5", S),
        ("!=1.5", ">=1.6", S),
        ("==1.2.*", "~=1.2.3", S),
        ("!=2.*", "<2", S),
        (">0.9", ">=1.0", S),
        # the declared set is larger than the anchor's
        (">=3.1", ">=3", OV),
        (">=1.1,<2", ">=1", OV),
        ("==1.4.2", "~=1.4", OV),
        # no version satisfies both
        ("<2", ">=3", D),
        (">=2", ">=1.1,<2", D),
        ("==1.0", "!=1.0", D),
        ("==1.*", ">=2", D),
        ("<=1.0", ">1.0", D),
        ("<2", "==2.0", D),
        ("<2", "==2.0rc1", D),  # <2 excludes the pre-releases of 2 (PEP 440)
        # overlapping
        (">=1", "<3", OV),
        (">=2,<4", ">=3,<5", OV),
        ("!=1.5", ">=1.4", OV),
        # a dependency declared with no version allows every version
        (">=1", "", OV),
        # cannot be decided
        ("===1.0", "==1.0", U),
        (">=1", "===foo", U),
        (">=1", "not a spec", U),
        (">=1", "^1.0 || ^2.0", U),
    ],
)
def test_a_declared_specifier_relates_to_the_anchor_as_sets_of_versions(
    anchor: str, declared: str, expected: Relation
):
    assert relation(anchor, declared) is expected


@pytest.mark.parametrize(
    ("anchor", "declared", "expected"),
    [
        (">=1.2", "^1.2", S),
        ("<2", "^1.2", S),
        (">=3", "^1.2", D),
        (">=0.3,<0.4", "^0.3", S),
        (">=0.3", "^0.3.1", S),
        ("==1.2.*", "~1.2", S),
        ("~=1.2.0", "~1.2", S),
        ("==1.2.*", "1.2.*", S),
        ("==1.2", "1.2", S),
        ("<1", "^1.2", D),
    ],
)
def test_poetry_constraints_are_compared_by_what_they_mean(
    anchor: str, declared: str, expected: Relation
):
    assert relation(anchor, declared) is expected


@pytest.mark.parametrize(
    ("poetry", "pep440"),
    [
        ("^1.2", ">=1.2,<2"),
        ("^1.2.3", ">=1.2.3,<2"),
        ("^0.3", ">=0.3,<0.4"),
        ("^0.0.3", ">=0.0.3,<0.0.4"),
        ("^0", ">=0,<1"),
        ("~1.2", ">=1.2,<1.3"),
        ("~1.2.3", ">=1.2.3,<1.3"),
        ("~1", ">=1,<2"),
        ("~=1.2", "~=1.2"),
        ("1.2.*", "==1.2.*"),
        ("1.2", "==1.2"),
        ("*", ""),
        ("", ""),
        (">=1,<2", ">=1,<2"),
        (">= 1.0, < 2.0", ">=1.0,<2.0"),
        (">=1.0 <2.0", ">=1.0,<2.0"),
        ("^1.0 || ^2.0", None),
        ("^banana", None),
    ],
)
def test_poetry_constraints_translate_to_pep_440(poetry: str, pep440: str | None):
    assert poetry_to_pep440(poetry) == pep440


def test_a_declared_pep_440_spec_is_kept_and_only_other_text_is_read_as_poetry():
    assert declared_pep440(">=1,<2") == ">=1,<2"
    assert declared_pep440("~=1.2") == "~=1.2"  # PEP 440's compatible release, not Poetry's ~
    assert declared_pep440("^1.2") == ">=1.2,<2"
    assert declared_pep440("^1 || ^2") is None


@pytest.mark.parametrize(
    ("spec", "inside", "outside"),
    [
        (">=1.0", ["1.0", "1.0.post1", "7"], ["0.9", "1.0rc1"]),
        ("<2", ["1.9.9", "0.1"], ["2.0", "2.0.dev0", "2.0a1", "2.1"]),
        ("<2.0rc1", ["2.0b9", "1.9"], ["2.0rc1", "2.0"]),
        ("~=1.4.5", ["1.4.5", "1.4.99"], ["1.4.4", "1.5.0", "1.5.dev0"]),
        ("==1.2.*", ["1.2", "1.2.9", "1.2.post1", "1.2a1"], ["1.3", "1.1.9"]),
        ("!=1.2.*", ["1.1.9", "1.3"], ["1.2.0", "1.2.5"]),
        ("!=1.5,!=1.7", ["1.4", "1.6", "1.8"], ["1.5", "1.7"]),
        ("", ["0", "99.9"], []),
    ],
)
def test_intervals_hold_the_versions_the_specifier_admits(
    spec: str, inside: list[str], outside: list[str]
):
    allowed = intervals(spec)
    assert allowed is not None
    for text in inside:
        assert _contains(allowed, Version(text)), text
    for text in outside:
        assert not _contains(allowed, Version(text)), text


def _contains(allowed: tuple[Interval, ...], version: Version) -> bool:
    for iv in allowed:
        above = iv.lo is None or version > iv.lo or (iv.lo_closed and version == iv.lo)
        below = iv.hi is None or version < iv.hi or (iv.hi_closed and version == iv.hi)
        if above and below:
            return True
    return False


_VERSIONS = st.sampled_from(["0.9", "1", "1.0.1", "1.2", "1.2.5", "1.3", "2", "2.0.1", "3.1"])
_OPS = st.sampled_from([">=", ">", "<=", "<", "==", "!=", "~="])
_CLAUSE = st.builds(lambda op, v: f"{op}{v}", _OPS, _VERSIONS).filter(
    lambda c: not (c.startswith("~=") and "." not in c)
)
_SPEC = st.lists(_CLAUSE, min_size=1, max_size=3).map(",".join)
_PROBES = [Version(v) for v in ["0.1", "0.9", "1", "1.0.1", "1.1", "1.2", "1.2.5", "1.2.9",
                                "1.3", "1.9", "2", "2.0.1", "2.5", "3.1", "4"]]  # fmt: skip


@given(_SPEC, _SPEC)
def test_a_decided_relation_never_contradicts_packaging_on_final_releases(
    anchor: str, declared: str
):
    """Subset: every probe the declared spec admits, the anchor admits; disjoint: no probe
    admitted by both. ``packaging`` is the judge of each probe."""
    found = relation(anchor, declared)
    a, d = SpecifierSet(anchor), SpecifierSet(declared)
    if found is Relation.SUBSET:
        assert all(v in a for v in _PROBES if v in d)
    if found is Relation.DISJOINT:
        assert not any(v in a and v in d for v in _PROBES)


@pytest.mark.parametrize(
    ("stated", "declared", "phrase"),
    [
        (">=3.6", ">=3.7.0,<4", "the lower bound is 3.7.0, not 3.6"),
        (">=3.7", ">=3.7.0,<4", None),
        (">=1.21", ">=1.21.1,<3", None),  # to the precision written
        ("<3", ">=2.5,<4", "the upper bound is 4, not 3"),
        ("<3", ">=2.5,<3.0", None),
        (">=2.6.0,<3", "^2.13.0", "the lower bound is 2.13.0, not 2.6.0"),  # Poetry
        ("==7.0.1", ">=7", "the lower bound is 7, not 7.0.1"),
        ("==0.4.6", "==0.4.6", None),
        ("==3.11.*", ">=3.10", None),  # membership, not a bound
        ("!=3.0", ">=2", None),
        (">=3.8", "", None),  # declared without a version: nothing to compare
        ("<4", ">=2.5,<4", None),  # only the bounds both sides have
        (">=3.8", "<4", None),
    ],
)
def test_a_stated_bound_must_be_the_declared_one(stated: str, declared: str, phrase: str | None):
    assert bound_mismatch(stated, declared) == phrase
