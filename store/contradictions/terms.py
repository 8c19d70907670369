"""The terms two notes are compared by, read from their words alone: what an agent wraps a
claim in is cut first (who said it, why: ``normalised``), then each note's terms are its
stems, the parts of its compounds, the families of the products it names and its acronyms
(``note_terms``); a new note's also its synonyms, at a lesser weight (``note_query``).
``related`` weighs them by how rare each is in the store; ``closeness`` weighs every term
alike, for the rules, which read two claims and no store. Pure functions; no database.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Mapping

from store.contradictions.families import FAMILY, families_of
from store.contradictions.related_words import acronyms, groups_of, initials, root, synonyms_of
from store.search import SYNONYM_WEIGHT, memory_terms, query_terms, query_tokens
from store.text import stem, words

__all__ = [
    "ACRONYM",
    "ALIASES",
    "SPELLED",
    "SPELLINGS",
    "closeness",
    "kinds",
    "normalised",
    "note_query",
    "note_terms",
    "similarity",
    "stored_terms",
]

# What an agent wraps a claim in: the reason and who said it. A clause from one of these
# on says why, not what (``_without_reason``), unless it opens the sentence
# (``_without_lead_in``).
_WHY = (
    r"(?:because|which is why|which means|so that|so|now that|as the user"
    r"|per (?:the|our)|the user (?:said|says|confirmed|asked|explained|prefers|wants|likes?)"
    r"|to (?:simplify|cut|reduce|save|avoid|speed up|make sure|fight|prevent|protect)"
    r"|after (?:the|we|customers|users|it|they))\b"
)
# ... and a sentence after the first that is all reason or preference ("...; the user
# likes to keep it short"). Not what was said or when: "The user said the pool is 6" and
# "After the outage we capped the pool at 6" go on with the claim itself.
_REASON_AFTER = re.compile(
    r"^(?:because|which is why|which means|the user (?:prefers|wants|likes?))\b.*$",
    re.IGNORECASE,
)
# Words that say a note is news, not what it is about, and the words of polarity: two
# notes about one thing say it is or is not so. Units go too: like numbers, they are how
# a value is written ("nine retries", "3 times").
_FILLER = frozenset(
    stem(w)
    for w in words(
        """note notes today up user users now still currently actually always never
    confirmed said says asked explained told mentioned team sprint last
    migrated migrate switched switch dropped drop replaced replace moved move changed
    change instead anymore longer handled handle managed manage done make made goes go
    get gets via out into over under down not no all every each only also then there
    here but if than after before per one two three four five six seven eight nine ten
    twenty times second seconds minute minutes hour hours day days week weeks month months
    year years ms s kb mb gb percent"""
    )
)


# A lead-in opens the sentence, after nothing or another lead-in ("Per the user, after
# the incident ..., we cap ..."; "As the user explained when ..., the API caches ..."):
# it ends at its comma, and the claim follows it.
_REASON_AT = re.compile(r"(?:[,;(]\s*|\s)" + _WHY, re.IGNORECASE)
_BEFORE_LEAD = re.compile(
    r"^\W*(?:(?:per|according\s+to)\s+(?:the\s+|our\s+)?\w+(?:\s+\w+)?|as|while|when|"
    r"note|heads\s+up|fyi|reminder|also|and|so)?\W*$",
    re.IGNORECASE,
)
_CLAUSE_COMMA = re.compile(r",\s+")


@functools.lru_cache(maxsize=1 << 14)  # a stored note's terms and spellings read it both
def normalised(text: str) -> str:
    """The claim of each sentence of a note, without the reason or who said it."""
    kept = []
    for n, sentence in enumerate(re.split(r"(?<=[.;:!?])\s+", text)):
        claim = _without_reason(_without_lead_in(sentence))
        kept.append(_REASON_AFTER.sub("", claim) if n else claim)
    return " ".join(k for k in kept if k)


def _without_lead_in(sentence: str) -> str:
    """``sentence`` without the clauses that open it and say why or who said it, up to the
    comma that ends each: the claim follows them."""
    while (m := _REASON_AT.search(sentence)) and _BEFORE_LEAD.match(sentence[: m.start()]):
        # (the match may open with a comma; "10,000" has none that ends a clause)
        comma = _CLAUSE_COMMA.search(sentence, m.start() + 1)
        if comma is None:
            return sentence
        sentence = sentence[comma.end() :]
    return sentence


def _without_reason(sentence: str) -> str:
    """``sentence`` without the reason after its claim ("..., because ..."); a lead-in
    with no comma to end it is left in place, with the claim after it."""
    for m in _REASON_AT.finditer(sentence):
        if not _BEFORE_LEAD.match(sentence[: m.start()]):
            return sentence[: m.start()]
    return sentence


# Terms that say what a note's words stand for, not words it holds: an acronym it writes
# (``ACRONYM``), and one its words spell (``SPELLED``). Only the one meets the other.
ACRONYM = "acronym:"
SPELLED = "spelled:"
ALIASES = (FAMILY, ACRONYM, SPELLED)
SPELLINGS = (ACRONYM, SPELLED)  # what a stored note's words stand for: no weight of its own


def _kept(term: str) -> bool:
    """A term that says what a note is about: not filler, not a number ("0.1", "1/10")."""
    return term not in _FILLER and any(c.isalpha() for c in term)


@functools.lru_cache(maxsize=1 << 14)  # a stored note is met again by later notes
def note_terms(text: str) -> frozenset[str]:
    """The terms of a stored note: no numbers, no filler; each also without a
    derivational ending; the families of the technologies it names; its acronyms. The
    acronyms its words spell are ``_spelled``'s."""
    claim = normalised(text)
    kept = frozenset(t for t in memory_terms(claim) if _kept(t))
    return (
        kept | {root(t) for t in kept} | families_of(claim) | {ACRONYM + a for a in acronyms(claim)}
    )


def stored_terms(text: str, spells: bool) -> frozenset[str]:
    """A stored note's terms (``note_terms``), with the acronyms its words spell when the new
    note writes one (``spells``)."""
    return note_terms(text) | _spelled(text) if spells else note_terms(text)


@functools.lru_cache(maxsize=1 << 14)
def _spelled(text: str) -> frozenset[str]:
    """The acronyms a stored note's words spell: read only for a new note that writes an
    acronym (most do not), being the dearest of its terms to read."""
    return frozenset(SPELLED + a for a in initials(normalised(text)))


def note_query(text: str) -> dict[str, float]:
    """The terms of the new note, as recall looks for them: parts of compounds at half
    weight; a little less, synonyms of what it says, its words without a derivational
    ending, the families it names and what its acronyms stand for or its words spell."""
    claim = normalised(text)
    said = {t: w for t, w in query_terms(query_tokens(claim)) if _kept(t)}
    aliases = [
        *families_of(claim),
        *synonyms_of(frozenset(said)),
        *(root(t) for t in said),
        *(SPELLED + a for a in acronyms(claim)),
        *(ACRONYM + a for a in initials(claim)),
    ]
    return {**dict.fromkeys(aliases, SYNONYM_WEIGHT), **said}


def similarity(
    new: Mapping[str, float],
    other: Collection[str],
    weight: Callable[[str], float],
    own_new: float,
) -> float:
    """The weight the two share over the smaller one's own (0-1): a short note inside a
    long one is as close as two short ones saying the same thing. ``new``: the new
    note's terms and how much each counts (a synonym less); ``weight``: how rare a
    term is in the store; ``own_new``: the new note's own weight (its terms said, not
    their synonyms), summed once per note."""
    shared = sum(w * weight(t) for t, w in new.items() if t in other)
    if not shared:
        return 0.0
    smaller = min(own_new, sum(weight(t) for t in other if not t.startswith(SPELLINGS)))
    return min(1.0, shared / smaller) if smaller else 0.0


def closeness(old: str, new: str) -> float:
    """``similarity`` of two notes with every term as rare as any other: what the rules,
    which read two claims and no store, take for how close they are."""
    asked = note_query(new)
    own = sum(1.0 for w in asked.values() if w >= 1.0)
    spells = any(t.startswith(SPELLED) for t in asked)
    return similarity(asked, stored_terms(old, spells), _alike, own)


def _alike(_term: str) -> float:
    return 1.0


@functools.lru_cache(maxsize=1 << 14)
def kinds(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The generic things a note names, whatever word it names them by (the groups of
    ``related_words``, as ``group:endpoint``), and the words that named them: two notes sharing
    a group share a word said otherwise ("route" / "endpoint": ``candidates``)."""
    return groups_of(frozenset(memory_terms(normalised(text))))
