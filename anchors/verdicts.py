"""Verdicts: what the code says about one anchor, and about a memory from its anchors.

The types a stored memory carries and the rule that combines its anchors' verdicts, apart
from the checking itself (``anchors.verify``), so that reading verdicts already cached
needs none of the checkers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from anchors.spec import Anchor, AnchorKind

__all__ = [
    "AnchorCheck",
    "Capture",
    "MemoryVerdict",
    "Verdict",
    "memory_verdict",
    "rejudge_drift",
]


class Verdict(StrEnum):
    """What the code says about one anchor."""

    HOLDS = "holds"
    BROKEN = "broken"
    DRIFTED = "drifted"
    UNKNOWN = "unknown"


class MemoryVerdict(StrEnum):
    """What the code says about a memory as a whole, from its anchors' verdicts."""

    VERIFIED = "VERIFIED"  # every anchor holds
    REFUTED = "REFUTED"  # an anchor is broken
    UNDECIDED = "ACTIVE"  # no anchors, unknowns or drift: not contradicted, not established


@dataclass(frozen=True)
class Capture:
    """Where an anchor was found when its memory was written, and a hash of that code
    (file: blob id; symbol: body hash; dep: what it is declared for, run time or
    development; None for import and env anchors)."""

    found_in: tuple[str, ...]
    content_hash: str | None


@dataclass(frozen=True)
class AnchorCheck:
    """One anchor checked against one fingerprint, with a short sentence saying why."""

    anchor: Anchor
    verdict: Verdict
    found_in: tuple[str, ...]
    detail: str


def memory_verdict(checks: Sequence[AnchorCheck]) -> MemoryVerdict:
    """REFUTED if any anchor is broken, VERIFIED if every one holds (drift re-judged at
    HEAD: ``rejudge_drift``), else UNDECIDED (no anchors, unknowns, or drift the caller
    flags)."""
    verdicts = [check.verdict for check in rejudge_drift(checks)]
    if Verdict.BROKEN in verdicts:
        return MemoryVerdict.REFUTED
    if verdicts and all(v is Verdict.HOLDS for v in verdicts):
        return MemoryVerdict.VERIFIED
    return MemoryVerdict.UNDECIDED


def rejudge_drift(checks: Sequence[AnchorCheck]) -> tuple[AnchorCheck, ...]:
    """``checks`` with each drifted definition re-judged at HEAD where the memory says what
    it says of that definition through anchors checked against the code now: an HTTP
    status it sets (``status:PATH::f=404``), a parameter
    of it or of a method of it (``param:PATH::f(now)`` beside ``symbol:PATH::f``; unscoped,
    where found in that file), a keyword argument of a call
    in its file, or a value it assigns (``symbol:PATH::C.LIMIT=50`` beside
    ``symbol:PATH::C``). When every such anchor holds, the drifted one stands only for the
    existence of the thing the claim is about, which holds; when one is broken, the memory
    is refuted by it anyway. Drift with nothing re-checked stays drifted."""
    out = []
    for check in checks:
        if check.verdict is Verdict.DRIFTED:
            parts = [c for c in checks if _says_of(c, check.anchor)]
            if parts and all(c.verdict is Verdict.HOLDS for c in parts):
                said = ", ".join(c.anchor.render() for c in parts[:3])
                detail = f"{check.detail}; re-judged at HEAD: {said} holds"
                check = AnchorCheck(check.anchor, Verdict.HOLDS, check.found_in, detail)
        out.append(check)
    return tuple(out)


def _says_of(check: AnchorCheck, drifted: Anchor) -> bool:
    """Whether ``check`` is of something said of the definition ``drifted`` names."""
    part = check.anchor
    if drifted.kind is not AnchorKind.SYMBOL or drifted.stated is not None:
        return False
    here = part.scope == drifted.scope or (
        part.scope is None and drifted.scope is not None and check.found_in == (drifted.scope,)
    )
    if part.kind is AnchorKind.PARAM:  # of the function, or of a method of the class
        function = part.argument[0]
        return here and (function == drifted.value or function.startswith(f"{drifted.value}."))
    if part.kind is AnchorKind.CALL:  # a call in the definition's file
        return drifted.scope is not None and here
    if part.kind is AnchorKind.STATUS:  # a status the function sets, read at HEAD
        return here and part.value == drifted.value
    if part.kind is AnchorKind.MESSAGE:  # a message said in the definition's file
        return drifted.scope is not None and part.scope == drifted.scope
    if part.kind is AnchorKind.SYMBOL and part.stated is not None:
        return part.scope == drifted.scope and part.value.startswith(f"{drifted.value}.")
    return False
