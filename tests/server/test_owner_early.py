"""An owner started early (``server.sharing.start_owner_early``, called by ``anchormem
serve`` before its own imports), through real owner processes: it starts the one owner a
store has, leaves a running owner alone, starts one only when two servers ask at once, and
fails quietly on a store it cannot use, leaving the error to the server's own connection.
An owner reads its copy of the store and warms as soon as it is ready, before any call."""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.config import Settings
from server.sharing import owner_link, start_owner_early
from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from store.sharing.remote import RemoteService
from tests.conftest import GitRepo, settings_env, store_file
from tests.server.conftest import PROJECT

STARTED = re.compile(r"^anchormem: owner \d+ of memory\.duckdb started$", re.M)


@pytest.fixture
def project(git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> Iterator[GitRepo]:
    """A committed project; owners that stop 2 s after their last client, no standby (so
    that every owner process here is one this test started), stopped at the end."""
    for key in [k for k in os.environ if k.startswith("ANCHORMEM_") and k != "ANCHORMEM_HOME"]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("ANCHORMEM_OWNER_IDLE", "2")
    monkeypatch.setenv("ANCHORMEM_OWNER_STANDBY", "0")
    monkeypatch.setenv("ANCHORMEM_LOCK_WAIT", "20")
    git_repo.commit(PROJECT, "initial project")
    yield git_repo
    _stop(git_repo)


def _store(repo: GitRepo) -> Path:
    return store_file(repo.root)


def _stop(repo: GitRepo) -> None:
    OwnerLink(Files(_store(repo)), None, env=settings_env(), wait_s=20, version="test").stop_owner()


def _log(repo: GitRepo) -> str:
    """The owners' log of this store ("" before any owner wrote to it)."""
    log = Files(_store(repo)).log
    return log.read_text() if log.exists() else ""


def _settings(repo: GitRepo) -> Settings:
    return Settings.resolve(repo=str(repo.root))


def _starts(repo: GitRepo) -> int:
    """How many owner processes of this store have started (one log line each)."""
    return len(STARTED.findall(_log(repo)))


def _owner_processes(repo: GitRepo) -> set[int]:
    """The living owner processes of this store that this process started (Linux)."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue  # it exited meanwhile
        if parent == os.getpid() and b"server.owner" in argv and os.fsencode(_store(repo)) in argv:
            found.add(int(proc.name))
    return found


def _owner_pid(repo: GitRepo, within: float = 20.0) -> int:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        info = Files(_store(repo)).read_info()
        if info is not None:
            return int(info["pid"])
        time.sleep(0.02)
    raise AssertionError("no owner wrote its info")


def test_an_owner_started_early_holds_the_store_and_answers_the_server(project: GitRepo) -> None:
    settings = _settings(project)
    link = owner_link(settings)
    assert link.owner_gone()
    start_owner_early(settings).join(timeout=30)
    assert not link.owner_gone()  # the thread returned once the owner held its lock
    pid = _owner_pid(project)
    service = RemoteService(owner_link(settings))
    try:
        stored = service.remember("Releases are cut from the main branch", subject="release")
        assert service.recall("releases main branch", 5).readings[0].id == stored.reading.id
    finally:
        service.close()
        link.close()
    assert _owner_pid(project) == pid  # the server's connection found it: no second owner
    assert _starts(project) == 1


def test_an_early_start_leaves_a_running_owner_alone(project: GitRepo) -> None:
    settings = _settings(project)
    service = RemoteService(owner_link(settings))
    try:
        service.recall("anything", 1)  # starts the owner
        pid = _owner_pid(project)
        start_owner_early(settings).join(timeout=30)
        assert _owner_pid(project) == pid
        assert _starts(project) == 1
    finally:
        service.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_two_servers_starting_at_once_start_one_owner(project: GitRepo) -> None:
    settings = _settings(project)
    go = threading.Barrier(3)

    def early() -> None:
        go.wait()
        start_owner_early(settings).join(timeout=30)

    threads = [threading.Thread(target=early) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    # Each thread returned after its decision to start an owner or not, and a started
    # owner is a child of this process from that moment: one that lost the lock would
    # still be waiting for it (5 s) before it exits.
    pid = _owner_pid(project)
    assert _owner_processes(project) == {pid}
    assert _starts(project) == 1  # the one owner logged its start before taking the lock


def test_an_early_start_on_a_store_it_cannot_make_is_quiet_and_starts_nothing(
    git_repo: GitRepo, capfd: pytest.CaptureFixture[str]
) -> None:
    git_repo.commit(PROJECT, "initial project")
    folder = store_file(git_repo.root).parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the store's folder would be\n")
    before = sorted(p.name for p in folder.parent.iterdir())
    thread = start_owner_early(Settings.resolve(repo=str(git_repo.root), env=settings_env()))
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert capfd.readouterr().err == ""  # the server's own connection says why, once
    assert sorted(p.name for p in folder.parent.iterdir()) == before
    assert folder.is_file()


def test_an_owner_reads_its_copy_and_warms_before_any_call(project: GitRepo) -> None:
    settings = _settings(project)
    service = RemoteService(owner_link(settings))
    try:
        service.remember("Invoices are rendered by the billing worker", subject="billing")
    finally:
        service.close()
    _stop(project)
    Files(_store(project)).log.unlink()
    start_owner_early(settings).join(timeout=30)  # an owner, and no call at all
    deadline = time.monotonic() + 30
    while "conflict check warm: 1 memories" not in _log(project):
        assert time.monotonic() < deadline, _log(project)  # it waited for a call before
        time.sleep(0.05)
