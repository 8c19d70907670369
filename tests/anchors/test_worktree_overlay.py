"""The overlay without ``git status`` (issue 14, items 1 and 5): what is read, what is
hashed, when git is asked again, and what a work tree of huge untracked files costs."""

from __future__ import annotations

import os
import resource
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.gitrepo import GitRepository, git_blob_id
from tests.conftest import GitRepo

_OPENED: list[str] = []
_HOOKED = False


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event == "open" and args and isinstance(args[0], str | bytes | os.PathLike):
        _OPENED.append(os.fsdecode(args[0]))


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Names passed to ``open``/``os.open`` while the test runs (an audit hook cannot be
    removed, so one hook records into a list the fixture clears)."""
    global _HOOKED
    if not _HOOKED:
        sys.addaudithook(_audit)
        _HOOKED = True
    _OPENED.clear()
    yield _OPENED
    _OPENED.clear()


def age(root: Path, seconds: float = 30.0) -> None:
    """Date every file and directory of the work tree back, so no stat is too recent to
    be trusted (anchors.worktree.RACY_NS)."""
    then = time.time_ns() - int(seconds * 1e9)
    for dirpath, dirnames, filenames in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in filenames:
            os.utime(os.path.join(dirpath, name), ns=(then, then), follow_symlinks=False)
        os.utime(dirpath, ns=(then, then))


def test_an_unchanged_work_tree_is_neither_read_nor_listed_again(
    git_repo: GitRepo, opened: list[str]
):
    git_repo.commit({"a.py": "x = 1\n", "pkg/b.py": "y = 2\n", "README.md": "hello\n"})
    git_repo.write({"pkg/b.py": "y = 3\n", "new.py": "z = 1\n"})
    age(git_repo.root)
    with GitRepository(git_repo.root) as repo:
        first = repo.overlay()
        assert [e.path for e in first.entries] == ["new.py", "pkg/b.py"]
        listings = repo.overlay_listings
        opened.clear()
        for _ in range(20):
            assert repo.overlay() == first
        assert repo.overlay_listings == listings
        assert [p for p in opened if "/.git/" not in p] == []  # HEAD is read from .git


def test_new_files_anywhere_not_ignored_are_seen_and_ignored_ones_never(git_repo: GitRepo):
    git_repo.commit({"a.py": "", ".gitignore": "build/\n*.log\n", "lib/c.py": ""})
    for d in ("only-ignored", "empty", "build/deep"):
        (git_repo.root / d).mkdir(parents=True)
    (git_repo.root / "only-ignored/x.log").write_text("log\n")
    age(git_repo.root)
    with GitRepository(git_repo.root) as repo:
        assert repo.overlay().key == ""
        git_repo.write({"only-ignored/y.py": "", "empty/z.py": "", "lib/d.py": ""})
        git_repo.write({"build/deep/w.py": "", "lib/e.log": ""})
        paths = [e.path for e in repo.overlay().entries]
        assert paths == ["empty/z.py", "lib/d.py", "only-ignored/y.py"]
        age(git_repo.root)
        (git_repo.root / ".gitignore").write_text("build/\n*.log\n*.py\n")  # same directory
        assert [e.path for e in repo.overlay().entries] == [".gitignore"]


def test_a_staged_new_file_is_in_the_overlay(git_repo: GitRepo):
    git_repo.commit({"a.py": "", ".gitignore": "forced.py\n"})
    git_repo.write({"staged.py": "s = 1\n", "forced.py": "f = 1\n"})
    git_repo.git("add", "staged.py")
    git_repo.git("add", "-f", "forced.py")
    with GitRepository(git_repo.root) as repo:
        assert [e.path for e in repo.overlay().entries] == ["forced.py", "staged.py"]


def test_an_ignored_directory_is_never_walked(git_repo: GitRepo, opened: list[str]):
    git_repo.commit({"a.py": "", ".gitignore": "node_modules/\n"})
    for i in range(50):
        (git_repo.root / f"node_modules/p{i}/lib").mkdir(parents=True)
        (git_repo.root / f"node_modules/p{i}/lib/index.py").write_text("x = 1\n")
    opened.clear()
    with GitRepository(git_repo.root) as repo:
        assert repo.overlay().key == ""
    assert not [p for p in opened if "node_modules" in p]


def test_untracked_files_the_fingerprint_never_parses_are_not_read(
    git_repo: GitRepo, opened: list[str]
):
    git_repo.commit({"a.py": "import os\n"})
    blob = os.urandom(1024) * 2048  # 2 MiB
    for i in range(5):
        (git_repo.root / f"data/chunk{i}.bin").parent.mkdir(exist_ok=True)
        (git_repo.root / f"data/chunk{i}.bin").write_bytes(blob)
        (git_repo.root / f"data/notes{i}.txt").write_bytes(b"words " * 400_000)  # > 1 MiB
    (git_repo.root / "huge.py").write_bytes(b"x = 1\n" * 1_500_000)  # 9 MB > the parse cap
    (git_repo.root / "small.py").write_text("import json\n")
    with GitRepository(git_repo.root) as repo:
        opened.clear()
        by_path = {e.path: e for e in repo.overlay().entries}
    assert len(by_path) == 12
    unread = [p for p in by_path if p != "small.py"]
    assert all(by_path[p].blob_id.startswith("stat-") for p in unread)  # type: ignore[union-attr]
    assert not any(by_path[p].readable for p in unread)
    assert by_path["small.py"].blob_id == git_blob_id(b"import json\n")
    assert by_path["small.py"].readable
    assert not [p for p in opened if p.endswith((".bin", ".txt", "huge.py"))]


def test_a_big_tracked_file_is_hashed_by_streaming(git_repo: GitRepo):
    content = os.urandom(1024) * 1024 * 24  # 24 MiB
    git_repo.commit({"a.py": ""})
    (git_repo.root / "model.bin").write_bytes(content)
    git_repo.git("add", "model.bin")
    git_repo.git("commit", "-q", "-m", "model")
    (git_repo.root / "model.bin").write_bytes(content[:-1] + b"!")
    with GitRepository(git_repo.root) as repo:
        tracemalloc.start()
        [entry] = repo.overlay().entries
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert entry.blob_id == git_blob_id(content[:-1] + b"!") and not entry.readable
    assert peak < 4 * 1024 * 1024, peak


def test_the_fingerprint_parses_an_edited_file_and_reads_it_only_while_it_changes(
    git_repo: GitRepo, cache: InMemoryFactsCache, opened: list[str]
):
    git_repo.commit({"a.py": "import os\n", "b.py": "import re\n"})
    with CodeSource(git_repo.root, cache) as code:
        assert code.fingerprint().importers("json") == []
        git_repo.write({"a.py": "import json\n"})
        age(git_repo.root)
        assert [p for p, _ in code.fingerprint().importers("json")] == ["a.py"]
        opened.clear()
        for _ in range(5):
            assert [p for p, _ in code.fingerprint().importers("json")] == ["a.py"]
        assert not [p for p in opened if p.endswith("a.py")]


def test_one_call_reads_the_work_tree_once_and_the_next_call_sees_an_edit(
    git_repo: GitRepo, cache: InMemoryFactsCache
):
    git_repo.commit({"a.py": "import os\n", "b.py": "import re\n"})
    age(git_repo.root)
    with CodeSource(git_repo.root, cache) as code:
        with code.one_head():
            assert code.fingerprint().importers("json") == []
            git_repo.write({"a.py": "import json\n"})
            age(git_repo.root)
            # The same call: the state of the code it started with, overlay included.
            assert code.fingerprint().importers("json") == []
            with code.one_head():  # a nested block shares the outer one's
                assert code.fingerprint().importers("json") == []
        with code.one_head():  # the next call
            assert [p for p, _ in code.fingerprint().importers("json")] == ["a.py"]
        assert [p for p, _ in code.fingerprint().importers("json")] == ["a.py"]  # no block


@pytest.mark.slow
def test_a_gigabyte_of_untracked_files_costs_neither_memory_nor_time(git_repo: GitRepo):
    git_repo.commit({"a.py": "import os\n"})
    block = os.urandom(1024 * 1024)
    for i in range(150):  # 150 x 7 MiB, the case
        with open(git_repo.root / f"dump-{i:03}.dat", "wb") as out:
            for _ in range(7):
                out.write(block)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with CodeSource(git_repo.root, InMemoryFactsCache()) as code:
        fp = code.fingerprint()
        again = code.fingerprint()  # the times: python -m benchmarks.overlay --untracked-gb 1
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert len([p for p in fp.blobs if p.startswith("dump-")]) == 150
    assert again.overlay == fp.overlay
    assert grown_mb < 50, grown_mb
