"""The environment variables shell scripts read (``anchors.shell_env``), and what the
fingerprint makes of them: an ``env:`` anchor holds where only an entrypoint reads it."""

from __future__ import annotations

import pytest

from anchors.fingerprint import CodeSource
from anchors.shell_env import shell_env_reads, shell_script
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

ENTRYPOINT = b"""#!/bin/bash
# $COMMENTED is not read
set -e
PORT=${PORT:-8000}
WORKERS=4
export APP_HOME=/srv/app
if [[ "$USE_GUNICORN" == "True" ]]; then
    exec gunicorn --workers "$WORKERS" --bind "0.0.0.0:${PORT}" app.wsgi
fi
for NAME in a b; do echo "$NAME $HOME $APP_HOME"; done
echo "${DJANGO_DEBUG:-False}" "$1"
"""


def test_a_script_reads_what_it_does_not_set_itself() -> None:
    assert shell_env_reads(ENTRYPOINT) == ["PORT", "USE_GUNICORN", "DJANGO_DEBUG"]


@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("extras/docker/entrypoint.sh", True),
        ("scripts/deploy.bash", True),
        ("docker-entrypoint", True),
        ("app/entrypoint.py", False),
        ("README.md", False),
    ],
)
def test_shell_scripts_are_known_by_their_names(path: str, script: bool) -> None:
    assert shell_script(path) is script


def test_binary_or_huge_data_reads_nothing() -> None:
    assert shell_env_reads(b"\0\0$PORT") == []
    assert shell_env_reads(b"echo $PORT\n" * 40000) == []


def test_an_entrypoints_read_answers_an_env_anchor(git_repo: GitRepo, source: CodeSource) -> None:
    git_repo.commit({"docker/entrypoint.sh": ENTRYPOINT.decode(), "app/__init__.py": ""}, "app")
    fp = source.fingerprint()
    found = check_anchor(parse_anchor("env:USE_GUNICORN"), None, fp)
    assert found.verdict is Verdict.HOLDS and found.found_in == ("docker/entrypoint.sh",)
    assert check_anchor(parse_anchor("env:WORKERS"), None, fp).verdict is Verdict.BROKEN
    assert check_anchor(parse_anchor("env:COMMENTED"), None, fp).verdict is Verdict.BROKEN
