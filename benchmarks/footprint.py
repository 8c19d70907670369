"""What one repository in use costs: the resident memory of every process it starts, and the
wall time of a read-only CLI call when no owner runs, each beside a floor from the same run.

    python -m benchmarks footprint                    # 300 memories, 5 cold calls a command
    python -m benchmarks footprint --memories 30 --runs 2
    python -m benchmarks footprint --no-standby       # served with ANCHORMEM_OWNER_STANDBY=0
    python -m benchmarks footprint --always-standby   # served with ANCHORMEM_OWNER_STANDBY=1

Prints numbers only, no verdict:

* **memory**: ``anchormem serve --repo REPO --db STORE`` started as an agent starts it
  (stdio, no ``ANCHORMEM_*`` settings), spoken to with ``benchmarks.rawclient`` (the
  handshake, then one ``recall``), then ``--settle`` seconds for the owner's standby, if it
  keeps one, to load (by default an owner keeps one only once an owner was killed,
  adr/0016: ``--always-standby`` measures one kept from the start).
  Every process of the store is found in ``/proc``: the server, the store's owner (pid in
  ``<store>.owner``), its standby (pid in ``<store>.standby.lock``; a forked standby shows
  the owner's command line) and any other process whose command line names the store or
  whose parent is one of them. One line each with its VmRSS (``/proc/PID/status``) and its
  Pss (``/proc/PID/smaps_rollup``: a forked standby shares its owner's pages, which RSS
  counts twice and Pss splits), then the total. Beside it, floors measured the same way:
  a bare interpreter (``python -c "import time; time.sleep(60)"``), one that has imported
  DuckDB and the MCP SDK, and the MCP reference memory server
  (``@modelcontextprotocol/server-memory`` on node, after a handshake and one
  ``search_nodes``) when ``python -m benchmarks reference-memory`` has installed it
  (``--reference-cache``); otherwise its line says it is not installed.
* **cold read-only CLI**: ``anchormem list`` and ``anchormem recall QUERY`` on the same
  store, with no owner running before each call (the owner a call leaves is stopped, untimed,
  before the next one) and every verdict cached at HEAD (an untimed ``anchormem verify``
  first); then ``anchormem list`` just after a commit (an empty one, untimed, before each
  call: nothing is cached at the new HEAD, so the call builds the fingerprint from the
  cached facts of the files and checks the memories it lists). The median wall time of
  ``--runs`` runs, from spawn to exit, and whether the call left an owner behind. Beside
  them, ``python -c pass`` and ``python -c "import duckdb"``, timed the same way in the
  same run, and the same recall while the server's owner still ran (timed in the memory
  step, after its reading).

The repository is a scratch copy of the experiments' shopfront fixture and the store a
copy of a seeded one (``benchmarks/seed.py``; seeded stores are cached). Linux only
(``/proc``). Nothing is written outside a temporary directory and the seed cache.
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

__all__ = ["Process", "main", "processes_of", "resident", "run"]

DEFAULT_MEMORIES = 300
DEFAULT_RUNS = 5
DEFAULT_SETTLE_S = 3.0
_MB = 1024 * 1024
_LABEL = 44


@dataclass(frozen=True)
class Process:
    role: str
    pid: int
    rss: int  # bytes
    pss: int | None  # bytes; None when smaps_rollup cannot be read


def _status_kb(pid: int, field: str) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return None


def _pss(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return None


def resident(pid: int, role: str = "") -> Process | None:
    """The process's resident memory now (``None``: it is gone)."""
    rss = _status_kb(pid, "VmRSS")
    if rss is None:
        return None
    return Process(role, pid, rss * 1024, _pss(pid))


def _cmdline(pid: int) -> str:
    try:
        return (
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _read_pid(path: Path, key: str | None = None) -> int | None:
    try:
        text = path.read_text().strip()
        return int(json.loads(text)[key] if key else text)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def processes_of(store: Path, server_pid: int) -> list[Process]:
    """Every live process serving ``store``: the server, the owner, the standby, and any
    process naming the store or started by one of them."""
    owner = _read_pid(Path(f"{store}.owner"), "pid")
    standby = _read_pid(Path(f"{store}.standby.lock"))
    found = {server_pid} | {p for p in (owner, standby) if p is not None}
    found |= {pid for pid in _pids() if str(store) in _cmdline(pid)}
    while True:  # children of any of them (a fork keeps its parent's command line)
        more = {pid for pid in _pids() if _status_kb_ppid(pid) in found} - found
        if not more:
            break
        found |= more
    roles = {server_pid: "serve", **({owner: "owner"} if owner else {})}
    if standby:
        roles[standby] = "standby"
    listed = []
    for pid in sorted(found, key=lambda p: (list(roles).index(p) if p in roles else 9, p)):
        role = roles.get(pid) or f"child: {Path(_cmdline(pid).split(' ')[0]).name}"
        proc = resident(pid, role)
        if proc is not None:
            listed.append(proc)
    return listed


def _status_kb_ppid(pid: int) -> int | None:
    return _status_kb(pid, "PPid")


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / _MB:.1f}"


def _line(label: str, proc: Process | None, extra: str = "") -> str:
    if proc is None:
        return f"{label:<{_LABEL}}gone before it was read"
    text = f"{label:<{_LABEL}}rss {_mb(proc.rss)} MB  pss {_mb(proc.pss)} MB"
    return f"{text}  {extra}" if extra else text


# -- floors -----------------------------------------------------------------------------------
def _floor_process(code: str) -> Process | None:
    """The RSS of a Python process that ran ``code``, then waits."""
    child = subprocess.Popen(
        [sys.executable, "-I", "-c", f"{code}\nimport sys, time\nprint('ready', flush=True)\n"
         "sys.stdin.read()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        if child.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the floor process {code!r} failed")
        return resident(child.pid)
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=30)


def _reference_process(cache: Path | None, work: Path) -> tuple[Process | None, str]:
    """The reference memory server's RSS after a handshake and a search, or why not."""
    from benchmarks.rawclient import RawClient
    from benchmarks.reference_memory import ENTRY, FILE_ENV, PACKAGE
    from benchmarks.seed import cache_dir

    entry = (cache or cache_dir() / "reference-memory") / "node_modules" / PACKAGE / ENTRY
    node = shutil.which("node")
    if node is None or not entry.exists():
        return None, "not installed (python -m benchmarks reference-memory installs it)"
    env = {**os.environ, FILE_ENV: str(work / "reference-memory.jsonl")}

    async def measure() -> Process | None:
        with (work / "reference.stderr").open("w") as errlog:
            async with RawClient(node, [str(entry)], cwd=str(work), env=env, errlog=errlog) as c:
                await c.call_tool("search_nodes", {"query": "billing"})
                assert c._process is not None
                return resident(c._process.pid, "reference")

    return anyio.run(measure), "after a handshake and one search_nodes"


# -- anchormem --------------------------------------------------------------------------------
def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}


def _stop_owner(store: Path) -> None:
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    OwnerLink(Files(store), None, env={}, wait_s=60, version="bench").stop_owner()


def _owner_running(store: Path) -> bool:
    pid = _read_pid(Path(f"{store}.owner"), "pid")
    return pid is not None and resident(pid) is not None


def _served(
    work: Path,
    repo: Path,
    store: Path,
    query: str,
    settle_s: float,
    runs: int,
    setting: dict[str, str],
) -> tuple[list[Process], list[float]]:
    """The store's processes once a server has answered a recall and settled, and the wall
    times of ``runs`` CLI recalls while its owner runs (for comparison with the cold ones)."""
    from benchmarks.latency import _anchormem_command
    from benchmarks.rawclient import RawClient

    where = ["--repo", str(repo), "--db", str(store)]
    command = [*_anchormem_command(), "serve", *where]
    served_env = {**_env(), **setting}

    async def measure() -> tuple[list[Process], list[float]]:
        with (work / "serve.stderr").open("w") as errlog:
            async with RawClient(
                command[0], command[1:], cwd=str(work), env=served_env, errlog=errlog
            ) as client:
                result = await client.call_tool("recall", {"query": query})
                if result.is_error or not (result.structured_content or {}).get("memories"):
                    raise RuntimeError(f"recall through serve found nothing: {result.content}")
                time.sleep(settle_s)  # the standby loads beside a served owner
                assert client._process is not None
                procs = processes_of(store, client._process.pid)
                recall = [*_anchormem_command(), "recall", query, *where, "--json"]
                warm = [_timed(recall, work, _env()) for _ in range(runs)]
                return procs, warm

    try:
        return anyio.run(measure)
    finally:
        _stop_owner(store)


def _timed(command: Sequence[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"`{' '.join(command)}` failed ({done.returncode}): {done.stderr}")
    return elapsed


def _cold_cli(
    work: Path, repo: Path, store: Path, query: str, runs: int
) -> list[tuple[str, list[float], int]]:
    """(label, wall times, calls that left an owner running) per command and floor."""
    from benchmarks.latency import _anchormem_command

    env = _env()
    where = ["--repo", str(repo), "--db", str(store), "--json"]
    rows: list[tuple[str, list[float], int]] = []
    for label, code in (
        ("floor   python -c pass", "pass"),
        ("floor   python -c 'import duckdb'", "import duckdb"),
    ):
        rows.append((label, [_timed([sys.executable, "-I", "-c", code], work, env)
                             for _ in range(runs)], 0))  # fmt: skip
    # Every verdict cached at HEAD first, untimed, as a stopped owner leaves them (the
    # seeded store's may be a checker version old).
    _timed([*_anchormem_command(), "verify", *where], work, env)
    for label, args, commit in (
        ("anchormem list", ["list", *where], False),
        (f"anchormem recall {query!r}", ["recall", query, *where], False),
        ("anchormem list, just after a commit", ["list", *where], True),
    ):
        times, left = [], 0
        for _ in range(runs):
            _stop_owner(store)  # no owner before the call
            if commit:  # nothing cached at the new HEAD: the fingerprint is built
                _commit(repo)
            times.append(_timed([*_anchormem_command(), *args], work, env))
            left += _owner_running(store)
        _stop_owner(store)
        rows.append((label, times, left))
    return rows


def _commit(repo: Path) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
         "commit", "-q", "--allow-empty", "-m", "a commit that moves HEAD"],
        cwd=repo, check=True, capture_output=True,
    )  # fmt: skip


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def run(
    memories: int,
    runs: int,
    settle_s: float = DEFAULT_SETTLE_S,
    cache: Path | None = None,
    reference_cache: Path | None = None,
    out: Callable[[str], object] = print,
    setting: dict[str, str] | None = None,
) -> None:
    """``setting``: the server's ``ANCHORMEM_OWNER_STANDBY``, if any (default: unset)."""
    from benchmarks.seed import Vocabulary, cached_store, queries
    from experiments.fixture import build_fixture

    def say(line: str) -> None:
        out(line)
        sys.stdout.flush()

    say(f"footprint: {memories} memories, {os.cpu_count()} CPUs, load average {_load()}")
    with tempfile.TemporaryDirectory(prefix="anchormem-footprint-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        store = work / "store.duckdb"
        shutil.copyfile(cached_store(memories, repo, cache), store)
        query = queries(Vocabulary.of(repo), 1, seed=memories)[0]

        setting = setting or {}
        named = "".join(f", {k}={v}" for k, v in setting.items())
        say(f"-- resident memory of one repository in use (serve, one recall, settled{named})")
        procs, warm = _served(work, repo, store, query, settle_s, runs, setting)
        for proc in procs:
            say(_line(f"anchormem {proc.role} (pid {proc.pid})", proc))
        total_rss = sum(p.rss for p in procs)
        total_pss = sum(p.pss or 0 for p in procs)
        say(
            f"{'anchormem total, ' + str(len(procs)) + ' processes':<{_LABEL}}"
            f"rss {_mb(total_rss)} MB  pss {_mb(total_pss)} MB"
        )
        say(_line("floor   python, bare", _floor_process("pass")))
        say(_line("floor   python, import duckdb, mcp", _floor_process("import duckdb, mcp")))
        ref, note = _reference_process(reference_cache, work)
        if ref is None:
            say(f"{'floor   reference memory server':<{_LABEL}}{note}")
        else:
            say(_line("floor   reference memory server", ref, note))

        say(f"-- cold read-only CLI call, no owner running before it: median of {runs}")
        for label, times, left in _cold_cli(work, repo, store, query, runs):
            text = f"{label:<{_LABEL}}median {statistics.median(times):.3f} s"
            text += f"  (min {min(times):.3f}, max {max(times):.3f})"
            if label.startswith("anchormem"):
                text += f"  left an owner running after {left} of {runs}"
            say(text)
        label = "anchormem recall, an owner running"
        say(f"{label:<{_LABEL}}median {statistics.median(warm):.3f} s"
            f"  (min {min(warm):.3f}, max {max(warm):.3f})")  # fmt: skip
    say(f"load average at the end {_load()}")


def _standby_setting(never: bool, always: bool) -> dict[str, str]:
    if never or always:
        return {"ANCHORMEM_OWNER_STANDBY": "0" if never else "1"}
    return {}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks footprint",
        description=(__doc__ or "").split("\n\n")[0],
    )
    parser.add_argument("--memories", type=int, default=DEFAULT_MEMORIES,
                        help=f"memories in the store (default {DEFAULT_MEMORIES})")  # fmt: skip
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS,
                        help=f"cold CLI calls per command (default {DEFAULT_RUNS})")  # fmt: skip
    parser.add_argument(
        "--settle",
        type=float,
        default=DEFAULT_SETTLE_S,
        help=f"seconds after the recall before memory is read (default {DEFAULT_SETTLE_S:g})",
    )
    parser.add_argument("--cache", type=Path, help="where seeded stores are kept")
    parser.add_argument(
        "--reference-cache",
        type=Path,
        help="where the reference memory server is installed (default: reference-memory in "
        "the seed cache, as python -m benchmarks reference-memory installs it)",
    )
    kept = parser.add_mutually_exclusive_group()
    kept.add_argument(
        "--no-standby",
        action="store_true",
        help="serve with ANCHORMEM_OWNER_STANDBY=0: the owner keeps no standby",
    )
    kept.add_argument(
        "--always-standby",
        action="store_true",
        help="serve with ANCHORMEM_OWNER_STANDBY=1: the owner keeps a standby from its start",
    )
    args = parser.parse_args(argv)
    if args.memories < 1 or args.runs < 1 or args.settle < 0:
        parser.error("--memories and --runs must be at least 1, --settle at least 0")
    if not Path("/proc/self/status").exists():
        print("benchmarks.footprint: needs /proc (Linux)", file=sys.stderr)
        return 2
    run(
        args.memories, args.runs, args.settle, args.cache, args.reference_cache,
        setting=_standby_setting(args.no_standby, args.always_standby),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
