"""Opening and closing everything a process needs: the store, the code source, the service."""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from server.config import Settings
from store.errors import AnchormemError, RepositoryError, StoreUnavailable
from store.sharing.remote import RemoteService

if TYPE_CHECKING:
    # Imported where a store is opened in this process (``open_runtime``): a server
    # served by the store's owner never loads DuckDB, the claim readers or the
    # fingerprint's parser (a third of ``anchormem serve``'s start-up, adr/0021).
    from anchors.fingerprint import CodeSource
    from store.backend import Store
    from store.service import MemoryService, ServiceSettings

__all__ = [
    "IDLE_S",
    "AnyRuntime",
    "Runtime",
    "SharedRuntime",
    "open_any_runtime",
    "open_runtime",
    "service_settings",
]

IDLE_S = 0.05  # a server this long without a call writes its journal into the tables
# Unused for QUIET_S, the journal is long written: look every QUIET_LOOK_S instead, so an
# idle owner does not wake 20 times a second (adr/0017). A call's writes are then written
# into the tables at most QUIET_LOOK_S after it (they are in the journal already).
QUIET_S = 1.0
QUIET_LOOK_S = 0.5


@dataclass
class Runtime:
    settings: Settings
    db: Store
    code: CodeSource | None
    service: MemoryService
    # Set when the process stops: store calls that have not reached the database yet
    # fail at once (store/lease.py). ``serve`` makes it before the runtime opens, since
    # a signal may come first.
    stopping: threading.Event = field(default_factory=threading.Event)
    _background: list[threading.Thread] = field(default_factory=list)
    _quiet: threading.Event = field(default_factory=threading.Event)  # set at close

    def start_background(self, load_now: bool = False) -> None:
        """The work of a long-lived server, off its calls' path, in two daemon threads:
        warming the contradiction check's caches (one line on stderr when done), and
        writing the journal into its tables once the server has been idle ``IDLE_S``. A
        one-shot CLI call starts neither: it would only pay for them. ``load_now``: read
        the store's copy at once instead of waiting for the first call to (the store's
        owner, which holds the store anyway and was started because a call is coming)."""
        if self._background:
            return

        def warm() -> None:
            if load_now:  # on failure the first call reads it again, and says why it cannot
                with contextlib.suppress(AnchormemError):
                    self.db.load_copy()
            try:
                warmed = self.service.warm(self._quiet)
            except AnchormemError:
                # the store was closed or taken under it (the server is stopping): the
                # caches are only a head start, and the next process warms its own
                return
            # What is loaded now (the copy, the fingerprint, the warmed caches) stays for
            # the process's life: keep it out of the collector's full passes, which
            # otherwise stall a call for 100-300 ms at 10k memories.
            gc.freeze()
            if not warmed.stopped:
                print(
                    f"anchormem: conflict check warm: {warmed.memories} memories"
                    f" in {warmed.seconds:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )

        def drain() -> None:
            while not self._quiet.wait(
                QUIET_LOOK_S if self.service.idle_for() >= QUIET_S else IDLE_S
            ):
                if self.stopping.is_set() or self.service.idle_for() < IDLE_S:
                    continue
                try:
                    self.db.drain_idle()
                except AnchormemError as exc:  # the next call writes it, or says why
                    print(f"anchormem: writing the journal failed: {exc}", file=sys.stderr)

        for name, target in (("anchormem-warm", warm), ("anchormem-drain", drain)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._background.append(thread)

    def close(self) -> None:
        self._quiet.set()
        for thread in self._background:
            thread.join(timeout=5.0)
        if self.code is not None:
            self.code.close()
        self.db.close()


def open_runtime(settings: Settings, stopping: threading.Event | None = None) -> Runtime:
    """Open the store (creating it on first use) and the repository's code source.
    ``stopping``: the process's stop signal (``Runtime.stopping``); by default a fresh one."""
    from anchors.fingerprint import CodeSource
    from store.factcache import StoreFactsCache
    from store.service import MemoryService

    stopping = stopping if stopping is not None else threading.Event()
    said = settings.prepare_store_dir()
    if said:
        print(f"anchormem: {said}", file=sys.stderr)
    db: Store
    if settings.pg_url is not None:
        db = open_shared_store(settings)
    else:
        from store.db import Database

        db = Database(
            settings.db,
            wait_limit_s=settings.lock_wait_s,
            stopping=stopping,
            sync_interval_s=settings.sync_interval_s,
        )
    code = None
    if settings.repo is not None:
        try:
            code = CodeSource(
                settings.repo,
                StoreFactsCache(db),
                head_ttl=settings.head_ttl_s,
                watch=settings.watch,
            )
        except (AnchormemError, OSError) as exc:  # verification degrades to "cannot verify"
            print(f"anchormem: the repository cannot be read: {exc}", file=sys.stderr)
            code = None
    service = MemoryService(db, code, service_settings(settings))
    return Runtime(settings, db, code, service, stopping)


def open_shared_store(settings: Settings) -> Store:
    """The PostgreSQL store ``settings.pg_url`` names, for the project of this repository
    (``ANCHORMEM_PROJECT``, else one named by the repository's first commit)."""
    assert settings.pg_url is not None
    try:
        from store.pg.database import PgDatabase
    except ImportError as exc:
        raise StoreUnavailable(
            "a postgresql:// store needs psycopg: pip install 'anchormem[postgresql]'"
        ) from exc
    project = settings.project or repository_project(settings.repo)
    return PgDatabase(settings.pg_url, project, wait_limit_s=min(settings.lock_wait_s, 30.0))


def repository_project(repo: Path | None) -> str:
    """A shared store's default project: ``repo-`` and the start of the repository's first
    commit, which every clone of it shares whatever its folder is called."""
    from anchors.gitrepo import GitRepository

    first = None
    if repo is not None:
        with GitRepository(repo, watch=False) as git:
            first = git.first_commit()
    if first is None:
        raise RepositoryError(
            "a shared store's project is named by the repository's first commit, and there"
            " is none yet: commit, or set ANCHORMEM_PROJECT"
        )
    return f"repo-{first[:16]}"


def service_settings(settings: Settings) -> ServiceSettings:
    from store.service import ServiceSettings

    return ServiceSettings(
        verify_budget_s=settings.verify_budget_s,
        actor=settings.actor,
        evidence=settings.evidence,
        verify=settings.verify,
        conflicts=settings.conflicts,
        origin=settings.origin,
    )


@dataclass
class SharedRuntime:
    """A runtime whose service is the store owner's (``server.owner``, adr/0012)."""

    settings: Settings
    service: RemoteService
    stopping: threading.Event = field(default_factory=threading.Event)

    def close(self) -> None:
        self.service.close()


@dataclass
class SessionRuntime:
    """The runtime of a session the store's owner runs for a serving process
    (``server.sessions``): that client's service, over the owner's own runtime."""

    service: MemoryService


AnyRuntime = Runtime | SharedRuntime | SessionRuntime


def open_any_runtime(
    settings: Settings, stopping: threading.Event | None = None, shared: bool = False
) -> Runtime | SharedRuntime:
    """The store owner's service when ``shared`` and ``settings.share`` (starting the
    owner if none runs), else ``open_runtime``."""
    if not (shared and settings.share):
        return open_runtime(settings, stopping)
    from server.sharing import owner_link

    link = owner_link(settings, stopping)
    runtime = SharedRuntime(settings, RemoteService(link), stopping or threading.Event())
    link.connect_first()  # the store opens now, as open_runtime's would: errors surface here
    return runtime
