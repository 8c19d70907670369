"""Shared fixtures: real git repositories with real commits, real DuckDB files in tmp_path."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from experiments.scratch import ScratchRepo

IDENTITY = ("Test Author", "author@example.com")


def anchormem_env(**settings: str) -> dict[str, str]:
    """The environment for an anchormem process a test starts: this one's, without any
    ``ANCHORMEM_*`` setting of the person running the tests, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env.update(settings)
    return env


class GitRepo(ScratchRepo):
    """A throwaway git repository driven through the real ``git`` binary, with the shared
    runner's safety rules (``experiments/scratch.py``)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, IDENTITY)


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
