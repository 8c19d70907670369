"""Where a call's time goes, layer by layer, in one process: the memory service with the
renderer (the store, verification and the agent's view the tools render), then the
store's owner answering a relayed frame of the same tools (adding the SDK's parse,
argument check, shaping and framing: adr/0017), then recall through the SDK's in-memory
MCP client (adding the SDK's dispatch, validation and
serialization on both sides, but no process boundary).

    python -m benchmarks.layers [--size 10000] [--calls 100]
    python -m benchmarks.layers --quick          # 50 memories, 10 calls

Same seeded stores and notes as ``benchmarks.latency`` (``benchmarks/seed.py``). Prints
p50 and p99 per line; compare a layer with the one above it in the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import tempfile
import threading
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
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    from benchmarks.seed import Vocabulary, cached_store, notes, queries
    from experiments.fixture import build_fixture
    from server.app import build_server
    from server.config import Settings
    from server.direct import DirectAnswers
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
        asks = queries(vocab, 3 * calls + 10, seed=size)
        fresh = notes(vocab, 20_000_000 + size, 3 * calls + 20)

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
            # As a served store is before its calls are timed (``Runtime.start_background``,
            # ``benchmarks.latency``): the contradiction check warm, what is loaded frozen.
            warmed = svc.warm(threading.Event())
            gc.freeze()
            print(f"conflict check warm: {warmed.memories} memories in {warmed.seconds:.2f} s")
            print(_line("service + renderer: remember", _timed(remember, calls)))
            print(_line("service + renderer: recall", _timed(lambda i: recall(5 + i), calls)))

            # What the store's owner does with a relayed frame (adr/0017): the same
            # service and renderer, plus the SDK's steps around them (parse, argument
            # check, shaping, framing). The difference with the lines above is theirs.
            direct = DirectAnswers(build_server(settings))
            version = max(HANDSHAKE_PROTOCOL_VERSIONS)

            def answered(name: str, arguments: dict[str, object], i: int) -> object:
                frame = {"jsonrpc": "2.0", "id": i, "method": "tools/call"}
                frame["params"] = {"name": name, "arguments": arguments}
                out = direct.answer(json.dumps(frame).encode() + b"\n", version, svc)
                if out is None or b'"isError":true' in out:
                    raise RuntimeError(f"the owner did not answer {name}: {out!r}")
                return out

            def remember_direct(i: int) -> object:
                return answered("remember", next(fresh).arguments(), i)

            def recall_direct(i: int) -> object:
                return answered("recall", {"query": asks[calls + 5 + i]}, i)

            for i in range(5):  # the SDK's adapters are built on a first call
                remember_direct(i)
            print(_line("owner's direct answer: remember", _timed(remember_direct, calls)))
            print(_line("owner's direct answer: recall", _timed(recall_direct, calls)))
        finally:
            runtime.close()

        async def through_mcp() -> None:
            async with Client(build_server(settings)) as client:
                samples = []
                for i in range(calls + 5):
                    start = time.perf_counter()
                    result = await client.call_tool("recall", {"query": asks[2 * calls + 5 + i]})
                    if result.is_error:
                        raise RuntimeError(f"recall failed: {result.content}")
                    if i >= 5:
                        samples.append(time.perf_counter() - start)
                print(_line("in-memory MCP client: recall", samples))

        anyio.run(through_mcp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
