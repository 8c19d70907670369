"""The shipped packages use only public APIs of the standard library and of their
dependencies: no private regular-expression parser (``re._parser``, ``re._constants`` or
their old names ``sre_parse``, ``sre_constants``), and no private member or module of the
MCP SDK (``mcp``, ``mcp_types``), which a release of either may change or drop without
notice. A known exception is listed below with its reason; the goal is an empty list."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import mcp
import mcp_types
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "store", "anchors", "experiments", "benchmarks", "anchormem")

# The standard library's regular-expression internals: ``anchors.regex_syntax`` reads the
# patterns this project writes instead.
PRIVATE_REGEX = re.compile(r"\bre\._parser\b|\bre\._constants\b|\bsre_parse\b|\bsre_constants\b")

# The SDK's registries and its low-level server: found whatever object they are read on.
MCP_ALWAYS = frozenset(
    {"_tool_manager", "_lowlevel_server", "_tools", "_resource_manager", "_prompt_manager"}
)
MCP_PACKAGES = ("mcp", "mcp_types")

# Private names of the SDK the shipped code may read ((path from the repository root,
# name) -> why). An entry that is no longer used fails below: take it out of this list.
MCP_PRIVATE_ALLOWED: dict[tuple[str, str], str] = {
    ("server/serve.py", "_lowlevel_server"): (
        "the stdio server runs on a stdin of its own (a signal must be able to end the "
        "input, which the SDK reads in a thread no cancellation reaches) and a writer "
        "shared with the relay: MCPServer offers no public way to run on streams it did "
        "not open (run_stdio_async opens the process's own), and the SDK's own in-memory "
        "client reads this attribute too (mcp/client/_memory.py: 'Make lowlevel_server "
        "public')"
    ),
    ("server/sessions.py", "_lowlevel_server"): (
        "the owner runs each serving process's session on streams fed from its socket "
        "(serve_dual_era_loop, public, takes the low-level server): the same need, and the "
        "same missing accessor, as server/serve.py"
    ),
}


def shipped_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    """Every Python source file of the shipped packages under ``root``."""
    return sorted(
        path
        for package in packages
        for path in (root / package).rglob("*.py")
        if "__pycache__" not in path.parts
    )


def uses(pattern: re.Pattern[str], files: list[Path], root: Path = ROOT) -> list[str]:
    """``path:line: text`` for every line of ``files`` that ``pattern`` finds."""
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(root).as_posix()}:{number}: {line.strip()}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _trees(files: Iterable[Path]) -> Iterable[tuple[Path, ast.Module]]:
    for path in files:
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


@cache
def sdk_private_names() -> frozenset[str]:
    """Every private attribute and method name the installed SDK reads or defines."""
    names = set()
    for package in (mcp, mcp_types):
        for _, tree in _trees(Path(package.__path__[0]).rglob("*.py")):
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and _private(node.attr):
                    names.add(node.attr)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _private(
                    node.name
                ):
                    names.add(node.name)
    return frozenset(names)


def own_private_names(files: list[Path]) -> frozenset[str]:
    """The private names the shipped code gives its own objects (an attribute it sets, a
    function, method or class it defines): reading one of these is not reading the SDK's."""
    names = set()
    for _, tree in _trees(files):
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
    return frozenset(name for name in names if _private(name))


def mcp_private_uses(
    files: list[Path], root: Path = ROOT, sdk: frozenset[str] | None = None
) -> list[tuple[str, str, int]]:
    """(path, name, line) of each private part of the SDK the ``files`` reach: an import
    of a private module or name of ``mcp``/``mcp_types``, and an attribute read by a name
    that is private in the SDK and not one the shipped code defines for its own objects
    (``MCP_ALWAYS``: whatever it is read on). A name both define cannot be told apart by
    name alone; the SDK's registries are in ``MCP_ALWAYS`` for that reason."""
    flagged = MCP_ALWAYS | (
        (sdk_private_names() if sdk is None else sdk) - own_private_names(files)
    )
    found = []
    for path, tree in _trees(files):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in flagged:
                found.append((where, node.attr, node.lineno))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                for alias in node.names:
                    dotted = f"{module}.{alias.name}" if module else alias.name
                    parts = dotted.split(".")
                    if parts[0] in MCP_PACKAGES and any(map(_private, parts[1:])):
                        found.append((where, dotted, node.lineno))
    return found


FILES = shipped_files()


def test_the_walk_reads_every_shipped_package() -> None:
    read = {path.relative_to(ROOT).parts[0] for path in FILES}
    assert read == set(PACKAGES)
    assert ROOT / "anchors" / "needles.py" in FILES


def test_no_shipped_module_uses_the_private_regular_expression_parser() -> None:
    found = uses(PRIVATE_REGEX, FILES)
    assert not found, "private modules of re used:\n" + "\n".join(found)


def test_no_shipped_module_uses_a_private_part_of_the_sdk_outside_the_list() -> None:
    found = mcp_private_uses(FILES)
    outside = [
        f"{p}:{line}: {name}" for p, name, line in found if (p, name) not in MCP_PRIVATE_ALLOWED
    ]
    assert not outside, "private parts of the MCP SDK used:\n" + "\n".join(outside)


@pytest.mark.parametrize("entry", sorted(MCP_PRIVATE_ALLOWED))
def test_every_allowed_private_use_still_exists(entry: tuple[str, str]) -> None:
    path, name = entry
    used = {(p, n) for p, n, _ in mcp_private_uses([ROOT / path])}
    assert entry in used, f"{path} no longer uses {name}: unlist it"


def test_the_sdk_private_names_are_read_from_the_installed_sdk() -> None:
    names = sdk_private_names()
    assert {"_tool_manager", "_lowlevel_server", "_handle_call_tool"} <= names
    assert not any(name.startswith("__") or not name.startswith("_") for name in names)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("tool = server._tool_manager.get_tool('recall')", "_tool_manager"),
        ("hints = server._lowlevel_server.cache_hints", "_lowlevel_server"),
        ("manager._tools['recall'] = tool", "_tools"),
        ("await server._handle_call_tool(ctx, params)", "_handle_call_tool"),
        (
            "from mcp.client._memory import InMemoryTransport",
            "mcp.client._memory.InMemoryTransport",
        ),
        (
            "from mcp.server.mcpserver.server import _version_gated",
            "mcp.server.mcpserver.server._version_gated",
        ),
        ("import mcp.shared._context_streams", "mcp.shared._context_streams"),
    ],
)
def test_the_check_finds_each_way_of_reaching_a_private_part_of_the_sdk(
    tmp_path: Path, line: str, name: str
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(f"import mcp\n{line}\n", encoding="utf-8")
    files = shipped_files(tmp_path, ("pkg",))
    assert mcp_private_uses(files, tmp_path) == [("pkg/mod.py", name, 2)]


def test_a_private_name_of_the_code_s_own_objects_is_not_the_sdk_s(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    source = "class Relay:\n    def __init__(self):\n        self._pending = []\n"
    source += "def size(relay):\n    return len(relay._pending) + len(relay._session)\n"
    (tmp_path / "pkg" / "mod.py").write_text(source, encoding="utf-8")
    files = shipped_files(tmp_path, ("pkg",))
    sdk = frozenset({"_pending", "_session"})
    assert mcp_private_uses(files, tmp_path, sdk) == [("pkg/mod.py", "_session", 5)]


@pytest.mark.parametrize(
    "line",
    [
        "import sre_parse",
        "from sre_constants import LITERAL",
        '_p = importlib.import_module("re._parser")',
        "items = re._constants.MAXREPEAT",
    ],
)
def test_the_check_finds_each_way_of_reaching_the_private_parser(tmp_path: Path, line: str) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(f"import re\n{line}\n", encoding="utf-8")
    files = shipped_files(tmp_path, ("pkg",))
    assert uses(PRIVATE_REGEX, files, tmp_path) == [f"pkg/mod.py:2: {line}"]
    assert uses(PRIVATE_REGEX, files[:0], tmp_path) == []
