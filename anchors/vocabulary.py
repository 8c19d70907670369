"""TEMPORARY STUB of the technology vocabulary (replaced by the generated one)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

__all__ = [
    "VOCABULARY_VERSION",
    "TechKind",
    "Technology",
    "by_name",
    "for_import",
    "is_ordinary_word",
    "lookup",
    "mention_tokens",
    "technologies_for_token",
]

VOCABULARY_VERSION = "stub1"


class TechKind(StrEnum):
    PACKAGE = "package"
    SYSTEM = "system"


@dataclass(frozen=True)
class Technology:
    name: str
    display: str
    kind: TechKind
    dists: tuple[str, ...]
    imports: tuple[str, ...]
    aliases: tuple[str, ...]
    footprints: tuple[str, ...]
    mention_tokens: tuple[str, ...]
    rank: int | None


def _p(name: str, imp: str | None = None, *aliases: str) -> Technology:
    imp = imp or name.replace("-", "_")
    return Technology(name, name, TechKind.PACKAGE, (name,), (imp,), (name, imp, *aliases), (),
                      tuple({name, imp.lower()}), 1)


def _s(name: str, display: str, aliases: tuple[str, ...], dists: tuple[str, ...] = (),
       imports: tuple[str, ...] = (), footprints: tuple[str, ...] = (),
       tokens: tuple[str, ...] = ()) -> Technology:
    return Technology(name, display, TechKind.SYSTEM, dists, imports, aliases, footprints,
                      tokens or (name,), None)


_TECH = [
    _p("httpx"), _p("duckdb"), _p("click"), _p("requests"), _p("falcon"), _p("msgspec"),
    _p("tortoise-orm", "tortoise"), _p("babel"), _p("sqlalchemy"), _p("fastapi"), _p("flask"),
    _p("pyyaml", "yaml", "yaml"), _p("beautifulsoup4", "bs4", "beautifulsoup", "beautiful soup"),
    _p("mcp"), _p("aiohttp"), _p("tenacity"), _p("structlog"), _p("pydantic"), _p("boto3"),
    _p("uvicorn"), _p("pyjwt", "jwt"), _p("typer"), _p("bcrypt"), _p("pytest"), _p("rich"),
    _p("attrs", "attr"), _p("django"), _p("jinja2", "jinja2", "jinja"), _p("werkzeug"),
    _p("urllib3"), _p("starlette"), _p("memcached", "memcache"), _p("pymongo"),
    _p("peewee"), _p("sphinx"), _p("nose"), _p("gunicorn"), _p("strawberry-graphql", "strawberry", "strawberry"),
    _s("celery", "Celery", ("celery",), ("celery",), ("celery",)),
    _s("redis", "Redis", ("redis",), ("redis",), ("redis",)),
    _s("pulumi", "Pulumi", ("pulumi",), ("pulumi",), ("pulumi",), ("Pulumi.yaml", "Pulumi.*.yaml")),
    _s("datadog", "Datadog", ("datadog",), ("datadog", "ddtrace"), ("datadog", "ddtrace"),
       (), ("datadog", "ddtrace")),
    _s("braintree", "Braintree", ("braintree",), ("braintree",), ("braintree",)),
    _s("webpack", "webpack", ("webpack",), (), (), ("webpack.config.js",)),
    _s("vite", "Vite", ("vite",), (), (), ("vite.config.*",)),
    _s("docker", "Docker", ("docker",), ("docker",), ("docker",), ("Dockerfile", "docker-compose.yml")),
    _s("postgresql", "PostgreSQL", ("postgresql", "postgres"), ("psycopg2", "psycopg", "asyncpg"),
       ("psycopg2", "psycopg", "asyncpg"), (), ("postgres", "postgresql", "psycopg2", "asyncpg")),
    _s("mysql", "MySQL", ("mysql",), ("mysqlclient", "pymysql"), ("MySQLdb", "pymysql")),
    _s("hashicorp-vault", "HashiCorp Vault", ("hashicorp vault",), ("hvac",), ("hvac",), (),
       ("hashicorp", "hvac")),
    _s("github-actions", "GitHub Actions", ("github actions",), (), (), (".github/workflows/*",),
       ("github-actions",)),
    _s("sendgrid", "SendGrid", ("sendgrid",), ("sendgrid",), ("sendgrid",)),
    _s("mailgun", "Mailgun", ("mailgun",)),
    _s("tox", "tox", ("tox",), ("tox",), (), ("tox.ini",)),
    _p("pynacl", "nacl"), _p("flake8"), _p("responses"),
    _s("codecov", "Codecov", ("codecov",), ("codecov",), (), ("codecov.yml", ".codecov.yml")),
    _s("sentry", "Sentry", ("sentry",), ("sentry-sdk",), ("sentry_sdk",), (), ("sentry", "sentry_sdk")),
    _s("kafka", "Kafka", ("kafka",), ("kafka-python",), ("kafka",)),
]
_COMMON = frozenset(
    [
        "click", "requests", "rich", "black", "six", "mock", "future", "attrs"
    ]
)
_ORDINARY = frozenset(
    [
        "gateway", "request", "requests", "handler", "handlers", "models", "model",
        "accounts", "account", "signing", "required", "unverified", "deleted", "days",
        "payment", "router", "lives", "session", "sessions", "adapter", "console",
        "progress", "bar", "parser", "releases", "deployed", "metrics", "go", "the", "a",
        "we", "use", "uses", "used", "is", "are", "was", "were", "not", "with", "for", "of",
        "to", "in", "on", "by", "and", "or", "data", "store", "time", "token", "context",
        "path", "import", "release", "fix", "long", "keeps", "pass", "through", "commit",
        "moved", "from", "after", "service", "module", "client", "cli", "command", "line",
        "tests", "test", "runner", "click", "rich", "black", "six", "mock", "future",
        "celery", "python", "checkout", "supported", "guest", "cache", "orders", "order",
        "priced", "totals", "items"
    ]
)


@cache
def _index() -> dict[str, list[tuple[tuple[str, ...], Technology]]]:
    idx: dict[str, list[tuple[tuple[str, ...], Technology]]] = {}
    for tech in _TECH:
        for alias in {*tech.aliases, *tech.dists, tech.name}:
            words = tuple(_norm(w) for w in alias.split())
            idx.setdefault(words[0], []).append((words, tech))
    for entries in idx.values():
        entries.sort(key=lambda e: -len(e[0]))
    return idx


def _norm(word: str) -> str:
    return re.sub(r"[-_.]+", "-", word.lower())


def lookup(words: Sequence[str], start: int = 0) -> tuple[Technology, int, bool] | None:
    if start >= len(words):
        return None
    for alias, tech in _index().get(_norm(words[start]), []):
        got = tuple(_norm(w) for w in words[start : start + len(alias)])
        if got == alias:
            return tech, len(alias), len(alias) == 1 and alias[0] in _COMMON
    return None


def by_name(name: str) -> Technology | None:
    n = _norm(name)
    return next((t for t in _TECH if t.name == n or n in t.dists), None)


def for_import(module: str) -> Technology | None:
    top = module.split(".")[0]
    return next((t for t in _TECH if module in t.imports or top in t.imports), None)


def is_ordinary_word(word: str) -> bool:
    return word.lower() in _ORDINARY


@cache
def mention_tokens() -> frozenset[str]:
    return frozenset(tok for t in _TECH for tok in t.mention_tokens)


def technologies_for_token(token: str) -> tuple[Technology, ...]:
    return tuple(t for t in _TECH if token in t.mention_tokens)
