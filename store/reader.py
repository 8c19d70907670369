"""Reading memories: each checked against the code at HEAD, what that changes written
in one transaction, each reading built once."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from store.backend import Store, utcnow
from store.errors import InvalidInput, NotFound, StalePlan
from store.evidence.settings import EvidenceSettings
from store.lifecycle import code_standing
from store.model import Memory, Receipt, ReceiptAction, RefutedBy, Status
from store.reading import Reading, partners, read, serve
from store.verification import Checked, Verifier

if TYPE_CHECKING:  # imported when first used (``Reader.contradictions``)
    from store.contradictions.checking import Contradictions

__all__ = ["Reader", "ServiceSettings"]


@dataclass(frozen=True)
class ServiceSettings:
    verify_budget_s: float = 0.050
    capture_wait_s: float = 30.0
    actor: str = "agent"
    evidence: EvidenceSettings = field(default_factory=EvidenceSettings)
    # False: no verify-on-read at all; memories are served with their stored status and
    # verification "off" (ANCHORMEM_VERIFY=0, the add-only arm of the experiment).
    verify: bool = True
    # False: a new memory is not checked for contradictions (ANCHORMEM_CONFLICTS=0).
    conflicts: bool = True
    # Who a note or an observation is from when the caller names no one: a person's or
    # an agent's identity in a team's shared store (ANCHORMEM_ORIGIN), each an independent
    # origin for evidence gating; None: the source ("agent").
    origin: str | None = None


_RECEIPTS_FOR: dict[RefutedBy | None, tuple[ReceiptAction, ...]] = {
    RefutedBy.CODE: (ReceiptAction.REFUTE_BY_CODE,),
    RefutedBy.RETRACTION: (ReceiptAction.RETRACT,),
    RefutedBy.CORRECTION: (ReceiptAction.SUPERSEDE, ReceiptAction.RETRACT),
    None: (),
}


class Reader:
    def __init__(self, db: Store, verifier: Verifier, settings: ServiceSettings) -> None:
        self.db = db
        self.verifier = verifier
        self.settings = settings
        self._contradictions: Contradictions | None = None
        self._made = threading.Lock()

    @property
    def contradictions(self) -> Contradictions:
        """The contradiction check, imported and made on first use (by a reading, or by
        the service that writes), not when the service is put together."""
        with self._made:
            if self._contradictions is None:
                from store.contradictions.checking import Contradictions

                self._contradictions = Contradictions(self.db, self.settings.evidence)
            return self._contradictions

    def get(self, memory_id: object, live: bool = False) -> Memory:
        if not isinstance(memory_id, str) or not memory_id.strip():
            raise InvalidInput("a memory id is required")
        try:  # e.g. invalid UTF-8 in a command-line argument
            memory_id.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput("a memory id contains invalid Unicode (a lone surrogate)") from None
        mem = self.db.get(memory_id.strip())
        if mem is None:
            raise NotFound(f"no memory with id {memory_id.strip()[:40]!r}")
        if live and mem.forgotten:
            raise NotFound(f"memory {mem.id} was forgotten")
        return mem

    def latest_receipt(self, memory_id: str, *actions: ReceiptAction) -> Receipt | None:
        matching = [r for r in self.db.receipts(memory_id) if r.action in actions]
        return matching[-1] if matching else None

    def check(self, ids: Sequence[str], wait_s: float | None) -> Checked:
        """Verdicts at HEAD of ``ids``, with what they change written (one transaction:
        status changes, the conflicts they re-decide, verdicts to cache)."""
        for _attempt in range(3):
            memories = self.db.load(ids)
            checked = self.verifier.check(list(memories.values()), wait_s)
            plan = checked.plan + self.contradictions.after_changes(checked.plan.changes, utcnow())
            try:
                self.db.apply(plan)
                return checked
            except StalePlan:
                continue  # another process changed one of them: read again
        return Checked(checked.commit, checked.unchecked)

    def readings(self, ids: Sequence[str], wait_s: float | None = None) -> list[Reading]:
        """Readings of ``ids`` in order, each checked against HEAD (within the budget
        unless ``wait_s``)."""
        checked = self.check(ids, wait_s)
        return self.read_checked(ids, checked)

    def read_checked(self, ids: Sequence[str], checked: Checked) -> list[Reading]:
        memories = self.db.load(ids)
        now = utcnow()
        result = []
        for mid in ids:
            mem = memories.get(mid)
            if mem is None:
                continue
            check = checked.checks.get(mid)
            standing = None if check is None else code_standing(mem, check)
            if standing is not None:
                # The status this HEAD's verdict gives it, whatever a server at another
                # commit wrote since (a shared store: adr/0034).
                mem = replace(mem, status=standing[0], refuted_by=standing[1])
            receipt = None
            if mem.status is Status.REFUTED:
                receipt = self.latest_receipt(mem.id, *_RECEIPTS_FOR[mem.refuted_by])
            result.append(
                read(
                    mem,
                    check,
                    checked.commit,
                    checked.unchecked,
                    receipt,
                    now,
                    self.settings.evidence,
                )
            )
        return result

    def with_conflicts(self, readings: Sequence[Reading]) -> list[Reading]:
        """Readings with their open conflicts marked and the other sides beside them."""
        marks = self.contradictions.marks([r.id for r in readings])
        beside = sorted(partners(readings, marks))
        extra = {r.id: r for r in self.readings(beside)} if beside else {}
        if extra:
            marks.update(self.contradictions.marks(list(extra)))
        return serve(readings, marks, extra.get)
