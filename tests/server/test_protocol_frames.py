"""Malformed protocol frames on stdio, and a strict client that fails on any line of stdout
that is not a JSON-RPC frame.

`anchormem serve` is started as a client starts it (the console script, in the project)
and spoken to over its raw pipes, so that any frame can be sent and every byte of stdout is
seen. Every frame that carries an id must get an answer; the server must survive them all.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from mcp_types import INVALID_REQUEST, PARSE_ERROR, jsonrpc_message_adapter

from server.stdio_guard import FrameGuard, Refusal, recover_id
from tests.conftest import GitRepo, anchormem_env

SCRIPT = Path(sys.executable).with_name("anchormem")
REPLY_TIMEOUT_S = 60.0


def server_env() -> dict[str, str]:
    # The tools run in the server process itself (ANCHORMEM_SHARE=0), so that the noisy
    # tools below print from the process whose stdout carries the protocol.
    env = anchormem_env()
    return {**env, "ANCHORMEM_SHARE": "0"}


class StrictServer:
    """A server process read by a strict client: every line on its stdout must be one
    JSON-RPC 2.0 message, or the line is recorded in ``bad`` (and the test fails)."""

    def __init__(self, cwd: Path, stderr: IO[bytes], command: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            command or [str(SCRIPT), "serve"],
            cwd=cwd,
            env=server_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        self.bad: list[bytes] = []
        self.frames = 0  # lines read that were JSON-RPC frames
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._next_id = 1000
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                jsonrpc_message_adapter.validate_json(line, by_name=False)
                message = json.loads(line)
                assert isinstance(message, dict) and message.get("jsonrpc") == "2.0"
            except Exception:
                self.bad.append(line)
                continue
            self.frames += 1
            self.messages.put(message)
        self.messages.put(None)  # end of output

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send_raw(json.dumps(message).encode() + b"\n")
        return self._next_id

    def notify(self, method: str) -> None:
        self.send_raw(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")

    def next_message(self, timeout: float = REPLY_TIMEOUT_S) -> dict[str, Any]:
        message = self.messages.get(timeout=timeout)
        assert message is not None, "the server closed its output"
        return message

    def reply(self, request_id: int, timeout: float = REPLY_TIMEOUT_S) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(max(0.1, deadline - time.monotonic()))
            if message.get("id") == request_id and "method" not in message:
                return message

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.reply(self.send(method, params))

    def tool(self, name: str, **arguments: Any) -> dict[str, Any]:
        answer = self.call("tools/call", {"name": name, "arguments": arguments})
        assert "result" in answer, answer
        result: dict[str, Any] = answer["result"]
        return result

    def initialize(self) -> dict[str, Any]:
        init = self.call(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "strict-test-client", "version": "0"},
            },
        )
        assert "result" in init, init
        self.notify("notifications/initialized")
        return init

    def close(self, timeout: float = 30) -> int:
        assert self.proc.stdin is not None
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._reader.join(timeout=10)


@pytest.fixture
def stderr_log(tmp_path: Path) -> Iterator[IO[bytes]]:
    with (tmp_path / "server.stderr").open("w+b") as log:
        yield log


@pytest.fixture
def server(project: GitRepo, stderr_log: IO[bytes]) -> Iterator[StrictServer]:
    srv = StrictServer(project.root, stderr_log)
    try:
        srv.initialize()
        yield srv
    finally:
        srv.close()


# -- the guard on its own ------------------------------------------------------------------

REQUEST = b'{"jsonrpc":"2.0","id":7,"method":"ping"}'


def refusals(items: list[bytes | Refusal]) -> list[tuple[int | str | None, int]]:
    return [(i.id, i.code) for i in items if isinstance(i, Refusal)]


def test_a_valid_frame_passes_unchanged_whatever_the_chunking():
    guard = FrameGuard()
    stream = REQUEST + b"\n" + REQUEST + b"\r\n"
    out: list[bytes | Refusal] = []
    for i in range(len(stream)):
        out += guard.feed(stream[i : i + 1])
    assert out == [REQUEST + b"\n", REQUEST + b"\r\n"]
    assert FrameGuard().feed(REQUEST) == [] and FrameGuard().finish() == []


def test_a_last_frame_without_its_newline_still_counts():
    guard = FrameGuard()
    assert guard.feed(REQUEST) == []
    assert guard.finish() == [REQUEST + b"\n"]


@pytest.mark.parametrize(
    ("head", "tail", "expected"),
    [
        (b'{"jsonrpc":"2.0","id":5,"method":', b"", 5),
        (b'{"id":"a-1","jsonrpc":', b"", "a-1"),
        (b'  {"jsonrpc" : "2.0" , "id" : -3 , "method"', b"", -3),
        (b'\xef\xbb\xbf{"jsonrpc":"2.0","id":9,', b"", 9),  # a byte-order mark first
        (b'{"jsonrpc":"2.0","method":"x","params":{"t":"aaaa', b'aaa"}},"id":11}', 11),
        (b'{"jsonrpc":"2.0","params":{"id":4},"method":', b"", None),  # nested id is not it
        (b'{"jsonrpc":"2.0","id":true,', b"", None),
        (b'{"jsonrpc":"2.0","id":1.5,', b"", None),
        (b'{"jsonrpc":"2.0","id":null,', b"", None),
        (b"[" * 5000, b"", None),
        (b"garbage", b"more garbage", None),
        (b'{"a":"' + b"x" * 70_000, b'x\\"id\\":5}', None),  # an escaped quote is not a key
    ],
)
def test_the_id_of_a_broken_frame_is_recovered_from_its_ends(
    head: bytes, tail: bytes, expected: object
):
    assert recover_id(head, tail) == expected


def test_an_oversized_frame_is_refused_at_once_and_never_held():
    guard = FrameGuard(max_frame_bytes=1 << 20)
    start = b'{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{"text":"'
    out = guard.feed(start)
    chunk = b"a" * 65536
    for _ in range(40):  # 2.5 MiB
        out += guard.feed(chunk)
        assert len(guard._frame) <= guard.max_frame_bytes
    assert refusals(out) == [(42, INVALID_REQUEST)]  # before the frame even ended
    out += guard.feed(b'"}}}\n' + REQUEST + b"\n")
    assert refusals(out) == [(42, INVALID_REQUEST)]
    assert out[-1] == REQUEST + b"\n"  # the next frame is read normally


def test_an_oversized_frame_with_its_id_last_is_refused_when_it_ends():
    guard = FrameGuard(max_frame_bytes=1 << 20)
    out = guard.feed(b'{"jsonrpc":"2.0","method":"tools/call","params":{"text":"')
    for _ in range(20):
        out += guard.feed(b"b" * 65536)
    assert refusals(out) == []
    out += guard.feed(b'"},"id":"late"}\n')
    assert refusals(out) == [("late", INVALID_REQUEST)]


# -- malformed frames against the real server --------------------------------------------

DEEP = 100_000
# (name, raw frame without its newline, expected answers: (id, code) with code FAILED for
# an error or an isError tool result, ANSWERED for any answer at all).
FAILED, ANSWERED = "failed", "answered"
MALFORMED: list[tuple[str, bytes, list[tuple[Any, int | str]]]] = [
    ("invalid json", b"{not json", [(None, PARSE_ERROR)]),
    ("truncated request", b'{"jsonrpc":"2.0","id":101,"method":"ping"', [(101, PARSE_ERROR)]),
    (
        "truncated tool call, string id",
        b'{"jsonrpc":"2.0","id":"s-1","method":"tools/call","params":{"name":"recall"',
        [("s-1", PARSE_ERROR)],
    ),
    ("missing jsonrpc", b'{"id":102,"method":"ping"}', [(102, INVALID_REQUEST)]),
    (
        "wrong jsonrpc version",
        b'{"jsonrpc":"1.0","id":103,"method":"ping"}',
        [(103, INVALID_REQUEST)],
    ),
    ("no method", b'{"jsonrpc":"2.0","id":104}', [(104, INVALID_REQUEST)]),
    ("method not a string", b'{"jsonrpc":"2.0","id":105,"method":42}', [(105, INVALID_REQUEST)]),
    (
        "params not an object",
        b'{"jsonrpc":"2.0","id":106,"method":"ping","params":[1,2]}',
        [(106, INVALID_REQUEST)],
    ),
    ("null id", b'{"jsonrpc":"2.0","id":null,"method":"ping"}', [(None, INVALID_REQUEST)]),
    ("float id", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', [(None, INVALID_REQUEST)]),
    ("boolean id", b'{"jsonrpc":"2.0","id":true,"method":"ping"}', [(None, INVALID_REQUEST)]),
    ("object id", b'{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}', [(None, INVALID_REQUEST)]),
    ("empty batch", b"[]", [(None, INVALID_REQUEST)]),
    (
        "batch of two",
        b'[{"jsonrpc":"2.0","id":107,"method":"ping"},{"jsonrpc":"2.0","id":108,"method":"ping"}]',
        [(107, INVALID_REQUEST), (108, INVALID_REQUEST)],
    ),
    ("a bare string", b'"hello"', [(None, INVALID_REQUEST)]),
    ("a bare number", b"42", [(None, INVALID_REQUEST)]),
    ("a bare null", b"null", [(None, INVALID_REQUEST)]),
    ("raw invalid bytes", b"\xff\xfe\x00\x01\x80", [(None, PARSE_ERROR)]),
    (
        "invalid UTF-8 inside a string",
        b'{"jsonrpc":"2.0","id":109,"method":"tools/call","params":{"name":"recall",'
        b'"arguments":{"query":"\xc3\x28"}}}',
        [(109, PARSE_ERROR)],
    ),
    (
        "UTF-8-encoded surrogate",
        b'{"jsonrpc":"2.0","id":110,"method":"tools/call","params":{"name":"recall",'
        b'"arguments":{"query":"\xed\xa0\x80"}}}',
        [(110, PARSE_ERROR)],
    ),
    ("deeply nested arrays", b"[" * DEEP, [(None, PARSE_ERROR)]),
    ("deeply nested objects", b'{"a":' * DEEP, [(None, PARSE_ERROR)]),
    (
        "deep nesting inside a tool call",
        b'{"jsonrpc":"2.0","id":111,"method":"tools/call","params":{"name":"recall",'
        b'"arguments":{"query":' + b"[" * 5000 + b"]" * 5000 + b"}}}",
        [(111, PARSE_ERROR)],
    ),
    (
        "id last after a syntax error",
        b'{"jsonrpc":"2.0","method":"ping","params":{"x":},"id":112}',
        [(112, PARSE_ERROR)],
    ),
    ("trailing NUL", b'{"jsonrpc":"2.0","id":113,"method":"ping"}\x00', [(113, PARSE_ERROR)]),
    (
        "raw control character in a string",
        b'{"jsonrpc":"2.0","id":114,"method":"tools/call","params":{"name":"recall",'
        b'"arguments":{"query":"a\x01b"}}}',
        [(114, PARSE_ERROR)],
    ),
    (
        "lone surrogate escape",
        b'{"jsonrpc":"2.0","id":115,"method":"tools/call","params":{"name":"recall",'
        b'"arguments":{"query":"\\ud800"}}}',
        [(115, FAILED)],
    ),
    (
        "byte-order mark",
        b'\xef\xbb\xbf{"jsonrpc":"2.0","id":116,"method":"ping"}',
        [(116, PARSE_ERROR)],
    ),
    ("unknown method", b'{"jsonrpc":"2.0","id":117,"method":"no/such/method"}', [(117, -32601)]),
    (
        "unknown tool",
        b'{"jsonrpc":"2.0","id":118,"method":"tools/call","params":{"name":"nope","arguments":{}}}',
        [(118, FAILED)],
    ),
    (
        "tool call without arguments",
        b'{"jsonrpc":"2.0","id":119,"method":"tools/call","params":{"name":"recall"}}',
        [(119, FAILED)],
    ),
    (
        "wrong argument types",
        b'{"jsonrpc":"2.0","id":120,"method":"tools/call","params":{"name":"remember",'
        b'"arguments":{"text":["a"],"anchors":"file:x","derived_from":7}}}',
        [(120, FAILED)],
    ),
    (
        "huge integer id",
        b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
        [(123456789012345678901234567890, ANSWERED)],
    ),
    (
        "oversized frame (2 MiB)",
        b'{"jsonrpc":"2.0","id":121,"method":"tools/call","params":{"name":"remember",'
        b'"arguments":{"text":"' + b"x" * (2 << 20) + b'"}}}',
        [(121, INVALID_REQUEST)],
    ),
    # Frames that must not be answered: an empty line, a notification, a response.
    ("blank line", b"   \t", []),
    ("unknown notification", b'{"jsonrpc":"2.0","method":"notifications/whatever"}', []),
    ("a response to nothing", b'{"jsonrpc":"2.0","id":122,"result":{}}', []),
    ("a malformed response", b'{"jsonrpc":"2.0","id":123,"error":"oops"}', []),
]


def answers_until_ping(srv: StrictServer, expect: int) -> list[dict[str, Any]]:
    """Everything the server says after a frame, up to the answer to a ping sent after it
    and the answers the frame itself is owed (tool calls may overtake the ping)."""
    ping = srv.send("ping")
    got: list[dict[str, Any]] = []
    seen_ping = False
    deadline = time.monotonic() + REPLY_TIMEOUT_S
    while not seen_ping or len(got) < expect:
        message = srv.next_message(max(0.1, deadline - time.monotonic()))
        if message.get("id") == ping and "result" in message:
            seen_ping = True
        elif "method" not in message:  # notifications (logging, progress) are not answers
            got.append(message)
    return got


def test_the_server_answers_every_malformed_frame_that_carries_an_id_and_survives(
    server: StrictServer, stderr_log: IO[bytes]
):
    assert len(MALFORMED) >= 35
    for name, frame, expected in MALFORMED:
        server.send_raw(frame + b"\n")
        got = answers_until_ping(server, len(expected))
        assert len(got) == len(expected), (name, got)
        for answer, (want_id, want_code) in zip(got, expected, strict=True):
            assert answer.get("id") == want_id, (name, answer)
            if want_code == FAILED:  # a protocol error or an isError tool result
                assert "error" in answer or answer["result"].get("isError"), (name, answer)
            elif want_code != ANSWERED:
                assert answer["error"]["code"] == want_code, (name, answer)
    print(f"\nmalformed frames: {len(MALFORMED)} sent, {server.frames} frames back")
    # Still serving: a tool call works after all of them.
    recalled = server.tool("recall", query="billing")
    assert recalled.get("isError") is not True
    assert server.bad == []
    assert server.close() == 0
    stderr_log.seek(0)
    assert b"Traceback" not in stderr_log.read()


# -- the strict client: nothing but frames on stdout -----------------------------------------


def exercise(srv: StrictServer) -> None:
    """Every tool, a resource, a progress token, and error paths."""
    srv.call("tools/list")
    made = srv.tool(
        "remember",
        text="The store layer opens DuckDB in store/db.py",
        subject="store/db.py",
        anchors=["import:duckdb@store/db.py"],
    )
    assert not made.get("isError"), made
    mid = made["structuredContent"]["id"]
    srv.tool("remember", text="We use Python 3.8", attribute="python version", value="3.8")
    srv.tool("remember", text="We use Python 3.12", attribute="python version", value="3.12")
    assert not srv.tool("recall", query="duckdb store").get("isError")
    verified = srv.call(
        "tools/call",
        {"name": "verify", "arguments": {}, "_meta": {"progressToken": "p-1"}},
    )
    assert "result" in verified and not verified["result"].get("isError"), verified
    assert not srv.tool("consolidate").get("isError")
    assert not srv.tool("review").get("isError")
    assert not srv.tool("observe", id=mid, confirms=True, origin="bob").get("isError")
    assert srv.call("resources/read", {"uri": f"memory://{mid}"}).get("result")
    assert srv.call("resources/read", {"uri": "anchormem://digest"}).get("result")
    # Error paths: not found, invalid input, wrong types, a bad resource.
    assert srv.tool("retract", id="m-does-not-exist", reason="x").get("isError")
    assert srv.tool("remember", text="x", anchors=["file:../etc/passwd"]).get("isError")
    assert srv.tool("recall", query="").get("isError")
    assert srv.tool("recall", query=["not", "a", "string"]).get("isError")
    assert "error" in srv.call("resources/read", {"uri": "memory://nope"})
    assert not srv.tool("retract", id=mid, reason="moved to sqlite").get("isError")


def test_nothing_but_protocol_frames_on_stdout_while_every_tool_runs(
    project: GitRepo, stderr_log: IO[bytes]
):
    srv = StrictServer(project.root, stderr_log)
    try:
        srv.initialize()
        exercise(srv)
    finally:
        code = srv.close()
    print(f"\nstrict client: {srv.frames} frames, {len(srv.bad)} other lines")
    assert srv.bad == []
    assert code == 0


NOISY_SERVER = '''\
"""anchormem serve, with every tool made to print, write, log and spawn chatty children."""
import logging, os, subprocess, sys, warnings

import store.service as memories


def noisy(name):
    original = getattr(memories.MemoryService, name)

    def wrapper(self, *args, **kwargs):
        print(f"NOISE print from {name}")
        sys.stdout.write(f"NOISE sys.stdout.write from {name}\\n")
        sys.stdout.flush()
        os.write(1, f"NOISE os.write(1) from {name}\\n".encode())
        logging.getLogger("noisy").error("NOISE log from %s", name)
        warnings.warn(f"NOISE warning from {name}")
        subprocess.run(["echo", f"NOISE child echo from {name}"], check=False)
        subprocess.run([sys.executable, "-c", f"print('NOISE python child from {name}')"])
        return original(self, *args, **kwargs)

    setattr(memories.MemoryService, name, wrapper)


for name in ("remember", "recall", "verify", "consolidate", "retract", "review", "observe",
             "show", "digest"):
    noisy(name)

from server.cli import main

sys.exit(main(["serve"]))
'''


def test_nothing_but_protocol_frames_on_stdout_even_when_the_tools_print(
    project: GitRepo, stderr_log: IO[bytes], tmp_path: Path
):
    script = tmp_path / "noisy_serve.py"  # outside the project: its store/ never shadows
    script.write_text(NOISY_SERVER)
    srv = StrictServer(project.root, stderr_log, [sys.executable, str(script)])
    try:
        srv.initialize()
        exercise(srv)
    finally:
        code = srv.close()
    print(f"\nstrict client, noisy tools: {srv.frames} frames, {len(srv.bad)} other lines")
    assert srv.bad == []
    assert code == 0
    stderr_log.seek(0)
    noise = stderr_log.read().decode(errors="replace")
    for what in ("print", "sys.stdout.write", "os.write(1)", "child echo", "python child"):
        assert f"NOISE {what} from remember" in noise, what  # it was said, on stderr
