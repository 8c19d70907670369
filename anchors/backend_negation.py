"""A negation said of the server side, bound to the Python code that runs: "The backend
doesn't use GitPython; it shells out to git", "the server no longer imports requests".

``anchors.clauses`` leaves a negation whose subject is one part of the project unclear
(the whole project may still use the name). When that part is the backend (the server,
the API, the Python code) and the negated name is a Python package (a technology the
vocabulary knows by its PyPI distributions or modules, a PyPI declaration, or a module
only Python code imports), the negation is checked as the frontend's is
(``anchors.npm_negation``): an absent import anchor for its module, and an absent
dependency anchor where a manifest declares it for run time. A module that only tests
import leaves the clause as it was: "does not use" may mean the code that runs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.languages import language_of
from anchors.mentions import runs
from anchors.npm_negation import DENIED_USE, opens_denial
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.vocabulary import by_name

__all__ = ["backend_denial", "backend_subject"]

# "The backend doesn't use", "our server no longer imports", "the Python code never
# relied on", "the API stopped using": the subject is the server side.
_SUBJECT = re.compile(
    r"\s*(?:the|our|this|its)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:back[\s-]?end|server(?:[\s-]side(?:\s+code)?)?|api(?:\s+server)?|python\s+(?:code|side|"
    r"package|backend))" + DENIED_USE,
    re.IGNORECASE,
)


def backend_subject(text: str, spans: Sequence[tuple[int, int, bool]], at: int) -> bool:
    """Whether the name at ``at`` is what its sentence says the server side does not use."""
    return opens_denial(text, spans, at, _SUBJECT)


def _python_package(anchor: Anchor, fp: Fingerprint) -> tuple[str, tuple[str, ...]] | None:
    """(module, distributions) of the Python package an absent anchor names; None for a
    name of another ecosystem or none."""
    if anchor.kind not in (AnchorKind.TECH, AnchorKind.DEP, AnchorKind.IMPORT):
        return None
    name = anchor.value
    tech = by_name(name)
    if tech is not None and tech.imports and (tech.dists or anchor.kind is AnchorKind.TECH):
        return tech.imports[0], tech.dists
    if anchor.kind is AnchorKind.TECH:
        return None
    declared = fp.dependency(name)
    imported = fp.importers(name.replace("-", "_"))
    if declared and all(d.ecosystem == "pypi" for d in declared):
        return name.replace("-", "_"), (name,)
    if imported and all(language_of(p) == "python" for p, _ in imported):
        return name, (name,)
    return None


def backend_denial(outcome: object, fp: Fingerprint) -> list[Anchor]:
    """The anchors that check "the backend does not use X" for ``outcome``, the absent
    anchors the name resolves to; empty when one of them is no Python package, or only
    tests import it."""
    if not isinstance(outcome, list) or not outcome:
        return []
    found: list[Anchor] = []
    for anchor in outcome:
        if not isinstance(anchor, Anchor) or anchor.expect is not Expect.ABSENT:
            return []
        package = _python_package(anchor, fp)
        if package is None:
            return []
        module, dists = package
        importers = [p for p, _ in fp.importers(module) if language_of(p) == "python"]
        if importers and not any(runs(p) for p in importers):
            return []  # only tests import it: "does not use" may mean the running code
        found.append(Anchor(AnchorKind.IMPORT, module, Expect.ABSENT))
        for dist in dists:
            if any(d.ecosystem == "pypi" and d.runtime and not d.optional
                   for d in fp.dependency(dist)):  # fmt: skip
                found.append(Anchor(AnchorKind.DEP, dist, Expect.ABSENT))
    return list(dict.fromkeys(found))
