"""The experiment's report: a markdown table and a PNG chart beside the published figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from experiments.png import Canvas, text_width

__all__ = ["markdown", "write_chart", "write_markdown"]

_ARMS = ("add_only", "retraction", "verify_on_read")
_AGENTS = ("B", "code_first", "memory_first", "careful")
_MEMORY_AGENTS = ("memory_first", "careful", "code_first")
_COLUMNS = (
    ("adoption_rate", "adoption"),
    ("false_refutation_rate", "false refutation"),
    ("missed_rate", "missed"),
    ("correction_capability", "correction"),
    ("persistent_contamination", "persistent (served)"),
    ("persistent_established", "persistent (established)"),
    ("served_rate", "served"),
    ("served_verified_rate", "served VERIFIED"),
    ("true_verified_rate", "true VERIFIED"),
    ("true_verified_checkable", "true VERIFIED (excl. convention, drift)"),
)
_SERVED = (
    ("served_rate", "served"),
    ("served_verified_rate", "served VERIFIED"),
    ("false_refutation_rate", "false refutation"),
    ("true_verified_rate", "true VERIFIED"),
)


def _cell(entry: Mapping[str, Any], name: str, ci: bool = True) -> str:
    rate = entry.get(name)
    pair = (entry.get("counts") or {}).get(name)
    if rate is None or not pair:
        return "–"
    text = f"{rate:.2f} ({pair[0]}/{pair[1]})"
    interval = (entry.get("ci95") or {}).get(name)
    if ci and interval:
        text += f" [{interval[0]:.2f}, {interval[1]:.2f}]"
    return text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def markdown(results: Mapping[str, Any]) -> str:
    arms = results["arms"]
    facts = results["facts"]
    repo = results["repository"]
    out = [
        "# Contamination experiment",
        "",
        f"Repository: {repo['source']} at {repo['head'][:12]}. Facts: {facts['scored']} scored "
        f"({facts['true']} true, {facts['false']} false) of {facts['given']} given; "
        f"{len(results['excluded'])} excluded by label validation. "
        f"Wall time {results['seconds']:.1f} s.",
        "",
        "Rates with (k/n) and Wilson 95% intervals; tokens are the memory text recall served. "
        "memory_first accepts any memory served and not REFUTED (the published agent); "
        "careful accepts only memories served VERIFIED (or by a server that does not "
        "verify). served, served VERIFIED: false facts whose memory recall returned (not "
        "REFUTED), and returned VERIFIED; true VERIFIED: true facts served VERIFIED.",
        "",
    ]
    rows = []
    for arm in _ARMS:
        for agent in _AGENTS:
            entry = arms[arm][agent]
            rows.append(
                [arm, agent]
                + [_cell(entry, name) for name, _ in _COLUMNS]
                + [str(entry["context_tokens"])]
            )
    out += _table(["arm", "agent", *(t for _, t in _COLUMNS), "tokens"], rows)

    categories = sorted(facts["by_category"])
    out += ["", "## What recall served for each fact's memory, by category", ""]
    rows = []
    for c in categories:
        n_true, n_false = facts["by_category"][c]["true"], facts["by_category"][c]["false"]
        for a in _ARMS:
            entry = arms[a]["memory_first"]["by_category"][c]
            rows.append(
                [f"{c} ({n_true} true, {n_false} false)", a]
                + [_cell(entry, name, False) for name, _ in _SERVED]
            )
    out += _table(["category", "arm", *(t for _, t in _SERVED)], rows)

    for agent in _MEMORY_AGENTS:
        out += ["", f"## {agent}: adoption of false facts, by category", ""]
        rows = []
        for c in categories:
            n = facts["by_category"][c]["false"]
            if not n:
                continue
            rows.append(
                [f"{c} ({n})"]
                + [_cell(arms[a][agent]["by_category"][c], "adoption_rate", False) for a in _ARMS]
            )
        out += _table(["category (false facts)", *_ARMS], rows)
        out += ["", f"## {agent}: missed true facts, by category", ""]
        rows = []
        for c in categories:
            n = facts["by_category"][c]["true"]
            if not n:
                continue
            rows.append(
                [f"{c} ({n})"]
                + [_cell(arms[a][agent]["by_category"][c], "missed_rate", False) for a in _ARMS]
                + [_cell(arms["verify_on_read"][agent]["by_category"][c], "false_refutation_rate")]
            )
        out += _table(["category (true facts)", *_ARMS, "false refutation (verify_on_read)"], rows)

    published = results["published"]["adoption_rate"]
    out += ["", "## Beside the published figures (adoption of false facts)", ""]
    rows = []
    for agent in ("memory_first", "careful", "code_first"):
        for arm in _ARMS:
            pub = published.get(agent, {}).get(arm)
            rows.append(
                [
                    agent,
                    arm,
                    "–" if pub is None else f"{pub:.2f}",
                    _cell(arms[arm][agent], "adoption_rate"),
                ]
            )
    out += _table(["agent", "arm", "published (seed 003)", "ours"], rows)
    replication = results["published"].get("replication", {})
    if replication:
        rep = replication["memory_first"]["verify_on_read"]
        out += ["", f"The published replication saw memory_first {rep:.2f} with verify-on-read."]

    out += ["", "## Excluded by label validation", ""]
    if results["excluded"]:
        out += [
            f"- {e['id']} ({e['category']}, labelled {str(e['truth']).lower()}): {e['reason']}"
            for e in results["excluded"]
        ]
    else:
        out += ["None: every label agreed with the code."]
    return "\n".join(out) + "\n"


def write_markdown(results: Mapping[str, Any], path: Path) -> None:
    path.write_text(markdown(results), encoding="utf-8")


# -- chart -------------------------------------------------------------------------------------
_INK = (33, 37, 41)
_GRID = (222, 226, 230)
_SERIES = (
    ("memory_first", "ours", (31, 78, 160)),
    ("memory_first", "published", (150, 182, 232)),
    ("code_first", "ours", (196, 92, 14)),
    ("code_first", "published", (244, 184, 130)),
)


def write_chart(results: Mapping[str, Any], path: Path) -> None:
    """Adoption of false facts per arm: our memory_first and code_first (with Wilson 95%
    intervals) beside the published figures."""
    width, height = 1000, 600
    left, right, top, bottom = 90, 30, 160, 80
    c = Canvas(width, height)
    title = "ADOPTION OF FALSE FACTS: OURS VS PUBLISHED (SEED 003)"
    c.text((width - text_width(title, 3)) // 2, 18, title, _INK, 3)
    facts = results["facts"]
    sub = (
        f"{facts['scored']} facts ({facts['true']} true, {facts['false']} false); "
        "bars: rate, lines: wilson 95%"
    )
    c.text((width - text_width(sub, 2)) // 2, 52, sub, (90, 90, 90), 2)
    # legend: one row per agent
    for i, (agent, kind, color) in enumerate(_SERIES):
        label = f"{agent} {kind}"
        x = left + (i % 2) * 380
        y = 84 + (i // 2) * 24
        c.rect(x, y, x + 18, y + 14, color)
        c.text(x + 26, y + 1, label, _INK, 2)
    plot_h = height - top - bottom
    plot_w = width - left - right

    def y_of(value: float) -> int:
        return top + round((1 - value) * plot_h)

    for i in range(5):
        value = i / 4
        y = y_of(value)
        c.hline(left, width - right, y, _GRID)
        label = f"{value:.2f}"
        c.text(left - 12 - text_width(label, 2), y - 7, label, _INK, 2)
    c.vline(left, top, top + plot_h, _INK, 2)
    c.hline(left, width - right, top + plot_h, _INK, 2)

    arms = results["arms"]
    published = results["published"]["adoption_rate"]
    group_w = plot_w // len(_ARMS)
    bar_w = 46
    gap = 12
    for g, arm in enumerate(_ARMS):
        gx = left + g * group_w
        total = len(_SERIES) * bar_w + (len(_SERIES) - 1) * gap
        x0 = gx + (group_w - total) // 2
        for s, (agent, kind, color) in enumerate(_SERIES):
            bx = x0 + s * (bar_w + gap)
            if kind == "ours":
                value = arms[arm][agent].get("adoption_rate")
                interval = arms[arm][agent].get("ci95", {}).get("adoption_rate")
            else:
                value = published.get(agent, {}).get(arm)
                interval = None
            if value is None:
                c.text(bx + (bar_w - text_width("N/A", 2)) // 2, y_of(0) - 20, "N/A", (120,) * 3)
                continue
            c.rect(bx, y_of(value), bx + bar_w - 1, y_of(0) - 1, color)
            if value == 0:
                c.hline(bx, bx + bar_w - 1, y_of(0) - 3, color, 3)
            if interval:
                mid = bx + bar_w // 2
                c.vline(mid, y_of(interval[1]), y_of(interval[0]), _INK, 2)
                c.hline(mid - 6, mid + 6, y_of(interval[1]), _INK, 2)
                c.hline(mid - 6, mid + 6, y_of(interval[0]) - 1, _INK, 2)
            label = f"{value:.2f}"
            ly = y_of(max(value, interval[1] if interval else value)) - 20
            c.text(bx + (bar_w - text_width(label, 2)) // 2, ly, label, _INK, 2)
        name = arm.replace("_", "-")
        c.text(gx + (group_w - text_width(name, 2)) // 2, top + plot_h + 16, name, _INK, 2)
    note = "published: 50 facts (25 true, 22 contradicted, 3 silent); replication: 0.24"
    c.text((width - text_width(note, 2)) // 2, height - 30, note, (90, 90, 90), 2)
    c.save(path)
