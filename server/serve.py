"""Running the MCP server over stdio (the default) or streamable HTTP on loopback."""

from __future__ import annotations

import ipaddress
import logging
import sys

import anyio

from server.app import build_server
from server.config import Settings
from store.errors import InvalidInput

__all__ = ["serve"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    settings: Settings, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8765
) -> int:
    """Serve until the client goes away; logs go to stderr, stdout carries the protocol."""
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="anchormem %(levelname)s %(name)s: %(message)s",
    )
    mcp = build_server(settings)
    if transport == "stdio":
        anyio.run(mcp.run_stdio_async)
        return 0
    if not _is_loopback(host):
        raise InvalidInput(
            f"refusing to serve HTTP on non-loopback address {host}; bind to 127.0.0.1"
        )
    print(f"anchormem: serving MCP on http://{host}:{port}/mcp", file=sys.stderr)
    anyio.run(
        lambda: mcp.run_streamable_http_async(host=host, port=port, streamable_http_path="/mcp")
    )
    return 0
