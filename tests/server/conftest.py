"""A small project under git, and settings pointing anchormem at it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from server.config import Settings
from tests.conftest import GitRepo, settings_env, store_file
from tests.mcp_calls import POOL, ServerPool

PROJECT = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "1.0"\ndependencies = ["duckdb>=1.0", "httpx"]\n'
    ),
    "store/__init__.py": "",
    "store/db.py": (
        "import duckdb\n\n\nclass Store:\n    def open(self, path):\n"
        "        return duckdb.connect(path)\n"
    ),
    "billing/__init__.py": "",
    "billing/client.py": (
        "import httpx\n\n\ndef charge(amount):\n    return httpx.post('/c', json=amount)\n"
    ),
    "auth/__init__.py": "",
    "auth/jwt.py": (
        "import os\n\n\ndef verify(token):\n    return token == os.environ['JWT_SECRET']\n"
    ),
    ".env.example": "DATABASE_URL=duckdb:///data.db\n",
}


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


@pytest.fixture
def settings(project: GitRepo, store_env: dict[str, str]) -> Settings:
    """Settings for ``project`` on the test's store (tests/conftest.py ``store_backend``):
    the repository's DuckDB file, or a project of its own on the throwaway PostgreSQL."""
    return Settings.resolve(repo=str(project.root), env=settings_env(**store_env))


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def store_dir(repo: Path) -> Path:
    return store_file(repo).parent


@pytest.fixture(scope="module")
async def server_pool(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ServerPool]:
    """A pool of servers for this module's verdict tests (``tests/mcp_calls.py``): a module
    asks for it with ``pytest.mark.usefixtures("server_pool")``."""
    async with AsyncExitStack() as stack:
        pool = ServerPool(stack, tmp_path_factory.mktemp("pool"))
        POOL.append(pool)
        try:
            yield pool
        finally:
            POOL.remove(pool)
