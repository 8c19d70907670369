"""The real-repository corpus of the truth benchmark: source archives of real projects at
two pinned versions each, turned into scratch git repositories.

The manifest (``experiments/data/real/corpus.json``) names, per project, its two versions
(oldest first) and each archive's file name, URL and sha256, and, for a Debian package,
``root``: the project's own directory inside it. Three kinds of archive are read, by file
name: a PyPI sdist (``.tar.gz``, ``.tar.bz2``, ``.zip``), an npm tarball (``.tgz``, its
top-level ``package/`` directory), and a Debian binary package (``.deb``: an ``ar``
archive whose ``data.tar.*`` holds the files; a ``golang-*-dev`` package has the Go
sources under ``usr/share/gocode/src/IMPORT/PATH/``, a ``librust-*-dev`` one the crate
under ``usr/share/cargo/registry/CRATE-VER/``). ``build(project)``:

1. fetches each archive into the cache (default ``~/.cache/anchormem/corpus``, or
   ``ANCHORMEM_CORPUS_CACHE``) and verifies its sha256 (a mismatch is an error, and the
   file is not kept);
2. unpacks it safely: regular files and directories only, plus symlinks that stay inside
   the tree; an absolute path, a ``..`` component, a device file, a hard link or a ``.git``
   entry is refused (the whole archive, with its name). A package's files outside its
   ``root`` (documentation, metadata) are skipped, their paths still checked;
3. commits each version's tree (the top-level ``NAME-VER/`` directory stripped, or the
   package's ``root`` as the repository root) as one commit of a scratch repository
   ``<cache>/repos/NAME``, tagged with the version; HEAD is the newest version.

Nothing from the downloaded code is executed: an archive is fetched as a file (not through
``pip download``, which prepares metadata by running the project's build backend, i.e.
``setup.py``; not through npm, which may run install scripts; not through dpkg, which runs
maintainer scripts), and git runs with a clean environment, no system or global
configuration and hooks pointed at /dev/null. A built repository is reused when its tags
and the sha256 recorded in each tagged commit match the manifest.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import tarfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from experiments.errors import ExperimentError
from experiments.scratch import ScratchGitError, git

__all__ = [
    "CorpusError",
    "Project",
    "Version",
    "build",
    "cache_dir",
    "fetch",
    "load_manifest",
    "manifest_path",
    "safe_unpack",
    "sha256_of",
]

CACHE_ENV = "ANCHORMEM_CORPUS_CACHE"
_GIT_DATE = "2024-01-01T00:00:00+00:00"
_TIMEOUT = 60


class CorpusError(ExperimentError):
    """The corpus cannot be built: a bad manifest, a failed download, a sha256 mismatch,
    an unsafe archive."""


@dataclass(frozen=True)
class Version:
    version: str
    filename: str
    sha256: str
    url: str
    root: str = ""  # a .deb's project directory, e.g. usr/share/gocode/src/github.com/x/y


@dataclass(frozen=True)
class Project:
    name: str
    versions: tuple[Version, ...]  # oldest first; the last is HEAD

    @property
    def facts(self) -> Path:
        return Path(str(resources.files("experiments") / "data" / "real" / f"{self.name}.jsonl"))


def manifest_path() -> Path:
    return Path(str(resources.files("experiments") / "data" / "real" / "corpus.json"))


def cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "anchormem" / "corpus"


def load_manifest(path: Path | None = None) -> dict[str, Project]:
    path = path or manifest_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CorpusError(f"cannot read the corpus manifest {path}: {exc}") from None
    projects: dict[str, Project] = {}
    try:
        for entry in data["projects"]:
            versions = tuple(
                Version(
                    str(v["version"]),
                    str(v["filename"]),
                    str(v["sha256"]).lower(),
                    str(v["url"]),
                    str(v.get("root", "")).strip("/"),
                )
                for v in entry["versions"]
            )
            if len(versions) < 2:
                raise CorpusError(f"{path}: {entry['name']} needs two versions")
            for v in versions:
                if len(v.sha256) != 64 or any(c not in "0123456789abcdef" for c in v.sha256):
                    raise CorpusError(f"{path}: {v.filename}: sha256 is not 64 hex digits")
                if "/" in v.filename or v.filename.startswith("."):
                    raise CorpusError(f"{path}: {v.filename!r} is not a plain file name")
                if v.filename.endswith(".deb") != bool(v.root):
                    raise CorpusError(
                        f"{path}: {v.filename}: a .deb needs a 'root' (the project's "
                        f"directory inside it), and only a .deb takes one"
                    )
                if ".." in PurePosixPath(v.root).parts:
                    raise CorpusError(f"{path}: {v.filename}: root {v.root!r} leaves the package")
            projects[str(entry["name"])] = Project(str(entry["name"]), versions)
    except (KeyError, TypeError) as exc:
        raise CorpusError(f"{path}: malformed manifest ({exc})") from None
    return projects


# -- fetching --------------------------------------------------------------------------------
def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(version: Version, cache: Path, log: Callable[[str], None] = lambda _m: None) -> Path:
    """The archive in the cache, downloaded if missing, its sha256 verified either way."""
    sdists = cache / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    target = sdists / version.filename
    if not target.exists():
        log(f"downloading {version.filename}")
        part = target.with_name(target.name + ".part")
        try:
            with (
                urllib.request.urlopen(version.url, timeout=_TIMEOUT) as response,
                part.open("wb") as handle,
            ):
                shutil.copyfileobj(response, handle)
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            part.unlink(missing_ok=True)
            reason = getattr(exc, "reason", exc)
            raise CorpusError(
                f"cannot download {version.url}: {reason} (the corpus needs network access "
                f"to its registry once; or place {version.filename} in {sdists})"
            ) from None
        part.replace(target)
    found = sha256_of(target)
    if found != version.sha256:
        bad = target.with_name(target.name + ".mismatch")
        target.replace(bad)
        raise CorpusError(
            f"sha256 mismatch for {version.filename}: expected {version.sha256}, got {found}; "
            f"the file was moved aside to {bad}"
        )
    return target


# -- unpacking -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Entry:
    path: PurePosixPath  # relative, the top-level directory stripped
    kind: str  # file / dir / symlink
    mode: int
    target: str = ""
    read: Callable[[], bytes] | None = None


def _relative(name: str, archive: str, top: list[str]) -> PurePosixPath | None:
    """The member's path below the single top-level directory (None for that directory)."""
    if name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        raise CorpusError(f"{archive}: unsafe member {name!r} (absolute path)")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if ".." in parts:
        raise CorpusError(f"{archive}: unsafe member {name!r} (a '..' component)")
    if not parts:
        return None
    if not top:
        top.append(parts[0])
    elif parts[0] != top[0]:
        raise CorpusError(f"{archive}: member {name!r} is outside the top-level {top[0]}/")
    if ".git" in parts[1:]:
        raise CorpusError(f"{archive}: member {name!r} is git metadata")
    return PurePosixPath(*parts[1:]) if len(parts) > 1 else None


def _tar_entries(path: Path) -> Iterator[_Entry]:
    top: list[str] = []
    with tarfile.open(path, "r:*") as archive:
        yield from _tar_members(archive, path.name, lambda n: _relative(n, path.name, top))


def _tar_members(
    archive: tarfile.TarFile, label: str, where: Callable[[str], PurePosixPath | None]
) -> Iterator[_Entry]:
    """The members of an open tar archive that ``where`` places in the tree (it raises for
    an unsafe name, returns None for a member to skip)."""
    for member in archive:
        rel = where(member.name)
        if rel is None:
            continue
        if member.isdir():
            yield _Entry(rel, "dir", member.mode)
        elif member.isreg():
            file = archive.extractfile(member)
            assert file is not None
            yield _Entry(rel, "file", member.mode, read=file.read)
        elif member.issym():
            yield _Entry(rel, "symlink", member.mode, target=member.linkname)
        elif member.islnk():
            raise CorpusError(f"{label}: hard link {member.name!r} refused")
        else:
            raise CorpusError(f"{label}: special file {member.name!r} refused")


# A Debian binary package: "!<arch>\n", then members, each a 60-byte header (name 16,
# mtime 12, owner 6, group 6, mode 8, size 10, "`\n") and its data padded to an even size.
_AR_MAGIC = b"!<arch>\n"
_AR_HEADER = 60


def _ar_members(data: bytes, label: str) -> dict[str, bytes]:
    if not data.startswith(_AR_MAGIC):
        raise CorpusError(f"{label}: not a Debian package (no ar header)")
    members: dict[str, bytes] = {}
    offset = len(_AR_MAGIC)
    while offset + _AR_HEADER <= len(data):
        header = data[offset : offset + _AR_HEADER]
        if header[58:60] != b"`\n":
            raise CorpusError(f"{label}: malformed ar member header at byte {offset}")
        name = header[:16].decode("ascii", errors="replace").strip().rstrip("/")
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError:
            raise CorpusError(f"{label}: malformed ar member size at byte {offset}") from None
        start = offset + _AR_HEADER
        if size < 0 or start + size > len(data):
            raise CorpusError(f"{label}: ar member {name!r} runs past the end")
        members[name] = data[start : start + size]
        offset = start + size + (size & 1)
    return members


def _data_tar(path: Path) -> tarfile.TarFile:
    """The ``data.tar.*`` of a .deb, opened from memory."""
    members = _ar_members(path.read_bytes(), path.name)
    name = next((n for n in members if n.startswith("data.tar")), None)
    if name is None:
        raise CorpusError(f"{path.name}: no data.tar member in the package")
    raw = members[name]
    if name.endswith(".zst"):
        try:
            import zstandard  # optional: only a zst-compressed package needs it
        except ImportError:
            raise CorpusError(
                f"{path.name}: {name} needs the zstandard module (pip install zstandard)"
            ) from None
        raw = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw)).read()
    elif not name.endswith((".tar", ".gz", ".xz", ".bz2")):
        raise CorpusError(f"{path.name}: {name} is compressed in a way this reader lacks")
    return tarfile.open(fileobj=io.BytesIO(raw), mode="r:*")


def _under_root(name: str, label: str, root: PurePosixPath) -> PurePosixPath | None:
    """A package member's path below ``root`` (None outside it, or for ``root`` itself)."""
    if name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        raise CorpusError(f"{label}: unsafe member {name!r} (absolute path)")
    parts = [p for p in PurePosixPath(name).parts if p not in ("", ".")]
    if ".." in parts:
        raise CorpusError(f"{label}: unsafe member {name!r} (a '..' component)")
    depth = len(root.parts)
    if tuple(parts[:depth]) != root.parts or len(parts) == depth:
        return None
    inner = parts[depth:]
    if ".git" in inner:
        raise CorpusError(f"{label}: member {name!r} is git metadata")
    return PurePosixPath(*inner)


def _deb_entries(path: Path, root: str) -> Iterator[_Entry]:
    base = PurePosixPath(root.strip("/"))
    found = False
    with _data_tar(path) as archive:
        for entry in _tar_members(archive, path.name, lambda n: _under_root(n, path.name, base)):
            found = True
            yield entry
    if not found:
        raise CorpusError(f"{path.name}: nothing under {root}/ in the package")


def _reader(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], bytes]:
    return lambda: archive.read(info)


def _zip_entries(path: Path) -> Iterator[_Entry]:
    top: list[str] = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            rel = _relative(info.filename, path.name, top)
            if rel is None:
                continue
            mode = (info.external_attr >> 16) & 0o177777
            if stat.S_ISLNK(mode):
                raise CorpusError(f"{path.name}: symlink {info.filename!r} in a zip refused")
            if info.is_dir():
                yield _Entry(rel, "dir", 0o755)
            elif mode and not stat.S_ISREG(mode):
                raise CorpusError(f"{path.name}: special file {info.filename!r} refused")
            else:
                yield _Entry(rel, "file", mode or 0o644, read=_reader(archive, info))


def _inside(link: PurePosixPath, target: str) -> bool:
    """Does a symlink at ``link`` (relative to the tree) pointing at ``target`` stay inside?"""
    if target.startswith("/"):
        return False
    parts: list[str] = list(link.parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if not parts:
                return False
            parts.pop()
        elif part != ".":
            parts.append(part)
    return True


def safe_unpack(archive: Path, into: Path, root: str = "") -> int:
    """Unpack ``archive`` (a .tar.gz/.tar.bz2/.zip sdist, an npm .tgz) into the empty
    directory ``into``, its top-level directory stripped, or a .deb's directory ``root``
    (the files below it; the rest of the package is skipped); returns the number of files.
    Refuses unsafe members (see the module docstring) with ``CorpusError``."""
    name = archive.name
    if name.endswith(".deb"):
        if not root:
            raise CorpusError(f"{name}: a Debian package needs the project's directory (root)")
        entries = _deb_entries(archive, root)
    elif name.endswith(".zip"):
        entries = _zip_entries(archive)
    elif name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar")):
        entries = _tar_entries(archive)
    else:
        raise CorpusError(f"{name}: not a source archive this benchmark can unpack")
    files = 0
    tree = into.resolve()
    links: list[tuple[Path, str]] = []
    try:
        for entry in entries:
            dest = tree.joinpath(*entry.path.parts)
            if entry.kind == "dir":
                dest.mkdir(parents=True, exist_ok=True)
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            if dest.is_symlink() or dest.exists():
                raise CorpusError(f"{name}: {entry.path} appears twice")
            if entry.kind == "symlink":
                if not _inside(entry.path, entry.target):
                    raise CorpusError(
                        f"{name}: symlink {entry.path} -> {entry.target!r} leaves the tree"
                    )
                links.append((dest, entry.target))
                continue
            assert entry.read is not None
            dest.write_bytes(entry.read())
            dest.chmod(0o755 if entry.mode & 0o100 else 0o644)
            files += 1
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        raise CorpusError(f"{name}: cannot unpack ({exc})") from None
    for dest, target in links:  # after every file: a link never redirects a later write
        os.symlink(target, dest)
    return files


# -- the scratch repository --------------------------------------------------------------------
_IDENTITY = ("anchormem-corpus", "corpus@example.com")


def corpus_git(root: Path, *args: str) -> str:
    """git in ``root`` through the shared runner (``experiments/scratch.py``: a clean
    environment, no hooks, fsmonitor or global config), at a fixed date."""
    try:
        return git(root, *args, identity=_IDENTITY, date=_GIT_DATE)
    except ScratchGitError as exc:
        detail = (exc.stderr or "").strip()
        raise CorpusError(f"git {' '.join(args[:2])} failed in {root}: {detail}") from None


def _built(repo: Path, project: Project) -> bool:
    if not (repo / ".git").is_dir():
        return False
    try:
        tags = set(corpus_git(repo, "tag", "--list").split())
        if tags != {v.version for v in project.versions}:
            return False
        for v in project.versions:
            body = corpus_git(repo, "log", "-1", "--format=%B", f"refs/tags/{v.version}")
            if f"sha256 {v.sha256}" not in body:
                return False
        head = corpus_git(repo, "rev-parse", "HEAD")
        newest = project.versions[-1].version
        return head == corpus_git(repo, "rev-parse", f"refs/tags/{newest}^{{commit}}")
    except CorpusError:
        return False


def build(
    project: Project, cache: Path | None = None, log: Callable[[str], None] = lambda _m: None
) -> Path:
    """The scratch repository of ``project`` (built once, then reused)."""
    cache = cache or cache_dir()
    repo = cache / "repos" / project.name
    if _built(repo, project):
        log(f"{project.name}: reusing {repo}")
        return repo
    archives = [fetch(v, cache, log) for v in project.versions]
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    corpus_git(repo, "init", "-q")
    # A sdist's own .gitattributes must not configure filters: attributes are read from
    # this file first, and no filter driver is configured anyway.
    for version, archive in zip(project.versions, archives, strict=True):
        for child in repo.iterdir():
            if child.name != ".git":
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child)
                else:
                    child.unlink()
        files = safe_unpack(archive, repo, version.root)
        log(f"{project.name} {version.version}: {files} files")
        corpus_git(repo, "add", "-A", "-f", ".")
        message = f"{project.name} {version.version}\n\n{version.filename} sha256 {version.sha256}"
        corpus_git(repo, "commit", "-q", "--allow-empty", "--no-verify", "-m", message)
        corpus_git(repo, "tag", version.version)
    return repo


def describe(project: Project) -> dict[str, Any]:
    return {
        "name": project.name,
        "versions": [
            {"version": v.version, "filename": v.filename, "sha256": v.sha256}
            | ({"root": v.root} if v.root else {})
            for v in project.versions
        ],
    }
