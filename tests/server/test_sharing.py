"""The store's owner process (server/owner.py, adr/0012), through real processes: the
CLI as a user runs it, ``RemoteService`` clients in this process speaking to a real owner
over its socket, owners killed with SIGKILL, another uid, mixed protocol versions, a
deep path, and a Python without ``fcntl`` or ``AF_UNIX``."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from server.config import Settings
from server.rendering import tool_content
from server.sharing import owner_link
from store.db import Database
from store.errors import InvalidInput, NotFound, StoreBusy
from store.sharing import platform
from store.sharing.client import OwnerLink, OwnerMismatch
from store.sharing.protocol import PROTOCOL, Files
from store.sharing.remote import RemoteService
from tests.conftest import GitRepo, settings_env, store_file
from tests.server.conftest import PROJECT

SCRIPT = str(Path(sys.executable).with_name("anchormem"))


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


@pytest.fixture
def owner_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of every process here: no stray ANCHORMEM_* settings, owners that
    stop 2 s after their last client, a 20 s wait limit."""
    for key in [k for k in os.environ if k.startswith("ANCHORMEM_") and k != "ANCHORMEM_HOME"]:
        monkeypatch.delenv(key)
    extra = {"ANCHORMEM_OWNER_IDLE": "2", "ANCHORMEM_LOCK_WAIT": "20"}
    for key, value in extra.items():
        monkeypatch.setenv(key, value)
    return dict(os.environ)


@pytest.fixture
def standby_now(owner_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Owners that each keep a standby (by default only one that replaced a killed owner
    does), started as soon as they are ready (the default waits 10 s) where none is forked."""
    always = {"ANCHORMEM_OWNER_STANDBY": "1", "ANCHORMEM_STANDBY_AFTER": "0"}
    for key, value in always.items():
        monkeypatch.setenv(key, value)
    return {**owner_env, **always}


@pytest.fixture
def no_standby(owner_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Owners that keep no standby: a killed one leaves its files for the next call."""
    monkeypatch.setenv("ANCHORMEM_OWNER_STANDBY", "0")
    return {**owner_env, "ANCHORMEM_OWNER_STANDBY": "0"}


def store(repo: GitRepo) -> Path:
    return store_file(repo.root)


def cli(repo: GitRepo, env: dict[str, str], *args: str) -> Any:
    done = subprocess.run(
        [SCRIPT, *args, "--json"], cwd=repo.root, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def settings_for(repo: GitRepo) -> Settings:
    return Settings.resolve(repo=str(repo.root))


@pytest.fixture
def remote(project: GitRepo, owner_env: dict[str, str]) -> Iterator[RemoteService]:
    """This process as a client of the project's store owner (started on first use)."""
    service = RemoteService(owner_link(settings_for(project)))
    yield service
    service.close()
    stop(project)


def stop(repo: GitRepo) -> None:
    OwnerLink(Files(store(repo)), None, env=settings_env(), wait_s=20, version="test").stop_owner()


def sock_path(repo: GitRepo) -> Path:
    """Where the running owner listens: beside the store, or in the per-user directory
    when that path is too long (a deep tmp_path)."""
    info = Files(store(repo)).read_info()
    assert info is not None and info["family"] == "AF_UNIX"
    return Path(info["address"])


def owner_pid(repo: GitRepo) -> int:
    info = Files(store(repo)).read_info()
    assert info is not None
    return int(info["pid"])


def owner_children(pid: int) -> set[int]:
    """The living processes of the owner or standby command that ``pid`` started (Linux):
    a forked standby runs the owner's command line, a spawned one the standby's."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue  # it exited meanwhile
        if parent == pid and {b"server.owner", b"server.standby"} & set(argv):
            found.add(int(proc.name))
    return found


def wait_gone(pid: int, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        # A zombie (our child) counts as gone once it has exited.
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        except ChildProcessError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"process {pid} still runs after {within} s")


def stored_ids(repo: GitRepo) -> set[str]:
    """The memories in the store once its owner has stopped: opened as an owner opens it,
    the write journal (whatever a killed owner left undrained) written into the tables."""
    stop(repo)
    opened = Database(store(repo))
    try:
        with opened.read() as cur:
            return {r[0] for r in cur.execute("SELECT id FROM memories").fetchall()}
    finally:
        opened.close()


def test_cli_calls_share_one_owner_that_keeps_its_files_private_and_exits_when_idle(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    made = cli(project, owner_env, "remember", "Billing posts charges with httpx")
    first = owner_pid(project)
    found = cli(project, owner_env, "recall", "billing httpx")
    assert [m["id"] for m in found["memories"]] == [made["id"]]
    assert found["memories"][0]["verification"] == "verified"
    assert owner_pid(project) == first  # the same owner served both calls

    folder = store(project).parent
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    files = Files(store(project))
    sock = sock_path(project)
    for path in (files.key, files.info, files.owner_lock, sock):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert stat.S_ISSOCK(sock.stat().st_mode)
    # Nothing in the work tree: the store lives in the user's data folder (adr/0022).
    status = subprocess.run(
        ["git", "status", "--porcelain", "--ignored"], cwd=project.root,
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert status.strip() == ""

    wait_gone(first, within=15)  # ANCHORMEM_OWNER_IDLE=2, with no client left
    assert files.read_info() is None
    assert not sock.exists()
    fd = files.open_lock(files.owner_lock)
    try:
        assert platform.lock(fd)  # released
        platform.unlock(fd)
    finally:
        os.close(fd)
    # The store was closed whole: DuckDB opens it and the memory is in its tables.
    con = duckdb.connect(str(store(project)), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM memories").fetchone() == (1,)
    finally:
        con.close()


def test_the_owner_renders_a_tool_call_as_this_process_renders_the_typed_result(
    project: GitRepo, remote: RemoteService
) -> None:
    """The ``tool`` request (protocol 2): the owner sends the agent's view, and it is the
    view this process makes of the same call's typed result (``call``, decoded here)."""
    made = remote.tool(
        "remember", ["Billing posts charges with httpx"], {"subject": "billing"}, False
    )
    assert made["model"] == "Remembered"
    memory_id = made["structured"]["id"]
    for detail in (False, True):
        wire = remote.tool("recall", ["billing httpx"], {}, detail)
        here = tool_content("recall", remote.recall("billing httpx"), detail)
        assert (wire["model"], wire["structured"], wire["text"]) == (
            here.model, here.structured, here.text,
        )  # fmt: skip
        assert [m["id"] for m in wire["structured"]["memories"]] == [memory_id]
    with pytest.raises(NotFound):
        remote.tool("retract", ["m-none", "wrong"], {}, False)
    with pytest.raises(InvalidInput, match="unknown call"):
        remote.tool("drop_everything", [], {}, False)
    assert [
        m["id"] for m in remote.tool("recall", ["billing"], {}, False)["structured"]["memories"]
    ] == [memory_id]  # nothing was changed by the refused calls


def test_an_owner_killed_with_sigkill_is_replaced_by_the_next_call_losing_nothing(
    project: GitRepo, no_standby: dict[str, str], remote: RemoteService
) -> None:
    """Without a standby (``ANCHORMEM_OWNER_STANDBY=0``): the next call starts an owner."""
    acknowledged = {remote.remember(f"Team {i} owns release item {i}").reading.id for i in range(5)}
    killed, sock = owner_pid(project), sock_path(project)
    os.kill(killed, signal.SIGKILL)
    wait_gone(killed, within=10)
    # It left its socket and info file behind, and its lock is free.
    assert sock.exists()
    assert Files(store(project)).read_info() is not None

    start = time.monotonic()
    found = remote.recall("release item owns team", limit=20)
    recovered_s = time.monotonic() - start
    assert {r.id for r in found.readings} == acknowledged
    assert owner_pid(project) != killed
    print(f"\nfirst call after the owner's SIGKILL answered in {recovered_s:.2f} s")
    assert acknowledged <= stored_ids(project)


def owner_status(repo: GitRepo) -> dict[str, Any]:
    found = OwnerLink(
        Files(store(repo)), None, env=settings_env(), wait_s=20, version="test"
    ).status()
    assert found is not None
    return found


def waiting_standby(repo: GitRepo, within: float = 30.0) -> int:
    """The pid of the owner's standby once it has preloaded and waits (its log line)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        pid = owner_status(repo).get("standby")
        log = Files(store(repo)).log.read_text()
        if pid and f"standby {pid} waiting" in log:
            return int(pid)
        time.sleep(0.05)
    raise AssertionError(f"no standby waits after {within} s")


def forked_standby(repo: GitRepo, within: float = 30.0) -> int:
    """The pid of the standby the running owner forked (its child, waiting, preloaded)."""
    owner = owner_pid(repo)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        pid = waiting_standby(repo, within)
        parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        if parent == owner:
            return pid
        time.sleep(0.05)
    raise AssertionError(f"no standby forked by {owner} waits after {within} s")


def test_a_standby_takes_over_from_a_killed_owner_and_leaves_with_a_stopped_one(
    project: GitRepo,
    owner_env: dict[str, str],
    remote: RemoteService,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """adr/0016 with the default settings: an owner keeps no standby until one was killed;
    the owner the next call starts in its place keeps a preloaded standby (where fork is
    safe, forked as it starts); SIGKILL that owner and the standby is the next owner, with
    every acknowledged write, and no other owner is started; stop that one cleanly and its
    own standby exits with it, leaving no process and no lock held."""
    if not platform.FORKS:
        monkeypatch.setenv("ANCHORMEM_STANDBY_AFTER", "0")
    waiting = forked_standby if platform.FORKS else waiting_standby
    acknowledged = {remote.remember(f"Crew {i} ships part {i}").reading.id for i in range(3)}
    first = owner_pid(project)
    assert owner_status(project)["standby"] is None
    if platform.FORKS:
        assert owner_children(first) == set()
    os.kill(first, signal.SIGKILL)
    wait_gone(first, within=10)
    acknowledged |= {remote.remember(f"Crew {i} ships part {i}").reading.id for i in range(3, 5)}
    killed = owner_pid(project)  # started cold by that call, to replace the killed one
    assert killed != first
    standby = waiting(project)
    assert standby != killed
    os.kill(killed, signal.SIGKILL)
    wait_gone(killed, within=10)

    start = time.monotonic()
    found = remote.recall("crew ships part", limit=20)
    print(
        f"\nfirst call after the owner's SIGKILL, standby waiting: {time.monotonic() - start:.2f} s"
    )
    assert {r.id for r in found.readings} == acknowledged
    assert owner_pid(project) == standby  # taken over, not a new owner started cold
    log = Files(store(project)).log.read_text()
    assert f"standby {standby} takes over the store" in log
    assert log.count(" of memory.duckdb started") == 2  # the first, and the one replacing it

    # The new owner keeps a standby of its own: where fork is safe, forked at once (within
    # 8 s, before the 10 s after which it would spawn one: the standby that took over
    # must not keep a thread that stops it forking).
    second = waiting(project, within=8.0)
    assert second not in (killed, standby)
    remote.close()
    stop(project)
    wait_gone(standby, within=15)
    wait_gone(second, within=15)  # a clean stop: the standby does not take over
    files = Files(store(project))
    assert files.read_info() is None
    for lock in (files.owner_lock, files.standby_lock):
        fd = files.open_lock(lock)
        try:
            assert platform.lock(fd), lock
            platform.unlock(fd)
        finally:
            os.close(fd)
    assert acknowledged <= stored_ids(project)


@pytest.mark.skipif(not platform.FORKS, reason="a standby is forked only where fork is safe")
def test_an_owner_whose_forked_standby_died_spawns_one_and_leaves_no_zombie(
    project: GitRepo, standby_now: dict[str, str], remote: RemoteService
) -> None:
    """The forked standby killed: the owner reaps it (no zombie child) and, as where it
    cannot fork, starts a standby process of its own (``python -m server.standby``)."""
    remote.recall("start the owner")
    owner, forked = owner_pid(project), forked_standby(project)
    os.kill(forked, signal.SIGKILL)
    deadline = time.monotonic() + 30
    spawned = None
    while time.monotonic() < deadline:
        pid = owner_status(project).get("standby")
        if pid and pid != forked:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"server.standby" in cmdline:
                spawned = pid
                break
        time.sleep(0.05)
    assert spawned is not None, Files(store(project)).log.read_text()
    state = Path(f"/proc/{forked}/stat")
    assert not state.exists() or state.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    assert owner_pid(project) == owner


def test_stopping_just_after_a_sigkill_leaves_the_store_closed_not_taken_over(
    project: GitRepo, standby_now: dict[str, str], remote: RemoteService
) -> None:
    """A stop (the harness's, a test's) that meets a killed owner before its standby has
    taken the lock removes what the owner left, under the owner lock: the standby exits
    instead of opening the store after the stop returned. The standby is held with
    SIGSTOP meanwhile, to be the one that is late."""
    acknowledged = {remote.remember(f"Shift {i} covers gate {i}").reading.id for i in range(3)}
    killed, standby = owner_pid(project), waiting_standby(project)
    remote.close()
    os.kill(standby, signal.SIGSTOP)
    try:
        os.kill(killed, signal.SIGKILL)
        wait_gone(killed, within=10)
        assert acknowledged <= stored_ids(project)  # stop, then DuckDB opened directly
    finally:
        os.kill(standby, signal.SIGCONT)
    wait_gone(standby, within=15)
    log = Files(store(project)).log.read_text()
    assert f"standby {standby} takes over" not in log, log
    con = duckdb.connect(str(store(project)))  # nobody holds the store
    con.close()


def test_an_owner_started_to_replace_a_killed_one_stands_down_once_its_files_are_gone(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    """``--replacing``: a client saw a killed owner's info file and started a new owner.
    By the time that owner holds the lock, another may have taken over and stopped
    cleanly (the file is gone): it exits instead of opening the store after that stop.
    With the file still there it is the owner, as before."""
    settings_for(project).prepare_store_dir()
    files = Files(store(project))
    argv = [sys.executable, "-P", "-m", "server.owner", "--db", str(store(project)),
            "--repo", str(project.root), "--replacing", "999999"]  # fmt: skip
    done = subprocess.run(
        argv, cwd=project.root, env=owner_env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "ready" not in done.stderr and files.read_info() is None

    files.write_info({"pid": 999999, "family": "AF_UNIX", "address": str(store(project)) + ".x"})
    owner = subprocess.Popen(argv, cwd=project.root, env=owner_env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while (files.read_info() or {}).get("pid") != owner.pid:  # it took over
        assert owner.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    client = RemoteService(owner_link(settings_for(project)))
    try:
        client.recall("anything")
        assert owner_pid(project) == owner.pid
    finally:
        client.close()
        stop(project)
        owner.wait(timeout=30)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_second_standby_leaves_at_once_and_none_runs_when_turned_off(
    project: GitRepo, standby_now: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner_env = standby_now
    first = RemoteService(owner_link(settings_for(project)))
    try:
        first.recall("start the owner")
        standby = waiting_standby(project)
        assert owner_children(owner_pid(project)) == {standby}  # what "none" is seen by
        extra = subprocess.run(
            [sys.executable, "-P", "-m", "server.standby", "--db", str(store(project)),
             "--repo", str(project.root)],
            cwd=project.root, env=owner_env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert extra.returncode == 0, extra.stderr
        assert "waiting" not in extra.stderr  # it found the standby lock held
    finally:
        first.close()
        stop(project)

    monkeypatch.setenv("ANCHORMEM_OWNER_STANDBY", "0")
    second = RemoteService(owner_link(settings_for(project)))
    try:
        log = Files(store(project)).log
        before = log.read_text().count("standby")
        second.recall("start another owner")
        # An owner forks its standby as it takes its lock, before it opens the store: one
        # that has answered a call would have a standby process by now (its child).
        assert owner_children(owner_pid(project)) == set()
        assert owner_status(project)["standby"] is None
        assert log.read_text().count("standby") == before
    finally:
        second.close()
        stop(project)


def test_calls_in_flight_when_the_owner_dies_are_resent_or_reported_never_lost(
    project: GitRepo, remote: RemoteService
) -> None:
    acknowledged: list[str] = []
    errors: list[str] = []
    done = threading.Event()

    def writer() -> None:
        for i in range(40):
            try:
                acknowledged.append(remote.remember(f"Writer note {i}: item {i} ships").reading.id)
            except StoreBusy as exc:
                errors.append(str(exc))
        done.set()

    remote.recall("warm up")
    thread = threading.Thread(target=writer)
    thread.start()
    while len(acknowledged) < 10:
        time.sleep(0.01)
    os.kill(owner_pid(project), signal.SIGKILL)
    thread.join(timeout=120)
    assert done.is_set()
    assert errors == []  # a remember is resent to the next owner (a duplicate at worst)
    assert len(set(acknowledged)) == 40
    assert set(acknowledged) <= stored_ids(project)


def test_an_observation_cut_off_by_the_owners_death_is_reported_not_repeated(
    project: GitRepo, remote: RemoteService
) -> None:
    made = remote.remember("Deploys run on Fridays")
    link = remote.link
    conn = link._take()
    os.kill(owner_pid(project), signal.SIGKILL)
    wait_gone(owner_pid(project), within=10)
    link._idle.append(conn)  # a connection that looked alive when the call began
    conn_poll = conn.poll
    conn.poll = lambda timeout=0.0: False  # type: ignore[method-assign]
    try:
        with pytest.raises(StoreBusy, match="may or may not have been done"):
            remote.observe(made.reading.id, True, note="seen on a Friday")
    finally:
        conn.poll = conn_poll  # type: ignore[method-assign]
    assert remote.show(made.reading.id).reading.id == made.reading.id  # the next call works


def test_another_user_can_neither_read_the_key_nor_connect(
    project: GitRepo, remote: RemoteService, tmp_path: Path
) -> None:
    if os.getuid() != 0:
        pytest.skip("needs root to become another user")
    remote.recall("start the owner")
    files = Files(store(project))
    sock = sock_path(project)
    key = files.key.read_bytes()
    # Let the other user reach the folder at all (tmp_path's parents are 0700): what keeps
    # them out must be anchormem's own modes.
    for folder in [*reversed(store(project).parents)][-6:]:
        folder.chmod(folder.stat().st_mode | 0o011)
    store(project).parent.chmod(0o711)  # even with .anchormem opened up, key and socket hold
    try:
        script = (
            "import os, sys\n"
            "from multiprocessing.connection import Client\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "out = []\n"
            f"try:\n    open({str(files.key)!r}, 'rb').read(); out.append('key read')\n"
            "except PermissionError:\n    out.append('key refused')\n"
            f"try:\n    Client({str(sock)!r}, 'AF_UNIX', authkey={key!r})\n"
            "    out.append('connected')\n"
            "except PermissionError:\n    out.append('connect refused')\n"
            "print(' '.join(out))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
        )
        assert done.stdout.split() == ["key", "refused", "connect", "refused"], done.stderr
    finally:
        store(project).parent.chmod(0o700)


def test_a_newer_client_has_an_older_owner_stop_and_an_older_client_is_told_why(
    project: GitRepo, remote: RemoteService
) -> None:
    made = remote.remember("Payments retry three times")
    old = owner_pid(project)
    settings = settings_for(project)

    older = OwnerLink(Files(settings.db), None, env=settings_env(), wait_s=5, version="0.0.1",
                      protocol=PROTOCOL - 1, repo=str(settings.repo))  # fmt: skip
    with pytest.raises(OwnerMismatch, match="newer anchormem"):
        older.connect()

    newer = OwnerLink(Files(settings.db), None, env=settings_env(), wait_s=3, version="9.9",
                      protocol=PROTOCOL + 1, repo=str(settings.repo))  # fmt: skip
    with pytest.raises(StoreBusy):  # the old owner stopped; this test's newer has no owner
        newer.connect()
    wait_gone(old, within=10)
    # The old owner closed the store whole before it let go: its memory is in the tables.
    con = duckdb.connect(str(settings.db), read_only=True)
    try:
        assert con.execute("SELECT id FROM memories").fetchall() == [(made.reading.id,)]
    finally:
        con.close()
    # Its own clients carry on with the next owner.
    assert remote.show(made.reading.id).reading.id == made.reading.id
    assert owner_pid(project) != old


def test_a_store_deep_in_a_data_folder_gets_its_socket_in_a_private_directory(
    project: GitRepo, owner_env: dict[str, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    home = tmp_path / ("a-rather-long-folder-name-" * 4) / "and-deeper-still"
    # A runtime directory as systemd makes it: short, 0700 (tmp_path may itself be deep).
    runtime = Path(tempfile.mkdtemp(prefix="am-run-"))
    request.addfinalizer(lambda: shutil.rmtree(runtime, ignore_errors=True))
    env = {**owner_env, "XDG_RUNTIME_DIR": str(runtime), "ANCHORMEM_HOME": str(home)}
    db = store_file(project.root, home)
    assert len(os.fsencode(f"{db}.sock")) > platform.MAX_UNIX_PATH

    made = cli(project, env, "remember", "Billing posts charges with httpx")
    assert [m["id"] for m in cli(project, env, "recall", "billing")["memories"]] == [made["id"]]
    info = Files(db).read_info()
    assert info is not None
    address = Path(info["address"])
    assert address.parent == runtime / "anchormem"
    assert stat.S_IMODE(address.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(address.stat().st_mode) == 0o600
    OwnerLink(Files(db), None, env=env, wait_s=20, version="t").stop_owner()
    assert not address.exists()


# The MCP SDK's stdio transport imports fcntl on POSIX (and not on Windows): it is
# imported first, then fcntl is made unavailable to everything of anchormem's.
_NO_FCNTL = r"""
import sys, socket
import mcp.server.stdio
sys.modules["fcntl"] = None
del socket.AF_UNIX
import importlib, pkgutil
for package in ("anchors", "store", "server"):
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        importlib.import_module(info.name)
from store.sharing import platform
assert platform.LOCKS == "lockf" and platform.TRANSPORT == "AF_INET", platform.LOCKS
from server.config import Settings
from server.rendering import tool_content
from server.sharing import owner_link
from store.sharing.remote import RemoteService
settings = Settings.resolve(repo=sys.argv[1])
link = owner_link(settings)
link._spawn = [sys.executable, "-P", "-c", sys.argv[2], "--db", str(settings.db),
               "--repo", str(settings.repo)]
service = RemoteService(link)
made = service.remember("Billing posts charges with httpx")
found = service.recall("billing httpx")
assert [r.id for r in found.readings] == [made.reading.id]
print(link.status()["transport"], link.status()["locks"], link.owner["pid"])
link.stop_owner()
"""

_OWNER_WITHOUT_FCNTL = (
    "import sys, socket, mcp.server.stdio; sys.modules['fcntl'] = None; del socket.AF_UNIX;"
    " from server.owner import main; sys.exit(main(sys.argv[1:]))"
)


def test_every_module_imports_and_the_store_is_shared_without_fcntl_or_unix_sockets(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    # No standby: it would be started as a normal Python, whose flock locks do not see
    # this owner's lockf ones.
    env = {**owner_env, "ANCHORMEM_OWNER_STANDBY": "0"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", _NO_FCNTL, str(project.root), _OWNER_WITHOUT_FCNTL],
        cwd=project.root, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    transport, locks, _pid = done.stdout.split()
    assert (transport, locks) == ("AF_INET", "lockf")  # the owner's side, too


def test_doctor_reports_the_owner_and_repairs_what_a_killed_one_left(
    project: GitRepo, no_standby: dict[str, str], remote: RemoteService
) -> None:
    owner_env = no_standby
    remote.recall("start the owner")
    pid = owner_pid(project)
    done = subprocess.run(
        [SCRIPT, "doctor", "--json"], cwd=project.root, env=owner_env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    sharing = next(c for c in json.loads(done.stdout)["checks"] if c["name"] == "sharing")
    assert sharing["ok"] and f"owner pid {pid}" in sharing["detail"], sharing
    assert "1 client processes" in sharing["detail"], sharing  # this test process
    assert "no standby" in sharing["detail"], sharing

    sock = sock_path(project)
    remote.close()
    os.kill(pid, signal.SIGKILL)
    wait_gone(pid, within=10)
    assert sock.exists()
    done = subprocess.run(
        [SCRIPT, "doctor", "--json"], cwd=project.root, env=owner_env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    sharing = next(c for c in json.loads(done.stdout)["checks"] if c["name"] == "sharing")
    assert sharing["ok"] and "repaired" in sharing["detail"], sharing
    assert not sock.exists() and Files(store(project)).read_info() is None
