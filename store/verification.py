"""Checking memories against the code at HEAD: verdicts from the cache or computed within
the read budget, and the plan they make (status changes, verdicts to cache).

Memories are checked against the committed code first; only those it refutes or finds
drifted are checked again with uncommitted edits laid over it (one ``git status``), so
code the agent just wrote is not held against a memory, and a warm read costs no
subprocess (adr/0003).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field

from anchors.errors import CodeError
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, FingerprintUnavailable
from anchors.verdicts import Capture, MemoryVerdict, Verdict, memory_verdict, rejudge_drift
from anchors.vocabulary import VOCABULARY_VERSION
from store.backend import Store, utcnow
from store.lifecycle import code_verdict_change, moves_forward
from store.model import Memory, MemoryCheck, StoredAnchor
from store.plan import Plan, VerdictRecord
from store.reading import Unchecked, UncheckedReason

__all__ = ["CHECKER_VERSION", "Checked", "Verifier"]

# Verdicts are cached per (memory, commit, overlay); the checker's rules, the vocabulary
# and the cached form are part of the key, so an upgrade never serves a verdict computed
# by other rules.
# c5: lines quoted; c6: value anchors; c7: what a claim says is checked (adr/0025);
# c8: a technology named only by lock files, generated files or data is unused;
# c9: settings dicts, classifiers, durations, a Dockerfile's user, documentation (adr/0037)
# c10: what an image runs with, what a file uses (adr/0038); c11: the HTTP statuses a
# function sets (adr/0039); c12: missing members, concepts and unnamed statuses, named
# setting defaults (adr/0041, adr/0043); c13: an environment default at every read site,
# a value a named file sets, arithmetic of numbers (adr/0043); c14: flags and empty values
# in words, a literal that names the stated word, Go durations in seconds (adr/0045);
# c17: a standard's number ("RFC 3339") is no value a note states; a default said in
# words, a relation between definitions and a property of one are parts left unchecked
# c18: what a definition does is a part left unchecked; values in more forms (a unit, a
# standard, a size, a quoted key), the stated file binds a definition (adr/0051)
# c19: the types a function takes and returns (adr/0052)
# c20: "returns only T", a Rust ``Option<T>`` said to be a T, a short string looked for
# whole (adr/0053)
# c23: a variable the code writes as a literal is no variable nothing reads; a Go
# import's alias is no package it imports (adr/0058)
# c24: what a placed definition or a file does, what a file that is not code says, and how
# an import is made are parts left unchecked; more names read for what they are (adr/0059)
# c25: what the tree need not hold (a bundler's output, the program's own settings file),
# values and messages as code writes them, Go members by import path (adr/0061)
# c26: an application's YAML settings, written ranges and supported Python versions, a
# declaration denied, and more words read for what they are (adr/0062)
CHECKER_VERSION = f"c26.{VOCABULARY_VERSION}"


@dataclass(frozen=True)
class Checked:
    """Verdicts at HEAD for some memories; why the others have none; what to write."""

    commit: str | None
    unchecked: Unchecked
    checks: Mapping[str, MemoryCheck] = field(default_factory=dict)
    plan: Plan = field(default_factory=Plan)


@dataclass(frozen=True)
class ForWrite:
    """The code a new memory's anchors are captured against, or why there is none."""

    fingerprint: Fingerprint | None
    commit: str | None
    why_not: str


class Verifier:
    def __init__(self, db: Store, code: CodeSource | None, budget_s: float, on: bool) -> None:
        self._db = db
        self._code = code
        self._budget_s = budget_s
        self._on = on
        self._ancestry: dict[tuple[str, str], bool] = {}

    def _is_ancestor(self, older: str, newer: str) -> bool | None:
        """Asked of this checkout's git, once per pair (history does not change; a commit
        not known here may be fetched later, so that answer is not kept)."""
        known = self._ancestry.get((older, newer))
        if known is None and self._code is not None:
            try:
                known = self._code.repo.is_ancestor(older, newer)
            except (CodeError, ValueError):
                known = None
            if known is not None:
                self._ancestry[(older, newer)] = known
        return known

    def head(self) -> str | None:
        return None if self._code is None else self._code.head().commit

    def check(self, memories: Sequence[Memory], wait_s: float | None) -> Checked:
        """Verdicts of ``memories`` at HEAD, within the read budget unless ``wait_s`` is
        given (then it waits that long for the fingerprint and checks everything)."""
        if not self._on:
            return Checked(None, Unchecked(UncheckedReason.OFF))
        start = time.monotonic()
        if self._code is None:
            return Checked(None, Unchecked(UncheckedReason.CANNOT_VERIFY, "no git repository"))
        head = self._code.head()
        if head.commit is None:
            return Checked(None, Unchecked(UncheckedReason.CANNOT_VERIFY, head.status.value))
        checkable = [m for m in memories if not m.retracted and not m.forgotten]
        cached = self._db.verdicts([m.id for m in checkable], head.commit, _key(""))
        if self._cached_answer(checkable, cached, head.commit):
            return self._outcome(head.commit, checkable, cached, [])
        try:
            base = self._code.fingerprint_within(
                self._budget_s if wait_s is None else wait_s, overlay=False
            )
        except FingerprintUnavailable as exc:
            return Checked(head.commit, Unchecked(UncheckedReason.CANNOT_VERIFY, exc.status.value))
        if base is None:
            return Checked(head.commit, Unchecked(UncheckedReason.UNCHECKED))
        deadline = None if wait_s is not None else start + self._budget_s
        verdicts, fresh = self._checked(checkable, base, deadline, cached)
        suspect = [m for m in checkable if m.id in verdicts and _needs_overlay(verdicts[m.id])]
        if suspect:
            try:
                overlaid = self._code.fingerprint_within(0.0, overlay=True)
            except FingerprintUnavailable:
                overlaid = None
            if overlaid is not None and overlaid.overlay:
                again, more = self._checked(suspect, overlaid, None)
                verdicts.update(again)
                fresh += more
        return self._outcome(base.commit, checkable, verdicts, fresh)

    def _cached_answer(
        self, memories: Sequence[Memory], cached: dict[str, MemoryCheck], commit: str
    ) -> bool:
        """Whether the verdicts ``cached`` at ``commit`` answer for ``memories``: every one
        has one, and the work tree's edits could change none of them (there are none, or no
        verdict is one they could change). Then the answer needs no fingerprint, which a
        process would otherwise build, from the facts of every file, before answering."""
        assert self._code is not None
        if len(cached) < len(memories):
            return False
        return not (any(_needs_overlay(c) for c in cached.values()) and self._code.edited(commit))

    def _outcome(
        self,
        commit: str,
        memories: Sequence[Memory],
        verdicts: dict[str, MemoryCheck],
        fresh: list[VerdictRecord],
    ) -> Checked:
        """The verdicts at ``commit``, with the plan recording the new ones and the status
        changes they make."""
        now = utcnow()
        changes = []
        for mem in memories:
            if mem.id in verdicts:
                change = code_verdict_change(mem, verdicts[mem.id], now)
                if change is not None and (
                    not self._db.shared or moves_forward(mem, commit, self._is_ancestor)
                ):
                    changes.append(change)
        plan = Plan(changes=tuple(changes), verdicts=tuple(fresh))
        return Checked(commit, Unchecked(UncheckedReason.UNCHECKED), verdicts, plan)

    def _checked(
        self,
        memories: Sequence[Memory],
        fp: Fingerprint,
        deadline: float | None,
        cached: dict[str, MemoryCheck] | None = None,
    ) -> tuple[dict[str, MemoryCheck], list[VerdictRecord]]:
        """Checks of ``memories`` at ``fp``: cached per (memory, commit, overlay) (``cached``:
        already read), computed for the rest until ``deadline``; what is left is unchecked.
        The checkers are imported by the first verdict to compute: a process answering from
        cached ones needs none."""
        from anchors.verify import check_anchor

        key = _key(fp.overlay)
        found = dict(cached) if cached is not None else self._db.verdicts(
            [m.id for m in memories], fp.commit, key)  # fmt: skip
        fresh = []
        now = utcnow()
        for mem in memories:
            if mem.id in found:
                continue
            if deadline is not None and time.monotonic() > deadline:
                break
            checks = rejudge_drift(
                [check_anchor(s.anchor, _captured(s), fp) for s in mem.anchors]
            )
            check = MemoryCheck(memory_verdict(checks), checks, fp.commit)
            found[mem.id] = check
            fresh.append(VerdictRecord(mem.id, key, check, now))
        return found, fresh

    def for_write(self, wait_s: float) -> ForWrite:
        if self._code is None:
            return ForWrite(None, None, "no git repository")
        head = self._code.head()
        if head.commit is None:
            return ForWrite(None, None, f"repository cannot be verified: {head.status.value}")
        try:
            fp = self._code.fingerprint_within(wait_s, overlay=True)
        except FingerprintUnavailable as exc:
            return ForWrite(None, head.commit, f"repository cannot be verified: {exc.status.value}")
        if fp is None:
            return ForWrite(None, head.commit, "the code fingerprint is still being built")
        return ForWrite(fp, fp.commit, "")

    def fingerprint(self, progress: object = None) -> None:
        """Build the fingerprint now (``verify``), reporting progress."""
        if self._code is not None:
            with suppress(FingerprintUnavailable):  # reported per memory by the check after
                self._code.fingerprint(progress=progress)  # type: ignore[arg-type]


def _key(overlay: str) -> str:
    """What verdicts are cached under beside their commit: the overlay of uncommitted edits
    checked ("" for none) and the checker's version."""
    return f"{overlay}#{CHECKER_VERSION}"


def _captured(stored: StoredAnchor) -> Capture:
    return Capture(found_in=stored.found_in, content_hash=stored.content_hash)


def _needs_overlay(check: MemoryCheck) -> bool:
    return check.verdict is MemoryVerdict.REFUTED or check.has(Verdict.DRIFTED)
