"""What names in memory text denote in the repository, and which path a memory is about.

Scoping is what defeats the present-trap: "the billing module uses sqlite3" is not verified
by ``app/other.py`` importing sqlite3, because the anchor becomes
``import:sqlite3@app/billing.py``. A scope is only taken when it is unambiguous: an
explicit subject that names exactly one path, or one path named in the text as the thing
doing something, with no sentence about anything else.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Literal

from anchors.facts import Fingerprint
from anchors.mentions import tool_area
from anchors.spec import (
    Anchor,
    AnchorKind,
    AnchorSyntaxError,
    Expect,
    normalize_dist_name,
    validate_repo_path,
)
from anchors.vocabulary import TechKind, Technology, is_ordinary_word
from anchors.wordlists import (
    COMMON_WORDS,
    DIST_TO_IMPORT,
    GENERIC_NOUNS,
    PRONOUNS,
    SUBJECT_VERBS,
)

__all__ = [
    "CodeNames",
    "DropReason",
    "apply_scope",
    "resolve_name",
    "resolve_subject",
    "sentence_spans",
]

# A sentence ends at . ! ? ; or a newline followed by space (dots inside `a.b` do not end one).
_SENTENCE_END = re.compile(r"[.!?;]+(?=\s|$)|\n+")
_NP_TOKEN = re.compile(r"`?[A-Za-z0-9_./:-]+`?|[’']s\b")
_DETERMINERS = frozenset({"the", "our", "a", "an", "in"})
_FIRST_PERSON = frozenset({"we", "i", "our", "us"})
# "... is checked in auth/jwt.py", "used by app.billing": a path or dotted module after in/by.
_IN_PATH = re.compile(
    r"\b(?:in|inside|within|by|from)\s+(?:the\s+)?`?(?P<name>[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]*)+"
    r"|[A-Za-z0-9_-]+\.py|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?:::[A-Za-z0-9_.]+)?"
    r"|[a-z0-9_-]+\s+(?:module|service|package|file|layer|component|subsystem))\b`?",
    re.IGNORECASE,
)
# Pieces of a sentence that may each have their own subject.
_PIECES = re.compile(r"[,:]\s|\s(?:and|but|while|whereas|although|though)\s", re.IGNORECASE)


def sentence_spans(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_question) for each sentence of ``text``."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if text[start : match.start()].strip():
            yield start, match.start(), "?" in match.group()
        start = match.end()
    if text[start:].strip():
        yield start, len(text), False


def _directories(fp: Fingerprint) -> set[str]:
    dirs: set[str] = set()
    for path in fp.blobs:
        parts = path.split("/")[:-1]
        dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return dirs


def _as_path(name: str, fp: Fingerprint) -> str | None:
    """``name`` as a tracked file or directory (exact, or a unique basename)."""
    name = name.strip("`").rstrip("/")
    try:
        validate_repo_path(name)
    except AnchorSyntaxError:
        return None
    if fp.has_path(name) or fp.has_directory(name):
        return name
    if "/" not in name and "." in name:
        hits = [p for p in fp.blobs if p.rsplit("/", 1)[-1] == name]
        return hits[0] if len(hits) == 1 else None
    return None


def resolve_name(name: str, fp: Fingerprint, *, allow_common: bool = True) -> str | None:
    """The one repository path ``name`` denotes, or None.

    ``name`` may be a path (``app/billing.py``, ``store/``), a ``path::Qual`` anchor target,
    a dotted module (``app.billing``) or words (``billing``, ``billing service``): words
    match a file stem or directory name, and must match exactly one.
    """
    words = [w.strip("`") for w in name.split() if w.lower() not in _DETERMINERS]
    while len(words) > 1 and words[-1].lower() in GENERIC_NOUNS:
        words.pop()  # "the store/ package", "billing service"
    if not words:
        return None
    name = words[0]
    if "::" in name:
        name = name.split("::", 1)[0]
    if len(words) == 1 and ("/" in name or name.endswith(".py")):
        return _as_path(name, fp)
    if len(words) == 1 and "." in name and fp.has_path(name):
        return name  # README.md, pyproject.toml
    if len(words) == 1 and re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", name):
        module = fp.module_path(name)
        if module is not None:
            return module.removesuffix("/__init__.py")
        as_dir = name.replace(".", "/")
        return as_dir if fp.has_directory(as_dir) else None
    words = [w.lower() for w in words]
    if not all(re.fullmatch(r"[a-z0-9_-]+", w) for w in words):
        return None
    if len(words) == 1 and words[0] in GENERIC_NOUNS | COMMON_WORDS and not allow_common:
        return None
    stems = {"_".join(words), "-".join(words), "".join(words)}
    hits: set[str] = set()
    for path in fp.blobs:
        base = path.rsplit("/", 1)[-1]
        if base.endswith(".py") and base[:-3] in stems and base != "__init__.py":
            hits.add(path)
    hits.update(d for d in _directories(fp) if d.rsplit("/", 1)[-1] in stems)
    return hits.pop() if len(hits) == 1 else None


def _piece_subject(piece: str, fp: Fingerprint, first: bool) -> tuple[str, str | None]:
    """Who one piece of a sentence is about: ("path", p), or ("we" | "pronoun" | "other" |
    "none", None). A later piece ("..., and the store module uses duckdb") counts only if it
    opens with a determiner, pronoun or path: otherwise it continues the first one's verb."""
    in_paths = {resolve_name(m.group("name"), fp) for m in _IN_PATH.finditer(piece)}
    in_paths.discard(None)
    if len(in_paths) == 1:
        return "path", in_paths.pop()
    tokens = [t.strip("`").rstrip(",:") for t in _NP_TOKEN.findall(piece)]
    tokens = [t for t in tokens if t and not t.startswith(("'", "’"))]
    opener = tokens[0].lower() if tokens else ""
    if not first and not (opener in _DETERMINERS | _FIRST_PERSON | PRONOUNS or "/" in opener):
        return "none", None
    noun: list[str] = []
    for i, token in enumerate(tokens[:6]):
        low = token.lower()
        if noun and (low in SUBJECT_VERBS or low.endswith("n't")):
            break
        if noun or low not in _DETERMINERS:
            noun.append(token)
        after = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if len(noun) > 1 and low in GENERIC_NOUNS and re.fullmatch(r"[a-z]+(?:s|ed)", after):
            break  # "the models module rounds ...": the generic noun ends the phrase
    else:
        return "none", None  # no verb: not a statement about a subject
    pathlike = [t for t in noun if "/" in t or t.endswith(".py")]
    if len(pathlike) == 1 and (named := resolve_name(pathlike[0], fp)) is not None:
        return "path", named  # "the Sphinx config docs/conf.py imports ..."
    head = noun[0].lower() if noun else ""
    if not noun or head in _FIRST_PERSON:
        return ("we", None) if noun else ("none", None)
    if head in PRONOUNS:
        return "pronoun", None
    part = _part_of_project(noun, fp)
    if part is not None:
        return "path", part
    # Only a name that says it is code counts: a path, a dotted module, or words ending in
    # "module"/"service"/...: "Pages are parsed" must not scope to scrape/pages.py.
    generic = len(noun) > 1 and noun[-1].lower() in GENERIC_NOUNS
    if not generic and not (len(noun) == 1 and re.search(r"[/.]", noun[0])):
        return "other", None
    resolved = resolve_name(" ".join(noun), fp, allow_common=generic)
    return ("path", resolved) if resolved else ("other", None)


# Subjects that name a part of the project by what it is ("the docs", "the test suite"):
# the directories that part usually lives in.
_PARTS = {
    "docs": ("docs", "doc", "documentation"), "doc": ("docs", "doc"),
    "documentation": ("docs", "doc", "documentation"), "tests": ("tests", "test", "testing"),
    "test": ("tests", "test"), "examples": ("examples", "example"),
    "benchmarks": ("benchmarks", "benchmark", "bench"),
}  # fmt: skip


def _part_of_project(noun: Sequence[str], fp: Fingerprint) -> str | None:
    """"The docs are built with Sphinx", "Tests run with pytest": the directory of that
    part of the project, when the repository has exactly one of them."""
    words = [w.lower() for w in noun]
    if words[-1:] in (["suite"], ["site"], ["pages"], ["build"]):
        words = words[:-1]
    if len(words) != 1 or words[0] not in _PARTS:
        return None
    found = [d for d in _PARTS[words[0]] if fp.has_directory(d)]
    return found[0] if len(found) == 1 else None


def resolve_subject(subject: str | None, text: str, fp: Fingerprint) -> str | None:
    """The repository path (file or directory, no trailing slash) the memory is about.

    An explicit ``subject`` wins when it names exactly one path or module (``billing``,
    ``app.billing``, ``app/billing.py``, "billing service"). Otherwise the text decides: a
    path named as the thing doing something ("the billing service uses httpx",
    "auth/jwt.py checks tokens", "... is read in auth/jwt.py"), provided every other
    subject names that same path or continues it with a pronoun. A statement about "we"
    or about anything else means no scope: a wrong scope refutes true memories.
    """
    if subject is not None and subject.strip():
        resolved = resolve_name(subject, fp)
        if resolved is not None and _can_scope(resolved, fp):
            return resolved
    found: set[str] = set()
    for start, end, _question in sentence_spans(text):
        pieces = _PIECES.split(text[start:end])
        kinds = [_piece_subject(piece, fp, i == 0) for i, piece in enumerate(pieces)]
        named_in = any(_IN_PATH.search(piece) for piece in pieces)
        for kind, path in kinds:
            # "In app/billing.py, we use httpx": the place outranks the "we".
            if kind == "other" or (kind == "we" and not named_in):
                return None
            if path is not None:
                found.add(path)
    scope = found.pop() if len(found) == 1 else None
    return scope if scope is not None and _can_scope(scope, fp) else None


def _can_scope(path: str, fp: Fingerprint) -> bool:
    """Imports can be claimed for a Python file or a directory, not for pyproject.toml."""
    return path.endswith(".py") or fp.has_directory(path)


def apply_scope(
    anchors: Iterable[Anchor], scope: str | None, fp: Fingerprint
) -> tuple[Anchor, ...]:
    """Scope every unscoped ``import`` anchor to ``scope`` (a path in ``fp``).

    Used for explicit anchors when the caller names a subject: "uses sqlite3" about the
    billing module is a claim about that module, not about the repository. Other kinds are
    returned unchanged (dependencies and env names are repository-wide facts), and so is
    everything when ``scope`` is None or not a path in ``fp``.
    """
    anchors = tuple(anchors)
    if scope is None or not (fp.has_path(scope) or fp.has_directory(scope)):
        return anchors
    return tuple(
        dataclasses.replace(a, scope=scope)
        if a.kind is AnchorKind.IMPORT and a.scope is None
        else a
        for a in anchors
    )


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


Outcome = list[Anchor] | tuple[DropReason, str]
Pref = Literal["dep", "import"] | None
_STDLIB = frozenset(sys.stdlib_module_names)
_IMPORT_TO_DIST = {imp.lower(): dist for dist, imp in DIST_TO_IMPORT.items()}
_IDENTS = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", re.ASCII)
# A real file name: a stem and an extension files have (not "v1.2", not "e.g").
_FILE_NAME = re.compile(
    r"[\w-]\.(?:py|pyi|toml|cfg|ini|txt|md|rst|json|ya?ml|lock|sql|sh|js|ts|tsx|jsx|html|css|"
    r"conf|env|example|in|j2|jinja|tf|typed)$"
)
# Without a directory, only extensions prose never ends a word with ("Node.js" is no file).
_BARE_FILE = re.compile(r"[\w-]\.(?:py|pyi|toml|cfg|ini|md|rst|txt|json|ya?ml|lock|sql|sh|typed)$")


def _top_of_path(path: str) -> str:
    first = path.removeprefix("src/").split("/", 1)[0]
    return first.removesuffix(".py")


class CodeNames:
    """What a name from prose denotes in one fingerprint, with ``scope`` applied.

    Each method returns the anchors a candidate stands for, or a (reason, detail) drop.
    Bare words are matched only against third-party imports and declared dependencies:
    a word naming one of the repository's own modules is a subject, not an import.
    """

    def __init__(self, fp: Fingerprint, scope: str | None) -> None:
        self.fp, self.scope = fp, scope
        self.exact: set[str] = set()
        self.modules: set[str] = set()
        for facts in fp.python.values():
            for imp in facts.imports:
                if imp.module.startswith("."):
                    continue  # an unresolved relative import names nothing outside
                self.exact.add(imp.module)
                parts = imp.module.split(".")
                self.modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        self.first_party = {_top_of_path(p) for p in fp.python}
        self.by_last: dict[str, set[str]] = {}
        for module in self.modules:
            if module.split(".")[0] not in self.first_party:
                self.by_last.setdefault(module.rsplit(".", 1)[-1].lower(), set()).add(module)
        self.deps = fp.dependency_names()

    def _in_scope(self, path: str) -> bool:
        return self.scope is None or path == self.scope or path.startswith(self.scope + "/")

    def _import(self, module: str, expect: Expect = Expect.PRESENT) -> Anchor:
        return Anchor(AnchorKind.IMPORT, module, expect, scope=self.scope)

    def known(self, word: str) -> bool:
        """Whether ``word`` names some module or distribution (worth reporting a drop)."""
        w = word.lower()
        return (w in self.by_last or w in self.first_party or w in _STDLIB
                or normalize_dist_name(w) in self.deps)  # fmt: skip

    def _import_for(self, w: str) -> tuple[str, bool] | tuple[DropReason, str] | None:
        """(module, named directly) for a word: a top-level import, the last component of
        exactly one imported module ("fastmcp" -> mcp.server.fastmcp), or the import name of
        a distribution ("pyyaml" -> yaml, not named directly)."""
        hits = self.by_last.get(w, set())
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
        mapped = DIST_TO_IMPORT.get(normalize_dist_name(w))
        return (mapped, False) if mapped and mapped in self.modules else None

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
        return (w in COMMON_WORDS or is_ordinary_word(w)
                or (w.endswith("s") and w[:-1] in COMMON_WORDS))  # fmt: skip

    def own_package(self, tech: Technology) -> bool:
        """Whether ``tech`` is this repository's own package (flask, in flask's repo)."""
        return any(m.split(".")[0] in self.first_party for m in tech.imports)

    def technology(self, tech: Technology, word: str, absent: bool, pref: Pref) -> Outcome:
        """A named technology (``anchors.vocabulary``), anchored whether or not the code has
        it: absence is evidence. With a code scope, a package is claimed as an import there
        (the present-trap); a cue picks the dependency or the import; otherwise the claim is
        that the project uses it (``tech:``)."""
        expect = Expect.ABSENT if absent else Expect.PRESENT
        w = word.lower()
        if self.is_stdlib(w) and pref != "dep":
            return [self._import(w, expect)]  # "sqlite3": exactly that module
        if self.is_stdlib(w):
            return DropReason.STDLIB_NOT_DEPENDENCY, f"{w!r} is in the standard library"
        imported = [m for m in tech.imports if m in self.modules]
        elsewhere = None
        if not imported:  # "fastmcp" the repository imports as mcp.server.fastmcp
            found = self._import_for(w.replace("-", "_"))
            if found is not None and not isinstance(found[0], DropReason) and found[1]:
                imported = [elsewhere := str(found[0])]
        module = imported[0] if imported else (tech.imports[0] if tech.imports else None)
        if module is not None and not _IDENTS.fullmatch(module):
            module = None
        if pref == "dep" and tech.dists:
            named = [d for d in tech.dists if d == normalize_dist_name(w) or d in self.deps]
            return [Anchor(AnchorKind.DEP, (named or list(tech.dists))[0], expect)]
        dist = normalize_dist_name(w)
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
            if module is not None and not loose:
                return [self._import(module, expect)]
            return [Anchor(AnchorKind.TECH, tech.name, expect, scope=directory)]
        return [Anchor(AnchorKind.TECH, tech.name, expect)]

    def word(self, word: str, pref: Pref) -> Outcome:
        """A bare package-like word in a plain statement ("we use duckdb")."""
        w = word.lower()
        if pref == "dep" and w.split(".")[0] in _STDLIB:
            return DropReason.STDLIB_NOT_DEPENDENCY, f"{w!r} is in the standard library"
        if self._common(w):
            # Only as the module is written (lower case): "JSON", "Secrets", "Decimal" in
            # prose are a format, a noun, a class, not `import json`/`secrets`/`decimal`.
            if word == w and w in self.exact and w not in self.first_party:
                return [self._import(w)]
            return DropReason.COMMON_WORD, f"{w!r} is a common word; no file does `import {w}`"
        if w in self.first_party:
            return DropReason.UNRESOLVED, f"{word!r} is a module of this repository"
        found = self._import_for(w)
        if found is not None and isinstance(found[0], DropReason):
            return DropReason.AMBIGUOUS, str(found[1])
        module, direct = found if found is not None else (None, False)
        dep = None if w in _STDLIB else self._dep_for(w)
        imp = [self._import(str(module))] if module else []
        deps = [Anchor(AnchorKind.DEP, dep)] if dep else []
        if pref == "dep":
            choice = deps or imp
        elif pref == "import" or direct:
            choice = imp or deps
        else:
            choice = deps or imp  # the text names the distribution ("pyyaml", "beautifulsoup4")
        return choice or (DropReason.UNRESOLVED, f"no file imports {word!r}, no dependency is it")

    def absent_word(self, word: str, pref: Pref) -> Outcome:
        """A negated package-like word: kept even if the code never mentions it."""
        w = word.lower()
        if self._common(w):
            return DropReason.COMMON_WORD, f"{w!r} is a common word, not clearly a package"
        if w in self.first_party or not re.fullmatch(r"[a-z][a-z0-9._-]*", w):
            return DropReason.UNRESOLVED, f"{word!r} does not look like a package name"
        found = self._import_for(w)
        if found is not None and isinstance(found[0], DropReason):
            return DropReason.AMBIGUOUS, str(found[1])
        module = str(found[0]) if found else None
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
        if claimed and where and not local and self.scope and self.fp.has_path(self.scope):
            return [Anchor(AnchorKind.SYMBOL, qual, expect, scope=self.scope)]
        if self.scope is not None and len(local) == 1:
            where = local
        if len(where) == 1:
            return [Anchor(AnchorKind.SYMBOL, qual, expect, scope=where[0])]
        if where and self.scope is not None and not local:
            return DropReason.NOT_IN_SCOPE, f"{qual} is defined in {len(where)} files, not in scope"
        if where:
            return DropReason.AMBIGUOUS, f"{qual} is defined in {len(where)} files"
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
        prefixes = [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
        module = next((m for m in prefixes if m in self.modules), None)
        if loose and module and parts[0] not in self.first_party and not isinstance(found, list):
            return [self._import(module)]  # "yaml.safe_load", "os.environ": that module is used
        return found

    def absent_dotted(self, name: str, removal: bool) -> Outcome:
        """A negated dotted name. Only removal ("X was removed") negates a definition or a
        file: "we no longer call Store.open" does not delete it."""
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
        if absent or claimed or name in self.fp.env_names():
            return [Anchor(AnchorKind.ENV, name, Expect.ABSENT if absent else Expect.PRESENT)]
        return DropReason.UNRESOLVED, f"no code reads {name} and .env.example lacks it"

    # -- names the code lacks: absence is evidence ------------------------------------
    def is_ordinary(self, word: str) -> bool:
        return self._common(word)

    def defined_in_scope(self, qual: str) -> bool:
        return self.scope is not None and self.fp.definition(self.scope, qual) is not None

    def is_stdlib(self, word: str) -> bool:
        return word in _STDLIB and not word.startswith("_")

    def module_claim(self, module: str) -> Anchor:
        return self._import(module)

    def import_claim(self, module: str, absent: bool) -> Anchor:
        """The text says a module is imported ("imports pallets_sphinx_themes")."""
        return self._import(module, Expect.ABSENT if absent else Expect.PRESENT)

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
            target = self._reexported(path, parts[i])
            if target is False:
                return DropReason.UNRESOLVED, f"{path} imports {parts[i]} from outside"
            return [Anchor(AnchorKind.SYMBOL, member, scope=target or path)]
        owners = [p for p, _ in self.fp.definitions(parts[0])]
        if len(parts) > 1 and len(owners) == 1:
            return [Anchor(AnchorKind.SYMBOL, name, scope=owners[0])]  # Progress.remove_all
        return self.dotted(name)

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

    def missing_in_scope(self, name: str, found: Outcome) -> Outcome:
        """A code name defined nowhere, in a note about one Python file: the claim is that
        the file has it, so the anchor is placed there (and breaks)."""
        if (isinstance(found, tuple) and found[0] is DropReason.UNRESOLVED and self.scope
                and self.scope.endswith(".py") and self.fp.has_path(self.scope)):  # fmt: skip
            return [Anchor(AnchorKind.SYMBOL, name, scope=self.scope)]
        return found
