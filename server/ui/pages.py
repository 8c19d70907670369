"""What each page of the inspector shows, gathered from the memory service's results and
rendered by ``server.rendering`` (every free text revealed: hidden characters become
visible ``[U+XXXX]`` escapes). Nothing here decides anything about a memory: the filters
only choose among the readings the service returns.

Without a query the memories page lists memories newest first, asking the service for as
many as the page needs (``list_memories``); a filter the service does not take (kind,
source, band, age, conflicts) is applied to what it returns, reading further until the
page is full or the store is read (``SCAN_LIMIT`` at most). With a query it is recall's
ranking and scores (``SEARCH_LIMIT`` hits, refuted ones included: a person reviews them
too). Each page has a digest of what it shows, which the live refresh compares.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from server.rendering import (
    audit_entry,
    conflict,
    dump,
    memory,
    possible_conflict,
    render_result,
    why,
)
from server.uncovered import uncovered_words
from store.contradictions.outcomes import ConflictState
from store.errors import InvalidInput, NotFound
from store.evidence.confidence import Band
from store.hostile import reveal, reveal_all
from store.limits import MAX_QUERY_CHARS, MAX_RECALL_LIMIT
from store.model import Kind, Source, Status
from store.plan import ConflictRecord
from store.reading import Reading, VerificationState

if TYPE_CHECKING:
    from server.ui.link import Service

__all__ = [
    "AGES",
    "PER_PAGE",
    "SCAN_LIMIT",
    "SEARCH_LIMIT",
    "Checked",
    "Filters",
    "MemoriesPage",
    "MemoryPage",
    "Pair",
    "ReviewPage",
    "Row",
    "matching",
    "memories_page",
    "memory_page",
    "review_page",
]

PER_PAGE = 50
SEARCH_LIMIT = MAX_RECALL_LIMIT  # the most one recall returns
SCAN_LIMIT = 10_000  # the most one list_memories returns
# A person opening one memory waits for its verdicts, as `anchormem show` does; a list
# keeps the read budget and says which memories are not checked yet.
SHOW_WAIT_S = 10.0
RELATED = 5
PAIRS_SHOWN = 20  # open conflicts shown side by side on the review page; the rest counted
_FIRST_SCAN = 500  # memories read first when a filter the service does not take is set
# "written within" a day, a week, a month; "older" than a month
AGES: dict[str, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=30),
    "older": timedelta(days=30),
}
_OPEN = (ConflictState.OPEN, ConflictState.POSSIBLE)


def _choice(params: Mapping[str, str], name: str, allowed: Sequence[str], fold: str) -> str:
    raw = (params.get(name) or "").strip()
    value = raw.upper() if fold == "upper" else raw.lower()
    if value and value not in allowed:
        raise InvalidInput(f"unknown {name} {raw[:40]!r}; one of {', '.join(allowed)}")
    return value


@dataclass(frozen=True)
class Filters:
    """The memories page's query: search words, filters and the page number."""

    q: str = ""
    status: str = ""
    kind: str = ""
    source: str = ""
    band: str = ""
    age: str = ""
    conflicts: bool = False
    page: int = 1

    @classmethod
    def parse(cls, params: Mapping[str, str]) -> Filters:
        """From a request's query parameters; an unknown value is ``InvalidInput``."""
        q = " ".join((params.get("q") or "").split())
        if len(q) > MAX_QUERY_CHARS:
            raise InvalidInput(f"the search is longer than {MAX_QUERY_CHARS} characters")
        page = (params.get("page") or "1").strip()
        if not page.isdigit() or not 1 <= int(page) <= SCAN_LIMIT // PER_PAGE:
            raise InvalidInput(f"page must be a number from 1 to {SCAN_LIMIT // PER_PAGE}")
        return cls(
            q=q,
            status=_choice(params, "status", [s.value for s in Status], "upper"),
            kind=_choice(params, "kind", [k.value for k in Kind], "lower"),
            source=_choice(params, "source", [s.value for s in Source], "lower"),
            band=_choice(params, "band", [b.value for b in Band], "lower"),
            age=_choice(params, "age", list(AGES), "lower"),
            conflicts=_choice(params, "conflicts", ["open"], "lower") == "open",
            page=int(page),
        )

    def query(self, **changes: Any) -> str:
        """This query as URL parameters (empty values left out), with ``changes``."""
        values = {**self.__dict__, **changes}
        pairs = [
            (k, "open" if k == "conflicts" else str(v))
            for k, v in values.items()
            if v and not (k == "page" and v == 1)
        ]
        return urlencode(pairs)

    @property
    def narrowing(self) -> bool:
        """A filter the service does not take: applied to the memories it returns."""
        return bool(self.kind or self.source or self.band or self.age or self.conflicts)

    def admits(self, reading: Reading, now: datetime, in_conflict: Mapping[str, int]) -> bool:
        """Whether ``reading`` passes every filter."""
        m = reading.memory
        age = now - m.created_at
        return not (
            (self.status and m.status.value != self.status)
            or (self.kind and m.kind.value != self.kind)
            or (self.source and m.source.value != self.source)
            or (self.band and reading.standing.band.value != self.band)
            or (self.age == "older" and age <= AGES["older"])
            or (self.age and self.age != "older" and age > AGES[self.age])
            or (self.conflicts and not in_conflict.get(m.id))
        )


@dataclass(frozen=True)
class Checked:
    """At which commit the verdicts on a page were computed."""

    commit: str | None
    unchecked: int = 0  # memories without a verdict yet (the read budget ran out)
    elsewhere: int = 0  # verdicts computed at another commit than ``commit``

    @classmethod
    def of(cls, rows: Sequence[Row], head: str | None = None) -> Checked:
        """From the records shown; ``head``: the commit the service says it read."""
        commits = Counter(r.record["checked_commit"] for r in rows if r.record["checked_commit"])
        commit = head or (commits.most_common(1)[0][0] if commits else None)
        waiting = sum(
            r.record["verification"].startswith(VerificationState.UNCHECKED.value)
            and not r.record["forgotten"]
            for r in rows
        )
        return cls(commit, waiting, sum(n for c, n in commits.items() if c != commit))


@dataclass(frozen=True)
class Row:
    """One memory in a list: its record as the tools render it, and its line of status."""

    record: dict[str, Any]
    why: str
    score: float | None = None
    conflicts: int = 0

    @property
    def digest(self) -> str:
        """What the live refresh compares to mark this row changed."""
        return _digest(self.key())

    def key(self) -> list[Any]:
        """What the row shows that can change: the parts of the page's digest."""
        r = self.record
        return [
            r["id"],
            r["status"],
            r["verification"],
            r["band"],
            r["confidence"],
            r["forgotten"],
            self.conflicts,
            [a["verdict"] for a in r["anchors"]],
        ]


def _row(reading: Reading, score: float | None = None, conflicts: int = 0) -> Row:
    return Row(reveal_all(memory(reading)), reveal(why(reading)), score, conflicts)


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _open_pairs(service: Service) -> list[ConflictRecord]:
    """The pairs waiting for a judgement: open conflicts and possible ones, both sides
    still there."""
    return [
        r
        for r in service.conflicts().conflicts
        if r.state in _OPEN and r.claim_a is not None and r.claim_b is not None
    ]


def _counts(pairs: Sequence[ConflictRecord]) -> Counter[str]:
    return Counter(i for r in pairs for i in (r.a_id, r.b_id))


@dataclass(frozen=True)
class MemoriesPage:
    filters: Filters
    rows: tuple[Row, ...]
    more: bool  # there is a next page
    read: int  # memories the service returned to fill this page
    complete: bool  # every memory the filters could admit was looked at
    checked: Checked
    open_conflicts: int

    @property
    def digest(self) -> str:
        """What the live refresh compares (``server.ui.routes.Inspector.live``)."""
        return _digest(
            [self.filters.query(), [r.key() for r in self.rows], self.more, self.open_conflicts]
        )


def memories_page(service: Service, filters: Filters, now: datetime) -> MemoriesPage:
    """The memories page for ``filters`` (see the module docstring)."""
    pairs = _open_pairs(service)
    in_conflict = _counts(pairs)
    want = filters.page * PER_PAGE + 1  # one more tells whether a next page exists
    head = None
    scores: Mapping[str, float] = {}
    if filters.q:
        found = service.recall(filters.q, SEARCH_LIMIT, True)
        readings, head, scores = list(found.readings), found.checked_commit, found.scores
        hits = [r for r in readings if filters.admits(r, now, in_conflict)]
        complete = True
    else:
        hits, listed, complete = _scan(service, filters, want, now, in_conflict)
        readings = list(listed)
    start = (filters.page - 1) * PER_PAGE
    rows = tuple(
        _row(r, scores.get(r.id), in_conflict.get(r.id, 0)) for r in hits[start : start + PER_PAGE]
    )
    return MemoriesPage(
        filters,
        rows,
        len(hits) > start + PER_PAGE,
        len(readings),
        complete,
        Checked.of(rows, head),
        len(pairs),
    )


def _scan(
    service: Service, filters: Filters, want: int, now: datetime, in_conflict: Mapping[str, int]
) -> tuple[list[Reading], Sequence[Reading], bool]:
    """Memories newest first until ``want`` pass the filters, the store has no more, or
    the age filter's window is behind (``SCAN_LIMIT`` read at most): the hits, what was
    read, and whether that was everything the filters could admit."""
    status = filters.status or None
    window = max(want * 4, _FIRST_SCAN) if filters.narrowing else want
    within = AGES[filters.age] if filters.age and filters.age != "older" else None
    while True:
        window = min(window, SCAN_LIMIT)
        readings = service.list_memories(status, window).readings
        hits = [r for r in readings if filters.admits(r, now, in_conflict)]
        ended = len(readings) < window
        behind = bool(within and readings and now - readings[-1].memory.created_at > within)
        if len(hits) >= want or ended or behind or window >= SCAN_LIMIT:
            return hits, readings, ended or behind or len(hits) >= want
        window *= 4


def matching(service: Service, filters: Filters, now: datetime) -> list[dict[str, Any]]:
    """Every memory ``filters`` admit, on every page (``SEARCH_LIMIT`` with a query,
    ``SCAN_LIMIT`` without), as the tools render it: the inspector's export."""
    in_conflict = _counts(_open_pairs(service)) if filters.conflicts else Counter[str]()
    if filters.q:
        readings = service.recall(filters.q, SEARCH_LIMIT, True).readings
        hits = [r for r in readings if filters.admits(r, now, in_conflict)]
    else:
        hits, _, _ = _scan(service, filters, SCAN_LIMIT, now, in_conflict)
    return [reveal_all(memory(r)) for r in hits]


@dataclass(frozen=True)
class Pair:
    """One logged judgement of a pair, both sides as they are now where still there."""

    record: dict[str, Any]  # conflict() or possible_conflict() of the log row
    open: bool
    possible: bool
    sides: tuple[Row | None, Row | None] = (None, None)

    @property
    def ids(self) -> tuple[str, str]:
        """The pair's two memory ids, in the order the log keeps them."""
        a, b = self.record["ids"]
        return str(a), str(b)


def _pair(service: Service, r: ConflictRecord, with_sides: bool) -> Pair:
    is_open = r.state in _OPEN
    shown = possible_conflict(r) if is_open else conflict(r)
    sides: tuple[Row | None, Row | None] = (None, None)
    if with_sides:
        sides = (_side(service, r.a_id), _side(service, r.b_id))
    return Pair(reveal_all(shown), is_open, r.state is ConflictState.POSSIBLE, sides)


def _side(service: Service, memory_id: str) -> Row | None:
    try:
        return _row(service.show(memory_id).reading)
    except NotFound:
        return None


@dataclass(frozen=True)
class MemoryPage:
    record: dict[str, Any]  # the full record, as `anchormem show --json` prints it
    why: str
    uncovered: tuple[str, ...]  # the note's words no anchor covers (as `show` names them)
    evidence: dict[str, Any]
    audit: tuple[dict[str, Any], ...]
    pairs: tuple[Pair, ...]
    related: tuple[Row, ...]
    checked: Checked
    actions: frozenset[str]
    open_conflicts: int

    @property
    def digest(self) -> str:
        """What the live refresh compares (``server.ui.routes.Inspector.live``)."""
        r = self.record
        return _digest(
            [
                r["status"],
                r["verification"],
                r["band"],
                r["confidence"],
                r["forgotten"],
                [a["verdict"] for a in r["anchors"]],
                [x["id"] for x in r["receipts"]],
                [e["seq"] for e in self.audit],
                [p.record for p in self.pairs],
                [x.record["id"] for x in self.related],
                self.open_conflicts,
            ]
        )


def memory_page(service: Service, memory_id: str) -> MemoryPage:
    """Everything about one memory: the record with each anchor's verdict at HEAD, its
    standing and evidence, receipts, audit trail, related notes and the pairs it is in."""
    shown = service.show(memory_id, SHOW_WAIT_S)
    reading = shown.reading
    mem = reading.memory
    trail = service.audit(mem.id).entries
    logged = service.conflicts().conflicts
    mine = sorted(
        (r for r in logged if mem.id in (r.a_id, r.b_id)),
        key=lambda r: (r.state not in _OPEN, -r.seq),
    )
    related: list[Row] = []
    if not mem.forgotten and mem.text.strip():
        found = service.recall(mem.text[:MAX_QUERY_CHARS], RELATED + 1)
        related = [_row(r, found.scores.get(r.id)) for r in found.readings if r.id != mem.id][
            :RELATED
        ]
    actions = set()
    if not mem.forgotten:
        actions.add("forget")
        actions.add("restore" if mem.retracted else "retract")
    evidence = reveal_all(
        {
            "support": round(mem.support, 2),
            "contradiction": round(mem.contradiction, 2),
            "origins": list(mem.origins),
            "evidence_at": mem.evidence_at.isoformat(timespec="seconds")
            if mem.evidence_at
            else None,
            "observations": [audit_entry(e) for e in trail if e.action.value == "observe"],
        }
    )
    row = _row(reading)
    record = dump(render_result(shown))
    anchors = [str(a["anchor"]) for a in record["anchors"]]
    return MemoryPage(
        record,
        row.why,
        tuple(uncovered_words(record["text"], anchors, record.get("flags") or ())),
        evidence,
        tuple(audit_entry(e) for e in trail),
        tuple(_pair(service, r, False) for r in mine),
        tuple(related),
        Checked.of([row]),
        frozenset(actions),
        len([r for r in logged if r.state in _OPEN]),
    )


@dataclass(frozen=True)
class ReviewPage:
    items: tuple[dict[str, Any], ...]
    questions: tuple[dict[str, Any], ...]
    pairs: tuple[Pair, ...]
    more_pairs: int
    flipping: tuple[dict[str, Any], ...]
    checked: Checked = field(default_factory=lambda: Checked(None))

    @property
    def open_conflicts(self) -> int:
        return len(self.pairs) + self.more_pairs

    @property
    def digest(self) -> str:
        """What the live refresh compares (``server.ui.routes.Inspector.live``)."""
        return _digest(
            [
                list(self.items),
                [p.record for p in self.pairs],
                self.more_pairs,
                [[s.key() if s else None for s in p.sides] for p in self.pairs],
            ]
        )


def review_page(service: Service) -> ReviewPage:
    """The review queue (without recording this week's questions as asked: looking is not
    asking) and the pairs waiting for a judgement, side by side."""
    queue = service.review(record_questions=False)
    report = service.conflicts()
    pairs = [
        r
        for r in report.conflicts
        if r.state in _OPEN and r.claim_a is not None and r.claim_b is not None
    ]
    pairs.sort(key=lambda r: -r.seq)
    shown = tuple(_pair(service, r, True) for r in pairs[:PAIRS_SHOWN])
    sides = [s for p in shown for s in p.sides if s is not None]
    items = (
        {
            "id": i.id,
            "action": i.action.value,
            "confidence": i.confidence,
            "text": i.text,
            "staleness_days": i.staleness_days,
        }
        for i in queue.items
    )
    return ReviewPage(
        tuple(reveal_all(list(items))),
        tuple(
            reveal_all(
                [{"id": q.id, "user": q.user, "question": q.question} for q in queue.questions]
            )
        ),
        shown,
        max(0, len(pairs) - PAIRS_SHOWN),
        tuple(
            reveal_all(
                [
                    {"slot": f.slot, "values": list(f.values), "reversals": f.reversals}
                    for f in report.flipping_slots
                ]
            )
        ),
        Checked.of(sides),
    )
