"""The HTTP transport: the bind rule, Host/Origin checks (DNS rebinding), the bearer token,
a real MCP session through the checks, and a reduced run of the loopback load test.

Every byte stays on 127.0.0.0/8. The "non-loopback" server is a real server bound to
127.0.0.2 with ``--exposed``, which applies exactly the rules a non-loopback bind gets
(``check_bind`` decides both the same way; its unit tests cover real non-loopback
addresses without binding them).
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from server import http_security
from server.http_security import (
    GuardMiddleware,
    build_policy,
    check_bind,
    is_loopback_address,
    normalize_host,
    normalize_origin,
    read_token,
)
from store.errors import InvalidInput
from tests.conftest import GitRepo, anchormem_env
from tests.server.conftest import PROJECT

TOKEN = "t0k3n-for-tests-" + "x" * 24
ROOT = Path(__file__).parents[2]


def anchormem() -> str:
    return str(Path(sys.executable).with_name("anchormem"))


def clean_env(**extra: str) -> dict[str, str]:
    env = anchormem_env()
    env.update(extra)
    return env


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    ip: str
    port: int
    good_host: str
    good_origin: str
    token: str | None
    log: Path

    @property
    def url(self) -> str:
        return f"http://{self.ip}:{self.port}/mcp"

    def auth(self) -> list[tuple[str, str]]:
        return [("Authorization", f"Bearer {self.token}")] if self.token else []


def start(repo: Path, log: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [anchormem(), "serve", "--transport", "http", "--port", "0", *args],
            cwd=repo,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=env or clean_env(),
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"http://([\d.]+):(\d+)/mcp", log.read_text())
        if found:
            ip, port = found.group(1), int(found.group(2))
            return Server(proc, ip, port, "", "", None, log)
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()}")
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("the server printed no URL")


def stop(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    root = tmp_path_factory.mktemp("http") / "repo"
    root.mkdir()
    git = GitRepo(root)
    git.commit(PROJECT, "initial project")
    return git


@pytest.fixture(scope="module")
def loopback(repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    server = start(repo.root, tmp_path_factory.mktemp("log") / "loopback.err")
    server.good_host = f"127.0.0.1:{server.port}"
    server.good_origin = f"http://127.0.0.1:{server.port}"
    yield server
    stop(server)


@pytest.fixture(scope="module")
def exposed(repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bound to 127.0.0.2 under the non-loopback rules: token, explicit hosts/origins."""
    server = start(
        repo.root,
        tmp_path_factory.mktemp("log") / "exposed.err",
        "--host",
        "127.0.0.2",
        "--exposed",
        "--token-env",
        "TEST_MCP_TOKEN",
        "--allowed-host",
        "anchormem.test",
        "--allowed-origin",
        "https://anchormem.test",
        env=clean_env(TEST_MCP_TOKEN=TOKEN),
    )
    assert server.ip == "127.0.0.2"
    server.good_host = "anchormem.test"
    server.good_origin = "https://anchormem.test"
    server.token = TOKEN
    yield server
    stop(server)


# -- raw HTTP, so that any header (empty, duplicated, missing) can be sent -------------

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "http-test", "version": "1"},
    },
}


def raw(
    server: Server,
    headers: list[tuple[str, str]],
    *,
    method: str = "POST",
    path: str = "/mcp",
    body: dict[str, Any] | None = INIT,
    version: str = "HTTP/1.1",
) -> tuple[int, dict[str, str], bytes]:
    payload = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} {version}"]
    lines += [f"{name}: {value}" for name, value in headers]
    lines += [
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        f"Content-Length: {len(payload)}",
        "Connection: close",
    ]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload
    with socket.create_connection((server.ip, server.port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):  # Connection: close, so the server ends it
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split()[1])
    parsed = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        parsed[name.strip().lower()] = value.strip()
    return status, parsed, rest


def other_interface_ip() -> str:
    """An address of another interface of this machine (read from the kernel's routing
    table, no traffic), used only as a header value; a private address if none."""
    try:
        lines = Path("/proc/net/fib_trie").read_text().splitlines()
    except OSError:
        lines = []
    for before, line in itertools.pairwise(lines):
        if "/32 host LOCAL" in line:
            address = before.strip().lstrip("|-+ ").strip()
            if address and not is_loopback_address(address):
                return address
    return "10.0.0.5"


IFACE = other_interface_ip()

BAD_HOSTS = [
    "evil.com",
    "evil.com:{port}",
    "127.0.0.1.evil.com",
    "127.0.0.1.evil.com:{port}",
    "localhost.evil.com:{port}",
    "attacker:{port}",
    "",
    "127.0.0.1:{other}",
    "localhost:{other}",
    "[::1]:{other}",
    "127.0.0.1",
    "localhost",
    "0.0.0.0:{port}",
    "{iface}:{port}",
    "192.168.1.10:{port}",
    "127.0.0.1:{port}.evil.com",
    "evil.com:{port}@127.0.0.1",
    "127.0.0.1:{port}@evil.com",
    "2130706433:{port}",
    "127.1:{port}",
    "0x7f000001:{port}",
    "localhost.:{port}",
    "127.0.0.1:0{port}",
    "localhost:{port}:{port}",
    "127.0.0.1:{port}, evil.com",
    "[::ffff:127.0.0.1]:{port}",
    "evil.com#127.0.0.1:{port}",
]

BAD_ORIGINS = [
    "http://evil.com",
    "null",
    "http://127.0.0.1.evil.com",
    "http://127.0.0.1.evil.com:{port}",
    "https://localhost:{port}",
    "https://127.0.0.1:{port}",
    "http://localhost:{other}",
    "http://127.0.0.1",
    "http://localhost",
    "http://evil.com:{port}",
    "http://localhost:{port}.evil.com",
    "file://",
    "http://127.0.0.1:{port}/",
    "http://user@127.0.0.1:{port}",
    "",
    "http://127.0.0.1:{port} http://evil.com",
    "ws://127.0.0.1:{port}",
    "http://[::1]:{other}",
    "http://{iface}:{port}",
    "chrome-extension://abcdefghijklmnop",
]

# Values good on the loopback server but not under the exposed rules.
EXPOSED_ONLY_BAD_HOSTS = [
    "127.0.0.1:{port}",
    "127.0.0.2:{port}",
    "localhost:{port}",
    "anchormem.test:{port}",
    "anchormem.test.evil.com",
    "evil.anchormem.test",
]
EXPOSED_ONLY_BAD_ORIGINS = [
    "http://127.0.0.1:{port}",
    "http://anchormem.test",
    "https://anchormem.test:{port}",
    "https://evil.anchormem.test",
]

SERVERS = ["loopback", "exposed"]


def fill(template: str, server: Server) -> str:
    return template.format(port=server.port, other=server.port + 1, iface=IFACE)


def get(request: pytest.FixtureRequest, kind: str) -> Server:
    server: Server = request.getfixturevalue(kind)
    return server


def bad_host_cases() -> list[Any]:
    cases = [
        pytest.param(kind, h, id=f"{kind}-{h or 'empty'}") for kind in SERVERS for h in BAD_HOSTS
    ]
    cases += [pytest.param("exposed", h, id=f"exposed-{h}") for h in EXPOSED_ONLY_BAD_HOSTS]
    return cases


def bad_origin_cases() -> list[Any]:
    cases = [
        pytest.param(kind, o, id=f"{kind}-{o or 'empty'}") for kind in SERVERS for o in BAD_ORIGINS
    ]
    cases += [pytest.param("exposed", o, id=f"exposed-{o}") for o in EXPOSED_ONLY_BAD_ORIGINS]
    return cases


@pytest.mark.parametrize("kind", SERVERS)
def test_the_good_host_and_origin_pass(request: pytest.FixtureRequest, kind: str):
    server = get(request, kind)
    status, _, _ = raw(server, [("Host", server.good_host), *server.auth()])
    assert status == 200
    status, _, _ = raw(
        server, [("Host", server.good_host), ("Origin", server.good_origin), *server.auth()]
    )
    assert status == 200


@pytest.mark.parametrize(("kind", "host"), bad_host_cases())
@pytest.mark.parametrize(("method", "path"), [("POST", "/mcp"), ("GET", "/")])
def test_a_bad_host_is_rejected(
    request: pytest.FixtureRequest, kind: str, host: str, method: str, path: str
):
    server = get(request, kind)
    status, _, _ = raw(
        server, [("Host", fill(host, server)), *server.auth()], method=method, path=path
    )
    assert status in (400, 421)  # 400: the HTTP parser refused it before the app


@pytest.mark.parametrize("kind", SERVERS)
def test_a_missing_or_doubled_host_is_rejected(request: pytest.FixtureRequest, kind: str):
    server = get(request, kind)
    status, _, _ = raw(server, server.auth(), version="HTTP/1.0")  # 1.0 may omit Host
    assert status in (400, 421)
    doubled = [("Host", server.good_host), ("Host", "evil.com"), *server.auth()]
    assert raw(server, doubled)[0] in (400, 421)


@pytest.mark.parametrize(("kind", "origin"), bad_origin_cases())
@pytest.mark.parametrize(("method", "path"), [("POST", "/mcp"), ("OPTIONS", "/mcp")])
def test_a_bad_origin_is_rejected(
    request: pytest.FixtureRequest, kind: str, origin: str, method: str, path: str
):
    server = get(request, kind)
    headers = [("Host", server.good_host), ("Origin", fill(origin, server)), *server.auth()]
    status, _, _ = raw(server, headers, method=method, path=path)
    assert status in (400, 403)


@pytest.mark.parametrize("kind", SERVERS)
def test_a_doubled_origin_is_rejected(request: pytest.FixtureRequest, kind: str):
    server = get(request, kind)
    headers = [
        ("Host", server.good_host),
        ("Origin", server.good_origin),
        ("Origin", "http://evil.com"),
        *server.auth(),
    ]
    assert raw(server, headers)[0] in (400, 403)


def _sse_result(body: bytes) -> dict[str, Any]:
    for line in body.decode().splitlines():
        if line.startswith("data:"):
            message: dict[str, Any] = json.loads(line[5:])
            return message
    raise AssertionError(f"no SSE data in {body[:200]!r}")


def remember_call(text: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "remember", "arguments": {"text": text}},
    }


@pytest.mark.parametrize("kind", SERVERS)
def test_nothing_gets_through_a_bad_header_even_with_a_live_session(
    request: pytest.FixtureRequest, kind: str
):
    """The whole matrix again, as tool calls on a live session: every one is refused
    (counted), and none of their memories reaches the store."""
    server = get(request, kind)
    good = [("Host", server.good_host), *server.auth()]
    status, headers, _ = raw(server, good)
    assert status == 200
    session = [
        ("Mcp-Session-Id", headers["mcp-session-id"]),
        ("Mcp-Protocol-Version", "2025-06-18"),
    ]
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert raw(server, [*good, *session], body=note)[0] == 202

    bad_hosts = BAD_HOSTS + (EXPOSED_ONLY_BAD_HOSTS if kind == "exposed" else [])
    bad_origins = BAD_ORIGINS + (EXPOSED_ONLY_BAD_ORIGINS if kind == "exposed" else [])
    attempts = refused = 0
    for i, host in enumerate(bad_hosts):
        headers_ = [("Host", fill(host, server)), *server.auth(), *session]
        attempts += 1
        refused += raw(server, headers_, body=remember_call(f"planted {kind} host {i}"))[0] in (
            400,
            421,
        )
    for i, origin in enumerate(bad_origins):
        headers_ = [*good, ("Origin", fill(origin, server)), *session]
        attempts += 1
        refused += raw(server, headers_, body=remember_call(f"planted {kind} origin {i}"))[0] in (
            400,
            403,
        )
    print(f"\n{kind}: {refused}/{attempts} bad Host/Origin requests refused")
    assert refused == attempts

    # The control: the same call with good headers is served, and is the only one stored.
    status, _, body = raw(server, [*good, *session], body=remember_call(f"control {kind}"))
    assert status == 200 and "result" in _sse_result(body)
    recall = {
        "jsonrpc": "2.0",
        "id": 8,
        "method": "tools/call",
        "params": {"name": "recall", "arguments": {"query": "planted", "limit": 100}},
    }
    status, _, body = raw(server, [*good, *session], body=recall)
    assert status == 200
    texts = [m["text"] for m in _sse_result(body)["result"]["structuredContent"]["memories"]]
    assert not [t for t in texts if t.startswith("planted")]


# -- the bearer token ---------------------------------------------------------------------


def test_no_token_gets_401_with_a_bearer_challenge(exposed: Server):
    status, headers, _ = raw(exposed, [("Host", exposed.good_host)])
    assert status == 401
    assert headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer wrong-token-wrong-token-wrong",
        f"Bearer {TOKEN[:-1]}",
        f"Bearer {TOKEN}x",
        f"Basic {TOKEN}",
        TOKEN,
        "Bearer",
        "Bearer ",
        f"Token {TOKEN}",
    ],
)
def test_a_wrong_token_gets_401(exposed: Server, authorization: str):
    status, headers, _ = raw(
        exposed, [("Host", exposed.good_host), ("Authorization", authorization)]
    )
    assert status == 401
    assert headers["www-authenticate"].startswith("Bearer")


def test_two_authorization_headers_get_401(exposed: Server):
    headers = [
        ("Host", exposed.good_host),
        ("Authorization", f"Bearer {TOKEN}"),
        ("Authorization", "Bearer nope"),
    ]
    assert raw(exposed, headers)[0] == 401


def test_the_scheme_is_case_insensitive(exposed: Server):
    status, _, _ = raw(exposed, [("Host", exposed.good_host), ("Authorization", f"bearer {TOKEN}")])
    assert status == 200


def test_a_token_on_a_loopback_bind_turns_auth_on(repo: GitRepo, tmp_path: Path):
    server = start(repo.root, tmp_path / "err", env=clean_env(ANCHORMEM_HTTP_TOKEN=TOKEN))
    try:
        host = [("Host", f"127.0.0.1:{server.port}")]
        assert raw(server, host)[0] == 401
        assert raw(server, [*host, ("Authorization", f"Bearer {TOKEN}")])[0] == 200
        assert "bearer token required" in server.log.read_text()
    finally:
        stop(server)
    assert TOKEN not in server.log.read_text()


def test_the_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch):
    calls: list[tuple[bytes, bytes]] = []
    real = http_security.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(http_security.hmac, "compare_digest", spy)
    policy = build_policy("127.0.0.1", 9, token=TOKEN)
    guard = GuardMiddleware(None, policy)
    host = (b"host", b"127.0.0.1:9")
    assert guard.check([host, (b"authorization", f"Bearer {TOKEN}".encode())]) is None
    refused = guard.check([host, (b"authorization", b"Bearer x")])
    assert refused is not None and refused[0] == 401
    assert len(calls) == 2


# -- real MCP sessions through the checks ---------------------------------------------------


async def _session(url: str, headers: dict[str, str]) -> list[str]:
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        names = sorted(t.name for t in (await client.list_tools()).tools)
        made = await client.call_tool(
            "remember", {"text": "Sessions over HTTP reach the same store"}
        )
        assert not made.is_error and made.structured_content is not None
        found = await client.call_tool("recall", {"query": "sessions over HTTP"})
        assert found.structured_content is not None
        ids = [m["id"] for m in found.structured_content["memories"]]
        assert made.structured_content["id"] in ids
        return names


def test_an_mcp_client_works_on_loopback_without_a_token(loopback: Server):
    names = anyio.run(_session, loopback.url, {})
    assert {"remember", "recall", "retract"} <= set(names)


def test_an_mcp_client_works_with_the_token_and_a_good_host(exposed: Server):
    headers = {"Authorization": f"Bearer {TOKEN}", "Host": exposed.good_host}
    names = anyio.run(_session, exposed.url, headers)
    assert {"remember", "recall", "retract"} <= set(names)


# -- the bind rule ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("127.255.255.254", True),
        ("::1", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.5", False),
        ("192.168.1.10", False),
        ("169.254.1.1", False),
        ("fe80::1", False),
        ("localhost", False),  # names are resolved before the decision; never trusted here
        ("128.0.0.1", False),
    ],
)
def test_what_counts_as_loopback(address: str, loopback: bool):
    assert is_loopback_address(address) is loopback


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "10.0.0.5", "192.168.1.10", "fe80::1"])
def test_a_non_loopback_bind_needs_a_token_and_allowed_hosts(address: str):
    with pytest.raises(InvalidInput, match="token"):
        check_bind(address, token=None, allowed_hosts=["mcp.example.test"])
    with pytest.raises(InvalidInput, match="allowed hosts"):
        check_bind(address, token=TOKEN, allowed_hosts=[])
    assert check_bind(address, token=TOKEN, allowed_hosts=["mcp.example.test"]) is True
    policy = build_policy(address, 8765, token=TOKEN, allowed_hosts=["mcp.example.test"])
    assert policy.exposed and policy.allowed_hosts == {"mcp.example.test"}
    assert policy.allowed_origins == frozenset()
    assert TOKEN not in repr(policy)


def test_a_loopback_bind_needs_nothing_and_gets_loopback_defaults():
    assert check_bind("127.0.0.1", token=None, allowed_hosts=[]) is False
    policy = build_policy("127.0.0.1", 8765, token=None)
    assert not policy.exposed and not policy.auth
    assert {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"} == policy.allowed_hosts
    assert "http://localhost:8765" in policy.allowed_origins
    with pytest.raises(InvalidInput):
        check_bind("127.0.0.1", token=None, allowed_hosts=[], exposed=True)


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--host", "0.0.0.0"], {}),
        (["--host", "::"], {}),
        (["--host", "0.0.0.0"], {"ANCHORMEM_HTTP_TOKEN": TOKEN}),  # no allowed hosts
        (["--host", "0.0.0.0", "--allowed-host", "x.test"], {"OTHER": TOKEN}),  # wrong variable
        (["--exposed"], {}),
        (["--allowed-host", "x.test"], {"ANCHORMEM_HTTP_TOKEN": "short"}),
        (["--allowed-host", "evil.com:99999"], {}),
        (["--allowed-origin", "null"], {}),
        (["--token-env", "NOT-A-NAME"], {}),
    ],
)
def test_the_cli_refuses_an_unsafe_http_configuration(repo: GitRepo, args: list[str], env: dict):
    # Refused before binding: nothing listens on any address, loopback or not.
    done = subprocess.run(
        [anchormem(), "serve", "--transport", "http", "--port", "0", *args],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=clean_env(**env),
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("anchormem: ") and len(done.stderr.splitlines()) == 1
    assert TOKEN not in done.stderr


def test_an_unsafe_http_configuration_is_refused_before_the_server_is_loaded(repo: GitRepo):
    # The refusal comes from the checks alone: neither the MCP SDK nor the server is
    # imported for it (a second or more of a refused start).
    code = (
        "import sys; from server.cli import main\n"
        "print(main(['serve', '--transport', 'http', '--host', '0.0.0.0']))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'mcp' or m == 'server.serve'))"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code],  # -P: not the repository's own packages
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=60,
    )
    assert done.stderr.startswith("anchormem: refusing to serve HTTP"), done.stderr
    assert done.stdout.split() == ["2", "[]"], done.stdout


def test_allowed_hosts_and_origins_come_from_the_environment_too(repo: GitRepo, tmp_path: Path):
    env = clean_env(
        ANCHORMEM_HTTP_TOKEN=TOKEN,
        ANCHORMEM_ALLOWED_HOSTS="mcp.internal, other.internal",
        ANCHORMEM_ALLOWED_ORIGINS="https://mcp.internal",
    )
    server = start(repo.root, tmp_path / "err", "--exposed", env=env)
    try:
        auth = ("Authorization", f"Bearer {TOKEN}")
        assert raw(server, [("Host", "mcp.internal"), auth])[0] == 200
        assert raw(server, [("Host", "other.internal"), auth])[0] == 200
        assert raw(server, [("Host", f"127.0.0.1:{server.port}"), auth])[0] == 421
        good_origin = [("Host", "mcp.internal"), ("Origin", "https://mcp.internal"), auth]
        assert raw(server, good_origin)[0] == 200
    finally:
        stop(server)


@pytest.mark.parametrize(
    ("value", "canonical"),
    [
        ("LocalHost:8765", "localhost:8765"),
        ("127.0.0.1:8765", "127.0.0.1:8765"),
        ("[::1]:8765", "[::1]:8765"),
        ("mcp.example.test", "mcp.example.test"),
    ],
)
def test_host_entries_are_canonical(value: str, canonical: str):
    assert normalize_host(value) == canonical


@pytest.mark.parametrize(
    "value",
    ["", "evil.com:0", "a:b", "::1", "[::1", "x..y", "-x.test", "127.1", "127.0.0.01", "h:+80"],
)
def test_bad_host_entries_are_refused(value: str):
    with pytest.raises(ValueError):
        normalize_host(value)


@pytest.mark.parametrize(
    "value", ["null", "evil.com", "ftp://x.test", "http://x.test/", "http://u@x.test", "http://"]
)
def test_bad_origin_entries_are_refused(value: str):
    with pytest.raises(ValueError):
        normalize_origin(value)


def test_the_token_is_taken_out_of_the_environment():
    env = {"MY_TOKEN": TOKEN, "OTHER": "1"}
    assert read_token("MY_TOKEN", env) == TOKEN
    assert "MY_TOKEN" not in env
    assert read_token("MY_TOKEN", env) is None
    with pytest.raises(InvalidInput):
        read_token("MY_TOKEN", {"MY_TOKEN": "has a space in it, sixteen+"})


# -- load, reduced ---------------------------------------------------------------------------


@pytest.mark.slow  # ~11 s; the HTTP tests above cover every request path once
def test_the_load_test_runs_with_no_errors(tmp_path: Path):
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "load_http.py"),
            "--clients",
            "2",
            "--duration",
            "2",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["errors"] == 0 and summary["lost"] == 0
    assert summary["requests"] > 0
    assert summary["p50_ms"] > 0 and summary["p99_ms"] >= summary["p50_ms"]
    assert "requests served" in done.stdout and "p99" in done.stdout
