"""The CLI run as a person would: a subprocess, its output, its exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.cli import build_parser
from tests.conftest import GitRepo, anchormem_env, store_file


def anchormem_cmd() -> list[str]:
    return [str(Path(sys.executable).with_name("anchormem"))]


def run(repo: Path, *args: str, check_json: bool = True) -> tuple[int, Any, str]:
    env = anchormem_env()
    done = subprocess.run(
        [*anchormem_cmd(), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    payload = json.loads(done.stdout) if (check_json and done.returncode == 0) else done.stdout
    return done.returncode, payload, done.stderr


def test_every_command_is_documented_in_help_and_readme():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    for name in sub.choices:  # type: ignore[union-attr]
        assert f"anchormem {name}" in readme, f"README does not document `anchormem {name}`"


def test_remember_recall_retract_restore_show_list_audit_through_the_cli(project: GitRepo):
    root = project.root
    code, made, _ = run(
        root,
        "remember",
        "We use DuckDB for storage",
        "--subject",
        "store/db.py",
        "--anchor",
        "import:duckdb@store/db.py",
        "--json",
    )
    assert code == 0 and made["status"] == "VERIFIED" and made["outcome"] == "stored"
    mid = made["id"]

    code, found, _ = run(root, "recall", "duckdb storage", "--json")
    assert code == 0 and [m["id"] for m in found["memories"]] == [mid]

    code, shown, _ = run(root, "show", mid, "--json")
    assert code == 0 and shown["text"] == "We use DuckDB for storage"

    code, gone, _ = run(root, "retract", mid, "--reason", "moved to sqlite", "--json")
    assert code == 0 and gone["status"] == "REFUTED" and gone["receipt"]["actor"]

    code, listed, _ = run(root, "list", "--status", "REFUTED", "--json")
    assert code == 0 and [m["id"] for m in listed["memories"]] == [mid]

    code, back, _ = run(root, "restore", mid, "--reason", "it was right after all", "--json")
    assert code == 0 and back["status"] == "VERIFIED"

    code, audit, _ = run(root, "audit", mid, "--json")
    actions = [e["action"] for e in audit["entries"]]
    assert code == 0 and actions[0] == "remember" and "retract" in actions and "restore" in actions

    code, verified, _ = run(root, "verify", mid, "--json")
    assert code == 0 and verified["memories"][0]["status"] == "VERIFIED"


def test_output_is_json_when_piped_and_text_with_json_off_on_a_terminal(project: GitRepo):
    code, made, _ = run(project.root, "remember", "Auth reads JWT_SECRET from the environment")
    assert code == 0 and made["id"]  # piped: JSON without --json


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("show", "mnope0000"), 3),
        (("retract", "mnope0000", "--reason", "x"), 3),
        (("retract", "mnope0000"), 2),
        (("remember", ""), 2),
        (("remember", "x" * 9000), 2),
        (("remember", "ok", "--anchor", "file:../outside"), 2),
        (("remember", "ok", "--kind", "rumour"), 2),
        (("list", "--status", "BOGUS"), 2),
        (("frobnicate",), 2),
    ],
)
def test_errors_are_one_line_on_stderr_with_documented_exit_codes(
    project: GitRepo, args: tuple[str, ...], expected: int
):
    code, out, err = run(project.root, *args, check_json=False)
    assert code == expected
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, listed, _ = run(project.root, "list", "--json")
    assert listed["memories"] == []


def test_db_in_a_missing_directory_is_a_clear_error(project: GitRepo, tmp_path: Path):
    missing = tmp_path / "nope" / "store.duckdb"
    code, _, err = run(project.root, "--db", str(missing), "list", check_json=False)
    assert code == 1 and "does not exist" in err
    assert not missing.parent.exists()


def test_outside_a_repository_without_db_is_a_clear_message(tmp_path: Path):
    code, _, err = run(tmp_path, "list", check_json=False)
    assert code == 1 and "not inside a git repository" in err
    assert list(tmp_path.iterdir()) == []


def test_doctor_checks_store_lock_schema_repository_and_round_trip(project: GitRepo):
    code, report, _ = run(project.root, "doctor", "--json")
    names = {c["name"]: c["ok"] for c in report["checks"]}
    assert code == 0, report
    assert names == {
        "repository": True,
        "store path": True,
        "lock": True,
        "schema": True,
        "sharing": True,
        "round trip": True,
    }
    leftovers = sorted(p.name for p in store_file(project.root).parent.iterdir())
    assert leftovers == ["memory.duckdb", "memory.duckdb.lock", "memory.duckdb.want"]
    assert project.git("status", "--porcelain", "--ignored") == ""  # nothing in the work tree


def test_forget_leaves_a_tombstone_and_no_text_in_the_database_file(project: GitRepo):
    secret = "Our staging password rotation lives in vault path kv/zebra-quokka-4417"
    code, made, _ = run(project.root, "remember", secret, "--json")
    code, gone, _ = run(project.root, "forget", made["id"], "--reason", "privacy", "--json")
    assert code == 0 and gone["forgotten"] is True
    code, shown, _ = run(project.root, "show", made["id"], "--json")
    assert shown["text"] is None and shown["forgotten"] is True
    store = store_file(project.root).parent
    for path in store.iterdir():
        if path.is_file():
            assert b"zebra-quokka" not in path.read_bytes(), path.name


@pytest.mark.skipif(shutil.which("git") is None, reason="git missing")
def test_serve_refuses_a_non_loopback_http_bind(project: GitRepo):
    code, _, err = run(
        project.root, "serve", "--transport", "http", "--host", "0.0.0.0", check_json=False
    )
    assert code == 2 and "non-loopback" in err


def test_resolve_judges_a_pair_from_the_command_line_and_refuses_bad_input(project: GitRepo):
    root = project.root
    ids = []
    for text in ("Tokens are signed with HS256.", "Tokens are signed with RS256."):
        code, made, _ = run(root, "remember", text, "--scope", "external", "--json")
        assert code == 0
        ids.append(made["id"])
    first, second = ids
    code, out, err = run(root, "resolve", first, second, "conflict", "--reason", "x")
    assert code == 2 and "winner" in err  # a conflict needs its winner; nothing written
    code, out, err = run(root, "resolve", first, second, "perhaps", "--reason", "x")
    assert code == 2
    code, out, err = run(root, "resolve", first, "m-missing", "same", "--reason", "x")
    assert code == 3
    code, out, _ = run(
        root, "resolve", first, second, "conflict", "--winner", second, "--reason", "rotated keys"
    )
    assert code == 0
    assert out["conflict"]["reason_code"] == "JUDGED_CONFLICT"
    assert {m["id"]: m["status"] for m in out["memories"]} == {
        first: "REFUTED",
        second: "ACTIVE",
    }
    code, trail, _ = run(root, "audit", first, "--json")
    actions = [e["action"] for e in trail["entries"]]
    assert "resolve" in actions and "supersede" in actions
