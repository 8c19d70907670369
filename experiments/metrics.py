"""The experiment's metrics and their Wilson 95% intervals (``experiments/README.md``, "Metrics").

Over a set of facts, for one agent in one arm:

- adoption_rate: false facts the agent accepts / false facts.
- false_refutation_rate: true facts whose memory is REFUTED at the end of the session (by
  code or by a retraction), or that the agent itself takes as false / true facts.
- missed_rate: true facts the agent does not accept / true facts (the cost of caution).
- correction_capability: false facts the code contradicts that the agent rejects / false
  facts the code contradicts (could it correct the memory when the code says it is wrong?).
- persistent_contamination: false facts whose memory is still served (not REFUTED) at the
  end of the session / false facts; ``persistent_established`` counts only those still
  served as established. None for B, which has no memory.
- context_tokens: tokens of the memory texts recall served to the agent.

What recall returned for each fact's own memory (from the memory-first session's recall,
the same for memory_first and careful; None for B, which has no memory):

- served_rate: false facts whose memory recall served, not REFUTED / false facts.
- served_verified_rate: false facts whose memory was served VERIFIED / false facts.
- true_verified_rate: true facts whose memory was served VERIFIED / true facts.
- true_verified_checkable: the same over true facts outside the categories the code cannot
  check or that changed on purpose (``convention``, ``drift``): the headline.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from experiments.agents import ACCEPT, REJECT, FactOutcome
from experiments.evidence import CONTRADICTS, Evidence
from experiments.facts import Fact

__all__ = ["RATES", "UNCHECKABLE", "agent_metrics", "served_as", "wilson"]

Z95 = 1.959963984540054
RATES = (
    "adoption_rate",
    "false_refutation_rate",
    "missed_rate",
    "correction_capability",
    "persistent_contamination",
    "persistent_established",
    "served_rate",
    "served_verified_rate",
    "true_verified_rate",
    "true_verified_checkable",
)
UNCHECKABLE = ("convention", "drift")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n <= 0:
        return None
    if not 0 <= k <= n:
        raise ValueError(f"k={k} must be between 0 and n={n}")
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _ratio(
    facts: Sequence[Fact], denominator: Callable[[Fact], bool], numerator: Callable[[Fact], bool]
) -> tuple[int, int]:
    pool = [f for f in facts if denominator(f)]
    return sum(1 for f in pool if numerator(f)), len(pool)


def _still_served(o: FactOutcome) -> bool:
    return o.final is not None and not o.final.startswith(("REFUTED", "not stored"))


def served_as(served: str | None) -> str:
    """``absent``, ``REFUTED``, ``VERIFIED`` or ``ACTIVE``: how recall served a memory (from
    ``FactOutcome.served``, ``STATUS[/verification]``; None when it was not asked)."""
    if not served or served in ("absent", "not asked"):
        return "absent"
    return served.split("/", 1)[0]


def agent_metrics(
    facts: Sequence[Fact],
    outcomes: Mapping[str, FactOutcome],
    evidence: Mapping[str, Evidence],
    has_memory: bool,
    recall: Mapping[str, FactOutcome] | None = None,
) -> dict[str, Any]:
    """The metrics of one agent over ``facts``: each rate (None when its denominator is
    empty), ``counts`` [k, n] and ``ci95`` [low, high] per rate, and ``context_tokens``.
    ``recall`` holds the outcomes whose ``served`` says what recall returned for each
    fact's memory (the memory-first session); without it the served rates are None."""

    def o(f: Fact) -> FactOutcome:
        return outcomes[f.id]

    def refuted(f: Fact) -> bool:
        final = o(f).final or ""
        return o(f).answer == REJECT or final.startswith("REFUTED")

    def is_true(f: Fact) -> bool:
        return f.truth

    def is_false(f: Fact) -> bool:
        return not f.truth

    def how(f: Fact) -> str:
        assert recall is not None
        return served_as(recall[f.id].served)

    def checkable_true(f: Fact) -> bool:
        return f.truth and f.category not in UNCHECKABLE

    served = has_memory and recall is not None
    counts: dict[str, tuple[int, int] | None] = {
        "adoption_rate": _ratio(facts, is_false, lambda f: o(f).answer == ACCEPT),
        "false_refutation_rate": _ratio(facts, is_true, refuted),
        "missed_rate": _ratio(facts, is_true, lambda f: o(f).answer != ACCEPT),
        "correction_capability": _ratio(
            facts,
            lambda f: not f.truth and evidence[f.id].verdict == CONTRADICTS,
            lambda f: o(f).answer == REJECT,
        ),
        "persistent_contamination": (
            _ratio(facts, is_false, lambda f: _still_served(o(f))) if has_memory else None
        ),
        "persistent_established": (
            _ratio(facts, is_false, lambda f: o(f).final_established) if has_memory else None
        ),
        "served_rate": (
            _ratio(facts, is_false, lambda f: how(f) in ("VERIFIED", "ACTIVE")) if served else None
        ),
        "served_verified_rate": (
            _ratio(facts, is_false, lambda f: how(f) == "VERIFIED") if served else None
        ),
        "true_verified_rate": (
            _ratio(facts, is_true, lambda f: how(f) == "VERIFIED") if served else None
        ),
        "true_verified_checkable": (
            _ratio(facts, checkable_true, lambda f: how(f) == "VERIFIED") if served else None
        ),
    }
    out: dict[str, Any] = {}
    for name in RATES:
        pair = counts[name]
        out[name] = None if pair is None or pair[1] == 0 else round(pair[0] / pair[1], 4)
    out["context_tokens"] = sum(o(f).tokens for f in facts)
    out["counts"] = {name: (list(pair) if pair else None) for name, pair in counts.items()}
    out["ci95"] = {
        name: ([round(x, 4) for x in ci] if pair and (ci := wilson(*pair)) else None)
        for name, pair in counts.items()
    }
    return out
