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
import time
from collections.abc import Callable, Collection, Mapping

from store.backend import Store
from store.contradictions.designs import designs
from store.contradictions.families import FAMILIES, FAMILY
from store.contradictions.related_note import LIMIT, Related, RelatedPair
from store.contradictions.related_words import spelled
from store.contradictions.resolving import claim_of
from store.contradictions.rules import Claim
from store.contradictions.slots import Match, relate
from store.contradictions.terms import (
    ACRONYM,
    ALIASES,
    SPELLED,
    SPELLINGS,
    normalised,
    note_query,
    note_terms,
)
from store.contradictions.values import Relation, compare
from store.mirror import Mirror
from store.model import Memory, is_retracted
from store.search import memory_terms

__all__ = ["THRESHOLD", "related", "related_pairs", "settled"]

# A consolidate compares the newest notes for this long at most: at 10,000 notes it then
# stays within the pass's 5 s (adr/0010), the rules' own pass taking most of it.
PAIRS_BUDGET_S = 1.5
THRESHOLD = 0.2  # the least share of the smaller note's weight the two must hold
# ... and the least share of the best note's score: a close note leaves out the ones that
# only share the project's common words with the new one.
OF_BEST = 0.6
_CANDIDATES = 8  # notes sharing the rarest terms, scored


def _lookup(query: Mapping[str, float]) -> list[str]:
    """The index terms that find a note sharing ``query``'s terms: its own, the acronyms
    its words spell, and the names of the members of each technology family it names
    (the index holds words only)."""
    found = [t for t in query if not t.startswith(ALIASES)]
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
    for (``SPELLINGS``), which the acronyms a new note asks for add nothing to."""
    return tuple(t for t in note_terms(text) if not t.startswith(SPELLINGS))


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
    query = note_query(f"{new.text} {new.subject or ''}")
    if not query:
        return []
    families = [t for t in query if t.startswith(FAMILY)]
    axes = frozenset(axis for axis, _, _ in designs(new.text))
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
        terms = note_terms(text)
        if wanted:
            said = spelled(normalised(text), wanted)
            terms = terms | {SPELLED + a for a in said} if said else terms
        score = _similarity(query, order, text, terms, weight, own)
        if score < THRESHOLD and (
            any(t in terms for t in families) or _one_axis(axes, mem.text)
        ):
            # Two products for one job, or two designs of one thing: as close as the
            # threshold, whatever else the notes say ("we got rid of Sentry" and "errors
            # go to Rollbar"; "one Django monolith" and "each deployed independently").
            score = THRESHOLD
        if score >= THRESHOLD:
            scored.append((round(score, 3), mem))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    return scored


def _one_axis(axes: frozenset[str], text: str) -> bool:
    """Whether a note states a design on one of ``axes`` (``designs``)."""
    return bool(axes) and any(axis in axes for axis, _, _ in designs(text))


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
