"""The time of a ``consolidate`` pass over a large store (adr/0010: 10,000 memories within
5 s).

    python -m benchmarks consolidate [--memories 10000] [--seed 7]

The store is seeded with ``experiments.conflict_precision``'s generated memories (planted
conflicts and hard negatives) written as one plan, as a bulk import would; then
``anchormem consolidate --json`` runs in a new process (cold: every note is read for the
first time), and twice more in this process (the second with every reading kept). Each
time is the pass itself, as the tool reports it (``seconds``), without the process start.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from experiments.conflict_precision import generate
from server.config import Settings
from server.runtime import open_runtime
from store.contradictions.claims import slot_key
from store.contradictions.resolving import claim_keys
from store.db import utcnow
from store.ids import new_id
from store.lifecycle import text_hash
from store.model import Kind, Memory, Source, Status
from store.plan import NewMemory, Plan
from store.search import memory_terms

__all__ = ["main", "run"]


def _seed(db: Path, memories: int, seed: int) -> None:
    specs, _ = generate(memories, min(50, memories // 4), seed)
    now = utcnow()
    news = []
    for i, spec in enumerate(specs):
        slot, _, core = claim_keys(spec.text, spec.subject, None, None)
        mem = Memory(
            id=new_id("m"),
            text=spec.text,
            subject=spec.subject,
            kind=Kind.FACT,
            scope=None,
            source=Source.AGENT,
            origin=spec.origin,
            created_at=now - timedelta(seconds=len(specs) - i),
            commit=None,
            status=Status.ACTIVE,
            origins=(spec.origin,),
            attribute=slot_key(slot) if slot else None,
            slot_value=slot.value if slot else None,
        )
        news.append(NewMemory(mem, text_hash(spec.text), memory_terms(spec.text), spec.text, core))
    rt = open_runtime(Settings(repo=None, db=db))
    try:
        rt.db.apply(Plan(memories=tuple(news)))
    finally:
        rt.close()


def _cold(db: Path) -> dict[str, Any]:
    exe = str(Path(sys.executable).with_name("anchormem"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_DB"] = str(db)
    done = subprocess.run(
        [exe, "consolidate", "--json"],
        cwd=db.parent,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run(memories: int = 10_000, seed: int = 7) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="anchormem-consolidate-") as tmp:
        db = Path(tmp) / "store.duckdb"
        _seed(db, memories, seed)
        cold = _cold(db)
        rt = open_runtime(Settings(repo=None, db=db))
        try:
            first = rt.service.consolidate()
            warm = rt.service.consolidate()
        finally:
            rt.close()
    return {
        "memories": cold["memories"],
        "pairs_compared": cold["pairs_compared"],
        "conflicts": len(cold["conflicts"]),
        "possible_conflicts": len(cold["possible_conflicts"]),
        "cold_process_seconds": cold["seconds"],
        "second_pass_seconds": first.seconds,
        "warm_pass_seconds": warm.seconds,
        "load_average": round(os.getloadavg()[0], 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks consolidate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    for key, value in run(args.memories, args.seed).items():
        print(f"{key}: {value}")
    return 0
