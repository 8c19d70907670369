"""``anchormem bench`` (``benchmarks.recall``) in miniature: a small generated repository
and two small stores, run through the installed command. It checks what is printed, never
how fast."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import GitRepo, anchormem_env

SIZES = (30, 120)


def bench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("anchormem")
    env = anchormem_env()
    return subprocess.run(
        [str(script), "bench", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )


def test_bench_prints_every_measurement_as_a_positive_number(git_repo: GitRepo, tmp_path: Path):
    git_repo.commit({"app/main.py": "import os\n\n\ndef main():\n    return os.getcwd()\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = bench(
        "--repo",
        str(git_repo.root),
        "--files",
        "40",
        "--sizes",
        ",".join(str(s) for s in SIZES),
        "--samples",
        "20",
        "--head-changes",
        "3",
        cwd=elsewhere,
    )
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    expected = [
        "cpus",
        "cold_fingerprint_repo_s",
        "cold_fingerprint_repo_python_files",
        "cold_fingerprint_generated_40_files_s",
        "update_after_10_file_commit_ms",
        "update_parsed_files",
    ]
    for size in SIZES:
        expected += [
            f"store_{size}_fill_s",
            f"recall_{size}_warm_p50_ms",
            f"recall_{size}_warm_p99_ms",
            f"recall_{size}_after_head_change_p50_ms",
            f"recall_{size}_after_head_change_p99_ms",
        ]
    for name in expected:
        assert name in lines, f"{name} missing from:\n{done.stdout}"
        assert float(lines[name]) > 0, name
    assert int(lines["cold_fingerprint_repo_python_files"]) == 1
    assert int(lines["update_parsed_files"]) == 10
    for size in SIZES:
        assert 0 <= float(lines[f"recall_{size}_after_head_change_checked_pct"]) <= 100
    assert list(elsewhere.iterdir()) == []  # everything it made was temporary
    assert git_repo.git("status", "--porcelain") == ""  # and the measured repository untouched


def test_bench_json_is_one_object_with_the_same_measurements(tmp_path: Path):
    done = bench(
        "--json", "--files", "20", "--sizes", "20", "--samples", "5", "--head-changes", "2",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["recall_20_warm_p50_ms"] > 0
    assert result["cold_fingerprint_generated_20_files_s"] > 0


def test_bench_refuses_a_store_smaller_than_one_query_hits(tmp_path: Path):
    done = bench("--sizes", "5", cwd=tmp_path)
    assert done.returncode != 0
    assert "at least 10" in done.stderr and "Traceback" not in done.stderr
