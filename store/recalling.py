"""Reading the store: recall (ranked by BM25 over the recall index), show, list, verify,
digest and the audit trail, every memory checked against the code at HEAD."""

from __future__ import annotations

from collections.abc import Callable

from store.backend import utcnow
from store.hostile import reveal
from store.inputs import clean_text, parse_choice, parse_limit, parse_score
from store.limits import MAX_QUERY_CHARS, MAX_QUERY_TOKENS
from store.mirror import Mirror
from store.model import Status
from store.reader import Reader
from store.reading import Reading, is_served
from store.results import AuditResult, ListResult, RecallResult, ShowResult
from store.search import DIGITS, prior, query_terms, query_tokens

__all__ = ["Progress", "Recalling"]

Progress = Callable[[int, int], None]
_SEARCHED = (Status.ACTIVE, Status.VERIFIED, Status.REFUTED)
_NAMED_REFUTED = 3  # refuted matches named in an answer, at most
_SPARE = 2  # hits read beyond those still wanted, for the few that are not served


class Recalling:
    def __init__(self, reader: Reader) -> None:
        self._reader = reader
        self._db = reader.db

    def recall(
        self,
        query: object,
        limit: object = 10,
        include_refuted: bool = False,
        wait_s: float | None = None,
        min_score: object = 0.0,
    ) -> RecallResult:
        """Memories relevant to ``query``, best first, each checked against the code at
        HEAD, with its score (``search.score``: BM25 times the prior of its status and
        confidence); REFUTED ones are left out unless ``include_refuted``, and matches
        scoring below ``min_score``. ``wait_s``: wait that long for the fingerprint and
        check every hit (a person at a terminal waits; an agent's call keeps the
        verification budget)."""
        q = clean_text(query, "query", MAX_QUERY_CHARS)
        n = parse_limit(limit)
        floor = parse_score(min_score)
        terms = query_terms(query_tokens(q)[:MAX_QUERY_TOKENS])

        wanted = n * 3 + 5  # enough for hits that are not served (refuted, expired)

        def matches(m: Mirror) -> dict[str, float]:
            # Those that may be among the best ``wanted`` once weighed by their prior
            # (every posting scored at once, ``TermIndex``); ranked exactly below.
            return dict(m.index.ranked(terms, wanted, floor))

        found = self._db.search(matches)
        memories = self._db.load(list(found))
        scores = {
            mem.id: round(found[mem.id] * prior(mem.status, mem.confidence), DIGITS)
            for mem in memories.values()
            if not mem.forgotten and mem.status in _SEARCHED
        }
        ranked = sorted(
            (memories[i] for i, score in scores.items() if score >= floor and score > 0),
            key=lambda mem: (-scores[mem.id], -mem.created_at.timestamp(), mem.id),
        )
        ids = [mem.id for mem in ranked[:wanted]]
        now = utcnow()
        # Read (and check) best first, each time as many as are still wanted and two more,
        # until ``n`` are served: a reading costs its verdicts, and most hits are served.
        readings: list[Reading] = []
        refuted: list[str] = []
        start = 0
        while start < len(ids) and len(readings) < n:
            take = n - len(readings) + _SPARE
            for r in self._reader.readings(ids[start : start + take], wait_s):
                if is_served(r, include_refuted, now):
                    readings.append(r)
                elif r.memory.status is Status.REFUTED and len(readings) < n:
                    refuted.append(r.id)
            start += take
        served = self._reader.with_conflicts(readings[:n])
        return RecallResult(
            reveal(q),
            self._reader.verifier.head(),
            tuple(served),
            {r.id: scores[r.id] for r in served if r.id in scores},
            tuple(refuted[:_NAMED_REFUTED]),
        )

    def show(self, memory_id: object, wait_s: float | None = None) -> ShowResult:
        mem = self._reader.get(memory_id)
        reading = self._reader.readings([mem.id], wait_s)[0]
        return ShowResult(reading, tuple(self._db.receipts(mem.id)))

    def list_memories(
        self, status: object = None, limit: object = 50, wait_s: float | None = None
    ) -> ListResult:
        """Memories by stored status, each checked against HEAD (within the budget, or
        waiting ``wait_s`` for the fingerprint)."""
        statuses = (
            list(Status) if status in (None, "") else [parse_choice(Status, status, "status")]
        )
        ids = self._db.list_ids(statuses, parse_limit(limit, 10_000))
        return ListResult(tuple(self._reader.readings(ids, wait_s)))

    def audit(self, memory_id: object = None, limit: int = 1000) -> AuditResult:
        mid = self._reader.get(memory_id).id if memory_id is not None else None
        return AuditResult(tuple(self._db.audit(mid, limit)))

    def verify(self, memory_id: object = None, progress: Progress | None = None) -> ListResult:
        """Check memories against the code at HEAD now, waiting for the fingerprint."""
        if memory_id is not None:
            ids = [self._reader.get(memory_id).id]
        else:
            ids = self._db.list_ids(list(Status), 10_000_000)
        self._reader.verifier.fingerprint(progress)
        readings = self._reader.readings(ids, self._reader.settings.capture_wait_s)
        return ListResult(tuple(readings), self._reader.verifier.head())

    def digest(self, limit: int = 20) -> ListResult:
        ids = self._db.list_ids([Status.VERIFIED, Status.ACTIVE], limit * 2, by_confidence=True)
        readings = [r for r in self._reader.readings(ids) if r.memory.status is not Status.REFUTED]
        return ListResult(tuple(readings[:limit]), self._reader.verifier.head())
