"""The notes a new one is most likely about the same thing as, for the agent to judge.

The rules decide a pair only when they read both claims (a slot, an anchor, a negation);
agents write notes the rules do not read ("we switched log shipping to Loki, the user
wanted it cheaper"), and a conflict missed is silent. So at ``remember`` the few live
notes closest to the new one are handed to the caller, a language model, with one
question; it answers with ``resolve``. A related note is only a candidate: nothing is
logged or changed until the agent judges the pair.

Closeness is lexical, with recall's own terms (``store.search``: stems, parts of
compounds such as paths and symbols, synonyms) and the families of the products a note
names (``families``: Sentry and Rollbar both track errors), and what ``related_words``
reads as one thing (an acronym and the words it stands for, a few generic names of one
thing, one word's derived forms): what the two notes share, weighted by how rare each
term is in the store, over the smaller note's weight. Before that, what agents wrap a
claim in is cut away (who said it, why, "we switched to"), and numbers and the words of
polarity are left out: they are the values that differ, not the thing the notes are about.
Two notes naming products of one family are as close as the threshold. The threshold is
low, because a conflict missed is silent and agents reword what they note; a note much
closer than the others leaves them out (``OF_BEST``), so a project's common words do not
fill the list.

Rules decide what they can: a pair they found is reported as theirs (a conflict, or a
possible one), and a pair they are sure holds together (``settled``) is not asked. A pair
the agent judged is never asked again: ``related`` pairs only a note being written.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable, Collection, Mapping

from store.backend import Store
from store.contradictions.families import FAMILIES, FAMILY, families_of
from store.contradictions.related_note import LIMIT, Related, RelatedPair
from store.contradictions.related_words import acronyms, initials, root, spelled, synonyms_of
from store.contradictions.resolving import claim_of
from store.contradictions.rules import Claim
from store.contradictions.slots import Match, relate
from store.contradictions.values import Relation, compare
from store.mirror import Mirror
from store.model import Memory, is_retracted
from store.search import SYNONYM_WEIGHT, memory_terms, query_terms, query_tokens
from store.text import stem, words

__all__ = [
    "THRESHOLD",
    "normalised",
    "related",
    "related_pairs",
    "settled",
    "similarity",
    "stored_terms",
]

# A consolidate compares the newest notes for this long at most: at 10,000 notes it then
# stays within the pass's 5 s (adr/0010), the rules' own pass taking most of it.
PAIRS_BUDGET_S = 1.5
THRESHOLD = 0.2  # the least share of the smaller note's weight the two must hold
# ... and the least share of the best note's score: a close note leaves out the ones that
# only share the project's common words with the new one.
OF_BEST = 0.6
_CANDIDATES = 8  # notes sharing the rarest terms, scored

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
_ALIASES = (FAMILY, ACRONYM, SPELLED)
_SPELLINGS = (ACRONYM, SPELLED)  # what a stored note's words stand for: no weight of its own


def _kept(term: str) -> bool:
    """A term that says what a note is about: not filler, not a number ("0.1", "1/10")."""
    return term not in _FILLER and any(c.isalpha() for c in term)


@functools.lru_cache(maxsize=1 << 14)  # a stored note is met again by later notes
def _terms(text: str) -> frozenset[str]:
    """The terms of a stored note: no numbers, no filler; each also without a
    derivational ending; the families of the technologies it names; its acronyms. The
    acronyms its words spell are ``_spelled``'s."""
    claim = normalised(text)
    kept = frozenset(t for t in memory_terms(claim) if _kept(t))
    return (
        kept | {root(t) for t in kept} | families_of(claim) | {ACRONYM + a for a in acronyms(claim)}
    )


def stored_terms(text: str, spells: bool) -> frozenset[str]:
    """A stored note's terms (``_terms``), with the acronyms its words spell when the new
    note writes one (``spells``)."""
    return _terms(text) | _spelled(text) if spells else _terms(text)


@functools.lru_cache(maxsize=1 << 14)
def _spelled(text: str) -> frozenset[str]:
    """The acronyms a stored note's words spell: read only for a new note that writes an
    acronym (most do not), being the dearest of its terms to read."""
    return frozenset(SPELLED + a for a in initials(normalised(text)))


def _query(text: str) -> dict[str, float]:
    """The terms of the new note, as recall looks for them: parts of compounds at half
    weight; a little less, synonyms of what it says, its words without a derivational
    ending, the families it names and what its acronyms stand for or its words spell."""
    claim = normalised(text)
    terms = {t: w for t, w in query_terms(query_tokens(claim)) if _kept(t)}
    aliases = [
        *families_of(claim),
        *synonyms_of(frozenset(terms)),
        *(root(t) for t in terms),
        *(SPELLED + a for a in acronyms(claim)),
        *(ACRONYM + a for a in initials(claim)),
    ]
    return {**dict.fromkeys(aliases, SYNONYM_WEIGHT), **terms}


def _lookup(query: Mapping[str, float]) -> list[str]:
    """The index terms that find a note sharing ``query``'s terms: its own, the acronyms
    its words spell, and the names of the members of each technology family it names
    (the index holds words only)."""
    found = [t for t in query if not t.startswith(_ALIASES)]
    for term in query:
        if term.startswith(FAMILY):
            found.extend(_member_terms(term))
        elif term.startswith(ACRONYM):
            found.append(term.removeprefix(ACRONYM))
    return found


@functools.cache
def _member_terms(family: str) -> tuple[str, ...]:
    members = FAMILIES.get(family.removeprefix(FAMILY), frozenset())
    return tuple(sorted({t for m in members for t in memory_terms(m)}))


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
    smaller = min(own_new, sum(weight(t) for t in other if not t.startswith(_SPELLINGS)))
    return min(1.0, shared / smaller) if smaller else 0.0


def _similarity(
    new: Mapping[str, float],
    order: Mapping[str, int],
    text: str,
    other: frozenset[str],
    weight: Callable[[str], float],
    own_new: float,
) -> float:
    """``similarity`` of ``new`` and ``other``, the terms of the stored note ``text``:
    the terms shared found from the smaller side (a new note writing many words spells
    many acronyms), summed in ``new``'s ``order`` as ``similarity`` sums them."""
    common = other & new.keys()
    if not common:
        return 0.0
    shared = sum(new[t] * weight(t) for t in sorted(common, key=order.__getitem__))
    if not shared:
        return 0.0
    smaller = min(own_new, sum(weight(t) for t in _weighed(text)))
    return min(1.0, shared / smaller) if smaller else 0.0


@functools.lru_cache(maxsize=1 << 14)
def _weighed(text: str) -> tuple[str, ...]:
    """The terms of a stored note that weigh in its own weight: not what its words stand
    for (``_SPELLINGS``), which the acronyms a new note asks for add nothing to."""
    return tuple(t for t in _terms(text) if not t.startswith(_SPELLINGS))


_AGREE = (Relation.SAME, Relation.COMPATIBLE)


def settled(a: Claim, b: Claim) -> bool:
    """Whether the rules are sure the two notes hold together: other explicit scopes, or
    one subject and attribute with the same value however written. Such a pair is the
    rules' to decide, not a question for the agent. (Qualifiers that differ, or one of
    several values, are not enough: agents' wording misleads the rules there.)"""
    if a.scope and b.scope and a.scope != b.scope:
        return True
    for sa in a.slots:
        for sb in b.slots:
            if sa.attribute != sb.attribute or not (sa.named and sb.named):
                continue
            if relate(sa, sb) is Match.SAME and compare(sa.value, sb.value) in _AGREE:
                return True
    return False


class _Rarity:
    """How rare each term is in the store (its weight), read once per term: a store of two
    notes still rates every term alike. ``kept``: weights already read, shared by the
    searches of one pass."""

    def __init__(self, m: Mirror, kept: dict[str, float] | None = None) -> None:
        self._index = m.index
        self._documents = max(1, m.index.documents)
        self._found: dict[str, float] = {} if kept is None else kept
        self.most = max(_CANDIDATES, 0.05 * self._documents)  # terms held by more: skipped

    def __call__(self, term: str) -> float:
        found = self._found.get(term)
        if found is None:
            held = self._index.count(term) or 1
            found = self._found[term] = math.log(1.0 + (self._documents + 1) / held)
        return found


def _closest(
    m: Mirror, new: Memory, skip: Collection[str], weight: _Rarity
) -> list[tuple[float, Memory]]:
    """The live notes at least ``THRESHOLD`` close to ``new``, with their scores."""
    query = _query(f"{new.text} {new.subject or ''}")
    if not query:
        return []
    families = [t for t in query if t.startswith(FAMILY)]
    # Only the acronyms the new note writes are looked for in a stored note's words.
    wanted = frozenset(t.removeprefix(SPELLED) for t in query if t.startswith(SPELLED))
    order = {t: n for n, t in enumerate(query)}
    own = sum(weight(t) for t, w in query.items() if w >= 1.0)
    scored = []
    for memory_id in m.index.rare_overlap(_lookup(query), weight.most, _CANDIDATES):
        mem = m.memories.get(memory_id)
        if mem is None or memory_id == new.id or memory_id in skip:
            continue
        if mem.forgotten or is_retracted(mem.status, mem.refuted_by):
            continue
        text = f"{mem.text} {mem.subject or ''}"
        terms = _terms(text)
        if wanted:
            said = spelled(normalised(text), wanted)
            terms = terms | {SPELLED + a for a in said} if said else terms
        score = _similarity(query, order, text, terms, weight, own)
        if score < THRESHOLD and any(t in terms for t in families):
            # Two products for one job: as close as the threshold, whatever else the
            # notes say ("we got rid of Sentry" and "errors go to Rollbar").
            score = THRESHOLD
        if score >= THRESHOLD:
            scored.append((round(score, 3), mem))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    return scored


def _close_in(m: Mirror, new: Memory, kept: dict[str, float]) -> list[tuple[float, Memory]]:
    return _closest(m, new, (), _Rarity(m, kept))


def _shown(new: Memory, close: list[tuple[float, Memory]], limit: int) -> tuple[Related, ...]:
    """The few ``close`` notes put to the agent: at most ``limit``, none much further than
    the best, none the rules are sure holds with ``new`` (``settled``)."""
    kept: list[Related] = []
    for score, mem in close:
        if len(kept) == limit or (kept and score < OF_BEST * kept[0].score):
            break
        # Claims are read only for the notes that would be shown, best first: most
        # remembers have none, and a claim made is kept (``resolving.claim_of``).
        if not settled(claim_of(new), claim_of(mem)):
            kept.append(Related(mem.id, mem.text, score))
    return tuple(kept)


def related(
    db: Store, new: Memory, skip: Collection[str], limit: int = LIMIT
) -> tuple[Related, ...]:
    """The live notes closest to ``new`` (not itself, nor ``skip``: those the rules
    already put to the agent or decided), best first, at most ``limit``."""
    close = db.search(lambda m: _closest(m, new, skip, _Rarity(m)))
    return _shown(new, close, limit)


def related_pairs(
    db: Store,
    memories: Collection[Memory],
    decided: Collection[tuple[str, str]],
    limit: int,
    budget_s: float = PAIRS_BUDGET_S,
) -> tuple[tuple[RelatedPair, ...], int, int]:
    """Over the store, the pairs a ``remember`` of either note would have put to the agent
    (``related``) that nobody has judged: none in the conflict log, none of ``decided``
    (what this pass's rules found). The ``limit`` closest, how many more, and how many
    notes were compared: the newest first, for at most ``budget_s`` (each remember
    compared its note with the older ones already). What ``consolidate`` adds for notes
    copied in by an import, or whose neighbours a remember's search missed."""
    deadline = time.monotonic() + budget_s
    kept: dict[str, float] = {}
    found: dict[tuple[str, str], RelatedPair] = {}
    compared = 0
    newest = sorted(memories, key=lambda mem: (mem.created_at, mem.id), reverse=True)
    for mem in newest:
        if mem.forgotten or is_retracted(mem.status, mem.refuted_by):
            continue
        if time.monotonic() > deadline:
            break
        compared += 1
        close = db.search(functools.partial(_close_in, new=mem, kept=kept))
        for near in _shown(mem, close, LIMIT):
            key = (min(mem.id, near.id), max(mem.id, near.id))
            if key in found:
                continue
            this = Related(mem.id, mem.text, near.score)
            found[key] = RelatedPair(*((this, near) if key[0] == mem.id else (near, this)))
    judged = {tuple(sorted(k)) for k in db.latest_conflicts(list(found))}
    judged |= {(min(a, b), max(a, b)) for a, b in decided}
    open_pairs = sorted(
        (pair for key, pair in found.items() if key not in judged),
        key=lambda pair: (-pair.score, pair.first.id, pair.second.id),
    )
    return tuple(open_pairs[:limit]), max(0, len(open_pairs) - limit), compared
