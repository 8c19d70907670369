"""Evidence that a technology is used for development only, and the claims it answers.

A package declared only for development (``devDependencies``, ``requirements-dev.txt``, a
``tox.ini`` test environment) or named only in such a manifest is used to test, lint or
build the project, not by the code as it runs. Such evidence answers a sentence about
development ("tests run with pytest", "CI lints with ruff", "typescript is a
devDependency") and a tool configured by its own files (pytest, black, eslint); it leaves
any other claim of use uncovered: "wger keeps its data in MongoDB through pymongo" is not
made true by ``pymongo`` in ``requirements_dev.txt``, nor "isso is a Flask application" by a
``tox.ini`` list. Where no code that runs imports such a library, the claim is checked as
an import by the application's package, which breaks (``run_time_import``, adr/0037).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from anchors.facts import Dependency, Fingerprint
from anchors.manifests import manifest_kind
from anchors.mentions import config_tokens, in_area, runs, tool_area
from anchors.npm_application import for_development
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.technology import find_technology
from anchors.vocabulary import Technology, by_name

__all__ = [
    "RUNTIME_AFTER",
    "about_development",
    "application_package",
    "claims_run_time",
    "development_only",
    "development_role_unchecked",
    "optional_only",
    "role_unchecked",
    "run_time_import",
    "tool_like",
]

# "vitest is a runtime dependency": the run-time claim stated after the name.
RUNTIME_AFTER = re.compile(
    r"\s+(?:is|as)\s+(?:a\s+|an\s+)?(?:run-?\s?time|production|prod)\s+"
    r"(?:dependency|requirement|dep)\b"
    # "X sits in the extension's runtime dependencies"
    r"|\s+(?:sits?|is|are|lives?|belongs?)\s+(?:in|among)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?"
    r"(?:run-?\s?time|production|prod)\s+(?:dependencies|requirements|deps)\b",
    re.IGNORECASE,
)
# What a sentence about development speaks of: tests, linting, formatting, types, docs,
# the build, CI, a development declaration.
_DEVELOPMENT = re.compile(
    r"\b(?:tests?|testing|test\s*suite|unit\s*tests?|fixtures?|mocks?|mocking|coverage|lint\w*"
    r"|format\w*|type[\s-]?check\w*|typing|static\s+analysis|docs|documentation|build\w*|built"
    r"|ci|continuous\s+integration|pre-commit|dev|development|devdependenc\w*"
    r"|dev[\s-]?dependenc\w*|dev[\s-]?requirements?|benchmark\w*|packaging|release\w*"
    r"|tox|nox|bundl\w*|compil\w*|transpil\w*)\b",
    re.IGNORECASE,
)


def about_development(sentence: str) -> bool:
    """Whether ``sentence`` speaks of developing the project rather than of what it does."""
    return _DEVELOPMENT.search(sentence) is not None


def tool_like(outcome: list[Anchor]) -> bool:
    """Whether a technology anchor names a tool configured by its own files or settings
    (``pytest.ini``, ``[tool.black]``, ``.eslintrc``): such a tool is used where it is
    configured, so development-only evidence is its whole use."""
    for anchor in outcome:
        tech = by_name(anchor.value) if anchor.kind is AnchorKind.TECH else None
        if tech is not None and (tech.footprints or _configured_by_word(tech)):
            return True
    return False


def development_only(
    outcome: list[Anchor], fp: Fingerprint, scope: str | None, runtime: bool = False
) -> bool:
    """Whether the evidence for the present ``dep:``/``tech:`` anchors of ``outcome`` is
    development-only: every declaration of a dependency is for development, and, for a
    technology, every file that answers for it is such a declaration (an import in code, a
    compose file naming it, an extra the application runs with: a use). ``runtime``: the
    note says "a runtime dependency", which an import by a test, an example or a tool does
    not answer either. In a tests directory or a sub-project, what is used is used for
    development anyway: never."""
    if scope is not None and tool_area(scope):
        return False
    for anchor in outcome:
        if anchor.expect is not Expect.PRESENT:
            continue
        if anchor.kind is AnchorKind.DEP:
            declared = [d for d in fp.dependency(anchor.value) if in_area(d.source, anchor.scope)]
            if declared and all(_for_development(d) for d in declared):
                return True
        elif anchor.kind is AnchorKind.TECH and (tech := by_name(anchor.value)) is not None:
            # "vitest is a runtime dependency of the frontend": its npm, Go or crate names
            names = (tech.name, *tech.dists, *(p.partition(":")[2] for p in tech.packages))
            declared = [d for name in dict.fromkeys(names) for d in fp.dependency(name)]
            sources = find_technology(anchor.value, anchor.scope, fp).found_in
            modules = {*tech.imports, *(n.replace("-", "_") for n in names)}
            if sources and all(_declares_for_development(p, declared, fp) or (runtime and (
                    _development_code(p) or _imported_for_tests(p, modules, fp)))
                    for p in sources):  # fmt: skip
                return True
    return False


def _for_development(dep: Dependency) -> bool:
    return for_development(dep)  # an npm package in a test project's manifest is one too


# Tests and benchmarks by the names Go, JavaScript and Cargo give them.
_NOT_RUN = re.compile(r"(?:^|/)(?:benches|benchmarks?)/|_test\.go$|\.(?:test|spec)\.[cm]?[jt]sx?$")


def _development_code(path: str) -> bool:
    """Source code the application does not run: a test, a benchmark, an example, a
    tool's script."""
    from anchors.languages import dialect_of

    return dialect_of(path) is not None and (not runs(path) or _NOT_RUN.search(path) is not None)


def _imported_for_tests(path: str, modules: set[str], fp: Fingerprint) -> bool:
    """Whether ``path`` imports any of ``modules`` only where the code never runs it: a
    Rust ``#[cfg(test)]`` module, Python's ``if TYPE_CHECKING:``."""
    facts = fp.code.get(path)
    found = [i for i in facts.imports if re.split(r"::|[./]", i.module, maxsplit=1)[0] in modules
             ] if facts is not None else []  # fmt: skip
    return bool(found) and all(i.typing for i in found)


def _declares_for_development(path: str, declared: list[Dependency], fp: Fingerprint) -> bool:
    """Whether ``path`` answers for a technology only as a development declaration: it
    declares the technology for development, or it is a manifest declaring nothing else."""
    here = [d for d in declared if d.source == path]
    if here:
        return all(_for_development(d) for d in here)
    if manifest_kind(path) is None:
        return False
    everything = [d for d in fp.dependencies if d.source == path]
    return bool(everything) and all(_for_development(d) for d in everything)


def _configured_by_word(tech: Technology) -> bool:
    """A package named by an ordinary word that configuration files use for it (``black``
    in ``[tool.black]``, a pre-commit hook's id)."""
    return tech.name in tech.common_aliases and tech.name in config_tokens()


# The role a sentence gives a declaration: for development, or for run time.
_DEV_ROLE = re.compile(
    r"\b(?:dev(?:elopment)?[\s-]?dependenc(?:y|ies)|devDependenc(?:y|ies)|dev[\s-]?deps?|"
    r"test\s+extra|dev\s+extra)\b",
    re.IGNORECASE,
)
_RUN_TIME_ROLE = re.compile(
    r"\b(?:run-?\s?time|production|prod)\s+`?(?:dependenc(?:y|ies)|deps?)\b", re.IGNORECASE
)


# "a core runtime dependency", "a required dependency", "not optional"
_REQUIRED_ROLE = re.compile(
    r"\b(?:core|required|mandatory|hard|non-optional)\s+(?:run-?\s?time\s+|install\s+)?"
    r"(?:dependenc(?:y|ies)|deps?|requirements?)\b|\bnot\s+(?:an?\s+)?optional\b"
    r"|\balways\s+(?:compiled\s+in|built\s+in|linked|included|pulled\s+in)\b",
    re.IGNORECASE,
)


def optional_only(sentence: str, outcome: list[Anchor], fp: Fingerprint) -> str | None:
    """Whether ``sentence`` says a package is a required dependency ("gevent is a core
    runtime dependency") while no declaration of a present ``dep:``/``tech:`` anchor of
    ``outcome`` is one: each is an optional one (an extra, Cargo's ``optional = true``) or
    for development, and one at least optional; or none is declared at all. The reason,
    as the unchecked part says it, or None."""
    if _REQUIRED_ROLE.search(sentence) is None:
        return None
    for declared in _declarations(outcome, fp):
        if any(d.runtime and not d.optional for d in declared):
            continue
        if any(d.optional for d in declared):
            return "an optional dependency"
        if not declared:  # declared nowhere read (``extras_require`` a function builds)
            return "declared as no required dependency the manifests read"
    return None


def development_role_unchecked(sentence: str, name: str, outcome: list[Anchor],
                               fp: Fingerprint) -> str | None:  # fmt: skip
    """The part left unchecked when ``sentence`` calls a package a development dependency
    ("serde is a dev-dependency") that no manifest declares for development: every
    declaration of a present ``dep:``/``tech:`` anchor of ``outcome`` is for run time or
    an optional extra. None otherwise."""
    if _DEV_ROLE.search(sentence) is None or _RUN_TIME_ROLE.search(sentence) is not None:
        return None
    if any(declared and not any(_for_development(d) for d in declared)
           for declared in _declarations(outcome, fp)):  # fmt: skip
        return f"that {name} is a development dependency"
    return None


def _declarations(outcome: list[Anchor], fp: Fingerprint) -> Iterator[list[Dependency]]:
    """The declarations of each present ``dep:``/``tech:`` anchor of ``outcome``: a
    technology's under its PyPI, npm, Go and crate names; an ``import:``'s as a crate."""
    for anchor in outcome:
        if anchor.expect is not Expect.PRESENT or anchor.kind not in (AnchorKind.DEP,
                                                                     AnchorKind.TECH,
                                                                     AnchorKind.IMPORT):
            continue
        if anchor.kind is AnchorKind.IMPORT:  # a crate by the name its code imports
            yield [d for d in fp.dependency(anchor.value.replace("_", "-"))
                   if d.ecosystem == "cargo"]  # fmt: skip
            continue
        tech = by_name(anchor.value) if anchor.kind is AnchorKind.TECH else None
        names = (anchor.value,) if tech is None else (
            tech.name, *tech.dists, *(p.partition(":")[2] for p in tech.packages))
        yield [d for n in dict.fromkeys(names) for d in fp.dependency(n)]


def claims_run_time(sentence: str) -> bool:
    """Whether ``sentence`` gives a declaration the run-time role ("a runtime dependency",
    "in the production dependencies") and not the development one."""
    return _RUN_TIME_ROLE.search(sentence) is not None and _DEV_ROLE.search(sentence) is None


def role_unchecked(sentence: str, name: str, runtime: bool) -> str | None:
    """The part left unchecked when the sentence gives the declaration of ``name`` a role
    ("is a devDependency", "a runtime dependency") that it does not have (``runtime``: it is
    declared for run time)."""
    development = _DEV_ROLE.search(sentence) is not None
    run_time = _RUN_TIME_ROLE.search(sentence) is not None
    if development and not run_time and runtime:
        return f"that {name} is a development dependency"
    if run_time and not development and not runtime:
        return f"that {name} is a run-time dependency"
    return None


def application_package(fp: Fingerprint) -> str | None:
    """The one Python package the application runs from (``isso``, ``src/kinto``): the one
    top-level directory with an ``__init__.py`` whose modules are not tests, examples or
    tools. None when there are several (a monorepo) or none."""
    return fp.derived("development.package", _application_package)


def _application_package(fp: Fingerprint) -> str | None:
    found: dict[str, bool] = {}  # package -> whether a module besides its __init__ runs
    for path in fp.code:
        parts = path.split("/")
        top = "/".join(parts[:2]) if parts[0] == "src" and len(parts) > 2 else parts[0]
        if top != path and path.endswith(".py") and runs(path) and f"{top}/__init__.py" in fp.code:
            found[top] = found.get(top, False) or path != f"{top}/__init__.py"
    if len(found) > 1:  # (beside it, a package of nothing but an __init__: behave's features/)
        found = {top: more for top, more in found.items() if more}
    return next(iter(found)) if len(found) == 1 else None


def run_time_import(outcome: list[Anchor], fp: Fingerprint) -> Anchor | None:
    """For a library claimed as used by the application ("isso is a Flask application")
    whose evidence is development-only: an import anchor on the application's package that
    no file of it satisfies today, so the claim is refuted with where it is declared. None
    when the application's code imports it, or its package cannot be told."""
    package = application_package(fp)
    if package is None:
        return None
    for anchor in outcome:
        # a dependency is imported by the names the vocabulary knows for it (PySocks as
        # ``socks``), else by its own
        tech = by_name(anchor.value) if anchor.kind in (AnchorKind.TECH, AnchorKind.DEP) else None
        modules = tech.imports if tech is not None else (
            (anchor.value.replace("-", "_"),) if anchor.kind is AnchorKind.DEP else ())
        # a Python package, declared as one: an npm or crate dependency is imported elsewhere
        python = all(d.ecosystem == "pypi" for d in fp.dependency(
            tech.dists[0] if tech is not None and tech.dists else anchor.value))
        if anchor.expect is not Expect.PRESENT or not modules or not python:
            continue
        # the application's own code: its package and the files at the root (manage.py);
        # a maintenance script under extras/ or scripts/ is not what the application uses
        if any(runs(path) and (path.startswith(f"{package}/") or "/" not in path)
               for module in modules for path, _ in fp.importers(module)):  # fmt: skip
            return None
        return Anchor(AnchorKind.IMPORT, modules[0], scope=package)
    return None
