"""A value stated of the application's Dockerfile, compose services or CI matrix is checked
against that file (issue #31): ``remember`` then ``recall`` through the MCP client on a real
git repository holding a realistic application (a multi-stage Dockerfile, docker-compose
with postgres and redis, a GitHub workflow with a python-version matrix, a nested
``docker/.env.example``). The right value is VERIFIED, a wrong one REFUTED with the file and
line in the receipt; a value about production, a plan or an example is not bound and stays
ACTIVE with the value named; with anchors read from the text and given by the agent."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "1.0"\n'
        'dependencies = ["django>=4.2", "psycopg>=3", "redis>=5", "gunicorn>=21"]\n'
    ),
    "shop/__init__.py": "",
    "shop/settings.py": (
        "import os\n\nDEBUG = os.environ.get('DJANGO_DEBUG', 'false') == 'true'\n"
        "DATABASE_URL = os.environ['DATABASE_URL']\nREDIS_URL = os.getenv('REDIS_URL')\n"
    ),
    "shop/wsgi.py": "from django.core.wsgi import get_wsgi_application\n\n"
    "application = get_wsgi_application()\n",
    "Dockerfile": (
        "# syntax=docker/dockerfile:1\n"
        "FROM node:20-alpine AS assets\n"
        "WORKDIR /build\n"
        "COPY frontend/ .\n"
        "RUN npm ci && npm run build\n"
        "\n"
        "FROM python:3.11-slim\n"
        "ENV PYTHONUNBUFFERED=1 \\\n"
        "    DJANGO_SETTINGS_MODULE=shop.settings\n"
        "WORKDIR /srv/app\n"
        "COPY --from=assets /build/dist ./static\n"
        "RUN pip install --no-cache-dir -r requirements.txt\n"
        "EXPOSE 8000\n"
        "USER app\n"
        'CMD ["gunicorn", "shop.wsgi:application", "--bind", "0.0.0.0:8000"]\n'
    ),
    "docker-compose.yml": (
        "services:\n"
        "  web:\n"
        "    build: .\n"
        "    ports:\n"
        '      - "8080:8000"\n'
        "    environment:\n"
        "      - DJANGO_DEBUG=false\n"
        "      - DATABASE_URL=postgres://shop@db/shop\n"
        "    depends_on: [db, redis]\n"
        "  db:\n"
        "    image: postgres:15-alpine\n"
        "    environment:\n"
        "      POSTGRES_DB: shop\n"
        "      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n"
        "    ports:\n"
        '      - "5433:5432"\n'
        "  redis:\n"
        "    image: redis:7\n"
    ),
    ".github/workflows/ci.yml": (
        "name: CI\n"
        "on: [push, pull_request]\n"
        "jobs:\n"
        "  test:\n"
        "    runs-on: ubuntu-latest\n"
        "    strategy:\n"
        "      matrix:\n"
        '        python-version: ["3.10", "3.11", "3.12"]\n'
        "    env:\n"
        "      PYTHONHASHSEED: random\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - uses: actions/setup-python@v5\n"
        "        with:\n"
        "          python-version: ${{ matrix.python-version }}\n"
        "      - run: pip install -e . && pytest\n"
        "        env:\n"
        "          DJANGO_SETTINGS_MODULE: shop.settings_test\n"
    ),
    ".github/workflows/frontend.yml": (
        "name: frontend\n"
        "on: [push]\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/setup-node@v4\n"
        "        with:\n"
        '          node-version: "20.x"\n'
        "      - run: npm ci && npm test\n"
    ),
    "shop/ci.py": "import os\n\nON_CI = os.getenv('CI') == 'true'\n",
    "docker/.env.example": (
        "DATABASE_URL=postgres://shop@localhost/shop\nSENTRY_DSN=\nSTRIPE_API_KEY=\n"
    ),
}

# (note, anchors the agent gives or None, the status served, text the receipts must hold)
CHECKED: list[tuple[str, list[str] | None, str, str]] = [
    # the Dockerfile: the built image is the last stage
    ("The Docker image is built FROM python:3.11", None, "VERIFIED",
     "Dockerfile:7 says FROM python:3.11-slim"),
    ("Our Dockerfile uses python:3.11-slim as the base image", None, "VERIFIED",
     "Dockerfile:7 says FROM python:3.11-slim"),
    ("The image is built FROM python:3.9", None, "REFUTED",
     "Dockerfile:7 says FROM python:3.11-slim, not python:3.9"),
    ("The Docker image runs Python 3.11", None, "VERIFIED", "Dockerfile:7"),
    ("The Docker image runs Python 3.12", None, "REFUTED",
     "Dockerfile:7 lists python-version 3.11"),
    ("The container exposes port 8000", None, "VERIFIED", "Dockerfile:13 says EXPOSE 8000"),
    ("The container exposes port 5000", None, "REFUTED",
     "Dockerfile:13 says EXPOSE 8000, not 5000"),
    ("The container runs as user `app`", None, "VERIFIED", "Dockerfile:14 says USER app"),
    ("The container runs as root", None, "REFUTED", "Dockerfile:14 says USER app, not root"),
    ("The runtime image runs as the unprivileged user `www-data`", None, "REFUTED",
     "Dockerfile:14 says USER app, not www-data"),
    ("The Dockerfile sets DJANGO_SETTINGS_MODULE=shop.settings", None, "VERIFIED",
     "Dockerfile:8 says ENV DJANGO_SETTINGS_MODULE=shop.settings"),
    ("The Dockerfile sets PYTHONUNBUFFERED=0", None, "REFUTED",
     "Dockerfile:8 says ENV PYTHONUNBUFFERED=1, not 0"),
    # compose services
    ("The db service in docker-compose runs postgres:15", None, "VERIFIED",
     "docker-compose.yml:11 says services.db.image: postgres:15-alpine"),
    ("Compose runs postgres:12 for the database", None, "REFUTED",
     "docker-compose.yml:11 says services.db.image: postgres:15-alpine, not postgres:12"),
    ("Compose runs redis:7 for caching", None, "VERIFIED", "docker-compose.yml:18"),
    ("In docker-compose, the db service uses mysql:8", None, "REFUTED",
     "docker-compose.yml:11 says services.db.image: postgres:15-alpine, not mysql:8"),
    ("The web service maps 8080:8000 in compose", None, "VERIFIED",
     "docker-compose.yml:5 says services.web.ports: 8080:8000"),
    ("Postgres is published on port 5433 by compose", None, "VERIFIED",
     "docker-compose.yml:16 says services.db.ports: 5433:5432"),
    ("Postgres is published on port 6543 by compose", None, "REFUTED",
     "docker-compose.yml:16 says services.db.ports: 5433:5432, not 6543"),
    # the address a port is published on: a mapping without one publishes on every one
    ("Compose publishes the db port 5433 on 127.0.0.1 only", None, "REFUTED",
     "docker-compose.yml:16 says services.db.ports: 5433:5432, not 127.0.0.1:5433"),
    ("Compose publishes the db port 5433 on 0.0.0.0", None, "VERIFIED",
     "docker-compose.yml:16 says services.db.ports: 5433:5432"),
    # the CI matrix
    ("CI tests on Python 3.10 through 3.12 (GitHub Actions matrix)", None, "VERIFIED",
     ".github/workflows/ci.yml:8 lists python-version 3.10, 3.11, 3.12"),
    ("The GitHub Actions workflow tests Python 3.11", None, "VERIFIED",
     ".github/workflows/ci.yml:8 lists python-version"),
    ("CI tests on Python 3.8", None, "REFUTED",
     ".github/workflows/ci.yml:8 lists python-version 3.10, 3.11, 3.12, not 3.8"),
    ("The CI matrix covers Python 3.9 through 3.12", None, "REFUTED", "(3.9 in none)"),
    ("CI runs on ubuntu-latest", None, "VERIFIED",
     ".github/workflows/ci.yml:5 says runs-on: ubuntu-latest"),
    # Python support with no requires-python: the CI matrix answers
    ("The project supports Python 3.10 through 3.12", None, "VERIFIED",
     ".github/workflows/ci.yml:8 lists python-version 3.10, 3.11, 3.12"),
    ("Shop supports Python 3.9 to 3.12", None, "REFUTED", "not 3.9-3.12 (3.9 in none)"),
    # given by the agent
    ("The API image's base is python:3.11", ["config:Dockerfile::FROM=python:3.11"], "VERIFIED",
     "Dockerfile:7 says FROM python:3.11-slim"),
    ("The API image's base is python:3.9", ["config:Dockerfile::FROM=python:3.9"], "REFUTED",
     "Dockerfile:7 says FROM python:3.11-slim, not python:3.9"),
    ("Local Postgres is version 12",
     ["config:docker-compose.yml::services.db.image=postgres:12"], "REFUTED",
     "not postgres:12"),
    ("CI covers Python 3.10 to 3.12", ["config:.github/workflows::python-version=3.10-3.12"],
     "VERIFIED", "lists python-version 3.10, 3.11, 3.12"),
    ("We test on Python 3.8", ["config:.github/workflows::python-version=3.8"], "REFUTED",
     "not 3.8"),
    ("The app container listens on 8000", ["config:EXPOSE=8000"], "VERIFIED",
     "Dockerfile:13 says EXPOSE 8000"),
    ("gunicorn serves shop.wsgi:application",
     ["config:Dockerfile::CMD=gunicorn shop.wsgi:application"], "VERIFIED", "Dockerfile:15"),
    # a toolchain named in a sentence about CI is what CI runs (not a package to import)
    ("The frontend CI job uses Node 20", None, "VERIFIED", "node-version 20.x"),
    ("The frontend CI job builds with Node 18", None, "REFUTED", "not 18"),
    # what the CI steps run and set
    ("CI sets Python up with actions/setup-python", None, "VERIFIED",
     ".github/workflows/ci.yml:13 says uses: actions/setup-python@v5"),
    ("CI sets Python up with actions/setup-python@v5", None, "VERIFIED", "actions/setup-python"),
    ("CI sets Python up with actions/setup-python@v4", None, "REFUTED",
     "not actions/setup-python@v4"),
    ("CI installs Python with astral-sh/setup-uv", None, "ACTIVE", ""),  # an owner CI never uses
    ("CI uses actions/cache to keep pip's downloads", None, "REFUTED",
     "not actions/cache"),
    ("The CI tests run with PYTHONHASHSEED=random", None, "VERIFIED",
     ".github/workflows/ci.yml:10 says env.PYTHONHASHSEED: random"),
    ("The CI tests run with PYTHONHASHSEED=0", None, "REFUTED",
     "says env.PYTHONHASHSEED: random, not 0"),
    ("CI runs pytest with DJANGO_SETTINGS_MODULE=shop.settings_test", None, "VERIFIED",
     "env.DJANGO_SETTINGS_MODULE: shop.settings_test"),
    # .env.example below the root
    ("Sentry is configured through SENTRY_DSN", ["env:SENTRY_DSN"], "VERIFIED",
     "docker/.env.example"),
    ("`STRIPE_API_KEY` is read from the environment", None, "VERIFIED", "docker/.env.example"),
]  # fmt: skip

# Not the repository's files now: production, a plan, an example, the past, a negation, or
# a value the file computes. Nothing is bound; the note stays ACTIVE and names the value.
UNBOUND: list[tuple[str, list[str] | None, str]] = [
    ("We should upgrade the Docker base image to python:3.12", None, "the value python:3.12"),
    ("In production the image runs on python:3.12", None, "the value python:3.12"),
    ("For example, a Dockerfile could say FROM python:3.8", None, "the value python:3.8"),
    ("The Dockerfile used to be FROM python:3.8", None, "the value python:3.8"),
    ("The image should expose port 9000", None, "the value 9000"),
    ("Kubernetes runs 3 replicas of the image", None, "the value 3"),
    ("Staging runs postgres:16 in its own compose stack", None, "the value postgres:16"),
    ("The web container listens on port 8000 and Postgres is published on 5433 by compose",
     None, "the value 5433"),
    ("The container exposes port 8000, not 5000", None, "the value 5000"),
]  # fmt: skip

COMPUTED: list[tuple[str, list[str], str]] = [
    ("The compose database password is hunter2",
     ["config:docker-compose.yml::services.db.environment.POSTGRES_PASSWORD=hunter2"],
     "docker-compose.yml:14 says services.db.environment.POSTGRES_PASSWORD: (computed); "
     "cannot tell whether it is hunter2"),
    ("The web image is built FROM node:20", ["config:Dockerfile::FROM=node:20"],
     "cannot tell which stage is meant"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a Django application with Docker, compose and CI")
    return git_repo


async def remembered(repo: GitRepo, text: str, anchors: list[str] | None) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, anchors)


@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), CHECKED)
async def test_an_infrastructure_value_is_verified_or_refuted_with_the_file_and_line(
    app_repo: GitRepo, text: str, anchors: list[str] | None, status: str, receipt: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == status, (served["anchors"], served.get("verification"))
    assert receipt in receipts(served), served
    assert not any(f.startswith("uncovered:") for f in served["flags"]), served


@pytest.mark.parametrize(("text", "anchors", "part"), UNBOUND)
async def test_a_value_not_about_the_files_now_is_not_bound_and_stays_named(
    app_repo: GitRepo, text: str, anchors: list[str] | None, part: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "ACTIVE", served
    assert served["band"] != "assert"
    assert f"uncovered:{part}" in served["flags"], served
    assert not any(str(a["anchor"]).startswith("config:") for a in served["anchors"]), served


@pytest.mark.parametrize(("text", "anchors", "why"), COMPUTED)
async def test_a_value_the_files_do_not_settle_keeps_the_note_active(
    app_repo: GitRepo, text: str, anchors: list[str], why: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == "ACTIVE", served
    assert served["band"] != "assert"
    assert any(why in str(a["detail"]) for a in served["anchors"]), served


async def test_ci_in_capitals_is_the_practice_not_the_variable(git_repo: GitRepo) -> None:
    """The code reads ``CI`` from the environment, but "CI" in a sentence is continuous
    integration: a two-letter word in capitals is an environment name only as code."""
    git_repo.commit(APP, "an application")
    prose = await remember_and_serve(git_repo.root, "CI sets Python up with actions/setup-python")
    assert "env:CI" not in [a["anchor"] for a in prose["anchors"]], prose["anchors"]
    code = await remember_and_serve(git_repo.root, "The app checks `CI` to know it runs in CI")
    assert "env:CI" in [a["anchor"] for a in code["anchors"]], code["anchors"]
