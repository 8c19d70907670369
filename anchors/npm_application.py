"""The JavaScript/TypeScript application a repository ships, and what its ``package.json``
files say of an npm package's role.

A ``package.json`` in a test or tooling directory (``ui-tests/``, ``e2e/``, ``cypress/``)
declares what the tests need, whatever table it uses: a package declared only there, or
only in ``devDependencies``, is a development dependency. The application's running
sources are its JavaScript/TypeScript files outside tests, test helpers and tool
configuration (``*.spec.ts``, ``__tests__/``, ``jest.config.js``), under the directory its
code lives in (``src/`` of the application's package, by convention).

Used by ``anchors.extract``: a package claimed as a run-time dependency of the application
("@playwright/test is a runtime dependency of the extension") that is declared for
development only and imported by no running source is checked as an import by the
application's sources, which breaks (``npm_run_time_import``), as ``anchors.development``
does for Python.
"""

from __future__ import annotations

from collections.abc import Iterator

from anchors.facts import Dependency, Fingerprint
from anchors.projects import projects
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.tooling_dirs import BUILT_DIRS, js_runs, test_directory
from anchors.vocabulary import by_name

__all__ = [
    "application_project",
    "application_sources",
    "for_development",
    "npm_development_only",
    "npm_names",
    "npm_peer_only",
    "npm_run_time_import",
]

_JS = frozenset({"javascript", "typescript"})
def for_development(dep: Dependency) -> bool:
    """Whether an npm declaration is for development: ``devDependencies``, or any table of a
    ``package.json`` in a test or tooling folder."""
    if dep.ecosystem != "npm":
        return not dep.runtime and not dep.optional
    return not dep.runtime or test_directory(dep.source.rpartition("/")[0])


def application_sources(fp: Fingerprint) -> str | None:
    """The directory the JavaScript/TypeScript application's running sources live in: the
    frontend's project (``anchors.projects``), else the root's ``package.json`` when no other
    is the application's (test projects and build output set aside); there, its ``src/``
    when that holds running code, else the project's directory below the root, else the
    one top-level folder of the root holding running code. None when it cannot be told."""
    found = fp.derived("npm.application", _application)
    return found[1] if found is not None else None


def application_project(fp: Fingerprint) -> str | None:
    """The directory of the application's ``package.json`` ("" for the root), when its
    running sources can be told (``application_sources``)."""
    found = fp.derived("npm.application", _application)
    return found[0] if found is not None else None


def _application(fp: Fingerprint) -> tuple[str, str] | None:
    npm = [p.directory for p in projects(fp) if p.ecosystem == "npm"]
    apps = [d for d in npm if not test_directory(d) and not set(d.split("/")) & BUILT_DIRS]
    below = [d for d in apps if d and _holds_running(fp, d + "/")]
    if len(below) == 1:
        directory = below[0]  # ``web/`` beside the backend, whatever the root declares
    elif not below and "" in apps:
        directory = ""  # a Jupyter extension's root ``package.json`` and its ``src/``
    else:
        return None
    prefix = f"{directory}/" if directory else ""
    if _holds_running(fp, f"{prefix}src/"):
        return directory, f"{prefix}src"
    if directory:
        return (directory, directory) if _holds_running(fp, prefix) else None
    tops = {path.split("/", 1)[0] for path, facts in fp.code.items()
            if facts.language in _JS and "/" in path and js_runs(path, fp)}  # fmt: skip
    return (directory, tops.pop()) if len(tops) == 1 else None


def _holds_running(fp: Fingerprint, prefix: str) -> bool:
    return any(path.startswith(prefix) and facts.language in _JS and js_runs(path, fp)
               for path, facts in fp.code.items())  # fmt: skip


def npm_names(anchor: Anchor) -> tuple[str, ...]:
    """The npm packages a ``dep:`` or ``tech:`` anchor names (a technology's own npm
    packages, from the vocabulary)."""
    if anchor.kind is AnchorKind.DEP:
        return (anchor.value,)
    tech = by_name(anchor.value) if anchor.kind is AnchorKind.TECH else None
    if tech is None:
        return ()
    return tuple(p.partition(":")[2] for p in tech.packages if p.startswith("npm:"))


def npm_development_only(outcome: list[Anchor], fp: Fingerprint) -> list[str]:
    """The npm packages of the present ``dep:``/``tech:`` anchors of ``outcome`` that every
    ``package.json`` declares for development only (``for_development``) and no running
    source imports; empty when one is declared for run time, or a package of another
    ecosystem has its name."""
    found: list[str] = []
    for name, declared in _npm_declarations(outcome, fp):
        if not declared:
            continue
        if any(d.ecosystem != "npm" or not for_development(d) for d in declared):
            return []
        if any(js_runs(path, fp) and not imp.typing for path, imp in fp.importers(name)):
            return []
        found.append(name)
    return found


def _npm_declarations(outcome: list[Anchor], fp: Fingerprint
                      ) -> Iterator[tuple[str, list[Dependency]]]:  # fmt: skip
    """Each npm name of the present ``dep:``/``tech:`` anchors of ``outcome``, with its
    declarations."""
    for anchor in outcome:
        if anchor.expect is Expect.PRESENT and anchor.kind in (AnchorKind.DEP, AnchorKind.TECH):
            for name in npm_names(anchor):
                yield name, list(fp.dependency(name))


def npm_peer_only(outcome: list[Anchor], fp: Fingerprint) -> list[str]:
    """The npm packages of the present ``dep:``/``tech:`` anchors of ``outcome`` that no
    ``package.json`` lists in its ``dependencies``: a peer dependency (perhaps also a
    development one), which the application that uses the package installs."""
    return [name for name, declared in _npm_declarations(outcome, fp)
            if declared and all(d.ecosystem == "npm" for d in declared)
            and any(d.peer for d in declared)
            and all(d.peer or not d.runtime for d in declared)]  # fmt: skip


def npm_run_time_import(outcome: list[Anchor], fp: Fingerprint) -> Anchor | None:
    """For an npm package claimed as a run-time dependency of the application that is
    declared for development only and imported by no running source
    (``npm_development_only``): an import anchor on the application's sources, which
    breaks, so the claim is refuted (the dependency anchor beside it says where it is
    declared). None when the application's sources cannot be told, or a test among them
    imports the package (the anchor would hold on the test)."""
    names = npm_development_only(outcome, fp)
    sources = application_sources(fp) if names else None
    if sources is None:
        return None
    inside = sources + "/"
    if any(path.startswith(inside) for path, _ in fp.importers(names[0])):
        return None
    return Anchor(AnchorKind.IMPORT, names[0], scope=sources)
