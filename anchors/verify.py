"""Verdicts: what the code at one fingerprint says about each anchor.

``capture`` records, when a memory is written, where each anchor was found and a hash of the
code it points at; ``check_anchor`` compares the code now with that capture, so a later read
can tell "gone" (broken) from "changed since written" (drifted). When the fingerprint cannot
answer (the file in scope failed to parse, dependencies live in a file we do not read), the
verdict is unknown: a memory is never refuted on evidence we could not read.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from anchors.facts import Fingerprint
from anchors.finding import Finding
from anchors.manifests import manifest_kind
from anchors.mentions import in_area
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.technology import find_technology

__all__ = ["AnchorCheck", "Capture", "Verdict", "capture", "check_anchor", "memory_status"]

# Files that can declare dependencies but that the fingerprint does not read.
_UNREAD_MANIFESTS = frozenset({"Pipfile", "environment.yml"})
# Read, but only their literal requirements: one that yielded none may compute them.
_LITERAL_MANIFESTS = frozenset({"setup.py", "setup.cfg"})


class Verdict(StrEnum):
    HOLDS = "holds"
    BROKEN = "broken"
    DRIFTED = "drifted"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Capture:
    """Where an anchor was found when its memory was written, and a hash of that code
    (file: blob id; symbol: body hash; None for import, env and dep anchors)."""

    found_in: tuple[str, ...]
    content_hash: str | None


@dataclass(frozen=True)
class AnchorCheck:
    """One anchor checked against one fingerprint, with a short sentence saying why."""

    anchor: Anchor
    verdict: Verdict
    found_in: tuple[str, ...]
    detail: str


def capture(anchor: Anchor, fp: Fingerprint) -> Capture:
    """Where ``anchor`` is found in ``fp`` now, for storing with a new memory."""
    finding = _find(anchor, fp, before=False)
    return Capture(finding.found_in, finding.content_hash)


def check_anchor(anchor: Anchor, captured: Capture | None, fp: Fingerprint) -> AnchorCheck:
    """The verdict on ``anchor`` at ``fp``: holds, broken, drifted (found, but the code it
    points at changed since ``captured``) or unknown (``fp`` cannot tell)."""
    # Wording only: "no longer defines" when the capture had found it.
    finding = _find(anchor, fp, before=captured is not None and bool(captured.found_in))
    if anchor.kind is AnchorKind.DEP and anchor.version and finding.found_in:
        finding = _find_version(anchor, fp)
    found = bool(finding.found_in)
    if not found and not finding.answerable:
        return AnchorCheck(anchor, Verdict.UNKNOWN, (), finding.detail)
    if not found and finding.weak and anchor.expect is Expect.PRESENT:
        return AnchorCheck(anchor, Verdict.UNKNOWN, (), finding.detail)
    if anchor.expect is Expect.ABSENT:
        verdict = Verdict.BROKEN if found else Verdict.HOLDS
        return AnchorCheck(anchor, verdict, finding.found_in, finding.detail)
    if not found:
        return AnchorCheck(anchor, Verdict.BROKEN, (), finding.detail)
    if (
        captured is not None
        and captured.content_hash is not None
        and finding.content_hash != captured.content_hash
    ):
        detail = f"{finding.detail}, but it changed since the memory was written"
        return AnchorCheck(anchor, Verdict.DRIFTED, finding.found_in, detail)
    return AnchorCheck(anchor, Verdict.HOLDS, finding.found_in, finding.detail)


def memory_status(checks: Sequence[AnchorCheck]) -> str:
    """A memory's status from its anchor checks: "REFUTED" if any is broken, "VERIFIED" if
    every one holds, else "ACTIVE" (no anchors, unknowns, or drift the caller flags)."""
    verdicts = [check.verdict for check in checks]
    if Verdict.BROKEN in verdicts:
        return "REFUTED"
    if verdicts and all(v is Verdict.HOLDS for v in verdicts):
        return "VERIFIED"
    return "ACTIVE"


# -- finding each kind ---------------------------------------------------------------------
def _find(anchor: Anchor, fp: Fingerprint, before: bool) -> Finding:
    if anchor.kind is AnchorKind.FILE:
        return _find_file(anchor.value, fp, before)
    if anchor.kind is AnchorKind.SYMBOL:
        return _find_symbol(anchor.value, anchor.scope, fp, before)
    if anchor.kind is AnchorKind.IMPORT:
        return _find_import(anchor.value, anchor.scope, fp, before)
    if anchor.kind is AnchorKind.ENV:
        paths = tuple(fp.env_sources(anchor.value))
        if paths:
            return Finding(paths, None, f"{anchor.value} is read or declared in {_list(paths)}")
        return Finding((), None, f"no code reads {anchor.value} and no .env.example declares it")
    if anchor.kind is AnchorKind.TECH:
        return find_technology(anchor.value, anchor.scope, fp)
    return _find_dep(anchor.value, fp)


def _find_file(path: str, fp: Fingerprint, before: bool) -> Finding:
    if fp.has_path(path):
        return Finding((path,), fp.blobs[path], f"{path} is tracked")
    if fp.has_directory(path):
        return Finding((path,), None, f"{path}/ is a tracked directory")
    return Finding((), None, f"{path} is {_no(before)} in the repository")


def _find_symbol(qualname: str, scope: str | None, fp: Fingerprint, before: bool) -> Finding:
    if scope is not None:
        definition = fp.definition(scope, qualname)
        if definition is not None:
            return Finding((scope,), definition.body_hash, f"{scope} defines {qualname}")
        facts = fp.python.get(scope)
        if facts is not None and not facts.parsed:
            return Finding((), None, f"{scope} has syntax errors; cannot tell", False)
        if scope not in fp.blobs:
            return Finding((), None, f"{scope} is not in the repository")
        if facts is None:
            return Finding((), None, f"{scope} is not a Python file; cannot tell", False)
        verb = "no longer defines" if before else "does not define"
        return Finding((), None, f"{scope} {verb} {qualname}")
    found = fp.definitions(qualname)
    if not found:
        return Finding((), None, f"no file defines {qualname}{' any more' if before else ''}")
    paths = tuple(path for path, _ in found)
    if len(found) == 1:
        body = found[0][1].body_hash
    else:  # several definitions: any of them changing is drift
        joined = ",".join(f"{path}:{d.body_hash}" for path, d in found)
        body = hashlib.blake2b(joined.encode(), digest_size=8).hexdigest()
    return Finding(paths, body, f"{_list(paths)} defines {qualname}")


def _find_import(module: str, scope: str | None, fp: Fingerprint, before: bool) -> Finding:
    importers = fp.importers(module)
    everywhere = sorted({path for path, _ in importers})
    if scope is None:
        project = [p for p in everywhere if in_area(p, None)]
        if project:
            return Finding(tuple(project), None, f"imported by {_list(project)}")
        if everywhere:
            detail = f"{module} is imported only in {_list(everywhere)}, outside the main project"
            return Finding((), None, detail, weak=True)
        return Finding((), None, f"no file imports {module}{' any more' if before else ''}")
    path, _, within = scope.partition("::")
    where = f"{within} in {path}" if within else path
    if fp.has_path(path):
        if path not in fp.python:
            return Finding((), None, f"{path} is not a Python file; cannot tell", False)
        files = [path]
        # Inside a definition includes definitions nested in it (methods of a class).
        found = [
            p
            for p, imp in importers
            if p == path and (not within or f"{imp.within}.".startswith(f"{within}."))
        ]
    elif fp.has_directory(path):
        prefix = path.rstrip("/") + "/"
        files = [p for p in fp.python if p.startswith(prefix)]
        found = [p for p, _ in importers if p.startswith(prefix)]
    else:
        return Finding((), None, f"{path} is not in the repository")
    if found:
        paths = tuple(sorted(set(found)))
        detail = f"imported by {_list(paths)}" + (f" in {within}" if within else "")
        return Finding(paths, None, detail)
    if any(not fp.python[p].parsed for p in files):
        return Finding((), None, f"{where} has syntax errors; cannot tell", False)
    if within and fp.definition(path, within) is None:
        return Finding((), None, f"{path} does not define {within}")
    elsewhere = f" (imported by {_list(everywhere)})" if everywhere else ""
    return Finding((), None, f"{module} is {_no(before)} imported in {where}{elsewhere}")


def _find_dep(name: str, fp: Fingerprint) -> Finding:
    everywhere = sorted({dep.source for dep in fp.dependency(name)})
    sources = tuple(p for p in everywhere if in_area(p, None))
    if sources:
        return Finding(sources, None, f"{name} is declared in {_list(sources)}")
    if everywhere:
        detail = f"{name} is declared only in {_list(everywhere)}, outside the main project"
        return Finding((), None, detail, weak=True)
    declaring = {dep.source for dep in fp.dependencies}
    unread = sorted(
        p for p in fp.blobs if in_area(p, None) and (
            p.rpartition("/")[2] in _UNREAD_MANIFESTS
            or (p.rpartition("/")[2] in _LITERAL_MANIFESTS and p not in declaring))
    )  # fmt: skip
    if unread:
        detail = f"{name} is not in the manifests read; {_list(unread)} may declare it"
        return Finding((), None, detail, False)
    if not any(manifest_kind(p) for p in fp.blobs):
        detail = "the repository has no pyproject.toml or requirements file"
        return Finding((), None, detail, False)
    return Finding((), None, f"{name} is not a declared dependency")


def _find_version(anchor: Anchor, fp: Fingerprint) -> Finding:
    """Simple on purpose: a spec matches when its clauses are the same as the anchor's,
    whitespace and order aside (the runtime has no ``packaging`` to reason about ranges)."""
    wanted = _clauses(anchor.version or "")
    declared = [d for d in fp.dependency(anchor.value) if in_area(d.source, None)]
    matching = tuple(sorted({d.source for d in declared if _clauses(d.spec) == wanted}))
    if matching:
        detail = f"{anchor.value}{anchor.version} is declared in {_list(matching)}"
        return Finding(matching, None, detail)
    specs = "; ".join(f"{d.name}{d.spec or ' (any version)'} in {d.source}" for d in declared)
    return Finding((), None, f"declared as {specs}, not {anchor.value}{anchor.version}")


def _no(before: bool) -> str:
    return "no longer" if before else "not"


def _clauses(spec: str) -> frozenset[str]:
    return frozenset(c for c in re.sub(r"\s+", "", spec).split(",") if c)


def _list(paths: Sequence[str], limit: int = 3) -> str:
    shown = ", ".join(paths[:limit])
    return shown if len(paths) <= limit else f"{shown} and {len(paths) - limit} more"
