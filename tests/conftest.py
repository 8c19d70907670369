"""Shared fixtures: real git repositories with real commits, real DuckDB files in tmp_path."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.pg_cluster import Cluster, PgUnavailable, start_cluster
from experiments.scratch import ScratchRepo

IDENTITY = ("Test Author", "author@example.com")

# Stores live in the user's data folder (adr/0022): the suite's go to a folder of its own,
# for this process and every anchormem process a test starts.
TEST_HOME = Path(tempfile.mkdtemp(prefix="anchormem-home-"))
os.environ["ANCHORMEM_HOME"] = str(TEST_HOME)
# Removed when this process ends: each run's stores (a gigabyte on a full run) must not
# pile up in the temporary directory run after run.
atexit.register(shutil.rmtree, TEST_HOME, True)


def settings_env(**settings: str) -> dict[str, str]:
    """The environment ``Settings.resolve`` is given in tests: ``settings``, and the
    suite's data folder."""
    return {"ANCHORMEM_HOME": str(TEST_HOME), **settings}


def anchormem_env(**settings: str) -> dict[str, str]:
    """The environment for an anchormem process a test starts: this one's, without any
    ``ANCHORMEM_*`` setting of the person running the tests, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_HOME"] = str(TEST_HOME)
    env.update(settings)
    return env


def store_file(repo: Path, home: Path | None = None) -> Path:
    """The default store file of the repository at ``repo``, where the server keeps it
    (in the suite's data folder, or ``home``)."""
    from server.store_location import repository_store

    return repository_store(repo, {"ANCHORMEM_HOME": str(home or TEST_HOME)})


class GitRepo(ScratchRepo):
    """A throwaway git repository driven through the real ``git`` binary, with the shared
    runner's safety rules (``experiments/scratch.py``)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, IDENTITY)


def pytest_sessionfinish() -> None:
    shutil.rmtree(TEST_HOME, ignore_errors=True)


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


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for this test process (benchmarks/pg_cluster.py);
    the tests that need it are skipped, saying why, where none can be started."""
    try:
        cluster = start_cluster()
    except PgUnavailable as exc:
        pytest.skip(f"no PostgreSQL server here: {exc}")
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def pg_project() -> str:
    """A project of its own in the shared store (its own schema): no test sees another's."""
    return "t" + secrets.token_hex(6)
