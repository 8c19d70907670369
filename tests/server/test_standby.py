"""The standby's wait for the owner lock (``server.standby.Standby.wait``), on real lock
files: one process holds two open descriptions of the lock file, which lock against each
other as two processes would (flock). The tests change the owner's files only once the
standby has looked at them (it asks ``stopping`` at each look), never after a pause."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from server.config import Settings
from server.standby import Standby, standby_wanted
from store.sharing import platform
from store.sharing.protocol import Files

WAIT_S = 5.0


class Waiting:
    """``Standby.wait`` run in a thread, as the standby's main thread runs it, counting its
    looks at the owner's files: it asks ``stopping`` once a look, before the files."""

    def __init__(self, files: Files, stopping: threading.Event) -> None:
        self.fd = files.open_lock(files.owner_lock)
        self.result: bool | None = None
        self._stopping = stopping
        self._looks = 0
        self._looked = threading.Condition()
        self._thread = threading.Thread(target=self._run, args=(Standby(files),))
        self._thread.start()

    def _run(self, standby: Standby) -> None:
        self.result = standby.wait(self.fd, self._look)

    def _look(self) -> bool:
        with self._looked:
            self._looks += 1
            self._looked.notify_all()
        return self._stopping.is_set()

    def looked(self, times: int) -> None:
        """Return once the standby has looked ``times`` times (and so was still waiting)."""
        with self._looked:
            done = self._looked.wait_for(lambda: self._looks >= times, WAIT_S)
        assert done, f"the standby looked {self._looks} times, not {times}"

    def finished(self) -> bool | None:
        self._thread.join(WAIT_S)
        assert not self._thread.is_alive(), "the standby is still waiting"
        return self.result


def owner(tmp_path: Path) -> tuple[Files, int]:
    files = Files(tmp_path / "memory.duckdb")
    fd = files.open_lock(files.owner_lock)
    assert platform.lock(fd)
    files.write_info({"pid": os.getpid()})
    return files, fd


def freed(files: Files) -> bool:
    """Whether the owner lock is free within ``WAIT_S``. A standby's thread still waiting
    when the standby leaves may take the lock as it is freed, for the moment it needs to
    let go of its descriptor (in the product the process is exiting then)."""
    deadline = time.monotonic() + WAIT_S
    while not free(files):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True  # taken once: asked again, the thread could hold it for that moment


def free(files: Files) -> bool:
    """Whether another process could take the owner lock now."""
    probe = files.open_lock(files.owner_lock)
    try:
        if platform.lock(probe):
            platform.unlock(probe)
            return True
        return False
    finally:
        os.close(probe)


def test_an_owner_that_dies_with_its_info_file_in_place_is_taken_over(tmp_path: Path) -> None:
    files, held = owner(tmp_path)
    waiting = Waiting(files, threading.Event())
    waiting.looked(3)  # the first two looks found the owner alive and went on waiting
    assert waiting.result is None
    os.close(held)  # what the kernel does for an owner killed with SIGKILL
    assert waiting.finished() is True
    assert not free(files)  # the standby holds the lock now
    os.close(waiting.fd)


def test_an_owner_that_stops_cleanly_lets_its_standby_go(tmp_path: Path) -> None:
    files, held = owner(tmp_path)
    waiting = Waiting(files, threading.Event())
    waiting.looked(1)
    files.info.unlink()  # a clean stop removes the info file before it frees the lock
    platform.unlock(held)
    assert waiting.finished() is False
    os.close(waiting.fd)
    assert freed(files)
    os.close(held)


def test_a_standby_told_to_stop_leaves_while_the_owner_lives(tmp_path: Path) -> None:
    files, held = owner(tmp_path)
    stopping = threading.Event()
    waiting = Waiting(files, stopping)
    waiting.looked(1)
    stopping.set()
    assert waiting.finished() is False
    os.close(waiting.fd)
    assert not free(files)  # the owner still holds it
    platform.unlock(held)
    assert freed(files)
    os.close(held)


def test_a_replaced_folder_lets_the_standby_go(tmp_path: Path) -> None:
    files, held = owner(tmp_path)
    waiting = Waiting(files, threading.Event())
    waiting.looked(1)
    files.owner_lock.unlink()
    files.owner_lock.touch()  # another lock file by the same name: another store's
    assert waiting.finished() is False
    os.close(waiting.fd)
    os.close(held)


def test_an_owner_imports_the_mcp_sdk_only_for_its_first_relayed_call() -> None:
    # A CLI call's owner answers without it; the SDK's import is most of an owner's start.
    code = "import sys, server.owner; print(sorted(m for m in sys.modules if m[:3] == 'mcp'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_an_owner_keeps_a_standby_once_one_was_killed_unless_told_always_or_never(
    tmp_path: Path,
) -> None:
    """adr/0016, amended: a standby pays only when an owner is killed, so by default only
    the owner that replaces a killed one keeps one; ``ANCHORMEM_OWNER_STANDBY`` 1 keeps one
    with every owner, 0 with none."""

    def wanted(value: str | None, replaces: bool) -> bool:
        env = {} if value is None else {"ANCHORMEM_OWNER_STANDBY": value}
        settings = Settings.resolve(repo=None, db=str(tmp_path / "memory.duckdb"), env=env)
        return standby_wanted(settings, replaces)

    assert [wanted(None, False), wanted(None, True)] == [False, True]
    assert [wanted("1", False), wanted("true", False), wanted("1", True)] == [True, True, True]
    assert [wanted("0", False), wanted("0", True)] == [False, False]
