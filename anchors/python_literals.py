"""The source text of a literal in Python code (``3``, ``"x"``, ``-1.5``, ``None``), read
from a tree-sitter node; ``None`` for anything the code computes.

Its own module because the per-file reader (``anchors.pyfacts``) and the signature reader it
uses (``anchors.signatures``, which reads parameter defaults) both need it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only annotations: importing this module loads no grammar library
    from tree_sitter import Node

__all__ = ["literal_text", "string_value"]

_LITERALS = frozenset({"integer", "float", "true", "false", "none"})


def literal_text(node: Node) -> str | None:
    """The source text of a literal value (a number, a plain string, a bool, None, a
    negative number); None for anything the code computes."""
    if node.type in _LITERALS:
        return (node.text or b"").decode(errors="replace")
    if node.type == "string":
        parts = list(_named(node))
        plain = all(p.type in ("string_start", "string_content", "string_end") for p in parts)
        prefix = (parts[0].text or b"").lower() if parts else b""
        if plain and b"f" not in prefix and b"b" not in prefix:
            return (node.text or b"").decode(errors="replace")
        return None
    if node.type == "unary_operator" and (node.text or b"").startswith(b"-"):
        operand = node.child_by_field_name("argument")
        if operand is not None and operand.type in ("integer", "float"):
            return (node.text or b"").decode(errors="replace")
    return None


def string_value(node: Node) -> str | None:
    """The value of a plain string literal (``"x"``); None for anything else: an empty
    string, an f-string, bytes, an escape, a concatenation."""
    if node.type != "string":
        return None
    parts = list(_named(node))
    if len(parts) != 3 or parts[1].type != "string_content":
        return None
    prefix = (parts[0].text or b"").lower()
    if b"f" in prefix or b"b" in prefix:
        return None
    return (parts[1].text or b"").decode(errors="replace") or None


def _named(node: Node) -> Iterator[Node]:
    return (child for child in node.children if child.is_named and child.type != "comment")
