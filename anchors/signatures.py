"""Parameters of function definitions and keyword arguments of calls, read with tree-sitter
(issue #31: "`get_status` takes an optional `now` argument", "`create_engine` is called
with `pool_pre_ping=True`" are checked against these, never against symbols).

A signature is kept as the text of the ``parameters`` node of every function
``anchors.pyfacts`` already visits, and read into parameters only when a check asks
(``anchors.parameters.parse_params``): extraction pays a slice per function. Calls are
found from the raw bytes: a keyword argument is an identifier followed by ``=`` right after
``(`` or ``,``, and ``**`` splats the same way; only those byte positions are looked up in
the tree (one lookup per call), so a file that passes no keyword argument costs one
regular-expression scan. Only calls whose callee is a plain dotted name are kept
(``create_engine``, ``sa.create_engine``, ``self.client.get``), at most ``MAX_CALLS`` per
file and ``MAX_KEYWORDS`` keywords each.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from anchors.facts import MAX_CALLS, MAX_KEYWORDS, MAX_SIGNATURE_CHARS, CallFact, Signature
from anchors.parameters import short_literal

__all__ = ["keyword_calls", "result_text", "signature_of"]

Literal = Callable[[Node], "str | None"]

_KEYWORD_AT = re.compile(rb"[(,][ \t\r\n\\]*(?:([A-Za-z_]\w*)[ \t]*=(?!=)|\*\*)")
_DOTTED = frozenset({"identifier", "attribute"})


def signature_of(function: Node, qualname: str) -> Signature:
    """The signature of a ``function_definition`` node: the text of its parameters, kept
    for ``parse_params`` to read when a check asks."""
    node = function.child_by_field_name("parameters")
    line = function.start_point[0] + 1
    text = (node.text or b"")[1:-1].decode(errors="replace") if node is not None else ""
    kept = text if len(text) <= MAX_SIGNATURE_CHARS else None
    return Signature(qualname, kept, line, returns=result_text(function, "return_type"))


def result_text(function: Node, field: str) -> str | None:
    """The result type a definition writes in its ``field`` (``-> int``, ``: Promise<T>``,
    Go's ``(int, error)``), without the arrow or colon; None where it writes none or it
    is longer than ``MAX_SIGNATURE_CHARS``."""
    node = function.child_by_field_name(field)
    if node is None:
        return None
    text = (node.text or b"").decode(errors="replace").strip().lstrip(":").strip()
    return text if text and len(text) <= MAX_SIGNATURE_CHARS else None


def keyword_calls(source: bytes, root: Node, literal: Literal) -> tuple[CallFact, ...]:
    """The calls in ``source`` that pass keyword arguments (or a ``**`` splat), in order."""
    seen: set[int] = set()
    read: set[int] = set()  # where the arguments of the calls already read start
    calls: list[CallFact] = []
    for match in _KEYWORD_AT.finditer(source):
        at = match.start(1) if match.group(1) else match.end() - 2
        if at in read:
            continue  # another keyword of a call just read: no tree lookup
        node = root.descendant_for_byte_range(at, at + 1)
        argument = node.parent if node is not None else None
        if argument is None or argument.type not in ("keyword_argument", "dictionary_splat"):
            continue
        arguments = argument.parent
        call = arguments.parent if arguments is not None else None
        if call is None or call.type != "call" or call.start_byte in seen:
            continue
        seen.add(call.start_byte)
        function = call.child_by_field_name("function")
        callee = _callee(function)
        if callee is None or arguments is None:
            continue
        calls.append(CallFact(callee, _keywords(arguments, literal, read), call.start_point[0] + 1))
        if len(calls) >= MAX_CALLS:
            break
    return tuple(calls)


def _callee(function: Node | None) -> str | None:
    """The callee as a dotted name, or None when it is not one (a call's result, a
    subscript: ``factory()(x=1)``, ``handlers[k](x=1)``)."""
    node = function
    while node is not None and node.type == "attribute":
        node = node.child_by_field_name("object")
    if node is None or node.type != "identifier" or function is None:
        return None
    text = (function.text or b"").decode(errors="replace")
    return "".join(text.split())  # ``a .b`` and a line break inside: ``a.b``


def _keywords(
    arguments: Node, literal: Literal, read: set[int]
) -> tuple[tuple[str, str | None], ...]:
    """The keywords of a call's ``arguments``; where each starts is added to ``read``."""
    found: list[tuple[str, str | None]] = []
    for arg in arguments.named_children:
        kind = arg.type
        if kind == "dictionary_splat":
            read.add(arg.start_byte)
            found.append(("**", None))
        elif kind == "keyword_argument":
            read.add(arg.start_byte)
            key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if key is not None and key.text:
                text = short_literal(literal(value)) if value is not None else None
                found.append((key.text.decode(errors="replace"), text))
        if len(found) >= MAX_KEYWORDS:
            break
    return tuple(found)
