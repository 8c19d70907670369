"""The acronyms a stored note's words spell, read only for those a new note writes
(``related_words.spelled``): the same as reading them all (``initials``) and keeping the
ones asked for, whatever the words, small words and stop words in between."""

from __future__ import annotations

import random

import pytest

from store.contradictions.related_words import initials, spelled
from store.contradictions.terms import normalised, note_query, note_terms, stored_terms

_NOTES = (
    "We go over the service level objectives and the time to live.",
    "Objectives and key results are reviewed each quarter by the platform team.",
    "The continuous integration runners build every pull request; CI is on GitHub Actions.",
    "Time to live for the session cache is 30 minutes, per the user.",
    "Search and rescue of the bills of materials: the BOM for the v2 board is in sheets.",
    "Our single sign on goes through Okta; SSO for contractors is separate.",
    "Logs",
    "An application programming interface for the billing service, rate limited to 100 rps.",
    "the a of and to for it is - no acronyms here at all, or are there?",
)


_POOL: tuple[str, ...] = ("and", "of", "to", "for", "the", "a", "it", "is", "we", "data")
_POOL += ("base", "service", "level", "key", "results", "time", "live")


def _words(rng: random.Random) -> str:
    return " ".join(rng.choice(_POOL) for _ in range(rng.randint(1, 14)))


@pytest.mark.parametrize("seed", range(40))
def test_spelling_only_what_is_asked_reads_as_every_spelling_would(seed: int) -> None:
    rng = random.Random(seed)
    text = _words(rng) if seed % 2 else rng.choice(_NOTES)
    every = initials(text)
    pool = sorted(every | {"okr", "slo", "ttl", "db", "it", "a", "abcdef", "sso"})
    wanted = frozenset(rng.sample(pool, min(len(pool), rng.randint(0, 5))))
    assert spelled(text, wanted) == wanted & every


def test_a_stored_note_spells_an_acronym_only_the_new_note_writes() -> None:
    stored = "Objectives and key results are reviewed each quarter."
    assert spelled(normalised(stored), frozenset({"okr", "kr"})) == {"okr", "kr"}
    assert spelled(normalised(stored), frozenset({"slo"})) == frozenset()
    # what ``related`` adds to the stored note's terms is what ``stored_terms`` holds of it
    query = note_query("Our OKRs are set by the CTO.")
    asked = frozenset(t for t in query if t.startswith("spelled:"))
    with_spelled = stored_terms(stored, True)
    said = {f"spelled:{a}" for a in spelled(normalised(stored), frozenset({"okr", "cto"}))}
    assert with_spelled & asked == said & asked == {"spelled:okr"}
    assert stored_terms(stored, False) == note_terms(stored)
