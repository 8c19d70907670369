"""No command named by a repository's git config ever runs (issue 14, item 1).

Each vector is armed in a real repository with a canary: the command it names appends to
a file. A control run of plain git shows the vector is live (the canary appears), then
everything anchormem does with the repository (open, fingerprint, overlay after a
touched tracked file and a new untracked one, remember and recall through the service,
doctor) must leave no canary. The commands that would run the drivers (``status``,
``diff``, ``commit``) are also run through anchormem's own git runner, to show that its
overrides hold even for them."""

from __future__ import annotations

import contextlib
import os
import pty
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.gitrepo import GitError, GitRepository
from server.config import Settings
from server.doctor import run_doctor
from server.runtime import open_runtime
from tests.conftest import GitRepo, settings_env

Arm = Callable[[GitRepo, str], list[str]]  # configures a vector; returns the control command


def _script(repo: GitRepo, name: str, command: str, status: int = 0) -> str:
    path = repo.root.parent / name
    path.write_text(f"#!/bin/sh\n{command}\nexit {status}\n")
    path.chmod(0o755)
    return str(path)


def _filter(key: str) -> Arm:
    def arm(repo: GitRepo, run: str) -> list[str]:
        repo.git("config", f"filter.x.{key}", f"{run}; cat")
        if key == "process":
            repo.git("config", "filter.x.process", run)
        if key != "smudge":
            repo.git("config", "filter.x.required", "true")
        return ["status"] if key != "smudge" else ["checkout", "--", "a.py"]

    return arm


def _diff_textconv(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "diff.x.textconv", f"{run}; cat")
    return ["diff", "HEAD"]


def _diff_command(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "diff.x.command", run)
    return ["diff", "HEAD"]


def _diff_external(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "diff.external", run)
    return ["diff", "HEAD"]


def _fsmonitor(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "core.fsmonitor", _script(repo, "fsmonitor.sh", run))
    return ["status"]


def _hooks(repo: GitRepo, run: str) -> list[str]:
    hooks = repo.root.parent / "hooks"
    hooks.mkdir()
    for name in ("pre-commit", "post-commit", "post-checkout", "post-index-change",
                 "reference-transaction", "fsmonitor-watchman", "pre-auto-gc"):  # fmt: skip
        (hooks / name).write_text(f"#!/bin/sh\n{run}\n")
        (hooks / name).chmod(0o755)
    repo.git("config", "core.hooksPath", str(hooks))
    return ["commit", "-q", "--allow-empty", "-m", "control"]


def _pager(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "core.pager", f"{run}; cat")
    return ["-p", "log", "-1"]


def _editor(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "core.editor", f"{run}; true")
    return ["commit", "--allow-empty", "-q"]


def _include(repo: GitRepo, run: str) -> list[str]:
    extra = repo.root.parent / "extra.gitconfig"
    extra.write_text(f"[filter \"y\"]\n\tclean = {run}; cat\n")
    (repo.root / ".gitattributes").write_text("*.py filter=x diff=x\n*.txt filter=y\n")
    repo.git("config", "include.path", str(extra))
    (repo.root / "notes.txt").write_text("tracked?\n")
    return ["add", "--dry-run", "notes.txt"]


def _include_if(repo: GitRepo, run: str) -> list[str]:
    extra = repo.root.parent / "extra-if.gitconfig"
    extra.write_text(f"[core]\n\tfsmonitor = {_script(repo, 'fsmon-if.sh', run)}\n")
    repo.git("config", f"includeIf.gitdir:{repo.root}/.git.path", str(extra))
    return ["status"]


def _partial_clone(repo: GitRepo, run: str) -> list[str]:
    """A lazy fetch of a missing blob through a remote helper named by the config."""
    repo.git("config", "extensions.partialClone", "origin")
    repo.git("config", "remote.origin.promisor", "true")
    repo.git("config", "remote.origin.url", f"ext::{_script(repo, 'helper.sh', run, 1)}")
    repo.git("config", "protocol.ext.allow", "always")
    # A missing object id under the promisor: cat-file fetches it from "origin".
    return ["cat-file", "-p", "1" * 40]


def _ssh_command(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "extensions.partialClone", "origin")
    repo.git("config", "remote.origin.promisor", "true")
    repo.git("config", "remote.origin.url", "ssh://example.invalid/repo.git")
    repo.git("config", "core.sshCommand", f"{run}; false")
    return ["cat-file", "-p", "2" * 40]


def _credential_helper(repo: GitRepo, run: str) -> list[str]:
    repo.git("config", "credential.helper", f"!{run}; true")
    return ["credential", "fill"]


VECTORS: dict[str, Arm] = {
    "filter clean": _filter("clean"),
    "filter smudge": _filter("smudge"),
    "filter process": _filter("process"),
    "diff textconv": _diff_textconv,
    "diff command": _diff_command,
    "diff.external": _diff_external,
    "core.fsmonitor": _fsmonitor,
    "core.hooksPath": _hooks,
    "core.pager": _pager,
    "core.editor": _editor,
    "include.path": _include,
    "includeIf": _include_if,
    "partial clone remote helper": _partial_clone,
    "core.sshCommand": _ssh_command,
    "credential.helper": _credential_helper,
}


def _plain_git(repo: GitRepo, args: list[str]) -> None:
    """git as a user would run it in the repository (a terminal-less shell)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=str(repo.root.parent), GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@b", GIT_COMMITTER_NAME="a",
               GIT_COMMITTER_EMAIL="a@b")  # fmt: skip
    env.pop("PAGER", None)
    # git pages only to a terminal: the pager's control gets a pseudo-terminal.
    leader, follower = pty.openpty()
    try:
        subprocess.run(
            ["git", *args], cwd=repo.root, env=env,
            input=b"protocol=https\nhost=example.com\n\n", stderr=subprocess.DEVNULL,
            stdout=follower if args[0] == "-p" else subprocess.DEVNULL, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.close(leader)
        os.close(follower)


@pytest.fixture
def armed(git_repo: GitRepo, request: pytest.FixtureRequest) -> tuple[GitRepo, Path]:
    git_repo.commit(
        {".gitattributes": "*.py filter=x diff=x merge=x\n", "a.py": "import os\n"}, "initial"
    )
    canary = git_repo.root.parent / "canary.txt"
    run = f"echo ran >> {shlex.quote(str(canary))}"
    control = VECTORS[request.param](git_repo, run)
    (git_repo.root / "a.py").write_text("import re\n")  # same size: git must filter it
    _plain_git(git_repo, control)
    assert canary.exists(), f"the control did not trigger {request.param}: the test is void"
    canary.unlink()
    os.utime(git_repo.root / "a.py", ns=(1, 1))  # and a new stat
    (git_repo.root / "b.py").write_text("import json\n")  # untracked, parsed
    return git_repo, canary


@pytest.mark.parametrize("armed", sorted(VECTORS), indirect=True)
def test_no_command_from_the_repository_config_runs(
    armed: tuple[GitRepo, Path], tmp_path: Path
) -> None:
    repo, canary = armed
    with CodeSource(repo.root, InMemoryFactsCache()) as code:
        fp = code.fingerprint()
        assert "b.py" in fp.blobs and fp.overlay
        assert code.fingerprint().overlay == fp.overlay
    with GitRepository(repo.root) as git:
        assert {e.path for e in git.overlay().entries} >= {"b.py"}
        head = git.head().commit
        assert head is not None
        with contextlib.suppress(GitError):  # git exits when a lazy fetch is refused
            git.read_blobs([head, "1" * 40, "2" * 40])
        # Commands anchormem never runs, through its runner: the overrides hold for them too.
        for args in (["status"], ["diff", "HEAD"], ["-p", "log", "-1"], ["add", "--dry-run", "."],
                     ["commit", "-q", "--allow-empty", "-m", "x"], ["cat-file", "-p", "1" * 40],
                     ["checkout", "--", "a.py"]):  # fmt: skip
            git._run(*args, check=False)
    settings = Settings.resolve(
        repo=str(repo.root), db=str(tmp_path / "m.duckdb"), env=settings_env()
    )
    runtime = open_runtime(settings)
    try:
        made = runtime.service.remember(
            "The app uses regular expressions", anchors=["import:re@a.py"]
        )
        runtime.service.recall("regular expressions", 5, wait_s=5.0)
        runtime.service.verify(made.reading.id)
    finally:
        runtime.close()
    run_doctor(settings)
    assert not canary.exists(), canary.read_text()
