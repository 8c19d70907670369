"""Patterns that must end where the text ends, asked of the reversed text (anchors.at_end):
the same answer as searching forwards, on any text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from anchors.at_end import AtEnd, AtEndAll, reversed_pattern
from anchors.cue_patterns import SOURCES
from tests.anchors.cue_texts import texts

AT_END = [name for name, source in SOURCES.items()
          if isinstance(source, str) and source.endswith("$")]  # fmt: skip
FLAGS = [0, re.IGNORECASE]


def test_every_cue_that_ends_with_the_text_can_be_reversed() -> None:
    assert {"slot", "strong", "preposition", "runtime", "dep_before", "import_before",
            "replacement_slot"} <= set(AT_END)  # fmt: skip
    for name in AT_END:
        for flags in FLAGS:
            assert reversed_pattern(str(SOURCES[name]), flags) is not None, name


@pytest.mark.parametrize(
    "source", [r"(?<=a)b$", r"a$|b$", r"^ab$", r"(a)\1$", r"ab", r"a(?=b)$", r"(?i:a)b$"]
)
def test_a_pattern_it_cannot_reverse_is_searched_forwards(source: str) -> None:
    assert reversed_pattern(source) is None
    cue = AtEnd.compiled(source)
    for text in ("ab", "aab", "ba", "b", "", "ab\n"):
        assert cue.found(text, text[::-1]) == (re.search(source, text) is not None)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_each_cue_reversed_answers_as_the_search_forwards(text: str) -> None:
    backwards = text[::-1]
    for flags in FLAGS:
        for name in AT_END:
            cue = AtEnd.compiled(str(SOURCES[name]), flags)
            assert cue.found(text, backwards) == (cue.forward.search(text) is not None), name


@settings(max_examples=400, deadline=None)
@given(texts)
def test_cues_asked_together_answer_as_each_asked_alone(text: str) -> None:
    backwards = text[::-1]
    sources = tuple(str(SOURCES[name]) for name in AT_END)
    for flags in FLAGS:
        together = AtEndAll.compiled(sources, flags)
        alone = tuple(re.search(source, text, flags) is not None for source in sources)
        assert tuple(m is not None for m in together.found(text, backwards)) == alone


@pytest.mark.parametrize("text", ["we use ", "built on the ", "relies on `", "x\n", "", " "])
def test_a_text_ending_in_a_newline_or_a_cue_is_answered_either_way(text: str) -> None:
    for name in AT_END:
        cue = AtEnd.compiled(str(SOURCES[name]))
        assert cue.found(text, text[::-1]) == (cue.forward.search(text) is not None)
