"""Opening and closing everything a process needs: the store, the code source, the service."""

from __future__ import annotations

import sys
from dataclasses import dataclass

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

    def close(self) -> None:
        if self.code is not None:
            self.code.close()
        self.db.close()


def open_runtime(settings: Settings) -> Runtime:
    """Open the store (creating it on first use) and the repository's code source."""
    settings.prepare_store_dir()
    db = Database(settings.db, wait_limit_s=settings.lock_wait_s)
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
    return Runtime(settings, db, code, service)
