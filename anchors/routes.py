"""The URL paths a note says an application serves, and the check behind a message anchor
whose text is one (``message:/rootDesc.xml``): "the device description is served at
`/rootDesc.xml`", "the JSON-RPC endpoint is `/mopidy/rpc`", "`GET /api` returns the
version".

A route is read where the sentence speaks of serving (a route, an endpoint, a URL, a
handler, "served at", "mounted under", an HTTP method before it) and names a path
beginning with ``/`` that is no file or folder of the repository and no place on a
machine (``/etc/...``, ``/var/...``). A placeholder in it (``<n>``, ``{id}``, ``:id``)
stands for any text.

The code serves a path when one of its URL path literals (``FileFacts.paths``: with a
``/``, Django's ``api/items/`` too) holds the path's fixed parts in order ("/icons/" and
".png" of "/icons/<n>.png"); and, routes being joined from prefixes (a blueprint's, an
app's name), when one holds its last part and every other part is a name the code writes
or a path literal of its own (``/api``). It does not when no path literal, no name the
code writes and no definition of Python (an object tree routes by attribute) has any part
of it, where the code writes at least
``_ROUTES`` path literals (an application that routes by strings); else it cannot tell
(an object tree that routes by attribute, a path built at run time).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.mentions import runs

__all__ = ["find_route", "is_route", "read_routes"]

_I = re.IGNORECASE
# "/rootDesc.xml", "/api/v1/items/{id}", "/icons/<n>.png", "/mopidy/rpc"
_PATH = re.compile(r"(?<![\w./:~-])`?(?P<path>/[A-Za-z0-9_.\-~{}<>:*]+"
                   r"(?:/[A-Za-z0-9_.\-~{}<>:*]+)*/?)`?(?![\w/])")
# What says the path is served: before it, or after it in the sentence
_SERVING = re.compile(
    r"\b(?:routes?|endpoints?|urls?|uris?|paths?|handlers?|handles|served|serves|serving|lives|"
    r"mounted|mounts|exposed|exposes|listens|api|webhooks?|pages?|views?)\b"
    r"|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b", _I)
_MACHINE = re.compile(r"/(?:etc|var|usr|tmp|dev|proc|sys|home|opt|bin|sbin|lib|root|run|"
                      r"mnt|srv|Users|Library|System|Applications)(?:/|$)")
_PLACEHOLDER = re.compile(r"\{[^{}/]*\}|<[^<>/]*>|(?<=/):[A-Za-z_]\w*|\*+")
_ROUTES = 5  # path literals an application writes, at least, to be said to route by them


def is_route(value: str) -> bool:
    """Whether a message anchor's text is a URL path (``find_route`` checks it)."""
    return value.startswith("/") and _PATH.fullmatch(value) is not None


def read_routes(text: str, start: int, end: int,
                fp: Fingerprint) -> list[tuple[str, tuple[int, int]]]:  # fmt: skip
    """(path, span) for each route the sentence ``text[start:end]`` says is served."""
    if "/" not in text[start:end] or not _SERVING.search(text, start, end):
        return []
    found = []
    for m in _PATH.finditer(text, start, end):
        path = m["path"].rstrip(".")
        word = re.split(r"[\s`'\"(]", text[max(start, m.start("path") - 200) : m.start("path")])[-1]
        if ":/" in word or word.endswith(":"):
            continue  # "sqlite:///data/app.db": a URL's path, no route of the application
        if (len(path) < 2 or _MACHINE.match(path) or fp.tracked_path(path[1:]) is not None
                or fp.has_directory(path.strip("/"))):  # fmt: skip
            continue
        found.append((path, m.span("path")))
    return found


def find_route(path: str, fp: Fingerprint) -> Finding:
    """Whether the code serves ``path`` (see the module docstring)."""
    literals = _literals(fp)
    wanted = [p for p in _PLACEHOLDER.split(path) if p]
    holding = [(f, lit) for f, lit in literals if _holds(lit, wanted)]
    if holding:
        file, literal = holding[0]
        return Finding(tuple(sorted({f for f, _ in holding})), None, f'{file} says "{literal}"')
    parts = [s for s in path.strip("/").split("/") if s and not _PLACEHOLDER.fullmatch(s)]
    if not parts:
        return Finding((), None, f"no path of the code is {path}; cannot tell", False)
    last = parts[-1]
    names = _names(fp)
    joined = [(f, lit) for f, lit in literals if _holds(lit, [f"/{last}"])]
    segments = _segments(fp)
    prefixes = {lit.strip("/").lower() for _, lit in literals}
    # ("/api/admin" where a literal says "/admin/api": its parts, in another order)
    reordered = any({p.lower() for p in parts} <= set(_SEPARATORS.split(lit.lower()))
                    for _, lit in literals)  # fmt: skip
    if joined and not reordered and all(p.lower() in names or p.lower() in prefixes
                                        for p in parts[:-1]):  # fmt: skip
        file, literal = joined[0]
        detail = f'{file} says "{literal}", under a prefix the code names ({"/".join(parts[:-1])})'
        return Finding(tuple(sorted({f for f, _ in joined})), None, detail)
    if len(literals) >= _ROUTES and not any(
            p.lower() in segments or p.lower() in names for p in parts):  # fmt: skip
        return Finding((), None, f"no URL path the code writes has {listed(parts)}, "
                                 f"so it serves no {path}")  # fmt: skip
    return Finding((), None, f"no URL path the code writes is {path}; it may be joined at "
                             "run time: cannot tell", False)  # fmt: skip


def _holds(literal: str, wanted: Sequence[str]) -> bool:
    """Whether ``literal`` holds each of ``wanted`` in order, the first at its start
    (Django's ``api/items/`` is the path ``/api/items/``)."""
    text = "/" + literal.lower().lstrip("/")
    at = 0
    for i, part in enumerate(wanted):
        found = text.find(part.lower(), at)
        if found == -1 or (i == 0 and found != 0):
            return False
        at = found + len(part)
    return at == len(text) or not text[at:].strip("/?$")


def _literals(fp: Fingerprint) -> list[tuple[str, str]]:
    return fp.derived("routes.literals", _read_literals)


def _read_literals(fp: Fingerprint) -> list[tuple[str, str]]:
    """(file, literal) for the URL path literals of the code that runs."""
    return [(path, literal) for path, facts in fp.code.items() if runs(path)
            for literal in facts.paths if literal != "/"]  # fmt: skip


def _segments(fp: Fingerprint) -> frozenset[str]:
    return fp.derived("routes.segments", lambda f: frozenset(
        s.lower() for _, lit in _literals(f) for s in _SEPARATORS.split(lit) if s))


_SEPARATORS = re.compile(r"[/.{}<>:()?*$\\\[\]|+]+")


def _names(fp: Fingerprint) -> frozenset[str]:
    """The names the running code writes as strings or defines (a route's part may be
    one: an app's name joined to its routes, an attribute an object tree routes by)."""
    return fp.derived("routes.names", _read_names)


def _read_names(fp: Fingerprint) -> frozenset[str]:
    found: set[str] = set()
    for path, facts in fp.code.items():
        if not runs(path):
            continue
        found.update(k.lower() for k in facts.keys or ())
        if facts.language == "python":  # (CherryPy and Pyramid route by attributes)
            for d in facts.definitions:
                found.update(part.lower() for part in d.qualname.split("."))
    return frozenset(found)
