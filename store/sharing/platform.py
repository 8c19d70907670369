"""Everything that differs between operating systems, in one place: file locks, the
address an owner listens on, and starting a detached process (adr/0012).

Locks (on an open file descriptor; they die with the process, so SIGKILL never leaves one):

* ``fcntl.flock`` where the ``fcntl`` module exists (Linux, macOS): per open file
  description, shared and exclusive.
* ``portalocker`` elsewhere (Windows: ``LockFileEx``), shared and exclusive.
* ``os.lockf`` where neither exists but POSIX record locks do (a POSIX Python built
  without ``fcntl``; the portability test runs this way): exclusive record locks, taken
  by the process. A shared lock is one byte of its own (at ``1 + pid % 4093``), an
  exclusive lock the whole range, so an exclusive probe fails while any other process
  holds a shared byte, as with ``flock``.

Listener address, chosen in this order:

* ``AF_UNIX`` (POSIX): a socket file beside the store, or, when that path is too long for
  ``sun_path`` (~107 bytes), in a 0700 per-user directory
  (``$XDG_RUNTIME_DIR/anchormem`` or ``<tmp>/anchormem-<uid>``) named by a hash of the
  store's path. The socket is created 0600.
* ``AF_PIPE`` (Windows): a named pipe named by that hash.
* ``AF_INET`` on 127.0.0.1 with a port the system picks (anything else): the address is
  read from the owner's info file.

A standby (adr/0016) is forked from its owner where ``fork`` is safe to use without
``exec`` (Linux: ``FORKS``); elsewhere it is started as a process of its own.

Whatever the transport, a client must also answer the HMAC challenge with the store's key
(a 0600 file), so a process of another user can neither read the key nor connect.
"""

from __future__ import annotations

import errno
import hashlib
import os
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "FORKS",
    "LOCKS",
    "MAX_UNIX_PATH",
    "TRANSPORT",
    "listen_address",
    "lock",
    "private_dir",
    "start_detached",
    "trusted_address",
    "unlock",
]

MAX_UNIX_PATH = 100  # sun_path is 108 bytes on Linux, 104 on macOS; keep a margin

_fcntl: Any
try:
    import fcntl as _fcntl
except ImportError:  # Windows, or a POSIX Python without the module
    _fcntl = None

_portalocker: Any = None
if _fcntl is None and sys.platform == "win32":  # pragma: no cover - not run on Linux CI
    import portalocker as _portalocker

_LOCKF_SPAN = 4096

LOCKS = "flock" if _fcntl is not None else "portalocker" if _portalocker else "lockf"
TRANSPORT = (
    "AF_UNIX" if hasattr(socket, "AF_UNIX") else "AF_PIPE" if sys.platform == "win32" else "AF_INET"
)
# Whether a process may fork a copy of itself that goes on without ``exec``: not on
# Windows (no fork), nor macOS (system libraries a process has used may not survive it).
FORKS = sys.platform.startswith("linux") and hasattr(os, "fork")


def lock(fd: int, *, shared: bool = False, blocking: bool = False) -> bool:
    """Take a lock on ``fd``; ``False`` when ``blocking`` is off and another holds it."""
    if _fcntl is not None:
        flags = (_fcntl.LOCK_SH if shared else _fcntl.LOCK_EX) | (0 if blocking else _fcntl.LOCK_NB)
        try:
            _fcntl.flock(fd, flags)
        except BlockingIOError:
            return False
        return True
    if _portalocker is not None:  # pragma: no cover - Windows
        flags = (_portalocker.LOCK_SH if shared else _portalocker.LOCK_EX) | (
            0 if blocking else _portalocker.LOCK_NB
        )
        try:
            _portalocker.lock(_FdFile(fd), flags)
        except _portalocker.exceptions.LockException:
            return False
        return True
    offset, length = (1 + os.getpid() % (_LOCKF_SPAN - 3), 1) if shared else (0, _LOCKF_SPAN)
    os.lseek(fd, offset, os.SEEK_SET)
    try:
        os.lockf(fd, os.F_LOCK if blocking else os.F_TLOCK, length)
    except (BlockingIOError, PermissionError):
        return False
    except OSError as exc:  # EAGAIN/EACCES spelled as a plain OSError on some systems
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return False
        raise
    return True


def unlock(fd: int) -> None:
    if _fcntl is not None:
        _fcntl.flock(fd, _fcntl.LOCK_UN)
        return
    if _portalocker is not None:  # pragma: no cover - Windows
        _portalocker.unlock(_FdFile(fd))
        return
    os.lseek(fd, 0, os.SEEK_SET)
    os.lockf(fd, os.F_ULOCK, _LOCKF_SPAN)


class _FdFile:  # pragma: no cover - Windows: portalocker wants a file-like object
    def __init__(self, fd: int) -> None:
        self._fd = fd

    def fileno(self) -> int:
        return self._fd


def start_detached(argv: Sequence[str], log: Path, cwd: str) -> subprocess.Popen[bytes]:
    """Start ``argv`` outside this process's session (it outlives us, and a signal to our
    group does not reach it), with no stdin or stdout and its stderr appended to ``log``
    (created 0600)."""
    extra: dict[str, Any] = {"start_new_session": True}
    if sys.platform == "win32":  # pragma: no cover - Windows
        flags = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        extra = {"creationflags": flags}
    from store.safe_files import open_private

    log_fd = open_private(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        return subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log_fd,
            cwd=cwd,
            close_fds=True,
            **extra,
        )
    finally:
        os.close(log_fd)


def private_dir() -> Path:
    """A directory only this user can enter, for sockets whose path beside the store would
    be too long: ``$XDG_RUNTIME_DIR/anchormem`` or ``<tmp>/anchormem-<uid>``, created
    0700. Another local user can make ``<tmp>/anchormem-<uid>`` first; then (or when it
    is not private) a new folder of a name nobody can guess is used, with a warning: the
    owner's info file says where its socket is (adr/0022)."""
    global _fallback_dir
    base = os.environ.get("XDG_RUNTIME_DIR")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    folder = Path(tempfile.gettempdir()) / f"anchormem-{uid}"
    if base and Path(base).is_dir() and len(os.fsencode(base)) <= MAX_UNIX_PATH - 40:
        folder = Path(base) / "anchormem"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        info = None
    if info is not None and _private_to_me(info):
        return folder
    if _fallback_dir is None:
        _fallback_dir = Path(tempfile.mkdtemp(prefix=f"anchormem-{uid}-"))
        print(
            f"anchormem: {folder} is not this user's private directory (another user may"
            f" have made it); sockets go to {_fallback_dir} instead",
            file=sys.stderr,
        )
    return _fallback_dir


_fallback_dir: Path | None = None


def _private_to_me(info: os.stat_result) -> bool:
    if not stat.S_ISDIR(info.st_mode):
        return False
    return not hasattr(os, "getuid") or (info.st_uid == os.getuid() and not info.st_mode & 0o077)


def trusted_address(family: str, address: Any) -> bool:
    """Whether an address read from an owner's info file is one an owner of this user's
    listens on: this platform's transport only; a socket file of this user's in a folder
    nobody else may write to; a pipe of anchormem's; 127.0.0.1 (adr/0022)."""
    from store.safe_files import is_own_socket

    if family != TRANSPORT:
        return False
    if family == "AF_UNIX":
        return isinstance(address, str) and address.endswith(".sock") and is_own_socket(address)
    if family == "AF_PIPE":  # pragma: no cover - Windows
        return isinstance(address, str) and address.startswith("\\\\.\\pipe\\anchormem-")
    return (
        isinstance(address, (list, tuple))
        and len(address) == 2
        and address[0] == "127.0.0.1"
        and isinstance(address[1], int)
        and 0 < address[1] < 65536
    )


def listen_address(store: Path) -> tuple[str, Any]:
    """The family and address an owner of ``store`` listens on (see the module's
    docstring); for ``AF_INET`` the port is 0: the system picks one."""
    digest = hashlib.sha256(str(store).encode()).hexdigest()[:24]
    if TRANSPORT == "AF_UNIX":
        beside = f"{store}.sock"
        if len(os.fsencode(beside)) <= MAX_UNIX_PATH:
            return "AF_UNIX", beside
        return "AF_UNIX", str(private_dir() / f"{digest}.sock")
    if TRANSPORT == "AF_PIPE":  # pragma: no cover - Windows
        return "AF_PIPE", rf"\\.\pipe\anchormem-{digest}"
    return "AF_INET", ("127.0.0.1", 0)
