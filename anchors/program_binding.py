"""What a note says of the programs a project installs and how it is built, checked in its
manifests (``anchors.program_files``):

- a console script and what it runs: "the console script `beet` runs `beets.ui:main`",
  "`django-admin` points to `django.core.management.execute_from_command_line`", "the bin
  `openapi-typescript` runs bin/cli.js" -> ``config:pyproject.toml::project.scripts.beet=
  beets.ui:main``, where the project declares that script (a target written with ``.``
  for the ``:`` is the same target);
- the name of one: "the console script is named `beets`", "installs a `pelican-themes`
  executable" -> the script's key, which the manifest declares or not (only where that
  manifest declares its scripts: a command of the program, "a `scan` command", is no
  script, and is not read);
- a crate's program: "a `cargo-nm` binary" -> the file it is built from (``src/bin/
  cargo-nm.rs``), which a crate that builds none of that name lacks;
- the build: "the project is built with setuptools", "its build backend is hatchling",
  "the bundles are built with tsup" -> ``build-system.build-backend`` (compared as the
  tool it is: ``poetry`` for ``poetry.core.masonry.api``), or the tools an npm package's
  ``build`` script runs, where the manifest states them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.program_files import BUILD_TOOLS, backend_family
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["BUILD_BACKENDS", "bind_programs"]

_I = re.IGNORECASE
_PROGRAM = r"(?:console[\s-]script|script|entry[\s-]point|executable|bin|command|cli)"
# "the console script `beet` runs `beets.ui:main`", "`django-admin` points to ..."
_RUNS = re.compile(
    rf"(?:\b{_PROGRAM}\s+)?`?(?P<name>[A-Za-z0-9][\w.\-]*)`?(?:\s+{_PROGRAM})?\s+"
    r"(?:runs|calls|invokes|starts|executes|points\s+(?:to|at)|maps\s+to|is\s+mapped\s+to|"
    r"resolves\s+to|->|→)\s+(?:the\s+)?(?:function\s+)?"
    r"`?(?P<target>[A-Za-z_.][\w./\-]*(?::[A-Za-z_][\w.]*)?)`?", _I)
# "the `pelican-import` entry point is `pelican.tools.pelican_import:main`"
_IS = re.compile(
    rf"`?(?P<name>[A-Za-z0-9][\w.\-]*)`?\s+{_PROGRAM}\s+(?:is|=)\s+"
    r"`?(?P<target>[A-Za-z_.][\w./\-]*(?::[A-Za-z_][\w.]*)?)`?", _I)
# "the console script is named `beets`", "installs a `pelican-themes` executable"
_NAMED = re.compile(
    r"\b(?:console[\s-]scripts?|entry[\s-]points?|executables?)\s+(?:is|are)\s+(?:named|called)\s+"
    r"`?(?P<name>[A-Za-z0-9][\w.\-]*)`?"
    r"|\binstalls\s+(?:an?|the)\s+(?!(?:single|one|only|sole|main|default|separate|"
    r"second|new|extra)\b)`?(?P<installed>[A-Za-z0-9][\w.\-]*)`?\s+"
    r"(?:console[\s-]script|executable|command|program)", _I)
# "a `cargo-ar` binary", "the binary named rust-lld": a program a crate builds
_BINARY = re.compile(
    r"\b(?:an?|the)\s+`?(?P<a>[A-Za-z][\w\-]*)`?\s+(?:binary|executable)\b"
    r"|\b(?:binary|executable)\s+(?:named|called)\s+(?!by\b)`?(?P<b>[A-Za-z][\w\-]*)`?", _I)
_TOOL = r"`?(?P<tool>[A-Za-z][\w.\-]*)`?"
# "built with setuptools", "the build backend is hatchling", "uses poetry-core as its build
# backend", "packaging uses setuptools"
_BUILT = tuple(re.compile(p, _I) for p in (
    rf"\b(?:built|packaged|bundled|compiled)\s+(?:with|by|using|via)\s+(?:the\s+)?{_TOOL}",
    rf"\bbuild[\s-](?:backend|system)\s+(?:is|=|:)\s+{_TOOL}",
    rf"\buses\s+{_TOOL}\s+as\s+(?:its|the)\s+build[\s-](?:backend|system)",
    rf"\bpackaging\s+uses\s+{_TOOL}",
))
# The tools a note says a Python project is built with
BUILD_BACKENDS = frozenset({
    "setuptools", "hatchling", "poetry", "flit", "pdm", "maturin", "scikit-build",
    "meson-python", "uv",
})  # fmt: skip
_SCRIPT_KEYS = ("project.scripts.", "project.gui-scripts.", "tool.poetry.scripts.", "bin.",
                "options.entry_points.console_scripts.")


def bind_programs(text: str, start: int, end: int, fp: Fingerprint,
                  taken: Sequence[tuple[int, int]] = ()) -> list[Binding]:  # fmt: skip
    """The ``config:`` anchors the sentence ``text[start:end]`` supports (module docstring)."""
    scripts = _scripts(fp)
    found: list[Binding] = []
    runs = [*_RUNS.finditer(text, start, end), *_IS.finditer(text, start, end)] if scripts else []
    for m in runs:
        entry = scripts.get(m["name"])
        said = m["target"].rstrip(".")
        if entry is None or any(a <= m.start("target") < b for a, b in taken) or not (
                "." in said or ":" in said or "/" in said):  # fmt: skip
            continue
        path, key, target = entry
        if said.replace(":", ".") == target.replace(":", ".") or said == f"./{target}":
            said = target  # the same target, written with a dot
        found.append(Binding(Anchor(AnchorKind.CONFIG, key, scope=path, version=said),
                             m["name"], m.span("target")))  # fmt: skip
    declaring = {path for path, _, _ in scripts.values() if infra_kind(path) is InfraKind.PYPROJECT}
    for m in _NAMED.finditer(text, start, end) if len(declaring) == 1 else ():
        name = m["name"] or m["installed"]
        path = next(iter(declaring))
        entry = scripts.get(name)
        key = entry[1] if entry is not None else f"{_own_key(path, scripts)}{name}"
        span = m.span("name") if m["name"] else m.span("installed")
        found.append(Binding(Anchor(AnchorKind.CONFIG, key, scope=path), name, span))
    bins = _cargo_bins(fp)
    for m in _BINARY.finditer(text, start, end) if bins else ():
        name = m["a"] or m["b"]
        span = m.span("a") if m["a"] else m.span("b")
        # "the stripped binary", "a static executable": a plain word before the noun
        # describes it, unless it is a binary the crate builds or is written as a name
        described = (name not in bins and m["a"] is not None and text[span[0] - 1] != "`"
                     and re.fullmatch(r"[a-z]+", name) is not None)  # fmt: skip
        if not described and not any(a <= span[0] < b for a, b in taken):
            source = bins.get(name, f"src/bin/{name}.rs")  # none so named: no such file
            found.append(Binding(Anchor(AnchorKind.FILE, source), name, span))
    for m in (m for pattern in _BUILT for m in pattern.finditer(text, start, end)):
        if any(a <= m.start("tool") < b for a, b in taken):
            continue
        tool = m["tool"].rstrip(".")
        place = _build_place(tool, fp)
        if place is not None:
            found.append(Binding(Anchor(AnchorKind.CONFIG, place[1], scope=place[0],
                                        version=tool), tool, m.span("tool")))  # fmt: skip
    return found


def _scripts(fp: Fingerprint) -> dict[str, tuple[str, str, str]]:
    """Each program a manifest installs -> (manifest, key, target), where one manifest
    declares that name."""
    return fp.derived("program_binding.scripts", _read_scripts)


def _read_scripts(fp: Fingerprint) -> dict[str, tuple[str, str, str]]:
    found: dict[str, list[tuple[str, str, str]]] = {}
    for path, values in fp.infra.items():
        if infra_kind(path) not in (InfraKind.PYPROJECT, InfraKind.PACKAGE_JSON, InfraKind.INI,
                                    InfraKind.CARGO_TOML):  # fmt: skip
            continue
        for v in values or ():
            prefix = next((p for p in _SCRIPT_KEYS if v.key.startswith(p)), None)
            if prefix is not None and v.text:
                found.setdefault(v.key[len(prefix):], []).append((path, v.key, v.text))
    return {name: places[0] for name, places in found.items() if len(places) == 1}


def _cargo_bins(fp: Fingerprint) -> dict[str, str]:
    """The programs the root ``Cargo.toml`` builds -> their source: ``[[bin]]`` entries,
    ``src/bin/NAME.rs`` and ``src/bin/NAME/main.rs``, and the package's own
    ``src/main.rs``; empty when it builds none (a library)."""
    return fp.derived("program_binding.bins", _read_bins)


def _read_bins(fp: Fingerprint) -> dict[str, str]:
    values = fp.infra.get("Cargo.toml") or ()
    found = {v.key[4:]: v.text for v in values if v.key.startswith("bin.") and v.text}
    for path in fp.code:
        parts = path.split("/")
        if parts[:2] == ["src", "bin"] and path.endswith(".rs"):
            if len(parts) == 3:
                found.setdefault(parts[2][:-3], path)
            elif len(parts) == 4 and parts[3] == "main.rs":
                found.setdefault(parts[2], path)
    package = next((v.text for v in values if v.key == "package.name"), None)
    if package and "src/main.rs" in fp.code:
        found.setdefault(package, "src/main.rs")
    return found


def _own_key(path: str, scripts: dict[str, tuple[str, str, str]]) -> str:
    """The table ``path`` declares its scripts in (``project.scripts.``)."""
    keys = [key for p, key, _ in scripts.values() if p == path]
    return next((k for k in _SCRIPT_KEYS if any(key.startswith(k) for key in keys)),
                "project.scripts.")  # fmt: skip


def _build_place(tool: str, fp: Fingerprint) -> tuple[str, str] | None:
    """(manifest, key) that says whether the project is built with ``tool``: the one
    ``pyproject.toml`` with a build backend, for a Python build tool; the one
    ``package.json`` whose build script runs a tool, for an npm one."""
    family = backend_family(tool)
    if family in BUILD_BACKENDS:
        places = [p for p, values in fp.infra.items() if infra_kind(p) is InfraKind.PYPROJECT
                  and any(v.key == "build-system.build-backend" for v in values or ())]
        return (places[0], "build-system.build-backend") if len(places) == 1 else None
    if tool.lower() in BUILD_TOOLS:
        places = [p for p, values in fp.infra.items() if infra_kind(p) is InfraKind.PACKAGE_JSON
                  and any(v.key == "build-tools" for v in values or ())]
        return (places[0], "build-tools") if len(places) == 1 else None
    return None
