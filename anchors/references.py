"""The members of imported modules a source file uses: ``os.Stderr``, ``yaml.safe_load``.

A note naming a module's member ("the logger writes to os.Stderr", "config is parsed with
yaml.safe_load") says more than that the module is imported: the file must use that
member. ``references`` keeps, per file, each ``binding.member`` written in its code
(comments left out) whose ``binding`` is a name an import of the file binds: Python's
``import a.b`` binds ``a``, ``from a import b`` binds ``b``; Go's import binds its alias,
else its path's package name (``github.com/go-chi/chi/v5`` binds ``chi``,
``gopkg.in/yaml.v3`` binds ``yaml``). Only the first member is kept (``os.path`` of
``os.path.join``). A snake_case name written as a string (a dictionary key, a setting's
name) is kept in its quotes: a note naming it names something the file has. Aliases
Python writes with ``as`` are not recorded by the facts, so their members are not either:
a member not found leaves a note unchecked, never refuted. Pure functions over bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from anchors.facts import ImportFact
from anchors.mentions import strip_comments

__all__ = ["MAX_REFERENCES", "bindings", "camel_names", "references"]

MAX_REFERENCES = 2_000  # distinct members kept per file; more: None (not recorded)
# (``a.b.c`` gives ``a.b`` alone: the match goes on after ``b``)
_MEMBER = re.compile(rb"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)")
# a snake_case name the code writes as a string (a key: ``{"auto_envvar_prefix": ...}``)
_SNAKE_STRING = re.compile(rb"[\"']([a-z][a-z0-9]*(?:_[a-z0-9]+)+)[\"']")
_GO_VERSION = re.compile(r"^v\d+$")
_LANGUAGES = frozenset({"python", "go"})


# A name with a capital inside it (``dataUpdatedAt``, ``restoreClient``; ``URL`` and ``Path``
# have no lower case before a capital)
_CAMEL = re.compile(rb"(?<![\w$])([A-Za-z_$][\w$]*?[a-z0-9][A-Z][\w$]*)")


def camel_names(source: bytes) -> tuple[str, ...] | None:
    """The camelCase and PascalCase names ``source`` writes anywhere (``dataUpdatedAt`` of
    ``a.state.dataUpdatedAt``, ``restoreClient`` of ``{ restoreClient: ... }``), comments
    included, sorted; None when more than ``MAX_REFERENCES``. A member of an object another
    package defines, or a key of an object literal, is still a name the repository has."""
    found = set(_CAMEL.findall(source))
    if len(found) > MAX_REFERENCES:
        return None
    return tuple(sorted(n.decode("ascii", errors="replace") for n in found))


def bindings(imports: Iterable[ImportFact], language: str) -> frozenset[str]:
    """The names the file's imports bind, as its code writes them before a dot."""
    found: set[str] = set()
    for fact in imports:
        if language == "python":
            found.update(fact.names if fact.names else (fact.module.split(".")[0],))
        elif language == "go":
            found.add(_go_binding(fact))
    return frozenset(n for n in found if n and n not in ("_", ".", "*"))


def _go_binding(fact: ImportFact) -> str:
    if fact.names:
        return fact.names[0]
    parts = [p for p in fact.module.split("/") if p]
    if len(parts) > 1 and _GO_VERSION.match(parts[-1]):
        parts.pop()  # github.com/go-chi/chi/v5
    last = parts[-1] if parts else ""
    last = re.sub(r"\.v\d+$", "", last)  # gopkg.in/yaml.v3
    return re.sub(r"^go-", "", last).replace("-", "_").replace(".", "_")


def references(
    source: bytes, language: str, imports: Sequence[ImportFact]
) -> tuple[str, ...] | None:
    """The ``binding.member`` names the code of ``source`` writes, and the snake_case names
    it writes as strings in quotes (``'"auto_envvar_prefix"'``), sorted; None for a
    language this does not read, or more than ``MAX_REFERENCES`` of them: nothing can be
    proved absent then."""
    if language not in _LANGUAGES:
        return None
    code = strip_comments(source, language if language == "python" else "c-like")
    found = {f'"{name.decode("ascii")}"' for name in _SNAKE_STRING.findall(code)}
    # (a name of other letters is never matched: the patterns read ASCII names)
    bound = {name.encode("ascii") for name in bindings(imports, language) if name.isascii()}
    if bound:
        found.update(f"{head.decode('ascii')}.{member.decode('ascii')}"
                     for head, member in set(_MEMBER.findall(code)) if head in bound)  # fmt: skip
    return tuple(sorted(found)) if len(found) <= MAX_REFERENCES else None
