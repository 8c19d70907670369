"""Needles (anchors.needles): literal strings one of which every match of a pattern holds,
and the trie that finds any of them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.cue_patterns import SOURCES
from anchors.needles import alternation, needles
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
