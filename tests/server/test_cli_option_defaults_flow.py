"""The defaults of a program's command-line options (issue #31), through MCP ``remember`` +
``recall`` on a real git repository: "the `--host` option defaults to 127.0.0.1", "listens
on 8080 unless `--port` is given", "50 rows per page by default (`--rows-per-page`)" are
checked against the option's declaration, quoted in the receipt; an option no file of the
repository declares (another program's) binds nothing and is never refuted."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CLI_PY = '''\
import argparse

import click


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("-p", "--port", type=int, default=8080)
    p.add_argument("-H", "--host", default="127.0.0.1")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("-R", "--rows-per-page", type=int, default=50)
    return p


@click.command()
@click.option("--workers", default=4)
def serve(workers):
    pass
'''

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    ("The web UI listens on port 8080 unless --port is given.", "VERIFIED",
     "`--port` defaults to `8080` at dbweb/cli.py:8"),
    ("The web UI listens on port 5000 unless --port is given.", "REFUTED",
     "dbweb/cli.py:8 gives --port the default 8080, not 5000"),
    ("The --host option defaults to 127.0.0.1.", "VERIFIED",
     '`--host` defaults to `"127.0.0.1"` at dbweb/cli.py:9'),
    ("The --host option defaults to 0.0.0.0.", "REFUTED",
     'dbweb/cli.py:9 gives --host the default "127.0.0.1", not 0.0.0.0'),
    ("The content tab shows 50 rows per page by default (--rows-per-page).", "VERIFIED",
     "`--rows-per-page` defaults to `50` at dbweb/cli.py:11"),
    ("The content tab shows 100 rows per page by default (--rows-per-page).", "REFUTED",
     "dbweb/cli.py:11 gives --rows-per-page the default 50, not 100"),
    ("`--read-only` is off by default.", "VERIFIED",
     "`--read-only` defaults to `False` at dbweb/cli.py:10"),
    ("The --workers option defaults to 8.", "REFUTED",
     "dbweb/cli.py:16 gives --workers the default 4, not 8"),
]  # fmt: skip


@pytest.fixture
def cli_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit({"pyproject.toml": '[project]\nname = "dbweb"\n', "dbweb/__init__.py": "",
                     "dbweb/cli.py": CLI_PY}, "a program with options")  # fmt: skip
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_an_options_default_is_verified_or_refuted_with_its_declaration_quoted(
    cli_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(cli_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


async def test_another_programs_option_is_never_refuted(cli_repo: GitRepo) -> None:
    """uvicorn's ``--timeout-keep-alive``: no file here declares it, so nothing binds."""
    note = "The --timeout-keep-alive option defaults to 5."
    served = await remember_and_serve(cli_repo.root, note)
    assert served["status"] == "ACTIVE", served
    assert not any(a["verdict"] == "broken" for a in served["anchors"]), served
