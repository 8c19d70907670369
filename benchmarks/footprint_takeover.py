"""What the owner's standby buys: the time an MCP session waits after its store's owner is
killed, with a standby kept by every owner, with the default (a standby once an owner was
killed), and with none, in the same run.

    python -m benchmarks.footprint_takeover                 # 5 kills each way
    python -m benchmarks.footprint_takeover --kills 3 --rest 4

For each arm, one ``anchormem serve`` (stdio, spoken to with ``benchmarks.rawclient``) on a
copy of a seeded store answers a ``recall``; then, ``--kills`` times: ``--rest`` seconds
of rest (the owner idle, its standby loaded if it has one), SIGKILL of the owner (pid in
``<store>.owner``), and the wall time of the next ``recall`` through the same server, from
the kill to its answer, and whether a standby was waiting at the kill (pid in
``<store>.standby.lock``). The arms: ``ANCHORMEM_OWNER_STANDBY=1``, the default (no
``ANCHORMEM_*`` settings, as an agent starts it: its first kill meets no standby, the
later ones the standby of the owner that replaced it) and ``ANCHORMEM_OWNER_STANDBY=0``.
Linux only (``/proc``, SIGKILL). Prints numbers only, no verdict.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import anyio

from benchmarks.footprint import _env, _read_pid, _stop_owner, resident

__all__ = ["main", "takeovers"]

DEFAULT_KILLS = 5
DEFAULT_REST_S = 3.0
DEFAULT_MEMORIES = 300


def _owner_pid(store: Path, within_s: float = 30.0) -> int:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        pid = _read_pid(Path(f"{store}.owner"), "pid")
        if pid is not None and resident(pid) is not None:
            return pid
        time.sleep(0.02)
    raise RuntimeError("no owner came up")


ARMS: tuple[tuple[str, dict[str, str]], ...] = (
    ("standby always (=1)", {"ANCHORMEM_OWNER_STANDBY": "1"}),
    ("default", {}),
    ("no standby (=0)", {"ANCHORMEM_OWNER_STANDBY": "0"}),
)


def takeovers(
    work: Path,
    repo: Path,
    store: Path,
    query: str,
    kills: int,
    rest_s: float,
    setting: dict[str, str],
) -> list[tuple[float, bool]]:
    """(seconds from the owner's SIGKILL to the next recall's answer, whether a standby was
    waiting at the kill) for each of ``kills``."""
    from benchmarks.latency import _anchormem_command
    from benchmarks.rawclient import RawClient

    command = [*_anchormem_command(), "serve", "--repo", str(repo), "--db", str(store)]
    env = {**_env(), **setting}

    async def measure() -> list[tuple[float, bool]]:
        found: list[tuple[float, bool]] = []
        with (work / "serve.stderr").open("a") as errlog:
            async with RawClient(command[0], command[1:], cwd=str(work), env=env,
                                 errlog=errlog) as client:  # fmt: skip
                await _recall(client, query)
                for _ in range(kills):
                    time.sleep(rest_s)
                    pid = _owner_pid(store)
                    waiting = _read_pid(Path(f"{store}.standby.lock")) is not None
                    started = time.perf_counter()
                    os.kill(pid, signal.SIGKILL)
                    await _recall(client, query)
                    found.append((time.perf_counter() - started, waiting))
        return found

    try:
        return anyio.run(measure)
    finally:
        _stop_owner(store)


async def _recall(client: object, query: str) -> None:
    result = await client.call_tool("recall", {"query": query})  # type: ignore[attr-defined]
    if result.is_error or not (result.structured_content or {}).get("memories"):
        raise RuntimeError(f"recall through serve found nothing: {result.content}")


def run(memories: int, kills: int, rest_s: float, cache: Path | None = None) -> None:
    from benchmarks.seed import Vocabulary, cached_store, queries
    from experiments.fixture import build_fixture

    print(f"takeover: {memories} memories, {kills} owner kills per arm, {os.cpu_count()} CPUs",
          flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="anchormem-takeover-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        seeded = cached_store(memories, repo, cache)
        query = queries(Vocabulary.of(repo), 1, seed=memories)[0]
        for n, (label, setting) in enumerate(ARMS):
            store = work / f"store-{n}.duckdb"
            shutil.copyfile(seeded, store)
            found = takeovers(work, repo, store, query, kills, rest_s, setting)
            times = [t for t, _ in found]
            each = " ".join(f"{t:.2f}{'s' if w else ''}" for t, w in found)
            print(f"{label:<20} kill to next recall: median {statistics.median(times):.3f} s"
                  f"  (min {min(times):.3f}, max {max(times):.3f});"
                  f" each, in order (s: a standby waited): {each}", flush=True)  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.footprint_takeover",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument("--memories", type=int, default=DEFAULT_MEMORIES)
    parser.add_argument("--kills", type=int, default=DEFAULT_KILLS)
    parser.add_argument("--rest", type=float, default=DEFAULT_REST_S,
                        help="seconds between the last answer and a kill")  # fmt: skip
    parser.add_argument("--cache", type=Path, help="where seeded stores are kept")
    args = parser.parse_args(argv)
    if args.kills < 1 or args.rest < 0 or args.memories < 1:
        parser.error("--kills and --memories must be at least 1, --rest at least 0")
    if not Path("/proc/self/status").exists():
        print("benchmarks.footprint_takeover: needs /proc (Linux)", file=sys.stderr)
        return 2
    run(args.memories, args.kills, args.rest, args.cache)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
