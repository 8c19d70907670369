"""Where a call's time goes, layer by layer, in one process: the memory service with the
renderer (the store, verification and the agent's view the tools render), then the same
tool through the SDK's in-memory MCP client (adding the SDK's dispatch, validation and
serialization on both sides, but no process boundary).

    python -m benchmarks.layers [--size 10000] [--calls 100]
    python -m benchmarks.layers --quick          # 50 memories, 10 calls

Same seeded stores and notes as ``benchmarks.latency`` (``benchmarks/seed.py``). Prints
p50 and p99 per line; compare a layer with the one above it in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import anyio

__all__ = ["main"]


def _line(label: str, samples: list[float]) -> str:
    samples = sorted(samples)
    p50 = samples[len(samples) // 2] * 1000
    p99 = samples[max(0, int(len(samples) * 0.99) - 1)] * 1000
    return f"{label:<44}p50 {p50:.2f} ms  p99 {p99:.2f} ms"


def _timed(fn: Callable[[int], object], calls: int) -> list[float]:
    samples = []
    for i in range(calls):
        start = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - start)
    return samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.layers", description=__doc__)
    parser.add_argument("--size", type=int, default=10_000, help="memories in the store")
    parser.add_argument("--calls", type=int, default=100, help="timed calls per line")
    parser.add_argument("--quick", action="store_true", help="50 memories, 10 calls")
    args = parser.parse_args(argv)
    size, calls = (50, 10) if args.quick else (args.size, args.calls)
    if size < 1 or calls < 1:
        raise SystemExit("benchmarks.layers: --size and --calls must be at least 1")

    from mcp import Client

    from benchmarks.seed import Vocabulary, cached_store, notes, queries
    from experiments.fixture import build_fixture
    from server.app import build_server
    from server.config import Settings
    from server.rendering import tool_content
    from server.runtime import open_runtime

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"layers at {size} memories, {calls} calls per line; load average {load}")
    with tempfile.TemporaryDirectory(prefix="anchormem-layers-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        vocab = Vocabulary.of(repo)
        db = work / "store.duckdb"
        shutil.copyfile(cached_store(size, repo), db)
        settings = Settings.resolve(repo=str(repo), db=str(db), env={})
        asks = queries(vocab, 2 * calls + 10, seed=size)
        fresh = notes(vocab, 20_000_000 + size, 2 * calls + 10)

        runtime = open_runtime(settings)
        try:
            svc = runtime.service

            def remember(_: int) -> object:
                arguments = next(fresh).arguments()
                return tool_content("remember", svc.remember(arguments.pop("text"), **arguments))

            def recall(i: int) -> object:
                return tool_content("recall", svc.recall(asks[i], 10, False))

            for i in range(5):
                remember(i)
                recall(i)
            print(_line("service + renderer: remember", _timed(remember, calls)))
            print(_line("service + renderer: recall", _timed(lambda i: recall(5 + i), calls)))
        finally:
            runtime.close()

        async def through_mcp() -> None:
            async with Client(build_server(settings)) as client:
                samples = []
                for i in range(calls + 5):
                    start = time.perf_counter()
                    result = await client.call_tool("recall", {"query": asks[calls + i]})
                    if result.is_error:
                        raise RuntimeError(f"recall failed: {result.content}")
                    if i >= 5:
                        samples.append(time.perf_counter() - start)
                print(_line("in-memory MCP client: recall", samples))

        anyio.run(through_mcp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
