"""A plan's rows reach their tables the same whichever way DuckDB is handed them: as list
parameters (a few values) or as scanned arrays (from ``ARRAYS_FROM`` values)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

from store.effects import ARRAYS_FROM, TABLES, Effects, execute
from store.schema import migrate


def _audit_rows(count: int) -> list[list[Any]]:
    """``count`` audit rows whose values vary in kind: a NULL now and then, a timestamp,
    and a sequence number that only the last row makes large."""
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    rows = []
    for i in range(count):
        seq = 2**40 if i == count - 1 else i  # typed from every value, not the first few
        rows.append(
            [seq, f"m{i % 7}", when, "remember", None if i % 3 else "ACTIVE", "VERIFIED",
             "agent", None, f"r{i}", "c" * 40 if i % 2 else None, "{}"]
        )  # fmt: skip
    return rows


@pytest.mark.parametrize("count", [3, ARRAYS_FROM // len(TABLES["audit"]) + 1])
def test_the_rows_read_back_as_written_as_lists_or_as_arrays(tmp_path: Path, count: int):
    rows = _audit_rows(count)
    effects = Effects()
    for row in rows:
        effects.add("audit", row)
    steps: list[str] = []
    with duckdb.connect(str(tmp_path / "store.duckdb")) as con:
        migrate(con)
        execute(con, effects, steps.append)
        got = con.execute(f"SELECT {', '.join(TABLES['audit'])} FROM audit ORDER BY seq").fetchall()
    assert steps == ["audit"]
    assert [list(r) for r in got] == sorted(rows, key=lambda r: r[0])
