"""Needles (anchors.needles): literal strings one of which every match of a pattern holds,
and the trie that finds any of them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.cue_patterns import SOURCES
from anchors.needles import Guarded, alternation, guarded, needles
from tests.anchors.cue_texts import lower_ascii, texts

SINGLE_SOURCES = [
    (name, one)
    for name, source in SOURCES.items()
    for one in (source if isinstance(source, tuple) else (source,))
]

# Each cue's needles, found once: the property below asks them of 400 texts.
_WITH_NEEDLES = [
    (name, re.compile(source), found)
    for name, source in SINGLE_SOURCES
    if (found := needles(source)) is not None
]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"\bno\s+longer\s+", {"longer"}),
        (r"n[’']t\b", {"n't", "n’t"}),
        (r"\b(?:dropped|removed)\s+", {"dropped", "removed"}),
        (r"\bover\s+", {"over"}),
        (r"\btr(?:y|ies|ied|ying)\b", {"try", "tries", "tried"}),  # "trying" holds "try"
        (r"\b(?:do|does|did)\s*(?:not|n[’']t)\s+", {"not", "n't", "n’t"}),
        (r"colou?r", {"color", "colour"}),
        (r"(?:ab)+c", {"ab"}),  # a repetition ends a run of literals
        (r"[^a]bc?", {"b"}),
    ],
)
def test_the_needles_of_a_pattern_are_its_most_telling_literals(
    source: str, expected: set[str]
) -> None:
    assert needles(source) == expected


@pytest.mark.parametrize("source", [r"\w+", r"a?b?", r"(?=abc)\w", r"(?i)abc", r"(?i:abc)",
                                    r"x*|abc", r"(?<=abc)d?"])  # fmt: skip
def test_a_pattern_whose_matches_need_no_literal_has_no_needles(source: str) -> None:
    assert needles(source) is None


def test_a_case_blind_pattern_has_no_needles() -> None:
    assert needles(r"\bno\s+longer", re.IGNORECASE) is None


@settings(max_examples=400, deadline=None)
@given(st.one_of(lower_ascii, texts))
def test_every_match_of_every_cue_holds_one_of_its_needles(text: str) -> None:
    """In lower-case ASCII (where the cues match most) and in any text."""
    for name, pattern, found in _WITH_NEEDLES:
        for match in pattern.finditer(text):
            assert any(n in match.group() for n in found), (name, match.group())


@settings(max_examples=300, deadline=None)
@given(st.sets(st.text("abcdeno'’ ", min_size=1, max_size=5), min_size=1, max_size=12),
       st.text("abcdeno'’ .", max_size=30))  # fmt: skip
def test_a_trie_finds_a_string_exactly_when_one_of_its_strings_is_in_it(
    strings: set[str], text: str
) -> None:
    trie = re.compile(alternation(strings))
    assert (trie.search(text) is not None) == any(s in text for s in strings)


# -- Guarded: a pattern not searched where its needles are not ---------------------------
def _same(a: re.Match[str] | None, b: re.Match[str] | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.span(), a.groups(), a.group()) == (b.span(), b.groups(), b.group())


def answers_alike(guard: Guarded, text: str) -> None:
    """Every method ``Guarded`` has answers as the pattern itself does, on ``text``."""
    pattern = guard.pattern
    assert _same(guard.search(text), pattern.search(text)), (pattern.pattern, text)
    assert _same(guard.match(text), pattern.match(text))
    assert _same(guard.fullmatch(text), pattern.fullmatch(text))
    assert [(m.span(), m.groups()) for m in guard.finditer(text)] == [
        (m.span(), m.groups()) for m in pattern.finditer(text)
    ]
    assert guard.findall(text) == pattern.findall(text)
    assert guard.sub("#", text) == pattern.sub("#", text)
    for pos in (1, len(text) // 2):
        assert _same(guard.search(text, pos), pattern.search(text, pos))


_CRAFTED = [
    guarded(r"\b(?:owned|maintained)\s+by\s+(?P<who>\w+)", re.IGNORECASE),
    guarded(r"nightly|weekly|staging|kafka|is\s+disabled", re.IGNORECASE),
    guarded(r"^(?P<who>[A-Z]\w+)\s+owns\s+(?P<what>.+)$"),
    guarded(r"port\s*(?P<n>\d+)", re.IGNORECASE),
]


@pytest.mark.parametrize(
    ("guard", "text", "searched"),
    [
        (_CRAFTED[1], "The job runs NIGHTLY", True),
        (_CRAFTED[1], "the job runs at noon", False),  # no needle: never searched
        (_CRAFTED[1], "ſtaging uses Redis", True),  # "ſ" is an "s" to a case-blind search
        (_CRAFTED[1], "\u212aafka is the bus", True),  # the Kelvin sign is a "k"
        (_CRAFTED[1], "Kafka ıs dısabled", True),  # "ı" is an "i"
        (_CRAFTED[2], "Alice owns billing", True),
        (_CRAFTED[2], "alice OWNS billing", False),  # case-sensitive: "owns" only as written
    ],
)
def test_a_guarded_pattern_is_searched_only_where_a_match_could_be(
    guard: Guarded, text: str, searched: bool
) -> None:
    assert guard.needled
    assert guard.cannot_match(text) is not searched
    answers_alike(guard, text)


def test_a_pattern_without_needles_is_always_searched() -> None:
    guard = guarded(r"\d+\s*[a-z]+")
    assert not guard.needled and not guard.cannot_match("no number here")
    answers_alike(guard, "timeout 30 s")


def test_a_case_blind_pattern_whose_needles_are_not_ascii_is_always_searched() -> None:
    guard = guarded(r"straße", re.IGNORECASE)  # "SS" and "ß" fold alike: no safe needle
    assert not guard.needled
    answers_alike(guard, "die STRASSE")


@settings(max_examples=300, deadline=None)
@given(st.one_of(lower_ascii, texts))
def test_crafted_guards_answer_as_their_patterns(text: str) -> None:
    for guard in _CRAFTED:
        answers_alike(guard, text)
