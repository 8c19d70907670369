"""The defaults a JSON settings schema declares (issue #31).

A JupyterLab extension's ``schema/*.json``, a VS Code extension's ``package.json``
(``contributes.configuration``), any JSON Schema of settings: each property of a
``properties`` object that gives a ``default`` is a setting with that default::

    "refreshInterval": {"type": "number", "default": 3000,
                        "description": "Number of milliseconds between polls."}

Each is a ``ValueFact`` named for the property (a nested object's as ``outer.inner``), its
text the default as a literal (``3000``, ``"main"``, ``true``, ``null``; None for a list or
an object, which no stated value is compared with), its line the ``default``'s. The unit
of a number is read from the property's name (``pollIntervalMs``, ``timeout_seconds``) or
its description ("in milliseconds"), and kept as a fact of its own named
``<property>#unit`` (``ms``, ``s``, ``min``, ``h``, ``d``): two units, or none, and a
duration stated for it cannot be compared. ``#`` is no character of a setting's name.

Read from a text file's bytes when they look like a JSON object with ``properties`` and a
``default`` (the path is not known where a blob is read: one blob may sit at several).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from anchors.env_records import ValueFact

__all__ = ["MAX_SCHEMA_BYTES", "UNIT_SECONDS", "UNIT_SUFFIX", "schema_defaults", "unit_of"]

MAX_SCHEMA_BYTES = 512 * 1024  # a bigger JSON file is data, not a settings schema
_MAX_SETTINGS = 500
_DEPTH = 3
UNIT_SUFFIX = "#unit"
UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
# ``pollIntervalMs``, ``timeoutSeconds``, ``timeout_seconds``, ``delay_ms`` (not ``items``)
_NAME_UNIT = re.compile(
    r"(?:(?<=[a-z0-9])(?P<camel>Ms|MS|Millis|Milliseconds|Seconds|Secs|Sec|Minutes|Mins|Hours|"
    r"Days)|[_\-](?P<snake>ms|millis|milliseconds|seconds|secs|sec|minutes|mins|hours|days))\Z"
)
_TEXT_UNIT = re.compile(
    r"\b(?P<ms>milli-?seconds?|millisecs?|msecs?|ms)\b|\b(?P<s>seconds?|secs?)\b|"
    r"\b(?P<min>minutes?|mins?)\b|\b(?P<h>hours?|hrs?)\b|\b(?P<d>days?)\b",
    re.IGNORECASE,
)
_NAMED = {"ms": "ms", "millis": "ms", "milliseconds": "ms", "seconds": "s", "secs": "s",
          "sec": "s", "minutes": "min", "mins": "min", "hours": "h", "days": "d"}  # fmt: skip


def unit_of(name: str, description: str) -> str | None:
    """The unit a setting's number counts: from its name, else its description; None when
    neither says one, or they say different ones."""
    named = _NAME_UNIT.search(name.rpartition(".")[2])
    by_name = _NAMED.get((named["camel"] or named["snake"]).lower()) if named else None
    said = {next(k for k, v in m.groupdict().items() if v)
            for m in _TEXT_UNIT.finditer(description)}  # fmt: skip
    by_text = said.pop() if len(said) == 1 else None
    if by_name and len(said) <= 1 and by_text not in (None, by_name):
        return None
    return by_name or by_text


def schema_defaults(data: bytes) -> tuple[ValueFact, ...]:
    """The settings ``data`` declares with their defaults (and units), or none when it is
    not a JSON settings schema. Never raises."""
    head = data[:64].lstrip()
    if (not head.startswith(b"{") or len(data) > MAX_SCHEMA_BYTES
            or b'"default"' not in data or b'"properties"' not in data):  # fmt: skip
        return ()
    try:
        text = data.decode("utf-8-sig")
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return ()
    if not isinstance(doc, dict):
        return ()
    found: list[ValueFact] = []
    lines = _Lines(text)
    for properties in _property_tables(doc):
        for fact in _settings(properties, "", _DEPTH, lines):
            found.append(fact)
            if len(found) >= _MAX_SETTINGS:
                return tuple(found)
    return tuple(found)


def _property_tables(doc: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The ``properties`` objects that hold settings: the schema's own, and those of a VS
    Code extension's ``contributes.configuration`` (an object or a list of them)."""
    if isinstance(doc.get("properties"), dict):
        yield doc["properties"]
    contributes = doc.get("contributes")
    configuration = contributes.get("configuration") if isinstance(contributes, dict) else None
    for section in configuration if isinstance(configuration, list) else [configuration]:
        if isinstance(section, dict) and isinstance(section.get("properties"), dict):
            yield section["properties"]


def _settings(
    properties: Mapping[str, Any], prefix: str, depth: int, lines: _Lines
) -> Iterator[ValueFact]:
    for key, spec in properties.items():
        if not isinstance(spec, dict) or "#" in key:
            continue
        name = prefix + key
        if "default" in spec:
            line = lines.of_default(key)
            yield ValueFact(name, _literal(spec["default"]), line)
            description = " ".join(str(spec.get(k, "")) for k in
                                   ("title", "description", "markdownDescription"))  # fmt: skip
            unit = unit_of(name, description) if _is_number(spec["default"]) else None
            if unit is not None:
                yield ValueFact(name + UNIT_SUFFIX, unit, line)
        nested = spec.get("properties")
        if isinstance(nested, dict) and depth > 1:
            yield from _settings(nested, f"{name}.", depth - 1, lines)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _literal(value: object) -> str | None:
    """A JSON scalar as the literal it is written as; None for a list or an object."""
    if isinstance(value, dict | list):
        return None
    return json.dumps(value, ensure_ascii=False)


class _Lines:
    """The line a property's ``default`` is written on: after the first ``"key":`` that
    opens an object, the next ``"default"``."""

    def __init__(self, text: str) -> None:
        self.text = text

    def of_default(self, key: str) -> int:
        opened = re.search(rf'"{re.escape(key)}"\s*:\s*\{{', self.text)
        if opened is None:
            return 1
        at = self.text.find('"default"', opened.end())
        at = opened.start() if at == -1 else at
        return self.text.count("\n", 0, at) + 1
