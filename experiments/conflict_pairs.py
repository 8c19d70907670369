"""Contradictions as people write them: pairs of ordinary notes, each run through the
public interface on a fresh store, as a user would.

    python -m experiments.conflict_pairs [--pairs PATH] [--batch N] [--crowd N] [--json]

The pairs (``experiments/data/conflicts/pairs.jsonl``) were written by hand in agent-note
phrasing, independently of ``experiments.conflict_precision``'s generator: real conflicts
of every type (durations, clock times, counts, retention, owners, the technology doing
one job, versions, ports, limits, booleans and negations), look-alikes of every kind
(different qualifiers, many-valued attributes, equivalent values and unit conversions,
compatible facts about one subject), and a few qualified-against-unqualified pairs.
Batch 1 (162 pairs) was written before the rules were tuned; batches 2 and 3 after, in
other phrasings, and the rules were then tuned on all three (adr/0010 gives both).

For each pair, on a new store with no repository (the MCP tools of
``server.app.build_server`` through the SDK's in-memory client): ``remember`` the first
note, ``remember`` the second, ``consolidate`` once, then ``verify`` every memory. No
origin is given, as a user who does not pass one.

Definitions:
- *found*: a conflict pair appears in the second ``remember``'s ``conflicts`` or
  ``possible_conflicts``, or in ``consolidate``'s (resolved, open or possible).
- *resolved*: a record for the pair has state ``resolved`` (a loser demoted or refuted).
- *resolved wrongly*: resolved, and the pair is not a conflict, or the winner is not the
  note the pair names as the one that holds (``winner``: the second note states a
  change; none named: no automatic winner is right).
- *look-alike changed*: a look-alike whose memories' status or confidence after
  ``consolidate`` differ from a note just remembered (ACTIVE, 5.0).
- *look-alike surfaced*: a look-alike that appears in any ``conflicts`` or
  ``possible_conflicts`` at all (the cost to the agent, who is asked).
- *candidate recall*: the share of conflict pairs whose first note the second
  ``remember`` hands the agent at all: in its ``related`` notes, or in its conflicts or
  possible conflicts. Measured apart from the rules' decisions: a candidate is asked,
  never decided. *Look-alikes related*: the same share of look-alike pairs (the cost).
- *related per remember*: the mean number of related notes the second ``remember`` lists;
  *strangers related*: the share of them that are notes of other pairs (only with
  ``--crowd``): the noise an agent is asked about. Other pairs' notes are about other
  subjects by construction, though a few may share one.
- *strangers asked per remember*: the mean number of conflicts and possible conflicts the
  second ``remember`` reports with notes of other pairs (only with ``--crowd``): the
  rules' own noise, beside ``related``'s.
- *asked after consolidate*: the share of conflict pairs found, a candidate, or among
  ``consolidate``'s related pairs: what the agent has been asked about once both calls ran.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from server.app import build_server
from server.config import Settings

__all__ = ["PAIRS", "Outcome", "Pair", "load", "main", "run"]

PAIRS = Path(__file__).resolve().parent / "data" / "conflicts" / "pairs.jsonl"


@dataclass(frozen=True)
class Pair:
    id: int
    category: str  # conflict, lookalike, ambiguous
    type: str
    a: str
    b: str
    winner: str | None  # "b" or "a": the note that states a change, and should win
    batch: int = 1  # 1: written before the rules were tuned; 2, 3: written after


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    found: bool
    resolved: bool
    wrong: bool
    changed: bool
    reason_codes: tuple[str, ...]
    candidate: bool = False  # the first note is among the second remember's candidates
    related: int = 0  # notes the second remember lists as related
    strangers: int = 0  # ... of them, notes of other pairs (with ``crowd``)
    consolidated: bool = False  # the pair is among consolidate's related pairs
    stray: int = 0  # the second remember's conflicts and possible ones with other pairs' notes


def load(path: Path = PAIRS) -> list[Pair]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            pairs.append(Pair(**row))
    return pairs


async def _call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    if result.is_error or result.structured_content is None:
        raise RuntimeError(f"{tool} failed: {result.content}")
    return result.structured_content


async def _one(settings: Settings, pair: Pair, crowd: Sequence[str] = ()) -> Outcome:
    async with Client(build_server(settings)) as client:
        for text in crowd:
            await _call(client, "remember", {"text": text})
        first = await _call(client, "remember", {"text": pair.a})
        second = await _call(client, "remember", {"text": pair.b})
        report = await _call(client, "consolidate", {})
        after = await _call(client, "verify", {})
    ids = {first["id"], second["id"]}
    records = [
        *second.get("conflicts", []),  # lists left out when empty
        *second.get("possible_conflicts", []),
        *report["conflicts"],
        *report.get("possible_conflicts", []),
    ]
    mine = [r for r in records if set(r["ids"]) == ids]
    resolved = [r for r in mine if r.get("state") == "resolved"]
    expected = {"a": first["id"], "b": second["id"]}.get(pair.winner or "")
    wrong = any(pair.category != "conflict" or r["winner"] != expected for r in resolved)
    baseline = ("ACTIVE", 5.0)
    changed = any(
        (m["status"], m["confidence"]) != baseline for m in after["memories"] if m["id"] in ids
    )
    return Outcome(
        pair,
        bool(mine),
        bool(resolved),
        wrong,
        changed,
        tuple(sorted({r["reason_code"] for r in mine})),
        first["id"] in _candidates(second),
        len(second.get("related", [])),
        len(_related_ids(second) - ids),
        ids in _related_pairs(report),
        sum(
            1
            for r in (*second.get("conflicts", []), *second.get("possible_conflicts", []))
            if not set(r["ids"]) <= ids
        ),
    )


def _related_ids(answer: dict[str, Any]) -> set[str]:
    """The ids of a remember's related notes (each line "id: text")."""
    return {line.split(":", 1)[0] for line in answer.get("related", [])}


def _related_pairs(report: dict[str, Any]) -> list[set[str]]:
    """The pairs of ids of consolidate's related lines ("id: text ~ id: text")."""
    return [
        {side.split(":", 1)[0] for side in line.split(" ~ ")} for line in report.get("related", [])
    ]


def _candidates(answer: dict[str, Any]) -> set[str]:
    """The ids a remember's answer hands the agent: its related notes and the notes of
    its conflicts and possible conflicts."""
    ids = _related_ids(answer)
    for record in (*answer.get("conflicts", []), *answer.get("possible_conflicts", [])):
        ids.update(record["ids"])
    return ids


def run(pairs: Sequence[Pair] | None = None, crowd: int = 0) -> dict[str, Any]:
    """Every pair on its own fresh store; the figures of the module docstring. With
    ``crowd``, each store first holds the first notes of that many other pairs (the next
    ones in the file), so that a note has neighbours to be ranked against: ``related``
    lists only the closest few."""
    chosen = list(pairs) if pairs is not None else load()
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="anchormem-pairs-") as tmp:
        for n, pair in enumerate(chosen):
            settings = Settings(repo=None, db=Path(tmp) / f"pair-{pair.id}.duckdb")
            others = [chosen[(n + k) % len(chosen)].a for k in range(1, crowd + 1)]
            outcomes.append(anyio.run(_one, settings, pair, [o for o in others if o != pair.a]))
    return summarise(outcomes)


def summarise(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    conflicts = [o for o in outcomes if o.pair.category == "conflict"]
    lookalikes = [o for o in outcomes if o.pair.category == "lookalike"]
    ambiguous = [o for o in outcomes if o.pair.category == "ambiguous"]
    found_by_type: Counter[str] = Counter(o.pair.type for o in conflicts if o.found)
    all_by_type: Counter[str] = Counter(o.pair.type for o in conflicts)
    surfaced_by_kind: Counter[str] = Counter(o.pair.type for o in lookalikes if o.found)
    return {
        "pairs": len(outcomes),
        "conflicts": len(conflicts),
        "conflicts_found": round(sum(o.found for o in conflicts) / max(1, len(conflicts)), 3),
        "conflicts_resolved": sum(o.resolved for o in conflicts),
        "resolved_wrongly": sum(o.wrong for o in outcomes),
        "lookalikes": len(lookalikes),
        "lookalikes_changed": sum(o.changed for o in lookalikes),
        "lookalikes_surfaced": round(sum(o.found for o in lookalikes) / max(1, len(lookalikes)), 3),
        "candidate_recall": _share(o.candidate for o in conflicts),
        "lookalikes_related": _share(o.candidate for o in lookalikes),
        "asked_after_consolidate": _share(
            o.found or o.candidate or o.consolidated for o in conflicts
        ),
        "related_per_remember": round(sum(o.related for o in outcomes) / max(1, len(outcomes)), 2),
        "strangers_related": _ratio(
            sum(o.strangers for o in outcomes), sum(o.related for o in outcomes)
        ),
        "strangers_asked_per_remember": round(
            sum(o.stray for o in outcomes) / max(1, len(outcomes)), 2
        ),
        "ambiguous": len(ambiguous),
        "ambiguous_surfaced": sum(o.found for o in ambiguous),
        "ambiguous_changed": sum(o.changed for o in ambiguous),
        "found_by_type": {t: f"{found_by_type[t]}/{n}" for t, n in sorted(all_by_type.items())},
        "lookalikes_surfaced_by_kind": dict(sorted(surfaced_by_kind.items())),
        "by_batch": {
            batch: _batch([o for o in outcomes if o.pair.batch == batch])
            for batch in sorted({o.pair.batch for o in outcomes})
        },
        "missed": [o.pair.id for o in conflicts if not o.found],
        "not_candidates": [o.pair.id for o in conflicts if not o.candidate],
        "lookalikes_related_ids": [o.pair.id for o in lookalikes if o.candidate],
        "surfaced": [o.pair.id for o in lookalikes if o.found],
        "wrong": [o.pair.id for o in outcomes if o.wrong],
        "changed": [o.pair.id for o in outcomes if o.changed and o.pair.category != "conflict"],
    }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def _share(flags: Iterable[bool]) -> float:
    marks = list(flags)
    return round(sum(marks) / max(1, len(marks)), 3)


def _batch(outcomes: Sequence[Outcome]) -> str:
    conflicts = [o for o in outcomes if o.pair.category == "conflict"]
    lookalikes = [o for o in outcomes if o.pair.category == "lookalike"]
    return (
        f"found {sum(o.found for o in conflicts)}/{len(conflicts)}, "
        f"wrong {sum(o.wrong for o in outcomes)}, "
        f"changed {sum(o.changed for o in lookalikes)}, "
        f"surfaced {sum(o.found for o in lookalikes)}/{len(lookalikes)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.conflict_pairs", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--pairs", type=Path, default=PAIRS, help="a JSONL file of pairs")
    parser.add_argument("--batch", type=int, action="append", help="only these batches")
    parser.add_argument(
        "--crowd",
        type=int,
        default=0,
        help="first remember the first notes of this many other pairs (for candidate recall)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pairs = [p for p in load(args.pairs) if not args.batch or p.batch in args.batch]
    result = run(pairs, args.crowd)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
