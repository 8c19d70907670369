"""Memories one line each, as ``list`` and ``verify`` print them at a terminal: the id,
the status, a short reason and the text cut to the terminal's width, with each hint said
once below the list instead of once per memory (adr/0024). Laid out from the dicts the
commands' results render to (the ones ``--json`` prints); it decides nothing."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from server.colour import PLAIN, Palette

__all__ = [
    "cells",
    "cut",
    "hints",
    "memory_rows",
    "short_reason",
    "split_hints",
    "status_counts",
]

_GAP = "  "
# A detail's advice to the person, not a fact about the code: "(if the note is about
# something outside this repository, remember it with scope 'external')". Said once.
_HINT = re.compile(r"\s*\((if [^()]+)\)(?=\s*(?:;|$))")
_ORDER = ("VERIFIED", "ACTIVE", "REFUTED")


def split_hints(text: str) -> tuple[str, list[str]]:
    """``text`` without its hints, and the hints."""
    found = _HINT.findall(text)
    return (_HINT.sub("", text), found) if found else (text, [])


def hints(memories: Iterable[dict[str, Any]]) -> list[str]:
    """Every hint the memories' anchors and receipts carry, each once, in order."""
    seen: dict[str, None] = {}
    for m in memories:
        texts = [a.get("detail") or "" for a in m.get("anchors") or []]
        receipt = m.get("receipt") or {}
        texts.append(receipt.get("reason") or "")
        for text in texts:
            for hint in split_hints(text)[1]:
                seen.setdefault(hint, None)
    return list(seen)


def cells(text: str) -> int:
    """The columns ``text`` takes on a terminal: wide characters two, combining none."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def cut(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` columns with an ellipsis when longer."""
    flat = " ".join(text.split())
    if cells(flat) <= width:
        return flat
    out, used = [], 0
    for ch in flat:
        size = cells(ch)
        if used + size > width - 1:
            break
        out.append(ch)
        used += size
    return "".join(out).rstrip() + "…"


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cells(text))


def _named(anchors: Sequence[dict[str, Any]], verdict: str, one: str, many: str) -> str | None:
    hit = [a for a in anchors if a.get("verdict") == verdict]
    if not hit:
        return None
    if len(hit) == 1:
        return f"{hit[0].get('anchor')} {one}"
    return f"{hit[0].get('anchor')} +{len(hit) - 1} {many}"


def short_reason(m: dict[str, Any]) -> str:
    """Why a memory has its status, in a few words: the anchor that broke, who retracted
    it, what holds, what could not be checked; an open conflict first."""
    anchors = m.get("anchors") or []
    status = m.get("status")
    if m.get("forgotten"):
        return "forgotten"
    if status == "REFUTED":
        if m.get("refuted_by") == "code":
            return _named(anchors, "broken", "broken", "broken") or "refuted by the code"
        receipt = m.get("receipt") or {}
        why = split_hints(str(receipt.get("reason") or ""))[0]
        if m.get("refuted_by") == "correction":
            return f"corrected: {why}" if why else "corrected"
        who = receipt.get("actor")
        return f"retracted by {who}: {why}" if who else "retracted"
    state, _, detail = str(m.get("verification") or "").partition(": ")
    if status == "VERIFIED":
        held = sum(1 for a in anchors if a.get("verdict") == "holds")
        reason = f"{held} anchors hold" if held > 1 else _named(anchors, "holds", "holds", "")
        reason = reason or "verified"
    elif state == "drifted":
        reason = _named(anchors, "drifted", "drifted", "drifted") or "drifted"
    elif state == "partly checked":
        reason = "names what no anchor covers"
    elif state == "inconclusive":
        reason = (
            "external"
            if detail.startswith("external")
            else detail or _named(anchors, "unknown", "unknown", "unknown") or "inconclusive"
        )
    elif state == "cannot_verify":
        reason = f"cannot verify: {detail}" if detail else "cannot verify"
    elif state == "off":
        reason = "not checked (verification off)"
    else:
        reason = state or "unchecked"
    conflicts = m.get("conflicts") or []
    if conflicts:
        more = f" +{len(conflicts) - 1}" if len(conflicts) > 1 else ""
        reason = f"conflicts with {conflicts[0].get('with')}{more}; {reason}"
    return reason


def memory_rows(
    memories: Sequence[dict[str, Any]], width: int, palette: Palette = PLAIN
) -> list[str]:
    """A header and one line per memory, none wider than ``width``."""
    rows = [
        (
            str(m.get("id", "")),
            str(m.get("status", "")),
            short_reason(m),
            str(m.get("text") or "(forgotten)"),
        )
        for m in memories
    ]
    id_w = max([2, *(cells(r[0]) for r in rows)])
    status_w = max([6, *(len(r[1]) for r in rows)])
    fixed = id_w + status_w + 2 * len(_GAP)
    room = max(0, width - fixed - len(_GAP))
    # The reason takes at most two fifths of what is left; the note, the rest.
    why_w = min(max([3, *(cells(r[2]) for r in rows)]), max(10, room * 2 // 5))
    text_w = max(4, room - why_w)
    head = _GAP.join((_pad("ID", id_w), _pad("STATUS", status_w), _pad("WHY", why_w), "NOTE"))
    lines = [palette.bold(head)]
    for mid, status, why, text in rows:
        lines.append(
            _GAP.join(
                (
                    _pad(mid, id_w),
                    palette.word(status, status_w),
                    _pad(cut(why, why_w), why_w),
                    cut(text, text_w),
                )
            ).rstrip()
        )
    return lines


def status_counts(memories: Iterable[dict[str, Any]], palette: Palette = PLAIN) -> str:
    """ "1 VERIFIED, 3 REFUTED": how many memories of each status."""
    counted = Counter(str(m.get("status")) for m in memories)
    order = [s for s in _ORDER if s in counted] + sorted(set(counted) - set(_ORDER))
    return ", ".join(f"{counted[s]} {palette.word(s)}" for s in order)
