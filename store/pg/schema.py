"""The shared store's schema on PostgreSQL, versioned as the embedded one is
(``store.schema``): migrations are append-only, applied on first use by whichever server
comes first (under a lock, so two never both apply one), and a store newer than this code
is refused before anything is written to it.

The tables are the embedded store's, with PostgreSQL's types, indexes where DuckDB scans,
and one more: ``changes``, the numbered list of the memories each write touched, by which
every server keeps its copy current (``store.pg.database``)."""

from __future__ import annotations

from typing import Any

from store.errors import SchemaTooNew, StoreUnavailable

__all__ = ["PG_SCHEMA_VERSION", "migrate"]

_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE memories (
    id TEXT PRIMARY KEY, text TEXT, text_hash TEXT, search_text TEXT, subject TEXT,
    kind TEXT NOT NULL, scope TEXT, source TEXT NOT NULL, origin TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL, updated_at TIMESTAMPTZ NOT NULL, commit_id TEXT,
    status TEXT NOT NULL, refuted_by TEXT, confidence DOUBLE PRECISION NOT NULL DEFAULT 5.0,
    support DOUBLE PRECISION NOT NULL DEFAULT 0.0,
    contradiction DOUBLE PRECISION NOT NULL DEFAULT 0.0, evidence_at TIMESTAMPTZ,
    attribute TEXT, slot_value TEXT, supersedes TEXT, flags TEXT NOT NULL DEFAULT '[]',
    observations INTEGER NOT NULL DEFAULT 1, code_commit TEXT, forgotten_at TIMESTAMPTZ,
    origins TEXT NOT NULL DEFAULT '[]', last_confirmed_at TIMESTAMPTZ, expires_at TIMESTAMPTZ,
    core TEXT
);
CREATE INDEX memories_text_hash ON memories (text_hash);
CREATE TABLE anchors (
    memory_id TEXT NOT NULL, position INTEGER NOT NULL, kind TEXT NOT NULL,
    value TEXT NOT NULL, expect TEXT NOT NULL, scope TEXT, version TEXT,
    provenance TEXT NOT NULL, found_in TEXT NOT NULL DEFAULT '[]', content_hash TEXT,
    PRIMARY KEY (memory_id, position)
);
CREATE TABLE links (
    memory_id TEXT NOT NULL, target_id TEXT NOT NULL, relation TEXT NOT NULL,
    PRIMARY KEY (memory_id, target_id, relation)
);
CREATE TABLE receipts (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, action TEXT NOT NULL, actor TEXT NOT NULL,
    reason TEXT NOT NULL, evidence TEXT, cause_id TEXT, commit_id TEXT,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX receipts_memory ON receipts (memory_id);
CREATE TABLE audit (
    seq BIGINT PRIMARY KEY, memory_id TEXT NOT NULL, happened_at TIMESTAMPTZ NOT NULL,
    action TEXT NOT NULL, from_status TEXT, to_status TEXT, actor TEXT NOT NULL, reason TEXT,
    receipt_id TEXT, commit_id TEXT, detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_memory ON audit (memory_id);
CREATE TABLE observations (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, happened_at TIMESTAMPTZ NOT NULL,
    polarity TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, origin TEXT NOT NULL,
    weight DOUBLE PRECISION NOT NULL, note TEXT
);
CREATE INDEX observations_memory ON observations (memory_id);
CREATE TABLE blob_facts (blob_id TEXT PRIMARY KEY, facts TEXT NOT NULL);
CREATE TABLE verdicts (
    memory_id TEXT NOT NULL, commit_id TEXT NOT NULL, overlay TEXT NOT NULL,
    status TEXT NOT NULL, checks TEXT NOT NULL, checked_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (commit_id, overlay, memory_id)
);
CREATE INDEX verdicts_memory ON verdicts (memory_id);
CREATE TABLE questions (
    id TEXT PRIMARY KEY, memory_id TEXT NOT NULL, user_id TEXT NOT NULL,
    asked_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE slots (
    subject TEXT NOT NULL, attribute TEXT NOT NULL, cardinality TEXT NOT NULL DEFAULT 'one',
    reversals INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (subject, attribute)
);
CREATE TABLE conflict_log (
    seq BIGINT PRIMARY KEY, a_id TEXT NOT NULL, b_id TEXT NOT NULL, kind TEXT NOT NULL,
    claim_a TEXT, claim_b TEXT, state TEXT NOT NULL, rule TEXT NOT NULL, outcome TEXT NOT NULL,
    winner TEXT, loser TEXT, reason_code TEXT NOT NULL, confidence_a DOUBLE PRECISION,
    confidence_b DOUBLE PRECISION, slot TEXT, happened_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX conflict_log_a ON conflict_log (a_id);
CREATE INDEX conflict_log_b ON conflict_log (b_id);
CREATE TABLE terms (memory_id TEXT NOT NULL, term TEXT NOT NULL, tf INTEGER NOT NULL);
CREATE INDEX terms_memory ON terms (memory_id);
CREATE TABLE changes (
    seq BIGINT PRIMARY KEY, ids TEXT NOT NULL, happened_at TIMESTAMPTZ NOT NULL
);
"""

# Index i holds the statements that take the store from version i to i + 1.
_MIGRATIONS: tuple[str, ...] = (_V1,)
PG_SCHEMA_VERSION = len(_MIGRATIONS)


def read_version(cur: Any) -> int:
    """The schema version the store records, 0 when it has no tables yet."""
    found = cur.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone()
    if not found or not found[0]:
        return 0
    row = cur.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return int(row[0]) if row else 0


def migrate(cur: Any, schema: str) -> int:
    """Create ``schema`` if missing and bring it to ``PG_SCHEMA_VERSION``, in the caller's
    transaction, holding the schema's lock (the first server applies, the others wait and
    find it done); refuse, unchanged, a store newer than this code."""
    cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 1))", [schema])
    # Created only when missing: CREATE SCHEMA IF NOT EXISTS asks for the database's CREATE
    # privilege even when the schema exists, and a least-privileged role has only the
    # schema an administrator made for it (docs/postgresql.md).
    found = cur.execute("SELECT 1 FROM pg_namespace WHERE nspname = ?", [schema]).fetchone()
    if found is None:
        cur.execute(f'CREATE SCHEMA "{schema}"')
    usable = cur.execute("SELECT has_schema_privilege(?, 'USAGE')", [schema]).fetchone()
    if not (usable and usable[0]):  # else every table would seem missing
        raise StoreUnavailable(
            f'permission denied for schema "{schema}": this database role may not use this'
            " project's memories (an administrator grants USAGE and CREATE on the schema)"
        )
    cur.execute(f'SET LOCAL search_path TO "{schema}"')
    version = read_version(cur)
    if version > PG_SCHEMA_VERSION:
        raise SchemaTooNew(
            f"this shared store has schema version {version}, but this anchormem understands"
            f" up to {PG_SCHEMA_VERSION}; upgrade anchormem (the store was not modified)"
        )
    for step in _MIGRATIONS[version:]:
        cur.execute(step)
    if version < PG_SCHEMA_VERSION:
        cur.execute(
            "INSERT INTO meta VALUES ('schema_version', ?)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            [str(PG_SCHEMA_VERSION)],
        )
    return PG_SCHEMA_VERSION
