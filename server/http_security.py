"""Who may talk to the HTTP transport: the bind rule, Host/Origin checks, the bearer token.

* Loopback binds (127.0.0.0/8, ::1, ``localhost``) need nothing: without a token auth is
  off, and only the loopback Host names at the bound port (``127.0.0.1:P``,
  ``localhost:P``, ``[::1]:P`` and the bound address) and their ``http://`` origins are
  accepted. Any local process can then use the server: set a token on shared machines.
* Any other bind — or any bind with ``exposed`` (a reverse proxy in front) — is refused
  unless a bearer token is configured and the allowed Host values are given explicitly;
  only those hosts, and only the origins given, are accepted.
* Every request, on every path and method, must carry exactly one Host header that is
  allowed (else 421), at most one Origin header that is allowed (else 403; a request
  without Origin — any non-browser client — passes), and, with a token, exactly one
  ``Authorization: Bearer <token>`` (else 401 with ``WWW-Authenticate: Bearer``).
  Values are compared exactly (ASCII case folded): no wildcards, no suffix matching.

The token comes from an environment variable (``--token-env NAME``, default
``ANCHORMEM_HTTP_TOKEN``), never from a command-line value that ``ps`` would show; it is
removed from the environment once read so that child processes (git) do not inherit it,
and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import os
import re
import socket
from collections.abc import Iterable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from store.errors import InvalidInput

__all__ = [
    "DEFAULT_TOKEN_ENV",
    "MIN_TOKEN_CHARS",
    "GuardMiddleware",
    "HttpPolicy",
    "build_policy",
    "check_bind",
    "is_loopback_address",
    "normalize_host",
    "normalize_origin",
    "read_token",
    "refuse_unsafe",
    "resolve_host",
    "uvicorn_config",
]

log = logging.getLogger("anchormem.http")

DEFAULT_TOKEN_ENV = "ANCHORMEM_HTTP_TOKEN"
MIN_TOKEN_CHARS = 16

_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TOKEN = re.compile(r"^[\x21-\x7e]+$")  # visible ASCII: what a header can carry unchanged
_REALM = 'Bearer realm="anchormem"'
_LOGGED_REFUSALS = 100  # then silence: refused requests must not flood stderr


def is_loopback_address(address: str) -> bool:
    """True for an IP literal in 127.0.0.0/8 or ::1 (IPv4-mapped too); names are not."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback


def _host_part(host: str) -> str:
    """The host of a Host value or origin, validated and lower-cased (IPv6 bracketed)."""
    if host.startswith("["):
        if not host.endswith("]"):
            raise ValueError("unclosed [")
        ipaddress.IPv6Address(host[1:-1])
        return host.lower()
    try:
        return str(ipaddress.IPv4Address(host))
    except ValueError:
        pass
    name = host.lower()
    if len(name) > 253 or not all(_LABEL.match(label) for label in name.split(".")):
        raise ValueError("not a host name")
    if name.rsplit(".", 1)[-1].isdigit():
        raise ValueError("looks like a malformed address")
    return name


def _split_host_port(value: str) -> tuple[str, str | None]:
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            raise ValueError("unclosed [")
        rest = value[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError("junk after ]")
        return value[: end + 1], (rest[1:] if rest else None)
    if value.count(":") > 1:
        raise ValueError("an IPv6 address must be in brackets")
    host, sep, port = value.partition(":")
    return host, (port if sep else None)


def _port(port: str) -> int:
    if not port.isdigit() or not port.isascii() or len(port) > 5:
        raise ValueError("bad port")
    number = int(port)
    if not 0 < number < 65536:
        raise ValueError("port out of range")
    return number


def normalize_host(value: str) -> str:
    """``host`` or ``host:port`` as a Host header carries it, canonical; ValueError if not."""
    host, port = _split_host_port(value.strip())
    canon = _host_part(host)
    return canon if port is None else f"{canon}:{_port(port)}"


def normalize_origin(value: str) -> str:
    """``http(s)://host[:port]``, canonical; ValueError for anything else (``null``, paths)."""
    scheme, sep, rest = value.strip().partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in ("http", "https"):
        raise ValueError("an origin is http://host[:port] or https://host[:port]")
    if any(c in rest for c in "/?#@\\"):
        raise ValueError("an origin has no path, query or user")
    return f"{scheme}://{normalize_host(rest)}"


def _host_literal(address: str) -> str:
    return f"[{address}]" if ":" in address else address


@dataclass(frozen=True)
class HttpPolicy:
    """What the guard accepts. ``token`` is never shown in a repr."""

    allowed_hosts: frozenset[str]
    allowed_origins: frozenset[str]
    exposed: bool
    token: str | None = field(default=None, repr=False)

    @property
    def auth(self) -> bool:
        return self.token is not None


def read_token(env_name: str, environ: MutableMapping[str, str] | None = None) -> str | None:
    """The bearer token from the environment variable ``env_name`` (removed once read so
    child processes do not inherit it); None when unset or empty."""
    environ = os.environ if environ is None else environ
    if not _ENV_NAME.match(env_name):
        raise InvalidInput(f"--token-env must name an environment variable, not {env_name!r}")
    token = environ.pop(env_name, None) or None
    if token is None:
        return None
    if not _TOKEN.match(token):
        raise InvalidInput(f"the token in {env_name} must be visible ASCII without spaces")
    if len(token) < MIN_TOKEN_CHARS:
        raise InvalidInput(
            f"the token in {env_name} is too short: use at least {MIN_TOKEN_CHARS} characters"
            " (e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return token


def _clean(values: Iterable[str], what: str, normalize: Any) -> list[str]:
    out = []
    for raw in values:
        if not raw.strip():
            continue
        try:
            out.append(normalize(raw))
        except ValueError as exc:
            raise InvalidInput(f"bad allowed {what} {raw[:80]!r}: {exc}") from None
    return out


def check_bind(
    address: str, *, token: str | None, allowed_hosts: Sequence[str], exposed: bool = False
) -> bool:
    """Whether binding ``address`` is exposed (not loopback, or declared so); raises
    InvalidInput when an exposed bind lacks a token or explicit allowed hosts."""
    exposed = exposed or not is_loopback_address(address)
    if not exposed:
        return False
    where = f"non-loopback address {address}" if not is_loopback_address(address) else address
    if token is None:
        raise InvalidInput(
            f"refusing to serve HTTP on {where} without a bearer token: put one in "
            f"{DEFAULT_TOKEN_ENV} (or the variable --token-env names), and list the allowed "
            "Host values with --allowed-host; or bind to 127.0.0.1"
        )
    if not [h for h in allowed_hosts if h.strip()]:
        raise InvalidInput(
            f"refusing to serve HTTP on {where} without allowed hosts: give --allowed-host "
            "HOST[:PORT] (or ANCHORMEM_ALLOWED_HOSTS) with the names clients use"
        )
    return True


def build_policy(
    address: str,
    port: int,
    *,
    token: str | None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    exposed: bool = False,
) -> HttpPolicy:
    """The policy for a server bound to ``address``:``port`` (see the module docstring)."""
    exposed = check_bind(address, token=token, allowed_hosts=allowed_hosts, exposed=exposed)
    hosts = _clean(allowed_hosts, "host", normalize_host)
    origins = _clean(allowed_origins, "origin", normalize_origin)
    if not exposed:
        names = {"127.0.0.1", "localhost", "[::1]", _host_literal(address)}
        hosts += [normalize_host(f"{name}:{port}") for name in sorted(names)]
        origins += [normalize_origin(f"http://{name}:{port}") for name in sorted(names)]
    return HttpPolicy(frozenset(hosts), frozenset(origins), exposed, token)


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


class GuardMiddleware:
    """ASGI middleware enforcing an ``HttpPolicy`` before the wrapped app sees a request."""

    def __init__(self, app: Any, policy: HttpPolicy) -> None:
        self.app = app
        self.policy = policy
        self._token_digest = _digest(policy.token.encode()) if policy.token else None
        self.refused = 0

    def check(self, headers: Sequence[tuple[bytes, bytes]]) -> tuple[int, str, str | None] | None:
        """None to let the request through, else (status, reason, WWW-Authenticate)."""
        hosts: list[bytes] = []
        origins: list[bytes] = []
        auths: list[bytes] = []
        for name, value in headers:
            lname = name.lower()
            if lname == b"host":
                hosts.append(value)
            elif lname == b"origin":
                origins.append(value)
            elif lname == b"authorization":
                auths.append(value)
        if len(hosts) != 1 or hosts[0].decode("latin-1").lower() not in self.policy.allowed_hosts:
            return 421, "Invalid Host header", None
        if origins and (
            len(origins) > 1
            or origins[0].decode("latin-1").lower() not in self.policy.allowed_origins
        ):
            return 403, "Invalid Origin header", None
        if self._token_digest is not None:
            if len(auths) != 1:
                return 401, "Missing bearer token", _REALM
            scheme, _, credential = auths[0].decode("latin-1").strip().partition(" ")
            given = _digest(credential.strip().encode("latin-1"))
            ok = hmac.compare_digest(given, self._token_digest)
            if scheme.lower() != "bearer" or not ok:
                return 401, "Invalid bearer token", f'{_REALM}, error="invalid_token"'
        return None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # websockets are not served (uvicorn runs with ws=none)
            return
        refused = self.check(scope.get("headers", []))
        if refused is None:
            await self.app(scope, receive, send)
            return
        status, reason, challenge = refused
        self.refused += 1
        if self.refused <= _LOGGED_REFUSALS:
            path = repr(scope.get("path", ""))[:80]
            log.warning("refused %s %s: %s", scope.get("method"), path, reason)
        if self.refused == _LOGGED_REFUSALS:
            log.warning("further refused requests are not logged")
        body = f"{reason}\n".encode()
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode()),
        ]
        if challenge is not None:
            headers.append((b"www-authenticate", challenge.encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def resolve_host(host: str, port: int) -> tuple[socket.AddressFamily, str]:
    """The address ``--host`` names, IPv4 first: ``--host localhost`` should mean
    127.0.0.1 where both exist."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise InvalidInput(f"cannot resolve --host {host!r}: {exc}") from None
    family, _, _, _, sockaddr = min(infos, key=lambda info: info[0] != socket.AF_INET)
    return family, str(sockaddr[0])


def refuse_unsafe(
    host: str,
    port: int,
    *,
    token: str | None,
    allowed_hosts: Sequence[str],
    allowed_origins: Sequence[str],
    exposed: bool,
) -> tuple[socket.AddressFamily, str]:
    """The checks ``anchormem serve --transport http`` makes before it binds: an unsafe
    exposure, or any allowed value that is not one, is refused (``InvalidInput``). The
    address to bind is returned. The CLI makes them before the server's imports too (a
    second or more), so a refusal comes at once."""
    family, address = resolve_host(host, port)
    build_policy(
        address,
        port or 1,
        token=token,
        allowed_hosts=allowed_hosts,
        allowed_origins=allowed_origins,
        exposed=exposed,
    )
    return family, address


def uvicorn_config(app: Any, *, lifespan: Literal["on", "off"]) -> Any:
    """uvicorn's settings for anchormem's HTTP servers (``serve --transport http``, the
    inspector): no access lines on stdout, no ``Server`` header, no proxy headers trusted,
    no websockets, a short graceful stop."""
    import uvicorn

    return uvicorn.Config(
        app,
        log_config=None,  # uvicorn's default config logs access lines to stdout
        log_level="warning",
        access_log=False,
        ws="none",
        lifespan=lifespan,
        proxy_headers=False,
        server_header=False,
        timeout_graceful_shutdown=1,
    )
