"""Text a person reads at a terminal: tables for ``review`` and ``conflicts``, and lines
wrapped at word boundaries to the terminal's width. It decides nothing; it lays out the
dicts the commands' results render to (the same ones ``--json`` prints)."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from typing import Any

__all__ = ["conflicts_table", "review_table", "table", "terminal_width", "wrap_text"]

_MIN_LAST = 24  # the wrapped last column is never narrower than this
_GAP = "  "


def terminal_width() -> int:
    """The terminal's columns (``COLUMNS`` first, as ``shutil`` reads it), 100 when unknown."""
    columns = shutil.get_terminal_size((100, 24)).columns
    return columns if columns >= 40 else 100


def wrap_text(text: str, width: int) -> str:
    """Each line wrapped at word boundaries to ``width``; a continuation is indented four
    more than the line it continues. Words longer than the width (ids, paths) are kept
    whole."""
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out.extend(
            textwrap.wrap(
                line.strip(),
                width=width,
                initial_indent=indent,
                subsequent_indent=indent + "    ",
                break_long_words=False,
                break_on_hyphens=False,
            )
            or [line]
        )
    return "\n".join(out)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> str:
    """Columns padded to their widest cell; the last column wraps at word boundaries in
    what is left of ``width`` (at least ``_MIN_LAST`` characters)."""
    fixed = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
        for i, h in enumerate(headers[:-1])
    ]
    lead = sum(fixed) + len(_GAP) * len(fixed)
    last = max(_MIN_LAST, width - lead)

    def line(cells: Sequence[str]) -> list[str]:
        head = _GAP.join(c.ljust(w) for c, w in zip(cells[:-1], fixed, strict=True))
        head = head + _GAP if fixed else head
        parts = textwrap.wrap(
            cells[-1], width=last, break_long_words=False, break_on_hyphens=False
        ) or [""]
        pad = " " * len(head)
        return [(head + parts[0]).rstrip(), *((pad + p).rstrip() for p in parts[1:])]

    lines = line(list(headers))
    for row in rows:
        lines.extend(line(row))
    return "\n".join(lines)


def review_table(result: dict[str, Any], width: int) -> str:
    items = result.get("items") or []
    questions = result.get("questions") or []
    parts = []
    if items:
        rows = [
            [
                str(i.get("id", "")),
                str(i.get("action", "")),
                f"{float(i.get('confidence') or 0):.1f}",
                f"{float(i.get('staleness_days') or 0):.0f}d",
                str(i.get("text") or "(forgotten)"),
            ]
            for i in items
        ]
        parts.append(table(["ID", "ACTION", "CONF", "STALE", "TEXT"], rows, width))
    else:
        parts.append("nothing to review")
    if questions:
        rows = [[str(q.get("id", "")), str(q.get("question", ""))] for q in questions]
        parts.append(table(["ASK ABOUT", "QUESTION"], rows, width))
    return "\n\n".join(parts)


def conflicts_table(result: dict[str, Any], width: int) -> str:
    conflicts = result.get("conflicts") or []
    flipping = result.get("flipping_slots") or []
    parts = []
    if conflicts:
        rows = []
        for c in conflicts:
            ids = list(c.get("ids") or [])
            claims = [str(t) if t else "(forgotten)" for t in (c.get("claims") or [])]
            rows.append(
                [
                    " / ".join(ids),
                    str(c.get("state", "")),
                    str(c.get("outcome", "")),
                    str(c.get("winner") or "-"),
                    " | ".join(claims),
                ]
            )
        parts.append(table(["PAIR", "STATE", "OUTCOME", "WINNER", "CLAIMS"], rows, width))
    else:
        parts.append("no conflicts")
    if flipping:
        rows = [
            [str(s.get("slot", "")), str(s.get("reversals", 0)), ", ".join(s.get("values") or [])]
            for s in flipping
        ]
        parts.append(table(["FLIPPING SLOT", "REVERSALS", "VALUES"], rows, width))
    return "\n\n".join(parts)
