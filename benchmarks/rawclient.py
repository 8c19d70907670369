"""A lean MCP client over stdio, for timing a server without the SDK client's own costs.

The SDK's ``mcp.Client`` validates every structured result against the tool's output
schema with ``jsonschema`` on the client side, and reads and writes through worker
threads: for a ``recall`` of ten memories that is ~5 ms of the client's, not the
server's, per call (measured with cProfile, adr/0015). This client writes one JSON-RPC
line and reads lines until the answer with its id: what is timed around a call is the
pipe, the server's framing and dispatch, and the tool. ``benchmarks.latency`` times both
clients against the same servers and prints both.

    async with RawClient(command, args, cwd=..., env=..., errlog=...) as client:
        result = await client.call_tool("recall", {"query": "billing"})
        result.is_error, result.structured_content

The calls block (nothing else runs in a benchmark's event loop); ``async`` only so that
the benchmark drives either client the same way.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["LoopClients", "RawClient", "RawResult"]

PROTOCOL_VERSION = "2025-06-18"


@dataclass(frozen=True)
class RawResult:
    is_error: bool
    structured_content: dict[str, Any] | None
    content: list[Any]


class RawClient:
    def __init__(
        self,
        command: str,
        args: Sequence[str],
        *,
        cwd: str,
        env: Mapping[str, str],
        errlog: IO[str],
    ) -> None:
        self._command = [command, *args]
        self._cwd = cwd
        self._env = dict(env)
        self._errlog = errlog
        self._process: subprocess.Popen[bytes] | None = None
        self._next_id = 0

    async def __aenter__(self) -> RawClient:
        self._process = subprocess.Popen(
            self._command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errlog,
            cwd=self._cwd,
            env=self._env,
        )
        self._request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "anchormem-bench-raw", "version": "0"},
            },
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    async def __aexit__(self, *exc: object) -> None:
        process = self._process
        if process is None:
            return
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> RawResult:
        result = self._request("tools/call", {"name": name, "arguments": dict(arguments)})
        return RawResult(
            bool(result.get("isError")), result.get("structuredContent"), result["content"]
        )

    def _send(self, message: dict[str, Any]) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(json.dumps(message).encode() + b"\n")
        self._process.stdin.flush()

    def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self._process is not None and self._process.stdout is not None
        self._next_id += 1
        wanted = self._next_id
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        while True:
            line = self._process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server closed its stdout before answering {method}")
            message = json.loads(line)
            if message.get("id") != wanted or "method" in message:
                continue  # a notification (progress), or a request of the server's
            if "error" in message:
                raise RuntimeError(f"{method} failed: {message['error']}")
            result: dict[str, Any] = message["result"]
            return result


Pick = Callable[[int, int], tuple[str, dict[str, Any]]]  # (server, call) -> tool, arguments
# server, its call's number, tool, seconds, result
Answered = Callable[[int, int, str, float, RawResult], None]


class LoopClients:
    """Many servers driven from one thread: each started like ``RawClient`` (handshake
    included), then ``run`` keeps one call in flight on every server at once, writing
    each server's next request as soon as its answer is read (``selectors`` over the
    pipes). A thread per server costs the client itself GIL hand-offs on every call; this
    costs one wake-up per answer, so what a run measures is the servers.

        with LoopClients(command, args, 4, cwd=..., env=..., errlog=...) as clients:
            wall_s = clients.run(100, pick, answered)
    """

    def __init__(
        self,
        command: str,
        args: Sequence[str],
        count: int,
        *,
        cwd: str,
        env: Mapping[str, str],
        errlog: IO[str],
    ) -> None:
        self._clients = [
            RawClient(command, args, cwd=cwd, env=env, errlog=errlog) for _ in range(count)
        ]
        self._started: list[RawClient] = []

    def __enter__(self) -> LoopClients:
        import anyio

        async def start() -> None:
            for client in self._clients:
                await client.__aenter__()
                self._started.append(client)

        try:
            anyio.run(start)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        import anyio

        async def stop() -> None:
            for client in self._started:
                await client.__aexit__()

        anyio.run(stop)

    def run(
        self, calls: int, pick: Pick, answered: Answered, busy: Callable[[], bool] | None = None
    ) -> float:
        """``calls`` calls on every server, all servers at once; the wall time in seconds
        from the first request written to the last of those answers read. ``busy``: after
        its ``calls``, a server goes on with more (numbered from ``calls`` on) while this
        says so, keeping the servers busy for something measured meanwhile."""
        import os
        import selectors
        import time

        servers = self._started
        fds = [_stdout(client).fileno() for client in servers]
        buffers = [bytearray() for _ in servers]
        sent = [0.0] * len(servers)
        tools = [""] * len(servers)
        done = [0] * len(servers)
        wall = 0.0

        def send(n: int) -> None:
            tools[n], arguments = pick(n, done[n])
            client = servers[n]
            client._next_id += 1
            sent[n] = time.perf_counter()
            client._send({"jsonrpc": "2.0", "id": client._next_id, "method": "tools/call",
                          "params": {"name": tools[n], "arguments": dict(arguments)}})  # fmt: skip

        selector = selectors.DefaultSelector()
        for n, fd in enumerate(fds):
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ, n)
        try:
            start = time.perf_counter()
            live = 0
            for n in range(len(servers)) if calls else ():
                send(n)
                live += 1
            while live:
                for key, _ in selector.select():
                    n = int(key.data)
                    chunk = os.read(fds[n], 1 << 20)
                    if not chunk:
                        raise RuntimeError(f"server {n} closed its stdout")
                    buffers[n] += chunk
                    while (newline := buffers[n].find(b"\n")) >= 0:
                        message = json.loads(bytes(buffers[n][:newline]))
                        del buffers[n][: newline + 1]
                        if message.get("id") != servers[n]._next_id or "method" in message:
                            continue
                        elapsed = time.perf_counter() - sent[n]
                        if "error" in message:
                            raise RuntimeError(f"{tools[n]} failed: {message['error']}")
                        result = message["result"]
                        answered(n, done[n], tools[n], elapsed, RawResult(
                            bool(result.get("isError")), result.get("structuredContent"),
                            result["content"],
                        ))  # fmt: skip
                        done[n] += 1
                        if not wall and min(done) >= calls:
                            wall = time.perf_counter() - start
                        if done[n] < calls or (busy is not None and busy()):
                            send(n)
                        else:
                            live -= 1
            return wall or time.perf_counter() - start
        finally:
            selector.close()
            for fd in fds:
                os.set_blocking(fd, True)


def _stdout(client: RawClient) -> IO[bytes]:
    assert client._process is not None and client._process.stdout is not None
    return client._process.stdout
