"""``RemoteService``: the memory service of the store's owner, called over its socket. It
has the methods of ``store.service.MemoryService`` with the same arguments and returns
the same typed results (``store.sharing.codec``), so the MCP tools call either one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from store.results import (
    AuditResult,
    ConflictsResult,
    ConsolidateResult,
    ForgetResult,
    ListResult,
    ObserveResult,
    RecallResult,
    RememberResult,
    ResolveResult,
    RestoreResult,
    RetractResult,
    ReviewResult,
    ShowResult,
    StatsResult,
)
from store.sharing.client import OwnerLink
from store.sharing.codec import CodecError, encode

__all__ = ["RESENDABLE", "RemoteService"]

# Calls that may be sent again to a new owner when the one running them died before it
# answered: reads, and writes whose repetition gives the same outcome (a remember of the
# same claim is a duplicate of it, by its hash; a second retract is "already retracted").
# Not an observation (it would count twice), a forget, restore or resolve.
RESENDABLE = frozenset(
    {
        "remember",
        "recall",
        "show",
        "list_memories",
        "audit",
        "verify",
        "digest",
        "retract",
        "review",
        "stats",
        "consolidate",
        "conflicts",
    }
)


class RemoteService:
    """The owner's ``MemoryService``, through ``link``."""

    def __init__(self, link: OwnerLink) -> None:
        self.link = link

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        message = {
            "op": "call",
            "method": method,
            "args": encode(list(args)),
            "kwargs": encode(kwargs),
        }
        return self.link.request(message, resend=method in RESENDABLE)

    def close(self) -> None:
        self.link.close()

    def tool(
        self, method: str, args: Sequence[object], kwargs: dict[str, object], detail: bool
    ) -> dict[str, Any]:
        """A tool's call of ``method``, rendered by the owner as the agent sees it: the
        fields of a ``server.rendering.ToolContent`` (model, structured, text), which this
        process relays, never decoding a typed result. A progress callback does not cross
        the socket."""
        kwargs = {k: v for k, v in kwargs.items() if k != "progress"}
        message = {
            "op": "tool",
            "method": method,
            "args": encode(list(args)),
            "kwargs": encode(kwargs),
            "detail": bool(detail),
        }
        reply = self.link.request(message, resend=method in RESENDABLE, raw=True)
        if not isinstance(reply, dict) or not all(
            isinstance(reply.get(k), t)
            for k, t in (("model", str), ("structured", dict), ("text", str))
        ):
            raise CodecError("the store's owner sent a malformed tool result")
        return {k: reply[k] for k in ("model", "structured", "text")}

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
    ) -> RememberResult:
        result: RememberResult = self._call(
            "remember",
            text,
            subject=subject,
            kind=kind,
            scope=scope,
            source=source,
            origin=origin,
            anchors=None if anchors is None else list(anchors),
            derived_from=None if derived_from is None else list(derived_from),
            supersedes=supersedes,
            expires_at=expires_at,
            attribute=attribute,
            value=value,
        )
        return result

    def recall(
        self,
        query: object,
        limit: object = 10,
        include_refuted: bool = False,
        wait_s: float | None = None,
        min_score: object = 0.0,
    ) -> RecallResult:
        result: RecallResult = self._call(
            "recall", query, limit, include_refuted, wait_s, min_score
        )
        return result

    def supersede(
        self,
        memory_id: object,
        text: object,
        reason: object = None,
        actor: object = None,
        subject: object = None,
        source: object = "user",
    ) -> RememberResult:
        result: RememberResult = self._call(
            "supersede", memory_id, text, reason, actor, subject, source
        )
        return result

    def show(self, memory_id: object, wait_s: float | None = None) -> ShowResult:
        result: ShowResult = self._call("show", memory_id, wait_s)
        return result

    def list_memories(
        self, status: object = None, limit: object = 50, wait_s: float | None = None
    ) -> ListResult:
        result: ListResult = self._call("list_memories", status, limit, wait_s)
        return result

    def audit(self, memory_id: object = None, limit: int = 1000) -> AuditResult:
        result: AuditResult = self._call("audit", memory_id, limit)
        return result

    def verify(self, memory_id: object = None, progress: Any = None) -> ListResult:
        # Progress is not reported across the socket (it is a callback in this process).
        result: ListResult = self._call("verify", memory_id)
        return result

    def digest(self, limit: int = 20) -> ListResult:
        result: ListResult = self._call("digest", limit)
        return result

    def retract(
        self, memory_id: object, reason: object, actor: object = None, evidence: object = None
    ) -> RetractResult:
        result: RetractResult = self._call("retract", memory_id, reason, actor, evidence)
        return result

    def restore(self, memory_id: object, reason: object, actor: object = None) -> RestoreResult:
        result: RestoreResult = self._call("restore", memory_id, reason, actor)
        return result

    def forget(self, memory_id: object, reason: object, actor: object = None) -> ForgetResult:
        result: ForgetResult = self._call("forget", memory_id, reason, actor)
        return result

    def resolve(
        self,
        first_id: object,
        second_id: object,
        verdict: object,
        winner: object = None,
        reason: object = None,
        actor: object = None,
    ) -> ResolveResult:
        result: ResolveResult = self._call(
            "resolve", first_id, second_id, verdict, winner, reason, actor
        )
        return result

    def observe(
        self,
        memory_id: object,
        agrees: object,
        kind: object = "behaviour",
        source: object = "user",
        origin: object = None,
        note: object = None,
        weight: object = None,
    ) -> ObserveResult:
        result: ObserveResult = self._call(
            "observe", memory_id, agrees, kind, source, origin, note, weight
        )
        return result

    def review(self, record_questions: bool = True) -> ReviewResult:
        result: ReviewResult = self._call("review", record_questions)
        return result

    def stats(self) -> StatsResult:
        result: StatsResult = self._call("stats")
        return result

    def consolidate(self) -> ConsolidateResult:
        result: ConsolidateResult = self._call("consolidate")
        return result

    def conflicts(self) -> ConflictsResult:
        result: ConflictsResult = self._call("conflicts")
        return result
