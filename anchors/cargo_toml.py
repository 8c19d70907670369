"""What a ``Cargo.toml`` declares: its crate dependencies as ``Dependency`` rows
(ecosystem "cargo"). Its ``rust-version`` is read with the other toolchain files
(``anchors.toolchain_files``).

Read with ``tomllib`` from bytes, never built; broken TOML declares nothing. Tables read:
``[dependencies]`` (runtime), ``[dev-dependencies]`` and ``[build-dependencies]`` (not
runtime), the same under ``[target.'cfg(...)'.*]``, and the legacy ``dev_dependencies``
spellings. An entry is ``name = "1.2"`` or a table (``{ version = "1", features = [...] }``;
``package = "real-name"`` renames it, and the real crate is the dependency; ``optional =
true`` makes it a feature's, not runtime); ``workspace = true`` takes its version from the
same file's ``[workspace.dependencies]`` when it is there, else the spec is "". A path or
git dependency without a version has the spec "". Crate names are lower case with "_" as
"-", as crates.io treats them as one.

``cargo_values`` gives what else the manifest states that a note may claim, as
infrastructure values of the file (``config:Cargo.toml::KEY``): the default features
(``features.default``, the set sorted and joined by ","; and ``features.default.NAME`` for
each), every other feature with what it enables, one value each
(``features.unstable-kv`` = ``log/kv``; "" for a feature that enables nothing), and each
optional crate (``dependencies.NAME.optional`` = ``true``), with the feature Cargo makes
of its name when no feature enables it as ``dep:NAME`` (``features.regex`` = ``dep:regex``
and ``regex``), and the target of a crate only some targets depend on
(``dependencies.libc.target`` = ``cfg(unix)``), ``package.build`` as written, and what
docs.rs builds the documentation with (``package.metadata.docs.rs.all-features``,
``package.metadata.docs.rs.features.NAME``). A key the file does not state
is absent, which checks "has no default features" and "log is an optional dependency"
both ways.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from anchors.facts import Dependency
from anchors.infra_values import InfraValue

__all__ = ["cargo_values", "crate_name", "default_features", "parse_cargo_toml",
           "read_cargo_toml"]

_TABLES = (("dependencies", True), ("dev-dependencies", False), ("dev_dependencies", False),
           ("build-dependencies", False), ("build_dependencies", False))  # fmt: skip


def crate_name(name: str) -> str:
    """``Serde_JSON`` -> ``serde-json``: crates.io does not tell "_" from "-"."""
    return name.strip().lower().replace("_", "-")


def read_cargo_toml(data: bytes) -> Mapping[str, Any]:
    """The parsed document; empty when it is not valid UTF-8 TOML."""
    try:
        return tomllib.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return {}


def parse_cargo_toml(data: bytes, path: str) -> list[Dependency]:
    """The crates ``Cargo.toml`` at ``path`` depends on (see the module docstring); the
    package's own name is not a dependency."""
    doc = read_cargo_toml(data)
    own = _table(doc.get("package")).get("name")
    own_name = crate_name(own) if isinstance(own, str) else None
    shared = _table(_table(doc.get("workspace")).get("dependencies"))
    found: dict[Dependency, None] = {}
    for key, value, runtime in _entries(doc):
        if isinstance(value, Mapping) and value.get("workspace") is True:
            inherited = shared.get(key)
            # the member may add features or make it optional; name and version are shared
            value = {**(inherited if isinstance(inherited, Mapping) else
                        {"version": inherited} if isinstance(inherited, str) else {}),
                     **{k: v for k, v in value.items() if k != "workspace"}}  # fmt: skip
        dep = _dependency(key, value, path, runtime)
        if dep is not None and dep.name != own_name:
            found.setdefault(dep, None)
    return list(found)


def _entries(doc: Mapping[str, Any]) -> Iterator[tuple[str, Any, bool]]:
    scopes = [doc, *(t for t in _table(doc.get("target")).values() if isinstance(t, Mapping))]
    for scope in scopes:
        for table, runtime in _TABLES:
            for key, value in _table(scope.get(table)).items():
                yield key, value, runtime


def _dependency(key: str, value: Any, path: str, runtime: bool) -> Dependency | None:
    if isinstance(value, str):
        return Dependency(crate_name(key), value.strip(), path, runtime, "cargo")
    if not isinstance(value, Mapping):
        return None
    real = value.get("package")
    name = crate_name(real if isinstance(real, str) and real.strip() else key)
    version = value.get("version")
    spec = version.strip() if isinstance(version, str) else ""
    optional = value.get("optional") is True
    return Dependency(name, spec, path, runtime and not optional, "cargo", runtime and optional)


def _table(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def default_features(names: list[str] | tuple[str, ...]) -> str:
    """A set of features as ``features.default`` holds it: sorted, joined by ","."""
    return ",".join(sorted({n.strip() for n in names if n.strip()}))


def cargo_values(doc: Mapping[str, Any], text: str) -> Iterator[InfraValue]:
    """The default features and the optional crates of a parsed ``Cargo.toml`` (see the
    module docstring); ``text`` gives the lines."""
    features = _table(doc.get("features"))
    default = features.get("default")
    if isinstance(default, list) and default and all(isinstance(f, str) for f in default):
        line = _line(text, r"^\s*default\s*=", r"^\s*\[features\]")
        yield InfraValue("features.default", default_features(default), line)
        for feature in dict.fromkeys(default):
            yield InfraValue(f"features.default.{feature.strip()}", "true", line)
    for name, enables in features.items():
        if name == "default" or not isinstance(enables, list):
            continue
        line = _line(text, rf"^\s*{re.escape(name)}\s*=", r"^\s*\[features\]")
        items = [f.strip() for f in enables if isinstance(f, str) and f.strip()]
        # (``dep:anstream`` is said "enables anstream" too)
        said = [*items, *(i.removeprefix("dep:") for i in items if i.startswith("dep:"))]
        for item in dict.fromkeys(said or [""]):
            yield InfraValue(f"features.{name}", item, line)
    # An optional crate no feature names as ``dep:NAME`` is a feature of its own name.
    explicit = {i for e in features.values() if isinstance(e, list) for i in e
                if isinstance(i, str) and i.startswith("dep:")}  # fmt: skip
    for key, value, runtime in _entries(doc):
        if runtime and isinstance(value, Mapping) and value.get("optional") is True:
            real = value.get("package")
            name = crate_name(real if isinstance(real, str) and real.strip() else key)
            escaped = re.escape(key)
            line = _line(text, rf"^\s*\[[^\]\n]*dependencies\.{escaped}\s*\]", r"\A")
            if line == 1:  # an inline table: "humantime = { version = ..., optional = true }"
                line = _line(text, rf"^\s*{escaped}\s*=\s*\{{", r"^\s*\[[^\]\n]*dependencies\]")
            yield InfraValue(f"dependencies.{name}.optional", "true", line)
            if f"dep:{key}" not in explicit and key not in features:
                yield InfraValue(f"features.{key}", f"dep:{key}", line)
                yield InfraValue(f"features.{key}", key, line)
    yield from _target_values(doc, text)
    yield from _package_values(doc, text)


def _package_values(doc: Mapping[str, Any], text: str) -> Iterator[InfraValue]:
    """``package.build`` as written (``false``, or the build script's path), and what
    docs.rs builds the documentation with (``[package.metadata.docs.rs]``): all features
    (``...all-features``), or each one it names (``...features.NAME``)."""
    package = _table(doc.get("package"))
    build = package.get("build")
    if isinstance(build, bool | str):
        written = str(build).lower() if isinstance(build, bool) else build.strip()
        line = _line(text, r"^\s*build\s*=", r"^\s*\[package\]")
        yield InfraValue("package.build", written, line)
    docs = _table(_table(_table(package.get("metadata")).get("docs")).get("rs"))
    line = _line(text, r"^\s*(?:all-)?features\s*=", r"^\s*\[package\.metadata\.docs\.rs\]")
    if docs.get("all-features") is True:
        yield InfraValue("package.metadata.docs.rs.all-features", "true", line)
    named = docs.get("features")
    for feature in named if isinstance(named, list) else ():
        if isinstance(feature, str) and feature.strip():
            yield InfraValue(f"package.metadata.docs.rs.features.{feature.strip()}", "true", line)


def _target_values(doc: Mapping[str, Any], text: str) -> Iterator[InfraValue]:
    """Each crate a ``[target.'cfg(...)'.dependencies]`` table declares, with the target:
    ``dependencies.libc.target`` = ``cfg(unix)``; none for a crate of every target."""
    for cfg, scope in _table(doc.get("target")).items():
        if not isinstance(scope, Mapping):
            continue
        for table, runtime in _TABLES:
            for key, value in _table(scope.get(table)).items():
                real = value.get("package") if isinstance(value, Mapping) else None
                name = crate_name(real if isinstance(real, str) and real.strip() else key)
                line = _line(text, rf"^\s*\[target\.[^\n]*{re.escape(key)}", r"\A")
                if runtime:
                    yield InfraValue(f"dependencies.{name}.target", str(cfg).strip(), line)


def _line(text: str, pattern: str, after: str) -> int:
    """The line of the first match of ``pattern`` after ``after`` (a section); 1 if none."""
    section = re.search(after, text, re.MULTILINE)
    found = re.compile(pattern, re.MULTILINE).search(text, section.end() if section else 0)
    return text.count("\n", 0, found.start()) + 1 if found else 1
