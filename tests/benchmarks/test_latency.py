"""``python -m benchmarks.latency`` in quick form: a store of 30 memories, 10 calls a figure.
It checks what is printed and that every figure is a positive number, never how fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import anchormem_env

FIGURE = re.compile(r"^(?P<label>\S.*?)\s+p50 (?P<p50>\d+\.\d+) ms  p99 (?P<p99>\d+\.\d+) ms")


@pytest.mark.slow  # ~15 s of CPU: seeding 30 memories, four servers started
def test_quick_latency_run_prints_the_floor_remember_and_recall(tmp_path: Path):
    cache = tmp_path / "cache"
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(cache)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.latency", "--quick", "--sizes", "30", "--warmup", "2"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("MCP stdio latency: 10 timed calls per figure after 2 warm-up")
    assert re.search(r"load average \d+\.\d+ \d+\.\d+ \d+\.\d+$", lines[0]), lines[0]
    assert lines[-1].startswith("load average at the end ")
    figures = {}
    for line in lines[1:-1]:
        match = FIGURE.match(line)
        assert match, f"not a figure: {line!r}"
        p50, p99 = float(match["p50"]), float(match["p99"])
        assert 0 < p50 <= p99, line
        figures[match["label"]] = line
    assert list(figures) == [
        "floor   trivial tool, raw client",
        "floor   trivial tool, sdk client",
        "remember at 30 memories, raw",
        "recall (verify on) at 30 memories, raw",
        "remember at 30 memories, sdk",
        "recall (verify on) at 30 memories, sdk",
    ]
    for client in ("raw", "sdk"):
        assert "(floor beside it p50 " in figures[f"remember at 30 memories, {client}"]
    assert "seed: 30 memories in" in done.stderr  # seeded once, into the given cache
    assert [p.suffix for p in cache.iterdir()] == [".duckdb"]
    assert list(elsewhere.iterdir()) == []  # everything else was temporary
