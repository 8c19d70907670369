"""``python -m benchmarks drain`` in small: 30 memories, 40 remembers, one run. It checks
what is printed and that the figures are real (a drain with a backlog, a journal read
back with entries), never how fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import anchormem_env

LINE = re.compile(
    r"^this tree\s+largest drain: median\s+(?P<ms>\d+\.\d) ms \(runs [\d.]+; backlog"
    r" (?P<backlog>\d+)\); its journal read back: median\s+(?P<read>\d+\.\d) ms"
    r" \((?P<entries>\d+) entries\)$"
)


def _drain(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m benchmarks drain ARGS`` run as a user would, its seeded stores cached
    in ``tmp_path``."""
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", "drain", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_small_run_prints_the_largest_drain_and_its_journal_read_back(tmp_path: Path):
    done = _drain(tmp_path, "--size", "30", "--entries", "40", "--runs", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("drains during 40 remembers at 30 memories, 1 run(s) per side")
    found = LINE.match(lines[1])
    assert found, lines
    # 40 notes, none a restatement of another: each one is a journal entry (plus verdicts).
    assert int(found["entries"]) == 40, lines
    assert int(found["backlog"]) >= 40 and float(found["ms"]) > 0, lines


def test_bad_arguments_are_refused_with_a_message(tmp_path: Path):
    done = _drain(tmp_path, "--entries", "0")
    assert done.returncode != 0
    assert "--entries and --runs must be >= 1" in done.stderr


def test_against_a_revision_measures_its_code_beside_this_trees(tmp_path: Path):
    """``--against HEAD``: this file's measurement run on HEAD's tree (extracted with
    ``git archive``) and on this one, alternating; a line for each side."""
    args = ["--size", "30", "--entries", "20", "--runs", "1", "--against", "HEAD"]
    done = _drain(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("before (HEAD)") and "largest drain: median" in lines[1], lines
    assert lines[2].startswith("after (this tree)") and "(20 entries)" in lines[2], lines
