"""The decision records in adr/ keep their form (issue #33): each opens with a status line
that says whether it stands and which records amend or replace it, every record it names
exists and names it back, and none holds a dated run log. Measurements belong to the
benchmarks' generated output; a record keeps only the figures that decided it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ADR = Path(__file__).parents[1] / "adr"

# "Status: Accepted", "Status: Accepted; amended by 0012 (…), 0017 (…).",
# "Status: Superseded by 0022 (…).", then optionally "Amends 0006 (…)." / "Supersedes …".
STATUS = re.compile(r"Status: (?:Accepted|Superseded by \d{4})(?:[;.(]|$)")
NUMBER = re.compile(r"\b\d{4}\b")
# A run log: a date, a numbered work period or run, or a period named relative to now.
# Code spans are left out first: a protocol revision such as `2025-06-18` is a name.
DATED = re.compile(
    r"\b(?:19|20)\d\d-\d\d-\d\d\b"
    r"|\b(?:session|sprint|iteration) #?\d+\b"
    r"|\b(?:run|attempt) #?\d+(?: ?:| took)"
    r"|\bthis (?:sprint|session|week's run|morning|afternoon)\b"
    r"|\b(?:yesterday|last night)\b"
    r"|\bin the same hour\b"
    r"|\bon (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}\b",
    re.IGNORECASE,
)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEAD_LINES = 6  # the status line comes right after the title
PAGES_LINES = 200  # two printed pages: a record holds decisions, not measurement logs


def status_block(text: str) -> str:
    """The status paragraph (from "Status:" to the next blank line), joined on one line, or
    "" when none starts in the first lines."""
    lines = text.splitlines()
    for i, line in enumerate(lines[:HEAD_LINES]):
        if line.startswith("Status:"):
            block = []
            for more in lines[i:]:
                if not more.strip():
                    break
                block.append(more.strip())
            return " ".join(block)
    return ""


def relations(block: str) -> dict[str, set[str]]:
    """The records a status paragraph names, by relation: "amended_by", "superseded_by"
    (the status sentence) and "amends" (an "Amends …"/"Supersedes …" sentence)."""
    status, _, rest = block.partition(". Amends ")
    if not rest:
        status, _, rest = block.partition(". Supersedes ")
    found: dict[str, set[str]] = {"amended_by": set(), "superseded_by": set(), "amends": set()}
    superseded = re.match(r"Status: Superseded by (\d{4})", status)
    if superseded:
        found["superseded_by"].add(superseded.group(1))
    if "amended by" in status:
        found["amended_by"] = set(NUMBER.findall(status.split("amended by", 1)[1]))
    found["amends"] = set(NUMBER.findall(rest))
    return found


def form_problems(name: str, text: str, numbers: set[str]) -> list[str]:
    """What is wrong with one record's head: no status line, a status in another form, or a
    record named that does not exist."""
    block = status_block(text)
    if not block:
        return [f"{name}: no 'Status:' line in its first {HEAD_LINES} lines"]
    if not STATUS.match(block):
        return [f"{name}: the status reads {block[:60]!r}, not 'Status: Accepted…' or "
                "'Status: Superseded by NNNN…'"]
    named = set().union(*relations(block).values())
    return [f"{name}: names adr {n}, which does not exist" for n in sorted(named - numbers)]


def dated_lines(text: str) -> list[str]:
    """Lines of a record that read as a dated run log."""
    return [line for line in text.splitlines() if DATED.search(CODE_SPAN.sub("", line))]


def one_way(heads: dict[str, str]) -> list[str]:
    """Amendments named from one side only: A "amended by B" needs B to say "Amends … A",
    and the other way round; a successor "Supersedes" what it replaces."""
    named = {n: relations(status_block(t)) for n, t in heads.items()}
    problems = []
    for n, rel in named.items():
        for other in rel["amended_by"] | rel["superseded_by"]:
            if other in named and n not in named[other]["amends"]:
                problems.append(f"{n} is amended by {other}, which does not say it amends {n}")
        for other in rel["amends"]:
            back = named.get(other)
            if back is not None and n not in back["amended_by"] | back["superseded_by"]:
                problems.append(f"{n} amends {other}, whose status does not name {n}")
    return problems


def records() -> dict[str, str]:
    return {p.name[:4]: p.read_text() for p in sorted(ADR.glob("[0-9][0-9][0-9][0-9]-*.md"))}


def test_every_record_has_a_status_line_naming_records_that_exist() -> None:
    found = records()
    assert len(found) >= 30
    problems = [p for n, t in found.items() for p in form_problems(n, t, set(found))]
    assert problems == []


def test_amendments_are_named_both_ways() -> None:
    assert one_way(records()) == []


def test_every_record_fits_in_two_pages() -> None:
    long = {n: len(t.splitlines()) for n, t in records().items()}
    assert {n: lines for n, lines in long.items() if lines > PAGES_LINES} == {}


def test_no_record_holds_a_dated_run_log() -> None:
    found = {n: dated_lines(t) for n, t in records().items()}
    assert {n: lines for n, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("# 0099 — x\n\nContext first.\n", "no 'Status:' line"),
        ("# 0099 — x\n\nStatus: accepted, amended by 0002.\n", "not 'Status: Accepted"),
        ("# 0099 — x\n\nStatus: Accepted; amended by 0005 (a\nsuccessor).\n", "0005"),
        ("# 0099 — x\n\nStatus: Superseded by 0007.\n", "0007"),
    ],
)
def test_the_form_check_fails_on_a_bad_head(text: str, problem: str) -> None:
    problems = form_problems("0099", text, {"0001", "0002", "0099"})
    assert len(problems) == 1 and problem in problems[0]


def test_the_form_check_passes_a_good_head() -> None:
    text = "# 0099 — x\n\nStatus: Accepted; amended by 0002 (the owner).\nAmends 0001 (layout).\n"
    assert form_problems("0099", text, {"0001", "0002", "0099"}) == []


def test_the_two_way_check_fails_when_one_side_is_silent() -> None:
    heads = {
        "0001": "# 0001\n\nStatus: Accepted; amended by 0002 (x).\n",
        "0002": "# 0002\n\nStatus: Accepted.\n",
        "0003": "# 0003\n\nStatus: Accepted. Amends 0001 (y).\n",
    }
    assert one_way(heads) == [
        "0001 is amended by 0002, which does not say it amends 0001",
        "0003 amends 0001, whose status does not name 0003",
    ]
    heads["0002"] = "# 0002\n\nStatus: Accepted. Amends 0001 (x).\n"
    heads["0001"] = "# 0001\n\nStatus: Accepted; amended by 0002 (x), 0003 (y).\n"
    assert one_way(heads) == []


@pytest.mark.parametrize(
    "line",
    [
        "On 2026-12-04 the cold fingerprint took 5.5 s.",
        "Session 3 measured recall at 4.4 ms.",
        "run 2: 114.6 ms, run 3: 98 ms",
        "gave 2.18 ms before this decision and 2.9 ms after it, in the same hour",
        "measured this sprint on a loaded machine",
        "measured on Dec 4 on two cores",
    ],
)
def test_the_run_log_check_finds_a_dated_line(line: str) -> None:
    assert dated_lines(f"# 0099\n\n{line}\n") == [line]


@pytest.mark.parametrize(
    "line",
    [
        "The SDK speaks the `2025-06-18` protocol revision.",
        "A client session keeps its own cache; a run of the benchmark prints its figures.",
        "Cold fingerprint of 3,000 files within 5 s (`python -m benchmarks.fingerprint`).",
    ],
)
def test_the_run_log_check_passes_a_decision(line: str) -> None:
    assert dated_lines(line) == []
