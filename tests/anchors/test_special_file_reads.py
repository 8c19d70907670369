"""Files that are not regular files where anchormem or git reads: never opened by
anchormem (``read_regular``, ``refuse_special``), and what the repository says then.
The CLI's answer with each is in ``tests/server/test_special_files.py``."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from anchors.gitrepo import GitRepository, RepoStatus
from anchors.worktree_files import SpecialFile, read_regular, refuse_special
from tests.conftest import GitRepo

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")


class Readers:
    """Who opened ``fifo`` for reading first: a writer waits for a reader meanwhile, in
    the kernel (seen in its ``wchan`` before the test goes on), and notes whether the
    test's own open (``ours``) had come when its wait ended."""

    def __init__(self, fifo: Path) -> None:
        self.fifo = fifo
        self.came = threading.Event()
        self._ours = threading.Event()
        self.first_was_ours = False
        self._writer = threading.Thread(target=self._wait, daemon=True)
        self._writer.start()
        wchan = Path(f"/proc/self/task/{self._writer.native_id}/wchan")
        deadline = time.monotonic() + 30  # a safety net, not a timing assertion
        while not self.came.is_set() and _read(wchan) != "wait_for_partner":
            assert time.monotonic() < deadline, "the writer never waited for a reader"
            time.sleep(0.001)

    def _wait(self) -> None:
        fd = os.open(self.fifo, os.O_WRONLY)
        self.first_was_ours = self._ours.is_set()
        self.came.set()
        os.close(fd)

    def ours(self) -> bool:
        """Open ``fifo`` for reading; whether that was the first open for reading."""
        self._ours.set()
        fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            assert self.came.wait(30), "the writer's wait did not end"
        finally:
            os.close(fd)
        return self.first_was_ours


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def test_read_regular_refuses_a_fifo_without_opening_it(tmp_path: Path):
    fifo = tmp_path / "HEAD"
    os.mkfifo(fifo)
    readers = Readers(fifo)
    with pytest.raises(SpecialFile, match="is a FIFO"):
        read_regular(fifo)
    assert readers.ours()  # read_regular never opened it
    with pytest.raises(IsADirectoryError):
        read_regular(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing")
    (tmp_path / "ref").write_text("ref: refs/heads/main\n")
    (tmp_path / "link").symlink_to(tmp_path / "ref")  # a symbolic HEAD of old
    assert read_regular(tmp_path / "link") == b"ref: refs/heads/main\n"


def test_refuse_special_passes_files_git_does_not_wait_on(tmp_path: Path):
    fifo = tmp_path / "config"
    os.mkfifo(fifo)
    with pytest.raises(SpecialFile):
        refuse_special(fifo)
    refuse_special(os.devnull)  # the usual GIT_CONFIG_GLOBAL=/dev/null
    refuse_special(tmp_path)
    refuse_special(tmp_path / "missing")
    (tmp_path / "regular").write_text("")
    refuse_special(tmp_path / "regular")


def test_a_fifo_at_the_branch_ref_is_a_git_error_naming_it_until_it_is_a_file_again(
    git_repo: GitRepo,
):
    commit = git_repo.commit({"a.py": "x = 1\n"})
    ref = git_repo.root / ".git" / "refs" / "heads" / "main"
    ref.unlink()
    os.mkfifo(ref)
    readers = Readers(ref)
    with GitRepository(git_repo.root, watch=False) as repo:
        head = repo.head()
        assert head.status is RepoStatus.GIT_ERROR and head.commit is None
        assert "refs/heads/main" in head.detail and "FIFO" in head.detail
        assert readers.ours()
        ref.unlink()
        ref.write_text(commit + "\n")
        assert repo.head().commit == commit


def test_without_info_exclude_the_listing_still_honours_gitignore_and_the_global_file(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A FIFO at info/exclude holds no pattern: .gitignore and core.excludesFile are
    read as --exclude-standard reads them."""
    git_repo.commit({".gitignore": "*.log\n", "a.py": "x = 1\n"})
    excludes = tmp_path / "global-ignore"
    excludes.write_text("*.tmp\n")
    git_repo.git("config", "core.excludesFile", str(excludes))
    git_repo.write({"new.py": "y = 2\n", "debug.log": "x\n", "scratch.tmp": "x\n"})
    exclude = git_repo.root / ".git" / "info" / "exclude"
    exclude.unlink()
    os.mkfifo(exclude)
    readers = Readers(exclude)
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    with GitRepository(git_repo.root, watch=False) as repo:
        paths = [e.path for e in repo.overlay().entries]
    assert paths == ["new.py"]
    assert readers.ours()
