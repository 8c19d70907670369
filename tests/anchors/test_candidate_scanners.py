"""The candidates of a text (anchors.candidates): the shortcuts taken while scanning give what
the plain scan gives."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.candidates import _SCANNERS, _fold, _is_camel
from tests.anchors.cue_texts import texts

# Texts with the characters the scanners look for: paths, dotted names, calls, env names.
code_texts = st.lists(
    st.sampled_from(["a", "B", "_", ".", "/", "::", "()", "\\", "-", " ", "`", ":", "py", "md",
                     "www", "://", "import", "from", "x1", "Z_9", "\u2215", "\uff0f", "é"]),
    max_size=30,
).map("".join)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(code_texts | texts)
def test_a_scanner_finds_nothing_in_a_text_without_what_its_matches_hold(text: str) -> None:
    lowered = text.lower()
    for form, pattern, needed in _SCANNERS:
        if isinstance(needed, re.Pattern):
            found = needed.search(text) is not None
        else:
            found = any(needle in lowered for needle in needed)
        if not found:
            assert pattern.search(text) is None, form


def _fold_each(text: str) -> str:
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | texts)
def test_lower_casing_keeps_every_position_of_any_text(text: str) -> None:
    assert _fold(text) == _fold_each(text)
    assert len(_fold(text)) == len(text)


def _is_camel_each(word: str) -> bool:
    return word.isalnum() and any(c.islower() for c in word) and any(c.isupper() for c in word[1:])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True))
def test_a_camel_case_word_is_told_apart_as_char_by_char(word: str) -> None:
    assert _is_camel(word) == _is_camel_each(word)
