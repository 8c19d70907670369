"""A store file that holds what anchormem never writes (a view, a macro, a CHECK
constraint, a sequence, a default that is an expression) was made or changed by someone
else: it is refused before anything reads or writes it, and left as it was (adr/0022). A
file anchormem creates itself opens without that search, and is searched whenever it is
opened again."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest

from store.db import Database
from store.errors import StoreTampered
from store.service import MemoryService

PLANTED = {
    "view": "CREATE VIEW shown AS SELECT 1 AS one",
    "macro": "CREATE MACRO twice(a) AS a * 2",
    "table macro": "CREATE MACRO rows_of(n) AS TABLE SELECT * FROM range(n)",
    "check": "CREATE TABLE guarded (a INTEGER CHECK (a > 0))",
    "sequence": "CREATE SEQUENCE counter",
    "expression default": "CREATE TABLE stamped (made TIMESTAMP DEFAULT now())",
}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_a_store_someone_else_changed_is_refused_and_left_alone(tmp_path: Path, planted: str):
    path = tmp_path / "memory.duckdb"
    db = Database(path)
    MemoryService(db, None).remember("Releases ship on Thursdays")
    db.close()
    con = duckdb.connect(str(path))
    con.execute(PLANTED[planted])
    con.execute("CHECKPOINT")
    con.close()
    before = _digest(path)
    with pytest.raises(StoreTampered, match="never makes"):
        Database(path)
    assert _digest(path) == before


def test_a_store_made_here_opens_and_opens_again(tmp_path: Path):
    path = tmp_path / "memory.duckdb"
    db = Database(path)
    made = MemoryService(db, None).remember("Releases ship on Thursdays").reading.memory.id
    db.close()
    again = Database(path)  # searched now: it exists, and holds only what anchormem writes
    assert MemoryService(again, None).show(made).reading.memory.id == made
    again.close()
