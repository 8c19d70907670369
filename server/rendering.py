"""The one renderer: the store's typed results become the tools' output models (and, through
them, the JSON the CLI prints). Free text is served through ``store.hostile.reveal``:
hidden characters come back as visible ``[U+XXXX]`` escapes, never invisibly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from anchors.verify import Verdict
from server.schemas import (
    MARKS,
    AuditOut,
    ConflictsOut,
    Consolidated,
    ConsolidateOut,
    ForgetOut,
    Observed,
    ObserveOut,
    Recalled,
    RecallOut,
    Remembered,
    RememberOut,
    Resolved,
    ResolveOut,
    RestoreOut,
    Retracted,
    RetractOut,
    ReviewOut,
    ShowOut,
    StatsOut,
    Superseded,
    Verified,
    VerifyOut,
)
from store.contradictions.judging import question_text
from store.contradictions.related_note import QUESTION as RELATED_QUESTION
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

__all__ = ["ToolContent", "dump", "render_result", "tool_content"]


def _ts(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


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


def receipt(r: Receipt | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "id": r.id,
        "memory_id": r.memory_id,
        "action": r.action.value,
        "actor": r.actor,
        "reason": r.reason,
        "evidence": r.evidence,
        "cause": r.cause_id,
        "commit": r.commit,
        "at": _ts(r.created_at),
    }


def _anchor(stored: StoredAnchor, reading: Reading, position: int) -> dict[str, Any]:
    a = stored.anchor
    view: dict[str, Any] = {
        "anchor": a.render(),
        "kind": a.kind.value,
        "value": a.value,
        "expect": a.expect.value,
        "scope": a.scope,
        "version": a.version,
        "provenance": stored.provenance.value,
        "verdict": "unchecked",
        "found_in": list(stored.found_in),
        "detail": None,
    }
    check = reading.check
    if check is not None and position < len(check.checks):
        c = check.checks[position]
        view.update(verdict=c.verdict.value, found_in=list(c.found_in), detail=c.detail)
    return view


def memory(reading: Reading) -> dict[str, Any]:
    """A memory as served: its claim, provenance, status, standing and what was checked."""
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
        "created_at": _ts(m.created_at),
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
        "last_confirmed_at": _ts(s.last_confirmed_at),
        "provenance": s.provenance,
        "expires_at": _ts(m.expires_at),
        "conflicts": [
            {"with": c.other, "reason_code": c.reason_code.value, "kind": c.kind.value}
            for c in reading.conflicts
        ],
    }


def conflict(r: ConflictRecord) -> dict[str, Any]:
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


def possible_conflict(r: ConflictRecord) -> dict[str, Any]:
    return {
        "ids": [r.a_id, r.b_id],
        "claims": [r.claim_a, r.claim_b],
        "kind": r.kind.value,
        "state": r.state.value,
        "reason_code": r.reason_code.value,
        "question": question_text(r),
    }


def _related(result: RememberResult) -> dict[str, Any]:
    """The close notes the rules did not judge, one short line each, and the one question
    they put to the agent (none: both left out)."""
    if not result.related:
        return {}
    return {"related": [r.line() for r in result.related], "related_question": RELATED_QUESTION}


def audit_entry(e: AuditEntry) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "memory_id": e.memory_id,
        "at": _ts(e.at),
        "action": e.action.value,
        "from_status": e.from_status.value if e.from_status else None,
        "to_status": e.to_status.value if e.to_status else None,
        "actor": e.actor,
        "reason": e.reason,
        "receipt_id": e.receipt_id,
        "commit": e.commit,
        "detail": e.detail,
    }


def _memories(readings: tuple[Reading, ...]) -> list[dict[str, Any]]:
    return [memory(r) for r in readings]


def _fields(result: object) -> tuple[type[BaseModel], dict[str, Any]]:
    """The output model of a result and its fields, before hidden characters are revealed."""
    if isinstance(result, RememberResult):
        return RememberOut, {
            **memory(result.reading),
            "outcome": result.outcome.value,
            "conflicts": [conflict(c) for c in result.conflicts],
            "possible_conflicts": [possible_conflict(c) for c in result.possible_conflicts],
            **_related(result),
            "captured": [
                {
                    "anchor": c.anchor.render(),
                    "provenance": c.provenance.value,
                    "found_in": list(c.found_in),
                }
                for c in result.captured
            ],
            "dropped": [
                {"candidate": d.candidate, "reason": d.reason, "detail": d.detail}
                for d in result.dropped
            ],
            "rewritten": [
                {"given": r.given, "anchor": r.anchor.render(), "changes": list(r.changes)}
                for r in result.rewritten
            ],
        }
    if isinstance(result, RecallResult):
        return RecallOut, {
            "query": result.query,
            "checked_commit": result.checked_commit,
            "memories": _memories(result.readings),
            "refuted_matches": refuted_matches(result.refuted),
        }
    if isinstance(result, ListResult):
        return VerifyOut, {
            "checked_commit": result.checked_commit,
            "memories": _memories(result.readings),
        }
    if isinstance(result, ShowResult):
        return ShowOut, {
            **memory(result.reading),
            "receipts": [receipt(r) for r in result.receipts],
        }
    if isinstance(result, RetractResult):
        return RetractOut, {
            "id": result.id,
            "status": Status.REFUTED.value,
            "receipt": receipt(result.receipt),
            "cascaded": [{"id": r.memory_id, "receipt": receipt(r)} for r in result.cascaded],
            "outcome": result.outcome.value,
        }
    if isinstance(result, RestoreResult):
        return RestoreOut, {
            **memory(result.reading),
            "receipt": receipt(result.receipt),
            "restored": list(result.restored),
        }
    if isinstance(result, ForgetResult):
        return ForgetOut, {"id": result.id, "forgotten": True, "receipt": receipt(result.receipt)}
    if isinstance(result, AuditResult):
        return AuditOut, {"entries": [audit_entry(e) for e in result.entries]}
    if isinstance(result, ObserveResult):
        return ObserveOut, {
            **memory(result.reading),
            "effect": result.effect.value,
            **({"new_memory": result.new_memory} if result.new_memory else {}),
            **({"episode": result.episode} if result.episode else {}),
        }
    if isinstance(result, ReviewResult):
        return ReviewOut, {
            "items": [
                {
                    "id": i.id,
                    "action": i.action.value,
                    "confidence": i.confidence,
                    "text": i.text,
                    "staleness_days": i.staleness_days,
                }
                for i in result.items
            ],
            "questions": [
                {"id": q.id, "user": q.user, "question": q.question} for q in result.questions
            ],
        }
    if isinstance(result, StatsResult):
        return StatsOut, {
            "memories_written": result.memories_written,
            "wrong_fact_signals": {
                "corrections": result.corrections,
                "retractions": result.retractions,
                "refutations_by_code": result.refutations_by_code,
            },
            "missed_fact_signals": {"restatements": result.restatements},
            "correction_rate": result.correction_rate,
            "retracted_claims_remembered_again": result.retracted_claims_remembered_again,
        }
    if isinstance(result, ConsolidateResult):
        return ConsolidateOut, {
            "memories": result.memories,
            "pairs_compared": result.pairs_compared,
            "conflicts": [conflict(c) for c in result.conflicts],
            "possible_conflicts": [possible_conflict(c) for c in result.possible_conflicts],
            "seconds": result.seconds,
        }
    if isinstance(result, ResolveResult):
        return ResolveOut, {
            "conflict": conflict(result.conflict),
            "memories": _memories(result.memories),
        }
    if isinstance(result, ConflictsResult):
        return ConflictsOut, {
            "conflicts": [conflict(c) for c in result.conflicts],
            "flipping_slots": [
                {"slot": f.slot, "values": list(f.values), "reversals": f.reversals, "hint": f.hint}
                for f in result.flipping_slots
            ],
        }
    raise TypeError(f"no rendering for {type(result).__name__}")


def render_result(result: object) -> BaseModel:
    """The output model of one result; every string in it revealed."""
    model, fields = _fields(result)
    return model.model_validate(reveal_all(fields))


def dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", by_alias=True)


class Rendered:
    """A service whose every call returns the JSON the tools and the CLI return (for
    scripts and tests that drive the library directly)."""

    def __init__(self, service: object) -> None:
        self._service = service

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._service, name)
        if not callable(fn):
            return fn

        def call(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return dump(render_result(fn(*args, **kwargs)))

        return call


# -- The agent's view: what the tools hand the model ----------------------------------------
# One rendering of each Reading, compact: nulls and empty lists left out, the commit once
# per result, anchors as strings with their verdict's mark, the status with its reason in
# one line. The full record (``memory`` above) comes with ``detail``.


def _short(commit: str | None) -> str:
    return commit[:7] if commit else ""


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
    at = f" at {_short(reading.checked_commit)}" if reading.checked_commit else ""
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


def _marked(stored: StoredAnchor, reading: Reading, position: int) -> str:
    check = reading.check
    verdict = "unchecked"
    if check is not None and position < len(check.checks):
        verdict = check.checks[position].verdict.value
    return f"{stored.anchor.render()} {MARKS[verdict]}"


def agent_memory(reading: Reading, score: float | None = None) -> dict[str, Any]:
    """A recalled memory (``AgentMemory``): its brief and its score."""
    return {**_brief(reading), "score": None if score is None else round(score, 2)}


def _brief(reading: Reading) -> dict[str, Any]:
    """A memory as the agent reads it (``AgentMemory``)."""
    m = reading.memory
    s = reading.standing
    who = m.source.value if m.origin == m.source.value else f"{m.source.value} {m.origin}"
    view: dict[str, Any] = {
        "id": m.id,
        "text": None if m.forgotten else m.text,
        "status": m.status.value,
        "why": why(reading),
        "band": s.band.value,
        "confidence": s.confidence,
        "source": f"{who}, {_age(m.created_at, datetime.now(UTC))}",
        "anchors": [_marked(a, reading, i) for i, a in enumerate(m.anchors)] or None,
        "flags": list(reading.flags) or None,
        "conflicts": _marks(reading),
    }
    return view


def _marks(reading: Reading) -> list[str] | None:
    """A memory's open conflicts as the agent reads them: the first ``LISTED``, then how
    many more."""
    shown = [
        f"{c.other} ({c.kind.value}: {c.reason_code.value})" for c in reading.conflicts[:LISTED]
    ]
    if len(reading.conflicts) > LISTED:
        shown.append(f"and {len(reading.conflicts) - LISTED} more")
    return shown or None


def _standing(reading: Reading) -> dict[str, Any]:
    """Where a memory stands (``MemoryStatus``)."""
    m, s = reading.memory, reading.standing
    return {
        "id": m.id,
        "status": m.status.value,
        "why": why(reading),
        "band": s.band.value,
        "confidence": s.confidence,
    }


def _decided(r: ConflictRecord) -> dict[str, Any]:
    """A conflict decision (``DecisionOut``)."""
    return {
        "ids": [r.a_id, r.b_id],
        "kind": r.kind.value,
        "state": r.state.value,
        "outcome": r.outcome.value,
        "reason_code": r.reason_code.value,
        "winner": r.winner,
        "loser": r.loser,
    }


def _pair(r: ConflictRecord) -> dict[str, Any]:
    return {
        "ids": [r.a_id, r.b_id],
        "claims": [r.claim_a, r.claim_b],
        "state": r.state.value,
        "reason_code": r.reason_code.value,
        "question": question_text(r),
    }


# A remember lists this many of the conflicts it decided, and of the pairs it asks about;
# the rest are counted. A note meeting a hundred others is the store's to keep, not the
# agent's to read: 36 KB of pairs in one answer (adr/0017).
LISTED = 10


def _readings(
    readings: tuple[Reading, ...], detail: bool, scores: Mapping[str, float] | None = None
) -> list[dict[str, Any]]:
    if detail:
        return _memories(readings)
    return [agent_memory(r, (scores or {}).get(r.id)) for r in readings]


def _agent_fields(result: object, detail: bool) -> tuple[type[BaseModel], dict[str, Any]]:
    if isinstance(result, RecallResult):
        return Recalled, {
            "commit": result.checked_commit,
            "memories": _readings(result.readings, detail, result.scores),
            "refuted_matches": refuted_matches(result.refuted),
        }
    if isinstance(result, ListResult):
        return Verified, {
            "commit": result.checked_commit,
            "memories": _readings(result.readings, detail),
        }
    if isinstance(result, RememberResult):
        return Remembered, {
            **_brief(result.reading),
            "outcome": result.outcome.value,
            "commit": result.reading.checked_commit,
            "receipt": result.reading.receipt.id if result.reading.receipt else None,
            "captured": [f"{c.anchor.render()} ({c.provenance.value})" for c in result.captured]
            or None,
            "dropped": [
                f"{d.candidate}: {d.reason}" + (f" ({d.detail})" if d.detail else "")
                for d in result.dropped
            ]
            or None,
            "rewritten": [
                f"{r.given} -> {r.anchor.render()} ({'; '.join(r.changes)})"
                for r in result.rewritten
            ]
            or None,
            "conflicts": [_decided(c) for c in result.conflicts[:LISTED]] or None,
            "possible_conflicts": [_pair(c) for c in result.possible_conflicts[:LISTED]] or None,
            "more_conflicts": max(0, len(result.conflicts) - LISTED) or None,
            "more_possible": max(0, len(result.possible_conflicts) - LISTED) or None,
            **_related(result),
        }
    if isinstance(result, Superseding):
        made = result.made
        return Superseded, {
            **_standing(made.reading),
            "outcome": made.outcome.value,
            "supersedes": made.reading.memory.supersedes,
            "commit": made.reading.checked_commit,
        }
    if isinstance(result, ObserveResult):
        return Observed, {
            **_standing(result.reading),
            "effect": result.effect.value,
            "commit": result.reading.checked_commit,
            "new_memory": result.new_memory,
            "episode": result.episode,
        }
    if isinstance(result, ResolveResult):
        return Resolved, {
            "conflict": _decided(result.conflict),
            "commit": next((r.checked_commit for r in result.memories if r.checked_commit), None),
            "memories": [_standing(r) for r in result.memories],
        }
    if isinstance(result, RetractResult):
        r = result.receipt
        return Retracted, {
            "id": result.id,
            "status": Status.REFUTED.value,
            "outcome": result.outcome.value,
            "receipt": r.id if r else None,
            "reason": r.reason if r else None,
            "cascaded": [c.memory_id for c in result.cascaded] or None,
        }
    if isinstance(result, ConsolidateResult):
        return Consolidated, {
            "memories": result.memories,
            "pairs_compared": result.pairs_compared,
            "conflicts": [_decided(c) for c in result.conflicts],
            "seconds": result.seconds,
            "possible_conflicts": [_pair(c) for c in result.possible_conflicts] or None,
        }
    return _fields(result)


@dataclass(frozen=True)
class Superseding:
    """A supersede's result, shown to the agent as the new memory's standing (the tool
    was given the text: repeating the whole record would double ``tools/list``)."""

    made: RememberResult


@dataclass(frozen=True)
class ToolContent:
    """A tool's result as it goes on the wire: the name of its output model, the
    structured content (``dump_compact`` of it) and the text content. What the store's
    owner sends back for a tool call (adr/0012), so a served process only relays it."""

    model: str
    structured: dict[str, Any]
    text: str


def tool_content(method: str, result: object, detail: bool = False) -> ToolContent:
    """What a tool hands the model for the result of the service's ``method``: its
    output model (compact unless ``detail``) validated and dumped, and the text content,
    a rendering of the same data (``server.agent_text``). Every string is revealed:
    hidden characters become visible [U+XXXX] escapes."""
    from server.agent_text import text_of

    shown = Superseding(result) if method == "supersede" else result  # type: ignore[arg-type]
    model, fields = _agent_fields(shown, detail)
    structured = dump_compact(model.model_validate(reveal_all(fields)))
    return ToolContent(model.__name__, structured, text_of(structured))


def dump_compact(model: BaseModel) -> dict[str, Any]:
    """The structured content of a tool: no nulls (the schema leaves them out)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)
