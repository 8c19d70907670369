"""``anchormem migrate``: a repository's embedded store copied into the shared PostgreSQL
store and back, run as a user runs it (the installed command, real git repositories, real
DuckDB files, the throwaway PostgreSQL server of tests/conftest.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from mcp import Client, StdioServerParameters

from benchmarks.pg_cluster import Cluster
from server.config import Settings
from server.runtime import Runtime, open_runtime
from store.pg.url import project_schema
from tests.conftest import GitRepo, anchormem_env, settings_env, store_file
from tests.mcp_calls import call
from tests.server.conftest import PROJECT
from tests.server.test_cli_terminal import on_tty as terminal

SCRIPT = str(Path(sys.executable).with_name("anchormem"))
SECRET = "the vault code is orchid-7731"  # forgotten: its words must never travel


def anchormem(repo: GitRepo | Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The command in ``repo``, each process opening the store itself (no owner to stop)."""
    root = repo if isinstance(repo, Path) else repo.root
    return subprocess.run(
        [SCRIPT, *args], cwd=root, env=anchormem_env(ANCHORMEM_SHARE="0", **env),
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip


def ok(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def on_shared(cluster: Cluster, project: str) -> dict[str, str]:
    """The environment naming the shared store's project, as a team's server would run."""
    return {"ANCHORMEM_DB": cluster.url(), "ANCHORMEM_PROJECT": project}


def opened(repo: GitRepo, db: str | None = None, **env: str) -> Runtime:
    """The store a test sets up or looks into, opened in this process (``db``: a file or a
    shared store; ``ANCHORMEM_PROJECT`` in ``env`` names its project)."""
    settings = Settings.resolve(repo=str(repo.root), db=db, env=settings_env(**env))
    return open_runtime(settings)


def exported(repo: GitRepo, db: str | None = None, **env: str) -> dict[str, dict[str, Any]]:
    """The memories of a store as ``export`` writes them, by id, without what an import
    renumbers (the trail's sequence numbers) or recomputes as time passes (confidence)."""
    rt = opened(repo, db, **env)
    try:
        lines = list(rt.service.export())
    finally:
        rt.close()
    found = {}
    for line in lines:
        data = json.loads(line)
        if data["type"] != "memory":
            continue
        data.pop("confidence")
        for entry in data["trail"]:
            entry.pop("seq")
        found[data["id"]] = data
    return found


def schema_exists(cluster: Cluster, project: str) -> bool:
    with psycopg.connect(cluster.url(), autocommit=True) as con:
        row = con.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s",
            [project_schema(project)],
        ).fetchone()
    return row is not None


def fill(repo: GitRepo) -> dict[str, str]:
    """Memories in every state: checked against the code, plain, retracted, forgotten, and
    one derived from another."""
    rt = opened(repo)
    svc = rt.service
    try:
        duck = svc.remember("We use DuckDB for storage", anchors=["import:duckdb@store/db.py"])
        ids = {"duck": duck.reading.memory.id}
        derived = svc.remember("The store layer opens one DuckDB file", derived_from=[ids["duck"]])
        ids["derived"] = derived.reading.memory.id
        ids["wrong"] = svc.remember("Deploys happen on Fridays").reading.memory.id
        svc.retract(ids["wrong"], "we deploy on Mondays")
        ids["secret"] = svc.remember(SECRET).reading.memory.id
        svc.forget(ids["secret"], "a secret")
    finally:
        rt.close()
    return ids


def same_memories(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> None:
    assert set(a) == set(b)
    for mid, mine in a.items():
        theirs = b[mid]
        for key in ("text", "status", "refuted_by", "subject", "kind", "anchors", "links",
                    "forgotten_at", "created_at", "origin", "source"):  # fmt: skip
            assert mine[key] == theirs[key], (mid, key)
        assert [r["id"] for r in mine["receipts"]] == [r["id"] for r in theirs["receipts"]]
        assert [o["id"] for o in mine["observations"]] == [o["id"] for o in theirs["observations"]]
        assert [e["action"] for e in mine["trail"]] == [e["action"] for e in theirs["trail"]]


@pytest.fixture
def filled(project: GitRepo) -> tuple[GitRepo, dict[str, str]]:
    return project, fill(project)


def test_to_the_shared_store_and_back_keeps_ids_and_states_and_twice_adds_nothing(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    repo, ids = filled
    before = exported(repo)
    url = pg_cluster.url()

    done = anchormem(repo, "migrate", "--to", url, "--project", pg_project, "--json")
    first = ok(done)
    assert (first["added"], first["merged"], first["unchanged"], first["refused"]) == (4, 0, 0, 0)
    assert first["changed"] is True and first["read"] == 4
    assert first["to"] == f"{url.replace(pg_cluster.password, '***')} (project {pg_project})"
    assert first["from"] == str(store_file(repo.root))
    assert pg_cluster.password not in done.stdout + done.stderr
    assert exported(repo) == before  # the source is only read

    shared = exported(repo, **on_shared(pg_cluster, pg_project))
    same_memories(before, shared)  # the same ids, states, receipts, observations, trail
    assert shared[ids["wrong"]]["status"] == "REFUTED"
    assert shared[ids["secret"]]["text"] is None and shared[ids["secret"]]["forgotten_at"]
    assert shared[ids["derived"]]["links"]["derived_from"] == [ids["duck"]]
    assert SECRET not in json.dumps(shared)

    again = ok(anchormem(repo, "migrate", "--to", url, "--project", pg_project, "--json"))
    assert (again["added"], again["unchanged"], again["conflicts"]) == (0, 4, 0)
    assert again["changed"] is False and again["lines"] == []
    assert exported(repo, **on_shared(pg_cluster, pg_project)) == shared

    # Back, into a new store file, and into another clone's store holding one of the claims
    back = tmp_path / "back.duckdb"
    home = ok(anchormem(repo, "migrate", "--from", url, "--to", str(back),
                        "--project", pg_project, "--json"))  # fmt: skip
    assert (home["added"], home["refused"]) == (4, 0)
    same_memories(before, exported(repo, str(back)))
    assert exported(repo, **on_shared(pg_cluster, pg_project)) == shared  # only read

    clone = GitRepo(tmp_path / "clone")
    clone.commit(PROJECT, "initial project")
    rt = opened(clone)
    try:  # the same claim, written otherwise, under an id of its own
        mine = rt.service.remember("we use duckdb for storage.").reading.memory.id
    finally:
        rt.close()
    into = ok(anchormem(clone, "migrate", "--from", url, "--json",
                        ANCHORMEM_PROJECT=pg_project))  # fmt: skip
    assert (into["added"], into["merged"], into["refused"]) == (3, 1, 0)
    [merged] = [line for line in into["lines"] if line["outcome"] == "merged"]
    assert (merged["id"], merged["into"]) == (ids["duck"], mine)
    held = exported(clone)
    assert set(held) == {mine, ids["derived"], ids["wrong"], ids["secret"]}
    assert held[ids["wrong"]]["status"] == "REFUTED" and held[ids["secret"]]["text"] is None
    twice = ok(anchormem(clone, "migrate", "--from", url, "--json",
                         ANCHORMEM_PROJECT=pg_project))  # fmt: skip
    assert twice["changed"] is False and (twice["added"], twice["merged"]) == (0, 1)
    assert exported(clone) == held


def test_a_retraction_in_the_source_after_a_migration_is_carried_over(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str
) -> None:
    repo, ids = filled
    url = pg_cluster.url()
    ok(anchormem(repo, "migrate", "--to", url, "--project", pg_project, "--json"))
    rt = opened(repo)
    try:
        rt.service.retract(ids["duck"], "we moved to sqlite")
        rt.service.forget(ids["derived"], "not needed")
    finally:
        rt.close()
    later = ok(anchormem(repo, "migrate", "--to", url, "--project", pg_project, "--json"))
    assert later["changed"] is True and later["added"] == 0
    details = {line["id"]: line["detail"] for line in later["lines"]}
    assert details == {
        ids["duck"]: "retracted here too, as in the file",
        ids["derived"]: "forgotten here too, as in the file",
    }
    shared = exported(repo, **on_shared(pg_cluster, pg_project))
    assert shared[ids["duck"]]["status"] == "REFUTED"
    assert shared[ids["derived"]]["text"] is None


@pytest.mark.anyio
async def test_a_server_on_the_shared_store_recalls_the_migrated_memories(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str
) -> None:
    repo, ids = filled
    ok(anchormem(repo, "migrate", "--to", pg_cluster.url(), "--project", pg_project, "--json"))
    params = StdioServerParameters(
        command=SCRIPT, args=["serve"], cwd=str(repo.root),
        # a generous budget: the first call of a cold server computes the fingerprint
        env=anchormem_env(ANCHORMEM_VERIFY_BUDGET_MS="30000", **on_shared(pg_cluster, pg_project)),
    )  # fmt: skip
    async with Client(params) as client:
        found = await call(client, "recall", query="duckdb storage")
        assert ids["duck"] in [m["id"] for m in found["memories"]]
        [duck] = [m for m in found["memories"] if m["id"] == ids["duck"]]
        assert duck["status"] == "VERIFIED"  # checked against this clone's code
        assert duck["anchors"] == ["import:duckdb@store/db.py ✓"]
        live = await call(client, "recall", query="deploys fridays")
        assert ids["wrong"] not in [m["id"] for m in live["memories"]]
        refuted = await call(client, "recall", query="deploys fridays", include_refuted=True)
        [wrong] = [m for m in refuted["memories"] if m["id"] == ids["wrong"]]
        assert "we deploy on Mondays" in wrong["why"]


def test_progress_is_said_on_stderr_every_n_memories(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str
) -> None:
    repo, _ids = filled
    done = anchormem(repo, "migrate", "--to", pg_cluster.url(), "--project", pg_project,
                     "--progress-every", "2", "--json")  # fmt: skip
    ok(done)
    said = [line for line in done.stderr.splitlines() if "memories" in line]
    assert said[:2] == [
        f"anchormem: read 2 of 4 memories from {store_file(repo.root)}",
        f"anchormem: read 4 of 4 memories from {store_file(repo.root)}",
    ]
    assert said[2].startswith("anchormem: importing 4 memories into postgresql://")
    quiet = anchormem(repo, "migrate", "--to", pg_cluster.url(), "--project", pg_project,
                      "--progress-every", "0", "--json")  # fmt: skip
    ok(quiet)
    assert "memories" not in quiet.stderr


def test_a_wrong_password_or_address_is_said_without_the_password_and_changes_nothing(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    repo, _ids = filled
    before = exported(repo)
    wrong = "wrong-Pa55word-never-shown"
    done = anchormem(repo, "migrate", "--to", pg_cluster.url(password=wrong),
                     "--project", pg_project)  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert "password authentication failed" in done.stderr
    assert f"postgresql://postgres:***@127.0.0.1:{pg_cluster.port}/postgres" in done.stderr
    assert wrong not in done.stderr and pg_cluster.password not in done.stderr
    assert not schema_exists(pg_cluster, pg_project)
    assert exported(repo) == before

    as_parameter = f"postgresql://postgres@127.0.0.1:{pg_cluster.port}/postgres?password={wrong}"
    done = anchormem(repo, "migrate", "--to", as_parameter, "--project", pg_project)
    assert done.returncode == 1 and "password authentication failed" in done.stderr
    assert wrong not in done.stderr and "password=***" in done.stderr

    refused = f"postgresql://postgres:{wrong}@127.0.0.1:1/postgres"  # nothing listens there
    done = anchormem(repo, "migrate", "--to", refused, "--project", pg_project)
    assert done.returncode == 1 and "cannot connect to the shared store" in done.stderr
    assert wrong not in done.stderr

    # Back into a clone with no store yet: its store is not created, the project neither.
    clone = GitRepo(tmp_path / "clone")
    clone.commit(PROJECT, "initial project")
    done = anchormem(clone, "migrate", "--from", pg_cluster.url(password=wrong),
                     "--project", pg_project)  # fmt: skip
    assert done.returncode == 1 and wrong not in done.stderr
    done = anchormem(clone, "migrate", "--from", pg_cluster.url(), "--project", pg_project)
    assert done.returncode == 2
    assert f"has no project {pg_project}: nothing to migrate" in done.stderr
    assert pg_cluster.password not in done.stderr
    assert not schema_exists(pg_cluster, pg_project)
    assert not store_file(clone.root).exists()


def test_what_cannot_be_migrated_is_refused_before_anything_opens(
    project: GitRepo, tmp_path: Path
) -> None:
    done = anchormem(project, "migrate")
    assert done.returncode == 2 and "give --to STORE, --from STORE, or both" in done.stderr
    done = anchormem(project, "migrate", "--to", str(tmp_path / "x.duckdb"))
    assert done.returncode == 2 and "there is no store at" in done.stderr
    assert not (tmp_path / "x.duckdb").exists() and not store_file(project.root).exists()
    here = str(store_file(project.root))
    done = anchormem(project, "migrate", "--to", here)
    assert done.returncode == 2 and "is both the source and the destination" in done.stderr
    done = anchormem(project, "migrate", "--to", "postgresql://u@h/db", "--project", "Not Ok")
    assert done.returncode == 2 and "a project name is" in done.stderr


def test_the_text_report_says_what_was_added_and_that_a_second_run_added_nothing(
    filled: tuple[GitRepo, dict[str, str]], pg_cluster: Cluster, pg_project: str
) -> None:
    repo, _ids = filled
    args = ["migrate", "--to", pg_cluster.url(), "--project", pg_project]
    first = on_tty(repo, args)
    assert "added 4, merged 0, already present 0, refused 0" in first
    second = on_tty(repo, args)
    assert "nothing to add: the 4 memories of" in second
    assert "added 0, merged 0, already present 4, refused 0" in second
    assert pg_cluster.password not in first + second


def on_tty(repo: GitRepo, args: list[str]) -> str:
    """The command's output on a pseudo-terminal (text, not JSON), as a person sees it."""
    code, out = terminal([SCRIPT, *args], repo.root, False, ANCHORMEM_SHARE="0", COLUMNS="200")
    assert code == 0, out
    return out
