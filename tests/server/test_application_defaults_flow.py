"""Defaults as agents state them about an application (issue #31): ``remember`` then
``recall`` through the MCP client on a real git repository. "listens on 5000 unless PORT is
set", "one hour by default", "defaults to an empty list", "on by default", an address, a
file name, a model field's declared default and a constant placed in a named file are read
as values: a true one is VERIFIED with the code quoted, a wrong one REFUTED. A default the
code cannot be compared with (a longer literal that names the stated word, a default in
words no reader compares) keeps the note ACTIVE and says so: the variable existing never
verifies what it defaults to."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "watcher"\nrequires-python = ">=3.11"\n'
        'dependencies = ["pydantic>=2"]\n'
    ),
    "watcher/__init__.py": (
        "import os\n\n\n"
        "def serve():\n"
        '    host = os.environ.get("LISTEN_HOST", "0.0.0.0").strip()\n'
        '    port = int(os.environ.get("PORT", 5000))\n'
        '    cert = os.getenv("TLS_CERT_FILE", "cert.pem")\n'
        '    broker = os.getenv("BROKER_URL", "redis://localhost:6379/0")\n'
        "    return host, port, cert, broker\n"
    ),
    "watcher/worker.py": (
        "import os\n\n"
        'MAX_RUNTIME = int(os.getenv("WORKER_MAX_RUNTIME", "3600"))\n'
        'SKIPPED = os.getenv("SKIPPED_STEPS", "thumbnails").strip().split(",")\n'
        'NO_SNAPSHOTS = os.getenv("DISABLE_SNAPSHOTS", "False") == "True"\n'
    ),
    "watcher/conditions.py": "FETCH_TIMEOUT = 10\n",
    "watcher/config.py": (
        "from pydantic import BaseModel, Field\n\n\n"
        "class ServerConfig(BaseModel):\n"
        '    BIND_ADDR: str = Field(default="127.0.0.1:5797")\n'
        "    ITEMS_PER_PAGE: int = Field(default=50, ge=1)\n"
        "    PUBLIC_INDEX: bool = Field(default=True)\n"
        '    BASE_URL: str = Field(default="")\n'
    ),
}

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    # the value, then the variable that overrides it
    ("The web server listens on port 5000 unless PORT is set.", "VERIFIED",
     "`PORT` defaults to `5000` at watcher/__init__.py:6"),
    ("The web server listens on port 8080 unless PORT is set.", "REFUTED",
     "watcher/__init__.py:6 gives PORT the default 5000, not 8080"),
    # an address, read through ``.strip()``
    ("LISTEN_HOST defaults to 0.0.0.0.", "VERIFIED",
     '`LISTEN_HOST` defaults to `"0.0.0.0"` at watcher/__init__.py:5'),
    ("LISTEN_HOST defaults to 127.0.0.1.", "REFUTED",
     'watcher/__init__.py:5 gives LISTEN_HOST the default "0.0.0.0", not 127.0.0.1'),
    # a file name
    ("TLS_CERT_FILE defaults to cert.pem", "VERIFIED",
     '`TLS_CERT_FILE` defaults to `"cert.pem"` at watcher/__init__.py:7'),
    ("TLS_CERT_FILE defaults to server.pem", "REFUTED",
     'watcher/__init__.py:7 gives TLS_CERT_FILE the default "cert.pem", not server.pem'),
    # a duration in words, "by default" after it
    ("A worker is recycled after WORKER_MAX_RUNTIME seconds, one hour by default.", "VERIFIED",
     '`WORKER_MAX_RUNTIME` defaults to `"3600"` at watcher/worker.py:3'),
    ("A worker is recycled after WORKER_MAX_RUNTIME seconds, 30 minutes by default.",
     "REFUTED", 'watcher/worker.py:3 gives WORKER_MAX_RUNTIME the default "3600", not 1800'),
    # a snake_case word, and an empty list the code does not give
    ("SKIPPED_STEPS defaults to thumbnails.", "VERIFIED",
     '`SKIPPED_STEPS` defaults to `"thumbnails"` at watcher/worker.py:4'),
    ("SKIPPED_STEPS defaults to an empty list, so every step runs.", "REFUTED",
     'watcher/worker.py:4 gives SKIPPED_STEPS the default "thumbnails", not (empty)'),
    # a constant placed in a named file
    ("FETCH_TIMEOUT in watcher/conditions.py is 10.", "VERIFIED",
     "`FETCH_TIMEOUT = 10` at watcher/conditions.py:1"),
    ("FETCH_TIMEOUT in watcher/conditions.py is 30.", "REFUTED",
     "watcher/conditions.py:1 sets FETCH_TIMEOUT = 10, not 30"),
    # a model field's declared default
    ("BIND_ADDR defaults to 127.0.0.1:5797.", "VERIFIED",
     '`ServerConfig.BIND_ADDR = "127.0.0.1:5797"` at watcher/config.py:5'),
    ("BIND_ADDR defaults to 0.0.0.0:8000.", "REFUTED",
     'watcher/config.py:5 sets ServerConfig.BIND_ADDR = "127.0.0.1:5797", not 0.0.0.0:8000'),
    ("The index lists 50 items per page unless ITEMS_PER_PAGE says otherwise.", "VERIFIED",
     "`ServerConfig.ITEMS_PER_PAGE = 50` at watcher/config.py:6"),
    ("The public index is on by default (PUBLIC_INDEX).", "VERIFIED",
     "`ServerConfig.PUBLIC_INDEX = True` at watcher/config.py:7"),
    ("The public index is off by default (PUBLIC_INDEX).", "REFUTED",
     "watcher/config.py:7 sets ServerConfig.PUBLIC_INDEX = True, not off"),
    ("BASE_URL defaults to an empty string.", "VERIFIED",
     '`ServerConfig.BASE_URL = ""` at watcher/config.py:8'),
]  # fmt: skip

# (note, what the served memory says it cannot tell or left unchecked)
UNCHECKED: list[tuple[str, str]] = [
    # the stated word is one part of a longer literal: maybe what the note means
    ("BROKER_URL defaults to redis.",
     'watcher/__init__.py:8 gives BROKER_URL the default "redis://localhost:6379/0", which '
     "names redis; cannot tell whether the note means it"),
    # a default in words no reader compares: the variable existing does not verify it
    ("SKIPPED_STEPS defaults to every step but one.",
     "not checked: that it defaults to every step"),
    ("BROKER_URL defaults to whatever the deployment provides.",
     "not checked: that it defaults to whatever the deployment provides"),
    # a flag of another thing than the variable: never bound to its default, either way
    ("Snapshots are on unless DISABLE_SNAPSHOTS is set.", "not checked: the value on"),
    ("Snapshots are off unless DISABLE_SNAPSHOTS is set.", "not checked: the value off"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application reading its settings")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_a_default_as_agents_state_it_is_verified_or_refuted_with_the_code_quoted(
    app_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


@pytest.mark.parametrize(("text", "why"), UNCHECKED)
async def test_a_default_the_code_cannot_tell_keeps_the_note_active_and_says_why(
    app_repo: GitRepo, text: str, why: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    assert why in said(served), served
