"""The truth benchmark's rates per language of the notes.

A fact of a real project may say which language it is about (its ``language`` field:
``python``, ``typescript``, ``go``, ``rust``, or ``infra`` for Docker, CI and tooling;
``python`` when absent, as every note written before the polyglot projects is). This module
re-derives one project's metrics per language from what the contamination experiment wrote
for each fact (``per_fact.jsonl``: the code evidence and every agent's outcome in every
arm), with the definitions the benchmark uses per project (``experiments.metrics``), so a
language's counts summed with the others give the project's counts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from experiments.agents import AGENTS, MEMORY_FIRST_AGENTS, FactOutcome
from experiments.evidence import Evidence
from experiments.facts import Fact
from experiments.metrics import agent_metrics

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGE_COLUMNS",
    "fact_language",
    "language_metrics",
    "read_per_fact",
]

DEFAULT_LANGUAGE = "python"
# The rates of the per-language table, and their headings.
LANGUAGE_COLUMNS = (
    ("served_rate", "false served"),
    ("served_verified_rate", "false served VERIFIED"),
    ("false_refutation_rate", "true refuted"),
    ("true_verified_checkable", "true VERIFIED excl. convention, drift"),
)
_OUTCOME_FIELDS = (
    "answer",
    "source",
    "served",
    "retracted",
    "final",
    "final_established",
    "tokens",
)


def fact_language(fact: Fact) -> str:
    """The language a note is about (``python`` when it does not say)."""
    value = fact.extra.get("language")
    if isinstance(value, str) and value.strip():
        return value.strip().lower()
    return DEFAULT_LANGUAGE


def read_per_fact(path: Path) -> list[dict[str, Any]]:
    """The rows of a contamination run's ``per_fact.jsonl`` (none when it is missing)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [json.loads(line) for line in lines if line.strip()]


def _outcome(view: Mapping[str, Any]) -> FactOutcome:
    return FactOutcome(**{k: view[k] for k in _OUTCOME_FIELDS if k in view})


def language_metrics(
    facts: Sequence[Fact], rows: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """One project's metrics per language: ``{language: {"facts": {"true": n, "false": n},
    "arms": {arm: {agent: metrics}}}}``, over the facts that have a row (the facts the run
    kept), each agent's metrics as ``agent_metrics`` computes them per project."""
    by_id = {f.id: f for f in facts}
    kept = [(by_id[str(r["id"])], r) for r in rows if str(r.get("id")) in by_id]
    evidence = {
        f.id: Evidence(str(r.get("evidence")), str(r.get("evidence_detail", ""))) for f, r in kept
    }
    arms = list(dict.fromkeys(arm for _, r in kept for arm in r.get("arms", {})))  # run order
    out: dict[str, dict[str, Any]] = {}
    for language in sorted({fact_language(f) for f, _ in kept}):
        chosen = [(f, r) for f, r in kept if fact_language(f) == language]
        subset = [f for f, _ in chosen]
        entry: dict[str, Any] = {
            "facts": {
                "true": sum(1 for f in subset if f.truth),
                "false": sum(1 for f in subset if not f.truth),
            },
            "arms": {},
        }
        for arm in arms:
            views = {f.id: r["arms"][arm] for f, r in chosen if arm in r["arms"]}
            if len(views) != len(chosen):
                continue  # a row without this arm: no rate over a partial set
            outcomes = {
                agent: {fid: _outcome(v[agent]) for fid, v in views.items()}
                for agent in AGENTS
                if all(agent in v for v in views.values())
            }
            entry["arms"][arm] = {
                agent: agent_metrics(
                    subset,
                    by_agent,
                    evidence,
                    agent != "B",
                    outcomes.get("memory_first") if agent in MEMORY_FIRST_AGENTS else None,
                )
                for agent, by_agent in outcomes.items()
            }
        out[language] = entry
    return out
