"""Text a person reads at a terminal: tables for ``review`` and ``conflicts``, and lines
wrapped at word boundaries to the terminal's width. It decides nothing; it lays out the
dicts the commands' results render to (the same ones ``--json`` prints)."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from server.colour import PLAIN, Palette

__all__ = ["age", "conflicts_table", "review_table", "table", "terminal_width", "wrap_text"]

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


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    notes: Sequence[Sequence[str]] | None = None,
    palette: Palette = PLAIN,
    painted: int | None = None,
) -> str:
    """Columns padded to their widest cell; the last column wraps at word boundaries in
    what is left of ``width`` (at least ``_MIN_LAST`` characters). ``notes[i]``: lines
    under row ``i``, from its second column (a command is long: it gets the width a
    column would cut). ``painted``: the column whose words are coloured (a status, an
    action), after the layout."""
    fixed = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
        for i, h in enumerate(headers[:-1])
    ]
    lead = sum(fixed) + len(_GAP) * len(fixed)
    last = max(_MIN_LAST, width - lead)

    def line(cells: Sequence[str], colour: bool = False) -> list[str]:
        shown = [
            palette.word(c, w) if colour and i == painted else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells[:-1], fixed, strict=True))
        ]
        head = _GAP.join(shown)
        head = head + _GAP if fixed else head
        parts = textwrap.wrap(
            cells[-1], width=last, break_long_words=False, break_on_hyphens=False
        ) or [""]
        pad = " " * lead
        return [(head + parts[0]).rstrip(), *((pad + p).rstrip() for p in parts[1:])]

    indent = " " * ((fixed[0] + len(_GAP)) if fixed else 0)

    def note(text: str) -> list[str]:
        parts = textwrap.wrap(
            text,
            width=max(_MIN_LAST, width - len(indent)),
            subsequent_indent="    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        return [indent + p for p in parts]

    lines = line(list(headers))
    for i, row in enumerate(rows):
        lines.extend(line(row, colour=True))
        for text in notes[i] if notes is not None and i < len(notes) else ():
            lines.extend(note(text))
    return "\n".join(lines)


def age(iso: str | None, now: datetime | None = None) -> str:
    """How long ago ``iso`` was, in its largest whole unit ("12min", "3h", "5d"); "-"
    when unknown."""
    if not iso:
        return "-"
    try:
        then = datetime.fromisoformat(iso)
    except ValueError:
        return "-"
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = max(0.0, ((now or datetime.now(UTC)) - then).total_seconds())
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds // 60)}min" if seconds >= 60 else "<1min"


def review_table(result: dict[str, Any], width: int, palette: Palette = PLAIN) -> str:
    """The queue: each item's action, confidence, how long ago it was written and last
    confirmed, its text, and under it the commands to run next."""
    items = result.get("items") or []
    questions = result.get("questions") or []
    parts = []
    if items:
        rows = [
            [
                str(i.get("id", "")),
                str(i.get("action", "")),
                f"{float(i.get('confidence') or 0):.1f}",
                age(i.get("written_at")),
                age(i.get("confirmed_at")) if i.get("confirmed_at") else "never",
                str(i.get("text") or "(forgotten)"),
            ]
            for i in items
        ]
        notes = [list(i.get("next") or []) for i in items]
        headers = ["ID", "ACTION", "CONF", "WRITTEN", "CONFIRMED", "TEXT"]
        parts.append(table(headers, rows, width, notes, palette, painted=1))
    else:
        parts.append("nothing to review")
    if questions:
        rows = [[str(q.get("id", "")), str(q.get("question", ""))] for q in questions]
        notes = [list(q.get("next") or []) for q in questions]
        parts.append(table(["ASK ABOUT", "QUESTION"], rows, width, notes, palette))
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
