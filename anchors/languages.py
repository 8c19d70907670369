"""Which grammar reads a file, and the one entry point that reads it.

A source file's *dialect* follows its name: ``python``; ``javascript`` (``.js .mjs .cjs
.jsx``), ``typescript`` (``.ts .mts .cts``), ``tsx``, ``vue`` and ``svelte`` (the
``<script>`` blocks of a single-file component) all give facts in the language
``javascript`` or ``typescript``; ``go``; ``rust``. Facts are cached per (dialect, blob):
one blob at a ``.ts`` and a ``.js`` path is read twice, by two grammars.

A file in a programming language no grammar here covers (``.java``, ``.rb``, ``.c``, ...)
is *uncovered*: its bytes are kept as a word set (``FileFacts.words``) and it counts as not
read, so a check about it, or one it could answer, is unknown rather than decided.
"""

from __future__ import annotations

from dataclasses import replace

from anchors.facts import MAX_SOURCE_BYTES, FileFacts, NotRead, words_of
from anchors.mentions import generated, scan_mentions
from anchors.messages import literals
from anchors.references import camel_names, references
from anchors.running_code import touches_environment

__all__ = [
    "CODE_LANGUAGES",
    "UNCOVERED",
    "dialect_of",
    "extract_facts",
    "language_of",
]

_DIALECTS = {
    "py": "python",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "jsx": "javascript",
    "ts": "typescript",
    "mts": "typescript",
    "cts": "typescript",
    "tsx": "tsx",
    "vue": "vue",
    "svelte": "svelte",
    "go": "go",
    "rs": "rust",
}
# The dialect of a file no grammar here reads, but whose language defines and imports
# names the way covered code does: a check that such a file could answer is unknown.
UNCOVERED = "uncovered"
_UNCOVERED_SUFFIXES = frozenset(
    [
        "java", "kt", "kts", "scala", "groovy", "rb", "php", "cs", "fs", "swift", "m", "mm",
        "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "dart", "ex", "exs", "erl", "clj", "lua",
        "pl", "pm", "r", "jl", "hs", "ml", "zig", "nim", "cr", "elm",
    ]
)  # fmt: skip
_BUNDLED = frozenset({"js", "mjs", "cjs"})
# The language each dialect's facts are in.
_LANGUAGE = {
    "python": "python",
    "javascript": "javascript",
    "typescript": "typescript",
    "tsx": "typescript",
    "vue": "typescript",
    "svelte": "typescript",
    "go": "go",
    "rust": "rust",
}
CODE_LANGUAGES = frozenset(_LANGUAGE.values())


def dialect_of(path: str) -> str | None:
    """The dialect that reads ``path`` (``UNCOVERED`` for code no grammar covers), or None
    when it is not source code (nor is a bundler's output). ``.d.ts`` declarations are
    TypeScript."""
    dot = path.rfind(".")
    if dot == -1 or path.find("/", dot) != -1:
        return None  # called for every tracked path of every commit: no splitting
    suffix = path[dot + 1 :]
    dialect = _DIALECTS.get(suffix)
    if dialect is not None:
        # a bundler's output ("index-BXi4lWmw.js", "app.min.js") defines what it bundled
        # from elsewhere: a text whose mentions are data, not the project's code
        return None if suffix in _BUNDLED and generated(path[path.rfind("/") + 1 :]) else dialect
    suffix = suffix.lower()
    dialect = _DIALECTS.get(suffix)
    if dialect is not None:
        return dialect
    return UNCOVERED if suffix in _UNCOVERED_SUFFIXES else None


def language_of(path: str) -> str | None:
    """The language of the facts read from ``path`` ("typescript" for a ``.vue`` file), or
    None when no grammar here reads it."""
    dialect = dialect_of(path)
    return None if dialect is None else _LANGUAGE.get(dialect)


def extract_facts(source: bytes, dialect: str) -> FileFacts:
    """The facts of ``source`` read as ``dialect`` (see ``dialect_of``), with the messages
    its string literals hold (``anchors.messages``)."""
    facts = _extract(source, dialect)
    if not facts.parsed and facts.not_read is not None and dialect == UNCOVERED:
        return facts
    if len(source) <= MAX_SOURCE_BYTES:
        said = literals(source)
        facts = replace(facts, strings=said.messages, keys=said.names, paths=said.paths,
                        camel_names=camel_names(source))
    access = touches_environment(source, dialect)
    facts = replace(facts, env_access=access) if access else facts
    members = references(source, dialect, facts.imports)
    return replace(facts, references=members) if members is not None else facts


def _extract(source: bytes, dialect: str) -> FileFacts:
    if dialect == "python":
        from anchors.pyfacts import extract_file_facts

        return extract_file_facts(source)
    if dialect == UNCOVERED or len(source) > MAX_SOURCE_BYTES:
        why = NotRead.NO_GRAMMAR if dialect == UNCOVERED else NotRead.TOO_LARGE
        return FileFacts(
            parsed=False, not_read=why, size=len(source), words=words_of(source),
            mentions=scan_mentions(source, comments=False), language=dialect,
        )  # fmt: skip
    if dialect in ("javascript", "typescript", "tsx", "vue", "svelte"):
        from anchors.jsfacts import extract_js

        return extract_js(source, dialect)
    if dialect == "go":
        from anchors.gofacts import extract_go

        return extract_go(source)
    if dialect == "rust":
        from anchors.rustfacts import extract_rust

        return extract_rust(source)
    raise ValueError(f"no grammar reads {dialect!r}")
