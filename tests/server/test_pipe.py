"""``anchormem serve`` as a pipe to the store's owner (server/pipe.py, server/sessions.py,
adr/0035), and the owner's direct answers to the hot tools (server/direct.py, adr/0017),
through real processes: ``anchormem serve`` started as a client starts it, spoken to one
JSON-RPC line at a time. What the agent gets must be what a serving process's own SDK
server gives for the same frame (``ANCHORMEM_RELAY=0``); what the direct path cannot
answer exactly goes to the session's SDK server; when the owner dies the session goes on
with the next one, every request answered once, none run twice."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import build_server
from server.config import Settings
from server.direct import DirectAnswers
from server.runtime import open_runtime
from store.limits import MAX_TEXT_CHARS
from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from tests.conftest import GitRepo, settings_env
from tests.server.test_sharing import owner_pid, store

SCRIPT = str(Path(sys.executable).with_name("anchormem"))
VERSION = "2025-06-18"


@pytest.fixture
def owner_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for key in [k for k in os.environ if k.startswith("ANCHORMEM_") and k != "ANCHORMEM_HOME"]:
        monkeypatch.delenv(key)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_HOME"] = os.environ["ANCHORMEM_HOME"]
    return {**env, "ANCHORMEM_OWNER_IDLE": "2", "ANCHORMEM_LOCK_WAIT": "20"}


class Lines:
    """``anchormem serve`` spoken to one JSON-RPC line at a time."""

    def __init__(self, repo: GitRepo, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [SCRIPT, "serve"], cwd=repo.root, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._id = 0
        answer = self.request("initialize", {
            "protocolVersion": VERSION, "capabilities": {},
            "clientInfo": {"name": "relay-test", "version": "0"},
        })  # fmt: skip
        assert answer["result"]["protocolVersion"] == VERSION
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        self.send({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        return self.answer(self._id)

    def answer(self, wanted: int) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its stdout"
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == wanted and "method" not in message:
                return message

    def answers(self, wanted: set[int]) -> dict[int, dict[str, Any]]:
        """The answers to ``wanted``, in whatever order they come."""
        assert self.process.stdout is not None
        found: dict[int, dict[str, Any]] = {}
        while set(found) != wanted:
            line = self.process.stdout.readline()
            assert line, "the server closed its stdout"
            message: dict[str, Any] = json.loads(line)
            if message.get("id") in wanted and "method" not in message:
                found[message["id"]] = message
        return found

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = self.request("tools/call", {"name": tool, "arguments": arguments})
        result: dict[str, Any] = answer["result"]
        return result

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture
def servers(project: GitRepo, owner_env: dict[str, str]) -> Iterator[tuple[Lines, Lines]]:
    """Two servers on one store: the first with the fast path (the default), the second
    without it (``ANCHORMEM_RELAY=0``): the SDK's server answers every frame there."""
    fast = Lines(project, owner_env)
    sdk = Lines(project, {**owner_env, "ANCHORMEM_RELAY": "0"})
    yield fast, sdk
    fast.close()
    sdk.close()
    OwnerLink(Files(store(project)), None, env=settings_env(), wait_s=20, version="t").stop_owner()


def stop_owner(repo: GitRepo) -> None:
    OwnerLink(Files(store(repo)), None, env=settings_env(), wait_s=20, version="t").stop_owner()


def wait_dead(pid: int, within: float) -> None:
    """Until ``pid`` has exited: gone, or a zombie (the owner is the serving process's
    child, reaped only when that one exits)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} still runs after {within} s")


def relayed(repo: GitRepo) -> int:
    status = OwnerLink(
        Files(store(repo)), None, env=settings_env(), wait_s=20, version="t"
    ).status()
    assert status is not None
    return int(status["relayed"])


def shape(value: Any) -> Any:
    """A result with every value replaced by its type: what two calls about different
    notes share."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return type(value).__name__


def test_relayed_answers_are_the_answers_the_sdk_server_gives_for_the_same_frames(
    project: GitRepo, servers: tuple[Lines, Lines]
) -> None:
    fast, sdk = servers
    sdk.call("remember", {"text": "Billing posts charges with httpx", "subject": "billing"})
    wait_relay(fast, project)
    before = relayed(project)
    same = [
        ("recall", {"query": "billing httpx"}),
        ("recall", {"query": "billing httpx", "detail": True}),
        ("recall", {"query": "billing", "limit": 0}),  # refused by the argument model
        ("recall", {"query": "billing", "limit": "3"}),  # a number given as a string
        ("remember", {"text": "Billing retries twice", "kind": "rumour"}),  # refused
        ("remember", {"text": "x" * (MAX_TEXT_CHARS + 1)}),  # refused: over the limit
        ("remember", {"anchors": ["dep:httpx"]}),  # refused: no text
    ]
    for tool, arguments in same:
        assert fast.call(tool, arguments) == sdk.call(tool, arguments), (tool, arguments)
    made_fast = fast.call("remember", {"text": "Store imports duckdb", "subject": "store/db.py"})
    made_sdk = sdk.call("remember", {"text": "Auth reads JWT_SECRET", "subject": "auth/jwt.py"})
    for made in (made_fast, made_sdk):
        assert made["structuredContent"]["status"] == "VERIFIED"
        assert made["structuredContent"]["outcome"] == "stored"
    assert shape(made_fast) == shape(made_sdk)
    # Every frame of the fast server was answered by the owner; none of the other's.
    assert relayed(project) - before == len(same) + 1


def wait_relay(server: Lines, repo: GitRepo, within: float = 10.0) -> None:
    """The relay connects in the background after the handshake: a recall, until the
    owner counts one more relayed."""
    before = relayed(repo)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        server.call("recall", {"query": "warm"})
        if relayed(repo) > before:
            return
        time.sleep(0.05)
    raise AssertionError(f"no call was relayed within {within} s")


def test_frames_the_owner_cannot_answer_exactly_are_declined_and_nothing_is_run(
    project: GitRepo, tmp_path: Path
) -> None:
    settings = Settings.resolve(
        repo=str(project.root), db=str(tmp_path / "m.duckdb"), env=settings_env()
    )
    direct = DirectAnswers(build_server(settings))
    runtime = open_runtime(settings)
    try:
        service = runtime.service

        def frame(method: str, params: dict[str, Any] | None, **extra: Any) -> bytes:
            body = {"jsonrpc": "2.0", "id": 7, "method": method, **extra}
            if params is not None:
                body["params"] = params
            return json.dumps(body).encode() + b"\n"

        remember = {"name": "remember", "arguments": {"text": "Auth reads JWT_SECRET"}}
        retract = {"name": "retract", "arguments": {"id": "m", "reason": "r"}}
        modern = {**remember, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
        declined = [
            (frame("tools/call", remember), "2026-07-28"),  # a session of the other era
            (frame("tools/call", remember), "1999-01-01"),  # no such version
            (frame("tools/call", modern), VERSION),  # an envelope of the other era
            (frame("tools/call", retract), VERSION),  # not a relayed tool
            (frame("tools/list", {}), VERSION),
            (frame("tools/call", {"arguments": {}}), VERSION),  # no name: a protocol error
            (b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n', VERSION),
            (b"{not json\n", VERSION),
        ]
        for raw, version in declined:
            assert direct.answer(raw, version, service) is None, raw
        assert service.list_memories().readings == ()  # none of them ran

        answered = direct.answer(frame("tools/call", remember), VERSION, service)
        assert answered is not None and answered.endswith(b"\n")
        message = json.loads(answered)
        assert message["id"] == 7 and message["result"]["isError"] is False
        assert message["result"]["structuredContent"]["status"] == "VERIFIED"
        assert len(service.list_memories().readings) == 1
    finally:
        runtime.close()


def test_relayed_calls_in_flight_at_the_end_of_input_are_answered_before_exit(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    server = Lines(project, owner_env)
    wait_relay(server, project)
    before = relayed(project)
    texts = [f"Release step {i} is signed off by the release lead" for i in range(5)]
    for i, text in enumerate(texts, start=100):
        server.send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                     "params": {"name": "remember", "arguments": {"text": text}}})  # fmt: skip
    assert server.process.stdin is not None
    server.process.stdin.close()  # at once: the answers are still owed
    assert server.process.stdout is not None
    answers = [json.loads(line) for line in server.process.stdout.read().splitlines()]
    assert server.process.wait(timeout=30) == 0
    outcomes = {a["id"]: a["result"]["structuredContent"]["outcome"] for a in answers}
    assert outcomes == {i: "stored" for i in range(100, 105)}
    assert relayed(project) - before == len(texts)
    OwnerLink(Files(store(project)), None, env=settings_env(), wait_s=20, version="t").stop_owner()


def test_a_call_relayed_to_a_killed_owner_is_answered_by_the_next_one_and_the_relay_resumes(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    env = {**owner_env, "ANCHORMEM_OWNER_STANDBY": "0"}
    server = Lines(project, env)
    try:
        wait_relay(server, project)
        first = server.call("remember", {"text": "Search indexes products nightly"})
        killed = owner_pid(project)
        os.kill(killed, signal.SIGKILL)
        wait_dead(killed, within=10)
        # The relay's frame meets a dead owner: it goes to the SDK server, whose link
        # starts the next owner and sends it there.
        after = server.call("remember", {"text": "Search reindexes products on deploy"})
        assert after["isError"] is False, after
        found = server.call("recall", {"query": "search products", "limit": 10})
        ids = {m["id"] for m in found["structuredContent"]["memories"]}
        assert {first["structuredContent"]["id"], after["structuredContent"]["id"]} <= ids
        assert owner_pid(project) != killed
        wait_relay(server, project)  # the relay connected again, to the new owner
    finally:
        server.close()
        link = OwnerLink(Files(store(project)), None, env=settings_env(), wait_s=20, version="t")
        link.stop_owner()


def test_a_server_served_by_the_owner_never_loads_the_store(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    # Its calls are the owner's (adr/0012): DuckDB, numpy and the claim readers are a
    # third of a server's start-up (adr/0021), loaded where a store is opened.
    for env in (owner_env, {**owner_env, "ANCHORMEM_RELAY": "0"}):  # relayed, or the SDK's
        server = Lines(project, env)
        made = server.call("remember", {"text": "The store layer opens DuckDB in store/db.py"})
        assert not made.get("isError"), made
        assert not server.call("recall", {"query": "duckdb"}).get("isError")
        maps = Path(f"/proc/{server.process.pid}/maps").read_text()
        server.close()
        assert "_duckdb" not in maps and "numpy" not in maps
    OwnerLink(Files(store(project)), None, env=settings_env(), wait_s=20, version="t").stop_owner()


def test_an_owner_killed_mid_session_leaves_every_request_answered_once(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    """Requests the owner had received but not answered when it died: the ones that may
    run twice are answered by the next owner; a call that may not (``observe``) is
    answered with an error saying it may or may not have been done. The session goes on
    (the handshake is sent again, its answer never reaches the client)."""
    env = {**owner_env, "ANCHORMEM_OWNER_STANDBY": "0"}
    server = Lines(project, env)
    try:
        made = server.call("remember", {"text": "Search indexes products nightly"})
        memory = made["structuredContent"]["id"]
        owner = owner_pid(project)
        os.kill(owner, signal.SIGSTOP)  # what is sent now is received, never answered
        server.send({"jsonrpc": "2.0", "id": 50, "method": "tools/call",
                     "params": {"name": "recall", "arguments": {"query": "search"}}})  # fmt: skip
        server.send({"jsonrpc": "2.0", "id": 51, "method": "tools/call",
                     "params": {"name": "observe",
                                "arguments": {"id": memory, "confirms": True,
                                              "note": "seen in the cron table"}}})  # fmt: skip
        server.send({"jsonrpc": "2.0", "id": 52, "method": "tools/list"})
        os.kill(owner, signal.SIGKILL)
        wait_dead(owner, within=10)
        answers = server.answers({50, 51, 52})
        recalled = answers[50]["result"]["structuredContent"]["memories"]
        assert [m["id"] for m in recalled] == [memory]
        cut = answers[51]["result"]
        assert cut["isError"] is True and "may or may not have been done" in str(cut)
        assert {t["name"] for t in answers[52]["result"]["tools"]} >= {"remember", "recall"}
        assert owner_pid(project) != owner
        after = server.call("remember", {"text": "Search reindexes on deploy"})
        assert after["isError"] is False
    finally:
        assert server.process.stdin is not None
        server.process.stdin.close()
        assert server.process.stdout is not None
        rest = [json.loads(line) for line in server.process.stdout.read().splitlines()]
        server.process.wait(timeout=30)
        OwnerLink(
            Files(store(project)), None, env=settings_env(), wait_s=20, version="t"
        ).stop_owner()
    # Nothing but answers to the client's own requests: no second answer to any.
    assert all(str(m.get("id", "")).isdigit() for m in rest), rest


def test_the_serving_process_loads_no_mcp_sdk_and_serves_every_kind_of_request(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    server = Lines(project, owner_env)
    try:
        server.call("remember", {"text": "Billing posts charges with httpx"})
        digest = server.request("resources/read", {"uri": "anchormem://digest"})
        assert "httpx" in digest["result"]["contents"][0]["text"]
        prompts = server.request("prompts/list", {})
        assert prompts["result"]["prompts"]
        assert server.request("ping", {})["result"] == {}
        unknown = server.request("no/such/method", {})
        assert unknown["error"]["code"] == -32601
        maps = Path(f"/proc/{server.process.pid}/maps").read_text()
    finally:
        server.close()
        OwnerLink(
            Files(store(project)), None, env=settings_env(), wait_s=20, version="t"
        ).stop_owner()
    assert "pydantic_core" not in maps and "_duckdb" not in maps


def test_a_session_goes_on_when_its_owner_is_stopped_for_another(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    server = Lines(project, owner_env)
    try:
        made = server.call(
            "remember", {"text": "Invoices are rendered with WeasyPrint", "scope": "external"}
        )
        first = owner_pid(project)
        stop_owner(project)  # as a newer client asks, or `anchormem stop`
        wait_dead(first, within=20)
        found = server.call("recall", {"query": "invoices weasyprint"})
        assert [m["id"] for m in found["structuredContent"]["memories"]] == [
            made["structuredContent"]["id"]
        ]
        assert owner_pid(project) != first
    finally:
        server.close()
        stop_owner(project)


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name
)
def test_a_signal_stops_the_pipe_cleanly_and_its_owner_goes_on(
    project: GitRepo, owner_env: dict[str, str], signum: signal.Signals
) -> None:
    process = subprocess.Popen(
        [SCRIPT, "serve"], cwd=project.root, env=owner_env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdin is not None and process.stdout is not None
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {},
            "clientInfo": {"name": "signal-test", "version": "0"}}}  # fmt: skip
        process.stdin.write(json.dumps(hello).encode() + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        owner = owner_pid(project)
        process.send_signal(signum)
        assert process.wait(timeout=30) == 0
        assert process.stderr is not None
        assert f"anchormem: {signum.name} received; stopping" in process.stderr.read().decode()
        os.kill(owner, 0)  # the owner serves on (it idles out by itself)
    finally:
        if process.poll() is None:
            process.kill()
        stop_owner(project)


def test_an_initialize_cut_off_by_the_owner_is_answered_by_the_next_one(
    project: GitRepo, owner_env: dict[str, str]
) -> None:
    env = {**owner_env, "ANCHORMEM_OWNER_STANDBY": "0"}
    first = Lines(project, env)  # starts the owner
    process = subprocess.Popen(
        [SCRIPT, "serve"], cwd=project.root, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert process.stdin is not None and process.stdout is not None
        owner = owner_pid(project)
        wait_connected(process.pid)  # the second pipe holds its connection to the owner
        os.kill(owner, signal.SIGSTOP)
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": VERSION, "capabilities": {},
            "clientInfo": {"name": "late", "version": "0"}}}  # fmt: skip
        process.stdin.write(json.dumps(hello).encode() + b"\n")
        process.stdin.flush()
        os.kill(owner, signal.SIGKILL)
        wait_dead(owner, within=10)
        answer = json.loads(process.stdout.readline())
        assert answer["id"] == 1 and answer["result"]["protocolVersion"] == VERSION
    finally:
        process.kill()
        process.wait(timeout=30)
        first.process.kill()
        first.process.wait(timeout=30)
        stop_owner(project)


def wait_connected(pid: int, within: float = 20.0) -> None:
    """Until the process ``pid`` holds a socket (its connection to the store's owner)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if any(link.startswith("socket:") for link in _fd_links(pid)):
            return
        time.sleep(0.05)
    raise AssertionError(f"process {pid} holds no socket after {within} s")


def _fd_links(pid: int) -> list[str]:
    """What the open descriptors of ``pid`` point to; one closed while they are listed (a
    file read at start-up) is passed over."""
    links = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):
            links.append(os.readlink(fd))
    return links
