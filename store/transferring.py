"""Export, import and supersede: the service around ``store.transfer`` and
``store.lifecycle.supersede_change``. Each write is one plan."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from store.backend import utcnow
from store.errors import InvalidInput, StalePlan
from store.evidence.observations import ObservationKind
from store.inputs import clean_actor, clean_reason, clean_text
from store.lifecycle import supersede_change, text_hash
from store.model import AuditEntry, ReceiptAction, Source, Status
from store.plan import ImportedObservation
from store.reader import Reader
from store.results import RememberOutcome, RememberResult
from store.transfer import ImportReport, Local, import_plan
from store.transfer_format import encode_conflict, encode_header, encode_memory, parse_export

if TYPE_CHECKING:  # made on first use: a call that never writes never loads it
    from store.remembering import Remembering

__all__ = ["FORGOTTEN", "ExportFilter", "Transfer"]

FORGOTTEN = "FORGOTTEN"  # the export filter's name for tombstones
_ATTEMPTS = 3


@dataclass(frozen=True)
class ExportFilter:
    statuses: frozenset[str] = frozenset()  # empty: every memory, tombstones included

    @classmethod
    def parse(cls, values: Sequence[object] | None) -> ExportFilter:
        allowed = {*(s.value for s in Status), FORGOTTEN}
        chosen = set()
        for v in values or ():
            name = str(v).strip().upper()
            if name not in allowed:
                raise InvalidInput(f"status must be one of {', '.join(sorted(allowed))}")
            chosen.add(name)
        return cls(frozenset(chosen))

    def keeps(self, status: Status, forgotten: bool) -> bool:
        if not self.statuses:
            return True
        return FORGOTTEN in self.statuses if forgotten else status.value in self.statuses


class Transfer:
    def __init__(self, reader: Reader, remembering: Callable[[], Remembering]) -> None:
        self._reader = reader
        self._remembering = remembering
        self._db = reader.db

    # -- export ------------------------------------------------------------------------------
    def export(self, statuses: Sequence[object] | None = None) -> Iterator[str]:
        """The export file's lines (JSON, no line breaks), header first."""
        keep = ExportFilter.parse(statuses)
        memories = [m for m in self._db.all_memories() if keep.keeps(m.status, m.forgotten)]
        ids = {m.id for m in memories}
        trails: dict[str, list[AuditEntry]] = {}
        for entry in self._db.audit(None, limit=2**62):
            trails.setdefault(entry.memory_id, []).append(entry)
        observed: dict[str, list[ImportedObservation]] = {}
        for (
            oid,
            mid,
            at,
            polarity,
            kind,
            source,
            origin,
            weight,
            note,
        ) in self._db.observation_rows():
            observed.setdefault(mid, []).append(
                ImportedObservation(
                    oid,
                    at,
                    polarity == "confirms",
                    ObservationKind(kind),
                    Source(source),
                    origin,
                    float(weight),
                    note,
                )
            )
        conflicts = [c for c in self._db.conflict_log() if c.a_id in ids and c.b_id in ids]
        yield _line(encode_header(len(memories), len(conflicts), utcnow()))
        for mem in memories:
            receipts = self._db.receipts(mem.id)
            yield _line(
                encode_memory(mem, receipts, observed.get(mem.id, []), trails.get(mem.id, []))
            )
        for record in conflicts:
            yield _line(encode_conflict(record))

    # -- import ------------------------------------------------------------------------------
    def import_lines(self, lines: Iterable[str], actor: object = None) -> ImportReport:
        """Import an export file: one plan, written whole or not at all."""
        who = clean_actor(actor, self._reader.settings.actor)
        parsed = parse_export(lines)
        for _attempt in range(_ATTEMPTS):
            memories = {m.id: m for m in self._db.all_memories()}
            by_claim: dict[str, list[str]] = {}
            for m in memories.values():
                if not m.forgotten:
                    by_claim.setdefault(text_hash(m.text), []).append(m.id)
            local = Local(
                memories,
                by_claim,
                frozenset(r.id for mid in memories for r in self._db.receipts(mid)),
                frozenset(row[0] for row in self._db.observation_rows()),
                lambda mid, held=memories: [  # type: ignore[misc]
                    held[d] for d in self._db.descendants(mid) if d in held
                ],
            )
            head = self._reader.verifier.head()
            evidence = self._reader.settings.evidence
            plan, report = import_plan(parsed, local, who, utcnow(), head, evidence)
            try:
                self._db.apply(plan)
            except StalePlan:
                continue
            return report
        raise StalePlan("the store kept changing during the import; try again")

    # -- supersede ---------------------------------------------------------------------------
    def supersede(
        self,
        memory_id: object,
        text: object,
        reason: object = None,
        actor: object = None,
        subject: object = None,
        source: object = Source.USER,
    ) -> RememberResult:
        """A new memory with ``text`` that supersedes ``memory_id``: the old one becomes
        REFUTED (by correction) with a receipt naming the new one. Never edited in place;
        one plan."""
        new_text = clean_text(text, "text")
        why = clean_reason(reason) if reason is not None else None
        who = clean_actor(actor, self._reader.settings.actor)
        for _attempt in range(_ATTEMPTS):
            old = self._reader.get(memory_id, live=True)
            if old.retracted:
                raise InvalidInput(
                    f"memory {old.id} is retracted already; remember the new text instead"
                )
            if text_hash(new_text) == text_hash(old.text):
                raise InvalidInput(f"the new text says what memory {old.id} says already")
            note = self._remembering().note(
                new_text,
                subject=old.subject if subject is None else subject,
                kind=old.kind,
                scope=old.scope,
                source=source,
                origin=actor,
                supersedes=old.id,
            )
            prepared = self._remembering().prepare(note)
            if prepared.outcome is not RememberOutcome.STORED:
                raise InvalidInput(
                    f"that text is memory {prepared.memory_id} already"
                    f" ({prepared.outcome.value}); retract {old.id} instead"
                )
            said = f"superseded by {prepared.memory_id}"
            change = supersede_change(
                old,
                who,
                f"{why} ({said})" if why else said,
                utcnow(),
                ReceiptAction.SUPERSEDE,
                prepared.memory_id,
            )
            # The new memory's conflict check may have superseded the old one already
            # (an explicit correction wins a conflict): one change per memory.
            others = tuple(c for c in prepared.plan.changes if c.memory_id != old.id)
            plan = replace(prepared.plan, changes=(*others, change))
            try:
                self._db.apply(plan)
            except StalePlan:
                continue
            return self._remembering().result(prepared)
        raise StalePlan("the memory kept changing; try again")


def _line(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=False, separators=(",", ":"))
