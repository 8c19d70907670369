"""The web page floor: the smallest Starlette page there is, served as the inspector is.

``python -m benchmarks.web_floor`` binds 127.0.0.1 on a free port, prints its URL and
serves one route, ``/``, a constant page, through uvicorn with the inspector's settings
(``server.ui.app``). What a request to it costs (the socket, HTTP parsing, Starlette's
routing, a thread of the pool for a plain function) is what any page costs at least;
``benchmarks.ui`` prints it beside the inspector's figures.
"""

from __future__ import annotations

import socket

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

__all__ = ["build_floor", "main"]

_PAGE = "<!doctype html><title>floor</title><p>a constant page</p>"


def _page(_request: Request) -> HTMLResponse:
    # A plain function, as the inspector's pages are: Starlette runs it in its thread pool.
    return HTMLResponse(_PAGE)


def build_floor() -> Starlette:
    return Starlette(routes=[Route("/", _page)])


def main() -> int:
    import uvicorn

    # IPPROTO_TCP, as the inspector's listener: asyncio sets TCP_NODELAY only then.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(f"http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
    config = uvicorn.Config(
        build_floor(),
        log_config=None,
        log_level="warning",
        access_log=False,
        ws="none",
        lifespan="off",
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
