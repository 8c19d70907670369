"""Many servers on one store: what the clients see (the targets in RELIABILITY.md),
and, with ``--duckdb``, what DuckDB itself costs (adr/0002,
``benchmarks/duckdb_costs.py``).

    .venv/bin/python -m benchmarks.store_sharing               # every figure, one run
    .venv/bin/python -m benchmarks.store_sharing --lease       # ... also with the lease
    .venv/bin/python -m benchmarks.store_sharing --duckdb      # ... and DuckDB's own costs
    .venv/bin/python -m benchmarks.store_sharing --sessions 4 --remembers 100  # one run, as before
    .venv/bin/python -m benchmarks.store_sharing --sessions 4 --remembers 300 --mixed --clients loop

Every figure is measured through real ``anchormem serve`` processes over MCP stdio, on a
copy of the experiments' shopfront repository with a store of 1,000 seeded memories
(``benchmarks/seed.py``), with the store shared the default way (the store's owner,
adr/0012) and, with ``--lease``, each process opening the store itself
(``ANCHORMEM_SHARE=0``, adr/0002: the figures before the owner). The many-server figures
are taken with each of ``--clients``: ``sdk``, every server's ``mcp.Client`` in this one
process's event loop (which, on two cores, tops out near 240 trivial calls/s by itself:
its output-schema validation and threads), ``raw``, the lean client of
``benchmarks.rawclient`` in a thread per server, and ``loop``, every server driven from one
thread (``benchmarks.rawclient.LoopClients``, after two warm-up calls each):

* floor: 4 servers x 100 calls of a trivial tool (``benchmarks.floor``), driven the same
  way: what the clients and MCP stdio cost by themselves, beside the figures below;
* mixed: 4 servers x 100 calls, remember and recall alternating, all at once: calls/s
  together, p50/p99/max of one call, errors, and whether every acknowledged memory is in
  the file afterwards (read once the owner has closed it);
* remembers: 8 servers x 100 remembers, the same figures;
* alone: one server, remember and recall latency (median, p99);
* CLI: ``anchormem recall`` wall time (process start-up included) while 4 servers are busy;
* warm: a second server's first recall on a repository another server has fingerprinted:
  the share of its hits that were checked against the code.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

SEEDED = 1000
CLIENTS = ("sdk", "raw", "loop")

# -- the servers -------------------------------------------------------------------------------


def _env(shared: bool, repo: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_SHARE"] = "1" if shared else "0"
    env["ANCHORMEM_HOME"] = str(_home(repo))  # the store in the run's own folder
    return env


def _home(repo: Path) -> Path:
    return Path(repo).parent / "anchormem-home"


def _store(repo: Path) -> Path:
    from server.store_location import repository_store

    return repository_store(Path(repo), {"ANCHORMEM_HOME": str(_home(repo))})


def _script() -> str:
    return str(Path(sys.executable).with_name("anchormem"))


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: set[str] = field(default_factory=set)
    first_recall: dict[str, Any] = field(default_factory=dict)


def _note(server: int, i: int) -> str:
    # Notes about the team, sharing no anchor, subject or slot (as in test_multiprocess).
    return (
        f"Server {server} note {i}: release checklist item {server}-{i} is owned by team {server}"
    )


def _pick(number: int, i: int, mixed: bool, floor: bool) -> tuple[str, dict[str, Any]]:
    if floor:
        from benchmarks.floor import TOOL

        return TOOL, {}
    if mixed and i % 2:
        return "recall", {"query": f"server {number} release checklist"}
    return "remember", {"text": _note(number, i), "origin": f"bench-{number}"}


def _command(repo: Path, floor: bool) -> tuple[str, list[str]]:
    """A served store, or the floor: a trivial tool on the smallest server."""
    if floor:
        return sys.executable, ["-I", "-m", "benchmarks.floor"]
    return _script(), ["serve"]


async def _calls(
    client: Any, number: int, calls: int, mixed: bool, floor: bool, tally: Tally
) -> None:
    """Server ``number``'s timed calls, through either client (both have ``call_tool``)."""
    for i in range(calls):
        tool, call_args = _pick(number, i, mixed, floor)
        start = time.perf_counter()
        try:
            result = await client.call_tool(tool, call_args)
        except Exception as exc:  # counted, and listed in the figures
            tally.errors.append(f"{tool}: {type(exc).__name__}: {exc}")
            continue
        tally.latencies_ms.append((time.perf_counter() - start) * 1000)
        if result.is_error:
            tally.errors.append(f"{tool}: {result.content}")
        elif tool == "remember" and result.structured_content:
            tally.acknowledged.add(str(result.structured_content["id"]))


async def _server(
    repo: Path,
    shared: bool,
    number: int,
    calls: int,
    mixed: bool,
    tally: Tally,
    log: Any,
    arrived: Callable[[], Awaitable[None]] | None = None,
    floor: bool = False,
) -> None:
    """One server driven by the SDK's client (``mcp.Client``), in this event loop."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command, args = _command(repo, floor)
    env = _env(shared, repo)
    params = StdioServerParameters(command=command, args=args, cwd=str(repo), env=env)
    async with Client(stdio_client(params, errlog=log), read_timeout_seconds=300) as client:
        if arrived is not None:  # every server is up before any call is timed
            await arrived()
        await _calls(client, number, calls, mixed, floor, tally)


def _raw_server(
    repo: Path,
    shared: bool,
    number: int,
    calls: int,
    mixed: bool,
    tally: Tally,
    log: Any,
    arrived: Callable[[], object],
    floor: bool = False,
) -> None:
    """One server driven by the lean client (``benchmarks.rawclient``), in a thread of its
    own: its calls block only that thread."""
    from benchmarks.rawclient import RawClient

    command, args = _command(repo, floor)

    async def drive() -> None:
        async with RawClient(command, args, cwd=str(repo), env=_env(shared, repo), errlog=log) as c:
            arrived()
            await _calls(c, number, calls, mixed, floor, tally)

    anyio.run(drive)


def _stop_owner(repo: Path) -> None:
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    OwnerLink(Files(_store(repo)), None, env={}, wait_s=60, version="bench").stop_owner()


def _stored_ids(repo: Path) -> set[str]:
    import duckdb

    _stop_owner(repo)
    con = duckdb.connect(str(_store(repo)))  # replays the journal
    try:
        return {str(r[0]) for r in con.execute("SELECT id FROM memories").fetchall()}
    finally:
        con.close()


WARMUP = 2  # untimed calls per server before a loop run (a recall, then a remember)
_WARM_LINE = "anchormem: conflict check warm:"


def _ack(tally: Tally, tool: str, result: Any) -> None:
    if result.is_error:
        tally.errors.append(f"{tool}: {result.content}")
    elif tool == "remember" and result.structured_content:
        tally.acknowledged.add(str(result.structured_content["id"]))


def _wait_warm(repo: Path, within: float = 120.0) -> None:
    """Until the store's owner has warmed its caches (its log says so)."""
    log = Path(f"{_store(repo)}.owner.log")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if log.exists() and _WARM_LINE in log.read_text(errors="replace"):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the store's owner did not warm up within {within:g} s")


def _percentile(samples: Sequence[float], q: int) -> float:
    if not samples:
        return float("nan")
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


def _figures(tally: Tally, wall: float, stored: set[str]) -> dict[str, Any]:
    lat = tally.latencies_ms
    return {
        "calls": len(lat),
        "errors": len(tally.errors),
        "first_errors": tally.errors[:3],
        "calls_per_s": round(len(lat) / wall, 1),
        "p50_ms": round(_percentile(lat, 50), 1),
        "p99_ms": round(_percentile(lat, 99), 1),
        "max_ms": round(max(lat), 1) if lat else None,
        "acknowledged": len(tally.acknowledged),
        "lost": len(tally.acknowledged - stored),
        "wall_s": round(wall, 2),
    }


class Bench:
    def __init__(self, work: Path, seeded: Path, log: Any) -> None:
        self.work = work
        self.seeded = seeded
        self.log = log
        self.repo = work / "repo"

    def fresh_store(self) -> None:
        folder = _store(self.repo).parent
        if folder.exists():
            _stop_owner(self.repo)
            shutil.rmtree(folder)
        folder.mkdir(mode=0o700, parents=True)
        shutil.copyfile(self.seeded, folder / "memory.duckdb")

    def many(
        self,
        shared: bool,
        servers: int,
        calls: int,
        mixed: bool,
        cli_runs: int = 0,
        client: str = "sdk",
        floor: bool = False,
    ) -> dict[str, Any]:
        """``client``: ``sdk`` (every server's ``mcp.Client`` in this event loop) or ``raw``
        (a lean client per server, each in its own thread); ``floor``: the servers are the
        trivial-tool floor, not a store."""
        if client == "raw":
            return self._many_raw(shared, servers, calls, mixed, cli_runs, floor)
        if client == "loop":
            return self._many_loop(shared, servers, calls, mixed, cli_runs, floor)
        self.fresh_store()
        tally = Tally()
        all_up = threading.Event()
        cli_walls: list[float] = []

        def run_cli() -> None:
            all_up.wait()
            cli_walls.extend(self._cli_while(shared, cli_runs, tally))

        async def run_all() -> float:
            up: list[float] = []
            go = anyio.Event()

            async def arrived() -> None:
                up.append(time.perf_counter())
                if len(up) == servers:
                    go.set()
                    all_up.set()
                await go.wait()

            async with anyio.create_task_group() as tg:
                if cli_runs:
                    tg.start_soon(anyio.to_thread.run_sync, run_cli)
                for n in range(servers):
                    tg.start_soon(
                        _server, self.repo, shared, n, calls, mixed, tally, self.log, arrived,
                        floor,
                    )  # fmt: skip
            return time.perf_counter() - max(up)

        wall = anyio.run(run_all)
        figures = _figures(tally, wall, set() if floor else _stored_ids(self.repo))
        if cli_runs:
            figures["cli_recall_s"] = [round(w, 2) for w in cli_walls]
        return figures

    def _many_raw(
        self, shared: bool, servers: int, calls: int, mixed: bool, cli_runs: int, floor: bool
    ) -> dict[str, Any]:
        self.fresh_store()
        tally = Tally()
        released: list[float] = []
        gate = threading.Barrier(servers + 1, action=lambda: released.append(time.perf_counter()))
        threads = [
            threading.Thread(
                target=_raw_server,
                args=(self.repo, shared, n, calls, mixed, tally, self.log, gate.wait, floor),
                daemon=True,
            )
            for n in range(servers)
        ]
        for thread in threads:
            thread.start()
        gate.wait(timeout=600)  # every server is up before any call is timed
        cli_walls = self._cli_while(shared, cli_runs, tally)
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - released[0]
        figures = _figures(tally, wall, set() if floor else _stored_ids(self.repo))
        if cli_runs:
            figures["cli_recall_s"] = [round(w, 2) for w in cli_walls]
        return figures

    def _many_loop(
        self, shared: bool, servers: int, calls: int, mixed: bool, cli_runs: int, floor: bool
    ) -> dict[str, Any]:
        """Every server driven from this one thread (``benchmarks.rawclient.LoopClients``),
        after a warm-up (``WARMUP`` untimed calls each, and the owner's warming done); the
        CLI runs while the servers go on with untimed calls, so it always meets them busy."""
        from benchmarks.rawclient import LoopClients, RawResult

        self.fresh_store()
        tally = Tally()
        command, args = _command(self.repo, floor)

        def pick(n: int, i: int) -> tuple[str, dict[str, Any]]:
            return _pick(n, i, mixed, floor)

        def counted(n: int, i: int, tool: str, seconds: float, result: RawResult) -> None:
            if i >= calls:  # an untimed call, made while the CLI runs
                _ack(tally, tool, result)
                return
            tally.latencies_ms.append(seconds * 1000)
            _ack(tally, tool, result)

        def warming(n: int, i: int, tool: str, seconds: float, result: RawResult) -> None:
            _ack(tally, tool, result)

        cli_walls: list[float] = []
        cli_done = threading.Event()

        def run_cli() -> None:
            try:
                cli_walls.extend(self._cli_while(shared, cli_runs, tally, pause_s=0.05))
            finally:
                cli_done.set()

        with LoopClients(
            command, args, servers, cwd=str(self.repo), env=_env(shared, self.repo), errlog=self.log
        ) as clients:
            clients.run(WARMUP, lambda n, i: _pick(n, 10_000 + i, True, floor), warming)
            if shared and not floor:
                _wait_warm(self.repo)
            cli = threading.Thread(target=run_cli, daemon=True)
            if cli_runs:
                cli.start()
            wall = clients.run(
                calls, pick, counted, busy=lambda: bool(cli_runs) and not cli_done.is_set()
            )
            cli.join(timeout=600) if cli_runs else None
        figures = _figures(tally, wall, set() if floor else _stored_ids(self.repo))
        if cli_runs:
            figures["cli_recall_s"] = [round(w, 2) for w in cli_walls]
        return figures

    def _cli_while(
        self, shared: bool, runs: int, tally: Tally, pause_s: float = 1.0
    ) -> list[float]:
        walls: list[float] = []
        if runs:
            time.sleep(pause_s)  # the servers are busy by now
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [_script(), "recall", "release checklist", "--json"],
                cwd=self.repo, env=_env(shared, self.repo), capture_output=True, timeout=120,
            )  # fmt: skip
            walls.append(time.perf_counter() - start)
            if done.returncode != 0:
                tally.errors.append(f"cli: {done.stderr.decode()[-200:]}")
        return walls

    def alone(self, shared: bool, calls: int) -> dict[str, Any]:
        self.fresh_store()
        tally = Tally()
        anyio.run(_server, self.repo, shared, 0, calls, True, tally, self.log)
        remembers, recalls = tally.latencies_ms[0::2], tally.latencies_ms[1::2]
        return {
            "remember_p50_ms": round(_percentile(remembers, 50), 1),
            "remember_p99_ms": round(_percentile(remembers, 99), 1),
            "recall_p50_ms": round(_percentile(recalls, 50), 1),
            "recall_p99_ms": round(_percentile(recalls, 99), 1),
            "errors": len(tally.errors),
        }

    def warm(self, shared: bool) -> dict[str, Any]:
        """A first server recalls (fingerprinting HEAD); a second then starts and recalls."""
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client

        from benchmarks.seed import Vocabulary, queries

        self.fresh_store()
        asked = queries(Vocabulary.of(self.repo), 5)
        params = StdioServerParameters(
            command=_script(), args=["serve"], cwd=str(self.repo), env=_env(shared, self.repo)
        )

        async def checked(client: Client, query: str) -> tuple[int, int]:
            # The full records say how each hit was checked (the compact view says it
            # in words: ``why``).
            result = await client.call_tool("recall", {"query": query, "limit": 10, "detail": True})
            hits = (result.structured_content or {}).get("memories", [])
            done = [m for m in hits if m.get("verification") not in ("unchecked", None)]
            return len(done), len(hits)

        async def run() -> tuple[int, int, float]:
            async with Client(stdio_client(params, errlog=self.log)) as first:
                for query in asked:  # warm: HEAD fingerprinted, verdicts cached
                    await checked(first, query)
                async with Client(stdio_client(params, errlog=self.log)) as second:
                    start = time.perf_counter()
                    done, hits = await checked(second, asked[0] + " deploy")
                    return done, hits, (time.perf_counter() - start) * 1000

        done, hits, ms = anyio.run(run)
        _stop_owner(self.repo)
        return {"checked": done, "hits": hits, "share": round(done / hits, 3) if hits else None,
                "first_recall_ms": round(ms, 1)}  # fmt: skip


def run(args: argparse.Namespace) -> dict[str, Any]:
    from benchmarks.seed import cached_store
    from experiments.fixture import build_fixture

    results: dict[str, Any] = {"cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    clients = [c.strip() for c in args.clients.split(",") if c.strip()]
    if not clients or any(c not in CLIENTS for c in clients):
        raise SystemExit(
            f"--clients: a comma-separated list of {', '.join(CLIENTS)}, not {args.clients!r}"
        )
    with tempfile.TemporaryDirectory(prefix="anchormem-sharing-") as tmp:
        work = Path(tmp)
        build_fixture(work / "repo")
        seeded = cached_store(SEEDED, work / "repo")
        modes = [True, False] if args.lease else [True]
        with (work / "servers.stderr").open("w") as log:
            bench = Bench(work, seeded, log)
            try:
                for shared in modes:
                    name = "owner" if shared else "lease"
                    out: dict[str, Any] = {}
                    if args.sessions:
                        out["custom"] = bench.many(
                            shared, args.sessions, args.remembers, args.mixed, client=clients[0]
                        )
                        results[name] = out
                        continue
                    for kind in clients:
                        if shared:  # the floor: the same clients on trivial-tool servers
                            out[f"floor_4x100 {kind}"] = bench.many(
                                shared, 4, 100, True, client=kind, floor=True
                            )
                        out[f"mixed_4x100 {kind}"] = bench.many(
                            shared, 4, 100, True, cli_runs=3, client=kind
                        )
                        out[f"remembers_8x100 {kind}"] = bench.many(
                            shared, 8, 100, False, client=kind
                        )
                    out["alone"] = bench.alone(shared, 100)
                    out["warm_second_server"] = bench.warm(shared)
                    results[name] = out
            except BaseException:
                log.flush()
                tail = (work / "servers.stderr").read_text()[-3000:]
                print(f"servers' stderr:\n{tail}", file=sys.stderr)
                raise
    if args.duckdb:
        from benchmarks.duckdb_costs import ROUNDS, duckdb_costs

        results["duckdb_median_ms"] = {k: round(v, 2) for k, v in duckdb_costs(ROUNDS).items()}
    results["load_after"] = os.getloadavg()[0]
    return results


def figure_lines(name: str, f: dict[str, Any]) -> list[str]:
    """A many-server figure (``_figures``) as printed, by this benchmark and by
    ``benchmarks.reference_memory``, so that their lines compare."""
    lines = [
        f"  {name:22} {f['calls']} calls, {f['calls_per_s']} calls/s, p50 {f['p50_ms']} ms,"
        f" p99 {f['p99_ms']} ms, max {f['max_ms']} ms; {f['errors']} errors;"
        f" {f['acknowledged']} acknowledged, {f['lost']} lost"
    ]
    if f.get("cli_recall_s"):
        lines.append(f"  {'':22} CLI recall meanwhile: {f['cli_recall_s']} s")
    lines += [f"  {'':22} error: {error[:160]}" for error in f["first_errors"]]
    return lines


def _print(results: dict[str, Any]) -> None:
    print(
        f"{results['cpus']} CPUs, load average {results['load']:.1f} -> {results['load_after']:.1f}"
    )
    for mode in ("owner", "lease"):
        if mode not in results:
            continue
        how = "the owner (adr/0012)" if mode == "owner" else "the lease (adr/0002)"
        print(f"-- store shared through {how}")
        for name, f in results[mode].items():
            if "calls_per_s" in f:
                print("\n".join(figure_lines(name, f)))
            elif "remember_p50_ms" in f:
                print(
                    f"  {name:22} remember p50 {f['remember_p50_ms']} ms,"
                    f" p99 {f['remember_p99_ms']} ms; recall p50 {f['recall_p50_ms']} ms,"
                    f" p99 {f['recall_p99_ms']} ms;"
                    f" {f['errors']} errors"
                )
            else:
                print(
                    f"  {name:22} first recall of a second server: {f['checked']}/{f['hits']}"
                    f" hits checked ({f['first_recall_ms']} ms)"
                )
    for name, ms in results.get("duckdb_median_ms", {}).items():
        print(f"  duckdb {name:24} {ms:8.2f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.store_sharing", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--lease", action="store_true", help="also measure the lease (before)")
    parser.add_argument("--duckdb", action="store_true", help="also DuckDB's own costs")
    parser.add_argument("--sessions", type=int, default=0, help="only N servers x R remembers")
    parser.add_argument("--remembers", type=int, default=100, help="calls per server")
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="with --sessions: remember and recall alternating (the first of --clients drives)",
    )
    parser.add_argument(
        "--clients",
        default=",".join(CLIENTS),
        help="which clients drive the servers: sdk (mcp.Client, all in this process's event"
        " loop), raw (benchmarks.rawclient, a thread each), loop (every server from one"
        " thread, after a warm-up: benchmarks.rawclient.LoopClients); default all three",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = run(args)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        _print(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
