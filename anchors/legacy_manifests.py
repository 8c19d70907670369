"""Dependencies declared in ``setup.py`` and ``setup.cfg``, read without running anything.

Many real projects still declare their dependencies there (requests, click). ``setup.py`` is
code, and nothing from the repository is ever executed: it is parsed with ``ast`` and only
literal lists are read, the ``install_requires=[...]`` / ``extras_require={...}`` /
``tests_require=[...]`` arguments of a ``setup(...)`` call, directly or through a module
level name bound to a literal (``requires = [...]``; ``install_requires=requires``).
Anything computed is skipped, so a dependency may be missed, never invented.
"""

from __future__ import annotations

import ast
import configparser
from collections.abc import Iterable
from dataclasses import replace

from anchors.classifiers import python_from_classifiers
from anchors.facts import Dependency
from anchors.requirement_strings import PYTHON, development_group, parse_requirement

__all__ = ["parse_setup_cfg", "parse_setup_py"]

_KEYWORDS = frozenset({"install_requires", "extras_require", "tests_require", "setup_requires"})
_MAX_BYTES = 1_000_000


def _strings(node: ast.AST | None, names: dict[str, ast.AST]) -> list[str]:
    """The strings of a literal list/tuple (or a dict of them), following one Name."""
    if isinstance(node, ast.Name):
        node = names.get(node.id)
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [e.value for e in node.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)]  # fmt: skip
    if isinstance(node, ast.Dict):
        return [s for v in node.values for s in _strings(v, names)]
    return []


def parse_setup_py(data: bytes, path: str) -> list[Dependency]:
    """Requirements given as literals to ``setup(...)`` in a ``setup.py``."""
    if len(data) > _MAX_BYTES:
        return []
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return []
    names: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = stmt.value
    found: list[str] = []
    other: list[str] = []
    features: list[str] = []  # optional features of the application, not development
    python: list[str] = []
    classifiers: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) == "setup":
            for keyword in node.keywords:
                if keyword.arg == "install_requires":
                    found.extend(_strings(keyword.value, names))
                elif keyword.arg == "extras_require":
                    for group, value in _groups(keyword.value, names):
                        dev = not group or development_group(group)
                        (other if dev else features).extend(value)
                elif keyword.arg in _KEYWORDS:
                    other.extend(_strings(keyword.value, names))
                elif keyword.arg == "python_requires":
                    python.extend(_literal(keyword.value, names))
                elif keyword.arg == "classifiers":
                    classifiers.extend(_strings(keyword.value, names))
    declared = [Dependency(PYTHON, spec.strip(), path) for spec in python if spec.strip()]
    declared = declared or python_from_classifiers(classifiers, path)
    return (declared + _deps(found, path) + [replace(d, runtime=False) for d in _deps(other, path)]
            + [replace(d, runtime=False, optional=True) for d in _deps(features, path)])


def _groups(node: ast.AST | None, names: dict[str, ast.AST]) -> list[tuple[str, list[str]]]:
    """``extras_require={"socks": [...], "tests": [...]}``: each group's name and strings;
    a dict whose keys are not literals is one unnamed group (read as development)."""
    if isinstance(node, ast.Name):
        node = names.get(node.id)
    if not isinstance(node, ast.Dict):
        return [("", _strings(node, names))]
    return [(k.value if isinstance(k, ast.Constant) and isinstance(k.value, str) else "",
             _strings(v, names)) for k, v in zip(node.keys, node.values, strict=True)]


def _literal(node: ast.AST, names: dict[str, ast.AST]) -> list[str]:
    """A string literal, directly or through one module-level name."""
    if isinstance(node, ast.Name):
        node = names.get(node.id, node)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return []


def _called(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def parse_setup_cfg(data: bytes, path: str) -> list[Dependency]:
    """``[options] install_requires`` and ``[options.extras_require]`` (pbr's ``[extras]``)
    of a ``setup.cfg``."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(data.decode("utf-8-sig", errors="replace"))
    except configparser.Error:
        return []
    lines: list[str] = []
    other: list[str] = []
    if parser.has_option("options", "install_requires"):
        lines.extend(parser.get("options", "install_requires").splitlines())
    if parser.has_option("options", "tests_require"):
        other.extend(parser.get("options", "tests_require").splitlines())
    features: list[str] = []  # optional features of the application, not development
    # (pbr's ``[extras]`` is setuptools' ``[options.extras_require]``)
    for section in ("options.extras_require", "extras"):
        for name, value in parser.items(section) if parser.has_section(section) else ():
            (other if development_group(name) else features).extend(value.splitlines())
    runtime = _deps((line.split("#", 1)[0] for line in lines), path)
    extra = _deps((line.split("#", 1)[0] for line in other), path)
    optional = _deps((line.split("#", 1)[0] for line in features), path)
    if parser.has_option("options", "python_requires"):
        spec = parser.get("options", "python_requires").strip()
        runtime = [Dependency(PYTHON, spec, path), *runtime] if spec else runtime
    elif parser.has_option("metadata", "classifiers"):
        listed = parser.get("metadata", "classifiers").splitlines()
        runtime = [*python_from_classifiers(listed, path), *runtime]
    return (runtime + [replace(d, runtime=False) for d in extra]
            + [replace(d, runtime=False, optional=True) for d in optional])  # fmt: skip


def _deps(texts: Iterable[str], path: str) -> list[Dependency]:
    found = []
    for text in texts:
        dep = parse_requirement(text.strip(), path) if text.strip() else None
        if dep is not None:
            found.append(dep)
    return list(dict.fromkeys(found))
