"""``anchormem serve`` over stdio, spoken to with plain JSON-RPC lines: for tests that
start the server as a client would and need its process (to kill it, to limit it, to read
its stderr)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCRIPT = Path(sys.executable).with_name("anchormem")


class StdioSession:
    def __init__(
        self,
        cwd: Path,
        env: dict[str, str],
        errlog: Path,
        client: str = "tests",
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.err = errlog.open("a")
        self.proc = subprocess.Popen(
            [str(SCRIPT), "serve"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            text=True,
            preexec_fn=preexec_fn,
        )
        self.rid = 0
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": client, "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdout is not None
        self.rid += 1
        self.send({"jsonrpc": "2.0", "id": self.rid, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            assert line, "the server went away"
            msg = json.loads(line)
            if msg.get("id") == self.rid:
                assert "error" not in msg, msg
                return dict(msg["result"])

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=30)
        self.err.close()
        return code
