"""The shared store's credentials and privileges (store/pg): the password comes only from
the connection string or libpq's environment, and is never said (stderr, errors, tool
results, doctor) nor written (the anchormem home folder, the store's own tables); TLS
options reach libpq; and anchormem works as a role that may do no more than use its
project's schema, which cannot read another project's.

Everything runs against a real PostgreSQL (the ``pg_cluster`` fixture), and the CLI and
the MCP server as a user starts them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from benchmarks.pg_cluster import Cluster
from store.errors import StoreUnavailable
from store.pg.database import PgDatabase
from store.pg.url import project_schema
from tests.conftest import GitRepo, anchormem_env
from tests.server.conftest import PROJECT
from tests.stdio_session import StdioSession

SCRIPT = Path(sys.executable).with_name("anchormem")
CLAIM = "The store layer opens DuckDB in store/db.py"
ANCHOR = "import:duckdb@store/db.py"


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


def run(
    repo: GitRepo, env: dict[str, str], *args: str, ok: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if ok:
        assert done.returncode == 0, done.stderr
    else:
        assert done.returncode != 0, done.stdout
        assert "Traceback" not in done.stderr, done.stderr
    return done


def url_without_password(cluster: Cluster, user: str = "postgres", db: str = "postgres") -> str:
    return f"postgresql://{user}@127.0.0.1:{cluster.port}/{db}"


def files_holding(folder: Path, secret: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def tables_holding(cluster: Cluster, project: str, secret: str) -> list[str]:
    """The tables of ``project``'s schema with ``secret`` anywhere in a row."""
    schema = project_schema(project)
    found = []
    with psycopg.connect(cluster.url(), autocommit=True) as con:
        tables = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            [schema],
        ).fetchall()
        for (table,) in tables:
            hit = con.execute(
                f'SELECT count(*) FROM "{schema}"."{table}" t WHERE t::text LIKE %s',
                [f"%{secret}%"],
            ).fetchone()
            if hit and hit[0]:
                found.append(table)
        assert tables, schema
    return found


# -- where the password comes from -------------------------------------------------------------
def test_the_password_may_come_from_pgpassword_with_an_address_that_has_none(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str
) -> None:
    """An address without a password works with libpq's PGPASSWORD, and without it fails
    saying the server asked for a password: nothing else supplies one."""
    env = anchormem_env(ANCHORMEM_DB=url_without_password(pg_cluster), ANCHORMEM_PROJECT=pg_project)
    env = {k: v for k, v in env.items() if not k.startswith("PG")}
    refused = run(repo, env, "remember", CLAIM, ok=False)
    assert "password" in refused.stderr.lower(), refused.stderr
    run(repo, {**env, "PGPASSWORD": pg_cluster.password}, "remember", CLAIM)
    listed = run(repo, {**env, "PGPASSWORD": pg_cluster.password}, "--json", "list")
    assert [m["text"] for m in json.loads(listed.stdout)["memories"]] == [CLAIM]


def test_a_wrong_password_is_refused_clearly_without_being_repeated(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str
) -> None:
    wrong = "Wr0ngSecret" + pg_cluster.password[:6]
    env = anchormem_env(ANCHORMEM_DB=pg_cluster.url(password=wrong), ANCHORMEM_PROJECT=pg_project)
    refused = run(repo, env, "recall", "duckdb", ok=False)
    assert "password authentication failed" in refused.stderr, refused.stderr
    assert f"127.0.0.1:{pg_cluster.port}" in refused.stderr
    assert wrong not in refused.stderr + refused.stdout
    # the error itself gives libpq's reason (not only a log line before a timeout)
    with pytest.raises(StoreUnavailable) as failed:
        PgDatabase(pg_cluster.url(password=wrong), pg_project)
    assert "password authentication failed" in str(failed.value)
    assert f"postgresql://postgres:***@127.0.0.1:{pg_cluster.port}/" in str(failed.value)
    assert wrong not in str(failed.value)


# -- the password is never said nor written ----------------------------------------------------


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """An anchormem home folder of the test's own, searched for the password afterwards."""
    folder = tmp_path / "home"
    folder.mkdir()
    yield folder


def test_a_served_session_through_an_outage_never_says_or_writes_the_password(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str, home: Path, tmp_path: Path
) -> None:
    """``anchormem serve`` with the password in its address: remembers and recalls; while
    PostgreSQL is stopped a call is a tool error naming the store by its address without
    the password; after PostgreSQL is back the same process serves again. Neither its
    results, its stderr, the CLI's output (doctor included), the anchormem home folder nor
    the store's tables hold the password."""
    env = anchormem_env(
        ANCHORMEM_DB=pg_cluster.url(),
        ANCHORMEM_PROJECT=pg_project,
        ANCHORMEM_HOME=str(home),
        ANCHORMEM_LOCK_WAIT="2",
    )
    secret = pg_cluster.password
    said: list[str] = []
    server = StdioSession(repo.root, env, tmp_path / "serve.err", "security")
    try:
        made = server.call("remember", text=CLAIM, anchors=[ANCHOR])
        assert made["structuredContent"]["status"] == "VERIFIED", made
        said.append(json.dumps(made))
        pg_cluster.stop()
        try:
            down = server.call("recall", query="duckdb store")
        finally:
            pg_cluster.start()
        text = " ".join(c.get("text", "") for c in down["content"])
        assert down.get("isError") is True, down
        assert f"postgresql://postgres:***@127.0.0.1:{pg_cluster.port}/postgres" in text, text
        said.append(json.dumps(down))
        back = server.call("recall", query="duckdb store")
        assert [m["id"] for m in back["structuredContent"]["memories"]] == [
            made["structuredContent"]["id"]
        ]
        said.append(json.dumps(back))
    finally:
        assert server.close() == 0
    listed = run(repo, env, "--json", "list")
    doctor = run(repo, env, "--json", "doctor")
    assert "***@127.0.0.1" in doctor.stdout, doctor.stdout  # it names the store, masked
    said += [listed.stdout, listed.stderr, doctor.stdout, doctor.stderr]
    said.append((tmp_path / "serve.err").read_text())
    assert [s for s in said if secret in s] == []
    assert files_holding(home, secret) == []
    assert tables_holding(pg_cluster, pg_project, secret) == []


def test_the_password_in_a_parameter_is_never_said(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str
) -> None:
    """The password given as a ``password=`` parameter rather than in the user part: the
    errors name the store with it masked."""
    wrong = "Par4mSecret" + pg_cluster.password[:6]
    url = f"{url_without_password(pg_cluster)}?password={wrong}&connect_timeout=5"
    env = anchormem_env(ANCHORMEM_DB=url, ANCHORMEM_PROJECT=pg_project)
    refused = run(repo, env, "recall", "duckdb", ok=False)
    assert "password authentication failed" in refused.stderr, refused.stderr
    assert wrong not in refused.stderr + refused.stdout
    doctor = run(repo, env, "--json", "doctor", ok=False)
    assert wrong not in doctor.stderr + doctor.stdout
