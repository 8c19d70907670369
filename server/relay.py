"""The stdio server's fast path (adr/0017): the frames of the hot tools go from the stdin
guard straight to the store's owner, and its answers straight to stdout.

Without it, a ``remember`` crosses this process's SDK server (parse, dispatch, a worker
thread, output check, serialize) and then the owner's socket, on top of the work itself.
With it, the guard's thread sends the frame over a connection of its own to the owner,
which answers it as the SDK would (``server.direct``), and a reader thread writes that
answer out: the SDK's event loop never sees the call.

Only what ``server.direct`` can answer exactly is relayed, and only once the handshake is
done (the SDK answered ``initialize``: its result names the protocol version the owner
must speak). Everything else goes to the SDK server of this process as before: the
handshake, listings, resources, prompts, the other tools, a frame the owner *declines*
(it sends an empty frame back), and every frame while no relay connection is up. When the
owner dies, the frames it had in flight are handed to the SDK server, whose link sends them
to the next owner (both relayed tools may be sent again: ``RESENDABLE``), and the relay
connects again in the background.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from multiprocessing import AuthenticationError
from multiprocessing.connection import Connection

from mcp_types import JSONRPCMessage, JSONRPCResponse

from store.errors import AnchormemError
from store.sharing.client import OwnerLink

__all__ = ["Relay"]

_LINK_ERRORS = (OSError, EOFError, AuthenticationError, ValueError)
_RETRY_S = 1.0  # after a failed connection, the next attempt waits at least this long
# A frame is offered to the owner only if it may be a call of a relayed tool (the owner
# checks exactly, and declines the rest): a substring test costs nothing on other frames.
_CALL = b'"tools/call"'
_NAMES = (b'"remember"', b'"recall"')


class Relay:
    """This process's relay of hot ``tools/call`` frames to the store's owner."""

    def __init__(self) -> None:
        self._emit: Callable[[bytes], None] | None = None  # a frame to stdout
        self._inject: Callable[[bytes], None] | None = None  # a frame to the SDK server
        self._version: bytes | None = None
        self._link: OwnerLink | None = None
        self._conn: Connection | None = None
        self._pending: deque[bytes] = deque()  # frames sent, oldest first
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)
        self._in_flight = 0
        self._connecting = False
        self._next_attempt = 0.0
        self._closed = False
        self.relayed = 0  # answered by the owner
        self.declined = 0  # handed to the SDK server (declined, or cut off by the owner)

    # -- wiring (serve, the stdio guard, the server's lifespan) -------------------------
    def wire(self, emit: Callable[[bytes], None], inject: Callable[[bytes], None]) -> None:
        """The stdio guard's writers: of a whole frame to stdout, and into the SDK
        server's input."""
        self._emit, self._inject = emit, inject

    def attach(self, link: OwnerLink) -> None:
        """The owner's link, once the server's runtime is open: connect in the background."""
        if self._emit is None:
            return  # no guard, no frames to relay
        self._link = link
        self._connect_later()

    def saw_answer(self, message: JSONRPCMessage) -> None:
        """Each frame the SDK server writes: its ``initialize`` result names the protocol
        version of this session, and the relay starts then."""
        if not isinstance(message, JSONRPCResponse) or not isinstance(message.result, dict):
            return
        negotiated = message.result.get("protocolVersion")
        if isinstance(negotiated, str) and "serverInfo" in message.result:
            self._version = negotiated.encode("ascii", "replace")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            conn, self._conn = self._conn, None
        if conn is not None:
            _close(conn)

    # -- frames (the stdin guard's thread) ---------------------------------------------
    def offer(self, frame: bytes) -> bool:
        """Whether ``frame`` (a whole frame, with its newline) was sent to the owner, which
        answers it; ``False``: the SDK server takes it."""
        version = self._version
        if version is None or _CALL not in frame or not any(n in frame for n in _NAMES):
            return False
        with self._lock:
            conn = self._conn
            if conn is None or self._closed:
                self._connect_later_locked()
                return False
            self._pending.append(frame)
            self._in_flight += 1
            try:
                conn.send_bytes(version + b"\n" + frame)
                return True
            except _LINK_ERRORS:
                pass
        self._lost(conn)  # the frame, sent or not, goes to the SDK server with the rest
        return True

    def finish(self, timeout: float) -> None:
        """At the end of the input: wait (at most ``timeout``) until every relayed frame is
        answered or handed to the SDK server."""
        deadline = time.monotonic() + timeout
        with self._settled:
            while self._in_flight and time.monotonic() < deadline:
                self._settled.wait(max(0.0, deadline - time.monotonic()))

    # -- the owner's answers (the relay's reader thread) -----------------------------------
    def _read(self, conn: Connection) -> None:
        assert self._emit is not None and self._inject is not None
        while True:
            try:
                answer = conn.recv_bytes()
            except _LINK_ERRORS:
                self._lost(conn)
                return
            with self._lock:
                if self._conn is not conn or not self._pending:
                    return  # given up on this connection meanwhile
                frame = self._pending.popleft()
            if answer:
                self._emit(answer)
                self.relayed += 1
            else:  # declined: the SDK server answers it
                self._inject(frame)
                self.declined += 1
            self._settle(1)

    def _lost(self, conn: Connection) -> None:
        """The connection failed: its frames go to the SDK server (sent again by its link
        to the next owner), and the relay connects again in the background."""
        with self._lock:
            if self._conn is not conn:
                return
            self._conn = None
            frames = list(self._pending)
            self._pending.clear()
        _close(conn)
        assert self._inject is not None
        for frame in frames:
            self._inject(frame)
        self.declined += len(frames)
        self._settle(len(frames))
        with self._lock:
            self._connect_later_locked()

    def _settle(self, count: int) -> None:
        with self._settled:
            self._in_flight -= count
            if not self._in_flight:
                self._settled.notify_all()

    # -- connecting -----------------------------------------------------------------------
    def _connect_later(self) -> None:
        with self._lock:
            self._connect_later_locked()

    def _connect_later_locked(self) -> None:
        link = self._link
        now = time.monotonic()
        if link is None or self._closed or self._connecting or now < self._next_attempt:
            return
        self._connecting = True
        self._next_attempt = now + _RETRY_S
        threading.Thread(
            target=self._connect, args=(link,), name="anchormem-relay-connect", daemon=True
        ).start()

    def _connect(self, link: OwnerLink) -> None:
        conn: Connection | None = None
        try:
            conn = link.connect(relay=True)
        except (*_LINK_ERRORS, AnchormemError) as exc:
            # The SDK server's own link says why, on the next call; this only waits.
            print(f"anchormem: the fast path to the store's owner is off: {exc}", file=sys.stderr)
        with self._lock:
            self._connecting = False
            if conn is None:
                return
            if self._closed:
                _close(conn)
                return
            self._conn = conn
        threading.Thread(
            target=self._read, args=(conn,), name="anchormem-relay", daemon=True
        ).start()


def _close(conn: Connection) -> None:
    with contextlib.suppress(OSError):
        conn.close()
