"""Environment variables read through the application's own helpers and settings libraries.

``PAGE_SIZE = env_int("PAGE_SIZE", 20)`` reads ``PAGE_SIZE`` with the default 20 when
``env_int`` forwards its first parameter to ``os.getenv``/``os.environ`` (its default
parameter too, or returns it). Such helpers often live in another file, so extraction
records per file (a) its wrappers (``EnvWrapper``: functions and methods whose first
parameter is the name a getenv-like call reads, and the objects of the settings libraries:
django-environ's ``env = environ.Env(...)``, environs' ``env = Env()``, decouple's
``config``) and (b) its calls whose first argument is a literal upper-case name
(``EnvCall``); ``wrapped_reads`` joins them over the whole fingerprint, resolving each
callee through the calling file's own wrappers and its imports of repository modules.
Exactly one level is followed: a wrapper is a function whose own body reads the
environment; a helper calling another helper is not one.

Cost: calls are found from the raw bytes (a literal upper-case name right after ``(``), so
a file with none costs one regular-expression scan; function bodies are searched for
wrappers only in files that mention ``environ``, ``getenv`` or ``decouple``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from anchors.env_records import EnvCall, EnvWrapper, ValueFact
from anchors.python_literals import string_value

if TYPE_CHECKING:  # only annotations: anchors.facts imports this module, and no grammar loads
    from tree_sitter import Node

    from anchors.facts import FileFacts, ImportFact

__all__ = ["MAX_ENV_CALLS", "env_calls", "env_wrappers", "wrapped_reads"]

Literal: TypeAlias = "Callable[[Node], str | None]"
ModulePath = Callable[[str], "str | None"]

MAX_ENV_CALLS = 300  # per file: a generated file of thousands is not a settings module
_MAX_ARGS = 4
_CALL_AT = re.compile(rb"""\(\s*[rRuU]?(['"])[A-Z][A-Z0-9_]+\1\s*[,)]""")
_ENV_WORD = re.compile(rb"\b(?:environ|getenv)\b")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# The os forms ``pyfacts`` reads itself.
_OS_READS = frozenset(
    {"os.getenv", "getenv", "os.environ.get", "environ.get", "os.environ.setdefault",
     "environ.setdefault"}
)  # fmt: skip
# Methods of the settings objects that take something other than a variable's name.
_NOT_READS = frozenset({"prefixed", "read_env", "dump", "seal", "expand", "smart_cast"})
_DEFAULT_PARAMS = ("default", "fallback")


# -- extraction ------------------------------------------------------------------------------
def env_calls(source: bytes, root: Node, literal: Literal) -> tuple[EnvCall, ...]:
    """Calls passing a literal upper-case name first (``env_int("PAGE_SIZE", 20)``)."""
    found: list[EnvCall] = []
    for match in _CALL_AT.finditer(source):
        quote = match.start(1)
        node = root.descendant_for_byte_range(quote, quote + 1)
        string = node.parent if node is not None and node.type == "string_start" else None
        arguments = string.parent if string is not None else None
        call = arguments.parent if arguments is not None else None
        if string is None or arguments is None or call is None or call.type != "call":
            continue
        named = [c for c in arguments.children if c.is_named and c.type != "comment"]
        function = call.child_by_field_name("function")
        callee = (function.text or b"").decode(errors="replace") if function else ""
        if not named or named[0] != string or not _DOTTED.fullmatch(callee):
            continue
        if callee in _OS_READS:
            continue
        name = string_value(string)
        if name is None:
            continue
        args: list[str | None] = []
        keywords: list[tuple[str, str | None]] = []
        for arg in named[1:]:
            if arg.type == "keyword_argument":
                key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
                if key is not None and value is not None:
                    keywords.append(((key.text or b"").decode(), literal(value)))
            elif arg.type in ("list_splat", "dictionary_splat"):
                args.append(None)  # what follows cannot be placed
                keywords.append(("**", None))
            elif len(args) < _MAX_ARGS:
                args.append(literal(arg))
        found.append(EnvCall(callee, name, tuple(args), tuple(keywords), call.start_point[0] + 1))
        if len(found) >= MAX_ENV_CALLS:
            break
    return tuple(found)


def env_wrappers(
    source: bytes, root: Node, imports: Sequence[ImportFact], literal: Literal
) -> tuple[tuple[EnvWrapper, ...], list[str], list[ValueFact]]:
    """This file's wrappers, and the variables (with defaults) a django-environ scheme
    declares (``environ.Env(DEBUG=(bool, False))``)."""
    wrappers: list[EnvWrapper] = []
    reads: list[str] = []
    defaults: list[ValueFact] = []
    libraries = _library_names(imports)
    for name, kind in libraries.items():
        if kind in ("decouple.config", "environs.env"):
            wrappers.extend(_library_wrappers(name, kind))
    for node in root.children if libraries else ():
        if node.type == "expression_statement":
            wrappers.extend(_library_object(node, libraries, literal, reads, defaults) or ())
    if b"environ" not in source and b"getenv" not in source:
        return tuple(wrappers), reads, defaults
    bare = {n for imp in imports if imp.module == "os" for n in imp.names}
    wrappers.extend(_aliases(root, bare))
    seen: set[int] = set()
    for match in _ENV_WORD.finditer(source):
        word = root.descendant_for_byte_range(match.start(), match.end())
        access = _env_access(word, bare) if word is not None else None
        if word is None or access is None or access[0].type != "identifier":
            continue
        function, callee = _enclosing_function(word)
        if function is None or function.start_byte in seen:
            continue
        wrapper = _function_wrapper(function, callee, access, literal)
        if wrapper is not None:
            seen.add(function.start_byte)
            wrappers.append(wrapper)
    return tuple(wrappers), reads, defaults


def _aliases(root: Node, bare: set[str]) -> list[EnvWrapper]:
    """``env = os.environ.get`` at the top of a module: ``env("DEBUG")`` reads DEBUG, with
    the default ``os.environ.get`` takes second (``getenv`` and ``environ.get`` where the
    module imports them from ``os``)."""
    found: list[EnvWrapper] = []
    for statement in root.children:
        node = statement.named_children[0] if statement.type == "expression_statement" else None
        if node is None or node.type != "assignment":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or left.type != "identifier" or right is None:
            continue
        target = (right.text or b"").decode(errors="replace")
        if target in ("os.getenv", "os.environ.get") or (
            target in ("getenv", "environ.get") and target.partition(".")[0] in bare
        ):
            found.append(EnvWrapper((left.text or b"").decode(), 1, "default"))
    return found


def _library_names(imports: Sequence[ImportFact]) -> dict[str, str]:
    """Names this file can build a settings object or read with, by kind: ``environ.Env``
    (django-environ), ``environs.Env``, ``decouple.config`` / ``decouple.Config``."""
    names: dict[str, str] = {}
    for imp in imports:
        if imp.within:
            continue
        if imp.module in ("environ", "environs", "decouple") and not imp.names:
            for attr in ("Env", "config", "AutoConfig", "Config"):
                names[f"{imp.module}.{attr}"] = _kind(imp.module, attr)
        for name in imp.names if imp.module in ("environ", "environs", "decouple") else ():
            names[name] = _kind(imp.module, name)
    return {k: v for k, v in names.items() if v}


def _kind(module: str, attr: str) -> str:
    if module in ("environ", "environs") and attr in ("Env", "env"):
        return f"{module}.{attr}"
    if module == "decouple" and attr == "config":
        return "decouple.config"
    if module == "decouple" and attr in ("AutoConfig", "Config"):
        return "decouple.Config"
    return ""


def _library_wrappers(name: str, kind: str) -> list[EnvWrapper]:
    # django-environ: env(var, cast=None, default=...) and env.int(var, default=...);
    # environs: env(name, default) and env.int(name, default); decouple: config(name, default).
    if kind == "environ.Env":
        return [EnvWrapper(name, -1, "default"), EnvWrapper(f"{name}.*", 1, "default")]
    if kind in ("environs.Env", "environs.env", "environ.env"):
        return [EnvWrapper(name, 1, "default"), EnvWrapper(f"{name}.*", 1, "default")]
    return [EnvWrapper(name, 1, "default")]


def _library_object(
    statement: Node,
    libraries: Mapping[str, str],
    literal: Literal,
    reads: list[str],
    defaults: list[ValueFact],
) -> list[EnvWrapper] | None:
    """``env = environ.Env(...)``, ``env = Env()``, ``config = AutoConfig(...)``."""
    node = statement.named_children[0] if statement.named_children else None
    if node is None or node.type != "assignment":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or left.type != "identifier" or right is None or right.type != "call":
        return None
    function = right.child_by_field_name("function")
    kind = libraries.get((function.text or b"").decode() if function is not None else "", "")
    if kind in ("", "decouple.config", "environs.env"):
        return None
    if kind == "environ.Env":
        _scheme(right, literal, reads, defaults)
    kind = "decouple.config" if kind == "decouple.Config" else kind
    return _library_wrappers((left.text or b"").decode(), kind)


def _scheme(call: Node, literal: Literal, reads: list[str], defaults: list[ValueFact]) -> None:
    """``environ.Env(DEBUG=(bool, False))``: DEBUG is read, with the default False."""
    arguments = call.child_by_field_name("arguments")
    for arg in arguments.named_children if arguments is not None else ():
        key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
        if arg.type != "keyword_argument" or key is None or value is None:
            continue
        name = (key.text or b"").decode()
        reads.append(name)
        items = [c for c in value.named_children if c.type != "comment"]
        if value.type == "tuple" and len(items) == 2:
            defaults.append(ValueFact(name, literal(items[1]), arg.start_point[0] + 1))


def _enclosing_function(node: Node) -> tuple[Node | None, str]:
    """The module-level function, or method of a module-level class, that ``node`` is in,
    and how a call names it (``env_int``, ``Settings.env``); (None, "") for anything else."""
    function = node.parent
    while function is not None and function.type not in ("function_definition", "module"):
        function = function.parent
    if function is None or function.type != "function_definition":
        return None, ""
    name = _text(function.child_by_field_name("name") or function)
    outer = function.parent
    if outer is not None and outer.type == "decorated_definition":
        outer = outer.parent
    if outer is not None and outer.type == "module":
        return function, name
    owner = outer.parent if outer is not None and outer.type == "block" else None
    holder = owner.parent if owner is not None else None
    if holder is not None and holder.type == "decorated_definition":
        holder = holder.parent
    if owner is not None and owner.type == "class_definition" and holder is not None \
            and holder.type == "module":  # fmt: skip
        return function, f"{_text(owner.child_by_field_name('name') or owner)}.{name}"
    return None, ""


def _function_wrapper(
    function: Node, callee: str, access: tuple[Node, Node | None], literal: Literal
) -> EnvWrapper | None:
    """``callee`` as a wrapper when the read ``access`` (name and default arguments of a
    getenv-like call in its body) reads the variable its first parameter names."""
    params = _parameters(function)
    if "." in callee and params and params[0][0] in ("self", "cls"):
        params = params[1:]
    names = [name for name, _ in params]
    if not names or _text(access[0]) != names[0]:
        return None
    default = access[1]
    if default is not None and default.type == "call":
        default = _single_argument(default)  # ``str(default)``
    at = -1
    if default is not None and default.type == "identifier" and _text(default) in names:
        at = names.index(_text(default))
    if at == -1:  # ``v = os.getenv(name); return default if v is None else int(v)``
        at = next((names.index(n) for n in _DEFAULT_PARAMS if n in names), -1)
    if at <= 0:
        return EnvWrapper(callee, -1, "")
    fallback = params[at][1]
    text = literal(fallback) if fallback is not None else None
    return EnvWrapper(callee, at, names[at], text, fallback is not None)


def _parameters(function: Node) -> list[tuple[str, Node | None]]:
    """Leading plain parameters as (name, default node); stops at ``*``, ``/`` or splats."""
    node = function.child_by_field_name("parameters")
    params: list[tuple[str, Node | None]] = []
    for child in node.named_children if node is not None else ():
        if child.type == "identifier":
            params.append(((child.text or b"").decode(), None))
        elif child.type == "typed_parameter" and child.named_children[0].type == "identifier":
            params.append(((child.named_children[0].text or b"").decode(), None))
        elif child.type in ("default_parameter", "typed_default_parameter"):
            name = child.child_by_field_name("name")
            if name is None or name.type != "identifier":
                break
            params.append(((name.text or b"").decode(), child.child_by_field_name("value")))
        elif child.type != "comment":
            break
    return params


def _env_access(word: Node, bare: set[str]) -> tuple[Node, Node | None] | None:
    """(name argument, default argument) of the getenv-like read around ``word``:
    ``os.getenv(n, d)``, ``os.environ.get(n, d)``, ``os.environ.setdefault(n, d)``,
    ``os.environ[n]`` (and their ``from os import`` forms)."""
    parent = word.parent
    if word.type != "identifier" or parent is None:
        return None
    if parent.type == "attribute" and parent.child_by_field_name("attribute") == word:
        obj = parent.child_by_field_name("object")
        if obj is None or obj.text != b"os":
            return None
        expr = parent
    elif (word.text or b"").decode() in bare:
        expr = word
    else:
        return None
    outer = expr.parent
    if outer is None:
        return None
    if word.text == b"getenv":
        return _call_arguments(outer, expr)
    if outer.type == "subscript" and outer.child_by_field_name("value") == expr:
        subscripts = outer.children_by_field_name("subscript")
        return (subscripts[0], None) if len(subscripts) == 1 else None
    if outer.type == "attribute" and outer.child_by_field_name("object") == expr:
        method = outer.child_by_field_name("attribute")
        if method is not None and method.text in (b"get", b"setdefault"):
            return _call_arguments(outer.parent, outer)
    return None


def _call_arguments(call: Node | None, function: Node) -> tuple[Node, Node | None] | None:
    if call is None or call.type != "call" or call.child_by_field_name("function") != function:
        return None
    arguments = call.child_by_field_name("arguments")
    named = [c for c in arguments.named_children if c.type != "comment"] if arguments else []
    positional = [a for a in named if a.type != "keyword_argument"]
    default = positional[1] if len(positional) > 1 else None
    for arg in named:
        key = arg.child_by_field_name("name") if arg.type == "keyword_argument" else None
        if key is not None and key.text == b"default":
            default = arg.child_by_field_name("value")
    return (positional[0], default) if positional else None


def _text(node: Node) -> str:
    return (node.text or b"").decode(errors="replace")


def _single_argument(call: Node) -> Node | None:
    arguments = call.child_by_field_name("arguments")
    named = [c for c in arguments.named_children if c.type != "comment"] if arguments else []
    return named[0] if len(named) == 1 else None


# -- joining over the fingerprint -------------------------------------------------------------
def wrapped_reads(
    python: Mapping[str, FileFacts], module_path: ModulePath
) -> list[tuple[str, str, ValueFact | None]]:
    """(variable, path, default or None when the call gives none) for every call, in any
    file, of a wrapper that file defines or imports from a repository module."""
    found: list[tuple[str, str, ValueFact | None]] = []
    by_file: dict[str, dict[str, EnvWrapper]] = {}

    def wrappers_of(path: str | None) -> dict[str, EnvWrapper]:
        if path is None:
            return {}
        if path not in by_file:
            facts = python.get(path)
            by_file[path] = {w.callee: w for w in facts.env_wrappers} if facts else {}
        return by_file[path]

    # The last names wrappers are called by anywhere (``env_int``; ``env`` for ``env.*``): a
    # file none of whose calls ends in one of them needs no resolution.
    names = {
        w.callee.removesuffix(".*").rpartition(".")[2]
        for facts in python.values() for w in facts.env_wrappers
    }  # fmt: skip
    for path, facts in python.items():
        if not facts.env_calls or not any(
            not names.isdisjoint(c.callee.split(".")[-2:]) for c in facts.env_calls
        ):
            continue
        table = _callable(path, facts, wrappers_of, module_path)
        if not table:
            continue
        for call in facts.env_calls:
            wrapper = _lookup(table, call.callee)
            if wrapper is not None:
                found.append((call.name, path, _default(wrapper, call)))
    return found


def _callable(
    path: str,
    facts: FileFacts,
    wrappers_of: Callable[[str | None], dict[str, EnvWrapper]],
    module_path: ModulePath,
) -> dict[str, EnvWrapper]:
    """Callee as written in ``path`` -> the wrapper it calls."""
    table: dict[str, EnvWrapper] = {}
    methods: dict[str, list[EnvWrapper]] = {}
    for callee, wrapper in wrappers_of(path).items():
        table[callee] = wrapper
        _, dot, last = callee.rpartition(".")
        if dot and last != "*":
            methods.setdefault(last, []).append(wrapper)
    for last, found in methods.items():
        if len(found) == 1:  # ``self.env("X")`` inside the class that defines ``env``
            table[f"self.{last}"] = table[f"cls.{last}"] = found[0]
    for imp in facts.imports:
        if imp.module.startswith(".") or imp.within.startswith("<"):
            continue
        if not imp.names:  # import config.env -> config.env.env_int(...)
            for callee, wrapper in wrappers_of(module_path(imp.module)).items():
                table.setdefault(f"{imp.module}.{callee}", wrapper)
            continue
        source = wrappers_of(module_path(imp.module))
        for name in imp.names:
            for key in (name, f"{name}.*"):
                if key in source:
                    table.setdefault(key, source[key])
            submodule = module_path(f"{imp.module}.{name}")  # from config import env
            for callee, wrapper in wrappers_of(submodule).items():
                table.setdefault(f"{name}.{callee}", wrapper)
    return table


def _lookup(table: Mapping[str, EnvWrapper], callee: str) -> EnvWrapper | None:
    if callee in table:
        return table[callee]
    owner, dot, method = callee.rpartition(".")
    if not dot or method in _NOT_READS or method.startswith("_"):
        return None
    return table.get(f"{owner}.*")


def _default(wrapper: EnvWrapper, call: EnvCall) -> ValueFact | None:
    """The default a call gives through ``wrapper``: by position, by keyword, or the
    wrapper's own; None when it gives none (a splat gives an unknown one)."""
    if wrapper.default_at > _MAX_ARGS:
        return ValueFact(call.name, None, call.line)  # past the arguments kept
    if 0 < wrapper.default_at <= len(call.args):
        return ValueFact(call.name, call.args[wrapper.default_at - 1], call.line)
    keywords = dict(call.keywords)
    if wrapper.default_kw and wrapper.default_kw in keywords:
        return ValueFact(call.name, keywords[wrapper.default_kw], call.line)
    if "**" in keywords:
        return ValueFact(call.name, None, call.line)
    if wrapper.has_fallback:
        return ValueFact(call.name, wrapper.fallback, call.line)
    return None
