"""``python -m benchmarks prose``: a short run against this very checkout prints a figure
for each version and finds every reading identical. It checks what is printed, never how
fast."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURE = re.compile(
    r"^  fixture \(\d+ files\) (infer_anchors|resolve_subject) +(\d+) / +(\d+) / +(\d+)$"
)


def test_a_short_run_against_itself_prints_both_versions_and_identical_readings() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "prose", "--against", str(ROOT), "--rounds", "1",
         "--passes", "1", "--limit", "12", "--salad", "8"],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    figures = [FIGURE.match(line) for line in lines if line.startswith("  fixture (")]
    assert len(figures) == 4 and all(figures), lines
    for match in figures:
        assert match is not None and int(match[2]) <= int(match[3])
    assert "identical readings: 20/20" in lines, lines
