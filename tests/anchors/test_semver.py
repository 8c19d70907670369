"""npm, Cargo and Go version ranges as sets (``anchors.semver``): each form against the
node-semver / Cargo reading, and properties against an independent predicate oracle that
tests a version directly, without intervals."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.semver import allowed, contains, parse_version, relate, relation
from anchors.versions import Relation

SUB, DIS, OVER, UND = Relation.SUBSET, Relation.DISJOINT, Relation.OVERLAP, Relation.UNDECIDABLE


@pytest.mark.parametrize(
    ("spec", "inside", "outside"),
    [
        ("^3.2.0", ["3.2.0", "3.9.9"], ["3.1.9", "4.0.0", "4.0.0-beta.1"]),
        ("^0.2.3", ["0.2.3", "0.2.9"], ["0.3.0", "0.2.2"]),
        ("^0.0.3", ["0.0.3"], ["0.0.4", "0.0.2"]),
        ("^0.0", ["0.0.0", "0.0.7"], ["0.1.0"]),
        ("^1.2.x", ["1.2.0", "1.9.0"], ["2.0.0", "1.1.9"]),
        ("~1.2.3", ["1.2.3", "1.2.99"], ["1.3.0", "1.2.2"]),
        ("~1", ["1.0.0", "1.99.0"], ["2.0.0"]),
        ("~>1.2", ["1.2.0", "1.2.5"], ["1.3.0"]),
        ("1.x", ["1.0.0", "1.5.2"], ["2.0.0", "0.9.0"]),
        ("1.2.*", ["1.2.0", "1.2.8"], ["1.3.0"]),
        ("1", ["1.0.0", "1.9.9"], ["2.0.0"]),
        ("1.2.3", ["1.2.3"], ["1.2.4", "1.2.3-rc.1"]),
        ("=1.2", ["1.2.0", "1.2.9"], ["1.3.0"]),
        ("v1.2.3", ["1.2.3"], ["1.2.4"]),
        ("1.2.3-beta.2", ["1.2.3-beta.2"], ["1.2.3-beta.3", "1.2.3"]),
        ("1.2.3 - 2.3.4", ["1.2.3", "2.3.4"], ["2.3.5", "1.2.2"]),
        ("1.2 - 2.3", ["1.2.0", "2.3.9"], ["2.4.0", "1.1.9"]),
        ("1.2.3 - 2", ["2.9.9"], ["3.0.0"]),
        (">=1.2.3 <2", ["1.2.3", "1.99.0"], ["2.0.0", "1.2.2"]),
        (">= 1.2.3 < 2", ["1.5.0"], ["2.0.0"]),
        (">1", ["2.0.0"], ["1.9.9"]),
        (">1.2.3", ["1.2.4"], ["1.2.3"]),
        ("<=1.2", ["1.2.9"], ["1.3.0"]),
        ("<1.2", ["1.1.9"], ["1.2.0", "1.2.0-alpha"]),
        ("^1.2.3 || ^2.1", ["1.5.0", "2.1.0", "2.9.0"], ["2.0.5", "3.0.0"]),
        ("<1 || >=3", ["0.5.0", "3.0.0"], ["1.0.0", "2.9.9"]),
        ("*", ["0.0.1", "99.0.0"], []),
        ("", ["1.0.0"], []),
        ("latest", ["1.0.0"], []),
    ],
)
def test_npm_ranges_hold_the_versions_node_semver_gives_them(spec, inside, outside):
    assert [contains(spec, v, "npm") for v in inside] == [True] * len(inside)
    assert [contains(spec, v, "npm") for v in outside] == [False] * len(outside)


@pytest.mark.parametrize(
    ("spec", "inside", "outside"),
    [
        ("1.2", ["1.2.0", "1.9.0"], ["2.0.0", "1.1.0"]),  # a bare requirement is a caret one
        ("1.2.3", ["1.2.3", "1.3.0"], ["2.0.0"]),
        ("0.3", ["0.3.5"], ["0.4.0"]),
        ("=1.2.3", ["1.2.3"], ["1.2.4"]),
        ("~1.2", ["1.2.7"], ["1.3.0"]),
        ("1.2.*", ["1.2.0", "1.2.9"], ["1.3.0"]),
        ("1.*", ["1.0.0", "1.9.0"], ["2.0.0"]),
        (">=1.2, <1.5", ["1.2.0", "1.4.9"], ["1.5.0"]),
        ("*", ["7.0.0"], []),
    ],
)
def test_cargo_requirements_hold_the_versions_cargo_gives_them(spec, inside, outside):
    assert [contains(spec, v, "cargo") for v in inside] == [True] * len(inside)
    assert [contains(spec, v, "cargo") for v in outside] == [False] * len(outside)


@pytest.mark.parametrize(
    ("wanted", "declared", "ecosystem", "expected"),
    [
        (">=3", "^3.2.0", "npm", SUB),
        ("^3", "~3.2", "npm", SUB),
        ("3.x", "^3.2.0", "npm", SUB),
        ("3", "^3.2.0", "npm", SUB),
        ("==3.*", "^3.2.0", "npm", SUB),
        (">=4", "^3.2.0", "npm", DIS),
        ("==3.4.1", "3.4.1", "npm", SUB),
        ("==3.4.1", "^3.4.1", "npm", OVER),
        ("~1.2", "~1.2.3", "npm", SUB),
        (">=18", ">=16", "npm", OVER),
        ("<3", "1.2.3 - 2.3", "npm", SUB),
        ("2", "^1.2 || ^2", "npm", OVER),
        ("3", "latest", "npm", OVER),
        ("3", "*", "npm", OVER),
        ("!=2.0.0", "^1", "npm", SUB),
        ("~=1.2", "^1.4", "npm", SUB),
        ("~=1.2.0", "^1.4", "npm", DIS),
        (">3", "3.0.0", "npm", DIS),  # PEP 440: ">3" is above 3.0.0
        (">3", "3.0.1", "npm", SUB),
        ("<3", "3.0.0-beta.1", "npm", DIS),  # a pre-release of 3 is not below 3
        ("<3", "^2.4", "npm", SUB),  # ^2.4 ends before 3.0.0-0
        ("<=3.1", "3.1.5", "npm", DIS),  # PEP 440 pads: at most 3.1.0
        ("==3.1.*", "3.1.5", "npm", SUB),
        ("1", "1.2", "cargo", SUB),
        ("1.3", "1.2", "cargo", OVER),
        (">=0.4", "0.3", "cargo", DIS),
        ("1.9.1", "v1.9.1", "go", SUB),
        ("1.9", "v1.9.1", "go", SUB),
        ("1.10", "v1.9.1", "go", DIS),
        (">=2", "v2.0.0+incompatible", "go", SUB),
        ("2", "v0.0.0-20191109021931-daa7c04131f5", "go", DIS),
        ("1.2", "v1.2.4-0.20191109021931-daa7c04131f5", "go", SUB),  # after 1.2.3, before 1.2.4
        (">=2", "^1.2", "pypi", DIS),  # Poetry's caret, through anchors.versions
    ],
)  # fmt: skip
def test_relation_compares_the_declared_set_with_the_wanted_one(
    wanted, declared, ecosystem, expected
):
    assert relation(wanted, declared, ecosystem) is expected


@pytest.mark.parametrize(
    ("declared", "ecosystem"),
    [
        ("workspace:*", "npm"),
        ("workspace:^1.2.0", "npm"),
        ("git+https://github.com/vuejs/core.git#v3.2.0", "npm"),
        ("github:facebook/react", "npm"),
        ("facebook/react#main", "npm"),
        ("file:../shared", "npm"),
        ("link:../shared", "npm"),
        ("npm:react@^18", "npm"),
        ("https://example.com/pkg.tgz", "npm"),
        ("./vendor/pkg", "npm"),
        ("next", "npm"),
        ("beta", "npm"),
        ("1.2.3,", "npm"),
        ("^1.2", "go"),
        ("v1.2", "go"),
        ("1 || 2", "cargo"),
        ("^1.2", "maven"),
    ],
)
def test_a_range_naming_no_versions_is_undecidable(declared, ecosystem):
    assert relation(">=1", declared, ecosystem) is UND


@pytest.mark.parametrize("wanted", ["===1.0", "1.0rc1", "python", "^x.y", "1.2-beta"])
def test_a_wanted_text_that_names_no_versions_cannot_be_refuted(wanted):
    assert relation(wanted, "^1.2.0", "npm") in (UND, OVER)


def test_versions_order_by_semver_precedence():
    order = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.10.0", "2.0.0"]  # fmt: skip
    keys = [parse_version(v) for v in order]
    assert all(k is not None for k in keys)
    assert keys == sorted(k for k in keys if k is not None)
    assert parse_version("v2.0.0+incompatible") == parse_version("2.0.0")
    assert parse_version("1.2") is None


# -- properties against an oracle ----------------------------------------------------------
Version = tuple[int, int, int]
GRID = list(itertools.product(range(4), repeat=3))


def _oracle(op: str, parts: tuple[int, ...], v: Version) -> bool:
    """node-semver's reading of one comparator, tested on a release version directly."""
    n = len(parts)
    pad = (*parts, 0, 0)[:3]
    if op in ("", "="):
        return v[:n] == parts
    if op == "^":
        if parts[0] > 0 or n == 1:
            fixed = 1
        elif n == 2 or parts[1] > 0:
            fixed = 2
        else:
            fixed = 3
        return v >= pad and v[:fixed] == parts[:fixed]
    if op == "~":
        return v >= pad and v[: min(n, 2)] == parts[: min(n, 2)]
    if op == ">=":
        return v >= pad
    if op == "<":
        return v < pad
    if op == ">":
        return v[:n] > parts
    if op == "<=":
        return v[:n] <= parts
    raise AssertionError(op)


_ops = st.sampled_from(["", "=", "^", "~", ">=", ">", "<", "<="])
_parts = st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple)
Comparator = tuple[str, tuple[int, ...]]
_comparators = st.tuples(_ops, _parts)
# a range: alternatives (||) of conjunctions (spaces) of comparators
_ranges = st.lists(st.lists(_comparators, min_size=1, max_size=2), min_size=1, max_size=2)
# An anchor's ">1" and "<=1.2" are PEP 440's (1.0.0 padded), not node-semver's: the wanted
# side writes them with full versions, where both readings agree.
_wanted_comparators = _comparators.map(
    lambda c: (c[0], (*c[1], 0, 0)[:3]) if c[0] in (">", "<=") else c
)
_wanted_ranges = st.lists(st.lists(_wanted_comparators, min_size=1, max_size=2), min_size=1,
                          max_size=2)  # fmt: skip


def _text(r: list[list[Comparator]]) -> str:
    return " || ".join(" ".join(op + ".".join(map(str, p)) for op, p in alt) for alt in r)


def _holds(r: list[list[Comparator]], v: Version) -> bool:
    return any(all(_oracle(op, p, v) for op, p in alt) for alt in r)


@settings(max_examples=300, deadline=None)
@given(_ranges)
def test_an_npm_range_holds_exactly_the_versions_the_oracle_accepts(r):
    text = _text(r)
    assert [contains(text, ".".join(map(str, v)), "npm") for v in GRID] == [
        _holds(r, v) for v in GRID
    ], text


@settings(max_examples=300, deadline=None)
@given(_wanted_ranges, _ranges)
def test_a_relation_never_contradicts_a_version_both_sides_are_tested_on(wanted, declared):
    w, d = _text(wanted), _text(declared)
    got = relation(w, d, "npm")
    assert got is not UND
    declared_only = [v for v in GRID if _holds(declared, v) and not _holds(wanted, v)]
    both = [v for v in GRID if _holds(declared, v) and _holds(wanted, v)]
    if declared_only:  # a version inside declared and outside wanted: not SUBSET
        assert got is not SUB, (w, d, declared_only[0])
    if both:
        assert got is not DIS, (w, d, both[0])
    if got is SUB:
        assert not declared_only
    if got is DIS:
        assert not both


@settings(max_examples=200, deadline=None)
@given(_parts)
def test_a_bare_cargo_requirement_is_the_caret_one(parts):
    text = ".".join(map(str, parts))
    assert allowed(text, "cargo") == allowed(f"^{text}", "npm")


@settings(max_examples=200, deadline=None)
@given(_ranges)
def test_a_range_is_a_subset_of_itself(r):
    text = _text(r)
    spans = allowed(text, "npm")
    assert spans is not None
    if spans:  # an empty range (">3 <1") is disjoint from everything, itself included
        assert relate(spans, spans) is SUB
