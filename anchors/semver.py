"""Version ranges of npm, Cargo and Go as sets of versions: how the version an anchor
states (``dep:react>=18``, "uses tokio 1") relates to what a ``package.json``, a
``Cargo.toml`` or a ``go.mod`` declares, with the set semantics of ``anchors.versions``.

A range becomes a union of intervals over semantic versions (major, minor, patch,
pre-release; build metadata such as Go's ``+incompatible`` is ignored, as SemVer says);
two ranges are then related by exact set operations (``anchors.intervals``). A range that
names no versions (a dist-tag, a URL, ``git+``, ``file:``, ``workspace:``, an ``npm:``
alias) is UNDECIDABLE: a caller must answer "unknown" for it, never "broken".

Dialects (``ecosystem``):

* ``"npm"`` (node-semver): ``^`` ``~`` x-ranges (``1.x``, ``1.2.*``, ``1``), hyphen
  ranges (``1.2 - 2``), comparators separated by spaces (AND) and ``||`` (OR); ``*``,
  ``x``, ``latest`` and "" are any version; a full bare version is exactly that version.
* ``"cargo"``: a bare requirement is a caret one (``1.2`` is ``^1.2``; a wildcard
  ``1.2.*`` is every 1.2); ``=`` ``~`` ``^`` comparators separated by commas; ``*`` is any
  version.
* ``"go"``: a ``require`` names one version (``v1.9.1``, a pseudo-version
  ``v0.0.0-20191109021931-daa7c04131f5``, ``v2.0.0+incompatible``): exactly that one.
  Minimal version selection may build with a higher one; the claim checked is what
  ``go.mod`` says.
* ``"pypi"``: ``anchors.versions.relation``.

The anchor's side (``wanted``) is read PEP 440-style (``>=3``, ``==3.4.1``, ``==3.*``,
``~=1.2``, ``!=2.0``: partial versions zero-padded, as PEP 440 pads them) or npm-style
(``^3``, ``~1.2``, ``3.x``, a bare ``3``: the series). As in ``anchors.versions``, the
"pre-releases are excluded unless asked for" default of installers is ignored: a range
denotes every version its comparators admit; ``<2.0.0`` and ``^1`` end before the first
pre-release of 2.0.0 (``2.0.0-0``), as node-semver writes them.
"""

from __future__ import annotations

import re

from anchors import intervals
from anchors.intervals import Interval, Relation, complement, intersect, normalise, point
from anchors.versions import relation as pep440_relation

__all__ = ["Span", "allowed", "contains", "parse_version", "relate", "relation"]

# (major, minor, patch, 1 for a release / 0 for a pre-release, pre-release identifiers):
# tuple order is SemVer precedence, identifiers being (0, number) or (1, text).
Key = tuple[int, int, int, int, tuple[tuple[int, int | str], ...]]


# An interval of keys (``anchors.intervals``); a set of versions is a normalised tuple of them.
Span = Interval[Key]
Spans = tuple[Span, ...]
_ANY: Spans = (Interval(),)
_VERSION = re.compile(
    r"^v?(?P<major>\d+|[xX*])(?:\.(?P<minor>\d+|[xX*]))?(?:\.(?P<patch>\d+|[xX*]))?"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$"
)
# Partial versions: the parts given (None: a wildcard or left out), and the pre-release.
Partial = tuple[int | None, int | None, int | None, tuple[tuple[int, int | str], ...]]


def _pre(text: str | None) -> tuple[tuple[int, int | str], ...] | None:
    if not text:
        return ()
    parts = text.split(".")
    if any(not p for p in parts):
        return None
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts)


def _partial(text: str) -> Partial | None:
    m = _VERSION.match(text.strip())
    if m is None:
        return None
    numbers: list[int | None] = []
    for name in ("major", "minor", "patch"):
        part = m[name]
        if part is None or part in "xX*" or (numbers and numbers[-1] is None):
            numbers.append(None)  # "1.x.3" is "1.x": nothing after a wildcard counts
        else:
            numbers.append(int(part))
    pre = _pre(m["pre"])
    if pre is None or (pre and numbers[2] is None):
        return None  # a pre-release of a partial version ("1.2-beta") names nothing
    return numbers[0], numbers[1], numbers[2], pre


def parse_version(text: str) -> Key | None:
    """A full version (``1.2.3``, ``v1.2.3-beta.1``, ``v2.0.0+incompatible``) as a key."""
    p = _partial(text)
    if p is None or p[2] is None:
        return None
    assert p[0] is not None and p[1] is not None
    return (p[0], p[1], p[2], 0 if p[3] else 1, p[3])


def _release(major: int, minor: int, patch: int) -> Key:
    return (major, minor, patch, 1, ())


def _first(major: int, minor: int, patch: int) -> Key:
    """The lowest version of ``major.minor.patch``: its pre-release ``-0``."""
    return (major, minor, patch, 0, ((0, 0),))


def _key(p: Partial) -> Key:
    """The lowest version a partial names (``1.2`` -> 1.2.0; a pre-release as written)."""
    major, minor, patch, pre = p
    return (major or 0, minor or 0, patch or 0, 0 if pre else 1, pre)


def _next(p: Partial) -> Key | None:
    """The first version after every one the partial names: ``1.2`` -> 1.3.0-0; None for
    ``*``; a full version has no such bound (None)."""
    major, minor, patch, _ = p
    if major is None or patch is not None:
        return None
    if minor is None:
        return _first(major + 1, 0, 0)
    return _first(major, minor + 1, 0)


def _exact_or_series(p: Partial) -> Spans:
    """``1.2.3`` is that version; ``1.2`` / ``1.2.x`` every 1.2; ``*`` every version."""
    if p[0] is None:
        return _ANY
    if p[2] is not None:
        k = _key(p)
        return (point(k),)
    return (Interval(_key(p), True, _next(p), False),)


def _caret(p: Partial) -> Spans:
    """``^1.2.3`` <2.0.0-0; ``^0.2.3`` <0.3.0-0; ``^0.0.3`` <0.0.4-0; ``^0.0`` <0.1.0-0;
    ``^0`` <1.0.0-0 (node-semver and Cargo agree)."""
    major, minor, patch, _ = p
    if major is None:
        return _ANY
    if major > 0 or minor is None:
        hi = _first(major + 1, 0, 0)
    elif minor > 0 or patch is None:
        hi = _first(0, minor + 1, 0)
    else:
        hi = _first(0, 0, patch + 1)
    return (Interval(_key(p), True, hi, False),)


def _tilde(p: Partial) -> Spans:
    """``~1.2.3`` and ``~1.2``: <1.3.0-0; ``~1``: <2.0.0-0."""
    major, minor, _, _ = p
    if major is None:
        return _ANY
    hi = _first(major + 1, 0, 0) if minor is None else _first(major, minor + 1, 0)
    return (Interval(_key(p), True, hi, False),)


def _compatible(p: Partial) -> Spans | None:
    """PEP 440 ``~=1.2``: >=1.2, <2; ``~=1.2.3``: >=1.2.3, <1.3."""
    major, minor, patch, _ = p
    if major is None or minor is None:
        return None
    hi = _first(major + 1, 0, 0) if patch is None else _first(major, minor + 1, 0)
    return (Interval(_key(p), True, hi, False),)


def _comparator(op: str, p: Partial, *, padded: bool) -> Spans:
    """``<`` ``<=`` ``>`` ``>=`` with a partial version: node-semver and Cargo read
    ``>1.2`` as >=1.3.0 and ``<=1.2`` as <1.3.0-0; PEP 440 (``padded``) reads 1.2 as
    1.2.0. ``<V`` ends before V's first pre-release unless V is one."""
    if p[0] is None:
        return _ANY if op in (">=", "<=") else ()  # ">*" and "<*" allow nothing
    full = padded or p[2] is not None
    low, after = _key(p), _next(p)
    if op == ">=":
        return (Interval(low, True),)
    if op == "<=":
        return (Interval(None, False, low, True),) if full or after is None else (
            Interval(None, False, after, False),)  # fmt: skip
    if op == ">":
        return (Interval(low, False),) if full or after is None else (Interval(after, True),)
    bound = _first(*low[:3]) if not p[3] else low  # "<"
    return (Interval(None, False, bound, False),)


_OP = re.compile(r"^(?P<op>\^|~>|~=|~|==|=|!=|>=|<=|>|<)?\s*(?P<v>\S+)$")


def _clause(text: str, dialect: str) -> Spans | None:
    m = _OP.match(text.strip())
    if m is None:
        return None
    p = _partial(m["v"])
    if p is None:
        return None
    op = m["op"] or ""
    wanted = dialect == "wanted"
    if op in ("==", "!=", "~=") and not wanted:
        return None  # not npm's, Cargo's or Go's syntax
    if dialect == "go" and (op or p[2] is None):
        return None  # go.mod names full versions only
    if op == "^":
        return _caret(p)
    if op in ("~", "~>"):
        return _tilde(p)
    if op == "~=":
        return _compatible(p)
    if op in (">=", "<=", ">", "<"):
        return _comparator(op, p, padded=wanted)
    if op in ("==", "!="):
        if wanted and m["v"].endswith((".*", ".x", ".X")):
            spans = _exact_or_series(p)
        else:  # PEP 440: "==3" is 3.0.0
            k = _key(p)
            spans = (point(k),) if p[0] is not None else _ANY
        return spans if op == "==" else complement(spans)
    if op == "" and dialect == "cargo" and not re.search(r"[xX*]", m["v"]):
        return _caret(p)  # "1.2" is "^1.2"; "1.2.*" is every 1.2
    return _exact_or_series(p)  # "=1.2", "1.2", "1.2.3"


_UNDECIDABLE_PREFIX = re.compile(
    r"^(?:[a-z][a-z0-9+.-]*:|git@|\.{0,2}/|~/|[\w.-]+/[\w.-]+(?:#.*)?$)", re.IGNORECASE
)


def allowed(spec: str, dialect: str) -> Spans | None:
    """The versions ``spec`` allows in ``dialect`` ("npm", "cargo", "go", or "wanted": an
    anchor's PEP 440- or npm-style text), as normalised spans; None when it names no set
    of versions (a tag, a URL, a path, ``workspace:``) or cannot be read."""
    text = spec.strip()
    if text in ("", "*", "x", "X") or (dialect == "npm" and text == "latest"):
        return _ANY
    if _UNDECIDABLE_PREFIX.match(text):
        return None
    result: list[Span] = []
    for alternative in text.split("||") if dialect in ("npm", "wanted") else [text]:
        spans = _conjunction(alternative.strip(), dialect)
        if spans is None:
            return None
        result.extend(spans)
    return normalise(result)


_SPACES = re.compile(r"\s+")
_HYPHEN = re.compile(r"^(?P<lo>\S+)\s+-\s+(?P<hi>\S+)$")


def _conjunction(text: str, dialect: str) -> Spans | None:
    if not text:
        return _ANY if dialect == "npm" else None
    hyphen = _HYPHEN.match(text)
    if hyphen and dialect in ("npm", "wanted"):
        lo, hi = _partial(hyphen["lo"]), _partial(hyphen["hi"])
        if lo is None or hi is None:
            return None
        top = _next(hi)
        upper = Interval(None, False, top, False) if top is not None else Interval(
            None, False, _key(hi), True) if hi[0] is not None else Interval()  # fmt: skip
        return intersect(_comparator(">=", lo, padded=False), (upper,))
    # ">= 1.2" is one comparator; Cargo and PEP 440 separate them with commas
    text = re.sub(r"(\^|~>|~=|~|==|=|!=|>=|<=|>|<)\s+", r"\1", text)
    parts = [p for p in re.split(r"[,\s]+" if dialect != "npm" else r"\s+", text) if p]
    if dialect == "npm" and any("," in p for p in parts):
        return None
    if dialect == "go" and len(parts) != 1:
        return None
    result: Spans = _ANY
    for part in parts:
        spans = _clause(part, dialect)
        if spans is None:
            return None
        result = intersect(result, spans)
    return result


def contains(spec: str, version: str, ecosystem: str) -> bool | None:
    """Whether ``spec`` (in ``ecosystem``'s dialect, or "wanted") allows ``version``;
    None when either cannot be read."""
    spans, key = allowed(spec, ecosystem), parse_version(version)
    if spans is None or key is None:
        return None
    return intervals.contains(spans, key)


def relate(wanted: Spans, declared: Spans) -> Relation:
    """SUBSET when every declared version is a wanted one; DISJOINT when none is."""
    return intervals.relate(wanted, declared)


def relation(wanted: str, declared: str, ecosystem: str) -> Relation:
    """How the versions a manifest of ``ecosystem`` declares (``declared``) relate to those
    an anchor states (``wanted``). UNDECIDABLE when either names no set of versions."""
    if ecosystem == "pypi":
        return pep440_relation(wanted, declared)
    if ecosystem not in ("npm", "cargo", "go"):
        return Relation.UNDECIDABLE
    if declared.strip() and _SPACES.sub("", wanted) == _SPACES.sub("", declared):
        # the requirement quoted as the manifest writes it ("needs log 0.4.21" of Cargo's
        # ``0.4.21``): the same set in the manifest's own dialect, whatever the anchor's
        # dialect reads the text as; a later ``0.4.30`` is another text, and read as the
        # anchor's exact version it excludes the old one
        return Relation.SUBSET
    w, d = allowed(wanted, "wanted"), allowed(declared, ecosystem)
    if w is None or d is None:
        return Relation.UNDECIDABLE
    return relate(w, d)
