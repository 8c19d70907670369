"""What one tool call costs a client over MCP stdio: anchormem's remember and recall at a
store of N memories, beside the floor (a trivial tool on the smallest server).

    python -m benchmarks.latency [--sizes 1000,10000,100000] [--calls 200] [--warmup 5]
    python -m benchmarks.latency --quick          # a smoke run: 50 memories, 10 calls

Prints one line per figure, e.g. (illustrative figures)::

    floor   trivial tool, raw client            p50 0.91 ms  p99 1.40 ms
    remember at 10000 memories, raw             p50 4.12 ms  p99 9.31 ms  (floor beside it
        p50 0.93, x4.4; warmed: ...)
    recall (verify on) at 10000 memories, raw   p50 3.40 ms  p99 8.02 ms  (floor beside ...)

with the number of calls and the machine's load average (before and after) around them.
Each timed call is followed by a call of the floor's trivial tool, so every figure has a
floor taken at the same moments ("floor beside it", and the ratio): a shared machine's speed
drifts by up to 2x between minutes, and a floor measured a minute earlier is no
yardstick.

Everything is measured in one run, each server in its own subprocess spoken to over stdio,
the clock read around each ``call_tool``, by two clients (``--clients``): ``raw``, one
JSON-RPC line written and its answer read (``benchmarks.rawclient``: what the server
costs), and ``sdk``, the SDK's ``mcp.Client`` (which also validates every structured
result against its schema with ``jsonschema``: ~2-5 ms of the client's own per call).
Each client's figures sit beside its own floor:

* the floor: ``python -m benchmarks.floor``, one tool returning a constant;
* anchormem: the installed ``anchormem serve --repo REPO --db STORE``, as an agent starts
  it (no ``ANCHORMEM_*`` settings: verify-on-read and conflict detection on), on a scratch
  copy of the experiments' shopfront repository (``experiments/fixture.py``: ~60 files,
  imports, dependencies in ``pyproject.toml``, environment reads) and a copy of a store
  seeded with N memories about it (``benchmarks/seed.py``; seeded stores are cached, so
  only the first run at a size pays for seeding).

``remember`` gets distinct new notes (some with anchors, some prose), ``recall`` varied
queries from the seeded vocabulary; a few calls of each warm the server up first. Every
call must succeed, and the recalls must find memories, or the run fails: a figure never
hides a wrong answer. Nothing is written outside a temporary directory and the seed cache.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import anyio

__all__ = ["Figure", "add_arguments", "main", "run"]

QUICK_SIZES = (50,)
QUICK_CALLS = 10
DEFAULT_SIZES = (1000, 10000, 100000)
DEFAULT_CALLS = 200
CLIENTS = ("raw", "sdk")
_LABEL = 44
_NEW_NOTES = 10_000_000  # index of the first timed note: far past any seeded one


@dataclass(frozen=True)
class Figure:
    label: str
    calls: int
    p50_ms: float
    p99_ms: float
    note: str = ""

    def line(self) -> str:
        text = f"{self.label:<{_LABEL}}p50 {self.p50_ms:.2f} ms  p99 {self.p99_ms:.2f} ms"
        return f"{text}  {self.note}" if self.note else text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes",
        help="store sizes (memories), comma-separated "
        f"(default {','.join(map(str, DEFAULT_SIZES))}; --quick: 50)",
    )
    parser.add_argument(
        "--calls",
        type=int,
        help=f"timed calls per figure (default {DEFAULT_CALLS}; --quick: {QUICK_CALLS})",
    )
    parser.add_argument("--warmup", type=int, default=5, help="untimed calls first (default 5)")
    parser.add_argument(
        "--clients",
        default=",".join(CLIENTS),
        help="which clients time the calls, comma-separated: raw (one JSON-RPC line each"
        " way), sdk (mcp.Client) (default raw,sdk)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 50 memories, 10 calls per figure"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="where seeded stores are kept (default ANCHORMEM_BENCH_CACHE or "
        "~/.cache/anchormem/bench)",
    )


def _sizes(text: str | None, quick: bool) -> list[int]:
    if text is None:
        return list(QUICK_SIZES if quick else DEFAULT_SIZES)
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"benchmarks.latency: --sizes must be numbers, not {text!r}") from None
    if not sizes or any(size < 1 for size in sizes):
        raise SystemExit("benchmarks.latency: every store size must be at least 1")
    return sizes


def main(argv: Sequence[str] | argparse.Namespace | None = None) -> int:
    if isinstance(argv, argparse.Namespace):
        args = argv
    else:
        parser = argparse.ArgumentParser(
            prog="python -m benchmarks.latency",
            description=(__doc__ or "").split("\n\n")[0],
        )
        add_arguments(parser)
        args = parser.parse_args(argv)
    sizes = _sizes(args.sizes, args.quick)
    calls = args.calls if args.calls is not None else (QUICK_CALLS if args.quick else DEFAULT_CALLS)
    if calls < 1 or args.warmup < 0:
        raise SystemExit("benchmarks.latency: --calls must be at least 1, --warmup at least 0")
    clients = [c.strip() for c in str(args.clients).split(",") if c.strip()]
    if not clients or any(c not in CLIENTS for c in clients):
        raise SystemExit(f"benchmarks.latency: --clients takes {', '.join(CLIENTS)}")
    run(sizes, calls, args.warmup, args.cache, print, clients)
    return 0


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run(
    sizes: Sequence[int],
    calls: int,
    warmup: int,
    cache: Path | None = None,
    out: Callable[[str], None] = print,
    clients: Sequence[str] = CLIENTS,
) -> list[Figure]:
    """Measure the floor, then remember and recall at each size, with each of ``clients``;
    ``out`` gets each line."""
    from benchmarks.seed import Vocabulary, cached_store
    from experiments.fixture import build_fixture

    def say(line: str) -> None:
        out(line)
        sys.stdout.flush()

    say(
        f"MCP stdio latency: {calls} timed calls per figure after {warmup} warm-up calls;"
        f" {os.cpu_count()} CPUs, load average {_load()}"
    )
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="anchormem-latency-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        vocab = Vocabulary.of(repo)
        with (work / "servers.stderr").open("w") as errlog:
            try:
                floors = {}
                for client in clients:
                    floors[client] = anyio.run(_floor, work, calls, warmup, errlog, client)
                    figures.append(floors[client])
                    say(floors[client].line())
                for size in sizes:
                    seeded = cached_store(size, repo, cache)
                    db = work / f"store-{size}.duckdb"
                    shutil.copyfile(seeded, db)
                    # The store's owner warms once, for every client of it (adr/0012).
                    warm_before = _warm_lines(errlog, [Path(errlog.name), _owner_log(db)])
                    for i, client in enumerate(clients):
                        for figure in anyio.run(
                            _anchormem,
                            work, repo, db, size, vocab, calls, warmup, errlog, client, i,
                            warm_before,
                        ):  # fmt: skip
                            figures.append(figure)
                            say(figure.line())
                    db.unlink()
            except BaseException:
                errlog.flush()
                tail = (work / "servers.stderr").read_text()[-4000:]
                if tail.strip():
                    print(f"benchmarks.latency: servers' stderr:\n{tail}", file=sys.stderr)
                raise
    say(f"load average at the end {_load()}")
    return figures


# -- the servers -------------------------------------------------------------------------------
def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}


def _anchormem_command() -> list[str]:
    # The installed console script, as a client starts it (``python -m`` from a project
    # folder would let the project's own packages shadow anchormem's).
    script = Path(sys.executable).with_name("anchormem")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-I", "-c", "import sys; from server.cli import main; sys.exit(main())"]


def _percentiles(samples: Sequence[float]) -> tuple[float, float]:
    if len(samples) == 1:
        return samples[0] * 1000, samples[0] * 1000
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


async def _timed(client: Any, tool: str, args: dict[str, Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await client.call_tool(tool, args)
    elapsed = time.perf_counter() - start
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {result.content}")
    return elapsed, result.structured_content


def _client(kind: str, command: Sequence[str], cwd: Path, errlog: TextIO) -> Any:
    """An async context manager giving a client of the server ``command`` starts."""
    if kind == "raw":
        from benchmarks.rawclient import RawClient

        return RawClient(command[0], command[1:], cwd=str(cwd), env=_env(), errlog=errlog)
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=command[0], args=list(command[1:]), cwd=str(cwd), env=_env()
    )
    return Client(stdio_client(params, errlog=errlog), read_timeout_seconds=300)


def _floor_command() -> list[str]:
    """The floor's server: a trivial tool on the smallest ``MCPServer``."""
    return [sys.executable, "-I", "-m", "benchmarks.floor"]


async def _floor(work: Path, calls: int, warmup: int, errlog: TextIO, kind: str) -> Figure:
    from benchmarks.floor import TOOL

    async with _client(kind, _floor_command(), work, errlog) as client:
        for _ in range(warmup):
            await _timed(client, TOOL, {})
        times = [(await _timed(client, TOOL, {}))[0] for _ in range(calls)]
    p50, p99 = _percentiles(times)
    return Figure(f"floor   trivial tool, {kind} client", calls, p50, p99)


async def _anchormem(
    work: Path,
    repo: Path,
    db: Path,
    size: int,
    vocab: Any,
    calls: int,
    warmup: int,
    errlog: TextIO,
    kind: str,
    nth: int,
    warm_before: Sequence[str],
) -> list[Figure]:
    """``nth``: how many clients timed this store before (each gets notes of its own);
    ``warm_before``: the warm lines logged before the first of them. Every timed call
    is followed by one call of the floor's trivial tool on its own server, so that each
    figure has a floor measured at the same moments (a shared machine's speed drifts by 2x
    between minutes): its p50 is printed beside it, and the ratio."""
    from benchmarks.floor import TOOL
    from benchmarks.seed import notes, queries

    command = [*_anchormem_command(), "serve", "--repo", str(repo), "--db", str(db)]
    new_notes = notes(vocab, _NEW_NOTES * (nth + 1) + size * 10, warmup + calls)
    asks = queries(vocab, warmup + calls, seed=size + nth)
    logs = [Path(errlog.name), _owner_log(db)]  # served alone, or by the owner
    async with (
        _client(kind, command, work, errlog) as client,
        _client(kind, _floor_command(), work, errlog) as trivial,
    ):
        for i in range(warmup):
            await _timed(client, "recall", {"query": asks[i]})
            await _timed(client, "remember", next(new_notes).arguments())
            await _timed(trivial, TOOL, {})
        # A served store warms its conflict check in the background (adr/0009): time
        # the steady state, and say how long warming took.
        warmed = await _wait_warm(errlog, logs, warm_before)
        remembered, floor_beside_remember = [], []
        for _ in range(calls):
            elapsed, result = await _timed(client, "remember", next(new_notes).arguments())
            if not result or "id" not in result:
                raise RuntimeError(f"remember returned no memory: {result}")
            remembered.append(elapsed)
            floor_beside_remember.append((await _timed(trivial, TOOL, {}))[0])
        recalled, floor_beside_recall, hits = [], [], 0
        for query in asks[warmup:]:
            elapsed, result = await _timed(client, "recall", {"query": query})
            recalled.append(elapsed)
            hits += len((result or {}).get("memories", []))
            floor_beside_recall.append((await _timed(trivial, TOOL, {}))[0])
    if hits == 0:
        raise RuntimeError(f"no recall found anything at {size} memories: the store is empty?")
    figures = []
    for label, samples, beside, extra in (
        (f"remember at {size} memories, {kind}", remembered, floor_beside_remember, warmed),
        (
            f"recall (verify on) at {size} memories, {kind}",
            recalled,
            floor_beside_recall,
            f"{hits / calls:.1f} memories a recall",
        ),
    ):
        p50, p99 = _percentiles(samples)
        floor_p50, _ = _percentiles(beside)
        note = f"(floor beside it p50 {floor_p50:.2f}, x{p50 / floor_p50:.1f}; {extra})"
        figures.append(Figure(label, calls, p50, p99, note))
    return figures


_WARM = "anchormem: conflict check warm:"
_WARM_WAIT_S = 600.0


def _owner_log(db: Path) -> Path:
    return Path(f"{db}.owner.log")


def _warm_lines(errlog: TextIO, logs: Sequence[Path]) -> list[str]:
    errlog.flush()
    found = []
    for log in logs:
        if log.exists():
            text = log.read_text(errors="replace")
            found += [line for line in text.splitlines() if line.startswith(_WARM)]
    return found


async def _wait_warm(errlog: TextIO, logs: Sequence[Path], before: Sequence[str]) -> str:
    """The line saying the store's caches are warm (on the server's stderr, or in the
    owner's log when an owner serves the store), once it is there."""
    deadline = time.monotonic() + _WARM_WAIT_S
    while time.monotonic() < deadline:
        lines = _warm_lines(errlog, logs)
        if len(lines) > len(before):
            return "warmed: " + lines[-1][len(_WARM) :].strip()
        await anyio.sleep(0.1)
    return f"not warm after {_WARM_WAIT_S:.0f} s"


if __name__ == "__main__":
    raise SystemExit(main())
