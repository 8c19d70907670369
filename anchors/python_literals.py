"""The source text of a literal in Python code (``3``, ``"x"``, ``-1.5``, ``None``, and
arithmetic of number literals: ``10 * 60``), read from a tree-sitter node; ``None`` for
anything else the code computes. ``anchors.literals`` folds the arithmetic to its number.

Its own module because the per-file reader (``anchors.pyfacts``) and the signature reader it
uses (``anchors.signatures``, which reads parameter defaults) both need it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from anchors.literals import is_duration_code, typed_value

if TYPE_CHECKING:  # only annotations: importing this module loads no grammar library
    from tree_sitter import Node

__all__ = ["literal_text", "string_value"]

_LITERALS = frozenset({"integer", "float", "true", "false", "none"})
# What a constant's arithmetic may use (``60 * 60 * 24``, ``1024 ** 2``, ``(5 * 60) + 30``)
_OPERATORS = frozenset({b"*", b"**", b"+", b"-", b"/", b"//", b"<<", b">>"})  # ``1 << 3``: a flag


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
    if node.type in ("binary_operator", "parenthesized_expression") and _arithmetic(node):
        spelled = _spelled(node)
        # kept only as arithmetic that folds to a number: never a text compared as a string
        return spelled if isinstance(typed_value(spelled), float) else None
    if node.type == "call":
        # ``timedelta(days=365)``: a duration of number literals, as one line
        spelled = " ".join((node.text or b"").decode(errors="replace").split())
        return spelled if is_duration_code(spelled) else None
    return None


def _spelled(node: Node) -> str:
    """Arithmetic on one line with one space around each operator (``10 * 60``), whatever
    its spacing and wrapping in the file: the form ``anchors.literals`` folds."""
    if node.type == "parenthesized_expression":
        return f"({_spelled(next(_named(node)))})"
    if node.type == "unary_operator":
        operand = node.child_by_field_name("argument")
        sign = (node.text or b"-")[:1].decode()
        return sign + _spelled(operand) if operand is not None else ""
    if node.type == "binary_operator":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None or operator is None:
            return ""
        return f"{_spelled(left)} {(operator.text or b'').decode()} {_spelled(right)}"
    return (node.text or b"").decode(errors="replace")


def _arithmetic(node: Node) -> bool:
    """Whether ``node`` is arithmetic of number literals only."""
    if node.type in ("integer", "float"):
        return True
    if node.type == "parenthesized_expression":
        inner = list(_named(node))
        return len(inner) == 1 and _arithmetic(inner[0])
    if node.type == "unary_operator":  # a sign, not ``~``
        operand = node.child_by_field_name("argument")
        signed = (node.text or b"")[:1] in (b"-", b"+")
        return signed and operand is not None and _arithmetic(operand)
    if node.type == "binary_operator":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        return (
            left is not None
            and right is not None
            and operator is not None
            and operator.text in _OPERATORS
            and _arithmetic(left)
            and _arithmetic(right)
        )
    return False


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
