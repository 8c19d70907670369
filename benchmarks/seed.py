"""A store seeded with N realistically varied memories, for the benchmarks that need one.

``seed_store(db_path, repo_root, n)`` writes ``n`` memories about the repository at
``repo_root`` into a new store at ``db_path``, in this process, through the memory service
(``MemoryService.remember``, conflict detection off, as a bulk import would be): different
subjects, kinds and sources; some with explicit anchors (``import:json@pkg/x.py``,
``file:pkg/x.py``, ``env:NAME``, ``dep:NAME``, ``symbol:PATH::Name``, ``!dep:NAME``), some
prose notes naming technologies (the service anchors what they name; some of those the
repository lacks, so they are refuted, as real notes sometimes are), some about things
outside the repository (``scope: external``).

The vocabulary is read from the repository itself (Python files and what they import and
define, environment variables read, ``pyproject.toml`` dependencies), so the notes fit any
Python project, the experiments' shopfront fixture included. ``notes`` and ``queries`` give
the same kind of notes and recall queries to the benchmarks that time remember and recall.

Seeding through ``remember`` is slow (tens of milliseconds a memory), so
``cached_store(n, repo_root)`` keeps each seeded store under
``~/.cache/anchormem/bench/<n>-<hash>.duckdb`` (``ANCHORMEM_BENCH_CACHE`` moves it), where
the hash covers the store schema (the catalog of a fresh store), this module's
``SEED_VERSION`` and the repository's HEAD commit: a new schema, new notes or another
repository seed again. Callers copy the cached file into a temporary directory before
serving it; the cache itself is only ever written whole (seeded in a temporary directory,
then renamed into place).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "SEED_VERSION",
    "Note",
    "Vocabulary",
    "cache_dir",
    "cached_store",
    "notes",
    "queries",
    "seed_store",
]

SEED_VERSION = 1
CACHE_ENV = "ANCHORMEM_BENCH_CACHE"

_ENV_READ = re.compile(r"""os\.(?:environ(?:\.get)?|getenv)[\[(]\s*["']([A-Z][A-Z0-9_]+)["']""")
_DEP_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
# Named in prose notes; some are in a typical project, some are not (those notes refute).
_TECHNOLOGIES = (
    "Redis", "PostgreSQL", "SQLAlchemy", "FastAPI", "Celery", "Kafka", "Docker", "httpx",
    "pydantic", "Jinja", "boto3", "structlog", "pytest", "Django", "Flask", "RabbitMQ",
    "Elasticsearch", "Nginx", "Sentry", "GraphQL",
)  # fmt: skip
_KINDS = ("fact", "decision", "convention", "incident", "preference", "episode", "context")
_SOURCES = ("agent", "agent", "agent", "user", "doc", "doc")  # code and ci: not a caller's
_REASONS = (
    "it was the only option with async support",
    "the old one leaked connections under load",
    "the team already knew it",
    "it halved the cold start",
    "the vendor dropped support for the alternative",
    "it keeps the tests fast",
    "reviewers asked for it",
    "it made the retries observable",
)
_DETAILS = (
    "keep it that way",
    "changes need a second reviewer",
    "see the runbook",
    "tests cover the edge cases",
    "it was moved there during the refactor",
    "do not add new callers",
    "it is called on every request",
    "the nightly job depends on it",
)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


@dataclass(frozen=True)
class Vocabulary:
    """What a repository offers notes to be about."""

    files: tuple[str, ...]  # Python files, relative, with at least one import
    imports: dict[str, tuple[str, ...]]  # file -> top-level modules it imports
    symbols: dict[str, tuple[str, ...]]  # file -> top-level classes and functions
    env_vars: tuple[str, ...]
    deps: tuple[str, ...]
    areas: tuple[str, ...]  # package directory names, e.g. "billing"

    @classmethod
    def of(cls, repo_root: Path) -> Vocabulary:
        files: list[str] = []
        imports: dict[str, tuple[str, ...]] = {}
        symbols: dict[str, tuple[str, ...]] = {}
        env: set[str] = set()
        areas: set[str] = set()
        for path in sorted(repo_root.rglob("*.py")):
            rel = path.relative_to(repo_root).as_posix()
            if rel.startswith(".") or "/." in rel:
                continue
            text = path.read_text(errors="replace")
            env.update(_ENV_READ.findall(text))
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            mods = sorted(
                {
                    name.split(".")[0]
                    for node in tree.body
                    for name in _imported(node)
                    if name and not name.startswith(".")
                }
            )
            defs = tuple(
                node.name
                for node in tree.body
                if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and not node.name.startswith("_")
            )
            if mods:
                files.append(rel)
                imports[rel] = tuple(mods)
                symbols[rel] = defs
                if "/" in rel:
                    areas.add(rel.rsplit("/", 1)[0].split("/")[-1])
        if not files:
            raise ValueError(f"{repo_root} has no Python file with imports to write notes about")
        return cls(
            tuple(files),
            imports,
            symbols,
            tuple(sorted(env)) or ("DATABASE_URL",),
            _dependencies(repo_root / "pyproject.toml") or ("requests",),
            tuple(sorted(areas)) or ("core",),
        )


def _imported(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []


def _dependencies(pyproject: Path) -> tuple[str, ...]:
    try:
        data = tomllib.loads(pyproject.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    names = []
    for spec in data.get("project", {}).get("dependencies", []):
        match = _DEP_NAME.match(str(spec))
        if match:
            names.append(match.group(1).lower())
    return tuple(names)


@dataclass(frozen=True)
class Note:
    """The arguments of one ``remember`` call."""

    text: str
    kind: str
    source: str
    subject: str | None = None
    anchors: tuple[str, ...] = ()
    scope: str | None = None

    def arguments(self) -> dict[str, Any]:
        """As MCP ``remember`` arguments (``None`` and empty values left out)."""
        args: dict[str, Any] = {"text": self.text, "kind": self.kind, "source": self.source}
        if self.subject:
            args["subject"] = self.subject
        if self.anchors:
            args["anchors"] = list(self.anchors)
        if self.scope:
            args["scope"] = self.scope
        return args


def _pick(items: tuple[str, ...], i: int, salt: int = 0) -> str:
    return items[(i * 2654435761 + salt * 40503) % len(items)]


def note(vocab: Vocabulary, i: int) -> Note:
    """The ``i``-th note: a deterministic mix of shapes, distinct for every ``i``."""
    path = _pick(vocab.files, i)
    area = path.rsplit("/", 1)[0].split("/")[-1] if "/" in path else "core"
    module = _pick(vocab.imports[path], i, 1)
    tech = _pick(_TECHNOLOGIES, i, 2)
    kind = _pick(_KINDS, i, 3)
    source = _pick(_SOURCES, i, 4)
    detail = _pick(_DETAILS, i, 5)
    ticket = f"SHOP-{1000 + i}"
    shape = i % 10
    if shape == 0:
        return Note(
            f"{area} talks to {module} in {path}; {detail} ({ticket})",
            kind,
            source,
            path,
            (f"import:{module}@{path}",),
        )
    if shape == 1:
        return Note(f"The {area} code lives in {path}: {detail} ({ticket})", kind, source, path,
                    (f"file:{path}",))  # fmt: skip
    if shape == 2:
        var = _pick(vocab.env_vars, i, 6)
        return Note(
            f"{var} configures {area}; set it in .env for local runs ({ticket})",
            "convention",
            source,
            area,
            (f"env:{var}",),
        )
    if shape == 3:
        dep = _pick(vocab.deps, i, 7)
        reason = _pick(_REASONS, i, 8)
        return Note(f"We depend on {dep} because {reason} ({ticket})", "decision", source,
                    None, (f"dep:{dep}",))  # fmt: skip
    if shape == 4 and vocab.symbols[path]:
        name = _pick(vocab.symbols[path], i, 9)
        return Note(
            f"{name} in {path} is where {area} starts; {detail} ({ticket})",
            kind,
            source,
            path,
            (f"symbol:{path}::{name}", f"file:{path}"),
        )
    if shape == 5:
        return Note(
            f"Incident {ticket}: the {area} worker stalled when {tech} was slow; "
            f"{_pick(_DETAILS, i, 10)}",
            "incident",
            source,
            area,
        )
    if shape == 6:
        return Note(
            f"The team prefers reviewing {area} changes on {_pick(_WEEKDAYS, i, 11)}s ({ticket})",
            "preference",
            "user",
            area,
            scope="external",
        )
    if shape == 7:
        return Note(
            f"We removed {tech.lower()} from {area} long ago; {detail} ({ticket})",
            kind,
            source,
            area,
            (f"!dep:{tech.lower()}",),
        )
    if shape == 8:
        reason = _pick(_REASONS, i, 12)
        return Note(f"{area} uses {tech} because {reason} ({ticket})", "decision", source, area)
    return Note(
        f"{area} imports {module} in {path} and {tech} handles the rest ({ticket})",
        kind,
        source,
        path,
    )


def notes(vocab: Vocabulary, start: int, count: int) -> Iterator[Note]:
    """Notes ``start`` .. ``start + count - 1`` (distinct from every other index)."""
    for i in range(start, start + count):
        yield note(vocab, i)


def queries(vocab: Vocabulary, count: int, seed: int = 0) -> list[str]:
    """``count`` recall queries drawn from the notes' vocabulary: an area with a module, a
    technology, an environment variable or a dependency, or a path."""
    out = []
    for i in range(seed, seed + count):
        path = _pick(vocab.files, i, 20)
        area = path.rsplit("/", 1)[0].split("/")[-1] if "/" in path else "core"
        shape = i % 5
        if shape == 0:
            out.append(f"{area} {_pick(vocab.imports[path], i, 21)}")
        elif shape == 1:
            out.append(f"{_pick(_TECHNOLOGIES, i, 22)} {area}")
        elif shape == 2:
            out.append(f"where is {_pick(vocab.env_vars, i, 23)} read")
        elif shape == 3:
            out.append(f"why {_pick(vocab.deps, i, 24)}")
        else:
            out.append(f"{path} incident")
    return out


# -- seeding -----------------------------------------------------------------------------------
def seed_store(
    db_path: Path,
    repo_root: Path,
    n: int,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Write ``n`` memories about ``repo_root`` into the store at ``db_path`` (created),
    in this process, through the memory service with conflict detection off. ``progress``
    is called with (done, n) now and then."""
    from anchors.fingerprint import CodeSource
    from store.db import Database
    from store.factcache import StoreFactsCache
    from store.plan import Plan
    from store.service import MemoryService, ServiceSettings

    vocab = Vocabulary.of(repo_root)
    db = Database(db_path)
    try:
        # As server/runtime.py builds it for a server. Each note is planned as remember
        # plans it (anchors captured, checked at HEAD), and the plans are written 500 to a
        # transaction, as a bulk import would.
        with CodeSource(repo_root, StoreFactsCache(db)) as code:
            service = MemoryService(db, code, ServiceSettings(conflicts=False))
            batch = Plan()
            for done, item in enumerate(notes(vocab, 0, n), 1):
                note = service.remembering.note(
                    item.text,
                    subject=item.subject,
                    kind=item.kind,
                    source=item.source,
                    origin=f"seed-{done % 7}",
                    anchors=list(item.anchors) or None,
                    scope=item.scope,
                )
                batch = batch + service.remembering.prepare(note).plan
                if done % 500 == 0 or done == n:
                    db.apply(batch)
                    batch = Plan()
                if progress is not None and (done % 250 == 0 or done == n):
                    progress(done, n)
    finally:
        db.close()


def cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "anchormem" / "bench"


def store_key(repo_root: Path) -> str:
    """The hash in a cached store's name: the schema of a fresh store, ``SEED_VERSION``
    and the repository's HEAD."""
    import duckdb

    from experiments.scratch import git
    from store.db import Database

    with tempfile.TemporaryDirectory(prefix="anchormem-schema-") as tmp:
        path = Path(tmp) / "fresh.duckdb"
        Database(path).close()
        con = duckdb.connect(str(path), read_only=True)
        try:
            rows = con.execute(
                "SELECT sql FROM duckdb_tables() UNION ALL SELECT sql FROM duckdb_indexes()"
                " UNION ALL SELECT sql FROM duckdb_views() WHERE NOT internal"
                " UNION ALL SELECT 'meta ' || key || '=' || value FROM meta"
            ).fetchall()
        finally:
            con.close()
    schema = "\n".join(sorted(str(row[0]) for row in rows))
    head = git(repo_root, "rev-parse", "HEAD")
    digest = hashlib.sha256(f"{schema}\nseed {SEED_VERSION}\nhead {head}".encode())
    return digest.hexdigest()[:12]


def cached_store(
    n: int, repo_root: Path, cache: Path | None = None, log: Callable[[str], None] | None = None
) -> Path:
    """The cached store of ``n`` memories about ``repo_root``, seeded first if missing."""
    say = log or (lambda message: print(message, file=sys.stderr, flush=True))
    cache = cache or cache_dir()
    target = cache / f"{n}-{store_key(repo_root)}.duckdb"
    if target.is_file():
        say(f"seed: {n} memories: cached {target}")
        return target
    cache.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        spent = time.perf_counter() - started
        left = spent / done * (total - done)
        say(
            f"seed: {done}/{total} memories, {spent / done * 1000:.1f} ms each,"
            f" ~{left / 60:.1f} min left"
        )

    with tempfile.TemporaryDirectory(prefix="anchormem-seed-") as tmp:
        seeded = Path(tmp) / "seeded.duckdb"
        seed_store(seeded, repo_root, n, progress)
        if Path(f"{seeded}.wal").exists():  # closed stores are checkpointed; make sure
            import duckdb

            con = duckdb.connect(str(seeded))
            con.execute("CHECKPOINT")
            con.close()
        staged = target.with_name(f".{target.name}.{os.getpid()}.part")
        shutil.copyfile(seeded, staged)
        os.replace(staged, target)
    say(f"seed: {n} memories in {time.perf_counter() - started:.1f} s -> {target}")
    return target
