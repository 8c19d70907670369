"""How deep and how large a free-form JSON value anchormem stores may be, and what a
listing shows of one that is not.

An audit entry's ``detail`` is the one free-form JSON value the store keeps. Everything
that shows it (the CLI's JSON, the MCP output models, the owner's socket) walks it
recursively, and pydantic stops at a few hundred levels: one entry nested 500 deep made
``audit`` fail for the whole store. So an import refuses a value over these bounds, and a
row already stored over them (by an older version, or by hand) is shown as a short
placeholder instead of breaking the listing it is in.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_DETAIL_CHARS",
    "MAX_DETAIL_DEPTH",
    "MAX_LINE_CHARS",
    "MAX_LINE_DEPTH",
    "nesting",
    "shown_detail",
]

# What anchormem writes itself nests at most 4 deep (a verdict's broken anchors); the
# bounds leave room for that and stay far below the few hundred levels where the
# renderers give up.
MAX_DETAIL_DEPTH = 16
MAX_DETAIL_CHARS = 100_000
# An export line: a memory with its receipts, observations and trail, whose own objects
# nest 4 deep around a detail.
MAX_LINE_DEPTH = MAX_DETAIL_DEPTH + 8
# A memory with tens of thousands of observations fits; a line that does not is refused
# before it is parsed.
MAX_LINE_CHARS = 32 * 1024 * 1024


def nesting(value: object, stop: int) -> int:
    """How deep ``value`` nests (a scalar 0, ``[]`` 1, ``{"a": []}`` 2), counted without
    recursion, and no further than ``stop + 1`` (enough to say it is too deep)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if level > stop:
            return level
        stack.extend((child, level + 1) for child in children)
    return deepest


def shown_detail(raw: object) -> dict[str, Any]:
    """A stored ``detail`` as a listing shows it: the object itself when it is within the
    bounds, else a placeholder saying why it is not shown. Never raises: one bad row must
    not break the listing it is in."""
    if raw is None or raw == "":
        return {}
    if not isinstance(raw, str) or len(raw) > MAX_DETAIL_CHARS:
        return _unreadable(f"larger than {MAX_DETAIL_CHARS:,} characters")
    try:
        value = json.loads(raw)
    except RecursionError:
        return _unreadable(f"nested deeper than {MAX_DETAIL_DEPTH} levels")
    except ValueError:
        return _unreadable("not valid JSON")
    if not isinstance(value, dict):
        return _unreadable("not a JSON object")
    if nesting(value, MAX_DETAIL_DEPTH) > MAX_DETAIL_DEPTH:
        return _unreadable(f"nested deeper than {MAX_DETAIL_DEPTH} levels")
    return value


def _unreadable(why: str) -> dict[str, Any]:
    return {"unreadable": f"this entry's detail is {why}; not shown"}
