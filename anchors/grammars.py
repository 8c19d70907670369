"""The tree-sitter grammars the fingerprint parses with, and the small helpers every
extractor shares (``anchors.pyfacts``, ``jsfacts``, ``gofacts``, ``rustfacts``).

A ``Parser`` is not safe to share between threads (fingerprints build in a background
thread while the read path parses overlaid files), so each thread gets its own per grammar.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from tree_sitter import Language, Node, Parser, Query

__all__ = ["line_of", "named_children", "parser", "query", "text_of"]

_LANGUAGES: dict[str, Language] = {}
_LOCAL = threading.local()


def _language(name: str) -> Language:
    found = _LANGUAGES.get(name)
    if found is None:
        found = _LANGUAGES[name] = Language(_LOADERS[name]())
    return found


def _load(module: str, function: str = "language") -> Callable[[], object]:
    def load() -> object:
        import importlib

        return getattr(importlib.import_module(module), function)()

    return load


# Each grammar is imported only when a file of its language is first parsed.
_LOADERS: dict[str, Callable[[], object]] = {
    "python": _load("tree_sitter_python"),
    "javascript": _load("tree_sitter_javascript"),  # JSX included
    "typescript": _load("tree_sitter_typescript", "language_typescript"),
    "tsx": _load("tree_sitter_typescript", "language_tsx"),
    "go": _load("tree_sitter_go"),
    "rust": _load("tree_sitter_rust"),
}


def parser(grammar: str) -> Parser:
    """This thread's parser for ``grammar`` (a key of ``_LOADERS``)."""
    parsers: dict[str, Parser] | None = getattr(_LOCAL, "parsers", None)
    if parsers is None:
        parsers = _LOCAL.parsers = {}
    found = parsers.get(grammar)
    if found is None:
        found = parsers[grammar] = Parser(_language(grammar))
    return found


_QUERIES: dict[tuple[str, str], Query] = {}


def query(grammar: str, source: str) -> Query:
    """A compiled query of ``grammar`` (compiled once; a ``Query`` is read-only, so threads
    share it, each running it with its own ``QueryCursor``)."""
    key = (grammar, source)
    found = _QUERIES.get(key)
    if found is None:
        found = _QUERIES[key] = Query(_language(grammar), source)
    return found


def text_of(node: Node | None) -> str:
    """A node's source text ("" for none)."""
    return "" if node is None else (node.text or b"").decode(errors="replace")


def line_of(node: Node) -> int:
    """The 1-based line a node starts on."""
    return node.start_point[0] + 1


def named_children(node: Node) -> Iterator[Node]:
    """``node``'s named children, comments left out."""
    return (child for child in node.children if child.is_named and child.type != "comment")
