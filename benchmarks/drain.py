"""How long the store's owner is held by writing its journal into the tables (a drain,
adr/0009): after a long burst every ``BATCH`` (512) writes, and after any burst once the
server has been idle a moment. Calls that arrive meanwhile wait for it.

    python -m benchmarks drain [--size 10000] [--entries 600] [--runs 3]
    python -m benchmarks drain --against REF     # before and after, interleaved

With ``--against``, this file measures both sides: the other side's store code is
imported from that revision's tree.

Each run is a process of its own: the seeded store (``benchmarks/seed.py``) is opened,
``--entries`` notes of the seed's shapes are remembered, and each drain they cause (at
``BATCH`` entries, or 500 cached verdicts) is timed:

* ``drain``: ``Database.drain``, the entries written into their tables in one
  transaction, as a server does it;
* ``read back``: a fresh reader parsing the same journal file, as the next owner does
  after a restart or a takeover (the server that wrote the entries keeps them).

Printed: the largest drain of each run (its backlog: journal entries plus cached verdicts
written with them) and the time to read its journal back.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["main"]

_NOTES_START = 30_000_000  # notes no seed and no other benchmark has written


def _child(size: int, entries: int) -> dict[str, Any]:
    """One run, in this process: ``entries`` remembers, each drain they cause timed with
    the journal entries and verdicts it wrote; then one fresh reader of the journal as the
    last drain found it."""
    import shutil
    import time

    from benchmarks.seed import Vocabulary, cached_store, notes
    from experiments.fixture import build_fixture
    from server.config import Settings
    from server.runtime import open_runtime
    from store.journal import Journal

    drains: list[tuple[float, int, float, int]] = []
    with tempfile.TemporaryDirectory(prefix="anchormem-drain-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        db = work / "store.duckdb"
        shutil.copyfile(cached_store(size, repo, log=lambda _: None), db)
        runtime = open_runtime(Settings.resolve(repo=str(repo), db=str(db), env={}))
        journal = Path(f"{db}.journal")
        store = runtime.db
        drain = store.drain

        def timed() -> None:
            copy = work / "copy.journal"
            shutil.copyfile(journal, copy)
            started = time.perf_counter()
            found = len(Journal(copy).entries(after=0))
            read_back = time.perf_counter() - started
            backlog = store.backlog()
            started = time.perf_counter()
            drain()
            drains.append((time.perf_counter() - started, backlog, read_back, found))

        store.drain = timed  # type: ignore[method-assign]
        try:
            svc = runtime.service
            svc.recall("warm", 10, False)  # loads the store's copy
            for note in notes(Vocabulary.of(repo), _NOTES_START, entries):
                svc.remember(note.text, kind=note.kind, source=note.source, subject=note.subject)
        finally:
            runtime.close()
    biggest = max(drains, key=lambda d: d[1])
    return {
        "drain": biggest[0],
        "backlog": biggest[1],
        "read_back": biggest[2],
        "read": biggest[3],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks drain",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--size", type=int, default=10_000, help="memories in the store")
    parser.add_argument("--entries", type=int, default=600, help="remembers written")
    parser.add_argument("--runs", type=int, default=3, help="runs (processes) per side")
    parser.add_argument("--against", metavar="REF", help="also run this git revision's code")
    args = parser.parse_args(argv)
    if args.size < 1 or args.runs < 1 or args.entries < 1:
        raise SystemExit("benchmarks.drain: --size, --entries and --runs must be >= 1")
    from benchmarks.trees import run_sides  # not at the top: see ``trees.run_on``

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"drains during {args.entries} remembers at {args.size} memories,"
        f" {args.runs} run(s) per side; load average {load}"
    )
    results = run_sides(
        Path(__file__).resolve(), f"_child({args.size}, {args.entries})", args.against, args.runs
    )
    for label, runs in results.items():
        drains = [r["drain"] * 1000 for r in runs]
        reads = [r["read_back"] * 1000 for r in runs]
        print(
            f"{label:<26} largest drain: median {statistics.median(drains):6.1f} ms"
            f" (runs {', '.join(f'{d:.1f}' for d in drains)}; backlog"
            f" {', '.join(str(r['backlog']) for r in runs)});"
            f" its journal read back: median {statistics.median(reads):5.1f} ms"
            f" ({runs[0]['read']} entries)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
