"""Declared dependencies (pyproject.toml, requirements files; ``package.json``, ``go.mod``
and ``Cargo.toml`` through ``anchors.package_json``, ``anchors.gomod`` and
``anchors.cargo_toml``) and ``.env.example`` keys.

Lock files (``package-lock.json``, ``yarn.lock``, ``pnpm-lock.yaml``, ``go.sum``,
``Cargo.lock``, ``poetry.lock``...) are never manifests: they list transitive packages, and
a transitive entry must never verify "we use X". For the same reason a manifest inside
``node_modules/`` or a ``vendor/`` folder (a copied third-party package) is not read.

Pure functions over file bytes, so the fingerprint can read them straight from git blobs.
Malformed files yield what could be read (nothing, for broken TOML): a manifest is evidence
about the code, and a broken one must not take the fingerprint down with it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Literal

from anchors.cargo_toml import parse_cargo_toml
from anchors.classifiers import python_from_classifiers
from anchors.facts import Dependency
from anchors.gomod import parse_go_mod
from anchors.legacy_manifests import parse_setup_cfg, parse_setup_py
from anchors.package_json import parse_package_json
from anchors.requirement_strings import COMPUTED, PYTHON, development_group, parse_requirement
from anchors.spec import normalize_dist_name
from anchors.tox_ini import parse_tox_ini

__all__ = [
    "ENV_EXAMPLE_NAMES",
    "PYTHON",
    "ManifestKind",
    "manifest_kind",
    "parse_env_example",
    "parse_manifest",
    "parse_pyproject",
    "parse_requirement",
    "parse_requirements",
]

ManifestKind = Literal["pyproject", "requirements", "setup_py", "setup_cfg", "package_json",
                       "go_mod", "cargo_toml", "tox_ini"]  # fmt: skip
# Manifests of other ecosystems, by exact file name (Cargo and Go accept no other case).
_OTHER_MANIFESTS: dict[str, ManifestKind] = {"package.json": "package_json", "go.mod": "go_mod",
                                             "Cargo.toml": "cargo_toml"}  # fmt: skip
# Folders holding copies of third-party packages, whose manifests are not the project's.
_VENDORED = frozenset({"node_modules", "vendor", "bower_components"})
ENV_EXAMPLE_NAMES = (".env.example", ".env.sample", ".env.template")

_DEV_FILE = re.compile(
    r"(?:^|[/_.-])(?:dev|devel|develop|test|tests|testing|doc|docs|lint|ci|bench|typing|"
    r"build|extras?)(?:[/_.-]|$)"
)
_ENV_LINE = re.compile(r"^\s*(?:export\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=")
# pip options that may follow a requirement on the same line (``pkg==1 --hash=sha256:..``).
_INLINE_OPTION = re.compile(r"\s--?[A-Za-z].*$")


def manifest_kind(path: str) -> ManifestKind | None:
    """Which parser reads ``path``: ``pyproject.toml``, ``requirements*.txt``,
    ``requirements/*.txt``, ``setup.py``, ``setup.cfg``, ``tox.ini``, ``package.json``,
    ``go.mod`` and ``Cargo.toml`` at any depth are manifests (``setup.py`` is parsed, never
    run), except inside ``node_modules/`` or ``vendor/``; anything else, lock files
    included, is not."""
    directory, _, name = path.rpartition("/")
    other = _OTHER_MANIFESTS.get(name)
    if other is not None:
        return None if _VENDORED.intersection(directory.split("/")) else other
    if name == "pyproject.toml":
        return "pyproject"
    if name == "setup.py":
        return "setup_py"
    if name == "setup.cfg":
        return "setup_cfg"
    if name == "tox.ini":
        return "tox_ini"  # its test environments' dependencies: development only
    if not name.endswith(".txt"):
        return None
    if name.startswith("requirements") or directory.rpartition("/")[2] == "requirements":
        return "requirements"
    return None


def parse_manifest(data: bytes, path: str) -> list[Dependency]:
    """Dependencies declared by the manifest at ``path`` (empty if it is not a manifest)."""
    kind = manifest_kind(path)
    if kind == "pyproject":
        return parse_pyproject(data, path)
    if kind == "requirements":
        return parse_requirements(data, path)
    if kind in ("setup_py", "setup_cfg"):
        return parse_setup_py(data, path) if kind == "setup_py" else parse_setup_cfg(data, path)
    if kind == "package_json":
        return parse_package_json(data, path)
    if kind == "go_mod":
        return parse_go_mod(data, path)
    if kind == "cargo_toml":
        return parse_cargo_toml(data, path)
    if kind == "tox_ini":
        return parse_tox_ini(data, path)
    return []


def parse_pyproject(data: bytes, path: str) -> list[Dependency]:
    """Dependencies declared in a ``pyproject.toml``.

    Reads ``[project] dependencies`` and ``optional-dependencies``, PEP 735
    ``[dependency-groups]`` (include-group tables skipped) and Poetry's
    ``[tool.poetry.dependencies]``, ``dev-dependencies`` and group dependencies. The
    project's own name and Poetry's ``python`` entry are not dependencies; dependencies
    ``dynamic`` (taken from a file the build names) are the one ``COMPUTED`` entry.
    """
    try:
        doc = tomllib.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    project = _table(doc.get("project"))
    poetry = _table(_table(doc.get("tool")).get("poetry"))
    own_names = {
        normalize_dist_name(name)
        for name in (project.get("name"), poetry.get("name"))
        if isinstance(name, str)
    }

    runtime: list[str] = list(_strings(project.get("dependencies")))
    # The build backend is a dependency too ("built with poetry-core", "hatchling").
    other: list[str] = list(_strings(_table(doc.get("build-system")).get("requires")))
    extras: list[str] = []  # optional features of the application, not development
    for group_name, group in _table(project.get("optional-dependencies")).items():
        (other if development_group(group_name) else extras).extend(_strings(group))
    for group in _table(doc.get("dependency-groups")).values():
        other.extend(_strings(group))  # include-group entries are tables: skipped
    found = [dep for text in runtime if (dep := parse_requirement(text, path)) is not None]
    found += [replace(dep, runtime=False) for text in other
              if (dep := parse_requirement(text, path)) is not None]  # fmt: skip
    found += [replace(dep, runtime=False, optional=True) for text in extras
              if (dep := parse_requirement(text, path)) is not None]  # fmt: skip

    poetry_tables = [(poetry.get("dependencies"), True), (poetry.get("dev-dependencies"), False)]
    poetry_tables += [(_table(g).get("dependencies"), False)
                      for g in _table(poetry.get("group")).values()]  # fmt: skip
    python = project.get("requires-python")
    if isinstance(python, str) and python.strip():
        found.append(Dependency(PYTHON, python.strip(), path))
    elif isinstance(classifiers := project.get("classifiers"), list):
        found += python_from_classifiers(classifiers, path)
    for table, is_runtime in poetry_tables:
        for name, value in _table(table).items():
            if name.lower() == "python":
                if is_runtime and _poetry_spec(value):
                    found.append(Dependency(PYTHON, _poetry_spec(value), path))
                continue
            optional = isinstance(value, Mapping) and value.get("optional") is True
            found.append(Dependency(normalize_dist_name(name), _poetry_spec(value), path,
                                    is_runtime and not optional,
                                    optional=is_runtime and optional))  # fmt: skip

    dynamic = project.get("dynamic")
    if isinstance(dynamic, list) and "dependencies" in dynamic:
        found.append(Dependency(COMPUTED, "", path))  # taken from a file set elsewhere
    return _unique(dep for dep in found if dep.name not in own_names)


def parse_requirements(data: bytes, path: str) -> list[Dependency]:
    """Dependencies in a pip requirements file.

    Comments, blank lines, options (``-r``, ``-e``, ``--index-url``, ...), bare URLs and
    local paths are skipped; environment markers after ``;`` and inline ``--hash`` options
    are dropped; backslash continuations are joined.
    """
    text = data.decode("utf-8-sig", errors="replace")
    text = re.sub(r"\\\r?\n", " ", text)
    # requirements-dev.txt, requirements/test.txt, tests/requirements/py3.txt: not runtime
    runtime = not _DEV_FILE.search(path.lower())
    found = []
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line or line.startswith("-"):
            continue
        if "://" in line.split("@", 1)[0] or line.startswith((".", "/", "~")):
            continue  # a bare URL or path names no distribution we could check
        line = _INLINE_OPTION.sub("", line)
        dep = parse_requirement(line, path)
        if dep is not None:
            found.append(dep if runtime else replace(dep, runtime=False))
    return _unique(found)


def parse_env_example(data: bytes) -> list[str]:
    """Variable names declared in a ``.env.example``-style file (``KEY=value`` lines,
    optionally prefixed with ``export``); comments and malformed lines are skipped."""
    names: dict[str, None] = {}
    for line in data.decode("utf-8-sig", errors="replace").splitlines():
        match = _ENV_LINE.match(line)
        if match is not None:
            names.setdefault(match.group("key"), None)
    return list(names)


def _table(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, list):
        return (item for item in value if isinstance(item, str))
    return ()


def _poetry_spec(value: Any) -> str:
    """Poetry writes ``"^1.2"`` or ``{version = "^1.2", ...}``; ``*`` means any version."""
    if isinstance(value, Mapping):
        value = value.get("version", "")
    if isinstance(value, list):  # multiple-constraint form: one table per platform
        value = next((v.get("version", "") for v in value if isinstance(v, Mapping)), "")
    spec = value.strip() if isinstance(value, str) else ""
    return "" if spec == "*" else spec


def _unique(deps: Iterable[Dependency]) -> list[Dependency]:
    return list(dict.fromkeys(deps))
