"""A PostgreSQL store's address: recognised, shown without its secrets, and the project
(the schema) it holds. Plain functions; nothing here connects."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

from store.errors import InvalidInput

__all__ = ["has_password", "is_postgres_url", "project_schema", "reason", "shown"]

_SCHEMES = ("postgresql://", "postgres://")
_PROJECT = re.compile(r"^[a-z0-9][a-z0-9_-]{0,47}$")


def is_postgres_url(text: str | None) -> bool:
    return bool(text) and str(text).lower().startswith(_SCHEMES)


def shown(url: str) -> str:
    """The address with any password (in the URL or a ``password=`` parameter) replaced:
    what messages and logs may say."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://(an address that cannot be read)"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    user = f"{parts.username}@" if parts.username else ""
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    secret = ":***" if parts.password else ""
    if secret:
        user = f"{parts.username or ''}{secret}@"
    return f"{parts.scheme}://{user}{host}{port}{parts.path}" + (f"?{query}" if query else "")


def reason(exc: BaseException, url: str) -> str:
    """An error about ``url`` in one line: its type and first line, with the address's
    password taken out in any spelling (libpq's messages name the host, never the password,
    but a message of another kind might repeat what it was given)."""
    text = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    try:
        parts = urlsplit(url)
        hidden = [parts.password or "", *parse_qs(parts.query).get("password", [])]
    except ValueError:
        hidden = []
    for secret in hidden:
        for spelling in {secret, unquote(secret)} - {""}:
            text = text.replace(spelling, "***")
    return f"{type(exc).__name__}: {text}"[:300] if text else type(exc).__name__


def has_password(url: str) -> bool:
    """The address carries a password (in its user part or as a parameter)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return True  # unreadable: treated as if it might
    return bool(parts.password) or bool(re.search(r"(?i)(?:^|&)password=", parts.query))


def project_schema(project: str) -> str:
    """The schema holding ``project``'s memories: ``anchormem_<project>``. A project name is
    lower-case letters, digits, ``-`` and ``_`` (it becomes an SQL identifier)."""
    name = project.strip().lower()
    if not _PROJECT.match(name):
        raise InvalidInput(
            f"a project name is 1-48 lower-case letters, digits, '-' or '_', not {project[:60]!r}"
        )
    return "anchormem_" + name.replace("-", "_")
