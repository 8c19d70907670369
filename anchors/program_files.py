"""What a project's manifests say of the programs it installs and how it is built, as
``InfraValue`` s beside its toolchain (``anchors.toolchain_files``):

- ``pyproject.toml``: each console script, ``project.scripts.NAME`` (and
  ``project.gui-scripts.NAME``, Poetry's ``tool.poetry.scripts.NAME``) -> its target as
  written (``beets.ui:main``); ``build-system.build-backend`` as written
  (``hatchling.build``);
- ``package.json``: each program of ``bin``, ``bin.NAME`` -> its path (``bin/cli.js``; a
  ``bin`` that is one path is the package's own name's), and ``build-tools`` -> each
  build tool its ``build`` script runs (``unbuild``, ``tsup``, ``tsc``), one value each.

What these say is checked by ``anchors.program_binding``; ``backend_family`` tells which
tool a build backend is ("setuptools" for ``setuptools.build_meta:__legacy__``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from anchors.infra_values import InfraValue

__all__ = ["BUILD_TOOLS", "backend_family", "package_json_programs", "pyproject_values"]

# A build backend's first module -> the tool a note names it by
_FAMILIES = {
    "setuptools": "setuptools", "hatchling": "hatchling", "hatch": "hatchling",
    "poetry": "poetry", "poetry-core": "poetry", "flit": "flit", "flit-core": "flit",
    "pdm": "pdm", "pdm-backend": "pdm", "maturin": "maturin",
    "scikit-build-core": "scikit-build", "scikit-build": "scikit-build",
    "mesonpy": "meson-python", "meson-python": "meson-python", "uv-build": "uv", "uv": "uv",
}  # fmt: skip
# The tools an npm package's build script runs that a note says it is built with
BUILD_TOOLS = frozenset({
    "unbuild", "tsup", "tsc", "rollup", "vite", "webpack", "esbuild", "parcel", "babel",
    "swc", "microbundle", "bunchee", "tsdown", "rolldown",
})  # fmt: skip


def backend_family(text: str) -> str:
    """The tool a build backend (``poetry.core.masonry.api``) or a named tool ("Poetry",
    "poetry-core") is: ``poetry``; else the name's first part, lower-cased."""
    first = text.strip().strip("`'\"").split(":")[0].split(".")[0].lower().replace("_", "-")
    return _FAMILIES.get(first, first)


def pyproject_values(text: str) -> Iterator[InfraValue]:
    """The console scripts and the build backend of a ``pyproject.toml``."""
    doc = tomllib.loads(text)
    project = doc.get("project")
    poetry = _table(_table(doc.get("tool")).get("poetry"))
    for table, key in ((_table(project).get("scripts"), "project.scripts"),
                       (_table(project).get("gui-scripts"), "project.gui-scripts"),
                       (poetry.get("scripts"), "tool.poetry.scripts")):  # fmt: skip
        header = re.escape(f"[{key}]")
        for name, target in _table(table).items():
            if isinstance(target, str) and _NAME.fullmatch(name):
                at = _line(text, rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=", header)
                yield InfraValue(f"{key}.{name}", target.strip(), at)
    backend = _table(doc.get("build-system")).get("build-backend")
    if isinstance(backend, str) and backend.strip():
        at = _line(text, r"^\s*build-backend\s*=", re.escape("[build-system]"))
        yield InfraValue("build-system.build-backend", backend.strip(), at)


def package_json_programs(doc: Mapping[str, Any], text: str) -> Iterator[InfraValue]:
    """The programs of a parsed ``package.json``'s ``bin``, and its build script's tools."""
    bins = doc.get("bin")
    name = doc.get("name")
    if isinstance(bins, str) and isinstance(name, str):
        bins = {name.rpartition("/")[2]: bins}  # one path: the program is the package's name
    for program, path in _table(bins).items():
        if isinstance(path, str) and _NAME.fullmatch(program):
            at = _line(text, rf"\"{re.escape(program)}\"\s*:", r"\"bin\"")
            yield InfraValue(f"bin.{program}", path.strip().removeprefix("./"), at)
    build = _table(doc.get("scripts")).get("build")
    if isinstance(build, str):
        at = _line(text, r"\"build\"\s*:", r"\"scripts\"")
        for tool in dict.fromkeys(w for w in re.findall(r"[\w.\-]+", build) if w in BUILD_TOOLS):
            yield InfraValue("build-tools", tool, at)


_NAME = re.compile(r"[A-Za-z0-9][\w.\-]{0,80}")


def _table(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _line(text: str, pattern: str, after: str) -> int:
    """The line of the first match of ``pattern`` after the first of ``after`` (1 if none)."""
    start = re.search(after, text, re.MULTILINE)
    at = re.compile(pattern, re.MULTILINE).search(text, start.end() if start else 0)
    return text.count("\n", 0, at.start()) + 1 if at else 1
