"""JSON-ready views of memories, receipts and audit rows: the one shape that the MCP tools,
the resources and the CLI all return. Free text is served through ``store.hostile.reveal``:
hidden characters come back as visible ``[U+XXXX]`` escapes, never invisibly."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from store.hostile import hostile_flags, reveal, reveal_all
from store.model import AuditEntry, Memory, Receipt, StoredAnchor

__all__ = ["anchor_view", "audit_view", "memory_view", "receipt_view"]


def _ts(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def _shown(value: str | None) -> str | None:
    return reveal(value) if value else value


def receipt_view(r: Receipt) -> dict[str, Any]:
    return {
        "id": r.id,
        "memory_id": r.memory_id,
        "action": r.action.value,
        "actor": _shown(r.actor),
        "reason": _shown(r.reason),
        "evidence": _shown(r.evidence),
        "cause": r.cause_id,
        "commit": r.commit,
        "at": _ts(r.created_at),
    }


def anchor_view(stored: StoredAnchor, check: dict[str, Any] | None = None) -> dict[str, Any]:
    a = stored.anchor
    view: dict[str, Any] = {
        "anchor": a.render(),
        "kind": a.kind.value,
        "value": a.value,
        "expect": a.expect.value,
        "scope": a.scope,
        "version": a.version,
        "provenance": stored.provenance.value,
        "verdict": "unchecked",
        "found_in": list(stored.found_in),
        "detail": None,
    }
    if check is not None:
        view["verdict"] = check["verdict"]
        view["found_in"] = list(check["found_in"])
        view["detail"] = check["detail"]
    return view


def memory_view(
    memory: Memory,
    checks: Sequence[dict[str, Any]] | None = None,
    checked_commit: str | None = None,
    verification: str = "unchecked",
    receipt: Receipt | None = None,
) -> dict[str, Any]:
    """The memory as served: its claim, its provenance, its status and what was checked."""
    by_anchor = {c["anchor"]: c for c in checks or []}
    live = memory.forgotten_at is None
    # Flags stored at remember, and those the text earns now (memories written before the
    # check existed): hidden characters, instruction-like text (store.hostile).
    flags = set(memory.flags)
    if live:
        flags.update(hostile_flags(memory.text, memory.subject))
    return {
        "id": memory.id,
        "text": reveal(memory.text) if live else None,
        "subject": _shown(memory.subject),
        "kind": memory.kind.value,
        "scope": _shown(memory.scope),
        "source": memory.source.value,
        "origin": reveal(memory.origin),
        "created_at": _ts(memory.created_at),
        "written_at_commit": memory.commit,
        "status": memory.status.value,
        "refuted_by": memory.refuted_by.value if memory.refuted_by else None,
        "confidence": round(memory.confidence, 2),
        "observations": memory.observations,
        "checked_commit": checked_commit,
        "verification": verification,
        "anchors": [anchor_view(s, by_anchor.get(s.anchor.render())) for s in memory.anchors],
        "derived_from": list(memory.derived_from),
        "supersedes": memory.supersedes,
        "flags": sorted(flags),
        "receipt": receipt_view(receipt) if receipt else None,
        "forgotten": memory.forgotten_at is not None,
    }


def audit_view(entry: AuditEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "memory_id": entry.memory_id,
        "at": _ts(entry.at),
        "action": entry.action,
        "from_status": entry.from_status,
        "to_status": entry.to_status,
        "actor": _shown(entry.actor),
        "reason": _shown(entry.reason),
        "receipt_id": entry.receipt_id,
        "commit": entry.commit,
        "detail": reveal_all(entry.detail),
    }
