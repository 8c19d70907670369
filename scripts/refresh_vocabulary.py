#!/usr/bin/env python3
"""Regenerate the technology vocabulary and the English word list (``anchors/data/``).

Usage::

    python scripts/refresh_vocabulary.py RANKS [--top 8000] [--out anchors/data]
                                         [--frequencies FILE] [--npm FILE]

``RANKS`` lists Python distributions by download popularity, in one of two formats:

* a tab-separated file whose header names a ``name`` column and a rank column
  (``rank`` or ``rank_among_15000_most_downloaded``; 1 is the most downloaded); rows with
  an empty rank are ignored; other columns (version, month, summary...) are ignored;
* the public "top packages" JSON (download counts of the last 30 days):
  ``{"rows": [{"project": ..., "download_count": ...}]}`` (rank = position when sorted by
  download count, highest first).

``--npm FILE`` lists npm packages with their downloads of a month (a tab-separated file
whose header names a ``name`` and a ``downloads_a_month`` column, a ``summary`` column
optional): the most downloaded of them join the curated npm, Go and crate technologies
(``vocabulary_ecosystems.py``); without it only the curated ones are written. Both lists
are read from files, so a refresh runs offline: the shipped data come from the PyPI and
npm package lists of one day, in the formats above, with the English frequencies of
``wordfreq`` 3.1.1.

English word frequencies come from the ``wordfreq`` package (a refresh-time tool, never a
runtime dependency of anchormem). ``--frequencies FILE`` replaces it with a tab-separated
``word<TAB>zipf`` file: words missing from it count as frequency 0 (tests use this mode).

It writes two sorted, deterministic files:

* ``technologies.tsv``: one technology a line (the curated systems by name, then the
  packages by rank: the loader's order of precedence when two claim one alias), tab-
  separated columns ``name display kind rank dists imports aliases common_aliases
  footprints mention_tokens use packages``; list columns join their items with ``|``
  (empty: none); ``use`` is ``beside`` for a system people use beside the code
  (``BESIDE_THE_CODE``), ``described`` for a data structure code names in its comments
  (``DESCRIBED``), else empty; ``packages`` are the technology's npm, Go and crate
  packages (``npm:vue``, ``go:github.com/gin-gonic/gin``, ``cargo:tokio``). A technology
  known only from those ecosystems is a ``system`` row with no dists or imports (those are
  PyPI's);
* ``english.txt``: the ordinary English words, one a line, sorted.

Curated knowledge lives in the modules beside this script: the systems in
``vocabulary_systems.py``, import-name exceptions, prose aliases and display names of
packages in ``vocabulary_packages.py``, the npm, Go and crate technologies in
``vocabulary_ecosystems.py``. Edit it there, re-run the script, commit the data.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the curated tables beside it
from vocabulary_ecosystems import (
    ATTACHED,
    DISPLACED_DISTS,
    ECOSYSTEM_TECHS,
    NPM_MAX_WORD_ZIPF,
    ORDINARY_ALIASES,
    npm_popular,
)
from vocabulary_packages import IMPORT_EXCEPTIONS as IMPORT_EXCEPTIONS  # (tests read it here)
from vocabulary_packages import PACKAGE_ALIASES, PACKAGE_DISPLAY, import_names, normalize_dist
from vocabulary_systems import BESIDE_THE_CODE, DESCRIBED, SYSTEMS

# Zipf frequency (log10 of occurrences per billion words) at or above which a word is an
# ordinary English word (the generated english.txt): includes "unverified" (2.7),
# "middleware" (2.6), "namespace" (2.5).
ENGLISH_THRESHOLD = 2.5
# Zipf frequency at or above which an alias is a *common* word: it names the technology in
# prose only in a technology context. celery 3.3, django 3.1, sentry 3.1, git 3.4 stay
# below; handler 3.5, stripe 3.5, falcon 3.7, python 3.8, mock 3.9, click 4.8 are above.
COMMON_THRESHOLD = 3.5

SEP = "|"
_WORD = re.compile(r"[a-z]{2,}\Z")
_LETTERS_AND_SPACES = re.compile(r"[a-z]+( [a-z]+)*\Z")

# Format, protocol and generic programming words that name packages (yaml, json...) but in
# prose mean the format: always common, never a mention token.
GENERIC_TECH_WORDS = frozenset(
    str.split(
        """
    yaml json toml xml html csv http https markdown regex sql jwt ssh ftp sftp smtp dns ldap
    grpc graphql websocket websockets oauth oauthlib async asyncio decorator cli api rest
    orm cache mock test tests lint typing types docs ini cron utc unicode
    """
    )
)
# Between ENGLISH_THRESHOLD and COMMON_THRESHOLD a word is ordinary English unless it names
# a famous technology: a curated system, or a package among the FAMOUS_RANK most downloaded
# (celery, django, pandas, flask, docker, git...; but "queries", "config", "ailment" name
# obscure packages and stay common words). These famous names are common words all the same:
ORDINARY_NAMES = frozenset(
    str.split(
        """
    cryptography referencing textual proto comm deprecated datasets installer invoke
    overrides inflection modal retry realtime schema boolean daemon parse watchdog axiom
    pendulum billiard weasel pathos agate graphene lark thrift patsy twine alabaster wasabi
    pox locket pooch material constructs prettier render renovate packer jest cypress sonar
    anaconda mamba caddy storybook timescale supervisor temporal railway rollup telegram
    discord bandit node linear notion shortcut quip miro dropbox
    """
    )
)
FAMOUS_RANK = 1000
# Aliases that wordfreq rates frequent but that in prose are (nearly) always the technology.
NOT_COMMON = frozenset({
    "google cloud", "google cloud platform", "amazon web services", "aws", "better stack",
    "google chat", "google doc", "google drive", "google sheets", "google slides", "g suite",
})


# ---------------------------------------------------------------- frequencies


Freq = Callable[[str], float]


def wordfreq_source() -> tuple[Freq, list[str]]:
    """wordfreq's English Zipf frequency and its English word list (most frequent first)."""
    try:
        from wordfreq import iter_wordlist, zipf_frequency
    except ImportError:
        sys.exit("refresh_vocabulary: wordfreq is not installed (pip install wordfreq), "
                 "or pass --frequencies FILE")

    def freq(text: str) -> float:
        return float(zipf_frequency(text, "en"))

    return freq, list(iter_wordlist("en"))


def file_source(path: Path) -> tuple[Freq, list[str]]:
    """Frequencies from a ``word<TAB>zipf`` file; phrases combine like wordfreq's (the
    reciprocal of the sum of reciprocal frequencies)."""
    table: dict[str, float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, zipf = line.split("\t")
            table[word.lower()] = float(zipf)

    def freq(text: str) -> float:
        words = re.findall(r"[a-z0-9']+", text.lower())
        if not words:
            return 0.0
        inverse = 0.0
        for word in words:
            zipf = table.get(word, 0.0)
            if zipf <= 0:
                return 0.0
            inverse += 1.0 / 10**zipf
        return round(math.log10(1.0 / inverse), 2)

    return freq, sorted(table, key=lambda w: (-table[w], w))


# ---------------------------------------------------------------- ranks


def read_ranks(path: Path) -> dict[str, int]:
    """Normalised dist name -> rank (1 = most downloaded)."""
    text = path.read_text(encoding="utf-8")
    ranks: dict[str, int] = {}
    if text.lstrip().startswith("{"):
        rows = json.loads(text)["rows"]
        ordered = sorted(rows, key=lambda r: (-int(r["download_count"]), r["project"]))
        for position, row in enumerate(ordered, start=1):
            ranks.setdefault(normalize_dist(row["project"]), position)
        return ranks
    lines = text.splitlines()
    header = lines[0].split("\t")
    name_col = header.index("name")
    rank_col = next(
        i for i, h in enumerate(header) if h in ("rank", "rank_among_15000_most_downloaded")
    )
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) > rank_col and cols[rank_col].strip():
            dist = normalize_dist(cols[name_col])
            rank = int(cols[rank_col])
            if dist not in ranks or rank < ranks[dist]:
                ranks[dist] = rank
    return ranks


# ---------------------------------------------------------------- build


@dataclass
class Row:
    name: str
    display: str
    kind: str
    rank: int | None
    dists: list[str]
    imports: list[str]
    aliases: list[str]
    common: list[str]
    footprints: list[str]
    tokens: list[str]
    use: str = ""  # "beside": used by people beside the code, absence refutes nothing;
    # "described": a data structure, whose mentions in comments count
    packages: list[str] = field(default_factory=list)  # "npm:vue", "go:...", "cargo:tokio"

    def line(self) -> str:
        """The file's line: columns that can be derived are left out (see ``HEADER``)."""
        derived = {*self.dists, *(i.lower() for i in self.imports)}
        cols = [
            self.name,
            "" if self.display == self.name else self.display,
            self.kind,
            "" if self.rank is None else str(self.rank),
            "" if self.dists == [self.name] and self.kind == "package" else SEP.join(self.dists),
            SEP.join(self.imports),
            SEP.join(a for a in self.aliases if a not in derived),
            *(SEP.join(v) for v in (self.common, self.footprints, self.tokens)),
            self.use,
            SEP.join(self.packages),
        ]
        for col in cols:
            if "\t" in col or "\n" in col:
                raise ValueError(f"tab or newline in {col!r}")
        return "\t".join(cols)


def _use(system: str) -> str:
    """The ``use`` column of a curated system."""
    return "beside" if system in BESIDE_THE_CODE else "described" if system in DESCRIBED else ""


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item:
            seen.setdefault(item, None)
    return list(seen)


def build(
    ranks: dict[str, int], top: int, freq: Freq, npm: list[tuple[str, int]] | None = None
) -> list[Row]:
    def is_common(alias: str, famous: bool) -> bool:
        """``famous``: a curated system or a package among the FAMOUS_RANK most downloaded,
        whose name in the English list's band below COMMON_THRESHOLD still names it."""
        if alias in GENERIC_TECH_WORDS or alias in ORDINARY_NAMES:
            return True
        if alias in NOT_COMMON or not _LETTERS_AND_SPACES.match(alias):
            return False  # digits, dots, hyphens: a distinctive spelling
        if len(alias) <= 2:
            return True  # "py", "fs", "uv": too short to name anything outside a context
        zipf = freq(alias)
        return zipf >= COMMON_THRESHOLD or (zipf >= ENGLISH_THRESHOLD and not famous)

    def keep_token(token: str, famous: bool) -> bool:
        return len(token) >= 2 and not is_common(token, famous)

    chosen = sorted((d for d in ranks if ranks[d] <= top and d not in DISPLACED_DISTS),
                    key=lambda d: (ranks[d], d))  # fmt: skip
    owner: dict[str, str] = {}  # dist -> system name
    for system in SYSTEMS:
        for dist in system.dists:
            if dist in owner:
                raise ValueError(f"{dist} claimed by {owner[dist]} and {system.name}")
            owner[dist] = system.name
    for system in SYSTEMS:  # names, aliases and prefixes claim what explicit lists left
        names = {normalize_dist(a) for a in (system.name, *system.aliases)}
        for dist in chosen:
            if dist not in owner and (
                dist in names
                or any(dist.startswith(p) for p in system.dist_prefixes)
                or any(normalize_dist(m) in names for m in import_names(dist))
            ):
                owner[dist] = system.name
    claimed: dict[str, list[str]] = {s.name: [] for s in SYSTEMS}
    for dist in chosen:
        if dist in owner:
            claimed[owner[dist]].append(dist)

    rows: list[Row] = []
    for system in SYSTEMS:
        dists = _unique([*system.dists, *claimed[system.name]])
        imports = _unique([*system.imports, *(i for d in dists for i in import_names(d))])
        aliases = _unique([a.lower() for a in system.aliases] + dists
                          + [i.lower() for i in imports])
        tokens = _unique(
            t.lstrip("!") for t in system.tokens if t.startswith("!") or keep_token(t, True)
        )
        rank_values = [ranks[d] for d in dists if d in ranks]
        rows.append(Row(
            system.name, system.display, "system", min(rank_values) if rank_values else None,
            dists, imports, aliases, [a for a in aliases if is_common(a, True)],
            list(system.footprints), tokens, _use(system.name),
        ))
    for dist in chosen:
        if dist in owner:
            continue
        imports = list(import_names(dist))
        aliases = _unique([dist, *(i.lower() for i in imports), *PACKAGE_ALIASES.get(dist, ())])
        famous = ranks[dist] <= FAMOUS_RANK
        tokens = _unique(
            t
            for t in [dist, *(i.lower() for i in imports)]
            if len(t) >= 3 and keep_token(t, famous)
        )
        rows.append(Row(
            dist, PACKAGE_DISPLAY.get(dist, dist), "package", ranks[dist], [dist], imports,
            aliases, [a for a in aliases if is_common(a, famous)], [], tokens,
        ))
    rows += _ecosystem_rows(rows, npm or [], is_common, keep_token, freq)
    packages = [p for r in rows for p in r.packages]
    if len(packages) != len(set(packages)):
        dupes = sorted({p for p in packages if packages.count(p) > 1})
        raise ValueError(f"packages of two technologies: {dupes}")
    row_names = [r.name for r in rows]
    if len(row_names) != len(set(row_names)):
        dupes = sorted({n for n in row_names if row_names.count(n) > 1})
        raise ValueError(f"duplicate technology names: {dupes}")
    return rows


def _phrase_key(alias: str) -> str:
    """An alias as lookups compare it: each word PEP 503 normalised."""
    return " ".join(normalize_dist(w) for w in alias.split(" "))


def _row_keys(row: Row) -> set[str]:
    return {_phrase_key(k) for k in (row.name, *row.dists, *row.imports, *row.aliases)}


def _ecosystem_rows(
    rows: list[Row],
    npm: list[tuple[str, int]],
    is_common: Callable[[str, bool], bool],
    keep_token: Callable[[str, bool], bool],
    freq: Freq,
) -> list[Row]:
    """Attach npm, Go and crate packages to the technologies ``rows`` has, and the rows of
    those it has not: the curated ones, then the popular npm packages. An alias another
    technology answers to stays that technology's (a PyPI name keeps its meaning)."""
    by_name = {r.name: r for r in rows}
    taken: set[str] = set().union(*(_row_keys(r) for r in rows))

    def common(alias: str) -> bool:
        return alias in ORDINARY_ALIASES or is_common(alias, True)

    for name, extra in ATTACHED.items():
        row = by_name.get(name)
        if row is None:
            continue  # a package row below the --top cut
        if row.kind == "package" and extra.footprints:
            raise ValueError(f"{name}: footprints belong to systems")
        row.packages = _unique([*row.packages, *extra.packages])
        new = [a for a in extra.aliases if _phrase_key(a) not in taken]
        row.aliases = _unique([*row.aliases, *new])
        row.common = _unique([*row.common, *(a for a in new if common(a))])
        row.footprints = _unique([*row.footprints, *extra.footprints])
        taken.update(_phrase_key(a) for a in new)
    listed = {p for r in rows for p in r.packages}
    added: list[Row] = []
    for tech in ECOSYSTEM_TECHS:
        if tech.name in by_name or tech.name != normalize_dist(tech.name):
            raise ValueError(f"{tech.name}: taken, or not a normalised name")
        aliases = [a for a in _unique([tech.name, *tech.aliases]) if _phrase_key(a) not in taken]
        tokens = _unique([
            *tech.tokens,
            *(a for a in aliases if " " not in a and len(a) >= 3 and not common(a)),
        ])
        added.append(Row(
            tech.name, tech.display, "system", None, [], [], aliases,
            [a for a in aliases if common(a)], list(tech.footprints), tokens,
            packages=list(tech.packages),
        ))
        taken.update(_phrase_key(a) for a in aliases)
        taken.add(tech.name)
        listed.update(tech.packages)
    for npm_name, _ in npm:
        name = normalize_dist(npm_name)
        if f"npm:{npm_name}" in listed or name in taken or freq(npm_name) >= ENGLISH_THRESHOLD:
            continue  # known already, another technology's name, or an ordinary word
        if is_common(npm_name, False) or (
            npm_name.isalpha() and freq(npm_name) >= NPM_MAX_WORD_ZIPF
        ):
            continue
        tokens = [npm_name] if len(npm_name) >= 3 and keep_token(npm_name, False) else []
        added.append(Row(name, npm_name, "system", None, [], [], [npm_name], [], [], tokens,
                         packages=[f"npm:{npm_name}"]))
        taken.update((name, npm_name))
    return added


def english_words(freq: Freq, words: Iterable[str]) -> list[str]:
    return sorted({w for w in words if _WORD.match(w) and freq(w) >= ENGLISH_THRESHOLD})


# Empty display: the name; empty dists of a package: its name; aliases: those listed, then
# the dists, then the lower-cased imports.
HEADER = ("# name\tdisplay\tkind\trank\tdists\timports\tmore_aliases\tcommon_aliases"
          "\tfootprints\tmention_tokens\tuse\tpackages")


def write(rows: list[Row], english: list[str], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    systems = sorted((r for r in rows if r.kind == "system"), key=lambda r: r.name)
    packages = sorted((r for r in rows if r.kind == "package"), key=lambda r: (r.rank, r.name))
    text = "\n".join([HEADER, *(r.line() for r in systems + packages)]) + "\n"
    (out / "technologies.tsv").write_text(text, encoding="utf-8", newline="\n")
    (out / "english.txt").write_text("\n".join(english) + "\n", encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ranks", type=Path, help="download ranks: TSV or top-packages JSON")
    parser.add_argument("--top", type=int, default=8000, help="how many top packages")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "anchors" / "data")
    parser.add_argument("--frequencies", type=Path,
                        help="word<TAB>zipf file to use instead of wordfreq")
    parser.add_argument("--npm", type=Path,
                        help="npm packages and their monthly downloads (TSV)")
    args = parser.parse_args(argv)
    freq, wordlist = file_source(args.frequencies) if args.frequencies else wordfreq_source()
    npm = npm_popular(args.npm) if args.npm else None
    rows = build(read_ranks(args.ranks), args.top, freq, npm)
    english = english_words(freq, wordlist)
    write(rows, english, args.out)
    packages = sum(r.kind == "package" for r in rows)
    ecosystem = sum(bool(r.packages) for r in rows)
    print(f"refresh_vocabulary: {packages} packages, {len(rows) - packages} systems "
          f"({ecosystem} with npm, Go or crate packages), "
          f"{sum(len(r.aliases) for r in rows)} aliases, {len(english)} English words "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
