"""Arguments a tool refused, said in one short sentence: the field and what it allows,
read from the tool's own input schema (so the sentence and the schema never disagree),
instead of pydantic's report with its links."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

__all__ = ["refusal"]

_TYPES = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
}


def _resolve(prop: Mapping[str, Any], schema: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return schema.get("$defs", {}).get(ref.removeprefix("#/$defs/"), prop)
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        real = [b for b in branches if b != {"type": "null"}]
        if len(real) == 1:
            return _resolve(real[0], schema)
    return prop


def allowed(prop: Mapping[str, Any], schema: Mapping[str, Any]) -> str:
    """What a property of ``schema`` allows, in words."""
    prop = _resolve(prop, schema)
    if "enum" in prop:
        return "one of " + ", ".join(str(v) for v in prop["enum"])
    what = _TYPES.get(str(prop.get("type")), "a value")
    low, high = prop.get("minimum"), prop.get("maximum")
    if low is not None and high is not None:
        what += f" from {low} to {high}"
    elif low is not None:
        what += f" of at least {low}"
    elif high is not None:
        what += f" of at most {high}"
    if "maxLength" in prop:
        what += f" of at most {prop['maxLength']} characters"
    if "maxItems" in prop:
        what += f" of at most {prop['maxItems']} items"
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        item = _resolve(prop["items"], schema)
        if item.get("type") == "string":
            what += " of strings"
    return what


def _got(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refusal(
    tool: str, exc: ValidationError, schema: Mapping[str, Any], arguments: Mapping[str, Any]
) -> str:
    """One sentence for the first argument ``exc`` refused (and how many more)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = [str(p) for p in first["loc"]]
    field = loc[0] if loc else "arguments"
    props = schema.get("properties", {})
    what = allowed(props[field], schema) if field in props else "nothing (no such argument)"
    if first["type"] == "missing":
        sentence = f"{tool}: {field} is required ({what})"
    else:
        at = f" (item {loc[1]})" if len(loc) > 1 else ""
        given = arguments.get(field, first.get("input"))
        sentence = f"{tool}: {field}{at} must be {what}, not {_got(given)}"
    more = len({e["loc"][:1] for e in errors}) - 1
    return sentence + (f"; {more} more argument{'s' if more > 1 else ''} refused" if more else "")
