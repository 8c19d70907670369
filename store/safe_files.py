"""Opening the store's files so that nothing a repository can plant is followed or obeyed
(adr/0022).

A store's files are the store itself and the files named after it (``<store>.journal``,
``.wal``, ``.lock``, ``.owner``, ``.key``, ``.owner.log``, ...). Every one of them is
opened here: never through a symbolic link (``O_NOFOLLOW``), never if it is not a regular
file (a FIFO would block the call, a device would be read), never if another user owns it,
and created ``0600``. A folder that holds a store must be a real directory owned by this
user that no one else may write to.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from store.errors import StoreUnavailable

__all__ = [
    "SIDE_SUFFIXES",
    "check_folder",
    "check_store_files",
    "is_own_socket",
    "open_private",
    "read_private",
]

# The names a store's files take beside it: ``<store><suffix>``.
SIDE_SUFFIXES = (
    ".wal",
    ".journal",
    ".lock",
    ".want",
    ".owner",
    ".owner.lock",
    ".owner.log",
    ".standby.lock",
    ".spawn",
    ".key",
    ".sock",
    ".compact",
    ".compact.wal",
    ".recovery.json",
)

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_UID = os.getuid() if hasattr(os, "getuid") else None


def _own(info: os.stat_result) -> bool:
    return _UID is None or info.st_uid == _UID


def open_private(path: Path | str, flags: int, *, mode: int = 0o600) -> int:
    """``os.open`` for a store file: no link followed, a regular file of this user only,
    created ``mode``. Refusals raise ``StoreUnavailable`` naming the file."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; it is
    # refused below, and has no effect on a regular file.
    try:
        fd = os.open(path, flags | _NOFOLLOW | _CLOEXEC | _NONBLOCK, mode)
    except OSError:
        if os.path.islink(path):
            raise StoreUnavailable(
                f"{path} is a symbolic link: anchormem does not follow links among its"
                " files; remove it"
            ) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreUnavailable(f"{path} is not a regular file; move it aside")
        if not _own(info):
            raise StoreUnavailable(
                f"{path} belongs to another user: anchormem uses only its own files"
            )
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_private(path: Path | str, limit: int = 1 << 20) -> bytes:
    """The content of a small store file (at most ``limit`` bytes), opened as
    ``open_private`` does."""
    fd = open_private(path, os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit)


def check_folder(folder: Path) -> None:
    """Refuse a folder for store files that is a link, not a directory, another user's,
    or writable by others (they could put files in it)."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        raise StoreUnavailable(f"the store's folder {folder} does not exist") from None
    if stat.S_ISLNK(info.st_mode):
        raise StoreUnavailable(
            f"the store's folder {folder} is a symbolic link: anchormem keeps its files only"
            " in a real directory; remove the link, or name another store with --db"
        )
    if not stat.S_ISDIR(info.st_mode):
        raise StoreUnavailable(f"{folder} is not a directory (anchormem keeps its store there)")
    if not _own(info):
        raise StoreUnavailable(
            f"the store's folder {folder} belongs to another user: anchormem keeps its store"
            " only in a folder of its own user"
        )
    if info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX:
        raise StoreUnavailable(
            f"others may write to the store's folder {folder}: make it yours alone"
            f" (chmod go-w {folder}), or name another store with --db"
        )


def check_store_files(store: Path) -> None:
    """Refuse a store whose file or any file named after it is a link, a special file or
    another user's, before anything opens them (DuckDB would follow a link to its WAL)."""
    for path in (store, *(Path(f"{store}{suffix}") for suffix in SIDE_SUFFIXES)):
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(info.st_mode):
            raise StoreUnavailable(
                f"{path} is a symbolic link: anchormem does not follow links among its"
                " files; remove it"
            )
        if path.suffix == ".sock" and stat.S_ISSOCK(info.st_mode):
            if not _own(info):
                raise StoreUnavailable(f"{path} belongs to another user; remove it")
            continue
        # A FIFO would block whoever opens it, a device would be read; a folder in the way
        # only makes its own step fail (and says so).
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
            raise StoreUnavailable(f"{path} is not a regular file; move it aside")
        if not _own(info):
            raise StoreUnavailable(
                f"{path} belongs to another user: anchormem uses only its own files"
            )


def is_own_socket(path: Path | str) -> bool:
    """Whether ``path`` is a socket of this user's in a directory of this user's that
    nobody else may write to: the only kind of address an owner's info may name, and the
    only file a client may remove for a killed owner."""
    try:
        info = os.lstat(path)
        parent = os.lstat(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return (
        stat.S_ISSOCK(info.st_mode)
        and _own(info)
        and stat.S_ISDIR(parent.st_mode)
        and (_own(parent) or bool(parent.st_mode & stat.S_ISVTX))
        # a sticky folder (``/tmp``): others may add files but not replace this one
        and (not parent.st_mode & 0o022 or bool(parent.st_mode & stat.S_ISVTX))
    )
