"""``anchormem ui``: the inspector's application and its server.

It binds 127.0.0.1 only (there is no option to bind anything else), then prints one line
on stdout, the link with this run's token, and serves until Ctrl-C (or SIGTERM). Each
request passes, in order: the HTTP transport's Host/Origin checks
(``server.http_security``: only the loopback names at this port, and their origins),
the link token or its cookie (``server.ui.access``), then the routes
(``server.ui.routes``), where every change also checks its CSRF token."""

from __future__ import annotations

import socket
import sys
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.config import Settings
from server.http_security import GuardMiddleware, build_policy, uvicorn_config
from server.ui.access import Access, AccessMiddleware
from store.errors import InvalidInput

if TYPE_CHECKING:
    from server.ui.link import Service

__all__ = ["ADDRESS", "build_app", "run_ui"]

ADDRESS = "127.0.0.1"


def build_app(service: Service, access: Access, repo: Path | None) -> Any:
    """The inspector as an ASGI application over ``service``, guarded for ``access``."""
    from starlette.applications import Starlette

    from server.ui.routes import Inspector

    pages = Starlette(routes=Inspector(service, access, repo).routes())
    policy = build_policy(ADDRESS, access.port, token=None)
    return GuardMiddleware(AccessMiddleware(pages, access), policy)


def _bind(port: int) -> socket.socket:
    # proto=IPPROTO_TCP, as server.serve's listener: asyncio sets TCP_NODELAY on accepted
    # sockets only then, and without it a page's body waits ~40 ms behind its headers
    # (Nagle's algorithm meeting the client's delayed ACK).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.bind((ADDRESS, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise InvalidInput(
            f"cannot listen on {ADDRESS}:{port} ({exc.strerror or exc}); "
            "give another --port, or 0 for any free one"
        ) from None
    return sock


def run_ui(
    settings: Settings,
    port: int,
    open_browser: bool = False,
    say: Callable[[str], None] | None = None,
) -> int:
    """Serve the inspector for ``settings``' store on ``port`` (0: any free port) until
    stopped; the link is printed once the socket listens. Returns the exit code."""
    import uvicorn

    from server.ui.link import open_service

    if not 0 <= port < 65536:
        raise InvalidInput(f"--port must be from 0 to 65535, not {port}")
    sock = _bind(port)
    service, close = open_service(settings)
    try:
        access = Access.new(sock.getsockname()[1])
        app = build_app(service, access, settings.repo)
        (say or _print_link)(access.url)
        if open_browser:
            webbrowser.open(access.url)
        uvicorn.Server(uvicorn_config(app, lifespan="off")).run(sockets=[sock])
    finally:
        close()
        sock.close()
    return 0


def _print_link(url: str) -> None:
    print(url, flush=True)
    print(
        "anchormem: the inspector is served at the link above (127.0.0.1 only, for this"
        " run's token); Ctrl-C stops it",
        file=sys.stderr,
        flush=True,
    )
