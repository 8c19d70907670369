"""The rows a plan writes, as data: inserts per table and updates in order.

``store.writes`` turns a plan into ``Effects``; ``Database`` either executes them at once
(a forget) or appends them to the write journal (``store.journal``) and executes many
plans' effects together later. Executing concatenates every table's rows
into one ``INSERT ... SELECT`` — a DuckDB statement costs about a millisecond whatever it
writes, so ten plans cost about what one does — then runs the updates in the order they
were planned. Inserts first is right: an update only ever touches a row that an earlier
plan (or the same one) inserted. It decides nothing.

The rows reach DuckDB as one list parameter per column (``unnest(?)``), or, from
``ARRAYS_FROM`` values in one insert, as one NumPy array of Python values per column, which
it scans: a few values are quicker as lists, many as arrays (adr/0044), and a process that
writes a few rows at a time never imports NumPy. Either way DuckDB types a column from all
of its values, not a sample (a column of small numbers ending in a large one must not be
typed from the small).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import duckdb

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "ARRAYS_FROM",
    "STEPS",
    "TABLES",
    "Effects",
    "decode_data",
    "dumps",
    "encode_data",
    "execute",
]

# Each table's columns in the order its rows hold them, in the order tables are written.
TABLES: dict[str, tuple[str, ...]] = {
    "memories": (
        "id", "text", "text_hash", "search_text", "subject", "kind", "scope", "source",
        "origin", "created_at", "updated_at", "commit_id", "status", "refuted_by",
        "confidence", "support", "contradiction", "supersedes", "flags", "observations",
        "origins", "evidence_at", "expires_at", "attribute", "slot_value", "core",
        "code_commit",
    ),
    "anchors": (
        "memory_id", "position", "kind", "value", "expect", "scope", "version",
        "provenance", "found_in", "content_hash",
    ),
    "links": ("memory_id", "target_id", "relation"),
    "terms": ("memory_id", "term", "tf"),
    "observations": (
        "id", "memory_id", "happened_at", "polarity", "kind", "source", "origin", "weight",
        "note",
    ),
    "conflict_log": (
        "seq", "a_id", "b_id", "kind", "claim_a", "claim_b", "state", "rule", "outcome",
        "winner", "loser", "reason_code", "confidence_a", "confidence_b", "slot",
        "happened_at",
    ),
    "questions": ("id", "memory_id", "user_id", "asked_at"),
    "receipts": (
        "id", "memory_id", "action", "actor", "reason", "evidence", "cause_id", "commit_id",
        "created_at",
    ),
    "audit": (
        "seq", "memory_id", "happened_at", "action", "from_status", "to_status", "actor",
        "reason", "receipt_id", "commit_id", "detail",
    ),
}  # fmt: skip

# From this many values (rows times columns) in one insert, DuckDB scans NumPy arrays
# quicker than it reads list parameters.
ARRAYS_FROM = 2_000

# The step reported to the fault hook after each table's insert (tests/store/test_atomicity).
STEPS = {
    "memories": "memory",
    "anchors": "anchor",
    "links": "link",
    "terms": "terms",
    "observations": "observation",
    "conflict_log": "conflict",
    "questions": "question",
    "receipts": "receipt",
    "audit": "audit",
}


@dataclass
class Effects:
    """Rows to insert, per table, and updates ``(step, sql, params)`` in order."""

    rows: dict[str, list[list[Any]]] = field(default_factory=dict)
    updates: list[tuple[str, str, list[Any]]] = field(default_factory=list)

    def add(self, table: str, row: list[Any]) -> None:
        if len(row) != len(TABLES[table]):
            raise ValueError(f"a {table} row has {len(TABLES[table])} values, not {len(row)}")
        if dict in map(type, row):  # the journal's form has no objects
            raise TypeError(f"a {table} row holds an object: store it as JSON text")
        self.rows.setdefault(table, []).append(row)

    def update(self, step: str, sql: str, params: list[Any]) -> None:
        self.updates.append((step, sql, params))

    def extend(self, other: Effects) -> None:
        for table, rows in other.rows.items():
            self.rows.setdefault(table, []).extend(rows)
        self.updates.extend(other.updates)


def execute(cur: duckdb.DuckDBPyConnection, effects: Effects, step: Callable[[str], None]) -> None:
    """Write ``effects`` in the caller's transaction: one insert per table, then the
    updates; ``step(name)`` after each statement."""
    # Every row's types are read (``pandas_analyze_sample``, set where the connection is
    # made: ``store.db.connect_locked_down``), so that a rare value is never cut to fit.
    for table, columns in TABLES.items():
        rows = effects.rows.get(table)
        if not rows:
            continue
        names = ", ".join(columns)
        if len(rows) * len(columns) < ARRAYS_FROM:
            cur.execute(
                f"INSERT INTO {table} ({names}) SELECT {', '.join(['unnest(?)'] * len(columns))}",
                [list(values) for values in zip(*rows, strict=True)],
            )
        else:
            scanned = f"anchormem_rows_{table}"
            cur.register(scanned, _columns(rows, columns))
            try:
                cur.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {scanned}")
            finally:
                cur.unregister(scanned)
        step(STEPS[table])
    for name, sql, params in effects.updates:
        cur.execute(sql, params)
        step(name)


def _columns(rows: list[list[Any]], columns: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The rows as one array of Python values per column, for DuckDB to scan."""
    import numpy as np

    arrays: dict[str, np.ndarray] = {}
    for name, values in zip(columns, zip(*rows, strict=True), strict=True):
        array = np.empty(len(rows), dtype=object)
        array[:] = values  # no column holds lists (schema.py): every value is a scalar
        arrays[name] = array
    return arrays


# -- the journal's form ------------------------------------------------------------------------
# JSON with one tagged type: a timestamp is {"t": ISO 8601}. Nothing else is decoded into
# objects, so a damaged or hostile journal row can only be rejected, never run.
def _tagged(value: object) -> dict[str, str]:
    """``json.dumps``' hook for what JSON has no form for: a timestamp, and nothing else."""
    if isinstance(value, datetime):
        return {"t": value.isoformat()}
    raise TypeError(f"a journal value must be plain data, not {type(value).__name__}")


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) != {"t"} or not isinstance(value["t"], str):
            raise ValueError("a journal row holds an unknown object")
        return datetime.fromisoformat(value["t"])
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return value


def encode_data(effects: Effects) -> dict[str, Any]:
    """``effects`` as data for ``dumps`` (its timestamps are tagged there)."""
    return {
        "rows": {t: r for t, r in effects.rows.items() if r},
        "updates": [[name, sql, params] for name, sql, params in effects.updates],
    }


def dumps(data: object) -> str:
    """Compact JSON of ``data`` (``encode_data``'s, in an envelope) in the journal's form:
    one pass of the C encoder, the only objects it meets being timestamps."""
    return json.dumps(data, separators=(",", ":"), default=_tagged)


def decode_data(data: object) -> Effects:
    """The effects ``encode_data`` made; ``ValueError`` for anything else (an unknown
    table, a row of the wrong width, an update that is not one of the writer's
    statements)."""
    if not isinstance(data, dict):
        raise ValueError("a journal row is not an object")
    effects = Effects()
    for table, rows in dict(data.get("rows", {})).items():
        if table not in TABLES or not isinstance(rows, list):
            raise ValueError(f"a journal row names an unknown table: {table!r}")
        for row in rows:
            if not isinstance(row, list):
                raise ValueError("a journal row is not a list")
            effects.add(table, _typed(row))
    for item in _items(data.get("updates", [])):
        name, sql, params = item
        if sql not in UPDATES or not isinstance(params, list):
            raise ValueError("a journal row holds a statement the writer does not make")
        effects.update(str(name), sql, _typed(params))
    return effects


def _items(value: object) -> Iterable[list[Any]]:
    if not isinstance(value, list):
        raise ValueError("a journal row's updates are not a list")
    for item in value:
        if not isinstance(item, list) or len(item) != 3:
            raise ValueError("a journal row's update is malformed")
        yield item


# The only updates a plan makes (store.writes); a journal row may hold nothing else.
STATUS_UPDATE = (
    "UPDATE memories SET status = ?, refuted_by = ?, updated_at = ?,"
    " code_commit = coalesce(?, code_commit) WHERE id = ?"
)
OBSERVED_UPDATE = (
    "UPDATE memories SET observations = observations + 1, updated_at = ?,"
    " support = ?, contradiction = ?, evidence_at = ?, origins = ?,"
    " confidence = ?, flags = coalesce(?, flags),"
    " last_confirmed_at = CASE WHEN ? THEN ? ELSE last_confirmed_at END"
    " WHERE id = ?"
)
# An imported memory's times the insert does not carry (store.transfer).
IMPORTED_UPDATE = "UPDATE memories SET forgotten_at = ?, last_confirmed_at = ? WHERE id = ?"
UPDATES = frozenset({STATUS_UPDATE, OBSERVED_UPDATE, IMPORTED_UPDATE})
