"""What sharing one DuckDB file between processes costs (the numbers in adr/0002).

    .venv/bin/python -m benchmarks.store_sharing                 # both parts
    .venv/bin/python -m benchmarks.store_sharing --no-sessions   # the DuckDB costs only
    .venv/bin/python -m benchmarks.store_sharing --sessions 4 --remembers 250

Part 1, DuckDB itself, on a store with anchormem's schema: opening the file, one query or
one insert, closing it (what a handover between processes costs) against the same
statement on a cursor of a connection that stays open.

Part 2, the real thing: N ``anchormem serve`` processes on one repository over stdio, each
driven by an MCP client doing R ``remember`` calls with a ``recall`` after every 5th, all at
once. Prints the wall time, calls per second, and the lease's handovers (each server reports
its own when it exits), with the time servers spent waiting for the store and closing it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import duckdb

from experiments.scratch import make_repo
from store.schema import migrate

ROUNDS = 200

# A server whose lease reports how often it handed the store over, how long it waited for
# it and how long closing took; started with -I so that the project's folders cannot
# shadow anchormem's packages.
_SERVER = r"""
import sys, time
import store.lease as lease
stats = {"waited_s": 0.0, "closing_s": 0.0}
Lease = lease.StoreLease
acquire, release, close = Lease._acquire, Lease._release, Lease.close
def timed_acquire(self):
    t = time.perf_counter(); acquire(self); stats["waited_s"] += time.perf_counter() - t
def timed_release(self):
    t = time.perf_counter(); release(self); stats["closing_s"] += time.perf_counter() - t
def reporting_close(self):
    close(self)
    print(f"bench-lease handovers={self.handovers} waited_s={stats['waited_s']:.3f}"
          f" closing_s={stats['closing_s']:.3f}", file=sys.stderr, flush=True)
Lease._acquire, Lease._release, Lease.close = timed_acquire, timed_release, reporting_close
from server.cli import main
sys.exit(main())
"""

_PROJECT = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1"\ndependencies = ["httpx"]\n',
    "billing/__init__.py": "",
    "billing/client.py": "import httpx\n\n\ndef charge(amount):\n    return httpx.post('/c')\n",
    "store/__init__.py": "",
    "store/db.py": "import duckdb\n\n\ndef open_db(path):\n    return duckdb.connect(path)\n",
}


def _median_ms(fn: Callable[[int], None], rounds: int) -> float:
    times = []
    for i in range(rounds):
        start = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _seed(path: Path, memories: int) -> None:
    con = duckdb.connect(str(path))
    migrate(con)
    con.execute(
        "INSERT INTO memories (id, text, kind, source, origin, created_at, updated_at, status)"
        " SELECT 'm' || i, 'memory number ' || i, 'fact', 'agent', 'bench', now(), now(),"
        " 'ACTIVE' FROM range(?) t(i)",
        [memories],
    )
    con.close()


def duckdb_costs(rounds: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.duckdb"
        _seed(path, 1000)
        query = "SELECT count(*) FROM memories WHERE status = 'ACTIVE'"
        insert = "INSERT INTO meta VALUES (?, 'x')"

        def open_query_close(_: int) -> None:
            con = duckdb.connect(str(path))
            con.execute(query).fetchall()
            con.close()

        def open_migrate_close(_: int) -> None:
            con = duckdb.connect(str(path))
            migrate(con)  # what the lease does on every open: check the schema version
            con.execute(query).fetchall()
            con.close()

        def open_insert_close(i: int) -> None:
            con = duckdb.connect(str(path))
            con.execute(insert, [f"open-{i}"])
            con.close()

        results = {
            "open+query+close": _median_ms(open_query_close, rounds),
            "open+schema check+query+close": _median_ms(open_migrate_close, rounds),
            "open+insert+close": _median_ms(open_insert_close, rounds),
        }
        held = duckdb.connect(str(path))
        try:

            def cursor_query(_: int) -> None:
                cur = held.cursor()
                cur.execute(query).fetchall()
                cur.close()

            def cursor_insert(i: int) -> None:
                cur = held.cursor()
                cur.execute(insert, [f"held-{i}"])
                cur.close()

            results["held cursor query"] = _median_ms(cursor_query, rounds)
            results["held cursor insert"] = _median_ms(cursor_insert, rounds)
        finally:
            held.close()
    return results


def _make_repo(root: Path) -> None:
    make_repo(root, _PROJECT, "project", identity=("bench", "bench@example.com"))


async def _session(
    root: Path, number: int, remembers: int, log: Any, tally: dict[str, Any]
) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    params = StdioServerParameters(
        command=sys.executable, args=["-I", "-c", _SERVER, "serve"], cwd=str(root), env=env
    )
    async with Client(stdio_client(params, errlog=log), read_timeout_seconds=300) as client:
        for i in range(remembers):
            # As in tests/store/test_multiprocess.py: notes sharing no anchor, subject or
            # slot, so that the store's own work per call stays flat as it fills.
            text = (
                f"Session {number} note {i}: release checklist item {number}-{i}"
                f" is owned by team {number}"
            )
            calls = [("remember", {"text": text, "origin": f"session-{number}"})]
            if (i + 1) % 5 == 0:
                calls.append(("recall", {"query": f"session {number} checklist"}))
            for tool, args in calls:
                start = time.perf_counter()
                result = await client.call_tool(tool, args)
                tally["latencies_ms"].append((time.perf_counter() - start) * 1000)
                tally["calls"] += 1
                tally["errors"] += int(bool(result.is_error))


def sessions_run(sessions: int, remembers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        _make_repo(root)
        tally: dict[str, Any] = {"calls": 0, "errors": 0, "latencies_ms": []}
        log_path = Path(tmp) / "servers.stderr"
        with log_path.open("w") as log:

            async def run_all() -> float:
                start = time.perf_counter()
                async with anyio.create_task_group() as tg:
                    for n in range(sessions):
                        tg.start_soon(_session, root, n, remembers, log, tally)
                return time.perf_counter() - start

            wall = anyio.run(run_all)
        reports = re.findall(
            r"bench-lease handovers=(\d+) waited_s=([\d.]+) closing_s=([\d.]+)",
            log_path.read_text(),
        )
        stored = json.loads(
            subprocess.run(
                [str(Path(sys.executable).with_name("anchormem")), "list", "--limit", "10000"],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )["memories"]
    latencies = sorted(tally["latencies_ms"])
    return {
        "sessions": sessions,
        "remembers_per_session": remembers,
        "calls": tally["calls"],
        "errors": tally["errors"],
        "memories_stored": len(stored),
        "wall_s": round(wall, 2),
        "calls_per_s": round(tally["calls"] / wall, 1),
        "call_ms_median": round(statistics.median(latencies), 1),
        "call_ms_p99": round(latencies[int(len(latencies) * 0.99) - 1], 1),
        "call_ms_max": round(latencies[-1], 1),
        "servers_reporting": len(reports),
        "handovers": sum(int(r[0]) for r in reports),
        "waiting_for_the_store_s": round(sum(float(r[1]) for r in reports), 2),
        "closing_the_store_s": round(sum(float(r[2]) for r in reports), 2),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.store_sharing", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--sessions", type=int, default=4)
    parser.add_argument("--remembers", type=int, default=250)
    parser.add_argument("--no-sessions", action="store_true", help="skip part 2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"duckdb": duckdb.__version__, "cpus": os.cpu_count()}
    results["median_ms"] = {k: round(v, 2) for k, v in duckdb_costs(args.rounds).items()}
    if not args.no_sessions:
        results["servers"] = sessions_run(args.sessions, args.remembers)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"DuckDB {results['duckdb']}, {results['cpus']} CPUs; medians of {args.rounds} rounds")
    for name, ms in results["median_ms"].items():
        print(f"  {name:32} {ms:8.2f} ms")
    if "servers" in results:
        s = results["servers"]
        print(
            f"{s['sessions']} servers x {s['remembers_per_session']} remembers"
            f" (+ a recall every 5th): {s['calls']} calls, {s['errors']} errors,"
            f" {s['memories_stored']} memories stored"
        )
        print(f"  wall time {s['wall_s']} s, {s['calls_per_s']} calls/s")
        print(
            f"  one call as a client sees it: median {s['call_ms_median']} ms,"
            f" p99 {s['call_ms_p99']} ms, max {s['call_ms_max']} ms"
        )
        print(
            f"  {s['handovers']} handovers; servers waited {s['waiting_for_the_store_s']} s"
            f" for the store and spent {s['closing_the_store_s']} s closing it"
            f" ({s['servers_reporting']} of {s['sessions']} servers reported)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
