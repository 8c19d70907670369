"""Shared fixtures: real git repositories with real commits, real DuckDB files in tmp_path."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from benchmarks.pg_cluster import Cluster, PgUnavailable, start_cluster
from experiments.scratch import ScratchRepo

if TYPE_CHECKING:
    from server.config import Settings
    from store.backend import Store

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


# The stores a behaviour test can run against: a test (or its module) marked
# ``backends(*names)`` and using ``store_backend`` (or ``settings``, ``make_store``) runs
# once per name, its id ending ``[duckdb]`` / ``[postgresql]``; unmarked, on DuckDB only.
BACKENDS = ("duckdb", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "backends(*names): the stores (duckdb, postgresql) the test runs against"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is not None and "store_backend" in metafunc.fixturenames:
        metafunc.parametrize("store_backend", marker.args, indirect=True, ids=marker.args)


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


@pytest.fixture
def store_backend(request: pytest.FixtureRequest) -> str:
    """The store this test runs against (``backends`` marker): ``duckdb`` unless marked."""
    name: str = getattr(request, "param", "duckdb")
    assert name in BACKENDS, name
    return name


@pytest.fixture
def store_env(store_backend: str, request: pytest.FixtureRequest) -> dict[str, str]:
    """The settings naming the test's store, for ``Settings.resolve`` and for an anchormem
    process a test starts: none for DuckDB (the repository's default store), the
    throwaway server and a project of the test's own for PostgreSQL."""
    if store_backend == "duckdb":
        return {}
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    project: str = request.getfixturevalue("pg_project")
    return {"ANCHORMEM_DB": cluster.url(), "ANCHORMEM_PROJECT": project}


@pytest.fixture
def make_store(
    store_backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Store]]:
    """Opens the test's store, of its backend: ``make_store(name="store", fault=None)``. The
    same name opens the same store again (a DuckDB file in tmp_path, or a project in the
    throwaway server); every store opened is closed at the end."""
    opened: list[Store] = []

    def make(name: str = "store", fault: Callable[[str], None] | None = None) -> Store:
        db: Store
        if store_backend == "duckdb":
            from store.db import Database

            db = Database(tmp_path / f"{name}.duckdb", fault=fault)
        else:
            from store.pg.database import PgDatabase

            cluster: Cluster = request.getfixturevalue("pg_cluster")
            project: str = request.getfixturevalue("pg_project")
            db = PgDatabase(cluster.url(), f"{project}-{name}", fault=fault)
        opened.append(db)
        return db

    yield make
    for db in opened:
        db.close()


def store_settings(settings: Settings) -> dict[str, str]:
    """The environment naming the store ``settings`` names, for an anchormem process a test
    starts in the repository (none: the repository's default DuckDB store)."""
    if settings.pg_url is None:
        return {}
    return {"ANCHORMEM_DB": settings.pg_url, "ANCHORMEM_PROJECT": settings.project or ""}


def run_sql(settings: Settings, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """``sql`` (``?`` parameters, SQL both stores take) run straight on the store
    ``settings`` names, as a person with a database shell would: DuckDB's file, or the
    project's schema on PostgreSQL. Its rows, if it returns any."""
    if settings.pg_url is None:
        import duckdb

        con = duckdb.connect(str(settings.db))
        try:
            return con.execute(sql, params or []).fetchall()
        finally:
            con.close()
    import psycopg

    from store.pg.cursor import PgCursor
    from store.pg.url import project_schema

    with psycopg.connect(settings.pg_url, autocommit=True) as pg:
        pg.execute(f'SET search_path TO "{project_schema(settings.project or "")}"')
        cur = PgCursor(pg).execute(sql, params or [])
        return cur.fetchall() if cur.description is not None else []
