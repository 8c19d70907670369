"""A package said not to be a run-time dependency: "Sphinx is not a runtime requirement
any more", "pytest-asyncio is only a test extra, not a runtime dependency", "typescript is
a devDependency, not a runtime one", "responses is only used in tests".

Such a sentence denies a role, not a use: tests, docs and the build may use the package.
It is checked by what runs and what is declared for run time. The code that runs must not
import it: an absent import anchor on the application's running code (the Python
package, or the JavaScript application's sources), which breaks when a module of it
imports the package. A declaration for run time answers the sentence at once: an absent
dependency anchor, broken by that declaration. A sentence that also gives the package a
development role ("is a test extra") needs it declared: a present dependency anchor, whose
recorded role drifts if the declaration later moves to run time. Where neither can be
told (the running code imports it only from tests and no package holds the application,
an optional extra the application may run with), nothing is anchored and the clause stays
an uncovered negation.
"""

from __future__ import annotations

import re

from anchors.development import application_package
from anchors.facts import Dependency, Fingerprint
from anchors.languages import language_of
from anchors.manifest_claims import REMOVED
from anchors.mentions import runs
from anchors.npm_application import application_project, application_sources, for_development
from anchors.spec import WILDCARD, Anchor, AnchorKind, Expect
from anchors.tooling_dirs import js_runs
from anchors.verdicts import Verdict
from anchors.vocabulary import by_name

__all__ = ["declaration_denial", "names_a_manifest", "run_time_denial"]

_I = re.IGNORECASE
_RUN_TIME = r"(?:run-?\s?time|production|prod)"
_DEPENDENCY = r"(?:dependenc(?:y|ies)|requirements?|deps?|one)"
_DEVELOPMENT = (r"(?:test(?:ing)?|tests|dev|development|docs?|documentation|lint(?:ing)?|build|"
                r"ci|benchmark)")  # fmt: skip
# Right after the name (and a version in parentheses): the role denied, and whether a
# development role is claimed with it (``dev``).
_DENIAL = re.compile(
    r"[`'\"]?(?:\s*\([^()]{1,40}\))?\s+(?:is|are)\s+(?:"
    # "is not a runtime dependency", "is no longer a production requirement"
    rf"(?:not|n[o']t|no\s+longer)\s+(?:a\s+|an\s+)?{_RUN_TIME}\s+{_DEPENDENCY}\b"
    # "is not needed at runtime", "is not imported in production"
    rf"|(?:not|no\s+longer)\s+(?:used|imported|needed|required|loaded)\s+"
    rf"(?:at\s+{_RUN_TIME}|in\s+production)\b"
    # "is only a test extra", "is just a dev dependency", "is a test-only dependency"
    rf"|(?P<dev>(?:(?:only|just|solely|merely|purely)\s+)?(?:a\s+|an\s+)?"
    rf"(?:{_DEVELOPMENT}[\s-]+(?:only\s+)?(?:extras?|{_DEPENDENCY})"
    rf"|devDependenc(?:y|ies)|dev-?dependenc(?:y|ies))\b)"
    # "is only used in tests", "is needed only for the docs"
    rf"|(?P<used>(?:only|just|solely|exclusively)\s+(?:used|imported|needed|required)"
    rf"|(?:used|imported|needed|required)\s+only)\s+(?:in|by|for|during|when)\s+(?:the\s+)?"
    rf"(?:tests?|test\s+suite|{_DEVELOPMENT}|the\s+build)\b"
    r")",
    _I,
)
# "gunicorn is not a pyproject dependency", "X is no longer a direct dependency": a
# declaration denied, with the manifest or its kind before the noun
_MANIFEST_WORD = (r"(?:direct|declared|listed|project|top-level|pyproject(?:\.toml)?|"
                  r"package\.json|cargo(?:\.toml)?|setup\.(?:py|cfg)|requirements(?:\.txt)?|npm|"
                  r"pypi|python|pip|install|crate)")  # fmt: skip
_DECLARATION_DENIED = re.compile(
    rf"[`'\"]?\s+(?:is|are)\s+(?:not|n[o']t|no\s+longer|never)\s+(?:a\s+|an\s+)?"
    rf"(?P<manifest>(?:`?{_MANIFEST_WORD}`?\s+)*)dependency\b(?!\s+(?:of|for|in)\b)",
    _I,
)
# "a `pyproject` dependency": the manifest that would declare it, no package of the note
_MANIFEST_NAMES = frozenset({"pyproject", "pyproject.toml", "package.json", "cargo.toml",
                             "setup.py", "setup.cfg", "requirements.txt", "pipfile"})
_BEFORE_DEPENDENCY = re.compile(r"`?\s+(?:dev-?\s?)?dependenc(?:y|ies)\b", _I)


def names_a_manifest(word: str, text: str, end: int) -> bool:
    """Whether ``word`` (ending at ``end``) names the manifest of a dependency it stands
    before ("not a pyproject dependency"), not a package."""
    return (word.strip("`").lower() in _MANIFEST_NAMES
            and _BEFORE_DEPENDENCY.match(text, end) is not None)  # fmt: skip


def declaration_denial(text: str, name: str, end: int, fp: Fingerprint) -> list[Anchor] | None:
    """"gunicorn is not a pyproject dependency": the package undeclared (an absent
    dependency anchor), whatever else uses it (an image may install it). None where the
    words after ``name`` deny no declaration, or for Go, whose modules are paths."""
    denied = _DECLARATION_DENIED.match(text, end)
    if denied is None or not re.fullmatch(r"@?[A-Za-z][\w.\-]*(?:/[\w.\-]+)?", name):
        return None
    if not fp.dependencies or any(d.ecosystem == "go" for d in fp.dependencies):
        return None
    declared = fp.dependency(name) or fp.dependency(name.lower().replace("_", "-"))
    anchor = Anchor(AnchorKind.DEP, declared[0].name if declared else name.lower(),
                    Expect.ABSENT)
    if not denied["manifest"]:
        # "X is no longer a dependency" where the manifests cannot say (a setup.py that
        # reads its requirements): left to the readings of use, as before
        from anchors.verify import check_anchor

        if check_anchor(anchor, None, fp).verdict is Verdict.UNKNOWN:
            return None
    return [anchor]


# What must follow a development role for it to deny the run-time one: "..., not a runtime
# one", or "only" before or after it ("only a test extra", "a dev-dependency only").
_NOT_RUN_TIME = re.compile(
    rf"[,;]?\s+(?:and\s+)?(?:not|never)\s+(?:a\s+|an\s+)?(?:{_RUN_TIME})\b", _I
)
_ONLY = re.compile(r"\s+(?:is|are)\s+(?:only|just|solely|merely|purely)\b|-only\b", _I)
_ONLY_AFTER = re.compile(r"\s+only\b", _I)  # "is a dev-dependency only"
# "celery was removed from the runtime dependencies"
_REMOVED_FROM_RUN_TIME = re.compile(
    # (the run-time declarations in other words: "the hard / core / install dependencies")
    rf"[`'\"]?{REMOVED}\s+(?:the\s+|its\s+)?(?:{_RUN_TIME}|hard|core|required|install|main)"
    rf"\s+{_DEPENDENCY}\b", _I
)


def _denies(text: str, end: int) -> bool | None:
    """For the words after a name ending at ``end``: whether they deny it a run-time role
    and give it a development one (True), deny it one only (False), or deny none (None)."""
    if _REMOVED_FROM_RUN_TIME.match(text, end):
        return False
    m = _DENIAL.match(text, end)
    if m is None:
        return None
    if m.group("dev") is None:
        return False
    said = text[end : m.end()]
    if (_ONLY.search(said) is None and _NOT_RUN_TIME.match(text, m.end()) is None
            and _ONLY_AFTER.match(text, m.end()) is None):  # fmt: skip
        return None  # "is a test dependency": a role stated, none denied
    return True


def _pypi_modules(name: str, fp: Fingerprint) -> tuple[list[str], list[Dependency]]:
    """The module a package is imported by and its PyPI declarations: under its own name
    first ("jupyter_server"), else under the names the vocabulary knows for it."""
    tech = by_name(name)
    own = name.lower().replace("_", "-")
    declared = [d for d in fp.dependency(own) if d.ecosystem == "pypi"]
    if not declared and tech is not None:
        declared = [d for n in dict.fromkeys(tech.dists) for d in fp.dependency(n)
                    if d.ecosystem == "pypi"]  # fmt: skip
    module = name.replace("-", "_")
    imports = tech.imports if tech is not None else ()
    if imports:  # as the package spells it ("django"), PyYAML as ``yaml``
        module = next((m for m in imports if m.lower() == module.lower()), imports[0])
    return [module], declared


def _npm_package(name: str, fp: Fingerprint) -> tuple[str, list[Dependency]] | None:
    tech = by_name(name)
    names = [p.partition(":")[2] for p in tech.packages if p.startswith("npm:")] if tech else []
    for package in (*names, name.lower()):
        declared = [d for d in fp.dependency(package) if d.ecosystem == "npm"]
        if declared:
            return package, declared
    return None


def run_time_denial(text: str, name: str, end: int, fp: Fingerprint) -> list[Anchor] | None:
    """The anchors that check a sentence denying ``name`` (ending at ``end`` of ``text``)
    a run-time role; None when the words after it deny none, or nothing can check it."""
    development = _denies(text, end)
    if development is None:
        return None
    npm = _npm_package(name, fp)
    if npm is not None:
        return _npm_denial(npm[0], npm[1], development, fp)
    crate = [d for d in fp.dependency(name.lower().replace("_", "-")) if d.ecosystem == "cargo"]
    if crate:
        return _crate_denial(crate)
    modules, declared = _pypi_modules(name, fp)
    tech = by_name(name)
    imported = any(language_of(p) == "python" for m in modules for p, _ in fp.importers(m))
    if not declared and (development or not (tech and tech.dists)) and not imported:
        # no PyPI package the vocabulary knows, declared or imported by Python here (a
        # crate or a Go module is another ecosystem's); or a role claimed for a package
        # nothing declares
        return None
    found: list[Anchor] = []
    if any(d.runtime and not d.optional for d in declared):
        found.append(Anchor(AnchorKind.DEP, declared[0].name, Expect.ABSENT))
    elif any(d.optional and not for_development(d) for d in declared):
        return None  # an extra the application may run with: neither role is plain
    elif development and declared:
        found.append(Anchor(AnchorKind.DEP, declared[0].name))
    package = application_package(fp)
    for module in modules:
        importers = [p for p, _ in fp.importers(module) if language_of(p) == "python"
                     and (package is None or p.startswith(package + "/"))]  # fmt: skip
        if importers and not any(runs(p) for p in importers):
            continue  # only tests import it: "not at run time" is not what breaks here
        if importers and declared and all(for_development(d) for d in declared):
            # declared for development only, yet code that runs imports it (a guarded,
            # optional import): the manifests say yes, the code no; neither decides
            return None
        found.append(Anchor(AnchorKind.IMPORT, module, Expect.ABSENT, scope=package))
    return found if any(a.expect is Expect.ABSENT for a in found) else None


def _crate_denial(declared: list[Dependency]) -> list[Anchor] | None:
    """A crate's role is its declarations': a run-time one refutes the note, and "only a
    dev-dependency" holds on ``[dev-dependencies]`` alone (the dependency anchor records the
    role it was declared for, and drifts if that changes)."""
    name = declared[0].name
    if any(d.runtime and not d.optional for d in declared):
        return [Anchor(AnchorKind.DEP, name, Expect.ABSENT)]
    if all(for_development(d) for d in declared):
        return [Anchor(AnchorKind.DEP, name)]
    return None


def _npm_denial(package: str, declared: list[Dependency], development: bool,
                fp: Fingerprint) -> list[Anchor] | None:  # fmt: skip
    sources = application_sources(fp)
    project = application_project(fp)
    found: list[Anchor] = []
    manifest = f"{project}/package.json" if project else "package.json"
    if all(d.peer or for_development(d) for d in declared) and any(d.peer for d in declared):
        return None  # a peer the user installs: the note's "runtime" may mean either
    if any(d.source == manifest and not for_development(d) for d in declared):
        found.append(Anchor(AnchorKind.DEP, package, Expect.ABSENT, scope=project or None))
    elif development:
        found.append(Anchor(AnchorKind.DEP, package))
    if sources is not None:
        # (``import type`` is erased before the code runs: no import of it)
        there = [p for p, imp in fp.importers(package)
                 if p.startswith(sources + "/") and not imp.typing]  # fmt: skip
        if there and any(js_runs(p, fp) for p in there) and all(
                for_development(d) for d in declared):  # fmt: skip
            # declared for development only, yet code that runs imports it (a peer the
            # user installs): the manifest says yes, the code no; neither decides
            return None
        typed = any(p.startswith(sources + "/") and imp.typing
                    for p, imp in fp.importers(package))  # fmt: skip
        if not there or any(js_runs(p, fp) for p in there):
            # (only its types imported: checked in the code that runs, which has none)
            found.append(Anchor(AnchorKind.IMPORT, package, Expect.ABSENT,
                                scope=WILDCARD if typed and not there else sources))  # fmt: skip
    return found if any(a.expect is Expect.ABSENT for a in found) else None
