"""The JSON schemas a client is sent in ``tools/list``, without what pydantic adds for
people reading them in an editor: titles, the docstring of each enum, ``null`` branches of
fields the results leave out (a tool's structured content never holds a null field: it
is dumped with ``exclude_none``), and defaults of outputs. Every type, closed set and
limit stays; each model is defined once per tool under ``$defs``, and the two closed sets
an output keeps (``Status``, ``Band``) are written where they are used."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["compact_input", "compact_output"]


def _node(schema: dict[str, Any], output: bool) -> None:
    schema.pop("title", None)
    if output and schema.get("additionalProperties") is False:
        del schema["additionalProperties"]  # the server makes its results; it adds nothing
    if "enum" in schema:
        schema.pop("description", None)  # an enum's docstring; the values say it
    if output or schema.get("default", 0) is None:
        schema.pop("default", None)
    required = set(schema.get("required", ()))
    for name, prop in schema.get("properties", {}).items():
        branches = prop.get("anyOf")
        if name not in required and isinstance(branches, list) and {"type": "null"} in branches:
            rest = [b for b in branches if b != {"type": "null"}]
            prop.pop("anyOf")
            if len(rest) == 1:
                prop.update(rest[0])
            else:
                prop["anyOf"] = rest
        _node(prop, output)
    for definition in schema.get("$defs", {}).values():
        _node(definition, output)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            _node(schema[key], output)
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key, ()):
            _node(branch, output)
    branches = schema.get("anyOf")
    if isinstance(branches, list) and branches and all(list(b) == ["type"] for b in branches):
        # ``{"anyOf": [{"type": "string"}, {"type": "null"}]}``: one type list says the same
        schema["type"] = [b["type"] for b in schema.pop("anyOf")]


# Closed sets an output schema keeps (the agent reads what they mean in the instructions);
# the others (reason codes, rules, outcomes) are strings there, and checked on the server,
# which validates every result against its pydantic model before it is sent.
KEPT_ENUMS = frozenset({"Status", "Band"})


def _inline_enums(node: object, defs: dict[str, Any]) -> None:
    if isinstance(node, list):
        for item in node:
            _inline_enums(item, defs)
    elif isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix("#/$defs/")
            target = defs.get(name, {})
            if "enum" in target:
                del node["$ref"]
                if name in KEPT_ENUMS:  # the closed set, in place: shorter than a reference
                    node["enum"] = list(target["enum"])
                else:
                    node["type"] = "string"
        for value in node.values():
            _inline_enums(value, defs)


def _drop_unused(schema: dict[str, Any]) -> None:
    defs = schema.get("$defs", {})
    while True:
        text = json.dumps({k: v for k, v in schema.items() if k != "$defs"}) + json.dumps(defs)
        unused = [name for name in defs if f'"#/$defs/{name}"' not in text]
        if not unused:
            break
        for name in unused:
            del defs[name]
    if not defs:
        schema.pop("$defs", None)


def _undescribed(node: object) -> None:
    if isinstance(node, list):
        for item in node:
            _undescribed(item)
    elif isinstance(node, dict):
        if isinstance(node.get("description"), str):
            del node["description"]
        for key, value in node.items():
            if key != "properties":
                _undescribed(value)
            else:
                for prop in value.values():
                    _undescribed(prop)


def compact_output(schema: dict[str, Any]) -> None:
    """Compact an output schema in place; what the fields mean is said once, in the
    server's instructions, not in every tool's schema."""
    _node(schema, output=True)
    _undescribed(schema)
    defs = schema.get("$defs", {})
    _inline_enums({k: v for k, v in schema.items() if k != "$defs"}, defs)
    _inline_enums(list(defs.values()), defs)
    _drop_unused(schema)


def compact_input(schema: dict[str, Any]) -> None:
    """Compact an input schema in place (defaults other than null are kept: they say
    what leaving an argument out means)."""
    _node(schema, output=False)
