"""``Service``: the calls of the memory service, as the MCP tools, the CLI and the store's
owner make them. ``store.service.MemoryService`` runs them on the store in this process;
``store.sharing.remote.RemoteService`` sends them to the store's owner (adr/0012), which
runs them on its own ``MemoryService``. Each one is offered to agents and people as
``server.operations`` registers it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from store import results

__all__ = ["CALLS", "RESENDABLE", "Service"]


class Service(Protocol):
    """The memory service's calls (``store.service.MemoryService`` documents each one)."""

    def remember(
        self,
        text: object,
        *,
        subject: object = None,
        kind: object = "fact",
        scope: object = None,
        source: object = "agent",
        origin: object = None,
        anchors: Sequence[object] | None = None,
        derived_from: Sequence[object] | None = None,
        supersedes: str | None = None,
        expires_at: datetime | None = None,
        attribute: object = None,
        value: object = None,
    ) -> results.RememberResult: ...

    def recall(
        self,
        query: object,
        limit: object = 10,
        include_refuted: bool = False,
        wait_s: float | None = None,
        min_score: object = 0.0,
    ) -> results.RecallResult: ...

    def show(self, memory_id: object, wait_s: float | None = None) -> results.ShowResult: ...

    def list_memories(
        self, status: object = None, limit: object = 50, wait_s: float | None = None
    ) -> results.ListResult: ...

    def audit(self, memory_id: object = None, limit: int = 1000) -> results.AuditResult: ...

    def verify(
        self, memory_id: object = None, progress: Callable[[int, int], None] | None = None
    ) -> results.ListResult: ...

    def digest(self, limit: int = 20) -> results.ListResult: ...

    def retract(
        self, memory_id: object, reason: object, actor: object = None, evidence: object = None
    ) -> results.RetractResult: ...

    def restore(
        self, memory_id: object, reason: object, actor: object = None
    ) -> results.RestoreResult: ...

    def forget(
        self, memory_id: object, reason: object, actor: object = None
    ) -> results.ForgetResult: ...

    def resolve(
        self,
        first_id: object,
        second_id: object,
        verdict: object,
        winner: object = None,
        reason: object = None,
        actor: object = None,
    ) -> results.ResolveResult: ...

    def observe(
        self,
        memory_id: object,
        agrees: object,
        kind: object = "behaviour",
        source: object = "user",
        origin: object = None,
        note: object = None,
        weight: object = None,
    ) -> results.ObserveResult: ...

    def review(self, record_questions: bool = True) -> results.ReviewResult: ...

    def stats(self) -> results.StatsResult: ...

    def consolidate(self) -> results.ConsolidateResult: ...

    def conflicts(self) -> results.ConflictsResult: ...

    def supersede(
        self,
        memory_id: object,
        text: object,
        reason: object = None,
        actor: object = None,
        subject: object = None,
        source: object = "user",
    ) -> results.RememberResult: ...


CALLS = frozenset(name for name in vars(Service) if not name.startswith("_"))

# Calls that may be sent again to a new owner when the one running them died before it
# answered: reads, and writes whose repetition gives the same outcome (a remember of the
# same claim is a duplicate of it, by its hash; a second retract is "already retracted").
# Not an observation (it would count twice), a forget, restore, resolve or supersede.
RESENDABLE = CALLS - {"observe", "forget", "restore", "resolve", "supersede"}
