"""Smaller readings of notes about applications (issue #31), through MCP ``remember`` +
``recall`` on a real git repository: Tornado's options, an option placed in a file, a
module constant written in capitals, a capitalised name the code lacks, "a config.json"
(a kind of file), "if X is installed" (a condition), "read-only" (no restriction), and a
definition a named file is said to lack."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served, remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

OPTIONS_PY = '''\
from tornado.options import define

define("port", default=5555, type=int, help="run on the given port")
define("max_tasks", type=int, default=100000, help="maximum number of tasks to keep")
define("persistent", type=bool, default=False, help="enable persistent mode")
'''
CLI_PY = '''\
import click

ENV_VAR_PREFIX = "FLOWER_"


@click.command()
@click.option("-p", "--port", default=8001)
def serve(port):
    pass


@click.command()
@click.option("-p", "--port", default=8080)
def publish(port):
    pass
'''
APP_PY = '''\
try:
    import pysqlite3 as sqlite3
except ImportError:
    import sqlite3


class StartupError(Exception):
    pass


def check(path):
    if path.endswith("config.json"):
        raise StartupError("config.json should be renamed to settings.json")


def control(read_only):
    if read_only:
        raise PermissionError("Read only mode is enabled")
'''
FILES = {"pyproject.toml": '[project]\nname = "mon"\ndependencies = ["tornado", "click"]\n',
         "mon/__init__.py": "", "mon/options.py": OPTIONS_PY, "mon/cli.py": CLI_PY,
         "mon/app.py": APP_PY}  # fmt: skip

CLAIMS: list[tuple[str, str, str]] = [
    ("The web UI listens on port 5555 by default (--port).", "VERIFIED",
     "`--port` defaults to `5555` at mon/options.py:3"),
    ("The web UI listens on port 8000 by default (--port in mon/options.py).", "REFUTED",
     "mon/options.py:3 gives --port the default 5555, not 8000"),
    ("max_tasks defaults to 100000.", "VERIFIED", "options.max_tasks = 100000"),
    ("max_tasks defaults to 10000.", "REFUTED", "not 10000"),
    ("The server listens on 8001 by default (--port in mon/cli.py).", "VERIFIED",
     "`--port` defaults to `8001` at mon/cli.py:7"),
    ("Options are read from the environment with a prefix (ENV_VAR_PREFIX in mon/cli.py).",
     "VERIFIED", "mon/cli.py assigns ENV_VAR_PREFIX"),
    ("Options are read with the MON_FLOWER_ prefix (ENV_VAR_PREFIX in mon/cli.py).", "ACTIVE",
     "MON_FLOWER_"),
    ('A config.json raises StartupError("config.json should be renamed to settings.json").',
     "VERIFIED", 'mon/app.py says "config.json should be renamed to settings.json"'),
    ("If pysqlite3 is installed it is used instead of the standard sqlite3 module.", "ACTIVE",
     ""),
    ('Control calls in read-only mode are refused with "Read only mode is enabled".',
     "VERIFIED", 'mon/app.py says "Read only mode is enabled"'),
    # a definition a named file is said to lack: the absent symbol there
    ("There is no `ENV_VAR_PREFIX` constant in mon/cli.py any more.", "REFUTED",
     "mon/cli.py assigns ENV_VAR_PREFIX"),
    ("mon/app.py has no `PY2` flag.", "VERIFIED", "mon/app.py does not define PY2"),
    ("mon/app.py no longer defines `control`.", "REFUTED", "mon/app.py defines control"),
]  # fmt: skip


@pytest.fixture
def mon(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(FILES, "an application on Tornado and click")
    return git_repo


@pytest.mark.parametrize(("text", "status", "reason"), CLAIMS)
async def test_what_an_application_note_says_is_read_as_meant(
    mon: GitRepo, text: str, status: str, reason: str
) -> None:
    served = await remember_and_serve(mon.root, text)
    assert served["status"] == status, served
    assert reason in said(served) + " ".join(served["flags"]), served


CALENDAR = {
    "pyproject.toml": '[project]\nname = "cal"\ndependencies = ["vobject>=0.9"]\n'
                      '[project.optional-dependencies]\ntest = ["icalendar"]\n'
                      '[tool.isort]\nknown_standard_library = "os,sqlite3,sys"\n',
    "cal/__init__.py": "",
    "cal/store.py": "import os\nimport vobject\n\ndef load(text):\n"
                    "    return vobject.readOne(text)\n",
    "cal.wsgi": "from cal.store import load\napplication = load\n",
    "tests/test_store.py": "import icalendar\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        # a package's name that names a format, where no code that runs imports it
        ("cal depends on vobject for parsing iCalendar data.", "VERIFIED",
         "vobject is declared in pyproject.toml"),
        # a linter's list of every standard-library module is no use of SQLite
        ("Storage is implemented on SQLite.", "REFUTED", "SQLite is not used by the project"),
        # a file of the repository named like a module
        ("The app ships a WSGI entry point (cal.wsgi).", "VERIFIED", "cal.wsgi is tracked"),
    ],
)  # fmt: skip
async def test_a_format_a_list_of_the_standard_library_and_a_file_named_like_a_module(
    git_repo: GitRepo, text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, CALENDAR, text, status, reason)


RENDERING = {
    "pyproject.toml": '[project]\nname = "blog"\ndependencies = ["mistune", "misaka"]\n',
    "blog/__init__.py": "",
    "blog/markup.py": "import mistune\nimport misaka\n",
    "blog/blog.cfg": "[markup]\nrenderer = mistune\n",
    "blog/cli.py": "import click\n\n@click.command()\ndef main():\n    pass\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        # the relation's object is the value a bound setting checks
        ("Posts are rendered with mistune by default ([markup] renderer = mistune in "
         "blog/blog.cfg).", "VERIFIED", "markup.renderer: mistune"),
        ("Posts are rendered with misaka by default ([markup] renderer = mistune in "
         "blog/blog.cfg).", "ACTIVE", "that posts are rendered with misaka"),
        # a contrast denies a module of the one file its sentence names
        ("Commands are parsed by click in blog/cli.py, not by argparse.", "VERIFIED",
         "argparse is not imported in blog/cli.py"),
        ("Commands are parsed in blog/markup.py, not with mistune.", "REFUTED",
         "imported by blog/markup.py"),
    ],
)  # fmt: skip
async def test_a_relation_a_setting_checks_and_a_contrast_of_one_file(
    git_repo: GitRepo, text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, RENDERING, text, status, reason)


@pytest.mark.parametrize(
    ("files", "status"),
    [
        ({"app/cache.py": "import redis\n\nclient = redis.Redis()\n"}, "VERIFIED"),
        # Redis is named and its hiredis parser declared, but nothing imports redis-py
        ({"app/cache.py": "import txredisapi\n\nREDIS_URL = 'redis://localhost'\n",
          "requirements.txt": "hiredis\ntxredisapi\n"}, "REFUTED"),
    ],
)  # fmt: skip
async def test_a_systems_python_client_named_x_py_is_its_import(
    git_repo: GitRepo, files: dict[str, str], status: str
) -> None:
    """"redis-py" is the Python package imported as ``redis``, not Redis the system."""
    git_repo.commit({"app/__init__.py": "", **files}, "a cache")
    served = await remember_and_serve(git_repo.root, "The cache uses the redis-py client.")
    assert served["status"] == status, served
    assert any(a["anchor"] == "import:redis" for a in served["anchors"]), served


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # what the code talks to is no one else's code
        ("app/sync.py fetches from the upstream server with requests.", "VERIFIED"),
        ("app/sync.py fetches from the upstream server with httpx.", "REFUTED"),
        # what someone else's code does is no claim about this repository
        ("Upstream uses httpx.", "ACTIVE"),
    ],
)
async def test_the_upstream_server_the_code_fetches_from_is_not_another_party(
    git_repo: GitRepo, text: str, status: str
) -> None:
    git_repo.commit({"app/__init__.py": "", "app/sync.py": "import requests\n"}, "a sync job")
    served = await remember_and_serve(git_repo.root, text)
    assert served["status"] == status, served


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("The data directory can be set with the APP_DATA_DIR environment variable.", "VERIFIED"),
        # said to be an environment variable: one nothing reads refutes the note
        ("The data directory is set with the APP_DATA environment variable.", "REFUTED"),
    ],
)
async def test_a_name_said_to_be_an_environment_variable_is_one_the_code_reads(
    git_repo: GitRepo, text: str, status: str
) -> None:
    settings = "import os\n\nDATA = os.environ.get('APP_DATA_DIR', '/data')\n"
    git_repo.commit({"app/__init__.py": "", "app/settings.py": settings}, "settings")
    served = await remember_and_serve(git_repo.root, text)
    assert served["status"] == status, served
