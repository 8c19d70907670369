"""``python -m benchmarks.layers --quick``: a store of 50 memories, 10 calls a line. It
checks what is printed and that every figure is a positive number, never how fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import anchormem_env

FIGURE = re.compile(r"^(?P<label>\S.*?)\s+p50 (?P<p50>\d+\.\d+) ms  p99 (?P<p99>\d+\.\d+) ms$")


@pytest.mark.slow  # ~45 s: seeding 50 memories, a server in process
def test_quick_layers_run_prints_the_service_and_the_mcp_client_lines(tmp_path: Path):
    env = anchormem_env()
    env["ANCHORMEM_BENCH_CACHE"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "layers", "--quick"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("layers at 50 memories, 10 calls per line"), lines
    labels = []
    assert re.fullmatch(r"conflict check warm: \d+ memories in \d+\.\d\d s", lines[1]), lines
    for line in lines[2:]:
        match = FIGURE.match(line)
        assert match, f"not a figure: {line!r}"
        assert 0 < float(match["p50"]) <= float(match["p99"])
        labels.append(match["label"])
    assert labels == [
        "service + renderer: remember",
        "service + renderer: recall",
        "owner's direct answer: remember",
        "owner's direct answer: recall",
        "in-memory MCP client: recall",
    ]
