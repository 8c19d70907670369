"""Running a benchmark's measurement on the code of another git revision, for a before and
after in one run: the shared machine's figures move by a third between minutes, so the
two sides alternate, each run a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["extract", "run_on", "run_sides"]


def extract(ref: str, into: Path) -> Path:
    """The tree of ``ref`` (this repository's), as files."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", "--", ref],
        capture_output=True,
        check=True,
    )
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run_on(tree: Path, script: Path, call: str) -> dict[str, Any]:
    """``call`` (an expression on the names of the file ``script``, e.g. ``_child(10, 3)``)
    evaluated in a new process whose imports come from ``tree``; the JSON it prints
    last. ``script`` is this tree's benchmark, measuring the other revision's code the
    same way, so it must import nothing at its top that the other revision lacks."""
    from benchmarks.seed import CACHE_ENV

    code = (
        "import json, runpy; "
        f"names = runpy.run_path({str(script)!r}, run_name='_run_on'); "
        f"print(json.dumps(eval({call!r}, names)))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    if CACHE_ENV in os.environ:  # where the seeded stores are kept
        env[CACHE_ENV] = os.environ[CACHE_ENV]
    env["PYTHONPATH"] = str(tree)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{script.name}: a run on {tree} failed:\n{done.stderr}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run_sides(script: Path, call: str, against: str | None, runs: int) -> dict[str, list[Any]]:
    """``call`` on this tree's code, ``runs`` times, and with ``against`` (a git revision)
    as many times on that revision's, the two alternating so that both see the same
    minutes: each run's JSON by side, "before (REF)" first, then "after (this tree)" (or
    "this tree" alone)."""
    here = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="anchormem-against-") as tmp:
        sides: list[tuple[str, Path]] = []
        if against:
            sides.append((f"before ({against})", extract(against, Path(tmp) / "tree")))
        sides.append(("after (this tree)" if against else "this tree", here))
        results: dict[str, list[Any]] = {label: [] for label, _ in sides}
        for _ in range(runs):
            for label, tree in sides:
                results[label].append(run_on(tree, script, call))
    return results
