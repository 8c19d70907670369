"""CLI edge cases of issue 14 (items 7-10), run as a person would: a subprocess."""

from __future__ import annotations

import json
import subprocess

from server.cli import EXIT_BROKEN_PIPE
from tests.conftest import GitRepo, store_file
from tests.server.test_cli import anchormem_cmd, run


def test_doctor_fails_when_head_names_a_missing_branch(project: GitRepo):
    """Item 7: doctor said OK while every recall said cannot_verify: no_commits."""
    code, _, _ = run(project.root, "remember", "Billing uses httpx", "--json")
    assert code == 0
    project.git("symbolic-ref", "HEAD", "refs/heads/gone")
    code, found, _ = run(project.root, "recall", "billing httpx", "--json")
    assert code == 0 and "no_commits" in json.dumps(found)
    code, out, _ = run(project.root, "doctor", "--json", check_json=False)
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    assert code == 1 and not checks["repository"]["ok"]
    assert "no_commits" in checks["repository"]["detail"]
    project.git("symbolic-ref", "HEAD", "refs/heads/main")
    code, out, _ = run(project.root, "doctor", "--json", check_json=False)
    assert code == 0 and all(c["ok"] for c in json.loads(out)["checks"])


def test_a_regular_file_where_the_store_folder_goes_gets_a_clear_message(project: GitRepo):
    """Item 8: every command said `internal error (FileExistsError)`."""
    folder = store_file(project.root).parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder\n")
    for args in (["list"], ["remember", "a note"], ["recall", "note"], ["doctor"]):
        code, _, err = run(project.root, *args, "--json", check_json=False)
        assert code == 1, args
        assert "internal error" not in err, err
        if args != ["doctor"]:
            assert f"{folder} is not a directory" in err, err
    code, out, _ = run(project.root, "doctor", "--json", check_json=False)
    [store] = [c for c in json.loads(out)["checks"] if c["name"] == "store path"]
    assert not store["ok"] and "is not a directory" in store["detail"]
    assert folder.read_text() == "not a folder\n"  # left as it was


def test_a_reader_that_stops_early_gets_no_traceback(project: GitRepo):
    """Item 9: `anchormem list | head -1` printed a BrokenPipeError traceback, exit 1."""
    for i in range(3):
        assert run(project.root, "remember", f"note number {i}", "--json")[0] == 0
    for args in (["list", "--json"], ["--help"], ["audit"]):
        proc = subprocess.Popen(
            [*anchormem_cmd(), *args], cwd=project.root, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader is gone before anything is written
        err = proc.stderr.read().decode()
        # argparse itself swallows the failed write of --help, and exits 0.
        expected = {0, EXIT_BROKEN_PIPE} if args == ["--help"] else {EXIT_BROKEN_PIPE}
        assert proc.wait(timeout=120) in expected, (args, err)
        assert err == "", err
    shell = subprocess.run(
        ["sh", "-c", f"'{anchormem_cmd()[0]}' list --json | head -1"], cwd=project.root,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert shell.stdout.strip() == "{" and "Traceback" not in shell.stderr


def test_closed_set_values_are_taken_without_regard_to_case(project: GitRepo):
    """Item 10: `list --status refuted` was refused."""
    code, made, _ = run(project.root, "remember", "Sessions live in Redis", "--json")
    assert code == 0
    assert run(project.root, "retract", made["id"], "--reason", "wrong", "--json")[0] == 0
    for status in ("refuted", "Refuted", "REFUTED"):
        code, listed, err = run(project.root, "list", "--status", status, "--json")
        assert code == 0, err
        assert [m["id"] for m in listed["memories"]] == [made["id"]]
    code, made, err = run(
        project.root, "remember", "Deploys are on Fridays", "--kind", "Convention",
        "--source", "USER", "--json",
    )  # fmt: skip
    assert code == 0 and made["kind"] == "convention", err
    code, _, err = run(
        project.root, "observe", made["id"], "--confirms", "--kind", "Behaviour",
        "--source", "Agent", "--json",
    )  # fmt: skip
    assert code == 0, err
    code, _, err = run(project.root, "list", "--status", "gone", "--json", check_json=False)
    assert code == 2 and "invalid choice" in err
