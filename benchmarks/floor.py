"""The latency floor: the smallest MCP server there is, one tool that returns a constant.

``python -m benchmarks.floor`` serves it over stdio with the SDK's own transport. What a
call to it costs (process boundary, JSON-RPC framing, the SDK's dispatch and validation)
is what any tool of any server costs at least; ``benchmarks.latency`` prints it beside
anchormem's figures.
"""

from __future__ import annotations

from mcp.server import MCPServer

__all__ = ["TOOL", "build_floor", "main"]

TOOL = "ping"


def build_floor() -> MCPServer:
    server: MCPServer = MCPServer(name="floor", version="0")

    @server.tool(name=TOOL, description="Return a constant.")
    def ping() -> str:
        return "pong"

    return server


def main() -> int:
    build_floor().run("stdio")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
