"""Shared fixtures: real git repositories with real commits, real DuckDB files in tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from experiments.scratch import ScratchRepo

IDENTITY = ("Test Author", "author@example.com")


class GitRepo(ScratchRepo):
    """A throwaway git repository driven through the real ``git`` binary, with the shared
    runner's safety rules (``experiments/scratch.py``)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, IDENTITY)


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[GitRepo]:
    root = tmp_path / "repo"
    root.mkdir()
    yield GitRepo(root)
