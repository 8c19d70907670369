"""Facts of one JavaScript or TypeScript source file (and of the ``<script>`` blocks of a Vue or
Svelte component) via tree-sitter: imports, definitions, constants and environment reads.

As in ``anchors.pyfacts``, extraction walks top-level statements, class bodies and namespace
bodies directly instead of running tree-sitter queries, which would visit every node of every
tree. ``require(...)``, ``import(...)``, ``process.env`` and ``import.meta.env`` can sit in
any expression, so they are found from the raw-byte positions of those words and looked up in
the tree: a file that never mentions them costs nothing more than its top-level walk.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

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
from anchors.grammars import named_children, parser, text_of
from anchors.http_status import StatusFact, statuses_in
from anchors.mentions import scan_code_mentions
from anchors.pyfacts import body_hash
from anchors.signatures import result_text

__all__ = ["extract_js"]

_FUNCTION_VALUES = frozenset(
    {"arrow_function", "function_expression", "function", "generator_function"}
)
_CLASS_TYPES = frozenset({"class_declaration", "abstract_class_declaration"})
_FUNCTION_TYPES = frozenset({"function_declaration", "generator_function_declaration"})
_TYPE_TYPES = frozenset({"interface_declaration", "type_alias_declaration", "enum_declaration"})
_NAMESPACE_TYPES = frozenset({"internal_module", "module"})
_VARIABLE_TYPES = frozenset({"lexical_declaration", "variable_declaration"})
_METHOD_SIGNATURES = frozenset({"method_signature", "abstract_method_signature"})
_FIELD_TYPES = frozenset({"field_definition", "public_field_definition"})
_KEY = re.compile(r"[A-Za-z_$][\w$]*")
_MEMBER_NAMES = frozenset({"property_identifier", "private_property_identifier", "identifier"})
# Namespaces nest rarely more than a few deep; the bound keeps hostile input off the stack.
_MAX_NESTING = 32
# Nodes an ``import("x")`` in a type position sits under (``typeof import("./a")``,
# ``x: import("./a").B``): the module is read by the type checker, never at run time.
_TYPE_CONTEXT = frozenset(
    {
        "type_annotation", "type_query", "type_alias_declaration", "interface_body",
        "type_arguments", "extends_type_clause", "generic_type", "lookup_type",
        "opting_type_annotation", "omitting_type_annotation", "asserts_annotation",
        "type_predicate_annotation", "constraint", "default_type", "index_type_query",
    }
)  # fmt: skip
_STATEMENT_SCOPES = frozenset({"program", "statement_block", "class_body"})

# Each pattern starts with a literal so the regex engine can skip ahead (a leading ``\b``
# makes it try every position); the tree says whether a match is the call or the read.
_REQUIRE = re.compile(rb"require\s*\(")
_DYNAMIC_IMPORT = re.compile(rb"import\s*\(")
_ENV = re.compile(rb"\.\s*env\b")
# ``Number(process.env.PORT) || 3000``: the default given to a converted read.
_CONVERTERS = frozenset({b"Number", b"parseInt", b"parseFloat", b"String", b"Boolean"})

_SCRIPT_OPEN = re.compile(rb"<script\b", re.IGNORECASE)
_SCRIPT_CLOSE = re.compile(rb"</script\s*>", re.IGNORECASE)
_TAG_STOP = re.compile(rb"[>\"']")
_LANG = re.compile(rb"""\blang\s*=\s*["']?([A-Za-z]+)""", re.IGNORECASE)
_SCRIPT_GRAMMAR = {b"ts": "typescript", b"typescript": "typescript", b"tsx": "tsx"}


def extract_js(source: bytes, dialect: str) -> FileFacts:
    """The facts of a JavaScript or TypeScript file, or of a component's script blocks.

    ``dialect`` (``anchors.languages.dialect_of``) is "javascript" (JSX included),
    "typescript", "tsx", "vue" or "svelte". A component's every ``<script>`` block is read
    with the grammar its ``lang`` names and its line numbers are those of the component
    file; its template is not read. A class's fields are ``Class.field`` (its methods
    ``Class.method``), an enum's members ``Enum.Member`` (a constant too when given a
    literal), a namespace's members ``NS.member`` (a ``const`` one's literal a constant
    ``NS.member``). A string constant declaring an environment variable's name
    (``const PORT_ENV = "PORT"``, ``anchors.env_names``) counts as a read of it. Imports
    keep their module specifier as written (``"./api/client"``, ``"@vue/runtime-core"``);
    ``within`` names the enclosing definition of a ``require()`` or ``import()`` inside one.
    ``parsed`` is False when a tree has syntax errors (facts from the parts that parsed are
    still returned, ``words`` keeps the word set of the bytes).
    """
    if dialect in ("vue", "svelte"):
        blocks = list(_script_blocks(source))
    else:
        grammar = dialect if dialect in ("javascript", "typescript", "tsx") else "javascript"
        blocks = [(grammar, 0, source)]
    out = _Facts()
    has_error = False
    for grammar, line_offset, text in blocks:
        root = parser(grammar).parse(text).root_node
        has_error = has_error or root.has_error
        block = _Block(text, line_offset, out, "javascript" if grammar == "javascript" else
                       "typescript")  # fmt: skip
        first = len(out.imports)
        block.statements(root, "", 0)
        block.triggered_reads(root)
        out.statuses += statuses_in(text, root, out.definitions, "javascript", line_offset)
        # Calls are found after the statements: keep the block's imports in line order.
        out.imports[first:] = sorted(out.imports[first:], key=lambda fact: fact.line)
    not_read = syntax_not_read(has_error, source)
    typescript = any(grammar != "javascript" for grammar, _, _ in blocks)
    return FileFacts(
        imports=tuple(out.imports),
        definitions=tuple(out.definitions),
        env_reads=tuple(dict.fromkeys(out.env_reads)),
        constants=tuple(out.constants),
        env_defaults=tuple(out.env_defaults),
        signatures=tuple(out.signatures),
        parsed=not_read is None,
        not_read=not_read,
        words=words_of(source) if not_read else None,
        mentions=scan_code_mentions(source),
        language="typescript" if typescript else "javascript",
        statuses=tuple(out.statuses),
    )


def _script_blocks(source: bytes) -> Iterator[tuple[str, int, bytes]]:
    """Each ``<script>`` block of a component: (grammar, lines before its content, content).

    Scanned by hand rather than by one regular expression: a start tag's attributes may
    quote a ``>`` (``generic="T extends Map<K, V>"``), and a backtracking pattern is
    quadratic over a file of unclosed tags; this reads each byte a bounded number of times."""
    position = 0
    counted, lines = 0, 0  # newlines in source[:counted]: each byte is counted once
    while True:
        opening = _SCRIPT_OPEN.search(source, position)
        if opening is None:
            return
        end = _tag_end(source, opening.end())
        if end < 0:
            return  # an unterminated start tag: nothing after it is a script
        attributes = source[opening.end() : end]
        start = end + 1
        if attributes.rstrip().endswith(b"/"):  # ``<script src="..." />`` holds nothing
            position = start
            continue
        closing = _SCRIPT_CLOSE.search(source, start)
        stop = closing.start() if closing is not None else len(source)
        lang = _LANG.search(attributes)
        grammar = _SCRIPT_GRAMMAR.get(lang.group(1).lower(), "javascript") if lang else None
        lines += source.count(b"\n", counted, start)
        counted = start
        yield grammar or "javascript", lines, source[start:stop]
        if closing is None:
            return
        position = closing.end()


def _tag_end(source: bytes, position: int) -> int:
    """The index of the ``>`` ending the start tag whose attributes begin at ``position``
    (quoted values skipped), or -1 when it never ends."""
    while True:
        stop = _TAG_STOP.search(source, position)
        if stop is None:
            return -1
        if stop.group() == b">":
            return stop.start()
        close = source.find(stop.group(), stop.end())
        if close < 0:
            return -1
        position = close + 1


@dataclass
class _Facts:
    """What the blocks of one file say, gathered in source order."""

    imports: list[ImportFact] = field(default_factory=list)
    definitions: list[Definition] = field(default_factory=list)
    constants: list[ValueFact] = field(default_factory=list)
    env_reads: list[str] = field(default_factory=list)
    env_defaults: list[ValueFact] = field(default_factory=list)
    signatures: list[Signature] = field(default_factory=list)
    statuses: list[StatusFact] = field(default_factory=list)


class _Block:
    """Reads one tree (a file, or one script block ``line_offset`` lines into its file)."""

    def __init__(self, source: bytes, line_offset: int, out: _Facts,
                 language: str = "javascript") -> None:  # fmt: skip
        self.source = source
        self.language = language  # the grammar a signature's parameters are read with
        self.offset = line_offset + 1  # tree-sitter rows are 0-based
        self.out = out
        # (start byte, end byte, qualname) of each definition a require() can sit in.
        self.scopes: list[tuple[int, int, str]] = []
        self._starts: list[int] = []  # of ``scopes``, sorted, once ``_within`` is asked
        self._parents: list[int] = []  # index of each scope's enclosing scope, or -1

    def line(self, node: Node) -> int:
        return node.start_point[0] + self.offset

    # Statements -------------------------------------------------------------------------

    def statements(self, parent: Node, within: str, depth: int) -> None:
        for node in parent.children:
            kind = node.type
            if kind == "import_statement":
                self._import(node, within)
            elif kind == "export_statement":
                self._export(node, within, depth)
            elif kind == "expression_statement":
                # ``namespace X {}`` is an expression statement in the TypeScript grammar.
                inner = node.named_children[0] if node.named_child_count else None
                if inner is not None and inner.type in _NAMESPACE_TYPES:
                    self._declaration(inner, within, depth)
            else:
                self._declaration(node, within, depth)

    def _export(self, node: Node, within: str, depth: int) -> None:
        source = node.child_by_field_name("source")
        if source is not None:
            self._reexport(node, source, within)
            return
        for child in node.named_children:
            self._declaration(child, within, depth)

    def _declaration(self, node: Node, within: str, depth: int) -> None:
        kind = node.type
        if kind in _FUNCTION_TYPES or kind == "function_signature":
            name = _name(node)
            if name:
                qualname = _join(within, name)
                self._define(qualname, node)
                if kind != "function_signature":
                    self._scope(node, qualname)
                    self._signature(node, qualname)
        elif kind in _CLASS_TYPES:
            name = _name(node)
            if name:
                self._class(node, _join(within, name), node)
        elif kind in _VARIABLE_TYPES:
            self._variables(node, within)
        elif kind in _TYPE_TYPES:
            name = _name(node)
            if name:
                bases = _interface_bases(node) if kind == "interface_declaration" else None
                self._define(_join(within, name), node, bases)
                if kind == "enum_declaration":
                    self._enum(node, _join(within, name))
                elif kind == "interface_declaration":
                    self._interface(node, _join(within, name))
        elif kind in _NAMESPACE_TYPES:
            self._namespace(node, within, depth)
        elif kind == "ambient_declaration":  # ``declare function/const/class/namespace``
            for child in node.named_children:
                self._declaration(child, within, depth)

    def _define(self, qualname: str, node: Node, bases: tuple[str, ...] | None = None) -> None:
        text = self.source[node.start_byte : node.end_byte]
        self.out.definitions.append(Definition(qualname, body_hash(text), self.line(node), bases))

    def _signature(self, function: Node, qualname: str, at: Node | None = None) -> None:
        """The text of a function's parameters (``(count = 25)``, an arrow function's lone
        ``x``), read into parameters when a check asks (``anchors.parameters``); ``at`` is
        the node whose line the definition is on (a ``const`` declarator)."""
        node = function.child_by_field_name("parameters")
        if node is None:
            node = function.child_by_field_name("parameter")  # ``x => ...``
            text = text_of(node) if node is not None else ""
        else:
            text = self.source[node.start_byte + 1 : node.end_byte - 1].decode(errors="replace")
        line = self.line(node if node is not None else (at or function))
        kept = text if len(text) <= MAX_SIGNATURE_CHARS else None
        returns = result_text(function, "return_type")
        self.out.signatures.append(Signature(qualname, kept, line, self.language, returns))

    def _parameter_properties(self, constructor: Node, qualname: str) -> None:
        """``constructor(private readonly model: Model)``: each parameter with an
        accessibility or ``readonly`` modifier is a field of the class too."""
        parameters = constructor.child_by_field_name("parameters")
        for param in parameters.named_children if parameters is not None else ():
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            if not any(c.type in ("accessibility_modifier", "readonly") for c in param.children):
                continue
            pattern = param.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                self._define(f"{qualname}.{text_of(pattern)}", param)

    def _interface(self, node: Node, qualname: str) -> None:
        """An interface's properties and methods as ``Interface.member`` (``watched?:``)."""
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type in ("property_signature", "method_signature"):
                name = member.child_by_field_name("name")
                if name is not None and name.type == "property_identifier":
                    self._define(f"{qualname}.{text_of(name)}", member)

    def _enum(self, node: Node, qualname: str) -> None:
        """An enum's members as ``Enum.Member``; a member given a literal
        (``gitClone = 'git:clone'``) is a constant with that value."""
        body = node.child_by_field_name("body")
        if body is None:
            return
        for member in body.named_children:
            key = member.child_by_field_name("name") if member.type == "enum_assignment" else member
            if key is None:
                continue
            name = text_of(key) if key.type == "property_identifier" else _module_name(key)
            if not name:
                continue
            self._define(f"{qualname}.{name}", member)
            value = member.child_by_field_name("value") if member is not key else None
            if value is not None:
                text = _literal_text(_unwrap(value))
                if text is not None:
                    fact = ValueFact(f"{qualname}.{name}", text, self.line(member))
                    self.out.constants.append(fact)

    def _scope(self, node: Node, qualname: str) -> None:
        self.scopes.append((node.start_byte, node.end_byte, qualname))

    def _class(self, node: Node, qualname: str, outer: Node) -> None:
        """A class (``outer`` is the declarator of ``const A = class {}``) and its members:
        methods, accessors, method signatures and fields (a field holding a function is a
        scope ``require()`` calls can sit in)."""
        self._define(qualname, outer, _class_bases(node))
        self._scope(outer, qualname)
        body = node.child_by_field_name("body")
        if body is None:
            return
        for member in body.named_children:
            kind = member.type
            if kind == "method_definition" or kind in _METHOD_SIGNATURES:
                name = _member_name(member.child_by_field_name("name"))
                if name:
                    self._define(f"{qualname}.{name}", member)
                    if kind == "method_definition":
                        self._scope(member, f"{qualname}.{name}")
                        self._signature(member, f"{qualname}.{name}")
                    if name == "constructor":
                        self._parameter_properties(member, qualname)
            elif kind in _FIELD_TYPES:
                value = member.child_by_field_name("value")
                key = member.child_by_field_name("name") or member.child_by_field_name("property")
                name = _member_name(key)
                if name:
                    self._define(f"{qualname}.{name}", member)
                    if value is not None and value.type in _FUNCTION_VALUES:
                        self._scope(member, f"{qualname}.{name}")
                        self._signature(value, f"{qualname}.{name}", member)
                    elif value is not None and (text := _literal_text(_unwrap(value))):
                        # ``autoFreeze_: boolean = true``: the value each instance starts with
                        self.out.constants.append(
                            ValueFact(f"{qualname}.{name}", text, self.line(member))
                        )

    def _variables(self, node: Node, within: str) -> None:
        kind = node.child_by_field_name("kind")
        const = kind is not None and kind.type == "const"
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            target = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if target is None:
                continue
            if target.type != "identifier":
                for name in _pattern_names(target):
                    self._define(_join(within, name), declarator)
                continue
            qualname = _join(within, text_of(target))
            if value is not None and value.type == "class":
                self._class(value, qualname, declarator)
                continue
            self._define(qualname, declarator)
            if value is not None and value.type in _FUNCTION_VALUES:
                self._scope(declarator, qualname)
                self._signature(value, qualname, declarator)
            elif value is not None and const:  # ``within``: a namespace, never a function
                literal = _unwrap(value)
                self.out.constants.append(
                    ValueFact(qualname, _literal_text(literal), self.line(declarator))
                )
                if literal.type == "object":
                    self._keys(literal, qualname)
                string = _module_name(literal) if literal.type == "string" else None
                if string is not None and declares_env_name(text_of(target), string):
                    self.out.env_reads.append(string)

    def _keys(self, literal: Node, qualname: str) -> None:
        """``const defaultOptions = { level: 'info' }``: each key given a literal, as
        ``defaultOptions.level`` (a Python dict's keys are read the same way)."""
        for pair in literal.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            value = pair.child_by_field_name("value") if key is not None else None
            if key is None or value is None:
                continue
            name = text_of(key) if key.type == "property_identifier" else _module_name(key)
            if name and _KEY.fullmatch(name):
                text = _literal_text(_unwrap(value))
                self.out.constants.append(ValueFact(f"{qualname}.{name}", text, self.line(pair)))

    def _namespace(self, node: Node, within: str, depth: int) -> None:
        """``namespace X {}`` / ``module X {}``: X, and its members as ``X.member``. A
        module named by a string (``declare module "vue" {}``) augments another module's
        types: it defines nothing of this file's."""
        name_node = node.child_by_field_name("name")
        if name_node is None or name_node.type not in ("identifier", "nested_identifier"):
            return
        qualname = _join(within, text_of(name_node))
        self._define(qualname, node)
        self._scope(node, qualname)
        body = node.child_by_field_name("body")
        if body is not None and depth < _MAX_NESTING:
            self.statements(body, qualname, depth + 1)

    # Imports ----------------------------------------------------------------------------

    def _import(self, node: Node, within: str) -> None:
        source = node.child_by_field_name("source")
        line = self.line(node)
        type_only = any(child.type == "type" for child in node.children)
        names: list[str] = []
        specifiers: list[bool] = []  # whether each named specifier is type-only
        for clause in node.named_children:
            if clause.type == "import_require_clause":  # TS ``import fs = require("fs")``
                module = _module_name(clause.child_by_field_name("source"))
                if module is not None:
                    self.out.imports.append(ImportFact(module, (), within, line, type_only))
                return
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    names.append("default")
                    specifiers.append(False)
                elif part.type == "namespace_import":
                    names.append("*")
                    specifiers.append(False)
                elif part.type == "named_imports":
                    for spec in part.named_children:
                        if spec.type == "import_specifier":
                            name = _specifier_name(spec)
                            if name:
                                names.append(name)
                                specifiers.append(any(c.type == "type" for c in spec.children))
        module = _module_name(source)
        if module is None:
            return
        typing = type_only or (bool(specifiers) and all(specifiers))
        self.out.imports.append(ImportFact(module, tuple(names), within, line, typing))

    def _reexport(self, node: Node, source: Node, within: str) -> None:
        """``export * from "x"``, ``export * as ns from "x"``, ``export { a } from "x"``."""
        module = _module_name(source)
        if module is None:
            return
        type_only = any(child.type == "type" for child in node.children)
        names: list[str] = []
        specifiers: list[bool] = []
        for child in node.children:
            if child.type in ("*", "namespace_export"):
                names.append("*")
                specifiers.append(False)
            elif child.type == "export_clause":
                for spec in child.named_children:
                    if spec.type == "export_specifier":
                        name = _specifier_name(spec)
                        if name:
                            names.append(name)
                            specifiers.append(any(c.type == "type" for c in spec.children))
        typing = type_only or (bool(specifiers) and all(specifiers))
        self.out.imports.append(ImportFact(module, tuple(names), within, self.line(node), typing))

    # Reads found from their bytes -------------------------------------------------------

    def triggered_reads(self, root: Node) -> None:
        """``require("x")``, ``import("x")`` and environment reads anywhere in the tree."""
        source = self.source
        calls: list[tuple[int, ImportFact]] = []
        if b"require" in source:
            for match in _REQUIRE.finditer(source):
                word = root.descendant_for_byte_range(match.start(), match.start() + 7)
                if word is not None and word.type == "identifier" and word.text == b"require":
                    self._call_import(word, calls, typing=False)
        if b"import" in source:
            for match in _DYNAMIC_IMPORT.finditer(source):
                word = root.descendant_for_byte_range(match.start(), match.start() + 6)
                if word is not None and word.type == "import":
                    parent = word.parent
                    if parent is not None and parent.type == "import":
                        word = parent  # the keyword token inside the ``import`` callee node
                    self._call_import(word, calls, typing=_in_type(word))
        calls.sort(key=lambda pair: pair[0])  # two scans found them
        self.out.imports.extend(fact for _, fact in calls)
        if b"env" in source:
            for match in _ENV.finditer(source):
                word = root.descendant_for_byte_range(match.end() - 3, match.end())
                if word is not None and word.type == "property_identifier":
                    self._env_read(word)

    def _call_import(self, callee: Node, calls: list[tuple[int, ImportFact]], typing: bool) -> None:
        call = callee.parent
        if call is None or call.type != "call_expression":
            return
        if call.child_by_field_name("function") != callee:
            return
        arguments = call.child_by_field_name("arguments")
        first = next(named_children(arguments), None) if arguments is not None else None
        module = _module_name(first)
        if module is None:
            return
        fact = ImportFact(
            module,
            _bound_names(call, callee.type == "import"),
            self._within(call.start_byte),
            self.line(call),
            typing,
        )
        calls.append((call.start_byte, fact))

    def _within(self, position: int) -> str:
        """The innermost definition around ``position``.

        Definitions nest, so the innermost one around a position is the last one starting
        before it or one of that one's ancestors: a bisection and a short climb, however
        many definitions a bundle holds."""
        if len(self._parents) != len(self.scopes):
            self.scopes.sort(key=lambda scope: (scope[0], -scope[1]))
            self._starts = [start for start, _, _ in self.scopes]
            self._parents = []
            open_scopes: list[int] = []
            for index, (start, _, _) in enumerate(self.scopes):
                while open_scopes and self.scopes[open_scopes[-1]][1] <= start:
                    open_scopes.pop()
                self._parents.append(open_scopes[-1] if open_scopes else -1)
                open_scopes.append(index)
        index = bisect.bisect_right(self._starts, position) - 1
        while index >= 0 and self.scopes[index][1] <= position:
            index = self._parents[index]
        return self.scopes[index][2] if index >= 0 else ""

    def _env_read(self, word: Node) -> None:
        """The names read where ``process.env`` / ``import.meta.env`` ends at ``word``."""
        env = word.parent
        if env is None or env.type != "member_expression":
            return
        if env.child_by_field_name("property") != word:
            return
        owner = env.child_by_field_name("object")
        if owner is None:
            return
        if not (owner.type == "identifier" and owner.text == b"process") and (
            owner.type != "meta_property"
        ):
            return
        use = env.parent
        if use is None:
            return
        if use.type == "member_expression" and use.child_by_field_name("object") == env:
            prop = use.child_by_field_name("property")
            if prop is not None and prop.type == "property_identifier":
                self._env_name(text_of(prop), use)
        elif use.type == "subscript_expression" and use.child_by_field_name("object") == env:
            index = use.child_by_field_name("index")
            name = _module_name(index) if index is not None else None
            if name:
                self._env_name(name, use)
        elif use.type == "variable_declarator" and use.child_by_field_name("value") == env:
            target = use.child_by_field_name("name")
            if target is not None and target.type == "object_pattern":
                self._env_pattern(target)

    def _env_name(self, name: str, read: Node) -> None:
        parent = read.parent
        if (
            parent is not None
            and parent.type in ("assignment_expression", "augmented_assignment_expression")
            and parent.child_by_field_name("left") == read
        ):
            return  # a write sets the variable; it does not read it
        self.out.env_reads.append(name)
        default = _or_default(read)
        if default is not None:
            self.out.env_defaults.append(
                ValueFact(name, _literal_text(default), self.line(default.parent or default))
            )

    def _env_pattern(self, pattern: Node) -> None:
        """``const { A, B: b, C = "3000" } = process.env``: each key is a read; a default
        in the pattern is the variable's default."""
        for prop in pattern.named_children:
            if prop.type == "shorthand_property_identifier_pattern":
                self.out.env_reads.append(text_of(prop))
            elif prop.type == "pair_pattern":
                key = _key_name(prop.child_by_field_name("key"))
                if key:
                    self.out.env_reads.append(key)
            elif prop.type == "object_assignment_pattern":
                left = prop.child_by_field_name("left")
                right = prop.child_by_field_name("right")
                if left is not None and left.type == "shorthand_property_identifier_pattern":
                    name = text_of(left)
                    self.out.env_reads.append(name)
                    if right is not None:
                        self.out.env_defaults.append(
                            ValueFact(name, _literal_text(right), self.line(prop))
                        )


def _or_default(read: Node) -> Node | None:
    """The fallback of ``read || x`` / ``read ?? x`` (also ``Number(read) || x``); for the
    last of a chain (``A || B || "d"``), the chain's fallback: B's is "d", A's is B."""
    expr = read
    parent = expr.parent
    if parent is not None and parent.type == "arguments":
        call = parent.parent
        function = call.child_by_field_name("function") if call is not None else None
        if call is None or function is None or function.text not in _CONVERTERS:
            return None
        expr, parent = call, call.parent
    if (
        parent is not None
        and _fallback_of(parent) is not None
        and parent.child_by_field_name("right") == expr
    ):
        expr, parent = parent, parent.parent
    fallback = _fallback_of(parent)
    if fallback is None or parent is None or parent.child_by_field_name("left") != expr:
        return None
    return fallback


def _fallback_of(node: Node | None) -> Node | None:
    """The right operand of an ``||`` or ``??`` expression; None for any other node."""
    if node is None or node.type != "binary_expression":
        return None
    operator = node.child_by_field_name("operator")
    if operator is None or operator.type not in ("||", "??"):
        return None
    return node.child_by_field_name("right")


def _bound_names(call: Node, dynamic: bool) -> tuple[str, ...]:
    """The names taken from a required module: ``const { a, b: c } = require("x")`` (or
    ``= await import("x")``) gives ("a", "b"); ``require("x").y`` gives ("y",); otherwise
    none (``import("x").then`` is the promise's method, not the module's)."""
    parent = call.parent
    if parent is not None and parent.type == "await_expression":
        call, parent = parent, parent.parent
    if parent is None:
        return ()
    if parent.type == "member_expression" and parent.child_by_field_name("object") == call:
        if dynamic:
            return ()
        prop = parent.child_by_field_name("property")
        return (text_of(prop),) if prop is not None and prop.type == "property_identifier" else ()
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == call:
        target = parent.child_by_field_name("name")
        if target is not None and target.type == "object_pattern":
            names = []
            for prop in target.named_children:
                if prop.type == "shorthand_property_identifier_pattern":
                    names.append(text_of(prop))
                elif prop.type == "pair_pattern":
                    key = _key_name(prop.child_by_field_name("key"))
                    if key:
                        names.append(key)
                elif prop.type == "object_assignment_pattern":
                    left = prop.child_by_field_name("left")
                    if left is not None:
                        names.append(text_of(left))
            return tuple(names)
    return ()


def _in_type(node: Node) -> bool:
    """Whether ``node`` sits in a type position (up to its enclosing statement list)."""
    current = node.parent
    while current is not None and current.type not in _STATEMENT_SCOPES:
        if current.type in _TYPE_CONTEXT:
            return True
        current = current.parent
    return False


def _join(within: str, name: str) -> str:
    return f"{within}.{name}" if within else name


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return text_of(name) if name is not None and name.type != "string" else ""


def _member_name(node: Node | None) -> str:
    """A class member's name as written (``#secret`` too); "" when computed or quoted."""
    return text_of(node) if node is not None and node.type in _MEMBER_NAMES else ""


def _key_name(node: Node | None) -> str:
    """An object pattern's key: ``{ A: a }`` or ``{ "A": a }``."""
    if node is None:
        return ""
    if node.type == "property_identifier":
        return text_of(node)
    return _module_name(node) or ""


def _specifier_name(spec: Node) -> str:
    """The imported (not local) name of an import or export specifier."""
    name = spec.child_by_field_name("name")
    if name is None:
        return ""
    if name.type == "string":
        return _module_name(name) or ""
    return text_of(name)


def _module_name(node: Node | None) -> str | None:
    """The text of a string literal as written between its quotes (a template string too,
    when it has no substitutions); None for anything else."""
    if node is None:
        return None
    if node.type == "template_string":
        if any(child.type == "template_substitution" for child in node.children):
            return None
    elif node.type != "string":
        return None
    text = node.text or b""
    return text[1:-1].decode(errors="replace") if len(text) >= 2 else None


def _pattern_names(pattern: Node) -> list[str]:
    """The names a destructuring pattern binds, in order."""
    names: list[str] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(text_of(node))
        elif kind == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(node.named_children))
    return names


def _class_bases(node: Node) -> tuple[str, ...]:
    """The class a class extends, as named (the last part of ``X.Y``); none when computed
    (``extends mixin(A, B)``). ``implements`` names interfaces, not bases."""
    for heritage in node.named_children:
        if heritage.type != "class_heritage":
            continue
        for child in heritage.named_children:
            value = child
            if child.type == "extends_clause":  # TypeScript wraps the value (and type args)
                found = child.child_by_field_name("value")
                if found is None:
                    continue
                value = found
            if value.type in ("identifier", "member_expression"):
                return (text_of(value).rsplit(".", 1)[-1].strip(),)
    return ()


def _interface_bases(node: Node) -> tuple[str, ...]:
    """The interfaces an interface extends (``extends A, ns.B<T>``: ("A", "B"))."""
    for clause in node.named_children:
        if clause.type != "extends_type_clause":
            continue
        bases = []
        for base in clause.named_children:
            if base.type == "generic_type":
                base = base.child_by_field_name("name") or base
            if base.type in ("type_identifier", "nested_type_identifier", "identifier"):
                bases.append(text_of(base).rsplit(".", 1)[-1].strip())
        return tuple(bases)
    return ()


def _unwrap(value: Node) -> Node:
    """``"a" as const``, ``3 satisfies number``: the value the expression states."""
    while value.type in ("as_expression", "satisfies_expression", "parenthesized_expression"):
        inner = next(named_children(value), None)
        if inner is None:
            break
        value = inner
    return value


_LITERALS = frozenset({"number", "string", "true", "false", "null"})


def _literal_text(node: Node) -> str | None:
    """The source text of a literal (a number, a string with its quotes, a template string
    without substitutions, true/false/null, a negative number); None when computed."""
    kind = node.type
    if kind in _LITERALS:
        return text_of(node)
    if kind == "template_string":
        return text_of(node) if _module_name(node) is not None else None
    if kind == "unary_expression":
        operator = node.child_by_field_name("operator")
        argument = node.child_by_field_name("argument")
        if operator is not None and operator.type == "-" and argument is not None:
            return text_of(node) if argument.type == "number" else None
    if kind == "binary_expression":  # ``1 << 5``, ``60 * 1000``: arithmetic of numbers
        return _arithmetic_text(node)
    return None


_ARITHMETIC_OPERATORS = frozenset({"*", "+", "-", "/", "**", "<<", ">>"})


def _arithmetic_text(node: Node) -> str | None:
    """``a op b`` with one space around each operator, where every operand is a number
    (or such arithmetic in parentheses); None otherwise."""
    if node.type == "number":
        return text_of(node)
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        inner = _arithmetic_text(node.named_children[0])
        return f"({inner})" if inner is not None else None
    operator = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if node.type != "binary_expression" or operator is None or left is None or right is None:
        return None
    if operator.type not in _ARITHMETIC_OPERATORS:
        return None
    a, b = _arithmetic_text(left), _arithmetic_text(right)
    return f"{a} {operator.type} {b}" if a is not None and b is not None else None
