"""Files of the work tree as ``anchors/worktree.py`` reads them: which are parsed and up
to what size, a descriptor opened without following a symlink anywhere on the way, and
the blob id git would give a file or a symlink (``blob <len>\\0<content>``, SHA-1 or
SHA-256), or a stat-derived id for a file that is never read.

No file that is not a regular file is ever opened for reading, here or in
``anchors/gitrepo.py``: opening a FIFO waits for a writer, forever, and opening a device
can have effects of its own. ``read_regular`` reads git's own files (HEAD, refs,
``packed-refs``) that way, and ``refuse_special`` says whether a file git itself would
read is one git would wait on (``SpecialFile``).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from functools import cache
from pathlib import Path

__all__ = [
    "MAX_PARSED_BYTES",
    "MAX_TEXT_BYTES",
    "SpecialFile",
    "StatKey",
    "content_limit",
    "hash_fd",
    "link_id",
    "open_worktree_file",
    "read_regular",
    "refuse_special",
    "stamp",
]

MAX_PARSED_BYTES = 8 * 1024 * 1024  # Python files and manifests larger than this: not parsed
MAX_TEXT_BYTES = 1024 * 1024  # other text, searched for mentions only
_CHUNK = 1024 * 1024

StatKey = tuple[int, int, int, int]  # size, mtime_ns, inode, ctime_ns

# O_NONBLOCK: should a FIFO replace the file between the stat and the open, the open
# returns at once (and fstat refuses it) instead of waiting for a writer. O_NOCTTY: a
# terminal device swapped in the same way never becomes this process's terminal.
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class SpecialFile(OSError):
    """A file anchormem or git would read is not a regular file (a FIFO, a socket, a
    device): it is never opened, as reading it could wait forever."""

    def __init__(self, path: str | os.PathLike[str], mode: int) -> None:
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        super().__init__(f"{os.fspath(path)} is {kind}, not a regular file: it is never read")
        self.path = os.fspath(path)


def _check_mode(path: str | os.PathLike[str], mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    raise SpecialFile(path, mode)


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The content of the regular file at ``path``; symlinks are followed (git's own
    files may be links: a symbolic HEAD of old). Raises ``FileNotFoundError`` or
    ``NotADirectoryError`` when there is none, ``IsADirectoryError`` for a directory and
    ``SpecialFile`` for anything else, which is not even opened."""
    _check_mode(path, os.stat(path).st_mode)  # a device is never opened at all
    fd = os.open(path, _READ_FLAGS)
    try:
        _check_mode(path, os.fstat(fd).st_mode)  # what was opened, if it was swapped
        chunks: list[bytes] = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


@cache
def _devnull() -> os.stat_result | None:
    try:
        return os.stat(os.devnull)
    except OSError:
        return None


def refuse_special(path: str | os.PathLike[str]) -> None:
    """Raise ``SpecialFile`` when git, reading ``path``, could wait forever: it is there
    and is neither a regular file, a directory (git fails on it at once) nor the null
    device (an empty file to git, and the usual ``GIT_CONFIG_GLOBAL=/dev/null``). Only
    stat-ed, never opened; a path that cannot be stat-ed is git's to report."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
        return
    null = _devnull()
    if null is not None and os.path.samestat(st, null):
        return
    raise SpecialFile(path, st.st_mode)


def content_limit(path: str) -> int:
    """The most bytes of ``path`` the fingerprint parses (0: it never reads it)."""
    # Imported here: a process that only opens git's own files (a server's pipe checking
    # where its store is) never needs the manifest parsers or the vocabulary.
    from anchors.manifests import ENV_EXAMPLE_NAMES, manifest_kind
    from anchors.mentions import is_text_path

    name = path.rpartition("/")[2]
    if name.endswith(".py") or manifest_kind(path) is not None or name in ENV_EXAMPLE_NAMES:
        return MAX_PARSED_BYTES
    return MAX_TEXT_BYTES if is_text_path(path) else 0


def open_worktree_file(root: Path, path: str) -> int | None:
    """A descriptor of the regular file ``path`` under ``root``, or None. Every directory
    on the way is opened with O_NOFOLLOW relative to its parent, so neither the file nor
    any parent can be a symlink and nothing outside the root is ever opened."""
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts) or "\0" in path:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fds: list[int] = []
    try:
        fds.append(os.open(root, flags | os.O_DIRECTORY))
        for part in parts[:-1]:
            fds.append(os.open(part, flags | os.O_DIRECTORY, dir_fd=fds[-1]))
        # O_NONBLOCK: opening a FIFO planted in the work tree must not hang the server.
        fd = os.open(parts[-1], flags | os.O_NONBLOCK, dir_fd=fds[-1])
    except OSError:
        return None
    finally:
        for parent in fds:
            os.close(parent)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def hash_fd(fd: int, size: int, sha256: bool) -> str | None:
    """The blob id of the open file, read in chunks; None if it changed size meanwhile."""
    digest = hashlib.sha256() if sha256 else hashlib.sha1(usedforsecurity=False)
    digest.update(b"blob %d\0" % size)
    total = 0
    while chunk := os.read(fd, _CHUNK):
        total += len(chunk)
        if total > size:
            return None
        digest.update(chunk)
    return digest.hexdigest() if total == size else None


def stamp(path: str, key: StatKey) -> str:
    """An id for a file never read: it changes whenever the file's stat does."""
    text = f"{path}\0{key}".encode(errors="surrogateescape")
    return "stat-" + hashlib.blake2b(text, digest_size=16).hexdigest()


def link_id(path: Path, sha256: bool) -> str | None:
    try:
        target = os.fsencode(os.readlink(path))
    except OSError:
        return None
    digest = hashlib.sha256() if sha256 else hashlib.sha1(usedforsecurity=False)
    digest.update(b"blob %d\0" % len(target))
    digest.update(target)
    return digest.hexdigest()
