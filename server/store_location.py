"""Where a repository's store lives: in this user's data directory, never in the work
tree (adr/0022).

A clone or a pull can put any file anywhere in the work tree, ignored folders included,
and git overwrites ignored files without a word. So the default store of the repository
at ``root`` is ``<data home>/stores/<name>-<hash>/memory.duckdb``, where ``<hash>`` is
taken from the work tree's real path (each checkout, worktrees included, is verified
against its own HEAD and served by its own owner process) and ``<data home>`` is
``ANCHORMEM_HOME``, else ``$XDG_DATA_HOME/anchormem``, else the platform's per-user data
folder. Every folder anchormem makes there is 0700.

Stores of earlier versions, in ``<root>/.anchormem/``, are copied there once, and only
when nothing about them could have come from the repository: not tracked by git, not
links, this user's own files.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from store.errors import StoreUnavailable
from store.safe_files import SIDE_SUFFIXES, check_folder, check_store_files

__all__ = [
    "LEGACY_DIR",
    "STORE_FILE",
    "data_home",
    "legacy_store",
    "migrate_legacy_store",
    "prepare_folder",
    "repository_store",
    "tracked_files",
]

LEGACY_DIR = ".anchormem"
STORE_FILE = "memory.duckdb"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
# What an earlier version's store folder may hold that belongs to the store.
_MIGRATED_SUFFIXES = ("", ".wal", ".journal", ".recovery.json")


def data_home(env: Mapping[str, str]) -> Path:
    """This user's anchormem data folder (it may not exist yet)."""
    given = env.get("ANCHORMEM_HOME")
    if given:
        return Path(given).expanduser().absolute()
    xdg = env.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "anchormem"
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "anchormem"
    if sys.platform == "win32":  # pragma: no cover - not run on Linux CI
        local = env.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "anchormem"
    return home / ".local" / "share" / "anchormem"


def repository_store(root: Path, env: Mapping[str, str]) -> Path:
    """The default store file of the work tree at ``root``."""
    real = os.path.realpath(root)
    digest = hashlib.sha256(os.fsencode(real)).hexdigest()[:12]
    name = _UNSAFE_NAME.sub("-", Path(real).name)[:16].strip("-.") or "repo"
    return data_home(env) / "stores" / f"{name}-{digest}" / STORE_FILE


def prepare_folder(folder: Path) -> None:
    """Create the store's folder and the ones above it that are missing, each 0700, then
    refuse it unless it is a real directory of this user that no one else may write to."""
    missing = [p for p in (folder, *folder.parents) if not os.path.lexists(p)]
    try:
        for part in reversed(missing):  # each 0700: mkdir(parents=True) uses the umask above
            part.mkdir(mode=0o700, exist_ok=True)
    except FileExistsError:
        pass  # a file or a link where the folder should be: check_folder says which
    except OSError as exc:
        raise StoreUnavailable(f"cannot create the store folder {folder}: {exc}") from None
    check_folder(folder)
    if folder.stat().st_mode & 0o077:  # only this user: it holds the store's key
        try:
            folder.chmod(0o700)
        except OSError as exc:
            raise StoreUnavailable(f"cannot make {folder} private: {exc}") from None


def legacy_store(root: Path) -> Path:
    """Where versions before adr/0022 kept the store: inside the work tree."""
    return root / LEGACY_DIR / STORE_FILE


def tracked_files(root: Path, paths: list[Path]) -> list[Path]:
    """Those of ``paths`` (inside the work tree at ``root``) that git tracks. git runs
    with nothing of the repository's configuration that names a command (anchors.gitcommand)."""
    from anchors.gitcommand import GIT_TIMEOUT_S, git_environment
    from anchors.worktree_files import SpecialFile, refuse_special

    relative = []
    for path in paths:
        try:
            relative.append(os.path.relpath(os.path.abspath(path), os.path.realpath(root)))
        except ValueError:  # another drive (Windows): not in the work tree
            continue
    relative = [r for r in relative if not r.startswith("..")]
    if not relative:
        return []
    git_dir = root / ".git"
    try:  # the files git reads first: one it would wait on (a FIFO) is never handed to it
        for name in ("HEAD", "index", "config") if git_dir.is_dir() else ():
            refuse_special(git_dir / name)
    except SpecialFile as exc:
        raise StoreUnavailable(f"cannot ask git whether it tracks the store: {exc}") from None
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--", *relative],
            cwd=root,
            env=git_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StoreUnavailable(f"cannot ask git whether it tracks the store: {exc}") from None
    if done.returncode != 0:
        raise StoreUnavailable(
            "cannot ask git whether it tracks the store: "
            + done.stderr.decode(errors="replace").strip()[:200]
        )
    return [root / p for p in os.fsdecode(done.stdout).split("\0") if p]


def migrate_legacy_store(root: Path, target: Path) -> str | None:
    """Copy the store an earlier version kept in ``<root>/.anchormem/`` to ``target``
    (which must not exist yet), if it is safe to; the sentence to tell the user, or
    ``None`` when there is nothing to move. The old files are left where they were."""
    old = legacy_store(root)
    folder = old.parent
    if not os.path.lexists(old):
        return None
    if os.path.islink(folder) or not folder.is_dir():
        return (
            f"{folder} is not a real directory: its store was not used (adr/0022); the"
            f" store of this repository is now {target}"
        )
    side = [Path(f"{old}{s}") for s in SIDE_SUFFIXES]
    tracked = tracked_files(root, [folder / ".gitignore", old, *side])
    if tracked:
        return (
            f"git tracks {tracked[0].relative_to(root)}: a store that came with the"
            f" repository is never used (adr/0022); the store of this repository is now"
            f" {target}"
        )
    try:
        check_store_files(old)
    except StoreUnavailable as exc:
        return f"{exc}; that old store was not used (adr/0022), the store is now {target}"
    _refuse_if_served(old)
    staging = target.parent / f".migrating-{os.getpid()}"
    staging.mkdir(mode=0o700)
    try:
        for suffix in _MIGRATED_SUFFIXES:
            source = Path(f"{old}{suffix}")
            if source.is_file():
                shutil.copyfile(source, staging / f"{STORE_FILE}{suffix}", follow_symlinks=False)
                os.chmod(staging / f"{STORE_FILE}{suffix}", 0o600)
        # The store last: a reader sees its journal and WAL beside it, or no store at all.
        for suffix in (*_MIGRATED_SUFFIXES[1:], ""):
            moved = staging / f"{STORE_FILE}{suffix}"
            if moved.exists():
                os.replace(moved, Path(f"{target}{suffix}"))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return (
        f"this repository's store moved out of the work tree (adr/0022): copied {old} to"
        f" {target}; the old copy is no longer used and may be deleted"
    )


def _refuse_if_served(old: Path) -> None:
    """An older anchormem's owner may still hold the old store: copying it then could
    miss its last writes."""
    from store.safe_files import open_private
    from store.sharing import platform

    lock = Path(f"{old}.owner.lock")
    if not lock.exists():
        return
    fd = open_private(lock, os.O_RDWR)
    try:
        if not platform.lock(fd):
            raise StoreUnavailable(
                f"an earlier anchormem still serves {old}; it stops 60 s after its last"
                " client: close the sessions using it, then try again"
            )
        platform.unlock(fd)
    finally:
        os.close(fd)
