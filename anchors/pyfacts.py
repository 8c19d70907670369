"""Facts of one Python source file (imports, definitions, environment reads) via tree-sitter.

Extraction walks statements directly instead of running tree-sitter queries: a query visits
every node of the tree (1.3-1.9 s over Django), while top-level statements and class bodies
are a few hundred nodes per file (~70 ms over Django). Function bodies are entered only when
their bytes mention ``import``, ``def`` or ``class``; environment reads are found from the
raw-byte positions of ``environ``/``getenv``, so files that never mention them cost nothing.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import IO

from tree_sitter import Node, QueryCursor

from anchors.cli_options import option_defaults
from anchors.env_names import declares_env_name
from anchors.env_wrappers import env_calls, env_wrappers
from anchors.facts import (
    MAX_SOURCE_BYTES,
    Definition,
    FileFacts,
    ImportFact,
    NotRead,
    Signature,
    ValueFact,
    syntax_not_read,
    words_of,
)
from anchors.grammars import named_children, parser, query
from anchors.http_status import statuses_in
from anchors.mentions import described_token, scan_mentions, system_token
from anchors.python_literals import literal_text, string_value
from anchors.settings_strings import settings_imports
from anchors.signatures import keyword_calls, signature_of
from anchors.trait_defaults import traitlets_names, with_trait_defaults

__all__ = [
    "MAX_SOURCE_BYTES",
    "ParsePool",
    "blob_of",
    "body_hash",
    "dialect_of_key",
    "extract_file_facts",
    "extract_many",
    "facts_key",
    "package_of",
    "resolve_relative_imports",
]

# Statements whose blocks can hold imports or definitions that execute at the level they
# appear in (``if TYPE_CHECKING:``, ``try: import x``), and the clause nodes inside them.
_COMPOUND = frozenset(
    {
        "if_statement", "elif_clause", "else_clause", "try_statement", "except_clause",
        "except_group_clause", "finally_clause", "with_statement", "for_statement",
        "while_statement", "match_statement", "case_clause", "block",
    }
)  # fmt: skip
_DEF_TYPES = frozenset({"function_definition", "class_definition"})
_TYPE_CHECKING = frozenset({b"TYPE_CHECKING", b"typing.TYPE_CHECKING"})
_NESTED_HINT = re.compile(rb"\b(?:import|def|class)\b")
# The keys of a module- or class-level dict literal read as constants (``_Walker._keys``).
_KEY = re.compile(r"[A-Za-z_]\w*")
_KEY_DEPTH = 3
_MAX_KEYS = 200
_ENV_WORD = re.compile(rb"\b(?:environ|getenv)\b")
_FROM_ENVVAR = re.compile(rb"\.from_envvar\(\s*[\"']([A-Za-z_][A-Za-z0-9_]*)[\"']")
_ENV_METHODS = frozenset({b"get", b"setdefault"})
_TRAILING_WS = re.compile(rb"[ \t\r\f\v]+\n")


def body_hash(text: bytes) -> str:
    """A short stable hash of a definition's source, blind to trailing whitespace."""
    # Most definitions have no trailing whitespace: the membership tests skip the regex.
    if b" \n" in text or b"\t\n" in text or b"\r" in text or b"\f" in text or b"\v" in text:
        text = _TRAILING_WS.sub(b"\n", text)
    normalised = text.rstrip()
    return hashlib.blake2b(normalised, digest_size=8).hexdigest()


# A file's prose: its comments and its bare strings (docstrings, string statements).
# ``A, B = ...``, ``(A, B) = ...``, ``[A, B] = ...``: names given several values at once
_UNPACKED = frozenset({"pattern_list", "tuple_pattern", "list_pattern"})
_UNPACKED_VALUES = frozenset({"expression_list", "tuple", "list"})
_PROSE = ("(comment) @p (expression_statement (string) @p)"
          " (expression_statement (concatenated_string) @p)")


def _code_mentions(source: bytes, root: Node) -> tuple[str, ...]:
    """The mention tokens of Python code outside its comments and docstrings: a system a
    docstring names ("easy migration to PostgreSQL") is no use of it. Only a file whose
    tokens name a system is searched twice (a library is used by its import, whatever its
    prose says)."""
    found = scan_mentions(source, comments=False)
    if not any(system_token(t) for t in found):
        return found
    blanked = bytearray(source)
    for nodes in QueryCursor(query("python", _PROSE)).captures(root).values():
        for node in nodes:
            blanked[node.start_byte : node.end_byte] = b" " * (node.end_byte - node.start_byte)
    kept = scan_mentions(bytes(blanked), comments=False)  # (a data structure a docstring
    # names counts: ``anchors.mentions``)
    return tuple(sorted({*kept, *filter(described_token, found)}))


def extract_file_facts(source: bytes, path: str = "") -> FileFacts:
    """Extract imports, definitions and environment reads from ``source``.

    Relative imports are resolved to absolute module names using ``path`` (repository
    relative); with no path, or when they climb above the top package, they keep their
    leading dots (``"."``, ``"..pkg.mod"``). ``parsed`` is False when the tree has syntax
    errors (facts from the parts that parsed are still returned) or the file is too big;
    then ``not_read`` says why and ``words`` keeps the words of its bytes, so a check can
    still prove a name absent from the parts that were not read.

    tree-sitter recovers from errors: the statements around an error still yield imports
    and definitions, but those inside an ``ERROR`` node are lost, which is why a file with
    errors counts as not fully read.
    """
    if len(source) > MAX_SOURCE_BYTES:
        return FileFacts(
            parsed=False, not_read=NotRead.TOO_LARGE, size=len(source), words=words_of(source),
            mentions=scan_mentions(source, comments=False),
        )
    root = parser("python").parse(source).root_node
    walker = _Walker(source)
    walker.statements(root, "")
    env_reads: tuple[str, ...] = ()
    env_defaults: list[ValueFact] = []
    if _ENV_WORD.search(source):
        env_reads = _env_reads(source, root, walker.imports, env_defaults)
    # A settings class's fields are read from the environment too (pydantic BaseSettings);
    # and a constant naming a variable (``ENV_CONFIG_DIR = "HTTPIE_CONFIG_DIR"``) is read
    # where the constant is passed (``anchors.env_names``).
    env_reads = tuple(dict.fromkeys((*env_reads, *walker.settings_reads,
                                     *_declared_env_names(walker.constants))))  # fmt: skip
    env_defaults += walker.settings_defaults
    # Reads through the application's helpers and settings libraries (``anchors.env_wrappers``).
    wrappers, scheme_reads, scheme_defaults = env_wrappers(
        source, root, walker.imports, literal_text
    )
    if scheme_reads:
        env_reads = tuple(dict.fromkeys((*env_reads, *scheme_reads)))
        env_defaults += scheme_defaults
    walker.imports += settings_imports(source, root)
    # A command-line option's default, named by its flag, and the variable it may be read
    # from (``anchors.cli_options``).
    options = option_defaults(source, root, literal_text)
    walker.constants += options.defaults
    if options.env_reads:
        env_reads = tuple(dict.fromkeys((*env_reads, *options.env_reads)))
        env_defaults += options.env_defaults
    if b"from_envvar" in source:  # Flask's ``app.config.from_envvar("APP_SETTINGS")``
        named = [m.group(1).decode() for m in _FROM_ENVVAR.finditer(source)]
        env_reads = tuple(dict.fromkeys((*env_reads, *named)))
    not_read = syntax_not_read(root.has_error, source)
    facts = FileFacts(
        imports=tuple(walker.imports),
        definitions=tuple(walker.definitions),
        env_reads=env_reads,
        constants=tuple(walker.constants),
        env_defaults=tuple(env_defaults),
        parsed=not_read is None,
        not_read=not_read,
        words=words_of(source) if not_read else None,
        mentions=_code_mentions(source, root),
        signatures=tuple(walker.signatures),
        calls=keyword_calls(source, root, literal_text),
        env_wrappers=wrappers,
        env_calls=env_calls(source, root, literal_text),
        statuses=statuses_in(source, root, walker.definitions, "python"),
    )
    return resolve_relative_imports(facts, path) if path else facts


def package_of(path: str) -> list[str]:
    """The package a repository file belongs to, as name parts (``src/`` layout stripped)."""
    parts = path.split("/")[:-1]
    if parts and parts[0] == "src":
        parts = parts[1:]
    return parts


def resolve_relative_imports(facts: FileFacts, path: str) -> FileFacts:
    """Rewrite relative imports in ``facts`` to absolute module names for the file at ``path``.

    Facts are cached by blob id, and one blob can sit at several paths (empty or copied
    ``__init__.py`` files), so the cache keeps relative imports raw and this runs per path.
    """
    if facts.language != "python" or not any(imp.module.startswith(".") for imp in facts.imports):
        return facts
    package = package_of(path)
    resolved = []
    for imp in facts.imports:
        module = imp.module
        if module.startswith("."):
            rest = module.lstrip(".")
            level = len(module) - len(rest)
            if level - 1 < len(package):
                base = package[: len(package) - (level - 1)]
                absolute = ".".join([*base, *([rest] if rest else [])])
                if absolute:
                    module = absolute
        resolved.append(replace(imp, module=module))
    return replace(facts, imports=tuple(resolved))


class _Walker:
    """Collects imports and definitions from statement lists, tracking the enclosing name."""

    def __init__(self, source: bytes) -> None:
        self.source = source
        self.imports: list[ImportFact] = []
        self.definitions: list[Definition] = []
        # Values are read at module level and in class bodies, never in a function: a
        # local assignment is not the constant a note names.
        self.constants: list[ValueFact] = []
        # The literal each module-level name was last given, for ``DEFAULT = OTHER``.
        self._module_values: dict[str, str | None] = {}
        self.classes: set[str] = {""}
        self.settings: set[str] = set()  # BaseSettings classes: "name" -> env ``NAME``
        self.settings_reads: list[str] = []
        self.settings_defaults: list[ValueFact] = []
        self._prefix: dict[str, str] = {}
        self.signatures: list[Signature] = []
        self._typing: list[tuple[int, int]] = []  # lines of ``if TYPE_CHECKING:`` blocks

    def statements(self, parent: Node, within: str) -> None:
        for node in parent.children:
            kind = node.type
            if kind == "expression_statement" and within in self.classes:
                self._assignment(node, within)
            elif kind == "import_statement":
                self._import(node, within)
            elif kind == "import_from_statement":
                self._import_from(node, within)
            elif kind in _DEF_TYPES:
                self._definition(node, node, within)
            elif kind == "decorated_definition":
                inner = node.child_by_field_name("definition")
                if inner is not None:
                    self._definition(inner, node, within)
            elif kind in _COMPOUND:
                if kind == "if_statement":
                    self._type_checking_block(node)
                self.statements(node, within)

    def _definition(self, node: Node, outer: Node, within: str) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name_node is None or name_node.text is None:
            return
        qualname = f"{within}.{name_node.text.decode()}" if within else name_node.text.decode()
        text = self.source[outer.start_byte : outer.end_byte]
        bases = _base_names(node) if node.type == "class_definition" else None
        self.definitions.append(
            Definition(qualname, body_hash(text), outer.start_point[0] + 1, bases)
        )
        if node.type == "function_definition":
            self.signatures.append(signature_of(node, qualname))
        if body is None:
            return
        # A class body is walked always (methods); a function body only when its bytes could
        # hold a nested import or definition, which keeps cold builds cheap.
        if node.type == "class_definition":
            self.classes.add(qualname)
            if _is_settings(node):
                self.settings.add(qualname)
                self._prefix[qualname] = _env_prefix(self.source[body.start_byte : body.end_byte])
            before = len(self.constants)
            self.statements(body, qualname)
            self.constants += _named_setting(self.constants[before:], qualname, body)
            if b"traitlets" in self.source:  # a trait's default (``anchors.trait_defaults``)
                names = traitlets_names((i.module, i.names) for i in self.imports)
                self.constants = with_trait_defaults(
                    self.constants, qualname, body, names, literal_text
                )
        elif _NESTED_HINT.search(self.source, body.start_byte, body.end_byte):
            self.statements(body, qualname)

    def _assignment(self, statement: Node, within: str) -> None:
        """``NAME = literal`` (or annotated): a constant, ``Class.NAME`` in a class body; in
        a settings class, a field the environment sets (``page_size: int = 20``)."""
        node = statement.named_children[0] if statement.named_children else None
        if node is not None and node.type == "call" and not within:
            self._declared(node)
            return
        if node is None or node.type != "assignment":
            return
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type in _UNPACKED and right is not None and not within:
            self._unpacked(left, right, node.start_point[0] + 1)
            return
        if left is None or left.type != "identifier" or left.text is None:
            return
        name = left.text.decode()
        line = node.start_point[0] + 1
        if within in self.settings:
            if name == "model_config" or name.startswith("_"):
                return
            env = (self._prefix.get(within, "") + name).upper()
            self.settings_reads.append(env)
            if right is not None:
                self.settings_defaults.append(ValueFact(env, _field_default(right), line))
        if right is not None:
            qualname = f"{within}.{name}" if within else name
            # a model's field keeps the default it is declared with: ``x: int = Field(50)``
            value = _field_default(right) if within in self.classes else literal_text(right)
            if not within:
                if value is None and right.type == "identifier" and right.text is not None:
                    # ``DEFAULT_PAGE_SIZE = QUERY_LIMIT``: the literal the earlier name holds
                    value = self._module_values.get(right.text.decode())
                self._module_values[name] = value
            self.constants.append(ValueFact(qualname, value, line))
            if right.type == "dictionary":
                self._keys(right, qualname, _KEY_DEPTH)
            elif right.type == "list" and not within:
                for item in right.named_children:  # ``OPTS = [cfg.IntOpt("port", default=80)]``
                    if item.type == "call":
                        self._declared(item)

    def _unpacked(self, left: Node, right: Node, line: int) -> None:
        """``STATE_INIT, STATE_RUNNING = ["ready", "running"]``: each name its literal, where
        the sides have as many items (a starred name or a computed side: none)."""
        names = list(named_children(left))
        values = list(named_children(right)) if right.type in _UNPACKED_VALUES else []
        if len(names) != len(values) or any(n.type != "identifier" for n in names):
            return
        for target, value in zip(names, values, strict=True):
            name = (target.text or b"").decode()
            text = literal_text(value)
            self._module_values[name] = text
            self.constants.append(ValueFact(name, text, line))

    def _declared(self, call: Node) -> None:
        """A setting declared by a call that names it and gives its default: derpconf's
        ``Config.define("QUALITY", 80, "...")``, oslo.config's ``cfg.IntOpt("workers",
        default=4)``: the constant ``QUALITY`` (as named) with that default."""
        function = call.child_by_field_name("function")
        called = (function.text or b"").rsplit(b".", 1)[-1] if function is not None else b""
        if called != b"define" and not _OPTION_CALL.fullmatch(called):
            return
        arguments = call.child_by_field_name("arguments")
        if arguments is None:
            return
        first = next(iter(named_children(arguments)), None)
        name = string_value(first) if first is not None else None
        if name is None or not _KEY.fullmatch(name):
            return
        if called == b"define":
            # positional, as derpconf gives it (tornado's ``default=`` is a command-line
            # option's, ``anchors.cli_options``)
            given = [a for a in named_children(arguments) if a.type != "keyword_argument"]
            if len(given) < 2:
                return
            value = literal_text(given[1])
        else:
            value = _argument(call, -1, b"default")  # oslo.config's, by keyword
        self.constants.append(ValueFact(name, value, call.start_point[0] + 1))

    def _keys(self, mapping: Node, qualname: str, depth: int) -> None:
        """``REST_FRAMEWORK = {"PAGE_SIZE": 20}``: each key a name could be (a settings
        dict's entries, ``DEFAULT_SETTINGS``), a constant ``REST_FRAMEWORK.PAGE_SIZE``; a
        nested dict's keys too, a few levels deep; a large table is data, not settings."""
        pairs = [p for p in mapping.named_children if p.type == "pair"]
        if len(pairs) > _MAX_KEYS:
            return
        for pair in pairs:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            name = string_value(key) if key is not None else None
            if name is None or value is None or not _KEY.fullmatch(name):
                continue
            keyed = f"{qualname}.{name}"
            self.constants.append(ValueFact(keyed, literal_text(value), pair.start_point[0] + 1))
            if value.type == "dictionary" and depth > 1:
                self._keys(value, keyed, depth - 1)

    def _type_checking_block(self, node: Node) -> None:
        """Record the lines of ``if TYPE_CHECKING:``'s body (not its ``else``)."""
        condition, body = node.child_by_field_name("condition"), node.child_by_field_name(
            "consequence"
        )
        if condition is not None and body is not None and condition.text in _TYPE_CHECKING:
            self._typing.append((body.start_point[0] + 1, body.end_point[0] + 1))

    def _typing_only(self, line: int) -> bool:
        return any(start <= line <= end for start, end in self._typing)

    def _import(self, node: Node, within: str) -> None:
        line = node.start_point[0] + 1
        typing = self._typing_only(line)
        for child in node.children_by_field_name("name"):
            module = _dotted(child.child_by_field_name("name") if _is_alias(child) else child)
            if module:
                self.imports.append(ImportFact(module, (), within, line, typing))

    def _import_from(self, node: Node, within: str) -> None:
        module_node = node.child_by_field_name("module_name")
        if module_node is None:
            return
        if module_node.type == "relative_import":
            module = "".join(
                "." * len(c.children) if c.type == "import_prefix" else _dotted(c)
                for c in module_node.children
            )
        else:
            module = _dotted(module_node)
        names = []
        for child in node.children_by_field_name("name"):
            name = _dotted(child.child_by_field_name("name") if _is_alias(child) else child)
            if name:
                names.append(name)
        if module:
            line = node.start_point[0] + 1
            self.imports.append(
                ImportFact(module, tuple(names), within, line, self._typing_only(line))
            )


def _is_alias(node: Node) -> bool:
    return node.type == "aliased_import"


def _dotted(node: Node | None) -> str:
    if node is None or node.type != "dotted_name" or node.text is None:
        return ""
    return node.text.decode(errors="replace")


def _base_names(node: Node) -> tuple[str, ...]:
    """A class's bases as named, the last part of a dotted one (``exceptions.UsageError``:
    ``UsageError``); keywords (``metaclass=``) and computed bases are left out."""
    bases = node.child_by_field_name("superclasses")
    if bases is None:
        return ()
    return tuple((base.text or b"").decode(errors="replace").rsplit(".", 1)[-1]
                 for base in named_children(bases)
                 if base.type in ("identifier", "attribute"))  # fmt: skip


def _is_settings(node: Node) -> bool:
    """A class deriving from pydantic's ``BaseSettings`` (``pydantic_settings`` or v1)."""
    bases = node.child_by_field_name("superclasses")
    return bases is not None and any(
        (base.text or b"").rsplit(b".", 1)[-1] == b"BaseSettings" for base in named_children(bases)
    )


_ENV_PREFIX = re.compile(rb"""env_prefix\s*=\s*['"]([A-Za-z0-9_]*)['"]""")


def _env_prefix(body: bytes) -> str:
    """The ``env_prefix`` a settings class declares (``model_config`` or ``class Config``)."""
    m = _ENV_PREFIX.search(body)
    return m.group(1).decode() if m else ""


# What declares a model's field with its default: pydantic's ``Field``, dataclasses'
# ``field``, attrs' ``attr.ib`` / ``attrs.field``; a positional default only for ``Field``.
_FIELDS = {b"Field": 0, b"field": None, b"ib": None, b"attrib": None}


def _named_setting(attributes: list[ValueFact], qualname: str, body: Node) -> list[ValueFact]:
    """A class that declares one setting by its attributes (gunicorn's ``class
    Timeout(Setting): name = "timeout"; cli = ["-t", "--timeout"]; default = 30``): the
    setting ``timeout`` and its long command-line option ``--timeout``, with the default
    (at the ``default`` line); nothing for a class that names no setting so."""
    values = {a.name.rpartition(".")[2]: a for a in attributes
              if a.name.rpartition(".")[0] == qualname}  # fmt: skip
    named, default = values.get("name"), values.get("default")
    if named is None or default is None or named.text is None:
        return []
    name = named.text[1:-1] if named.text[:1] in "'\"" else ""
    if not _KEY.fullmatch(name):
        return []
    found = [ValueFact(name, default.text, default.line)]
    for statement in body.named_children:  # ``cli = ["-t", "--timeout"]``
        assignment = statement.named_children[0] if statement.named_children else None
        left = assignment.child_by_field_name("left") if assignment is not None else None
        right = assignment.child_by_field_name("right") if assignment is not None else None
        if left is None or left.text != b"cli" or right is None or right.type != "list":
            continue
        for item in right.named_children:
            option = string_value(item)
            if option and option.startswith("--"):
                found.append(ValueFact(option, default.text, default.line))
    return found


# oslo.config's option classes: ``StrOpt``, ``IntOpt``, ``BoolOpt``, ``PortOpt``, ...
_OPTION_CALL = re.compile(rb"[A-Z][A-Za-z]*Opt")


def _field_default(right: Node) -> str | None:
    """A field's default: a literal, or ``Field(literal)`` / ``Field(default=…)`` (and the
    ``default=`` of dataclasses' and attrs' ``field``), or the ``default=`` any declaration
    of a class attribute passes (MkDocs' ``c.Type(bool, default=False)``, a Django model
    field's ``default=``); None when computed or a factory."""
    if right.type == "call":
        function = right.child_by_field_name("function")
        called = (function.text or b"").rsplit(b".", 1)[-1] if function is not None else b""
        if called in _FIELDS:
            position = _FIELDS[called]
            return _argument(right, -1 if position is None else position, b"default")
        declared = _argument(right, -1, b"default")
        if declared is not None:
            return declared
    return literal_text(right)  # (``timedelta(days=365)`` is a literal of its own)


def _argument(call: Node, position: int, keyword: bytes) -> str | None:
    """The literal text of a call's argument at ``position`` or named ``keyword``."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    positional = []
    for arg in named_children(arguments):
        if arg.type == "keyword_argument":
            key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if key is not None and key.text == keyword and value is not None:
                return literal_text(value)
        elif arg.type not in ("list_splat", "dictionary_splat"):
            positional.append(arg)
    return literal_text(positional[position]) if 0 <= position < len(positional) else None


def _has_default(call: Node) -> bool:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return False
    named = list(named_children(arguments))
    return len(named) > 1 or any(
        a.type == "keyword_argument" and (a.child_by_field_name("name") or a).text == b"default"
        for a in named
    )


_NAME_LITERAL = re.compile(r"""[rRuU]?(['"])(?P<v>[A-Z][A-Z0-9_]*)\1""")


def _declared_env_names(constants: Sequence[ValueFact]) -> list[str]:
    """The variables module constants name, as ``anchors.env_names`` reads a constant."""
    found = []
    for constant in constants:
        m = _NAME_LITERAL.fullmatch(constant.text or "")
        if m and "." not in constant.name and declares_env_name(constant.name, m["v"]):
            found.append(m["v"])
    return found


def _env_reads(
    source: bytes, root: Node, imports: list[ImportFact], defaults: list[ValueFact]
) -> tuple[str, ...]:
    """Names read via ``os.environ``/``os.getenv`` (or their ``from os import`` forms); the
    defaults given to ``getenv``, ``environ.get`` and ``environ.setdefault`` are added to
    ``defaults`` (wrapped or not: ``int(os.getenv("X", "20"))`` gives X the default "20")."""
    bare = {
        name
        for imp in imports
        if imp.module == "os"
        for name in imp.names
        if name in ("environ", "getenv")
    }
    found: dict[str, None] = {}
    aliases: set[bytes] = set()
    for match in _ENV_WORD.finditer(source):
        node = root.descendant_for_byte_range(match.start(), match.end())
        if node is None or node.type != "identifier":
            continue  # inside a string or comment
        name, call = _env_read_at(node, bare)
        if name is None and (alias := _environ_alias(node, bare)) is not None:
            aliases.add(alias)
        _found_read(name, call, found, defaults)
    for alias in aliases:  # ``self._environ.get("NO_COLOR")`` after ``_environ = os.environ``
        for match in re.finditer(rb"\b" + re.escape(alias) + rb"\b", source):
            node = root.descendant_for_byte_range(match.start(), match.end())
            if node is not None and node.type == "identifier":
                _found_read(*_alias_read_at(node), found, defaults)
    return tuple(found)


def _found_read(name: str | None, call: Node | None, found: dict[str, None],
                defaults: list[ValueFact]) -> None:  # fmt: skip
    if name is None:
        return
    found.setdefault(name, None)
    if call is not None and _has_default(call):
        line = call.start_point[0] + 1
        defaults.append(ValueFact(name, _argument(call, 1, b"default"), line))


def _environ_alias(word: Node, bare: set[str]) -> bytes | None:
    """The name ``os.environ`` is given, when the ``environ`` word is assigned whole to a
    variable or an attribute (``env = os.environ``, ``_environ: Mapping = os.environ``)."""
    parent = word.parent
    expr = word
    if parent is not None and parent.type == "attribute" and parent.child_by_field_name(
            "attribute") == word:  # fmt: skip
        obj = parent.child_by_field_name("object")
        if obj is None or obj.text != b"os":
            return None
        expr = parent
    elif word.text is None or word.text.decode() not in bare or word.text != b"environ":
        return None
    assignment = expr.parent
    if assignment is None or assignment.type != "assignment" or (
            assignment.child_by_field_name("right") != expr):  # fmt: skip
        return None
    left = assignment.child_by_field_name("left")
    if left is not None and left.type == "attribute":
        left = left.child_by_field_name("attribute")
    return left.text if left is not None and left.type == "identifier" else None


def _alias_read_at(word: Node) -> tuple[str | None, Node | None]:
    """What a read through an alias of ``os.environ`` reads (``env.get("X")``,
    ``self._environ["X"]``, ``"X" in self._environ``), and its call."""
    parent = word.parent
    expr = word  # ``env.get``: the alias is the object; ``self._environ``: the attribute
    if parent is not None and parent.type == "attribute" and (
            parent.child_by_field_name("attribute") == word):  # fmt: skip
        expr = parent
    name = _environ_use(expr)
    method = expr.parent
    call = method.parent if method is not None and method.type == "attribute" else None
    return name, call


def _env_read_at(word: Node, bare: set[str]) -> tuple[str | None, Node | None]:
    """The variable name read by the expression around the ``environ``/``getenv`` word, and
    the call that reads it when a call does (it may give a default)."""
    text = word.text or b""
    parent = word.parent
    if parent is None:
        return None, None
    if parent.type == "attribute" and parent.child_by_field_name("attribute") == word:
        obj = parent.child_by_field_name("object")
        if obj is None or obj.type != "identifier" or obj.text != b"os":
            return None, None
        expr = parent
    elif text.decode() in bare:
        expr = word
    else:
        return None, None
    if text == b"getenv":
        return _first_string_argument(expr.parent, expr), expr.parent
    name = _environ_use(expr)
    method = expr.parent
    call = method.parent if method is not None and method.type == "attribute" else None
    return name, call


def _environ_use(expr: Node) -> str | None:
    """``environ["X"]``, ``environ.get("X")``, ``environ.setdefault("X")``, ``"X" in environ``."""
    parent = expr.parent
    if parent is None:
        return None
    if parent.type == "subscript" and parent.child_by_field_name("value") == expr:
        grand = parent.parent
        if grand is not None and grand.type == "assignment" and grand.children[0] == parent:
            return None  # a write sets the variable; it does not read it
        subscripts = parent.children_by_field_name("subscript")
        return string_value(subscripts[0]) if len(subscripts) == 1 else None
    if parent.type == "attribute" and parent.child_by_field_name("object") == expr:
        method = parent.child_by_field_name("attribute")
        if method is not None and method.text in _ENV_METHODS:
            return _first_string_argument(parent.parent, parent)
        return None
    if parent.type == "comparison_operator":
        children = parent.children
        index = next((i for i, c in enumerate(children) if c == expr), -1)
        if index >= 2 and children[index - 1].type in ("in", "not in"):
            return string_value(children[index - 2])
    return None


def _first_string_argument(call: Node | None, function: Node) -> str | None:
    if call is None or call.type != "call" or call.child_by_field_name("function") != function:
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    first = next(iter(named_children(arguments)), None)
    return string_value(first) if first is not None else None


def facts_key(dialect: str, blob_id: str) -> str:
    """The key a blob's facts are cached under: the blob id for Python (as always), else
    ``<dialect>:<blob id>``: one blob read by two grammars gives two sets of facts."""
    return blob_id if dialect == "python" else f"{dialect}:{blob_id}"


def blob_of(key: str) -> str:
    """The blob id of a ``facts_key``."""
    return key.rpartition(":")[2]


def dialect_of_key(key: str) -> str:
    """The dialect of a ``facts_key``."""
    return key.partition(":")[0] if ":" in key else "python"


def extract_many(items: list[tuple[str, bytes]]) -> list[tuple[str, FileFacts]]:
    """``(facts key, source)`` pairs to ``(facts key, facts)``, relative imports left raw:
    the unit of work a process-pool worker runs, so it ships bytes in and plain data out."""
    from anchors.languages import extract_facts  # it dispatches back to this module

    return [(key, extract_facts(source, dialect_of_key(key))) for key, source in items]


class ParsePool:
    """Worker processes running ``extract_many``, for cold builds of many files.

    tree-sitter holds the GIL, so threads cannot parse in parallel. The workers are plain
    ``python -c`` processes rather than a multiprocessing pool: spawn and forkserver
    re-import the parent's ``__main__`` (the server's CLI imports mcp and duckdb: ~0.7 s per
    worker), while this worker imports only this module (~0.05 s). Each worker has at most
    one chunk in flight and reads a whole request before answering, so pipes cannot deadlock.
    """

    def __init__(self, workers: int = 2) -> None:
        package_parent = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
        self._workers = [
            subprocess.Popen(
                [sys.executable, "-c", "from anchors.pyfacts import _serve; _serve()"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                # Our own package directory, never the analysed repository: a module there
                # named like one we import must not run.
                cwd=package_parent,
                env=env,
            )
            for _ in range(workers)
        ]

    def __enter__(self) -> ParsePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def map(
        self, chunks: Iterable[list[tuple[str, bytes]]]
    ) -> Iterator[list[tuple[str, FileFacts]]]:
        """Facts for each chunk of ``(blob id, source)`` pairs, in completion order."""
        idle = list(self._workers)
        busy: deque[subprocess.Popen[bytes]] = deque()
        for chunk in chunks:
            if not idle:
                worker = busy.popleft()
                yield _receive(worker)
                idle.append(worker)
            worker = idle.pop()
            assert worker.stdin is not None
            _write_frame(worker.stdin, chunk)
            busy.append(worker)
        while busy:
            yield _receive(busy.popleft())

    def close(self) -> None:
        """Stop the workers: closing their pipes ends them; a stuck one is killed."""
        for worker in self._workers:
            for stream in (worker.stdin, worker.stdout):
                if stream is not None:
                    stream.close()
        for worker in self._workers:
            try:
                worker.wait(timeout=2)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()


def _write_frame(stream: IO[bytes], value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(payload)) + payload)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> object:
    header = stream.read(8)
    if len(header) != 8:
        raise EOFError("parse worker closed its pipe")
    (size,) = struct.unpack("<Q", header)
    payload = stream.read(size)
    if len(payload) != size:
        raise EOFError("parse worker closed its pipe")
    # Only our own worker writes here, so unpickling trusts no one else.
    return pickle.loads(payload)


def _receive(worker: subprocess.Popen[bytes]) -> list[tuple[str, FileFacts]]:
    assert worker.stdout is not None
    result = _read_frame(worker.stdout)
    assert isinstance(result, list)
    return result


def _serve() -> None:
    """A worker's loop: read a chunk, answer its facts, until the parent closes stdin."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            items = _read_frame(stdin)
        except EOFError:
            return
        assert isinstance(items, list)
        _write_frame(stdout, extract_many(items))
