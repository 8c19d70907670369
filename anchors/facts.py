"""What the code at one commit says, as plain data, and the questions anchors ask of it.

``FileFacts`` are extracted once per git blob (content-addressed, so they are cached by
blob id and shared across commits and branches). A ``Fingerprint`` is a commit's tree
listing plus the facts of its blobs, plus the overlay of uncommitted edits.

A few of the records a ``FileFacts`` holds are defined in modules of their own below this
one and re-exported here (``anchors.env_records``, ``anchors.parameters``,
``anchors.infra_values``): the readers this module calls on (``anchors.env_wrappers``,
``anchors.parameters.parse_params``) build them, and would otherwise import this module
back.
"""

from __future__ import annotations

import fnmatch
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, TypeVar

from anchors.env_records import EnvCall, EnvWrapper, ValueFact
from anchors.env_wrappers import wrapped_reads
from anchors.http_status import StatusFact
from anchors.infra_values import InfraValue
from anchors.parameters import Param, ParamKind, parse_params
from anchors.spec import package_key

__all__ = [
    "MAX_CALLS",
    "MAX_KEYWORDS",
    "MAX_SIGNATURE_CHARS",
    "MAX_SOURCE_BYTES",
    "SETTINGS_STRING",
    "CallFact",
    "Definition",
    "Dependency",
    "EnvCall",
    "EnvWrapper",
    "FileFacts",
    "Fingerprint",
    "ImportFact",
    "NotRead",
    "Param",
    "ParamKind",
    "Signature",
    "StatusFact",
    "ValueFact",
    "derive_indexes",
    "npm_package",
    "syntax_not_read",
    "words_of",
]

_D = TypeVar("_D")


@dataclass(frozen=True)
class Definition:
    """A class or function definition: dotted qualified name within its file. ``bases``:
    a class's base classes as named (the last part of a dotted name), None for a function
    or when not recorded."""

    qualname: str
    body_hash: str
    line: int
    bases: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ImportFact:
    """One imported module. ``within`` is the qualified name of the enclosing definition,
    or "" at module level. ``from a.b import c`` yields module "a.b" with names ("c",)."""

    module: str
    names: tuple[str, ...] = ()
    within: str = ""
    line: int = 0
    # inside ``if TYPE_CHECKING:``, or a Rust ``#[cfg(test)]`` module: never made at run time
    typing: bool = False
    # a Rust path written where it is used (``env_filter::Builder``), with no ``use``: it
    # binds no name in the file
    qualified: bool = False


@dataclass(frozen=True)
class Signature:
    """One function's or method's parameters: ``function`` is its qualified name (as in
    ``Definition``), ``text`` the source between its parentheses (None when longer than
    ``MAX_SIGNATURE_CHARS``), ``line`` the line its ``def`` is on. The parameters are read
    from ``text`` when first asked for: most signatures are never asked about, and keeping
    the text costs the extraction nothing but a slice."""

    function: str
    text: str | None
    line: int
    language: str = "python"  # of the file: the grammar ``text`` is read with
    # The result type as written (``Result<Paths, PatternError>``, ``(int, error)``), None
    # where none is written: no result in Go and Rust, unannotated in Python and TypeScript.
    returns: str | None = None

    @cached_property
    def params(self) -> tuple[Param, ...]:
        """The parameters, in order (none when ``text`` was not kept)."""
        return () if self.text is None else parse_params(self.text, self.line, self.language)

    def render(self) -> str:
        """``get_status(self, now=None, *, verbose=False)`` as a receipt quotes it; a Go or
        Rust one as written, with its result (``glob(pattern: &str) -> Result<Paths, ..>``)."""
        name = self.function.rpartition(".")[2]
        if self.language in ("go", "rust"):
            arrow = " -> " if self.language == "rust" else " "
            result = f"{arrow}{self.returns}" if self.returns else ""
            return f"{name}({self.text if self.text is not None else '…'}){result}"
        parts: list[str] = []
        starred = False
        for p in self.params:
            if p.kind is ParamKind.KEYWORD and not starred:
                parts.append("*")
            starred = starred or p.kind in (ParamKind.KEYWORD, ParamKind.ARGS)
            prefix = {ParamKind.ARGS: "*", ParamKind.KWARGS: "**"}.get(p.kind, "")
            default = f"={p.default}" if p.default is not None else ("=…" if p.has_default else "")
            parts.append(f"{prefix}{p.name}{default}")
        return f"{name}({', '.join(parts) if self.text is not None else '…'})"


@dataclass(frozen=True)
class CallFact:
    """A call that passes keyword arguments: the callee as written (dotted:
    ``create_engine``, ``sa.create_engine``, ``self.client.get``), each keyword with its
    literal source text (None when computed; ``**`` for a ``**mapping`` splat), its line."""

    callee: str
    keywords: tuple[tuple[str, str | None], ...]
    line: int


# ``ImportFact.within`` of a dotted string a Django settings module names
# (``"whitenoise.middleware.WhiteNoiseMiddleware"``): Django imports it when it loads.
SETTINGS_STRING = "<settings string>"


class NotRead(StrEnum):
    """Why a Python file's facts are missing or partial."""

    TOO_LARGE = "too_large"  # over pyfacts.MAX_SOURCE_BYTES: not parsed at all
    NOT_UTF8 = "not_utf8"  # not UTF-8 text, and the parse failed
    SYNTAX_ERRORS = "syntax_errors"  # parsed with errors: facts of the parts that parsed
    UNREADABLE = "unreadable"  # its content could not be read (e.g. vanished from the disk)
    UNRECORDED = "unrecorded"  # cached by a version that did not record why
    NO_GRAMMAR = "no_grammar"  # code no grammar here reads (``anchors.languages``)


# Bigger files are generated or vendored data, not code an anchor points into; parsing them
# would dominate a cold build (``pyfacts`` does not parse them).
MAX_SOURCE_BYTES = 4 * 1024 * 1024
# Calls passing keyword arguments kept per file, and keywords per call: a generated file of
# thousands of calls is not what a note about a call names, and the cache stays small.
MAX_CALLS = 400
MAX_KEYWORDS = 32
MAX_SIGNATURE_CHARS = 2000

# Words a file can name a definition, module or variable with. Kept for files that were not
# (fully) read, so a check can still prove a name is absent from them: a file cannot define
# ``Store.open`` unless the words ``Store`` and ``open`` appear in its bytes.
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
MAX_WORDS = 20_000  # more distinct words than this: no proof kept (None)


def words_of(source: bytes) -> tuple[str, ...] | None:
    """The distinct ASCII identifier-like words in ``source``, sorted; None when more than
    ``MAX_WORDS``. A superset of the ASCII names the file can define, import or read."""
    found: set[bytes] = set()
    for match in _WORD.finditer(source):
        found.add(match.group())
        if len(found) > MAX_WORDS:
            return None
    return tuple(sorted(w.decode() for w in found))


@dataclass(frozen=True)
class FileFacts:
    """What one blob says. ``mentions`` are the vocabulary's mention tokens found in its
    text (``anchors.mentions``); a non-Python text blob has only those. ``parsed`` is False
    when a ``.py`` file was not fully read; then ``not_read`` says why, ``size`` is its length
    in bytes (when too large) and ``words`` is the word set of its bytes (``words_of``), or
    None when none could be kept. ``signatures`` are the parameters of each function and
    method; ``calls`` the calls passing keyword arguments (at most ``MAX_CALLS``);
    ``env_wrappers`` and ``env_calls`` are the environment reads through helpers and settings
    libraries, joined across files by the fingerprint (``anchors.env_wrappers``)."""

    imports: tuple[ImportFact, ...] = ()
    definitions: tuple[Definition, ...] = ()
    env_reads: tuple[str, ...] = ()
    parsed: bool = True
    constants: tuple[ValueFact, ...] = ()
    env_defaults: tuple[ValueFact, ...] = ()
    mentions: tuple[str, ...] = ()
    not_read: NotRead | None = None
    size: int = 0
    words: tuple[str, ...] | None = None
    signatures: tuple[Signature, ...] = ()
    calls: tuple[CallFact, ...] = ()
    env_wrappers: tuple[EnvWrapper, ...] = ()
    env_calls: tuple[EnvCall, ...] = ()
    # The language the facts were read in (``anchors.languages``): "python", "javascript",
    # "typescript", "go" or "rust". Imports, definitions and environment reads are kept in
    # every language; values, signatures, calls and wrappers are read from Python only.
    language: str = "python"
    # The HTTP statuses each function sets in its own body (``anchors.http_status``).
    statuses: tuple[StatusFact, ...] = ()
    # The string literals that read as messages (``anchors.messages``), in every language.
    strings: tuple[str, ...] = ()
    # The string literals that read as a name (a key, an event: ``"vars"``), in every
    # language (``anchors.messages.name_literals``); None: not recorded (too many).
    keys: tuple[str, ...] | None = None
    # How the bytes touch the environment (``anchors.running_code``): 0 not at all, 1 they
    # name a way of reading it (``os.getenv``, ``process.env``, ``env::var``), named
    # variable or not, 2 the code reads all of it (``os.Environ()``, ``env::vars()``).
    env_access: int = 0
    # The members of imported modules the code uses (``os.Stderr``; ``anchors.references``);
    # None: not recorded (a language it does not read, or too many).
    references: tuple[str, ...] | None = None
    # The string literals that read as a URL path (``"/rootDesc.xml"``, ``"/api/{id}"``), in
    # every language (``anchors.messages.literals``): where the code serves or asks for it.
    paths: tuple[str, ...] = ()
    # The camelCase names the code writes anywhere: a member read after a dot, an object's
    # key (``anchors.references.camel_names``); None: not recorded (too many).
    camel_names: tuple[str, ...] | None = ()

    def __post_init__(self) -> None:
        if not self.parsed and self.not_read is None:
            object.__setattr__(self, "not_read", NotRead.UNRECORDED)

    def why_not_read(self) -> str:
        """Why this file was not (fully) read, as a phrase: "too large (5 MB > 4 MB limit)"."""
        if self.not_read is NotRead.TOO_LARGE:
            limit = MAX_SOURCE_BYTES / 2**20
            return f"too large ({_mb(self.size)} MB > {limit:g} MB limit)"
        return _WHY.get(self.not_read, "not read") if self.not_read else "not read"

    def could_mention(self, words: Sequence[str]) -> bool:
        """Whether every one of ``words`` may appear in this file's bytes: False is a proof
        that they do not (from ``self.words``); True when they do, or no words were kept."""
        if self.words is None:
            return True
        kept = frozenset(self.words)
        return all(word in kept for word in words)


def syntax_not_read(has_error: bool, source: bytes) -> NotRead | None:
    """Why a parsed file counts as not fully read: None when its tree has no errors."""
    if not has_error:
        return None
    try:
        source.decode("utf-8")
    except UnicodeDecodeError:
        return NotRead.NOT_UTF8
    return NotRead.SYNTAX_ERRORS


_WHY = {
    NotRead.NOT_UTF8: "not UTF-8",
    NotRead.SYNTAX_ERRORS: "syntax errors",
    NotRead.UNREADABLE: "unreadable",
    NotRead.UNRECORDED: "not read (cached without a reason)",
    NotRead.NO_GRAMMAR: "no grammar here reads its language",
}


def _mb(size: int) -> str:
    mb = size / 2**20
    return f"{mb:.0f}" if mb >= 10 else f"{mb:.1f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Dependency:
    """A declared dependency. ``name`` is normalised for its ecosystem (PEP 503 for
    "pypi"; an npm package name as written, lower case; a Go module path; a crate name with
    "_" as "-"); ``spec`` may be "" (for "npm" and "cargo", a semver range as written).
    ``runtime`` is False for what only development, tests, docs, extras or the build need
    (``devDependencies``, ``[dev-dependencies]``); ``optional`` marks, of those, an extra the
    application may run with (``[project.optional-dependencies] postgresql``, an optional
    crate), which is not a development dependency."""

    name: str
    spec: str
    source: str
    runtime: bool = True
    ecosystem: str = "pypi"  # "pypi", "npm", "go" or "cargo"
    optional: bool = False
    peer: bool = False  # npm's ``peerDependencies``: the application installs it beside


@dataclass(frozen=True)
class Fingerprint:
    """The code at ``commit`` (plus uncommitted edits when ``overlay`` is not "").

    ``blobs`` maps every tracked path to its blob id (work-tree content hash for overlaid
    files); ``code`` maps each source file a grammar reads (Python, JavaScript/TypeScript,
    Go, Rust: ``anchors.languages``), and each file of a language none reads, to its facts
    (``FileFacts.language``); ``texts`` maps every other text file that was searched to the
    mention tokens found in it.
    """

    commit: str
    blobs: Mapping[str, str]
    code: Mapping[str, FileFacts]
    dependencies: tuple[Dependency, ...] = ()
    # Where each environment variable is declared: a ``.env.example`` at any depth, else a
    # shell script that reads it (an entrypoint), by name.
    env_example: Mapping[str, str] = field(default_factory=dict)
    overlay: str = ""
    texts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The values each infrastructure file states (``anchors.infra_facts``); None: not read.
    infra: Mapping[str, tuple[InfraValue, ...] | None] = field(default_factory=dict)
    # The settings each JSON settings schema declares, by path: facts whose ``constants``
    # are the defaults (``anchors.settings_schemas``).
    settings: Mapping[str, FileFacts] = field(default_factory=dict)

    @cached_property
    def python(self) -> Mapping[str, FileFacts]:
        """The Python files of ``code``: what the readers of Python alone (parameters,
        calls, settings wrappers, first-party module names) look at."""
        return {path: facts for path, facts in self.code.items() if facts.language == "python"}

    def language(self, path: str) -> str | None:
        """The language ``path`` was read in ("python", "typescript", ...; ``"uncovered"``
        for code no grammar reads), or None when it is not a source file."""
        facts = self.code.get(self.tracked_path(path) or path)
        return None if facts is None else facts.language

    # -- indexes built on first use ------------------------------------------------
    @cached_property
    def _importers(self) -> dict[str, list[tuple[str, ImportFact]]]:
        index: dict[str, list[tuple[str, ImportFact]]] = {}
        for path, facts in self.code.items():
            for target, imp in _import_entries(facts):
                index.setdefault(target, []).append((path, imp))
        return index

    @cached_property
    def _definitions(self) -> dict[str, list[tuple[str, Definition]]]:
        index: dict[str, list[tuple[str, Definition]]] = {}
        for path, facts in self.code.items():
            for qualname, definition in _definition_entries(facts):
                index.setdefault(qualname, []).append((path, definition))
        return index

    @cached_property
    def _env(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for path, facts in self.code.items():
            for name in facts.env_reads:
                index.setdefault(name, []).append(path)
        for name, path, _ in self._wrapped_env:
            index.setdefault(name, []).append(path)
        for name, path in self.env_example.items():
            index.setdefault(name, []).append(path)
        return index

    @cached_property
    def _constants(self) -> dict[str, list[tuple[str, ValueFact]]]:
        index: dict[str, list[tuple[str, ValueFact]]] = {}
        for path, facts in self.code.items():
            for value in facts.constants:
                index.setdefault(value.name, []).append((path, value))
        return index

    @cached_property
    def _members(self) -> dict[str, list[tuple[str, ValueFact]]]:
        index: dict[str, list[tuple[str, ValueFact]]] = {}
        for name, found in self._constants.items():
            _, dot, last = name.rpartition(".")
            if dot:
                index.setdefault(last, []).extend(found)
        return index

    @cached_property
    def _env_defaults(self) -> dict[str, list[tuple[str, ValueFact]]]:
        index: dict[str, list[tuple[str, ValueFact]]] = {}
        for path, facts in self.code.items():
            for value in facts.env_defaults:
                index.setdefault(value.name, []).append((path, value))
        for name, path, default in self._wrapped_env:
            if default is not None:
                index.setdefault(name, []).append((path, default))
        return index

    @cached_property
    def _wrapped_env(self) -> list[tuple[str, str, ValueFact | None]]:
        """Reads through wrappers and settings libraries, joined across files."""
        return wrapped_reads(self.python, self.module_path)

    @cached_property
    def _unread(self) -> list[tuple[str, FileFacts]]:
        return sorted((p, f) for p, f in self.code.items() if not f.parsed)

    @cached_property
    def _deps(self) -> dict[str, list[Dependency]]:
        """Dependencies by ``package_key``; a Go module also by its package name
        (``github.com/gin-gonic/gin`` as ``gin``), the name notes call it by."""
        index: dict[str, list[Dependency]] = {}
        for dep in self.dependencies:
            keys = {package_key(dep.name)}
            if dep.ecosystem == "go":
                named = [p for p in dep.name.split("/") if not _GO_MAJOR.fullmatch(p)]
                keys.update(package_key(p) for p in named[-1:])
            for key in keys:
                index.setdefault(key, []).append(dep)
        return index

    @cached_property
    def _mentions(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for path, facts in self.code.items():
            for token in facts.mentions:
                index.setdefault(token, []).append(path)
        for path, tokens in self.texts.items():
            for token in tokens:
                index.setdefault(token, []).append(path)
        return index

    @cached_property
    def _directories(self) -> frozenset[str]:
        """Every tracked directory: each path's prefixes that end before one of its "/"."""
        found: set[str] = set()
        for path in self.blobs:
            at = path.rfind("/")
            while at != -1:
                directory = path[:at]
                if directory in found:
                    break  # and so is every directory above it
                found.add(directory)
                at = path.rfind("/", 0, at)
        return frozenset(found)

    @cached_property
    def _env_names(self) -> frozenset[str]:
        return frozenset(self._env)

    @cached_property
    def _by_basename(self) -> dict[str, list[str]]:
        index: dict[str, list[str]] = {}
        for path in self.blobs:
            index.setdefault(path.rpartition("/")[2], []).append(path)
        return index

    # -- queries ---------------------------------------------------------------------
    def mentions_of(self, path: str) -> tuple[str, ...] | None:
        """The mention tokens of a tracked file (code or text), None when none were read."""
        facts = self.code.get(path)
        return facts.mentions if facts is not None else self.texts.get(path)

    def mentioned_in(self, token: str) -> list[str]:
        """Tracked text files whose words include ``token`` (a vocabulary mention token)."""
        return sorted(self._mentions.get(token, []))

    def searched_files(self) -> int:
        """How many tracked files were searched for mentions."""
        return len(self.code) + len(self.texts)

    def matching_paths(self, pattern: str) -> list[str]:
        """Tracked paths matching a footprint glob: a file name (``Dockerfile``, ``*.tf``:
        at any depth), ``**/NAME`` (below the root), or a path from the root
        (``.github/workflows/*``). Answers are kept per fingerprint: checks repeat them."""
        memo: dict[str, list[str]] = self.__dict__.setdefault("_footprint_memo", {})
        if pattern not in memo:
            memo[pattern] = self._matching_paths(pattern)
        return memo[pattern]

    def _matching_paths(self, pattern: str) -> list[str]:
        if pattern.startswith("**/") and "/" not in pattern[3:]:
            return [p for p in self._matching_paths(pattern[3:]) if "/" in p]
        if "/" not in pattern:
            if not any(ch in pattern for ch in "*?["):
                return sorted(self._by_basename.get(pattern, []))
            return sorted(
                p for name, paths in self._by_basename.items()
                if fnmatch.fnmatchcase(name, pattern) for p in paths
            )  # fmt: skip
        prefix = pattern.split("*", 1)[0].rpartition("/")[0]
        return sorted(
            p for p in self.blobs
            if p.startswith(prefix) and fnmatch.fnmatchcase(p, pattern)
        )  # fmt: skip

    def directories(self) -> frozenset[str]:
        """Every directory some tracked path is under (no trailing slash)."""
        return self._directories

    def basename_paths(self, name: str) -> list[str]:
        """Tracked paths whose last component is ``name``."""
        return sorted(self._by_basename.get(name, []))

    @cached_property
    def _by_nfc(self) -> dict[str, str]:
        """Tracked paths that are not in NFC (a name committed decomposed, as macOS writes
        it), by their NFC form; the first in sort order wins two spellings of one name."""
        index: dict[str, str] = {}
        for path in sorted(p for p in self.blobs if not p.isascii()):
            nfc = unicodedata.normalize("NFC", path)
            if nfc != path:
                index.setdefault(nfc, path)
        return index

    # -- queries ---------------------------------------------------------------------
    def tracked_path(self, path: str) -> str | None:
        """The tracked path that ``path`` names, matched regardless of Unicode
        normalisation (NFC and NFD spellings are one name); None when none is tracked."""
        if path in self.blobs:
            return path
        if path.isascii():
            return None
        nfc = unicodedata.normalize("NFC", path)
        if nfc in self.blobs:
            return nfc
        return self._by_nfc.get(nfc)

    def tracked_directory(self, path: str) -> str | None:
        """The tracked directory ``path`` names (as spelled in the tree, regardless of
        Unicode normalisation), or None when no tracked file is under it."""
        path = path.rstrip("/")
        prefix = path + "/"
        if path in self._directories:  # a tracked path starts with ``prefix``
            return path
        if path.isascii():
            return None
        nfc_prefix = unicodedata.normalize("NFC", prefix)
        depth = path.count("/") + 1
        for real in self._by_nfc.values():
            if unicodedata.normalize("NFC", real).startswith(nfc_prefix):
                return "/".join(real.split("/")[:depth])
        for real in self.blobs:  # an NFD anchor for a directory tracked in NFC
            if not real.isascii() and real.startswith(nfc_prefix):
                return nfc_prefix[:-1]
        return None

    def has_path(self, path: str) -> bool:
        return self.tracked_path(path) is not None

    def has_directory(self, path: str) -> bool:
        return self.tracked_directory(path) is not None

    def importers(self, module: str) -> list[tuple[str, ImportFact]]:
        """(path, import) pairs importing ``module``: the module itself, a submodule of it,
        or (for ``from a import b``) the name ``a.b``. Sorted by path."""
        found = self._importers.get(module, [])
        return sorted(found, key=lambda pair: (pair[0], pair[1].line))

    def definitions(self, qualname: str) -> list[tuple[str, Definition]]:
        return sorted(self._definitions.get(qualname, []), key=lambda pair: pair[0])

    def definition(self, path: str, qualname: str) -> Definition | None:
        facts = self.code.get(self.tracked_path(path) or path)
        if facts is None:
            return None
        for definition in facts.definitions:
            if definition.qualname == qualname:
                return definition
        return module_items(facts).get(qualname) if facts.language == "rust" else None

    def unread(self) -> list[tuple[str, FileFacts]]:
        """(path, facts) of the Python files that were not fully read, sorted by path."""
        return self._unread

    def env_sources(self, name: str) -> list[str]:
        return sorted(set(self._env.get(name, [])))

    def constant_values(self, name: str) -> list[tuple[str, ValueFact]]:
        """Where a constant (``NAME`` or ``Class.ATTR``) is assigned, and what."""
        return self._constants.get(name, [])

    def members_named(self, name: str) -> list[tuple[str, ValueFact]]:
        """The class attributes and dict keys called ``name`` (``Paging.LIMIT`` and
        ``REST_FRAMEWORK.PAGE_SIZE`` for ``LIMIT``, ``PAGE_SIZE``), with their values."""
        return self._members.get(name, [])

    def signature(self, path: str, function: str) -> Signature | None:
        """The parameters of ``function`` (a qualified name) defined in ``path``."""
        facts = self.code.get(self.tracked_path(path) or path)
        if facts is None:
            return None
        found = next((s for s in facts.signatures if s.function == function), None)
        if found is not None and found.language != facts.language:
            found = replace(found, language=facts.language)  # the cache keeps no language
        return found

    def signatures_of(self, function: str) -> list[tuple[str, Signature]]:
        """Every file's signature of ``function`` (a qualified name), sorted by path."""
        return sorted(
            ((p, s) for p, _ in self.definitions(function)
             if (s := self.signature(p, function)) is not None),
            key=lambda pair: pair[0],
        )  # fmt: skip

    def calls_of(self, callee: str, path: str | None = None) -> list[tuple[str, CallFact]]:
        """Calls passing keyword arguments whose callee is ``callee`` as written, or ends
        with ``.callee`` (``create_engine`` finds ``sa.create_engine``), in ``path`` (a file
        or a directory) or anywhere; sorted by path and line."""
        prefix = None if path is None else path.rstrip("/") + "/"
        found = [
            (p, call) for p, call in self._calls.get(callee.rpartition(".")[2], ())
            if (path is None or p == path or p.startswith(prefix or ""))
            and (call.callee == callee or call.callee.endswith("." + callee))
        ]  # fmt: skip
        return sorted(found, key=lambda pair: (pair[0], pair[1].line))

    @cached_property
    def _calls(self) -> dict[str, list[tuple[str, CallFact]]]:
        """Calls passing keyword arguments, by the callee's last name (``create_engine``
        for ``sa.create_engine``)."""
        index: dict[str, list[tuple[str, CallFact]]] = {}
        for path, facts in self.code.items():
            for call in facts.calls:
                index.setdefault(call.callee.rpartition(".")[2], []).append((path, call))
        return index

    def env_default_values(self, name: str) -> list[tuple[str, ValueFact]]:
        """Where the code gives the environment variable ``name`` a default, and which."""
        return self._env_defaults.get(name, [])

    def env_names(self) -> frozenset[str]:
        return self._env_names

    def dependency(self, name: str) -> list[Dependency]:
        """The declarations of ``name`` (any ecosystem; see ``_deps``)."""
        return list(self._deps.get(package_key(name), []))

    def dependency_names(self) -> frozenset[str]:
        return self._dependency_names

    @cached_property
    def _dependency_names(self) -> frozenset[str]:
        return frozenset(self._deps)

    def derived(self, name: str, build: Callable[[Fingerprint], _D]) -> _D:
        """``build(self)``, computed once per fingerprint and kept with it: an index that
        another module reads on every call (``codenames``). ``name`` tells them apart."""
        memo = self._memo
        if name not in memo:
            memo[name] = build(self)
        return memo[name]

    @cached_property
    def _memo(self) -> dict[str, Any]:
        return {}

    def module_path(self, module: str) -> str | None:
        """The repository file that defines ``module`` (``a/b.py`` or ``a/b/__init__.py``),
        searching the top level and a ``src/`` layout."""
        rel = module.replace(".", "/")
        for base in ("", "src/"):
            for candidate in (f"{base}{rel}.py", f"{base}{rel}/__init__.py"):
                if candidate in self.blobs:
                    return candidate
        return None


def _import_entries(facts: FileFacts) -> list[tuple[str, ImportFact]]:
    """(module name, import) for every name an import makes importable, by language:

    - Python: the module, each ``module.name`` it imports, and each dotted prefix.
    - JavaScript/TypeScript: the specifier as written, and the package it names
      (``lodash/fp`` -> ``lodash``, ``@vue/shared/dist`` -> ``@vue/shared``).
    - Go: the import path, each ``/`` prefix of it, the same without the host from its
      owner on (``redis/go-redis``), and its last element, the package name code calls it
      by (``github.com/redis/go-redis/v9`` -> ``go-redis``), also without "go-", "-go" or
      ".vN" (``go-cache`` -> ``cache``, ``yaml.v2`` -> ``yaml``)
    - Rust: the path and each ``::`` prefix (``tokio::sync`` -> ``tokio``), and
      ``path::name`` for each name used."""
    entries: list[tuple[str, ImportFact]] = []
    targets_of = _TARGETS.get(facts.language, _python_targets)
    for imp in facts.imports:
        entries.extend((target, imp) for target in targets_of(imp))
    return entries


def _python_targets(imp: ImportFact) -> set[str]:
    targets = {imp.module}
    targets.update(f"{imp.module}.{name}" for name in imp.names)
    parts = imp.module.split(".")
    targets.update(".".join(parts[:i]) for i in range(1, len(parts)))
    return targets


def npm_package(specifier: str) -> str | None:
    """The npm package a bare import specifier names (``@scope/name/sub`` ->
    ``@scope/name``, ``lodash/fp`` -> ``lodash``; ``node:fs`` -> ``fs``), or None for a
    relative or absolute path, a URL or an alias the bundler resolves (``@/components``)."""
    if not specifier or specifier[0] in "./" or "://" in specifier or specifier[:2] in ("@/", "~/"):
        return None
    specifier = specifier.removeprefix("node:")
    parts = specifier.split("/")
    if specifier.startswith("@"):
        return "/".join(parts[:2]) if len(parts) > 1 and parts[1] else None
    return parts[0] or None


def _js_targets(imp: ImportFact) -> set[str]:
    targets = {imp.module}
    package = npm_package(imp.module)
    if package is not None:
        targets.add(package)
    return targets


_GO_MAJOR = re.compile(r"v[0-9]+")


def _go_targets(imp: ImportFact) -> set[str]:
    parts = imp.module.split("/")
    targets = {"/".join(parts[:i]) for i in range(1, len(parts) + 1)}
    if "." in parts[0] and len(parts) > 2:
        # without the host, as prose names a module: "spf13/pflag", "gorilla/context"
        targets.update("/".join(parts[1:i]) for i in range(3, len(parts) + 1))
    named = [p for p in parts if not _GO_MAJOR.fullmatch(p)]
    if named:
        targets.add(named[-1])
        # the name its package clause usually gives: "go-cache" -> cache, "yaml.v2" -> yaml
        targets.add(_GO_PACKAGE_AFFIXES.sub("", named[-1]) or named[-1])
    return targets


_GO_PACKAGE_AFFIXES = re.compile(r"^go-|[-.]go$|\.v\d+$")


def _rust_targets(imp: ImportFact) -> set[str]:
    parts = imp.module.split("::")
    targets = {"::".join(parts[:i]) for i in range(1, len(parts) + 1)}
    targets.update(f"{imp.module}::{name}" for name in imp.names if name not in ("*", "self"))
    return targets


_TARGETS: dict[str, Callable[[ImportFact], set[str]]] = {
    "python": _python_targets,
    "javascript": _js_targets,
    "typescript": _js_targets,
    "go": _go_targets,
    "rust": _rust_targets,
}


def _definition_entries(facts: FileFacts) -> list[tuple[str, Definition]]:
    entries = [(definition.qualname, definition) for definition in facts.definitions]
    return entries + list(module_items(facts).items()) if facts.language == "rust" else entries


def module_items(facts: FileFacts) -> dict[str, Definition]:
    """A Rust file's items inside its inline modules by their own names, where the file
    does not define that name at the top: ``known_folder`` for ``target_windows.known_folder``
    (``mod target_windows { pub fn known_folder ... }``, re-exported or behind a ``cfg``).
    The first of several (one per target) stands for them."""
    top = {d.qualname for d in facts.definitions if "." not in d.qualname}
    found: dict[str, Definition] = {}
    for definition in facts.definitions:
        head, _, rest = definition.qualname.partition(".")
        if rest and head in top and head.islower() and rest not in top:
            found.setdefault(rest, definition)
    return found


def derive_indexes(fingerprint: Fingerprint, previous: Fingerprint) -> None:
    """Build the indexes of ``fingerprint`` now, from those of ``previous`` where it can:
    only files whose facts or mentions differ are re-indexed, and an index of the paths
    alone is kept when the commit added and removed none.

    Built on first use, these indexes cost tens of milliseconds at 3,000 files for every
    new commit; the first read after a commit would pay that inside its verification
    budget. The fingerprint build calls this instead, where a commit touching 10 files
    costs a few milliseconds. Facts objects of unchanged files are the very same objects
    in both fingerprints, which is how changed files are found."""
    derived: dict[str, Any] = {}
    kept = previous.__dict__
    if fingerprint.blobs.keys() == previous.blobs.keys():
        derived.update((name, kept[name]) for name in ("_by_basename", "_directories")
                       if name in kept)  # fmt: skip
    paths = fingerprint.code.keys() | previous.code.keys()
    changed = [p for p in paths if fingerprint.code.get(p) is not previous.code.get(p)]
    if len(changed) * 4 > len(fingerprint.code) or not previous.code:
        fingerprint.__dict__.update(derived)
        _ = fingerprint._importers, fingerprint._definitions  # cheaper to index afresh
        return
    texts = fingerprint.texts.keys() | previous.texts.keys()
    retexted = [p for p in texts if fingerprint.texts.get(p) is not previous.texts.get(p)]
    for name, entries in (("_importers", _import_entries), ("_definitions", _definition_entries)):
        derived[name] = _reindexed(getattr(previous, name), changed, entries,
                                   previous.code.get, fingerprint.code.get)  # fmt: skip
    # (the mentions of many changed files: cheaper to index afresh, as above)
    if "_mentions" in kept and (len(changed) + len(retexted)) * 4 <= len(paths | texts):
        derived["_mentions"] = _reindexed(kept["_mentions"], [*changed, *retexted],
                                          _mention_entries, previous.mentions_of,
                                          fingerprint.mentions_of)  # fmt: skip
    # Frozen dataclass: set the cached properties as functools.cached_property would.
    fingerprint.__dict__.update(derived)


_Entries = Callable[[Any], Iterable[tuple[str, Any]]]


def _reindexed(
    index: dict[str, list[Any]],
    changed: Iterable[str],
    entries: _Entries,
    before: Callable[[str], Any],
    after: Callable[[str], Any],
) -> dict[str, list[Any]]:
    """``index`` (key -> [(path, value), ...], or [path, ...]) with the entries of the
    ``changed`` paths replaced: a key whose entries of a path are the same before and
    after is left as it was (a commit changes a few definitions of a file, not all)."""
    result = dict(index)
    gone: dict[str, set[str]] = {}
    added: dict[str, list[Any]] = {}
    for path in changed:
        old = _by_key(path, before(path), entries)
        new = _by_key(path, after(path), entries)
        for key in old.keys() | new.keys():
            if old.get(key) != new.get(key):
                gone.setdefault(key, set()).add(path)
                added.setdefault(key, []).extend(new.get(key, ()))
    for key, paths in gone.items():
        kept = [e for e in result.get(key, ()) if (e if isinstance(e, str) else e[0]) not in paths]
        kept.extend(added[key])
        if kept:
            result[key] = kept
        else:
            result.pop(key, None)
    return result


def _by_key(path: str, item: Any, entries: _Entries) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    if item is not None:
        for key, value in entries(item):
            found.setdefault(key, []).append((path, value) if value is not None else path)
    return found


def _mention_entries(tokens: Iterable[str]) -> list[tuple[str, None]]:
    return [(token, None) for token in tokens]
