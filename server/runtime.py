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

__all__ = ["Runtime", "open_runtime"]


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
    _warming: threading.Thread | None = None
    _warm_stop: threading.Event = field(default_factory=threading.Event)

    def start_warming(self) -> None:
        """Warm the contradiction check's caches in a background thread (a long-lived
        server's: a one-shot CLI call would only pay for it). One line on stderr when done."""
        if self._warming is not None:
            return

        def run() -> None:
            warmed = self.service.warm(self._warm_stop)
            if not warmed.stopped:
                print(
                    f"anchormem: conflict check warm: {warmed.memories} memories"
                    f" in {warmed.seconds:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )

        self._warming = threading.Thread(target=run, name="anchormem-warm", daemon=True)
        self._warming.start()

    def close(self) -> None:
        self._warm_stop.set()
        if self._warming is not None:
            self._warming.join(timeout=1.0)
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
    service = MemoryService(
        db,
        code,
        ServiceSettings(
            verify_budget_s=settings.verify_budget_s,
            actor=settings.actor,
            evidence=settings.evidence,
            verify=settings.verify,
            conflicts=settings.conflicts,
        ),
    )
    return Runtime(settings, db, code, service, stopping)
