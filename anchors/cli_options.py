"""The defaults of a Python program's command-line options, read with tree-sitter (issue
#31): "the `--port` option defaults to 8080", "the UI listens on 8080 unless `--port` is
given" are checked against ``parser.add_argument("-p", "--port", default=8080)``.

A declaration is a call of ``add_argument`` (argparse; ``add`` and ``add_arg`` in
ConfigArgParse), ``add_option`` (optparse),
``option`` (click's ``@click.option``) or ``Option`` (typer's ``typer.Option(8080,
"--port")``) whose positional string arguments name flags. Its option is the first long
flag (``--port``), else the first flag; its default is the ``default=`` literal (typer's
first positional argument that is no flag), ``False`` for a flag that stores true
(``action="store_true"``, click's ``is_flag=True``), ``True`` for ``store_false``, and
``None`` where argparse, optparse and click give none. A computed default is kept as
computed (None). Each is a ``ValueFact`` named by the flag (``--port``) among the file's
constants: no name of code starts with ``-``, so no other reader meets it. Tornado's
``define("port", default=5555)`` gives ``--port`` and ``options.port`` (how the code reads
it, so "max_tasks defaults to 100000" finds it as a member).

An option that ConfigArgParse (``env_var="LOCUST_WEB_PORT"``) or click and typer
(``envvar="APP_PORT"``) also read from the environment is a read of that variable, whose
default is the option's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from tree_sitter import Node

from anchors.facts import ValueFact

__all__ = ["OptionFacts", "option_defaults"]

MAX_OPTIONS = 400  # per file: a program's options (a settings module declares many)
# (``add`` and ``add_arg``: ConfigArgParse's names for ``add_argument``)
_CALL = re.compile(rb"\b(add_argument|add_option|option|Option|add|add_arg)\s*\(")
_FLAG = re.compile(r"--?[A-Za-z0-9][\w-]*")
_LONG = re.compile(r"--[A-Za-z0-9][\w-]*")

Literal = Callable[[Node], "str | None"]


class OptionFacts(NamedTuple):
    """The options of a file by their flags, and the environment variables they read."""

    defaults: list[ValueFact]
    env_reads: list[str]
    env_defaults: list[ValueFact]


def option_defaults(source: bytes, root: Node, literal: Literal) -> OptionFacts:
    """The options ``source`` declares, with their defaults, and the variables they read
    (see the module docstring)."""
    found: list[ValueFact] = []
    env = OptionFacts(found, [], [])
    seen: set[int] = set()
    if b"tornado" in source:
        found += _tornado_options(source, root, literal)
    for m in _CALL.finditer(source) if b"-" in source else ():
        node = root.descendant_for_byte_range(m.start(1), m.end(1))
        call = _enclosing_call(node)
        if call is None or call.start_byte in seen:
            continue
        seen.add(call.start_byte)
        fact = _declared(call, m.group(1).decode(), literal)
        if fact is not None:
            found.append(fact)
            _read_from_environment(call, fact, literal, env)
            if len(found) >= MAX_OPTIONS:
                break
    return env


_ENV_KEYWORDS = (b"env_var", b"envvar")


def _read_from_environment(call: Node, option: ValueFact, literal: Literal,
                           into: OptionFacts) -> None:  # fmt: skip
    """``env_var="X"`` / ``envvar="X"`` on an option: X is read, with the option's default."""
    arguments = call.child_by_field_name("arguments")
    for arg in arguments.named_children if arguments is not None else ():
        key = arg.child_by_field_name("name") if arg.type == "keyword_argument" else None
        value = arg.child_by_field_name("value")
        if key is None or key.text not in _ENV_KEYWORDS or value is None:
            continue
        text = literal(value) if value.type == "string" else None
        name = text[1:-1] if text and len(text) > 2 and text[:1] in "'\"" else None
        if name and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            into.env_reads.append(name)
            into.env_defaults.append(ValueFact(name, option.text, option.line))


_DEFINE = re.compile(rb"\bdefine\s*\(")


def _tornado_options(source: bytes, root: Node, literal: Literal) -> list[ValueFact]:
    """Tornado's ``define("port", default=5555)``: the option ``--port``, which the code
    reads as ``options.port`` (both are kept, by those names)."""
    found: list[ValueFact] = []
    for m in _DEFINE.finditer(source):
        call = _enclosing_call(root.descendant_for_byte_range(m.start(), m.start() + 6))
        arguments = call.child_by_field_name("arguments") if call is not None else None
        if arguments is None or not arguments.named_children:
            continue
        first = arguments.named_children[0]
        said = literal(first) if first.type == "string" else None
        name = said[1:-1] if said and said[:1] in "'\"" and said[-1:] == said[:1] else ""
        if not re.fullmatch(r"[A-Za-z][\w-]*", name):
            continue
        default = next((v for a in arguments.named_children if a.type == "keyword_argument"
                        and (k := a.child_by_field_name("name")) is not None
                        and k.text == b"default" and (v := a.child_by_field_name("value"))),
                       None)  # fmt: skip
        text = literal(default) if default is not None else "None"
        line = first.start_point[0] + 1
        found += [ValueFact(f"--{name}", text, line), ValueFact(f"options.{name}", text, line)]
        if len(found) >= MAX_OPTIONS:
            break
    return found


def _enclosing_call(node: Node | None) -> Node | None:
    """The call whose callee ends with ``node`` (``add_argument`` of
    ``parser.add_argument(...)``)."""
    for _ in range(3):
        if node is None:
            return None
        if node.type == "call":
            return node
        node = node.parent
    return None


def _declared(call: Node, called: str, literal: Literal) -> ValueFact | None:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    flags: list[str] = []
    positional: list[Node] = []
    keywords: dict[str, Node] = {}
    for arg in arguments.named_children:
        if arg.type == "keyword_argument":
            key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if key is not None and value is not None and key.text:
                keywords[key.text.decode(errors="replace")] = value
            continue
        text = literal(arg) if arg.type == "string" else None
        said = text[1:-1] if text and text[:1] in "'\"" and text[-1:] == text[:1] else None
        if said is not None and _FLAG.fullmatch(said):
            flags.append(said)
        else:
            positional.append(arg)
    if not flags:
        return None
    name = next((f for f in flags if _LONG.fullmatch(f)), flags[0])
    line = call.start_point[0] + 1
    if "default" in keywords:
        return ValueFact(name, literal(keywords["default"]), line)
    if called == "Option":  # typer: the default comes first, the flags after it
        return ValueFact(name, literal(positional[0]) if positional else None, line)
    action = keywords.get("action")
    stores = literal(action) if action is not None else None
    if stores is not None and stores.strip("'\"") in ("store_true", "store_false"):
        return ValueFact(name, "False" if stores.strip("'\"") == "store_true" else "True", line)
    flag = keywords.get("is_flag")
    if flag is not None and literal(flag) == "True":
        return ValueFact(name, "False", line)
    if action is not None or "default_factory" in keywords:
        return ValueFact(name, None, line)  # counted, appended, a callback: computed
    return ValueFact(name, "None", line)
