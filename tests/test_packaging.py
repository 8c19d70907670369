"""The packaging: every third-party module the code imports comes from a dependency that
pyproject.toml declares, uv.lock was made from this pyproject.toml, and the version
anchormem reports is the one pyproject.toml gives, and the MCP SDK is a range, not a pin.

An import of a package that only arrives as another package's dependency works until that
package drops it; the walk over the source's imports finds such an import before then.
"""

from __future__ import annotations

import ast
import functools
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]

# The packages the distribution ships (pyproject's packages.find), and the code that is
# run from the checkout only: the maintainers' scripts and the tests.
SHIPPED = tuple(
    name.rstrip("*") for name in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
)
CHECKOUT_ONLY = ("scripts", "tests")
# A script runs with scripts/ on sys.path, so its neighbours import as top-level modules.
FIRST_PARTY = {*SHIPPED, *CHECKOUT_ONLY, *(path.stem for path in (ROOT / "scripts").glob("*.py"))}

# Imports inside ``try: ... except ImportError`` that anchormem does without, each with what
# happens without it: (file, top-level module) -> reason.
OPTIONAL = {
    ("experiments/corpus.py", "zstandard"): "only a zst-compressed Debian package needs it; "
    "without it that package is refused with a CorpusError that names the module",
    ("benchmarks/ui.py", "selenium"): "the page-load timing runs only where Chromium and "
    "Selenium are (the dev extra has Selenium); without them it reports no timing",
    ("server/cli_migrate.py", "psycopg"): "only `migrate` to or from a postgresql:// store "
    "needs it (the postgresql extra); without it that is refused saying to install the extra",
    ("scripts/refresh_vocabulary.py", "wordfreq"): "a maintainer's source of word frequencies; "
    "--frequencies FILE gives them instead, and the script says so when it is missing",
}
# Files installed with anchormem that run only with an extra installed: prefix -> extra. The
# shared store's package is imported only for a postgresql:// store (server/runtime.py
# says to install the extra when psycopg is missing); the throwaway server for its tests
# and benchmarks likewise.
NEEDS_EXTRA = {
    "store/pg/": "postgresql",
    "benchmarks/pg_": "postgresql",
    "benchmarks/shared_store.py": "postgresql",
}
# Files that run in an environment of their own, not anchormem's: file -> reason.
OWN_ENVIRONMENT = {
    "scripts/measure_engines.py": "weighs DuckLake and PostgreSQL, which anchormem does not "
    "use, in a venv its docstring sets up (DuckLake's extension loads only into DuckDB 1.x)",
}


def python_files(root: Path, package: str) -> Iterator[Path]:
    for path in sorted((root / package).rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield path


def catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(
        isinstance(name, ast.Name) and name.id in {"ImportError", "ModuleNotFoundError"}
        for name in names
    )


@functools.cache  # each test walks a part of the same 3 MB of source
def imports(path: Path) -> tuple[tuple[str, bool], ...]:
    """Each absolute import's top-level module, and whether a try that catches ImportError
    guards it."""
    tree = ast.parse(path.read_text(), str(path))
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(catches_import_error(h) for h in node.handlers):
            for statement in node.body:
                guarded.update(id(inner) for inner in ast.walk(statement))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        found += [(module.partition(".")[0], id(node) in guarded) for module in modules]
    return tuple(found)


def third_party_imports(root: Path, packages: tuple[str, ...]) -> dict[str, dict[str, bool]]:
    """module -> {file: guarded} for every module that is neither the standard library's nor
    the project's own; the files run in their own environment are left out."""
    found: dict[str, dict[str, bool]] = {}
    for package in packages:
        for path in python_files(root, package):
            name = path.relative_to(root).as_posix()
            if name in OWN_ENVIRONMENT:
                continue
            for module, guarded in imports(path):
                if module in sys.stdlib_module_names or module in FIRST_PARTY:
                    continue
                files = found.setdefault(module, {})
                files[name] = files.get(name, True) and guarded
    return found


def declared(extras: tuple[str, ...]) -> list[Requirement]:
    listed = list(PROJECT["dependencies"])
    for extra in extras:
        listed += PROJECT["optional-dependencies"][extra]
    return [Requirement(text) for text in listed]


def undeclared(root: Path, packages: tuple[str, ...], extras: tuple[str, ...]) -> list[str]:
    """What the packages import that no requirement of the project (with these extras)
    provides, each as a sentence that says where."""
    requirements = declared(extras)
    names = {canonicalize_name(r.name) for r in requirements}
    # Declared for another platform (portalocker on Windows): not installed here, so not in
    # packages_distributions; the module is taken to carry the distribution's name.
    elsewhere = {
        canonicalize_name(r.name)
        for r in requirements
        if r.marker is not None and not r.marker.evaluate({"extra": ""})
    }
    providers = metadata.packages_distributions()
    problems = []
    for module, files in sorted(third_party_imports(root, packages).items()):
        distributions = {canonicalize_name(d) for d in providers.get(module, [])}
        if distributions & names or canonicalize_name(module) in elsewhere:
            continue
        optional = [f for f, guarded in files.items() if guarded and (f, module) in OPTIONAL]
        optional += [f for f in files if _from_extra(f, distributions)]
        rest = sorted(set(files) - set(optional))
        if rest:
            source = ", ".join(sorted(distributions)) or "no installed distribution"
            problems.append(f"{module} (from {source}) is imported by {', '.join(rest)}")
    return problems


def _from_extra(file: str, distributions: set[str]) -> bool:
    """``file`` needs an extra (``NEEDS_EXTRA``) that provides one of ``distributions``."""
    for prefix, extra in NEEDS_EXTRA.items():
        if file.startswith(prefix):
            names = {canonicalize_name(r.name) for r in declared((extra,))}
            if distributions & names:
                return True
    return False


def test_the_shipped_packages_import_only_what_the_dependencies_provide() -> None:
    assert undeclared(ROOT, SHIPPED, extras=()) == []


def test_the_scripts_and_tests_import_only_what_the_dev_install_provides() -> None:
    assert undeclared(ROOT, CHECKOUT_ONLY, extras=("dev",)) == []


def test_the_optional_imports_are_guarded_and_still_imported() -> None:
    """An entry in OPTIONAL names an import that is still there, inside a try that catches
    ImportError; one left behind after the import went, or lost its guard, fails here."""
    found = third_party_imports(ROOT, (*SHIPPED, *CHECKOUT_ONLY))
    for file, module in OPTIONAL:
        assert found.get(module, {}).get(file) is True, (file, module)


def test_the_walk_finds_an_undeclared_import(tmp_path: Path) -> None:
    """The check can fail: a module that imports a package only a dependency brings along
    (sse_starlette comes with mcp) is reported, with the file it is in."""
    package = tmp_path / "probe"
    package.mkdir()
    (package / "uses.py").write_text(
        "import json\nimport duckdb\nfrom sse_starlette import EventSourceResponse\n"
        "try:\n    import zstandard\nexcept ImportError:\n    zstandard = None\n"
    )
    assert undeclared(tmp_path, ("probe",), extras=()) == [
        "sse_starlette (from sse-starlette) is imported by probe/uses.py",
        "zstandard (from no installed distribution) is imported by probe/uses.py",
    ]


def lock_requirement(entry: dict[str, object]) -> str:
    extras = entry.get("extras")
    text = str(entry["name"]) + (f"[{','.join(extras)}]" if isinstance(extras, list) else "")
    text += str(entry.get("specifier", ""))
    return text + (f"; {entry['marker']}" if "marker" in entry else "")


def requirement_key(requirement: Requirement) -> tuple[str, SpecifierSet, frozenset[str], str]:
    marker = str(requirement.marker) if requirement.marker is not None else ""
    return (
        canonicalize_name(requirement.name),
        requirement.specifier,
        frozenset(requirement.extras),
        marker,
    )


def test_the_lock_was_made_from_this_pyproject() -> None:
    """scripts/test installs uv.lock as it is (uv sync --frozen); a requirement changed in
    pyproject.toml without `uv lock` after it would install what the lock says."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    (root,) = [p for p in lock["package"] if p["name"] == "anchormem"]
    assert root["version"] == PROJECT["version"]
    assert root["source"] == {"editable": "."}
    entries = root["metadata"]["requires-dist"]
    locked = sorted((requirement_key(Requirement(lock_requirement(e))) for e in entries), key=repr)
    wanted = [requirement_key(r) for r in declared(())]
    for extra, listed in PROJECT["optional-dependencies"].items():
        for text in listed:
            requirement = Requirement(text)
            condition = f"extra == '{extra}'"
            if requirement.marker is not None:
                condition = f"({requirement.marker}) and {condition}"
            requirement.marker = Marker(condition)
            wanted.append(requirement_key(requirement))
    assert locked == sorted(wanted, key=repr)
    assert lock["requires-python"] == PROJECT["requires-python"]


def test_the_sdk_is_a_range_of_its_major_version() -> None:
    """The code uses the MCP SDK's public API only (tests/test_public_apis.py), which holds
    across the SDK's minor releases: its next release installs, the next major does not,
    and the lock holds a version the range allows."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked = {p["name"]: p["version"] for p in lock["package"]}
    sdk = [r for r in declared(()) if r.name in ("mcp", "mcp-types")]
    assert sorted(r.name for r in sdk) == ["mcp", "mcp-types"]
    for requirement in sdk:
        assert requirement.specifier.contains("2.3.0")
        assert requirement.specifier.contains("2.99.0"), f"{requirement} is pinned"
        assert not requirement.specifier.contains("3.0.0")
        assert requirement.specifier.contains(locked[requirement.name])


def test_the_version_reported_is_pyprojects() -> None:
    import anchormem

    assert anchormem.__version__ == PROJECT["version"]
    shown = subprocess.run(
        [sys.executable, "-m", "anchormem", "--version"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    assert shown == f"anchormem {PROJECT['version']}\n"


def test_an_uninstalled_checkout_reads_its_pyproject(tmp_path: Path) -> None:
    """Without the distribution's metadata (no site-packages: ``python -S``), the version is
    read from the pyproject.toml beside the package."""
    shutil.copytree(ROOT / "anchormem", tmp_path / "anchormem")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "anchormem"\nversion = "7.8.9"\n')
    shown = subprocess.run(
        [sys.executable, "-S", "-c", "import anchormem; print(anchormem.__version__)"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    ).stdout
    assert shown == "7.8.9\n"
