"""Anchors as LLMs write them, resolved to the canonical form against a fingerprint.

``parse_anchor`` is strict (it is the safety boundary); this module sits in front of it at
remember time and rewrites the shapes agents commonly produce, when the rewrite has one
meaning, or rejects them with a did-you-mean, so that a true note is never stored with a
malformed anchor and then refuted on it:

=================================  =============================================
``file:app/x.py:42``, ``:42-50``,   ``file:app/x.py`` (the line is dropped)
``#L42``, ``#L42-L50``
``file:./x.py``                     ``file:x.py``
``file:src/pkg/``                   ``file:src/pkg`` (a directory)
``symbol:pkg.mod.Class[.method]``   ``symbol:pkg/mod.py::Class[.method]`` when the module
                                    file defines it, or re-exports it from the file that
                                    does (``pkg/__init__.py``: ``from ._client import X``),
                                    or another file does: the stated module is the claim
``symbol:pkg.mod::Class``           ``symbol:pkg/mod.py::Class``
``import:click@cli.py``             ``import:click@src/pkg/cli.py``: the one tracked file
``symbol:cli.py::main``,            with that name (several, or none: rejected)
``env:X@settings.py``
=================================  =============================================

A scoped symbol that names no definition but a keyword argument or a parameter there
(``symbol:app/db.py::pool_pre_ping``) becomes ``call:create_engine(pool_pre_ping)@app/db.py``
(or ``param:app/db.py::connect(pool_pre_ping)``) when the file passes it to one callee (or
one function takes it): a keyword is not a definition, and checked as one it refutes.

Without a fingerprint (no git repository) only the syntactic rewrites (lines, ``./``, a
trailing ``/``) apply. Everything else goes to ``parse_anchor`` unchanged.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.finding import listed
from anchors.spec import Anchor, AnchorKind, AnchorSyntaxError, parse_anchor, split_stated

__all__ = ["Resolved", "resolve_anchor"]

_LINE = re.compile(r"^(?P<path>.+?)(?P<line>#L\d+(?:-L?\d+)?|:\d+(?:-\d+)?)$")
_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_REEXPORT_DEPTH = 4
_ENV_AT = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*@(?P<path>[^=]+?)(?P<rest>\s*=.*)?$", re.DOTALL)


@dataclass(frozen=True)
class Resolved:
    """The canonical anchor for ``given``, and what was changed to get it (empty when
    ``given`` was already canonical, whitespace and case of the kind aside)."""

    anchor: Anchor
    given: str
    changes: tuple[str, ...] = ()


def resolve_anchor(raw: str, fp: Fingerprint | None) -> Resolved:
    """Resolve one anchor string (see the module docstring); raises ``AnchorSyntaxError``
    with a did-you-mean when it cannot be resolved to exactly one thing."""
    if not isinstance(raw, str):
        return Resolved(parse_anchor(raw), raw)  # parse_anchor says what is wrong
    text = raw.strip()
    bang = ""
    if text.startswith("!"):
        bang, text = "!", text[1:].strip()
    kind_text, sep, body = text.partition(":")
    kind = kind_text.strip().lower()
    body = body.strip()
    changes: list[str] = []
    if not sep or not body or len(raw) > 512:
        return Resolved(parse_anchor(raw), raw)
    if kind == AnchorKind.FILE.value:
        body = _file_path(body, fp, changes)
    elif kind == AnchorKind.SYMBOL.value:
        # A stated value (``::LIMIT=100``) is kept aside: only the name is resolved.
        name, stated = split_stated(body)
        body = _symbol(name, fp, bang == "!", changes)
        argument = _argument(body, stated, fp) if fp is not None else None
        if argument is not None:  # a parameter or a keyword argument is not a definition
            changes.append(f"{body} is not a definition but {argument}")
            return Resolved(parse_anchor(f"{bang}{argument}"), raw, tuple(changes))
        body = body if stated is None else f"{body}={stated}"
    elif kind == AnchorKind.IMPORT.value:
        module, at, scope = body.partition("@")
        if at:
            path, sep2, within = scope.strip().partition("::")
            path = _scope_path(path.strip(), fp, changes)
            body = f"{module.strip()}@{path}{sep2}{within}"
    elif kind == AnchorKind.ENV.value and (placed := _ENV_AT.match(body)) is not None:
        path = _scope_path(placed.group("path").strip().rstrip("/"), fp, changes)
        body = f"{placed.group('name')}@{path}{placed.group('rest') or ''}"
    else:
        return Resolved(parse_anchor(raw), raw)
    anchor = parse_anchor(f"{bang}{kind}:{body}")
    return Resolved(anchor, raw, tuple(changes))


# -- paths ------------------------------------------------------------------------------------
def _syntactic(path: str, changes: list[str]) -> str:
    """``./x`` -> ``x`` and ``dir/`` -> ``dir``; anything unsafe is left for parse_anchor."""
    stripped = path
    while stripped.startswith("./"):
        stripped = stripped[2:]
    if stripped != path:
        changes.append(f"leading './' dropped from {path!r}")
    if stripped.endswith("/") and stripped.rstrip("/"):
        changes.append(f"trailing '/' dropped: {stripped!r} names the directory")
        stripped = stripped.rstrip("/")
    return stripped


def _file_path(body: str, fp: Fingerprint | None, changes: list[str]) -> str:
    line = _LINE.match(body)
    # "a.py:42" may be a real name
    if line and not (fp is not None and (fp.has_path(body) or fp.has_directory(body))):
        body = line.group("path")
        changes.append(
            f"line {line.group('line').lstrip(':#')} dropped: a file anchor names the whole file"
        )
    directory = body.endswith("/")
    body = _syntactic(body, changes)
    if directory and fp is not None and fp.has_path(body) and not fp.has_directory(body):
        raise AnchorSyntaxError(f"{body} is a file, not a directory; did you mean 'file:{body}'?")
    return body


def _scope_path(path: str, fp: Fingerprint | None, changes: list[str]) -> str:
    """The path an import or symbol is claimed for: a bare file name that is not tracked at
    the root is the one tracked file with that name; a dotted module is its file."""
    path = _syntactic(path, changes)
    if fp is None or not path or fp.has_path(path) or fp.has_directory(path):
        return path
    if _MODULE.match(path) and not path.endswith(".py"):
        module_file = fp.module_path(path)
        if module_file is not None:
            changes.append(f"module {path} is {module_file}")
            return module_file
    if "/" in path:
        return path  # a path that is not tracked: the check says so
    name = unicodedata.normalize("NFC", path)
    named: dict[str, set[str]] = {}  # base name -> tracked files and directories
    for tracked in fp.blobs:
        parts = tracked.split("/")
        for depth in range(1, len(parts) + 1):
            base = unicodedata.normalize("NFC", parts[depth - 1])
            named.setdefault(base, set()).add("/".join(parts[:depth]))
    same = sorted(named.get(name, ()))
    if len(same) == 1:
        changes.append(f"{path} is {same[0]}, the only tracked path with that name")
        return same[0]
    if same:
        raise AnchorSyntaxError(
            f"{path!r} names {len(same)} tracked paths: {listed(same, 5)}; give the path of one"
        )
    close = difflib.get_close_matches(name, list(named), n=3, cutoff=0.6)
    near = [p for base in close for p in sorted(named[base])][:5]  # best match first
    raise AnchorSyntaxError(f"no tracked file is named {path!r}{_did_you_mean(near)}")


# -- symbols ----------------------------------------------------------------------------------
def _symbol(body: str, fp: Fingerprint | None, absent: bool, changes: list[str]) -> str:
    path, sep, qual = body.rpartition("::")
    if sep:
        return f"{_scope_path(path.strip(), fp, changes)}::{qual.strip()}"
    if fp is None or "." not in body or not _MODULE.match(body) or fp.definitions(body):
        return body  # a plain or real qualified name: checked as written
    parts = body.split(".")
    found: set[tuple[str, str]] = set()
    deepest: tuple[str, str] | None = None  # (module file, rest) of the longest module
    for cut in range(len(parts) - 1, 0, -1):
        module, rest = ".".join(parts[:cut]), ".".join(parts[cut:])
        module_file = fp.module_path(module)
        if module_file is None:
            continue
        deepest = deepest or (module_file, rest)
        found.update((where, rest) for where in _defining(fp, module_file, rest, 0))
        if found:
            break  # the longest module that defines it wins: pkg.mod.C before pkg.(mod.C)
    if len(found) == 1:
        [(where, rest)] = found
        changes.append(f"{body} is {rest} in {where}")
        return f"{where}::{rest}"
    if found:
        options = listed([f"symbol:{w}::{r}" for w, r in sorted(found)], 5)
        raise AnchorSyntaxError(f"{body} is defined in several files: {options}; give one")
    if deepest is None:
        return body  # no module of the repository: an unscoped qualified name
    module_file, rest = deepest
    facts = fp.python.get(module_file)
    if absent or (facts is not None and not facts.parsed) or fp.definitions(rest):
        # "it is not there" is a claim about that module; an unread one cannot be searched;
        # a name defined in another file is claimed for this one: the check says where it is
        changes.append(f"{body} is {rest} in {module_file}")
        return f"{module_file}::{rest}"
    defined = [d.qualname for d in facts.definitions] if facts is not None else []
    close = difflib.get_close_matches(rest, defined, n=3, cutoff=0.6)
    suggestions = [f"symbol:{module_file}::{name}" for name in close]
    raise AnchorSyntaxError(
        f"{module_file} does not define {rest}{_did_you_mean(suggestions, quote=False)}"
    )


def _argument(body: str, stated: str | None, fp: Fingerprint) -> str | None:
    """``symbol:app/db.py::pool_pre_ping`` where the file defines no such name but passes
    it as a keyword argument of one callee (``call:create_engine(pool_pre_ping)@app/db.py``)
    or has it as a parameter of one function (``param:app/db.py::connect(pool_pre_ping)``):
    the anchor the caller meant, or None (then ``anchors.verify`` says it cannot tell)."""
    path, sep, name = body.rpartition("::")
    facts = fp.python.get(fp.tracked_path(path) or path) if sep else None
    if facts is None or "." in name or fp.definition(path, name) is not None:
        return None
    if any(v.name == name for v in facts.constants):
        return None
    said = "" if stated is None else f"={stated}"
    functions = {g.function for g in facts.signatures if any(p.name == name for p in g.params)}
    callees = {c.callee for c in facts.calls if any(k == name for k, _ in c.keywords)}
    if len(functions) == 1 and not callees:
        return f"param:{path}::{functions.pop()}({name}{said})"
    if len(callees) == 1 and not functions:
        return f"call:{callees.pop()}({name}{said})@{path}"
    return None


def _defining(fp: Fingerprint, path: str, qual: str, depth: int) -> Iterator[str]:
    """Files defining ``qual`` as seen from module file ``path``: itself, or the files it
    re-exports the first name from (``from ._client import Client``)."""
    facts = fp.python.get(path)
    # A constant is found where it is assigned: ``pkg.paging.MAX_PAGE_SIZE=100``.
    if fp.definition(path, qual) is not None or (
        facts is not None and any(v.name == qual for v in facts.constants)
    ):
        yield path
        return
    if facts is None or depth >= _REEXPORT_DEPTH:
        return
    first, _, rest = qual.partition(".")
    for imp in facts.imports:
        if first not in imp.names or imp.module.startswith("."):
            continue
        target = fp.module_path(imp.module)
        if target is not None and target != path:
            yield from _defining(fp, target, qual, depth + 1)
        submodule = fp.module_path(f"{imp.module}.{first}")  # from pkg import mod; mod.C
        if submodule is not None and rest:
            yield from _defining(fp, submodule, rest, depth + 1)


def _did_you_mean(options: list[str], quote: bool = True) -> str:
    if not options:
        return ""
    return "; did you mean " + " or ".join(repr(o) if quote else f"'{o}'" for o in options) + "?"
