"""The reader's cue patterns (anchors.cue_patterns), compiled for case-safe text and for any
text: the faster forms find what the case-blind patterns of the word lists find."""

from __future__ import annotations

import importlib
import re
import unicodedata
from typing import Any

from hypothesis import given, settings

from anchors.candidates import _fold, _Mode
from anchors.clauses import _party
from anchors.cue_patterns import _FAMILIES, CUES, FOLDS_TO_ASCII, SOURCES, Cues, case_safe
from anchors.extract import _MODE_DROP
from tests.anchors.cue_texts import lower_ascii, texts

_c: Any = importlib.import_module("re._constants")
_p: Any = importlib.import_module("re._parser")

SINGLE_SOURCES = [
    (name, one)
    for name, source in SOURCES.items()
    for one in (source if isinstance(source, tuple) else (source,))
]


def _characters(items: Any) -> list[int]:
    """Every character a parsed pattern names: literals, and the ends of ranges."""
    found: list[int] = []
    for op, av in items:
        if op in (_c.LITERAL, _c.NOT_LITERAL):
            found.append(av)
        elif op is _c.RANGE:
            found.extend(av)
        elif op is _c.IN:
            found.extend(_characters(av))
        elif op is _c.SUBPATTERN:
            found.extend(_characters(av[3]))
        elif op is _c.BRANCH:
            for alternative in av[1]:
                found.extend(_characters(alternative))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.ASSERT, _c.ASSERT_NOT):
            found.extend(_characters(av[-1]))
    return found


def test_every_cue_names_only_characters_case_does_not_change() -> None:
    # What makes the case-sensitive compile of a cue match lower-case ASCII text as the
    # case-blind one does: no upper-case letter, and no other letter that has a case.
    for name, source in SINGLE_SOURCES:
        parsed = _p.parse(source, 0)
        assert not parsed.state.flags & re.IGNORECASE, name
        for code in _characters(list(parsed)):
            char = chr(code)
            if char.isascii():
                assert not char.isupper(), (name, char)
            else:
                assert char.lower() == char.upper() == char, (name, char)
                assert unicodedata.category(char)[0] != "L", (name, char)


def _non_ascii_characters() -> str:
    found = {chr(code) for _, source in SINGLE_SOURCES
             for code in _characters(list(_p.parse(source, 0))) if code > 0x7F}  # fmt: skip
    return "".join(sorted(found))


def test_only_four_characters_match_an_ascii_letter_case_blind() -> None:
    letters = re.compile("[a-z]", re.IGNORECASE)
    others = "".join(chr(c) for c in range(0x80, 0x110000) if letters.fullmatch(chr(c)))
    assert others == FOLDS_TO_ASCII


def test_the_other_characters_of_the_cues_match_only_themselves_case_blind() -> None:
    chars = _non_ascii_characters()
    assert chars  # quotes and dashes
    blind = re.compile(f"[{re.escape(chars)}]", re.IGNORECASE)
    assert all(chr(c) in chars for c in range(0x110000) if blind.fullmatch(chr(c)))


def _same_matches(text: str) -> None:
    for name, source in SINGLE_SOURCES:
        blind = re.compile(source, re.IGNORECASE)
        sensitive = re.compile(source)
        assert [m.span() for m in blind.finditer(text)] == [
            m.span() for m in sensitive.finditer(text)
        ], name
        assert bool(blind.match(text)) == bool(sensitive.match(text)), name
        assert bool(blind.fullmatch(text)) == bool(sensitive.fullmatch(text)), name


@settings(max_examples=300, deadline=None)
@given(lower_ascii)
def test_case_sensitive_cues_find_what_case_blind_ones_find_in_lower_case_ascii(
    text: str,
) -> None:
    _same_matches(text)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_case_sensitive_cues_find_what_case_blind_ones_find_in_any_case_safe_text(
    text: str,
) -> None:
    low = _fold(text)
    if case_safe(low):
        _same_matches(low)


def _listed(k: Cues, name: str) -> Any:
    return getattr(k, name)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_a_clause_with_none_of_a_familys_needles_has_none_of_its_cues(text: str) -> None:
    low = _fold(text)
    if not case_safe(low):
        return  # the hints are for case-safe text only
    k = CUES[True]
    for hint_name, family in _FAMILIES.items():
        hint = getattr(k, hint_name)
        if hint.search(low) is not None:
            continue
        for name in family:
            source = SOURCES[name]
            for one in source if isinstance(source, tuple) else (source,):
                assert re.search(one, low) is None, (hint_name, name)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_a_listed_cue_absent_by_its_needles_has_no_match(text: str) -> None:
    low = _fold(text)
    if not case_safe(low):
        return
    k = CUES[True]
    for name in ("removal", "usage", "replace", "weak", "markers", "not_a_use"):
        for cue in _listed(k, name):
            if cue.absent_from(low):
                assert cue.pattern.search(low) is None, name


@settings(max_examples=300, deadline=None)
@given(texts, texts)
def test_a_clause_after_a_non_word_reads_the_same_alone_or_within_its_note(
    head: str, clause: str
) -> None:
    low = _fold(head + clause)
    start = len(_fold(head))
    if start and (low[start - 1].isalnum() or low[start - 1] == "_"):
        return  # a word character before: the reader looks the clause up again
    k = CUES[case_safe(low)]
    assert _party(k, low, start, len(low), sliced=True) == _party(
        k, low, start, len(low), sliced=False
    )


def test_every_mode_but_a_plain_statement_or_a_negation_drops_its_candidate() -> None:
    # infer_anchors tests the two by identity; the table says what the others mean.
    assert set(_MODE_DROP) == set(_Mode) - {_Mode.PRESENT, _Mode.ABSENT}
