"""Cues that must end where their text ends (anchors.at_end): each answers as the search of
its own pattern, alone or asked together, whatever reversed text its callers pass."""

from __future__ import annotations

import re

from hypothesis import given, settings

from anchors.at_end import AtEnd, AtEndAll
from anchors.cue_patterns import CUES, SOURCES
from tests.anchors.cue_texts import texts

AT_END = [name for name, source in SOURCES.items()
          if isinstance(source, str) and source.endswith("$")]  # fmt: skip
FLAGS = [0, re.IGNORECASE]


def test_the_cues_before_a_name_are_the_ones_that_end_with_the_text() -> None:
    assert {"slot", "strong", "preposition", "runtime", "dep_before", "import_before",
            "replacement_slot"} <= set(AT_END)  # fmt: skip
    for cues in CUES.values():
        assert len(cues.before.forwards) == len(cues.window.forwards) == 3


@settings(max_examples=300, deadline=None)
@given(texts)
def test_each_cue_answers_as_its_search(text: str) -> None:
    for flags in FLAGS:
        for name in AT_END:
            cue = AtEnd.compiled(str(SOURCES[name]), flags)
            expected = re.search(str(SOURCES[name]), text, flags) is not None
            assert cue.found(text) == expected, name


@settings(max_examples=300, deadline=None)
@given(texts)
def test_cues_asked_together_answer_as_each_asked_alone(text: str) -> None:
    sources = tuple(str(SOURCES[name]) for name in AT_END)
    for flags in FLAGS:
        together = AtEndAll.compiled(sources, flags).found(text)
        alone = tuple(re.search(source, text, flags) for source in sources)
        assert [m and m.span() for m in together] == [m and m.span() for m in alone]


def test_a_case_blind_cue_matches_a_folding_letter() -> None:
    cue = str(SOURCES["preposition"])
    assert AtEnd.compiled(cue, re.IGNORECASE).found("built on ıts ")  # "ı" is an "i"
    assert not AtEnd.compiled(cue).found("built on ıts ")
