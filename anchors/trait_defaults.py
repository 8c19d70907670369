"""The defaults a traitlets class gives its settings (Jupyter servers and their extensions).

``git_command_timeout = Float(20.0, config=True)`` declares a setting whose default is
``20.0``; so does a method decorated ``@default("git_command_timeout")`` whose body returns a
literal (``return 20.0``), and that method wins over the value the trait was declared with,
as it does in traitlets. A pyfacts constant for such an assignment is otherwise a call with
no value; these readers give it the literal the setting defaults to, or leave it None (a
default the code computes, or none written: the trait type's own empty value is not one a
note is about).

Only calls of names the file imports from ``traitlets`` are traits, so a class attribute set
by any other call keeps no value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from tree_sitter import Node

from anchors.env_records import ValueFact
from anchors.grammars import named_children

__all__ = ["default_methods", "trait_default", "traitlets_names", "with_trait_defaults"]

# The trait types whose first positional argument is the default value; every trait type
# takes ``default_value=`` (``Enum(values, default_value=...)``, ``List(trait, ...)``).
_POSITIONAL_DEFAULT = frozenset({
    "Any", "Bool", "CBool", "Int", "CInt", "Integer", "Long", "CLong", "Float", "CFloat",
    "Complex", "CComplex", "Unicode", "CUnicode", "Bytes", "CBytes", "ObjectName",
    "DottedObjectName", "TCPAddress", "CRegExp",
})  # fmt: skip
_DEFAULT_DECORATOR = "default"

Literal = Callable[[Node], "str | None"]


def traitlets_names(imports: Iterable[tuple[str, tuple[str, ...]]]) -> frozenset[str]:
    """How the file's code calls what it imports from traitlets: each name of
    ``from traitlets import Float`` (or ``traitlets.config``), and ``traitlets.X`` after
    ``import traitlets``. ``imports`` are (module, names) pairs."""
    found: set[str] = set()
    for module, names in imports:
        if module != "traitlets" and not module.startswith("traitlets."):
            continue
        found.update(names)
        if not names:
            found.add(module)
    return frozenset(found)


def _callee(call: Node) -> str:
    function = call.child_by_field_name("function")
    return "" if function is None else (function.text or b"").decode(errors="replace")


def _imported(callee: str, names: frozenset[str]) -> str | None:
    """The traitlets name ``callee`` calls (``Float``, ``traitlets.Float`` -> ``Float``)."""
    if callee in names:
        return callee
    module, dot, last = callee.rpartition(".")
    return last if dot and module in names else None


def trait_default(call: Node, names: frozenset[str], literal: Literal) -> tuple[bool, str | None]:
    """(whether ``call`` declares a trait, the literal source text of its default or None)."""
    if call.type != "call":
        return False, None
    kind = _imported(_callee(call), names)
    if kind is None or kind == _DEFAULT_DECORATOR:
        return False, None
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return True, None
    positional: list[Node] = []
    for arg in named_children(arguments):
        if arg.type == "keyword_argument":
            key, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
            if key is not None and key.text == b"default_value" and value is not None:
                return True, literal(value)
        elif arg.type in ("list_splat", "dictionary_splat"):
            return True, None  # the default may be in what is splatted
        else:
            positional.append(arg)
    if positional and kind in _POSITIONAL_DEFAULT:
        return True, literal(positional[0])
    return True, None


def default_methods(
    body: Node, names: frozenset[str], literal: Literal
) -> dict[str, tuple[str | None, int]]:
    """The ``@default("name")`` methods of a class body: name -> (the literal the method
    returns, its line), None when the body does anything but return one literal."""
    found: dict[str, tuple[str | None, int]] = {}
    for node in named_children(body):
        if node.type != "decorated_definition":
            continue
        function = node.child_by_field_name("definition")
        if function is None or function.type != "function_definition":
            continue
        for decorator in (c for c in named_children(node) if c.type == "decorator"):
            target = _defaulted(decorator, names)
            if target is not None:
                found[target] = _returned(function, literal)
    return found


def _defaulted(decorator: Node, names: frozenset[str]) -> str | None:
    """The trait ``@default("name")`` names, when ``default`` is traitlets'."""
    call = next(iter(named_children(decorator)), None)
    if call is None or call.type != "call" or _imported(_callee(call), names) != "default":
        return None
    arguments = call.child_by_field_name("arguments")
    args = list(named_children(arguments)) if arguments is not None else []
    if len(args) != 1 or args[0].type != "string":
        return None
    text = (args[0].text or b"").decode(errors="replace")
    inner = text.strip("\"'")
    return inner if inner.isidentifier() and text[:1] in "\"'" else None


def _returned(function: Node, literal: Literal) -> tuple[str | None, int]:
    """(the literal a method's body only returns, the line of that return); None when the
    body does anything else (a docstring aside)."""
    body = function.child_by_field_name("body")
    line = function.start_point[0] + 1
    statements = [s for s in named_children(body)] if body is not None else []
    if (
        statements
        and statements[0].type == "expression_statement"
        and all(c.type == "string" for c in named_children(statements[0]))
    ):
        statements = statements[1:]  # a docstring
    if len(statements) != 1 or statements[0].type != "return_statement":
        return None, line
    value = next(iter(named_children(statements[0])), None)
    return (None if value is None else literal(value)), statements[0].start_point[0] + 1


def with_trait_defaults(
    constants: list[ValueFact], owner: str, body: Node, names: frozenset[str], literal: Literal
) -> list[ValueFact]:
    """``constants`` with each trait of class ``owner`` given its default: the literal its
    ``@default`` method returns, else the one it was declared with. A ``@default`` method
    for a trait the class does not declare (one it inherits) is a value of its own."""
    if not names:
        return constants
    methods = default_methods(body, names, literal)
    declared: dict[str, tuple[str | None, int]] = {}
    for node in named_children(body):
        if node.type != "expression_statement" or not node.named_children:
            continue
        assignment = node.named_children[0]
        left = assignment.child_by_field_name("left")
        right = assignment.child_by_field_name("right")
        if assignment.type != "assignment" or left is None or right is None:
            continue
        is_trait, default = trait_default(right, names, literal)
        if is_trait and left.type == "identifier":
            declared[(left.text or b"").decode()] = (default, assignment.start_point[0] + 1)
    if not declared and not methods:
        return constants
    prefix = f"{owner}."
    result = []
    for fact in constants:
        name = fact.name[len(prefix) :] if fact.name.startswith(prefix) else None
        if name is not None and name in declared:
            text, line = methods.get(name, declared[name])
            fact = replace(fact, text=text, line=line)
        result.append(fact)
    result += [ValueFact(prefix + name, text, line) for name, (text, line) in methods.items()
               if name not in declared]  # fmt: skip
    return result
