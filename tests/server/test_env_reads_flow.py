"""Environment variables an application reads where the fingerprint did not look (issue
#31, class 6), through MCP ``remember`` + ``recall`` on a real git repository: a
container's entrypoint script (``$USE_GUNICORN``), and a name ``os.environ`` is given
(``self._environ.get("NO_COLOR")``)."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CONSOLE_PY = '''\
import os


class Console:
    _environ: dict = os.environ

    def color(self):
        if "NO_COLOR" in self._environ:
            return False
        return self._environ.get("FORCE_COLOR") is not None
'''

ENTRYPOINT = '''\
#!/bin/sh
if [ "$USE_GUNICORN" = "True" ]; then
    exec gunicorn app.wsgi
fi
exec python manage.py runserver
'''


@pytest.fixture
def app(git_repo: GitRepo) -> GitRepo:
    git_repo.commit({"app/__init__.py": "", "app/console.py": CONSOLE_PY,
                     "docker/entrypoint.sh": ENTRYPOINT}, "an application")  # fmt: skip
    return git_repo


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        ("The Console honours NO_COLOR and FORCE_COLOR from the environment.", "VERIFIED",
         "NO_COLOR is read or declared in app/console.py"),
        ("With `USE_GUNICORN` the container runs gunicorn.", "VERIFIED",
         "USE_GUNICORN is read or declared in docker/entrypoint.sh"),
        ("The container reads `USE_UVICORN` to pick the server.", "REFUTED",
         "no code reads USE_UVICORN"),
    ],
)  # fmt: skip
async def test_reads_by_scripts_and_through_names_of_the_environment_are_seen(
    app: GitRepo, text: str, status: str, reason: str
) -> None:
    served = await remember_and_serve(app.root, text)
    assert served["status"] == status, served
    assert reason in said(served), served
