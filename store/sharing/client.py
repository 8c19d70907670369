"""A client of the store's owner: finding it, starting it, and calling it (adr/0012).

``OwnerLink.connect`` returns a connection that has passed the key's challenge and the
protocol's hello. When no owner answers it looks at the owner's lock: held means an owner
is starting or stopping (wait and try again); free means there is none (a SIGKILL leaves
its socket and info file behind, which the next owner replaces), so it starts one,
detached, holding the spawn lock until the new owner holds its own lock. All of it within
``wait_s`` (``ANCHORMEM_LOCK_WAIT``), then a clear error, never a hang.

This module imports nothing heavy (no DuckDB, no tree-sitter): the CLI's path through it
starts in a fraction of a second.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from multiprocessing import AuthenticationError
from multiprocessing.connection import Client, Connection
from pathlib import Path
from typing import Any

from store.errors import StoreBusy, StoreUnavailable
from store.sharing import platform
from store.sharing.codec import decode, decode_error
from store.sharing.protocol import PROTOCOL, Files, read_key, recv, send

__all__ = ["STOPPING_MESSAGE", "OwnerLink", "OwnerMismatch", "standby_pid"]

STOPPING_MESSAGE = "the server is stopping; try again"  # as store.lease says it

_RETRY_S = 0.01
# A client that finds the owner gone while its standby is loading waits this long for the
# standby to take over before it starts an owner itself (adr/0016).
_STANDBY_WAIT_S = 5.0
_LINK_ERRORS = (OSError, EOFError, AuthenticationError, ValueError)


class OwnerMismatch(StoreUnavailable):
    """The owner speaks a newer protocol than this client."""


class OwnerLink:
    """Connections to the owner of one store, made on demand and reused."""

    def __init__(
        self,
        files: Files,
        spawn: Sequence[str] | None,
        *,
        env: Mapping[str, str],
        wait_s: float,
        version: str,
        protocol: int = PROTOCOL,
        cwd: str | None = None,
        repo: str | None = None,
        stopping: threading.Event | None = None,
    ) -> None:
        """``spawn``: the command that starts an owner (``None``: never start one);
        ``env``: the settings this client's calls are served with."""
        self.files = files
        self._spawn = list(spawn) if spawn is not None else None
        self._env = dict(env)
        self._wait_s = wait_s
        self._version = version
        self._protocol = protocol
        self._cwd = cwd
        self._repo = repo
        self._stopping = stopping
        self._idle: list[Connection] = []
        self._mutex = threading.Lock()
        self._closed = False
        self.owner: dict[str, Any] = {}  # the hello of the owner last connected to

    # -- calls ----------------------------------------------------------------------
    def request(self, message: dict[str, Any], resend: bool, raw: bool = False) -> Any:
        """Send one request and return its decoded result (or raise its error). A request
        cut off by the owner's death is sent again to the next owner only when
        ``resend`` (repeating it gives the same outcome). ``raw``: the result is plain
        JSON, returned as it came (no values of the codec in it)."""
        conn = self._take()
        try:
            send(conn, message)
            reply = recv(conn)
        except _LINK_ERRORS:
            _close(conn)
            if not resend:
                raise StoreBusy(
                    "the store's owner stopped during this call, which may or may not have"
                    " been done: check (show, list) before repeating it"
                ) from None
            conn = self.connect()
            try:
                send(conn, message)
                reply = recv(conn)
            except _LINK_ERRORS:
                _close(conn)
                raise StoreUnavailable("the store's owner stopped twice during one call") from None
        if reply.get("retry"):  # the owner is stopping and did not start it: the next one
            _close(conn)
            conn = self.connect()
            try:
                send(conn, message)
                reply = recv(conn)
            except _LINK_ERRORS:
                _close(conn)
                raise StoreUnavailable("the store's owner stopped twice during one call") from None
        self._give(conn)
        if reply.get("ok"):
            return reply.get("result") if raw else decode(reply.get("result"))
        raise decode_error(reply.get("error"))

    def connect_first(self) -> None:
        """Connect now (starting the owner if need be), for the next call."""
        self._give(self.connect())

    def close(self) -> None:
        with self._mutex:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            _close(conn)

    def _take(self) -> Connection:
        if self._stopping is not None and self._stopping.is_set():
            raise StoreBusy(STOPPING_MESSAGE)
        with self._mutex:
            if self._closed:
                raise StoreBusy("the store's connection has been closed")
            while self._idle:
                conn = self._idle.pop()
                try:
                    dead = conn.poll(0)  # the owner closed it (it stopped, or was killed)
                except _LINK_ERRORS:
                    dead = True
                if not dead:
                    return conn
                _close(conn)
        return self.connect()

    def _give(self, conn: Connection) -> None:
        with self._mutex:
            if not self._closed:
                self._idle.append(conn)
                return
        _close(conn)

    def stop_owner(self) -> bool:
        """Ask the running owner, if any, to stop after its calls in flight, and wait
        (within ``wait_s``) until it has released the store; whether one was running."""
        deadline = time.monotonic() + self._wait_s
        asked: set[object] = set()
        while True:
            info = self.files.read_info()
            if info is None:  # an owner removes it once the store is closed
                return bool(asked)
            if self.owner_gone():
                # Killed: what it left is removed under the owner lock, so that its
                # standby does not take over once we have returned (adr/0016).
                if self.clear_stale() is not None or self.files.read_info() is None:
                    return bool(asked)
                continue  # its standby took the lock first: it is the owner to stop
            if info.get("pid") not in asked:
                asked.add(info.get("pid"))
                self._ask_to_stop(info, deadline)
            if time.monotonic() > deadline:
                raise StoreBusy(f"the store's owner did not stop within {self._wait_s:g} s")
            time.sleep(_RETRY_S)

    def _ask_to_stop(self, info: dict[str, Any], deadline: float) -> None:
        try:
            conn = self._hello(self._dial(info), deadline, admin=True)
            try:
                send(conn, {"op": "stop"})
                recv(conn)
            finally:
                _close(conn)
        except (*_LINK_ERRORS, StoreUnavailable, _OlderOwner):
            pass

    def clear_stale(self) -> dict[str, Any] | None:
        """Remove the info file and socket a killed owner left, holding the owner lock
        meanwhile (a standby or a new owner cannot take over in between); the info
        removed, or ``None`` when an owner holds the lock or nothing was left."""
        fd = self.files.open_lock(self.files.owner_lock)
        try:
            if not platform.lock(fd):
                return None
            try:
                info = self.files.read_info()
                if info is None:
                    return None
                self.files.info.unlink(missing_ok=True)
                address = info.get("address")
                # Only a socket file of this user's, in a folder of this user's: never a
                # path an info file names merely (adr/0022).
                if (
                    info.get("family") == "AF_UNIX"
                    and isinstance(address, str)
                    and platform.trusted_address("AF_UNIX", address)
                ):
                    Path(address).unlink(missing_ok=True)
                return info
            finally:
                platform.unlock(fd)
        finally:
            os.close(fd)

    def status(self) -> dict[str, Any] | None:
        """The running owner's status (pid, clients, calls), or ``None`` if none answers."""
        info = self.files.read_info()
        if info is None or self.owner_gone():
            return None
        try:
            conn = self._hello(self._dial(info), time.monotonic() + self._wait_s, admin=True)
        except (*_LINK_ERRORS, StoreUnavailable, _OlderOwner):
            return None
        try:
            send(conn, {"op": "status"})
            reply = recv(conn)
        except _LINK_ERRORS:
            return None
        finally:
            _close(conn)
        result = reply.get("result")
        return result if isinstance(result, dict) else None

    # -- finding the owner ----------------------------------------------------------
    def connect(self, relay: bool = False) -> Connection:
        """A connection to the owner (started if none runs) that has passed the key's
        challenge and the hello. ``relay``: one that carries relayed MCP frames instead of
        requests (``server.relay``, protocol 3)."""
        deadline = time.monotonic() + self._wait_s
        standby_until = time.monotonic() + _STANDBY_WAIT_S
        child: subprocess.Popen[bytes] | None = None
        last = "no owner answered"
        while True:
            info = self.files.read_info()
            if info is not None:
                try:
                    return self._hello(self._dial(info), deadline, relay=relay)
                except OwnerMismatch:
                    raise
                except _OlderOwner:
                    last = "an older owner is stopping"
                except _LINK_ERRORS as exc:
                    last = f"{type(exc).__name__}: {exc}"
            if child is not None and child.poll() is not None:
                if child.returncode != 0:  # 0: another owner had the lock; connect to it
                    raise StoreUnavailable(self._startup_failure(child.returncode))
                child = None
            if self._spawn is not None and self.owner_gone():
                waiting = standby_pid(self.files) is not None
                if not waiting or time.monotonic() > standby_until:
                    child = self._start_owner(deadline) or child
            if time.monotonic() > deadline:
                raise StoreBusy(
                    f"the store's owner did not answer within {self._wait_s:g} s ({last});"
                    f" see {self.files.log.name}, or run anchormem doctor"
                )
            time.sleep(_RETRY_S)

    def _dial(self, info: dict[str, Any]) -> Connection:
        family = info.get("family")
        address = info.get("address")
        if (
            not isinstance(family, str)
            or address is None
            or not platform.trusted_address(family, address)
        ):
            # Not an address this user's owner would listen on: nothing is sent there.
            raise ValueError("the owner's info file names an address anchormem never uses")
        if family == "AF_INET":
            address = (str(address[0]), int(address[1]))
        return Client(address, family=family, authkey=read_key(self.files))

    def _hello(
        self, conn: Connection, deadline: float, admin: bool = False, relay: bool = False
    ) -> Connection:
        """``admin``: a connection for ``status`` and ``stop`` only; ``relay``: for frames."""
        try:
            send(
                conn,
                {
                    "op": "hello",
                    "protocol": self._protocol,
                    "version": self._version,
                    "pid": os.getpid(),
                    "env": self._env,
                    "repo": self._repo,
                    "admin": admin,
                    "relay": relay,
                },
            )
            # The owner answers once its store is open (that may take the lock wait).
            if not conn.poll(max(deadline - time.monotonic(), 0.0) + 1.0):
                raise TimeoutError("the owner did not answer its hello")
            reply = recv(conn)
        except BaseException:
            _close(conn)
            raise
        theirs = reply.get("protocol")
        if reply.get("ok") and theirs == self._protocol:
            self.owner = reply
            return conn
        if isinstance(theirs, int) and theirs > self._protocol:
            _close(conn)
            raise OwnerMismatch(
                f"the store is served by a newer anchormem ({reply.get('version')}, protocol"
                f" {theirs}) than this one ({self._version}, protocol {self._protocol}):"
                " upgrade this client, or restart it with the same anchormem"
            )
        if isinstance(theirs, int) and theirs < self._protocol:
            # An older owner: it stops after its calls in flight, then one of ours starts.
            try:
                send(conn, {"op": "stop"})
                conn.poll(5.0)
            except _LINK_ERRORS:
                pass
            _close(conn)
            raise _OlderOwner()
        _close(conn)
        raise StoreUnavailable(str(reply.get("error") or "the store's owner refused this client"))

    def start_if_none(self) -> None:
        """Start an owner now if none runs and no standby is taking over, and return once
        it holds its lock (or has exited): a server that will need it lets it load while
        it loads itself. Its errors are not reported here: ``connect`` reports them."""
        if self._spawn is None or not self.owner_gone() or standby_pid(self.files) is not None:
            return
        self._start_owner(time.monotonic() + self._wait_s)

    def owner_gone(self) -> bool:
        """Whether no owner holds the owner lock (none runs, or it was killed)."""
        fd = self.files.open_lock(self.files.owner_lock)
        try:
            if not platform.lock(fd):
                return False
            platform.unlock(fd)
            return True
        finally:
            os.close(fd)

    def _start_owner(self, deadline: float) -> subprocess.Popen[bytes] | None:
        """Start an owner unless another client just did; return it once it holds its
        lock (or has exited)."""
        assert self._spawn is not None
        spawn_fd = self.files.open_lock(self.files.spawn_lock)
        try:
            while not platform.lock(spawn_fd):
                if time.monotonic() > deadline:
                    return None
                time.sleep(_RETRY_S)
            if not self.owner_gone():
                return None  # another client started one meanwhile
            # An owner killed left its info: the new one takes over only if it is still
            # there when it holds the lock (none stopped cleanly meanwhile; adr/0016).
            left = self.files.read_info()
            replacing = ["--replacing", str(left.get("pid"))] if left is not None else []
            child = platform.start_detached(
                [*self._spawn, *replacing],
                self.files.log,
                self._cwd or str(self.files.store.parent),
            )
            while self.owner_gone() and child.poll() is None:
                if time.monotonic() > deadline:
                    break
                time.sleep(_RETRY_S)
            return child
        finally:
            platform.unlock(spawn_fd)
            os.close(spawn_fd)

    def _startup_failure(self, code: int | None) -> str:
        try:
            lines = self.files.log.read_text(errors="replace").strip().splitlines()
        except OSError:
            lines = []
        # The owner's last line: a standby it forked writes to the same log meanwhile.
        said = next(
            (
                ln
                for ln in reversed(lines)
                if ln.startswith("anchormem") and not ln.startswith("anchormem: standby ")
            ),
            "",
        )
        return said.removeprefix("anchormem: ") or f"the store's owner failed to start ({code})"


def standby_pid(files: Files) -> int | None:
    """The pid of the owner's standby (``server.standby``), if one holds the standby lock
    (0 if it has not written its pid yet); ``None`` when there is none."""
    fd = files.open_lock(files.standby_lock)
    try:
        if platform.lock(fd):
            platform.unlock(fd)
            return None
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            written = os.read(fd, 32).decode(errors="replace").strip()
        except OSError:  # Windows: the locked bytes cannot be read by another process
            return 0
        return int(written) if written.isdigit() else 0
    finally:
        os.close(fd)


class _OlderOwner(Exception):
    """An owner of an older protocol was asked to stop; try again once it has."""


def _close(conn: Connection) -> None:
    with contextlib.suppress(OSError):
        conn.close()
