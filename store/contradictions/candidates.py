"""Candidate pairs, found with high recall and never by comparing all pairs: claims that
share a key are paired, in one pass over the claims (a hash join).

Keys: a slot (subject and attribute); an attribute with one word of its subject (so "the
request timeout" meets "the request timeout for batch jobs"); an anchor, across
expectations; the core of a negated claim; and two rare words in common (a word at most
``RARE`` claims hold). A key shared by more than ``MAX_GROUP`` claims is too common to
pair on. Every pair is then judged by ``rules.judge``; most are nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import TypeVar

from store.contradictions.rules import Claim

__all__ = ["MAX_GROUP", "RARE", "candidate_pairs", "keys"]

MAX_GROUP = 200
MAX_WORD_GROUP = 40  # an attribute with one subject word: narrower, or it is no lead
RARE = 12  # a word held by at most this many claims is rare enough to pair on
_RARE_SHARED = 2
_LATE = ("kin:", "polar:", "design:", "rival:", "duty:")
# Keys of what a note names, not of a slot (a design, a product's family, a duty): as
# narrow as an attribute with one subject word, or they pair most of a store.
_NAMED = ("design:", "rival:", "duty:")


def keys(claim: Claim) -> Iterable[tuple[str, str]]:
    """(key, side): claims meet within a key; anchor keys pair across sides (present
    with absent), since the same expectation never conflicts (``Claim.keys``)."""
    return claim.keys


def candidate_pairs(
    claims: Sequence[Claim], new: Sequence[Claim] | None = None
) -> list[tuple[Claim, Claim]]:
    """Pairs of claims sharing a key, each once, the older first. With ``new``, only
    pairs with at least one new claim (the check on remember)."""
    fresh = {c.id for c in new} if new is not None else None
    # With new claims, a group none of them is in makes no pair: only their keys are
    # grouped (in the order the claims first hold them, as grouping every key would).
    wanted = None if new is None else frozenset(key for c in new for key, _ in c.keys)
    groups: dict[str, dict[str, list[Claim]]] = {}
    for claim in claims:
        if wanted is not None and wanted.isdisjoint(claim.key_set):
            continue  # most neighbours share words with a new claim, not keys
        for key, side in claim.keys:
            if wanted is not None and key not in wanted:
                continue
            sides = groups.get(key)  # not setdefault: it would build a default every time
            if sides is None:
                groups[key] = {side: [claim]}
            elif side in sides:
                sides[side].append(claim)
            else:
                sides[side] = [claim]
    seen: set[tuple[str, str]] = set()
    pairs: list[tuple[Claim, Claim]] = []

    def add(a: Claim, b: Claim) -> None:
        if a.id == b.id:
            return
        if fresh is not None and a.id not in fresh and b.id not in fresh:
            return
        pair_id = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if pair_id not in seen:
            seen.add(pair_id)
            pairs.append(ordered(a, b))

    # The keys of slots read in other words (``kin``, ``polar``) pair last: the pairs of
    # the other keys are made, and so settled, in the order they always were.
    for key, sides in sorted(groups.items(), key=lambda group: group[0].startswith(_LATE)):
        if "" in sides:
            members = sides[""]
            cap = MAX_WORD_GROUP if key.startswith(("attr:", *_LATE)) else MAX_GROUP
            if 2 <= len(members) <= cap:
                for a, b in _within(members, fresh):
                    add(a, b)
        else:
            present, absent = sides.get("present", []), sides.get("absent", [])
            cap = MAX_WORD_GROUP if key.startswith(_NAMED) else MAX_GROUP
            if len(present) <= cap and len(absent) <= cap:
                for a, b in _across(present, absent, fresh):
                    add(a, b)
    for a, b in _sharing_rare_words(claims, fresh):
        add(a, b)
    return pairs


_T = TypeVar("_T", Claim, int)


def _within(members: Sequence[_T], fresh: Collection[object] | None) -> Iterator[tuple[_T, _T]]:
    """``itertools.combinations(members, 2)``, or (with ``fresh``: ids, or positions for
    ints) only its pairs holding a fresh member, in the same order; on remember, that is
    the few pairs of the new claim instead of every pair of its neighbours."""
    if fresh is None:
        yield from itertools.combinations(members, 2)
        return
    marks = [_key(m) in fresh for m in members]
    later = [i for i, mark in enumerate(marks) if mark]
    for i, a in enumerate(members):
        if marks[i]:
            for b in members[i + 1 :]:
                yield a, b
        else:
            for j in later:
                if j > i:
                    yield a, members[j]


def _across(
    present: Sequence[Claim], absent: Sequence[Claim], fresh: Collection[str] | None
) -> Iterator[tuple[Claim, Claim]]:
    """``itertools.product(present, absent)``, or only its pairs holding a fresh claim."""
    if fresh is None:
        yield from itertools.product(present, absent)
        return
    new_absent = [b for b in absent if b.id in fresh]
    for a in present:
        yield from ((a, b) for b in (absent if a.id in fresh else new_absent))


def _key(member: Claim | int) -> object:
    return member if isinstance(member, int) else member.id


def ordered(a: Claim, b: Claim) -> tuple[Claim, Claim]:
    """The older first (by creation, then id): the order a pair is logged in."""
    return (a, b) if (a.created_at, a.id) <= (b.created_at, b.id) else (b, a)


def _sharing_rare_words(
    claims: Sequence[Claim], fresh: set[str] | None
) -> Iterable[tuple[Claim, Claim]]:
    new = None if fresh is None else [i for i, c in enumerate(claims) if c.id in fresh]
    # With new claims, only their words can pair one of them: count no other word.
    # A word is also a thing named in other words (``Claim.kinds``: "route" / "endpoint").
    wanted = None if new is None else frozenset().union(*(claims[i].said for i in new))
    holders: dict[str, list[int]] = {}
    for i, claim in enumerate(claims):
        said = claim.said
        if wanted is not None and wanted.isdisjoint(said):
            continue
        for word in said:
            if wanted is not None and word not in wanted:
                continue
            held = holders.get(word)
            if held is None:
                holders[word] = [i]
            else:
                held.append(i)
    if new is not None and len(new) == 1:
        yield from _sharing_with_one(claims, new[0], holders)
        return
    positions = None if new is None else set(new)
    shared: Counter[tuple[int, int]] = Counter()
    for members in holders.values():
        if 2 <= len(members) <= RARE:
            shared.update(_within(members, positions))
    for (i, j), count in shared.items():
        if count >= _RARE_SHARED:
            a, b = claims[i], claims[j]
            if fresh is None or a.id in fresh or b.id in fresh:
                yield a, b


def _sharing_with_one(
    claims: Sequence[Claim], new: int, holders: dict[str, list[int]]
) -> Iterator[tuple[Claim, Claim]]:
    """``_sharing_rare_words`` for one new claim (at ``new``; ``holders``: the claims
    holding each of its words), as the general count makes them: every holder list has
    the new claim in it, so the pairs counted are (holder, new) in the order holders are
    first met, and one of them is made when they share enough rare words. A remember
    makes only these."""
    shared: dict[int, int] = {}
    for members in holders.values():
        if 2 <= len(members) <= RARE:
            for other in members:
                if other != new:
                    shared[other] = shared.get(other, 0) + 1
    for other, count in shared.items():
        if count >= _RARE_SHARED:
            i, j = (other, new) if other < new else (new, other)
            yield claims[i], claims[j]
