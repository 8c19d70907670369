"""The work tree compared with a commit's tree, without ``git status``.

``git status`` runs what the repository's config names (filter drivers on every file
whose stat changed) and costs a process per call. Here the comparison is ours:

- a tracked file is ``lstat``-ed; its blob id (``blob <len>\\0<content>``, SHA-1 or
  SHA-256) is computed by streaming it, once per stat (size, mtime, inode, ctime), so an
  unchanged file is never read again; it is overlaid when the id differs from the tree's;
- the untracked, non-ignored files come from ``git ls-files --cached --others
  --exclude-standard`` (with every driver neutralised, ``anchors/gitcommand.py``), run
  again only when a directory of the work tree, a ``.gitignore``, ``info/exclude`` or the
  index changed (their mtimes are watched; ignored directories are not walked);
- an untracked file is hashed only if the fingerprint parses it (Python, manifests,
  ``.env.example``, text searched for mentions) and it is under that kind's size cap;
  any other one gets a stat-derived id (``stat-...``) and is never read.

A stat that is too recent to be trusted (within 100 ms of now, 2 s on a file system
keeping whole seconds: a write in the same timestamp tick would not change it) is used
but not cached, as git does with racy entries; such a file is checked again on every
call until its stat can be cached. Content is never kept here: the fingerprint reads
what it parses.

On Linux, inotify (``anchors/watcher.py``, adr/0018) watches the directories the listing
walks, the index and ``info/exclude``. A call then looks only at what the events since
the last call name (plus racy files, and files no watch covers): with none, the last
answer stands and no file is ``lstat``-ed. A call looks at every file's stat as above
when HEAD moved, when events were lost, and every ``AUDIT_S`` seconds (for what inotify
cannot see: a write through ``mmap``, or through a hard link from an unwatched
directory). Wherever inotify is not available (another system, a Python without
``ctypes``, the watch limit, a network file system), every call is the full pass.

git waits forever on a FIFO it reads (``open`` without ``O_NONBLOCK``), so ``ls-files``
is never handed one this module can see: not run while the index is not a regular file
(``SpecialFile``: the work tree's state is unknown); an ``info/exclude`` that is not a
regular file holds no pattern, so the listing names ``.gitignore`` and the global ignore
file itself instead of ``--exclude-standard``. A ``.gitignore`` is git's to read: when
``ls-files`` has not answered within twice its slowest answer (at least
``PATIENCE_S``), the directories it walks are searched for a ``.gitignore`` that is not
a regular file; git is stopped when one is found, and not run again while it is there.
"""

from __future__ import annotations

import operator
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

# Portable: ctypes and libc are loaded only when a watcher is armed (anchors/inotify.py).
from anchors.watcher import QUIET, Scope, Watcher, WatchLost, WatchUnavailable
from anchors.worktree_files import (
    MAX_PARSED_BYTES,
    MAX_TEXT_BYTES,
    SpecialFile,
    StatKey,
    content_limit,
    hash_fd,
    link_id,
    open_worktree_file,
    refuse_special,
    stamp,
)

__all__ = [
    "AUDIT_S",
    "MAX_PARSED_BYTES",
    "MAX_TEXT_BYTES",
    "MAX_WATCHES",
    "PATIENCE_S",
    "RACY_NS",
    "OverlayEntry",
    "WorkTree",
    "content_limit",
    "open_worktree_file",
]

# A file system keeping whole seconds (ext3, FAT, some NFS) needs 2 s; one keeping
# nanoseconds stamps from a clock that ticks every 1-10 ms: 100 ms covers it.
RACY_NS = 2_000_000_000
RACY_FINE_NS = 100_000_000
# What inotify cannot see (mmap writes, a write through a hard link elsewhere) is found by
# a full pass this often; that call costs what every call costs without the watcher.
AUDIT_S = 30.0
# Directories one work tree may watch: beyond this the lstat pass serves. The kernel's
# per-user limit (fs.inotify.max_user_watches, 8192 on older kernels) is shared with
# editors and other watchers; a watch costs the kernel about 1 KB.
MAX_WATCHES = 8192
# A watcher lost this often (its git directory moved, its descriptor failed) is not
# armed again.
_MAX_LOSSES = 3
# ls-files slower than this (and than twice its slowest answer so far) may be waiting on
# a FIFO: the directories it reads are searched for one.
PATIENCE_S = 0.5

# run_git(*args, stalled=..., patience_s=...): the keywords as GitRepository._run takes them.
RunGit = Callable[..., bytes]


@dataclass(frozen=True)
class OverlayEntry:
    """An uncommitted change: ``blob_id`` None means deleted. ``readable``: the file is
    a regular file the fingerprint may read (its kind and size are within the caps)."""

    path: str
    blob_id: str | None
    symlink: bool = False
    readable: bool = False


Change = OverlayEntry | None


@dataclass(frozen=True)
class _Listing:
    """What ``ls-files`` said, and the stats that say whether it still holds."""

    paths: tuple[str, ...]  # in the index or untracked and not ignored, sorted
    index: StatKey | None  # the index's stat: a commit or `git add` lists the files again
    watched: tuple[tuple[str, StatKey | None], ...]  # directories and ignore files
    racy: bool

    @cached_property
    def listed(self) -> frozenset[str]:
        """``paths`` as a set, made when the watcher first asks."""
        return frozenset(self.paths)


class WorkTree:
    """The uncommitted changes of the work tree at ``root`` against a commit's tree.
    ``run_git(*args)`` runs a neutralised git command there and returns its stdout.

    ``watch``: use inotify where it is available (the module's docstring); False gives
    the full pass on every call. ``max_watches`` and ``audit_s``: see ``MAX_WATCHES`` and
    ``AUDIT_S``. ``excludes_file()``: the global ignore file when it is a regular file
    (used only when ``info/exclude`` is not one). Close it to release the watcher's
    descriptor; a closed work tree still answers, by the full pass.

    ``changes`` raises ``SpecialFile`` when git would wait on a file it must read."""

    def __init__(
        self,
        root: Path,
        git_dir: Path,
        common_dir: Path,
        run_git: RunGit,
        watch: bool = True,
        max_watches: int = MAX_WATCHES,
        audit_s: float = AUDIT_S,
        excludes_file: Callable[[], Path | None] = lambda: None,
    ) -> None:
        self.root = root
        self._run_git = run_git
        self._excludes_file = excludes_file
        self._index = git_dir / "index"
        self._fixed_watch = (
            common_dir / "info" / "exclude",
            Path(os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config"))
            / "git/ignore",
        )
        self._prefix = str(root) + os.sep
        self._lock = threading.Lock()
        # path -> (lstat, (HEAD's blob id or None, sha256), the change decided on them)
        self._decided: dict[str, tuple[tuple[int, ...], tuple[str | None, bool], Change]] = {}
        self._listing: _Listing | None = None
        self._last: tuple[OverlayEntry, ...] = ()
        self._last_built: list[OverlayEntry] = []
        self.listings = 0  # times ls-files ran, for tests and the benchmark
        self.full_passes = 0  # calls that looked at every file, for tests and the benchmark
        # -- what git would wait on --
        self._slowest_s = 0.0  # the slowest ls-files answer so far
        self._pruned_seen: set[str] = set()  # the ignored directories of the last listing
        self._special: tuple[str, tuple[int, ...]] | None = None  # a .gitignore git waits on
        # -- the watcher's state (adr/0018) --
        self.max_watches = max_watches
        self.audit_s = audit_s
        self._watch = watch  # False once the watcher cannot serve here
        self._watcher: Watcher | None = None
        self._losses = 0
        self._closed = False
        self._said: set[str] = set()
        self._current: dict[str, OverlayEntry] = {}  # the last answer, by path
        self._answered: tuple[Mapping[str, str], frozenset[str], bool] | None = None
        self._unsettled: set[str] = set()  # racy: decided but not cached, checked every call
        self._unwatched: frozenset[str] = frozenset()  # listed paths no watch covers
        self._polled: tuple[tuple[str, StatKey | None], ...] = ()  # ignore files not watched
        self._audit_due = 0.0

    @property
    def watching(self) -> bool:
        """True while inotify serves the calls (tests, the benchmark)."""
        return self._watcher is not None

    def close(self) -> None:
        """Release the watcher's descriptor; later calls are full passes."""
        with self._lock:
            self._closed = True
            watcher, self._watcher = self._watcher, None
            if watcher is not None:
                watcher.close()

    def changes(
        self, tree: Mapping[str, str], skip: frozenset[str], sha256: bool
    ) -> tuple[OverlayEntry, ...]:
        """Every path whose work-tree content differs from ``tree`` (path -> blob id),
        plus untracked, non-ignored files; ``skip`` (submodules) is left out. Sorted; the
        very tuple of the last call when nothing changed."""
        with self._lock:
            now = time.time_ns()
            watcher = self._armed()
            try:
                if watcher is not None:
                    try:
                        return self._watched(watcher, tree, skip, sha256, now)
                    except WatchLost as exc:
                        self._losses += 1
                        self._disarm(str(exc), permanent=self._losses >= _MAX_LOSSES)
                    except WatchUnavailable as exc:
                        self._disarm(str(exc), permanent=True, say=not exc.expected)
                return self._full_pass(tree, skip, sha256, now, self._current_listing(now))
            except BaseException:
                # A call that failed part-way (git could not list) may have drained events
                # it did not act on: the next call lists and looks at everything.
                self._listing = None
                raise

    def _full_pass(
        self,
        tree: Mapping[str, str],
        skip: frozenset[str],
        sha256: bool,
        now: int,
        listing: _Listing,
    ) -> tuple[OverlayEntry, ...]:
        """Every tracked and listed file looked at (its stat compared with the cache)."""
        self.full_passes += 1
        changes: list[OverlayEntry] = []
        for path, head_id in tree.items():
            change = self._change(path, head_id, sha256, now)
            if change is not None:
                changes.append(change)
        for path in listing.paths:
            if path not in tree and path not in skip:
                change = self._change(path, None, sha256, now)
                if change is not None:
                    changes.append(change)
        if len(self._decided) > 2 * (len(tree) + len(listing.paths)) + 1024:
            # Files long gone (an editor's swap files): keep what can still be asked.
            keep = set(tree).union(listing.paths)
            self._decided = {p: d for p, d in self._decided.items() if p in keep}
        last = self._last_built
        if len(changes) == len(last) and all(map(operator.is_, changes, last)):
            return self._last  # every entry came from the cache, in the same order
        self._last_built = changes
        self._last = tuple(sorted(changes, key=lambda c: c.path))
        self._current = {c.path: c for c in changes}
        return self._last

    # -- the watcher ---------------------------------------------------------------------
    def _armed(self) -> Watcher | None:
        """The watcher, armed on first use; None where it cannot serve."""
        if self._watcher is not None or not self._watch or self._closed:
            return self._watcher
        outside = ((self._index, Scope.LISTING), (self._fixed_watch[0], Scope.TREE))
        try:
            self._watcher = Watcher(self.root, outside, self.max_watches)
        except WatchUnavailable as exc:
            self._disarm(str(exc), permanent=True, say=not exc.expected)
            return None
        self._listing = None  # its first call walks, watching, and is a full pass
        return self._watcher

    def _disarm(self, why: str, permanent: bool, say: bool = True) -> None:
        """Stop watching (for good when ``permanent``) and say so, once."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.close()
        self._listing = None  # listed again by the full pass's own walk
        self._watch = self._watch and not permanent
        if say:
            then = "every call looks at every file" if permanent else "watching again next call"
            self._say(f"the work tree is not watched ({why}): {then}")

    def _say(self, message: str) -> None:
        """One line on stderr, the first time only."""
        if message not in self._said:
            self._said.add(message)
            print(f"anchormem: {message}", file=sys.stderr)

    def _watched(
        self, watcher: Watcher, tree: Mapping[str, str], skip: frozenset[str], sha256: bool,
        now: int,
    ) -> tuple[OverlayEntry, ...]:  # fmt: skip
        """A call served by the watcher: the files its events name are looked at again."""
        drained = watcher.drain()
        answered, previous = self._answered, self._listing
        same = (
            answered is not None
            and answered[0] is tree  # not: HEAD moved (or its listing was made again)
            and answered[1] == skip
            and answered[2] == sha256
        )
        audit = time.monotonic() >= self._audit_due
        if (
            drained is QUIET
            and same
            and not audit
            and not self._unsettled
            and not self._unwatched
            and _unchanged(self._polled)
        ):
            return self._last  # no event, nothing racy, no audit due: the last answer stands
        scope = drained.scope if previous is not None else Scope.ALL
        if drained.overflowed:
            self._say(
                "inotify's event queue overflowed (fs.inotify.max_queued_events): a call"
                " after an overflow looks at every file"
            )
        if scope < Scope.TREE and not _unchanged(self._polled):
            scope = Scope.TREE  # the user's global ignore file, or an unwatched exclude
        fresh: set[str] = set()
        if scope >= Scope.TREE:
            listing, added = self._list_watched(watcher, now)
            self._unwatched, fresh = self._coverage(watcher, tree, listing, added)
        else:
            assert previous is not None
            listing = previous
            if (
                scope is Scope.LISTING
                or (drained.appeared and self._unknown(drained.appeared, tree, listing))
                or (audit and _stat_key(self._index) != listing.index)  # the safety net
            ):
                index = _stat_key(self._index)  # before ls-files: a later change shows
                listing = replace(listing, paths=self._listed(), index=index)
            if listing is not previous or not same:
                self._unwatched, _ = self._coverage(watcher, tree, listing, frozenset())
        self._listing = listing
        self._answered = (tree, skip, sha256)
        if scope is Scope.ALL or audit or not same:
            self._audit_due = time.monotonic() + self.audit_s
            return self._full_pass(tree, skip, sha256, now, listing)
        assert previous is not None
        fresh.update(drained.paths)
        return self._recheck(tree, skip, sha256, now, fresh, previous, listing)

    def _recheck(
        self,
        tree: Mapping[str, str],
        skip: frozenset[str],
        sha256: bool,
        now: int,
        dirty: set[str],
        previous: _Listing,
        listing: _Listing,
    ) -> tuple[OverlayEntry, ...]:
        """The last answer, with ``dirty`` (the files events named, those in directories
        watched since), the racy and unwatched files, and those the listing added or
        dropped, decided again."""
        if not dirty and not self._unsettled and not self._unwatched and listing is previous:
            return self._last  # nothing happened: no file is looked at
        dirty.update(self._unsettled, self._unwatched)
        if listing is not previous:
            dirty.update(previous.listed.symmetric_difference(listing.listed))
        current, changed = self._current, False
        for path in dirty:
            head_id = tree.get(path)
            if head_id is not None:
                change = self._change(path, head_id, sha256, now)
            elif path in listing.listed and path not in skip:
                change = self._change(path, None, sha256, now)
            else:  # ignored, or no longer there
                self._unsettled.discard(path)
                change = None
            if current.get(path) != change:
                changed = True
                if change is None:
                    del current[path]
                else:
                    current[path] = change
        if changed:
            self._last = tuple(sorted(current.values(), key=lambda c: c.path))
            self._last_built = list(self._last)  # a full pass compares against this
        return self._last

    def _unknown(self, appeared: Iterable[str], tree: Mapping[str, str], listing: _Listing) -> bool:
        """True when a file appeared that neither HEAD nor the listing knows and that is
        still there: only git can say whether it is ignored. (An editor's temporary file,
        created and gone between two calls, costs no listing.)"""
        return any(
            p not in tree and p not in listing.listed and os.path.lexists(self._prefix + p)
            for p in appeared
        )

    def _coverage(
        self,
        watcher: Watcher,
        tree: Mapping[str, str],
        listing: _Listing,
        added: frozenset[str],
    ) -> tuple[frozenset[str], set[str]]:
        """The tracked or listed paths whose directory no watch covers (under a symlink or
        a nested repository: looked at on every call), and those in directories watched
        only now (their files may have been written before the watch: looked at once)."""
        watched = watcher.watched_directories
        unwatched: list[str] = []
        fresh: set[str] = set()
        for path in (*tree, *listing.paths):
            parent = path.rpartition("/")[0]
            if parent not in watched:
                unwatched.append(path)
            elif parent in added:
                fresh.add(path)
        return frozenset(unwatched), fresh

    def _list_watched(self, watcher: Watcher, now: int) -> tuple[_Listing, frozenset[str]]:
        """The listing, as ``_list`` makes it, with the walk's directories watched before
        ``ls-files`` runs (a file created after the listing sends an event); and the
        directories watched only now."""
        fixed = [(str(p), _stat_key(p)) for p in self._fixed_watch]
        index = _stat_key(self._index)
        walked, added = watcher.sync(self._ignored_dirs())
        paths = self._listed()
        polled = {str(p) for p in watcher.polled} | {str(self._fixed_watch[1])}
        self._polled = tuple((p, key) for p, key in fixed if p in polled)
        racy = any(key is not None and _racy(key[1], now) for _, key in walked)
        return _Listing(paths, index, (*fixed, *walked), racy), added

    # -- files ---------------------------------------------------------------------------
    def _change(
        self, path: str, head_id: str | None, sha256: bool, now: int
    ) -> OverlayEntry | None:
        """The change at ``path`` against ``head_id`` (None: untracked), from the cache
        when the file's stat is the one it was decided on."""
        try:
            st = os.lstat(self._prefix + path)
        except (OSError, ValueError):
            self._unsettled.discard(path)
            return None if head_id is None else OverlayEntry(path, None)
        key = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
        cached = self._decided.get(path)
        if cached is not None and cached[0] == key and cached[1] == (head_id, sha256):
            return cached[2]
        if head_id is None:
            change = self._untracked(path, st, sha256, now)
        else:
            change = self._tracked(path, st, head_id, sha256, now)
        if _racy(st.st_mtime_ns, now):
            self._unsettled.add(path)  # a write in the same tick would not show: ask again
        else:
            self._decided[path] = (key, (head_id, sha256), change)
            self._unsettled.discard(path)
        return change

    def _tracked(
        self, path: str, st: os.stat_result, head_id: str, sha256: bool, now: int
    ) -> OverlayEntry | None:
        if stat.S_ISLNK(st.st_mode):  # exists, but its target is never read
            blob = link_id(self.root / path, sha256)
            return None if blob == head_id else OverlayEntry(path, blob, symlink=True)
        if not stat.S_ISREG(st.st_mode):
            return OverlayEntry(path, None)
        blob = self._blob_id(path, st, sha256, now) or stamp(path, _key(st))
        if blob == head_id:
            return None
        readable = st.st_size <= content_limit(path)
        return OverlayEntry(path, blob, readable=readable and not blob.startswith("stat-"))

    def _untracked(
        self, path: str, st: os.stat_result, sha256: bool, now: int
    ) -> OverlayEntry | None:
        if stat.S_ISLNK(st.st_mode):
            return OverlayEntry(path, link_id(self.root / path, sha256), symlink=True)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > content_limit(path):  # never read: huge, or not a kind we parse
            return OverlayEntry(path, stamp(path, _key(st)))
        blob = self._blob_id(path, st, sha256, now)
        if blob is None:
            return OverlayEntry(path, stamp(path, _key(st)))
        return OverlayEntry(path, blob, readable=True)

    def _blob_id(self, path: str, st: os.stat_result, sha256: bool, now: int) -> str | None:
        fd = open_worktree_file(self.root, path)
        if fd is None:
            return None
        try:
            opened = os.fstat(fd)
            blob = hash_fd(fd, opened.st_size, sha256)
        finally:
            os.close(fd)
        return blob if _key(opened) == _key(st) else None

    # -- the untracked listing ---------------------------------------------------------
    def _current_listing(self, now: int) -> _Listing:
        listing = self._listing
        if listing is not None and not listing.racy and _unchanged(listing.watched):
            index = _stat_key(self._index)
            if index == listing.index:
                return listing
            # Only the index changed (a commit, `git add`): the ignored directories did not.
            listing = replace(listing, paths=self._listed(), index=index)
        else:
            listing = self._list(now)
        self._listing = listing
        return listing

    def _listed(self) -> tuple[str, ...]:
        self.listings += 1
        out = self._ls_files("--cached", "--others")
        # Nested repositories are listed as directories ("vendor/"): never entered.
        return tuple(sorted(p for p in _paths(out) if not p.endswith("/")))

    def _ls_files(self, *args: str) -> bytes:
        """``git ls-files -z *args`` with the standard excludes, never run while a file it
        reads is one it would wait on (``SpecialFile``)."""
        refuse_special(self._index)
        if self._special is not None:
            path, key = self._special
            try:
                st = os.lstat(path)
            except OSError:
                self._special = None
            else:
                if (st.st_mode, *_key(st)) == key:
                    raise SpecialFile(path, st.st_mode)  # still there: git would wait again
                self._special = None
        start = time.monotonic()
        out: bytes = self._run_git(
            "ls-files",
            "-z",
            *args,
            *self._exclude_args(),
            stalled=self._stalled,
            patience_s=max(PATIENCE_S, 2 * self._slowest_s),
        )
        self._slowest_s = max(self._slowest_s, time.monotonic() - start)
        return out

    def _exclude_args(self) -> tuple[str, ...]:
        """``--exclude-standard``; or, when ``info/exclude`` is not a regular file (git
        would wait on a FIFO there), its two other sources named one by one."""
        try:
            refuse_special(self._fixed_watch[0])
        except SpecialFile:
            found = self._excludes_file()
            extra = () if found is None else (f"--exclude-from={found}",)
            return ("--exclude-per-directory=.gitignore", *extra)
        return ("--exclude-standard",)

    def _stalled(self) -> None:
        """``ls-files`` is slow: raise ``SpecialFile`` if it waits on a file that is not
        a regular file (kept in mind, so git is not run again while it is there)."""
        refuse_special(self._index)
        found = _special_ignore_file(self.root, self._pruned_seen)
        if found is not None:
            path, st = found
            self._special = (path, (st.st_mode, *_key(st)))
            raise SpecialFile(path, st.st_mode)

    def _list(self, now: int) -> _Listing:
        index = _stat_key(self._index)
        paths = self._listed()
        walked = self._walk(self._ignored_dirs())
        # A directory or .gitignore changed again within its timestamp tick would look
        # unchanged: list again next time. (The index is replaced by a rename: a new inode.)
        racy = any(key is not None and _racy(key[1], now) for _, key in walked)
        watched = [(str(p), _stat_key(p)) for p in self._fixed_watch]
        return _Listing(paths, index, (*watched, *walked), racy)

    def _ignored(self) -> list[str]:
        """Ignored files and directories (``d/``), for the walk to leave out."""
        return _paths(self._ls_files("--others", "--ignored", "--directory"))

    def _ignored_dirs(self) -> set[str]:
        """The ignored directories the walk never enters (``_pruned``), kept for the search
        of a stalled ``ls-files``."""
        self._pruned_seen = _pruned(self._ignored())
        return self._pruned_seen

    def _walk(self, pruned: set[str]) -> list[tuple[str, StatKey | None]]:
        """Every directory that is not ignored (and not a nested repository), and every
        ``.gitignore`` in them, with their stats. Links are never followed."""
        return [(path, _stat_key(Path(path))) for path, _ in _walked(self.root, pruned)]


def _walked(root: Path, pruned: set[str]) -> Iterator[tuple[str, os.DirEntry[str] | None]]:
    """The directories git reads ignore rules in, each as ``(path, None)``, and each
    ``.gitignore`` there as ``(path, entry)``: ``pruned`` (the ignored directories),
    nested repositories and ``.git`` left out, links never followed, nothing opened."""
    todo = [""]
    while todo:
        rel = todo.pop()
        absolute = os.path.join(root, rel) if rel else str(root)
        yield absolute, None
        try:
            entries = list(os.scandir(absolute))
        except OSError:
            continue
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            if entry.name == ".gitignore":
                yield entry.path, entry
                continue
            try:
                if (
                    entry.is_dir(follow_symlinks=False)
                    and entry.name != ".git"
                    and child not in pruned
                    and not os.path.lexists(os.path.join(entry.path, ".git"))
                ):
                    todo.append(child)
            except OSError:
                continue


def _special_ignore_file(root: Path, pruned: set[str]) -> tuple[str, os.stat_result] | None:
    """A ``.gitignore`` git would read that is not a regular file (nor a link to one),
    with its ``lstat``. Nothing is opened."""
    for path, entry in _walked(root, pruned):
        if entry is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                refuse_special(path)  # its target: a git of old follows it
            elif not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                return path, st
        except SpecialFile:
            return path, entry.stat(follow_symlinks=False)
        except OSError:
            continue
    return None


def _pruned(ignored: list[str]) -> set[str]:
    """The ignored directories the walk never enters. "d/" with nothing listed under it
    is an ignored directory; "d/" listed beside its own ignored files is a directory
    holding only ignored files: walked."""
    holding: set[str] = set()  # every directory above an ignored file listed
    for p in ignored:
        while not p.endswith("/") and "/" in p:
            p = p.rpartition("/")[0]
            holding.add(p)
    return {p[:-1] for p in ignored if p.endswith("/")} - holding


def _racy(mtime_ns: int, now: int) -> bool:
    """Too recent to be trusted: a change within the same timestamp tick would not show."""
    window = RACY_NS if mtime_ns % 1_000_000_000 == 0 else RACY_FINE_NS
    return now - mtime_ns <= window


def _key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _stat_key(path: Path) -> StatKey | None:
    try:
        return _key(os.stat(path, follow_symlinks=False))
    except OSError:
        return None


def _unchanged(watched: tuple[tuple[str, StatKey | None], ...]) -> bool:
    for path, key in watched:
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            if key is not None:
                return False
            continue
        if key != (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns):
            return False
    return True


def _paths(out: bytes) -> list[str]:
    return [r.decode("utf-8", errors="surrogateescape") for r in out.split(b"\0") if r]
