"""The one git runner outside the product (``experiments/scratch.py``): a repository's own
configuration and the caller's environment never make it run a command or change identity."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from experiments.scratch import ScratchGitError, ScratchRepo, git, make_repo


def test_hooks_and_fsmonitor_in_the_repository_config_never_run(tmp_path: Path):
    repo = make_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    marker = tmp_path / "ran"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("pre-commit", "post-commit", "commit-msg", "fsmonitor"):
        hook = hooks / name
        hook.write_text(f"#!/bin/sh\necho {name} >> {marker}\n")
        hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    repo.git("config", "core.hooksPath", str(hooks))
    repo.git("config", "core.fsmonitor", str(hooks / "fsmonitor"))
    repo.commit({"b.py": "y = 2\n"}, "second")
    repo.git("status", "--porcelain")
    assert not marker.exists()


def test_the_callers_environment_and_global_config_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Global Person\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "From The Environment")
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    repo = ScratchRepo(tmp_path / "repo", ("Scratch", "scratch@example.com"))
    repo.commit({"a.py": ""}, "one")
    assert repo.git("log", "-1", "--format=%an <%ae>") == "Scratch <scratch@example.com>"
    assert (tmp_path / "repo" / ".git").is_dir() and not (tmp_path / "elsewhere").exists()
    assert os.environ["GIT_AUTHOR_NAME"] == "From The Environment"  # left as it was


def test_a_fixed_date_gives_reproducible_commits(tmp_path: Path):
    heads = [
        ScratchRepo(tmp_path / name).commit({"a.py": "x\n"}, "m", date="2024-01-01T00:00:00Z")
        for name in ("one", "two")
    ]
    assert heads[0] == heads[1]


def test_failures_carry_gits_message_and_option_like_revisions_are_refused(tmp_path: Path):
    repo = make_repo(tmp_path / "repo", {"a.py": ""})
    with pytest.raises(ScratchGitError, match="rev-parse --verify failed: fatal: Needed a single"):
        git(repo.root, "rev-parse", "--verify", "--end-of-options", "no-such-branch^{commit}")
    with pytest.raises(ValueError, match="not a revision"):
        repo.checkout("--orphan=x")
