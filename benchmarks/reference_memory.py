"""The MCP reference memory server (``@modelcontextprotocol/server-memory``, the official
"knowledge graph memory" server, run with ``node``), measured the way
``benchmarks.store_sharing --clients loop`` measures anchormem: the same client, scenarios,
figures and printed lines, so that the two compare.

    .venv/bin/python -m benchmarks.reference_memory              # mixed 4x100, writes 8x100
    .venv/bin/python -m benchmarks.reference_memory --quick      # 2 servers x 10 calls each
    .venv/bin/python -m benchmarks.reference_memory --seed 1000  # on a file of 1,000 entities

The server is installed when the benchmark runs (``npm install --ignore-scripts`` of the
pinned ``VERSION``) into ``--cache`` (default: ``reference-memory`` in ``ANCHORMEM_BENCH_CACHE``
or ``~/.cache/anchormem/bench``), and only when it is not there already; none of its code
is in this repository. Every server process of a scenario is pointed at one JSON-lines
file in a temporary directory (``MEMORY_FILE_PATH``, the variable its ``dist/index.js``
reads), empty at the start (or ``--seed`` entities). Each of its calls reads that whole
file; each write then writes it whole again (to a temporary file renamed over it), so
servers writing at once overwrite each other's entities.

The servers are driven from one thread by ``benchmarks.rawclient.LoopClients``, after
store_sharing's ``WARMUP`` untimed calls each (a write, then a read):

* mixed: 4 servers x 100 calls, a write and a read alternating, all at once. A write is
  ``create_entities`` of one entity, named ``s{server}-e{call}``, of type ``note``, whose one
  observation is store_sharing's note text; a read is ``search_nodes`` for that server's
  previous note (a query one entity matches);
* writes: 8 servers x 100 writes.

The figures are store_sharing's (``_figures``): calls (timed, the warm-up's not counted);
calls/s, the timed calls over the wall time from the first timed request to the last
timed answer; p50, p99 and max of one call's round trip in ms; errors, the results with
``isError``; acknowledged, the entity names the writes' results returned (the warm-up's
writes included); lost, the acknowledged names absent from the file (its lines of
``"type": "entity"``) once every server has exited.

No floor line: the reference server has no trivial tool (every one of its tools reads the
file); store_sharing prints the floor of its own trivial server with the same client.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from benchmarks.latency import _load
from benchmarks.rawclient import LoopClients, RawResult
from benchmarks.store_sharing import WARMUP, Tally, _figures, _note, figure_lines

PACKAGE = "@modelcontextprotocol/server-memory"
VERSION = "2026.8.31"  # `npm view @modelcontextprotocol/server-memory version`, when written
ENTRY = "dist/index.js"  # its package.json's bin, mcp-server-memory
FILE_ENV = "MEMORY_FILE_PATH"
WRITE, READ = "create_entities", "search_nodes"


class InstallError(Exception):
    """node or npm missing, or the install failed: the message says which."""


def install(cache: Path) -> Path:
    """The server's entry point in ``cache``, installed there first if missing."""
    if shutil.which("node") is None:
        raise InstallError("node is not on PATH: the reference memory server runs on node")
    entry = cache / "node_modules" / PACKAGE / ENTRY
    manifest = entry.parent.parent / "package.json"
    if entry.exists() and json.loads(manifest.read_text()).get("version") == VERSION:
        return entry
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(f"npm is not on PATH: it installs {PACKAGE}@{VERSION}")
    cache.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(cache), "--no-audit", "--no-fund"]
    command += ["--ignore-scripts", f"{PACKAGE}@{VERSION}"]
    print(f"installing {PACKAGE}@{VERSION} into {cache}", file=sys.stderr)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise InstallError(f"`{' '.join(command)}` took over 600 s") from None
    if done.returncode != 0 or not entry.exists():
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-12:])
        raise InstallError(f"`{' '.join(command)}` failed (exit {done.returncode}):\n{tail}")
    return entry


def _pick(server: int, i: int, mixed: bool) -> tuple[str, dict[str, Any]]:
    if mixed and i % 2:  # the note this server wrote last: one entity matches
        return READ, {"query": f"release checklist item {server}-{i - 1} is"}
    entity = {"name": f"s{server}-e{i}", "entityType": "note", "observations": [_note(server, i)]}
    return WRITE, {"entities": [entity]}


def _ack(tally: Tally, tool: str, result: RawResult) -> None:
    if result.is_error:
        tally.errors.append(f"{tool}: {result.content}")
    elif tool == WRITE:
        written = (result.structured_content or {}).get("entities", [])
        tally.acknowledged.update(str(entity["name"]) for entity in written)


def stored_names(memory: Path) -> set[str]:
    """The entities' names in the server's file (JSON lines, ``"type": "entity"`` or
    ``"relation"``); an unreadable line is reported, not skipped in silence."""
    names: set[str] = set()
    if not memory.exists():
        return names
    for number, line in enumerate(memory.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            print(f"{memory}: line {number} is not JSON: {line[:80]!r}", file=sys.stderr)
            continue
        if item.get("type") == "entity":
            names.add(str(item["name"]))
    return names


def _seed(memory: Path, count: int) -> None:
    lines = (
        json.dumps({"type": "entity", "name": f"seed-{k}", "entityType": "note",
                    "observations": [f"Seeded note {k}: deploy runbook step {k} is owned"
                                     f" by team {k % 7}"]})
        for k in range(count)
    )  # fmt: skip
    memory.write_text("\n".join(lines))


def scenario(
    entry: Path, work: Path, servers: int, calls: int, mixed: bool, seed: int, log: IO[str]
) -> dict[str, Any]:
    """``servers`` servers on one fresh file, ``calls`` timed calls each, all at once."""
    memory = work / f"memory-{'mixed' if mixed else 'writes'}.jsonl"
    memory.unlink(missing_ok=True)
    if seed:
        _seed(memory, seed)
    env = {**os.environ, FILE_ENV: str(memory)}
    tally = Tally()

    def counted(n: int, i: int, tool: str, seconds: float, result: RawResult) -> None:
        tally.latencies_ms.append(seconds * 1000)
        _ack(tally, tool, result)

    def warming(n: int, i: int, tool: str, seconds: float, result: RawResult) -> None:
        _ack(tally, tool, result)

    node = shutil.which("node") or "node"
    with LoopClients(node, [str(entry)], servers, cwd=str(work), env=env, errlog=log) as clients:
        clients.run(WARMUP, lambda n, i: _pick(n, 10_000 + i, True), warming)
        wall = clients.run(calls, lambda n, i: _pick(n, i, mixed), counted)
    # Leaving the block closed every server's stdin and waited for it to exit: the file
    # holds whatever the last rename left there.
    return _figures(tally, wall, stored_names(memory))


def run(args: argparse.Namespace, say: Callable[[str], object] = print) -> int:
    from benchmarks.seed import cache_dir

    cache = args.cache or cache_dir() / "reference-memory"
    try:
        entry = install(cache)
    except InstallError as exc:
        print(f"benchmarks.reference_memory: {exc}", file=sys.stderr)
        return 2
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    mixed_servers = args.servers or (2 if args.quick else 4)
    writes_servers = args.servers or (2 if args.quick else 8)
    calls = args.calls or (10 if args.quick else 100)
    say(
        f"MCP reference memory server ({PACKAGE}@{VERSION}, node {node}), loop client:"
        f" {os.cpu_count()} CPUs, load average {_load()}"
    )
    say(
        f"-- one JSON-lines file shared by every server ({FILE_ENV}),"
        f" {args.seed} entities at the start"
    )
    with tempfile.TemporaryDirectory(prefix="anchormem-reference-") as tmp:
        work = Path(tmp)
        with (work / "servers.stderr").open("w") as log:
            try:
                for name, servers, mixed in (
                    (f"mixed_{mixed_servers}x{calls} loop", mixed_servers, True),
                    (f"writes_{writes_servers}x{calls} loop", writes_servers, False),
                ):
                    figures = scenario(entry, work, servers, calls, mixed, args.seed, log)
                    say("\n".join(figure_lines(name, figures)))
            except BaseException:
                log.flush()
                tail = (work / "servers.stderr").read_text()[-3000:]
                print(f"servers' stderr:\n{tail}", file=sys.stderr)
                raise
    say(f"load average at the end {_load()}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.reference_memory",
        description="The MCP reference memory server (@modelcontextprotocol/server-memory)"
        " measured like benchmarks.store_sharing --clients loop: N servers on one shared"
        " JSON-lines file, calls/s, p50/p99/max, errors, acknowledged and lost writes.",
    )
    parser.add_argument(
        "--servers",
        type=int,
        help="servers in each scenario (default 4 for mixed, 8 for writes; --quick: 2)",
    )
    parser.add_argument(
        "--calls", type=int, help="timed calls per server (default 100; --quick: 10)"
    )
    parser.add_argument("--quick", action="store_true", help="a smoke run: 2 servers x 10 calls")
    parser.add_argument(
        "--seed", type=int, default=0, help="entities in the file at the start (default 0)"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="where the server is installed (default reference-memory in"
        " ANCHORMEM_BENCH_CACHE or ~/.cache/anchormem/bench)",
    )
    args = parser.parse_args(argv)
    if (args.servers is not None and args.servers < 1) or (
        args.calls is not None and args.calls < 1
    ):
        parser.error("--servers and --calls must be at least 1")
    if args.seed < 0:
        parser.error("--seed must be at least 0")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
