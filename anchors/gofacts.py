"""Facts of one Go source file (imports, definitions, constants, environment reads) via
tree-sitter, for checking notes about Go code as ``pyfacts`` does for Python.

Only the top-level declarations are walked (and the specs of grouped ones, interface and
struct bodies): Go has no nested named declarations an anchor names. Function bodies are entered
only where the raw bytes say ``Getenv`` or ``LookupEnv``, so a file that never reads the
environment costs its parse and a few hundred nodes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

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
from anchors.go_flags import flag_defaults
from anchors.grammars import line_of, named_children, parser, text_of
from anchors.http_status import statuses_in
from anchors.literals import QUALIFIED_NAME
from anchors.mentions import scan_code_mentions
from anchors.pyfacts import body_hash
from anchors.signatures import result_text

__all__ = ["extract_go"]

_ENV_WORD = re.compile(rb"\b(?:Getenv|LookupEnv)\b")
# Packages whose ``Getenv``/``LookupEnv`` read the process environment.
_ENV_PACKAGES = frozenset({"os", "syscall"})
_LITERALS = frozenset(
    {
        "int_literal", "float_literal", "imaginary_literal", "rune_literal",
        "interpreted_string_literal", "raw_string_literal", "true", "false", "nil",
    }
)  # fmt: skip
_STRINGS = frozenset({"interpreted_string_literal", "raw_string_literal"})


def extract_go(source: bytes) -> FileFacts:
    """Imports, definitions, constants and environment reads of the Go file ``source``.

    Definitions are qualified within the file: ``Name`` for a function, type, constant or
    variable; ``Store.Get`` for a method (generic receivers lose their parameters:
    ``List.Push``), ``Iface.Method`` for an interface's method and ``Router.middlewares``
    for a struct's field (an embedded one by its type's name: ``Router.Mutex``). Constants
    and package-level variables keep their literal values; an error variable
    (``var ErrX = errors.New("msg")``, ``fmt.Errorf``) its message's literal. A string
    constant declaring an environment variable's name (``filterEnv = "APP_FILTER"``,
    ``anchors.env_names``) counts as a read of that variable. ``parsed`` is False when
    the tree has errors (the facts of the declarations that parsed are kept); then
    ``not_read`` says why and ``words`` keeps the words of its bytes. A file over the size
    limit is not read at all (``anchors.languages.extract_facts``).
    """
    mentions = scan_code_mentions(source)
    root = parser("go").parse(source).root_node
    walker = _Walker(source)
    for node in root.children:
        walker.declaration(node)
    walker.resolve_aliases()
    env_reads: tuple[str, ...] = ()
    if _ENV_WORD.search(source):
        env_reads = _env_reads(source, root, walker.imports, walker.strings)
    if walker.env_names:
        env_reads = tuple(dict.fromkeys((*env_reads, *walker.env_names)))
    not_read = syntax_not_read(root.has_error, source)
    return FileFacts(
        imports=tuple(walker.imports),
        definitions=tuple(walker.definitions),
        signatures=tuple(walker.signatures),
        env_reads=env_reads,
        constants=(*walker.constants, *flag_defaults(source)),  # flags as ``--NAME``
        parsed=not_read is None,
        not_read=not_read,
        words=words_of(source) if not_read else None,
        mentions=mentions,
        language="go",
        statuses=statuses_in(source, root, walker.definitions, "go"),
    )


class _Walker:
    """Collects the facts of a file's top-level declarations."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.imports: list[ImportFact] = []
        self.definitions: list[Definition] = []
        self.signatures: list[Signature] = []
        self.constants: list[ValueFact] = []
        # Package-level string constants by name, so ``os.Getenv(envKey)`` names its variable.
        self.strings: dict[str, str] = {}
        # Variables named by constants that declare an environment variable's name.
        self.env_names: list[str] = []
        # ``EnablePrefixMatching = defaultPrefixMatching``: (index in constants, the name)
        self.aliases: list[tuple[int, str]] = []

    def resolve_aliases(self) -> None:
        """A constant or variable given another of this file's constants takes its literal:
        the value the code gives it, one level deep."""
        literal = {v.name: v.text for v in self.constants if v.text is not None}
        for at, name in self.aliases:
            value = self.constants[at]
            if name in literal:
                self.constants[at] = ValueFact(value.name, literal[name], value.line)

    def declaration(self, node: Node) -> None:
        kind = node.type
        if kind == "import_declaration":
            for spec in _specs(node, "import_spec", "import_spec_list"):
                self._import(spec)
        elif kind == "function_declaration":
            name = text_of(node.child_by_field_name("name"))
            self._define(name, node)
            self._signature(name, node)
            if _CONSTRUCTOR.fullmatch(name):
                self.constants.extend(_constructed_defaults(node.child_by_field_name("body")))
        elif kind == "method_declaration":
            receiver = _receiver_type(node.child_by_field_name("receiver"))
            name = text_of(node.child_by_field_name("name"))
            if name:
                self._define(f"{receiver}.{name}" if receiver else name, node)
                self._signature(f"{receiver}.{name}" if receiver else name, node)
        elif kind == "type_declaration":
            for spec in named_children(node):
                if spec.type in ("type_spec", "type_alias"):
                    self._type(spec)
        elif kind == "const_declaration":
            previous: list[Node] = []  # a spec without values repeats the last ones
            for iota, spec in enumerate(_specs(node, "const_spec", None)):
                previous = self._value_spec(spec, True, iota, previous)
        elif kind == "var_declaration":
            for spec in _specs(node, "var_spec", "var_spec_list"):
                self._value_spec(spec, False)

    def _define(self, qualname: str, node: Node) -> None:
        if qualname and qualname != "_":
            text = self.source[node.start_byte : node.end_byte]
            self.definitions.append(Definition(qualname, body_hash(text), line_of(node)))

    def _signature(self, qualname: str, function: Node) -> None:
        """A function's, method's or function type's parameters and result, as written."""
        params = function.child_by_field_name("parameters")
        if not qualname or params is None:
            return
        text = self.source[params.start_byte + 1 : params.end_byte - 1].decode(errors="replace")
        kept = text if len(text) <= MAX_SIGNATURE_CHARS else None
        line = line_of(function)
        returns = result_text(function, "result")
        self.signatures.append(Signature(qualname, kept, line, "go", returns))

    def _import(self, spec: Node) -> None:
        path = _string_value(spec.child_by_field_name("path"))
        if not path:
            return
        alias = spec.child_by_field_name("name")
        names = (text_of(alias),) if alias is not None else ()
        self.imports.append(ImportFact(path, names, "", line_of(spec)))

    def _type(self, spec: Node) -> None:
        name = text_of(spec.child_by_field_name("name"))
        self._define(name, spec)
        body = spec.child_by_field_name("type")
        if name and body is not None and body.type == "function_type":  # ``type Op func() error``
            self._signature(name, body)
        if name and body is not None and body.type == "interface_type":
            for elem in named_children(body):
                if elem.type == "method_elem":
                    method = text_of(elem.child_by_field_name("name"))
                    if method:
                        self._define(f"{name}.{method}", elem)
        elif name and body is not None and body.type == "struct_type":
            self._fields(name, body)

    def _fields(self, name: str, struct: Node) -> None:
        """A struct's fields as ``Type.field``; an embedded field is named by its type."""
        fields = next(
            (c for c in named_children(struct) if c.type == "field_declaration_list"), None
        )
        if fields is None:
            return
        for field in named_children(fields):
            if field.type != "field_declaration":
                continue
            names = [text_of(n) for n in field.children_by_field_name("name")
                     if n.type == "field_identifier"]  # fmt: skip
            if not names:
                embedded = _embedded_name(field.child_by_field_name("type"))
                names = [embedded] if embedded else []
            for field_name in names:
                if field_name != "_":
                    self._define(f"{name}.{field_name}", field)

    def _value_spec(self, spec: Node, constant: bool, iota: int = 0,
                    previous: list[Node] | None = None) -> list[Node]:  # fmt: skip
        """``const X = 5`` / ``var a, b = 1, 2``: each name is a definition; its value is
        its literal text (None when computed; an error made from a literal message, the
        message); a variable without a value has none. In a ``const`` block a value made of
        ``iota`` and numbers, or repeated by a spec without values (``previous``), is the
        number it makes (``derived``). The values this spec gives or repeats."""
        # The commas between names are tagged "name" too.
        names = [n for n in spec.children_by_field_name("name") if n.type == "identifier"]
        value = spec.child_by_field_name("value")
        values = list(named_children(value)) if value is not None else []
        repeated = constant and value is None and bool(previous)
        if repeated:
            values = list(previous or ())
        for i, name_node in enumerate(names):
            name = text_of(name_node)
            if not name or name == "_":
                continue
            self._define(name, spec)
            literal = values[i] if len(values) == len(names) else None
            if not constant and value is None:
                continue  # ``var x int``: no value stated
            if constant and literal is not None and (repeated or _with_iota(literal)):
                number = _constant_number(literal, iota, 0)
                said = literal_text(literal) if number is None and repeated else None
                self.constants.append(ValueFact(name, said if number is None else str(number),
                                                line_of(spec), derived=True))  # fmt: skip
                continue
            text = literal_text(literal) if literal is not None else None
            if text is None and literal is not None and not constant:
                text = _error_message(literal)
            if text is None and literal is not None:
                text = duration_text(literal) or _qualified(literal)  # ``5 * time.Second``
            if text is None and literal is not None and literal.type == "identifier":
                self.aliases.append((len(self.constants), text_of(literal)))
            self.constants.append(ValueFact(name, text, line_of(spec)))
            string = _string_value(literal) if literal is not None else None
            if string is not None:
                self.strings.setdefault(name, string)
                if constant and declares_env_name(name, string):
                    self.env_names.append(string)
        return values


def _with_iota(node: Node) -> bool:
    return b"iota" in (node.text or b"") and any(
        n.type == "iota" for n in _descendants(node, 64))  # fmt: skip


def _descendants(node: Node, limit: int) -> Iterator[Node]:
    stack = [node]
    while stack and limit > 0:
        limit -= 1
        current = stack.pop()
        yield current
        stack.extend(current.named_children)


# Calls a constant expression may hold that are not a conversion to a named type.
_BUILTINS = frozenset({"len", "cap", "real", "imag", "complex", "min", "max"})
_MAX_SHIFT = 128  # a larger shift is no constant a note states


def _constant_number(node: Node, iota: int, depth: int) -> int | None:
    """The integer a constant expression of ``iota``, integer literals, conversions
    (``Op(iota)``) and the arithmetic operators makes; None for anything else (a name, a
    string, a float, a call). Read from the tree, never run."""
    if depth > 16:
        return None
    kind = node.type
    if kind == "iota":
        return iota
    if kind == "int_literal":
        return _go_int(text_of(node))
    if kind == "parenthesized_expression":
        inner = next(named_children(node), None)
        return None if inner is None else _constant_number(inner, iota, depth + 1)
    if kind == "call_expression":  # a conversion: ``Kind(iota + 1)``, ``uint8(1 << iota)``
        function = text_of(node.child_by_field_name("function"))
        arguments = node.child_by_field_name("arguments")
        given = list(named_children(arguments)) if arguments is not None else []
        if function in _BUILTINS or "." in function or len(given) != 1:
            return None
        return _constant_number(given[0], iota, depth + 1)
    if kind == "unary_expression":
        operand = node.child_by_field_name("operand")
        value = None if operand is None else _constant_number(operand, iota, depth + 1)
        operator = text_of(node.child_by_field_name("operator"))
        if value is None or operator not in ("-", "+", "^"):
            return None
        return -value if operator == "-" else value if operator == "+" else ~value
    if kind == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return None
        a, b = _constant_number(left, iota, depth + 1), _constant_number(right, iota, depth + 1)
        if a is None or b is None:
            return None
        return _arithmetic(text_of(node.child_by_field_name("operator")), a, b)
    return None


def _arithmetic(operator: str, a: int, b: int) -> int | None:
    """Go's integer arithmetic on two constants (division truncates toward zero)."""
    if operator in ("<<", ">>"):
        if not 0 <= b <= _MAX_SHIFT:
            return None
        return a << b if operator == "<<" else a >> b
    if operator in ("/", "%"):
        if b == 0:
            return None
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return quotient if operator == "/" else a - b * quotient
    simple = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b,
              "&^": a & ~b}  # fmt: skip
    return simple.get(operator)


def _go_int(text: str) -> int | None:
    """A Go integer literal's value (``0x1F``, ``0o17``, ``0755``, ``1_000``)."""
    digits = text.replace("_", "")
    try:
        if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
            return int(digits, 8)  # the old octal form
        return int(digits, 0)
    except ValueError:
        return None


def _specs(node: Node, spec_type: str, list_type: str | None) -> Iterator[Node]:
    """The specs of a declaration, single or grouped in parentheses."""
    for child in named_children(node):
        if child.type == spec_type:
            yield child
        elif list_type is not None and child.type == list_type:
            yield from (c for c in named_children(child) if c.type == spec_type)


def _embedded_name(node: Node | None) -> str:
    """The field name of an embedded type: ``*sync.Mutex`` and ``List[T]`` give ``Mutex``
    and ``List``."""
    for _ in range(8):  # a few wrappers deep at most
        if node is None:
            return ""
        if node.type == "type_identifier":
            return text_of(node)
        if node.type == "qualified_type":
            node = node.child_by_field_name("name")
        elif node.type == "generic_type":
            node = node.child_by_field_name("type")
        elif node.type == "pointer_type":
            node = next(named_children(node), None)
        else:
            return ""
    return ""


# Calls making an error whose message is their first argument.
_ERROR_MAKERS = frozenset({"errors.New", "fmt.Errorf"})


def _error_message(node: Node) -> str | None:
    """The message literal of ``errors.New("msg")`` / ``fmt.Errorf("msg")`` as written
    (``"msg"``): what a note calls an error's value; None for any other expression (a
    message formatted from more arguments too)."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    if function is None or text_of(function) not in _ERROR_MAKERS:
        return None
    arguments = node.child_by_field_name("arguments")
    given = list(named_children(arguments)) if arguments is not None else []
    # ``fmt.Errorf("wrap: %w", err)`` formats its message: the literal is not all of it.
    if len(given) != 1 or given[0].type not in _STRINGS:
        return None
    return text_of(given[0])


def _receiver_type(receiver: Node | None) -> str:
    """The type a method's receiver names: ``(s *Store)`` and ``(l *List[T])`` give
    ``Store`` and ``List``."""
    if receiver is None:
        return ""
    param = next((c for c in named_children(receiver) if c.type == "parameter_declaration"), None)
    node = param.child_by_field_name("type") if param is not None else None
    for _ in range(8):  # a receiver's type is a few wrappers deep at most
        if node is None:
            return ""
        if node.type == "type_identifier":
            return text_of(node)
        if node.type in ("pointer_type", "parenthesized_type"):
            node = next(named_children(node), None)
        elif node.type == "generic_type":
            node = node.child_by_field_name("type")
        else:
            return ""
    return ""


def literal_text(node: Node) -> str | None:
    """The source text of a literal (a number, a string, a rune, a bool, nil, a negative
    number); None for anything the code computes, ``iota`` included."""
    if node.type in _LITERALS:
        return text_of(node)
    if node.type == "unary_expression":
        operator = node.child_by_field_name("operator")
        operand = node.child_by_field_name("operand")
        if (
            operator is not None
            and operator.type in ("-", "+")
            and operand is not None
            and operand.type in ("int_literal", "float_literal", "imaginary_literal")
        ):
            return text_of(node)
    if node.type == "binary_expression" and _ARITHMETIC.fullmatch(text_of(node) or ""):
        return text_of(node)  # ``16 * 16``: arithmetic of number literals, one value
    return None


# Number literals joined by + - * / and parentheses, as the value they make (``anchors.literals``)
_ARITHMETIC = re.compile(r"[\d\s.()+\-*/_<>]+")
_DURATION = re.compile(
    r"(?:\d+(?:\.\d+)?\s*\*\s*)?time\.(?:Nanosecond|Microsecond|Millisecond|Second|Minute|Hour)"
    r"(?:\s*\*\s*\d+(?:\.\d+)?)?"
)


def duration_text(node: Node) -> str | None:
    """A ``time.Duration`` of a number literal and a unit (``5 * time.Second``,
    ``time.Minute * 10``, ``time.Hour``), as written; None for anything else. Its value is
    the seconds it makes (``anchors.literals``)."""
    if node.type not in ("binary_expression", "selector_expression"):
        return None
    text = text_of(node)
    return text if text and _DURATION.fullmatch(text) else None


_CONSTRUCTOR = re.compile(r"New[A-Z_0-9]\w*|New")
_SCANNED = 2000  # nodes of a constructor's body looked at, at most


def _constructed_defaults(body: Node | None) -> list[ValueFact]:
    """``Type.default.Field`` for each field a ``New...`` function's struct literals give
    a literal (``&CookieStore{Options: &Options{MaxAge: 86400 * 30}}``): what a value
    made by the constructor starts with. A field given anything else is not recorded."""
    found: list[ValueFact] = []
    stack = [body] if body is not None else []
    seen = 0
    while stack and seen < _SCANNED:
        node = stack.pop()
        seen += 1
        if node.type in ("func_literal", "function_declaration"):
            continue  # a closure's literals are its own
        if node.type == "composite_literal":
            kind = node.child_by_field_name("type")
            literal = node.child_by_field_name("body")
            if kind is not None and kind.type == "type_identifier" and literal is not None:
                found += _keyed_literals(text_of(kind), literal)
        stack.extend(reversed(list(named_children(node))))
    return found


def _keyed_literals(type_name: str, literal: Node) -> list[ValueFact]:
    found = []
    for element in named_children(literal):
        parts = list(named_children(element)) if element.type == "keyed_element" else []
        if len(parts) != 2:
            continue
        key, value = (next(iter(named_children(p)), None) for p in parts)
        if key is None or value is None or key.type not in ("identifier", "field_identifier"):
            continue
        text = literal_text(value) or duration_text(value) or _qualified(value)
        if text is not None:
            found.append(ValueFact(f"{type_name}.default.{text_of(key)}", text, line_of(element)))
    return found


def _qualified(node: Node) -> str | None:
    """A package's exported name given as the value (``time.RFC3339``, ``json.Marshal``),
    as written: a value a note may state by that name."""
    text = text_of(node) if node.type == "selector_expression" else None
    return text if text and QUALIFIED_NAME.fullmatch(text) else None


def _string_value(node: Node | None) -> str | None:
    """The value of a string literal without escapes (raw strings as they are)."""
    if node is None or node.type not in _STRINGS:
        return None
    if node.type == "raw_string_literal":
        return (node.text or b"")[1:-1].decode(errors="replace")
    parts = list(named_children(node))
    if any(p.type != "interpreted_string_literal_content" for p in parts):
        return None
    return "".join(text_of(p) for p in parts)


def _env_reads(
    source: bytes, root: Node, imports: list[ImportFact], strings: dict[str, str]
) -> tuple[str, ...]:
    """Names read by ``os.Getenv("X")`` and ``os.LookupEnv("X")`` (or ``syscall``'s)
    anywhere in the file, with the package under its import alias or dot-imported; a string
    constant as the argument names its value."""
    qualifiers: set[str] = set()
    bare = False
    for imp in imports:
        if imp.module in _ENV_PACKAGES:
            alias = imp.names[0] if imp.names else imp.module
            if alias == ".":
                bare = True
            elif alias != "_":
                qualifiers.add(alias)
    found: dict[str, None] = {}
    for match in _ENV_WORD.finditer(source):
        word = root.descendant_for_byte_range(match.start(), match.end())
        if word is None:
            continue
        function = _env_function(word, qualifiers, bare)
        call = function.parent if function is not None else None
        if call is None or call.type != "call_expression":
            continue
        if call.child_by_field_name("function") != function:
            continue
        arguments = call.child_by_field_name("arguments")
        first = next(named_children(arguments), None) if arguments is not None else None
        if first is None:
            continue
        name = _string_value(first)
        if name is None and first.type == "identifier":
            name = strings.get(text_of(first)) or _local_constant(source, text_of(first))
        if name:
            found.setdefault(name, None)
    return tuple(found)


def _local_constant(source: bytes, name: str) -> str | None:
    """The string a ``const name = "..."`` in a function's body gives ``name`` (package-level
    constants are read by the walk)."""
    pattern = re.compile(
        rb"\bconst\s+" + re.escape(name.encode()) + rb"\s*(?:string\s*)?=\s*\"([^\"\\\\]*)\""
    )
    match = pattern.search(source)
    return match.group(1).decode(errors="replace") if match else None


def _env_function(word: Node, qualifiers: set[str], bare: bool) -> Node | None:
    """The callee expression around a ``Getenv``/``LookupEnv`` word: ``os.Getenv`` (or an
    alias's), or the bare word when ``os`` is dot-imported; None elsewhere (strings,
    comments, another package's ``Getenv``)."""
    parent = word.parent
    if word.type == "field_identifier" and parent is not None:
        if parent.type == "selector_expression" and parent.child_by_field_name("field") == word:
            operand = parent.child_by_field_name("operand")
            if operand is not None and operand.type == "identifier":
                return parent if text_of(operand) in qualifiers else None
        return None
    if word.type == "identifier" and bare:
        return word
    return None
