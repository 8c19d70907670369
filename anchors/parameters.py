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
    annotation: str | None = None  # its type as written, where read (Go and Rust)
    named: str | None = None  # a default that is a name (``DEFAULT_POOLSIZE``), as written


def parse_params(text: str, line: int, language: str = "python") -> tuple[Param, ...]:
    """The parameters in ``text`` (what stands between a ``def``'s parentheses, or a
    JavaScript/TypeScript function's), in order; ``line`` is the line of the definition,
    which the first parameter's line offsets from."""
    from anchors.grammars import parser

    if language in ("go", "rust"):
        wrapped = f"func _({text}) {{}}\n" if language == "go" else f"fn _({text}) {{}}\n"
        tree = parser(language).parse(wrapped.encode())
        function = tree.root_node.children[0] if tree.root_node.children else None
        if function is None or tree.root_node.has_error:
            return ()
        return _typed_params(function.child_by_field_name("parameters"), line, language)
    if language in ("javascript", "typescript"):
        grammar = "javascript" if language == "javascript" else "typescript"
        tree = parser(grammar).parse(f"function _({text}) {{}}\n".encode())
        function = tree.root_node.children[0] if tree.root_node.children else None
        if function is None or function.type != "function_declaration":
            return ()
        return _js_params(function.child_by_field_name("parameters"), line)
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
            named = ((value.text or b"").decode(errors="replace")
                     if value is not None and value.type in ("identifier", "attribute")
                     else None)  # fmt: skip
            params.append(Param(name, kind_of, default, value is not None, where, named=named))
    return tuple(params)


def _typed_params(node: Node | None, line: int, language: str) -> tuple[Param, ...]:
    """Go's and Rust's parameters, each with its type: ``a, b int`` (two), ``rest
    ...string`` (``*args``), ``mut p: &Path``; Rust's ``self`` and a destructured pattern
    are no parameter a caller names. None has a default: neither language has them."""
    params: list[Param] = []
    for child in node.named_children if node is not None else ():
        where = line + child.start_point[0]
        annotation = child.child_by_field_name("type")
        written = _text(annotation) if annotation is not None else None
        if language == "go" and child.type in ("parameter_declaration",
                                                "variadic_parameter_declaration"):  # fmt: skip
            kind = ParamKind.ARGS if child.type.startswith("variadic") else ParamKind.POSITIONAL
            names = [_text(n) for n in child.children_by_field_name("name")] or [""]
            for said in names:  # ``func(int, string)``: types alone, no names
                params.append(Param(said, kind, None, False, where, written))
        elif language == "rust" and child.type == "parameter":
            pattern = child.child_by_field_name("pattern")
            said = _text(pattern) if pattern is not None and pattern.type == "identifier" else ""
            params.append(Param(said, ParamKind.POSITIONAL, None, False, where, written))
    return tuple(params)


def _js_params(node: Node | None, line: int) -> tuple[Param, ...]:
    """JavaScript's and TypeScript's parameters: ``x``, ``x = 25``, ``x: number = 25``,
    ``x?: number`` (optional: a default the code leaves ``undefined``), ``...rest``. A
    destructured parameter has no one name: it is left out."""
    params: list[Param] = []
    bag = False  # whether a parameter may be an object of named options
    for child in node.named_children if node is not None else ():
        kind = child.type
        where = line + child.start_point[0]
        pattern: Node | None = child
        value: Node | None = None
        if kind in ("required_parameter", "optional_parameter"):
            pattern = child.child_by_field_name("pattern")
            value = child.child_by_field_name("value")
        elif kind == "assignment_pattern":
            pattern = child.child_by_field_name("left")
            value = child.child_by_field_name("right")
        if pattern is not None and pattern.type == "rest_pattern":
            names = [c for c in pattern.named_children if c.type == "identifier"]
            if names:
                params.append(Param(_text(names[0]), ParamKind.ARGS, None, False, where))
            continue
        if pattern is not None and pattern.type in ("object_pattern", "array_pattern"):
            # ``{ a, b } = {}``: names the caller passes inside one argument, like **kwargs
            params.append(Param("{…}", ParamKind.KWARGS, None, value is not None, where))
            continue
        if pattern is None or pattern.type != "identifier":
            continue  # ``this``: no parameter the caller passes
        optional = kind == "optional_parameter"
        default = short_literal(_js_literal(value)) if value is not None else None
        params.append(Param(_text(pattern), ParamKind.POSITIONAL, default,
                            value is not None or optional, where))  # fmt: skip
        bag = bag or not _scalar(child.child_by_field_name("type"), value)
    if bag and not any(p.kind is ParamKind.KWARGS for p in params):
        # ``diff(options: DiffOptions)``: "diff takes a `staged` option" may name a member
        params.append(Param("…", ParamKind.KWARGS, None, False, line))
    return tuple(params)


_SCALAR_TYPES = frozenset({"string", "number", "boolean", "bigint", "symbol", "void", "null",
                           "undefined", "never"})  # fmt: skip


def _scalar(annotation: Node | None, value: Node | None) -> bool:
    """Whether a parameter surely holds no object whose members a note could call options:
    a scalar type (``count: number``), or, untyped, a scalar literal default."""
    if annotation is not None:
        kinds = [c for c in annotation.named_children]
        return len(kinds) == 1 and (kinds[0].type == "literal_type" or (
            kinds[0].type == "predefined_type" and _text(kinds[0]) in _SCALAR_TYPES))
    return value is not None and value.type in ("number", "string", "true", "false")


_JS_LITERALS = frozenset({"number", "string", "true", "false", "null", "undefined"})


def _js_literal(node: Node) -> str | None:
    """A default's source text when it is a literal (``25``, ``-1``, ``'HEAD'``, ``true``,
    ``null``, a template without substitutions), else None: computed."""
    kind = node.type
    if kind in _JS_LITERALS or (kind == "identifier" and _text(node) == "undefined"):
        return _text(node)
    if kind == "unary_expression" and node.named_child_count == 1:
        operand = node.named_children[0]
        if operand.type == "number" and _text(node).lstrip().startswith(("-", "+")):
            return _text(node).replace(" ", "")
    if kind == "template_string" and not any(
            c.type == "template_substitution" for c in node.named_children):  # fmt: skip
        return _text(node)
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _js_literal(node.named_children[0])
    return None


def _text(node: Node) -> str:
    return (node.text or b"").decode(errors="replace")


def _name(splat: Node) -> str:
    named = [c for c in splat.named_children if c.type == "identifier"]
    return (named[0].text or b"").decode(errors="replace") if named else ""


def short_literal(text: str | None) -> str | None:
    """``text``, or None when it is longer than ``MAX_VALUE_CHARS``."""
    return text if text is not None and len(text) <= MAX_VALUE_CHARS else None
