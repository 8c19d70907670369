"""``python -m benchmarks.reference_memory --quick``: the MCP reference memory server
installed with npm into a fresh cache, two servers x 10 calls a scenario. It checks what
is printed, that no call failed and that the counts add up, never how fast; skipped where
npm or node is missing, or npm cannot reach its registry."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import anchormem_env

FIGURE = re.compile(
    r"^  (?P<name>\S+ loop)\s+(?P<calls>\d+) calls, (?P<rate>\d+\.\d+) calls/s,"
    r" p50 (?P<p50>\d+\.\d+) ms, p99 (?P<p99>\d+\.\d+) ms, max (?P<max>\d+\.\d+) ms;"
    r" (?P<errors>\d+) errors; (?P<acknowledged>\d+) acknowledged, (?P<lost>\d+) lost$"
)
# What npm says when it cannot reach the registry (no network, no proxy, DNS down).
OFFLINE = re.compile(r"E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|network")


@pytest.mark.slow  # ~10 s: an npm install (network), four node servers started
def test_quick_reference_memory_run_prints_one_line_per_scenario(tmp_path: Path) -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node is not installed, so the reference memory server cannot run")
    cache = tmp_path / "cache"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.reference_memory", "--quick"],
        cwd=tmp_path,
        env=anchormem_env(ANCHORMEM_BENCH_CACHE=str(cache)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    offline = OFFLINE.search(done.stderr) if done.returncode == 2 else None
    if offline and "failed (exit" in done.stderr:
        pytest.skip(f"npm could not reach its registry ({offline[0]}) to install the server")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("MCP reference memory server (@modelcontextprotocol/server-memory@")
    assert re.search(r"load average \d+\.\d+ \d+\.\d+ \d+\.\d+$", lines[0]), lines[0]
    assert re.match(r"load average at the end \d+\.\d+ \d+\.\d+ \d+\.\d+$", lines[-1]), lines[-1]
    figures = {}
    for line in lines[2:-1]:
        match = FIGURE.match(line)
        assert match, f"not a figure: {line!r}"
        figures[match["name"]] = {k: float(v) for k, v in match.groupdict().items() if k != "name"}
    assert list(figures) == ["mixed_2x10 loop", "writes_2x10 loop"]
    # 2 servers x 10 timed calls; acknowledged: the timed writes (half the mixed calls)
    # and each server's one warm-up write.
    for name, acknowledged in (("mixed_2x10 loop", 2 * 5 + 2), ("writes_2x10 loop", 2 * 10 + 2)):
        f = figures[name]
        assert (f["calls"], f["errors"], f["acknowledged"]) == (20, 0, acknowledged), f
        assert 0 <= f["lost"] <= f["acknowledged"], f
        assert f["rate"] > 0 and 0 < f["p50"] <= f["p99"] <= f["max"], f
    assert (cache / "reference-memory" / "node_modules" / "@modelcontextprotocol").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]  # the rest was temporary
