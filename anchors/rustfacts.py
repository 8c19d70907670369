"""Facts of one Rust source file (``use`` imports, item definitions, constants, environment
reads) via tree-sitter, for checking notes about Rust code as ``pyfacts`` does for Python.

Items are walked directly: the file's top level, the bodies of ``impl``, ``trait``, inline
``mod`` and ``extern`` blocks, the fields of structs and unions and the variants of enums,
and a function's body only when its bytes could hold a nested item or ``use``. Environment
reads, and crates used by a full path without a ``use`` (``log::info!``), are found from
the raw-byte positions of their words, so files that never mention them cost nothing more
than their parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from tree_sitter import Node

from anchors.env_names import declares_env_name
from anchors.facts import (
    MAX_SIGNATURE_CHARS,
    Definition,
    FileFacts,
    ImportFact,
    Signature,
    ValueFact,
    syntax_not_read,
    words_of,
)
from anchors.grammars import line_of, parser, text_of
from anchors.http_status import statuses_in
from anchors.mentions import scan_code_mentions
from anchors.pyfacts import body_hash
from anchors.signatures import result_text

__all__ = ["extract_rust"]

# Items that define a name, by node type; ``impl`` bodies and modules are walked for more.
_NAMED_ITEMS = frozenset(
    {
        "function_item", "function_signature_item", "struct_item", "enum_item", "union_item",
        "trait_item", "type_item", "associated_type", "const_item", "static_item",
        "macro_definition", "mod_item",
    }
)  # fmt: skip
# Items nested deeper than this (modules in modules, functions in functions) are left
# unread: no real code nests so deep, and hostile input must not exhaust the stack.
_MAX_DEPTH = 48
_COMMENTS = frozenset({"line_comment", "block_comment"})
_NESTED_HINT = re.compile(
    rb"\b(?:use|fn|struct|enum|union|trait|impl|mod|type|macro_rules|extern)\b"
)
_ENV_TRIGGER = re.compile(rb"\b(?:env|option_env|dotenv|dotenvy)\b")
_ENV_WORD = re.compile(rb"\b(?:var|var_os|env|option_env)\b")
# ``env::var("X")``: the paths whose ``var``/``var_os`` read the process environment
# (dotenv's read the ``.env`` file into it first).
_ENV_MODULES = frozenset({"env", "std::env", "::std::env", "core::env", "dotenv", "dotenvy"})
_ENV_FUNCTIONS = frozenset({"var", "var_os"})
_ENV_MACROS = frozenset({"env", "option_env"})
_LITERALS = frozenset(
    {
        "integer_literal", "float_literal", "string_literal", "raw_string_literal",
        "char_literal", "boolean_literal",
    }
)  # fmt: skip


def extract_rust(source: bytes) -> FileFacts:
    """Imports, definitions, constants and environment reads of the Rust file ``source``.

    Qualified names use ".": ``Type.method`` for a method of any ``impl`` of ``Type``
    (generics and paths stripped: ``impl<T> Stack<T>`` gives ``Stack``), ``Trait.method``
    for a trait's methods, ``m.item`` inside ``mod m { }``, ``outer.inner`` for an item in a
    function's body, ``Type.field`` for a struct's or union's named field and
    ``Enum.Variant`` for an enum's variant. Each ``use`` gives one import per path it
    imports names from: ``use a::b::{C, D as E};`` is module ``a::b`` with names ``C`` and
    ``D``; a path used in code without a ``use`` (``serde_json::Value``, ``log::info!``) is
    an import of its first segment naming its second (``_path_imports``); imports are in
    line order. A string constant declaring an environment variable's name (``pub const
    DEFAULT_FILTER_ENV: &str = "RUST_LOG";``, ``anchors.env_names``) counts as a read of
    that variable. ``parsed`` is False when the tree has errors (the facts of the items that
    parsed are kept); then ``not_read`` says why and ``words`` keeps the words of its bytes.
    A file over the size limit is not read at all (``anchors.languages.extract_facts``).
    """
    mentions = scan_code_mentions(source)
    root = parser("rust").parse(source).root_node
    walker = _Walker(source)
    walker.items(root, "", in_function=False)
    walker.imports.extend(_path_imports(source, root, walker.imports))
    walker.imports.sort(key=lambda fact: fact.line)  # stable: a line's own order is kept
    if walker.test_modules:  # a test module's imports are never made when the code runs
        walker.imports = [replace(i, typing=True) if _within_any(i.within, walker.test_modules)
                          else i for i in walker.imports]  # fmt: skip
    env_reads: tuple[str, ...] = ()
    env_defaults: list[ValueFact] = []
    if _ENV_TRIGGER.search(source):
        env_reads = _env_reads(source, root, walker.imports, walker.strings, env_defaults)
    if walker.env_names:
        env_reads = tuple(dict.fromkeys((*env_reads, *walker.env_names)))
    not_read = syntax_not_read(root.has_error, source)
    return FileFacts(
        imports=tuple(walker.imports),
        definitions=tuple(walker.definitions),
        signatures=tuple(walker.signatures),
        env_reads=env_reads,
        constants=tuple(walker.constants),
        env_defaults=tuple(env_defaults),
        parsed=not_read is None,
        not_read=not_read,
        words=words_of(source) if not_read else None,
        mentions=mentions,
        language="rust",
        statuses=statuses_in(source, root, walker.definitions, "rust"),
    )


def _named(node: Node) -> Iterator[Node]:
    return (child for child in node.children if child.is_named and child.type not in _COMMENTS)


# ``#[cfg(test)]`` among an item's attributes (``#[cfg(all(test, feature = "x"))]`` too).
_CFG_TEST = re.compile(rb"#\s*\[\s*cfg\s*\((?![^\]]*\bnot\s*\()(?:[^\]]*[(,\s])?test\b")


def _within_any(within: str, modules: list[str]) -> bool:
    return any(within == m or within.startswith(m + ".") for m in modules)


def _qualify(within: str, name: str) -> str:
    return f"{within}.{name}" if within else name


class _Walker:
    """Collects imports, definitions and constants from item lists, tracking the enclosing
    qualified name."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.imports: list[ImportFact] = []
        self.definitions: list[Definition] = []
        self.signatures: list[Signature] = []
        # Values are read outside function bodies only: a local ``const`` is not what a
        # note names.
        self.constants: list[ValueFact] = []
        # String constants by name, so ``env::var(KEY)`` names its variable.
        self.strings: dict[str, str] = {}
        # Variables named by constants that declare an environment variable's name.
        self.env_names: list[str] = []
        # The modules compiled for tests only (``#[cfg(test)] mod tests { ... }``).
        self.test_modules: list[str] = []

    def items(self, parent: Node, within: str, in_function: bool, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            return
        attributes_start: int | None = None  # where the item's ``#[...]`` attributes begin
        for node in parent.children:
            kind = node.type
            if kind == "attribute_item":
                if attributes_start is None:
                    attributes_start = node.start_byte
                continue
            if kind in _COMMENTS:
                continue
            start = node.start_byte if attributes_start is None else attributes_start
            attributes_start = None
            if kind == "use_declaration":
                self._use(node, within)
            elif kind == "extern_crate_declaration":
                name = text_of(node.child_by_field_name("name"))
                if name:
                    self.imports.append(ImportFact(name, (), within, line_of(node)))
            elif kind in _NAMED_ITEMS:
                self._item(node, start, within, in_function, depth)
            elif kind == "impl_item":
                self._impl(node, within, in_function, depth)
            elif kind == "foreign_mod_item":  # ``extern "C" { fn f(); }``
                body = node.child_by_field_name("body")
                if body is not None:
                    self.items(body, within, in_function, depth + 1)

    def _item(self, node: Node, start: int, within: str, in_function: bool, depth: int) -> None:
        kind = node.type
        name = text_of(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        if not name or (kind == "mod_item" and body is None):
            return  # ``mod name;`` declares a module that lives in its own file
        qualname = _qualify(within, name)
        text = self.source[start : node.end_byte]
        if kind == "mod_item" and _CFG_TEST.search(self.source, start, node.start_byte):
            self.test_modules.append(qualname)
        self.definitions.append(Definition(qualname, body_hash(text), line_of(node)))
        params = node.child_by_field_name("parameters")
        if kind in ("function_item", "function_signature_item") and params is not None:
            written = self.source[params.start_byte + 1 : params.end_byte - 1]
            kept = written.decode(errors="replace") if len(written) <= MAX_SIGNATURE_CHARS else None
            returns = result_text(node, "return_type")
            self.signatures.append(Signature(qualname, kept, line_of(node), "rust", returns))
        value = node.child_by_field_name("value")
        if kind in ("const_item", "static_item") and value is not None and not in_function:
            literal = literal_text(value)
            self.constants.append(ValueFact(qualname, literal, line_of(node)))
            string = _string_value(value)
            if string is not None:
                self.strings.setdefault(name, string)
                if declares_env_name(name, string):
                    self.env_names.append(string)
        if body is None:
            return
        if kind in ("struct_item", "union_item", "enum_item"):
            self._members(body, qualname, in_function)
            return
        if kind in ("trait_item", "mod_item"):
            self.items(body, qualname, in_function, depth + 1)
        elif kind == "function_item" and _NESTED_HINT.search(
            self.source, body.start_byte, body.end_byte
        ):
            self.items(body, qualname, True, depth + 1)

    def _members(self, body: Node, qualname: str, in_function: bool = False) -> None:
        """A struct's or union's named fields (``Env.filter``) and an enum's variants
        (``Level.Warn``); a tuple struct's positional fields have no name a note uses. The
        variant marked ``#[default]`` is the value of ``Enum.default`` (``Target.default``
        is ``Stderr``)."""
        member_type = "enum_variant" if body.type == "enum_variant_list" else "field_declaration"
        if body.type not in ("enum_variant_list", "field_declaration_list"):
            return
        start: int | None = None  # where the member's ``#[...]`` attributes begin
        default = False  # one of them is ``#[default]``
        for member in body.children:
            if member.type == "attribute_item":
                start = member.start_byte if start is None else start
                default = default or _DEFAULT_ATTRIBUTE.fullmatch(text_of(member)) is not None
                continue
            if member.type != member_type:
                if member.type not in _COMMENTS:
                    start = None
                continue
            name = text_of(member.child_by_field_name("name"))
            begin = member.start_byte if start is None else start
            start = None
            if name:
                text = self.source[begin : member.end_byte]
                self.definitions.append(
                    Definition(f"{qualname}.{name}", body_hash(text), line_of(member))
                )
                if default and member_type == "enum_variant" and not in_function:
                    self.constants.append(ValueFact(f"{qualname}.default", name, line_of(member)))
            default = False

    def _impl(self, node: Node, within: str, in_function: bool, depth: int) -> None:
        """``impl Type { fn m }`` and ``impl Trait for Type { fn m }``: ``Type.m``. An
        ``impl Default for Type`` whose ``default()`` returns a struct literal gives the
        default of each field it sets (``_field_defaults``)."""
        body = node.child_by_field_name("body")
        type_name = _type_name(node.child_by_field_name("type"))
        if body is not None and type_name:
            self.items(body, _qualify(within, type_name), in_function, depth + 1)
            trait = _type_name(node.child_by_field_name("trait"))
            if trait == "Default" and not in_function:
                self.constants.extend(_field_defaults(body, _qualify(within, type_name)))
            elif trait == "" and not in_function:  # ``impl Type { fn new() -> Self {..} }``
                self.constants.extend(_field_defaults(body, _qualify(within, type_name), "new"))

    def _use(self, node: Node, within: str) -> None:
        argument = node.child_by_field_name("argument")
        if argument is None:
            return
        # One import per path names are imported from, in the order first written; a path
        # imported whole (``use serde;``) is an import of its own with no names.
        grouped: dict[tuple[str, bool], list[str]] = {}
        for module, name in _use_leaves(argument, ""):
            if module:
                grouped.setdefault((module, name is None), [])
                if name is not None:
                    grouped[(module, False)].append(name)
        line = line_of(node)
        for (module, _), names in grouped.items():
            self.imports.append(ImportFact(module, tuple(names), within, line))
        if any(child.type == "visibility_modifier" for child in node.children):
            # ``pub use anstyle as style;``: ``style`` is an item of this module, which a
            # path through it names (``env_logger::fmt::style``)
            text = self.source[node.start_byte : node.end_byte]
            for alias in _use_aliases(argument):
                self.definitions.append(Definition(_qualify(within, alias), body_hash(text), line))


# ``ident::`` in the raw bytes: where a path used without a ``use`` may start.
_PATH_START = re.compile(rb"(?<![A-Za-z0-9_])([a-z_][a-z0-9_]*)\s*::\s*([A-Za-z_][A-Za-z0-9_]*)")
# What ends a path segment before a ``::``: ``a::b`` or ``Vec::<T>::new``; after anything
# else (``(``, a space, the file's start) a ``::`` starts an absolute path (``::std::x``).
_SEGMENT_END = re.compile(rb"[A-Za-z0-9_>]\s*::\s*$")
# First segments that name this crate, not another: ``crate::x``, ``self::x``, ``super::x``.
_RELATIVE_ROOTS = frozenset({"crate", "self", "super"})
# Primitive types, whose associated items (``i32::MAX``, ``str::from_utf8``) no crate holds.
_PRIMITIVES = frozenset(
    {
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
        "usize", "f32", "f64", "bool", "char", "str",
    }
)  # fmt: skip
_PATH_NODES = frozenset({"scoped_identifier", "scoped_type_identifier"})
# Bound on the path starts looked up per file: a generated file of thousands of paths
# names no more crates than its first few hundred do.
_MAX_PATH_STARTS = 4000


def _path_imports(source: bytes, root: Node, imports: list[ImportFact]) -> list[ImportFact]:
    """Crates (and modules) used by a full path with no ``use`` line: ``anstream::AutoStream
    ::new(..)``, ``humantime::format_rfc3339(t)``, ``log::info!(..)``, ``serde_json::Value``
    give ImportFact(module=<first segment>, names=(<second segment>,), within=<enclosing
    item>, line) once per (first, second) pair per file. The first segment is a lower-case
    identifier other than ``crate``/``self``/``super``; ``std``, ``core`` and ``alloc``
    count too. A local module (``mod fmt;`` or ``use std::fmt;`` then ``fmt::Display``)
    gives an entry as well: such an entry names a module path as written, which is what an
    ``import:`` anchor asks about, not necessarily a crate. Pairs a ``use`` already imports
    are not repeated. Found from the raw bytes of ``ident::`` so a file with none costs a
    regex scan."""
    if b"::" not in source:
        return []
    seen = {(imp.module, name) for imp in imports for name in imp.names}
    found: list[ImportFact] = []
    for count, match in enumerate(_PATH_START.finditer(source)):
        if count >= _MAX_PATH_STARTS:
            break
        first, second = match.group(1).decode(), match.group(2).decode()
        if first in _RELATIVE_ROOTS or first in _PRIMITIVES or (first, second) in seen:
            continue
        if _SEGMENT_END.search(source, max(0, match.start() - 64), match.start()):
            continue  # a later segment of a longer path (``a::b::c``'s ``b``)
        node = root.descendant_for_byte_range(match.start(1), match.end(1))
        if node is None or node.type not in ("identifier", "type_identifier"):
            continue  # inside a string, a comment or an attribute's text
        path = node.parent
        if path is None or path.type not in (*_PATH_NODES, "token_tree", "use_list"):
            continue
        if path.type == "use_list" or _in_use(path):
            continue  # the ``use`` walk records it
        seen.add((first, second))
        found.append(ImportFact(first, (second,), _enclosing(node), line_of(node),
                                qualified=True))  # fmt: skip
    return found


def _in_use(node: Node) -> bool:
    current: Node | None = node
    for _ in range(16):  # a ``use`` tree is a few levels deep; deeper is not one
        if current is None:
            return False
        if current.type == "use_declaration":
            return True
        if current.type not in ("scoped_identifier", "scoped_use_list", "use_list",
                                "use_as_clause", "use_wildcard"):  # fmt: skip
            return False
        current = current.parent
    return False


_ENCLOSING = {
    "function_item": "name", "trait_item": "name", "mod_item": "name", "impl_item": "type",
}  # fmt: skip


def _enclosing(node: Node) -> str:
    """The qualified name of the items around ``node``, as the walk names them
    (``Type.method`` in an ``impl``, ``m.f`` in ``mod m``)."""
    names: list[str] = []
    current = node.parent
    for _ in range(4 * _MAX_DEPTH):
        if current is None:
            break
        field = _ENCLOSING.get(current.type)
        if field is not None:
            named = current.child_by_field_name(field)
            name = _type_name(named) if current.type == "impl_item" else text_of(named)
            if name:
                names.append(name)
        current = current.parent
    return ".".join(reversed(names))


def _path_text(node: Node) -> str:
    """A path as written, without the spaces or comments it may be spread over."""
    return "".join(text_of(n) for n in _tokens(node))


def _tokens(node: Node) -> Iterator[Node]:
    """The leaves under ``node`` in order, comments left out (iterative: a path or type
    can nest as deep as hostile input makes it)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in _COMMENTS:
            continue
        if current.child_count == 0:
            yield current
        else:
            stack.extend(reversed(current.children))


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    return f"{prefix}{path}" if prefix.endswith("::") or not path else f"{prefix}::{path}"


def _split(path: str) -> tuple[str, str | None]:
    """``a::b::C`` -> (``a::b``, ``C``); a single segment is a whole module: (``a``, None)."""
    module, sep, name = path.rpartition("::")
    if not sep or not module:
        return path, None
    return module, name


def _use_aliases(node: Node, depth: int = 0) -> Iterator[str]:
    """The names a ``use`` tree gives its leaves with ``as`` (``style`` of ``anstyle as
    style``), but ``_``, which names nothing."""
    if depth > 64:
        return
    if node.type == "use_as_clause":
        alias = text_of(node.child_by_field_name("alias"))
        if alias and alias != "_":
            yield alias
    elif node.type in ("use_list", "scoped_use_list"):
        for child in _named(node):
            yield from _use_aliases(child, depth + 1)


def _use_leaves(node: Node, prefix: str, depth: int = 0) -> Iterator[tuple[str, str | None]]:
    """(module, name) for each leaf of a ``use`` tree under ``prefix``; name None when the
    leaf imports a module whole (``use serde;``)."""
    if depth > 64:  # nested groups deeper than any real code; hostile input stops here
        return
    kind = node.type
    if kind == "use_as_clause":
        path = node.child_by_field_name("path")
        if path is not None:
            yield from _use_leaves(path, prefix, depth + 1)
    elif kind == "use_wildcard":
        path = next(_named(node), None)
        module = _join(prefix, _path_text(path) if path is not None else "")
        if module:
            yield module, "*"
    elif kind == "use_list":
        for child in _named(node):
            yield from _use_leaves(child, prefix, depth + 1)
    elif kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        items = node.child_by_field_name("list")
        inner = _join(prefix, _path_text(path) if path is not None else "")
        if items is not None:
            yield from _use_leaves(items, inner, depth + 1)
    elif kind in ("identifier", "self", "super", "crate", "metavariable"):
        yield (prefix, text_of(node)) if prefix else (text_of(node), None)
    elif kind == "scoped_identifier":
        module, name = _split(_path_text(node))
        if prefix:
            yield _join(prefix, module) if name is not None else prefix, name or module
        else:
            yield module, name


def _type_name(node: Node | None) -> str:
    """The name of the type an ``impl`` is for: ``Stack<T>``, ``&mut Stack<T>`` and
    ``crate::x::Stack`` give ``Stack``; ``dyn Any + Send`` gives ``Any``; another type (a
    tuple, a slice) its text without spaces."""
    for _ in range(8):  # a few wrappers deep at most
        if node is None:
            return ""
        kind = node.type
        if kind in ("type_identifier", "primitive_type"):
            return text_of(node)
        if kind == "generic_type":
            node = node.child_by_field_name("type")
        elif kind == "scoped_type_identifier":
            node = node.child_by_field_name("name")
        elif kind in ("reference_type", "pointer_type"):
            node = node.child_by_field_name("type")
        elif kind == "dynamic_type":
            node = node.child_by_field_name("trait")
        elif kind == "bounded_type":  # ``dyn Any + Send``: the first bound
            node = next(_named(node), None)
        else:
            return "".join(text_of(n) for n in _tokens(node))
    return ""


_DEFAULT_ATTRIBUTE = re.compile(r"#\[\s*default\s*\]")


def _field_defaults(body: Node, qualname: str, constructor: str = "default") -> list[ValueFact]:
    """``Type.default.field`` for each field ``fn default() -> Self { Type { field: v } }``
    (or ``Self { .. }``) sets to a value ``_default_value`` reads, as the function's only
    expression: a body that computes first, or a struct literal of another type, says
    nothing read here. A field set to what is not read is computed (``text`` None). A body
    that is one variant of the type (``Self::Seconds``) is ``Type.default``. With
    ``constructor="new"``, what ``fn new`` gives the same way, and the fields of a struct
    literal it nests (``opts: WalkDirOptions { max_open: 10 }``) as that type's defaults:
    what a value made by ``new`` starts with."""
    function = next((f for f in _named(body) if f.type == "function_item"
                     and text_of(f.child_by_field_name("name")) == constructor), None)  # fmt: skip
    block = function.child_by_field_name("body") if function is not None else None
    parts = list(_named(block)) if block is not None else []
    if len(parts) != 1:
        return []
    if parts[0].type == "scoped_identifier" and constructor == "default":
        # ``Self::Seconds``: an enum's default variant
        path = parts[0].child_by_field_name("path")
        variant = text_of(parts[0].child_by_field_name("name"))
        if text_of(path) in ("Self", qualname.rpartition(".")[2]) and variant:
            return [ValueFact(f"{qualname}.default", variant, line_of(parts[0]))]
        return []
    if parts[0].type != "struct_expression":
        return []
    literal = parts[0]
    name = text_of(literal.child_by_field_name("name"))
    if name not in ("Self", qualname.rpartition(".")[2]):
        return []
    return _literal_fields(literal, qualname, nested=constructor == "new")


def _literal_fields(literal: Node, qualname: str, nested: bool) -> list[ValueFact]:
    """``qualname.default.field`` for each field a struct literal sets; with ``nested``,
    the fields of a struct literal given to a field too, as its own type's."""
    fields = literal.child_by_field_name("body")
    found: list[ValueFact] = []
    for item in _named(fields) if fields is not None else ():
        field = item.child_by_field_name("field") if item.type == "field_initializer" else None
        value = item.child_by_field_name("value")
        if field is None or value is None:
            continue
        if nested and value.type == "struct_expression":
            inner = text_of(value.child_by_field_name("name"))
            if inner and _PLAIN_TYPE.fullmatch(inner):
                found += _literal_fields(value, inner, nested=False)
            continue
        found.append(ValueFact(f"{qualname}.default.{text_of(field)}", _default_value(value),
                               line_of(item)))  # fmt: skip
    return found


_PLAIN_TYPE = re.compile(r"[A-Z]\w*")


def _default_value(node: Node) -> str | None:
    """A literal, ``None``, or ``Some(literal)`` as written (spaces left out); None for
    anything else."""
    if node.type == "identifier" and text_of(node) == "None":
        return "None"
    if node.type == "call_expression" and text_of(node.child_by_field_name("function")) == "Some":
        arguments = node.child_by_field_name("arguments")
        inner = list(_named(arguments)) if arguments is not None else []
        value = literal_text(inner[0]) if len(inner) == 1 else None
        return None if value is None else f"Some({value})"
    return literal_text(node)


def literal_text(node: Node) -> str | None:
    """The source text of a literal (a number, a string, a char, a bool, a negative
    number); None for anything the code computes."""
    if node.type in _LITERALS:
        return text_of(node)
    if node.type in ("unary_expression", "negative_literal") and (node.text or b"").startswith(
        b"-"
    ):
        operand = next(_named(node), None)
        if operand is not None and operand.type in ("integer_literal", "float_literal"):
            return text_of(node)
    return None


def _string_value(node: Node | None) -> str | None:
    """The value of a plain string literal (no escapes, no ``b`` prefix); raw strings as
    they are written between their quotes."""
    if node is None:
        return None
    if node.type == "raw_string_literal":
        content = next((c for c in _named(node) if c.type == "string_content"), None)
        raw = node.text or b""
        return text_of(content) if content is not None and raw.startswith(b"r") else None
    if node.type != "string_literal" or not (node.text or b"").startswith(b'"'):
        return None
    parts = list(_named(node))
    if any(p.type != "string_content" for p in parts):
        return None
    return "".join(text_of(p) for p in parts)


def _env_reads(
    source: bytes,
    root: Node,
    imports: list[ImportFact],
    strings: dict[str, str],
    defaults: list[ValueFact],
) -> tuple[str, ...]:
    """Names read by ``std::env::var("X")``, ``env::var_os("X")`` (``var`` imported bare
    too), ``dotenv::var("X")`` and the compile-time ``env!("X")`` / ``option_env!("X")``,
    anywhere in the file, inside other macros' arguments too; a string constant as the
    argument names its value."""
    bare = {
        name
        for imp in imports
        if imp.module in _ENV_MODULES
        for name in imp.names
        if name in _ENV_FUNCTIONS
    }
    found: dict[str, None] = {}
    for match in _ENV_WORD.finditer(source):
        word = root.descendant_for_byte_range(match.start(), match.end())
        if word is None or word.type != "identifier":
            continue  # inside a string or a comment
        argument = _env_argument(word, bare)
        if argument is None:
            continue
        name = _string_value(argument)
        if name is None and argument.type == "identifier":
            name = strings.get(text_of(argument)) or _local_constant(source, text_of(argument))
        if name:
            found.setdefault(name, None)
            default = _default_of(argument)
            if default is not None:
                defaults.append(ValueFact(name, default[0], default[1]))
    return tuple(found)


_DEFAULT_METHODS = frozenset({"unwrap_or", "unwrap_or_else"})
_OWNING_METHODS = frozenset({"into", "to_string", "to_owned"})


def _default_of(argument: Node) -> tuple[str | None, int] | None:
    """The default an ``env::var("X")`` read is given right after it, and its line:
    ``.unwrap_or("x".into())`` or ``.unwrap_or_else(|_| "x".to_string())`` give the text
    ``"x"``; another argument gives None (computed). None when no default follows."""
    arguments = argument.parent
    call = arguments.parent if arguments is not None else None
    method = call.parent if call is not None else None
    outer = method.parent if method is not None else None
    if call is None or method is None or outer is None or outer.type != "call_expression":
        return None
    if method.type != "field_expression" or method.child_by_field_name("value") != call:
        return None
    if text_of(method.child_by_field_name("field")) not in _DEFAULT_METHODS:
        return None
    given = outer.child_by_field_name("arguments")
    value = next(_named(given), None) if given is not None else None
    if value is not None and value.type == "closure_expression":
        value = value.child_by_field_name("body")
    return (_owned_literal(value) if value is not None else None), line_of(outer)


def _owned_literal(node: Node) -> str | None:
    """A literal's text, also when made an owned ``String`` (``"x".into()``,
    ``"x".to_string()``, ``String::from("x")``); None for anything else."""
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        given = list(_named(arguments)) if arguments is not None else []
        if function is None:
            return None
        if function.type == "field_expression" and not given:
            receiver = function.child_by_field_name("value")
            if receiver is not None and text_of(function.child_by_field_name("field")) in (
                _OWNING_METHODS
            ):
                return literal_text(receiver)
        if _path_text(function) == "String::from" and len(given) == 1:
            return literal_text(given[0])
        return None
    return literal_text(node)


def _local_constant(source: bytes, name: str) -> str | None:
    """The string a ``const NAME: &str = "..."`` anywhere in ``source`` gives ``name``: one
    in a function's body (``const ENV_WORKER_THREADS: &str = "TOKIO_WORKER_THREADS";``) is
    not among the constants the walk keeps."""
    pattern = re.compile(
        rb"\b(?:const|static)\s+" + re.escape(name.encode())
        + rb"\s*:\s*&\s*(?:'static\s+)?str\s*=\s*\"([^\"\\\\]*)\""
    )  # fmt: skip
    match = pattern.search(source)
    return match.group(1).decode(errors="replace") if match else None


def _env_argument(word: Node, bare: set[str]) -> Node | None:
    """The first argument of the environment read around ``word``, or None when ``word``
    is not the name of one."""
    parent = word.parent
    if parent is None:
        return None
    text = text_of(word)
    if parent.type == "token_tree":
        return _env_argument_in_tokens(word, text, bare)
    if text in _ENV_MACROS:
        macro = word
        if parent.type == "scoped_identifier" and parent.child_by_field_name("name") == word:
            macro = parent  # ``std::env!``
        invocation = macro.parent
        if (
            invocation is None
            or invocation.type != "macro_invocation"
            or invocation.child_by_field_name("macro") != macro
        ):
            return None
        tokens = next((c for c in _named(invocation) if c.type == "token_tree"), None)
        return next(_named(tokens), None) if tokens is not None else None
    if text not in _ENV_FUNCTIONS:
        return None
    function = word
    if parent.type == "scoped_identifier" and parent.child_by_field_name("name") == word:
        module = parent.child_by_field_name("path")
        if module is None or _path_text(module) not in _ENV_MODULES:
            return None
        function = parent
    elif text not in bare:
        return None
    call = function.parent
    if call is None or call.type != "call_expression":
        return None
    if call.child_by_field_name("function") != function:
        return None
    arguments = call.child_by_field_name("arguments")
    return next(_named(arguments), None) if arguments is not None else None


def _env_argument_in_tokens(word: Node, text: str, bare: set[str]) -> Node | None:
    """The same inside another macro's arguments, which tree-sitter leaves as tokens:
    ``env :: var ( "X" )`` and ``env ! ( "X" )``."""
    following = word.next_sibling
    if text in _ENV_MACROS:
        if following is None or following.type != "!":
            return None
        tokens = following.next_sibling
    elif text in _ENV_FUNCTIONS:
        separator = word.prev_sibling
        module = separator.prev_sibling if separator is not None else None
        qualified = separator is not None and separator.type == "::" and module is not None
        if qualified and text_of(module) not in ("env", "dotenv", "dotenvy"):
            return None
        if not qualified and text not in bare:
            return None
        tokens = following
    else:
        return None
    if tokens is None or tokens.type != "token_tree":
        return None
    return next(_named(tokens), None)
