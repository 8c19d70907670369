"""The owner's standby: a second process that has already paid the start-up a new owner
would pay (its imports, ~1.2 s of CPU) and waits on the owner lock. When the owner dies
without stopping (SIGKILL, OOM) its lock is freed with its info file still in place: the
standby, waiting in the kernel for that lock, takes it at once and becomes the owner, so
the clients' next call waits for the store to open, not for a cold start (adr/0016).
When the owner stops cleanly it removes its info file before freeing the lock, and the
standby exits instead.

A standby holds a second interpreter's memory for as long as the owner lives, and pays
only when the owner is killed. So by default an owner keeps one only once the
store's owner has been killed: the owner that replaces a killed one (started with
``--replacing``, or a standby that took over) keeps a standby for its life
(``standby_wanted``). ``ANCHORMEM_OWNER_STANDBY=1`` keeps one with every owner,
``0`` with none. On Linux the owner forks it as soon as it holds its lock, before it
starts a thread or opens the store, so the imports are the owner's own, shared with it
(``fork_standby``); elsewhere, and when a forked one is gone, a ready owner starts one as
a process of its own after ``ANCHORMEM_STANDBY_AFTER`` seconds.

    python -P -m server.standby --db <store> [--repo <repository>]

At most one standby per store: it holds ``<store>.standby.lock`` (its pid written in it)
from its first moment, before its imports, so a client that finds the owner gone while
a standby is loading waits for it instead of starting a second cold owner
(``store.sharing.client``). This module imports nothing heavy until the lock is held.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from store.sharing import platform
from store.sharing.protocol import Files

if TYPE_CHECKING:
    from server.config import Settings

__all__ = [
    "LOOK_S",
    "PRELOAD",
    "Standby",
    "fork_standby",
    "identity",
    "main",
    "preload",
    "spawn_standby",
    "standby_wanted",
]

LOOK_S = 0.2  # how often a waiting standby looks at the owner's files and its stop
# Modules a call imports on first use: the standby loads them while it waits.
PRELOAD = (
    "server.app",  # the MCP SDK, for the first session (the owner imports it then)
    "server.direct",
    "server.sessions",
    "server.cli_facts",  # what a CLI command's answer adds (``server.operations``)
    "server.agent_text",
    "store.contradictions.rules",
    "store.remembering",  # the service's writers, made on first use (``store.service``)
    "store.curating",
    "store.evidence.curating",
    "store.transferring",
    "anchors.vocabulary",
    "anchors.legacy_manifests",
    "store.secret_patterns",
)




def standby_wanted(settings: Settings, replaces_a_killed_owner: bool) -> bool:
    """Whether an owner keeps a standby: as ``ANCHORMEM_OWNER_STANDBY`` says (1: always, 0:
    never), and unset only when this owner replaces one that was killed (an owner killed
    once may be again, and its clients waited for a cold start once)."""
    if settings.owner_standby is None:
        return replaces_a_killed_owner
    return settings.owner_standby


class Standby:
    """Waiting for the owner lock of ``files``; ``wait`` says whether to become the owner."""

    def __init__(self, files: Files) -> None:
        self.files = files
        self._fd: int | None = None

    def claim(self) -> bool:
        """Hold the standby lock (``False``: another standby holds it)."""
        fd = self.files.open_lock(self.files.standby_lock)
        if not platform.lock(fd):
            os.close(fd)
            return False
        with contextlib.suppress(OSError):  # for the owner's status (doctor)
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            platform.unlock(fd)
            os.close(fd)

    def wait(self, lock_fd: int, stopping: Callable[[], bool]) -> bool:
        """Wait for the owner lock on ``lock_fd``. ``True``: it is ours, and the owner
        before us died (its info file is still there): go on as the owner. ``False``: it
        stopped cleanly, the store's folder went away, or we were told to stop (the lock
        is not held then, or only by the waiting thread of a process about to exit).

        A thread waits in the kernel for the lock (a blocking lock: no CPU, and the lock
        is ours the moment the owner's dies with it); this thread looks at the owner's
        files and at ``stopping`` every ``LOOK_S``. Polling the lock every 10 ms instead
        would cost an idle standby a percent or two of a core (adr/0017)."""
        watched = identity(self.files.owner_lock)
        taken = threading.Event()
        # With flock the thread locks through its own descriptor of the same open file:
        # the lock is ``lock_fd``'s, and a standby that leaves while it still waits can
        # close ``lock_fd`` (the lock then goes with the thread's descriptor, never to
        # another file that reuses the number). Other locks belong to the descriptor
        # (Windows) or the process (lockf): there it waits on ``lock_fd`` itself.
        mine = os.dup(lock_fd) if platform.LOCKS == "flock" else lock_fd

        def take() -> None:
            try:
                if platform.lock(mine, blocking=True):
                    taken.set()
            except OSError:
                pass  # it could not wait: the loop below tries the lock at each look
            finally:
                if mine != lock_fd:
                    os.close(mine)

        waiter = threading.Thread(target=take, name="standby-lock", daemon=True)
        waiter.start()
        while not taken.wait(LOOK_S):
            if stopping():
                return False
            if self.files.read_info() is None:
                return False  # the owner stopped cleanly (or never finished starting)
            if identity(self.files.owner_lock) != watched:
                return False  # the folder was removed or replaced under us
            if not waiter.is_alive() and platform.lock(lock_fd):
                break
        # Done once the lock is ours: a standby that becomes the owner forks its own
        # standby only from a process with no other thread (``fork_standby``).
        waiter.join()
        if self.files.read_info() is not None:
            return True
        platform.unlock(lock_fd)  # it stopped cleanly between the two looks
        return False


def preload() -> float:
    """Import what a call would import on first use; the seconds it took."""
    start = time.monotonic()
    for name in PRELOAD:
        # An optional one that is missing: its call fails as it would without a standby.
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    return time.monotonic() - start


def identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (device, inode), or ``None`` if there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def fork_standby(lock_fd: int, files: Files, become: Callable[[Standby], int]) -> int | None:
    """Fork a standby from an owner that holds the owner lock on ``lock_fd`` and has started
    no thread (Linux only, ``platform.FORKS``); the child's pid, or ``None`` if none was
    forked. The child never returns from here: it lets go of its copy of the owner's lock
    descriptor (closed, never unlocked: it is the owner's lock, one open file description),
    claims the standby lock and lives as ``become(claim)`` (an owner waiting as the standby,
    ``Owner.run``), then exits with its code."""
    if not platform.FORKS or threading.active_count() > 1:
        return None  # a thread would be missing from the child, holding whatever it held
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        stream.flush()
    try:
        pid = os.fork()
    except OSError as exc:
        print(f"anchormem: cannot fork a standby: {exc}", file=sys.stderr, flush=True)
        return None
    if pid:
        return pid
    code = 1
    try:
        os.close(lock_fd)
        waiting = Standby(files)
        code = 0
        if waiting.claim():  # else another standby waits already
            try:
                code = become(waiting)
            finally:
                waiting.release()
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def spawn_standby(argv: Sequence[str], files: Files, cwd: str) -> subprocess.Popen[bytes]:
    """Start a standby (``argv``: this module's command), detached, its stderr in the
    owner's log."""
    return platform.start_detached(argv, files.log, cwd)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.standby")
    parser.add_argument("--db", required=True)
    parser.add_argument("--repo")
    args = parser.parse_args(argv)
    waiting = Standby(Files(Path(args.db)))
    if not waiting.claim():
        return 0  # another standby waits already
    try:
        from server import owner  # the imports a new owner would pay for, paid now

        return owner.main(["--db", args.db, *(["--repo", args.repo] if args.repo else [])], waiting)
    finally:
        waiting.release()


if __name__ == "__main__":
    sys.exit(main())
