"""Overlay timings: ``python -m benchmarks overlay [--runs 2000] [--files 5000]
[--untracked-gb 0]``.

The overlay (uncommitted edits laid over HEAD) is computed on every remember and every
recall that checks a memory. This times ``GitRepository.overlay()`` per call, each way in
the same run: ``lstat`` (``watch=False``: every tracked file's stat looked at, as before
adr/0018) and ``watched`` (inotify: only what changed since the last call). It prints
plain ``name: value`` lines:

- on the experiments' fixture repository (``experiments/fixture.py``, ~60 files):
  ``git_status_*``, one ``git status --porcelain`` per call, as the overlay was computed
  before issue 14; ``overlay_clean_*`` on a clean work tree (caches hot);
  ``overlay_edited_*`` with one tracked file edited and one untracked file;
  ``overlay_store_written_*`` with the store's journal (in the ignored ``.anchormem/``)
  appended to before every call, as a remember does;
- on a generated repository of ``--files`` files, ~10 per directory
  (``generated_*``; 0 leaves it out): the first call (hashing every file; for
  ``watched``, also walking and watching every directory), a clean work tree, and a
  tracked file rewritten before every call (the write is not timed).

``--untracked-gb N`` then adds N GiB of untracked 7 MiB files to the fixture and prints
the first and a hot overlay's time and the process's peak RSS growth (issue 14, item 5).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from anchors.gitcommand import git_environment
from anchors.gitrepo import GitRepository
from experiments.fixture import build_fixture

__all__ = ["main"]


def _times_us(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - start) / 1000)
    return times


def _report(name: str, times: list[float], out: list[str]) -> None:
    ordered = sorted(times)
    out.append(f"{name}_p50_us: {statistics.median(ordered):.1f}")
    out.append(f"{name}_p99_us: {ordered[int(len(ordered) * 0.99) - 1]:.1f}")


def _age(root: Path) -> None:
    """Date the work tree back, as an hour-old checkout is (no stat is racy)."""
    then = time.time_ns() - 3600 * 10**9
    for dirpath, dirnames, filenames in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in filenames:
            os.utime(os.path.join(dirpath, name), ns=(then, then), follow_symlinks=False)
        os.utime(dirpath, ns=(then, then))


def _git_status(root: Path) -> None:
    subprocess.run(
        ["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
         "--ignore-submodules=all"],
        cwd=root, env=git_environment(), capture_output=True, check=True,
    )  # fmt: skip


_WAYS = (("lstat", False), ("watched", True))


def _bench_fixture(root: Path, runs: int, out: list[str]) -> None:
    build_fixture(root)
    _age(root)
    tracked = subprocess.check_output(["git", "ls-files", "-z"], cwd=root).count(b"\0")
    out.append(f"fixture_files: {tracked}")
    _report("git_status", _times_us(lambda: _git_status(root), max(runs // 10, 20)), out)
    with GitRepository(root, watch=False) as lstat, GitRepository(root) as watched:
        repos = {"lstat": lstat, "watched": watched}
        for repo in repos.values():
            repo.overlay()  # the first call hashes every tracked file once
        for way, repo in repos.items():
            _report(f"overlay_clean_{way}", _times_us(repo.overlay, runs), out)
        app = root / "shop" / "app.py"
        app.write_text(app.read_text() + "\n# edited\n")
        (root / "shop" / "scratch.py").write_text("import json\n")
        _age(root)
        for repo in repos.values():
            repo.overlay()
        for way, repo in repos.items():
            _report(f"overlay_edited_{way}", _times_us(repo.overlay, runs), out)
        # The store's journal, in the ignored .anchormem/, grows between two calls.
        (root / ".anchormem").mkdir()
        (root / ".anchormem" / ".gitignore").write_text("*\n")
        journal = root / ".anchormem" / "memory.duckdb.journal"
        with journal.open("ab") as handle:
            for way, repo in repos.items():
                repo.overlay()
                times = []
                for _ in range(runs):
                    handle.write(b"x" * 200)
                    handle.flush()
                    times += _times_us(repo.overlay, 1)
                _report(f"overlay_store_written_{way}", times, out)
        for way, repo in repos.items():
            out.append(f"overlay_git_listings_{way}: {repo.overlay_listings}")
            out.append(f"overlay_full_passes_{way}: {repo.overlay_full_passes}")
        out.append(f"overlay_watched: {watched.overlay_watched}")


def _generate(root: Path, files: int) -> int:
    """Commit ``files`` small files, ~10 per directory, two levels deep; the directories."""
    dirs: set[Path] = set()
    for n in range(files):
        path = root / "src" / f"area{n // 250}" / f"part{n // 10 % 25}" / f"mod{n}.py"
        if path.parent not in dirs:
            path.parent.mkdir(parents=True, exist_ok=True)
            dirs.add(path.parent)
        path.write_text(f"VALUE = {n}\n")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=git_environment())
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com",
         "-c", "commit.gpgsign=false", "commit", "-q", "-m", "generated"],
        cwd=root, check=True, env=git_environment(),
    )  # fmt: skip
    _age(root)
    return sum(1 for _ in root.glob("src/**/")) + 1


def _bench_generated(root: Path, files: int, runs: int, out: list[str]) -> None:
    root.mkdir()
    directories = _generate(root, files)
    out.append(f"generated_files: {files}")
    out.append(f"generated_directories: {directories}")
    edited = root / "src" / "area0" / "part0" / "mod0.py"
    for way, watch in _WAYS:
        with GitRepository(root, watch=watch) as repo:
            first = _times_us(repo.overlay, 1)[0]
            out.append(f"generated_first_overlay_{way}_ms: {first / 1000:.1f}")
            _report(f"generated_clean_{way}", _times_us(repo.overlay, runs), out)
            times = []
            for n in range(runs):  # same size each time: only the content changes
                edited.write_text(f"VALUE = {n % 2}\n")
                times += _times_us(repo.overlay, 1)
            _report(f"generated_one_edit_{way}", times, out)
            assert [e.path for e in repo.overlay().entries] == ["src/area0/part0/mod0.py"]
            out.append(f"generated_full_passes_{way}: {repo.overlay_full_passes}")
            edited.write_text("VALUE = 0\n")
            _age(root)


def _bench_untracked(root: Path, gigabytes: float, out: list[str]) -> None:
    block = os.urandom(1024 * 1024)
    count = int(gigabytes * 1024 / 7)
    for i in range(count):
        with open(root / f"dump-{i:04}.dat", "wb") as handle:
            for _ in range(7):
                handle.write(block)
    _age(root)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with GitRepository(root) as repo:
        first = _times_us(repo.overlay, 1)[0]
        hot = _times_us(repo.overlay, 50)
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    out.append(f"untracked_files: {count} x 7 MiB")
    out.append(f"untracked_first_overlay_ms: {first / 1000:.1f}")
    _report("untracked_overlay", hot, out)
    out.append(f"untracked_peak_rss_growth_mb: {grown:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.overlay")
    parser.add_argument("--runs", type=int, default=2000, help="overlay calls timed (default 2000)")
    parser.add_argument(
        "--files", type=int, default=5000, help="files of the generated repository (0: none)"
    )
    parser.add_argument("--untracked-gb", type=float, default=0.0, metavar="N")
    args = parser.parse_args(argv)
    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="anchormem-overlay-") as tmp:
        root = Path(tmp) / "shopfront"
        _bench_fixture(root, max(args.runs, 20), out)
        if args.files > 0:
            # Each call of the lstat way costs milliseconds here: fewer calls suffice.
            _bench_generated(Path(tmp) / "generated", args.files, max(args.runs // 5, 20), out)
        if args.untracked_gb > 0:
            _bench_untracked(root, args.untracked_gb, out)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
