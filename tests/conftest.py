"""Shared fixtures: real git repositories with real commits, real DuckDB files in tmp_path."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class GitRepo:
    """A throwaway git repository driven through the real ``git`` binary."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git("init", "-q", "-b", "main")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str) -> str:
        env = {**os.environ, **GIT_ENV}
        done = subprocess.run(
            ["git", *args], cwd=self.root, env=env, check=True, capture_output=True, text=True
        )
        return done.stdout.strip()

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

    def commit(self, files: Mapping[str, str | None], message: str = "change") -> str:
        """Apply ``files`` and commit them all; return the new commit id."""
        self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")

    def checkout(self, rev: str) -> None:
        self.git("checkout", "-q", rev)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files with a ``slow`` test come first, the rest in their usual order. scripts/test
    hands whole files to two workers in this order, so the longest file starts at once
    rather than running alone at the end (.ci/run includes the slow tests)."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)  # stable: each file keeps its order


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[GitRepo]:
    root = tmp_path / "repo"
    root.mkdir()
    yield GitRepo(root)
