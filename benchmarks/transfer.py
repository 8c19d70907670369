"""What ``anchormem export`` and ``import`` cost: a store of N memories about the
experiments' shopfront repository (seeded in process, ``benchmarks.seed``), exported and
imported through the CLI as a person runs them, then imported again (nothing changes).

    python -m benchmarks.transfer [--n 1000]

Prints one line per step: seconds, and for the export its size per memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]


def _run(script: Path, *args: str, cwd: Path) -> tuple[float, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    started = time.perf_counter()
    done = subprocess.run(
        [str(script), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=3600
    )
    spent = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"anchormem {args[0]} failed: {done.stderr.strip()}")
    return spent, done.stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.transfer", description=__doc__)
    parser.add_argument("--n", type=int, default=1000, help="memories in the store")
    args = parser.parse_args(argv)
    from benchmarks.seed import seed_store
    from experiments.fixture import build_fixture

    script = Path(sys.executable).with_name("anchormem")
    with tempfile.TemporaryDirectory(prefix="anchormem-transfer-") as tmp:
        repo = Path(tmp) / "shopfront"
        build_fixture(repo)
        source, target, out = Path(tmp) / "a.duckdb", Path(tmp) / "b.duckdb", Path(tmp) / "m.jsonl"
        started = time.perf_counter()
        seed_store(source, repo, args.n)
        print(f"seed: {args.n} memories in {time.perf_counter() - started:.1f} s")
        spent, _ = _run(script, "export", "--db", str(source), "--out", str(out), cwd=repo)
        size = out.stat().st_size
        print(
            f"export: {args.n} memories in {spent:.2f} s (CLI, process start included);"
            f" {size / 1024:.0f} KB, {size / args.n:.0f} bytes a memory"
        )
        spent, text = _run(script, "import", str(out), "--db", str(target), "--json", cwd=repo)
        report = json.loads(text)
        print(f"import into an empty store: {spent:.2f} s; added {report['added']}")
        spent, text = _run(script, "import", str(out), "--db", str(target), "--json", cwd=repo)
        report = json.loads(text)
        print(
            f"import again: {spent:.2f} s; unchanged {report['unchanged']}, added {report['added']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
