"""What a name from memory text denotes in the repository's code.

``CodeNames`` reads one candidate (a word, a dotted name, ``path::Qual``, a path, an env
name, an ``import`` phrase or a technology) against one fingerprint, with the memory's
scope applied, and returns the anchors it stands for or why it stands for none (a
``DropReason`` and a sentence). Bare words are matched only against third-party imports and
declared dependencies; the repository's own modules are subjects, not imports.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.mentions import runs, tool_area
from anchors.projects import holds_python
from anchors.spec import (
    Anchor,
    AnchorKind,
    AnchorSyntaxError,
    Expect,
    normalize_dist_name,
    validate_repo_path,
)
from anchors.tooling_dirs import built_copy
from anchors.vocabulary import TechKind, Technology, lookup_word
from anchors.vocabulary import english as vocabulary_english
from anchors.wordlists import COMMON_WORDS, DIST_TO_IMPORT

__all__ = ["CodeNames", "DropReason", "Outcome", "Pref", "own_names"]


class DropReason(StrEnum):
    """Why a candidate from the text did not become an anchor."""

    UNRESOLVED = "unresolved"  # names nothing in the code
    AMBIGUOUS = "ambiguous"  # names several things, or is stated both ways
    COMMON_WORD = "common_word"  # an English word, not imported as exactly that module
    STDLIB_NOT_DEPENDENCY = "stdlib_not_dependency"  # a standard-library module is no dist
    HYPOTHETICAL = "hypothetical"  # a plan, a question, a condition, a wish
    OTHER_PARTY = "other_party"  # about someone else's code
    UNCLEAR_POLARITY = "unclear_polarity"  # in a negated clause, but not what is negated
    NOT_IN_SCOPE = "not_in_scope"  # defined several times, never inside the scope
    UNSAFE = "unsafe"  # an unsafe or malformed path or name
    UNTYPED = "untyped"  # looks like a technology, but neither the vocabulary nor the code knows it
    NOT_A_USE = "not_a_use"  # named as an alternative or a comparison, not as something used
    OWN_PACKAGE = "own_package"  # the repository's own package: the note's subject, not a claim
    EXTERNAL = "external"  # the note is about something outside the repository
    BESIDE_THE_CODE = "beside_the_code"  # a tool used beside the code: absence proves nothing


Outcome = list[Anchor] | tuple[DropReason, str]
Pref = Literal["dep", "import"] | None
_STDLIB = frozenset(sys.stdlib_module_names)
_IMPORT_TO_DIST = {imp.lower(): dist for dist, imp in DIST_TO_IMPORT.items()}
_IDENTS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", re.ASCII)
# A real file name: a stem and an extension files have (not "v1.2", not "e.g").
_FILE_NAME = re.compile(
    r"[\w-]\.(?:py|pyi|toml|cfg|ini|txt|md|rst|json|ya?ml|lock|sql|sh|js|ts|tsx|jsx|html|css|"
    r"conf|env|example|in|j2|jinja|tf|typed|go|mod|rs|[cm]?[jt]sx?)$"
)
# Without a directory, only extensions prose never ends a word with ("Node.js" is no file;
# "parse.go", "date.rs", "api.ts" are).
_BARE_FILE = re.compile(r"[\w-]\.(?:py|pyi|toml|cfg|ini|md|rst|txt|json|ya?ml|lock|sql|sh|typed|go|"
                        r"rs|tsx?|jsx|mod)$")


# Websites named like files ("docs.rs builds the documentation").
_SITES = frozenset({"docs.rs", "lib.rs", "deps.rs", "pkg.go.dev", "go.dev"})


def _env_family(name: str, read: frozenset[str]) -> bool:
    """Whether ``name`` is one more of a family of variables the code reads: RUST_LOG_COLOR
    beside RUST_LOG and RUST_LOG_STYLE. A name that shares its whole stem (two words or
    more) with a variable the code reads is a variable too, so a note naming one nothing
    reads is about a variable that does not exist, not about some other kind of name."""
    stem = name.rpartition("_")[0]
    if stem.count("_") < 1:
        return False
    return any(other == stem or other.startswith(stem + "_") for other in read)


def _as_path(name: str, fp: Fingerprint) -> str | None:
    """``name`` as a tracked file or directory (exact, or a unique basename)."""
    name = name.strip("`").rstrip("/")
    try:
        validate_repo_path(name)
    except AnchorSyntaxError:
        return None
    if fp.has_path(name) or fp.has_directory(name):
        return name
    base = name.rsplit("/", 1)[-1]
    if "." not in base:
        return None
    hits = fp.basename_paths(base)
    if "/" in name:  # "click/testing.py" for src/click/testing.py: a path below a source root
        hits = [h for h in hits if h.endswith(f"/{name}")]
    return hits[0] if len(hits) == 1 else None


def _import_name(name: str) -> str:
    """The module a distribution named ``name`` is imported as (``PyJWT``: ``jwt``,
    ``pyyaml``: ``yaml``), or ``name`` when it names no other module."""
    dist = normalize_dist_name(name)
    mapped = DIST_TO_IMPORT.get(dist)
    if mapped is None:
        hit = lookup_word(name)
        tech = hit[0] if hit is not None else None
        if tech is not None and dist in tech.dists and len(tech.imports) == 1:
            mapped = tech.imports[0]
    return mapped if mapped is not None and _IDENTS.fullmatch(mapped) else name


def _management_command(fp: Fingerprint, name: str) -> str | None:
    """The one file defining the Django management command ``name``
    (``<app>/management/commands/<name>.py``), or None."""
    if "." in name or name.startswith("_"):
        return None
    found = [
        p for p in fp.basename_paths(f"{name}.py")
        if f"/{p}".endswith(f"/management/commands/{name}.py")
    ]  # fmt: skip
    return found[0] if len(found) == 1 else None


def _module_named(fp: Fingerprint, name: str) -> str | None:
    """The one Python module of the application called ``name`` ("settings_global" for
    ``wger/settings_global.py``): a name with an underscore, tests left out, or None."""
    if "." in name or "_" not in name.strip("_"):
        return None
    found = [p for p in fp.basename_paths(f"{name}.py") if runs(p)]
    return found[0] if len(found) == 1 else None


def _code_folders(fp: Fingerprint) -> frozenset[str]:
    """The names of the folders that hold source code (a Go package, a Python package)."""
    return frozenset(part.lower() for path in fp.code for part in path.split("/")[:-1])


def own_names(fp: Fingerprint) -> frozenset[str]:
    """The names the repository's own crates, npm packages and Go modules go by, once a
    fingerprint (``_own_names``)."""
    return fp.derived("codenames.own", _own_names)


def _own_names(fp: Fingerprint) -> frozenset[str]:
    """The names the repository's own Rust crates, npm packages and Go modules go by
    (``env_logger`` for the crate ``env-logger`` or ``env_logger``, ``mux`` for the module
    ``github.com/gorilla/mux``)."""
    found: set[str] = set()
    for path, values in fp.infra.items():
        if infra_kind(path) is InfraKind.YAML_SETTINGS:
            continue  # (an application's settings name no package or module)
        for v in values or ():
            if v.text and v.key in ("package.name", "name"):
                found.update({v.text, v.text.replace("-", "_")})
            elif v.text and v.key == "module":
                last = re.sub(r"/v\d+$", "", v.text).rpartition("/")[2]
                found.add(last)
    return frozenset(n for n in found if n)


def _top_of_path(path: str) -> str:
    first = path.removeprefix("src/").split("/", 1)[0]
    return first.removesuffix(".py")


_RUST_ROOTS = frozenset({"std", "core", "alloc", "crate", "self", "super"})
# Node's own modules: "requires the https module" in a note about a JavaScript file
NODE_BUILTINS = frozenset({
    "assert", "buffer", "child_process", "cluster", "crypto", "dgram", "dns", "events", "fs",
    "http", "http2", "https", "net", "os", "path", "perf_hooks", "process", "querystring",
    "readline", "stream", "string_decoder", "timers", "tls", "url", "util", "v8", "vm",
    "worker_threads", "zlib",
})  # fmt: skip
# The process environment as code names it: "never reads process.env" denies no import;
# ``process.env.NODE_ENV`` is one variable of it.
_ENV_OBJECT = r"(?:process\.env|import\.meta\.env|os\.environ)"
_ENVIRONMENT = re.compile(rf"{_ENV_OBJECT}(?:\.|$)")
ENV_MEMBER = re.compile(rf"{_ENV_OBJECT}\.(?P<name>[A-Z_][A-Z0-9_]*)")


@dataclass(frozen=True)
class _ModuleNames:
    """The module names of one fingerprint that prose is matched against (read-only)."""

    exact: frozenset[str]
    modules: frozenset[str]
    first_party: frozenset[str]
    by_last: Mapping[str, frozenset[str]]
    known: frozenset[str]  # by_last's keys, first_party and the standard library's modules
    # Modules the code in other languages imports, by the word prose names them with: a Go
    # path and its last element ("net/http", "http"), an npm package, a Rust crate.
    foreign: Mapping[str, str]

    @classmethod
    def of(cls, fp: Fingerprint) -> _ModuleNames:
        exact: set[str] = set()
        modules: set[str] = set()
        for facts in fp.python.values():
            for imp in facts.imports:
                if imp.module.startswith("."):
                    continue  # an unresolved relative import names nothing outside
                exact.add(imp.module)
                parts = imp.module.split(".")
                modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        first_party = frozenset(_top_of_path(p) for p in fp.python)
        by_last: dict[str, set[str]] = {}
        for module in modules:
            if module.split(".")[0] not in first_party:
                by_last.setdefault(module.rsplit(".", 1)[-1].lower(), set()).add(module)
        frozen = {last: frozenset(found) for last, found in by_last.items()}
        foreign = _foreign_names(fp)
        known = frozenset(frozen) | first_party | _STDLIB | frozenset(foreign)
        return cls(frozenset(exact), frozenset(modules), first_party, frozen, known, foreign)


def _foreign_names(fp: Fingerprint) -> dict[str, str]:
    """The modules files in other languages than Python import, by lower-case word (see
    ``_ModuleNames.foreign``); a word two modules share names neither."""
    declared = fp.dependency_names()
    deps = declared | {normalize_dist_name(d).replace("-", "_") for d in declared}
    found: dict[str, set[str]] = {}
    for facts in fp.code.values():
        language = facts.language
        if language in ("python", None, "uncovered"):
            continue
        for imp in facts.imports:
            for word, module in _import_words(imp.module, language, deps):
                found.setdefault(word.lower(), set()).add(module)
    return {w: next(iter(ms)) for w, ms in found.items() if len(ms) == 1}


def _import_words(module: str, language: str,
                  deps: frozenset[str]) -> list[tuple[str, str]]:  # fmt: skip
    """(word, module) pairs one import of ``language`` is named by in prose."""
    if language == "go":
        top = module.split("/", 1)[0]
        if "." in top and not any(module.startswith(d) for d in deps):
            return []  # the module's own packages: a path with a host that go.mod lacks
        last = module.rsplit("/", 1)[-1]
        return [(module, module), (last, last)] if last != module else [(module, module)]
    if language == "rust":
        crate = module.split("::", 1)[0]
        if crate in _RUST_ROOTS or crate not in deps:
            return []  # the standard library's paths and the crate's own modules
        return [(crate, crate), (crate.replace("_", "-"), crate)]
    if module.startswith((".", "/", "~")) or ":" in module:
        return []  # a relative specifier names a file of the project; "node:fs" is builtin
    parts = module.split("/")
    package = "/".join(parts[:2]) if module.startswith("@") else parts[0]
    return [(package, package)] if package == module else [(module, module), (package, package)]


# A package's name as a registry writes it (``crossterm``, ``serde_json``, ``pino-pretty``)
_PACKAGE_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*")
# What kind of dependency a word before "dependency" says ("a windows-only dependency")
_DEPENDENCY_KINDS = frozenset({
    "runtime", "run-time", "dev", "development", "test", "testing", "build", "optional",
    "transitive", "direct", "indirect", "peer", "hard", "soft", "required", "mandatory",
    "core", "extra", "native", "system", "platform", "target", "internal", "external",
    "third-party", "new", "only", "single", "sole", "main", "heavy", "light", "binary",
})  # fmt: skip


class CodeNames:
    """What a name from prose denotes in one fingerprint, with ``scope`` applied.

    Each method returns the anchors a candidate stands for, or a (reason, detail) drop.
    Bare words are matched only against third-party imports and declared dependencies:
    a word naming one of the repository's own modules is a subject, not an import.
    """

    def __init__(self, fp: Fingerprint, scope: str | None,
                 words: frozenset[str] = frozenset()) -> None:  # fmt: skip
        self.fp, self.scope = fp, scope
        self.words = words  # the note's words, lower case: the files it may name
        names = fp.derived("codenames", _ModuleNames.of)  # once per fingerprint, not per note
        self.exact, self.modules = names.exact, names.modules
        self.first_party, self.by_last = names.first_party, names.by_last
        self._known = names.known
        self.foreign = names.foreign
        self.deps = fp.dependency_names()
        self._english = vocabulary_english()

    def _in_scope(self, path: str) -> bool:
        return self.scope is None or path == self.scope or path.startswith(self.scope + "/")

    def _import(self, module: str, expect: Expect = Expect.PRESENT) -> Anchor:
        return Anchor(AnchorKind.IMPORT, module, expect, scope=self.scope)

    def known(self, word: str) -> bool:
        """Whether ``word`` names some module or distribution (worth reporting a drop)."""
        w = word.lower()
        return w in self._known or normalize_dist_name(w) in self.deps

    def _import_for(self, w: str) -> tuple[str, bool] | tuple[DropReason, str] | None:
        """(module, named directly) for a word: a top-level import, the last component of
        exactly one imported module ("fastmcp" -> mcp.server.fastmcp), or the import name of
        a distribution ("pyyaml" -> yaml, not named directly)."""
        hits = set(self.by_last.get(w, ()))
        tops = {m for m in hits if "." not in m}
        if len(tops) == 1:
            return tops.pop(), True
        hits = {m for m in hits if not any(m.startswith(o + ".") for o in hits)}
        if len(hits) > 1 and self.scope is not None:
            local = {m for m in hits if any(self._in_scope(p) for p, _ in self.fp.importers(m))}
            hits = local if len(local) == 1 else hits
        if len(hits) == 1:
            return hits.pop(), True
        if hits:
            return DropReason.AMBIGUOUS, f"{w!r} is the last part of {sorted(hits)}"
        mapped = DIST_TO_IMPORT.get(normalize_dist_name(w)) or _stripped_dist(w)
        return (mapped, False) if mapped and mapped in self.modules else None

    def declares(self, word: str) -> bool:
        """Whether a manifest of the repository declares ``word`` as a dependency."""
        return self._dep_for(word.lower()) is not None

    def _dep_for(self, w: str) -> str | None:
        name = normalize_dist_name(w)
        if name in self.deps:
            return name
        dist = _IMPORT_TO_DIST.get(w)
        return dist if dist in self.deps else None

    def _common(self, w: str) -> bool:
        # An ordinary English word is never an anchor, whatever the repository contains
        # ("gateway", "accounts", "signing"): the generated word list decides, plus the
        # programming words that collide with module names ("mocks", "pages" as plurals).
        return (w in COMMON_WORDS or w.lower() in self._english  # is_ordinary_word(w)
                or (w.endswith("s") and w[:-1] in COMMON_WORDS))  # fmt: skip

    def agent_noun(self, w: str) -> bool:
        """Whether ``w`` is an English verb's agent noun ("throttler", "scheduler",
        "limiter"): an ordinary word, whatever package it also names."""
        return w.endswith(("er", "or")) and any(
            self._common(stem) for stem in (w[:-1], w[:-2]) if len(stem) > 3)

    def own_package(self, tech: Technology) -> bool:
        """Whether ``tech`` is this repository's own package (flask, in flask's repo; the
        PyPI ``websocket`` in the Go module ``github.com/gorilla/websocket``)."""
        own = {n.lower() for n in own_names(self.fp)}
        return any(m.split(".")[0] in self.first_party or m.lower() in own for m in tech.imports)

    def technology(self, tech: Technology, word: str, absent: bool, pref: Pref,
                   depends: bool = False) -> Outcome:  # fmt: skip
        """A named technology (``anchors.vocabulary``), anchored whether or not the code has
        it: absence is evidence. With a code scope, a package is claimed as an import there
        (the present-trap); a cue picks the dependency or the import; otherwise the claim is
        that the project uses it (``tech:``). ``depends``: the note says the project depends
        on it ("depends on preact"), which only its manifests can say."""
        expect = Expect.ABSENT if absent else Expect.PRESENT
        w = word.lower()
        if self.is_stdlib(w) and pref != "dep":
            return [self._import(w, expect)]  # "sqlite3": exactly that module
        if w in self.foreign and not self._python_in_scope() and (
                self.scope in self.fp.code if self.scope is not None
                else self._dep_for(w) is None and w not in self.modules):  # fmt: skip
            # "mux.go uses the path package": what the Go (or TypeScript, Rust) file
            # imports under that name, not the PyPI distribution the word also names (a
            # project's directory is checked as the technology, its manifest included)
            return [self._import(self.foreign[w], expect)]
        if self.is_stdlib(w):
            return DropReason.STDLIB_NOT_DEPENDENCY, f"{w!r} is in the standard library"
        imported = [m for m in tech.imports if m in self.modules]
        elsewhere = None
        if not imported:  # "fastmcp" the repository imports as mcp.server.fastmcp
            found = self._import_for(w.replace("-", "_"))
            if found is not None and not isinstance(found[0], DropReason) and found[1]:
                imported = [elsewhere := str(found[0])]
            elif (stripped := _stripped_dist(w)) is not None and stripped in self.modules:
                imported = [elsewhere := stripped]  # "pysaml2", which the code imports as saml2
        module = imported[0] if imported else (tech.imports[0] if tech.imports else None)
        if module is not None and not _IDENTS.fullmatch(module):
            module = None
        if pref == "dep" and tech.dists:
            named = [d for d in tech.dists if d == normalize_dist_name(w) or d in self.deps]
            return [Anchor(AnchorKind.DEP, (named or list(tech.dists))[0], expect)]
        if (pref == "dep" and depends and self.scope is None
                and (package := self._package_of(tech, w)) is not None):  # fmt: skip
            return [Anchor(AnchorKind.DEP, package, expect)]  # "depends on preact": npm's
        dist = normalize_dist_name(w)
        if word in tech.footprints:  # "the Dockerfile": the system's own file, no package
            return [Anchor(AnchorKind.TECH, tech.name, expect)]
        if tech.kind is TechKind.SYSTEM and dist in tech.dists and dist != tech.name:
            # "through asyncpg", "poetry-core": one package of the system, not the system
            if dist in self.deps and self.scope is None:
                return [Anchor(AnchorKind.DEP, dist, expect)]
            mod = next((m for m in tech.imports if normalize_dist_name(m) == dist), None)
            mod = mod or (imported[0] if imported and len(tech.dists) == 1 else None)
            if mod is not None and _IDENTS.fullmatch(mod):
                return [self._import(mod, expect)]
        if (pref == "import" or elsewhere) and module is not None and self.scope is None:
            return [self._import(module, expect)]
        if self.scope is not None:
            is_dir = self.fp.has_directory(self.scope)
            directory = self.scope if is_dir else (self.scope.rpartition("/")[0] or None)
            loose = is_dir and tool_area(self.scope)
            if tech.kind is TechKind.SYSTEM and not imported and not (absent and module):
                # A system no file imports an SDK of is used where the code names it ("s3"
                # in a boto3 call): checked in the scope itself, file or directory.
                return [Anchor(AnchorKind.TECH, tech.name, expect, scope=self.scope)]
            if not self._python_in_scope():
                # a Go service, a TypeScript frontend: no Python import to check there, the
                # technology is checked in that code's own terms (its imports, its manifest)
                return [Anchor(AnchorKind.TECH, tech.name, expect, scope=self.scope)]
            if module is not None and not loose:
                return [self._import(module, expect)]
            return [Anchor(AnchorKind.TECH, tech.name, expect, scope=directory)]
        return [Anchor(AnchorKind.TECH, tech.name, expect)]

    def _package_of(self, tech: Technology, w: str) -> str | None:
        """The npm package, Go module or crate a technology with no PyPI distribution is
        declared as ("preact", "github.com/spf13/cobra"), in an ecosystem whose manifest the
        repository has: the one named by the word, else its first. None elsewhere."""
        ecosystems = {d.ecosystem for d in self.fp.dependencies}
        ecosystems |= {e for e, name in _MANIFEST_ECOSYSTEMS.items()
                       if self.fp.basename_paths(name)}  # fmt: skip
        packages = [name for e, _, name in (p.partition(":") for p in tech.packages)
                    if e in ecosystems]  # fmt: skip
        named = [p for p in packages if p.lower().replace("_", "-") == w.replace("_", "-")]
        found = named or packages
        return found[0] if found else None

    def _js_scope(self) -> bool:
        """Whether the scope is one JavaScript or TypeScript file."""
        facts = self.fp.code.get(self.scope) if self.scope else None
        return facts is not None and facts.language in ("javascript", "typescript")

    def _python_in_scope(self) -> bool:
        """Whether the scope is a Python file or a directory holding one (or no code)."""
        if self.scope is None:  # the repository: Python if any of its code is
            return bool(self.fp.python) or not self.fp.code
        return holds_python(self.scope, self.fp)

    def word(self, word: str, pref: Pref, code: bool = False) -> Outcome:
        """A bare package-like word in a plain statement ("we use duckdb"); ``code``: it is
        written as code (backticks)."""
        w = word.lower()
        if pref == "dep" and self._python_std(w.split(".")[0]):
            if self.scope is not None and self.is_stdlib(w):
                return [self._import(w)]  # "app/x.py parses with the json package"
            return DropReason.STDLIB_NOT_DEPENDENCY, f"{w!r} is in the standard library"
        if self._common(w):
            # Only as the module is written (lower case): "JSON", "Secrets", "Decimal" in
            # prose are a format, a noun, a class, not `import json`/`secrets`/`decimal`.
            if word == w and w in self.exact and w not in self.first_party:
                return [self._import(w)]
            # In another language, only where the text says it is code ("the path
            # package", `path`): "the module path" is English, whatever a Go file imports.
            if word == w and (code or pref == "import") and w in self.foreign:
                return [self._import(self.foreign[w])]
            if word == w and pref == "import" and self.is_stdlib(w):
                return [self._import(w)]  # "with the json package": the claim is the import
            if word == w and pref is not None and w in NODE_BUILTINS and self._js_scope():
                # "lib/app.js requires the https module": Node's own, never a dependency
                return [self._import(w)]
            if word == w and pref == "dep" and (dep := self._dep_for(w)) is not None:
                return [Anchor(AnchorKind.DEP, dep)]  # "the console crate": the one declared
            return DropReason.COMMON_WORD, f"{w!r} is a common word; no file does `import {w}`"
        if w in self.first_party:
            return DropReason.UNRESOLVED, f"{word!r} is a module of this repository"
        found = self._import_for(w)
        if found is None and w in self.foreign and (pref != "dep" or self._dep_for(w) is None):
            found = self.foreign[w], True  # "with the regexp package": Go's is an import
        if found is not None and isinstance(found[0], DropReason):
            return DropReason.AMBIGUOUS, str(found[1])
        module, direct = found if found is not None else (None, False)
        dep = None if self._python_std(w) else self._dep_for(w)
        imp = [self._import(str(module))] if module else []
        deps = [Anchor(AnchorKind.DEP, dep)] if dep else []
        if pref == "dep":
            choice = deps or imp
        elif pref == "import" or direct:
            choice = imp or deps
        else:
            choice = deps or imp  # the text names the distribution ("pyyaml", "beautifulsoup4")
        return choice or (DropReason.UNRESOLVED, f"no file imports {word!r}, no dependency is it")

    def undeclared(self, word: str) -> Anchor | None:
        """"the crossterm crate", "redux-saga is a dependency": a package the note names as one,
        which no manifest declares and no file imports; its anchor's check refutes it.
        None where the repository declares nothing, or the word is no package's name."""
        w = word.lower()
        if (not self.fp.dependencies or not _PACKAGE_NAME.fullmatch(w) or w.endswith("-only")
                or w in _DEPENDENCY_KINDS or w in self.first_party
                or w in self.fp.derived("codenames.code_folders", _code_folders)):  # fmt: skip
            return None  # ("the ssdp package": a folder of the repository's own code)
        return Anchor(AnchorKind.DEP, w)

    def absent_word(self, word: str, pref: Pref) -> Outcome:
        """A negated package-like word: kept even if the code never mentions it."""
        w = word.lower()
        if self._common(w):
            return DropReason.COMMON_WORD, f"{w!r} is a common word, not clearly a package"
        if (w in self.first_party or not re.fullmatch(r"[a-z][a-z0-9._-]*", w)
                or re.search(r"[a-z][A-Z]", word)):  # "keyDelim": code, no package  # fmt: skip
            return DropReason.UNRESOLVED, f"{word!r} does not look like a package name"
        found = self._import_for(w)
        if found is not None and isinstance(found[0], DropReason):
            return DropReason.AMBIGUOUS, str(found[1])
        module = str(found[0]) if found else self.foreign.get(w)
        if module is None:
            module = w if _IDENTS.fullmatch(w) else DIST_TO_IMPORT.get(normalize_dist_name(w))
        std = (module or w).split(".")[0] in _STDLIB
        # Dependencies are repository-wide: "billing no longer uses X" says nothing of them.
        dep = None
        if self.scope is None and self.deps and not std:
            dep = self._dep_for(w) or normalize_dist_name(w)
        out = [self._import(module, Expect.ABSENT)] if module and pref != "dep" else []
        if dep and pref != "import":
            out.append(Anchor(AnchorKind.DEP, dep, Expect.ABSENT))
        if not out and module:
            out = [self._import(module, Expect.ABSENT)]
        return out or (DropReason.STDLIB_NOT_DEPENDENCY, f"{w!r} is in the standard library")

    def import_phrase(self, module: str, absent: bool) -> Outcome:
        """``import x`` / ``from x import y`` written in the text."""
        if "." not in module and module.lower() in COMMON_WORDS and module not in self.exact:
            return DropReason.COMMON_WORD, f"{module!r} is a common word; no file imports it"
        if absent:
            return [self._import(module, Expect.ABSENT)]
        if module in self.modules:
            return [self._import(module)]
        mapped = DIST_TO_IMPORT.get(normalize_dist_name(module))  # "we import pyyaml"
        if mapped and mapped in self.modules:
            return [self._import(mapped)]
        return DropReason.UNRESOLVED, f"no file imports {module}"

    def symbol(
        self, qual: str, expect: Expect = Expect.PRESENT, *, claimed: bool = False
    ) -> Outcome:
        """A qualified name, placed in the one file that defines it (preferring the scope).

        ``claimed``: the text says the scope file defines it ("billing defines verify"); if
        only another file does, the anchor stays in the scope so the verifier breaks it.
        """
        where = [p for p, _ in self.fp.definitions(qual)]
        local = [p for p in where if self._in_scope(p)]
        if claimed and where and not local and self.scope and (
            self.fp.has_path(self.scope) or self.fp.has_directory(self.scope)
        ):
            # the stated place is the claim: a definition elsewhere breaks it, never moves it
            return [Anchor(AnchorKind.SYMBOL, qual, expect, scope=self.scope)]
        if self.scope is not None and len(local) == 1:
            where = local
        if len(where) > 1 and len(sources := [p for p in where if not built_copy(p, self.fp)]) == 1:
            where = sources  # ``src/index.ts``, not its copies in ``dist/``
        if len(where) == 1:
            return [Anchor(AnchorKind.SYMBOL, qual, expect, scope=where[0])]
        if where and self.scope is not None and not local:
            return DropReason.NOT_IN_SCOPE, f"{qual} is defined in {len(where)} files, not in scope"
        if where:
            return DropReason.AMBIGUOUS, f"{qual} is defined in {len(where)} files"
        command = _management_command(self.fp, qual)
        if command is not None and expect is Expect.PRESENT:
            return [Anchor(AnchorKind.FILE, command)]  # "the `sync_users` management command"
        module = _module_named(self.fp, qual)
        if module is not None and expect is Expect.PRESENT:
            return [Anchor(AnchorKind.FILE, module)]  # "settings_global sets ..."
        if qual in own_names(self.fp):
            return DropReason.OWN_PACKAGE, f"{qual} is this repository's own crate or package"
        return DropReason.UNRESOLVED, f"no definition named {qual}"

    def dotted(self, name: str, *, claimed: bool = False, loose: bool = False) -> Outcome:
        """``mcp.server.fastmcp`` (an import), ``app.billing`` (a file), ``Store.open``;
        ``loose``: an attribute of an imported module (``yaml.safe_load``) is that import."""
        parts = name.split(".")
        if parts[0] in self.first_party:
            path = self.fp.module_path(name)
            if path is not None:
                return [Anchor(AnchorKind.FILE, path)]
            for i in range(len(parts) - 1, 0, -1):
                path = self.fp.module_path(".".join(parts[:i]))
                if path and self.fp.definition(path, ".".join(parts[i:])):
                    return [Anchor(AnchorKind.SYMBOL, ".".join(parts[i:]), scope=path)]
        elif name in self.modules:
            return [self._import(name)]
        found = self.symbol(name, claimed=claimed)
        module = self._module_of(name)
        if loose and module and parts[0] not in self.first_party and not isinstance(found, list):
            # "yaml.safe_load", "os.environ": that module is used, and that member of it
            if self._uses_member(module, ".".join(parts[:2])):
                return [self._import(module)]
            return DropReason.UNRESOLVED, f"no file importing {module} uses {name}"
        return found

    def _module_of(self, name: str) -> str | None:
        """The longest imported module ``name`` is a member of (``os`` of ``os.Stderr``)."""
        parts = name.split(".")
        prefixes = [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
        return next((m for m in prefixes if m in self.modules), None)

    def unused_member(self, name: str) -> bool:
        """Whether ``name`` is a member of a module the code imports that no file importing
        it writes (``os.Stderr`` where only ``os.Stdout`` is): nothing of this repository
        to look further for."""
        module = self._module_of(name)
        return (module is not None and name.split(".")[0] not in self.first_party
                and not self._uses_member(module, ".".join(name.split(".")[:2])))  # fmt: skip

    def _uses_member(self, module: str, member: str) -> bool:
        """Whether some file in scope importing ``module`` may write ``member``
        (``os.Stderr``): False only when each one's facts prove it does not."""
        name = member.rpartition(".")[2]
        for path, fact in self.fp.importers(module):
            facts = self.fp.code.get(path)
            if not self._in_scope(path) or facts is None:
                continue
            if facts.references is None or member in facts.references or name in fact.names:
                return True  # (``from yaml import safe_load`` uses it as well)
        return False

    def absent_dotted(self, name: str, removal: bool) -> Outcome:
        """A negated dotted name. Only removal ("X was removed") negates a definition or a
        file: "we no longer call Store.open" does not delete it."""
        if _ENVIRONMENT.match(name):
            return DropReason.UNCLEAR_POLARITY, f"{name} is the environment, not a module"
        found = self.dotted(name)
        if isinstance(found, list):
            if found[0].kind is not AnchorKind.IMPORT and not removal:
                return DropReason.UNCLEAR_POLARITY, f"not using {name} does not mean it is gone"
            return [a.negated() for a in found]
        top = name.split(".")[0]
        if name.islower() and top not in self.first_party and _IDENTS.fullmatch(name):
            return [self._import(name, Expect.ABSENT)]
        if not removal or name.islower() or found[0] is not DropReason.UNRESOLVED:
            return DropReason.UNCLEAR_POLARITY, f"cannot tell what kind of name {name} is"
        path = self.scope if self.scope and self.fp.has_path(self.scope) else None
        return [Anchor(AnchorKind.SYMBOL, name, Expect.ABSENT, scope=path)]

    def path(self, raw: str, absent: bool, code: bool = False) -> Outcome:
        """A file or directory path; absent paths need not exist (that is the claim)."""
        path = raw.rstrip("/")
        path = path[2:] if path.startswith("./") else path
        try:
            validate_repo_path(path)
        except AnchorSyntaxError as exc:
            return DropReason.UNSAFE, str(exc)
        found = _as_path(path, self.fp)
        expect = Expect.ABSENT if absent else Expect.PRESENT
        if found is not None:
            return [Anchor(AnchorKind.FILE, found, expect)]
        if absent and "/" in path:
            return [Anchor(AnchorKind.FILE, path, expect)]
        if path.lower() in _SITES and not code:
            return DropReason.EXTERNAL, f"{path} is a website, not a file of this repository"
        if not absent and _FILE_NAME.search(path) and ("/" in path or code
                                                        or _BARE_FILE.search(path)):
            # "the router lives in shop/routing.py": a file path the repository lacks.
            return [Anchor(AnchorKind.FILE, path)]
        return DropReason.UNRESOLVED, f"{path} is not a tracked file or directory"

    def path_symbol(self, raw: str, absent: bool) -> Outcome:
        """``auth/jwt.py::verify``: the path may be a unique basename (``jwt.py::verify``)."""
        path, _, qual = raw.rpartition("::")
        try:
            validate_repo_path(path)
        except AnchorSyntaxError as exc:
            return DropReason.UNSAFE, str(exc)
        found = _as_path(path, self.fp)
        if found is not None and self.fp.definition(found, qual) is not None:
            return [Anchor(AnchorKind.SYMBOL, qual, Expect.ABSENT if absent else Expect.PRESENT,
                           scope=found)]  # fmt: skip
        if absent and (found is not None or "/" in path):
            return [Anchor(AnchorKind.SYMBOL, qual, Expect.ABSENT, scope=found or path)]
        if not absent and (found is not None or "/" in path):
            return [Anchor(AnchorKind.SYMBOL, qual, scope=found or path)]  # broken: absence refutes
        return DropReason.UNRESOLVED, f"{path} defines no {qual}"

    def env(self, name: str, absent: bool, claimed: bool = False) -> Outcome:
        """An environment variable read by the code or declared in ``.env.example``;
        ``claimed``: the text says the code reads it, so one nothing reads is refuted."""
        if not absent and claimed and self.scope is not None and (
            self.scope.endswith(".py") or self.scope in self.fp.code
            or self.fp.has_directory(self.scope)
        ):
            # "app/settings.py reads DATABASE_URL": the stated place is the claim
            return [Anchor(AnchorKind.ENV, name, scope=self.scope)]
        if absent or claimed or name in self.fp.env_names() or (
            _env_family(name, self.fp.env_names()) and not self.fp.definitions(name)
        ):
            return [Anchor(AnchorKind.ENV, name, Expect.ABSENT if absent else Expect.PRESENT)]
        return DropReason.UNRESOLVED, f"no code reads {name} and .env.example lacks it"

    # -- names the code lacks: absence is evidence ------------------------------------
    def is_ordinary(self, word: str) -> bool:
        return self._common(word)

    def defined_in_scope(self, qual: str) -> bool:
        return self.scope is not None and self.fp.definition(self.scope, qual) is not None

    def is_stdlib(self, word: str) -> bool:
        return self._python_std(word) and not word.startswith("_")

    def _python_std(self, word: str) -> bool:
        """A module of Python's standard library, unless a manifest of another language
        declares a package of that name ("tempfile" in a crate's ``[dev-dependencies]``),
        or the repository has code and none of it is Python ("a TTY" in a Rust crate)."""
        if self.fp.code and not self.fp.python:
            return False
        return word in _STDLIB and not any(
            d.ecosystem != "pypi" for d in self.fp.dependency(word)
        )

    def module_claim(self, module: str) -> Anchor:
        return self._import(module)

    def scoped_package(self, name: str, absent: bool, pref: Pref) -> Outcome:
        """An npm package named with its scope ("@lumino/widgets"): the import where the
        code imports it, the dependency where a ``package.json`` declares it and the text
        says so; else the import, broken while nothing imports it."""
        expect = Expect.ABSENT if absent else Expect.PRESENT
        imported = self.foreign.get(name)
        if pref == "dep" or (imported is None and name in self.deps and not absent):
            out = [Anchor(AnchorKind.DEP, name, expect)]
            if absent and imported is not None:
                out.append(self._import(imported, expect))
            return out
        return [self._import(imported or name, expect)]

    def import_claim(self, module: str, absent: bool) -> Anchor:
        """The text says a module is imported ("imports pallets_sphinx_themes"); a
        distribution's name is its import name ("imports PyJWT": ``jwt``)."""
        return self._import(_import_name(module), Expect.ABSENT if absent else Expect.PRESENT)

    def missing_member(self, name: str) -> Outcome:
        """``pkg.module.Name`` whose module exists but which it neither defines nor imports
        (a re-export is the name's own definition elsewhere): a symbol anchor there, broken;
        ``Class.method`` whose class is defined in one file but has no such method: the same.
        Anything else stays a drop."""
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            path = self.fp.module_path(".".join(parts[:i]))
            if path is None:
                continue
            member = ".".join(parts[i:])
            if self._binds(path, parts[i - 1]):
                # ``app.run`` where app.py binds ``app`` (``app = Flask(...)``, ``from x
                # import app``): the object's attribute, which no reader follows
                detail = f"{path} binds {parts[i - 1]}: {name} may be its attribute"
                return DropReason.AMBIGUOUS, detail
            target = self._reexported(path, parts[i])
            if target is False:
                return DropReason.UNRESOLVED, f"{path} imports {parts[i]} from outside"
            return [Anchor(AnchorKind.SYMBOL, member, scope=target or path)]
        # (a Python function has no members: ``app.config.from_envvar`` of a fixture
        # ``app`` is an attribute of what it returns)
        owners = [p for p, d in self.fp.definitions(parts[0])
                  if not (p.endswith(".py") and d.bases is None)]  # fmt: skip
        if len(parts) > 1 and len(owners) == 1:
            return [Anchor(AnchorKind.SYMBOL, name, scope=owners[0])]  # Progress.remove_all
        return self.dotted(name)

    def _binds(self, path: str, name: str) -> bool:
        """Whether the Python file ``path`` imports, defines or assigns ``name`` itself."""
        facts = self.fp.python.get(path)
        if facts is None:
            return False
        return (any(name in imp.names for imp in facts.imports)
                or any(d.qualname == name for d in facts.definitions)
                or any(v.name == name for v in facts.constants))  # fmt: skip

    def _reexported(self, path: str, name: str) -> str | Literal[False] | None:
        """Where a module re-exports ``name`` from (``from .termui import progressbar``): the
        defining file, False when it comes from outside the repository, None when the
        module does not import it."""
        facts = self.fp.python.get(path)
        for imp in facts.imports if facts else ():
            if name in imp.names:
                source = self.fp.module_path(imp.module)
                return source if source is not None else False
        return None

    def package_member(self, name: str) -> Anchor | None:
        """``strings.Join`` or ``bytes.Buffer`` in a note about one Go file: a member of a
        package the repository imports, qualified by the package's name as Go code always
        writes it. The note says the file uses it, so the file imports that package; an
        anchor there breaks when it does not. In a note about no file, the Go files that
        write it (``os.Stdout``), of those the note names by a word (``words``) if any. None
        when the file is known not to write that member (the note is then unchecked), and
        elsewhere: in Python and JavaScript the qualifier is whatever the file binds, not
        the package."""
        head, _, member = name.partition(".")
        if self.scope is None and head.islower() and "." not in member and not (
                head == "http" and member.startswith("Status")):  # (a status: its own reading)
            # "the debug logger writes to os.Stdout": the Go files that write it; of those
            # the sentence names by a word ("an app writes to os.Stderr": app.go), only them
            go = [p for p, f in self.fp.code.items() if f.language == "go"]
            named = [p for p in go if p.rpartition("/")[2].removesuffix(".go") in self.words]
            writers = [p for p in named or go if (f := self.fp.code[p]).references is not None
                       and name in f.references]  # fmt: skip
            if writers:
                return Anchor(AnchorKind.IMPORT, head, scope=writers[0] if len(writers) == 1
                              else None)  # fmt: skip
        facts = self.fp.code.get(self.scope) if self.scope else None
        if (facts is None or facts.language != "go" or not head.islower() or "." in member
                or not self.fp.importers(head)):  # fmt: skip
            return None
        imports = any(path == self.scope for path, _ in self.fp.importers(head))
        if imports and facts.references is not None and name not in facts.references:
            return None  # the file imports the package, but writes no such member
        return Anchor(AnchorKind.IMPORT, head, scope=self.scope)

    def imported_name(self, name: str) -> Anchor | None:
        """A class or function the code imports by its own name ("rotates logs through
        TimedRotatingFileHandler": ``from logging.handlers import TimedRotatingFileHandler``;
        ``use std::sync::Arc``): that import, where the files that run import it from one
        module and the word is written as code is (two capitals, an underscore, backticks).
        None where no such import is made, or it is made from several modules."""
        modules = self.fp.derived("imported_names", _imported_names).get(name, ())
        if len(modules) != 1 or self.fp.definitions(name) or self.fp.constant_values(name):
            return None  # (a name the repository defines is its own, imported or not)
        return self._import(modules[0])

    def nowhere(self, name: str) -> bool:
        """Whether no file of the repository defines, imports or writes (``a.dataUpdatedAt``,
        ``{ restoreClient: ... }``, camelCase) ``name`` by itself and every code file was
        read whole: a claim that the project has it is then false."""
        if self.fp.definitions(name) or name in self.fp.derived("imported_anywhere", _any_names):
            return False
        read, unknown = self.fp.derived("camel_names_anywhere", _camel_names)
        if unknown or name in read:
            return False  # ``a.state.dataUpdatedAt``, ``{ restoreClient: ... }``: written
        return not any(facts.could_mention([name]) for _, facts in self.fp.unread())

    def file_member(self, name: str) -> Anchor | None:
        """``traceback.install`` in rich: ``install`` in the one Python file of the
        repository named ``traceback.py``, where no file importing the module of that name
        uses the member."""
        stem, _, member = name.partition(".")
        if not member or "." in member:
            return None
        files = {p for p, _ in self.fp.definitions(member)
                 if p.rpartition("/")[2] == f"{stem}.py"}  # fmt: skip
        return Anchor(AnchorKind.SYMBOL, member, scope=files.pop()) if len(files) == 1 else None

    def missing_in_scope(self, name: str, found: Outcome) -> Outcome:
        """A code name defined nowhere, in a note about one Python file: the claim is that
        the file has it, so the anchor is placed there (and breaks)."""
        if (isinstance(found, tuple) and found[0] is DropReason.UNRESOLVED and self.scope
                and self.scope.endswith(".py") and self.fp.has_path(self.scope)):  # fmt: skip
            facts = self.fp.code.get(self.scope)
            if facts is not None and (facts.references is None
                                      or f'"{name}"' in facts.references):  # fmt: skip
                return found  # ``{"auto_envvar_prefix": ...}``: the file has it as a key
            head = name.partition(".")[0]
            if facts is not None and any(
                    name in imp.names or (head != name and head in (
                        *imp.names, imp.module.rpartition(".")[2]))
                    for imp in facts.imports):  # fmt: skip
                # ``from importlib.util import find_spec``, ``from . import webdav`` then
                # ``webdav.WebDAVApp``: the file has it from elsewhere
                return found
            if head != name and facts is not None and (
                    self.fp.definition(self.scope, head) is not None
                    or any(v.name == head for v in facts.constants)):  # fmt: skip
                return found  # ``app.app_context()`` of ``app = create_app()``: a value's
            if head != name and len(head) == 1:
                return found  # ``g.session_key``, ``r.URL``: a member of a value by its letter
            if self.fp.members_named(name):
                return found  # a class's field (``AuthSettings.token_minutes``): elsewhere
            return [Anchor(AnchorKind.SYMBOL, name, scope=self.scope)]
        return found


def _camel_names(fp: Fingerprint) -> tuple[frozenset[str], bool]:
    """Every camelCase name any file writes (``anchors.references.camel_names``), and
    whether a file kept too many to record."""
    found: set[str] = set()
    for facts in fp.code.values():
        if facts.camel_names is None:
            return frozenset(), True
        found.update(facts.camel_names)
    return frozenset(found), False


def _any_names(fp: Fingerprint) -> frozenset[str]:
    """Every name an import or a re-export of any file names (``export { x } from './y'``)."""
    return frozenset(n for facts in fp.code.values() for imp in facts.imports for n in imp.names)


def _imported_names(fp: Fingerprint) -> dict[str, tuple[str, ...]]:
    """Each name a running Python or Rust file imports by itself (``from a.b import C``,
    ``use a::b::C``), with the import anchors' values that find it (``a.b.C``, ``a::b::C``)."""
    found: dict[str, set[str]] = {}
    for path, facts in fp.code.items():
        if facts.language not in ("python", "rust") or not runs(path):
            continue
        joint = "." if facts.language == "python" else "::"
        for imp in facts.imports:
            for name in imp.names if not imp.typing else ():
                found.setdefault(name, set()).add(f"{imp.module}{joint}{name}")
    return {name: tuple(sorted(modules)) for name, modules in found.items()}


_MANIFEST_ECOSYSTEMS = {"npm": "package.json", "go": "go.mod", "cargo": "Cargo.toml"}
_DIST_AFFIX = re.compile(r"^(?:python-|py-?)(?P<a>[a-z][\w.]{2,})$|^(?P<b>[a-z][\w.]{2,})-python$")


def _stripped_dist(word: str) -> str | None:
    """The module a distribution's name wraps in the usual affixes ("pysaml2" -> saml2,
    "python-ldap" -> ldap, "pyserial" -> serial); the caller keeps it only where a file
    imports that module."""
    m = _DIST_AFFIX.match(word)
    return None if m is None else (m["a"] or m["b"]).replace("-", "_")
