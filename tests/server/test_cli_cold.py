"""A reading CLI command with no owner running (``server.cli``): answered in its own process,
the store opened under its lease, and no owner left behind; a command that changes memories
still starts the owner, and a reading one goes to an owner that runs (adr/0012). The CLI as
a user runs it, real owner processes, real git and DuckDB files."""

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

from store.sharing import platform
from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from tests.conftest import GitRepo, settings_env, store_file

SCRIPT = str(Path(sys.executable).with_name("anchormem"))


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No stray ANCHORMEM_* settings; owners that stop 2 s after their last client."""
    for key in [k for k in os.environ if k.startswith("ANCHORMEM_") and k != "ANCHORMEM_HOME"]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("ANCHORMEM_OWNER_IDLE", "2")
    monkeypatch.setenv("ANCHORMEM_LOCK_WAIT", "20")
    return dict(os.environ)


def cli(repo: GitRepo, env: dict[str, str], *args: str) -> Any:
    done = subprocess.run(
        [SCRIPT, *args, "--json"], cwd=repo.root, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def owner_processes(repo: GitRepo) -> list[int]:
    """Live owner or standby processes of this repository's store."""
    store = os.fsencode(str(store_file(repo.root)))
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and store in argv and {b"server.owner", b"server.standby"} & set(argv):
            found.append(int(proc.name))
    return found


def owner_lock_free(repo: GitRepo) -> bool:
    files = Files(store_file(repo.root))
    fd = files.open_lock(files.owner_lock)
    try:
        if not platform.lock(fd):
            return False
        platform.unlock(fd)
        return True
    finally:
        os.close(fd)


def stop_owner(repo: GitRepo) -> None:
    link = OwnerLink(Files(store_file(repo.root)), None, env=settings_env(), wait_s=20,
                     version="test")  # fmt: skip
    link.stop_owner()
    deadline = time.monotonic() + 20
    while owner_processes(repo) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert owner_processes(repo) == []


def owner_calls(repo: GitRepo) -> int:
    link = OwnerLink(Files(store_file(repo.root)), None, env=settings_env(), wait_s=20,
                     version="test")  # fmt: skip
    status = link.status()
    assert status is not None, "no owner answers"
    return int(status["calls"])


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")
def test_reading_commands_with_no_owner_answer_here_and_leave_no_owner(
    project: GitRepo, env: dict[str, str]
) -> None:
    made = cli(project, env, "remember", "Billing posts charges with httpx",
               "--subject", "billing/client.py")  # fmt: skip
    assert owner_processes(project)  # a change starts the owner, as before
    stop_owner(project)

    found = cli(project, env, "recall", "billing httpx")
    assert [m["id"] for m in found["memories"]] == [made["id"]]
    assert found["memories"][0]["verification"] == "verified"  # checked against HEAD here
    listed = cli(project, env, "list")
    assert [m["id"] for m in listed["memories"]] == [made["id"]]
    shown = cli(project, env, "show", made["id"])
    assert shown["id"] == made["id"] and shown["text"] == "Billing posts charges with httpx"
    trail = cli(project, env, "audit", made["id"])
    assert trail["entries"], trail
    for command in ("conflicts", "review", "stats"):
        assert isinstance(cli(project, env, command), dict)

    assert owner_processes(project) == []  # none was started for them
    assert Files(store_file(project.root)).read_info() is None
    assert owner_lock_free(project)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")
def test_a_reading_command_goes_to_a_running_owner_and_after_its_sigkill_is_answered_here(
    project: GitRepo, env: dict[str, str]
) -> None:
    env = {**env, "ANCHORMEM_OWNER_STANDBY": "0"}  # no standby to take over from the kill
    made = cli(project, env, "remember", "Auth verifies tokens against JWT_SECRET",
               "--subject", "auth/jwt.py")  # fmt: skip
    before = owner_calls(project)
    found = cli(project, env, "recall", "auth tokens")
    assert [m["id"] for m in found["memories"]] == [made["id"]]
    assert owner_calls(project) > before  # answered by the owner, not here

    [owner] = owner_processes(project)
    os.kill(owner, signal.SIGKILL)
    # A process killed in the middle of a disk write dies when the write ends: on a loaded
    # machine that can take a while, and until then it holds the store's lock.
    deadline = time.monotonic() + 120
    while owner_processes(project) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert owner_processes(project) == [], "the killed owner did not go away"
    assert Files(store_file(project.root)).read_info() is not None  # left behind
    # What the killed owner acknowledged (in its journal or its tables) is read here.
    assert [m["id"] for m in cli(project, env, "list")["memories"]] == [made["id"]]
    assert owner_processes(project) == []


# What a reading command answered with no owner never loads: the readers of notes and of
# contradictions, the writers, and the MCP SDK (each costs a cold call its import); with
# every verdict cached at HEAD, no checker and no reader of files either; with a few
# memories, no NumPy (``store.search``).
NOT_FOR_READING = (
    "store.remembering", "store.contradictions.slots", "store.transfer", "mcp",
    "anchors.verify", "anchors.languages", "anchors.infra_facts", "numpy",
)  # fmt: skip
_LOADED = (
    "import json, sys\n"
    "from server.cli import main\n"
    "code = main(sys.argv[1:])\n"
    "print(json.dumps(sorted(m for m in {names!r} if m in sys.modules)), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")
@pytest.mark.parametrize("command", [["list"], ["recall", "billing httpx"], ["stats"]])
def test_a_reading_command_with_no_owner_loads_no_writer_and_no_sdk(
    project: GitRepo, env: dict[str, str], command: list[str]
) -> None:
    cli(project, env, "remember", "Billing posts charges with httpx")
    stop_owner(project)
    script = _LOADED.format(names=NOT_FOR_READING)
    done = subprocess.run(
        [sys.executable, "-I", "-c", script, *command, "--json"], cwd=project.root, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
    assert owner_processes(project) == []


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")
def test_with_verdicts_cached_a_reading_command_still_sees_an_uncommitted_edit(
    project: GitRepo, env: dict[str, str]
) -> None:
    """A cold read answers from the verdicts cached at HEAD, except where the work tree's
    edits could change one: a refuted note is checked again against them."""
    made = cli(project, env, "remember", "`Store.close` in store/db.py closes the connection",
               "--anchor", "symbol:store/db.py::Store.close")  # fmt: skip
    stop_owner(project)

    def status() -> str:
        [memory] = [m for m in cli(project, env, "list")["memories"] if m["id"] == made["id"]]
        return str(memory["status"])

    assert status() == "REFUTED"  # cached at HEAD by the owner
    db = project.root / "store" / "db.py"
    committed = db.read_text()
    db.write_text(committed + "\n    def close(self):\n        pass\n")
    assert status() != "REFUTED"  # the uncommitted method is seen
    db.write_text(committed)
    assert status() == "REFUTED"
    assert owner_processes(project) == []
