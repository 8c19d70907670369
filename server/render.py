"""Human-readable text for the CLI (``--json`` prints the service's dicts instead)."""

from __future__ import annotations

from typing import Any

__all__ = ["render"]


def _anchor_lines(memory: dict[str, Any]) -> list[str]:
    lines = []
    for a in memory.get("anchors", []):
        where = f" in {', '.join(a['found_in'][:3])}" if a.get("found_in") else ""
        detail = f" — {a['detail']}" if a.get("detail") else ""
        lines.append(f"    {a['verdict']:<9} {a['anchor']} ({a['provenance']}){where}{detail}")
    return lines


def _memory_lines(m: dict[str, Any]) -> list[str]:
    head = f"{m['id']}  {m['status']:<8}  {m['confidence']:>4.1f}  {m.get('text') or '(forgotten)'}"
    meta = [f"kind={m['kind']}", f"source={m['source']}:{m['origin']}"]
    if m.get("subject"):
        meta.append(f"subject={m['subject']}")
    meta.append(f"check={m.get('verification')}")
    if m.get("checked_commit"):
        meta.append(f"at {m['checked_commit'][:10]}")
    lines = [head, "    " + "  ".join(meta), *_anchor_lines(m)]
    receipt = m.get("receipt")
    if receipt:
        lines.append(
            f"    receipt {receipt['id']}: {receipt['action']} by {receipt['actor']} "
            f"at {receipt['at']}: {receipt['reason']}"
        )
    return lines


def render(command: str, result: dict[str, Any]) -> str:
    """Text for one command's result."""
    if isinstance(result.get("memories"), list):
        if not result["memories"]:
            return "no memories"
        return "\n".join(line for m in result["memories"] for line in _memory_lines(m))
    if "entries" in result:
        return (
            "\n".join(
                f"{e['seq']:>5}  {e['at']}  {e['memory_id']}  {e['action']:<8} "
                f"{e['from_status'] or '-'} -> {e['to_status'] or '-'}  by {e['actor']}"
                + (f": {e['reason']}" if e.get("reason") else "")
                for e in result["entries"]
            )
            or "no audit entries"
        )
    if "checks" in result:
        return "\n".join(
            f"{'ok  ' if c['ok'] else 'FAIL'}  {c['name']}: {c['detail']}" for c in result["checks"]
        )
    if command == "retract":
        r = result["receipt"] or {}
        lines = [f"{result['id']} REFUTED ({result['outcome']}); receipt {r.get('id')}"]
        lines += [f"  cascaded to {c['id']}" for c in result.get("cascaded", [])]
        return "\n".join(lines)
    if command == "forget":
        return f"{result['id']} forgotten; receipt {result['receipt']['id']}"
    if "id" in result and "status" in result:
        lines = _memory_lines(result)
        if result.get("outcome"):
            lines.insert(0, f"{result['outcome']}:")
        for d in result.get("dropped", []):
            lines.append(f"    dropped {d['candidate']!r}: {d['reason']}")
        return "\n".join(lines)
    import json

    return json.dumps(result, indent=2)
