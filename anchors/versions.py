"""Version specifiers as sets of versions: how an anchor's ``dep:NAME<spec>`` relates to
what a manifest declares, with PEP 440 semantics (``packaging``) and interval arithmetic.

A specifier set is turned into a union of intervals over ``packaging.version.Version``;
relations between two sets are then exact set operations on intervals, done by
``anchors.intervals`` (``Interval`` and ``Relation`` are re-exported from there). What cannot
be turned into intervals (arbitrary equality ``===``, unparsable text, Poetry ``||``) is
*undecidable*, and a caller must answer "unknown" for it, never "broken".

Approximations, each on the side of "unknown" or of the PEP 440 letter:

* ``<V`` (V final) excludes V's pre-releases, as PEP 440 says: it is ``(-inf, V.dev0)``.
* ``>V`` is ``(V, inf)``: PEP 440 also excludes V's post-releases and local versions,
  which have no finite interval form; the difference matters only for such releases.
* ``==V`` is the single point V (local labels of V are not modelled).
* The "pre-releases are excluded unless asked for" default of installers is ignored: a
  specifier denotes every version its clauses admit.
"""

from __future__ import annotations

import re

from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from anchors.intervals import Interval, Relation, complement, intersect, point, relate

__all__ = [
    "Interval",
    "Relation",
    "bound_mismatch",
    "declared_pep440",
    "intervals",
    "poetry_to_pep440",
    "relation",
]

_Set = tuple[Interval[Version], ...]
_ALL: _Set = (Interval(),)


def _prefix_range(text: str) -> tuple[Version, Version]:
    """``1.2.*`` matches ``[1.2.dev0, 1.3.dev0)``: every release starting 1.2."""
    release = Version(text).release
    if not release:
        raise InvalidVersion(text)
    upper = (*release[:-1], release[-1] + 1)
    epoch = Version(text).epoch
    prefix = f"{epoch}!" if epoch else ""
    return (
        Version(prefix + ".".join(map(str, release)) + ".dev0"),
        Version(prefix + ".".join(map(str, upper)) + ".dev0"),
    )


def _clause(spec: Specifier) -> _Set | None:
    op, text = spec.operator, spec.version
    if op == "===":
        return None
    if text.endswith(".*"):
        if op not in ("==", "!="):
            return None
        lo, hi = _prefix_range(text[:-2])
        inside = (Interval(lo, True, hi, False),)
        return inside if op == "==" else complement(inside)
    v = Version(text)
    if op == "==":
        return (point(v),)
    if op == "!=":
        return complement((point(v),))
    if op == ">=":
        return (Interval(v, True),)
    if op == ">":
        return (Interval(v, False),)
    if op == "<=":
        return (Interval(None, False, v, True),)
    if op == "<":
        final = not (v.is_prerelease or v.is_postrelease or v.local)
        bound = Version(f"{v}.dev0") if final else v
        return (Interval(None, False, bound, False),)
    if op == "~=":
        release = v.release
        if len(release) < 2:
            return None
        _, hi = _prefix_range(".".join(map(str, release[:-1])))
        if v.epoch:
            _, hi = _prefix_range(f"{v.epoch}!" + ".".join(map(str, release[:-1])))
        return (Interval(v, True, hi, False),)
    return None


def intervals(spec: str) -> _Set | None:
    """The versions ``spec`` (PEP 440 specifier set text; "" for any) allows, as normalised
    intervals; None when it cannot be parsed or modelled."""
    if not spec.strip():
        return _ALL
    try:
        parsed = SpecifierSet(spec)
    except InvalidSpecifier:
        return None
    result = _ALL
    try:
        for clause in parsed:
            allowed = _clause(clause)
            if allowed is None:
                return None
            result = intersect(result, allowed)
    except InvalidVersion:
        return None
    return result


def declared_pep440(spec: str) -> str | None:
    """A declared spec as PEP 440 text: as written when it is PEP 440, else read as a Poetry
    constraint (``^1.2``, ``~1.2``, ``1.2``, which PEP 440 never spells that way); None when
    it is neither."""
    try:
        SpecifierSet(spec)
        return spec
    except InvalidSpecifier:
        return poetry_to_pep440(spec)


def relation(anchor_spec: str, declared_spec: str) -> Relation:
    """How the versions ``declared_spec`` allows relate to those ``anchor_spec`` allows.
    ``declared_spec`` may be Poetry's syntax (see ``declared_pep440``); "" is any version."""
    anchor = intervals(anchor_spec)
    declared_text = declared_pep440(declared_spec)
    declared = None if declared_text is None else intervals(declared_text)
    if anchor is None or declared is None:
        return Relation.UNDECIDABLE
    return relate(anchor, declared)


def bound_mismatch(anchor_spec: str, declared_spec: str) -> str | None:
    """A bound the anchor states that the declaration puts elsewhere, as a phrase ("the
    lower bound is 3.7.0, not 3.6"), or None. "asgiref >= 3.6 is enough" is wrong when the
    project declares ``>=3.7.0``, although every version the declaration allows satisfies
    ``>=3.6``: a stated bound is a claim about the declared one. Compared to the precision
    the anchor writes (``>=1.21`` matches a declared ``>=1.21.1``; ``<3`` matches ``<3.0``),
    and only for bounds both sides have. A version range written as a prefix
    (``==3.11.*``: "supports Python 3.11") claims membership, not a bound: None."""
    try:
        stated_clauses = list(SpecifierSet(anchor_spec))
    except InvalidSpecifier:
        return None
    if any(c.version.endswith(".*") or c.operator in ("!=", "===") for c in stated_clauses):
        return None
    anchor = intervals(anchor_spec)
    declared_text = declared_pep440(declared_spec)
    declared = None if declared_text is None else intervals(declared_text)
    if not anchor or not declared:
        return None
    sides = (("lower", anchor[0].lo, declared[0].lo), ("upper", anchor[-1].hi, declared[-1].hi))
    for side, stated, actual in sides:
        if stated is None or actual is None:
            continue
        wanted = stated.release
        padded = (*actual.release, *(0,) * len(wanted))[: len(wanted)]
        if padded != wanted or stated.epoch != actual.epoch:
            return f"the {side} bound is {actual.base_version}, not {stated.base_version}"
    return None


_POETRY_CLAUSE = re.compile(r"^(?P<op>\^|~(?!=)|~=|==|!=|>=|<=|>|<|=)?\s*(?P<ver>[^\s,]+)$")


def poetry_to_pep440(spec: str) -> str | None:
    """A Poetry constraint (``^1.2``, ``~1.2``, ``1.2.*``, ``1.2``, ``>=1,<2``, ``*``) as
    PEP 440 specifier text ("" for any version); None when it has no such form (``||``)."""
    text = spec.strip()
    if text in ("", "*"):
        return ""
    if "||" in text or "|" in text:
        return None
    text = re.sub(r"(\^|~=?|[<>=!]=?)\s+", r"\1", text)  # "^ 1.2", ">= 1" -> "^1.2", ">=1"
    parts = [p for p in re.split(r"[,\s]+", text) if p]
    out: list[str] = []
    for part in parts:
        match = _POETRY_CLAUSE.match(part)
        if match is None:
            return None
        op, ver = match.group("op") or "", match.group("ver")
        try:
            if op == "^":
                out.extend(_caret(ver))
            elif op == "~":
                out.extend(_tilde(ver))
            elif op in ("", "="):
                out.append(f"=={ver}")
            else:
                out.append(f"{op}{ver}")
        except InvalidVersion:
            return None
    joined = ",".join(out)
    try:
        SpecifierSet(joined)
    except InvalidSpecifier:
        return None
    return joined


def _release(ver: str) -> tuple[int, ...]:
    release = Version(ver.removesuffix(".*")).release
    if not release:
        raise InvalidVersion(ver)
    return release


def _caret(ver: str) -> list[str]:
    """``^1.2.3``: >=1.2.3,<2.0.0; ``^0.2.3``: <0.3.0; ``^0.0.3``: <0.0.4; ``^0``: <1."""
    release = _release(ver)
    index = next((i for i, n in enumerate(release) if n != 0), len(release) - 1)
    upper = (*release[:index], release[index] + 1)
    return [f">={ver}", "<" + ".".join(map(str, upper))]


def _tilde(ver: str) -> list[str]:
    """``~1.2.3``: >=1.2.3,<1.3.0; ``~1.2``: <1.3; ``~1``: <2."""
    release = _release(ver)
    index = 1 if len(release) >= 2 else 0
    upper = (*release[:index], release[index] + 1)
    return [f">={ver}", "<" + ".".join(map(str, upper))]
