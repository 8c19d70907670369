"""What a contradiction's resolution is recorded as: its kind, state, rule, outcome and
reason (closed sets, stored in the conflict log), and the order the rules are tried in.
Kept apart from the rules (``store.contradictions.rules``) so that reading a stored record
never loads the readers of notes."""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "ConflictKind",
    "ConflictState",
    "Outcome",
    "ReasonCode",
    "Rule",
    "Strategy",
    "question_text",
]


class ConflictKind(StrEnum):
    SLOT = "slot"
    ANCHOR = "anchor"
    NEGATION = "negation"
    VALUE = "value"  # values of one type about close subjects: a question, never a decision
    JUDGED = "judged"  # a pair the rules did not pair, judged by an agent or a person


class ReasonCode(StrEnum):
    """Closed set of reasons a conflict was resolved (or not)."""

    CODE_VERDICT = "CODE_VERDICT"
    EXPLICIT_CORRECTION = "EXPLICIT_CORRECTION"
    HIGHER_CONFIDENCE = "HIGHER_CONFIDENCE"
    MORE_ORIGINS = "MORE_ORIGINS"
    TEMPORAL_SUPERSESSION = "TEMPORAL_SUPERSESSION"
    TOO_CLOSE = "TOO_CLOSE"
    SCOPE_AMBIGUOUS = "SCOPE_AMBIGUOUS"
    NEEDS_JUDGEMENT = "NEEDS_JUDGEMENT"  # the rules cannot tell: asked, nothing changed
    JUDGED_CONFLICT = "JUDGED_CONFLICT"  # an agent or a person: the loser is wrong
    JUDGED_COMPATIBLE = "JUDGED_COMPATIBLE"  # both hold; never asked again
    JUDGED_SAME = "JUDGED_SAME"  # one claim said twice: merged as an observation


class ConflictState(StrEnum):
    RESOLVED = "resolved"
    OPEN = "open"  # kept both; recall shows them side by side
    POSSIBLE = "possible"  # perhaps a conflict: a question to the agent (``resolve``)


class Outcome(StrEnum):
    """What happened to the loser."""

    REFUTED = "refuted"  # superseded: REFUTED by correction, with a receipt
    DEMOTED = "demoted"  # a contradicting observation lowers its confidence
    REFUTED_BY_CODE = "refuted_by_code"  # the code had refuted it already
    KEPT_BOTH = "kept_both"
    MERGED = "merged"  # judged the same claim: the newer counted as a restatement


class Rule(StrEnum):
    """Which step of the resolution order decided."""

    SCOPE = "scope"
    CODE_VERDICT = "code_verdict"
    EXPLICIT_CORRECTION = "explicit_correction"
    CONFIDENCE = "confidence"
    ORIGINS = "origins"
    RECENCY = "recency"
    TOO_CLOSE = "too_close"
    QUESTION = "question"  # left to the agent
    JUDGEMENT = "judgement"  # decided by ``resolve``: it stands, never re-decided


class Strategy(StrEnum):
    DEFAULT = "default"  # code, correction, confidence/origins, temporal recency
    RECENCY_FIRST = "recency_first"  # code, correction, recency, confidence
    CONFIDENCE_FIRST = "confidence_first"  # code, correction, confidence; never recency


def question_text(state: ConflictState) -> str:
    """The question a possible or undecided conflict in ``state`` puts to the agent."""
    if state is ConflictState.POSSIBLE:
        return (
            "Do these two notes contradict each other? Call resolve with verdict "
            "'conflict' (name the winner), 'compatible' (both hold, e.g. different "
            "subjects) or 'same' (one claim said twice)."
        )
    return (
        "These notes conflict and the rules cannot tell which holds now. Call resolve "
        "with verdict 'conflict' and the winner, or 'compatible' if both hold."
    )
