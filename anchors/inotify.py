"""Linux inotify through ``ctypes``: the only platform-specific code of the work-tree
watcher (``anchors/watcher.py``, adr/0018).

Nothing here is imported at module level beyond the standard library's portable parts:
``ctypes`` and libc are looked up when an instance is opened, so the module imports on
every system and ``Inotify()`` raises ``OSError`` (``ENOSYS``) where there is no inotify
(macOS, Windows, a Python built without ``ctypes``). The descriptor is opened with
``IN_NONBLOCK | IN_CLOEXEC``: reading it never waits, and no git child inherits it.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
from dataclasses import dataclass
from typing import Any

__all__ = [
    "IN_ATTRIB",
    "IN_CLOSE_WRITE",
    "IN_CREATE",
    "IN_DELETE",
    "IN_DELETE_SELF",
    "IN_DONT_FOLLOW",
    "IN_EXCL_UNLINK",
    "IN_IGNORED",
    "IN_ISDIR",
    "IN_MODIFY",
    "IN_MOVED_FROM",
    "IN_MOVED_TO",
    "IN_MOVE_SELF",
    "IN_ONLYDIR",
    "IN_Q_OVERFLOW",
    "IN_UNMOUNT",
    "Event",
    "Inotify",
    "remote_file_system",
]

# <sys/inotify.h>
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_EXCL_UNLINK = 0x04000000
IN_ISDIR = 0x40000000

_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of NUL-padded name
# Room for many events per read; one event is at most 16 + NAME_MAX + 1 bytes.
_READ_BYTES = 64 * 1024

# statfs f_type of file systems where a change made elsewhere (another host, the other
# side of a VM share) sends no inotify event here.
_REMOTE = {
    0x6969: "nfs",
    0x517B: "smb",
    0xFF534D42: "cifs",
    0xFE534D42: "smb2",
    0x65735546: "fuse",
    0x01021997: "9p",
    0x00C36400: "ceph",
    0x5346414F: "afs",
    0x6B414653: "afs",
    0x73757245: "coda",
    0x01161970: "gfs2",
    0x7461636F: "ocfs2",
    0x0BD00BD0: "lustre",
    0x786F4256: "vboxsf",
    0x564C: "ncp",
}


@dataclass(frozen=True)
class Event:
    """One inotify event: ``name`` is the child's name ("" for the watched item itself),
    decoded as git's paths are (UTF-8, undecodable bytes kept as surrogates)."""

    wd: int
    mask: int
    name: str


def _libc() -> Any:
    """libc's inotify functions, or OSError(ENOSYS) where there are none."""
    if not sys.platform.startswith("linux"):
        raise OSError(errno.ENOSYS, "inotify exists on Linux only")
    try:
        import ctypes
    except ImportError as exc:  # a Python built without ctypes
        raise OSError(errno.ENOSYS, "ctypes is not available") from exc
    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "inotify_init1"):
        raise OSError(errno.ENOSYS, "this libc has no inotify")
    libc.inotify_init1.argtypes = [ctypes.c_int]
    libc.inotify_init1.restype = ctypes.c_int
    libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
    libc.inotify_add_watch.restype = ctypes.c_int
    libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.inotify_rm_watch.restype = ctypes.c_int
    return libc


def _errno() -> int:
    import ctypes

    return ctypes.get_errno()


class Inotify:
    """One inotify instance. Not thread-safe: its owner serialises calls."""

    def __init__(self) -> None:
        self._libc = _libc()
        fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:  # EMFILE: fs.inotify.max_user_instances reached
            code = _errno()
            raise OSError(code, f"inotify_init1: {os.strerror(code)}")
        self._fd: int | None = fd

    def watch_path(self, path: str | bytes, mask: int) -> int:
        """Watch ``path`` (a directory) for ``mask``; the watch descriptor. Raises OSError
        with the kernel's errno (ENOSPC: the watch limit, fs.inotify.max_user_watches)."""
        if self._fd is None:
            raise OSError(errno.EBADF, "the inotify instance is closed")
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(path), mask)
        if wd < 0:
            code = _errno()
            raise OSError(code, f"inotify_add_watch: {os.strerror(code)}", os.fsdecode(path))
        return int(wd)

    def watch_fd(self, dir_fd: int, mask: int) -> int:
        """Watch the directory open as ``dir_fd``: its ``/proc/self/fd`` link names that very
        inode, so no path is resolved again (a directory swapped for a symlink since it was
        opened with O_NOFOLLOW cannot redirect the watch)."""
        return self.watch_path(f"/proc/self/fd/{dir_fd}", mask)

    def unwatch(self, wd: int) -> None:
        """Remove a watch; one the kernel already dropped (its directory is gone) is fine."""
        if self._fd is not None:
            self._libc.inotify_rm_watch(self._fd, wd)  # EINVAL: already removed

    def events(self, limit: int = 1 << 20) -> list[Event]:
        """Every event queued now, without waiting ([] when there is none); reading stops
        once ``limit`` events are read (a writer faster than the reader cannot keep the
        caller here)."""
        if self._fd is None:
            raise OSError(errno.EBADF, "the inotify instance is closed")
        found: list[Event] = []
        while len(found) < limit:
            try:
                data = os.read(self._fd, _READ_BYTES)
            except BlockingIOError:
                return found
            offset = 0
            while offset + _HEADER.size <= len(data):
                wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
                start = offset + _HEADER.size
                raw = data[start : start + length].rstrip(b"\0")
                found.append(Event(wd, mask, raw.decode("utf-8", errors="surrogateescape")))
                offset = start + length
        return found

    def close(self) -> None:
        """Close the descriptor, which drops every watch."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    @property
    def closed(self) -> bool:
        return self._fd is None


def remote_file_system(path: str) -> str | None:
    """The kind of network or shared file system ``path`` is on ("nfs", "9p", ...), or
    None for a local one (or when it cannot be told)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
    except ImportError:
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "statfs"):
        return None
    buffer = ctypes.create_string_buffer(512)  # struct statfs is 120 bytes on 64-bit Linux
    if libc.statfs(os.fsencode(path), buffer) != 0:
        return None
    # f_type is the first field: a C long, but an unsigned int on s390x.
    kind = ctypes.c_uint if os.uname().machine == "s390x" else ctypes.c_ulong
    magic = kind.from_buffer(buffer).value & 0xFFFFFFFF
    return _REMOTE.get(magic)
