"""Who may use the inspector, beyond the HTTP transport's Host and Origin checks
(``server.http_security.GuardMiddleware``, applied outside this):

* the **link token**: ``anchormem ui`` prints ``http://127.0.0.1:PORT/?token=T``. A GET
  carrying the right ``token`` is answered with a redirect to the same page without it,
  setting the cookie ``anchormem_ui_PORT`` (HttpOnly, SameSite=Strict), so the token
  leaves the address bar and the history. Any other request needs that cookie, or the
  token as a query parameter (a script's way in); a wrong token or none is refused (403)
  before any page is built.
* the **CSRF token**: every form that changes the store carries a second random value,
  checked by the route (``Access.csrf_ok``) before it calls the service.

Both tokens are random per run (a restart invalidates old links and cookies) and compared
in constant time. Every answer forbids framing and caching, sends no referrer to other
sites, and allows scripts and styles from this origin only.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

__all__ = ["TOKEN_PARAM", "Access", "AccessMiddleware"]

TOKEN_PARAM = "token"
_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
        b" connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    # Not no-referrer: with it a browser sends "Origin: null" on a form's POST, which the
    # Origin check refuses. Same-origin sends nothing to other sites.
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
]


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


@dataclass(frozen=True)
class Access:
    """This run's port and its two secrets (never shown in a repr)."""

    port: int
    token: str = field(repr=False)
    csrf: str = field(repr=False)

    @classmethod
    def new(cls, port: int) -> Access:
        """Fresh tokens for a server on ``port``."""
        return cls(port, secrets.token_urlsafe(32), secrets.token_urlsafe(32))

    @property
    def cookie(self) -> str:
        # Browsers do not keep cookies apart by port: two inspectors on one machine
        # would otherwise overwrite each other's.
        return f"anchormem_ui_{self.port}"

    @property
    def url(self) -> str:
        """The link to print: the token in it opens the inspector once per browser."""
        return f"http://127.0.0.1:{self.port}/?{TOKEN_PARAM}={self.token}"

    def admits_token(self, given: str | None) -> bool:
        """Whether ``given`` is this run's link token."""
        return _same(given, self.token)

    def csrf_ok(self, given: object) -> bool:
        """Whether a form's ``csrf`` field is this run's CSRF token."""
        return isinstance(given, str) and _same(given, self.csrf)


def _cookie(headers: list[tuple[bytes, bytes]], name: str) -> str | None:
    for key, value in headers:
        if key.lower() != b"cookie":
            continue
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value.decode("latin-1"))
        except CookieError:
            continue
        if name in jar:
            return jar[name].value
    return None


class AccessMiddleware:
    """ASGI middleware: the link token and its cookie (see the module docstring)."""

    def __init__(self, app: Any, access: Access) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == TOKEN_PARAM]
        secured = _with_headers(send, _SECURITY_HEADERS)
        if given:
            if len(given) != 1 or not self.access.admits_token(given[0]):
                await _plain(secured, 403, "This link's token is not this inspector's.")
                return
            if scope["method"] in ("GET", "HEAD"):
                rest = urlencode([(k, v) for k, v in query if k != TOKEN_PARAM])
                where = quote(scope.get("path", "/"), safe="/") + (f"?{rest}" if rest else "")
                await _redirect_with_cookie(secured, where, self.access)
                return
        elif not _same(_cookie(scope.get("headers", []), self.access.cookie), self.access.token):
            await _plain(
                secured, 403, "Open the link `anchormem ui` printed: it carries this run's token."
            )
            return
        await self.app(scope, receive, secured)


def _with_headers(send: Any, extra: list[tuple[bytes, bytes]]) -> Any:
    async def wrapped(message: Any) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


async def _plain(send: Any, status: int, text: str) -> None:
    body = f"{text}\n".encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _redirect_with_cookie(send: Any, where: str, access: Access) -> None:
    cookie = f"{access.cookie}={access.token}; Path=/; HttpOnly; SameSite=Strict"
    headers = [
        (b"location", where.encode("latin-1")),
        (b"set-cookie", cookie.encode()),
        (b"content-length", b"0"),
    ]
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})
