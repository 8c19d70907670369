"""``python -m benchmarks shared-store`` run as a user runs it, at tiny sizes, against the
throwaway PostgreSQL server it starts itself: every figure is printed for both stores,
the servers' calls are all counted, none fails, and every acknowledged write (remembered
ids, retractions) is in the store afterwards. How fast is never checked here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.pg_cluster import PgUnavailable, find_bin

ROOT = Path(__file__).resolve().parents[2]
_P = r"p50 [\d.]+ ms  p99 [\d.]+ ms"
_MANY = re.compile(
    r"(\d+) calls, ([\d.]+) calls/s, p50 [\d.]+ ms, p99 [\d.]+ ms; (\d+) errors;"
    r" remembers acknowledged (\d+), present (\d+); retracts acknowledged (\d+), present (\d+)"
)


@pytest.mark.slow  # ~20-40 s: a PostgreSQL server and a dozen anchormem processes started
def test_shared_store_benchmark_prints_both_stores_and_loses_no_write(tmp_path: Path) -> None:
    try:
        find_bin()
    except PgUnavailable as exc:
        pytest.skip(str(exc))
    servers, calls = 2, 8
    done = subprocess.run(
        [
            sys.executable, "-m", "benchmarks", "shared-store", "--sizes", "30", "--calls", "5",
            "--servers", str(servers), "--server-calls", str(calls), "--shared-size", "30",
            "--cache", str(tmp_path / "cache"),
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    # (a): each figure for DuckDB, then PostgreSQL, on one line; PostgreSQL seeded by COPY.
    for figure in ("floor (SELECT 1)", "remember", "recall"):
        assert re.search(rf"30 memories: {re.escape(figure)}\s+{_P}\s+{_P}$", out, re.M), out
    assert re.search(r"30 memories: seeded .*COPY [\d.]+ s \(30 rows\)", out), out
    # (b): the floor, DuckDB through its owner, PostgreSQL on one clone and on two.
    assert re.search(rf"floor .*{servers * calls} calls, [\d.]+ calls/s", out), out
    assert "a server in clone b" in out, out
    many = _MANY.findall(out)
    assert len(many) == 3, out
    for total, rate, errors, remembered, present, retracted, refuted in many:
        assert int(total) == servers * calls and float(rate) > 0, out
        assert int(errors) == 0, out
        # a warm-up remember each, then remember, recall, remember, retract, twice
        assert int(remembered) == servers * (1 + calls // 2) == int(present), out
        assert int(retracted) == servers * (calls // 4) == int(refuted), out
