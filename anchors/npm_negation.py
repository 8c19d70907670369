"""A negation said of the JavaScript/TypeScript application, bound to its sources and its
``package.json``: "The extension doesn't use Material UI any more", "the frontend no longer
uses typestyle" (issue #32).

``anchors.clauses`` leaves a negation whose subject is one part of the project ("the
security extra no longer pulls in pyOpenSSL") unclear: the whole project may still use it.
When that part is the browser-side application (the frontend, the UI, the web client, the
extension, its components) and the negated name is an npm package (a declared npm
dependency, an import of JavaScript/TypeScript code, or a technology the vocabulary knows
by its npm packages), the negation is checked where that application lives: an absent
import anchor on its running sources for each package, and an absent dependency anchor
where its ``package.json`` declares the package for run time. A name of any other kind,
or an application whose sources cannot be told, leaves the clause as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.npm_application import application_project, application_sources, npm_names
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.tooling_dirs import js_runs

__all__ = ["DENIED_USE", "frontend_denial", "frontend_subject", "opens_denial"]

_I = re.IGNORECASE
# "The extension doesn't use", "the frontend no longer imports", "our web UI never relied
# on", "the React components stopped using": the subject is the browser-side application.
# "... doesn't use", "... no longer imports", "... never relied on": the negated verb of use
# right before the name, after a subject.
DENIED_USE = (
    r"(?:['’]s\s+[\w-]+)?\s+"
    r"(?:no\s+longer|(?:does|do|did)\s*(?:not|n[’']t)|never|stopped)\s+"
    r"(?:use[sd]?|using|imports?|importing|depends?\s+on|depending\s+on|rel(?:y|ies)\s+on|"
    r"relying\s+on|needs?|ships?|bundles?|includes?|calls?)\s+(?:on\s+)?(?:the\s+|any\s+)?$"
)
_SUBJECT = re.compile(
    r"\s*(?:the|our|this|its)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:front[\s-]?end|ui|web\s*ui|web\s+client|client|web\s*app|extension|labextension|"
    r"spa|single[\s-]page\s+app|components?|browser\s+code)" + DENIED_USE,
    _I,
)
_STRICT_BEFORE = re.compile(r"[;:]|\bbut\b|\bwhile\b|\bwhereas\b", _I)


def opens_denial(text: str, spans: Sequence[tuple[int, int, bool]], at: int,
                 subject: re.Pattern[str]) -> bool:  # fmt: skip
    """Whether the sentence of the name at ``at`` opens with ``subject`` and the negated
    verb of use, right before the name."""
    start = next((a for a, b, _ in spans if a <= at < b), None)
    if start is None:
        return False
    before = text[start:at]
    return not _STRICT_BEFORE.search(before) and subject.fullmatch(before) is not None


def frontend_subject(text: str, spans: Sequence[tuple[int, int, bool]], at: int) -> bool:
    """Whether the name at ``at`` is what its sentence says the browser-side application
    does not use."""
    return opens_denial(text, spans, at, _SUBJECT)


def frontend_denial(outcome: object, fp: Fingerprint) -> list[Anchor]:
    """The anchors that check "the frontend does not use X" for ``outcome``, the absent
    anchors the name resolves to; empty when one of them is no npm package, or the
    application's sources cannot be told."""
    sources = application_sources(fp)
    project = application_project(fp)
    if not isinstance(outcome, list) or not outcome or sources is None or project is None:
        return []
    packages: dict[str, None] = {}
    for anchor in outcome:
        if not isinstance(anchor, Anchor) or anchor.expect is not Expect.ABSENT:
            return []
        names = _npm_packages(anchor, fp)
        if not names:
            return []
        packages.update(dict.fromkeys(names))
    manifest = f"{project}/package.json" if project else "package.json"
    inside = sources + "/"
    found: list[Anchor] = []
    for name in packages:
        there = [p for p, _ in fp.importers(name) if p.startswith(inside)]
        if there and not any(js_runs(p, fp) for p in there):
            return []  # only tests there import it: "does not use" may mean the running code
        found.append(Anchor(AnchorKind.IMPORT, name, Expect.ABSENT, scope=sources))
        if any(d.source == manifest and d.runtime for d in fp.dependency(name)):
            found.append(Anchor(AnchorKind.DEP, name, Expect.ABSENT, scope=project or None))
    return found


def _npm_packages(anchor: Anchor, fp: Fingerprint) -> tuple[str, ...]:
    """The npm packages an absent anchor names: a technology's npm packages, or a name
    declared as an npm dependency or imported by JavaScript/TypeScript code."""
    if anchor.kind is AnchorKind.TECH:
        return npm_names(anchor)
    if anchor.kind not in (AnchorKind.DEP, AnchorKind.IMPORT):
        return ()
    name = anchor.value
    declared = fp.dependency(name)
    if declared and all(d.ecosystem == "npm" for d in declared):
        return (name,)
    imported = fp.importers(name)
    if imported and all(fp.code[p].language in ("javascript", "typescript") for p, _ in imported):
        return (name,)
    return ()
