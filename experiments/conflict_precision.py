"""The precision check of contradiction detection: a store of generated memories with
planted conflicts; how many are found, how many other memories are touched, how long the
consolidate pass takes.

    python -m experiments.conflict_precision [--memories 2000] [--planted 50] [--json]

Everything goes through the public interface, the MCP tools of ``server.app.build_server``
spoken to by the SDK's in-memory client, as an agent would: the memories are written with
``remember`` to a scratch store with no repository and conflict detection at write time off
(``ANCHORMEM_CONFLICTS=0``), then one ``consolidate`` call runs over all of them; ``verify``
(every memory, with its status and confidence) is read before and after it to count what
the pass touched. Hard negatives are planted too: the same attribute for different services
or environments, many-valued "uses" facts, negated claims with no positive twin.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from server.app import build_server
from server.config import Settings

__all__ = ["Spec", "generate", "main", "run"]

SERVICES = [
    "billing",
    "auth",
    "search",
    "checkout",
    "inventory",
    "shipping",
    "profile",
    "ledger",
    "catalog",
    "payments",
    "notifications",
    "reports",
    "gateway",
    "scheduler",
    "exports",
    "imports",
    "media",
    "analytics",
    "pricing",
    "orders",
]
ENVS = ["staging", "production", "development", "qa"]
TOOLS = ["Django", "Flask", "Postgres", "Redis", "Celery", "Kafka", "Nginx", "Node"]
SINKS = ["stderr", "syslog", "a JSON file", "Loki", "CloudWatch", "journald"]
PROTOCOLS = ["HTTP", "HTTPS", "gRPC"]
MODULES = ["requests", "httpx", "orjson", "pydantic", "sqlalchemy", "boto3", "yaml", "jinja2"]


@dataclass(frozen=True)
class Spec:
    text: str
    subject: str | None = None
    origin: str = "agent-1"
    anchors: tuple[str, ...] = ()


def generate(
    memories: int, planted: int, seed: int = 7
) -> tuple[list[Spec], list[tuple[int, int]]]:
    """``memories`` specs, of which ``planted`` pairs conflict; returns the specs and the
    index pairs of the planted conflicts."""
    rng = random.Random(seed)
    specs: list[Spec] = []
    pairs: list[tuple[int, int]] = []
    used: set[str] = set()

    def add(spec: Spec) -> int:
        specs.append(spec)
        return len(specs) - 1

    makers = [_plant_version, _plant_setting, _plant_negation, _plant_anchor, _plant_protocol]
    for i in range(planted):
        first, second = makers[i % len(makers)](i, rng)
        pairs.append((add(first), add(second)))
        used.update({first.text, second.text})
    fillers = _fillers(rng)
    while len(specs) < memories:
        spec = next(fillers)
        if spec.text not in used:
            used.add(spec.text)
            add(spec)
    return specs, pairs


def _svc(i: int) -> str:
    return f"{SERVICES[i % len(SERVICES)]}{i // len(SERVICES) or ''}"


def _plant_version(i: int, rng: random.Random) -> tuple[Spec, Spec]:
    tool, svc = TOOLS[i % len(TOOLS)], f"planted-{_svc(i)}"
    return (
        Spec(f"The {svc} service runs {tool} 3.{i % 7}", svc),
        Spec(f"The {svc} service upgraded to {tool} 4.{i % 5}", svc),
    )


def _plant_setting(i: int, rng: random.Random) -> tuple[Spec, Spec]:
    svc = f"planted-{_svc(i)}"
    return (
        Spec(f"The {svc} request timeout is {10 + i}s", svc, "docs"),
        Spec(f"The {svc} request timeout is {100 + i}s now", svc, "docs"),
    )


def _plant_negation(i: int, rng: random.Random) -> tuple[Spec, Spec]:
    svc = f"planted-{_svc(i)}"
    return (
        Spec(f"The {svc} service retries failed jobs"),
        Spec(f"The {svc} service does not retry failed jobs"),
    )


def _plant_anchor(i: int, rng: random.Random) -> tuple[Spec, Spec]:
    mod, svc = MODULES[i % len(MODULES)], f"planted-{_svc(i)}"
    path = f"{svc.replace('-', '_')}/client.py"
    return (
        Spec(f"The {svc} client is built on {mod}", anchors=(f"import:{mod}@{path}",)),
        Spec(f"The {svc} client dropped {mod}", anchors=(f"!import:{mod}@{path}",)),
    )


def _plant_protocol(i: int, rng: random.Random) -> tuple[Spec, Spec]:
    svc, env = f"planted-{_svc(i)}", ENVS[i % len(ENVS)]
    return (Spec(f"The {env} {svc} API uses HTTP"), Spec(f"The {env} {svc} API uses HTTPS now"))


def _fillers(rng: random.Random) -> Any:
    n = 0
    while True:
        n += 1
        svc, env = _svc(n), ENVS[n % len(ENVS)]
        choice = n % 9
        if choice == 0:  # same attribute, a different service each time
            yield Spec(f"The {svc} request timeout is {rng.randint(5, 90)}s", svc)
        elif choice == 1:  # a version per service
            yield Spec(
                f"The {svc} service runs {rng.choice(TOOLS)} {rng.randint(1, 9)}.{n % 10}", svc
            )
        elif choice == 2:  # one protocol per environment and service
            yield Spec(f"The {ENVS[n % 4]} {svc}{n} API uses {rng.choice(PROTOCOLS)}")
        elif choice == 3:  # many-valued: a service uses several things
            yield Spec(f"The {svc} service uses {rng.choice(MODULES)} for {n % 13} tasks")
        elif choice == 4:  # a negated claim with no positive twin
            yield Spec(f"We do not deploy {svc} on Fridays during sprint {n}")
        elif choice == 5:
            yield Spec(f"The {svc} service logs to {rng.choice(SINKS)} in {env} ({n})")
        elif choice == 6:  # the same anchor, expected present by several memories
            mod = MODULES[n % len(MODULES)]
            yield Spec(f"Fetching in {svc} ({n}) goes through {mod}", anchors=(f"import:{mod}",))
        elif choice == 7:
            yield Spec(f"Incident {n}: the {svc} queue backed up after a deploy")
        else:
            yield Spec(f"Convention {n}: {svc} handlers validate input with pydantic models")


async def _call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    if result.is_error or result.structured_content is None:
        raise RuntimeError(f"{tool} failed: {result.content}")
    return result.structured_content


async def _write(client: Client, specs: Sequence[Spec]) -> list[str]:
    ids = []
    for spec in specs:
        args: dict[str, Any] = {"text": spec.text, "origin": spec.origin}
        if spec.subject:
            args["subject"] = spec.subject
        if spec.anchors:
            args["anchors"] = list(spec.anchors)
        made = await _call(client, "remember", args)
        if made["outcome"] != "stored":
            raise RuntimeError(f"remember did not store {spec.text!r}: {made['outcome']}")
        ids.append(made["id"])
    return ids


async def _snapshot(client: Client) -> dict[str, tuple[str, float]]:
    found = await _call(client, "verify", {})
    return {m["id"]: (m["status"], round(m["confidence"], 4)) for m in found["memories"]}


async def _drive(
    settings: Settings, specs: Sequence[Spec]
) -> tuple[list[str], dict[str, Any], float, dict[str, Any], dict[str, Any]]:
    async with Client(build_server(settings)) as client:
        ids = await _write(client, specs)
        before = await _snapshot(client)
        started = time.perf_counter()
        report = await _call(client, "consolidate", {})
        seconds = time.perf_counter() - started
        after = await _snapshot(client)
    return ids, report, seconds, before, after


def run(memories: int = 2000, planted: int = 50, seed: int = 7) -> dict[str, Any]:
    """Generate, remember, consolidate once; count found planted conflicts and collateral."""
    specs, pairs = generate(memories, planted, seed)
    with tempfile.TemporaryDirectory(prefix="anchormem-precision-") as tmp:
        settings = Settings(repo=None, db=Path(tmp) / "precision.duckdb", conflicts=False)
        ids, report, seconds, before, after = anyio.run(_drive, settings, specs)
    planted_ids = {frozenset((ids[a], ids[b])) for a, b in pairs}
    in_pairs = {m for pair in planted_ids for m in pair}
    # A decided or open conflict; the questions left to the agent (possible conflicts)
    # decide nothing and are counted apart.
    found_pairs = {frozenset(c["ids"]) for c in report["conflicts"]}
    touched = {i for i in ids if before[i] != after[i]}
    false_pairs = found_pairs - planted_ids
    return {
        "memories": len(specs),
        "planted_conflicts": len(planted_ids),
        "planted_found": len(planted_ids & found_pairs),
        "false_conflicts": len(false_pairs),
        "collateral_memories_touched": len(touched - in_pairs)
        + len({m for p in false_pairs for m in p} - in_pairs - touched),
        "possible_conflicts": len(report.get("possible_conflicts", [])),  # left out when none
        "pairs_compared": report["pairs_compared"],
        "consolidate_seconds": round(seconds, 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.conflict_precision", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--planted", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.planted * 2 > args.memories:
        parser.error("--planted pairs must fit in --memories")
    result = run(args.memories, args.planted, args.seed)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
