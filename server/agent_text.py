"""The text content of a tool's result: the same data as its structured content, as short
lines a model reads well (one block per memory), never pretty-printed JSON. Results with no
text form here (full records, audits) are given as compact JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["text_of"]


def _compact(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _block(m: Mapping[str, Any]) -> list[str]:
    """One memory: its id and status line, its text, its standing, its anchors."""
    lines = [f"{m['id']} {m['status']}: {m['why']}"]
    lines.append(f"  {m['text']}" if m.get("text") is not None else "  (forgotten)")
    meta = [f"{m['band']} {m['confidence']}", m["source"]]
    if "score" in m:
        meta.append(f"score {m['score']}")
    lines.append("  " + " · ".join(meta))
    if m.get("anchors"):
        lines.append("  anchors: " + ", ".join(m["anchors"]))
    for name in ("flags", "conflicts"):
        if m.get(name):
            lines.append(f"  {name}: " + ", ".join(m[name]))
    return lines


def _decision(c: Mapping[str, Any]) -> str:
    """A conflict decision in one line: the pair, what happened to the loser, and why."""
    loser = f"{c['loser']} {c['outcome']}" if c.get("loser") else c["outcome"]
    return f"{' vs '.join(c['ids'])}: {loser} ({c['reason_code']}, {c['state']})"


def _standing(m: Mapping[str, Any]) -> str:
    return f"{m['id']} {m['status']}: {m['why']} ({m['band']} {m['confidence']})"


def _memories(data: Mapping[str, Any]) -> str:
    memories = data["memories"]
    if not memories:
        return "no memories"
    if any("why" not in m for m in memories):  # full records (detail): as data
        return _compact(data)
    at = f" at {data['commit'][:7]}" if data.get("commit") else ""
    head = f"{len(memories)} memor{'y' if len(memories) == 1 else 'ies'}{at}:"
    return "\n".join([head, *(line for m in memories for line in _block(m))])


def _remembered(data: Mapping[str, Any]) -> str:
    # Its conflicts are decisions (listed below), not the marks of a recalled memory.
    lines = [f"{data['outcome']}:", *_block({k: v for k, v in data.items() if k != "conflicts"})]
    for name in ("captured", "dropped", "rewritten"):
        if data.get(name):
            lines.append(f"  {name}: " + "; ".join(data[name]))
    if data.get("receipt"):
        lines.append(f"  receipt {data['receipt']}")
    for c in data.get("conflicts", []):
        lines.append(f"  conflict {_decision(c)}")
    for p in data.get("possible_conflicts", []):
        lines.append(f"  to resolve {' vs '.join(p['ids'])}: {p['question']}")
    return "\n".join(lines)


def _review(data: Mapping[str, Any]) -> str:
    lines = [
        f"{i['action']} {i['id']} ({i['confidence']}, {i['staleness_days']:.0f} d): {i['text']}"
        for i in data["items"]
    ]
    lines += [f"ask {q['user']} about {q['id']}: {q['question']}" for q in data["questions"]]
    return "\n".join(lines) or "nothing to review"


def text_of(data: Mapping[str, Any]) -> str:
    """The text content for one tool result (its structured content, ``data``)."""
    if "why" in data and "outcome" in data:
        return _remembered(data)
    if "why" in data and "effect" in data:
        extra = [f"  {k}: {data[k]}" for k in ("new_memory", "episode") if data.get(k)]
        return "\n".join([f"{data['effect']}:", _standing(data), *extra])
    if "conflict" in data and "memories" in data:
        return "\n".join([_decision(data["conflict"]), *(_standing(m) for m in data["memories"])])
    if isinstance(data.get("memories"), list) and "conflict" not in data:
        return _memories(data)
    if "items" in data and "questions" in data:
        return _review(data)
    return _compact(data)
