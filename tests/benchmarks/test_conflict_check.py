"""``python -m benchmarks conflict_check`` in small: 30 memories, 12 notes, this tree
against its own HEAD. It checks what is printed, that every figure is a positive number
and that both sides made the same decisions, never how fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import anchormem_env

FIGURE = re.compile(
    r"^(?P<label>\S.*?, (?:wall|cpu))\s+p50\s+(?P<p50>\d+\.\d+)\s+p99\s+(?P<p99>\d+\.\d+)"
    r"\s+max\s+(?P<max>\d+\.\d+)\s+mean\s+\d+\.\d+"
)


@pytest.mark.slow  # ~6 s: a store of 30 memories seeded, a git archive, two processes
def test_a_small_run_against_head_prints_both_sides_and_the_same_decisions(tmp_path: Path):
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    args = ["--size", "30", "--notes", "12", "--runs", "1", "--against", "HEAD"]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "conflict_check", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("conflict check (claim_keys + on_remember) at 30 memories"), lines
    figures = [FIGURE.match(line) for line in lines[1:5]]
    assert all(figures), lines
    labels = [f["label"] for f in figures if f]
    assert labels == [
        "before (HEAD), wall",
        "after (this tree), wall",
        "before (HEAD), cpu",
        "after (this tree), cpu",
    ]
    for f in figures:
        assert f and 0 < float(f["p50"]) <= float(f["p99"]) <= float(f["max"])
    assert any(line.startswith("decisions: the same in every run") for line in lines), lines
