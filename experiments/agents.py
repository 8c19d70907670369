"""The deterministic proxy agents, and the MCP sessions they work in.

The agents reach anchormem only as a real agent would: ``anchormem serve`` started as a
subprocess (the installed console script), the MCP tools ``remember``, ``recall`` and
``retract`` over stdio, and the ``memory://<id>`` resource for the end-of-session audit.
Their code evidence comes from ``experiments.evidence`` (the agent reading the code).

For a fact f, an agent asks its question with ``recall(query=f.claim, limit=5)``; the
answer to the question is f's own memory (matched by the id ``remember`` returned) when
recall serves it. Other memories served alongside are context: they count in the tokens,
never as answers. A memory is *established* when it is served VERIFIED, or when the server
does not verify at all (verification "off", the add-only and retraction arms): then
nothing marks it as unconfirmed. ACTIVE memories with any other verification (inconclusive,
drifted, unchecked) are leads, not answers: that is what the server's instructions say.

- B: no memory. Accepts f when its code evidence supports it, rejects it when the code
  contradicts it, otherwise does not know.
- code_first: code evidence first, with B's answers; only when the code is silent it
  recalls, and accepts f if f's memory is served established. In an arm with retraction,
  when the code contradicts f it recalls, and retracts f's memory if it is served.
- memory_first (the published, lazy agent of seed 003): recalls first and accepts f if
  f's memory is served at all and not REFUTED (ACTIVE of any verification counts), and
  stops looking; otherwise it falls back on the code evidence, as B.
- careful (memory_first_careful): recalls first and accepts f only if f's memory is served
  established, as the server's instructions ask; otherwise the code evidence, as B.

The two memory-first agents ask the same question of the same store (``recall`` with the
claim), so one session serves both: each fact is recalled once and both answers are read
off the same served memory (``memory_first_pair``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from experiments.errors import ExperimentError
from experiments.evidence import CONTRADICTS, SUPPORTS, Evidence, Workspace
from experiments.facts import Fact

__all__ = [
    "ACCEPT",
    "AGENTS",
    "MEMORY_FIRST_AGENTS",
    "REJECT",
    "UNKNOWN",
    "Arm",
    "FactOutcome",
    "Seeded",
    "SessionError",
    "SessionResult",
    "b_agent",
    "code_first",
    "count_tokens",
    "established",
    "memory_first_pair",
    "seed",
    "served_not_refuted",
    "server_command",
]

ACCEPT, REJECT, UNKNOWN = "accept", "reject", "unknown"
AGENTS = ("B", "code_first", "memory_first", "careful")
MEMORY_FIRST_AGENTS = ("memory_first", "careful")
RECALL_LIMIT = 5
_TOKEN = re.compile(r"\w+|[^\w\s]")


class SessionError(ExperimentError):
    """An agent's MCP session failed: a tool answered with an error, or no server."""


@dataclass(frozen=True)
class Arm:
    """One configuration of the server and of what the agents may do."""

    name: str
    verify: bool  # verify-on-read (ANCHORMEM_VERIFY)
    retraction: bool  # code_first may retract what it finds contradicted
    conflicts: bool  # contradiction checks when a memory is written (ANCHORMEM_CONFLICTS)


def count_tokens(text: str | None) -> int:
    """Context tokens of a served memory text: words and punctuation marks (a stand-in for
    a model's tokenizer; the same for every arm)."""
    return len(_TOKEN.findall(text or ""))


def established(memory: Mapping[str, Any]) -> bool:
    """Served as an answer: VERIFIED, or from a server that does not verify at all."""
    return memory.get("status") == "VERIFIED" or (
        memory.get("status") == "ACTIVE" and memory.get("verification") == "off"
    )


def served_not_refuted(memory: Mapping[str, Any] | None) -> bool:
    """What the published memory_first takes as an answer: any memory recall serves that is
    not REFUTED (VERIFIED, or ACTIVE of any verification)."""
    return memory is not None and memory.get("status") not in (None, "REFUTED")


def server_command() -> str:
    """The installed ``anchormem`` console script, as an MCP client would start it."""
    beside = Path(sys.executable).with_name("anchormem")
    if beside.exists():
        return str(beside)
    found = shutil.which("anchormem")
    if found is None:
        raise SessionError("cannot find the anchormem console script on PATH")
    return found


def _server(ws: Workspace, db: Path, arm: Arm, actor: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env.update(
        {
            "ANCHORMEM_VERIFY": "1" if arm.verify else "0",
            "ANCHORMEM_CONFLICTS": "1" if arm.conflicts else "0",
            # Results must not depend on machine speed: a cold fingerprint would otherwise
            # leave the first recalls "unchecked".
            "ANCHORMEM_VERIFY_BUDGET_MS": "30000",
            "ANCHORMEM_ACTOR": actor,
        }
    )
    return StdioServerParameters(
        command=server_command(),
        args=["serve", "--repo", str(ws.root), "--db", str(db)],
        cwd=str(ws.root),
        env=env,
    )


class Session:
    """One agent session: one ``anchormem serve`` process, the tools over stdio."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def tool(self, name: str, **args: Any) -> dict[str, Any]:
        result = await self.client.call_tool(name, args)
        if result.is_error or result.structured_content is None:
            text = " ".join(getattr(c, "text", "") for c in result.content)
            raise SessionError(f"{name} failed: {text[:300]}")
        return dict(result.structured_content)

    async def memory(self, memory_id: str) -> dict[str, Any]:
        result = await self.client.read_resource(f"memory://{memory_id}")
        return dict(json.loads(getattr(result.contents[0], "text", "{}")))


@asynccontextmanager
async def session(ws: Workspace, db: Path, arm: Arm, actor: str) -> AsyncIterator[Session]:
    """A fresh server process for one session; its stderr goes to a log beside the store."""
    params = _server(ws, db, arm, actor)
    log_path = db.with_name(f"{db.stem}-{actor}.log")
    with log_path.open("a", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            yield Session(client)


# -- seeding: the earlier sessions that wrote the memories -----------------------------------
@dataclass
class Seeded:
    memory_id: str | None
    status: str | None = None
    verification: str | None = None
    anchors: list[str] = field(default_factory=list)
    outcome: str | None = None
    error: str | None = None


async def seed(
    ws: Workspace,
    db: Path,
    arm: Arm,
    facts: Sequence[Fact],
    commits: Mapping[str, str],
    order: Sequence[str],
) -> dict[str, Seeded]:
    """Remember every fact, each at its commit (checked out for it), then return to HEAD.
    ``order`` lists the commits oldest first."""
    seeded: dict[str, Seeded] = {}
    async with session(ws, db, arm, "seed") as s:
        try:
            for commit in order:
                group = [f for f in facts if commits[f.id] == commit]
                if not group:
                    continue
                ws.checkout(commit)
                for fact in group:
                    args: dict[str, Any] = {"text": fact.claim, "origin": f"session-{commit[:8]}"}
                    if fact.subject:
                        args["subject"] = fact.subject
                    if fact.anchors:
                        args["anchors"] = list(fact.anchors)
                    if fact.kind:
                        args["kind"] = fact.kind
                    if fact.scope:
                        args["scope"] = fact.scope
                    try:
                        made = await s.tool("remember", **args)
                    except SessionError as exc:
                        seeded[fact.id] = Seeded(None, error=str(exc))
                        continue
                    # The full record (memory://<id>): what was checked and captured.
                    full = await s.memory(str(made["id"]))
                    seeded[fact.id] = Seeded(
                        made.get("id"),
                        made.get("status"),
                        full.get("verification"),
                        [a["anchor"] for a in full.get("anchors", [])],
                        made.get("outcome"),
                    )
        finally:
            ws.checkout(ws.head)
    return seeded


# -- the agents ------------------------------------------------------------------------------
@dataclass
class FactOutcome:
    """What one agent concluded about one fact, and how its memory was served."""

    answer: str  # accept / reject / unknown
    source: str  # code / memory / none
    served: str | None = None  # f's memory in the agent's recall: STATUS[/verification]
    retracted: bool = False
    final: str | None = None  # f's memory at the end of the session (audit)
    final_established: bool = False
    tokens: int = 0  # context tokens recall served while the agent worked on this fact

    def view(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
            "source": self.source,
            "served": self.served,
            "retracted": self.retracted,
            "final": self.final,
            "final_established": self.final_established,
            "tokens": self.tokens,
        }


@dataclass
class SessionResult:
    outcomes: dict[str, FactOutcome]
    context_tokens: int = 0
    recalls: int = 0
    retractions: int = 0


def _from_code(ev: Evidence) -> str:
    if ev.verdict == SUPPORTS:
        return ACCEPT
    if ev.verdict == CONTRADICTS:
        return REJECT
    return UNKNOWN


def b_agent(facts: Sequence[Fact], evidence: Mapping[str, Evidence]) -> SessionResult:
    """B: the code alone."""
    outcomes = {}
    for fact in facts:
        answer = _from_code(evidence[fact.id])
        outcomes[fact.id] = FactOutcome(answer, "none" if answer == UNKNOWN else "code")
    return SessionResult(outcomes)


def _served(memory: Mapping[str, Any] | None) -> str:
    if memory is None:
        return "absent"
    status = str(memory.get("status"))
    verification = str(memory.get("verification") or "")
    return status if status == "VERIFIED" else f"{status}/{verification.split(':')[0]}"


async def _ask(
    s: Session, fact: Fact, seeded: Seeded, result: SessionResult
) -> tuple[dict[str, Any] | None, int]:
    """Recall with the fact's claim: f's own memory if served, and the tokens served."""
    # Full records (detail): the verification label of each served memory.
    found = await s.tool("recall", query=fact.claim, limit=RECALL_LIMIT, detail=True)
    result.recalls += 1
    served = found.get("memories", [])
    tokens = sum(count_tokens(m.get("text")) for m in served)
    result.context_tokens += tokens
    return next((m for m in served if m.get("id") == seeded.memory_id), None), tokens


async def _audit(
    s: Session, facts: Sequence[Fact], seeded: Mapping[str, Seeded], result: SessionResult
) -> None:
    """After the session: how each fact's memory stands now (not counted as context)."""
    for fact in facts:
        mid = seeded[fact.id].memory_id
        outcome = result.outcomes[fact.id]
        if mid is None:
            outcome.final = "not stored"
            continue
        view = await s.memory(mid)
        if view.get("status") == "REFUTED":
            outcome.final = f"REFUTED/{view.get('refuted_by') or 'code'}"
        else:
            outcome.final = _served(view)
        outcome.final_established = established(view)


async def code_first(
    ws: Workspace,
    db: Path,
    arm: Arm,
    facts: Sequence[Fact],
    evidence: Mapping[str, Evidence],
    seeded: Mapping[str, Seeded],
) -> SessionResult:
    result = SessionResult({})
    async with session(ws, db, arm, "code_first-agent") as s:
        for fact in facts:
            ev = evidence[fact.id]
            answer = _from_code(ev)
            outcome = FactOutcome(answer, "code")
            if answer == REJECT and arm.retraction:
                mine, outcome.tokens = await _ask(s, fact, seeded[fact.id], result)
                outcome.served = _served(mine)
                if mine is not None:
                    await s.tool(
                        "retract",
                        id=mine["id"],
                        reason="the code contradicts this memory",
                        evidence=ev.detail[:1900],
                    )
                    outcome.retracted = True
                    result.retractions += 1
            elif answer == UNKNOWN:
                mine, outcome.tokens = await _ask(s, fact, seeded[fact.id], result)
                outcome.served = _served(mine)
                if mine is not None and established(mine):
                    outcome.answer, outcome.source = ACCEPT, "memory"
                else:
                    outcome.source = "none"
            result.outcomes[fact.id] = outcome
        await _audit(s, facts, seeded, result)
    return result


async def memory_first_pair(
    ws: Workspace,
    db: Path,
    arm: Arm,
    facts: Sequence[Fact],
    evidence: Mapping[str, Evidence],
    seeded: Mapping[str, Seeded],
) -> tuple[SessionResult, SessionResult]:
    """One memory-first session answering for both agents: (memory_first, careful). Both
    recall the same query; memory_first accepts a served memory that is not REFUTED,
    careful only an established one; otherwise each falls back on the code, as B."""
    lazy, careful = SessionResult({}), SessionResult({})
    async with session(ws, db, arm, "memory_first-agent") as s:
        for fact in facts:
            mine, tokens = await _ask(s, fact, seeded[fact.id], lazy)
            served = _served(mine)
            for result, accepts in (
                (lazy, served_not_refuted(mine)),
                (careful, mine is not None and established(mine)),
            ):
                if accepts:
                    outcome = FactOutcome(ACCEPT, "memory", served)
                else:
                    answer = _from_code(evidence[fact.id])
                    outcome = FactOutcome(answer, "none" if answer == UNKNOWN else "code", served)
                outcome.tokens = tokens
                result.outcomes[fact.id] = outcome
        careful.recalls, careful.context_tokens = lazy.recalls, lazy.context_tokens
        await _audit(s, facts, seeded, lazy)
    for fact in facts:
        careful.outcomes[fact.id].final = lazy.outcomes[fact.id].final
        careful.outcomes[fact.id].final_established = lazy.outcomes[fact.id].final_established
    return lazy, careful
