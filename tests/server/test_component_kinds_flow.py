"""Parts of an application named by their kind (issue #31: a stated component scopes the
check; class 6: Django management commands), through MCP ``remember`` + ``recall`` on a
real git repository: "the sync-exercises management command fetches with requests" is
checked in that command's file, "kinto has no counters plugin" against the plugins folder,
and a module a known package is imported by ("through pkg_resources") in the file the note
names."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

FILES = {
    "pyproject.toml": '[project]\nname = "gym"\ndependencies = ["django", "requests"]\n',
    "gym/__init__.py": "",
    "gym/exercises/__init__.py": "",
    "gym/exercises/management/commands/sync-exercises.py": "import requests\n",
    "gym/exercises/management/commands/warmup.py": "import django\n",
    "gym/plugins/__init__.py": "",
    "gym/plugins/counters.py": "COUNTERS = {}\n",
    "gym/plugins/history/__init__.py": "",
    "gym/config.py": "import importlib.resources\n",
}

CLAIMS: list[tuple[str, str, str]] = [
    ("The sync-exercises management command fetches exercises with requests.", "VERIFIED",
     "imported by gym/exercises/management/commands/sync-exercises.py"),
    ("The warmup command downloads images with requests.", "REFUTED",
     "requests is not imported in gym/exercises/management/commands/warmup.py"),
    ("gym has no counters plugin.", "REFUTED", "gym/plugins/counters.py is tracked"),
    ("gym has a history plugin.", "VERIFIED", "gym/plugins/history/ is a tracked directory"),
    ("gym ships a `rate-limit` plugin.", "REFUTED", "gym/plugins/rate_limit is not"),
    ("gym/config.py finds the default settings through pkg_resources.", "REFUTED",
     "no file imports pkg_resources"),
]  # fmt: skip


@pytest.fixture
def gym(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(FILES, "an application with commands and plugins")
    return git_repo


@pytest.mark.parametrize(("text", "status", "reason"), CLAIMS)
async def test_a_part_named_by_its_kind_is_checked_where_that_kind_is_kept(
    gym: GitRepo, text: str, status: str, reason: str
) -> None:
    served = await remember_and_serve(gym.root, text)
    assert served["status"] == status, served
    assert reason in said(served), served


async def test_a_part_said_absent_is_checked_where_it_would_be(gym: GitRepo) -> None:
    """No audit plugin in the plugins folder: true now, and refuted once one is added."""
    served = await remember_and_serve(gym.root, "There is no audit plugin.")
    assert served["status"] == "VERIFIED", served
    assert "gym/plugins/audit is not in the repository" in said(served), served
    gym.commit({"gym/plugins/audit.py": "AUDIT = True\n"}, "an audit plugin")
    served = await remember_and_serve(gym.root, "There is no audit plugin.")
    assert served["status"] == "REFUTED", served
    assert "gym/plugins/audit.py is tracked" in said(served), served
