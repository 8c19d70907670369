"""VERIFIED only for what was checked (issue #31): negations no anchor checks, evidence that
is development-only, what CI runs, and defaults stated in words, through MCP ``remember``
then ``recall`` on a real git repository.

Each false note here was served VERIFIED while the anchors only showed that the things it
names exist: "route.py doesn't touch the database" by ``file:app/route.py``, "the service
is a Flask application" by ``flask`` in a ``tox.ini`` test environment, "CI lints with
flake8" by ``[tool.flake8]`` in ``pyproject.toml``. Now the unchecked part is named and the
note is served ACTIVE; true notes whose parts are all checked stay VERIFIED.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "httpx"]\n'
        "[project.optional-dependencies]\n"
        'postgresql = ["psycopg2-binary"]\ntest = ["pytest", "respx"]\n'
        "[tool.flake8]\nmax-line-length = 100\n"
        "[tool.black]\nline-length = 100\n"
    ),
    "requirements-dev.txt": "pymongo==4.2.0\nfactory-boy\n",
    "tox.ini": (
        "[tox]\nenvlist = py311\n\n[testenv]\ndeps =\n    pytest\n    -r requirements-dev.txt\n"
        "commands = pytest\n\n[testenv:compat]\ndeps =\n    flask-caching>=1.9\n"
        "    py311: werkzeug\n"
    ),
    "app/__init__.py": "",
    "app/route.py": "import re\n\nROUTE = re.compile(r'^/items/(?P<id>\\d+)$')\n",
    "app/db.py": "import os\n\nDATABASE_URL = os.environ.get('DATABASE_URL', 'sqlite://')\n",
    "app/settings.py": (
        "import os\n\nDEBUG = os.environ.get('APP_DEBUG', 'False') == 'True'\n"
        "PAGE_SIZE = int(os.environ.get('PAGE_SIZE', '20'))\n"
    ),
    "app/main.py": "import fastapi\nimport httpx\n\napp = fastapi.FastAPI()\n",
    "web/package.json": (
        '{"name": "web", "dependencies": {"vue": "^3.4.0"},'
        ' "devDependencies": {"vitest": "^1.6.0"}}'
    ),
    "web/src/main.ts": "import { createApp } from 'vue'\n\ncreateApp({}).mount('#app')\n",
    "app/app.cfg": "[markup]\nrenderer = mistune  # or misaka\n\n[guard]\nratelimit = 2\n",
    "app/limits.py": (
        "MAX_RETRY_COUNT = 3\nPER_PAGE = 25\nDEFAULT_PORT = 8888\nTOKEN_TTL_SECONDS = 600\n"
    ),
    "tests/test_main.py": "import respx\n\n\ndef test_app():\n    assert respx\n",
    ".github/workflows/ci.yml": (
        "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: pip install ruff pytest\n"
        "      - run: ruff check .\n      - run: pytest\n"
    ),
    "docker-compose.yml": (
        "services:\n  db:\n    image: postgres:16\n  app:\n    build: .\n"
        "    environment:\n      DATABASE_URL: postgresql://db/shop\n"
    ),
}


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo


def _parts(served: dict[str, Any]) -> list[str]:
    return [f.removeprefix("uncovered:") for f in served["flags"] if f.startswith("uncovered:")]


# A negated clause with no absent anchor: ACTIVE, the negation named. (note, words named)
NEGATIONS_UNCHECKED: list[tuple[str, str]] = [
    # true, and not checked by any anchor
    ("app/main.py has no global state.", "no global state"),
    ("app/settings.py does not validate the page size.", "not validate the page size"),
    ("app/route.py cannot be imported without app/db.py.", "cannot be imported"),
    ("app/db.py opens no connection at import time.", "no connection at import time"),
    ("Nothing in app/route.py is async.", "Nothing in app/route.py is async"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "words"), NEGATIONS_UNCHECKED)
async def test_a_negation_no_absent_anchor_checks_is_named_and_never_verified(
    app_repo: GitRepo, text: str, words: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    assert any(words in part for part in _parts(served)), served


async def test_given_anchors_without_an_absent_one_leave_the_negation_named(
    app_repo: GitRepo,
) -> None:
    served = await remember_and_serve(
        app_repo.root, "app/db.py opens no connection at import time.", ["file:app/db.py"]
    )
    assert served["status"] == "ACTIVE", served
    assert any("no connection at import time" in p for p in _parts(served)), served


# Negations an absent anchor checks, and words that only look negative: as before.
# (note, status served)
NEGATIONS_CHECKED: list[tuple[str, str]] = [
    ("We no longer use aiohttp.", "VERIFIED"),
    ("app/route.py doesn't import os.", "VERIFIED"),
    ("app/db.py doesn't import os.", "REFUTED"),
    ("No code imports aiohttp.", "VERIFIED"),
    # a quoted message, "yes/no" and a condition are not the note's negation
    ("`PAGE_SIZE` defaults to 20 when it is not set.", "VERIFIED"),
    ("app/db.py reads DATABASE_URL, with 'sqlite://' if not set.", "VERIFIED"),
]  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [  # false: route.py compiles a regular expression; db.py reads the environment
        "app/route.py doesn't touch regular expressions; that is all in app/db.py.",
        "app/db.py never touches the environment itself.",
    ],
)
async def test_a_concept_a_file_is_said_never_to_touch_refutes_and_stays_named(
    app_repo: GitRepo, text: str
) -> None:
    """The file's absent anchors for the concept refute the note (adr/0041); a true one
    would stay ACTIVE with the negation named, since they never verify."""
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "REFUTED", served


@pytest.mark.parametrize(("text", "status"), NEGATIONS_CHECKED)
async def test_a_negation_an_absent_anchor_checks_is_judged_by_it(
    app_repo: GitRepo, text: str, status: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert not any(p.startswith("the negation") for p in _parts(served)), served


# Evidence that is development-only does not verify what the code does at run time; where
# the application's package imports none of it, the claim is refuted. (note, part named)
DEVELOPMENT_ONLY: list[tuple[str, str]] = [
    # false: only a tox test environment installs it
    ("Responses are cached with flask-caching.", "flask-caching (declared for development only)"),
    ("The API keeps its documents in MongoDB through pymongo.",
     "pymongo (declared for development only)"),
    ("The app uses factory-boy.", "factory-boy (declared for development only)"),
    ("The service is a Werkzeug application.", "Werkzeug (declared for development only)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "part"), DEVELOPMENT_ONLY)
async def test_development_only_evidence_refutes_a_claim_of_run_time_use(
    app_repo: GitRepo, text: str, part: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "REFUTED", served
    assert part in _parts(served), served
    assert "is not imported in app" in str(served["anchors"]), served


# ... and still verifies what is about development, a tool configured by its own files,
# and an extra the application runs with.
DEVELOPMENT_CLAIMS: list[str] = [
    "The tests use respx to mock HTTP.",
    "Tests run with pytest.",
    "We format the code with `black`.",
    "tox installs flask-caching for the compat test environment.",
    "pymongo is a development requirement.",
    "docker-compose runs postgres:16 next to the app.",
    "PostgreSQL support comes through psycopg2-binary.",
]


@pytest.mark.parametrize("text", DEVELOPMENT_CLAIMS)
async def test_development_evidence_verifies_what_is_about_development(
    app_repo: GitRepo, text: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "VERIFIED", served


# What CI runs is checked in the CI files. (note, status, part named or receipt)
CI_CLAIMS: list[tuple[str, str, str]] = [
    ("CI lints the Python code with ruff.", "VERIFIED", ".github/workflows/ci.yml names ruff"),
    ("The CI job runs the tests with pytest.", "VERIFIED", ".github/workflows/ci.yml"),
    # false: [tool.flake8] configures it, CI runs ruff; CI may call it through tox or
    # make, which is not followed, so not refuted either
    ("CI lints the Python code with flake8.", "ACTIVE", "that CI runs flake8"),
    ("In CI, the code is formatted with black.", "ACTIVE", "that CI runs black"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status", "said"), CI_CLAIMS)
async def test_what_ci_runs_is_checked_in_the_ci_files(
    app_repo: GitRepo, text: str, status: str, said: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    receipts = [str(a["detail"]) for a in served["anchors"]]
    assert any(said in s for s in [*_parts(served), *receipts]), served


# A default stated in words ("defaulting to", "a default of") is a value: checked by a
# value anchor when bound to its name, else named.
DEFAULTS: list[tuple[str, str]] = [
    ("`APP_DEBUG` defaults to False.", "VERIFIED"),
    ("`APP_DEBUG` defaults to True.", "REFUTED"),
    # the one setting written as code in the sentence is what defaults to the value
    ("The settings read APP_DEBUG with os.environ.get, defaulting to True.", "REFUTED"),
    ("app/settings.py reads PAGE_SIZE from the environment and defaults to 20.", "VERIFIED"),
    ("app/settings.py reads PAGE_SIZE from the environment and defaults to 50.", "REFUTED"),
    # two settings named: which one defaults to it is not said
    ("APP_DEBUG and PAGE_SIZE come from the environment; one defaults to 20.", "ACTIVE"),
    ("The settings read PAGE_SIZE from the environment, with a default of 50.", "ACTIVE"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status"), DEFAULTS)
async def test_a_default_stated_in_words_is_a_value(
    app_repo: GitRepo, text: str, status: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    if status == "ACTIVE":
        assert any(p.startswith("the value") for p in _parts(served)), served


# A value stated a few words before the constant named in parentheses is that constant's
# value: "retries up to 3 times (MAX_RETRY_COUNT)". A value with a unit is bound only to a
# constant whose name says its unit (``_SECONDS``), converted to it; else it is named,
# never refuted by a bare number.
CONSTANTS_NAMED_AFTER: list[tuple[str, str]] = [
    ("The client retries a connection up to 3 times (MAX_RETRY_COUNT).", "VERIFIED"),
    ("The client retries a connection up to 5 times (MAX_RETRY_COUNT).", "REFUTED"),
    ("List views show 25 objects per page (PER_PAGE in app/limits.py).", "VERIFIED"),
    ("The server listens on port 8080 by default (DEFAULT_PORT in app/limits.py).", "REFUTED"),
    ("Votes stop at 25 (`PER_PAGE`).", "VERIFIED"),
    # a duration in the unit the constant's name carries: 10 minutes is 600 seconds
    ("Tokens stay valid for 10 minutes (TOKEN_TTL_SECONDS).", "VERIFIED"),
    ("Tokens stay valid for 5 minutes (TOKEN_TTL_SECONDS).", "REFUTED"),
    ("Votes stay open for 25 minutes (`PER_PAGE`).", "ACTIVE"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status"), CONSTANTS_NAMED_AFTER)
async def test_a_value_stated_before_a_constant_named_after_it_is_checked_against_it(
    app_repo: GitRepo, text: str, status: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    receipts = " | ".join(str(a["detail"]) for a in served["anchors"])
    if status != "ACTIVE":
        assert "app/limits.py" in receipts, served
    else:
        assert any(p.startswith("the value") for p in _parts(served)), served


# A setting stated as written in an INI file is checked against that file.
SETTINGS: list[tuple[str, str]] = [
    ("app/app.cfg sets [guard] ratelimit = 2.", "VERIFIED"),
    ("app/app.cfg sets [guard] ratelimit = 5.", "REFUTED"),
    ("The guard's rate limit is 2 (ratelimit = 2 in app/app.cfg).", "VERIFIED"),
    ("Markdown goes through mistune: the settings say renderer = mistune.", "VERIFIED"),
    ("The settings say renderer = misaka.", "REFUTED"),
    # a key no settings file gives: the value is named, never refuted
    ("app/app.cfg sets [guard] burst = 10.", "ACTIVE"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status"), SETTINGS)
async def test_a_setting_stated_as_written_is_checked_against_the_settings_file(
    app_repo: GitRepo, text: str, status: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    receipts = " | ".join(str(a["detail"]) for a in served["anchors"])
    if status != "ACTIVE":
        assert "app/app.cfg:" in receipts, served


# A version spec quoted as the manifest writes it is checked as text, with the package's
# declaration; the role the sentence gives it (dev or run time) is checked too.
SPECS: list[tuple[str, str, str | None]] = [
    ("pyproject.toml requires fastapi>=0.110", "VERIFIED", None),
    ("web/package.json pins vue ^3.4.0.", "VERIFIED", None),
    ("vitest ^1.6.0 is a devDependency of the frontend.", "VERIFIED", None),
    ("vue ^3.4.0 is a devDependency.", "ACTIVE", "that vue is a development dependency"),
    # "Vue 2": the series the declared ^3.4.0 excludes
    ("The frontend is on Vue 2 (vue ^2.7.0 in web/package.json).", "REFUTED", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status", "part"), SPECS)
async def test_a_spec_quoted_as_the_manifest_writes_it_is_checked_as_written(
    app_repo: GitRepo, text: str, status: str, part: str | None
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    if part is not None:
        assert part in _parts(served), served


@pytest.mark.parametrize(
    ("text", "given", "status", "unchecked"),
    [
        # false: nothing imports pkg_resources, a known package's module named as the means
        ("app/db.py finds its defaults through pkg_resources.", ["file:app/db.py"],
         "REFUTED", None),
        # ... and a module no package is known by: only the file's anchor, which checks
        # only the file
        ("app/db.py finds its defaults through zorb_loader.", ["file:app/db.py"],
         "ACTIVE", "zorb_loader"),
        # the code named is what the given anchor names: checked by it
        ("app/limits.py sets `MAX_RETRY_COUNT`.", ["symbol:app/limits.py::MAX_RETRY_COUNT"],
         "VERIFIED", None),
        # the file's own import, named: checked by the text's reading beside the anchor
        ("app/db.py reads its settings through `os.environ`.", ["file:app/db.py"],
         "VERIFIED", None),
    ],
)  # fmt: skip
async def test_code_the_reading_finds_nowhere_is_not_checked_by_a_given_file(
    app_repo: GitRepo, text: str, given: list[str], status: str, unchecked: str | None
) -> None:
    served = await remember_and_serve(app_repo.root, text, given)
    assert served["status"] == status, served
    if unchecked is not None:
        assert unchecked in _parts(served), served
