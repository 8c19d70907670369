"""A value a note states is never VERIFIED by an anchor that only finds the thing it is
about (issue #31, adr/0025): ``remember`` then ``recall`` through the MCP client on a real
git repository, with the anchors an agent gives and with anchors read from the text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "sqlalchemy>=2.0", "pyjwt>=2.8"]\n'
    ),
    "app/__init__.py": "",
    "app/paging.py": "MAX_PAGE_SIZE = 100\n\n\ndef clamp(n):\n    return min(n, MAX_PAGE_SIZE)\n",
    "app/settings.py": (
        "import os\n\nPAGE_SIZE = int(os.environ.get('PAGE_SIZE', '20'))\n"
        "DEBUG = os.environ.get('DEBUG', 'false') == 'true'\n"
    ),
    "app/db.py": (
        "from sqlalchemy import create_engine\n\n\ndef engine(url):\n"
        "    return create_engine(url, pool_pre_ping=True)\n"
    ),
    "app/tokens.py": "import jwt\n\n\ndef sign(claims, key):\n    return jwt.encode(claims, key)\n",
    "Dockerfile": "FROM python:3.12-slim\nEXPOSE 8080\nCMD [\"uvicorn\", \"app.main:app\"]\n",
    "docker-compose.yml": "services:\n  db:\n    image: postgres:16\n",
}

# (note, anchors the agent gives or None, the value the answer must name)
VALUE_NOTES: list[tuple[str, list[str] | None, str]] = [
    ("Tokens are signed with RS256 in app/tokens.py", None, "RS256"),
    ("Tokens are signed with RS256", ["import:jwt@app/tokens.py"], "RS256"),
    # "`create_engine` is called with `pool_pre_ping=False`" is checked now, and refuted by
    # the call's keyword (tests/server/test_calls_drift_flow.py)
    ("The engine in app/db.py keeps 5 connections in its pool", ["import:sqlalchemy@app/db.py"],
     "5"),
    ("Requests to the API time out after 30 s", ["dep:fastapi"], "30 s"),
    ("app/paging.py clamps pages at 250 items", None, "250"),
]  # fmt: skip

# A value bound to a constant or an environment default the code gives a literal is checked
# by a value anchor read from the text (tests/server/test_value_anchors_flow.py): wrong, it
# REFUTES, with the code's value in the receipt.
REFUTED_NOTES: list[tuple[str, str]] = [
    ("The maximum page size is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)",
     "app/paging.py:1 sets MAX_PAGE_SIZE = 100, not 500"),
    ("`PAGE_SIZE` defaults to 50 in app/settings.py",
     "app/settings.py:3 gives PAGE_SIZE the default '20', not 50"),
]  # fmt: skip

# Anchors the agent gives that only find the thing (a file, a variable) do not stop the
# value the text states from being checked: the text's own value anchors are kept beside
# them, and a wrong value REFUTES, with what the code says in the receipt.
GIVEN_REFUTED_NOTES: list[tuple[str, list[str], str]] = [
    ("The maximum page size is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)",
     ["file:app/paging.py"], "MAX_PAGE_SIZE = 100, not 500"),
    ("`PAGE_SIZE` defaults to 50", ["env:PAGE_SIZE"], "the default '20', not 50"),
    ("DEBUG defaults to `True` (app/settings.py)", ["file:app/settings.py"],
     "the default 'false', not True"),
    ("The image is built FROM python:3.9", ["file:Dockerfile"], "python:3.12-slim"),
    ("docker-compose runs postgres:12 for the database", ["file:docker-compose.yml"],
     "postgres:16"),
    ("The container exposes port 9000", ["file:Dockerfile"], "8080"),
]  # fmt: skip

# Notes that claim only what their anchors check: still VERIFIED.
EXISTENCE_NOTES: list[tuple[str, list[str] | None]] = [
    ("The paging limit lives in app/paging.py", None),
    ("app/db.py builds the engine with SQLAlchemy", None),
    ("We depend on fastapi>=0.110", None),
    ("app/tokens.py signs tokens with PyJWT", ["import:jwt@app/tokens.py"]),
    ("The settings read PAGE_SIZE from the environment", ["env:PAGE_SIZE"]),
]


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo


async def remembered(repo: GitRepo, text: str, anchors: list[str] | None) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, anchors)


@pytest.mark.parametrize(("text", "anchors", "value"), VALUE_NOTES)
async def test_a_stated_value_keeps_the_note_active_and_is_named(
    app_repo: GitRepo, text: str, anchors: list[str] | None, value: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "ACTIVE", served
    assert served["verification"].startswith("partly checked:"), served
    unchecked = served["verification"].partition("not checked: ")[2]
    assert f"the value {value}" in unchecked, served
    assert served["band"] != "assert"


@pytest.mark.parametrize(("text", "receipt"), REFUTED_NOTES)
async def test_a_wrong_value_bound_to_a_constant_or_default_is_refuted(
    app_repo: GitRepo, text: str, receipt: str
):
    served = await remembered(app_repo, text, None)
    assert served["status"] == "REFUTED", served
    details = [a["detail"] for a in served["anchors"]]
    assert receipt in details, served


@pytest.mark.parametrize(("text", "anchors", "receipt"), GIVEN_REFUTED_NOTES)
async def test_a_wrong_value_is_refuted_beside_the_anchors_the_agent_gives(
    app_repo: GitRepo, text: str, anchors: list[str], receipt: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "REFUTED", served["anchors"]
    assert any(receipt in str(a["detail"]) for a in served["anchors"]), served["anchors"]
    given = {a["anchor"] for a in served["anchors"] if a.get("provenance") == "explicit"}
    assert given >= set(anchors) or not given, served["anchors"]


@pytest.mark.parametrize(("text", "anchors"), EXISTENCE_NOTES)
async def test_a_note_that_states_no_value_is_verified_by_what_its_anchors_find(
    app_repo: GitRepo, text: str, anchors: list[str] | None
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "VERIFIED", served


def test_show_names_the_value_no_anchor_checks(app_repo: GitRepo):
    import json
    import subprocess
    import sys
    from pathlib import Path

    from tests.conftest import anchormem_env

    script = str(Path(sys.executable).with_name("anchormem"))
    env = anchormem_env(ANCHORMEM_OWNER_IDLE="3")

    def cli(*args: str) -> dict[str, Any]:
        done = subprocess.run([script, *args, "--json"], cwd=app_repo.root, env=env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    made = cli("remember", "The maximum page size is 500", "--anchor", "file:app/paging.py")
    shown = cli("show", made["id"])
    assert "the value 500" in shown["uncovered"], shown
    assert "not checked: the value 500" in json.dumps(shown["verification"]), shown
