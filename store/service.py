"""The memory service: one facade over small services, the one object the MCP tools and
the CLI call. It composes them; it holds no rules of its own.

    remembering   a note becomes a memory, anchored, checked, its conflicts decided
    recalling     recall, show, list, verify, digest, audit
    curating      retract, restore, forget, resolve (an agent judges a pair)
    evidence      observe, review, stats
    contradictions  consolidate, conflicts
    transfer      export, import, supersede
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from anchors.fingerprint import CodeSource
from store.backend import Store
from store.errors import AnchormemError
from store.model import Memory, Status
from store.reader import Reader, ServiceSettings
from store.recalling import Progress, Recalling
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

if TYPE_CHECKING:
    # Imported and made on first use (``MemoryService.remembering`` ...): a read-only
    # call never pays for the writers (the note extractor, the claim pairing).
    from store.contradictions.checking import Contradictions
    from store.curating import Curating
    from store.evidence.curating import EvidenceCuration
    from store.remembering import Remembering
    from store.transfer import ImportReport
    from store.transferring import Transfer

__all__ = ["Activity", "MemoryService", "ServiceSettings", "Warmed"]

_COPY_POLL_S = 0.05  # how often warming looks for the copy before it is loaded
_YIELD_S = 0.002  # how long warming steps aside while a call runs
_PRIMING_NOTE = (
    "The project uses pytest for its tests and click for its command line; the request"
    " timeout is 30 seconds, set in pyproject.toml and read by the settings module."
)


@dataclass(frozen=True)
class Warmed:
    """What ``MemoryService.warm`` did: memories warmed, and the seconds it took."""

    memories: int
    seconds: float
    stopped: bool


class Activity:
    """The calls in flight over one store, and when the last one ended: shared by every
    service of a process over that store (the owner keeps one per client's settings), so
    that background work (warming, the idle drain) steps aside for any of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls = 0
        self._last = time.monotonic()

    def enter(self) -> None:
        with self._lock:
            self._calls += 1

    def leave(self) -> None:
        with self._lock:
            self._calls -= 1
            self._last = time.monotonic()

    @property
    def busy(self) -> bool:
        return self._calls > 0

    def idle_for(self) -> float:
        """Seconds since the last call ended; 0 while one runs."""
        with self._lock:
            return 0.0 if self._calls else time.monotonic() - self._last


class MemoryService:
    """Behaviour of anchormem; the MCP tools and the CLI are thin skins over it."""

    def __init__(
        self,
        db: Store,
        code: CodeSource | None,
        settings: ServiceSettings | None = None,
        activity: Activity | None = None,
    ) -> None:
        """``activity``: shared with the other services of this store in this process."""
        self.db = db
        self.code = code
        self.settings = settings or ServiceSettings()
        verifier = Verifier(db, code, self.settings.verify_budget_s, self.settings.verify)
        self._reader = Reader(db, verifier, self.settings)
        self.recalling = Recalling(self._reader)
        self._parts = threading.RLock()  # one of each part, made by whichever call is first
        self._remembering: Remembering | None = None
        self._curating: Curating | None = None
        self._evidence: EvidenceCuration | None = None
        self._transfer: Transfer | None = None
        self.activity = activity or Activity()  # warming and the idle drain step aside

    # -- the parts that write, made on first use ------------------------------------------
    @property
    def contradictions(self) -> Contradictions:
        return self._reader.contradictions

    @property
    def remembering(self) -> Remembering:
        with self._parts:
            if self._remembering is None:
                from store.remembering import Remembering

                self._remembering = Remembering(self._reader)
            return self._remembering

    @property
    def curating(self) -> Curating:
        with self._parts:
            if self._curating is None:
                from store.curating import Curating

                self._curating = Curating(self._reader)
            return self._curating

    @property
    def evidence(self) -> EvidenceCuration:
        with self._parts:
            if self._evidence is None:
                from store.evidence.curating import EvidenceCuration

                self._evidence = EvidenceCuration(self._reader, lambda: self.remembering)
            return self._evidence

    @property
    def transfer(self) -> Transfer:
        with self._parts:
            if self._transfer is None:
                from store.transferring import Transfer

                self._transfer = Transfer(self._reader, lambda: self.remembering)
            return self._transfer

    @contextmanager
    def _call(self) -> Iterator[None]:
        """One call: HEAD resolved once, every memory checked against that commit."""
        self.activity.enter()
        try:
            self.db.begin_call()
            if self.code is None:
                yield
                return
            with self.code.one_head():
                yield
        finally:
            self.activity.leave()

    def idle_for(self) -> float:
        """Seconds since the last call over this store ended (any service's); 0 while one
        runs."""
        return self.activity.idle_for()

    def warm(self, stop: threading.Event) -> Warmed:
        """Fill the caches of the contradiction check for the memories of this process's
        copy (newest first, at most ``resolving.WARM_LIMIT``), in the background of a
        long-lived server: one memory at a time, stepping aside while a call runs, and
        never holding the store. Waits for the copy to be loaded (by the first call, or by
        the store's owner at once: ``Runtime.start_background``). Returns when
        done or when ``stop`` is set."""
        from store.contradictions import resolving
        from store.hostile import hostile_flags

        memories = self.db.copy_memories()
        while memories is None:
            if stop.wait(_COPY_POLL_S):
                return Warmed(0, 0.0, True)
            memories = self.db.copy_memories()
        started = time.perf_counter()
        self._prime()
        live = [m for m in memories if not m.forgotten]
        live.sort(key=lambda m: m.created_at, reverse=True)
        done = 0
        for mem in live[: resolving.WARM_LIMIT]:
            while self.activity.busy and not stop.is_set():
                stop.wait(_YIELD_S)
            if stop.is_set():
                return Warmed(done, time.perf_counter() - started, True)
            resolving.warm(mem)
            hostile_flags(mem.text, mem.subject)  # every reading asks
            done += 1
            time.sleep(0)  # let a call that just arrived have the interpreter
        return Warmed(done, time.perf_counter() - started, False)

    def _prime(self) -> None:
        """Plan (and drop) one note naming tools, files and settings, so that what the
        first ``remember`` would read cold is read now: the fingerprint of HEAD, the
        package vocabulary, the repository's configuration files. Nothing is written."""
        from anchors.mentions import config_tokens

        config_tokens()  # the whole vocabulary, read the first time a package is looked for
        try:
            note = self.remembering.note(_PRIMING_NOTE, origin="anchormem:warm")
            if self.code is None:
                self.remembering.prepare(note)
                return
            with self.code.one_head():
                self.remembering.prepare(note)
        except AnchormemError:
            pass  # the store or the repository cannot be read now: the call will say why

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
        with self._call():
            return self.recalling.audit(memory_id, limit)

    def stored(self, ids: Sequence[str] | None = None) -> dict[str, Memory]:
        """Memories as stored, neither checked nor changed (every one not forgotten when
        ``ids`` is None): what the CLI compares a check with, and the times it shows."""
        if ids is None:
            ids = self.db.list_ids(list(Status), 10_000_000)
        return self.db.load(ids)

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
        with self._call():
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
        with self._call():
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
        with self._call():
            return self.evidence.review(record_questions)

    def stats(self) -> StatsResult:
        with self._call():
            return self.evidence.stats()

    def consolidate(self) -> ConsolidateResult:
        with self._call():
            plan, result = self.contradictions.consolidate()
            self.db.apply(plan)
            return result

    def conflicts(self) -> ConflictsResult:
        with self._call():
            return self.contradictions.report()

    def export(self, statuses: Sequence[object] | None = None) -> Iterator[str]:
        """The lines of an export file (JSON Lines, header first; ``store.transfer``)."""
        # a generator, read after this returns: the store's copy is brought current now
        self.db.begin_call()
        return self.transfer.export(statuses)

    def import_lines(self, lines: Iterable[str], actor: object = None) -> ImportReport:
        with self._call():
            return self.transfer.import_lines(lines, actor)

    def supersede(
        self,
        memory_id: object,
        text: object,
        reason: object = None,
        actor: object = None,
        subject: object = None,
        source: object = "user",
    ) -> RememberResult:
        """Replace a memory's text by a new memory that supersedes it, with a receipt."""
        with self._call():
            return self.transfer.supersede(memory_id, text, reason, actor, subject, source)
