"""``anchormem serve`` on stdio as a pipe to the store's owner (adr/0035).

The serving process runs no MCP server of its own and imports no part of the SDK: the
stdin guard (``server.stdio_guard``) answers what is not a JSON-RPC frame, and every
frame it passes goes over one connection to the store's owner, which runs this client's
MCP session (``server.sessions``); whatever the owner sends back is written to stdout. So
one repository in use costs one interpreter with the SDK loaded (the owner's), not two.

When the owner goes away (killed, or stopped for a newer one), the pipe connects to the
next owner (starting one, or its standby taking over, as ``OwnerLink`` does), opens the
session again with the client's own ``initialize`` and ``notifications/initialized`` (the
answer to that ``initialize`` is not the client's, and is not written), and sends again
the requests still unanswered that may be sent twice: every request but a call of a tool
that is not ``resendable`` (``server.operations``), which is answered with an error
saying it may or may not have been done, unless the owner said it did not start it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing import AuthenticationError
from multiprocessing.connection import Connection
from typing import Any

from server.config import Settings
from server.operations import OPERATIONS
from server.stdio_guard import guarded_stdio
from server.stopping import GRACE_S, HARD_EXIT_S, SIGNALS, exit_later, say, watch_parent
from store.errors import AnchormemError
from store.sharing.client import OwnerLink
from store.sharing.protocol import MAX_MESSAGE

__all__ = ["CUT_OFF", "Pipe", "serve_piped", "startup_line"]


CUT_OFF = (
    "the store's owner stopped during this call, which may or may not have been done:"
    " check (show, list) before repeating it"
)
_RETRY_S = 1.0  # after a failed connection, the next attempt waits this long at least
_LINK_ERRORS = (OSError, EOFError, AuthenticationError, ValueError)
_UNSTARTED = "unstarted"  # the owner's word for a request it did not start
_REPLAY = "anchormem-replay-"  # the ids of the handshakes sent again
_INTERNAL_ERROR = -32603
# The start of an answer as the owner writes it (the SDK's serializer and the direct answers
# both put these members first): enough to know which request it answers.
_ANSWER = re.compile(rb'\{"jsonrpc":"2\.0","id":(-?[0-9]+|"(?:[^"\\]|\\.)*"),"(?:result|error)":')


def startup_line(settings: Settings) -> str:
    """One line for a person who started ``serve`` in a terminal (nothing is printed when
    stderr is not a terminal: a client's log stays clean)."""
    repo = settings.repo if settings.repo is not None else "no repository"
    return (
        f"anchormem: serving MCP on stdin/stdout for {repo} (store {settings.store_label});"
        " an MCP client starts this itself (anchormem setup CLIENT) - press Ctrl-C to stop"
    )


def _key(request_id: object) -> str:
    return json.dumps(request_id)


def _resendable(message: dict[str, Any]) -> bool:
    """Whether sending the request to the next owner gives the outcome it would have had:
    every request but a call of a tool whose second run may differ from the first."""
    if message.get("method") != "tools/call":
        return True
    params = message.get("params") or {}
    op = OPERATIONS.get(str(params.get("name")))
    return op is None or op.resendable  # an unknown tool is refused by every owner alike


class Pipe:
    """The frames of one MCP client to the store's owner and back (the stdin guard's hook)."""

    def __init__(self, link: OwnerLink) -> None:
        self._link = link
        self._emit: Callable[[bytes], None] | None = None
        self._lock = threading.Lock()
        self._answered = threading.Condition(self._lock)
        self._conn: Connection | None = None
        self._pending: dict[str, dict[str, Any]] = {}  # requests sent, not answered
        self._frames: dict[str, bytes] = {}
        self._unstarted: set[str] = set()
        self._handshake: list[bytes] = []  # initialize, then notifications/initialized
        self._handshaken = False  # an initialize was answered: a handshake-era session
        self._replays: set[str] = set()
        self._replayed = 0
        self._connecting = False
        self._next_attempt = 0.0
        self._closed = False

    # -- the stdin guard's hook ----------------------------------------------------------
    def wire(self, emit: Callable[[bytes], None]) -> None:
        self._emit = emit

    def offer(self, frame: bytes) -> bool:
        """Every valid frame is the owner's (the guard has checked its shape)."""
        try:
            message = json.loads(frame)
        except (ValueError, RecursionError):  # the guard passed it: a frame all the same
            message = {}
        if not isinstance(message, dict):
            message = {}
        method = message.get("method")
        with self._lock:
            if isinstance(method, str) and "id" in message:
                key = _key(message["id"])
                self._pending[key], self._frames[key] = message, frame
            if method == "initialize":
                self._handshake = [frame]
            elif method == "notifications/initialized" and len(self._handshake) == 1:
                self._handshake.append(frame)
            elif method == "notifications/cancelled":
                params = message.get("params")
                if isinstance(params, dict):
                    self._forget(_key(params.get("requestId")))
            conn = self._conn
            if conn is None:
                self._connect_later_locked()
                return True  # a request is sent once connected; anything else is moot
            try:
                conn.send_bytes(frame)
                return True
            except _LINK_ERRORS:
                pass
        self._lost(conn)
        return True

    def finish(self, timeout: float) -> None:
        """Wait (at most ``timeout``) until every request sent is answered."""
        deadline = time.monotonic() + timeout
        with self._answered:
            while self._pending and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._answered.wait(left)

    # -- life ------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect now, starting the owner if none runs: the store's errors surface here."""
        conn = self._link.connect(relay=True)
        with self._lock:
            self._conn = conn
        self._read_in_background(conn)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conn, self._conn = self._conn, None
            self._answered.notify_all()
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()

    # -- the owner's frames (a reader thread per connection) -------------------------------
    def _read_in_background(self, conn: Connection) -> None:
        reader = threading.Thread(target=self._read, args=(conn,), name="anchormem-pipe")
        reader.daemon = True
        reader.start()

    def _read(self, conn: Connection) -> None:
        while True:
            try:
                data = conn.recv_bytes(MAX_MESSAGE)
            except _LINK_ERRORS:
                self._lost(conn)
                return
            if self._take(data):
                self._write(data)

    def _take(self, data: bytes) -> bool:
        """Whether ``data`` is for the client; an answer settles its request."""
        head = _ANSWER.match(data)
        if head is not None:  # an answer as the owner writes them: its id read, not the rest
            key = _key(json.loads(head.group(1)))
            with self._lock:
                asked = self._pending.get(key, {}).get("method")
                if key not in self._replays and asked != "initialize":
                    self._forget(key)
                    return True
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return True
        if not isinstance(message, dict):
            return True
        if message.get("anchormem") == _UNSTARTED:
            with self._lock:
                self._unstarted.add(_key(message.get("id")))
            return False
        if "method" in message or "id" not in message:
            return True  # the owner's notification or request to the client
        key = _key(message["id"])
        with self._lock:
            if key in self._replays:  # the answer to a handshake sent again
                self._replays.discard(key)
                return False
            asked = self._pending.get(key, {}).get("method")
            if asked == "initialize" and isinstance(message.get("result"), dict):
                self._handshaken = True
            self._forget(key)
        return True

    def _forget(self, key: str) -> None:
        """(Under the lock.) A request answered or cancelled."""
        self._pending.pop(key, None)
        self._frames.pop(key, None)
        self._unstarted.discard(key)
        if not self._pending:
            self._answered.notify_all()

    def _write(self, data: bytes) -> None:
        assert self._emit is not None
        self._emit(data if data.endswith(b"\n") else data + b"\n")

    # -- losing the owner, and the next one ------------------------------------------------
    def _lost(self, conn: Connection) -> None:
        with self._lock:
            if self._conn is not conn:
                return
            self._conn = None
            self._connect_later_locked()
        with contextlib.suppress(OSError):
            conn.close()

    def _connect_later_locked(self) -> None:
        if self._closed or self._connecting:
            return
        self._connecting = True
        threading.Thread(target=self._connect, name="anchormem-pipe-connect", daemon=True).start()

    def _connect(self) -> None:
        wait = self._next_attempt - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._next_attempt = time.monotonic() + _RETRY_S
        try:
            conn = self._link.connect(relay=True)
        except (*_LINK_ERRORS, AnchormemError) as exc:
            say(f"cannot reach the store's owner: {exc}")
            self._fail_pending(f"the store is unavailable: {exc}")
            with self._lock:
                self._connecting = False
            return
        with self._lock:
            self._connecting = False
            if self._closed:
                conn.close()
                return
            try:
                self._resume_locked(conn)
            except _LINK_ERRORS:
                conn.close()
                self._connect_later_locked()
                return
            self._conn = conn
        self._read_in_background(conn)

    def _resume_locked(self, conn: Connection) -> None:
        """Open the session again on a new owner and send what it must answer."""
        initialize = json.loads(self._handshake[0]) if self._handshake else None
        # The client's own initialize, if still unanswered, is sent on below as it is.
        if initialize is not None and _key(initialize.get("id")) not in self._pending:
            self._replayed += 1
            initialize["id"] = f"{_REPLAY}{self._replayed}"
            self._replays.add(_key(initialize["id"]))
            conn.send_bytes(json.dumps(initialize).encode() + b"\n")
            for frame in self._handshake[1:]:
                conn.send_bytes(frame)
        for key in list(self._pending):
            message = self._pending[key]
            if key in self._unstarted or _resendable(message):
                self._unstarted.discard(key)
                conn.send_bytes(self._frames[key])
            else:
                self._write(self._cut_off(message["id"], CUT_OFF))
                self._forget(key)

    def _fail_pending(self, why: str) -> None:
        with self._lock:
            failed = [(key, self._pending[key]["id"]) for key in list(self._pending)]
            for key, _ in failed:
                self._forget(key)
        for _, request_id in failed:
            self._write(self._cut_off(request_id, why))

    def _cut_off(self, request_id: object, why: str) -> bytes:
        """An answer for a request no owner will answer: a tool's error result in a
        handshake-era session (as a tool call that failed), else a JSON-RPC error."""
        if self._handshaken:
            result = {"content": [{"type": "text", "text": why}], "isError": True}
            body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
        else:
            error = {"code": _INTERNAL_ERROR, "message": why}
            body = {"jsonrpc": "2.0", "id": request_id, "error": error}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def serve_piped(settings: Settings, link: OwnerLink) -> int:
    """Serve stdio through the store's owner until the client goes away or a signal comes."""
    pipe = Pipe(link)
    pipe.start()  # an error (the store cannot be opened) ends the command here
    ended = threading.Event()
    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        if stopping.is_set():
            os._exit(1)  # a second signal: stop waiting
        say(f"{signal.Signals(signum).name} received; stopping")
        stopping.set()
        ended.set()
        exit_later(HARD_EXIT_S)

    for sig in SIGNALS:
        signal.signal(sig, on_signal)
    watch_parent()
    try:
        with guarded_stdio(hook=pipe, ended=ended) as wire:
            if wire is None:
                raise AnchormemError("stdin and stdout cannot be served (no usable descriptors)")
            ended.wait()
            if stopping.is_set():
                pipe.finish(GRACE_S)
    finally:
        pipe.close()
        link.close()
    return 0
