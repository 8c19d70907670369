"""Several `anchormem serve` processes on one repository share one DuckDB store.

DuckDB lets one process open a file read-write and keeps every other process out; the
store's owner process (``server/owner.py``, adr/0012) holds it and serves every server and
CLI call. These tests start real server processes over stdio, as Claude Desktop or Claude
Code would (one per chat session), and check what reaches the clients and what ends up
in the file (read once the owner has been asked to stop and has closed it).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import anyio
import anyio.to_thread
import duckdb
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.conftest import store_file as default_store
from tests.server.conftest import PROJECT

pytestmark = pytest.mark.anyio

SCRIPT = Path(sys.executable).with_name("anchormem")
SESSIONS = 4
REMEMBERS_PER_SESSION = 250
RECALL_EVERY = 5
DOOMED_ORIGIN = "doomed-session"
DOOMED_ANCHORS = ["file:billing/client.py", "import:httpx@billing/client.py"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


def server_env() -> dict[str, str]:
    return anchormem_env()


def store_file(repo: GitRepo) -> Path:
    return default_store(repo.root)


def cli(repo: GitRepo, *args: str) -> Any:
    done = subprocess.run(
        [str(SCRIPT), *args, "--json"],
        cwd=repo.root,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def session(repo: GitRepo, errlog: IO[str]) -> Client:
    """A client that starts its own `anchormem serve` in the repository."""
    params = StdioServerParameters(
        command=str(SCRIPT), args=["serve"], cwd=str(repo.root), env=server_env()
    )
    return Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120)


@dataclass
class Tally:
    calls: int = 0
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[str, list[str]] = field(default_factory=dict)


async def checked_call(client: Client, tally: Tally, tool: str, args: dict[str, Any]) -> Any:
    try:
        result = await client.call_tool(tool, args)
    except Exception as exc:  # every failure counts; the assertion lists them
        tally.errors.append(f"{tool}: {type(exc).__name__}: {exc}")
        return None
    tally.calls += 1
    if result.is_error:
        tally.errors.append(f"{tool}: {result.content}")
        return None
    return result.structured_content


async def run_session(
    repo: GitRepo,
    number: int,
    remembers: int,
    tally: Tally,
    errlog: IO[str],
    pause_at: int | None = None,
    resume: anyio.Event | None = None,
) -> None:
    origin = f"session-{number}"
    async with session(repo, errlog) as client:
        for i in range(remembers):
            if pause_at is not None and i == pause_at and resume is not None:
                await resume.wait()
            made = await checked_call(
                client,
                tally,
                "remember",
                {"text": note(number, i), "origin": origin},
            )
            if made is not None:
                tally.acknowledged.setdefault(origin, []).append(made["id"])
            if (i + 1) % RECALL_EVERY == 0:
                query = f"session {number} checklist"
                await checked_call(client, tally, "recall", {"query": query})


def note(session: int, i: int) -> str:
    # Notes about the team rather than the code: the sessions share no anchor, subject or
    # slot, so the store's work per call stays flat and the run measures the sharing.
    # (Memories that share a key are compared with each other on every remember, which
    # costs more as they accumulate: a concern of store/consolidation, not of the lease.)
    return (
        f"Session {session} note {i}: release checklist item {session}-{i}"
        f" is owned by team {session}"
    )


class RawServer:
    """`anchormem serve` started by the test itself, spoken to over its pipes, so that
    its pid is ours to kill."""

    def __init__(self, repo: GitRepo, errlog: IO[str]) -> None:
        self.proc = subprocess.Popen(
            [str(SCRIPT), "serve"],
            cwd=repo.root,
            env=server_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
        )
        self._next_id = 0

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.write(message)
        return self._next_id

    def write(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def reply(self, request_id: int) -> dict[str, Any]:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server closed its output"
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == request_id:
                return message

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.reply(self.send(method, params))

    def initialize(self) -> None:
        init = self.call(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test-client", "version": "0"},
            },
        )
        assert "result" in init, init
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def remember(self, text: str, **extra: Any) -> dict[str, Any]:
        return self.call("tools/call", {"name": "remember", "arguments": {"text": text, **extra}})

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def errlog(tmp_path: Path) -> Iterator[IO[str]]:
    """The servers' stderr, to show that no lock error was ever reported."""
    with (tmp_path / "servers.stderr").open("w+") as log:
        yield log


def server_complaints(errlog: IO[str]) -> list[str]:
    errlog.flush()
    errlog.seek(0)
    return [line for line in errlog.read().splitlines() if "lock" in line.lower()]


def stop_owner(repo: GitRepo) -> None:
    """Have the store's owner (if one runs) close the store and exit."""
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    OwnerLink(
        Files(store_file(repo)), None, env=settings_env(), wait_s=30, version="test"
    ).stop_owner()


def open_store(repo: GitRepo) -> duckdb.DuckDBPyConnection:
    stop_owner(repo)
    return duckdb.connect(str(store_file(repo)), read_only=True)


def doomed_work(repo: GitRepo, errlog: IO[str], remembers: int) -> list[str]:
    """A fifth server that acknowledges ``remembers`` memories, is asked for one more and
    is killed with SIGKILL before it can answer."""
    doomed = RawServer(repo, errlog)
    acknowledged = []
    try:
        doomed.initialize()
        for i in range(remembers):
            reply = doomed.remember(
                f"Doomed session fact {i}: billing posts charges with httpx",
                origin=DOOMED_ORIGIN,
                anchors=DOOMED_ANCHORS,
            )
            assert not reply["result"]["isError"], reply
            acknowledged.append(reply["result"]["structuredContent"]["id"])
        doomed.send(
            "tools/call",
            {
                "name": "remember",
                "arguments": {
                    "text": "Doomed session fact in flight when the server died",
                    "origin": DOOMED_ORIGIN,
                    "anchors": DOOMED_ANCHORS,
                },
            },
        )
        doomed.kill()
    finally:
        doomed.close()
    return acknowledged


async def hammer(
    repo: GitRepo, errlog: IO[str], remembers: int, doomed_remembers: int
) -> tuple[Tally, list[str], float]:
    """Four sessions remember and recall concurrently; a fifth is killed half-way through
    (the four wait at the half-way mark until it is dead, so it dies mid-run)."""
    tally = Tally()
    killed = anyio.Event()
    doomed: list[str] = []

    async def fifth() -> None:
        doomed.extend(await anyio.to_thread.run_sync(doomed_work, repo, errlog, doomed_remembers))
        killed.set()

    start = time.monotonic()
    async with anyio.create_task_group() as tg:
        for number in range(SESSIONS):
            tg.start_soon(
                run_session, repo, number, remembers, tally, errlog, remembers // 2, killed
            )
        tg.start_soon(fifth)
    return tally, doomed, time.monotonic() - start


def assert_store_after_the_run(repo: GitRepo, tally: Tally, doomed: list[str], each: int) -> None:
    assert tally.errors == []
    listed = cli(repo, "list", "--limit", "10000")["memories"]
    by_origin: dict[str, int] = {}
    for memory in listed:
        by_origin[memory["origin"]] = by_origin.get(memory["origin"], 0) + 1
    sessions = {f"session-{n}": each for n in range(SESSIONS)}
    assert {o: c for o, c in by_origin.items() if o != DOOMED_ORIGIN} == sessions
    assert sum(sessions.values()) == SESSIONS * each

    acknowledged = {mid for ids in tally.acknowledged.values() for mid in ids}
    assert len(acknowledged) == SESSIONS * each
    with open_store(repo) as con:
        stored = {r[0] for r in con.execute("SELECT id FROM memories").fetchall()}
        assert acknowledged <= stored
        assert set(doomed) <= stored
        # Every memory the killed server wrote (acknowledged or still in flight) is whole:
        # its anchors and its audit row were written with it, or nothing was.
        rows = con.execute(
            "SELECT m.id,"
            " (SELECT count(*) FROM anchors a WHERE a.memory_id = m.id),"
            " (SELECT count(*) FROM audit u WHERE u.memory_id = m.id AND u.action = 'remember')"
            " FROM memories m WHERE m.origin = ?",
            [DOOMED_ORIGIN],
        ).fetchall()
        assert {r[0] for r in rows} >= set(doomed)
        assert all(r[1] == len(DOOMED_ANCHORS) and r[2] == 1 for r in rows), rows
        remembered = con.execute(
            "SELECT count(*), count(DISTINCT memory_id) FROM audit WHERE action = 'remember'"
        ).fetchone()
        assert remembered == (len(stored), len(stored))
        seqs = [r[0] for r in con.execute("SELECT seq FROM audit ORDER BY seq").fetchall()]
        assert seqs == list(range(1, len(seqs) + 1))


def report(label: str, tally: Tally, elapsed: float) -> None:
    print(
        f"\n{label}: {tally.calls} calls in {elapsed:.1f} s"
        f" ({tally.calls / elapsed:.0f} calls/s) across {SESSIONS} server processes"
    )


@pytest.mark.slow  # minutes on a 2-core machine; the test below runs the same at 1/10 scale
async def test_four_servers_remembering_250_each_store_exactly_1000_and_survive_a_killed_fifth(
    project: GitRepo, errlog: IO[str]
):
    tally, doomed, elapsed = await hammer(project, errlog, REMEMBERS_PER_SESSION, 20)
    report("4 x 250 remembers", tally, elapsed)
    assert len(doomed) == 20
    assert_store_after_the_run(project, tally, doomed, REMEMBERS_PER_SESSION)
    assert server_complaints(errlog) == []


async def test_four_servers_remembering_25_each_store_exactly_100_and_survive_a_killed_fifth(
    project: GitRepo, errlog: IO[str]
):
    """The stress test above at a tenth of its scale, so that the default run (which skips
    ``slow`` tests) still has four servers handing the store round and a fifth killed."""
    each = REMEMBERS_PER_SESSION // 10
    tally, doomed, elapsed = await hammer(project, errlog, each, 5)
    report(f"4 x {each} remembers", tally, elapsed)
    assert len(doomed) == 5
    assert_store_after_the_run(project, tally, doomed, each)
    assert server_complaints(errlog) == []


async def test_a_second_server_is_served_while_the_first_holds_the_store(
    project: GitRepo, errlog: IO[str]
):
    async with session(project, errlog) as first:
        tally = Tally()
        made = await checked_call(
            first, tally, "remember", {"text": "Auth checks tokens against JWT_SECRET"}
        )
        assert made is not None
        # The first server keeps the database open while nobody else wants it: DuckDB
        # itself refuses a second opener, and the first holds the lease lock.
        with pytest.raises(duckdb.IOException, match="lock"):
            duckdb.connect(str(store_file(project)))
        lock_fd = os.open(f"{store_file(project)}.lock", os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(lock_fd)

        async with session(project, errlog) as second:
            other = await checked_call(
                second, tally, "remember", {"text": "Billing posts charges with httpx"}
            )
            seen = await checked_call(second, tally, "recall", {"query": "JWT_SECRET tokens"})
        assert other is not None and seen is not None
        assert [m["id"] for m in seen["memories"]] == [made["id"]]

        # ...and the first gets it back for its next call, seeing the second's memory.
        back = await checked_call(first, tally, "recall", {"query": "billing httpx"})
        assert back is not None and [m["id"] for m in back["memories"]] == [other["id"]]
        # A person at the terminal is served too, while the server holds the store.
        listed = cli(project, "list")["memories"]
        assert {m["id"] for m in listed} == {made["id"], other["id"]}
        assert tally.errors == []
    assert server_complaints(errlog) == []
