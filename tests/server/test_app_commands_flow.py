"""What an application runs with and what its files use, checked from notes as agents write
them (issue #31): ``remember`` then ``recall`` through the MCP client on a real git
repository holding a small service.

- the options the image's command passes ("starts the app with --port 8000"), a number
  of workers (``-w 4``), and an EXPOSE the Dockerfile never states (an official language
  image exposes nothing of its own; nginx does);
- a variable of a family the code reads ("APP_LOG_COLOUR" beside APP_LOG_LEVEL) that no
  code reads;
- a package a file is said to do something "with" (an ordinary word, "requests", "jwt"):
  that file imports it, or the note is refuted; a Go file's ``strings.Join``: that file
  imports ``strings``;
- "takes no `x` argument" is a parameter's absence;
- a duration stated for a Python setting whose name carries no unit is in seconds, in
  figures or in words ("one hour"), unless the code's literal reads as the same duration
  in another unit.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        "[project]\nname = 'svc'\nversion = '1.0'\n"
        "dependencies = ['requests>=2', 'pyjwt>=2', 'gunicorn>=21']\n"
    ),
    "svc/__init__.py": "",
    "svc/settings.py": (
        "import os\n\n"
        "LOG_LEVEL = os.environ.get('APP_LOG_LEVEL', 'info')\n"
        "LOG_STYLE = os.environ.get('APP_LOG_STYLE', 'plain')\n"
        "CACHE_TTL = int(os.environ.get('CACHE_TTL', 3600))\n"
        "POLL_INTERVAL = int(os.environ.get('POLL_INTERVAL', 86400000))\n"
    ),
    "svc/fetch.py": "import requests\n\n\ndef fetch(url):\n    return requests.get(url).json()\n",
    "svc/tokens.py": "import jwt\n\n\ndef decode(token, key):\n    return jwt.decode(token, key)\n",
    "svc/views.py": (
        "from svc.tokens import decode\n\n\n"
        "def profile(request, token):\n    return decode(token, 'k')\n\n\n"
        "def status(request, verbose=False):\n    return {'ok': True}\n"
    ),
    "Dockerfile": (
        "FROM python:3.12-slim\nWORKDIR /app\nCOPY . .\n"
        "RUN pip install --no-cache-dir .\n"
        'ENTRYPOINT ["gunicorn", "-b", "0.0.0.0:8000", "-w", "4", "--preload", "svc.wsgi"]\n'
    ),
    "worker/Dockerfile": (
        "FROM python:3.12-slim\nENV PORT=9000\n"
        'CMD ["sh", "-c", "svc-worker --queue default --port $PORT"]\n'
    ),
    "proxy/Dockerfile": "FROM nginx:1.27\nCOPY site.conf /etc/nginx/conf.d/\n",
    "gateway/go.mod": "module example.com/gateway\n\ngo 1.22\n",
    "gateway/router.go": (
        'package gateway\n\nimport (\n\t"net/http"\n\t"strings"\n)\n\n'
        "func allowed(methods []string) string {\n\treturn strings.Join(methods, \", \")\n}\n\n"
        "func Serve(w http.ResponseWriter) {}\n"
    ),
    "gateway/route.go": (
        'package gateway\n\nimport "fmt"\n\nfunc url(host string) string {\n'
        '\treturn fmt.Sprintf("http://%s", host)\n}\n'
    ),
}

# (note, the status served, text the receipts must hold)
NOTES = [
    # the image's command and its options
    ("The image runs gunicorn with --preload.", "VERIFIED", "--preload"),
    ("The image runs gunicorn with `--preload`.", "VERIFIED", "--preload"),
    # the image's one command does not pass it
    ("The image runs gunicorn with --reload.", "REFUTED", "not --reload"),
    ("gunicorn in the image runs 4 workers.", "VERIFIED", "-w 4"),
    ("gunicorn in the image runs 2 workers.", "REFUTED", "not -w 2"),
    ("The container starts two gunicorn workers.", "REFUTED", "not -w 2"),
    ("The container starts four gunicorn workers.", "VERIFIED", "-w 4"),
    ("gunicorn in the image is bound to 0.0.0.0:8000.", "VERIFIED", "-b 0.0.0.0:8000"),
    ("gunicorn in the image listens on 127.0.0.1:8000.", "REFUTED", "not -b 127.0.0.1:8000"),
    # a value the command passes word for word; one it does not pass is not refuted
    ("The image runs gunicorn with 4 workers and 0.0.0.0:8000.", "VERIFIED",
     "0.0.0.0:8000"),
    # a program the image does not run: refuted where its command runs it, else unknown
    ("The image doesn't use gunicorn.", "REFUTED", "a command that does not run gunicorn"),
    ("The image no longer runs uwsgi.", "ACTIVE", "cannot tell whether it is !uwsgi"),
    # "doesn't run as root" is checked by the image's user, whatever it is called
    ("The worker container doesn't run as root.", "REFUTED", "runs as root"),
    ("The worker image starts svc-worker with --queue default.", "VERIFIED", "--queue default"),
    ("The worker image starts svc-worker with --port $PORT.", "VERIFIED", "--port $PORT"),
    # an option the command never passes, beside a variable that is an option's value
    ("The worker image starts svc-worker with --concurrency 8.", "REFUTED",
     "not --concurrency 8"),
    # the variable's value is the shell's: cannot tell
    ("The worker image starts svc-worker with --port 9000.", "ACTIVE", "cannot tell"),
    # how the image is built is a RUN's, never what it runs
    ("The Docker image installs the package with pip --no-cache-dir.", "VERIFIED",
     "RUN pip install --no-cache-dir"),
    ("The Docker image installs the package with pip --no-deps.", "ACTIVE",
     "not checked: the value --no-deps"),
    # an EXPOSE none states: python:3.12-slim exposes nothing, nginx its own port
    ("The worker Dockerfile declares EXPOSE 9000.", "REFUTED", "an image that exposes no port"),
    ("The proxy Dockerfile declares EXPOSE 80.", "ACTIVE", "states no EXPOSE"),
    # a variable of a family the code reads, which nothing reads
    ("Log colours are controlled by APP_LOG_COLOUR.", "REFUTED", "no code reads APP_LOG_COLOUR"),
    ("Log styling is controlled by APP_LOG_STYLE.", "VERIFIED", "svc/settings.py"),
    # a package a file does something with
    ("svc/fetch.py fetches the feed with requests.", "VERIFIED", "imported by svc/fetch.py"),
    ("svc/views.py fetches the profile with requests.", "REFUTED",
     "requests is not imported in svc/views.py"),
    ("svc/tokens.py decodes tokens with jwt.", "VERIFIED", "imported by svc/tokens.py"),
    ("svc/fetch.py decodes tokens with jwt.", "REFUTED", "jwt is not imported in svc/fetch.py"),
    ("gateway/router.go joins the methods with strings.Join.", "VERIFIED",
     "imported by gateway/router.go"),
    ("gateway/route.go joins the methods with strings.Join.", "REFUTED",
     "strings is not imported in gateway/route.go"),
    ("gateway/route.go formats URLs with fmt.Sprintf.", "VERIFIED",
     "imported by gateway/route.go"),
    # a parameter's absence
    ("`status` in `svc/views.py` takes no `verbose` argument.", "REFUTED", "status(request"),
    ("`status` in `svc/views.py` takes no `timeout` argument.", "VERIFIED", "status(request"),
    ("`status` in `svc/views.py` accepts no `verbose` parameter.", "REFUTED", "status(request"),
    # durations for a unit-less Python setting
    ("CACHE_TTL defaults to 3600 seconds.", "VERIFIED", "3600"),
    ("CACHE_TTL defaults to one hour.", "VERIFIED", "3600"),
    ("CACHE_TTL defaults to 60 minutes.", "VERIFIED", "3600"),
    ("CACHE_TTL defaults to one day.", "REFUTED", "the default 3600, not 86400"),
    ("CACHE_TTL defaults to 86400 seconds.", "REFUTED", "the default 3600, not 86400"),
    # "half an hour" is 1800 seconds, never an hour
    ("CACHE_TTL defaults to half an hour.", "REFUTED", "the default 3600, not 1800"),
    # 86400000 is one day in milliseconds: which unit is meant cannot be told
    ("POLL_INTERVAL defaults to one day.", "ACTIVE", "one day"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a service")
    return git_repo


async def remembered(repo: GitRepo, text: str) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, None)


@pytest.mark.parametrize(("text", "status", "receipt"), NOTES)
async def test_what_the_service_runs_and_uses_decides_the_note(
    app_repo: GitRepo, text: str, status: str, receipt: str
):
    served = await remembered(app_repo, text)
    assert served["status"] == status, served
    said = receipts(served) + " " + str(served.get("verification", ""))
    assert receipt in said, served
    if status == "VERIFIED":
        assert served["band"] == "assert", served


async def test_a_second_that_is_an_ordinal_is_no_duration(app_repo: GitRepo):
    """'a second developer' names no duration: nothing in the note is left unchecked."""
    served = await remembered(app_repo, "svc/fetch.py is reviewed by a second developer.")
    assert "a second" not in str(served.get("verification", "")), served


async def test_a_preposition_of_place_does_not_make_a_word_a_package(app_repo: GitRepo):
    """'answers requests' / 'responds to requests': the word, not the package, so the note
    is not refuted for a file that does not import requests."""
    served = await remembered(app_repo, "svc/views.py responds to requests with JSON.")
    assert served["status"] != "REFUTED", served
