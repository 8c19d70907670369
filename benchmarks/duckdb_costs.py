"""What DuckDB itself costs a process that shares the store by opening it for each call
(adr/0002): opening the file, one query or insert, and closing it, against the same
statement on a cursor of a connection that stays open. ``benchmarks.store_sharing
--duckdb`` prints these beside its figures."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["ROUNDS", "duckdb_costs"]

ROUNDS = 200


def _median_ms(fn: Callable[[int], None], rounds: int) -> float:
    times = []
    for i in range(rounds):
        start = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def duckdb_costs(rounds: int) -> dict[str, float]:
    """Opening the file, one query or insert, closing it (a handover between processes)
    against the same statement on a cursor of a connection that stays open."""
    import duckdb

    from store.schema import migrate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.duckdb"
        con = duckdb.connect(str(path))
        migrate(con)
        con.execute(
            "INSERT INTO memories (id, text, kind, source, origin, created_at, updated_at,"
            " status) SELECT 'm' || i, 'memory number ' || i, 'fact', 'agent', 'bench', now(),"
            " now(), 'ACTIVE' FROM range(1000) t(i)"
        )
        con.close()
        query = "SELECT count(*) FROM memories WHERE status = 'ACTIVE'"
        insert = "INSERT INTO meta VALUES (?, 'x')"

        def open_query_close(_: int) -> None:
            c = duckdb.connect(str(path))
            c.execute(query).fetchall()
            c.close()

        def open_insert_close(i: int) -> None:
            c = duckdb.connect(str(path))
            c.execute(insert, [f"open-{i}"])
            c.close()

        results = {
            "open+query+close": _median_ms(open_query_close, rounds),
            "open+insert+close": _median_ms(open_insert_close, rounds),
        }
        held = duckdb.connect(str(path))
        try:

            def cursor_query(_: int) -> None:
                held.cursor().execute(query).fetchall()

            def cursor_insert(i: int) -> None:
                held.cursor().execute(insert, [f"held-{i}"])

            results["held cursor query"] = _median_ms(cursor_query, rounds)
            results["held cursor insert"] = _median_ms(cursor_insert, rounds)
        finally:
            held.close()
    return results
