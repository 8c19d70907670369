"""Text a person reads at a terminal for each command's result (``--json`` prints the
dicts themselves). Lines are laid out plain, wrapped at word boundaries to the width, and
painted last (``server.colour``): a colour never moves a cut. Each reason is said once
and each hint once per screen (adr/0024)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from server.cli_tables import wrap_text
from server.colour import PLAIN, Palette
from server.memory_lines import (
    cells,
    cut,
    hints,
    memory_rows,
    short_reason,
    split_hints,
    status_counts,
)

__all__ = ["render"]

# A logical line and the span of the one word painted in it (a status, a verdict): the
# span lies in the line's first columns, which wrapping leaves where they are.
_Line = tuple[str, tuple[int, int] | None]
_NEWLY = re.compile(r"\b(newly) (REFUTED|VERIFIED|ACTIVE)\b")
_STATUS_ORDER = {"REFUTED": 0, "VERIFIED": 1, "ACTIVE": 2}


def _laid_out(lines: Sequence[_Line], width: int, palette: Palette) -> list[str]:
    out: list[str] = []
    for text, span in lines:
        wrapped = wrap_text(text, width).split("\n")
        if span is not None and palette.on:
            a, b = span
            first = wrapped[0]
            wrapped[0] = first[:a] + palette.word(first[a:b]) + first[b:]
        out.extend(wrapped)
    return out


def _hint_lines(said: Sequence[str]) -> list[_Line]:
    return [(f"hint: {h}", None) for h in said]


def _anchor_lines(memory: dict[str, Any]) -> list[_Line]:
    lines: list[_Line] = []
    for a in memory.get("anchors") or []:
        where = f" in {', '.join(a['found_in'][:3])}" if a.get("found_in") else ""
        detail = split_hints(a.get("detail") or "")[0]
        said = f" — {detail}" if detail else ""
        verdict = str(a.get("verdict"))
        text = f"    {verdict:<9} {a['anchor']} ({a['provenance']}){where}{said}"
        lines.append((text, (4, 4 + len(verdict))))
    return lines


def _receipt_line(r: dict[str, Any], repeats_anchors: bool) -> _Line:
    head = f"    receipt {r['id']}: {r['action']} by {r['actor']} at {r['at']}"
    if repeats_anchors:  # its reason is the broken anchors' details, listed above
        return (f"{head} (the broken anchors above)", None)
    reason = split_hints(str(r.get("reason") or ""))[0]
    return (f"{head}: {reason}" if reason else head, None)


def _memory_lines(
    m: dict[str, Any], receipts: Sequence[dict[str, Any]] | None = None
) -> list[_Line]:
    """A memory in full: its head, what it is, each anchor's verdict, its receipts
    (``receipts``, or the one that refuted it)."""
    status = str(m["status"])
    at = len(str(m["id"])) + 2
    head = f"{m['id']}  {status:<8}  {m['confidence']:>4.1f}  {m.get('text') or '(forgotten)'}"
    meta = [f"kind={m['kind']}", f"source={m['source']}:{m['origin']}"]
    if m.get("subject"):
        meta.append(f"subject={m['subject']}")
    meta.append(f"check={m.get('verification')}")
    if m.get("checked_commit"):
        meta.append(f"at {m['checked_commit'][:10]}")
    lines: list[_Line] = [(head, (at, at + len(status))), ("    " + "  ".join(meta), None)]
    lines += _anchor_lines(m)
    latest = m.get("receipt")
    by_code = m.get("refuted_by") == "code" and status == "REFUTED"
    for r in receipts if receipts is not None else [latest] if latest else []:
        repeats = by_code and latest is not None and r.get("id") == latest.get("id")
        lines.append(_receipt_line(r, repeats))
    return lines


def _uncovered_lines(m: dict[str, Any]) -> list[_Line]:
    words = m.get("uncovered")
    blocks = {"uncovered", "unresolved_code"} & set(m.get("flags") or [])
    if words is None:
        return []
    why = " (so the code cannot make it VERIFIED)" if blocks else ""
    if words:
        return [(f"    no anchor covers: {', '.join(words)}{why}", None)]
    return [(f"    no anchor covers a part of the note{why}", None)] if blocks else []


def _commit(result: dict[str, Any]) -> str | None:
    commit = result.get("checked_commit") or next(
        (m.get("checked_commit") for m in result.get("memories") or [] if m.get("checked_commit")),
        None,
    )
    return str(commit)[:7] if commit else None


def _list_screen(
    result: dict[str, Any], width: int, palette: Palette, long: bool, limit: int | None
) -> list[str]:
    memories = result.get("memories") or []
    if not memories:
        return ["no memories"]
    if long:
        body = _laid_out([line for m in memories for line in _memory_lines(m)], width, palette)
    else:
        body = memory_rows(memories, width, palette)
    commit = _commit(result)
    count = f"{len(memories)} memor{'y' if len(memories) == 1 else 'ies'}"
    summary = f"{count}: {status_counts(memories)}" + (f"; checked at {commit}" if commit else "")
    footer: list[_Line] = [("", None), (summary, None)]
    if limit is not None and len(memories) >= limit:
        footer.append((f"the newest {limit}: --limit N for more", None))
    footer += _hint_lines(hints(memories))
    if not long:
        footer.append(("anchormem show ID: one memory in full; --long: every one in full", None))
    laid = _laid_out(footer, width, palette)
    if palette.on:
        laid = [_paint_statuses(line, palette) for line in laid]
    return body + laid


def _paint_statuses(line: str, palette: Palette) -> str:
    return re.sub(r"\b(VERIFIED|ACTIVE|REFUTED)\b", lambda hit: palette.word(hit.group(1)), line)


def _changes(result: dict[str, Any], width: int, palette: Palette) -> list[str]:
    """What the check changed: "2 newly REFUTED, 24 unchanged", then each change."""
    changes = result.get("changes")
    if not isinstance(changes, dict):
        return []
    changed = sorted(changes.get("changed") or [], key=lambda c: _STATUS_ORDER.get(c["to"], 9))
    counted = Counter(str(c["to"]) for c in changed)  # in the order of ``changed``
    parts = [f"{n} newly {to}" for to, n in counted.items()]
    parts.append(f"{changes.get('unchanged', 0)} unchanged")
    lines = wrap_text("since the last check: " + ", ".join(parts), width).split("\n")
    if palette.on:
        lines = [_NEWLY.sub(lambda h: f"{h.group(1)} {palette.word(h.group(2))}", x) for x in lines]
    shown = {m.get("id"): m for m in result.get("memories") or []}
    id_w = max([0, *(len(str(c["id"])) for c in changed)])
    for c in changed:
        m = shown.get(c["id"])
        was, now = str(c["from"]), str(c["to"])
        lead = f"  {str(c['id']).ljust(id_w)}  {was:>8} -> {now:<8}  "
        note = cut(f"{short_reason(m)}: {m.get('text') or ''}" if m else "", width - cells(lead))
        if palette.on:
            lead = f"  {str(c['id']).ljust(id_w)}  {palette.word(was.rjust(8))} -> "
            lead += f"{palette.word(now, 8)}  "
        lines.append((lead + note).rstrip())
    return lines


def _stats(result: dict[str, Any]) -> list[str]:
    wrong = result.get("wrong_fact_signals") or {}
    missed = result.get("missed_fact_signals") or {}
    rows: list[tuple[str, str]] = [
        ("memories written", str(result.get("memories_written", 0))),
        ("wrong-fact signals", ""),
        ("  corrections (superseded)", str(wrong.get("corrections", 0))),
        ("  retractions", str(wrong.get("retractions", 0))),
        ("  refuted by the code", str(wrong.get("refutations_by_code", 0))),
        ("missed-fact signals", ""),
        ("  restatements", str(missed.get("restatements", 0))),
        ("correction rate", f"{float(result.get('correction_rate') or 0) * 100:.1f}%"),
        (
            "retracted claims remembered again",
            str(result.get("retracted_claims_remembered_again", 0)),
        ),
    ]
    key_w = max(len(k) for k, _ in rows)
    return [f"{k.ljust(key_w)}  {v}".rstrip() for k, v in rows]


def _audit(result: dict[str, Any], width: int) -> list[str]:
    lines: list[_Line] = []
    said: dict[str, None] = {}
    for e in result["entries"]:
        reason, found = split_hints(str(e.get("reason") or ""))
        said.update(dict.fromkeys(found))
        lines.append(
            (
                f"{e['seq']:>5}  {e['at']}  {e['memory_id']}  {e['action']:<8} "
                f"{e['from_status'] or '-'} -> {e['to_status'] or '-'}  by {e['actor']}"
                + (f": {reason}" if reason else ""),
                None,
            )
        )
    if not lines:
        return ["no audit entries"]
    if said:
        lines += [("", None), *_hint_lines(list(said))]
    return _laid_out(lines, width, PLAIN)


def render(
    command: str,
    result: dict[str, Any],
    width: int,
    palette: Palette = PLAIN,
    *,
    long: bool = False,
    limit: int | None = None,
) -> str:
    """Text for one command's result, wrapped to ``width``: ``list`` one line per memory
    unless ``long``; ``verify`` the same, then what the check changed."""
    if command == "list":
        return "\n".join(_list_screen(result, width, palette, long, limit))
    if command == "verify":
        screen = _list_screen(result, width, palette, long, None)
        return "\n".join([*screen, *_changes(result, width, palette)])
    if command == "stats":
        return "\n".join(_stats(result))
    if isinstance(result.get("memories"), list):
        memories = result["memories"]
        if not memories:
            return "no memories"
        lines = [line for m in memories for line in _memory_lines(m)]
        lines += _hint_lines(hints(memories))
        return "\n".join(_laid_out(lines, width, palette))
    if "entries" in result:
        return "\n".join(_audit(result, width))
    if "checks" in result:
        return "\n".join(
            wrap_text(f"{'ok  ' if c['ok'] else 'FAIL'}  {c['name']}: {c['detail']}", width)
            for c in result["checks"]
        )
    if command == "retract":
        r = result["receipt"] or {}
        out = [f"{result['id']} REFUTED ({result['outcome']}); receipt {r.get('id')}"]
        out += [f"  cascaded to {c['id']}" for c in result.get("cascaded", [])]
        return "\n".join(out)
    if command == "forget":
        return f"{result['id']} forgotten; receipt {result['receipt']['id']}"
    if "id" in result and "status" in result:
        receipts = result.get("receipts") if command == "show" else None
        lines = _memory_lines(result, receipts)
        if result.get("outcome"):
            lines.insert(0, (f"{result['outcome']}:", None))
        lines += _uncovered_lines(result)
        for d in result.get("dropped", []):
            lines.append((f"    dropped {d['candidate']!r}: {d['reason']}", None))
        lines += _hint_lines(hints([result]))
        return "\n".join(_laid_out(lines, width, palette))
    return json.dumps(result, indent=2)
