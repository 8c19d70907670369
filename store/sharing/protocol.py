"""The owner's files and its small request protocol (adr/0012).

Files, beside the store (``<store>`` is the store file, normally
``<data home>/stores/<checkout>/memory.duckdb``, in a 0700 folder; adr/0022), each opened
through ``store.safe_files`` (no link followed, this user's regular files only):

    <store>.owner.lock  exclusive lock held by the owner for its whole life
    <store>.spawn       exclusive lock held by a client while it starts an owner
    <store>.standby.lock  held by the owner's standby while it waits (server/standby.py)
    <store>.owner       the owner's info (pid, address, protocol, version), JSON, 0600
    <store>.key         the key a client proves it may connect with (HMAC), 0600
    <store>.sock        the owner's socket (POSIX; see ``platform.listen_address``)
    <store>.owner.log   the owner's stderr

Messages are JSON objects sent with ``send_bytes`` (one message per frame), after the
``multiprocessing.connection`` HMAC handshake on the key:

    client → owner  {"op": "hello", "protocol": N, "version": "...", "pid": P, "env": {...}}
    owner → client  {"ok": true, "protocol": N, "version": "...", "pid": P}
                    or {"ok": false, "protocol": N, "version": "...", "error": "..."}
    client → owner  {"op": "call", "method": "recall", "args": [...], "kwargs": {...}}
                    {"op": "tool", "method": ..., "args", "kwargs", "detail": false}
                        (rendered for the agent: {"model", "structured", "text"})
                    {"op": "cli", "command": "...", "args": {...}}   (rendered, for the CLI)
                    {"op": "status"}    who owns the store, how many clients
                    {"op": "stop"}      stop after the calls in flight (a newer client)
    owner → client  {"ok": true, "result": ...} or {"ok": false, "error": {...}}

A hello with ``"relay": true`` makes a session connection (protocol 4, ``server.pipe``
and ``server.sessions``): after the hello its messages are raw bytes, not JSON messages.
The client sends each MCP frame its own client wrote; the owner runs the MCP session and
sends every frame it writes, and ``{"anchormem": "unstarted", "id": ID}`` for a request
it did not start because it is stopping.

Every version of the protocol answers ``hello`` with its own number and honours
``stop``: a newer client meeting an older owner asks it to stop and starts its own; an
older client meeting a newer owner gets a clear error.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.errors import StoreUnavailable
from store.safe_files import open_private, read_private

__all__ = ["PROTOCOL", "Files", "read_key", "recv", "send", "version"]

PROTOCOL = 4  # 2: the tool op, rendered by the owner; 3: relay connections; 4: sessions
MAX_MESSAGE = 64 * 1024 * 1024


def version() -> str:
    """This anchormem's version (one source: ``anchormem.__version__``)."""
    from anchormem import __version__

    return __version__


@dataclass(frozen=True)
class Files:
    store: Path

    @property
    def owner_lock(self) -> Path:
        return Path(f"{self.store}.owner.lock")

    @property
    def standby_lock(self) -> Path:
        return Path(f"{self.store}.standby.lock")

    @property
    def spawn_lock(self) -> Path:
        return Path(f"{self.store}.spawn")

    @property
    def info(self) -> Path:
        return Path(f"{self.store}.owner")

    @property
    def key(self) -> Path:
        return Path(f"{self.store}.key")

    @property
    def log(self) -> Path:
        return Path(f"{self.store}.owner.log")

    def read_info(self) -> dict[str, Any] | None:
        try:
            data = json.loads(read_private(self.info))
        except (OSError, ValueError, StoreUnavailable):
            return None
        return data if isinstance(data, dict) else None

    def write_info(self, info: dict[str, Any]) -> None:
        tmp = Path(f"{self.info}.{os.getpid()}.tmp")
        fd = open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        with os.fdopen(fd, "w") as out:
            json.dump(info, out)
        os.replace(tmp, self.info)

    def open_lock(self, path: Path) -> int:
        return open_private(path, os.O_RDWR | os.O_CREAT)


def read_key(files: Files, create: bool = False) -> bytes:
    """The store's key; ``create``: make it first (the owner does) if there is none."""
    if create and not files.key.exists():
        try:
            fd = open_private(files.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
    try:
        key = read_private(files.key, 4096).strip()
    except PermissionError:
        raise StoreUnavailable(
            f"{files.key.name} belongs to another user: this store is not yours to share"
        ) from None
    except OSError as exc:
        raise StoreUnavailable(f"cannot read the store's key: {exc.strerror}") from None
    if len(key) < 32:
        raise StoreUnavailable(f"the store's key {files.key.name} is damaged; remove it")
    return key


def send(conn: Any, message: dict[str, Any]) -> None:
    # ASCII escapes: a caller's text may hold lone surrogates (invalid UTF-8 given to the
    # CLI), which the service refuses with its own message; they must reach it.
    conn.send_bytes(json.dumps(message).encode())


def recv(conn: Any) -> dict[str, Any]:
    raw = conn.recv_bytes(MAX_MESSAGE)
    try:
        message = json.loads(raw)
    except ValueError:
        message = None
    if not isinstance(message, dict):
        raise ValueError("not a JSON object")
    return message
