"""What changed in the work tree since the last look, told by inotify (adr/0018).

``WorkTree`` (``anchors/worktree.py``) asks on every call; with nothing queued, its last
answer stands and no file is looked at. The watches:

- every directory the untracked listing walks (not ignored, never ``.git`` nor a nested
  repository, never through a symlink): each is opened with ``O_NOFOLLOW`` relative to
  its parent, watched through its descriptor, then scanned, so a directory or file
  created after its scan sends an event, and one created before is in the scan;
- the directories of the index and of ``info/exclude`` (events filtered by name).

An event queued before a call starts is read by that call: the kernel queues it during
the write, rename or unlink itself. What inotify does not see (writes through ``mmap``, or
through a hard link in an unwatched directory; changes made by another host on a network
file system) is caught by ``WorkTree``'s periodic full pass; a network file system is not
watched at all. The platform code is ``anchors/inotify.py``; this module decides what an
event means.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from anchors import inotify as ino

__all__ = ["QUIET", "Drained", "Scope", "WatchLost", "WatchUnavailable", "Watcher"]

StatKey = tuple[int, int, int, int]  # as anchors.worktree: size, mtime_ns, inode, ctime_ns

_FILE_EVENTS = (
    ino.IN_MODIFY
    | ino.IN_ATTRIB
    | ino.IN_CLOSE_WRITE
    | ino.IN_CREATE
    | ino.IN_DELETE
    | ino.IN_MOVED_FROM
    | ino.IN_MOVED_TO
)
_GIT_MASK = _FILE_EVENTS | ino.IN_DELETE_SELF | ino.IN_MOVE_SELF | ino.IN_ONLYDIR
# IN_EXCL_UNLINK: writes to a file already unlinked (an editor's deleted swap file) are
# not reported. No IN_DONT_FOLLOW: the watch is added through /proc/self/fd, a link.
_DIR_MASK = _GIT_MASK | ino.IN_EXCL_UNLINK
_APPEARS = ino.IN_CREATE | ino.IN_MOVED_TO
_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
# Events read in one call at most; past this, a full pass is cheaper than reading on.
_MOST_EVENTS = 1 << 16
# A directory that vanished or became a link between its parent's scan and its open: the
# parent's watch reports that change, and the next call walks again.
_GONE = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)
# A directory this user may not read: git cannot list it either, and a tracked file
# under it is looked at on every call, as no watch covers it.
_UNREADABLE = (errno.EACCES, errno.EPERM)


class Scope(IntEnum):
    """What a call must look at again, from the least to the most."""

    PATHS = 0  # only the files events named
    LISTING = 1  # and the untracked listing (`git ls-files`): the index changed, a file came
    TREE = 2  # and the ignored directories, the walk and its watches: directories or ignores
    ALL = 3  # and every file: events were lost, or files moved without being named


@dataclass(frozen=True)
class Drained:
    """The events since the last drain: ``paths`` (relative, ``/``-separated) were written,
    created, removed or renamed; ``appeared`` are those among them that were created or
    moved in (the listing must say whether they are ignored); ``overflowed``: the
    kernel's queue was full and events were dropped (``scope`` is then ALL)."""

    scope: Scope
    paths: frozenset[str]
    appeared: frozenset[str]
    overflowed: bool = False


QUIET = Drained(Scope.PATHS, frozenset(), frozenset())  # what a drain with no event returns


class WatchUnavailable(Exception):
    """The watcher cannot cover this work tree (no inotify, the watch limit, a network
    file system, a directory it may not read): the lstat pass serves instead.
    ``expected``: the system has no inotify at all, which is not worth a word."""

    def __init__(self, message: str, expected: bool = False) -> None:
        super().__init__(message)
        self.expected = expected


class WatchLost(Exception):
    """The watches no longer cover what decides the listing (the git directory moved, the
    descriptor failed): a full pass now, and a new watcher next time."""


class Watcher:
    """The inotify watches of one work tree. ``outside`` names files beyond the work tree
    (the index, ``info/exclude``) with the scope a change of each means; their directories
    are watched when they exist, and ``polled`` lists those that could not be, for the
    caller to ``stat``. ``max_watches`` bounds the work tree's watched directories."""

    def __init__(
        self, root: Path, outside: tuple[tuple[Path, Scope], ...], max_watches: int
    ) -> None:
        self.root = root
        self.max_watches = max_watches
        try:
            self._inotify = ino.Inotify()
        except OSError as exc:
            raise WatchUnavailable(
                f"inotify is not available: {exc.strerror or exc}",
                expected=exc.errno == errno.ENOSYS,  # another system: nothing to say
            ) from exc
        remote = ino.remote_file_system(str(root))
        if remote is not None:
            self._inotify.close()
            raise WatchUnavailable(
                f"{root} is on a network file system ({remote}): changes made elsewhere send"
                " no inotify event"
            )
        self._dirs: dict[int, str] = {}  # wd -> the work-tree directory, relative ("" root)
        self._named: dict[int, dict[str, Scope]] = {}  # wd -> file name -> its scope
        polled: list[Path] = []
        try:
            for path, scope in outside:
                try:
                    wd = self._inotify.watch_path(str(path.parent), _GIT_MASK)
                except OSError as exc:
                    if exc.errno not in _GONE:
                        raise
                    polled.append(path)  # no such directory yet: its file is stat-ed
                    continue
                self._named.setdefault(wd, {})[path.name] = scope
        except OSError as exc:
            self.close()
            raise WatchUnavailable(_why(exc, exc.filename or "")) from exc
        self.polled = tuple(polled)

    @property
    def watched_directories(self) -> frozenset[str]:
        """The work-tree directories watched now, relative ("" is the root)."""
        return frozenset(self._dirs.values())

    def close(self) -> None:
        """Close the inotify descriptor (every watch goes with it)."""
        self._inotify.close()
        self._dirs.clear()

    # -- the walk ------------------------------------------------------------------------
    def sync(self, pruned: set[str]) -> tuple[list[tuple[str, StatKey | None]], frozenset[str]]:
        """Watch every directory of the work tree the listing walks (``pruned``: ignored
        directories, relative) and drop the watches of those it no longer walks. Returns
        what ``WorkTree._walk`` returns (each directory and ``.gitignore`` with its stat)
        and the directories watched only now (a new watch: made, or made again, since)."""
        found: list[tuple[str, StatKey | None]] = []
        dirs: dict[int, str] = {}
        stack: list[tuple[str, int, Iterator[str]]] = []
        try:
            try:
                root_fd = os.open(self.root, _DIR_FLAGS)
            except OSError as exc:
                raise WatchLost(f"cannot open the work tree: {exc}") from exc
            self._enter("", root_fd, pruned, dirs, found, stack)
            while stack:
                rel, fd, names = stack[-1]
                name = next(names, None)
                if name is None:
                    stack.pop()
                    os.close(fd)
                    continue
                child_rel = f"{rel}/{name}" if rel else name
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in _GONE or exc.errno in _UNREADABLE:
                        continue
                    raise WatchUnavailable(f"cannot open {child_rel}/: {exc.strerror}") from exc
                try:  # a nested repository is never entered
                    os.stat(".git", dir_fd=child, follow_symlinks=False)
                except OSError:
                    self._enter(child_rel, child, pruned, dirs, found, stack)
                else:
                    os.close(child)
        finally:
            for _, fd, _ in stack:
                os.close(fd)
        for wd in self._dirs.keys() - dirs.keys():
            self._inotify.unwatch(wd)  # no longer walked; its queued events are dropped
        added = frozenset(rel for wd, rel in dirs.items() if wd not in self._dirs)
        self._dirs = dirs
        return found, added

    def _enter(
        self,
        rel: str,
        fd: int,
        pruned: set[str],
        dirs: dict[int, str],
        found: list[tuple[str, StatKey | None]],
        stack: list[tuple[str, int, Iterator[str]]],
    ) -> None:
        """Watch the open directory ``rel``, then scan it (in this order: see the module's
        docstring); its subdirectories to walk go on ``stack`` with its descriptor."""
        stack.append((rel, fd, iter(())))  # closed by sync's finally if anything fails
        if len(dirs) >= self.max_watches:
            raise WatchUnavailable(
                f"the work tree has more than {self.max_watches} directories to watch"
            )
        try:
            wd = self._inotify.watch_fd(fd, _DIR_MASK)
        except OSError as exc:
            if rel and exc.errno in _UNREADABLE:
                stack.pop()
                os.close(fd)
                return
            raise WatchUnavailable(_why(exc, f"{rel or '.'}/")) from exc
        dirs[wd] = rel
        absolute = str(self.root / rel) if rel else str(self.root)
        found.append((absolute, _key(os.fstat(fd))))
        names: list[str] = []
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    child = f"{rel}/{entry.name}" if rel else entry.name
                    try:
                        if entry.name == ".gitignore":
                            key = _key(entry.stat(follow_symlinks=False))
                            found.append((os.path.join(absolute, entry.name), key))
                        elif (
                            entry.is_dir(follow_symlinks=False)
                            and entry.name != ".git"
                            and child not in pruned
                        ):
                            names.append(entry.name)
                    except OSError:
                        continue
        except OSError as exc:
            if not rel:
                raise WatchUnavailable(f"cannot read the work tree: {exc.strerror}") from exc
            names = []  # watched, but what is under it is looked at on every call
        stack[-1] = (rel, fd, iter(names))

    # -- events --------------------------------------------------------------------------
    def drain(self) -> Drained:
        """Every event queued since the last drain, as what must be looked at again."""
        try:
            events = self._inotify.events(_MOST_EVENTS)
        except OSError as exc:
            raise WatchLost(f"reading inotify events failed: {exc}") from exc
        if not events:
            return QUIET
        scope = Scope.PATHS
        paths: set[str] = set()
        appeared: set[str] = set()
        overflowed = False
        if len(events) >= _MOST_EVENTS:
            # More may be queued: a full pass now covers them, and those left unread name
            # paths to look at again next time.
            scope = Scope.ALL
        for event in events:
            mask = event.mask
            if mask & ino.IN_Q_OVERFLOW:
                scope, overflowed = Scope.ALL, True  # the kernel's queue was full
                continue
            rel = self._dirs.get(event.wd)
            if rel is None:
                named = self._named.get(event.wd)
                if named is None:
                    continue  # a watch removed by sync: its last events
                if mask & (ino.IN_IGNORED | ino.IN_DELETE_SELF | ino.IN_MOVE_SELF):
                    raise WatchLost("the directory of the index or of info/exclude moved")
                if event.name in named:
                    scope = max(scope, named[event.name])
                continue
            if mask & (ino.IN_MOVE_SELF | ino.IN_UNMOUNT):
                scope = Scope.ALL  # a directory moved: its files moved with no event each
                continue
            if mask & (ino.IN_IGNORED | ino.IN_DELETE_SELF):
                if mask & ino.IN_IGNORED:
                    del self._dirs[event.wd]
                scope = max(scope, Scope.ALL if rel == "" else Scope.TREE)
                continue
            if not event.name:
                continue  # the directory's own attributes
            if mask & ino.IN_ISDIR:
                moved = mask & (ino.IN_MOVED_FROM | ino.IN_MOVED_TO)
                scope = max(scope, Scope.ALL if moved else Scope.TREE)
                continue
            path = f"{rel}/{event.name}" if rel else event.name
            paths.add(path)
            if event.name == ".gitignore":
                scope = max(scope, Scope.TREE)
            elif mask & _APPEARS:
                appeared.add(path)
        return Drained(scope, frozenset(paths), frozenset(appeared), overflowed)


def _key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _why(exc: OSError, where: str) -> str:
    """One sentence for a failed ``inotify_add_watch`` on ``where``."""
    if exc.errno in (errno.ENOSPC, errno.ENOMEM):
        return f"the inotify watch limit (fs.inotify.max_user_watches) is reached at {where}"
    return f"{where} cannot be watched: {exc.strerror or exc}"
