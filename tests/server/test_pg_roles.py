"""The shared store (store/pg) behind TLS options and least-privilege roles: ``sslmode`` in
the address reaches libpq, and anchormem works as a role that may do no more than use its
project's schema, and that cannot read another project's.

The grants, as an administrator would give them (each tested below):

* anchormem makes each project's schema::

    REVOKE ALL ON DATABASE team FROM PUBLIC;
    GRANT CONNECT, CREATE ON DATABASE team TO anchormem_team;

* or an administrator makes it (``anchormem_`` and the project, ``-`` as ``_``) and grants
  one role that schema only::

    REVOKE ALL ON DATABASE team FROM PUBLIC;
    GRANT CONNECT ON DATABASE team TO anchormem_shop;
    CREATE SCHEMA anchormem_shop;
    GRANT USAGE, CREATE ON SCHEMA anchormem_shop TO anchormem_shop;

Everything runs against a real PostgreSQL (the ``pg_cluster`` fixture), the CLI as a user
runs it.
"""

from __future__ import annotations

import json

import psycopg
import pytest

from benchmarks.pg_cluster import Cluster
from store.errors import StoreError, StoreUnavailable
from store.pg.database import PgDatabase
from store.pg.url import project_schema
from tests.conftest import GitRepo, anchormem_env
from tests.server.conftest import PROJECT
from tests.server.test_pg_security import ANCHOR, CLAIM, run


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


# -- TLS ------------------------------------------------------------------------------------------
def test_tls_options_reach_libpq(repo: GitRepo, pg_cluster: Cluster, pg_project: str) -> None:
    """``sslmode`` in the address is libpq's: the test server has no TLS, so ``require``
    fails saying SSL, and ``disable`` works."""
    base = pg_cluster.url()
    required = anchormem_env(ANCHORMEM_DB=f"{base}?sslmode=require", ANCHORMEM_PROJECT=pg_project)
    refused = run(repo, required, "remember", CLAIM, ok=False)
    assert "SSL" in refused.stderr, refused.stderr
    assert pg_cluster.password not in refused.stderr + refused.stdout
    with pytest.raises(StoreUnavailable) as failed:
        PgDatabase(f"{base}?sslmode=require", pg_project)
    assert "SSL" in str(failed.value) and "sslmode=require" in str(failed.value)
    assert pg_cluster.password not in str(failed.value)
    plain = anchormem_env(ANCHORMEM_DB=f"{base}?sslmode=disable", ANCHORMEM_PROJECT=pg_project)
    run(repo, plain, "remember", CLAIM)
    listed = run(repo, plain, "--json", "list")
    assert [m["text"] for m in json.loads(listed.stdout)["memories"]] == [CLAIM]


# -- a least-privilege role ------------------------------------------------------------------------
def admin(cluster: Cluster, db: str, *statements: str) -> None:
    with psycopg.connect(cluster.url(db=db), autocommit=True) as con:
        for sql in statements:
            con.execute(sql.encode())


@pytest.fixture
def team_db(pg_cluster: Cluster, pg_project: str) -> str:
    """A database of the test's own, which nobody but its owner (the superuser) may use."""
    name = f"db_{pg_project}"
    pg_cluster.create_database(name)
    admin(pg_cluster, name, f'REVOKE ALL ON DATABASE "{name}" FROM PUBLIC')
    return name


def test_a_role_with_connect_and_create_on_the_database_runs_anchormem(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str, team_db: str
) -> None:
    """A role that owns nothing, allowed only to connect to the database and create
    schemas in it: anchormem makes its project's schema and works; another such role
    cannot read that schema."""
    user, other = f"u_{pg_project}", f"v_{pg_project}"
    admin(
        pg_cluster,
        team_db,
        f"CREATE ROLE {user} LOGIN PASSWORD 'pw-{user}'",
        f"CREATE ROLE {other} LOGIN PASSWORD 'pw-{other}'",
        f'GRANT CONNECT, CREATE ON DATABASE "{team_db}" TO {user}, {other}',
    )
    env = anchormem_env(
        ANCHORMEM_DB=pg_cluster.url(user, f"pw-{user}", team_db), ANCHORMEM_PROJECT=pg_project
    )
    made = json.loads(run(repo, env, "--json", "remember", CLAIM, "--anchor", ANCHOR).stdout)
    assert made["status"] == "VERIFIED", made
    found = json.loads(run(repo, env, "--json", "recall", "duckdb store").stdout)
    assert [m["id"] for m in found["memories"]] == [made["id"]]

    with (
        psycopg.connect(pg_cluster.url(other, f"pw-{other}", team_db)) as con,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        con.execute(f'SELECT text FROM "{project_schema(pg_project)}".memories')
    with pytest.raises(StoreError) as refused:
        PgDatabase(pg_cluster.url(other, f"pw-{other}", team_db), pg_project)
    assert f'permission denied for schema "{project_schema(pg_project)}"' in str(refused.value)


def test_a_role_granted_one_premade_schema_runs_anchormem_and_reads_no_other(
    repo: GitRepo, pg_cluster: Cluster, pg_project: str, team_db: str
) -> None:
    """The tightest grant: an administrator makes each project's schema and gives one role
    USAGE and CREATE on it, and CONNECT on the database, nothing more (no CREATE on the
    database). anchormem works in that project, and the role can neither read nor open
    another project's schema."""
    mine, theirs = f"{pg_project}-a", f"{pg_project}-b"
    user, other = f"u_{pg_project}", f"v_{pg_project}"
    admin(
        pg_cluster,
        team_db,
        f"CREATE ROLE {user} LOGIN PASSWORD 'pw-{user}'",
        f"CREATE ROLE {other} LOGIN PASSWORD 'pw-{other}'",
        f'GRANT CONNECT ON DATABASE "{team_db}" TO {user}, {other}',
        f'CREATE SCHEMA "{project_schema(mine)}"',
        f'GRANT USAGE, CREATE ON SCHEMA "{project_schema(mine)}" TO {user}',
        f'CREATE SCHEMA "{project_schema(theirs)}"',
        f'GRANT USAGE, CREATE ON SCHEMA "{project_schema(theirs)}" TO {other}',
    )
    as_user = pg_cluster.url(user, f"pw-{user}", team_db)
    as_other = pg_cluster.url(other, f"pw-{other}", team_db)
    env = anchormem_env(ANCHORMEM_DB=as_user, ANCHORMEM_PROJECT=mine)
    made = json.loads(run(repo, env, "--json", "remember", CLAIM, "--anchor", ANCHOR).stdout)
    assert made["status"] == "VERIFIED", made
    other_env = anchormem_env(ANCHORMEM_DB=as_other, ANCHORMEM_PROJECT=theirs)
    run(repo, other_env, "remember", "The billing client posts charges with httpx")

    with (
        psycopg.connect(as_user) as con,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        con.execute(f'SELECT text FROM "{project_schema(theirs)}".memories')
    refused = run(repo, {**env, "ANCHORMEM_PROJECT": theirs}, "recall", "billing", ok=False)
    assert "permission denied" in refused.stderr, refused.stderr
    assert f"pw-{user}" not in refused.stderr
    found = json.loads(run(repo, env, "--json", "recall", "duckdb store").stdout)
    assert [m["id"] for m in found["memories"]] == [made["id"]]
