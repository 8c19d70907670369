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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

__all__ = ["RawClient", "RawResult"]

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
