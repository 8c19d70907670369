"""The export file's lines and the typed values they hold (``anchormem export`` /
``import``, adr/0014): a header ``{"type": "anchormem-export", "format": 1, ...}``, one
line per memory and one per conflict-log row. Reading a line checks every value (types,
closed sets, limits, ids, times with a zone); a line that fails is refused on its own,
with its number and why. It decides nothing: ``store.transfer`` does.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from anchors.spec import Provenance, parse_anchor
from store.contradictions.rules import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
from store.errors import InvalidInput
from store.evidence.observations import ObservationKind
from store.inputs import clean_text
from store.limits import MAX_ANCHORS, MAX_ORIGIN_CHARS, MAX_REASON_CHARS, MAX_SUBJECT_CHARS
from store.model import (
    AuditAction,
    AuditEntry,
    Kind,
    Memory,
    Receipt,
    ReceiptAction,
    RefutedBy,
    Source,
    Status,
    StoredAnchor,
)
from store.plan import ConflictRecord, ImportedObservation

__all__ = [
    "FORMAT",
    "HEADER_TYPE",
    "ConflictLine",
    "ImportLine",
    "ImportOutcome",
    "MemoryLine",
    "Parsed",
    "encode_conflict",
    "encode_header",
    "encode_memory",
    "parse_export",
]

FORMAT = 1  # bumped when a reader of the old format could misread the new one
HEADER_TYPE = "anchormem-export"
_ID = re.compile(r"^[a-z][0-9a-z]{1,63}$")
E = TypeVar("E", bound=StrEnum)


class ImportOutcome(StrEnum):
    ADDED = "added"  # a memory new to this store, written as it was
    MERGED = "merged"  # the same claim as a memory here, under another id
    UNCHANGED = "unchanged"  # this store holds it already
    REFUSED = "refused"  # the line was not imported


@dataclass(frozen=True)
class ImportLine:
    line: int
    id: str | None
    outcome: ImportOutcome
    detail: str = ""
    into: str | None = None  # merged: the memory of this store it was merged into


# -- writing ---------------------------------------------------------------------------------
def _t(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def encode_header(memories: int, conflicts: int, at: datetime) -> dict[str, Any]:
    return {
        "type": HEADER_TYPE,
        "format": FORMAT,
        "exported_at": _t(at),
        "memories": memories,
        "conflicts": conflicts,
    }


def encode_memory(
    mem: Memory,
    receipts: Sequence[Receipt],
    observations: Sequence[ImportedObservation],
    trail: Sequence[AuditEntry],
) -> dict[str, Any]:
    """One memory's line. A tombstone's text is null."""
    return {
        "type": "memory",
        "id": mem.id,
        "text": None if mem.forgotten else mem.text,
        "subject": mem.subject,
        "kind": mem.kind.value,
        "scope": mem.scope,
        "source": mem.source.value,
        "origin": mem.origin,
        "created_at": _t(mem.created_at),
        "updated_at": _t(mem.updated_at),
        "commit": mem.commit,
        "status": mem.status.value,
        "refuted_by": mem.refuted_by.value if mem.refuted_by else None,
        "confidence": mem.confidence,
        "support": mem.support,
        "contradiction": mem.contradiction,
        "observation_count": mem.observations,
        "origins": list(mem.origins),
        "flags": list(mem.flags),
        "evidence_at": _t(mem.evidence_at),
        "last_confirmed_at": _t(mem.last_confirmed_at),
        "expires_at": _t(mem.expires_at),
        "forgotten_at": _t(mem.forgotten_at),
        "attribute": mem.attribute,
        "value": mem.slot_value,
        "anchors": [
            {
                "anchor": s.anchor.render(),
                "provenance": s.provenance.value,
                "found_in": list(s.found_in),
                "content_hash": s.content_hash,
            }
            for s in mem.anchors
        ],
        "links": {"derived_from": list(mem.derived_from), "supersedes": mem.supersedes},
        "receipts": [
            {
                "id": r.id,
                "action": r.action.value,
                "actor": r.actor,
                "reason": r.reason,
                "evidence": r.evidence,
                "cause": r.cause_id,
                "commit": r.commit,
                "at": _t(r.created_at),
            }
            for r in receipts
        ],
        "observations": [
            {
                "id": o.id,
                "at": _t(o.at),
                "agrees": o.agrees,
                "kind": o.kind.value,
                "source": o.source.value,
                "origin": o.origin,
                "weight": o.weight,
                "note": o.note,
            }
            for o in observations
        ],
        "trail": [
            {
                "seq": e.seq,
                "at": _t(e.at),
                "action": e.action.value,
                "from": e.from_status.value if e.from_status else None,
                "to": e.to_status.value if e.to_status else None,
                "actor": e.actor,
                "reason": e.reason,
                "receipt": e.receipt_id,
                "commit": e.commit,
                "detail": dict(e.detail),
            }
            for e in trail
        ],
    }


def encode_conflict(c: ConflictRecord) -> dict[str, Any]:
    return {
        "type": "conflict",
        "ids": [c.a_id, c.b_id],
        "kind": c.kind.value,
        "claims": [c.claim_a, c.claim_b],
        "state": c.state.value,
        "rule": c.rule.value,
        "outcome": c.outcome.value,
        "winner": c.winner,
        "loser": c.loser,
        "reason_code": c.reason_code.value,
        "confidences": [c.confidence_a, c.confidence_b],
        "slot": c.slot,
        "at": _t(c.at),
    }


# -- reading ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MemoryLine:
    """A memory line, parsed: the memory as it was and what came with it."""

    line: int
    memory: Memory
    receipts: tuple[Receipt, ...]
    observations: tuple[ImportedObservation, ...]
    trail: tuple[AuditEntry, ...]


@dataclass(frozen=True)
class ConflictLine:
    line: int
    record: ConflictRecord


class _Fields:
    """Typed access to one JSON object; a wrong value is ``InvalidInput`` naming it."""

    def __init__(self, data: object, what: str) -> None:
        if not isinstance(data, dict):
            raise InvalidInput(f"{what} must be an object")
        self.data: dict[str, Any] = data
        self.what = what

    def _get(self, key: str, kinds: tuple[type, ...], required: bool) -> Any:
        value = self.data.get(key)
        if value is None:
            if required:
                raise InvalidInput(f"{self.what}: '{key}' is missing")
            return None
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise InvalidInput(f"{self.what}: '{key}' has the wrong type")
        return value

    def text(self, key: str, limit: int = MAX_SUBJECT_CHARS, required: bool = False) -> Any:
        value = self._get(key, (str,), required)
        if value is not None and ("\x00" in value or len(value) > limit):
            raise InvalidInput(f"{self.what}: '{key}' is too long or holds a NUL")
        return value

    def ident(self, key: str, required: bool = False) -> Any:
        value = self.text(key, 64, required)
        if value is not None and not _ID.match(value):
            raise InvalidInput(f"{self.what}: '{key}' is not an id")
        return value

    def number(self, key: str, required: bool = True) -> float | None:
        value = self._get(key, (int, float), required)
        if value is not None and not math.isfinite(value):
            raise InvalidInput(f"{self.what}: '{key}' is not a finite number")
        return None if value is None else float(value)

    def flag(self, key: str) -> bool:
        return bool(self._get(key, (bool,), True))

    def time(self, key: str, required: bool = False) -> Any:
        value = self.text(key, 64, required)
        if value is None:
            return None
        try:
            at = datetime.fromisoformat(value)
        except ValueError:
            raise InvalidInput(f"{self.what}: '{key}' is not an ISO 8601 time") from None
        if at.tzinfo is None:
            raise InvalidInput(f"{self.what}: '{key}' has no time zone")
        return at

    def choice(self, key: str, cls: type[E], required: bool = True) -> Any:
        value = self.text(key, 64, required)
        if value is None:
            return None
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise InvalidInput(f"{self.what}: '{key}' must be one of {allowed}") from None

    def items(self, key: str, limit: int = 100_000) -> list[Any]:
        value = self._get(key, (list,), False) or []
        if len(value) > limit:
            raise InvalidInput(f"{self.what}: '{key}' holds more than {limit} items")
        return list(value)

    def strings(self, key: str, limit: int = 1_000) -> tuple[str, ...]:
        values = self.items(key, limit)
        if not all(isinstance(v, str) and len(v) <= MAX_SUBJECT_CHARS for v in values):
            raise InvalidInput(f"{self.what}: '{key}' must be a list of short texts")
        return tuple(values)


def _memory_line(number: int, f: _Fields) -> MemoryLine:
    mid = f.ident("id", required=True)
    forgotten_at = f.time("forgotten_at")
    text = f.data.get("text")
    if forgotten_at is None:
        text = clean_text(text, "text")  # the limits and the secrets rule of remember
    elif text is not None:
        raise InvalidInput("a forgotten memory carries no text")
    status = f.choice("status", Status)
    refuted_by = f.choice("refuted_by", RefutedBy, required=False)
    if (status is Status.REFUTED) != (refuted_by is not None):
        raise InvalidInput("'refuted_by' is given exactly when the status is REFUTED")
    anchors = []
    for a in f.items("anchors", MAX_ANCHORS):
        af = _Fields(a, "an anchor")
        anchors.append(
            StoredAnchor(
                parse_anchor(af.text("anchor", MAX_SUBJECT_CHARS, required=True)),
                af.choice("provenance", Provenance),
                af.strings("found_in"),
                af.text("content_hash", 128),
            )
        )
    links = _Fields(f.data.get("links") or {}, "links")
    memory = Memory(
        id=mid,
        text=text or "",
        subject=f.text("subject"),
        kind=f.choice("kind", Kind),
        scope=f.text("scope"),
        source=f.choice("source", Source),
        origin=f.text("origin", MAX_ORIGIN_CHARS, required=True),
        created_at=f.time("created_at", required=True),
        commit=f.text("commit", 64),
        status=status,
        refuted_by=refuted_by,
        confidence=f.number("confidence") or 0.0,
        support=f.number("support") or 0.0,
        contradiction=f.number("contradiction") or 0.0,
        anchors=tuple(anchors) if forgotten_at is None else (),
        derived_from=tuple(_ids(links.strings("derived_from"))),
        supersedes=links.ident("supersedes"),
        flags=f.strings("flags"),
        forgotten_at=forgotten_at,
        updated_at=f.time("updated_at"),
        observations=int(f.number("observation_count") or 1),
        origins=f.strings("origins"),
        evidence_at=f.time("evidence_at"),
        last_confirmed_at=f.time("last_confirmed_at"),
        expires_at=f.time("expires_at"),
        attribute=f.text("attribute"),
        slot_value=f.text("value"),
    )
    receipts = []
    for r in f.items("receipts"):
        rf = _Fields(r, "a receipt")
        receipts.append(
            Receipt(
                rf.ident("id", required=True),
                mid,
                rf.choice("action", ReceiptAction),
                rf.text("actor", MAX_ORIGIN_CHARS, required=True),
                rf.text("reason", MAX_REASON_CHARS, required=True),
                rf.time("at", required=True),
                rf.text("evidence", MAX_REASON_CHARS * 4),
                rf.ident("cause"),
                rf.text("commit", 64),
            )
        )
    observations = []
    for o in f.items("observations"):
        of = _Fields(o, "an observation")
        observations.append(
            ImportedObservation(
                of.ident("id", required=True),
                of.time("at", required=True),
                of.flag("agrees"),
                of.choice("kind", ObservationKind),
                of.choice("source", Source),
                of.text("origin", MAX_ORIGIN_CHARS, required=True),
                of.number("weight") or 0.0,
                None if forgotten_at else of.text("note", MAX_REASON_CHARS * 4),
            )
        )
    trail = []
    for e in f.items("trail"):
        ef = _Fields(e, "an audit entry")
        detail = ef.data.get("detail") or {}
        if not isinstance(detail, dict) or len(json.dumps(detail)) > 100_000:
            raise InvalidInput("an audit entry: 'detail' must be a small object")
        trail.append(
            AuditEntry(
                int(ef.number("seq") or 0),
                mid,
                ef.time("at", required=True),
                ef.choice("action", AuditAction),
                ef.choice("from", Status, required=False),
                ef.choice("to", Status, required=False),
                ef.text("actor", MAX_ORIGIN_CHARS, required=True),
                ef.text("reason", MAX_REASON_CHARS * 4),
                ef.ident("receipt"),
                ef.text("commit", 64),
                detail,
            )
        )
    return MemoryLine(number, memory, tuple(receipts), tuple(observations), tuple(trail))


def _ids(values: Iterable[str]) -> Iterable[str]:
    for v in values:
        if not _ID.match(v):
            raise InvalidInput(f"links: {v!r} is not an id")
        yield v


def _conflict_line(number: int, f: _Fields) -> ConflictLine:
    ids = f.strings("ids", 2)
    claims = f.items("claims", 2)
    confidences = f.items("confidences", 2)
    if len(ids) != 2 or not all(_ID.match(i) for i in ids) or len(claims) != 2:
        raise InvalidInput("a conflict names two ids and their two claims")
    if not all(c is None or isinstance(c, str) for c in claims) or len(confidences) != 2:
        raise InvalidInput("a conflict's claims are texts and it has two confidences")
    if not all(c is None or isinstance(c, int | float) for c in confidences):
        raise InvalidInput("a conflict's confidences are numbers")
    record = ConflictRecord(
        a_id=ids[0],
        b_id=ids[1],
        kind=f.choice("kind", ConflictKind),
        claim_a=claims[0],
        claim_b=claims[1],
        state=f.choice("state", ConflictState),
        rule=f.choice("rule", Rule),
        outcome=f.choice("outcome", Outcome),
        winner=f.ident("winner"),
        loser=f.ident("loser"),
        reason_code=f.choice("reason_code", ReasonCode),
        confidence_a=confidences[0],
        confidence_b=confidences[1],
        slot=f.text("slot"),
        at=f.time("at", required=True),
    )
    return ConflictLine(number, record)


@dataclass(frozen=True)
class Parsed:
    memories: tuple[MemoryLine, ...]
    conflicts: tuple[ConflictLine, ...]
    refused: tuple[ImportLine, ...]


def parse_export(lines: Iterable[str]) -> Parsed:
    """The lines of an export file. A missing header or a newer format refuses the whole
    file (``InvalidInput``); any other bad line is refused on its own."""
    memories: list[MemoryLine] = []
    conflicts: list[ConflictLine] = []
    refused: list[ImportLine] = []
    seen: set[str] = set()
    header = False
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            if not header:
                raise InvalidInput("line 1 is not JSON: not an anchormem export") from None
            refused.append(ImportLine(number, None, ImportOutcome.REFUSED, "not JSON"))
            continue
        kind = data.get("type") if isinstance(data, dict) else None
        if not header:
            if kind != HEADER_TYPE:
                raise InvalidInput(
                    f"line {number} is not an anchormem export header "
                    f'({{"type": "{HEADER_TYPE}", "format": {FORMAT}}})'
                )
            version = data.get("format")
            if not isinstance(version, int) or version < 1 or version > FORMAT:
                raise InvalidInput(
                    f"export format {version!r} is not one this anchormem reads (1 to {FORMAT});"
                    " nothing was imported"
                )
            header = True
            continue
        try:
            if kind == "memory":
                parsed = _memory_line(number, _Fields(data, "a memory"))
                if parsed.memory.id in seen:
                    raise InvalidInput(f"memory {parsed.memory.id} appears twice in the file")
                seen.add(parsed.memory.id)
                memories.append(parsed)
            elif kind == "conflict":
                conflicts.append(_conflict_line(number, _Fields(data, "a conflict")))
            else:
                raise InvalidInput(f"unknown line type {kind!r} (memory or conflict)")
        except InvalidInput as exc:
            mid = data.get("id") if isinstance(data, dict) else None
            shown = mid if isinstance(mid, str) and _ID.match(mid) else None
            refused.append(ImportLine(number, shown, ImportOutcome.REFUSED, str(exc)))
    if not header:
        raise InvalidInput("the file is empty: not an anchormem export")
    return Parsed(tuple(memories), tuple(conflicts), tuple(refused))
