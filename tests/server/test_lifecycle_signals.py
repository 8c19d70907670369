"""The client disappears: stdin EOF, a signal, or the parent process dying.

Each test starts the installed console script as a client would, writes a memory, makes
the client disappear, and checks that the server exits by itself, exits 0, says why when a
signal or its parent's death stopped it, and leaves the store closed cleanly: its lock
free, no write-ahead log left to replay, and every memory it acknowledged readable by the
next process at once. A server that does not exit fails the test after 30 s.

How fast it exits is measured, not asserted (a loaded machine is slow, not wrong): run
with ``-s`` to see the times (``exit_s=...``).
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

from tests.conftest import GitRepo, anchormem_env, store_file

EXIT_WAIT_S = 30  # a server still running then is stuck, not slow


def anchormem() -> str:
    return str(Path(sys.executable).with_name("anchormem"))


def clean_env(**extra: str) -> dict[str, str]:
    env = anchormem_env()
    # The server opens the store itself (ANCHORMEM_SHARE=0): these tests check that the
    # server process releases the file when it stops. Through the store's owner (adr/0012)
    # the owner holds it; tests/server/test_sharing.py covers that.
    env["ANCHORMEM_SHARE"] = "0"
    env.update(extra)
    return env


class StdioClient:
    """Just enough of an MCP client over a pipe to see what the server acknowledged."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.next_id = 1
        assert proc.stdin is not None and proc.stdout is not None
        self.stdin: IO[bytes] = proc.stdin
        self.stdout: IO[bytes] = proc.stdout

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        rid = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}}
        self.stdin.write((json.dumps(message) + "\n").encode())
        self.stdin.flush()
        return rid

    def notify(self, method: str) -> None:
        self.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())
        self.stdin.flush()

    def read(self) -> dict[str, Any]:
        line = self.stdout.readline()
        assert line, "the server closed stdout"
        reply: dict[str, Any] = json.loads(line)
        return reply

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        rid = self.send(method, params)
        while True:
            reply = self.read()
            if reply.get("id") == rid:
                return reply

    def initialize(self) -> None:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "lifecycle-test", "version": "1"},
            },
        )
        assert "result" in reply, reply
        self.notify("notifications/initialized")

    def remember(self, text: str) -> str:
        reply = self.request("tools/call", {"name": "remember", "arguments": {"text": text}})
        result = reply["result"]
        assert not result.get("isError"), result
        memory_id: str = result["structuredContent"]["id"]
        return memory_id


def start_server(repo: Path, **popen: Any) -> subprocess.Popen[bytes]:
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "cwd": repo,
        "env": clean_env(),
    }
    options.update(popen)
    return subprocess.Popen([anchormem(), "serve"], **options)


def store(repo: Path) -> Path:
    return store_file(repo)


def assert_store_released(repo: Path, expected_ids: list[str]) -> None:
    """The lock is free, DuckDB checkpointed on close, and the next process reads it all."""
    db = store(repo)
    fd = os.open(f"{db}.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if anyone still holds it
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    assert not Path(f"{db}.wal").exists(), "the store was not closed cleanly"
    done = subprocess.run(
        [anchormem(), "list", "--json", "--limit", "1000"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=clean_env(ANCHORMEM_LOCK_WAIT="0"),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    listed = {m["id"] for m in json.loads(done.stdout)["memories"]}
    assert set(expected_ids) <= listed, "an acknowledged memory was lost"


def wait_exit(proc: subprocess.Popen[bytes], since: float) -> tuple[int, float]:
    try:
        code = proc.wait(timeout=EXIT_WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"the server did not exit within {EXIT_WAIT_S} s")
    return code, time.monotonic() - since


def report(case: str, seconds: float) -> None:
    print(f"\n{case}: exit_s={seconds:.3f}")


@pytest.fixture
def running(project: GitRepo):
    proc = start_server(project.root)
    client = StdioClient(proc)
    yield client
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_the_server_exits_on_stdin_eof_and_releases_the_store(
    project: GitRepo, running: StdioClient
):
    running.initialize()
    ids = [running.remember("The billing client retries three times")]
    assert Path(f"{store(project.root)}.wal").exists()  # so that "no WAL after" means something
    started = time.monotonic()
    running.stdin.close()
    code, took = wait_exit(running.proc, started)
    report("stdin EOF", took)
    assert code == 0
    err = running.proc.stderr.read().decode()  # type: ignore[union-attr]
    assert "stopping" not in err, err  # stopped by the EOF, not by a signal
    assert_store_released(project.root, ids)


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name
)
def test_the_server_exits_on_a_signal_with_stdin_still_open(
    project: GitRepo, running: StdioClient, signum: signal.Signals
):
    running.initialize()
    ids = [running.remember(f"Deployments are tagged by hand ({signum.name})")]
    started = time.monotonic()
    running.proc.send_signal(signum)
    code, took = wait_exit(running.proc, started)
    report(signum.name, took)
    assert code == 0
    err = running.proc.stderr.read().decode()  # type: ignore[union-attr]
    assert f"anchormem: {signum.name} received; stopping" in err, err
    assert_store_released(project.root, ids)


def test_sigterm_in_the_middle_of_a_burst_loses_nothing_acknowledged(
    project: GitRepo, running: StdioClient
):
    running.initialize()
    sent = [
        running.send(
            "tools/call",
            {
                "name": "remember",
                "arguments": {"text": f"Burst fact number {i} about the queue worker"},
            },
        )
        for i in range(40)
    ]
    first = running.read()  # at least one is being processed
    started = time.monotonic()
    running.proc.send_signal(signal.SIGTERM)
    acknowledged = [first]
    while True:
        line = running.stdout.readline()
        if not line:
            break
        acknowledged.append(json.loads(line))
    code, took = wait_exit(running.proc, started)
    report(f"SIGTERM during a burst ({len(acknowledged)}/{len(sent)} acknowledged)", took)
    assert code == 0
    err = running.proc.stderr.read().decode()  # type: ignore[union-attr]
    assert "anchormem: SIGTERM received; stopping" in err, err
    ids = [
        r["result"]["structuredContent"]["id"]
        for r in acknowledged
        if r.get("id") in sent and "result" in r and not r["result"].get("isError")
    ]
    assert ids
    assert_store_released(project.root, ids)


# The server's answers go to the parent's stdout, after the line with its pid.
_PARENT = """
import subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdin=0, stdout=1, stderr=2)
print(child.pid, flush=True)
child.wait()
"""


def _read_line(stream: IO[bytes], within: float = 60.0) -> bytes:
    """The next line of ``stream``, failing the test if none comes ``within`` seconds."""
    ready, _, _ = select.select([stream], [], [], within)
    assert ready, f"nothing was written within {within:g} s"
    return stream.readline()


def _gone(pid: int) -> bool:
    """Exited: no such process, or a zombie nobody has reaped yet (no longer our child)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_an_orphaned_server_notices_its_parent_is_gone_and_exits(project: GitRepo, tmp_path):
    # The test keeps the server's stdin open itself, so no EOF arrives: only the parent
    # watch can notice that the process that started the server was killed.
    read_end, write_end = os.pipe()
    log = (tmp_path / "server.err").open("wb")
    parent = subprocess.Popen(
        [sys.executable, "-c", _PARENT, anchormem(), "serve"],
        stdin=read_end,
        stdout=subprocess.PIPE,
        stderr=log,
        cwd=project.root,
        env=clean_env(),
    )
    os.close(read_end)
    server_pid = 0
    try:
        assert parent.stdout is not None
        server_pid = int(parent.stdout.readline())
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "orphan-test", "version": "1"},
            },
        }
        os.write(write_end, (json.dumps(init) + "\n").encode())
        # Answered: the server is serving, its store open (the lifespan opens it before
        # the first message) and its watch on the parent started (before it read stdin).
        assert json.loads(_read_line(parent.stdout))["id"] == 1
        assert store(project.root).exists() and not _gone(server_pid)
        started = time.monotonic()
        parent.kill()
        parent.wait()
        while not _gone(server_pid) and time.monotonic() - started < EXIT_WAIT_S:
            time.sleep(0.01)
        report("parent killed (orphan)", time.monotonic() - started)
        assert _gone(server_pid), f"the orphaned server kept running {EXIT_WAIT_S} s"
        err = (tmp_path / "server.err").read_text()
        assert f"anchormem: the parent process ({parent.pid}) is gone; stopping" in err, err
        assert_store_released(project.root, [])
    finally:
        os.close(write_end)
        log.close()
        if server_pid and not _gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_store_that_cannot_be_opened_is_one_line_and_exit_1(
    project: GitRepo, tmp_path: Path, transport: str
):
    bad = tmp_path / "not-a-store.duckdb"
    bad.write_text("this is not a DuckDB file")
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    done = subprocess.run(
        [anchormem(), "serve", "--db", str(bad), "--transport", transport, "--port", "0"],
        input=(json.dumps(init) + "\n").encode(),
        cwd=project.root,
        capture_output=True,
        env=clean_env(),
        timeout=60,
    )
    assert done.returncode == 1
    err = done.stderr.decode()
    assert err.splitlines()[-1].startswith("anchormem: cannot open the store")
    assert "Traceback" not in err


def _frame(rid: int | None, method: str, params: dict[str, Any] | None = None) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if rid is not None:
        message["id"] = rid
    if params is not None:
        message["params"] = params
    return json.dumps(message) + "\n"


def test_every_request_read_before_stdin_eof_gets_its_real_answer(project: GitRepo):
    """Issue 14, item 6: a one-shot pipe (printf '...' | anchormem serve). Only initialize
    was answered; the tool calls read before EOF were dropped."""
    init = {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pipe", "version": "1"}}  # fmt: skip
    remember = {"name": "remember", "arguments": {"text": "Billing retries three times"}}
    recall = {"name": "recall", "arguments": {"query": "billing retries"}}
    piped = (
        _frame(1, "initialize", init) + _frame(None, "notifications/initialized")
        + _frame(2, "tools/call", remember) + _frame(3, "tools/call", recall)
        + _frame(4, "tools/list", {})
    )  # fmt: skip
    done = subprocess.run(
        [anchormem(), "serve"], input=piped.encode(), capture_output=True, cwd=project.root,
        env=clean_env(), timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    replies = {r["id"]: r for r in map(json.loads, done.stdout.decode().splitlines())}
    assert sorted(replies) == [1, 2, 3, 4], done.stdout.decode()
    assert all("result" in r for r in replies.values()), replies
    stored = replies[2]["result"]["structuredContent"]
    assert not replies[2]["result"].get("isError") and stored["id"]
    assert not replies[3]["result"].get("isError")
    assert "remember" in {t["name"] for t in replies[4]["result"]["tools"]}
    assert_store_released(project.root, [stored["id"]])


def test_a_shell_pipe_into_serve_is_answered(project: GitRepo):
    init = {"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "printf", "version": "1"}}  # fmt: skip
    script = 'printf \'%s\' "$FRAMES" | "$ANCHORMEM" serve'
    frames = _frame(1, "initialize", init) + _frame(2, "tools/list", {})
    done = subprocess.run(
        ["sh", "-c", script], capture_output=True, cwd=project.root, timeout=60,
        env=clean_env(FRAMES=frames, ANCHORMEM=anchormem()),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()
    assert [json.loads(line)["id"] for line in done.stdout.decode().splitlines()] == [1, 2]
