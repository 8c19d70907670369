"""DuckDB persistence: stores and queries memories, receipts, audit rows and caches.

It decides nothing (the rules are in ``store.lifecycle``); every write that changes a
status goes through ``apply_changes``, which writes the change, its receipt and its audit
row in one transaction.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from store.errors import StoreError, StoreUnavailable
from store.lease import StoreLease
from store.model import (
    AuditEntry,
    Kind,
    Memory,
    Observation,
    Receipt,
    ReceiptAction,
    RefutedBy,
    Source,
    Status,
    StatusChange,
    StoredAnchor,
)
from store.recovery import damaged_part, is_a_store, move_aside
from store.schema import migrate

__all__ = ["Database", "NewMemory", "utcnow"]

_STANDING = (RefutedBy.RETRACTION.value, RefutedBy.CORRECTION.value)

_MEMORY_COLUMNS = (
    "id, text, subject, kind, scope, source, origin, created_at, commit_id, status, "
    "refuted_by, confidence, support, contradiction, supersedes, flags, forgotten_at, "
    "updated_at, observations, origins, evidence_at, last_confirmed_at, expires_at, "
    "attribute, slot_value"
)
_COLUMN_NAMES = tuple(c.strip() for c in _MEMORY_COLUMNS.split(","))


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class NewMemory:
    memory: Memory
    text_hash: str
    search_text: str
    core: str | None = None


class Database:
    """One DuckDB store file, shared with other processes through a ``StoreLease``."""

    def __init__(self, path: Path, wait_limit_s: float = 60.0) -> None:
        self.path = path
        if not path.parent.is_dir():
            raise StoreUnavailable(
                f"the directory for the store does not exist: {path.parent.name or path.parent}"
            )
        # Before the lease creates them: a ``.lock`` file means anchormem has opened this
        # file before, so a file that fails to open is a damaged store (store/recovery).
        self._opened_before = Path(f"{path}.lock").exists()
        self._lease = StoreLease(path, self._connect, wait_limit_s=wait_limit_s)
        # Read caches (adr/0003). Loaded memories are reused while this process has held
        # the store since it loaded them (no other process can have written) and has not
        # written itself: ``_writes`` counts this process's transactions. Verdicts never
        # change once computed for (memory, commit, overlay), so they are kept regardless.
        self._writes = 0
        self._loaded: dict[str, Memory] = {}
        self._loaded_token = (-1, -1)
        self._verdicts: dict[str, dict[tuple[str, str], tuple[str, str]]] = {}
        self._conflicts: tuple[tuple[int, int], list[tuple[Any, ...]]] | None = None
        with self._lease.cursor():
            pass  # opens the file and applies migrations, or refuses a newer store

    def _connect(self) -> duckdb.DuckDBPyConnection:
        for _attempt in range(3):  # a damaged WAL, then a damaged main file, at most
            try:
                con = duckdb.connect(str(self.path))
                break
            except duckdb.Error as exc:
                part = damaged_part(str(exc))
                if part == "main" and not is_a_store(self.path, self._opened_before):
                    part = None
                if part is None:
                    raise StoreUnavailable(
                        f"cannot open the store {self.path.name}: {exc}"
                    ) from exc
                move_aside(self.path, part, str(exc))  # never deleted; see store/recovery
        else:
            raise StoreUnavailable(f"cannot open the store {self.path.name}: still damaged")
        try:
            migrate(con)
        except BaseException:
            con.close()
            raise
        return con

    def close(self) -> None:
        self._lease.close()

    @contextmanager
    def read(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor for queries only: every write goes through ``transaction``, which is
        what keeps the read caches right."""
        with self._lease.cursor() as cur:
            try:
                yield cur
            except duckdb.Error as exc:
                self._on_error(exc)
                raise StoreError(f"the store could not answer: {_why(exc)}") from exc

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        with self._lease.cursor() as cur:
            cur.execute("BEGIN TRANSACTION")
            try:
                yield cur
                cur.execute("COMMIT")
            except BaseException as exc:
                with suppress(duckdb.Error):
                    cur.execute("ROLLBACK")
                if isinstance(exc, duckdb.Error):
                    self._on_error(exc)
                    raise StoreError(f"the store could not save the change: {_why(exc)}") from exc
                raise
            finally:
                self._writes += 1  # still holding the lease: no read sees old rows as new

    def _on_error(self, exc: duckdb.Error) -> None:
        print(f"anchormem: store error: {exc}", file=sys.stderr)
        if isinstance(exc, duckdb.FatalException) or "invalidated" in str(exc).lower():
            # A FATAL error (e.g. a checkpoint that hit a full disk) invalidates the
            # database: this call fails, so reset now and let the next call reopen.
            self._lease.reset()

    # -- memories -------------------------------------------------------------------
    def insert_memory(self, new: NewMemory, change_detail: Mapping[str, Any]) -> None:
        mem = new.memory
        with self.transaction() as cur:
            cur.execute(
                "INSERT INTO memories (id, text, text_hash, search_text, subject, kind, scope,"
                " source, origin, created_at, updated_at, commit_id, status, refuted_by,"
                " confidence, support, contradiction, supersedes, flags, observations,"
                " origins, evidence_at, expires_at, attribute, slot_value, core)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?, ?, ?, ?)",
                [
                    mem.id,
                    mem.text,
                    new.text_hash,
                    new.search_text,
                    mem.subject,
                    mem.kind.value,
                    mem.scope,
                    mem.source.value,
                    mem.origin,
                    mem.created_at,
                    mem.created_at,
                    mem.commit,
                    mem.status.value,
                    mem.refuted_by.value if mem.refuted_by else None,
                    mem.confidence,
                    mem.support,
                    mem.contradiction,
                    mem.supersedes,
                    json.dumps(mem.flags),
                    mem.observations,
                    json.dumps(mem.origins),
                    mem.evidence_at or mem.created_at,
                    mem.expires_at,
                    mem.attribute,
                    mem.slot_value,
                    new.core,
                ],
            )
            for position, stored in enumerate(mem.anchors):
                a = stored.anchor
                cur.execute(
                    "INSERT INTO anchors VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        mem.id,
                        position,
                        a.kind.value,
                        a.value,
                        a.expect.value,
                        a.scope,
                        a.version,
                        stored.provenance.value,
                        json.dumps(stored.found_in),
                        stored.content_hash,
                    ],
                )
            for parent in mem.derived_from:
                cur.execute("INSERT INTO links VALUES (?, ?, 'derived_from')", [mem.id, parent])
            if mem.supersedes:
                cur.execute(
                    "INSERT INTO links VALUES (?, ?, 'supersedes')", [mem.id, mem.supersedes]
                )
            self._audit(
                cur,
                mem.id,
                mem.created_at,
                "remember",
                None,
                mem.status.value,
                mem.origin,
                None,
                None,
                mem.commit,
                change_detail,
            )

    def memory_exists(self, memory_id: str) -> bool:
        with self.read() as cur:
            row = cur.execute("SELECT 1 FROM memories WHERE id = ?", [memory_id]).fetchone()
        return row is not None

    def get(self, memory_id: str) -> Memory | None:
        return self.load([memory_id]).get(memory_id)

    def load(self, ids: Sequence[str]) -> dict[str, Memory]:
        """Memories by id, with their anchors and links, in three queries, or none when
        this process loaded them already and nothing can have changed them since: it
        has held the store all along (the lease was not handed over) and has not written.
        DuckDB answers point reads with table scans (~2 ms each at 10k memories), which
        would otherwise be most of a warm recall."""
        if not ids:
            return {}
        with self.read() as cur:
            token = self._cache_token()
            if token != self._loaded_token or len(self._loaded) > _LOADED_KEPT:
                self._loaded.clear()
                self._loaded_token = token
            missing = list(dict.fromkeys(i for i in ids if i not in self._loaded))
            if not missing:
                return {i: self._loaded[i] for i in ids}
            rows = cur.execute(
                f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE list_contains(?, id)",
                [missing],
            ).fetchall()
            anchor_rows = cur.execute(
                "SELECT memory_id, kind, value, expect, scope, version, provenance, found_in,"
                " content_hash FROM anchors WHERE list_contains(?, memory_id)"
                " ORDER BY memory_id, position",
                [missing],
            ).fetchall()
            link_rows = cur.execute(
                "SELECT memory_id, target_id FROM links"
                " WHERE relation = 'derived_from' AND list_contains(?, memory_id)"
                " ORDER BY target_id",
                [missing],
            ).fetchall()
            found = self._memories_from_rows(rows, anchor_rows, link_rows)
            self._loaded.update(found)
            return {i: self._loaded[i] for i in ids if i in self._loaded}

    def _cache_token(self) -> tuple[int, int]:
        """Changes whenever the store may have changed under this process's read caches:
        the lease was handed to another process, or this process wrote. Call it holding
        a cursor (reads and transactions hold the lease's lock)."""
        return (self._lease.handovers, self._writes)

    @staticmethod
    def _memories_from_rows(
        rows: Sequence[tuple[Any, ...]],
        anchor_rows: Sequence[tuple[Any, ...]],
        link_rows: Sequence[tuple[Any, ...]],
    ) -> dict[str, Memory]:
        anchors: dict[str, list[StoredAnchor]] = {}
        for mid, kind, value, expect, scope, version, prov, found_in, chash in anchor_rows:
            anchors.setdefault(mid, []).append(
                StoredAnchor(
                    Anchor(AnchorKind(kind), value, Expect(expect), scope, version),
                    Provenance(prov),
                    tuple(json.loads(found_in)),
                    chash,
                )
            )
        parents: dict[str, list[str]] = {}
        for mid, target in link_rows:
            parents.setdefault(mid, []).append(target)
        return {
            row[0]: _memory_from_row(row, anchors.get(row[0], []), parents.get(row[0], []))
            for row in rows
        }

    def find_by_text_hash(self, text_hash: str) -> list[Memory]:
        with self.read() as cur:
            ids = [
                r[0]
                for r in cur.execute(
                    "SELECT id FROM memories WHERE text_hash = ? ORDER BY created_at",
                    [text_hash],
                ).fetchall()
            ]
        found = self.load(ids)
        return [found[i] for i in ids if i in found]

    def search(
        self, tokens: Sequence[str], limit: int, statuses: Sequence[Status]
    ) -> list[tuple[str, float]]:
        """Ids of memories whose text, subject or anchors contain the tokens, best first."""
        if not tokens:
            return []
        score = " + ".join("contains(search_text, ?)::INTEGER" for _ in tokens)
        sql = (
            f"SELECT id, score FROM (SELECT id, confidence, created_at, ({score}) AS score"
            " FROM memories WHERE forgotten_at IS NULL AND list_contains(?, status))"
            " WHERE score > 0 ORDER BY score DESC, confidence DESC, created_at DESC, id"
            " LIMIT ?"
        )
        params: list[Any] = [*tokens, [s.value for s in statuses], limit]
        with self.read() as cur:
            return [(r[0], float(r[1])) for r in cur.execute(sql, params).fetchall()]

    def list_ids(
        self, statuses: Sequence[Status], limit: int, order: str = "created_at DESC"
    ) -> list[str]:
        allowed = {"created_at DESC", "confidence DESC, created_at DESC"}
        if order not in allowed:
            raise ValueError(order)
        with self.read() as cur:
            rows = cur.execute(
                "SELECT id FROM memories WHERE forgotten_at IS NULL"
                f" AND list_contains(?, status) ORDER BY {order}, id LIMIT ?",
                [[s.value for s in statuses], limit],
            ).fetchall()
        return [r[0] for r in rows]

    def count(self) -> dict[str, int]:
        with self.read() as cur:
            rows = cur.execute(
                "SELECT status, count(*) FROM memories WHERE forgotten_at IS NULL GROUP BY 1"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def descendants(self, memory_id: str) -> list[str]:
        """Every memory derived, directly or transitively, from ``memory_id``."""
        with self.read() as cur:
            rows = cur.execute(
                "WITH RECURSIVE d(id) AS ("
                " SELECT memory_id FROM links WHERE relation = 'derived_from' AND target_id = ?"
                " UNION SELECT l.memory_id FROM links l JOIN d ON l.target_id = d.id"
                " WHERE l.relation = 'derived_from')"
                " SELECT DISTINCT id FROM d ORDER BY id",
                [memory_id],
            ).fetchall()
        return [r[0] for r in rows if r[0] != memory_id]

    # -- status changes ---------------------------------------------------------------
    def apply_changes(self, changes: Sequence[StatusChange], at: datetime) -> None:
        """Write status changes, their receipts and audit rows, all or nothing."""
        if not changes:
            return
        with self.transaction() as cur:
            for ch in changes:
                row = cur.execute(
                    "SELECT status, refuted_by FROM memories WHERE id = ?", [ch.memory_id]
                ).fetchone()
                if row is None:
                    raise StoreError(f"memory {ch.memory_id} vanished during the change")
                if ch.action == "verify" and row[0] == "REFUTED" and row[1] in _STANDING:
                    # Decided on the memory as loaded; another process retracted it since.
                    # A retraction stands on every commit until an explicit restore, so a
                    # verdict from code must not overwrite it (tests/store/test_faults.py).
                    continue
                cur.execute(
                    "UPDATE memories SET status = ?, refuted_by = ?, updated_at = ?,"
                    " code_commit = coalesce(?, code_commit) WHERE id = ?",
                    [
                        ch.to_status.value,
                        ch.refuted_by.value if ch.refuted_by else None,
                        at,
                        ch.commit if ch.action == "verify" else None,
                        ch.memory_id,
                    ],
                )
                if ch.receipt is not None:
                    self._insert_receipt(cur, ch.receipt)
                self._audit(
                    cur,
                    ch.memory_id,
                    at,
                    ch.action,
                    row[0],
                    ch.to_status.value,
                    ch.actor,
                    ch.reason,
                    ch.receipt.id if ch.receipt else None,
                    ch.commit,
                    ch.detail,
                )

    def record_observation(self, obs: Observation) -> None:
        """Store an observation and the memory's counters after it, with an audit row."""
        with self.transaction() as cur:
            cur.execute(
                "INSERT INTO observations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    obs.id,
                    obs.memory_id,
                    obs.at,
                    "confirms" if obs.agrees else "contradicts",
                    obs.kind,
                    obs.source,
                    obs.origin,
                    obs.weight,
                    obs.note,
                ],
            )
            cur.execute(
                "UPDATE memories SET observations = observations + 1, updated_at = ?,"
                " support = ?, contradiction = ?, evidence_at = ?, origins = ?,"
                " confidence = ?,"
                " last_confirmed_at = CASE WHEN ? THEN ? ELSE last_confirmed_at END"
                " WHERE id = ?",
                [
                    obs.at,
                    obs.support,
                    obs.contradiction,
                    obs.at,
                    json.dumps(obs.origins),
                    obs.confidence,
                    obs.confirmed,
                    obs.at,
                    obs.memory_id,
                ],
            )
            self._audit(
                cur,
                obs.memory_id,
                obs.at,
                "observe",
                None,
                None,
                obs.origin,
                obs.note,
                None,
                None,
                {
                    "polarity": "confirms" if obs.agrees else "contradicts",
                    "kind": obs.kind,
                    "source": obs.source,
                    "weight": obs.weight,
                },
            )

    def observations(self, memory_id: str) -> list[tuple[datetime, bool, float, str, str]]:
        """(at, agrees, weight, kind, origin) of a memory's observations, oldest first."""
        with self.read() as cur:
            rows = cur.execute(
                "SELECT happened_at, polarity = 'confirms', weight, kind, origin"
                " FROM observations WHERE memory_id = ? ORDER BY happened_at, id",
                [memory_id],
            ).fetchall()
        return [(r[0], bool(r[1]), float(r[2]), r[3], r[4]) for r in rows]

    def note_event(self, memory_id: str, at: datetime, action: str, actor: str) -> None:
        """An audit row for an event that changes no status (e.g. a retracted claim that
        was remembered again), so that ``stats`` can count it."""
        with self.transaction() as cur:
            self._audit(cur, memory_id, at, action, None, None, actor, None, None, None, {})

    def add_flag(self, memory_id: str, flag: str) -> None:
        with self.transaction() as cur:
            row = cur.execute("SELECT flags FROM memories WHERE id = ?", [memory_id]).fetchone()
            flags = sorted({*json.loads(row[0]), flag}) if row else [flag]
            cur.execute(
                "UPDATE memories SET flags = ? WHERE id = ?", [json.dumps(flags), memory_id]
            )

    def last_questions(self) -> dict[str, datetime]:
        """When each user was last asked a review question."""
        with self.read() as cur:
            rows = cur.execute(
                "SELECT user_id, max(asked_at) FROM questions GROUP BY user_id"
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def record_question(self, qid: str, memory_id: str, user: str, at: datetime) -> None:
        with self.transaction() as cur:
            cur.execute("INSERT INTO questions VALUES (?, ?, ?, ?)", [qid, memory_id, user, at])

    def event_counts(self) -> dict[str, int]:
        """Audit actions counted, with ``verify:<to_status>`` and ``observe:<kind>``."""
        with self.read() as cur:
            rows = cur.execute(
                "SELECT CASE WHEN action = 'verify' THEN 'verify:' || to_status"
                " WHEN action = 'observe' THEN 'observe:' || json_extract_string(detail, '$.kind')"
                " ELSE action END, count(*) FROM audit GROUP BY 1"
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    # -- conflicts -----------------------------------------------------------------------
    def conflict_candidates(self, memory_id: str, slot: str | None, core: str | None) -> list[str]:
        """Live memories sharing a slot, an anchor or a negation core with ``memory_id``."""
        with self.read() as cur:
            rows = cur.execute(
                "SELECT id FROM memories WHERE id <> ? AND forgotten_at IS NULL"
                " AND ((attribute IS NOT NULL AND attribute = ?)"
                " OR (core IS NOT NULL AND core = ?))"
                " UNION SELECT b.memory_id FROM anchors a JOIN anchors b"
                " ON a.kind = b.kind AND a.value = b.value"
                " AND coalesce(a.scope, '') = coalesce(b.scope, '')"
                " WHERE a.memory_id = ? AND b.memory_id <> ?",
                [memory_id, slot, core, memory_id, memory_id],
            ).fetchall()
        return sorted({r[0] for r in rows})

    def conflict_rows(self, ids: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The latest logged resolution of each pair (of pairs touching ``ids``).

        Every recall asks this; the answer for all pairs is kept while nothing can have
        changed it (the same rule as ``load``), and filtered here."""
        if ids is not None and not ids:
            return []  # no pair touches no memory
        with self.read() as cur:
            token = self._cache_token()
            if self._conflicts is None or self._conflicts[0] != token:
                rows = cur.execute(
                    "SELECT seq, a_id, b_id, kind, claim_a, claim_b, state, rule, outcome,"
                    " winner, loser, reason_code, confidence_a, confidence_b, slot, happened_at"
                    " FROM conflict_log"
                    " QUALIFY row_number() OVER (PARTITION BY a_id, b_id ORDER BY seq DESC) = 1"
                    " ORDER BY seq"
                ).fetchall()
                self._conflicts = (token, rows)
            rows = self._conflicts[1]
        if ids is not None:
            # Both ends of a pair are in its partition key: filtering after picking the
            # latest row per pair is the same as filtering before.
            wanted = set(ids)
            rows = [r for r in rows if r[1] in wanted or r[2] in wanted]
        names = (
            "seq",
            "a_id",
            "b_id",
            "kind",
            "claim_a",
            "claim_b",
            "state",
            "rule",
            "outcome",
            "winner",
            "loser",
            "reason_code",
            "confidence_a",
            "confidence_b",
            "slot",
            "at",
        )
        return [dict(zip(names, r, strict=True)) for r in rows]

    def slot_history(self) -> list[tuple[str, str, str]]:
        """(slot, winner value text, loser value text) of resolved slot conflicts, in order."""
        with self.read() as cur:
            rows = cur.execute(
                "SELECT slot, winner, loser FROM conflict_log WHERE slot IS NOT NULL"
                " AND state = 'resolved' ORDER BY seq"
            ).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def log_conflict(self, row: Mapping[str, Any], at: datetime) -> None:
        with self.transaction() as cur:
            cur.execute(
                "INSERT INTO conflict_log SELECT coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?, ?, ?, ?, ?, ?, ? FROM conflict_log",
                [
                    row["a_id"],
                    row["b_id"],
                    row["kind"],
                    row["claim_a"],
                    row["claim_b"],
                    row["state"],
                    row["rule"],
                    row["outcome"],
                    row["winner"],
                    row["loser"],
                    row["reason_code"],
                    row["confidence_a"],
                    row["confidence_b"],
                    row["slot"],
                    at,
                ],
            )

    def set_claim_keys(
        self, memory_id: str, slot: str | None, value: str | None, core: str | None
    ) -> None:
        with self.transaction() as cur:
            cur.execute(
                "UPDATE memories SET attribute = ?, slot_value = ?, core = ? WHERE id = ?",
                [slot, value, core, memory_id],
            )

    def set_confidence(self, confidences: Mapping[str, float]) -> None:
        if not confidences:
            return
        with self.transaction() as cur:
            for memory_id, value in confidences.items():
                cur.execute("UPDATE memories SET confidence = ? WHERE id = ?", [value, memory_id])

    def forget(self, memory_id: str, receipt: Receipt) -> None:
        """Erase a memory's text and everything derived from it, leaving a tombstone."""
        with self.transaction() as cur:
            row = cur.execute("SELECT status FROM memories WHERE id = ?", [memory_id]).fetchone()
            if row is None:
                raise StoreError(f"memory {memory_id} vanished during the change")
            cur.execute(
                "UPDATE memories SET text = NULL, text_hash = NULL, search_text = NULL,"
                " subject = NULL, scope = NULL, attribute = NULL, slot_value = NULL, core = NULL,"
                " forgotten_at = ?, updated_at = ? WHERE id = ?",
                [receipt.created_at, receipt.created_at, memory_id],
            )
            cur.execute("DELETE FROM anchors WHERE memory_id = ?", [memory_id])
            cur.execute("DELETE FROM verdicts WHERE memory_id = ?", [memory_id])
            self._verdicts.pop(memory_id, None)
            cur.execute("UPDATE observations SET note = NULL WHERE memory_id = ?", [memory_id])
            cur.execute(
                "UPDATE audit SET detail = '{}' WHERE memory_id = ? AND action = 'remember'",
                [memory_id],
            )
            self._insert_receipt(cur, receipt)
            self._audit(
                cur,
                memory_id,
                receipt.created_at,
                "forget",
                row[0],
                row[0],
                receipt.actor,
                receipt.reason,
                receipt.id,
                None,
                {},
            )
        self._compact()

    def _compact(self) -> None:
        # DuckDB leaves overwritten bytes in free blocks; only a rewrite of the file
        # guarantees that forgotten text is gone from disk (adr/0002).
        fresh = self.path.with_name(self.path.name + ".compact")
        with self._lease.cursor() as cur:
            for leftover in (fresh, Path(f"{fresh}.wal")):
                leftover.unlink(missing_ok=True)
            cur.execute(f"ATTACH '{_sql_path(fresh)}' AS anchormem_compact")
            name = cur.execute("SELECT current_database()").fetchone()
            assert name is not None
            cur.execute(f'COPY FROM DATABASE "{name[0]}" TO anchormem_compact')
            cur.execute("DETACH anchormem_compact")
            self._lease.swap_file(fresh)

    # -- receipts and audit -----------------------------------------------------------
    def receipts(self, memory_id: str) -> list[Receipt]:
        with self.read() as cur:
            rows = cur.execute(
                "SELECT id, memory_id, action, actor, reason, created_at, evidence, cause_id,"
                " commit_id FROM receipts WHERE memory_id = ? ORDER BY created_at, id",
                [memory_id],
            ).fetchall()
        return [
            Receipt(r[0], r[1], ReceiptAction(r[2]), r[3], r[4], r[5], r[6], r[7], r[8])
            for r in rows
        ]

    def audit(self, memory_id: str | None = None, limit: int = 1000) -> list[AuditEntry]:
        where, params = ("WHERE memory_id = ?", [memory_id]) if memory_id else ("", [])
        with self.read() as cur:
            rows = cur.execute(
                "SELECT seq, memory_id, happened_at, action, from_status, to_status, actor, reason,"
                f" receipt_id, commit_id, detail FROM audit {where} ORDER BY seq LIMIT ?",
                [*params, limit],
            ).fetchall()
        return [
            AuditEntry(
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], json.loads(r[10])
            )
            for r in rows
        ]

    @staticmethod
    def _insert_receipt(cur: duckdb.DuckDBPyConnection, r: Receipt) -> None:
        cur.execute(
            "INSERT INTO receipts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                r.id,
                r.memory_id,
                r.action.value,
                r.actor,
                r.reason,
                r.evidence,
                r.cause_id,
                r.commit,
                r.created_at,
            ],
        )

    @staticmethod
    def _audit(
        cur: duckdb.DuckDBPyConnection,
        memory_id: str,
        at: datetime,
        action: str,
        from_status: str | None,
        to_status: str | None,
        actor: str,
        reason: str | None,
        receipt_id: str | None,
        commit: str | None,
        detail: Mapping[str, Any],
    ) -> None:
        # The audit table is append-only; its sequence is taken inside the same
        # transaction, which the lease makes the only writer.
        cur.execute(
            "INSERT INTO audit SELECT coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
            " FROM audit",
            [
                memory_id,
                at,
                action,
                from_status,
                to_status,
                actor,
                reason,
                receipt_id,
                commit,
                json.dumps(dict(detail), sort_keys=True),
            ],
        )

    # -- caches for the code side -----------------------------------------------------
    def load_verdicts(
        self, ids: Sequence[str], commit: str, overlay: str
    ) -> dict[str, tuple[str, list[dict[str, Any]]]]:
        """Cached verdicts at (commit, overlay); asks the store only for ids this process
        has not seen a verdict of (a verdict of a memory at a commit never changes)."""
        if not ids:
            return {}
        key = (commit, overlay)
        found = {i: self._verdicts[i][key] for i in ids if key in self._verdicts.get(i, {})}
        missing = [i for i in ids if i not in found]
        if missing:
            with self.read() as cur:
                rows = cur.execute(
                    "SELECT memory_id, status, checks FROM verdicts WHERE commit_id = ?"
                    " AND overlay = ? AND list_contains(?, memory_id)",
                    [commit, overlay, missing],
                ).fetchall()
            for memory_id, status, checks in rows:
                found[memory_id] = (status, checks)
                self._keep_verdict(memory_id, key, status, checks)
        return {i: (status, json.loads(checks)) for i, (status, checks) in found.items()}

    def _keep_verdict(self, memory_id: str, key: tuple[str, str], status: str, checks: str) -> None:
        if len(self._verdicts) > _VERDICTS_KEPT:
            self._verdicts.clear()
        self._verdicts.setdefault(memory_id, {})[key] = (status, checks)

    def save_verdicts(
        self,
        verdicts: Mapping[str, tuple[str, list[dict[str, Any]]]],
        commit: str,
        overlay: str,
        at: datetime,
    ) -> None:
        if not verdicts:
            return
        encoded = {m: (status, json.dumps(checks)) for m, (status, checks) in verdicts.items()}
        with self.transaction() as cur:
            # One statement for all rows: a statement per row costs ~0.3 ms each.
            cur.execute(
                "INSERT OR REPLACE INTO verdicts SELECT unnest(?), ?, ?, unnest(?), unnest(?), ?",
                [
                    list(encoded),
                    commit,
                    overlay,
                    [status for status, _ in encoded.values()],
                    [checks for _, checks in encoded.values()],
                    at,
                ],
            )
        for memory_id, (status, checks) in encoded.items():
            self._keep_verdict(memory_id, (commit, overlay), status, checks)

    def load_blob_facts(self, blob_ids: Sequence[str]) -> dict[str, str]:
        if not blob_ids:
            return {}
        with self.read() as cur:
            rows = cur.execute(
                "SELECT blob_id, facts FROM blob_facts WHERE list_contains(?, blob_id)",
                [list(blob_ids)],
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    def save_blob_facts(self, facts: Mapping[str, str]) -> None:
        if not facts:
            return
        items = list(facts.items())
        with self.transaction() as cur:
            # Multi-row VALUES in chunks: DuckDB's executemany is ~500x slower.
            for start in range(0, len(items), 500):
                chunk = items[start : start + 500]
                placeholders = ", ".join("(?, ?)" for _ in chunk)
                params = [v for pair in chunk for v in pair]
                cur.execute(f"INSERT OR REPLACE INTO blob_facts VALUES {placeholders}", params)


_LOADED_KEPT = 50_000  # memories kept loaded by one process
_VERDICTS_KEPT = 100_000  # memories whose verdicts one process keeps


def _why(exc: duckdb.Error) -> str:
    """The error's type, and for a full disk or a file-size limit, that plainly."""
    text = str(exc)
    for sign, plain in (
        ("No space left on device", "the disk is full (no space left on device)"),
        ("File too large", "a file size limit was reached (file too large)"),
        ("Disk quota exceeded", "the disk quota is exceeded"),
    ):
        if sign in text:
            return plain
    return type(exc).__name__


def _sql_path(path: Path) -> str:
    return os.fspath(path).replace("'", "''")


def _memory_from_row(
    row: tuple[Any, ...], anchors: list[StoredAnchor], parents: list[str]
) -> Memory:
    r = dict(zip(_COLUMN_NAMES, row, strict=True))
    return Memory(
        id=r["id"],
        text=r["text"] or "",
        subject=r["subject"],
        kind=Kind(r["kind"]),
        scope=r["scope"],
        source=Source(r["source"]),
        origin=r["origin"],
        created_at=r["created_at"],
        commit=r["commit_id"],
        status=Status(r["status"]),
        refuted_by=RefutedBy(r["refuted_by"]) if r["refuted_by"] else None,
        confidence=float(r["confidence"]),
        support=float(r["support"]),
        contradiction=float(r["contradiction"]),
        anchors=tuple(anchors),
        derived_from=tuple(parents),
        supersedes=r["supersedes"],
        flags=tuple(json.loads(r["flags"])),
        forgotten_at=r["forgotten_at"],
        updated_at=r["updated_at"],
        observations=int(r["observations"]),
        origins=tuple(json.loads(r["origins"])),
        evidence_at=r["evidence_at"],
        last_confirmed_at=r["last_confirmed_at"],
        expires_at=r["expires_at"],
        attribute=r["attribute"],
        slot_value=r["slot_value"],
    )
