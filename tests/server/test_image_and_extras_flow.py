"""An image's working directory and family, and an extra called a core dependency (issue
#31), through MCP ``remember`` + ``recall`` on a real git repository: "the working directory
is /data" is the Dockerfile's WORKDIR; "built FROM python:3.11-slim" is refuted by an
``-alpine`` image whatever its version; "gevent is a core runtime dependency" is never
VERIFIED when gevent is only an optional extra."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "dbweb"\ndependencies = ["flask", "peewee>=4.0.0"]\n\n'
        '[project.optional-dependencies]\nwsgi = ["gevent"]\n'
    ),
    "dbweb/__init__.py": "import flask\nimport peewee\n",
    "docker/Dockerfile": (
        "FROM python:3-alpine3.23\n"
        "RUN pip install --no-cache-dir gevent flask peewee\n"
        "EXPOSE 8080\n"
        "WORKDIR /srv\n"
        "WORKDIR data\n"
        'ENTRYPOINT ["dbweb_wsgi", "-H", "0.0.0.0"]\n'
    ),
}

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    ("The image's working directory is /srv/data.", "VERIFIED",
     "docker/Dockerfile:5 says WORKDIR /srv/data"),
    ("The image's working directory is /app.", "REFUTED",
     "docker/Dockerfile:5 says WORKDIR /srv/data"),
    ("The Docker image is built FROM python:3.11-slim.", "REFUTED",
     "docker/Dockerfile:1 says FROM python:3-alpine3.23"),
    ("The Docker image is built FROM python:3-alpine3.23.", "VERIFIED",
     "docker/Dockerfile:1 says FROM python:3-alpine3.23"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a small database browser with an image")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_the_images_working_directory_and_family_are_checked(
    app_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


async def test_an_optional_extra_is_never_verified_as_a_core_dependency(
    app_repo: GitRepo,
) -> None:
    served = await remember_and_serve(app_repo.root, "gevent is a core runtime dependency.")
    assert served["status"] == "ACTIVE", served
    assert "not checked: gevent (an optional dependency)" in served["verification"], served
    required = await remember_and_serve(app_repo.root, "flask is a core runtime dependency.")
    assert required["status"] == "VERIFIED", required
