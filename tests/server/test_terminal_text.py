"""The text pieces of the terminal for people (adr/0024), without a process: the words no
anchor covers, a memory's short reason and its one line, hints said once, what a check
changed, ages, the colour switch, and the next step of a review item."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from server.cli_facts import next_step, verify_changes
from server.cli_tables import age
from server.colour import palette_for
from server.memory_lines import cells, cut, hints, memory_rows, short_reason, split_hints
from server.render import render
from server.uncovered import uncovered_words
from store.model import Kind, Memory, RefutedBy, Source, Status

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
HINT = "if the note is about something outside this repository, remember it with scope 'external'"


@pytest.mark.parametrize(
    ("text", "anchors", "expected"),
    [
        # Covered by an anchor holding each of its parts.
        (
            "billing.client.charge posts with httpx and raises PaymentFailed",
            ["symbol:billing/client.py::charge", "tech:httpx"],
            ["PaymentFailed"],
        ),
        ("Sessions live in auth/session.py and in Redis", ["file:auth/session.py"], ["Redis"]),
        ("Auth reads JWT_SECRET (see verify()).", ["env:JWT_SECRET"], ["verify"]),
        ("Use `conn.execute` with Store.open()", [], ["conn.execute", "Store.open"]),
        # A technology is covered by an anchor naming it, whatever the note calls it.
        ("We store everything in Postgres", ["tech:postgresql"], []),
        # Prose is not code: "e.g.", "read/write", versions, ordinary words, and names
        # the vocabulary knows as English words ("black").
        ("e.g. read/write the version 3.12 with black and the cache", [], []),
        ("", [], []),
        (None, ["tech:redis"], []),
    ],
)
def test_uncovered_words_are_the_code_and_named_things_no_anchor_covers(
    text: str | None, anchors: list[str], expected: list[str]
):
    assert uncovered_words(text, anchors) == expected


def _memory(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "m1",
        "text": "a note",
        "status": "ACTIVE",
        "refuted_by": None,
        "verification": "unchecked",
        "anchors": [],
        "receipt": None,
        "conflicts": [],
        "forgotten": False,
    }
    return {**base, **fields}


def _anchor(anchor: str, verdict: str, detail: str = "") -> dict[str, Any]:
    return {"anchor": anchor, "verdict": verdict, "detail": detail or None}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {
                "status": "REFUTED",
                "refuted_by": "code",
                "anchors": [_anchor("tech:redis", "broken"), _anchor("file:a.py", "broken")],
            },
            "tech:redis +1 broken",
        ),
        (
            {
                "status": "REFUTED",
                "refuted_by": "retraction",
                "receipt": {"actor": "user", "reason": "moved to sqlite"},
            },
            "retracted by user: moved to sqlite",
        ),
        (
            {
                "status": "REFUTED",
                "refuted_by": "correction",
                "receipt": {"actor": "user", "reason": "superseded by m2"},
            },
            "corrected: superseded by m2",
        ),
        (
            {
                "status": "VERIFIED",
                "anchors": [_anchor("tech:duckdb", "holds"), _anchor("file:db.py", "holds")],
            },
            "2 anchors hold",
        ),
        ({"status": "VERIFIED", "anchors": [_anchor("tech:duckdb", "holds")]}, "tech:duckdb holds"),
        (
            {"verification": "inconclusive: external (not checked against this repository)"},
            "external",
        ),
        ({"verification": "partly checked: tech:x holds; ..."}, "names what no anchor covers"),
        ({"verification": "cannot_verify: no_commits"}, "cannot verify: no_commits"),
        (
            {"conflicts": [{"with": "m9"}], "verification": "unchecked"},
            "conflicts with m9; unchecked",
        ),
        ({"forgotten": True, "text": None}, "forgotten"),
    ],
)
def test_a_short_reason_says_why_in_a_few_words(fields: dict[str, Any], expected: str):
    assert short_reason(_memory(**fields)) == expected


def test_hints_are_split_from_details_and_said_once():
    detail = f"redis is not used by the project: no import ({HINT})"
    assert split_hints(detail) == ("redis is not used by the project: no import", [HINT])
    assert split_hints("nothing to hint (a file)") == ("nothing to hint (a file)", [])
    memories = [
        _memory(anchors=[_anchor("tech:redis", "broken", detail)]),
        _memory(id="m2", receipt={"reason": f"tech:celery: gone ({HINT}); file:x.py: gone"}),
    ]
    assert hints(memories) == [HINT]


@pytest.mark.parametrize("width", [40, 72, 100, 160])
def test_each_memory_is_one_line_no_wider_than_the_terminal(width: int):
    memories = [
        _memory(id="m1", text="短い説明 " * 40, status="VERIFIED"),
        _memory(id="m2abcdefg", text="a\nnote\twith  breaks " * 20, status="REFUTED",
                refuted_by="retraction", receipt={"actor": "user", "reason": "x " * 80}),
    ]  # fmt: skip
    lines = memory_rows(memories, width)
    assert len(lines) == 3
    assert all(cells(line) <= width for line in lines), lines
    assert lines[2].split()[:2] == ["m2abcdefg", "REFUTED"]
    assert "\n" not in lines[2] and lines[2].endswith("…")


def test_cut_counts_wide_characters_as_two_columns():
    assert cut("abc", 3) == "abc"
    assert cut("abcdef", 4) == "abc…"
    assert cells(cut("漢字漢字漢字", 7)) <= 7


def _stored(mid: str, status: Status) -> Memory:
    return Memory(
        id=mid,
        text=f"claim {mid}",
        subject=None,
        kind=Kind.FACT,
        scope=None,
        source=Source.USER,
        origin="user",
        created_at=NOW,
        commit="c0",
        status=status,
        refuted_by=RefutedBy.CODE if status is Status.REFUTED else None,
    )


def test_a_check_changes_are_the_stored_statuses_before_and_after_it():
    before = {
        "m1": _stored("m1", Status.VERIFIED),
        "m2": _stored("m2", Status.ACTIVE),
        "m3": _stored("m3", Status.ACTIVE),
        "m4": _stored("m4", Status.ACTIVE),
    }
    after = {
        "m1": _stored("m1", Status.REFUTED),
        "m2": _stored("m2", Status.VERIFIED),
        "m3": _stored("m3", Status.ACTIVE),
    }  # m4 was forgotten meanwhile
    assert verify_changes(before, after) == {
        "checked": 3,
        "unchanged": 1,
        "changed": [
            {"id": "m1", "from": "VERIFIED", "to": "REFUTED"},
            {"id": "m2", "from": "ACTIVE", "to": "VERIFIED"},
        ],
    }


def test_the_summary_of_a_check_names_each_change():
    result = {
        "memories": [
            _memory(id="m1", status="REFUTED", refuted_by="code", text="uses redis",
                    anchors=[_anchor("tech:redis", "broken")]),
            _memory(id="m2", status="VERIFIED", anchors=[_anchor("tech:duckdb", "holds")]),
        ],
        "changes": {
            "checked": 26,
            "unchanged": 24,
            "changed": [
                {"id": "m2", "from": "ACTIVE", "to": "VERIFIED"},
                {"id": "m1", "from": "ACTIVE", "to": "REFUTED"},
            ],
        },
    }  # fmt: skip
    tail = render("verify", result, 100).splitlines()[-3:]
    assert tail[0] == "since the last check: 1 newly REFUTED, 1 newly VERIFIED, 24 unchanged"
    assert tail[1].split()[:5] == ["m1", "ACTIVE", "->", "REFUTED", "tech:redis"]
    assert tail[2].split()[:4] == ["m2", "ACTIVE", "->", "VERIFIED"]


@pytest.mark.parametrize(
    ("ago", "expected"),
    [
        (timedelta(seconds=5), "<1min"),
        (timedelta(minutes=12, seconds=30), "12min"),
        (timedelta(hours=3, minutes=59), "3h"),
        (timedelta(days=1, hours=1), "1d"),
        (timedelta(days=95), "3mo"),
        (timedelta(days=800), "2y"),
    ],
)
def test_ages_are_real_in_their_largest_whole_unit(ago: timedelta, expected: str):
    assert age((NOW - ago).isoformat(), NOW) == expected


def test_ages_of_nothing_are_a_dash():
    assert age(None, NOW) == age("not a time", NOW) == "-"


def test_each_review_action_has_a_next_command_for_either_answer():
    for action in ("ASK", "DEMOTE", "STALE"):
        steps = next_step(action, "m7")
        assert len(steps) == 2
        assert any("anchormem observe m7 --confirms" in s for s in steps)
        assert any("anchormem retract m7 --reason WHY" in s for s in steps)
    assert next_step("ASK", "m7")[0].startswith("if wrong:")  # three contradictions first


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "env", "on"),
    [
        (_Terminal(), {"TERM": "xterm"}, True),
        (_Terminal(), {"TERM": "xterm", "NO_COLOR": "1"}, False),
        (_Terminal(), {"TERM": "xterm", "NO_COLOR": ""}, True),  # set but empty: no-color.org
        (_Terminal(), {"TERM": "dumb"}, False),
        (io.StringIO(), {"TERM": "xterm"}, False),
    ],
)
def test_colour_only_on_a_terminal_that_shows_it_and_never_with_no_color(
    stream: io.StringIO, env: dict[str, str], on: bool
):
    palette = palette_for(stream, env)
    assert palette.on is on
    assert (palette.word("REFUTED") != "REFUTED") is on
    assert palette.word("REFUTED", 9).endswith("  ")  # padded outside the colour
