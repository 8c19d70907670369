"""The reads the store's copy does not answer, as SQL on a cursor ``Database`` gives them
(with the journal written into its tables first, where it matters): the audit trail,
observations, review questions, event counts, the history of resolved slots, and the
fingerprint's cache of facts per blob. Each returns rows as values; none decides."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from datetime import datetime

import duckdb

from store.model import AuditEntry
from store.rows import audit_from_row

__all__ = [
    "all_observations",
    "audit",
    "event_counts",
    "last_questions",
    "load_blob_facts",
    "observations",
    "save_blob_facts",
    "slot_history",
]

Cursor = duckdb.DuckDBPyConnection
_CHUNK = 500  # rows per multi-row VALUES: DuckDB's executemany is ~500x slower


def audit(cur: Cursor, memory_id: str | None, limit: int) -> list[AuditEntry]:
    where, params = ("WHERE memory_id = ?", [memory_id]) if memory_id else ("", [])
    rows = cur.execute(
        "SELECT seq, memory_id, happened_at, action, from_status, to_status, actor, reason,"
        f" receipt_id, commit_id, detail FROM audit {where} ORDER BY seq LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [audit_from_row(r) for r in rows]


def observations(cur: Cursor, memory_id: str) -> list[tuple[datetime, bool, float, str, str]]:
    """(at, agrees, weight, kind, origin) of a memory's observations, oldest first."""
    rows = cur.execute(
        "SELECT happened_at, polarity = 'confirms', weight, kind, origin"
        " FROM observations WHERE memory_id = ? ORDER BY happened_at, id",
        [memory_id],
    ).fetchall()
    return [(r[0], bool(r[1]), float(r[2]), r[3], r[4]) for r in rows]


def all_observations(cur: Cursor) -> dict[str, list[tuple[datetime, bool, float]]]:
    """(at, agrees, weight) of every memory's observations, oldest first."""
    rows = cur.execute(
        "SELECT memory_id, happened_at, polarity = 'confirms', weight"
        " FROM observations ORDER BY happened_at, id"
    ).fetchall()
    found: dict[str, list[tuple[datetime, bool, float]]] = {}
    for mid, at, agrees, weight in rows:
        found.setdefault(mid, []).append((at, bool(agrees), float(weight)))
    return found


def last_questions(cur: Cursor) -> dict[str, datetime]:
    """When each user was last asked a review question."""
    rows = cur.execute("SELECT user_id, max(asked_at) FROM questions GROUP BY user_id").fetchall()
    return {r[0]: r[1] for r in rows}


def event_counts(cur: Cursor) -> dict[str, int]:
    """Audit actions counted, with ``verify:<to_status>`` and ``observe:<kind>``."""
    rows = cur.execute(
        "SELECT CASE WHEN action = 'verify' THEN 'verify:' || to_status"
        " WHEN action = 'observe' THEN 'observe:' || json_extract_string(detail, '$.kind')"
        " ELSE action END, count(*) FROM audit GROUP BY 1"
    ).fetchall()
    return {r[0]: int(r[1]) for r in rows}


def slot_history(cur: Cursor) -> list[tuple[str, str, str]]:
    """(slot, winner, loser) of resolved slot conflicts, in order."""
    rows = cur.execute(
        "SELECT slot, winner, loser FROM conflict_log WHERE slot IS NOT NULL"
        " AND state = 'resolved' ORDER BY seq"
    ).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def load_blob_facts(cur: Cursor, blob_ids: Sequence[str]) -> dict[str, str]:
    rows = cur.execute(
        "SELECT blob_id, facts FROM blob_facts WHERE list_contains(?, blob_id)",
        [list(blob_ids)],
    ).fetchall()
    return {r[0]: r[1] for r in rows}


def save_blob_facts(cur: Cursor, facts: Mapping[str, str]) -> None:
    """Every (blob, facts) pair, in one transaction."""
    items = list(facts.items())
    cur.execute("BEGIN TRANSACTION")
    try:
        for start in range(0, len(items), _CHUNK):
            chunk = items[start : start + _CHUNK]
            placeholders = ", ".join("(?, ?)" for _ in chunk)
            params = [v for pair in chunk for v in pair]
            cur.execute(f"INSERT OR REPLACE INTO blob_facts VALUES {placeholders}", params)
        cur.execute("COMMIT")
    except BaseException:
        with suppress(duckdb.Error):
            cur.execute("ROLLBACK")
        raise
