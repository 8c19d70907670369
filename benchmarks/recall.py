"""``anchormem bench`` (or ``python -m benchmarks.recall``): how long the fingerprint and a
verified recall take, in process.

Prints one ``name: value`` line per measurement (``--json``: one JSON object):

* the cold fingerprint of ``--repo PATH`` (optional) and of a generated repository of
  ``--files`` Python modules (default 3,000), parsed from nothing into a fresh store;
* the update of that fingerprint after a commit touching 10 files;
* for each store size in ``--sizes`` (default 1,000, 10,000 and 100,000 memories), the
  latency of ``recall`` with verification, p50 and p99, for queries that hit 10 memories of
  5 anchors each: warm (the process answered the query at this HEAD before) and right after
  HEAD moves (a new commit: the fingerprint is updated and the hits are checked again within
  the verification budget; the share that got a verdict in time is printed too).

Everything runs in a temporary directory against the real pieces: git, DuckDB, the code
source and the memory service. Stores are filled directly through ``store.db.Database`` with
multi-row inserts (``remember`` one by one would take minutes at 100k). Every timed recall
is checked to return its 10 memories, verified (or, right after a commit, left unchecked by
the budget; never refuted), so a number never hides a wrong answer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["add_arguments", "main"]

_HITS = 10  # memories each query hits
_WORKING_SET = 50  # distinct queries a warm process keeps asking
_ROWS_PER_INSERT = 50_000
_PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)
_FIRST_LOOKUP = "from anchors.vocabulary import lookup_word; lookup_word('vue')"


def add_arguments(parser: argparse.ArgumentParser, with_repo: bool = True) -> None:
    """The benchmark's options (``with_repo`` False when the caller already has ``--repo``
    and ``--json``, as the ``anchormem`` command does)."""
    if with_repo:
        parser.add_argument("--repo", help="also time a cold fingerprint of this repository")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--files", type=int, default=3000, help="Python files in the generated repository"
    )
    parser.add_argument(
        "--sizes",
        default="1000,10000,100000",
        help="store sizes (memories) to time recall at, comma-separated",
    )
    parser.add_argument(
        "--samples", type=int, default=1000, help="warm recalls timed per store size"
    )
    parser.add_argument(
        "--head-changes", type=int, default=50, help="commits (one recall each) per store size"
    )


def main(argv: Sequence[str] | argparse.Namespace | None = None) -> int:
    """Run the benchmark and print its lines; ``argv`` may be parsed options already."""
    if isinstance(argv, argparse.Namespace):
        args = argv
    else:
        parser = argparse.ArgumentParser(
            prog="python -m benchmarks.recall", description=__doc__.split("\n\n")[0]
        )
        add_arguments(parser)
        args = parser.parse_args(argv)
    sizes = _sizes(args.sizes)
    if args.files < _HITS or args.samples < 1 or args.head_changes < 1:
        raise SystemExit(
            "anchormem bench: --files must be at least 10, --samples and --head-changes at least 1"
        )
    out: dict[str, Any] = {"cpus": os.cpu_count() or 0}
    emit = _printer(out, bool(getattr(args, "json", False)))
    emit("cpus", out["cpus"])
    with tempfile.TemporaryDirectory(prefix="anchormem-bench-") as tmp:
        work = Path(tmp)
        if getattr(args, "repo", None):
            _bench_repo(Path(args.repo), work, emit)
        _bench_generated(work, args.files, sizes, args.samples, args.head_changes, emit)
    if getattr(args, "json", False):
        print(json.dumps(out, indent=2))
    return 0


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"anchormem bench: --sizes must be numbers, not {text!r}") from None
    if not sizes or any(size < _HITS for size in sizes):
        raise SystemExit(f"anchormem bench: every store size must be at least {_HITS}")
    return sizes


def _printer(out: dict[str, Any], as_json: bool) -> Any:
    def emit(name: str, value: float | int) -> None:
        out[name] = value
        if not as_json:
            print(f"{name}: {value}", flush=True)

    return emit


# -- fingerprints ------------------------------------------------------------------------
def _bench_repo(repo: Path, work: Path, emit: Any) -> None:
    from anchors.fingerprint import CodeSource
    from store.db import Database
    from store.factcache import StoreFactsCache

    if not repo.is_dir():
        raise SystemExit(f"anchormem bench: --repo {str(repo)!r} is not a directory")
    db = Database(work / "repo-facts.duckdb")
    try:
        with CodeSource(repo, StoreFactsCache(db)) as code:
            start = time.perf_counter()
            fp = code.fingerprint(overlay=False)  # FingerprintUnavailable: for server.cli
            elapsed = time.perf_counter() - start
            emit("cold_fingerprint_repo_s", round(elapsed, 3))
            emit("cold_fingerprint_repo_python_files", len(fp.code))
    finally:
        db.close()


def _bench_generated(
    work: Path, files: int, sizes: Sequence[int], samples: int, head_changes: int, emit: Any
) -> None:
    from anchors.fingerprint import CodeSource
    from benchmarks.fingerprint import generate_repository
    from store.db import Database
    from store.factcache import StoreFactsCache

    root = work / "repo"
    written = generate_repository(root, files)
    facts_db = Database(work / "facts.duckdb")
    try:
        with CodeSource(root, StoreFactsCache(facts_db)) as code:
            start = time.perf_counter()
            fp = code.fingerprint(overlay=False)
            elapsed = time.perf_counter() - start
            emit(f"cold_fingerprint_generated_{files}_files_s", round(elapsed, 3))
            emit("cold_fingerprint_parsed_files", code.parsed_count)

            _touch(root, random.Random(11).sample(written, 10), "touch 10 files")
            before = code.parsed_count
            start = time.perf_counter()
            fp = code.fingerprint(overlay=False)
            elapsed = time.perf_counter() - start
            emit("update_after_10_file_commit_ms", round(elapsed * 1000, 2))
            emit("update_parsed_files", code.parsed_count - before)

            for size in sizes:
                _bench_recall(work, root, code, fp, size, samples, head_changes, emit)
    finally:
        facts_db.close()
    _bench_polyglot(work, files, emit)
    _bench_vocabulary(emit)


def _bench_polyglot(work: Path, files: int, emit: Any) -> None:
    """The cold fingerprint of a repository of ``files`` modules, half of them TypeScript
    (a frontend beside a Python backend), and its update after a 10-file commit touching
    both languages."""
    from anchors.fingerprint import CodeSource
    from benchmarks.fingerprint import generate_repository
    from store.db import Database
    from store.factcache import StoreFactsCache

    root = work / "polyglot"
    written = generate_repository(root, files, typescript=files // 2)
    facts_db = Database(work / "polyglot-facts.duckdb")
    try:
        with CodeSource(root, StoreFactsCache(facts_db)) as code:
            start = time.perf_counter()
            fp = code.fingerprint(overlay=False)
            elapsed = time.perf_counter() - start
            typescript = sum(1 for f in fp.code.values() if f.language == "typescript")
            emit(f"cold_fingerprint_polyglot_{files}_files_s", round(elapsed, 3))
            emit("cold_fingerprint_polyglot_typescript_files", typescript)
            rng = random.Random(13)
            ts = [p for p in written if p.suffix == ".ts"]
            py = [p for p in written if p.suffix == ".py"]
            for path in rng.sample(ts, 5):
                with path.open("a") as handle:
                    handle.write(f"\nexport function touched{time.perf_counter_ns()}() {{}}\n")
            _touch(root, rng.sample(py, 5), "touch 5 TypeScript and 5 Python files")
            start = time.perf_counter()
            code.fingerprint(overlay=False)
            elapsed = time.perf_counter() - start
            emit("update_after_10_file_commit_polyglot_ms", round(elapsed * 1000, 2))
    finally:
        facts_db.close()


def _bench_vocabulary(emit: Any, runs: int = 5) -> None:
    """What the vocabulary costs a process at start-up: importing it, and its first lookup
    (which loads the data), each in a fresh interpreter, beside that interpreter's own
    start-up as the floor; the median of ``runs``."""
    import subprocess
    import sys

    def median_ms(code: str) -> float:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, cwd=_PACKAGE_PARENT)
            times.append(time.perf_counter() - start)
        return round(statistics.median(times) * 1000, 1)

    floor = median_ms("pass")
    emit("python_startup_ms (floor)", floor)
    emit("vocabulary_import_ms", round(median_ms("import anchors.vocabulary") - floor, 1))
    emit(
        "vocabulary_first_lookup_ms",
        round(median_ms(_FIRST_LOOKUP) - floor, 1),
    )


def _touch(root: Path, paths: Sequence[Path], message: str) -> None:
    for path in paths:
        with path.open("a") as handle:
            handle.write(f"\n\ndef touched_{time.perf_counter_ns()}():\n    return 1\n")
    _git(root, "commit", "-q", "-a", "-m", message)


def _git(root: Path, *args: str) -> None:
    from benchmarks.fingerprint import IDENTITY
    from experiments.scratch import git

    git(root, *args, identity=IDENTITY)


# -- recall --------------------------------------------------------------------------------
@dataclass(frozen=True)
class _AnchorRow:
    kind: str
    value: str
    expect: str
    scope: str | None
    found_in: str  # JSON list
    content_hash: str | None
    render: str


def _bench_recall(
    work: Path,
    root: Path,
    code: Any,
    fp: Any,
    size: int,
    samples: int,
    head_changes: int,
    emit: Any,
) -> None:
    from store.db import Database
    from store.service import MemoryService, ServiceSettings

    db = Database(work / f"store-{size}.duckdb")
    try:
        start = time.perf_counter()
        groups = fill_store(db, fp, size)
        emit(f"store_{size}_fill_s", round(time.perf_counter() - start, 3))
        service = MemoryService(db, code, ServiceSettings())
        queries = [f"where is {_token(g)}" for g in range(groups)]
        rng = random.Random(size)
        # Warm: the process has answered these queries at this HEAD before, so the
        # fingerprint, the verdicts and the memories hit are cached; the store is still
        # searched, HEAD re-resolved and every hit's verdict looked up and applied.
        working_set = rng.sample(range(groups), min(groups, _WORKING_SET))
        for _ in range(2):  # the first pass computes and saves verdicts, the second loads
            for g in working_set:
                _checked_recall(service, queries[g])
        warm = [_timed_recall(service, queries[rng.choice(working_set)]) for _ in range(samples)]
        emit(f"recall_{size}_warm_p50_ms", _ms(_percentile(warm, 50)))
        emit(f"recall_{size}_warm_p99_ms", _ms(_percentile(warm, 99)))

        # Right after HEAD moves: the fingerprint of the new commit is built from the last
        # one and each hit is checked again within the verification budget; what the
        # budget leaves unchecked is served as "unchecked" and checked by a later read.
        after: list[float] = []
        checked = 0
        notes = root / "CHANGES.md"
        for n in range(head_changes):
            notes.write_text(f"change {size}-{n}\n")
            _git(root, "add", "--", "CHANGES.md")
            _git(root, "commit", "-q", "-m", f"change {n}")
            query = queries[rng.randrange(groups)]
            start = time.perf_counter()
            found = _as_dict(service.recall(query, 10))
            after.append(time.perf_counter() - start)
            checked += _count_checked(found, query)
        emit(f"recall_{size}_after_head_change_p50_ms", _ms(_percentile(after, 50)))
        emit(f"recall_{size}_after_head_change_p99_ms", _ms(_percentile(after, 99)))
        emit(
            f"recall_{size}_after_head_change_checked_pct",
            round(100 * checked / (head_changes * _HITS), 1),
        )
    finally:
        db.close()


def _token(group: int) -> str:
    return f"zq{group:07d}x"  # never a substring of another group's token


def _checked_recall(service: Any, query: str) -> None:
    found = _as_dict(service.recall(query, 10))
    memories = found["memories"]
    if len(memories) != _HITS or any(m["verification"] != "verified" for m in memories):
        summary = [(m["id"], m["verification"]) for m in memories]
        raise RuntimeError(f"bench recall of {query!r} did not verify its {_HITS} hits: {summary}")
    if any(len(m["anchors"]) != 5 for m in memories):
        raise RuntimeError("bench memories must carry 5 anchors each")


def _as_dict(result: Any) -> dict[str, Any]:
    """The result as the tools render it (the renderer runs inside the timing, as it does
    in a server)."""
    from server.rendering import dump, render_result

    return dump(render_result(result))


def _count_checked(found: dict[str, Any], query: str) -> int:
    """How many of the hits got a verdict (the rest were left unchecked by the budget);
    raises if a hit is missing or was refuted, which would make the timing meaningless."""
    memories = found["memories"]
    labels = [m["verification"] for m in memories]
    if len(memories) != _HITS or any(label not in ("verified", "unchecked") for label in labels):
        raise RuntimeError(f"bench recall of {query!r} went wrong: {labels}")
    return sum(label == "verified" for label in labels)


def _timed_recall(service: Any, query: str) -> float:
    start = time.perf_counter()
    _checked_recall(service, query)
    return time.perf_counter() - start


def _percentile(values: Sequence[float], pct: int) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


# -- filling a store -------------------------------------------------------------------------
def fill_store(db: Any, fp: Any, size: int) -> int:
    """Insert ``size`` VERIFIED memories, each with 5 anchors that hold in ``fp``, in groups
    of 10 sharing a search token; return the number of groups. Multi-row INSERTs straight
    into the tables (with each memory's remember and verify audit rows)."""
    from anchors.spec import Anchor, AnchorKind, Expect, Provenance
    from anchors.verify import capture
    from store.lifecycle import text_hash
    from store.search import search_text

    now = datetime.now(UTC)
    paths = sorted(p for p, facts in fp.python.items() if facts.definitions and facts.imports)
    if not paths:
        raise RuntimeError("the repository has no Python file with imports and definitions")
    common = [Anchor(AnchorKind.ENV, "LIMIT_0"), Anchor(AnchorKind.DEP, "redis", Expect.ABSENT)]
    per_path: dict[str, list[Anchor]] = {}
    importers: dict[str, int] = {}
    rows_for: dict[Anchor, _AnchorRow] = {}

    def anchors_of(path: str) -> list[Anchor]:
        if path not in per_path:
            facts = fp.python[path]
            # One of each kind, as remember captures them: explicit anchors are often
            # scoped, inferred imports ("we use json") are not.
            anchors = [
                Anchor(AnchorKind.FILE, path),
                Anchor(AnchorKind.SYMBOL, facts.definitions[0].qualname, scope=path),
                Anchor(AnchorKind.IMPORT, _rarest_import(fp, path, importers)),
                *common,
            ]
            for anchor in anchors:
                if anchor not in rows_for:
                    cap = capture(anchor, fp)
                    rows_for[anchor] = _AnchorRow(
                        anchor.kind.value,
                        anchor.value,
                        anchor.expect.value,
                        anchor.scope,
                        json.dumps(list(cap.found_in)),
                        cap.content_hash,
                        anchor.render(),
                    )
            per_path[path] = anchors
        return per_path[path]

    from store.model import Kind, Memory, Source, Status, StoredAnchor
    from store.plan import NewMemory, Plan
    from store.search import memory_terms

    batch: list[NewMemory] = []
    for i in range(size):
        path = paths[i % len(paths)]
        anchors = anchors_of(path)
        text = f"Note {i} about {path}: {_token(i // _HITS)} keeps its helpers there"
        stored = tuple(
            StoredAnchor(
                a,
                Provenance.EXPLICIT,
                tuple(json.loads(rows_for[a].found_in)),
                rows_for[a].content_hash,
            )
            for a in anchors
        )
        mem = Memory(
            id=f"mb{i:08d}",
            text=text,
            subject=path,
            kind=Kind.FACT,
            scope=None,
            source=Source.AGENT,
            origin="bench",
            created_at=now,
            commit=fp.commit,
            status=Status.VERIFIED,
            anchors=stored,
            origins=("bench",),
            evidence_at=now,
        )
        searched = search_text(text, path, anchors)
        batch.append(NewMemory(mem, text_hash(text), memory_terms(searched), searched))
        if len(batch) >= _ROWS_PER_INSERT or i == size - 1:
            db.apply(Plan(memories=tuple(batch)))  # one transaction per batch
            batch = []
    return (size + _HITS - 1) // _HITS


def _rarest_import(fp: Any, path: str, counts: dict[str, int]) -> str:
    """The module (or ``module.name``) that ``path`` imports and the fewest files do, so an
    unscoped anchor on it is found in a file or two, not in every file of the repository."""
    targets = {
        f"{imp.module}.{name}" if name != "*" else imp.module
        for imp in fp.python[path].imports
        for name in (imp.names or ("*",))
    }
    for target in targets - counts.keys():
        counts[target] = len(fp.importers(target))
    return min(sorted(targets), key=counts.__getitem__)


if __name__ == "__main__":
    raise SystemExit(main())
