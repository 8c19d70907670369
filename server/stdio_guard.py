"""A guard in front of the stdio transport: every malformed frame is answered, no frame is
buffered past a size limit, and nothing but protocol frames reaches stdout.

The MCP SDK drops a line it cannot decode (invalid JSON, invalid UTF-8, too deeply nested,
missing ``"jsonrpc"``, a batch) without a word, so a client waits forever for the answer to
a request that carried an id; and it reads a whole line before looking at it, so one 100 MB
argument costs hundreds of MB. ``guarded_stdio`` puts two pipes and two threads between the
process's stdin/stdout and the server:

- inbound: reads stdin in chunks; a frame that the SDK would accept is passed on unchanged;
  any other frame is answered here with a JSON-RPC error (``-32700`` parse error,
  ``-32600`` invalid request) carrying the frame's id when one can be read from it, else
  ``null``. A frame longer than ``MAX_FRAME_BYTES`` is never held: its first 64 KiB and
  last 4 KiB are kept to find its id, the rest is discarded as it arrives, and the error is
  sent as soon as the id is known.
- outbound: forwards the server's frames line by line, with the guard's own answers in
  between (never inside a frame); a line that is not a JSON-RPC frame (a stray ``print``
  before the SDK takes fd 1) goes to stderr instead.

A malformed *response* (no ``method``, a ``result`` or ``error``) is never answered: its id
belongs to the other side's requests.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, cast

from server.jsonrpc_shape import INVALID_REQUEST, PARSE_ERROR, kind_of, parse
from store.limits import MAX_FRAME_BYTES

__all__ = ["FrameGuard", "FrameHook", "Refusal", "WireOut", "guarded_stdio", "recover_id"]

log = logging.getLogger("anchormem.stdio")

HEAD_BYTES = 64 * 1024  # of an oversized or malformed frame, kept to find its id
TAIL_BYTES = 4 * 1024  # ... and its end, for an id written last
_READ_CHUNK = 256 * 1024
_HOOK_FINISH_S = 10.0  # at the end of input, as long as the server's own drain (serve.DRAIN_S)
_SENTINEL = b"\x00anchormem-stdio-guard-end\n"
_MAX_ID_CHARS = 256
_TAIL_ID = re.compile(r'[{,]\s*"id"\s*:\s*(-?\d{1,40}|"(?:[^"\\]|\\.){0,256}")\s*}\s*$')
_JSON_WS = " \t\n\r"
# The C string scanner json.loads uses (typeshed does not declare it).
_scanstring = cast(Any, json.decoder).scanstring

RequestId = int | str
_LOGGED_REFUSALS = 100  # then silence: a client that floods stderr must not stall us
_logged = 0


def _note(message: str, *args: object) -> None:
    global _logged
    _logged += 1
    if _logged <= _LOGGED_REFUSALS:
        log.warning(message, *args)
    if _logged == _LOGGED_REFUSALS:
        log.warning("further malformed frames are answered without a log line")


@dataclass(frozen=True)
class Refusal:
    """A JSON-RPC error answering one malformed frame."""

    id: RequestId | None
    code: int
    message: str

    def frame(self) -> bytes:
        body = {
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        }
        return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"


Item = bytes | Refusal  # a frame to pass on (with its newline), or an answer to send


def _valid_id(value: object) -> RequestId | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and len(value) <= _MAX_ID_CHARS):
        return value
    return None


class _NotFound:
    pass


_NOT_FOUND = _NotFound()


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WS:
        i += 1
    return i


def _id_from_head(text: str) -> object:
    """The top-level ``id`` of a JSON object read from its start, tolerating a broken or
    missing end: members are read one by one until ``id`` or the first that cannot be."""
    decoder = json.JSONDecoder()
    i = text.find("{", 0, 64)  # past a few bytes of junk before the object
    if i < 0:
        return _NOT_FOUND
    i += 1
    try:
        while True:
            i = _skip_ws(text, i)
            if not text.startswith('"', i):
                return _NOT_FOUND
            key, i = _scanstring(text, i + 1)
            i = _skip_ws(text, i)
            if not text.startswith(":", i):
                return _NOT_FOUND
            i = _skip_ws(text, i + 1)
            value, i = decoder.raw_decode(text, i)
            if key == "id":
                return value
            i = _skip_ws(text, i)
            if not text.startswith(",", i):
                return _NOT_FOUND
            i += 1
    except (ValueError, RecursionError):
        return _NOT_FOUND


def _id_from_tail(text: str) -> object:
    match = _TAIL_ID.search(text)
    if match is None:
        return _NOT_FOUND
    try:
        return json.loads(match.group(1))
    except ValueError:
        return _NOT_FOUND


def recover_id(head: bytes, tail: bytes = b"") -> RequestId | None:
    """The id of a frame that cannot be decoded, from its first and last bytes; None when
    none can be read (or it is not a string or an integer)."""
    found = _id_from_head(head[:HEAD_BYTES].decode("utf-8", "replace"))
    if isinstance(found, _NotFound) and tail:
        found = _id_from_tail(tail[-TAIL_BYTES:].decode("utf-8", "replace"))
    return None if isinstance(found, _NotFound) else _valid_id(found)


def _why_invalid(message: dict[str, Any]) -> str:
    if message.get("jsonrpc") != "2.0":
        return 'a JSON-RPC 2.0 message needs "jsonrpc": "2.0"'
    if "id" in message and _valid_id(message["id"]) is None:
        return "the id must be a string or an integer"
    if "method" in message and not isinstance(message["method"], str):
        return "the method must be a string"
    if "params" in message and not isinstance(message["params"], dict):
        return "params must be an object"
    return "not a JSON-RPC request, notification or response"


@dataclass
class _Oversized:
    head: bytes
    tail: bytes
    size: int
    answered: bool = False


class FrameGuard:
    """Turns chunks of the input stream into frames the SDK accepts and answers for the
    rest; holds at most ``max_frame_bytes`` of one frame, whatever its length."""

    def __init__(self, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._frame = bytearray()
        self._over: _Oversized | None = None

    def feed(self, chunk: bytes) -> list[Item]:
        """Frames completed by ``chunk`` (each ending in a newline) and answers, in order."""
        out: list[Item] = []
        start, size = 0, len(chunk)
        while start < size:
            newline = chunk.find(b"\n", start)
            end = size if newline < 0 else newline
            self._take(chunk[start:end], out)
            if newline < 0:
                break
            self._end_frame(out)
            start = newline + 1
        return out

    def finish(self) -> list[Item]:
        """At end of input: a last frame without its newline still counts."""
        out: list[Item] = []
        if self._frame or self._over is not None:
            self._end_frame(out)
        return out

    def _take(self, piece: bytes, out: list[Item]) -> None:
        over = self._over
        if over is not None:
            over.size += len(piece)
            over.tail = (over.tail + piece[-TAIL_BYTES:])[-TAIL_BYTES:]
            return
        if len(self._frame) + len(piece) <= self.max_frame_bytes:
            self._frame += piece
            return
        head = bytes(self._frame[:HEAD_BYTES]) + piece[: max(0, HEAD_BYTES - len(self._frame))]
        tail = (bytes(self._frame[-TAIL_BYTES:]) + piece[-TAIL_BYTES:])[-TAIL_BYTES:]
        over = self._over = _Oversized(head, tail, len(self._frame) + len(piece))
        self._frame = bytearray()  # let go of it now, not at the end of the frame
        found = _id_from_head(head.decode("utf-8", "replace"))
        if not isinstance(found, _NotFound):  # answer at once; the rest is only discarded
            out.append(self._too_large(_valid_id(found)))
            over.answered = True

    def _too_large(self, request_id: RequestId | None) -> Refusal:
        limit = self.max_frame_bytes
        _note("refused a frame over the %d-byte limit (id %r)", limit, request_id)
        return Refusal(
            request_id,
            INVALID_REQUEST,
            f"Invalid Request: the message is larger than the {limit}-byte limit on one "
            "frame and was discarded (see README, Limits)",
        )

    def _end_frame(self, out: list[Item]) -> None:
        over, self._over = self._over, None
        if over is not None:
            if not over.answered:
                out.append(self._too_large(recover_id(over.head, over.tail)))
            return
        line, self._frame = bytes(self._frame), bytearray()
        out.extend(self._check(line))

    def _check(self, line: bytes) -> list[Item]:
        if not line.strip():
            return []  # a blank line is not a frame
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return [self._refuse(line, PARSE_ERROR, "Parse error: the frame is not valid UTF-8")]
        try:
            message = parse(text)
        except RecursionError:
            return [self._refuse(line, PARSE_ERROR, "Parse error: nested too deeply")]
        except ValueError as exc:
            return [self._refuse(line, PARSE_ERROR, f"Parse error: {str(exc)[:200]}")]
        kind = kind_of(message)  # as the SDK reads it (``server.jsonrpc_shape``)
        if kind is None:
            return self._invalid(line, message)
        if kind == "notification" and isinstance(message, dict) and "id" in message:
            # The SDK reads a request whose id is null, a float or an object as a
            # notification (the id is ignored) and never answers it.
            why = "Invalid Request: the id must be a string or an integer"
            _note("answered an invalid request (id %r): %s", message["id"], why)
            return [Refusal(None, INVALID_REQUEST, why)]
        return [line + b"\n"]

    def _refuse(self, line: bytes, code: int, message: str) -> Refusal:
        request_id = recover_id(line[:HEAD_BYTES], line[-TAIL_BYTES:])
        if request_id is None and len(line) <= HEAD_BYTES:  # e.g. invalid UTF-8 in a value
            try:
                raw = json.loads(line.decode("utf-8", "replace"))
            except (ValueError, RecursionError):
                raw = None
            if isinstance(raw, dict):
                request_id = _valid_id(raw.get("id"))
        _note("answered a malformed frame (id %r): %s", request_id, message)
        return Refusal(request_id, code, message)

    def _invalid(self, line: bytes, message: object) -> list[Item]:
        """Valid JSON that is not a JSON-RPC message."""
        if isinstance(message, list):  # a batch: MCP has had none since 2025-06-18
            why = "Invalid Request: batches are not supported; send one message per line"
            ids = [_valid_id(m.get("id")) for m in message if isinstance(m, dict) and "id" in m]
            answered = [Refusal(i, INVALID_REQUEST, why) for i in ids if i is not None]
            return list(answered) or [Refusal(None, INVALID_REQUEST, why)]
        if not isinstance(message, dict):
            return [Refusal(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")]
        if "method" not in message and ("result" in message or "error" in message):
            _note("dropped a malformed response (id %r)", message.get("id"))
            return []  # an answer to one of our requests: never answered back
        why = f"Invalid Request: {_why_invalid(message)}"
        _note("answered an invalid request (id %r): %s", message.get("id"), why)
        return [Refusal(_valid_id(message.get("id")), INVALID_REQUEST, why)]


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _is_frame(line: bytes) -> bool:
    return line.startswith(b"{") and b'"jsonrpc":"2.0"' in line[:64]


class FrameHook(Protocol):
    """What may take frames before the server does (``server.pipe``)."""

    def wire(self, emit: Callable[[bytes], None]) -> None:
        """Given the writer of a whole frame to the wire."""

    def offer(self, frame: bytes) -> bool:
        """Whether it took ``frame`` (a valid frame, with its newline) and will answer it."""

    def finish(self, timeout: float) -> None:
        """At the end of the input, before the server's input ends: settle what it took."""


class _StdioProxy:
    """The two pipes and threads of ``guarded_stdio``."""

    def __init__(
        self,
        max_frame_bytes: int,
        hook: FrameHook | None = None,
        ended: threading.Event | None = None,
    ) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._ended = ended
        self._lock = threading.Lock()  # one writer on the wire at a time, whole lines only
        self._in_lock = threading.Lock()  # one writer into the server's input, whole frames
        self._in_open = True
        self._hook = hook
        self._broken = False
        self._wire_in = os.dup(0)
        self._wire_out = os.dup(1)
        in_r, self._in_w = os.pipe()
        self._out_r, self._out_w = os.pipe()
        os.dup2(in_r, 0)
        os.close(in_r)
        os.dup2(self._out_w, 1)
        if hook is not None:
            hook.wire(self.emit)
        self._inbound = threading.Thread(target=self._pump_in, name="anchormem-stdin-guard")
        self._outbound = threading.Thread(target=self._pump_out, name="anchormem-stdout-guard")
        self._inbound.daemon = self._outbound.daemon = True
        self._inbound.start()
        self._outbound.start()

    def emit(self, data: bytes) -> None:
        with self._lock:
            if self._broken:
                return
            try:
                _write_all(self._wire_out, data)
            except OSError:  # the client is gone; keep draining so the server never blocks
                self._broken = True

    def inject(self, frame: bytes) -> None:
        """A whole frame into the server's input (dropped once that input has ended)."""
        with self._in_lock:
            if not self._in_open:
                return
            try:
                _write_all(self._in_w, frame)
            except OSError:  # the server closed its input
                self._in_open = False

    def _pump_in(self) -> None:
        guard = FrameGuard(self.max_frame_bytes)
        hook = self._hook
        try:
            while True:
                try:
                    chunk = os.read(self._wire_in, _READ_CHUNK)
                except OSError:
                    chunk = b""
                for item in guard.feed(chunk) if chunk else guard.finish():
                    if isinstance(item, Refusal):
                        self.emit(item.frame())
                    elif hook is None or not hook.offer(item):
                        self.inject(item)
                if not chunk or not self._in_open:
                    return
        except OSError:
            return  # the server closed its input
        finally:
            if hook is not None:  # what it took is answered, or handed to the server, first
                hook.finish(_HOOK_FINISH_S)
            with self._in_lock:
                self._in_open = False
                os.close(self._in_w)  # end of input for the server
            if self._ended is not None:
                self._ended.set()

    def _pump_out(self) -> None:
        pending = bytearray()
        while True:
            try:
                chunk = os.read(self._out_r, _READ_CHUNK)
            except OSError:
                chunk = b""
            if not chunk:
                return
            start, scan_from = 0, len(pending)  # the held bytes have no newline
            pending += chunk
            while (newline := pending.find(b"\n", scan_from)) >= 0:
                scan_from = newline + 1
                line = bytes(pending[start : newline + 1])
                start = newline + 1
                if line == _SENTINEL:
                    return
                if _is_frame(line):
                    self.emit(line)
                else:  # stray output: never on the wire
                    with contextlib.suppress(OSError):
                        _write_all(2, b"anchormem: (not a protocol frame) " + line[:2000])
            del pending[:start]

    def close(self) -> None:
        """After the server: forward what it wrote, then give fds 0 and 1 back."""
        sys.stdout.flush()
        with contextlib.suppress(OSError):
            _write_all(self._out_w, _SENTINEL)
        self._outbound.join(timeout=5)
        os.dup2(self._wire_out, 1)
        os.dup2(self._wire_in, 0)
        os.close(self._out_w)
        if not self._outbound.is_alive():  # else it may still be reading: leave it open
            os.close(self._out_r)
        # _wire_in stays open: the inbound thread may still be blocked reading it.


class WireOut:
    """The server's frames, written straight to the wire from the event loop: one
    ``write`` of each whole frame, between the guard's own answers. What the SDK's stdio
    transport takes as its stdout (``mcp.server.stdio.stdio_server(stdout=...)``): its
    own writes hop to a worker thread and then through the outbound pipe's thread, ~1 ms
    a frame when the interpreter is busy. Stray output to fd 1 still goes through the
    pipe (and to stderr)."""

    def __init__(self, emit: Callable[[bytes], None]) -> None:
        self._send = emit
        self._held: list[str] = []

    async def write(self, text: str) -> None:
        self._held.append(text)

    async def flush(self) -> None:
        held, self._held = self._held, []
        if held:
            self._send("".join(held).encode("utf-8", "replace"))  # never invalid UTF-8


@contextmanager
def guarded_stdio(
    max_frame_bytes: int = MAX_FRAME_BYTES,
    hook: FrameHook | None = None,
    ended: threading.Event | None = None,
) -> Iterator[WireOut | None]:
    """Serve stdio through the guard while the block runs (see the module docstring); the
    block gets the writer of the server's frames (``WireOut``). Without usable fds 0 and
    1 the block runs unguarded, and gets None. ``hook`` is offered every valid frame
    before the server (``server.pipe``); ``ended`` is set once the input has ended and
    the hook has settled what it took."""
    sys.stdout.flush()
    try:
        proxy = _StdioProxy(max_frame_bytes, hook, ended)
    except OSError as exc:
        log.warning("stdio guard not installed: %s", exc)
        yield None
        return
    try:
        yield WireOut(proxy.emit)
    finally:
        proxy.close()
