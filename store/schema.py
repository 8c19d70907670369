"""The store's schema, versioned; forward migrations run when a store is opened.

Migrations are append-only: migration N takes a store from version N-1 to N. A store whose
version is higher than ``SCHEMA_VERSION`` was written by a newer anchormem and is refused
before anything is written to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import duckdb

from store.errors import SchemaTooNew, StoreTampered

__all__ = ["SCHEMA_VERSION", "check_catalog", "migrate", "read_version"]

_V1 = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
CREATE TABLE memories (
    id VARCHAR PRIMARY KEY,
    text VARCHAR,
    text_hash VARCHAR,
    search_text VARCHAR,
    subject VARCHAR,
    kind VARCHAR NOT NULL,
    scope VARCHAR,
    source VARCHAR NOT NULL,
    origin VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    commit_id VARCHAR,
    status VARCHAR NOT NULL,
    refuted_by VARCHAR,
    confidence DOUBLE NOT NULL DEFAULT 5.0,
    support DOUBLE NOT NULL DEFAULT 0.0,
    contradiction DOUBLE NOT NULL DEFAULT 0.0,
    evidence_at TIMESTAMPTZ,
    attribute VARCHAR,
    slot_value VARCHAR,
    supersedes VARCHAR,
    flags VARCHAR NOT NULL DEFAULT '[]',
    observations INTEGER NOT NULL DEFAULT 1,
    code_commit VARCHAR,
    forgotten_at TIMESTAMPTZ
);
CREATE TABLE anchors (
    memory_id VARCHAR NOT NULL,
    position INTEGER NOT NULL,
    kind VARCHAR NOT NULL,
    value VARCHAR NOT NULL,
    expect VARCHAR NOT NULL,
    scope VARCHAR,
    version VARCHAR,
    provenance VARCHAR NOT NULL,
    found_in VARCHAR NOT NULL DEFAULT '[]',
    content_hash VARCHAR,
    PRIMARY KEY (memory_id, position)
);
CREATE TABLE links (
    memory_id VARCHAR NOT NULL,
    target_id VARCHAR NOT NULL,
    relation VARCHAR NOT NULL,
    PRIMARY KEY (memory_id, target_id, relation)
);
CREATE TABLE receipts (
    id VARCHAR PRIMARY KEY,
    memory_id VARCHAR NOT NULL,
    action VARCHAR NOT NULL,
    actor VARCHAR NOT NULL,
    reason VARCHAR NOT NULL,
    evidence VARCHAR,
    cause_id VARCHAR,
    commit_id VARCHAR,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE audit (
    seq BIGINT PRIMARY KEY,
    memory_id VARCHAR NOT NULL,
    happened_at TIMESTAMPTZ NOT NULL,
    action VARCHAR NOT NULL,
    from_status VARCHAR,
    to_status VARCHAR,
    actor VARCHAR NOT NULL,
    reason VARCHAR,
    receipt_id VARCHAR,
    commit_id VARCHAR,
    detail VARCHAR NOT NULL DEFAULT '{}'
);
CREATE TABLE observations (
    id VARCHAR PRIMARY KEY,
    memory_id VARCHAR NOT NULL,
    happened_at TIMESTAMPTZ NOT NULL,
    polarity VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    origin VARCHAR NOT NULL,
    weight DOUBLE NOT NULL,
    note VARCHAR
);
CREATE TABLE blob_facts (blob_id VARCHAR PRIMARY KEY, facts VARCHAR NOT NULL);
CREATE TABLE verdicts (
    memory_id VARCHAR NOT NULL,
    commit_id VARCHAR NOT NULL,
    overlay VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    checks VARCHAR NOT NULL,
    checked_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (memory_id, commit_id, overlay)
);
"""

# Version 2: evidence and review (origins, confirmation times, episode expiry, the
# questions asked, slots).
_V2 = """
ALTER TABLE memories ADD COLUMN origins VARCHAR NOT NULL DEFAULT '[]';
ALTER TABLE memories ADD COLUMN last_confirmed_at TIMESTAMPTZ;
ALTER TABLE memories ADD COLUMN expires_at TIMESTAMPTZ;
CREATE TABLE questions (
    id VARCHAR PRIMARY KEY,
    memory_id VARCHAR NOT NULL,
    user_id VARCHAR NOT NULL,
    asked_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE slots (
    subject VARCHAR NOT NULL,
    attribute VARCHAR NOT NULL,
    cardinality VARCHAR NOT NULL DEFAULT 'one',
    reversals INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (subject, attribute)
);
"""

# Version 3: contradictions (the claim's negation core for candidate lookup, and the
# append-only log of conflict resolutions).
_V3 = """
ALTER TABLE memories ADD COLUMN core VARCHAR;
CREATE TABLE conflict_log (
    seq BIGINT PRIMARY KEY,
    a_id VARCHAR NOT NULL,
    b_id VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    claim_a VARCHAR,
    claim_b VARCHAR,
    state VARCHAR NOT NULL,
    rule VARCHAR NOT NULL,
    outcome VARCHAR NOT NULL,
    winner VARCHAR,
    loser VARCHAR,
    reason_code VARCHAR NOT NULL,
    confidence_a DOUBLE,
    confidence_b DOUBLE,
    slot VARCHAR,
    happened_at TIMESTAMPTZ NOT NULL
);
"""

# Version 4: the recall index (a memory's search terms, written with it).
_V4 = """
CREATE TABLE terms (memory_id VARCHAR NOT NULL, term VARCHAR NOT NULL, tf INTEGER NOT NULL);
"""


def _index_existing(cur: duckdb.DuckDBPyConnection) -> None:
    """Terms of the memories written before version 4."""
    from store.search import memory_terms

    rows = cur.execute(
        "SELECT id, search_text FROM memories WHERE search_text IS NOT NULL"
    ).fetchall()
    ids, terms, counts = [], [], []
    for memory_id, text in rows:
        for term, tf in memory_terms(text).items():
            ids.append(memory_id)
            terms.append(term)
            counts.append(tf)
    if ids:
        cur.execute(
            "INSERT INTO terms SELECT unnest(?), unnest(?), unnest(?)", [ids, terms, counts]
        )


def _reindex(cur: duckdb.DuckDBPyConnection) -> None:
    """Version 5: the recall index by the code-aware tokeniser (camelCase and path parts,
    stems of plurals and verb forms): every live memory's terms made again from its text,
    subject and anchors (the stored search text was lower-cased, which loses camelCase)."""
    from anchors.spec import Anchor, AnchorKind, Expect
    from store.search import memory_terms, search_text

    anchors: dict[str, list[Anchor]] = {}
    for memory_id, kind, value, expect, scope, version in cur.execute(
        "SELECT memory_id, kind, value, expect, scope, version FROM anchors "
        "ORDER BY memory_id, position"
    ).fetchall():
        anchors.setdefault(memory_id, []).append(
            Anchor(AnchorKind(kind), value, Expect(expect), scope, version)
        )
    cur.execute("DELETE FROM terms")
    rows = cur.execute("SELECT id, text, subject FROM memories WHERE text IS NOT NULL").fetchall()
    ids, terms, counts, texts = [], [], [], []
    for memory_id, text, subject in rows:
        searched = search_text(text, subject, anchors.get(memory_id, []))
        texts.append(searched)
        for term, tf in memory_terms(searched).items():
            ids.append(memory_id)
            terms.append(term)
            counts.append(tf)
    if ids:
        cur.execute(
            "INSERT INTO terms SELECT unnest(?), unnest(?), unnest(?)", [ids, terms, counts]
        )
    if rows:
        cur.execute(
            "UPDATE memories SET search_text = t.s FROM (SELECT unnest(?) AS i, unnest(?) AS s) t"
            " WHERE memories.id = t.i",
            [[r[0] for r in rows], texts],
        )


def _recore(cur: duckdb.DuckDBPyConnection) -> None:
    """Version 6: each negation core made again by the one text module's plural rule
    (``store.text.singular``: "redis", "status" and "this" stay whole), so a core stored
    before meets the same claim's core written after."""
    from store.contradictions.claims import negation_core

    rows = cur.execute(
        "SELECT id, text FROM memories WHERE core IS NOT NULL AND text IS NOT NULL"
    ).fetchall()
    if rows:
        cur.execute(
            "UPDATE memories SET core = t.c FROM (SELECT unnest(?) AS i, unnest(?) AS c) t"
            " WHERE memories.id = t.i",
            [[r[0] for r in rows], [negation_core(r[1])[0] for r in rows]],
        )


Step = str | Callable[[duckdb.DuckDBPyConnection], None]
# Index i holds the steps that take the store from version i to i + 1.
_MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    (_V1,),
    (_V2,),
    (_V3,),
    (_V4, _index_existing),
    (_reindex,),
    (_recore,),
)
SCHEMA_VERSION = len(_MIGRATIONS)


def read_version(cur: duckdb.DuckDBPyConnection) -> int:
    """The schema version recorded in the store, 0 for an empty file."""
    # Asked on every open (every handover between processes): one lookup (~1.5 ms), not a
    # scan of the catalog through duckdb_tables() (~10 ms).
    try:
        row = cur.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.CatalogException:  # no meta table: an empty file
        return 0
    return int(row[0]) if row else 0


def migrate(cur: duckdb.DuckDBPyConnection) -> int:
    """Bring the store up to ``SCHEMA_VERSION``; refuse (untouched) a newer store."""
    version = read_version(cur)
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"this store has schema version {version}, but this anchormem understands up "
            f"to {SCHEMA_VERSION}; upgrade anchormem (the store was not modified)"
        )
    if version == SCHEMA_VERSION:
        return version
    cur.execute("BEGIN TRANSACTION")
    try:
        for steps in _MIGRATIONS[version:]:
            for step in steps:
                if isinstance(step, str):
                    cur.execute(step)
                else:
                    step(cur)
        cur.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
        )
        cur.execute("COMMIT")
    except BaseException:  # not handled: rolled back, then re-raised (an interrupt too)
        cur.execute("ROLLBACK")
        raise
    return SCHEMA_VERSION


# A column default anchormem writes is a plain number or string; anything else (a call, a
# generated column's expression) would run whenever a row is written.
_LITERAL = re.compile(r"^(?:'[^']*'|-?\d+(?:\.\d+)?)$")


def check_catalog(cur: duckdb.DuckDBPyConnection) -> None:
    """Refuse a store file that holds anything able to run when it is read or written: a
    view, a macro, a generated column, a default other than a literal, a CHECK constraint.
    anchormem makes none of these, so such a file was made by someone else (adr/0022)."""
    found = cur.execute(
        "SELECT 'view ' || view_name FROM duckdb_views() WHERE NOT internal"
        " UNION ALL SELECT 'macro ' || function_name FROM duckdb_functions()"
        "   WHERE NOT internal AND function_type IN ('macro', 'table_macro')"
        " UNION ALL SELECT 'constraint on ' || table_name FROM duckdb_constraints()"
        "   WHERE constraint_type = 'CHECK'"
        " UNION ALL SELECT 'sequence ' || sequence_name FROM duckdb_sequences()"
    ).fetchall()
    defaults = cur.execute(
        "SELECT table_name, column_name, column_default FROM duckdb_columns()"
        " WHERE NOT internal AND column_default IS NOT NULL"
    ).fetchall()
    found += [
        (f"an expression on {table}.{column}",)
        for table, column, default in defaults
        if not _LITERAL.match(str(default))
    ]
    if found:
        raise StoreTampered(
            f"the store holds {found[0][0]}, which anchormem never makes: the file was"
            " replaced or changed by someone else and is not opened"
        )
