"""Remembering: a note becomes a memory with anchors into the code, checked at once, its
contradictions decided, all written as one plan in one transaction."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from anchors.extract import (
    beside_given,
    disagreements,
    infer_anchors,
    read_given,
    unchecked_code,
    unchecked_words,
)
from anchors.facts import Fingerprint
from anchors.normalize import Resolved
from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from anchors.subject import apply_scope, resolve_subject
from anchors.value_claims import (
    uncovered_values,
    values_checked_by,
    values_configured_by,
    values_stated_by,
)
from anchors.verify import capture
from store.backend import utcnow
from store.contradictions.checking import asked
from store.contradictions.claims import slot_key
from store.contradictions.outcomes import ConflictState
from store.contradictions.related import related
from store.contradictions.related_note import Related
from store.contradictions.resolving import claim_keys
from store.errors import InvalidInput, StalePlan
from store.evidence.observations import ObservationKind, check_claimed_source
from store.evidence.observing import observation
from store.hostile import hostile_flags, reveal
from store.ids import new_id
from store.inputs import (
    clean_actor,
    clean_subject,
    clean_text,
    parse_anchors,
    parse_choice,
    resolve,
    withhold_secret_anchors,
)
from store.lifecycle import UNRESOLVED_CODE, remembered_again, text_hash, uncovered_flags
from store.limits import MAX_ANCHORS
from store.model import Kind, Memory, ReceiptAction, Source, Status, StoredAnchor
from store.plan import ConflictRecord, NewMemory, Plan
from store.reader import Reader
from store.reading import EXTERNAL_SCOPE, Unchecked, UncheckedReason
from store.redaction import without_placeholders
from store.results import Captured, Dropped, RememberOutcome, RememberResult, Rewritten
from store.search import memory_terms, search_text
from store.verification import Checked

__all__ = ["Note", "Prepared", "Remembering"]

_EXTERNAL_DETAIL = (
    "scope 'external' (or an episode): the note is about something outside the repository, "
    "so nothing was inferred and the code neither confirms nor refutes it"
)
_SECRET_DETAIL = (
    "the anchor held a secret, so it was not stored: an anchor names code (a variable's "
    "name, a file's path), never a secret's value"
)
_CODE_LIKE = re.compile(
    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z_]\w*\(\)|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(?\)?"
    r"|[\w./-]+\.py(?:::[\w.]+)?"
)


@dataclass(frozen=True)
class Note:
    """A note as the caller gave it, validated."""

    text: str
    subject: str | None
    kind: Kind
    scope: str | None
    source: Source
    origin: str
    given: tuple[Resolved, ...]
    attribute: str | None
    value: str | None
    derived_from: tuple[str, ...] = ()
    supersedes: str | None = None
    expires_at: datetime | None = None
    withheld: tuple[str, ...] = ()  # anchors given that held a secret, redacted


@dataclass(frozen=True)
class Prepared:
    """The plan of one remember, and what its result reports."""

    plan: Plan
    memory_id: str
    outcome: RememberOutcome
    checked: Checked | None = None
    conflicts: tuple[ConflictRecord, ...] = ()
    possible: tuple[ConflictRecord, ...] = ()
    captured: tuple[Captured, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    rewritten: tuple[Rewritten, ...] = ()
    related: tuple[Related, ...] = ()  # close notes the rules did not judge: for the agent


class Remembering:
    def __init__(self, reader: Reader) -> None:
        self._reader = reader
        self._db = reader.db
        self._settings = reader.settings

    def note(
        self,
        text: object,
        *,
        subject: object = None,
        kind: object = Kind.FACT,
        scope: object = None,
        source: object = Source.AGENT,
        origin: object = None,
        anchors: Sequence[object] | None = None,
        derived_from: Sequence[object] | None = None,
        supersedes: str | None = None,
        expires_at: datetime | None = None,
        attribute: object = None,
        value: object = None,
    ) -> Note:
        """Validate everything a caller gave before anything is read or written."""
        clean = clean_text(text, "text")
        the_source = parse_choice(Source, source, "source")
        check_claimed_source(the_source.value, self._settings.evidence.trusted_sources)
        the_attribute = clean_subject(attribute, "attribute")
        the_value = clean_subject(value, "value")
        if bool(the_attribute) != bool(the_value):
            raise InvalidInput("give attribute and value together (a slot), or neither")
        # An anchor holding a secret is dropped and reported, not refused (adr/0011); with
        # none left, the note is anchored as one given none: from its text.
        kept, withheld = withhold_secret_anchors(anchors)
        given = parse_anchors(kept)
        parents = sorted({self._reader.get(p, live=True).id for p in derived_from or []})
        return Note(
            text=clean,
            subject=clean_subject(subject),
            kind=parse_choice(Kind, kind, "kind"),
            scope=clean_subject(scope, "scope"),
            source=the_source,
            origin=clean_actor(origin, self._settings.origin or the_source.value, "origin"),
            given=tuple(given),
            attribute=the_attribute,
            value=the_value,
            derived_from=tuple(parents),
            supersedes=supersedes,
            expires_at=expires_at,
            withheld=withheld,
        )

    def remember(self, note: Note) -> RememberResult:
        for _attempt in range(3):
            prepared = self.prepare(note)
            try:
                self._db.apply(prepared.plan)
            except StalePlan:
                continue
            return self.result(prepared)
        raise StalePlan("the store kept changing under this note; try again")

    def result(self, prepared: Prepared) -> RememberResult:
        if prepared.outcome is RememberOutcome.PREVIOUSLY_RETRACTED:
            mem = self._reader.get(prepared.memory_id)
            receipt = self._reader.latest_receipt(
                mem.id, ReceiptAction.RETRACT, ReceiptAction.SUPERSEDE
            )
            reading = self._reader.read_checked(
                [mem.id], Checked(None, _unchecked_for(self._settings.verify))
            )[0]
            return RememberResult(replace(reading, receipt=receipt), prepared.outcome)
        if prepared.checked is None:
            reading = self._reader.readings([prepared.memory_id])[0]
        else:
            reading = self._reader.read_checked([prepared.memory_id], prepared.checked)[0]
        return RememberResult(
            reading,
            prepared.outcome,
            prepared.conflicts,
            prepared.captured,
            prepared.dropped,
            prepared.rewritten,
            prepared.possible,
            prepared.related,
        )

    def prepare(self, note: Note) -> Prepared:
        now = utcnow()
        digest = text_hash(note.text)
        for previous in self._db.find_by_text_hash(digest):
            if previous.retracted:
                return Prepared(
                    remembered_again(previous, note.origin, now),
                    previous.id,
                    RememberOutcome.PREVIOUSLY_RETRACTED,
                )
            if not previous.forgotten:
                record = observation(
                    previous,
                    True,
                    ObservationKind.RESTATEMENT,
                    note.source,
                    note.origin,
                    None,
                    None,
                    now,
                    self._settings.evidence,
                )
                return Prepared(
                    Plan(observations=(record,)), previous.id, RememberOutcome.DUPLICATE
                )
        return self._new(note, digest, now)

    def _new(self, note: Note, digest: str, now: datetime) -> Prepared:
        slot, env, core = claim_keys(note.text, note.subject, note.attribute, note.value)
        # Hidden characters and instruction-like text are flagged, stored as written and
        # served visibly and hedged (store.hostile).
        flags = hostile_flags(note.text, note.subject)
        target = self._reader.verifier.for_write(self._settings.capture_wait_s)
        fp = target.fingerprint
        resolved = (
            [resolve(r.given, fp) for r in note.given] if fp is not None else list(note.given)
        )
        explicit = list(dict.fromkeys(r.anchor for r in resolved))
        stored: list[StoredAnchor] = []
        dropped: list[Dropped] = []
        memory_scope = None
        # Episodes are events, not claims about what the code is: like notes about the
        # outside world, they are not anchored.
        external = (note.scope or "").lower() == EXTERNAL_SCOPE or note.kind is Kind.EPISODE
        if external and not explicit:
            dropped = [Dropped("", "external", _EXTERNAL_DETAIL)]
        elif fp is not None:
            # A placeholder's words ("github-token") are not the note's: not read.
            text, subject = without_placeholders(note.text), _unplaced(note.subject)
            memory_scope = resolve_subject(subject, text, fp)
            if explicit:
                scoped = apply_scope(tuple(explicit), memory_scope, fp)
                # A place the text states binds the given anchor (adr/0025); a role or a
                # relation the text states is not checked by it.
                inference = infer_anchors(text, fp, subject, scope=memory_scope)
                scoped, claims = read_given(text, fp, subject, memory_scope, scoped, inference)
                stored = [_capture(a, Provenance.EXPLICIT, fp) for a in scoped]
                # What the text says beyond the things the given anchors name (a place, a
                # value, a parameter, a library a component uses) is read as for a note
                # without anchors, and checked beside them (adr/0026).
                beside = () if external else beside_given(scoped, inference.anchors)
                stored += [_capture(a, Provenance.INFERRED, fp) for a in beside]
                # Given anchors check what they name; a value the text states is checked
                # only by an anchor that carries it (a dependency's version ...).
                versions = values_checked_by(
                    text, [a.version for a in scoped if a.version and a.stated is None]
                )
                # ... or a constant's or an environment default's (``env:PAGE_SIZE=50``)
                versions += values_stated_by(text, [a.stated for a in scoped if a.stated])
                # ... or what an infrastructure file states (``config:Dockerfile::FROM=...``)
                versions += values_configured_by(
                    text, [a.version for a in scoped if a.kind is AnchorKind.CONFIG and a.version]
                )
                # ... or an anchor of the text's own reading, kept beside them.
                unread = None if external else set(inference.uncovered)
                uncovered = [v.phrase for v in uncovered_values(text, versions)
                             if unread is None or v.phrase in unread] + claims  # fmt: skip
                if not any(a.kind in (AnchorKind.PARAM, AnchorKind.CALL) for a in scoped):
                    uncovered += inference.arguments
                # "utils.py decodes tokens with jwt" given file:utils.py: jwt is not checked
                uncovered += unchecked_words(scoped, inference.words)
                # "config.py finds it through pkg_resources" given file:config.py: code the
                # reading found nowhere is not checked by the file's anchor either
                uncovered += unchecked_code(scoped, inference)
                # "mux.go doesn't import regexp" given import:regexp@mux.go: not what it says
                uncovered += [] if external else disagreements(scoped, inference.anchors)
                # "route.go doesn't touch regexes" given file:route.go: a negation only an
                # absent anchor checks
                if not external and not any(a.expect is Expect.ABSENT for a in scoped):
                    uncovered += inference.negations
            else:
                # The scope is the one just resolved: the inference need not resolve it again.
                inference = infer_anchors(text, fp, subject, scope=memory_scope)
                stored = [_capture(a, Provenance.INFERRED, fp) for a in inference.anchors]
                if any(_names_missing_code(d.candidate, str(d.reason)) for d in inference.dropped):
                    flags = (*flags, UNRESOLVED_CODE)
                uncovered = list(inference.uncovered)
                dropped = [
                    Dropped(reveal(d.candidate), str(d.reason), d.detail) for d in inference.dropped
                ]
            if uncovered and UNRESOLVED_CODE not in flags:
                flags = (*flags, *uncovered_flags(uncovered))
        else:
            stored = [StoredAnchor(a, Provenance.EXPLICIT) for a in explicit]
            if not explicit and not external:
                dropped = [Dropped("", "cannot_verify", target.why_not)]
        # No anchor stored here holds a secret: the given ones that did were withheld in
        # ``note``, and the rest are read from text and a subject already redacted.
        stored = stored[:MAX_ANCHORS]
        dropped = [*(Dropped(a, "secret", _SECRET_DETAIL) for a in note.withheld), *dropped]
        memory = Memory(
            id=new_id("m"),
            text=note.text,
            subject=note.subject,
            kind=note.kind,
            scope=note.scope or env or memory_scope,
            source=note.source,
            origin=note.origin,
            created_at=now,
            commit=target.commit,
            status=Status.ACTIVE,
            anchors=tuple(stored),
            derived_from=note.derived_from,
            supersedes=note.supersedes,
            flags=flags,
            origins=self._origins(note.origin, note.derived_from),
            evidence_at=now,
            expires_at=note.expires_at,
            attribute=slot_key(slot) if slot else None,
            slot_value=slot.value if slot else None,
        )
        searched = search_text(note.text, note.subject, [s.anchor for s in stored])
        insert = NewMemory(
            memory,
            digest,
            memory_terms(searched),
            searched,
            core or None,
            {"anchors": [s.anchor.render() for s in stored], "flags": list(flags)},
        )
        checked = self._reader.verifier.check([memory], self._settings.capture_wait_s)
        after = memory
        for change in checked.plan.changes:
            after = replace(after, status=change.to_status, refuted_by=change.refuted_by)
        conflict_plan: Plan = Plan()
        conflicts: list[ConflictRecord] = []
        close: tuple[Related, ...] = ()
        if self._settings.conflicts:
            # The close notes are judged too, however they word it; the rules' own
            # findings are reported as such, the rest of the close notes are put to the
            # agent, and nothing about them is written.
            close = related(self._db, after, ())
            conflict_plan, conflicts = self._reader.contradictions.on_remember(
                after, core or None, now, [r.id for r in close]
            )
            judged = {i for c in conflicts for i in (c.a_id, c.b_id)}
            if judged.intersection(r.id for r in close):
                close = related(self._db, after, judged)
        return Prepared(
            Plan(memories=(insert,)) + checked.plan + conflict_plan,
            memory.id,
            RememberOutcome.STORED,
            checked,
            tuple(c for c in conflicts if c.state is not ConflictState.POSSIBLE),
            asked(conflicts),
            tuple(Captured(s.anchor, s.provenance, s.found_in) for s in stored),
            tuple(dropped),
            tuple(Rewritten(r.given, r.anchor, tuple(r.changes)) for r in resolved if r.changes),
            related=close,
        )

    def _origins(self, origin: str, parents: Sequence[str]) -> tuple[str, ...]:
        """A memory's own origin; a derived memory inherits its parents' origins instead,
        so a summary never corroborates what it summarises (seed 000)."""
        if not parents:
            return (origin,)
        found = self._db.load(parents)
        return tuple(sorted({o for p in found.values() for o in (p.origins or (p.origin,))}))


def _unplaced(subject: str | None) -> str | None:
    return without_placeholders(subject) if subject else subject


def _unchecked_for(verify: bool) -> Unchecked:
    return Unchecked(UncheckedReason.UNCHECKED if verify else UncheckedReason.OFF)


def _capture(anchor: Anchor, provenance: Provenance, fp: Fingerprint) -> StoredAnchor:
    cap = capture(anchor, fp)
    return StoredAnchor(anchor, provenance, tuple(cap.found_in), cap.content_hash)


def _names_missing_code(candidate: str, reason: str) -> bool:
    """A dropped candidate that is unmistakably code (``compute_discount``, ``f()``,
    ``a.b``, ``x.py::f``) and was found nowhere."""
    return reason in ("unresolved", "ambiguous") and bool(_CODE_LIKE.fullmatch(candidate))
