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


def _line(value: object) -> str:
    """A value on one line: a newline in caller text never starts a line of its own."""
    return json.dumps(str(value), ensure_ascii=False)[1:-1]


def _block(m: Mapping[str, Any]) -> list[str]:
    """One memory: its id and status line, its text (quoted: a note is data, and cannot
    forge a block of its own), its standing, its anchors."""
    lines = [f"{m['id']} {m['status']}: {_line(m['why'])}"]
    text = m.get("text")
    lines.append(
        "  " + (json.dumps(text, ensure_ascii=False) if text is not None else "(forgotten)")
    )
    meta = [f"{m['band']} {m['confidence']}", _line(m["source"])]
    if "score" in m:
        meta.append(f"score {m['score']}")
    lines.append("  " + " · ".join(meta))
    for name in ("anchors", "flags", "conflicts"):
        if m.get(name):
            lines.append(f"  {name}: " + ", ".join(_line(v) for v in m[name]))
    return lines


def _decision(c: Mapping[str, Any]) -> str:
    """A conflict decision in one line: the pair, what happened to the loser, and why."""
    loser = f"{c['loser']} {c['outcome']}" if c.get("loser") else c["outcome"]
    return f"{' vs '.join(c['ids'])}: {loser} ({c['reason_code']}, {c['state']})"


def _standing(m: Mapping[str, Any]) -> str:
    return f"{m['id']} {m['status']}: {_line(m['why'])} ({m['band']} {m['confidence']})"


def _memories(data: Mapping[str, Any]) -> str:
    memories = data["memories"]
    refuted = [data["refuted_matches"]] if data.get("refuted_matches") else []
    if not memories:
        return "\n".join(["no memories", *refuted])
    if any("why" not in m for m in memories):  # full records (detail): as data
        return _compact(data)
    at = f" at {data['commit'][:7]}" if data.get("commit") else ""
    head = f"{len(memories)} memor{'y' if len(memories) == 1 else 'ies'}{at}:"
    return "\n".join([head, *(line for m in memories for line in _block(m)), *refuted])


def _remembered(data: Mapping[str, Any]) -> str:
    # Its conflicts are decisions (listed below), not the marks of a recalled memory.
    lines = [f"{data['outcome']}:", *_block({k: v for k, v in data.items() if k != "conflicts"})]
    for name in ("captured", "dropped", "rewritten"):
        if data.get(name):
            lines.append(f"  {name}: " + "; ".join(_line(v) for v in data[name]))
    if data.get("receipt"):
        lines.append(f"  receipt {data['receipt']}")
    for c in data.get("conflicts", []):
        lines.append(f"  conflict {_decision(c)}")
    if data.get("more_conflicts"):
        lines.append(f"  and {data['more_conflicts']} more conflicts decided (in the conflict log)")
    for p in data.get("possible_conflicts", []):
        claims = " / ".join(json.dumps(c, ensure_ascii=False) for c in p["claims"])
        lines.append(f"  to resolve {' vs '.join(p['ids'])}: {claims}: {p['question']}")
    if data.get("more_possible"):
        lines.append(f"  and {data['more_possible']} more to resolve (consolidate lists them)")
    if data.get("related"):
        lines.append(f"  related: {_line(data['related_question'])}")
        lines += [f"    {_line(r)}" for r in data["related"]]
    return "\n".join(lines)


def _review(data: Mapping[str, Any]) -> str:
    lines = [
        f"{i['action']} {i['id']} ({i['confidence']}, {i['staleness_days']:.0f} d): "
        + json.dumps(i["text"], ensure_ascii=False)
        for i in data["items"]
    ]
    lines += [
        f"ask {_line(q['user'])} about {q['id']}: {_line(q['question'])}" for q in data["questions"]
    ]
    return "\n".join(lines) or "nothing to review"


def text_of(model: str, data: Mapping[str, Any]) -> str:
    """The text content for one tool result: its structured content, ``data``, whose
    output model is ``model``."""
    if model == "Remembered":
        return _remembered(data)
    if model == "Superseded":
        return "\n".join([f"{data['outcome']}, superseding {data['supersedes']}:", _standing(data)])
    if model == "Observed":
        extra = [f"  {k}: {data[k]}" for k in ("new_memory", "episode") if data.get(k)]
        return "\n".join([f"{data['effect']}:", _standing(data), *extra])
    if model == "Resolved":
        return "\n".join([_decision(data["conflict"]), *(_standing(m) for m in data["memories"])])
    if model in ("Recalled", "Verified"):
        return _memories(data)
    if model == "ReviewOut":
        return _review(data)
    return _compact(data)
