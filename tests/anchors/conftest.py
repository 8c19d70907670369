"""Fixtures for the anchors package: code sources over real git repositories."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from anchors.fingerprint import CodeSource, InMemoryFactsCache
from tests.conftest import GitRepo


def child_processes(name: str | None = None) -> set[tuple[int, str]]:
    """(pid, command name) of this process's live children, optionally only those called
    ``name``; read from /proc so that no process library is needed. Tests compare against
    the children that existed before they started, which other tests may have left."""
    children: set[tuple[int, str]] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                comm = Path(f"/proc/{child}/comm").read_text().strip()
            except FileNotFoundError:
                continue  # exited while we looked
            if name is None or comm == name:
                children.add((int(child), comm))
    return children


@pytest.fixture
def cache() -> InMemoryFactsCache:
    return InMemoryFactsCache()


@pytest.fixture
def source(git_repo: GitRepo, cache: InMemoryFactsCache) -> Iterator[CodeSource]:
    """A code source over ``git_repo``; commit to the repository before asking it."""
    with CodeSource(git_repo.root, cache) as code:
        yield code
