"""Opening and closing everything a process needs: the store, the code source, the service."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field

from anchors.fingerprint import CodeSource
from server.config import Settings
from store.db import Database
from store.errors import AnchormemError
from store.factcache import StoreFactsCache
from store.service import MemoryService, ServiceSettings
from store.sharing.remote import RemoteService

__all__ = [
    "AnyRuntime",
    "Runtime",
    "SharedRuntime",
    "open_any_runtime",
    "open_runtime",
    "service_settings",
]


@dataclass
class Runtime:
    settings: Settings
    db: Database
    code: CodeSource | None
    service: MemoryService
    # Set when the process stops: store calls that have not reached the database yet
    # fail at once (store/lease.py). ``serve`` makes it before the runtime opens, since
    # a signal may come first.
    stopping: threading.Event = field(default_factory=threading.Event)

    def close(self) -> None:
        if self.code is not None:
            self.code.close()
        self.db.close()


def open_runtime(settings: Settings, stopping: threading.Event | None = None) -> Runtime:
    """Open the store (creating it on first use) and the repository's code source.
    ``stopping``: the process's stop signal (``Runtime.stopping``); by default a fresh one."""
    stopping = stopping if stopping is not None else threading.Event()
    settings.prepare_store_dir()
    db = Database(
        settings.db,
        wait_limit_s=settings.lock_wait_s,
        stopping=stopping,
        sync_interval_s=settings.sync_interval_s,
    )
    code = None
    if settings.repo is not None:
        try:
            code = CodeSource(settings.repo, StoreFactsCache(db), head_ttl=settings.head_ttl_s)
        except (AnchormemError, OSError) as exc:  # verification degrades to "cannot verify"
            print(f"anchormem: the repository cannot be read: {exc}", file=sys.stderr)
            code = None
    service = MemoryService(db, code, service_settings(settings))
    return Runtime(settings, db, code, service, stopping)


def service_settings(settings: Settings) -> ServiceSettings:
    return ServiceSettings(
        verify_budget_s=settings.verify_budget_s,
        actor=settings.actor,
        evidence=settings.evidence,
        verify=settings.verify,
        conflicts=settings.conflicts,
    )


@dataclass
class SharedRuntime:
    """A runtime whose service is the store owner's (``server.owner``, adr/0012)."""

    settings: Settings
    service: RemoteService
    stopping: threading.Event = field(default_factory=threading.Event)

    def close(self) -> None:
        self.service.close()


AnyRuntime = Runtime | SharedRuntime


def open_any_runtime(
    settings: Settings, stopping: threading.Event | None = None, shared: bool = False
) -> AnyRuntime:
    """The store owner's service when ``shared`` and ``settings.share`` (starting the
    owner if none runs), else ``open_runtime``."""
    if not (shared and settings.share):
        return open_runtime(settings, stopping)
    from server.sharing import owner_link

    link = owner_link(settings, stopping)
    runtime = SharedRuntime(settings, RemoteService(link), stopping or threading.Event())
    link.connect_first()  # the store opens now, as open_runtime's would: errors surface here
    return runtime
