"""``anchormem import`` beside a running store owner (adr/0012), through real processes:
the CLI as a person runs it, the owner it finds or starts, and SIGKILL. An import runs in
the CLI's own process (it reads the person's file), so the owner must see what it wrote,
and what it acknowledged must survive any process being killed after it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from tests.conftest import GitRepo, anchormem_env, store_file
from tests.server.conftest import PROJECT

SCRIPT = str(Path(sys.executable).with_name("anchormem"))


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


@pytest.fixture
def env(project: GitRepo) -> dict[str, str]:
    """Every process's environment: the repository's default store (``store_file``), an
    owner that outlives the test's pauses."""
    return anchormem_env(ANCHORMEM_OWNER_IDLE="600", ANCHORMEM_LOCK_WAIT="60")


def cli(repo: GitRepo, env: dict[str, str], *args: str, code: int = 0) -> Any:
    done = subprocess.run(
        [SCRIPT, *args, "--json"], cwd=repo.root, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == code, done.stderr
    return json.loads(done.stdout) if code == 0 else done.stderr


def owner_pid(repo: GitRepo) -> int:
    info = Files(store_file(repo.root)).read_info()
    assert info is not None
    return int(info["pid"])


def stop(repo: GitRepo) -> None:
    OwnerLink(Files(store_file(repo.root)), None, env={}, wait_s=20, version="test").stop_owner()


def gone(pid: int, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still runs after {within} s")


def export_file(path: Path, count: int, words: str, repeat: int = 0) -> Path:
    """An export file of ``count`` memories whose lines carry no audit trail (written by
    hand or by another tool); each text is ``words`` and, with ``repeat``, that many
    Cyrillic words more (six bytes a character in the journal's JSON)."""
    header = {
        "type": "anchormem-export", "format": 1, "exported_at": "2026-01-05T10:00:00+00:00",
        "memories": count, "conflicts": 0,
    }  # fmt: skip
    lines = [json.dumps(header)]
    for i in range(count):
        line = {
            "type": "memory", "id": f"mimp{i}", "kind": "fact", "source": "user",
            "origin": "alice", "created_at": "2026-01-05T09:00:00+00:00", "status": "ACTIVE",
            "confidence": 0.7, "support": 1.0, "contradiction": 0.0, "observation_count": 1,
            "text": f"Item {i}: {words}" + " наблюдение" * repeat,
        }  # fmt: skip
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_running_owner_sees_an_import_of_lines_without_an_audit_trail(
    project: GitRepo, env: dict[str, str]
) -> None:
    """The import is written by the CLI's process while the owner waits; the owner then
    answers ``show`` and ``recall`` from its copy, which it must read again: such lines add
    no audit row, which was all it looked at (besides the conflict log and the journal's
    size, both unchanged once the importing process had drained)."""
    made = cli(project, env, "remember", "Billing posts charges with httpx")
    owner = owner_pid(project)
    try:
        source = export_file(project.root / "ledger.jsonl", 3, "the ledger rounds half-even")
        report = cli(project, env, "import", str(source))
        assert report["added"] == 3
        for i in range(3):
            shown = cli(project, env, "show", f"mimp{i}")
            assert shown["text"] == f"Item {i}: the ledger rounds half-even"
        found = cli(project, env, "recall", "ledger rounds half-even")
        assert sorted(m["id"] for m in found["memories"]) == ["mimp0", "mimp1", "mimp2"]
        assert cli(project, env, "show", made["id"])["id"] == made["id"]
        assert owner_pid(project) == owner  # the same owner answered them all
    finally:
        stop(project)


@pytest.mark.slow  # a plan of ~69 MB: many seconds, more than the default run can spend
def test_an_acknowledged_import_larger_than_an_old_entry_cap_survives_sigkill(
    project: GitRepo, env: dict[str, str]
) -> None:
    """An import whose plan is larger than the journal's old entry cap (64 MiB): the CLI
    is SIGKILLed as soon as it has printed its report (before its closing drain could
    finish), and the owner with it. The next calls find every memory: the plan was in the
    tables before it was acknowledged. Before, it waited in one journal entry that the
    next reader, finding it larger than the cap, cut off as torn."""
    cli(project, env, "remember", "Billing posts charges with httpx")
    owner = owner_pid(project)
    count = 520  # ~133 KB of journal each: ~69 MB in all
    source = export_file(project.root / "long.jsonl", count, "the ledger note", repeat=720)
    importing = subprocess.Popen(
        [SCRIPT, "import", str(source), "--json"], cwd=project.root,
        env={**env, "PYTHONUNBUFFERED": "1"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert importing.stdout is not None
        printed = ""
        while not printed.endswith("\n}\n"):  # the report's last line (indented JSON)
            line = importing.stdout.readline()
            assert line, importing.communicate(timeout=60)[1]
            printed += line
        os.kill(importing.pid, signal.SIGKILL)  # acknowledged: whatever it does next, killed
        os.kill(owner, signal.SIGKILL)
    finally:
        importing.kill()
        importing.communicate(timeout=60)
    assert json.loads(printed)["added"] == count
    gone(owner, within=10)
    try:
        for i in (0, count - 1):
            assert cli(project, env, "show", f"mimp{i}")["id"] == f"mimp{i}"
        exported = subprocess.run(
            [SCRIPT, "export"], cwd=project.root, env=env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert exported.returncode == 0, exported.stderr
        ids = {
            json.loads(line)["id"]
            for line in exported.stdout.splitlines()
            if line.startswith('{"type":"memory"')
        }
        assert {f"mimp{i}" for i in range(count)} <= ids
    finally:
        stop(project)
