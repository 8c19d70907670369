"""A stated location binds, and a relation or a role is not checked by existence (issue #31,
adr/0025): ``remember`` then ``recall`` through the MCP client on a real git repository.

A definition, an import or an environment read placed in the wrong file is REFUTED, and the
receipt says where it is instead; placed right, it is VERIFIED. A component that resolves to
a path ("encoding detection" is ``app/encoding.py``) is where a library's use is checked;
one that does not leaves the relation unchecked (ACTIVE, the part named). A role ("the SMTP
backend that sends our mail") is not checked by the class existing. Plain existence claims
stay VERIFIED. Read from the text and given as anchors.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi", "httpx", "aiofiles", "redis", "PyJWT", "chardet"]\n'
    ),
    "app/__init__.py": "",
    "app/api/__init__.py": "",
    "app/api/views.py": (
        "import httpx\n\n\ndef ping():\n    return 'pong'\n\n\n"
        "def fetch(url):\n    return httpx.get(url)\n"
    ),
    "app/front/__init__.py": "",
    "app/front/views.py": "def index():\n    return 'hi'\n",
    "app/settings.py": (
        "import os\n\nimport redis\n\nDATABASE_URL = os.environ['DATABASE_URL']\n\n\n"
        "def load_settings():\n    return redis.Redis(), DATABASE_URL\n"
    ),
    "app/uploads.py": "import shutil\n\n\ndef save(path):\n    shutil.copy(path, '/srv')\n",
    "app/encoding.py": "import chardet\n\n\ndef detect(data):\n    return chardet.detect(data)\n",
    "auth/__init__.py": "",
    "auth/jwt.py": (
        "import os\n\nimport jwt\n\nSECRET = os.getenv('JWT_SECRET')\n\n\n"
        "def verify(token):\n    return jwt.decode(token, SECRET)\n"
    ),
    "accounts/__init__.py": "",
    "accounts/backends.py": (
        "from django.contrib.auth.backends import ModelBackend\n\n\n"
        "class MailBackend(ModelBackend):\n    pass\n"
    ),
}

PING_ELSEWHERE = "app/front/views.py does not define ping; it is defined in app/api/views.py:4"
# (note, anchors the agent gives or None, the status served, text the receipts must hold)
LOCATIONS: list[tuple[str, list[str] | None, str, str]] = [
    # a definition's stated file or package, read from the text
    ("The `ping` view is implemented in `app/front/views.py`", None, "REFUTED", PING_ELSEWHERE),
    ("The `ping` view is in `app/front/views.py`", None, "REFUTED", PING_ELSEWHERE),
    ("The `ping` view is implemented in `app/api/views.py`", None, "VERIFIED",
     "app/api/views.py defines ping (line 4)"),
    ("`ping` lives in the `app/front` package", None, "REFUTED",
     "no file in app/front/ defines ping; it is defined in app/api/views.py:4"),
    ("`ping` lives in the `app/api` package", None, "VERIFIED",
     "app/api/views.py defines ping (line 4)"),
    # ... given by the agent, in the spellings that name the same place
    ("The ping endpoint answers health checks", ["symbol:app/front/views.py::ping"], "REFUTED",
     PING_ELSEWHERE),
    ("The ping endpoint answers health checks", ["symbol:app.front.views.ping"], "REFUTED",
     PING_ELSEWHERE),
    ("The ping endpoint answers health checks", ["symbol:./app/api/views.py::ping"],
     "VERIFIED", "app/api/views.py defines ping (line 4)"),
    ("The ping endpoint answers health checks", ["symbol:app.api.views.ping"], "VERIFIED",
     "app/api/views.py defines ping (line 4)"),
    # ... and a given anchor without a place, in a note that states one
    ("The `ping` view is implemented in `app/front/views.py`", ["symbol:ping"], "REFUTED",
     PING_ELSEWHERE),
    # imports: a distribution's name is its import name
    ("`auth/jwt.py` imports PyJWT", None, "VERIFIED", "imported by auth/jwt.py (line 3)"),
    ("`app/settings.py` imports PyJWT", None, "REFUTED",
     "jwt is not imported in app/settings.py (imported by auth/jwt.py)"),
    ("Tokens are decoded with PyJWT", ["import:jwt@app/settings.py"], "REFUTED",
     "jwt is not imported in app/settings.py (imported by auth/jwt.py)"),
    # environment reads
    ("`app/settings.py` reads DATABASE_URL", None, "VERIFIED",
     "DATABASE_URL is read in app/settings.py"),
    ("`auth/jwt.py` reads DATABASE_URL", None, "REFUTED",
     "auth/jwt.py does not read DATABASE_URL; it is read in app/settings.py"),
    ("JWT_SECRET is read in `app/settings.py`", None, "REFUTED",
     "app/settings.py does not read JWT_SECRET; it is read in auth/jwt.py"),
    ("The database URL comes from the environment", ["env:DATABASE_URL@settings.py"],
     "VERIFIED", "DATABASE_URL is read in app/settings.py"),
    ("The signing secret comes from the environment", ["env:JWT_SECRET@app/settings.py"],
     "REFUTED", "app/settings.py does not read JWT_SECRET; it is read in auth/jwt.py"),
    ("`auth/jwt.py` reads DATABASE_URL", ["env:DATABASE_URL"], "REFUTED",
     "auth/jwt.py does not read DATABASE_URL; it is read in app/settings.py"),
    # a component that resolves to a path: the library is checked there
    ("Encoding detection uses chardet", None, "VERIFIED", "imported by app/encoding.py"),
    ("The settings loader uses redis", None, "VERIFIED", "imported by app/settings.py"),
    ("The `uploads` module uses aiofiles", None, "REFUTED",
     "aiofiles is not imported in app/uploads.py"),
    ("`accounts/backends.py` uses httpx", None, "REFUTED",
     "httpx is not imported in accounts/backends.py (imported by app/api/views.py)"),
    ("Encoding detection uses httpx", ["import:httpx@app/encoding.py"], "REFUTED",
     "httpx is not imported in app/encoding.py"),
    ("Charset guessing is done with chardet (app/encoding.py)", None, "VERIFIED",
     "imported by app/encoding.py"),
    # a base class the class statement names checks that role
    ("`MailBackend` is a `ModelBackend` subclass", None, "VERIFIED",
     "accounts/backends.py defines MailBackend (line 4)"),
    # plain existence: VERIFIED as before
    ("`MailBackend` is defined in `accounts/backends.py`", None, "VERIFIED",
     "accounts/backends.py defines MailBackend (line 4)"),
    ("`ping` is a function in `app/api/views.py`", None, "VERIFIED",
     "app/api/views.py defines ping (line 4)"),
    ("We use Redis", None, "VERIFIED", "app/settings.py imports redis"),
    ("The project depends on httpx", None, "VERIFIED", "httpx is declared in pyproject.toml"),
    ("Our API uses FastAPI", None, "VERIFIED", "pyproject.toml declares fastapi"),
    ("Sessions are stored in Redis", None, "VERIFIED", "app/settings.py imports redis"),
]  # fmt: skip

# (note, anchors or None, the part named as not checked)
UNCHECKED: list[tuple[str, list[str] | None, str]] = [
    # a library used somewhere, but not by a component the words name
    ("Encoding detection uses httpx", None, "that encoding detection uses httpx"),
    ("The settings loader uses httpx", None, "that the settings loader uses httpx"),
    # declared, imported nowhere, and the uploads resolve to a file that does not import it
    ("The uploads are written with aiofiles", None, "that the uploads are written with aiofiles"),
    ("Thumbnails are resized with chardet", None, "that thumbnails are resized with chardet"),
    # given a project-wide anchor: the relation is still not checked
    ("Encoding detection uses httpx", ["tech:httpx"], "that encoding detection uses httpx"),
    # roles: the class or function existing does not check what it is for
    ("`MailBackend` in `accounts/backends.py` is the SMTP backend that sends our mail", None,
     "that `MailBackend` is the SMTP backend that sends our mail"),
    ("`MailBackend` in `accounts/backends.py` is the SMTP backend that sends our mail",
     ["symbol:accounts/backends.py::MailBackend"],
     "that `MailBackend` is the SMTP backend that sends our mail"),
    ("`verify` is the function that checks JWT signatures", None,
     "that `verify` is the function that checks JWT signatures"),
    ("`MailBackend` is a `SMTPBackend` subclass", None,
     "that `MailBackend` is a `SMTPBackend` subclass"),
    ("Charset guessing is done with httpx (app/encoding.py)", None,
     "that charset guessing is done with httpx"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo



@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), LOCATIONS)
async def test_a_stated_place_is_checked_where_it_is_stated(
    app_repo: GitRepo, text: str, anchors: list[str] | None, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text, anchors)
    assert served["status"] == status, served
    assert receipt in receipts(served), served
    assert "not checked" not in str(served.get("verification")), served


@pytest.mark.parametrize(("text", "anchors", "part"), UNCHECKED)
async def test_a_relation_or_role_nothing_checks_keeps_the_note_active_and_is_named(
    app_repo: GitRepo, text: str, anchors: list[str] | None, part: str
) -> None:
    served = await remember_and_serve(app_repo.root, text, anchors)
    assert served["status"] == "ACTIVE", served
    assert served["band"] != "assert"
    assert f"uncovered:{part}" in served["flags"], served
    assert part in served["verification"].partition("not checked: ")[2], served


async def test_a_false_relation_to_a_library_the_project_never_uses_is_refuted(
    app_repo: GitRepo,
) -> None:
    served = await remember_and_serve(app_repo.root, "Thumbnails are resized with Pillow")
    assert served["status"] == "REFUTED", served
    assert "Pillow is not used by the project" in receipts(served), served


# A package whose name is also a word ("requests", "click", "jwt"), named as what a file
# does something with: read as the package where the file imports it; as the means the
# clause ends with ("with requests."), the package where the project's code imports it, so
# a file that does not import it refutes the note; anywhere else it may be the word, so it
# is neither an anchor that breaks nor left out: the note stays ACTIVE.
WORD_PACKAGES = {
    "requirements.txt": "requests>=2\nclick>=8\n",
    "feeds/fetch.py": "import requests\n\n\ndef fetch(url):\n    return requests.get(url)\n",
    "feeds/parse.py": "import json\n\n\ndef parse(text):\n    return json.loads(text)\n",
    "cli/main.py": "import click\n\n\n@click.command()\ndef main():\n    pass\n",
}
WORD_NOTES = [
    ("feeds/fetch.py fetches the feeds with requests", "VERIFIED",
     "import:requests@feeds/fetch.py"),
    ("The command line in cli/main.py is written with click", "VERIFIED",
     "import:click@cli/main.py"),
    ("feeds/parse.py fetches the feeds with requests", "REFUTED",
     "import:requests@feeds/parse.py"),
    # no code of the project imports jwt: the word may be the word
    ("cli/main.py decodes tokens with jwt", "ACTIVE", "uncovered:jwt"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status", "mark"), WORD_NOTES)
async def test_a_package_that_is_also_a_word_is_checked_in_the_file_that_uses_it(
    git_repo: GitRepo, text: str, status: str, mark: str
) -> None:
    git_repo.commit(WORD_PACKAGES, "word packages")
    served = await remember_and_serve(git_repo.root, text, None)
    assert served["status"] == status, served["anchors"]
    seen = [a["anchor"] for a in served["anchors"]] + list(served.get("flags") or [])
    assert mark in seen, served


async def test_a_word_that_is_no_means_of_the_clause_is_not_the_package(
    git_repo: GitRepo,
) -> None:
    """ "floods the server with requests from many clients": the word, not the package, so
    a file that does not import requests is no refutation."""
    git_repo.commit(WORD_PACKAGES, "word packages")
    served = await remember_and_serve(
        git_repo.root, "feeds/parse.py floods the server with requests from many clients", None
    )
    assert served["status"] != "REFUTED", served["anchors"]
    assert "import:requests@feeds/parse.py" not in [a["anchor"] for a in served["anchors"]]


@pytest.mark.parametrize(
    ("text", "anchors", "status"),
    [
        # the file the agent gives exists, and does not import the package it is said to
        # fetch with
        ("feeds/parse.py fetches the feeds with requests", ["file:feeds/parse.py"], "REFUTED"),
        ("feeds/fetch.py fetches the feeds with requests", ["file:feeds/fetch.py"], "VERIFIED"),
        # the agent's own anchor says which package the word is
        ("feeds/fetch.py fetches the feeds with requests",
         ["import:requests@feeds/fetch.py"], "VERIFIED"),
    ],
)  # fmt: skip
async def test_a_word_package_is_checked_beside_the_anchors_the_agent_gives(
    git_repo: GitRepo, text: str, anchors: list[str], status: str
) -> None:
    git_repo.commit(WORD_PACKAGES, "word packages")
    served = await remember_and_serve(git_repo.root, text, anchors)
    assert served["status"] == status, (served["anchors"], served.get("flags"))
