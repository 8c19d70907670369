"""The memory service: one facade over small services, the one object the MCP tools and
the CLI call. It composes them; it holds no rules of its own.

    remembering   a note becomes a memory, anchored, checked, its conflicts decided
    recalling     recall, show, list, verify, digest, audit
    curating      retract, restore, forget, resolve (an agent judges a pair)
    evidence      observe, review, stats
    contradictions  consolidate, conflicts
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from anchors.fingerprint import CodeSource
from store.contradictions.checking import Contradictions
from store.curating import Curating
from store.db import Database
from store.evidence.curating import EvidenceCuration
from store.reader import Reader, ServiceSettings
from store.recalling import Progress, Recalling
from store.remembering import Remembering
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
from store.verification import Verifier

__all__ = ["MemoryService", "ServiceSettings"]


class MemoryService:
    """Behaviour of anchormem; the MCP tools and the CLI are thin skins over it."""

    def __init__(
        self, db: Database, code: CodeSource | None, settings: ServiceSettings | None = None
    ) -> None:
        self.db = db
        self.code = code
        self.settings = settings or ServiceSettings()
        verifier = Verifier(db, code, self.settings.verify_budget_s, self.settings.verify)
        self.contradictions = Contradictions(db, self.settings.evidence)
        reader = Reader(db, verifier, self.contradictions, self.settings)
        self.remembering = Remembering(reader)
        self.recalling = Recalling(reader)
        self.curating = Curating(reader)
        self.evidence = EvidenceCuration(reader, self.remembering)

    @contextmanager
    def _call(self) -> Iterator[None]:
        """One call: HEAD resolved once, every memory checked against that commit."""
        if self.code is None:
            yield
            return
        with self.code.one_head():
            yield

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
        """Store a memory with its anchors; an exact duplicate of a live memory returns it,
        and a claim that was retracted returns the retraction receipt instead."""
        note = self.remembering.note(
            text,
            subject=subject,
            kind=kind,
            scope=scope,
            source=source,
            origin=origin,
            anchors=anchors,
            derived_from=derived_from,
            supersedes=supersedes,
            expires_at=expires_at,
            attribute=attribute,
            value=value,
        )
        with self._call():
            return self.remembering.remember(note)

    def recall(
        self,
        query: object,
        limit: object = 10,
        include_refuted: bool = False,
        wait_s: float | None = None,
        min_score: object = 0.0,
    ) -> RecallResult:
        with self._call():
            return self.recalling.recall(query, limit, include_refuted, wait_s, min_score)

    def show(self, memory_id: object, wait_s: float | None = None) -> ShowResult:
        with self._call():
            return self.recalling.show(memory_id, wait_s)

    def list_memories(
        self, status: object = None, limit: object = 50, wait_s: float | None = None
    ) -> ListResult:
        with self._call():
            return self.recalling.list_memories(status, limit, wait_s)

    def audit(self, memory_id: object = None, limit: int = 1000) -> AuditResult:
        return self.recalling.audit(memory_id, limit)

    def verify(self, memory_id: object = None, progress: Progress | None = None) -> ListResult:
        with self._call():
            return self.recalling.verify(memory_id, progress)

    def digest(self, limit: int = 20) -> ListResult:
        with self._call():
            return self.recalling.digest(limit)

    def retract(
        self, memory_id: object, reason: object, actor: object = None, evidence: object = None
    ) -> RetractResult:
        with self._call():
            return self.curating.retract(memory_id, reason, actor, evidence)

    def restore(self, memory_id: object, reason: object, actor: object = None) -> RestoreResult:
        with self._call():
            return self.curating.restore(memory_id, reason, actor)

    def forget(self, memory_id: object, reason: object, actor: object = None) -> ForgetResult:
        return self.curating.forget(memory_id, reason, actor)

    def resolve(
        self,
        first_id: object,
        second_id: object,
        verdict: object,
        winner: object = None,
        reason: object = None,
        actor: object = None,
    ) -> ResolveResult:
        return self.curating.resolve(first_id, second_id, verdict, winner, reason, actor)

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
        with self._call():
            return self.evidence.observe(memory_id, agrees, kind, source, origin, note, weight)

    def review(self, record_questions: bool = True) -> ReviewResult:
        return self.evidence.review(record_questions)

    def stats(self) -> StatsResult:
        return self.evidence.stats()

    def consolidate(self) -> ConsolidateResult:
        plan, result = self.contradictions.consolidate()
        self.db.apply(plan)
        return result

    def conflicts(self) -> ConflictsResult:
        return self.contradictions.report()
