"""Kill -9 during writes: do acknowledged memories survive a server, or the store's
owner, killed mid-write?

    python scripts/kill_harness.py [--kills 100 --remembers 1000 --writers 3] [--repo DIR]
                                   [--owner-every 3] [--standby-after 0] [--storm]
                                   [--overtime 120]

Several writers, each an MCP stdio client driving its own ``anchormem serve`` (the
installed console script) in one git repository, share one store through its owner
process (adr/0012). Each writer sends ``remember`` calls with explicit anchors and logs
every id its server acknowledged: ``--remembers`` in all, and on until the killer has
made its ``--kills`` (for at most ``--overtime`` seconds), so a run of short calls still
gets every kill. A killer SIGKILLs one process at a time, at random,
while calls are in flight: a server (the writer's call fails, it starts a new server and
goes on), or, every ``--owner-every``-th kill, the store's owner (the servers' calls in
flight are sent again to the next owner: its standby, adr/0016, or one the next call
starts). ``--standby-after`` is the owners' ``ANCHORMEM_STANDBY_AFTER`` (0 by default:
the run measures a takeover by a standby; the product's default is 10 s, and on Linux an
owner forks its standby at once whatever it is, adr/0016). An owner is
killed once its standby has loaded, as it is at rest; ``--storm`` kills it again at once
(its standby may still be loading: the client then waits for it). For each kill it
measures how long the others took to carry on: the time from the kill to each other
writer's next acknowledged call. At the end (every server gone, the owner stopped) the
store is opened once and each acknowledged id must exist, with all its anchors rows and
its ``remember`` audit row. Prints the figures (``--json`` for a machine).

Without ``--repo`` it makes a throwaway repository in a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.scratch import make_repo as make_scratch_repo

SCRIPT = Path(sys.executable).with_name("anchormem")
ANCHORS = ["file:billing/client.py", "import:httpx@billing/client.py"]
FILES = {
    "pyproject.toml": '[project]\nname = "demo"\ndependencies = ["httpx>=0.27"]\n',
    "billing/__init__.py": "",
    "billing/client.py": "import httpx\n\n\ndef charge(amount):\n    return httpx.post('/c')\n",
}


def _env(standby_after: float) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ANCHORMEM_") or k == "ANCHORMEM_HOME"
    }
    # every owner keeps a standby: the harness kills owners over and over
    return {**env, "ANCHORMEM_STANDBY_AFTER": f"{standby_after:g}", "ANCHORMEM_OWNER_STANDBY": "1"}


def store_of(repo: Path) -> Path:
    """The store of ``repo``, where its servers keep it (adr/0022)."""
    from server.store_location import repository_store

    return repository_store(repo, os.environ)


def make_repo(root: Path) -> None:
    make_scratch_repo(root, FILES)


class Server:
    """One ``anchormem serve`` over stdio, spoken to with raw JSON-RPC lines (so a kill is
    seen as a closed pipe at once, with no SDK task group in the way)."""

    def __init__(self, repo: Path, errlog: Any, standby_after: float = 0.0) -> None:
        self.repo = repo
        self.errlog = errlog
        self.standby_after = standby_after
        self.proc: asyncio.subprocess.Process | None = None
        self.next_id = 0
        self.in_flight = 0

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            str(SCRIPT),
            "serve",
            cwd=self.repo,
            env=_env(self.standby_after),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errlog,
            limit=4 * 1024 * 1024,
        )
        await self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "kill-harness", "version": "1"},
            },
        )
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        await self.proc.stdin.drain()

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        self.next_id += 1
        rid = self.next_id
        await self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 120)
            if not line:
                raise ConnectionError("the server went away")
            msg = json.loads(line)
            if msg.get("id") == rid:
                if "error" in msg:
                    raise RuntimeError(msg["error"])
                return dict(msg["result"])

    async def remember(self, text: str) -> str | None:
        self.in_flight += 1
        try:
            result = await self.request(
                "tools/call",
                {"name": "remember", "arguments": {"text": text, "anchors": ANCHORS}},
            )
        finally:
            self.in_flight -= 1
        if result.get("isError"):
            raise RuntimeError(json.dumps(result.get("content"))[:300])
        return str(result["structuredContent"]["id"])

    async def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


@dataclass
class Writer:
    number: int
    server: Server
    acknowledged: list[str] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)  # monotonic time of each ack
    failed_at: list[float] = field(default_factory=list)  # each call cut off by a kill
    failed_calls: int = 0
    errors: list[str] = field(default_factory=list)
    restarts: int = 0


async def run_writer(
    w: Writer, count: int, killing: asyncio.Event | None = None, until: float = 0.0
) -> None:
    """``count`` remembers, and on while ``killing`` is not set (up to ``until``, a
    monotonic time): calls are short, so writers that stopped at ``count`` could leave the
    killer nothing in flight to kill."""
    i = 0
    while i < count or (
        killing is not None and not killing.is_set() and time.monotonic() < until
    ):
        text = f"Writer {w.number} note {i}: the billing client posts charges with httpx"
        try:
            mid = await w.server.remember(text)
        except (ConnectionError, BrokenPipeError, ConnectionResetError):
            w.failed_calls += 1  # killed mid-call: not acknowledged; resend it (duplicate ok)
            w.failed_at.append(time.monotonic())
            await w.server.stop()
            await w.server.start()
            w.restarts += 1
            continue
        except Exception as exc:
            w.errors.append(f"{type(exc).__name__}: {exc}"[:300])
            i += 1
            continue
        w.acked_at.append(time.monotonic())
        if mid is not None and mid not in w.acknowledged:
            w.acknowledged.append(mid)
        i += 1


@dataclass
class Kill:
    at: float
    owner: bool
    writer: int | None  # whose server, for a server


async def run_killer(
    writers: list[Writer],
    kills: int,
    done: asyncio.Event,
    rng: random.Random,
    repo: Path,
    owner_every: int,
    storm: bool = False,
) -> list[Kill]:
    made: list[Kill] = []
    killed: set[int] = set()  # a killed server stays a zombie until its writer reaps it
    while not all(w.acked_at for w in writers) and not done.is_set():
        await asyncio.sleep(0.05)  # mid-run: once every writer's server has answered
    while len(made) < kills and not done.is_set():
        await asyncio.sleep(rng.uniform(0.02, 0.25))
        busy = [
            w
            for w in writers
            if w.server.in_flight
            and w.server.proc is not None
            and w.server.proc.pid not in killed
            and w.server.proc.returncode is None
        ]
        if not busy:
            continue
        owner = owner_pid(repo) if owner_every and (len(made) + 1) % owner_every == 0 else None
        if owner is not None and owner not in killed and not storm:
            # One process killed at a time: the owner is killed once it is at rest with
            # its standby loaded, as after any earlier kill it will be again.
            await _standby_waiting(repo, done)
            owner = owner_pid(repo)
        if owner is not None and owner not in killed:
            killed.add(owner)
            with_suppress_kill(owner)
            made.append(Kill(time.monotonic(), True, None))
            # Let every writer get a call through the next owner before the next kill,
            # so that how soon they carried on is measured for this kill alone.
            at = made[-1].at
            while not done.is_set() and not all(w.acked_at[-1] > at for w in writers):
                await asyncio.sleep(0.01)
            continue
        victim = rng.choice(busy)
        assert victim.server.proc is not None
        killed.add(victim.server.proc.pid)
        with_suppress_kill(victim.server.proc.pid)
        made.append(Kill(time.monotonic(), False, victim.number))
    return made


async def _standby_waiting(repo: Path, done: asyncio.Event, within: float = 30.0) -> None:
    """Until the running owner's standby has loaded and waits (its log says so)."""
    lock = Path(f"{store_of(repo)}.standby.lock")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and not done.is_set():
        with contextlib.suppress(OSError):
            pid = lock.read_text().strip()
            if pid.isdigit() and f"standby {pid} waiting" in _owner_log(repo):
                return
        await asyncio.sleep(0.05)


def owner_pid(repo: Path) -> int | None:
    try:
        info = json.loads(Path(f"{store_of(repo)}.owner").read_text())
    except (OSError, ValueError):
        return None
    return int(info["pid"]) if isinstance(info, dict) and "pid" in info else None


def recoveries(writers: list[Writer], kills: list[Kill], owner: bool) -> list[float]:
    """For each kill of that kind, in order: how long the other writers took to have
    their next call acknowledged (the longest of them). A writer whose own server was
    killed and is still starting again is not one of the others."""
    found = []
    for kill in (k for k in kills if k.owner == owner):
        waits = [
            later[0] - kill.at
            for w in writers
            if w.number != kill.writer and not _restarting(w, kills, kill.at)
            for later in [[t for t in w.acked_at if t > kill.at]]
            if later
        ]
        if waits:
            found.append(round(max(waits), 2))
    return found


def carried_on(writers: list[Writer], kills: list[Kill]) -> dict[str, float | None]:
    """The worst of ``recoveries`` by kind of kill (``None``: none measured)."""
    worst: dict[str, float | None] = {}
    for kind, owner in (("server", False), ("owner", True)):
        found = recoveries(writers, kills, owner)
        worst[kind] = max(found) if found else None
    return worst


def _restarting(w: Writer, kills: list[Kill], at: float) -> bool:
    """Whether ``w``'s own server was killed between its last acknowledged call before
    ``at`` and its next one: then its next call waited for a new server, not for ``at``.
    A call of ``w`` that failed in between says so too: a server killed just as its
    answer was on the way has its last ack *after* its kill, and its writer's next call
    fails and starts a new server."""
    before = max((t for t in w.acked_at if t <= at), default=float("-inf"))
    after = min((t for t in w.acked_at if t > at), default=float("inf"))
    return any(k.writer == w.number and before < k.at < after for k in kills) or any(
        before <= t < after for t in w.failed_at
    )


def _owner_log(repo: Path) -> str:
    try:
        return Path(f"{store_of(repo)}.owner.log").read_text(errors="replace")
    except OSError:
        return ""


def stop_owner(repo: Path) -> None:
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    OwnerLink(Files(store_of(repo)), None, env={}, wait_s=60, version="harness").stop_owner()


def with_suppress_kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have died on its own
        os.kill(pid, signal.SIGKILL)


def check_store(db: Path, ids: list[str]) -> dict[str, int]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("CREATE TEMP TABLE acked (id VARCHAR)")
        con.executemany("INSERT INTO acked VALUES (?)", [[i] for i in ids])
        missing = con.execute(
            "SELECT count(*) FROM acked WHERE id NOT IN (SELECT id FROM memories)"
        ).fetchone()
        no_anchors = con.execute(
            "SELECT count(*) FROM acked a WHERE (SELECT count(*) FROM anchors n"
            f" WHERE n.memory_id = a.id) < {len(ANCHORS)}"
        ).fetchone()
        no_audit = con.execute(
            "SELECT count(*) FROM acked a WHERE NOT EXISTS (SELECT 1 FROM audit u"
            " WHERE u.memory_id = a.id AND u.action = 'remember')"
        ).fetchone()
        stored = con.execute("SELECT count(*) FROM memories").fetchone()
    finally:
        con.close()
    assert missing and no_anchors and no_audit and stored
    return {
        "missing": int(missing[0]),
        "missing_anchors": int(no_anchors[0]),
        "missing_audit": int(no_audit[0]),
        "stored": int(stored[0]),
    }


async def harness(
    repo: Path,
    kills: int,
    remembers: int,
    writers_n: int,
    errlog_path: Path,
    seed: int = 7,
    owner_every: int = 3,
    standby_after: float = 0.0,
    storm: bool = False,
    overtime: float = 120.0,
) -> dict[str, Any]:
    errlog = open(errlog_path, "w")  # noqa: SIM115 (the servers' stderr, kept for a look)
    started = time.monotonic()
    writers = [Writer(n, Server(repo, errlog, standby_after)) for n in range(writers_n)]
    for w in writers:
        await w.server.start()
    done = asyncio.Event()
    killed_enough = asyncio.Event()

    async def killing() -> list[Kill]:
        try:
            return await run_killer(
                writers, kills, done, random.Random(seed), repo, owner_every, storm
            )
        finally:
            killed_enough.set()

    killer = asyncio.create_task(killing())
    per = [remembers // writers_n + (n < remembers % writers_n) for n in range(writers_n)]
    until = time.monotonic() + overtime
    await asyncio.gather(
        *(run_writer(w, c, killed_enough, until) for w, c in zip(writers, per, strict=True))
    )
    done.set()
    made = await killer
    for w in writers:
        await w.server.stop()
    errlog.close()
    stop_owner(repo)  # it closes the store: the file is read below
    ids = [i for w in writers for i in w.acknowledged]
    figures = check_store(store_of(repo), ids)
    worst = carried_on(writers, made)
    return {
        "writers": writers_n,
        "remembers": remembers,
        "kills": len(made),
        "owner_kills": sum(k.owner for k in made),
        # Owners killed after their standby had loaded are replaced by it (adr/0016).
        "standby_takeovers": _owner_log(repo).count("takes over the store"),
        "carried_on_after_server_kill_s": worst["server"],
        "carried_on_after_owner_kill_s": worst["owner"],
        "each_owner_kill_s": recoveries(writers, made, owner=True),
        "acknowledged": len(ids),
        "unique_acknowledged": len(set(ids)),
        "failed_calls": sum(w.failed_calls for w in writers),
        "restarts": sum(w.restarts for w in writers),
        "tool_errors": [e for w in writers for e in w.errors],
        **figures,
        "seconds": round(time.monotonic() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--remembers", type=int, default=1000)
    ap.add_argument("--writers", type=int, default=3)
    ap.add_argument("--repo", type=Path, default=None, help="an existing git repository")
    ap.add_argument("--seed", type=int, default=7, help="for the killer's timing and choice")
    ap.add_argument(
        "--owner-every", type=int, default=3, help="every Nth kill is the owner's (0: none)"
    )
    ap.add_argument(
        "--standby-after", type=float, default=0.0, help="the owners' ANCHORMEM_STANDBY_AFTER"
    )
    ap.add_argument(
        "--storm",
        action="store_true",
        help="kill the owner again without waiting for its standby to load (a kill storm)",
    )
    ap.add_argument(
        "--overtime",
        type=float,
        default=120.0,
        help="seconds the writers go on past --remembers until every kill is made",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kill-harness-") as tmp:
        repo = args.repo
        if repo is None:
            repo = Path(tmp)
            make_repo(repo)
        errlog = Path(tmp) / "servers-stderr.log"
        out = asyncio.run(
            harness(
                repo,
                args.kills,
                args.remembers,
                max(1, args.writers),
                errlog,
                args.seed,
                args.owner_every,
                args.standby_after,
                args.storm,
                args.overtime,
            )
        )
        out["server_tracebacks"] = errlog.read_text().count("Traceback")
        out["owner_tracebacks"] = _owner_log(repo).count("Traceback")
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:>20}: {value}")
    lost = out["missing"] + out["missing_anchors"] + out["missing_audit"]
    return 0 if lost == 0 and not out["tool_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
