"""The in-process cost of a ``remember``'s contradiction check: reading the new note's slot
(``resolving.claim_keys``) and judging it against the memories sharing a key or its
rarest words (``Contradictions.on_remember``), at 10,000 memories (adr/0019).

    python -m benchmarks conflict_check [--size 10000] [--notes 300] [--runs 2]
    python -m benchmarks conflict_check --against main     # before and after, interleaved

Each run is a process of its own: the seeded store (``benchmarks/seed.py``) is opened and
warmed as a server warms it, and the fixed set of notes (every shape of the seed's notes,
so the heavy ones too: "We removed fastapi from X" against the ~130 memories depending on
it, incident notes of one template) is planned by ``Remembering.prepare`` once, with the
check left out, to get the memory each note would be. The caches of the claim model are
then emptied and warmed again from the store alone, so that each timed check reads its
own note cold, as a real ``remember`` does, and its neighbours warm. Nothing is written:
every note meets the same store, in every run, on every side.

``--against REF`` runs the same notes on the tree of a git revision (extracted with
``git archive``) in processes that alternate with this tree's, since the shared machine's
figures move by a third between minutes. Both sides must make the same decisions: each
run prints a digest of every conflict-log row and plan part its checks made.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = ["main"]

HEAVY = 20  # a check that found at least this many conflicts and questions is heavy
_NOTES_START = 20_000_000  # as benchmarks.latency: notes no seed has written
_NOW = "2030-01-01T00:00:00+00:00"  # one ``now`` for every run: confidence decays with time


_WARM_UP = 10  # notes checked first, untimed: what a process does once is not a check's


@contextmanager
def prepared(
    size: int, count: int
) -> Iterator[tuple[Any, list[tuple[Any, Any, str | None, tuple[str, ...]]]]]:
    """The store of ``size`` memories opened and warmed, and ``count`` notes (after
    ``_WARM_UP`` others) planned as ``remember`` plans them, check left out: yields the
    service's ``Contradictions`` and (note, new memory, negation core, close notes) of each
    note, with the claim model's caches holding the store's memories and none of the
    notes."""
    import gc
    import shutil
    import threading
    from dataclasses import replace

    from benchmarks.seed import Vocabulary, cached_store, notes
    from experiments.fixture import build_fixture
    from server.config import Settings
    from server.runtime import open_runtime
    from store.plan import Plan

    now = datetime.fromisoformat(_NOW)
    with tempfile.TemporaryDirectory(prefix="anchormem-conflict-check-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        vocab = Vocabulary.of(repo)
        db = work / "store.duckdb"
        shutil.copyfile(cached_store(size, repo, log=lambda _: None), db)
        runtime = open_runtime(Settings.resolve(repo=str(repo), db=str(db), env={}))
        try:
            svc = runtime.service
            svc.recall("warm", 10, False)  # loads the store's copy
            captured: list[tuple[Any, str | None, tuple[str, ...]]] = []

            # ``close``: the notes ``related`` found, judged too where the tree does (a tree
            # before that calls the check without them)
            def capture(
                new: Any, core: str | None, _now: datetime, close: Sequence[str] = ()
            ) -> tuple[Plan, list[Any]]:
                captured.append((new, core, tuple(close)))
                return Plan(), []

            checks = []
            svc.contradictions.on_remember = capture  # type: ignore[method-assign,assignment]
            try:
                start = _NOTES_START + size - _WARM_UP
                for i, item in enumerate(notes(vocab, start, count + _WARM_UP)):
                    args = item.arguments()
                    note = svc.remembering.note(args.pop("text"), **args)
                    if svc.code is None:
                        svc.remembering.prepare(note)
                    else:
                        with svc.code.one_head():
                            svc.remembering.prepare(note)
                    new, core, close = captured.pop()
                    # One id and one time in every run, so that both sides' records compare.
                    new = replace(new, id=f"m-check-{i:05d}", created_at=now, evidence_at=now)
                    checks.append((note, new, core, close))
            finally:
                del svc.contradictions.on_remember
            _forget_readings()
            svc.warm(threading.Event())  # the store's memories read again; the notes not
            gc.collect()
            gc.freeze()
            yield svc.contradictions, checks
        finally:
            runtime.close()


def _child(size: int, count: int) -> dict[str, Any]:
    """One run, in this process: the check of each note, timed; and the digest of what
    they decided."""
    import hashlib
    import time

    from store.contradictions.resolving import claim_keys

    now = datetime.fromisoformat(_NOW)
    samples, cpu, found, texts, digest = [], [], [], [], hashlib.sha256()
    with prepared(size, count) as (check, checks):
        for i, (note, new, core, close) in enumerate(checks):
            started, started_cpu = time.perf_counter(), time.thread_time()
            claim_keys(note.text, note.subject, note.attribute, note.value)
            plan, records = check.on_remember(new, core, now, *([close] if close else []))
            took, took_cpu = time.perf_counter() - started, time.thread_time() - started_cpu
            if i >= _WARM_UP:
                samples.append(took)
                cpu.append(took_cpu)
                found.append(len(records))
                texts.append(note.text)
                digest.update(repr(_decisions(plan, records)).encode())
    return {
        "samples": samples,
        "cpu": cpu,
        "found": found,
        "texts": texts,
        "digest": digest.hexdigest(),
    }


def _forget_readings() -> None:
    """Empty every cache the claim model keeps (its functions' ``lru_cache`` and any
    ``cache_clear``-able cache of its modules), whatever this tree's version has."""
    import importlib
    import pkgutil

    import store.contradictions as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in list(vars(module).values()):
            clear = None if isinstance(value, type) else getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == module.__name__:
                clear()


def _decisions(plan: Any, records: Sequence[Any]) -> tuple[Any, ...]:
    """What a check decided, without what is new on every run (receipt and observation
    ids)."""
    rows: tuple[Any, ...] = tuple(
        (r.a_id, r.b_id, r.kind, r.state, r.rule, r.outcome, r.winner, r.loser) for r in records
    )
    rows += tuple(
        (r.reason_code, r.confidence_a, r.confidence_b, r.slot, r.claim_a, r.claim_b)
        for r in records
    )
    changes = tuple(
        (c.memory_id, c.expect, c.to_status, c.refuted_by, c.action, c.actor, c.reason, c.detail)
        for c in plan.changes
    )
    observations: tuple[Any, ...] = tuple(
        (o.memory_id, o.agrees, o.kind, o.source, o.origin, o.weight, o.note)
        for o in plan.observations
    )
    observations += tuple(
        (o.support, o.contradiction, o.origins, o.confidence, o.confirmed, o.add_flag)
        for o in plan.observations
    )
    logged = tuple(
        (r.a_id, r.b_id, r.state, r.rule, r.outcome, r.winner, r.reason_code)
        for r in plan.conflicts
    )
    return rows, changes, observations, logged


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:6.2f}"


def _summary(label: str, runs: Sequence[dict[str, Any]], clock: str) -> str:
    """p50 / p99 / max over the notes (each note's median over the runs), and over the
    heavy notes, by ``clock``: "samples" (wall) or "cpu" (this thread's CPU time, which
    another process on the machine moves less)."""
    per_note = [statistics.median(s) for s in zip(*(r[clock] for r in runs), strict=True)]
    found = runs[0]["found"]
    heavy = sorted(t for t, f in zip(per_note, found, strict=True) if f >= HEAVY)
    ordered = sorted(per_note)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)]
    line = (
        f"{label:<26} p50 {_ms(statistics.median(ordered))}  p99 {_ms(p99)}"
        f"  max {_ms(ordered[-1])}  mean {_ms(statistics.fmean(ordered))}"
    )
    if heavy:
        middle = statistics.median(heavy)
        line += f"   heavy: p50 {_ms(middle)}  max {_ms(heavy[-1])}"
    return line


def _slowest(runs: Sequence[dict[str, Any]], show: int) -> list[str]:
    per_note = [statistics.median(s) for s in zip(*(r["samples"] for r in runs), strict=True)]
    order = sorted(range(len(per_note)), key=lambda i: -per_note[i])[:show]
    texts, found = runs[0]["texts"], runs[0]["found"]
    return [f"  {_ms(per_note[i])} ms  {found[i]:4d} found  {texts[i][:70]}" for i in order]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks conflict_check",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--size", type=int, default=10_000, help="memories in the store")
    parser.add_argument("--notes", type=int, default=300, help="notes checked per run")
    parser.add_argument("--runs", type=int, default=2, help="runs (processes) per side")
    parser.add_argument("--against", metavar="REF", help="also run this git revision's code")
    parser.add_argument("--slowest", type=int, default=8, help="slowest notes listed")
    args = parser.parse_args(argv)
    if args.size < 1 or args.notes < 1 or args.runs < 1:
        raise SystemExit("benchmarks.conflict_check: --size, --notes and --runs must be >= 1")
    from benchmarks.trees import run_sides  # not at the top: see ``trees.run_on``

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"conflict check (claim_keys + on_remember) at {args.size} memories, {args.notes}"
        f" notes, {args.runs} run(s) per side; load average {load}; times in ms"
    )
    results = run_sides(
        Path(__file__).resolve(), f"_child({args.size}, {args.notes})", args.against, args.runs
    )
    for clock, name in (("samples", "wall"), ("cpu", "cpu")):
        for label, runs in results.items():
            print(_summary(f"{label}, {name}", runs, clock))
    digests = {r["digest"] for runs in results.values() for r in runs}
    heavy = sum(f >= HEAVY for f in next(iter(results.values()))[0]["found"])
    print(f"heavy notes (>= {HEAVY} conflicts and questions found): {heavy}")
    print(
        "decisions: "
        + ("the same in every run" if len(digests) == 1 else "DIFFERENT between runs")
        + f" (digest {sorted(digests)[0][:16]})"
    )
    label = list(results)[-1]
    print(f"slowest notes ({label}):")
    print("\n".join(_slowest(results[label], args.slowest)))
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
