"""Named technologies (Python packages, systems, npm, Go and crate packages) and ordinary
English words.

The data are generated files in ``anchors/data/`` (``scripts/refresh_vocabulary.py`` writes
them): ``technologies.tsv`` (curated systems such as Pulumi, Datadog or PostgreSQL, and the
most downloaded Python distributions) and ``english.txt`` (the ordinary English words).
They are read once, on first use, and kept; this module needs nothing but the standard
library.

A technology also lists its packages in other ecosystems (``Technology.packages``:
``npm:vue``, ``go:github.com/gin-gonic/gin``, ``cargo:tokio``; ``for_package`` finds it from
one). One known only from those ecosystems (Vue, Gin, Tokio) is a system without PyPI
distributions or imports: its ``dists`` and ``imports`` are always Python's, so an npm
package is never taken for the PyPI distribution of the same name.

A system is either one that must leave a footprint in the code that uses it (a datastore,
a queue, an SDK's service: absent from the repository, a claim of use is refuted) or one
people use beside the code (an issue tracker, a wiki, paging, chat, a hosting console):
``Technology.beside``, the data's ``use`` column; the repository need not name those. A
data structure the code is said to be built on (a radix tree, a Bloom filter) is a system
whose mentions count in comments too (``use`` ``described``, ``described_tokens``): code that
has one names it, if only in a comment.

A technology name found in prose can be an ordinary word too ("click", "rich", "falcon",
"vault"): ``lookup`` says so (``common``), and the caller then takes it as the technology
only in a technology context. Technologies take precedence over the English list: "django"
and "python" are in both.
"""

from __future__ import annotations

import gc
import hashlib
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from pathlib import Path

__all__ = [
    "DATA_DIR",
    "VOCABULARY_VERSION",
    "TechKind",
    "Technology",
    "Vocabulary",
    "alias_key",
    "alias_keys",
    "all_technologies",
    "by_name",
    "english",
    "for_import",
    "for_package",
    "is_ordinary_word",
    "load",
    "lookup",
    "lookup_several",
    "lookup_word",
    "mention_tokens",
    "normalize_dist",
    "several_word_starts",
    "technologies_for_token",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
_SEP = "|"
_SEPARATORS = re.compile(r"[-_.]+")


class TechKind(StrEnum):
    PACKAGE = "package"
    SYSTEM = "system"


@dataclass(frozen=True, slots=True)
class Technology:
    name: str  # canonical lower-case id, e.g. "celery", "pulumi", "hashicorp-vault"
    display: str  # "Celery", "Pulumi", "HashiCorp Vault"
    kind: TechKind
    dists: tuple[str, ...]  # PEP 503 names of the Python distributions that are (SDKs of) it
    imports: tuple[str, ...]  # import names (dotted allowed) of those distributions
    aliases: tuple[str, ...]  # lower-case prose names, words joined by one space
    footprints: tuple[str, ...]  # path globs (from the repository root) that mean it is used
    mention_tokens: tuple[str, ...]  # distinctive lower-case tokens to search text for
    rank: int | None  # download rank (the best of its distributions' for a system)
    common_aliases: tuple[str, ...] = ()  # the aliases that are also common English words
    # Used by people beside the code (a tracker, a wiki, chat, a hosting console): the
    # repository need not name it, so its absence refutes nothing.
    beside: bool = False
    # A data structure the code is built on (a radix tree): named in comments too, and
    # never shown used by a mention (``use`` ``described``).
    described: bool = False
    # Its packages in other ecosystems: "npm:NAME", "go:MODULE/PATH" (no "/vN" suffix),
    # "cargo:CRATE" (as published).
    packages: tuple[str, ...] = ()


def normalize_dist(name: str) -> str:
    """PEP 503 normalised distribution name ("PyYAML" -> "pyyaml", "a_b.c" -> "a-b-c")."""
    return _SEPARATORS.sub("-", name).lower()


def _norm(word: str) -> str:
    """``normalize_dist`` with a fast path for words without separators."""
    if "-" in word or "_" in word or "." in word:
        return _SEPARATORS.sub("-", word).lower()
    return word.lower()


def _package_key(ecosystem: str, name: str) -> tuple[str, str]:
    """How the package index compares names: lower case; a crate's "_" as "-"."""
    name = name.strip().lower()
    return ecosystem, name.replace("_", "-") if ecosystem == "cargo" else name


def _split(column: str) -> tuple[str, ...]:
    return tuple(column.split(_SEP)) if column else ()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Building the indexes allocates many small objects that all live on: a collection
    halfway through would only waste time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _dists_column(row: list[str]) -> str:
    """A package row leaves its dists empty when they are just its name."""
    return row[4] or (row[0] if row[2] == "package" else "")


_Multi = tuple[tuple[str, ...], int, bool]


class Vocabulary:
    """The technologies and English words of one data directory. Each index is built on
    first use: a caller that only asks ``is_ordinary_word`` never parses the technologies."""

    def __init__(self, data_dir: Path = DATA_DIR) -> None:
        self.data_dir = data_dir

    @cached_property
    def version(self) -> str:
        """A short hash of the data files."""
        digest = hashlib.sha256((self.data_dir / "technologies.tsv").read_bytes())
        digest.update(b"\0")
        digest.update((self.data_dir / "english.txt").read_bytes())
        return digest.hexdigest()[:12]

    @cached_property
    def english(self) -> frozenset[str]:
        with _gc_paused():
            return frozenset((self.data_dir / "english.txt").read_text("utf-8").split())

    @cached_property
    def _lines(self) -> list[str]:
        """The technologies' rows, by precedence (for when two claim one alias, import or
        token): systems by name, then packages by download rank, as the file lists them.
        Kept as lines (a row is split when its technology or an index is made): the split
        rows would hold three times the memory for the life of the process."""
        text = (self.data_dir / "technologies.tsv").read_text("utf-8")
        return [line for line in text.splitlines() if line and line[0] != "#"]

    def _rows(self) -> Iterator[list[str]]:
        for line in self._lines:
            yield line.split("\t")

    @cached_property
    def _techs(self) -> list[Technology | None]:
        return [None] * len(self._lines)

    @cached_property
    def _names(self) -> dict[str, int]:
        names: dict[str, int] = {}
        with _gc_paused():
            for i, row in enumerate(self._rows()):
                names.setdefault(row[0], i)
                for dist in _split(_dists_column(row)):
                    names.setdefault(dist, i)
        return names

    @cached_property
    def _imports(self) -> tuple[dict[str, int], dict[str, int]]:
        exact: dict[str, int] = {}
        lower: dict[str, int] = {}
        with _gc_paused():
            for i, row in enumerate(self._rows()):
                for module in _split(row[5]):
                    exact.setdefault(module, i)
                    lower.setdefault(module.lower(), i)
        return exact, lower

    @cached_property
    def _packages(self) -> dict[tuple[str, str], int]:
        index: dict[tuple[str, str], int] = {}
        with _gc_paused():
            for i, row in enumerate(self._rows()):
                if len(row) > 11 and row[11]:
                    for entry in row[11].split(_SEP):
                        ecosystem, _, name = entry.partition(":")
                        index.setdefault(_package_key(ecosystem, name), i)
        return index

    @cached_property
    def _tokens(self) -> dict[str, tuple[int, ...]]:
        tokens: dict[str, list[int]] = {}
        with _gc_paused():
            for i, row in enumerate(self._rows()):
                if row[9]:
                    for token in row[9].split(_SEP):
                        tokens.setdefault(token, []).append(i)
            return {token: tuple(rows) for token, rows in tokens.items()}

    @cached_property
    def _aliases(self) -> tuple[dict[str, tuple[int, bool]], dict[str, list[_Multi]]]:
        """One-word aliases (normalised) -> (row, common); and the first word of each
        several-word alias -> (its other words, row, common), longest first."""
        single: dict[str, tuple[int, bool]] = {}
        multi: dict[str, list[_Multi]] = {}
        lines = self._lines
        with _gc_paused():
            # Backwards, so that an earlier row (higher precedence) overwrites a later one.
            for i in range(len(lines) - 1, -1, -1):
                row = lines[i].split("\t")
                dists = _dists_column(row)
                keys = dists.split(_SEP) if dists else []  # already normalised
                if row[5]:
                    imports = row[5].lower().replace("_", "-").replace(".", "-")
                    if "--" in imports:
                        imports = _SEP.join(_norm(m) for m in row[5].split(_SEP))
                    keys += imports.split(_SEP)
                commons = {_norm(c) for c in row[7].split(_SEP)} if row[7] else set()
                for alias in row[6].split(_SEP) if row[6] else ():
                    if " " in alias:
                        first, *rest = (_norm(w) for w in alias.split(" "))
                        multi.setdefault(first, []).append(
                            (tuple(rest), i, alias in row[7].split(_SEP))
                        )
                    else:
                        keys.append(_norm(alias))
                for key in keys:
                    single[key] = (i, key in commons)
            for entries in multi.values():
                entries.sort(key=lambda e: (-len(e[0]), e[1]))
        return single, multi

    @cached_property
    def _token_set(self) -> frozenset[str]:
        return frozenset(self._tokens)

    @cached_property
    def described_tokens(self) -> frozenset[str]:
        """The mention tokens of the data structures (``use`` ``described``)."""
        return frozenset(t for row in self._rows() if len(row) > 10 and row[10] == "described"
                         for t in _split(row[9]))  # fmt: skip

    def technology(self, i: int) -> Technology:
        tech = self._techs[i]
        if tech is None:
            row = self._lines[i].split("\t")
            name, display, kind, rank, _, imports_col, more, common, feet, tokens = row[:10]
            dists = _split(_dists_column(row))
            imports = _split(imports_col)
            aliases = dict.fromkeys((*_split(more), *dists, *(m.lower() for m in imports)))
            tech = Technology(
                name=name,
                display=display or name,
                kind=TechKind(kind),
                dists=dists,
                imports=imports,
                aliases=tuple(aliases),
                footprints=_split(feet),
                mention_tokens=_split(tokens),
                rank=int(rank) if rank else None,
                common_aliases=_split(common),
                beside=len(row) > 10 and row[10] == "beside",
                described=len(row) > 10 and row[10] == "described",
                packages=_split(row[11]) if len(row) > 11 else (),
            )
            self._techs[i] = tech
        return tech

    def technologies(self) -> tuple[Technology, ...]:
        """Every technology, in file order (systems, then packages, each sorted by name)."""
        return tuple(self.technology(i) for i in range(len(self._lines)))

    def package_words(self) -> frozenset[str]:
        """The one-word distribution names and common aliases of the packages, longer than
        two letters: names that are also ordinary words ("black", "falcon", "mock")."""
        with _gc_paused():
            return frozenset(
                name for row in self._rows() if row[2] == TechKind.PACKAGE
                for name in (*_split(_dists_column(row)), *_split(row[7]))
                if " " not in name and len(name) > 2
            )  # fmt: skip

    def lookup(self, words: Sequence[str], start: int = 0) -> tuple[Technology, int, bool] | None:
        if start >= len(words):
            return None
        single, multi = self._aliases
        first = _norm(words[start])
        for rest, i, common in multi.get(first, ()):
            n = len(rest)
            if start + n < len(words) and all(
                _norm(words[start + 1 + k]) == rest[k] for k in range(n)
            ):
                return self.technology(i), n + 1, common
        found = single.get(first)
        if found is None:
            return None
        return self.technology(found[0]), 1, found[1]

    def lookup_word(self, word: str) -> tuple[Technology, int, bool] | None:
        """``lookup([word])``: one word matches only one-word aliases."""
        found = self._aliases[0].get(_norm(word))
        return None if found is None else (self.technology(found[0]), 1, found[1])

    def lookup_several(
        self, words: Sequence[str], start: int = 0
    ) -> tuple[Technology, int, bool] | None:
        """``lookup``'s answer when it spans two words or more, else None: only the
        several-word aliases are tried (most words begin none)."""
        if start >= len(words):
            return None
        entries = self._aliases[1].get(_norm(words[start]))
        if not entries:
            return None
        for rest, i, common in entries:
            n = len(rest)
            if start + n < len(words) and all(
                _norm(words[start + 1 + k]) == rest[k] for k in range(n)
            ):
                return self.technology(i), n + 1, common
        return None

    @cached_property
    def several_word_starts(self) -> frozenset[str]:
        """The first word of every several-word alias, as ``alias_key`` spells it."""
        return frozenset(self._aliases[1])

    def by_name(self, name: str) -> Technology | None:
        i = self._names.get(_norm(name))
        return None if i is None else self.technology(i)

    def for_import(self, module: str) -> Technology | None:
        parts = module.strip().split(".")
        for end in range(len(parts), 0, -1):
            dotted = ".".join(parts[:end])
            i = self._imports[0].get(dotted)
            if i is None:
                i = self._imports[1].get(dotted.lower())
            if i is not None:
                return self.technology(i)
        return None

    def for_package(self, ecosystem: str, name: str) -> Technology | None:
        ecosystem = ecosystem.lower()
        key = _package_key(ecosystem, name)[1]
        if ecosystem == "cargo":  # a crate, or a path in it: "serde_json::Value"
            i = self._packages.get((ecosystem, key.split("::")[0]))
            return None if i is None else self.technology(i)
        while key:  # "lodash/fp", "github.com/redis/go-redis/v9": the longest known prefix
            i = self._packages.get((ecosystem, key))
            if i is not None:
                return self.technology(i)
            key = key.rpartition("/")[0]
        return None

    def is_ordinary_word(self, word: str) -> bool:
        return word.lower() in self.english

    def mention_tokens(self) -> frozenset[str]:
        return self._token_set

    def technologies_for_token(self, token: str) -> tuple[Technology, ...]:
        return tuple(self.technology(i) for i in self._tokens.get(token.lower(), ()))


@cache
def load(data_dir: Path = DATA_DIR) -> Vocabulary:
    """The vocabulary of ``data_dir`` (the shipped data by default), read once."""
    return Vocabulary(data_dir)


def lookup(words: Sequence[str], start: int = 0) -> tuple[Technology, int, bool] | None:
    """The longest alias matching ``words[start:]`` (each word compared lower-case, with PEP
    503 equivalence, so 'PyYAML', 'pyyaml', 'tortoise-orm', 'tortoise_orm' match; words are
    taken as given, punctuation included): the technology, how many words it spans, and
    whether that alias is a common English word."""
    return load().lookup(words, start)


def lookup_word(word: str) -> tuple[Technology, int, bool] | None:
    """``lookup([word])``, without the several-word aliases no single word can match."""
    return load().lookup_word(word)


def lookup_several(words: Sequence[str], start: int = 0) -> tuple[Technology, int, bool] | None:
    """``lookup``'s answer when the alias spans two words or more ("HashiCorp Vault"), else
    None (a one-word alias, or none)."""
    return load().lookup_several(words, start)


def several_word_starts() -> frozenset[str]:
    """The first words of the several-word aliases (``alias_key`` of each): a word not
    among them starts no ``lookup_several`` hit."""
    return load().several_word_starts


def alias_key(word: str) -> str:
    """A word as aliases are compared: lower case, runs of ``-_.`` as one ``-``."""
    return _norm(word)


def alias_keys(words: Sequence[str]) -> list[str]:
    """``alias_key`` of each word (``_norm`` written out: one call for a text's words)."""
    return [_SEPARATORS.sub("-", w).lower() if "-" in w or "_" in w or "." in w else w.lower()
            for w in words]  # fmt: skip


def by_name(name: str) -> Technology | None:
    """The technology whose canonical name or distribution name is ``name``."""
    return load().by_name(name)


def for_import(module: str) -> Technology | None:
    """The technology of an import name, top-level or dotted ("yaml", "google.cloud.storage",
    "sklearn.linear_model": the longest known prefix wins)."""
    return load().for_import(module)


def for_package(ecosystem: str, name: str) -> Technology | None:
    """The technology of a package of ``ecosystem`` ("npm", "go" or "cargo"; PyPI's are
    ``by_name`` and ``for_import``): an npm name or a path in the package ("lodash/fp"), a
    Go module or package path ("github.com/redis/go-redis/v9"), a crate name ("-" and "_"
    alike) or a path in it ("serde_json::Value")."""
    return load().for_package(ecosystem, name)


def english() -> frozenset[str]:
    """The ordinary English words (lower case): ``is_ordinary_word`` asks this set."""
    return load().english


def is_ordinary_word(word: str) -> bool:
    """Whether ``word`` (lower-cased) is in the generated English word list."""
    return load().is_ordinary_word(word)


def mention_tokens() -> frozenset[str]:
    """Every mention token of every technology."""
    return load().mention_tokens()


def all_technologies() -> tuple[Technology, ...]:
    """Every technology of the vocabulary, systems first."""
    return load().technologies()


def technologies_for_token(token: str) -> tuple[Technology, ...]:
    """The technologies that list ``token`` (lower-cased) as a mention token, systems first."""
    return load().technologies_for_token(token)


VOCABULARY_VERSION: str  # a short hash of the data files, for cache keys (read lazily)


def __getattr__(name: str) -> str:
    if name == "VOCABULARY_VERSION":
        return load().version
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
