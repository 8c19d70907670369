"""The toolchain versions a repository's own files state, as ``InfraValue`` s (issue #32),
read by ``anchors.infra_facts.read_infra`` beside Dockerfiles and CI workflows:

- ``.nvmrc``, ``.node-version``: ``node-version`` (the first line: ``18``, ``v18.17.0``,
  ``lts/hydrogen``, as written);
- ``.tool-versions`` (asdf, mise): ``nodejs``/``node`` -> ``node-version``,
  ``golang``/``go`` -> ``go-version``, ``rust`` -> ``rust-version``, ``python`` ->
  ``python-version``; the first version of a line is the one used (the rest are
  fallbacks);
- ``rust-toolchain``, ``rust-toolchain.toml``: ``[toolchain] channel`` (or the legacy
  one-line file) -> ``rust-version`` (``1.75``, ``stable``, ``nightly-2024-01-01``);
- ``package.json``: ``engines.node`` -> ``node-version``, a range (``>=18``); every
  ``engines.<tool>`` as written (``engines.node``, ``engines.npm``), and
  ``packageManager`` (``yarn@3.5.0``);
- ``tsconfig.json`` (and ``tsconfig.*.json``, ``jsconfig.json``; JSON with comments and
  trailing commas): ``compilerOptions.target``, ``compilerOptions.module``,
  ``compilerOptions.moduleResolution``, ``compilerOptions.jsx``, ``compilerOptions.strict``
  as written, and ``extends`` / ``references`` (where options it does not state may
  come from: ``absence_settles``);
- ``go.mod``: ``go 1.21`` -> ``go-version``, ``toolchain go1.21.3`` -> ``go-toolchain``;
- ``Cargo.toml``: ``package.rust-version`` (or ``[workspace.package]``'s) ->
  ``rust-version``; ``package.edition`` -> ``edition`` (2015 when not written); a
  ``go.mod``'s ``module`` path -> ``module``; a crate's and a package's own name ->
  ``package.name``, ``name``. The ``go`` line and the ``rust-version`` are also given as
  written (``go``,
  ``package.rust-version``): what a note says the file declares is that value exactly;
- ``pyproject.toml`` and ``package.json``'s programs and build: ``anchors.program_files``.

A value is kept as the file writes it: an alias (``stable``, ``lts/*``, ``system``) is a
value that compares as unknown (``anchors.infra_compare``). ``go.mod``'s ``go`` and
``Cargo.toml``'s ``rust-version`` are minimums the project declares, not the version a
build uses: ``compared_text`` gives the range a stated version is to be compared with.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from anchors.cargo_toml import cargo_values
from anchors.gomod import read_go_mod
from anchors.infra_values import InfraKind, InfraValue
from anchors.jsonc import loads_jsonc
from anchors.package_json import engines
from anchors.program_files import package_json_programs, pyproject_values

__all__ = ["absence_settles", "compared_text", "read_toolchain"]

_ASDF_KEYS = {"nodejs": "node-version", "node": "node-version", "golang": "go-version",
              "go": "go-version", "rust": "rust-version", "python": "python-version"}  # fmt: skip


def read_toolchain(kind: InfraKind, text: str, path: str) -> tuple[InfraValue, ...] | None:
    """The values a toolchain file or manifest of ``kind`` states (the module docstring);
    None when a JSON or TOML one is not valid (what it states cannot be told), () when it
    states none. Never raises."""
    name = path.rpartition("/")[2].lower()
    try:
        if kind is InfraKind.NODE_VERSION_FILE:
            return tuple(_first_line("node-version", text))
        if kind is InfraKind.TOOL_VERSIONS:
            return tuple(_tool_versions(text))
        if kind is InfraKind.RUST_TOOLCHAIN:
            return tuple(_rust_toolchain(text, toml=name.endswith(".toml")))
        if kind is InfraKind.PACKAGE_JSON:
            return tuple(_package_json(text))
        if kind is InfraKind.TSCONFIG:
            return tuple(_tsconfig(text))
        if kind is InfraKind.GO_MOD:
            return tuple(_go_mod(text))
        if kind is InfraKind.CARGO_TOML:
            return tuple(_cargo(text))
        if kind is InfraKind.PYPROJECT:
            return tuple(pyproject_values(text))
    except (ValueError, RecursionError):  # JSON's and TOML's decode errors are ValueErrors
        return None
    return ()


# (file kind, key) whose value is the lowest version the project accepts
_MINIMUMS = frozenset({(InfraKind.GO_MOD, "go-version"), (InfraKind.CARGO_TOML, "rust-version")})


def compared_text(kind: InfraKind | None, value: InfraValue) -> str | None:
    """The text a stated version is compared with (``compare_version``): ``>=1.21`` for
    ``go 1.21`` in a ``go.mod`` and for a ``Cargo.toml``'s ``rust-version``, so "built with
    Go 1.22" is not refuted by the minimum and "Go 1.19" is; the value as written for every
    other file."""
    if value.text is None or (kind, value.key) not in _MINIMUMS:
        return value.text
    return f">={value.text}"


def _package_json(text: str) -> Iterator[InfraValue]:
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise ValueError("package.json is not an object")
    name = doc.get("name")
    if isinstance(name, str) and name.strip():
        yield InfraValue("name", name.strip(), _line_of(text, r'"name"\s*:', after=r"\A"))
    version = doc.get("version")
    if isinstance(version, str) and version.strip():
        at = _line_of(text, r'"version"\s*:', after=r"\A")
        yield InfraValue("version", version.strip(), at)
    stated = engines(doc)
    node = stated.get("node")
    if node is not None:
        at = _line_of(text, r'"node"\s*:', after=r'"engines"')
        yield InfraValue("node-version", node or None, at)
    for tool, spec in stated.items():  # as written: "engines.node is >=18"
        if _KEY_WORD.fullmatch(tool) and spec:  # a key a config: anchor can carry
            at = _line_of(text, rf'"{re.escape(tool)}"\s*:', after=r'"engines"')
            yield InfraValue(f"engines.{tool.strip()}", spec, at)
    manager = doc.get("packageManager")
    if isinstance(manager, str) and manager.strip():
        at = _line_of(text, r'"packageManager"\s*:', after=r"\A")
        yield InfraValue("packageManager", manager.strip(), at)
    yield from package_json_programs(doc, text)


_KEY_WORD = re.compile(r"[\w@/-]+(?:\.[\w@/-]+)*")
# The compiler options a note states of a tsconfig ("compiles to ES2020", "strict mode").
_COMPILER_OPTIONS = ("target", "module", "moduleResolution", "jsx", "strict")


def _tsconfig(text: str) -> Iterator[InfraValue]:
    doc = loads_jsonc(text)
    if not isinstance(doc, dict):
        raise ValueError("tsconfig is not an object")
    options = doc.get("compilerOptions")
    options = options if isinstance(options, Mapping) else {}
    for key in _COMPILER_OPTIONS:
        value = options.get(key)
        if isinstance(value, bool):
            value = "true" if value else "false"
        if isinstance(value, str) and value.strip():
            at = _line_of(text, rf'"{key}"\s*:', after=r'"compilerOptions"')
            yield InfraValue(f"compilerOptions.{key}", value.strip(), at)
    extends = doc.get("extends")  # a path, or (TypeScript 5) a list of them
    bases = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
    for base in bases:
        if isinstance(base, str) and base.strip():
            at = _line_of(text, r'"extends"\s*:', after=r"\A")
            yield InfraValue("extends", base.strip(), at)
    if isinstance(doc.get("references"), list) and doc["references"]:
        yield InfraValue("references", None, _line_of(text, r'"references"\s*:', after=r"\A"))


def absence_settles(key: str, files: Iterable[tuple[InfraKind | None, tuple[InfraValue, ...]]]
                    ) -> bool:  # fmt: skip
    """Whether files (kind, values) that state no ``key`` say there is none: a
    ``package.json``'s ``engines`` and ``packageManager`` are there or not at all; a
    tsconfig's compiler option is set nowhere else when it extends no other configuration
    and references no project (a compiler default is no value a note would state). False
    when no file of the key's kind is among them."""
    if key.startswith("engines.") or key == "packageManager":
        kind = InfraKind.PACKAGE_JSON
    elif key.partition(".")[::2] in (("compilerOptions", o) for o in _COMPILER_OPTIONS):
        kind = InfraKind.TSCONFIG  # an option read (``_tsconfig``): one not read may be set
    else:
        return False
    own = [values for k, values in files if k is kind]
    return bool(own) and not any(v.key in ("extends", "references") for vs in own for v in vs)


def _go_mod(text: str) -> Iterator[InfraValue]:
    mod = read_go_mod(text.encode())
    if mod.module is not None:
        yield InfraValue("module", mod.module, _line_of(text, r"^\s*module\s", after=r"\A"))
    if mod.go is not None:
        yield InfraValue("go-version", mod.go, mod.go_line)
        yield InfraValue("go", mod.go, mod.go_line)  # the line as written, not a minimum
    if mod.toolchain is not None:
        yield InfraValue("go-toolchain", mod.toolchain, mod.toolchain_line)


def _first_line(key: str, text: str) -> Iterator[InfraValue]:
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield InfraValue(key, line, number)
            return


def _tool_versions(text: str) -> Iterator[InfraValue]:
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if len(words) >= 2 and words[0].lower() in _ASDF_KEYS:
            yield InfraValue(_ASDF_KEYS[words[0].lower()], words[1], number)


def _rust_toolchain(text: str, *, toml: bool) -> Iterator[InfraValue]:
    """``rust-toolchain.toml``, or ``rust-toolchain`` in either of its forms (TOML, or
    the legacy file holding only the channel)."""
    if toml or "[toolchain]" in text:
        doc: Mapping[str, Any] = tomllib.loads(text)
        table = doc.get("toolchain")
        channel = table.get("channel") if isinstance(table, Mapping) else None
        if isinstance(channel, str) and channel.strip():
            yield InfraValue(
                "rust-version",
                channel.strip(),
                _line_of(text, r"^\s*channel\s*=", after=r"^\s*\[toolchain\]"),
            )
        return
    yield from _first_line("rust-version", text)


def _cargo(text: str) -> Iterator[InfraValue]:
    doc = tomllib.loads(text)
    tables = [("package", doc.get("package")),
              ("workspace.package", _get(doc.get("workspace"), "package"))]  # fmt: skip
    name = _get(doc.get("package"), "name")
    if isinstance(name, str) and name.strip():
        yield InfraValue("package.name", name.strip(), _line_of(
            text, r"^\s*name\s*=", after=r"^\s*\[package\]"))  # fmt: skip
    version = _get(doc.get("package"), "version")
    if isinstance(version, str) and version.strip():  # (``version.workspace = true``: not one)
        at = _line_of(text, r"^\s*version\s*=", after=r"^\s*\[package\]")
        yield InfraValue("package.version", version.strip(), at)
    edition = _get(doc.get("package"), "edition")
    if isinstance(edition, str) and edition.strip():
        at = _line_of(text, r"^\s*edition\s*=", after=r"^\s*\[package\]")
        yield InfraValue("edition", edition.strip(), at)
    elif edition is None and isinstance(doc.get("package"), dict):
        # no edition written: Cargo builds the crate as 2015
        yield InfraValue("edition", "2015", _line_of(text, r"^\s*\[package\]", after=r"\A"))
    for header, table in tables:
        value = _get(table, "rust-version")
        if isinstance(value, str) and value.strip():
            at = _line_of(text, r"^\s*rust-version\s*=", after=rf"^\s*\[{re.escape(header)}\]")
            yield InfraValue("rust-version", value.strip(), at)
            yield InfraValue("package.rust-version", value.strip(), at)  # as written
            break
    yield from cargo_values(doc, text)  # default features, optional crates
    bins = doc.get("bin")
    for entry in bins if isinstance(bins, list) else ():  # ``[[bin]]``: the programs it builds
        program = _get(entry, "name")
        if isinstance(program, str) and program.strip():
            path = _get(entry, "path")
            at = _line_of(text, rf"^\s*name\s*=\s*[\"']{re.escape(program)}",
                          after=r"^\s*\[\[bin\]\]")
            yield InfraValue(f"bin.{program.strip()}",
                             path if isinstance(path, str) else f"src/bin/{program}.rs", at)


def _get(table: Any, key: str) -> Any:
    return table.get(key) if isinstance(table, Mapping) else None


def _line_of(text: str, pattern: str, *, after: str) -> int:
    """The line of the first match of ``pattern`` after the first match of ``after`` (a
    section), else of the first match anywhere; 1 when none matches."""
    section = re.search(after, text, re.MULTILINE)
    start = section.end() if section else 0
    found = re.compile(pattern, re.MULTILINE).search(text, start) or re.search(
        pattern, text, re.MULTILINE)  # fmt: skip
    return text.count("\n", 0, found.start()) + 1 if found else 1
