"""The notes a new one is most likely about the same thing as, for the agent to judge.

The rules decide a pair only when they read both claims (a slot, an anchor, a negation);
agents write notes the rules do not read ("we switched log shipping to Loki, the user
wanted it cheaper"), and a conflict missed is silent. So at ``remember`` the few live
notes closest to the new one are handed to the caller, a language model, with one
question; it answers with ``resolve``. A related note is only a candidate: nothing is
logged or changed until the agent judges the pair.

Closeness is lexical, with recall's own terms (``store.search``: stems, parts of
compounds such as paths and symbols, synonyms) and the families of the products a note
names (``families``: Sentry and Rollbar both track errors): what the two notes share,
weighted by how rare each term is in the store, over the smaller note's weight. Before
that, what agents wrap a claim in is cut away (who said it, why, "we switched to"), and
numbers are left out: they are the values that differ, not the thing the notes are about.
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
from collections.abc import Callable, Collection, Mapping

from store.backend import Store
from store.contradictions.families import FAMILIES, FAMILY, families_of
from store.contradictions.related_note import LIMIT, Related
from store.contradictions.resolving import claim_of
from store.contradictions.rules import Claim
from store.contradictions.slots import Match, relate
from store.contradictions.values import Relation, compare
from store.mirror import Mirror
from store.model import Memory, is_retracted
from store.search import SYNONYM_WEIGHT, memory_terms, query_terms, query_tokens
from store.text import stem, words

__all__ = ["THRESHOLD", "normalised", "related", "settled", "similarity"]

THRESHOLD = 0.2  # the least share of the smaller note's weight the two must hold
# ... and the least share of the best note's score: a close note leaves out the ones that
# only share the project's common words with the new one.
OF_BEST = 0.6
_CANDIDATES = 8  # notes sharing the rarest terms, scored

# What an agent wraps a claim in: the reason and who said it. A clause from one of these
# on says why, not what.
_REASON = re.compile(
    r"(?:[,;(]\s*|\s)(?:because|which is why|which means|so that|so|now that|as the user"
    r"|per (?:the|our)|the user (?:said|says|confirmed|asked|explained|prefers|wants)"
    r"|to (?:simplify|cut|reduce|save|avoid|speed up|make sure)"
    r"|after (?:the|we|customers|users|it|they))\b.*$",
    re.IGNORECASE,
)
# Words that say a note is news or from a chat, not what it is about.
# Units go too: like numbers, they are how a value is written ("nine retries", "3 times").
_FILLER = frozenset(
    stem(w)
    for w in words(
        """note notes today chat heads up user users now still currently actually
    confirmed said says asked explained told mentioned team sprint last
    migrated migrate switched switch dropped drop replaced replace moved move changed
    change instead anymore longer handled handle managed manage done make made goes go
    get gets via out into over under down not no all every each only also then there
    here but if than after before per one two three four five six seven eight nine ten
    twenty times second seconds minute minutes hour hours day days week weeks month months
    year years ms s kb mb gb"""
    )
)


def normalised(text: str) -> str:
    """The claim of each sentence of a note, without the reason or who said it."""
    kept = []
    for sentence in re.split(r"(?<=[.;:!?])\s+", text):
        kept.append(_REASON.sub("", sentence))
    return " ".join(kept)


@functools.lru_cache(maxsize=1 << 14)  # a stored note is met again by later notes
def _terms(text: str) -> frozenset[str]:
    """The terms of a stored note: no numbers, no filler; the families of the
    technologies it names."""
    claim = normalised(text)
    kept = (t for t in memory_terms(claim) if not t.isdigit() and t not in _FILLER)
    return frozenset(kept) | families_of(claim)


def _query(text: str) -> dict[str, float]:
    """The terms of the new note, as recall looks for them: parts of compounds at half
    weight, synonyms of what it says a little less."""
    claim = normalised(text)
    terms = {
        t: w for t, w in query_terms(query_tokens(claim)) if not t.isdigit() and t not in _FILLER
    }
    return {**{f: SYNONYM_WEIGHT for f in families_of(claim)}, **terms}


def _lookup(query: Mapping[str, float]) -> list[str]:
    """The index terms that find a note sharing ``query``'s terms: its own, and the names
    of the members of each technology family it names (the index holds words only)."""
    found = [t for t in query if not t.startswith(FAMILY)]
    for term in query:
        if term.startswith(FAMILY):
            found.extend(_member_terms(term))
    return found


@functools.cache
def _member_terms(family: str) -> tuple[str, ...]:
    members = FAMILIES.get(family.removeprefix(FAMILY), frozenset())
    return tuple(sorted({t for m in members for t in memory_terms(m)}))


def similarity(
    new: Mapping[str, float], other: Collection[str], weight: Callable[[str], float]
) -> float:
    """The weight the two share over the smaller one's own (0-1): a short note inside a
    long one is as close as two short ones saying the same thing. ``new``: the new
    note's terms and how much each counts (a synonym less); ``weight``: how rare a
    term is in the store."""
    shared = sum(w * weight(t) for t, w in new.items() if t in other)
    if not shared:
        return 0.0
    own_new = sum(weight(t) for t, w in new.items() if w >= 1.0)
    smaller = min(own_new, sum(weight(t) for t in other))
    return min(1.0, shared / smaller) if smaller else 0.0


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


def related(
    db: Store, new: Memory, skip: Collection[str], limit: int = LIMIT
) -> tuple[Related, ...]:
    """The live notes closest to ``new`` (not itself, nor ``skip``: those the rules
    already put to the agent or decided), best first, at most ``limit``."""
    query = _query(f"{new.text} {new.subject or ''}")
    if not query:
        return ()

    families = [t for t in query if t.startswith(FAMILY)]

    def closest(m: Mirror) -> list[tuple[float, Memory]]:
        index = m.index
        documents = max(1, index.documents)
        rarity: dict[str, float] = {}

        def weight(term: str) -> float:
            # A common term still counts: a store of two notes rates every term alike.
            found = rarity.get(term)
            if found is None:
                found = rarity[term] = math.log(1.0 + (documents + 1) / (index.count(term) or 1))
            return found

        most = max(_CANDIDATES, 0.05 * documents)
        scored = []
        for memory_id in index.rare_overlap(_lookup(query), most, _CANDIDATES):
            mem = m.memories.get(memory_id)
            if mem is None or memory_id == new.id or memory_id in skip:
                continue
            if mem.forgotten or is_retracted(mem.status, mem.refuted_by):
                continue
            terms = _terms(f"{mem.text} {mem.subject or ''}")
            score = similarity(query, terms, weight)
            if score < THRESHOLD and any(t in terms for t in families):
                # Two products for one job: as close as the threshold, whatever else
                # the notes say ("we got rid of Sentry" and "errors go to Rollbar").
                score = THRESHOLD
            if score >= THRESHOLD:
                scored.append((round(score, 3), mem))
        return scored

    close = db.search(closest)
    close.sort(key=lambda pair: (-pair[0], pair[1].id))
    kept: list[Related] = []
    for score, mem in close:
        if len(kept) == limit or (kept and score < OF_BEST * kept[0].score):
            break
        # Claims are read only for the notes that would be shown, best first: most
        # remembers have none, and a claim made is kept (``resolving.claim_of``).
        if not settled(claim_of(new), claim_of(mem)):
            kept.append(Related(mem.id, mem.text, score))
    return tuple(kept)
