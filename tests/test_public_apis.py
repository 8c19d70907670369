"""The shipped packages use only public APIs of the standard library and of their
dependencies: no private regular-expression parser (``re._parser``, ``re._constants`` or
their old names ``sre_parse``, ``sre_constants``), which a Python release may change or
drop without notice, and no private attribute of the MCP server outside an explicit list
of known exceptions, each with its reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "store", "anchors", "experiments", "benchmarks", "anchormem")

# The standard library's regular-expression internals: ``anchors.regex_syntax`` reads the
# patterns this project writes instead.
PRIVATE_REGEX = re.compile(r"\bre\._parser\b|\bre\._constants\b|\bsre_parse\b|\bsre_constants\b")
# The MCP SDK's private tool registry of a FastMCP server.
TOOL_MANAGER = re.compile(r"\._tool_manager\b")

# Files allowed to use ``._tool_manager`` (path from the repository root -> why). An entry
# whose file no longer uses it fails below: take it out of this list.
TOOL_MANAGER_ALLOWED: dict[str, str] = {
    "server/app.py": (
        "known exception, to be removed by its own change: the server looks tools up, "
        "registers and calls them through FastMCP's tool manager, which the SDK exposes "
        "only as a private attribute"
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


FILES = shipped_files()


def test_the_walk_reads_every_shipped_package() -> None:
    read = {path.relative_to(ROOT).parts[0] for path in FILES}
    assert read == set(PACKAGES)
    assert ROOT / "anchors" / "needles.py" in FILES


def test_no_shipped_module_uses_the_private_regular_expression_parser() -> None:
    found = uses(PRIVATE_REGEX, FILES)
    assert not found, "private modules of re used:\n" + "\n".join(found)


def test_private_tool_manager_is_used_only_where_allowed() -> None:
    found = uses(TOOL_MANAGER, FILES)
    outside = [line for line in found if line.split(":", 1)[0] not in TOOL_MANAGER_ALLOWED]
    assert not outside, "._tool_manager used outside the allow-list:\n" + "\n".join(outside)


@pytest.mark.parametrize("path", sorted(TOOL_MANAGER_ALLOWED))
def test_every_allowed_tool_manager_use_still_exists(path: str) -> None:
    assert uses(TOOL_MANAGER, [ROOT / path]), f"{path} no longer uses ._tool_manager: unlist it"


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
