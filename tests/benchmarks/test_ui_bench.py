"""``python -m benchmarks ui`` in small: 30 memories, two requests a page. It checks what
is printed and that every page was really served (each a 200 with a body), never how
fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import anchormem_env

FIGURE = re.compile(
    r"^(?P<label>.+?)\s+first byte p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+whole p50\s+[\d.]+ ms"
    r"\s+p99\s+[\d.]+ ms\s+\((?P<kb>\d+) KB; floor beside it p50 [\d.]+ ms\)$"
)


def test_a_small_run_prints_each_page_beside_the_floor_and_the_target(tmp_path: Path):
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "ui", "--size", "30", "--requests", "2",
         "--warmup", "0"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("anchormem ui at 30 memories, 2 requests per page")
    assert lines[1].startswith("memories, first page, cold")
    figures = {m["label"]: int(m["kb"]) for m in map(FIGURE.match, lines[2:]) if m}
    assert set(figures) >= {
        "floor: a constant page",
        "memories, first page",
        "memories, page 20",
        "memories, kind=decision",
        "one memory",
        "review & conflicts",
    }
    assert figures["memories, first page"] > 5  # a page of memories, not an error
    assert lines[-1].startswith("target: the memories page whole <= 1000 ms")
