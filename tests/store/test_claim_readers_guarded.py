"""The claim readers of ``store.contradictions`` (slots, values, negation, environment):
their case-blind patterns are searched only in notes that hold one of their needles
(``anchors.needles.Guarded``), and every answer is the pattern's own; a note with one of
the letters a case-blind search takes for an ASCII one (``ſ``, ``ı``, ``İ``, the Kelvin
sign) is read, never an internal error, through the service and the CLI alike."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.needles import Guarded, ascii_key
from benchmarks.prose_corpus import corpus
from server.config import Settings
from server.runtime import open_runtime
from store.contradictions import claims, rules, slots, values
from store.contradictions.claims import env_scope, negation_core
from store.contradictions.resolving import claim_keys
from store.contradictions.slots import read_slots
from store.contradictions.values import parse_duration
from store.service import MemoryService
from tests.anchors.test_needles import answers_alike
from tests.conftest import GitRepo, anchormem_env, settings_env

SCRIPT = Path(sys.executable).with_name("anchormem")


def _guards() -> list[Guarded]:
    """Every guarded pattern of the claim readers' modules (alone, in a list, or paired
    with a name)."""
    found: list[Guarded] = []
    for module in (slots, values, claims, rules):
        for value in vars(module).values():
            items = value if isinstance(value, list | tuple) else [value]
            for item in items:
                for part in item if isinstance(item, tuple) else (item,):
                    if isinstance(part, Guarded):
                        found.append(part)
    return found


GUARDS = _guards()
_NEEDLES = sorted({n for g in GUARDS for n in (g.needles or ())})
_ODD = ["ſ", "ı", "İ", "\u212a", "é", "ß", "’", "`", "\n"]
_GLUE = [" ", " ", ", ", ". ", ": ", " - ", "/", "=", *_ODD]
_NUMBERS = ["5", "30", "8080", "10:30", "3.11", "2x", "1h30", "90s", "4 GB", "v2"]


def _cased(word: str, how: int) -> str:
    return (word, word.upper(), word.capitalize())[how]


_WORDS = (
    st.builds(_cased, st.sampled_from(_NEEDLES), st.integers(0, 2))
    | st.sampled_from(_NUMBERS)
    | st.text(max_size=3)
)
NOTES = st.lists(st.tuples(_WORDS, st.sampled_from(_GLUE)), max_size=12).map(
    lambda parts: "".join(w + g for w, g in parts)
)


def test_most_of_the_readers_patterns_are_guarded() -> None:
    """The guards are in place, each with needles: the patterns that have none (a number,
    a class of characters) are left as they were, searched always."""
    assert len(GUARDS) >= 40
    assert all(g.needled for g in GUARDS)
    for guard in GUARDS:  # compiled on first need: each must compile
        assert isinstance(guard.pattern, re.Pattern), guard
    assert slots._OWNER_WORDS.cannot_match("The cache is Redis")
    assert not slots._OWNER_WORDS.cannot_match("Payments is owned by Alice")


@settings(max_examples=300, deadline=None)
@given(NOTES)
def test_every_guarded_reader_pattern_answers_as_the_pattern_itself(text: str) -> None:
    for guard in GUARDS:
        answers_alike(guard, text)


# -- letters a case-blind search reads as ASCII ----------------------------------------
NOTES_WITH_FOLDS = [
    "The HTTP API ıs buılt wıth FastAPI.",
    "ſtaging uses Redis for the session cache",
    "The nıghtly export runs at mıdnıght",
    "Reports go out on Frıdays",
    "ıpywıdgets ıs optıonal",
    "The \u212aafka consumer retries 5 times every 2 ſeconds",
    "İNDEXING is disabled in production",
    "The rate limit is 100 rpſ",
]


@pytest.mark.parametrize("text", NOTES_WITH_FOLDS)
def test_a_note_with_letters_that_fold_to_ascii_is_read_without_error(text: str) -> None:
    claim_keys(text, None, None, None)
    read_slots(text)
    negation_core(text)


# Each ASCII letter a case-blind search also finds as another letter, and that letter.
_FOLDS = [("s", "ſ"), ("i", "ı"), ("i", "İ"), ("k", "\u212a"), ("S", "ſ"), ("I", "İ")]


def test_no_note_of_the_corpus_fails_to_be_read_with_its_letters_folded() -> None:
    """Every note anchormem's data and tests hold (``benchmarks.prose_corpus``), with each
    folding letter put for its ASCII one, everywhere and once: six lookups of a matched word
    by ``lower()`` failed on these (KeyError, StopIteration) before ``ascii_key``."""
    read = 0
    for note in corpus():
        for ascii_letter, folded in _FOLDS:
            for text in {note.text.replace(ascii_letter, folded),
                         note.text.replace(ascii_letter, folded, 1)} - {note.text}:  # fmt: skip
                read_slots.cache_clear()
                claim_keys(text, note.subject, None, None)
                read += 1
    assert read > 5_000


def test_folded_letters_are_read_as_the_ascii_letters_they_match() -> None:
    assert ascii_key("nıghtly") == ascii_key("NIGHTLY") == "nightly"
    assert ascii_key("ſtaging") == "staging" and ascii_key("İs") == "is"
    assert env_scope("ſtaging uses Redis") == "staging"
    assert parse_duration("the export runs nıghtly") == parse_duration("the export runs nightly")


@pytest.fixture
def svc(tmp_path: Path, git_repo: GitRepo) -> Iterator[MemoryService]:
    git_repo.commit({"api/app.py": "from fastapi import FastAPI\n\napp = FastAPI()\n"})
    settings = Settings.resolve(
        repo=str(git_repo.root), db=str(tmp_path / "s.duckdb"), env=settings_env()
    )
    runtime = open_runtime(settings)
    try:
        yield runtime.service
    finally:
        runtime.close()


def test_remember_stores_and_recall_finds_notes_with_folding_letters(svc: MemoryService):
    ids = [svc.remember(text, origin="alice").reading.id for text in NOTES_WITH_FOLDS]
    assert len(set(ids)) == len(NOTES_WITH_FOLDS)
    found = svc.recall("FastAPI", 10, False)
    assert ids[0] in [r.id for r in found.readings]


def test_the_cli_remembers_a_note_with_a_dotless_i(git_repo: GitRepo, tmp_path: Path):
    """What an agent or a person on a Turkish keyboard writes: an internal error before."""
    git_repo.commit({"api/app.py": "from fastapi import FastAPI\n"})
    argv = [os.fsencode(SCRIPT), b"--db", os.fsencode(tmp_path / "s.duckdb"), b"remember"]
    done = subprocess.run(
        [*argv, "The HTTP API ıs buılt wıth FastAPI.".encode()],
        cwd=git_repo.root,
        env=anchormem_env(ANCHORMEM_SHARE="0"),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"internal error" not in done.stderr
