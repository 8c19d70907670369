"""A function's parameters (``Param``, ``ParamKind``), read from the source text between
its parentheses with tree-sitter (``parse_params``).

Its own module, below both of its users: ``anchors.facts`` keeps a signature as that text
and reads it into parameters when a check first asks (``Signature.params``), and
``anchors.signatures``, which extracts the signatures and keyword calls into
``anchors.facts``' records, shortens literals the same way (``short_literal``). The
grammar is loaded on the first parse, not on import: most signatures are never asked about.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from anchors.python_literals import literal_text

if TYPE_CHECKING:  # only annotations: ``anchors.facts`` imports this module
    from tree_sitter import Node

__all__ = ["MAX_VALUE_CHARS", "Param", "ParamKind", "parse_params", "short_literal"]

# A literal longer than this is kept as computed (None): a note does not quote it.
MAX_VALUE_CHARS = 120


class ParamKind(StrEnum):
    """How a parameter is passed."""

    POSITIONAL = "positional"  # positional-only or positional-or-keyword
    KEYWORD = "keyword"  # keyword-only (after ``*`` or ``*args``)
    ARGS = "args"  # ``*args``
    KWARGS = "kwargs"  # ``**kwargs``


@dataclass(frozen=True)
class Param:
    """One parameter of a function. ``default`` is the default's literal source text, or
    None when it has none or the code computes it (``has_default`` tells them apart)."""

    name: str
    kind: ParamKind
    default: str | None
    has_default: bool
    line: int


def parse_params(text: str, line: int) -> tuple[Param, ...]:
    """The parameters in ``text`` (what stands between a ``def``'s parentheses), in order;
    ``line`` is the line of the ``def``, which the first parameter's line offsets from."""
    from anchors.grammars import parser

    tree = parser("python").parse(f"def _({text}): pass\n".encode())
    definition = tree.root_node.children[0] if tree.root_node.children else None
    if definition is None or definition.type != "function_definition":
        return ()
    return _params(definition.child_by_field_name("parameters"), line)


def _params(node: Node | None, line: int) -> tuple[Param, ...]:
    params: list[Param] = []
    keyword_only = False
    for child in node.children if node is not None else ():
        kind = child.type
        if kind == "keyword_separator":
            keyword_only = True
            continue
        inner = child
        if kind == "typed_parameter" and child.named_children:
            inner = child.named_children[0]  # ``*args: int``, ``x: int``
        where = line + child.start_point[0]
        if inner.type == "list_splat_pattern":
            keyword_only = True
            params.append(Param(_name(inner), ParamKind.ARGS, None, False, where))
        elif inner.type == "dictionary_splat_pattern":
            params.append(Param(_name(inner), ParamKind.KWARGS, None, False, where))
        elif inner.type == "identifier" or kind in ("default_parameter",
                                                    "typed_default_parameter"):  # fmt: skip
            name_node = inner if inner.type == "identifier" else child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            name = (name_node.text or b"").decode(errors="replace") if name_node else ""
            if not name:
                continue
            kind_of = ParamKind.KEYWORD if keyword_only else ParamKind.POSITIONAL
            default = short_literal(literal_text(value)) if value is not None else None
            params.append(Param(name, kind_of, default, value is not None, where))
    return tuple(params)


def _name(splat: Node) -> str:
    named = [c for c in splat.named_children if c.type == "identifier"]
    return (named[0].text or b"").decode(errors="replace") if named else ""


def short_literal(text: str | None) -> str | None:
    """``text``, or None when it is longer than ``MAX_VALUE_CHARS``."""
    return text if text is not None and len(text) <= MAX_VALUE_CHARS else None
