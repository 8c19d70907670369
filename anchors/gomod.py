"""What a ``go.mod`` declares: its module path, the ``go`` and ``toolchain`` lines, and the
modules it requires, as ``Dependency`` rows (ecosystem "go").

Read line by line from bytes, never run; a line that cannot be read is skipped.
``replace``, ``exclude``, ``retract`` and ``godebug`` say nothing about what the code uses
and are ignored.

``// indirect`` requirements are left out: Go records there the modules that only other
dependencies need, so they are transitive, and a transitive entry must never verify "we
use X" (the same reason lock files are not read).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anchors.facts import Dependency

__all__ = ["GoMod", "GoRequire", "parse_go_mod", "read_go_mod"]


@dataclass(frozen=True)
class GoRequire:
    """One ``require`` entry: the module path as written, its version, its line."""

    path: str
    version: str
    line: int
    indirect: bool = False


@dataclass(frozen=True)
class GoMod:
    """``module`` (the project's own path), ``go`` (``1.21``) with its line, ``toolchain``
    (``go1.21.3``) with its line, and the ``require`` entries in file order."""

    module: str | None = None
    go: str | None = None
    go_line: int = 0
    toolchain: str | None = None
    toolchain_line: int = 0
    requires: tuple[GoRequire, ...] = ()


_BLOCK_START = re.compile(r"^(?P<verb>[a-z]+)\s*\($")
_INDIRECT = re.compile(r"//\s*indirect\s*(?:;|$)")


def _words(text: str) -> list[str]:
    """A line's tokens; a quoted path ("example.com/m") or a raw `string` is one token."""
    out = []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`|(\S+)', text):
        out.append(m.group(1) if m.group(1) is not None else m.group(2) if m.group(2)
                   is not None else m.group(3))  # fmt: skip
    return out


def read_go_mod(data: bytes) -> GoMod:
    """The directives of ``go.mod`` (see ``GoMod``); what cannot be read is left out."""
    text = data.decode("utf-8-sig", errors="replace")
    module = go = toolchain = None
    go_line = toolchain_line = 0
    requires: list[GoRequire] = []
    block: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        comment = raw.find("//")
        body = (raw[:comment] if comment >= 0 else raw).strip()
        indirect = comment >= 0 and _INDIRECT.search(raw[comment:]) is not None
        if block is not None:
            if body == ")":
                block = None
            elif block == "require" and body:
                entry = _require(body, number, indirect)
                if entry is not None:
                    requires.append(entry)
            continue
        started = _BLOCK_START.match(body)
        if started:
            block = started["verb"]
            continue
        verb, _, rest = body.partition(" ")
        rest = rest.strip()
        if verb == "module" and rest:
            words = _words(rest)
            module = words[0] if words else None
        elif verb == "go" and re.fullmatch(r"\d+(?:\.\d+){0,2}(?:rc\d+)?", rest):
            go, go_line = rest, number
        elif verb == "toolchain" and re.fullmatch(r"go\d[\w.\-+]*|default|local", rest):
            toolchain, toolchain_line = rest, number
        elif verb == "require" and rest:
            entry = _require(rest, number, indirect)
            if entry is not None:
                requires.append(entry)
    return GoMod(module, go, go_line, toolchain, toolchain_line, tuple(requires))


def _require(body: str, line: int, indirect: bool) -> GoRequire | None:
    words = _words(body)
    if len(words) != 2 or not words[1].startswith("v"):
        return None
    return GoRequire(words[0], words[1], line, indirect)


def parse_go_mod(data: bytes, path: str) -> list[Dependency]:
    """The modules ``go.mod`` at ``path`` requires directly: name the module path as
    written (Go paths are case-sensitive), spec the version (``v1.9.1``). Indirect
    requirements and the module's own path are left out."""
    mod = read_go_mod(data)
    found = {
        Dependency(r.path, r.version, path, True, "go"): None
        for r in mod.requires
        if not r.indirect and r.path != mod.module
    }
    return list(found)
