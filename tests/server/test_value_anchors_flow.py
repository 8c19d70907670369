"""A value stated for a constant or an environment default is checked against the code
(issue #31, adr/0025): ``remember`` then ``recall`` through the MCP client on a real git
repository. The right value is VERIFIED, a wrong one REFUTED with the code's value in the
receipt, a computed one stays ACTIVE; with anchors read from the text and given by the agent."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "pydantic-settings>=2"]\n'
    ),
    "app/__init__.py": "",
    "app/paging.py": (
        "MAX_PAGE_SIZE = 100\nMAX_RETRIES = 3\nCACHE_TTL = 60 * 60\n\n\n"
        "class Paging:\n    LIMIT = 50\n\n\ndef clamp(n):\n    return min(n, MAX_PAGE_SIZE)\n"
        "\n\nSHARDS = len(str(MAX_PAGE_SIZE))\n"
    ),
    "app/settings.py": (
        "import os\n\nPAGE_SIZE = int(os.environ.get('PAGE_SIZE', '20'))\n"
        "DEBUG = os.getenv('DEBUG', 'false') == 'true'\n"
        "TIMEOUT = float(os.getenv('REQUEST_TIMEOUT', '2.5'))\n"
        "WORKERS = os.environ.get('WORKERS', 4)\n"
        "PORT = int(os.getenv('PORT', str(8000)))\n"
    ),
    "app/config.py": (
        "from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n"
        "    log_level: str = 'info'\n    pool_size: int = 5\n"
    ),
}

# (note, anchors the agent gives or None, the status served, text the receipts must hold)
NOTES: list[tuple[str, list[str] | None, str, str]] = [
    # module constants and class attributes, read from the text
    ("The maximum page size is 100 (`MAX_PAGE_SIZE` in `app/paging.py`)", None, "VERIFIED",
     "`MAX_PAGE_SIZE = 100` at app/paging.py:1"),
    ("The maximum page size is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)", None, "REFUTED",
     "app/paging.py:1 sets MAX_PAGE_SIZE = 100, not 500"),
    ("MAX_RETRIES is 3", None, "VERIFIED", "`MAX_RETRIES = 3` at app/paging.py:2"),
    ("MAX_RETRIES is 5", None, "REFUTED", "sets MAX_RETRIES = 3, not 5"),
    ("`Paging.LIMIT` is 50", None, "VERIFIED", "`Paging.LIMIT = 50` at app/paging.py:7"),
    ("`Paging.LIMIT` is 25", None, "REFUTED", "sets Paging.LIMIT = 50, not 25"),
    # arithmetic of number literals is the number it makes
    ("`CACHE_TTL` is 3600", None, "VERIFIED", "`CACHE_TTL = 60 * 60` at app/paging.py:3"),
    ("`CACHE_TTL` is 600", None, "REFUTED", "app/paging.py:3 sets CACHE_TTL = 60 * 60, not 600"),
    # environment defaults: os.environ.get, os.getenv, wrapped in int()/float(), BaseSettings
    ("`PAGE_SIZE` defaults to 20", None, "VERIFIED", "`PAGE_SIZE` defaults to `'20'`"),
    ("`PAGE_SIZE` defaults to 50", None, "REFUTED",
     "app/settings.py:3 gives PAGE_SIZE the default '20', not 50"),
    ("DEBUG defaults to `False`", None, "VERIFIED", "`DEBUG` defaults to `'false'`"),
    ("DEBUG defaults to `True`", None, "REFUTED", "gives DEBUG the default 'false', not True"),
    ("REQUEST_TIMEOUT defaults to 2.5", None, "VERIFIED", "`REQUEST_TIMEOUT` defaults to"),
    ("REQUEST_TIMEOUT defaults to 10", None, "REFUTED", "the default '2.5', not 10"),
    ("WORKERS defaults to 4", None, "VERIFIED", "`WORKERS` defaults to `4`"),
    ("WORKERS defaults to 8", None, "REFUTED", "gives WORKERS the default 4, not 8"),
    ("LOG_LEVEL defaults to `'info'`", None, "VERIFIED", "`LOG_LEVEL` defaults to `'info'`"),
    ("POOL_SIZE defaults to 10", None, "REFUTED",
     "app/config.py:6 gives POOL_SIZE the default 5, not 10"),
    # given by the agent
    ("The maximum page size is 100", ["symbol:app/paging.py::MAX_PAGE_SIZE=100"], "VERIFIED",
     "`MAX_PAGE_SIZE = 100` at app/paging.py:1"),
    ("The maximum page size is 500", ["symbol:app/paging.py::MAX_PAGE_SIZE=500"], "REFUTED",
     "app/paging.py:1 sets MAX_PAGE_SIZE = 100, not 500"),
    ("The maximum page size is 100", ["symbol:app.paging.MAX_PAGE_SIZE=100"], "VERIFIED",
     "`MAX_PAGE_SIZE = 100`"),
    ("Pages hold 20 items unless configured", ["env:PAGE_SIZE=20"], "VERIFIED",
     "`PAGE_SIZE` defaults to `'20'`"),
    ("Pages hold 50 items unless configured", ["env:PAGE_SIZE=50"], "REFUTED",
     "gives PAGE_SIZE the default '20', not 50"),
    ("The pool keeps 5 connections", ["env:POOL_SIZE=5"], "VERIFIED",
     "`POOL_SIZE` defaults to `5` at app/config.py:6"),
]  # fmt: skip

# A value the code computes cannot be compared: the note stays ACTIVE, and says why: the
# value is not checked (read from the text) or the given anchor cannot tell.
COMPUTED: list[tuple[str, list[str] | None, str]] = [
    ("`SHARDS` is 3", None, "uncovered:the value 3"),
    ("`SHARDS` is 3", ["symbol:app/paging.py::SHARDS=3"],
     "app/paging.py:14 computes SHARDS; cannot tell whether it is 3"),
    ("PORT defaults to 8000", None, "uncovered:the value 8000"),
    ("The app listens on 8000 by default", ["env:PORT=8000"],
     "app/settings.py:7 computes PORT default; cannot tell whether it is 8000"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo


async def remembered(repo: GitRepo, text: str, anchors: list[str] | None) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, anchors)


@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), NOTES)
async def test_a_value_is_verified_when_the_code_says_it_and_refuted_when_it_says_another(
    app_repo: GitRepo, text: str, anchors: list[str] | None, status: str, receipt: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == status, served
    assert receipt in receipts(served), served
    assert "not checked" not in str(served.get("verification")), served


@pytest.mark.parametrize(("text", "anchors", "why"), COMPUTED)
async def test_a_computed_value_keeps_the_note_active(
    app_repo: GitRepo, text: str, anchors: list[str] | None, why: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "ACTIVE", served
    assert served["band"] != "assert"
    said = [served["verification"], *served["flags"], *(a["detail"] for a in served["anchors"])]
    assert why in said, served
