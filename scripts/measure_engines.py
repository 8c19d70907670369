"""The multi-writer engines adr/0012 weighed: one memory's write latency, four writers at
once, and a writer killed with SIGKILL, on DuckLake (SQLite catalog) and PostgreSQL.

Not part of anchormem: it needs what anchormem does not install, in an environment of its
own (DuckLake's PyPI extension loads only into DuckDB 1.5.5; anchormem runs DuckDB 2.x):

    python3 -m venv /tmp/engines && /tmp/engines/bin/pip install duckdb==1.5.5 \\
        duckdb-extension-ducklake==1.5.5 duckdb-extension-sqlite-scanner==1.5.5 'psycopg[binary]'
    /tmp/engines/bin/python scripts/measure_engines.py ducklake
    /tmp/engines/bin/python scripts/measure_engines.py postgres --dsn 'host=/tmp/pg user=postgres'

A "memory" is what one ``remember`` plan writes at least: a row in ``memories``, two in
``anchors``, one in ``audit``, in one transaction (a writer retries a transaction the engine
refused as conflicting, and counts it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SCHEMA = [
    "CREATE TABLE IF NOT EXISTS memories (id VARCHAR, text VARCHAR, created_at TIMESTAMP)",
    "CREATE TABLE IF NOT EXISTS anchors (memory_id VARCHAR, anchor VARCHAR)",
    "CREATE TABLE IF NOT EXISTS audit (memory_id VARCHAR, action VARCHAR, done_at TIMESTAMP)",
]


def connect(engine: str, where: str) -> Any:
    if engine == "postgres":
        import psycopg

        return psycopg.connect(where, autocommit=False)
    import duckdb
    import duckdb_extension_ducklake
    import duckdb_extension_sqlite_scanner

    con = duckdb.connect()
    for module, name in (
        (duckdb_extension_sqlite_scanner, "sqlite_scanner"),
        (duckdb_extension_ducklake, "ducklake"),
    ):
        folder = Path(module.__file__).parent / "extensions" / "v1.5.5"
        con.execute(f"LOAD '{folder / f'{name}.duckdb_extension'}'")
    catalog, data = f"{where}/catalog.sqlite", f"{where}/data"
    con.execute(f"ATTACH 'ducklake:sqlite:{catalog}' AS lake (DATA_PATH '{data}')")
    con.execute("USE lake")
    return con


def write_one(engine: str, con: Any, mid: str) -> int:
    """One memory in one transaction; the number of conflicts retried first."""
    retries = 0
    while True:
        try:
            cur = con.cursor() if engine == "postgres" else con  # a cursor: no USE lake
            if engine != "postgres":
                cur.execute("BEGIN")
            cur.execute("INSERT INTO memories VALUES (?, ?, now())".replace("?", _p(engine)),
                        [mid, f"memory {mid}"])  # fmt: skip
            for anchor in ("file:billing/client.py", "import:httpx@billing/client.py"):
                row = f"({_p(engine)}, {_p(engine)})"
                cur.execute(f"INSERT INTO anchors VALUES {row}", [mid, anchor])
            cur.execute(f"INSERT INTO audit VALUES ({_p(engine)}, 'remember', now())", [mid])
            if engine == "postgres":
                con.commit()
            else:
                cur.execute("COMMIT")
            return retries
        except Exception as exc:
            retries += 1
            if engine == "postgres":
                con.rollback()
            else:
                with contextlib.suppress(Exception):
                    con.execute("ROLLBACK")
            if retries > 50:
                raise RuntimeError(f"gave up after 50 conflicts: {exc}") from exc


def _p(engine: str) -> str:
    return "%s" if engine == "postgres" else "?"


def writer(engine: str, where: str, name: str, count: int) -> None:
    """Write ``count`` memories, printing each id once it is committed (acknowledged)."""
    con = connect(engine, where)
    for i in range(count):
        start = time.perf_counter()
        retries = write_one(engine, con, f"{name}-{i}")
        took = (time.perf_counter() - start) * 1000
        print(json.dumps({"id": f"{name}-{i}", "ms": took, "retries": retries}), flush=True)
    con.close()


def run(engine: str, where: str, writers: int, count: int, kill_one: bool) -> dict[str, Any]:
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--writer", engine, "--where", where, "--name", f"w{n}",
             "--count", str(count)],
            stdout=subprocess.PIPE, text=True,
        )
        for n in range(writers)
    ]
    start = time.perf_counter()
    acked: list[dict[str, Any]] = []
    if kill_one:
        assert procs[0].stdout is not None
        for _ in range(count // 2):
            acked.append(json.loads(procs[0].stdout.readline()))
        os.kill(procs[0].pid, signal.SIGKILL)
    for proc in procs:
        out, _ = proc.communicate()
        acked += [json.loads(line) for line in out.splitlines() if line.strip()]
    wall = time.perf_counter() - start
    con = connect(engine, where)
    cur = con.cursor() if engine == "postgres" else con
    cur.execute("SELECT id FROM memories")
    stored = {r[0] for r in cur.fetchall()}
    con.close()
    lat = sorted(a["ms"] for a in acked)
    return {
        "engine": engine,
        "writers": writers,
        "acknowledged": len(acked),
        "lost": len({a["id"] for a in acked} - stored),
        "conflicts_retried": sum(a["retries"] for a in acked),
        "writes_per_s": round(len(acked) / wall, 1),
        "p50_ms": round(statistics.median(lat), 2),
        "p99_ms": round(lat[int(len(lat) * 0.99) - 1], 2),
        "exit_codes": [p.returncode for p in procs],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", nargs="?", choices=["ducklake", "postgres"])
    ap.add_argument("--dsn", default="host=/tmp/pg user=postgres")
    ap.add_argument("--writer")
    ap.add_argument("--where")
    ap.add_argument("--name")
    ap.add_argument("--count", type=int, default=100)
    args = ap.parse_args()
    if args.writer:
        writer(args.writer, args.where, args.name, args.count)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        where = args.dsn if args.engine == "postgres" else tmp
        con = connect(args.engine, where)
        cur = con.cursor() if args.engine == "postgres" else con
        for statement in SCHEMA:
            cur.execute(statement)
        for table in ("memories", "anchors", "audit"):
            cur.execute(f"DELETE FROM {table}")
        if args.engine == "postgres":
            con.commit()
        con.close()
        for writers, kill in ((1, False), (4, False), (4, True)):
            print(json.dumps({"kill_one": kill, **run(args.engine, where, writers, 100, kill)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
