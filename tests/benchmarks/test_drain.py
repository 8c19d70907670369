"""``python -m benchmarks drain`` in small: 30 memories, 40 remembers, one run. It checks
what is printed and that the figures are real (a drain with a backlog, a journal read
back with entries), never how fast."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

LINE = re.compile(
    r"^this tree\s+largest drain: median\s+(?P<ms>\d+\.\d) ms \(runs [\d.]+; backlog"
    r" (?P<backlog>\d+)\); its journal read back: median\s+(?P<read>\d+\.\d) ms"
    r" \((?P<entries>\d+) entries\)$"
)


def test_a_small_run_prints_the_largest_drain_and_its_journal_read_back(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    args = ["--size", "30", "--entries", "40", "--runs", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "drain", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("drains during 40 remembers at 30 memories, 1 run(s) per side")
    found = LINE.match(lines[1])
    assert found, lines
    # 40 notes, none a restatement of another: each one is a journal entry (plus verdicts).
    assert int(found["entries"]) == 40, lines
    assert int(found["backlog"]) >= 40 and float(found["ms"]) > 0, lines


def test_bad_arguments_are_refused_with_a_message(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "drain", "--entries", "0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "--entries and --runs must be >= 1" in done.stderr
