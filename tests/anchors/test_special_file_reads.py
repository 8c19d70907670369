"""Files that are not regular files where anchormem or git reads: never opened by
anchormem (``read_regular``, ``refuse_special``), and what the repository says then.
The CLI's answer with each is in ``tests/server/test_special_files.py``."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from anchors.gitrepo import GitRepository, RepoStatus
from anchors.worktree_files import SpecialFile, read_regular, refuse_special
from tests.conftest import GitRepo

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")


def _reader_came(fifo: Path) -> threading.Event:
    """Set when anything opens ``fifo`` for reading (a writer waits on it meanwhile)."""
    came = threading.Event()

    def wait() -> None:
        fd = os.open(fifo, os.O_WRONLY)
        came.set()
        os.close(fd)

    threading.Thread(target=wait, daemon=True).start()
    return came


def _release(fifo: Path) -> None:
    os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))


def test_read_regular_refuses_a_fifo_without_opening_it(tmp_path: Path):
    fifo = tmp_path / "HEAD"
    os.mkfifo(fifo)
    came = _reader_came(fifo)
    with pytest.raises(SpecialFile, match="is a FIFO"):
        read_regular(fifo)
    assert not came.wait(0.2)
    _release(fifo)
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
    came = _reader_came(ref)
    with GitRepository(git_repo.root, watch=False) as repo:
        head = repo.head()
        assert head.status is RepoStatus.GIT_ERROR and head.commit is None
        assert "refs/heads/main" in head.detail and "FIFO" in head.detail
        assert not came.is_set()
        _release(ref)
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
    came = _reader_came(exclude)
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    with GitRepository(git_repo.root, watch=False) as repo:
        paths = [e.path for e in repo.overlay().entries]
    assert paths == ["new.py"]
    assert not came.is_set()
    _release(exclude)
