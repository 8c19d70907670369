"""What a ``package.json`` declares: its dependencies as ``Dependency`` rows (ecosystem
"npm"), and the ``engines`` it states.

Read from bytes, never run. Invalid JSON, or a document that is not an object, declares
nothing: a broken manifest must not take the fingerprint down. Ranges are kept as written
(``^3.2.0``, ``workspace:*``, ``git+https://...``): ``anchors.semver`` decides what set of
versions, if any, each names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from anchors.facts import Dependency

__all__ = ["engines", "package_name", "parse_package_json", "read_package_json"]

# The tables that declare dependencies, and whether the running package needs them. Peer
# and optional dependencies are installed beside it and used at run time.
_TABLES = (("dependencies", True), ("peerDependencies", True),
           ("optionalDependencies", True), ("devDependencies", False))  # fmt: skip


def read_package_json(data: bytes) -> Mapping[str, Any]:
    """The document's top-level object; empty when it is not valid JSON or not an object."""
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return doc if isinstance(doc, dict) else {}


def parse_package_json(data: bytes, path: str) -> list[Dependency]:
    """The dependencies ``package.json`` at ``path`` declares: ``dependencies``,
    ``peerDependencies`` and ``optionalDependencies`` (runtime) and ``devDependencies``
    (not runtime). Names lower-cased as written (``@vue/cli`` kept scoped); the package's
    own ``name`` is not a dependency; an entry whose range is not text is skipped."""
    doc = read_package_json(data)
    own = package_name(doc)
    found: dict[Dependency, None] = {}
    for table, runtime in _TABLES:
        for name, spec in _table(doc.get(table)).items():
            if not isinstance(spec, str) or not name.strip():
                continue
            key = name.strip().lower()
            if key != own:
                peer = table == "peerDependencies"
                found.setdefault(Dependency(key, spec.strip(), path, runtime, "npm", peer=peer),
                                 None)  # fmt: skip
    return list(found)


def package_name(doc: bytes | Mapping[str, Any]) -> str | None:
    """The package's own name, lower case, or None."""
    name = _doc(doc).get("name")
    return name.strip().lower() if isinstance(name, str) and name.strip() else None


def engines(doc: bytes | Mapping[str, Any]) -> dict[str, str]:
    """``engines``: tool -> range as written (``{"node": ">=18"}``)."""
    return {k: v.strip() for k, v in _table(_doc(doc).get("engines")).items() if isinstance(v, str)}


def _doc(doc: bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The functions take the file's bytes or the object ``read_package_json`` gave."""
    return read_package_json(doc) if isinstance(doc, bytes) else doc


def _table(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}
