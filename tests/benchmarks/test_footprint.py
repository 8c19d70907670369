"""``python -m benchmarks footprint`` at tiny sizes: every line it prints is there, with
positive numbers, and the processes it measured are the store's. Never how much or how fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import anchormem_env

MEMORY = re.compile(r"^(?P<label>\S.*?)\s+rss (?P<rss>\d+\.\d) MB  pss (?P<pss>\d+\.\d) MB")
TIMED = re.compile(r"^(?P<label>\S.*?)\s+median (?P<median>\d+\.\d{3}) s  \(min ")


@pytest.mark.slow  # ~15 s: 20 memories seeded, a server and its owner, 6 cold CLI calls
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_footprint_prints_each_process_the_total_and_the_cold_cli_beside_floors(
    tmp_path: Path,
) -> None:
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "footprint", "--memories", "20", "--runs", "1",
         "--settle", "0.5", "--reference-cache", str(tmp_path / "none")],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("footprint: 20 memories, ")
    assert lines[-1].startswith("load average at the end ")

    memory = {m["label"]: m for m in map(MEMORY.match, lines) if m}
    roles = [label.split(" (pid")[0] for label in memory if label.startswith("anchormem ")]
    assert roles[:2] == ["anchormem serve", "anchormem owner"], roles
    total = next(m for label, m in memory.items() if label.startswith("anchormem total, "))
    parts = [m for label, m in memory.items() if "(pid " in label]
    assert f"{len(parts)} processes" in total["label"]
    # The total is the sum of the lines above it (each rounded to 0.1 MB).
    assert abs(float(total["rss"]) - sum(float(m["rss"]) for m in parts)) <= 0.1 * len(parts)
    for label in ("floor   python, bare", "floor   python, import duckdb, mcp"):
        assert float(memory[label]["rss"]) > 0, label
    assert any(
        line.startswith("floor   reference memory server") and "not installed" in line
        for line in lines
    )

    timed = {m["label"]: m for m in map(TIMED.match, lines) if m}
    assert list(timed)[:2] == ["floor   python -c pass", "floor   python -c 'import duckdb'"]
    cold = [label for label in timed if label.startswith("anchormem ")]
    assert cold[0] == "anchormem list" and cold[1].startswith("anchormem recall ")
    assert cold[2] == "anchormem list, just after a commit"
    assert all(float(m["median"]) > 0 for m in timed.values())
    for line in lines:
        if line.startswith(("anchormem list", "anchormem recall ")):
            assert re.search(r"left an owner running after \d+ of 1$", line), line
    assert list(elsewhere.iterdir()) == []  # everything else was temporary
