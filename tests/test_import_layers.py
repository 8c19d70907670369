"""The layers of the shipped packages, read from their source with ``ast`` (issue #33).

Layers, lowest first: ``anchors`` (reading a repository) imports nothing of ``store`` or
``server``; ``store`` imports nothing of ``server``; the harness (``experiments`` and
``benchmarks``) is imported by none of the three, except where the ``anchormem`` command
deliberately hands a subcommand to it (``ALLOWED_HARNESS_IMPORTS``, each with its reason).
These rules count every import a module can make: at module level, inside functions, under
``if TYPE_CHECKING:``, and ``importlib.import_module("x")`` with a literal name.

Cycles count only the imports that run when a module is imported: module level (class
bodies and ``try`` blocks included), outside ``if TYPE_CHECKING:`` and outside any function.
Every strongly connected component of more than one module in that graph is reported. An
import inside a function runs when the function is called, once the modules on both sides
are whole, so it cannot meet a half-initialised module: ``anchors.languages`` importing
``anchors.pyfacts`` inside a function while ``anchors.pyfacts`` imports ``anchors.languages``
inside another is fine. Such an import must not be the way round a cycle, though: one whose
module reaches back to the importer at import time is allowed only when it is lazy to
spare start-up its cost (``LAZY_ON_PURPOSE``, each with its reason).

The file is not named ``test_layers.py``: ``tests/benchmarks/test_layers.py`` is, and pytest
(rootdir-relative imports, no ``__init__.py``) cannot collect two test modules of one name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "store", "anchors", "experiments", "benchmarks", "anchormem")
HARNESS = ("experiments", "benchmarks")

# (importing module, imported module): the only places the product reaches the harness, each
# an import inside a function of the command, with why the command needs it.
ALLOWED_HARNESS_IMPORTS = {
    ("server.cli", "benchmarks.recall"): (
        "`anchormem bench` runs the recall benchmark, and its parser takes that benchmark's "
        "options (imported in build_parser only when the command line names bench or "
        "completion)"
    ),
    ("server.cli", "experiments.truth_benchmark"): (
        "`anchormem experiment --corpus real` runs the truth benchmark"
    ),
    ("server.cli", "experiments.contamination"): (
        "`anchormem experiment` runs the contamination experiment"
    ),
}

# (importing module, imported module): an import inside a function where the imported module
# reaches the importing one through imports that run at import time, so that moving it to
# module level would make a cycle. Each is lazy to spare start-up its cost; any other such
# import hides a cycle, broken instead by moving what both sides need into a module of its own.
LAZY_ON_PURPOSE = {
    # A standby holds its lock from its first moment, before it pays a new owner's imports,
    # so that clients wait for it rather than start a second cold owner (adr/0016).
    ("server.standby", "server.owner"): "the standby claims its lock before importing",
}


# When an import runs: as its module is imported, when a function calls it, or never (only
# for the type checker, under ``if TYPE_CHECKING:``).
AT_IMPORT, IN_FUNCTION, TYPING = "at import", "in a function", "typing"


@dataclass(frozen=True)
class Import:
    """One import in ``source`` of ``target`` (a module of the shipped packages)."""

    source: str
    target: str
    line: int
    when: str  # AT_IMPORT, IN_FUNCTION or TYPING


def modules() -> dict[str, Path]:
    """Every module of the shipped packages, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, when: str) -> Iterator[tuple[ast.AST, str]]:
    """Every node under ``node``, with when it runs (``AT_IMPORT``, ...)."""
    for child in ast.iter_child_nodes(node):
        runs = when
        if when == AT_IMPORT and isinstance(
            child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
        ):
            runs = IN_FUNCTION
        yield child, runs
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for statement in child.body:
                yield statement, TYPING
                yield from _walk(statement, TYPING)
            for statement in child.orelse:
                yield statement, runs
                yield from _walk(statement, runs)
            continue
        yield from _walk(child, runs)


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of the shipped packages that importing ``name`` lands in, if any."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """Every import of a shipped module that the module ``name`` (at ``path``) makes."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def add(target: str, node: ast.AST, when: str) -> None:
        module = _resolve(target, known)
        if module is not None and module != name:
            found.append(Import(name, module, getattr(node, "lineno", 0), when))

    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node, when in _walk(tree, AT_IMPORT):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node, when)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # `from package import module` imports the module; a name lands in the package
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else base, node, when)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            add(node.args[0].value, node, when)
    return found


def all_imports() -> list[Import]:
    known = modules()
    return [found for name, path in known.items() for found in imports(name, path, known)]


def _layer(module: str) -> str:
    return module.partition(".")[0]


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components of ``graph``, each sorted, those of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so that a long chain of imports cannot reach the recursion limit
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def import_time_graph(found: list[Import]) -> dict[str, set[str]]:
    """Each module and the modules its import runs, by the imports that run with it."""
    graph: dict[str, set[str]] = {name: set() for name in modules()}
    for one in found:
        if one.when == AT_IMPORT:
            graph[one.source].add(one.target)
    return graph


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def _where(one: Import) -> str:
    return f"{one.source}:{one.line} imports {one.target}"


def test_the_reader_finds_every_kind_of_import(tmp_path: Path):
    (tmp_path / "pkg").mkdir()
    for module in ("a", "b", "c", "d", "e", "f"):
        (tmp_path / "pkg" / f"{module}.py").write_text("")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    source = tmp_path / "pkg" / "a.py"
    source.write_text(
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "import pkg.b\n"
        "from . import c\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.d import Thing\n"
        "class K:\n"
        "    from .e import x\n"
        "def later():\n"
        "    importlib.import_module('pkg.f')\n"
    )
    known = {
        "pkg": tmp_path / "pkg" / "__init__.py",
        **{f"pkg.{m}": tmp_path / "pkg" / f"{m}.py" for m in "abcdef"},
    }
    found = {(one.target, one.when) for one in imports("pkg.a", source, known)}
    assert found == {
        ("pkg.b", AT_IMPORT),
        ("pkg.c", AT_IMPORT),
        ("pkg.d", TYPING),
        ("pkg.e", AT_IMPORT),
        ("pkg.f", IN_FUNCTION),
    }


def test_a_cycle_is_found_and_a_chain_is_not():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _strongly_connected(graph) == [["a", "b", "c"]]
    assert _strongly_connected({"a": {"b"}, "b": set()}) == []


def test_every_shipped_package_is_read():
    known = modules()
    assert {_layer(name) for name in known} == set(PACKAGES)
    assert "server.cli" in known and "anchors.manifests" in known


def test_anchors_imports_nothing_of_store_or_server():
    wrong = [
        _where(one)
        for one in all_imports()
        if _layer(one.source) == "anchors" and _layer(one.target) in ("store", "server")
    ]
    assert wrong == []


def test_store_imports_nothing_of_server():
    wrong = [
        _where(one)
        for one in all_imports()
        if _layer(one.source) == "store" and _layer(one.target) == "server"
    ]
    assert wrong == []


def test_the_product_reaches_the_harness_only_through_its_commands():
    found = all_imports()
    reaching = [
        one
        for one in found
        if _layer(one.source) in ("anchors", "store", "server") and _layer(one.target) in HARNESS
    ]
    allowed = [one for one in reaching if (one.source, one.target) in ALLOWED_HARNESS_IMPORTS]
    assert [_where(one) for one in reaching if one not in allowed] == []
    # the commands load the harness when they run, never when the product is imported
    assert [_where(one) for one in allowed if one.when != IN_FUNCTION] == []
    # an allowance no longer used goes too
    assert set(ALLOWED_HARNESS_IMPORTS) <= {(one.source, one.target) for one in allowed}


def test_no_import_cycles_at_import_time():
    assert _strongly_connected(import_time_graph(all_imports())) == []


def test_an_import_inside_a_function_hides_no_cycle_unless_it_is_lazy_on_purpose():
    found = all_imports()
    graph = import_time_graph(found)
    hiding = {
        (one.source, one.target): one
        for one in found
        if one.when == IN_FUNCTION and one.source in _reachable(graph, one.target)
    }
    wrong = [_where(one) for key, one in hiding.items() if key not in LAZY_ON_PURPOSE]
    assert wrong == []
    assert set(LAZY_ON_PURPOSE) <= set(hiding)  # an allowance no longer used goes too
