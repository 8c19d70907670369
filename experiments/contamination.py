"""The contamination experiment: do false memories reach an agent, and what stops them?

``anchormem experiment contamination`` builds (or clones) a repository, validates the
labels of a fact set against its code, and runs three arms, each on a fresh store:

- add_only: verify-on-read off, nobody retracts (a plain add-only memory, the baseline);
- retraction: verify-on-read off; a code_first session retracts what the code
  contradicts, then a fresh memory_first session reads what is left;
- verify_on_read: the normal server (every read checked against HEAD), nobody retracts.

In each arm the facts are first remembered by a seeding session (each at its ``commit``),
then a code_first session and a fresh memory-first session answer every fact (the
published memory_first and the careful one read the same recalls). B (no memory) answers
from the code alone. ``experiments/README.md`` defines the agents, arms and metrics;
``adr/0004`` records the decision.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from anchors.errors import AnchormemError
from experiments.agents import (
    AGENTS,
    MEMORY_FIRST_AGENTS,
    Arm,
    SessionError,
    SessionResult,
    b_agent,
    code_first,
    memory_first_pair,
    seed,
)
from experiments.errors import EXIT_USAGE, ExperimentError, exit_code
from experiments.evidence import Evidence, Workspace, validate_facts
from experiments.facts import Fact, default_facts_path, load_facts
from experiments.metrics import agent_metrics
from experiments.report import write_chart, write_markdown
from experiments.results_dir import default_results_dir
from experiments.scratch import git

__all__ = ["ARMS", "PUBLISHED", "Config", "ExperimentError", "run", "run_cli"]

ARMS = (
    Arm("add_only", verify=False, retraction=False, conflicts=False),
    Arm("retraction", verify=False, retraction=True, conflicts=False),
    Arm("verify_on_read", verify=True, retraction=False, conflicts=True),
)

PUBLISHED: dict[str, Any] = {
    "source": "seed 003: the peer's proxy-agent experiment (50 facts: 25 true, "
    "22 contradicted, 3 silent)",
    "adoption_rate": {
        "memory_first": {"add_only": 1.00, "retraction": 0.12, "verify_on_read": 0.16},
        "code_first": {"add_only": 0.12, "verify_on_read": 0.00},
    },
    "replication": {"memory_first": {"verify_on_read": 0.24}},
}


@dataclass(frozen=True)
class Config:
    out: Path
    repo: Path | None = None
    facts: Path | None = None
    per_category: int | None = None
    keep_workdir: bool = False
    scratch: Path | None = None  # where the working directory goes (default: the temp dir)


def _subset(facts: Sequence[Fact], per_category: int | None) -> list[Fact]:
    """At most ``per_category`` facts of each (category, truth), in file order."""
    if per_category is None:
        return list(facts)
    taken: Counter[tuple[str, bool]] = Counter()
    chosen = []
    for fact in facts:
        key = (fact.category, fact.truth)
        if taken[key] < per_category:
            taken[key] += 1
            chosen.append(fact)
    return chosen


def _commit_order(ws: Workspace, commits: set[str]) -> list[str]:
    """The commits to remember at, oldest first along HEAD's history, HEAD last."""
    history = git(ws.root, "rev-list", "--topo-order", "--reverse", ws.head).split()
    rank = {sha: i for i, sha in enumerate(history)}
    others = sorted(c for c in commits if c not in rank)
    return others + sorted((c for c in commits if c in rank), key=rank.__getitem__)


async def _run_arms(
    ws: Workspace,
    facts: list[Fact],
    commits: dict[str, str],
    evidence: dict[str, Evidence],
    workdir: Path,
    log: Any,
) -> tuple[dict[str, dict[str, SessionResult]], dict[str, Any]]:
    """The three arms side by side, each in a working copy and a store of its own."""
    order = _commit_order(ws, set(commits.values()))
    sessions: dict[str, dict[str, SessionResult]] = {}
    seeds: dict[str, Any] = {}
    b = b_agent(facts, evidence)

    async def one(arm: Arm, copy: Workspace) -> None:
        started = time.monotonic()
        db = workdir / f"{arm.name}.duckdb"
        seeded = await seed(copy, db, arm, facts, commits, order)
        missing = [f for f in facts if seeded.get(f.id) is None or seeded[f.id].memory_id is None]
        if missing:
            errors = "; ".join(f"{f.id}: {seeded[f.id].error}" for f in missing[:3])
            raise ExperimentError(f"{len(missing)} facts could not be remembered ({errors})")
        cf = await code_first(copy, db, arm, facts, evidence, seeded)
        mf, careful = await memory_first_pair(copy, db, arm, facts, evidence, seeded)
        sessions[arm.name] = {"B": b, "code_first": cf, "memory_first": mf, "careful": careful}
        seeds[arm.name] = seeded
        log(f"arm {arm.name}: {time.monotonic() - started:.1f}s")

    copies = [Workspace.clone(ws.root, workdir / f"repo-{arm.name}") for arm in ARMS]
    try:
        async with anyio.create_task_group() as group:
            for arm, copy in zip(ARMS, copies, strict=True):
                group.start_soon(one, arm, copy)
    finally:
        for copy in copies:
            copy.close()
    return {a.name: sessions[a.name] for a in ARMS}, seeds


def _metrics(
    facts: list[Fact], evidence: dict[str, Evidence], sessions: dict[str, dict[str, SessionResult]]
) -> dict[str, Any]:
    categories = sorted({f.category for f in facts})
    arms: dict[str, Any] = {}
    for arm, by_agent in sessions.items():
        arms[arm] = {}
        for agent in AGENTS:
            result = by_agent[agent]
            memory = agent != "B"
            # served / served_verified / true_verified: what recall returned for each fact's
            # own memory, from the memory-first session (which recalls every fact; it serves
            # both memory-first agents). code_first recalls only some facts: not reported.
            recall = by_agent["memory_first"].outcomes if agent in MEMORY_FIRST_AGENTS else None
            entry = agent_metrics(facts, result.outcomes, evidence, memory, recall)
            entry["recalls"] = result.recalls
            entry["retractions"] = result.retractions
            entry["by_category"] = {
                c: agent_metrics(
                    [f for f in facts if f.category == c], result.outcomes, evidence, memory, recall
                )
                for c in categories
            }
            arms[arm][agent] = entry
    return arms


def _served_table(
    facts: list[Fact], sessions: dict[str, dict[str, SessionResult]]
) -> dict[str, Any]:
    """How each fact's memory was served to memory_first, per arm, category and label."""
    table: dict[str, Any] = {}
    for arm, by_agent in sessions.items():
        rows: dict[str, dict[str, Counter[str]]] = {}
        for fact in facts:
            served = by_agent["memory_first"].outcomes[fact.id].served or "not asked"
            label = "true" if fact.truth else "false"
            rows.setdefault(fact.category, {}).setdefault(label, Counter())[served] += 1
        table[arm] = {
            c: {t: dict(sorted(n.items())) for t, n in v.items()} for c, v in rows.items()
        }
    return table


def _per_fact(
    facts: list[Fact],
    evidence: dict[str, Evidence],
    commits: dict[str, str],
    sessions: dict[str, dict[str, SessionResult]],
    seeds: dict[str, Any],
) -> list[dict[str, Any]]:
    rows = []
    for fact in facts:
        row: dict[str, Any] = {
            **fact.summary(),
            "subject": fact.subject,
            "commit": commits[fact.id],
            "evidence": evidence[fact.id].verdict,
            "evidence_detail": evidence[fact.id].detail,
            "arms": {},
        }
        for arm, by_agent in sessions.items():
            s = seeds[arm][fact.id]
            row["arms"][arm] = {
                "memory": {
                    "id": s.memory_id,
                    "anchors": s.anchors,
                    "status_when_written": s.status,
                    "verification_when_written": s.verification,
                },
                **{agent: by_agent[agent].outcomes[fact.id].view() for agent in AGENTS},
            }
        rows.append(row)
    return rows


def _first_error(group: BaseExceptionGroup) -> BaseException:
    first: BaseException = group.exceptions[0]
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    return first


def run(config: Config, log: Any = None) -> dict[str, Any]:
    """Run the experiment and write its outputs to ``config.out``; returns the results."""
    say = log or (lambda _msg: None)
    started = time.monotonic()
    if config.repo is not None and config.facts is None:
        raise ExperimentError(
            "--repo needs --facts: the default facts are about anchormem's own fixture",
            EXIT_USAGE,
        )
    facts = load_facts(config.facts or default_facts_path())  # FactsError: a usage error
    facts = _subset(facts, config.per_category)
    config.out.mkdir(parents=True, exist_ok=True)
    if config.scratch is not None:
        config.scratch.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="anchormem-contamination-", dir=config.scratch))
    ws: Workspace | None = None
    try:
        if config.repo is None:
            ws = Workspace.fixture(workdir / "repo")
        else:
            ws = Workspace.clone(config.repo.expanduser().resolve(), workdir / "repo")
        kept, excluded, commits, evidence = validate_facts(facts, ws)
        say(f"{len(kept)} facts kept, {len(excluded)} excluded by label validation")
        if not kept:
            raise ExperimentError("no fact passed label validation; nothing to run", 1)
        try:
            sessions, seeds = anyio.run(_run_arms, ws, kept, commits, evidence, workdir, say)
        except BaseExceptionGroup as group:  # a task of the arms failed: report the first
            first = _first_error(group)
            if isinstance(first, KeyboardInterrupt) or (
                isinstance(first, ExperimentError) and not isinstance(first, SessionError)
            ):
                raise first from None
            # A session that failed (SessionError), or its client or server process did.
            raise ExperimentError(f"an agent session failed: {first}") from first
        except SessionError as exc:
            raise ExperimentError(f"an agent session failed: {exc}") from exc
        results: dict[str, Any] = {
            "experiment": "contamination",
            "repository": {
                "source": ws.origin,
                "head": ws.head,
                "tags": ws.tags,
            },
            "facts": {
                "given": len(facts),
                "scored": len(kept),
                "true": sum(1 for f in kept if f.truth),
                "false": sum(1 for f in kept if not f.truth),
                "by_category": {
                    c: {
                        "true": sum(1 for f in kept if f.category == c and f.truth),
                        "false": sum(1 for f in kept if f.category == c and not f.truth),
                    }
                    for c in sorted({f.category for f in kept})
                },
                "labels_not_checkable": [f.id for f in kept if not f.check and not f.unmentioned],
            },
            "excluded": [e.view() for e in excluded],
            "arms": _metrics(kept, evidence, sessions),
            "served_to_memory_first": _served_table(kept, sessions),
            "published": PUBLISHED,
            "seconds": round(time.monotonic() - started, 1),
        }
        per_fact = _per_fact(kept, evidence, commits, sessions, seeds)
    finally:
        if ws is not None:
            ws.close()
        if config.keep_workdir:
            say(f"working directory kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    results["seconds"] = round(time.monotonic() - started, 1)
    (config.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    with (config.out / "per_fact.jsonl").open("w", encoding="utf-8") as handle:
        for row in per_fact:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    write_markdown(results, config.out / "results.md")
    write_chart(results, config.out / "chart.png")
    return results


def run_cli(args: argparse.Namespace, as_json: bool) -> int:
    """``anchormem experiment contamination`` (options in ``server/cli.py``): run, print the
    markdown table (or the JSON), return the exit code."""
    per = getattr(args, "per_category", None)
    if per is not None and per < 1:
        print("anchormem: --per-category must be at least 1", file=sys.stderr)
        return 2
    repo = getattr(args, "repo", None)
    facts = getattr(args, "facts", None)
    config = Config(
        out=Path(args.out or default_results_dir("contamination")).expanduser(),
        repo=Path(repo) if repo else None,
        facts=Path(facts).expanduser() if facts else None,
        per_category=per,
        keep_workdir=bool(getattr(args, "keep_workdir", False)),
    )

    def log(message: str) -> None:
        if not as_json:
            print(message, file=sys.stderr)

    try:
        results = run(config, log)
    except AnchormemError as exc:  # the experiment's boundary: one line, the exit code
        print(f"anchormem: {exc}", file=sys.stderr)
        return exit_code(exc)
    if as_json:
        print(json.dumps(results, indent=2))
    else:
        print((config.out / "results.md").read_text(), end="")
        print(f"\nwritten to {config.out}/ (results.json, results.md, chart.png, per_fact.jsonl)")
    return 0
