"""The owner of one store: the process that holds its DuckDB connection, its fingerprint
and caches (one ``Runtime``), and serves every ``anchormem serve`` and CLI process of that
store over a local socket (adr/0012; the files and messages: ``store.sharing.protocol``).

    python -P -m server.owner --db <store> [--repo <repository>]

Started detached by the first client that finds none (``store.sharing.client``). It holds
``<store>.owner.lock`` for its whole life, so a client that cannot reach it knows whether
it is gone (lock free: start another) or starting or stopping (lock held: wait). It exits
after ``ANCHORMEM_OWNER_IDLE`` seconds without a client (default 60), on SIGTERM/SIGINT,
or when a newer client asks it to stop, each time after the calls in flight have been
answered; the store is closed (the journal written into the tables) before the lock is
released. A write is in the journal before it is answered, so an owner killed with
SIGKILL loses nothing acknowledged: the next owner replays the journal. The next owner
is its standby if it keeps one (``server.standby``, adr/0016: by default only an owner
that replaced a killed one does; on Linux forked as soon as the lock is held, before any
thread starts), else the owner the next call starts.

Each client says, in its hello, the ``ANCHORMEM_*`` settings its calls are served with
(the actor, the trusted sources, the verification budget, ...): the owner keeps one
``MemoryService`` per distinct set, all over the one store and code source.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from multiprocessing import AuthenticationError
from multiprocessing.connection import (
    Client,
    Connection,
    Listener,
    answer_challenge,
    deliver_challenge,
)
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from server.answering import Answerer
from server.config import Settings
from server.operations import COMMANDS, OPERATIONS
from server.rendering import tool_content
from server.runtime import Runtime, open_runtime, service_settings
from server.sharing import owner_command
from server.standby import (
    Standby,
    fork_standby,
    identity,
    preload,
    spawn_standby,
    standby_wanted,
)
from store.errors import AnchormemError, InvalidInput
from store.service import MemoryService
from store.sharing import platform
from store.sharing.client import standby_pid
from store.sharing.codec import decode, encode, encode_error
from store.sharing.protocol import PROTOCOL, Files, read_key, recv, send, version

if TYPE_CHECKING:  # the MCP SDK is imported with the first session (``Owner._sdk``)
    from server.app import ToolServer
    from server.direct import DirectAnswers

__all__ = ["CALLS", "main"]

CALLS = frozenset(OPERATIONS)  # a client's calls; its CLI's commands: ``COMMANDS``
_LOCK_WAIT_S = 5.0  # an owner that is stopping holds the lock this long at most
_TICK_S = 0.2
_STANDBY_RETRY_S = 5.0
_LINK_ERRORS = (OSError, EOFError, AuthenticationError, ValueError)


def _say(message: str) -> None:
    print(f"anchormem: {message}", file=sys.stderr, flush=True)


class Owner:
    def __init__(self, settings: Settings, idle_s: float) -> None:
        self.settings = settings
        self.files = Files(settings.db)
        self.idle_s = idle_s
        self.stopping = threading.Event()  # stop accepting; answer what is in flight
        self.runtime: Runtime | None = None
        self.ready = threading.Event()
        self.failure: str | None = None
        self._mutex = threading.Lock()
        self._services: dict[tuple[tuple[str, str], ...], MemoryService] = {}
        self._connections: dict[int, int] = {}  # id(conn) -> the client's pid
        self._threads: list[threading.Thread] = []
        self._in_flight = 0
        self._idle_since = time.monotonic()
        self.calls = 0
        self.relayed = 0  # calls answered in the sessions of serving processes
        self._answerer = Answerer()  # runs the sessions' hot calls, one at a time
        self._parts: tuple[ToolServer, DirectAnswers] | None = None
        self._parts_lock = threading.Lock()
        self.started = time.time()
        self.key = b""
        self.listener: Listener | None = None  # Windows' named pipe
        self._socket: socket.socket | None = None  # elsewhere
        self._bound: tuple[int, int] | None = None  # the socket file we made
        self._lock_identity: tuple[int, int] | None = None
        self.address: Any = None
        self.family = ""
        self._standby: subprocess.Popen[bytes] | None = None
        self._forked: int | None = None  # the pid of the standby forked at start
        self._wants_standby = False  # decided once the lock is held (``standby_wanted``)
        self._standby_tried = -_STANDBY_RETRY_S
        self._ready_at = time.monotonic()

    # -- life -------------------------------------------------------------------------
    def run(self, standby: Standby | None = None, replacing: str | None = None) -> int:
        """``standby``: this process is the standby holding that claim (``server.standby``):
        wait, preloaded, for the running owner to die, and take over then; exit when it
        stops cleanly. ``replacing``: started to
        replace a killed owner (its info file was there): if that file is gone once we
        hold the lock, another owner took over and stopped cleanly meanwhile (a stop
        was asked for), so this one exits instead of opening the store after it."""
        lock_fd = self.files.open_lock(self.files.owner_lock)
        if standby is not None:
            if not self._wait_as_standby(lock_fd, standby):
                os.close(lock_fd)
                return 0
        else:
            deadline = time.monotonic() + _LOCK_WAIT_S
            while not platform.lock(lock_fd):
                if time.monotonic() > deadline:
                    os.close(lock_fd)
                    return 0  # another owner runs: the client that started us connects to it
                time.sleep(0.01)
            if replacing is not None and self.files.read_info() is None:
                platform.unlock(lock_fd)
                os.close(lock_fd)
                return 0
        # A standby only where one has paid (adr/0016): by default, once an owner was killed.
        killed_before = standby is not None or replacing is not None
        self._wants_standby = standby_wanted(self.settings, killed_before)
        if self._wants_standby:
            self._forked = fork_standby(lock_fd, self.files, self._as_forked_standby)
        self._lock_identity = identity(self.files.owner_lock)
        try:
            self.key = read_key(self.files, create=True)
            self._answerer.start()
            self._listen()
            acceptor = threading.Thread(target=self._accept, name="owner-accept", daemon=True)
            acceptor.start()
            try:
                self.runtime = open_runtime(self.settings)
                # warming (the copy read at once: a call is coming), the idle drain
                self.runtime.start_background(load_now=True)
            except AnchormemError as exc:
                self.failure = str(exc)
                _say(f"cannot open the store: {exc}")
            self.ready.set()
            if self.failure is None:
                took = time.process_time()
                _say(f"owner {os.getpid()} ready: {took:.2f} s of CPU since it started")
                self._wait_until_done()
            self._stop_accepting()
            self._finish_calls()
            self._answerer.close()
            if self.runtime is not None:
                self.runtime.close()
            return 0 if self.failure is None else 1
        finally:
            info = self.files.read_info()
            if info is not None and info.get("pid") == os.getpid():
                self.files.info.unlink(missing_ok=True)
            platform.unlock(lock_fd)
            os.close(lock_fd)

    def _wait_as_standby(self, lock_fd: int, waiting: Standby) -> bool:
        """Wait as the standby holding ``waiting``'s claim; whether to go on as the owner."""
        try:
            took = preload()
            _say(f"standby {os.getpid()} waiting (preloaded in {took:.2f} s)")
            if not waiting.wait(lock_fd, self.stopping.is_set):
                return False
        finally:
            waiting.release()
        _say(f"standby {os.getpid()} takes over the store: its owner died")
        return True

    def _as_forked_standby(self, waiting: Standby) -> int:
        """The life of the standby this owner forked (``fork_standby``): an owner of its
        own, waiting as the standby holding ``waiting``."""
        owner = Owner(self.settings, self.idle_s)
        _stop_on_signals(owner)
        return owner.run(standby=waiting)

    def _keep_a_standby(self) -> None:
        """Start a standby when this owner keeps one (``standby_wanted``) and none waits
        (the forked one is gone, or none could be forked), once this owner has served for
        ``standby_after_s`` and while a client is connected (at most once per
        ``_STANDBY_RETRY_S``)."""
        if self._forked is not None:  # reap it once it has exited: no zombie left
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self._forked, os.WNOHANG)[0] == 0:
                    return
            self._forked = None
        if not self._wants_standby or self.stopping.is_set():
            return
        if time.monotonic() - self._ready_at < self.settings.standby_after_s:
            return  # the first seconds: this owner's start and first calls have the cores
        with self._mutex:
            if not self._connections:
                return  # nobody would wait for a takeover (the next call starts an owner)
        child = self._standby
        if child is not None and child.poll() is None:
            return
        now = time.monotonic()
        if now - self._standby_tried < _STANDBY_RETRY_S or standby_pid(self.files) is not None:
            return
        self._standby_tried = now
        try:
            argv = owner_command(self.settings, "server.standby")
            self._standby = spawn_standby(argv, self.files, str(self.settings.db.parent))
        except OSError as exc:
            _say(f"cannot start a standby: {exc}")

    def _listen(self) -> None:
        family, address = platform.listen_address(self.settings.db)
        if family == "AF_PIPE":  # pragma: no cover - Windows
            self.listener = Listener(address, family)
            self.family, self.address = family, self.listener.address
        else:
            self.family, self.address, self._socket = family, *_bind(family, address)
            if family == "AF_UNIX":
                self._bound = identity(Path(self.address))
        self.files.write_info(
            {
                "pid": os.getpid(),
                "family": family,
                "address": self.address,
                "protocol": PROTOCOL,
                "version": version(),
                "started": self.started,
            }
        )

    def _wait_until_done(self) -> None:
        self._ready_at = time.monotonic()
        self._keep_a_standby()
        while not self.stopping.wait(_TICK_S):
            self._keep_a_standby()
            if not self._files_are_ours():
                _say("the store's folder was removed or replaced: stopping")
                return
            with self._mutex:
                idle = not self._connections and self._in_flight == 0
                if not idle:
                    self._idle_since = time.monotonic()
                elif time.monotonic() - self._idle_since >= self.idle_s:
                    _say(f"no client for {self.idle_s:g} s: stopping")
                    return

    def _stop_accepting(self) -> None:
        self.stopping.set()
        listener, self.listener = self.listener, None
        if listener is not None:  # pragma: no cover - Windows
            # Wake the accepting thread (closing does not interrupt accept()).
            with contextlib.suppress(*_LINK_ERRORS):
                Client(self.address, family=self.family).close()
            listener.close()
        sock, self._socket = self._socket, None
        if sock is None:
            return
        if self.family == "AF_UNIX" and self._bound is not None:
            # Only our own socket file: a folder removed and made again under a running
            # owner may hold the socket of the next owner by now.
            with contextlib.suppress(OSError):
                if identity(Path(self.address)) == self._bound:
                    Path(self.address).unlink()
        sock.close()

    def _files_are_ours(self) -> bool:
        """Whether the owner lock we hold is still the file at its path (the folder was not
        removed under us): if not, another owner may start there, so this one stops."""
        return self._lock_identity is not None and (
            identity(self.files.owner_lock) == self._lock_identity
        )

    def _finish_calls(self) -> None:
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline:
            with self._mutex:
                if self._in_flight == 0:
                    return
            time.sleep(0.01)

    # -- connections --------------------------------------------------------------------
    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn = self._next_connection()
            except TimeoutError:
                continue
            except _LINK_ERRORS:
                if self.stopping.is_set():
                    return
                continue
            if conn is None:
                return
            if self.stopping.is_set():
                conn.close()
                return
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            thread.start()

    def _next_connection(self) -> Connection | None:
        sock = self._socket
        if sock is not None:
            accepted, _ = sock.accept()  # times out every tick: the loop sees a stop
            accepted.setblocking(True)
            return Connection(accepted.detach())
        listener = self.listener  # pragma: no cover - Windows
        return listener.accept() if listener is not None else None

    def _serve(self, conn: Connection) -> None:
        try:
            deliver_challenge(conn, self.key)
            answer_challenge(conn, self.key)
            hello = recv(conn)
            if hello.get("relay") is True and hello.get("admin") is not True:
                self._sdk()  # loaded before the hello is answered: it is the session's
            service = self._hello(conn, hello)
            if service is None:
                return
            if service is not _ADMIN:
                with self._mutex:
                    self._connections[id(conn)] = int(hello.get("pid") or 0)
            try:
                if service is not _ADMIN and hello.get("relay") is True:
                    self._session(conn, service)
                    return
                while not self.stopping.is_set():
                    message = recv(conn)
                    with self._mutex:
                        if self.stopping.is_set():  # not started: the next owner runs it
                            send(conn, {"ok": False, "retry": True})
                            return
                        self._in_flight += 1
                    try:
                        send(conn, self._answer(service, message))
                    finally:
                        with self._mutex:
                            self._in_flight -= 1
                            self.calls += 1
            finally:
                with self._mutex:
                    self._connections.pop(id(conn), None)
                    self._idle_since = time.monotonic()
        except _LINK_ERRORS:
            pass  # the client went away (or failed the key's challenge)
        finally:
            conn.close()

    def _session(self, conn: Connection, service: MemoryService) -> None:
        """A serving process's MCP session (``server.sessions``): this thread receives its
        frames; the SDK's session answers them, and the answering thread the hot calls."""
        from server.sessions import Session

        server, direct = self._sdk()
        Session(
            conn,
            service,
            server,
            direct,
            functools.partial(self._answerer.submit, conn),
            self.stopping,
            self._count_call,
        ).run()

    def _count_call(self, change: int) -> None:
        """A session's call started (+1) or answered (-1)."""
        with self._mutex:
            self._in_flight += change
            if change < 0:
                self.calls += 1
                self.relayed += 1

    def _sdk(self) -> tuple[ToolServer, DirectAnswers]:
        """The sessions' server and the direct answers, built for the first session: an
        owner started by the CLI never imports the MCP SDK, a second or more of its
        start-up (adr/0017)."""
        with self._parts_lock:  # not ``_mutex``: the other connections go on meanwhile
            if self._parts is None:
                from server.app import build_server
                from server.direct import DirectAnswers

                server = build_server(self.settings)
                self._parts = server, DirectAnswers(server)
            return self._parts

    def _hello(self, conn: Connection, hello: dict[str, Any]) -> MemoryService | None:
        mine = {"protocol": PROTOCOL, "version": version(), "pid": os.getpid()}
        if hello.get("op") != "hello" or hello.get("protocol") != PROTOCOL:
            theirs = hello.get("protocol") if hello.get("op") == "hello" else None
            if isinstance(theirs, int) and theirs > PROTOCOL:
                _say(f"a newer client (protocol {theirs}) takes the store over")
                send(conn, {"ok": False, **mine, "error": "newer client"})
                self._stop_when_asked(conn)
                return None
            send(conn, {"ok": False, **mine, "error": "a different protocol"})
            return None
        if not self.ready.wait(max(self.settings.lock_wait_s, 1.0) + 5.0):
            send(conn, {"ok": False, **mine, "error": "the store is still opening"})
            return None
        if self.failure is not None:
            send(conn, {"ok": False, **mine, "error": self.failure})
            return None
        if hello.get("admin") is True:  # status and stop only (doctor, a stopping client)
            send(conn, {"ok": True, **mine})
            return _ADMIN
        mine_repo = str(self.settings.repo) if self.settings.repo else None
        if hello.get("repo") != mine_repo:
            send(conn, {"ok": False, **mine, "error": f"the store is served for {mine_repo}"})
            return None
        try:
            service = self._service(hello.get("env"))
        except AnchormemError as exc:
            send(conn, {"ok": False, **mine, "error": str(exc)})
            return None
        send(conn, {"ok": True, **mine})
        return service

    def _stop_when_asked(self, conn: Connection) -> None:
        try:
            if conn.poll(5.0) and recv(conn).get("op") == "stop":
                self.stopping.set()
        except _LINK_ERRORS:
            pass

    def _service(self, env: object) -> MemoryService:
        if not isinstance(env, dict) or not all(
            isinstance(k, str) and k.startswith("ANCHORMEM_") and isinstance(v, str)
            for k, v in env.items()
        ):
            raise InvalidInput("a client sent malformed settings")
        key = tuple(sorted(env.items()))
        with self._mutex:
            found = self._services.get(key)
            if found is not None:
                return found
        assert self.runtime is not None
        theirs = Settings.resolve(str(self.settings.repo or ""), str(self.settings.db), env=env)
        made = MemoryService(
            self.runtime.db,
            self.runtime.code,
            service_settings(theirs),
            self.runtime.service.activity,  # background work steps aside for every client
        )
        with self._mutex:
            return self._services.setdefault(key, made)

    def _answer(self, service: MemoryService, message: dict[str, Any]) -> dict[str, Any]:
        op = message.get("op")
        try:
            if service is _ADMIN and op not in ("status", "stop"):
                raise InvalidInput("this connection may only ask for the status or a stop")
            if op == "call":
                return {"ok": True, "result": encode(self._call(service, message))}
            if op == "tool":  # rendered here: the client relays it (plain JSON)
                method, detail = str(message.get("method")), message.get("detail") is True
                shown = tool_content(method, self._call(service, message), detail)
                result = {"model": shown.model, "structured": shown.structured, "text": shown.text}
                return {"ok": True, "result": result}
            if op == "cli":
                return {"ok": True, "result": self._cli(service, message)}
            if op == "status":
                return {"ok": True, "result": self.status()}
            if op == "stop":
                self.stopping.set()
                return {"ok": True, "result": None}
            raise InvalidInput(f"unknown request {str(op)[:40]!r}")
        except AnchormemError as exc:
            return {"ok": False, "error": encode_error(exc)}
        except Exception as exc:  # a bug: logged here, one line for the client
            traceback.print_exc(file=sys.stderr)
            return {"ok": False, "error": encode_error(exc)}

    def _call(self, service: MemoryService, message: Mapping[str, Any]) -> object:
        method = message.get("method")
        if method not in CALLS:
            raise InvalidInput(f"unknown call {str(method)[:40]!r}")
        args = decode(message.get("args") or [])
        kwargs = decode(message.get("kwargs") or {})
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            raise InvalidInput("malformed call arguments")
        return getattr(service, str(method))(*args, **kwargs)

    def _cli(self, service: MemoryService, message: Mapping[str, Any]) -> Any:
        command = COMMANDS.get(str(message.get("command")))
        given = message.get("args")
        if command is None or not isinstance(given, dict):
            raise InvalidInput(f"unknown command {str(message.get('command'))[:40]!r}")
        return command.run(service, given)

    def status(self) -> dict[str, Any]:
        with self._mutex:
            return {
                "pid": os.getpid(),
                "version": version(),
                "protocol": PROTOCOL,
                "clients": len(set(self._connections.values())),
                "connections": len(self._connections),
                "calls": self.calls,
                "relayed": self.relayed,
                "started": self.started,
                "transport": self.family,
                "locks": platform.LOCKS,
                "standby": standby_pid(self.files),  # its pid, or None
            }


_ADMIN = cast(MemoryService, object())  # the "service" of a connection for status and stop


def _bind(family: str, address: Any) -> tuple[Any, socket.socket]:
    """A listening socket (AF_UNIX created 0600, replacing the file a killed owner left:
    we hold the owner lock) and its address."""
    if family == "AF_UNIX":
        Path(address).unlink(missing_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(address)
        finally:
            os.umask(old)
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(tuple(address))
    sock.listen(128)
    sock.settimeout(_TICK_S)
    bound = sock.getsockname()
    return (bound if family == "AF_UNIX" else list(bound)), sock


def _stop_on_signals(owner: Owner) -> None:
    def on_signal(_signum: int, _frame: object) -> None:
        owner.stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)


def main(argv: Sequence[str] | None = None, standby: Standby | None = None) -> int:
    """``standby``: run as the standby holding that claim (``server.standby.main``)."""
    parser = argparse.ArgumentParser(prog="python -m server.owner")
    parser.add_argument("--db", required=True)
    parser.add_argument("--repo")
    parser.add_argument("--replacing", metavar="PID", help="the killed owner this one replaces")
    args = parser.parse_args(argv)
    try:
        settings = Settings.resolve(args.repo, args.db)
    except AnchormemError as exc:
        _say(str(exc))
        return 1
    owner = Owner(settings, settings.owner_idle_s)
    _stop_on_signals(owner)
    if standby is None:
        _say(f"owner {os.getpid()} of {settings.db.name} started")
    try:
        return owner.run(standby=standby, replacing=args.replacing)
    except Exception as exc:  # a bug: its traceback in the log, one line for the client
        traceback.print_exc(file=sys.stderr)
        _say(f"the store's owner failed ({type(exc).__name__}: {exc})")
        return 1


if __name__ == "__main__":
    sys.exit(main())
