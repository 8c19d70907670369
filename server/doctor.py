"""``anchormem doctor``: is the store usable, who shares it, and does a round trip work?"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from anchors.gitrepo import GitError, GitRepository
from server.config import Settings
from server.store_location import legacy_store
from store.db import Database
from store.errors import AnchormemError
from store.recovery import recovery_log, recovery_records
from store.schema import SCHEMA_VERSION
from store.service import MemoryService

__all__ = ["run_doctor"]


def _check(name: str, ok: bool, detail: str) -> dict[str, Any]:
    return {"name": name, "ok": ok, "detail": detail}


def run_doctor(settings: Settings) -> dict[str, Any]:
    """Check the repository, the store path, its lock and schema, then round-trip
    remember / recall / retract on a scratch store beside it (removed afterwards)."""
    checks = [_repository(settings.repo)]
    if settings.pg_url is not None:
        return {"checks": [*checks, _shared_store(settings)]}
    try:
        said = settings.prepare_store_dir()
    except AnchormemError as exc:  # a file where the folder goes, a link, a tracked store
        checks.append(_check("store path", False, str(exc)))
        return {"checks": checks}
    writable = os.access(settings.db.parent, os.W_OK)
    checks.append(_check("store path", writable, str(settings.db)))
    left = _left_in_work_tree(settings)
    if said or left:
        checks.append(_check("old store", True, said or left or ""))
    try:
        db = Database(settings.db, wait_limit_s=min(settings.lock_wait_s, 10.0))
        try:
            counts = db.count()
        finally:
            db.close()
        checks.append(_check("lock", True, "acquired and released"))
        checks.append(
            _check("schema", True, f"version {SCHEMA_VERSION}; {sum(counts.values())} memories")
        )
    except AnchormemError as exc:
        checks.append(_check("store", False, str(exc)))
    checks.append(_sharing(settings))
    checks.extend(_recoveries(settings.db))
    checks.append(_round_trip(settings.db.parent / f"doctor-{os.getpid()}.duckdb"))
    return {"checks": checks}


def _shared_store(settings: Settings) -> dict[str, Any]:
    """A PostgreSQL store: reached, its schema current (applied now if older), its
    project's memories counted. Only the address without its password is ever shown."""
    from server.runtime import open_shared_store
    from store.pg.schema import PG_SCHEMA_VERSION

    try:
        db = open_shared_store(settings)
    except AnchormemError as exc:
        return _check("shared store", False, str(exc))
    try:
        counts = db.count()
        detail = (
            f"{db.label}: schema version {PG_SCHEMA_VERSION}; {sum(counts.values())} memories"
        )
        return _check("shared store", True, detail)
    except AnchormemError as exc:
        return _check("shared store", False, str(exc))
    finally:
        db.close()


def _sharing(settings: Settings) -> dict[str, Any]:
    """Who owns the store (adr/0012), how many clients it serves; a socket and info file
    left by an owner that was killed are removed (the next call would replace them)."""
    from server.sharing import owner_link
    from store.sharing import platform

    link = owner_link(settings)
    try:
        status = link.status()
    finally:
        link.close()
    where = f"{platform.TRANSPORT}, {platform.LOCKS} locks"
    if status is not None:
        return _check(
            "sharing",
            True,
            f"owner pid {status.get('pid')} (anchormem {status.get('version')}, protocol"
            f" {status.get('protocol')}): {status.get('clients')} client processes,"
            f" {status.get('connections')} connections, {status.get('calls')} calls served"
            f" ({status.get('transport')}, {status.get('locks')} locks);"
            f" {_standby(status.get('standby'))}",
        )
    files = link.files
    info = files.read_info()
    if info is None:
        return _check("sharing", True, f"no owner running; the next call starts one ({where})")
    if not link.owner_gone():
        return _check(
            "sharing",
            False,
            f"owner pid {info.get('pid')} holds the store but did not answer (starting, or"
            f" stuck: see {files.log.name})",
        )
    if link.clear_stale() is None:  # an owner took the lock meanwhile (its standby)
        return _check("sharing", True, f"an owner is taking over ({where})")
    return _check(
        "sharing",
        True,
        f"repaired: removed the socket and info file of owner pid {info.get('pid')}, which is"
        f" gone (killed); the next call starts a new owner ({where})",
    )


def _left_in_work_tree(settings: Settings) -> str | None:
    """An earlier version's store still in the work tree (adr/0022): never opened again;
    reported, not deleted (it is the user's to remove)."""
    if not settings.default_store or settings.repo is None:
        return None
    old = legacy_store(settings.repo)
    if not os.path.lexists(old):
        return None
    return (
        f"{old} is no longer used (stores live in {settings.db.parent.parent}); it may be"
        " deleted"
    )


def _standby(pid: object) -> str:
    if pid is None:
        return "no standby"
    return f"standby pid {pid} waits to take over" if pid else "a standby is starting"


def _repository(repo: Path | None) -> dict[str, Any]:
    """What every recall will meet: HEAD resolved the way the code source resolves it,
    and its tree listed (a branch with no commits, a missing object, unsafe ownership)."""
    if repo is None:
        return _check("repository", False, "no git repository; verification is off")
    with GitRepository(repo) as git:
        head = git.head()
        if head.commit is None:
            why = f"{head.status.value}: {head.detail}" if head.detail else head.status.value
            detail = f"{repo}: no commit at HEAD ({why}); every recall says cannot_verify"
            return _check("repository", False, detail)
        try:
            files = len(git.ls_tree(head.commit).blobs)
        except (GitError, ValueError) as exc:
            return _check("repository", False, f"{repo}: HEAD {head.commit[:12]} unreadable: {exc}")
    return _check("repository", True, f"{repo} at {head.commit[:12]} ({files} files)")


def _recoveries(db: Path) -> list[dict[str, Any]]:
    """Damaged files the store moved aside when it opened (store/recovery.py)."""
    return [
        _check(
            "recovery",
            False,
            f"{r.get('at')}: {r.get('file')} was damaged ({r.get('reason')}); moved to"
            f" {', '.join(r.get('moved_to') or [])}; {r.get('started')}."
            f" Remove {recovery_log(db).name} once reviewed",
        )
        for r in recovery_records(db)
    ]


def _round_trip(path: Path) -> dict[str, Any]:
    db = None
    try:
        db = Database(path, wait_limit_s=5.0)
        svc = MemoryService(db, None)
        made = svc.remember("doctor round trip: anchormem can store this", source="agent")
        made_id = made.reading.id
        found = svc.recall("doctor round trip", 5)
        ok = any(r.id == made_id for r in found.readings)
        svc.retract(made_id, "doctor round trip done")
        gone = svc.recall("doctor round trip", 5)
        ok = ok and not gone.readings
        return _check("round trip", ok, "remember, recall, retract on a scratch store")
    except AnchormemError as exc:
        return _check("round trip", False, str(exc))
    finally:
        if db is not None:
            db.close()
        for suffix in ("", ".wal", ".lock", ".want", ".journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
