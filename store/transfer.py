"""Importing memories carried between stores (``anchormem import``), decided as plain
functions over typed values (adr/0014); the file's lines are read by
``store.transfer_format``.

The file: a header line ``{"type": "anchormem-export", "format": 1, ...}``, then one line
per memory (``"type": "memory"``: text, subject, kind, scope, source, origin, status,
counters, anchors, links, receipts, observations and its audit trail) and one per
conflict-log row between exported memories (``"type": "conflict"``). A forgotten memory
travels as its tombstone: no text, subject, anchors or slot, its receipts' reasons
already erased.

Importing is decided here, written by ``Database.apply`` as one plan:

- a memory whose id the store holds is not written again; when the file retracted it
  and the store holds it live, the store retracts it too (a retraction stands on every
  commit, adr/0002); when the file holds its tombstone, the store forgets it; when the
  store forgot it, its text never comes back;
- a memory whose claim (``lifecycle.text_hash``) the store holds under another id is
  merged into it: nothing is added, a retraction in the file is carried over, and a
  retraction in the store stays;
- any other memory is added as it was: same id, status, receipts, observations and
  trail (renumbered after the store's, in their original order), through the trust gate
  of ``remember`` and ``observe`` (``store.transfer_trust``): a system of record it may
  not speak for is lowered to ``agent``, and its counters, origins and confidence are
  recomputed from the observations it keeps; what was lowered is in the report;
- every free text of the file has its secrets replaced as it is read
  (``store.transfer_fields``), and a JSON value over the bounds every listing can show
  refuses its line (``store.bounded_json``);
- a line that does not parse, names unknown values or collides with what the store
  holds is refused, with its line number and why; the others are imported.

Importing the same file twice changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from store.evidence.settings import EvidenceSettings
from store.hostile import hostile_flags
from store.lifecycle import forget_plan, retraction_plan, supersede_change, text_hash
from store.model import Memory, ReceiptAction, RefutedBy
from store.plan import Imported, NewMemory, Plan
from store.search import memory_terms, search_text
from store.transfer_format import ImportLine, ImportOutcome, MemoryLine, Parsed
from store.transfer_trust import Gated, gate

__all__ = ["ImportLine", "ImportOutcome", "ImportReport", "Local", "import_plan"]


# -- deciding --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportReport:
    lines: tuple[ImportLine, ...]
    conflicts: int = 0  # conflict-log rows added

    def count(self, outcome: ImportOutcome) -> int:
        return sum(1 for line in self.lines if line.outcome is outcome)

    @property
    def downgraded(self) -> tuple[ImportLine, ...]:
        """The lines added with less trust than their file claimed (``store.transfer_trust``)."""
        return tuple(line for line in self.lines if line.downgraded)


@dataclass(frozen=True)
class Local:
    """What the store holds, as the import decides over it."""

    memories: Mapping[str, Memory]
    by_claim: Mapping[str, Sequence[str]]  # claim hash -> ids of the live memories
    receipt_ids: frozenset[str] = frozenset()
    observation_ids: frozenset[str] = frozenset()
    descendants: Callable[[str], Sequence[Memory]] = field(default=lambda _id: ())


def import_plan(
    parsed: Parsed,
    local: Local,
    actor: str,
    now: datetime,
    commit: str | None,
    settings: EvidenceSettings,
) -> tuple[Plan, ImportReport]:
    """The plan of one import and its report (see the module's docstring); ``settings``
    say which systems of record this process trusts, and how evidence is weighed."""
    plan = Plan()
    lines: list[ImportLine] = list(parsed.refused)
    to_store: dict[str, str] = {}  # id in the file -> id in this store
    added: dict[str, Memory] = {}
    claims: dict[str, str] = {}  # claim hash -> id, for memories added now
    changed: set[str] = set()  # memories of this store changed by this plan
    receipts, observations = set(local.receipt_ids), set(local.observation_ids)

    def carry(line: MemoryLine, mine: Memory) -> Plan:
        """A retraction or a forget in the file, carried over to ``mine``."""
        theirs = line.memory
        if mine.id in changed or mine.forgotten:
            return Plan()
        if theirs.forgotten and theirs.id == mine.id:
            changed.add(mine.id)
            return forget_plan(mine, actor, "forgotten in the imported file", now)
        if not theirs.retracted or mine.retracted:
            return Plan()
        changed.add(mine.id)
        why = next(
            (
                r.reason
                for r in reversed(line.receipts)
                if r.action in (ReceiptAction.RETRACT, ReceiptAction.SUPERSEDE)
            ),
            "retracted",
        )
        reason = f"retracted in the imported file: {why}"
        if theirs.refuted_by is RefutedBy.CORRECTION:
            change = supersede_change(mine, actor, reason, now, ReceiptAction.SUPERSEDE, None)
            return Plan(changes=(change,))
        return retraction_plan(mine, local.descendants(mine.id), actor, reason, None, now, commit)

    for line in parsed.memories:
        theirs = line.memory
        mine = local.memories.get(theirs.id)
        if mine is not None:
            to_store[theirs.id] = mine.id
            step = carry(line, mine)
            plan += step
            detail = (
                "forgotten here: its text is not brought back"
                if mine.forgotten and not theirs.forgotten
                else _what(step)
            )
            lines.append(ImportLine(line.line, theirs.id, ImportOutcome.UNCHANGED, detail))
            continue
        digest = None if theirs.forgotten else text_hash(theirs.text)
        same = [] if digest is None else list(local.by_claim.get(digest, ()))
        if digest is not None and not same and digest in claims:
            same = [claims[digest]]
        if same:
            into = same[0]
            to_store[theirs.id] = into
            step = carry(line, local.memories[into]) if into in local.memories else Plan()
            plan += step
            lines.append(ImportLine(line.line, theirs.id, ImportOutcome.MERGED, _what(step), into))
            continue
        clash = [r.id for r in line.receipts if r.id in receipts]
        clash += [o.id for o in line.observations if o.id in observations]
        if clash:
            detail = f"receipt or observation id {clash[0]} is already used in this store"
            lines.append(ImportLine(line.line, theirs.id, ImportOutcome.REFUSED, detail))
            continue
        receipts.update(r.id for r in line.receipts)
        observations.update(o.id for o in line.observations)
        to_store[theirs.id] = theirs.id
        added[theirs.id] = theirs
        if digest is not None:
            claims[digest] = theirs.id
        lines.append(ImportLine(line.line, theirs.id, ImportOutcome.ADDED))
    gated = _gated(parsed.memories, added, to_store, local, settings, now)
    imported = []
    for line in parsed.memories:
        if line.memory.id in added:
            imported.append(_imported(line, gated[line.memory.id], to_store))
    read = {m.line: m for m in parsed.memories}
    lines = [_said(line, read, gated) for line in lines]
    conflicts = []
    for c in parsed.conflicts:
        a, b = to_store.get(c.record.a_id), to_store.get(c.record.b_id)
        if a is None or b is None or a == b or not {c.record.a_id, c.record.b_id} & set(added):
            continue
        winner = to_store.get(c.record.winner or "", c.record.winner)
        loser = to_store.get(c.record.loser or "", c.record.loser)
        record = replace(c.record, a_id=a, b_id=b, winner=winner, loser=loser, seq=0)
        if _gone(a, local, added) or _gone(b, local, added):  # forgotten: its words stay gone
            record = replace(
                record,
                claim_a=None if _gone(a, local, added) else record.claim_a,
                claim_b=None if _gone(b, local, added) else record.claim_b,
                slot=None,
            )
        conflicts.append(record)
    plan = Plan(imported=tuple(imported), conflicts=tuple(conflicts)) + plan
    lines.sort(key=lambda line: line.line)
    return plan, ImportReport(tuple(lines), len(conflicts))


def _gone(memory_id: str, local: Local, added: Mapping[str, Memory]) -> bool:
    mem = added.get(memory_id) or local.memories.get(memory_id)
    return mem is not None and mem.forgotten


def _what(step: Plan) -> str:
    if step.forgets:
        return "forgotten here too, as in the file"
    if step.changes:
        return "retracted here too, as in the file"
    return ""


def _gated(
    lines: Sequence[MemoryLine],
    added: Mapping[str, Memory],
    to_store: Mapping[str, str],
    local: Local,
    settings: EvidenceSettings,
    now: datetime,
) -> dict[str, Gated]:
    """Each added memory through the trust gate, in the file's order. A derived memory's
    origins are bounded by its parents' as gated before it (an export lists parents
    first: oldest first) or as this store holds them; a parent named later in the file,
    or nowhere, bounds nothing, and the memory keeps its own origin alone."""
    done: dict[str, Gated] = {}
    for line in lines:
        mem = line.memory
        if mem.id not in added:
            continue
        known = []
        for parent in mem.derived_from:
            if parent in added:
                if parent in done:
                    known.append(frozenset(done[parent].memory.origins))
                continue
            mine = local.memories.get(to_store.get(parent, parent))
            if mine is not None:
                known.append(frozenset(mine.origins))
        parents = frozenset().union(*known) if known else None
        done[mem.id] = gate(mem, line.observations, parents, settings, now)
    return done


def _said(
    line: ImportLine, read: Mapping[int, MemoryLine], gated: Mapping[str, Gated]
) -> ImportLine:
    """An added line with what reading it and the trust gate changed of it."""
    if line.outcome is not ImportOutcome.ADDED or line.id is None or line.id not in gated:
        return line
    parsed = read[line.line]
    detail = f"secrets redacted in: {', '.join(parsed.redacted)}" if parsed.redacted else ""
    return replace(line, detail=detail, downgraded=(*parsed.dropped, *gated[line.id].downgraded))


def _imported(line: MemoryLine, gated: Gated, to_store: Mapping[str, str]) -> Imported:
    mem = gated.memory
    # Hidden characters and instruction-like text are flagged here as on remember, whatever
    # the file says (store.hostile): a file cannot unflag a note.
    flags = mem.flags if mem.forgotten else (*mem.flags, *hostile_flags(mem.text, mem.subject))
    mem = replace(
        mem,
        derived_from=tuple(dict.fromkeys(to_store.get(p, p) for p in mem.derived_from)),
        supersedes=to_store.get(mem.supersedes, mem.supersedes) if mem.supersedes else None,
        flags=tuple(dict.fromkeys(flags)),
    )
    if mem.forgotten:
        new = NewMemory(mem, "", {}, "", None)
    else:
        searched = search_text(mem.text, mem.subject, [s.anchor for s in mem.anchors])
        from store.contradictions.resolving import claim_keys  # the readers of notes: on use

        core = claim_keys(mem.text, mem.subject, None, None)[2] or None
        new = NewMemory(mem, text_hash(mem.text), memory_terms(searched), searched, core)
    return Imported(new, line.receipts, gated.observations, line.trail)
