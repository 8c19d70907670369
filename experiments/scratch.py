"""Scratch git repositories, and the one git runner of everything around the product.

The experiments (the shopfront fixture, the real-repository corpus, the private clones of
the contamination experiment), the benchmarks, the harness scripts and the test suite all
build throwaway repositories and run git in them. They all do it through ``git()`` and
``ScratchRepo`` here, so the safety rules below are written once.

Why this module lives in ``experiments``: the dependency direction. ``anchors`` is the
product; it reads repositories its own way (``anchors/gitrepo.py``, read-only, with its own
rules) and imports no tooling. Of the packages around the product, ``experiments`` is the
lowest: ``benchmarks`` builds on it (its scratch repository is the experiments' shopfront
fixture), the tests and ``scripts/`` import both, and this module imports nothing of
anchormem. A runner in ``benchmarks`` would make ``experiments`` import ``benchmarks``
while ``benchmarks`` imports the fixture: a cycle between the two packages.

Safety rules of every call:

* a clean environment: ``PATH``, ``HOME`` (the repository itself), ``LC_ALL=C`` and the
  commit identity, nothing inherited; no system or global configuration
  (``GIT_CONFIG_NOSYSTEM=1``, ``GIT_CONFIG_GLOBAL=/dev/null``) and no prompts;
* configuration that could make git run a command is overridden on the command line,
  which wins over the repository's own ``.git/config``: hooks point at ``/dev/null``, no
  fsmonitor, no signing (so no ``gpg.program``), no global attributes or excludes file;
* the fixed options come first, then the caller's; a caller puts every value that is not
  its own (a path, a revision typed by a person) after ``--`` (or ``--end-of-options``
  where git reads revisions, not paths), so a value can never be read as an option.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from experiments.errors import ExperimentError

__all__ = ["IDENTITY", "ScratchGitError", "ScratchRepo", "git", "make_repo"]

IDENTITY = ("anchormem-scratch", "scratch@example.com")

_SAFE = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.symlinks=true",
    "-c",
    "core.attributesFile=/dev/null",
    "-c",
    "core.excludesFile=/dev/null",
    "-c",
    "commit.gpgSign=false",
    "-c",
    "tag.gpgSign=false",
    "-c",
    "init.defaultBranch=main",
)


class ScratchGitError(subprocess.CalledProcessError, ExperimentError):
    """A git command of a scratch repository failed; its message carries git's own
    stderr. In the error tree (an experiment or benchmark cannot run), and still a
    ``CalledProcessError`` for callers that want the exit status and output."""

    def __str__(self) -> str:
        args = self.cmd[len(_SAFE) + 1 : len(_SAFE) + 3]
        detail = (self.stderr or "").strip() or f"exit status {self.returncode}"
        return f"git {' '.join(args)} failed: {detail}"


def _env(root: Path, identity: tuple[str, str], date: str | None) -> dict[str, str]:
    name, email = identity
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root),
        "LC_ALL": "C",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
    }
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    return env


def git(
    root: Path, *args: str, identity: tuple[str, str] = IDENTITY, date: str | None = None
) -> str:
    """Run ``git ARGS`` in ``root`` under the rules above and return its stdout, stripped.
    ``identity`` is the (name, email) of any commit made, ``date`` its author and committer
    date (for reproducible commit ids). Raises ``ScratchGitError`` when git fails."""
    cmd = ["git", *_SAFE, *args]
    done = subprocess.run(
        cmd, cwd=root, env=_env(root, identity, date), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise ScratchGitError(done.returncode, cmd, done.stdout, done.stderr)
    return done.stdout.strip()


class ScratchRepo:
    """A throwaway repository on branch ``main``, made in ``root`` (created if missing)."""

    def __init__(self, root: Path, identity: tuple[str, str] = IDENTITY) -> None:
        self.root = root
        self.identity = identity
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        # Also in the repository's own config, for git run without this module's options
        # (the product's reader, a test's own subprocess).
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, date: str | None = None) -> str:
        return git(self.root, *args, identity=self.identity, date=date)

    def write(self, files: Mapping[str, str | None]) -> None:
        """Write (or, for ``None``, delete) files in the work tree without committing."""
        for rel, content in files.items():
            path = self.root / rel
            if content is None:
                if path.exists():
                    path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)

    def commit(
        self, files: Mapping[str, str | None], message: str = "change", date: str | None = None
    ) -> str:
        """Apply ``files`` and commit everything in the work tree; return the new commit."""
        self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, date=date)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")

    def checkout(self, rev: str) -> None:
        # git checkout reads no --end-of-options (2.39): a revision that looks like an
        # option is refused here instead.
        if rev.startswith("-"):
            raise ValueError(f"not a revision: {rev!r}")
        self.git("checkout", "-q", rev, "--")


def make_repo(
    root: Path,
    files: Mapping[str, str],
    message: str = "init",
    identity: tuple[str, str] = IDENTITY,
) -> ScratchRepo:
    """A repository in ``root`` with ``files`` as its one commit."""
    repo = ScratchRepo(root, identity)
    repo.commit(files, message)
    return repo
