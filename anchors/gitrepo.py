"""A thin layer over one git repository: HEAD, tree listings, blobs, uncommitted edits.

HEAD is resolved by reading ``.git/HEAD``, loose refs and ``packed-refs`` directly (15-70 µs,
against 2-4 ms for a ``git rev-parse`` subprocess), so it can be re-resolved on every read.
Trees come from ``git ls-tree`` (21 ms on Django, against 530 ms for GitPython's traversal);
blobs from one long-lived ``git cat-file --batch`` process. Unusual repositories give a
typed ``RepoStatus``, never a crash. Every git subprocess runs without optional locks or
prompts, and takes no caller-supplied text as an argument.

No file that is not a regular file is read (``anchors/worktree_files.py``): a FIFO at
``HEAD``, a ref or ``packed-refs`` makes HEAD a ``GIT_ERROR`` naming it, and git is not
run while a file it reads first (``HEAD``, the config files, the index for ``ls-files``)
is one it would wait on. A special ``core.excludesFile`` is replaced by the null device.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import IO

from anchors.errors import CodeError
from anchors.gitcommand import GIT_TIMEOUT_S, DriverOverrides, driver_overrides, git_environment
from anchors.worktree import (
    MAX_PARSED_BYTES,
    OverlayEntry,
    WorkTree,
    open_worktree_file,
)
from anchors.worktree_files import SpecialFile, read_regular, refuse_special

__all__ = [
    "GitError",
    "GitRepository",
    "HeadInfo",
    "Overlay",
    "OverlayEntry",
    "RepoStatus",
    "TreeListing",
    "find_repository_root",
    "git_blob_id",
]

MAX_WORKTREE_FILE_BYTES = MAX_PARSED_BYTES
_TREES_KEPT = 4
# No commit, no files: one object, as the work tree tells trees apart by identity.
_NO_BLOBS: Mapping[str, str] = MappingProxyType({})
_HEX = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
# One record of ``git ls-tree -r -z``: "<mode> <type> <object id>\t<path>\0"
_TREE_RECORD = re.compile(rb"([0-7]+) [a-z]+ ([0-9a-f]+)\t([^\0]*)\0")
# Requests written to cat-file before reading answers: well under a pipe buffer (64 KiB),
# so writing a chunk never blocks while git waits for us to drain its output.
_BATCH_CHUNK = 256


class RepoStatus(StrEnum):
    OK = "ok"
    NOT_A_REPOSITORY = "not_a_repository"
    NO_COMMITS = "no_commits"
    NO_GIT_BINARY = "no_git_binary"
    UNSAFE_OWNERSHIP = "unsafe_ownership"
    GIT_ERROR = "git_error"


class GitError(CodeError):
    """A git command failed; ``status`` says whether the repository can be used at all."""

    def __init__(self, message: str, status: RepoStatus = RepoStatus.GIT_ERROR) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class HeadInfo:
    """What HEAD is now. ``commit`` is None unless ``status`` is OK; ``ref`` is the branch
    (``refs/heads/main``) unless HEAD is detached. The flags describe repositories that are
    unusual but still verify."""

    status: RepoStatus
    commit: str | None = None
    ref: str | None = None
    detached: bool = False
    shallow: bool = False
    worktree: bool = False
    has_submodules: bool = False
    detail: str = ""


@dataclass(frozen=True)
class TreeListing:
    """A commit's files: ``blobs`` maps path to blob id for regular files and symlinks."""

    commit: str
    blobs: dict[str, str]
    symlinks: frozenset[str]
    submodules: tuple[str, ...]


@dataclass(frozen=True)
class Overlay:
    key: str
    entries: tuple[OverlayEntry, ...]


def _stat_keys(paths: Sequence[str]) -> tuple[tuple[int, int, int, int] | None, ...]:
    """Modification and change times, size and inode of each path (``None``: missing),
    to tell whether a file was replaced or rewritten since it was read."""
    keys: list[tuple[int, int, int, int] | None] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            keys.append(None)
        else:
            keys.append((st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino))
    return tuple(keys)


def find_repository_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding a ``.git`` directory or file."""
    current = start.resolve()
    for candidate in (current, *current.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def git_blob_id(content: bytes, sha256: bool = False) -> str:
    """The id git gives a blob with ``content``, so work-tree files share cached facts."""
    digest = hashlib.sha256() if sha256 else hashlib.sha1(usedforsecurity=False)
    digest.update(b"blob %d\0" % len(content))
    digest.update(content)
    return digest.hexdigest()


class GitRepository:
    """One repository, found from ``start`` by walking up; see ``status`` before use.

    ``head_ttl`` seconds lets ``head()`` reuse its last answer (0: re-resolve every call).
    ``watch``: the overlay follows the work tree with inotify where it can (adr/0018);
    False looks at every file on every call. Call ``close()`` (or use ``with``) to stop
    the ``git cat-file`` process and release the watcher.
    """

    def __init__(self, start: Path, head_ttl: float = 0.0, watch: bool = True) -> None:
        self.head_ttl = head_ttl
        self.watch = watch
        self.root = find_repository_root(start) or start.resolve()
        self.git_dir = self.common_dir = self.root / ".git"
        self.status, self.detail = RepoStatus.OK, ""
        self._env = git_environment()  # the fixed overrides only: see _git_env()
        self._drivers: tuple[tuple[int, ...], DriverOverrides] | None = None
        self._trees: dict[str, TreeListing] = {}
        self._work_tree: WorkTree | None = None
        # The work tree's last answer and the overlay made of it, replaced as one (threads).
        self._last_overlay: tuple[tuple[OverlayEntry, ...], Overlay] | None = None
        self._lock = threading.RLock()
        self._cat_file: subprocess.Popen[bytes] | None = None
        self._head_cache: tuple[float, HeadInfo] | None = None
        # The last resolution: the paths it read, their stat keys, and what it found.
        self._head_seen: (
            tuple[tuple[str, ...], tuple[tuple[int, int, int, int] | None, ...], HeadInfo] | None
        ) = None
        self._packed: tuple[tuple[int, int, int], dict[str, str]] | None = None
        self._reftable = False
        self._closed = False
        try:
            self._locate()
        except GitError as exc:  # git vanished between the PATH lookup and the run
            self._fail(exc.status, str(exc))
        except (OSError, ValueError) as exc:  # an unreadable .git, a NUL in a gitdir link
            self._fail(RepoStatus.NOT_A_REPOSITORY, f"cannot read {self.root / '.git'}: {exc}")

    # -- opening -----------------------------------------------------------------------
    def _locate(self) -> None:
        dot_git = self.root / ".git"
        if not os.path.lexists(dot_git):
            self._fail(RepoStatus.NOT_A_REPOSITORY, f"no .git at or above {self.root}")
            return
        if dot_git.is_file():  # linked worktree or submodule checkout: "gitdir: <path>"
            text = read_regular(dot_git).decode(errors="replace").strip()
            if not text.startswith("gitdir:"):
                self._fail(RepoStatus.NOT_A_REPOSITORY, f"{dot_git} is not a gitdir link")
                return
            self.git_dir = (self.root / text[len("gitdir:") :].strip()).resolve()
        common = self.git_dir / "commondir"
        if common.is_file():
            self.common_dir = (self.git_dir / read_regular(common).decode().strip()).resolve()
        else:
            self.common_dir = self.git_dir
        if not (self.git_dir / "HEAD").is_file():
            self._fail(RepoStatus.NOT_A_REPOSITORY, f"{self.git_dir} has no HEAD")
            return
        # reftable repositories have no loose refs to read: ask git instead.
        self._reftable = (self.common_dir / "reftable").is_dir()
        if shutil.which("git", path=self._env.get("PATH")) is None:
            self._fail(RepoStatus.NO_GIT_BINARY, "the git executable is not on PATH")
            return
        # One subprocess at open: git itself refuses repositories owned by another user.
        done = self._run("rev-parse", "--git-dir", check=False)
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip() or "git rev-parse failed"
            self._fail(_status_of(message), message.splitlines()[0])

    def _fail(self, status: RepoStatus, detail: str) -> None:
        self.status, self.detail = status, detail

    def __enter__(self) -> GitRepository:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the ``cat-file`` process and the work tree's watcher; the repository can
        still answer ``head()``."""
        with self._lock:
            self._closed = True
            self._stop_cat_file()
            work_tree = self._work_tree
        if work_tree is not None:
            work_tree.close()

    # -- HEAD ----------------------------------------------------------------------------
    def head(self) -> HeadInfo:
        """Resolve HEAD from the ref files (cached for ``head_ttl`` seconds)."""
        if self.status is not RepoStatus.OK:
            return HeadInfo(self.status, detail=self.detail)
        now = time.monotonic()
        cached = self._head_cache
        if cached is not None and self.head_ttl > 0 and now - cached[0] < self.head_ttl:
            return cached[1]
        seen = self._head_seen
        if seen is not None and _stat_keys(seen[0]) == seen[1]:
            info = seen[2]  # none of the files it was read from changed since
        else:
            read: list[str] = []
            info = self._resolve_head(read)
            if not self._reftable:  # read from files: valid while they are unchanged
                keys = _stat_keys(read)
                self._head_seen = (tuple(read), keys, info) if keys[0] is not None else None
        self._head_cache = (now, info)
        return info

    def _resolve_head(self, read: list[str]) -> HeadInfo:
        """HEAD from the ref files; ``read``: every path looked at, for ``head``'s check
        that none has changed (each is replaced, not rewritten, when git moves a ref)."""
        shallow, gitmodules = self.common_dir / "shallow", self.root / ".gitmodules"
        read += [str(self.git_dir / "HEAD"), str(shallow), str(gitmodules)]
        base = HeadInfo(
            RepoStatus.OK,
            shallow=shallow.exists(),
            worktree=self.git_dir != self.common_dir,
            has_submodules=os.path.lexists(gitmodules),
        )
        if self._reftable:
            return self._head_via_git(base)
        try:
            content = read_regular(self.git_dir / "HEAD").decode(errors="replace").strip()
        except OSError as exc:
            return replace(base, status=RepoStatus.GIT_ERROR, detail=f"cannot read HEAD: {exc}")
        if not content.startswith("ref:"):
            if _HEX.match(content):
                return replace(base, commit=content, detached=True)
            return replace(base, status=RepoStatus.GIT_ERROR, detail="HEAD is malformed")
        branch = ref = content[4:].strip()
        for _ in range(5):  # symbolic refs may point at symbolic refs; git stops at 5
            try:
                value = self._read_ref(ref, read)
            except OSError as exc:  # a FIFO, a file this user may not read
                detail = f"cannot read {ref}: {exc}"
                return replace(base, status=RepoStatus.GIT_ERROR, ref=branch, detail=detail)
            if value is None:
                detail = f"{branch} has no commits yet"
                return replace(base, status=RepoStatus.NO_COMMITS, ref=branch, detail=detail)
            if not value.startswith("ref:"):
                if _HEX.match(value):
                    return replace(base, commit=value, ref=branch)
                break
            ref = value[4:].strip()
        detail = f"cannot resolve {branch}"
        return replace(base, status=RepoStatus.GIT_ERROR, ref=branch, detail=detail)

    def _read_ref(self, ref: str, read: list[str]) -> str | None:
        parts = ref.split("/")
        if parts[0] != "refs" or any(p in ("", ".", "..") for p in parts):
            return None  # never read a file outside the refs namespace
        # Per-worktree refs live in the worktree's git dir, shared ones in the common dir.
        base = self.git_dir if parts[1:2] in (["bisect"], ["worktree"]) else self.common_dir
        # A loose ref shadows the packed one: both are looked at (a missing file too, so
        # that its creation is seen).
        read += [str(base / ref), str(self.common_dir / "packed-refs")]
        try:
            return read_regular(base / ref).decode(errors="replace").strip()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return self._packed_refs().get(ref)

    def _packed_refs(self) -> dict[str, str]:
        path = self.common_dir / "packed-refs"
        try:
            st = path.stat()
        except FileNotFoundError:
            return {}
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        if self._packed is not None and self._packed[0] == key:
            return self._packed[1]
        refs: dict[str, str] = {}
        for line in read_regular(path).decode(errors="replace").splitlines():
            if line and line[0] not in "#^":
                sha, _, name = line.partition(" ")
                refs[name.strip()] = sha
        self._packed = (key, refs)
        return refs

    def _head_via_git(self, base: HeadInfo) -> HeadInfo:
        done = self._run("rev-parse", "--verify", "-q", "HEAD", check=False)
        if done.returncode != 0:
            return replace(base, status=RepoStatus.NO_COMMITS, detail="HEAD has no commits yet")
        ref = self._run("symbolic-ref", "-q", "HEAD", check=False).stdout.decode().strip()
        return replace(base, commit=done.stdout.decode().strip(), ref=ref or None, detached=not ref)

    def is_ancestor(self, older: str, newer: str) -> bool | None:
        """``older`` is ``newer`` or an ancestor of it; None when git does not know one of
        them here (a commit of another clone, not fetched)."""
        older, newer = _checked_object_id(older), _checked_object_id(newer)
        done = self._run("merge-base", "--is-ancestor", older, newer, check=False)
        return {0: True, 1: False}.get(done.returncode)

    def first_commit(self) -> str | None:
        """The repository's first commit (the smallest id among its root commits): the same
        in every clone of it, whatever its path (a shared store's project, store/pg)."""
        done = self._run("rev-list", "--max-parents=0", "HEAD", "--", check=False)
        roots = sorted(done.stdout.decode().split()) if done.returncode == 0 else []
        return roots[0] if roots else None

    # -- trees and blobs -----------------------------------------------------------------
    def ls_tree(self, commit: str) -> TreeListing:
        """Every file of ``commit``. Submodules (mode 160000) are left out; symlinks (120000)
        are listed, and named in ``symlinks`` so nobody parses or follows them."""
        commit = _checked_object_id(commit)
        out = self._run("ls-tree", "-r", "-z", "--full-tree", commit).stdout
        blobs: dict[str, str] = {}
        symlinks: set[str] = set()
        submodules: list[str] = []
        for mode, raw_id, raw_path in _TREE_RECORD.findall(out):
            object_id = raw_id.decode()
            path = raw_path.decode("utf-8", errors="surrogateescape")
            if mode == b"160000":
                submodules.append(path)
                continue
            if mode == b"120000":
                symlinks.add(path)
            blobs[path] = object_id
        listing = TreeListing(commit, blobs, frozenset(symlinks), tuple(submodules))
        with self._lock:  # the overlay compares the work tree with the listing of HEAD
            self._trees[commit] = listing
            while len(self._trees) > _TREES_KEPT:
                del self._trees[next(iter(self._trees))]
        return listing

    def read_blobs(self, blob_ids: Sequence[str]) -> dict[str, bytes]:
        """Contents of many objects through the one ``cat-file --batch`` process."""
        return self._cat_file_many([_checked_object_id(b) for b in blob_ids])

    def _cat_file_many(self, requests: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        with self._lock:
            if self._closed:
                raise GitError("the repository is closed")
            for start in range(0, len(requests), _BATCH_CHUNK):
                chunk = requests[start : start + _BATCH_CHUNK]
                process = self._cat_file_process()
                assert process.stdin is not None and process.stdout is not None
                try:
                    lines = "".join(f"{r}\n" for r in chunk)
                    process.stdin.write(lines.encode(errors="surrogateescape"))
                    process.stdin.flush()
                    for request in chunk:
                        data = _read_batch_answer(process.stdout)
                        if data is not None:
                            found[request] = data
                except (OSError, ValueError) as exc:
                    self._stop_cat_file()  # out of step with git: start afresh next time
                    raise GitError(f"git cat-file failed: {exc}") from exc
        return found

    def _cat_file_process(self) -> subprocess.Popen[bytes]:
        process = self._cat_file
        if process is None or process.poll() is not None:
            process = self._cat_file = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=self.root,
                env=self._git_env(),
            )
        return process

    def _stop_cat_file(self) -> None:
        process, self._cat_file = self._cat_file, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        try:
            process.wait(timeout=2)  # git exits when its stdin closes
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    # -- work tree -----------------------------------------------------------------------
    def overlay(self, sha256: bool = False, commit: str | None = None) -> Overlay:
        """Uncommitted edits against ``commit`` (HEAD by default): modified tracked files
        and untracked, non-ignored files, deleted files with ``blob_id`` None. ``key`` is ""
        when the work tree is clean, else a hash of the (path, content id) pairs. Computed
        without ``git status`` (``anchors/worktree.py``); no content is read here beyond
        hashing, and a file the fingerprint never parses is not even hashed."""
        if commit is None:
            commit = self.head().commit
        tree = self._tree(commit) if commit is not None else None
        blobs = tree.blobs if tree is not None else _NO_BLOBS
        skip = frozenset(tree.submodules) if tree is not None else frozenset()
        try:
            changes = self._worktree().changes(blobs, skip, sha256)
        except SpecialFile as exc:  # git would wait on it: what the work tree holds is unknown
            raise GitError(f"cannot list the work tree: {exc}") from exc
        if not changes:
            return Overlay("", ())
        last = self._last_overlay
        if last is not None and last[0] is changes:
            return last[1]  # the very answer of the last call: nothing changed
        entries = tuple(
            OverlayEntry(c.path, c.blob_id, symlink=c.symlink, readable=c.readable) for c in changes
        )
        digest = hashlib.blake2b(digest_size=16)
        for entry in entries:
            digest.update(f"{entry.path}\0{entry.blob_id or ''}\n".encode(errors="surrogateescape"))
        overlay = Overlay(digest.hexdigest(), entries)
        self._last_overlay = (changes, overlay)
        return overlay

    @property
    def overlay_listings(self) -> int:
        """How often the untracked files were listed with git (tests, the benchmark)."""
        return self._work_tree.listings if self._work_tree is not None else 0

    @property
    def overlay_full_passes(self) -> int:
        """Overlays that looked at every file (tests, the benchmark)."""
        return self._work_tree.full_passes if self._work_tree is not None else 0

    @property
    def overlay_watched(self) -> bool:
        """True while the overlay follows the work tree with inotify (tests, benchmark)."""
        return self._work_tree is not None and self._work_tree.watching

    def _worktree(self) -> WorkTree:
        with self._lock:
            if self._work_tree is None:
                self._work_tree = WorkTree(
                    self.root,
                    self.git_dir,
                    self.common_dir,
                    lambda *a, **kw: self._run(*a, **kw).stdout,
                    watch=self.watch and not self._closed,  # nothing to release after close
                    excludes_file=self._usable_excludes_file,
                )
            return self._work_tree

    def _tree(self, commit: str) -> TreeListing:
        with self._lock:
            found = self._trees.get(commit)
        return found if found is not None else self.ls_tree(commit)

    def read_worktree_file(self, path: str, limit: int = MAX_WORKTREE_FILE_BYTES) -> bytes | None:
        """A regular file under the root of at most ``limit`` bytes, or None. Every
        directory on the way is opened with O_NOFOLLOW relative to its parent, so neither
        the file nor any parent can be a symlink, and nothing outside the root is read."""
        fd = open_worktree_file(self.root, path)
        if fd is None:
            return None
        try:
            if os.fstat(fd).st_size > limit:
                return None
            with os.fdopen(os.dup(fd), "rb") as handle:
                data = handle.read(limit + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        return data if len(data) <= limit else None

    # -- subprocesses --------------------------------------------------------------------
    def _run(
        self,
        *args: str,
        check: bool = True,
        stalled: Callable[[], None] | None = None,
        patience_s: float = GIT_TIMEOUT_S,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git *args`` in the work tree, bounded by ``GIT_TIMEOUT_S``. When it has
        not answered after ``patience_s``, ``stalled()`` looks for a file it may be
        waiting on and raises ``SpecialFile`` naming it: git is stopped at once."""
        env = self._git_env()
        try:
            process = subprocess.Popen(
                ["git", *args],  # the repository is the working directory, not an argument
                cwd=self.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except FileNotFoundError as exc:
            raise GitError("the git executable is not on PATH", RepoStatus.NO_GIT_BINARY) from exc
        with process:
            try:
                out, err = _communicate(process, stalled, min(patience_s, GIT_TIMEOUT_S))
            except subprocess.TimeoutExpired as exc:
                raise GitError(f"git {args[0]} did not answer in {GIT_TIMEOUT_S:.0f} s") from exc
            except SpecialFile as exc:
                raise GitError(f"git {args[0]} would wait forever: {exc}") from exc
            finally:
                if process.poll() is None:
                    process.kill()
                    process.communicate()
        done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
        if check and done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip()
            raise GitError(f"git {args[0]} failed: {message}", _status_of(message))
        return done

    def _git_env(self) -> dict[str, str]:
        """The environment for one git command: the fixed overrides, and an empty command
        for every driver the config names now (``anchors/gitcommand.py``). The drivers are
        read again when a config file's stat changed, or every time when the config
        includes other files."""
        drivers = self._drivers_now()
        overrides = drivers.overrides
        excludes = self._excludes_file(drivers)
        try:
            refuse_special(excludes)
        except SpecialFile:  # git would wait on it: no global ignore patterns instead
            overrides = (*overrides, ("core.excludesFile", os.devnull))
        return git_environment(overrides)

    def _drivers_now(self) -> DriverOverrides:
        """The drivers configured now, read again when a config file changed. Raises
        ``GitError`` when a file git reads first of all (HEAD, a config file) is one it
        would wait on: git is not run at all."""
        files = (
            self.common_dir / "config",
            self.git_dir / "config.worktree",
            Path(os.path.expanduser("~/.gitconfig")),  # "~" left as is when there is no home
            Path(os.environ.get("GIT_CONFIG_GLOBAL") or os.devnull),
            Path(os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config"))
            / "git/config",
        )
        try:
            for path in (self.git_dir / "HEAD", self.git_dir / "commondir", *files):
                refuse_special(path)
        except SpecialFile as exc:
            raise GitError(f"git is not run: {exc}") from exc
        # git writes a config file through a lock file it renames: a new inode each time.
        stamp: list[int] = []
        for path in files:
            try:
                st = os.stat(path)
                stamp.extend((st.st_mtime_ns, st.st_size, st.st_ino, st.st_ctime_ns))
            except OSError:
                stamp.append(-1)
        cached = self._drivers
        if cached is None or cached[1].includes or cached[0] != tuple(stamp):
            cached = self._drivers = (tuple(stamp), driver_overrides(self.root, self._env))
        return cached[1]

    def _excludes_file(self, drivers: DriverOverrides) -> Path:
        """The global ignore file git reads: ``core.excludesFile``, else the XDG one."""
        if drivers.excludes_file:
            path = Path(os.path.expanduser(drivers.excludes_file))
            return path if path.is_absolute() else self.root / path
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
        return Path(base) / "git" / "ignore"

    def _usable_excludes_file(self) -> Path | None:
        """The global ignore file when it is a regular file, for a listing that cannot
        use ``--exclude-standard`` (``anchors/worktree.py``)."""
        path = self._excludes_file(self._drivers_now())
        return path if path.is_file() else None


def _status_of(message: str) -> RepoStatus:
    """The status a git error message means (git speaks English here: LC_ALL=C)."""
    if "dubious ownership" in message:
        return RepoStatus.UNSAFE_OWNERSHIP
    if "not a git repository" in message:
        return RepoStatus.NOT_A_REPOSITORY
    return RepoStatus.GIT_ERROR


def _checked_object_id(value: str) -> str:
    """Object ids are the only values we pass to git commands: refuse anything else."""
    if not _HEX.match(value):
        raise ValueError(f"not a git object id: {value!r}")
    return value


def _read_batch_answer(stream: IO[bytes]) -> bytes | None:
    header = stream.readline()
    if not header.endswith(b"\n"):
        raise ValueError("git cat-file closed its output")
    fields = header.split()
    # Found: "<id> <type> <size>". Otherwise "<request> missing" (or "ambiguous"), where the
    # request may itself contain spaces, so the size field is what tells them apart.
    if len(fields) != 3 or not fields[2].isdigit() or not _HEX.match(fields[0].decode()):
        return None
    size = int(fields[2])
    data = stream.read(size + 1)  # content and the trailing newline
    if len(data) != size + 1:
        raise ValueError("git cat-file output ended early")
    return data[:size]


def _communicate(
    process: subprocess.Popen[bytes], stalled: Callable[[], None] | None, patience_s: float
) -> tuple[bytes, bytes]:
    """The output of ``process`` within ``GIT_TIMEOUT_S``, ``stalled()`` called once
    after ``patience_s`` (it raises ``SpecialFile`` when git waits on one)."""
    deadline = time.monotonic() + GIT_TIMEOUT_S
    if stalled is not None and patience_s < GIT_TIMEOUT_S:
        try:
            return process.communicate(timeout=patience_s)
        except subprocess.TimeoutExpired:
            stalled()
    # Communicating again after a timeout loses no output (subprocess's documentation).
    return process.communicate(timeout=max(deadline - time.monotonic(), 0.0))
