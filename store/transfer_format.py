"""The export file's lines and the typed values they hold (``anchormem export`` /
``import``, adr/0014): a header ``{"type": "anchormem-export", "format": 1, ...}``, one
line per memory and one per conflict-log row. Reading a line checks every value (types,
closed sets, limits, ids, times with a zone, the size and nesting of its JSON:
``store.bounded_json``) and redacts every free text in it (``store.transfer_fields``); a
line that fails is refused on its own, with its number and why. It decides nothing:
``store.transfer`` and ``store.transfer_trust`` do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from anchors.spec import Provenance, parse_anchor
from store.bounded_json import MAX_LINE_CHARS, MAX_LINE_DEPTH, nesting
from store.contradictions.outcomes import ConflictKind, ConflictState, Outcome, ReasonCode, Rule
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
from store.redaction import holds_secret
from store.transfer_fields import ID, Fields

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
    # added: what this store holds with less trust than the file claimed, one phrase each
    downgraded: tuple[str, ...] = ()


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
    """A memory line, parsed: the memory as it was and what came with it, and what reading
    it took away (its fields whose secrets were replaced, the anchors it dropped)."""

    line: int
    memory: Memory
    receipts: tuple[Receipt, ...]
    observations: tuple[ImportedObservation, ...]
    trail: tuple[AuditEntry, ...]
    redacted: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConflictLine:
    line: int
    record: ConflictRecord


def _memory_line(number: int, f: Fields) -> MemoryLine:
    mid = f.ident("id", required=True)
    forgotten_at = f.time("forgotten_at")
    text = f.data.get("text")
    if forgotten_at is None:
        cleaned = clean_text(text, "text")  # the limits and the secrets rule of remember
        if cleaned != str(text).strip():
            f.redactions.note("text")
        text = cleaned
    elif text is not None:
        raise InvalidInput("a forgotten memory carries no text")
    status = f.choice("status", Status)
    refuted_by = f.choice("refuted_by", RefutedBy, required=False)
    if (status is Status.REFUTED) != (refuted_by is not None):
        raise InvalidInput("'refuted_by' is given exactly when the status is REFUTED")
    anchors, dropped = [], []
    for a in f.items("anchors", MAX_ANCHORS):
        af = Fields(a, "an anchor", f.redactions)
        written = af.raw("anchor", MAX_SUBJECT_CHARS, required=True)
        if holds_secret(written):
            # An anchor names code, and code is never a secret: one that holds a secret (or
            # its placeholder) is dropped, not parsed (a syntax error would quote it).
            dropped.append("an anchor that held a secret was dropped")
            continue
        anchors.append(
            StoredAnchor(
                parse_anchor(written),
                af.choice("provenance", Provenance),
                af.strings("found_in"),
                af.text("content_hash", 128),
            )
        )
    links = Fields(f.data.get("links") or {}, "links", f.redactions)
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
        derived_from=links.idents("derived_from"),
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
        rf = Fields(r, "a receipt", f.redactions)
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
        of = Fields(o, "an observation", f.redactions)
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
        ef = Fields(e, "an audit entry", f.redactions)
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
                ef.detail("detail"),
            )
        )
    return MemoryLine(
        number,
        memory,
        tuple(receipts),
        tuple(observations),
        tuple(trail),
        tuple(f.redactions.fields),
        tuple(dropped),
    )


def _conflict_line(number: int, f: Fields) -> ConflictLine:
    ids = f.idents("ids", 2)
    claims = f.items("claims", 2)
    confidences = f.items("confidences", 2)
    if len(ids) != 2 or len(claims) != 2:
        raise InvalidInput("a conflict names two ids and their two claims")
    if not all(c is None or isinstance(c, str) for c in claims) or len(confidences) != 2:
        raise InvalidInput("a conflict's claims are texts and it has two confidences")
    if not all(c is None or isinstance(c, int | float) for c in confidences):
        raise InvalidInput("a conflict's confidences are numbers")
    claim_a, claim_b = (
        None if c is None else clean_text(c, "a conflict's claim", required=False) for c in claims
    )
    record = ConflictRecord(
        a_id=ids[0],
        b_id=ids[1],
        kind=f.choice("kind", ConflictKind),
        claim_a=claim_a,
        claim_b=claim_b,
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
        data, why = _json(raw)
        if why:
            if not header:
                raise InvalidInput(f"line {number} is {why}: not an anchormem export")
            refused.append(ImportLine(number, None, ImportOutcome.REFUSED, why))
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
                parsed = _memory_line(number, Fields(data, "a memory"))
                if parsed.memory.id in seen:
                    raise InvalidInput(f"memory {parsed.memory.id} appears twice in the file")
                seen.add(parsed.memory.id)
                memories.append(parsed)
            elif kind == "conflict":
                conflicts.append(_conflict_line(number, Fields(data, "a conflict")))
            else:
                shown_kind = kind[:40] if isinstance(kind, str) else kind
                raise InvalidInput(f"unknown line type {shown_kind!r} (memory or conflict)")
        except InvalidInput as exc:
            mid = data.get("id") if isinstance(data, dict) else None
            shown = mid if isinstance(mid, str) and ID.match(mid) else None
            refused.append(ImportLine(number, shown, ImportOutcome.REFUSED, str(exc)))
    if not header:
        raise InvalidInput("the file is empty: not an anchormem export")
    return Parsed(tuple(memories), tuple(conflicts), tuple(refused))


def _json(raw: str) -> tuple[Any, str]:
    """One line's JSON value, or why it is refused: not JSON, or over the size or nesting
    every later step can handle (``store.bounded_json``)."""
    if len(raw) > MAX_LINE_CHARS:
        return None, f"longer than {MAX_LINE_CHARS:,} characters"
    try:
        data = json.loads(raw)
    except RecursionError:
        return None, f"JSON nested more than {MAX_LINE_DEPTH} levels deep"
    except ValueError:
        return None, "not JSON"
    if nesting(data, MAX_LINE_DEPTH) > MAX_LINE_DEPTH:
        return None, f"JSON nested more than {MAX_LINE_DEPTH} levels deep"
    return data, ""
