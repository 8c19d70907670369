"""A PostgreSQL connection that takes the store's SQL as DuckDB does: ``?`` parameters.

The statements the two stores share (``store.mirror``, ``store.queries``, the plan's
updates in ``store.effects`` and ``store.writes``) are written once, with ``?``; psycopg
takes ``%s``. They are the project's own statements, none holding a ``?`` or ``%`` in a
literal, so the translation is a plain substitution, made once per statement."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg

__all__ = ["PgCursor", "translated"]


@lru_cache(maxsize=512)
def translated(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


class PgCursor:
    """``execute(sql, params)`` with ``?`` parameters, returning a cursor to fetch from."""

    dialect = "postgresql"

    def __init__(self, con: psycopg.Connection[Any]) -> None:
        self.connection = con

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> psycopg.Cursor[Any]:
        cur = self.connection.cursor()
        if params is None:
            cur.execute(sql.encode())  # bytes: no placeholder is looked for
        else:
            cur.execute(translated(sql), list(params))
        return cur

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.connection.cursor() as cur:
            cur.executemany(translated(sql), rows)
