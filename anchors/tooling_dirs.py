"""Folders and files that hold tests, test tooling or a build's output rather than the
JavaScript/TypeScript application: ``tests/``, ``ui-tests/``, ``e2e/``, ``__tests__/``,
``*.spec.ts``, ``jest.config.js``, ``dist/``. A ``package.json`` in a test folder is a test
project's (its packages are for development, whatever table declares them), and never the
application's frontend; a file that is none of these is code the application runs
(``js_runs``)."""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.mentions import subproject_of

__all__ = ["BUILT_DIRS", "built_copy", "js_runs", "lib_is_source", "test_directory"]

# A folder's words, split at ``-``, ``_`` and ``.``, that say it holds tests or their tools
_TEST_WORDS = frozenset(
    {"test", "tests", "testing", "e2e", "spec", "specs", "__tests__", "__mocks__", "__fixtures__",
     "testutils", "cypress", "playwright", "storybook", ".storybook", "mocks"}
)  # fmt: skip
_WORD_SPLIT = re.compile(r"[-_.]")


def test_directory(directory: str) -> bool:
    """Whether ``directory`` (a path) is, or lies in, a test or test-tooling folder."""
    for part in directory.lower().split("/"):
        if part in _TEST_WORDS or set(_WORD_SPLIT.split(part)) & _TEST_WORDS:
            return True
    return False


# A file that tests, or configures a tool, rather than runs in the application.
_TOOL_FILE = re.compile(
    r"[^/]*(?:\.(?:test|spec|stories|story|e2e|cy)\.[cm]?[jt]sx?"
    r"|\.config\.[cm]?[jt]s|\.d\.[cm]?ts|rc\.[cm]?js|setup[\w-]*\.[cm]?[jt]s)$"
    r"|(?:gulpfile|gruntfile|webpack|rollup|vite|babel|jest|karma|eslint|prettier)"
    r"[\w.-]*\.[cm]?[jt]s$",
    re.IGNORECASE,
)
# Folders a build writes its output to: what is there was built from the sources.
BUILT_DIRS = frozenset({"dist", "build", "lib", "static", "out", "node_modules", "coverage"})


def js_runs(path: str, fp: Fingerprint | None = None) -> bool:
    """Whether a JavaScript/TypeScript file is code the application runs: not a test, a
    story, a type declaration or a tool's configuration, nor anything in a test folder, a
    sub-project (docs, examples) or a build's output. With ``fp``, a ``lib/`` folder is
    the sources of a package that has no others (express's ``lib/``), not a build's."""
    directory, _, name = path.rpartition("/")
    parts = set(directory.lower().split("/")) if directory else set()
    built = parts & BUILT_DIRS
    if built == {"lib"} and fp is not None and lib_is_source(fp):
        built = set()
    return not (_TOOL_FILE.fullmatch(name) or test_directory(directory)
                or subproject_of(path) is not None or built)  # fmt: skip


_JS = ("javascript", "typescript")  # a file's language (every dialect is one of them)
_DECLARATION = re.compile(r"\.d\.[cm]?ts$")  # types only: no code of their own


def built_copy(path: str, fp: Fingerprint) -> bool:
    """Whether a JavaScript/TypeScript file is what a build made of the sources (in
    ``dist/``, ``build/``, a compiled ``lib/``) or their type declarations (``.d.ts``): a
    definition there is a copy of one the sources hold."""
    facts = fp.code.get(path)
    if facts is None or facts.language not in _JS:
        return False
    directory = path.rpartition("/")[0].lower()
    built = set(directory.split("/")) & BUILT_DIRS if directory else set()
    if built == {"lib"} and lib_is_source(fp):
        built = set()
    return bool(built) or _DECLARATION.search(path) is not None


def lib_is_source(fp: Fingerprint) -> bool:
    """Whether the repository's ``lib/`` holds its JavaScript sources: no TypeScript, and
    no JavaScript elsewhere but files at the top (``index.js``), tests and tools. A
    package compiled into ``lib/`` keeps its sources elsewhere (``src/``)."""
    return fp.derived("tooling.lib_source", _lib_source)


def _lib_source(fp: Fingerprint) -> bool:
    scripts = [p for p, f in fp.code.items() if f.language in _JS]
    if not any(p.startswith("lib/") for p in scripts):
        return False
    if any(fp.code[p].language != "javascript" for p in scripts if not _DECLARATION.search(p)):
        return False
    return all("/" not in p or p.startswith("lib/") or not js_runs(p) for p in scripts)
