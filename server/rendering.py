"""The one conversion of the store's typed results into what is served, one small function
per result type: the full view (the JSON the CLI prints, ``detail``, ``memory://<id>``) and
the agent's compact view (the tools' structured content, described to clients by the output
models of ``server.schemas``). Both are built from our own typed values, so they are not
validated again. Free text is served through ``store.hostile.reveal``: hidden characters
come back as visible ``[U+XXXX]`` escapes, never invisibly."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from anchors.spec import Anchor
from anchors.verdicts import AnchorCheck, Verdict
from store.contradictions.outcomes import question_text
from store.contradictions.related_note import QUESTION as RELATED_QUESTION
from store.contradictions.related_note import Related, RelatedPair
from store.hostile import reveal_all
from store.model import AuditEntry, Receipt, Status, StoredAnchor
from store.plan import ConflictRecord
from store.reading import Reading, VerificationState
from store.results import (
    AuditResult,
    ConflictsResult,
    ConsolidateResult,
    ForgetResult,
    ListResult,
    ObserveResult,
    RecallResult,
    RememberResult,
    ResolveResult,
    RestoreResult,
    RetractResult,
    ReviewResult,
    ShowResult,
    StatsResult,
)

__all__ = ["ToolContent", "dump", "dump_compact", "render_result", "tool_content"]

View = dict[str, Any]

# A remember lists this many of the conflicts it decided, and of the pairs it asks about;
# the rest are counted. A note meeting a hundred others is the store's to keep, not the
# agent's to read: 36 KB of pairs in one answer (adr/0017).
LISTED = 10
# An anchor's verdict as the agent reads it, after the anchor.
MARKS = {"holds": "✓", "broken": "✗", "drifted": "~", "unknown": "?", "unchecked": "·"}


def timestamp(value: datetime | None) -> str | None:
    """A moment as served: ISO 8601 to the second."""
    return value.isoformat(timespec="seconds") if value else None


def _pick(view: View, *keys: str) -> View:
    return {k: view[k] for k in keys}


def refuted_matches(ids: tuple[str, ...]) -> str | None:
    """One line for matches recall does not serve because they are REFUTED: the agent can
    tell "nothing known" from "what was believed is wrong" without being served it."""
    if not ids:
        return None
    many = len(ids) > 1
    uris = ", ".join(f"memory://{i}" for i in ids)
    return (
        f"{len(ids)} matching note{'s are' if many else ' is'} refuted (by the code or a"
        f" retraction), not served as truth: {uris}"
    )


# -- The full view ---------------------------------------------------------------------------


def receipt(r: Receipt | None) -> View | None:
    if r is None:
        return None
    return {
        "id": r.id,
        "memory_id": r.memory_id,
        "action": r.action.value,
        "actor": r.actor,
        "reason": r.reason,
        "evidence": r.evidence,
        "cause": r.cause_id,  # the memory whose retraction cascaded here
        "commit": r.commit,
        "at": timestamp(r.created_at),
    }


def _verdict(reading: Reading, position: int) -> str:
    """An anchor's verdict as served: the code's, or unchecked when it was not checked."""
    done = _check(reading, position)
    return done.verdict.value if done else "unchecked"


def _check(reading: Reading, position: int) -> AnchorCheck | None:
    checks = reading.check.checks if reading.check else ()
    return checks[position] if position < len(checks) else None


def _anchor(stored: StoredAnchor, reading: Reading, position: int) -> View:
    a = stored.anchor
    done = _check(reading, position)
    return {
        "anchor": a.render(),
        "kind": a.kind.value,
        "value": a.value,
        "expect": a.expect.value,
        "scope": a.scope,
        "version": a.version,
        "provenance": stored.provenance.value,
        "verdict": _verdict(reading, position),
        "found_in": list(done.found_in if done else stored.found_in),
        "detail": done.detail if done else None,
    }


def memory(reading: Reading) -> View:
    """A memory as served in full: its claim, provenance, status, standing (confidence
    0-10, 5.0 with no evidence either way; band assert, hedge or hidden; a candidate has
    one origin and no code's verification) and what was checked, at ``checked_commit``."""
    m = reading.memory
    s = reading.standing
    return {
        "id": m.id,
        "text": None if m.forgotten else m.text,
        "subject": m.subject,
        "kind": m.kind.value,
        "scope": m.scope,
        "source": m.source.value,
        "origin": m.origin,
        "created_at": timestamp(m.created_at),
        "written_at_commit": m.commit,
        "status": m.status.value,
        "refuted_by": m.refuted_by.value if m.refuted_by else None,
        "confidence": s.confidence,
        "observations": m.observations,
        "checked_commit": reading.checked_commit,
        "verification": reading.verification.label,
        "anchors": [_anchor(a, reading, i) for i, a in enumerate(m.anchors)],
        "derived_from": list(m.derived_from),
        "supersedes": m.supersedes,
        "flags": list(reading.flags),
        "receipt": receipt(reading.receipt),
        "forgotten": m.forgotten,
        "band": s.band.value,
        "origins": s.origins,
        "candidate": s.candidate,
        "last_confirmed_at": timestamp(s.last_confirmed_at),
        "provenance": s.provenance,
        "expires_at": timestamp(m.expires_at),
        "conflicts": [
            {"with": c.other, "reason_code": c.reason_code.value, "kind": c.kind.value}
            for c in reading.conflicts
        ],
    }


def conflict(r: ConflictRecord) -> View:
    return {
        "ids": [r.a_id, r.b_id],
        "kind": r.kind.value,
        "claims": [r.claim_a, r.claim_b],
        "state": r.state.value,
        "rule": r.rule.value,
        "outcome": r.outcome.value,
        "winner": r.winner,
        "loser": r.loser,
        "reason_code": r.reason_code.value,
        "confidences": [r.confidence_a, r.confidence_b],
    }


def possible_conflict(r: ConflictRecord) -> View:
    """A pair the rules cannot decide: what to decide, answered with ``resolve``."""
    return {
        "ids": [r.a_id, r.b_id],
        "claims": [r.claim_a, r.claim_b],
        "kind": r.kind.value,
        "state": r.state.value,
        "reason_code": r.reason_code.value,
        "question": question_text(r.state),
    }


def audit_entry(e: AuditEntry) -> View:
    return _plain(e)


def _plain(value: Any) -> Any:
    """A value of a result as JSON values: a memory, receipt or conflict as above, an
    anchor in its syntax, an enum as its value, any other dataclass as its fields."""
    convert = _AS.get(type(value))
    if convert is not None:
        return convert(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return timestamp(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


_AS: dict[type, Callable[[Any], Any]] = {
    Reading: memory,
    Receipt: receipt,
    ConflictRecord: conflict,
    Anchor: Anchor.render,
}


def _related_pairs(result: ConsolidateResult) -> View:
    """The close pairs nobody judged, one line each (none: left out). The question is the
    tool's own (its description), as for ``possible_conflicts``."""
    if not result.related:
        return {"related": None, "more_related": None}
    return {
        "related_compared": result.related_compared,
        # Through the owner's socket a pair comes back as plain tuples (``store.sharing.codec``).
        "related": [RelatedPair(*(Related(*n) for n in pair)).line() for pair in result.related],
        "more_related": result.more_related or None,
    }


def _related(result: RememberResult) -> View:
    """The close notes the rules did not judge, one short line each, and the one question
    they put to the agent (none: both left out)."""
    if not result.related:
        return {}
    return {"related": [r.line() for r in result.related], "related_question": RELATED_QUESTION}


def _remember(r: RememberResult) -> View:
    return {
        **memory(r.reading),
        "outcome": r.outcome.value,
        "conflicts": _plain(r.conflicts),
        "captured": _plain(r.captured),
        "dropped": _plain(r.dropped),
        "rewritten": _plain(r.rewritten),
        "possible_conflicts": [possible_conflict(c) for c in r.possible_conflicts],
        "related": [],  # unless there are some (``_related``)
        "related_question": None,
        **_related(r),
    }


def _stats(r: StatsResult) -> View:
    return {
        "memories_written": r.memories_written,
        "wrong_fact_signals": {
            "corrections": r.corrections,
            "retractions": r.retractions,
            "refutations_by_code": r.refutations_by_code,
        },
        "missed_fact_signals": {"restatements": r.restatements},
        "correction_rate": r.correction_rate,
        "retracted_claims_remembered_again": r.retracted_claims_remembered_again,
    }


# Each result type: the name its view goes by (``ToolContent.model``) and its full view.
_FULL: dict[type, tuple[str, Callable[[Any], View]]] = {
    RememberResult: ("RememberOut", _remember),
    RecallResult: (
        "RecallOut",
        lambda r: {
            "query": r.query,
            "checked_commit": r.checked_commit,
            "memories": _plain(r.readings),
            "refuted_matches": refuted_matches(r.refuted),
        },
    ),
    ListResult: (
        "VerifyOut",
        lambda r: {"checked_commit": r.checked_commit, "memories": _plain(r.readings)},
    ),
    ShowResult: ("ShowOut", lambda r: {**memory(r.reading), "receipts": _plain(r.receipts)}),
    RetractResult: (
        "RetractOut",
        lambda r: {
            "id": r.id,
            "status": Status.REFUTED.value,
            "receipt": receipt(r.receipt),
            "cascaded": [{"id": c.memory_id, "receipt": receipt(c)} for c in r.cascaded],
            "outcome": r.outcome.value,
        },
    ),
    RestoreResult: (
        "RestoreOut",
        lambda r: {**memory(r.reading), "receipt": receipt(r.receipt), "restored": [*r.restored]},
    ),
    ForgetResult: (
        "ForgetOut",
        lambda r: {"id": r.id, "forgotten": True, "receipt": receipt(r.receipt), "note": r.reach},
    ),
    AuditResult: ("AuditOut", _plain),
    ObserveResult: (
        "ObserveOut",
        lambda r: {
            **memory(r.reading),
            "effect": r.effect.value,
            "new_memory": r.new_memory or None,
            "episode": r.episode or None,
        },
    ),
    ReviewResult: ("ReviewOut", _plain),
    StatsResult: ("StatsOut", _stats),
    ConsolidateResult: (
        "ConsolidateOut",
        lambda r: {
            **_plain(r),  # its pairs are questions, not decisions:
            "possible_conflicts": [possible_conflict(c) for c in r.possible_conflicts],
            **_related_pairs(r),
        },
    ),
    ResolveResult: ("ResolveOut", _plain),
    ConflictsResult: ("ConflictsOut", _plain),
}


def _full(result: object) -> tuple[str, View]:
    found = _FULL.get(type(result))
    if found is None:
        raise TypeError(f"no rendering for {type(result).__name__}")
    return found[0], found[1](result)


def render_result(result: object) -> View:
    """The full view of one result, every string in it revealed."""
    return reveal_all(_full(result)[1])


def dump(view: View) -> View:
    """The full view as JSON values (it is one already)."""
    return view


def dump_compact(view: View) -> View:
    """A view as a tool's structured content: no nulls (the schema leaves them out)."""
    return {k: _compact(v) for k, v in view.items() if v is not None}


def _compact(value: Any) -> Any:
    if isinstance(value, dict):
        return dump_compact(value)
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


class Rendered:
    """A service whose every call returns the JSON the tools and the CLI return (for
    scripts and tests that drive the library directly)."""

    def __init__(self, service: object) -> None:
        self._service = service

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._service, name)
        if not callable(fn):
            return fn

        def call(*args: Any, **kwargs: Any) -> View:
            return dump(render_result(fn(*args, **kwargs)))

        return call


# -- The agent's view: what the tools hand the model ----------------------------------------
# One rendering of each Reading, compact: nulls and empty lists left out, the commit once
# per result, anchors as strings with their verdict's mark, the status with its reason in
# one line. The full record (``memory`` above) comes with ``detail``.


def _age(then: datetime, now: datetime) -> str:
    seconds = max(0.0, (now - then).total_seconds())
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return f"{int(seconds // 60)}min ago"


def _named(reading: Reading, verdict: Verdict, word: str) -> str | None:
    checks = reading.check.checks if reading.check else ()
    hit = [c for c in checks if c.verdict is verdict]
    if not hit:
        return None
    more = f" and {len(hit) - 1} more" if len(hit) > 1 else ""
    if more and word == "holds":
        word = "hold"
    at = f" at {reading.checked_commit[:7]}" if reading.checked_commit else ""
    detail = f": {hit[0].detail}" if verdict is not Verdict.HOLDS and hit[0].detail else ""
    return f"{hit[0].anchor.render()}{more} {word}{at}{detail}"


def why(reading: Reading) -> str:
    """A memory's status in one line: what holds, what broke, who retracted it."""
    m = reading.memory
    state = reading.verification.state
    if state is VerificationState.RETRACTED or (
        m.status is Status.REFUTED and state is not VerificationState.REFUTED_BY_CODE
    ):
        r = reading.receipt
        by = m.refuted_by.value if m.refuted_by else "retraction"
        return f"refuted ({by}) by {r.actor}: {r.reason}" if r else f"refuted ({by})"
    if state is VerificationState.VERIFIED:
        return _named(reading, Verdict.HOLDS, "holds") or "verified"
    if state is VerificationState.REFUTED_BY_CODE:
        return _named(reading, Verdict.BROKEN, "broken") or "refuted by the code"
    if state is VerificationState.DRIFTED:
        return _named(reading, Verdict.DRIFTED, "drifted") or "drifted"
    return reading.verification.label


def _brief(reading: Reading) -> View:
    """A memory as the agent reads it (``AgentMemory``): its open conflicts the first
    ``LISTED``, then how many more."""
    m, s = reading.memory, reading.standing
    who = m.source.value if m.origin == m.source.value else f"{m.source.value} {m.origin}"
    marks = [f"{c.other} ({c.kind.value}: {c.reason_code.value})" for c in reading.conflicts]
    if len(marks) > LISTED:
        marks[LISTED:] = [f"and {len(marks) - LISTED} more"]
    return {
        "id": m.id,
        "text": None if m.forgotten else m.text,
        "status": m.status.value,
        "why": why(reading),
        "band": s.band.value,
        "confidence": s.confidence,
        "source": f"{who}, {_age(m.created_at, datetime.now(UTC))}",
        "anchors": [
            f"{a.anchor.render()} {MARKS[_verdict(reading, i)]}" for i, a in enumerate(m.anchors)
        ]
        or None,
        "flags": list(reading.flags) or None,
        "conflicts": marks or None,
    }


def agent_memory(reading: Reading, score: float | None = None) -> View:
    """A recalled memory (``AgentMemory``): its brief and its score."""
    return {**_brief(reading), "score": None if score is None else round(score, 2)}


def _standing(reading: Reading) -> View:
    """Where a memory stands (``MemoryStatus``)."""
    return _pick(_brief(reading), "id", "status", "why", "band", "confidence")


def _decided(r: ConflictRecord) -> View:
    """A conflict decision (``DecisionOut``)."""
    view = conflict(r)
    return _pick(view, "ids", "kind", "state", "outcome", "reason_code", "winner", "loser")


def _pair(r: ConflictRecord) -> View:
    """A pair for the agent to judge (``PairOut``)."""
    return _pick(possible_conflict(r), "ids", "claims", "state", "reason_code", "question")


def _readings(
    readings: tuple[Reading, ...], detail: bool, scores: Mapping[str, float] | None = None
) -> list[View]:
    if detail:
        return [memory(r) for r in readings]
    return [agent_memory(r, (scores or {}).get(r.id)) for r in readings]


def _remembered(r: RememberResult, detail: bool) -> View:
    return {
        **_brief(r.reading),
        "outcome": r.outcome.value,
        "commit": r.reading.checked_commit,
        "receipt": r.reading.receipt.id if r.reading.receipt else None,
        "captured": [f"{c.anchor.render()} ({c.provenance.value})" for c in r.captured] or None,
        "dropped": [
            f"{d.candidate}: {d.reason}" + (f" ({d.detail})" if d.detail else "") for d in r.dropped
        ]
        or None,
        "rewritten": [
            f"{w.given} -> {w.anchor.render()} ({'; '.join(w.changes)})" for w in r.rewritten
        ]
        or None,
        "conflicts": [_decided(c) for c in r.conflicts[:LISTED]] or None,
        "possible_conflicts": [_pair(c) for c in r.possible_conflicts[:LISTED]] or None,
        "more_conflicts": max(0, len(r.conflicts) - LISTED) or None,
        "more_possible": max(0, len(r.possible_conflicts) - LISTED) or None,
        **_related(r),
    }


def _superseded(r: Any, detail: bool) -> View:
    """A supersede's result, shown as the new memory's standing (the tool was given the
    text: repeating the whole record would double ``tools/list``)."""
    return {
        **_standing(r.reading),
        "outcome": r.outcome.value,
        "supersedes": r.reading.memory.supersedes,
        "commit": r.reading.checked_commit,
    }


def _retracted(r: RetractResult, detail: bool) -> View:
    made = r.receipt
    return {
        "id": r.id,
        "status": Status.REFUTED.value,
        "outcome": r.outcome.value,
        "receipt": made.id if made else None,
        "reason": made.reason if made else None,
        "cascaded": [c.memory_id for c in r.cascaded] or None,
    }


# Each result type the agent has a compact view of: its output model's name, and the view.
# The others are shown to the agent in full.
_AGENT: dict[type, tuple[str, Callable[[Any, bool], View]]] = {
    RecallResult: (
        "Recalled",
        lambda r, detail: {
            "commit": r.checked_commit,
            "memories": _readings(r.readings, detail, r.scores),
            "refuted_matches": refuted_matches(r.refuted),
        },
    ),
    ListResult: (
        "Verified",
        lambda r, detail: {"commit": r.checked_commit, "memories": _readings(r.readings, detail)},
    ),
    RememberResult: ("Remembered", _remembered),
    ObserveResult: (
        "Observed",
        lambda r, detail: {
            **_standing(r.reading),
            "effect": r.effect.value,
            "commit": r.reading.checked_commit,
            "new_memory": r.new_memory,
            "episode": r.episode,
        },
    ),
    ResolveResult: (
        "Resolved",
        lambda r, detail: {
            "conflict": _decided(r.conflict),
            "commit": next((m.checked_commit for m in r.memories if m.checked_commit), None),
            "memories": [_standing(m) for m in r.memories],
        },
    ),
    RetractResult: ("Retracted", _retracted),
    ConsolidateResult: (
        "Consolidated",
        lambda r, detail: {
            "memories": r.memories,
            "pairs_compared": r.pairs_compared,
            "conflicts": [_decided(c) for c in r.conflicts],
            "seconds": r.seconds,
            "possible_conflicts": [_pair(c) for c in r.possible_conflicts] or None,
            **_related_pairs(r),
        },
    ),
}


@dataclass(frozen=True)
class ToolContent:
    """A tool's result as it goes on the wire: the name of its output model, the
    structured content (``dump_compact`` of its view) and the text content. What the
    store's owner sends back for a tool call (adr/0012), so a served process only relays
    it."""

    model: str
    structured: dict[str, Any]
    text: str


def tool_content(method: str, result: object, detail: bool = False) -> ToolContent:
    """What a tool hands the model for the result of the service's ``method``: its view
    (compact unless ``detail``) without nulls, and the text content, a rendering of the
    same data (``server.agent_text``). Every string is revealed: hidden characters become
    visible [U+XXXX] escapes."""
    from server.agent_text import text_of

    found = ("Superseded", _superseded) if method == "supersede" else _AGENT.get(type(result))
    name, view = (found[0], found[1](result, detail)) if found else _full(result)
    structured = dump_compact(reveal_all(view))
    return ToolContent(name, structured, text_of(name, structured))
