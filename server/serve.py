"""Running the MCP server over stdio (the default) or streamable HTTP.

Shutdown is the same for both transports: SIGTERM, SIGINT or SIGHUP stops the server
cleanly — stdio ends its input as if the client had closed stdin, HTTP stops accepting and
drains — so the lifespan closes the store and the process exits 0, normally within a few
hundred milliseconds. A second signal, or ``GRACE_S`` without progress, cancels whatever is
still running; ``HARD_EXIT_S`` after the first signal the process ends regardless (the
store's locks die with it, and DuckDB replays its log on the next open).

A stdio server also watches its parent: when the process that started it is gone (the
parent pid changes), it stops the same way, even if its stdin pipe is still held open by
someone else.

HTTP: see ``server.http_security`` for who may connect. The listening socket is bound and
listening before the URL is printed on stderr, so a client may connect at once.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import os
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from typing import Any, cast

import anyio
import anyio.from_thread
import anyio.lowlevel
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import JSONRPCError, JSONRPCResponse

from server.app import build_server
from server.config import Settings
from server.http_security import (
    DEFAULT_TOKEN_ENV,
    GuardMiddleware,
    build_policy,
    read_token,
    refuse_unsafe,
    uvicorn_config,
)
from server.pipe import startup_line
from server.stdio_guard import WireOut, guarded_stdio
from server.stopping import GRACE_S, HARD_EXIT_S, SIGNALS, exit_later, say, watch_parent
from store.errors import AnchormemError, StoreUnavailable

__all__ = ["DRAIN_S", "serve", "startup_line"]

DRAIN_S = 10.0  # at stdin EOF, how long the requests already read may take to be answered


def serve(
    settings: Settings,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    *,
    token_env: str = DEFAULT_TOKEN_ENV,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    exposed: bool = False,
) -> int:
    """Serve until the client goes away or a signal arrives; logs go to stderr, stdout
    carries the protocol (stdio)."""
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING,
        format="anchormem %(levelname)s %(name)s: %(message)s",
    )
    # Set by the first signal; the runtime (opened later, by the server's lifespan) and
    # its store refuse new work from then on. Made here: a signal may come first.
    stopping = threading.Event()
    if transport == "stdio":
        # This process's own SDK server: with a store of its own (ANCHORMEM_SHARE=0), or
        # calling the owner (ANCHORMEM_RELAY=0); else ``server.pipe`` serves stdio.
        mcp = build_server(settings, stopping, shared=True, background=True)
        with guarded_stdio() as wire, _plain_errors():  # malformed frames answered
            anyio.run(_serve_stdio, mcp, stopping, wire)
        _fast_exit()
        return 0
    hosts = list(allowed_hosts) or list(settings.http_allowed_hosts)
    origins = list(allowed_origins) or list(settings.http_allowed_origins)
    token = read_token(token_env)
    family, address = refuse_unsafe(
        host, port, token=token, allowed_hosts=hosts, allowed_origins=origins, exposed=exposed
    )
    sock = _listen(family, address, port)
    try:
        bound_port = sock.getsockname()[1]
        policy = build_policy(
            address,
            bound_port,
            token=token,
            allowed_hosts=hosts,
            allowed_origins=origins,
            exposed=exposed,
        )
        mcp = build_server(settings, stopping, shared=True, background=True)
        sdk_app = _sdk_app(mcp, policy.allowed_hosts, policy.allowed_origins)
        app = _StartupErrors(GuardMiddleware(sdk_app, policy))
        shown = f"[{address}]" if ":" in address else address
        mode = "bearer token required" if policy.auth else "no token: loopback clients only"
        say(f"serving MCP on http://{shown}:{bound_port}/mcp ({mode})")
        try:
            with _plain_errors():
                anyio.run(_serve_http, app, sock, stopping)
        except SystemExit:  # uvicorn exits when the app's startup (the store) fails
            if isinstance(app.error, AnchormemError):
                raise app.error from None
            raise StoreUnavailable("the HTTP server could not start") from app.error
    finally:
        sock.close()
    _fast_exit()
    return 0


@contextlib.contextmanager
def _plain_errors() -> Iterator[None]:
    """An anchormem error (the store cannot be opened, ...) from inside the task groups
    reaches the CLI as itself, not as an exception group: one line, the right exit code."""
    try:
        yield
    except BaseExceptionGroup as group:
        inner: BaseException = group
        while isinstance(inner, BaseExceptionGroup) and len(inner.exceptions) == 1:
            inner = inner.exceptions[0]
        if isinstance(inner, AnchormemError | SystemExit):
            raise inner from None
        raise


def _fast_exit() -> None:
    """Everything is closed: spare the interpreter's final garbage collection over the
    whole module graph (most of the time to exit)."""
    gc.freeze()


# -- HTTP -----------------------------------------------------------------------------


def _listen(family: socket.AddressFamily, address: str, port: int) -> socket.socket:
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted sockets only when
    # the proto says TCP; without it every JSON response would wait for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind((address, port))
        sock.listen(2048)  # connections made now wait in the backlog until we serve
    except OSError as exc:
        sock.close()
        raise AnchormemError(f"cannot listen on {address}:{port}: {exc.strerror}") from None
    return sock


def _sdk_app(mcp: MCPServer[Any], hosts: frozenset[str], origins: frozenset[str]) -> Any:
    from mcp.server.transport_security import TransportSecuritySettings

    # The SDK repeats the Host/Origin check on /mcp (exact strings); ours covers every path.
    return mcp.streamable_http_app(
        streamable_http_path="/mcp",
        transport_security=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=sorted(hosts),
            allowed_origins=sorted(origins),
        ),
    )


class _StartupErrors:
    """Keeps the exception that failed the app's startup (the store could not be opened)
    for the CLI's one-line error, instead of the traceback uvicorn would log."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.error: BaseException | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def quiet_send(message: Any) -> None:
            if message.get("type") == "lifespan.startup.failed":
                message = {**message, "message": ""}
            await send(message)

        try:
            await self.app(scope, receive, quiet_send)
        except BaseException as exc:
            self.error = exc
            raise


async def _serve_http(app: Any, sock: socket.socket, stopping: threading.Event) -> None:
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield  # signals are ours (_on_signals): uvicorn would re-raise them at the end

    server = Server(uvicorn_config(app, lifespan="on"))

    def graceful() -> None:
        server.should_exit = True

    async with anyio.create_task_group() as tg:

        def force() -> None:
            server.force_exit = True
            tg.cancel_scope.cancel()

        tg.start_soon(_on_signals, stopping, graceful, force, None)
        await server.serve(sockets=[sock])
        tg.cancel_scope.cancel()


# -- stdio ----------------------------------------------------------------------------


async def _serve_stdio(
    mcp: MCPServer[Any], stopping: threading.Event, wire: WireOut | None = None
) -> None:
    """``wire``: the guard's writer of frames (else the SDK claims fd 1 and writes it)."""
    stdin = _StdinLines.claim()
    try:
        async with anyio.create_task_group() as tg:
            stdin.start(anyio.lowlevel.current_token())
            tg.start_soon(_on_signals, stopping, stdin.stop, tg.cancel_scope.cancel, watch_parent)
            # The SDK claims fd 1 (stray prints go to stderr); stdin is ours, so that a
            # signal can end it: the SDK reads stdin in a thread no cancellation reaches.
            out = cast("anyio.AsyncFile[str] | None", wire)
            async with stdio_server(stdin=cast("anyio.AsyncFile[str]", stdin), stdout=out) as (
                reads,
                writes,
            ):
                # Every answer the server writes is noted, so that at EOF the input ends
                # only once the requests read before it are answered (_StdinLines.drain).
                answers, answered = anyio.create_memory_object_stream[SessionMessage](0)
                tg.start_soon(_forward_answers, answered, writes, stdin)
                # MCPServer.run_stdio_async on our own streams: the SDK has no public way
                # to run a server on streams it did not open (tests/test_public_apis.py).
                lowlevel = mcp._lowlevel_server
                async with answers:
                    await lowlevel.run(reads, answers, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()
    finally:
        stdin.release()


async def _forward_answers(
    answered: MemoryObjectReceiveStream[SessionMessage],
    writes: MemoryObjectSendStream[SessionMessage],
    stdin: _StdinLines,
) -> None:
    async with answered, writes:
        async for message in answered:
            await writes.send(message)
            if isinstance(message.message, JSONRPCResponse | JSONRPCError):
                stdin.answered(message.message.id)


class _StdinLines:
    """The protocol's input: lines from a private duplicate of fd 0, read by a daemon
    thread (so a read that never returns cannot keep the process alive), ended by EOF or
    by ``stop()``. While it is claimed, fd 0 is the null device for children.

    At EOF the input ends only once every request read before it has been answered (or
    ``DRAIN_S`` has passed): the SDK cancels what is in flight when its input ends, so a
    one-shot pipe (``printf '...' | anchormem serve``) would get only its first answer."""

    def __init__(self, fd: int, restore: int | None) -> None:
        self._fd = fd
        self._restore = restore
        self._send, self._recv = anyio.create_memory_object_stream[bytes](16)
        self._lines: deque[str] = deque()
        self._buffer = b""
        self._done = False
        self._scope: anyio.CancelScope | None = None
        self._pending: set[str] = set()  # ids of requests read and not yet answered
        self._eof = False

    @classmethod
    def claim(cls) -> _StdinLines:
        try:
            private = os.dup(0)
            os.set_inheritable(private, False)
        except OSError:
            return cls(0, None)  # no stdin at all: the thread reads EOF (or EBADF) at once
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.close(null)
        except OSError:
            return cls(private, None)
        return cls(private, private)

    def start(self, token: anyio.lowlevel.EventLoopToken) -> None:
        threading.Thread(
            target=self._pump, args=(token,), name="anchormem-stdin", daemon=True
        ).start()

    def _pump(self, token: anyio.lowlevel.EventLoopToken) -> None:
        while True:
            try:
                data = os.read(self._fd, 65536)
            except OSError:
                data = b""
            try:
                anyio.from_thread.run(self._send.send, data, token=token)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return  # stop() closed the stream, or the server stopped reading
            except (RuntimeError, CancelledError):
                return  # the event loop is gone (RunFinishedError) or is shutting down
            if not data:
                return

    def stop(self) -> None:
        """End the input now (what the server sees as the client closing stdin)."""
        self._done = True
        self._lines.clear()
        if self._scope is not None:
            self._scope.cancel()
        self._send.close()

    def release(self) -> None:
        self._done = True
        self._send.close()
        self._recv.close()
        if self._restore is not None:
            # The reader thread may still block on the duplicate: leave it open.
            with contextlib.suppress(OSError):
                os.dup2(self._restore, 0)

    def __aiter__(self) -> _StdinLines:
        return self

    async def __anext__(self) -> str:
        while not self._lines:
            if self._eof and not self._done:
                await self._drain()
            if self._done:
                raise StopAsyncIteration
            chunk = b""
            with anyio.CancelScope() as scope:
                self._scope = scope
                try:
                    chunk = await self._recv.receive()
                except (anyio.EndOfStream, anyio.ClosedResourceError):
                    chunk = b""
                finally:
                    self._scope = None
            if self._done:
                raise StopAsyncIteration
            if not chunk:  # EOF: a last line without its newline still counts
                self._eof = True
                if self._buffer:
                    self._lines.append(self._buffer.decode("utf-8", "replace"))
                    self._buffer = b""
                continue
            *complete, self._buffer = (self._buffer + chunk).split(b"\n")
            self._lines.extend(line.decode("utf-8", "replace") + "\n" for line in complete)
        line = self._lines.popleft()
        self._note(line)
        return line

    async def _drain(self) -> None:
        """After EOF: wait (at most ``DRAIN_S``; ``stop()`` ends it) for the answers owed."""
        with anyio.CancelScope() as scope, anyio.move_on_after(DRAIN_S):
            self._scope = scope
            try:
                while self._pending and not self._done:
                    await anyio.sleep(0.01)
            finally:
                self._scope = None
        self._done = True

    def _note(self, line: str) -> None:
        """Remember the id of a request (a frame with a method and an id); a cancellation
        notice forgets its request, which the server may never answer."""
        try:
            frame = json.loads(line)
        except ValueError:
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("method"), str):
            return
        if "id" in frame:
            self._pending.add(json.dumps(frame["id"]))
        elif frame["method"] == "notifications/cancelled":
            params = frame.get("params")
            if isinstance(params, dict):
                self._pending.discard(json.dumps(params.get("requestId")))

    def answered(self, request_id: object) -> None:
        self._pending.discard(json.dumps(request_id))


# -- both -----------------------------------------------------------------------------


async def _on_signals(
    stopping: threading.Event,
    graceful: Callable[[], None],
    force: Callable[[], None],
    started: Callable[[], None] | None,
) -> None:
    with anyio.open_signal_receiver(*SIGNALS) as signals:
        if started is not None:
            started()
        async for signum in signals:
            say(f"{signal.Signals(signum).name} received; stopping")
            stopping.set()  # calls still queued for the store fail now, not in turn
            exit_later(HARD_EXIT_S)
            graceful()
            break
        with anyio.move_on_after(GRACE_S):
            async for _ in signals:  # a second signal: stop waiting
                break
        say("still running; cancelling")
        force()
