"""The MCP sessions of ``anchormem serve`` processes, run by the store's owner (adr/0035).

A serving process on stdio imports no part of the MCP SDK (``server.pipe``): it sends every
frame its client writes over one connection to the owner, and writes back whatever comes.
The owner runs the SDK's session for that connection here: its own server (``server.app``,
built once for all connections) over streams this module feeds from the socket, with the
connection's service as the session's lifespan state. The hot tools' calls are answered as
before, once the handshake named the protocol version (``server.direct``, adr/0017), by
the owner's answering thread; a frame it declines, and every other frame, goes to the SDK.

What goes back, besides the session's frames: ``{"anchormem": "unstarted", "id": ID}``
for a request the owner did not start because it is stopping, so that the serving process
sends it to the next owner whatever the call (``server.pipe``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import anyio
import anyio.from_thread
from mcp.server.runner import serve_dual_era_loop
from mcp.shared.message import SessionMessage
from mcp_types import (
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from server.app import ToolServer, session_runtime
from server.direct import RELAYED_TOOLS, DirectAnswers
from server.jsonrpc_shape import INVALID_REQUEST
from server.stdio_guard import Refusal, recover_id
from store.service import MemoryService
from store.sharing.protocol import MAX_MESSAGE

__all__ = ["UNSTARTED", "Session"]

log = logging.getLogger("anchormem.sessions")

UNSTARTED = "unstarted"  # the control message's word: not started, send it on
_FINISH_S = 30.0  # at the end of a connection, how long the calls read may take
_LINK_ERRORS = (OSError, EOFError, ValueError)
_CANCELLED = "notifications/cancelled"
_INTERNAL_ERROR = -32603
# A frame is tried on the direct path only if it may be a call of a relayed tool (the
# direct path checks exactly, and declines the rest): a substring test costs nothing.
_CALL = b'"tools/call"'
_NAMES = tuple(f'"{name}"'.encode() for name in sorted(RELAYED_TOOLS))


class Session:
    """One serving process's MCP session over ``conn``, its calls run on ``service``."""

    def __init__(
        self,
        conn: Connection,
        service: MemoryService,
        server: ToolServer,
        direct: DirectAnswers,
        submit: Callable[[Callable[[], None]], None],
        stopping: threading.Event,
        calls: Callable[[int], None],
    ) -> None:
        """``submit``: runs a work on the owner's answering thread; ``calls``: told of each
        call started (+1) and answered (-1), for the owner's count of calls in flight."""
        self._conn = conn
        self._service = service
        self._server = server
        self._direct = direct
        self._submit = submit
        self._stopping = stopping
        self._calls = calls
        self._send_lock = threading.Lock()  # the SDK's writer and the answering thread
        self._version: bytes | None = None  # the protocol the handshake agreed on
        self._open: set[str] = set()  # ids of requests handed to the SDK, not answered
        self._lock = threading.Lock()
        self._drained = threading.Condition(self._lock)

    # -- the connection's thread ---------------------------------------------------------
    def run(self) -> None:
        """Serve until the serving process hangs up (or the owner stops)."""
        reads, inbox = anyio.create_memory_object_stream[SessionMessage | Exception](math.inf)
        outbox, writes = anyio.create_memory_object_stream[SessionMessage](math.inf)
        with anyio.from_thread.start_blocking_portal(name="anchormem-session") as portal:
            loop = portal.start_task_soon(self._serve_sdk, inbox, outbox, writes)
            try:
                self._receive(portal, reads)
            finally:
                self._finish()
                portal.call(reads.close)
                with contextlib.suppress(Exception):
                    loop.result(timeout=_FINISH_S)

    def _receive(self, portal: anyio.from_thread.BlockingPortal, reads: Any) -> None:
        while True:
            try:
                frame = self._conn.recv_bytes(MAX_MESSAGE)
            except _LINK_ERRORS:
                return
            if self._stopping.is_set():
                self._unstarted(frame)
                return
            version = self._version
            if version is not None and _CALL in frame and any(n in frame for n in _NAMES):
                self._calls(1)
                self._submit(functools.partial(self._answer_direct, portal, reads, frame, version))
                continue
            self._to_sdk(portal, reads, frame)

    def _to_sdk(self, portal: anyio.from_thread.BlockingPortal, reads: Any, frame: bytes) -> None:
        """A frame into the SDK's session; one it would not read is answered here."""
        try:
            message = jsonrpc_message_adapter.validate_json(frame, by_name=False)
        except ValidationError:
            # The pipe's guard read it as a message (``server.jsonrpc_shape``) and the
            # SDK does not: a request is answered, as the guard answers what it refuses.
            self._refuse(frame)
            return
        key = _key(message.id) if isinstance(message, JSONRPCRequest) else None
        if key is not None:
            with self._lock:
                self._open.add(key)
            self._calls(1)
        try:
            portal.call(reads.send_nowait, SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, RuntimeError):
            if key is not None:  # the session has ended: nobody will answer it
                self._settle(key)
            return
        if isinstance(message, JSONRPCNotification) and message.method == _CANCELLED:
            # A cancelled request is never answered.
            params = message.params or {}
            self._settle(_key(params.get("requestId")))

    def _refuse(self, frame: bytes) -> None:
        with contextlib.suppress(ValueError, RecursionError):
            message = json.loads(frame)
            if isinstance(message, dict) and "method" in message and "id" in message:
                why = "Invalid Request: not a message the server can read"
                self._send(Refusal(recover_id(frame), INVALID_REQUEST, why).frame())

    def _unstarted(self, frame: bytes) -> None:
        with contextlib.suppress(ValueError, RecursionError):
            message = json.loads(frame)
            if isinstance(message, dict) and "id" in message and "method" in message:
                self._send(_dumps({"anchormem": UNSTARTED, "id": message["id"]}))

    def _finish(self) -> None:
        """Wait (at most ``_FINISH_S``) for the SDK's answers to the requests it was given."""
        with self._drained:
            self._drained.wait_for(lambda: not self._open, timeout=_FINISH_S)

    # -- the owner's answering thread ----------------------------------------------------
    def _answer_direct(
        self, portal: anyio.from_thread.BlockingPortal, reads: Any, frame: bytes, version: bytes
    ) -> None:
        try:
            answer = self._direct.answer(frame, version.decode("ascii"), self._service)
        except Exception:  # a bug: logged, and the call answered as failed
            log.exception("a direct answer failed")
            why = "Internal error: the call failed in the server (see the owner's log)"
            self._send(Refusal(recover_id(frame), _INTERNAL_ERROR, why).frame())
            answer = b""
        finally:
            self._calls(-1)
        if answer is None:  # declined, nothing run: the SDK answers it
            self._to_sdk(portal, reads, frame)
        elif answer:
            self._send(answer)

    # -- the SDK's side (the portal's event loop) ------------------------------------------
    async def _serve_sdk(self, inbox: Any, outbox: Any, writes: Any) -> None:
        lowlevel = self._server._lowlevel_server
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._write, writes)
            with session_runtime(self._service) as runtime:
                async with outbox:
                    await serve_dual_era_loop(
                        lowlevel,
                        inbox,
                        outbox,
                        lifespan_state=runtime,
                        init_options=lowlevel.create_initialization_options(),
                    )

    async def _write(self, writes: Any) -> None:
        async with writes:
            async for sent in writes:
                message = sent.message
                data = message.model_dump_json(by_alias=True, exclude_unset=True).encode()
                if isinstance(message, JSONRPCResponse | JSONRPCError):
                    self._saw_answer(message)
                self._send(data + b"\n")

    def _saw_answer(self, message: JSONRPCResponse | JSONRPCError) -> None:
        if isinstance(message, JSONRPCResponse):
            negotiated = message.result.get("protocolVersion")
            if isinstance(negotiated, str) and "serverInfo" in message.result:
                self._version = negotiated.encode("ascii", "replace")
        if message.id is not None:
            self._settle(_key(message.id))

    def _settle(self, key: str) -> None:
        """A request the SDK was given is answered (or will never be)."""
        with self._lock:
            if key not in self._open:
                return
            self._open.discard(key)
            if not self._open:
                self._drained.notify_all()
        self._calls(-1)

    # -- both ------------------------------------------------------------------------------
    def _send(self, data: bytes) -> None:
        with self._send_lock, contextlib.suppress(*_LINK_ERRORS):
            self._conn.send_bytes(data)


def _key(request_id: object) -> str:
    return json.dumps(request_id)


def _dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"
