"""Differences the slots did not place, put to the agent as questions (adr/0056): a note
that denies what a close note speaks of, amounts of one kind or shares that differ
however written; and the pairs never asked, a default against its override. Each returns
what the question is about, or None; ``rules.judge`` makes the question. Pure functions
over claims; no database.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from anchors.needles import guarded
from store.contradictions.slots import Slot
from store.contradictions.terms import closeness, normalised, note_query, stored_terms
from store.contradictions.values import Relation, ValueType, compare
from store.contradictions.words import qualifiers, variants

if TYPE_CHECKING:
    from store.contradictions.rules import Claim

__all__ = ["default_and_override", "denials", "denied", "other_amounts", "stance"]

_DEFAULT = guarded(r"\bdefault(?:s|ed)?\b", re.I)
_OVERRIDE = guarded(r"\b(?:overrid(?:e|es|den|ing)|overrode|instead)\b", re.I)


def default_and_override(one: Claim, other: Claim) -> bool:
    """One note states a default, the other an override of it ("the client's default
    timeout is 30 s" / "the export helper overrides the timeout to 300 s", "... use that
    instead"): both hold."""
    return one.default_or_override == (True, False) and other.default_or_override[1]


def stance(text: str) -> tuple[bool, bool]:
    """Whether a note states a default, and an override."""
    return _DEFAULT.search(text) is not None, _OVERRIDE.search(text) is not None


# How close two notes must be (``terms.closeness``, synonyms read) for a difference the
# slots did not place to be asked about: a denial, or amounts of one kind that differ.
CLOSE_DENIAL = 0.4
CLOSE_AMOUNTS = 0.4
_DENIAL = guarded(
    r"(?P<before>(?:[\w.'`/-]+\s+){0,4})"
    r"\b(?:not|never|no|nobody|nothing|none|neither|nor|cannot|can't|don't|doesn't|"
    r"isn't|aren't|won't|wasn't|weren't|shouldn't|mustn't|"
    # ... and the words that say a thing is kept from happening, or left out
    r"forbid|forbids|forbidden|prohibit|prohibits|prohibited|disallow|disallows|disallowed|"
    r"blocks(?=\s+\w+\s)|blocked|disabled|turned off|switched off|kept off|optional|skip|skips|"
    r"skipped|bypass|bypasses|bypassed)"  # "blocks" a verb only, never "transformer blocks."
    r"\b(?P<after>(?:[\s-]+[\w.'`/-]+){0,6})",
    re.I,
)
# A rule and its exception ("every PR needs two approvals" / "docs-only PRs are exempt"),
# a range and a value in it, a default and an override, one of several values: two notes
# that read as a denial or as other amounts, and both hold.
_EXCEPTED = guarded(
    r"\b(?:except|exception|exempt(?:ed)?|unless|apart from|other than|the one(?![-\w]))",
    re.I,
)
# ... and "only" against a rule for all ("all endpoints require auth" / "/health is the
# only one that does not"); against no rule, "only" narrows a claim like any other word.
_ONLY = guarded(r"\bonly\b", re.I)
_UNIVERSAL = guarded(
    r"\b(?:all|every|everything|everyone|each|any|always|never|nobody|nothing|no one|"
    r"as a rule|in general|by policy)\b",
    re.I,
)
# What a note denies may be said as the alternative it took ("decimals rather than
# integer cents", "REST instead of gRPC").
_CONTRAST = guarded(r"\b(?:rather than|instead of)\b(?P<after>(?:[\s-]+[\w.'`/-]+){1,6})", re.I)
_NOT_ONE_AMOUNT = guarded(
    r"\b(?:between|range|ranges|from \S+ (?:up )?to|through|default|defaults|defaulted|"
    r"override|overrides|overridden|unless|except|exception|exempt|also|as well|"
    r"otherwise)\b",
    re.I,
)
_AMOUNTS = frozenset(ValueType) - {ValueType.NAME, ValueType.BOOLEAN}


def denials(text: str) -> tuple[str, ...]:
    """What the claim itself (not its reason, nor who said it) denies: the few words
    around each denial ("nothing gets merged automatically", "platform isn't involved"),
    and the alternative a note took ("rather than integer cents")."""
    claim = normalised(text)
    found = [m["before"] + m["after"] for m in _DENIAL.finditer(claim)]
    return tuple(found + [m["after"] for m in _CONTRAST.finditer(claim)])


def _excepts(one: str, other: str) -> bool:
    """Whether ``one`` states an exception, to a rule ``other`` may state."""
    if _EXCEPTED.search(one):
        return True
    return _ONLY.search(one) is not None and _UNIVERSAL.search(other) is not None


def _denies_of(denials: tuple[str, ...], other: Claim) -> bool:
    """Whether ``denials`` deny something ``other`` speaks of: a term of the words around
    a denial (their parts, roots, synonyms and acronyms: ``terms``) is one of ``other``'s."""
    theirs = stored_terms(other.text, spells=True)
    return any(not theirs.isdisjoint(note_query(denied)) for denied in denials)


def _narrowed_apart(denials: tuple[str, ...], other: Claim) -> bool:
    """Whether what is denied is narrowed by words ``other`` never says ("caching is
    disabled for the admin pages" / "product pages go through the CDN cache"): the
    denial may be of other things."""
    mine = frozenset().union(*(qualifiers(denied) for denied in denials))
    return bool(mine - other.words)


def _nearby(a: Claim, b: Claim, at_least: float) -> bool:
    """Whether the notes are as close as ``at_least`` either way (``terms.closeness``)."""
    return closeness(a.text, b.text) >= at_least or closeness(b.text, a.text) >= at_least


def denied(a: Claim, b: Claim) -> str | None:
    """One note denies what the other, close to it, says: asked, never decided ("sync
    deletes remote files" / "sync never deletes anything on the remote"). Not a rule
    against its exception ("all endpoints require auth" / "/health is the only one that
    does not"), nor notes about other variants. The cheap tests first: most pairs a
    remember judges deny nothing."""
    da, db = a.denials, b.denials
    if bool(da) == bool(db):
        return None
    denier, other = (da, b) if da else (db, a)
    if _excepts(a.text, b.text) or _excepts(b.text, a.text):
        return None
    if _other_variants(a.text, b.text) or not _denies_of(denier, other):
        return None
    if _narrowed_apart(denier, other):
        return None
    if not _nearby(a, b, CLOSE_DENIAL):
        return None
    return "whether one note denies the other"


def _other_variants(one: str, other: str) -> bool:
    """Whether each note names an environment or a variant the other does not ("the
    public API" / "the internal admin API"): other things."""
    va, vb = variants(one), variants(other)
    return bool(va - vb and vb - va)


def other_amounts(a: Claim, b: Claim) -> str | None:
    """Close notes holding amounts of one kind (durations, sizes, counts, shares, ...)
    that differ, none of them equal, where the slots did not place them on one subject
    ("the transcode queue's visibility timeout is a quarter of an hour" / "messages on
    the transcode queue stay invisible for 30 minutes"): asked, never decided. Not a
    range, a default and its override, one of several values, nor other environments or
    variants ("on iOS" / "on Android"). Shares are read however written (``_shares_differ``)."""
    about = _amounts_differ(a, b) or _shares_differ(a.shares, b.shares)
    if about is None:
        return None
    if _NOT_ONE_AMOUNT.search(a.text) or _NOT_ONE_AMOUNT.search(b.text):
        return None
    if _other_variants(a.text, b.text) or not _nearby(a, b, CLOSE_AMOUNTS):
        return None
    return about


def _amounts_differ(a: Claim, b: Claim) -> str | None:
    """The kind of the amounts that differ in slots not placed on other subjects."""
    kinds = {s.value.type for s in a.slots if s.value.type in _AMOUNTS and not s.many}
    for kind in sorted(kinds & {s.value.type for s in b.slots if not s.many}):
        xs = [s for s in a.slots if s.value.type is kind and not s.many]
        ys = [s for s in b.slots if s.value.type is kind and not s.many]
        if any(_placed(x, y) for x in xs for y in ys):
            continue
        relations = {compare(x.value, y.value) for x in xs for y in ys}
        if Relation.EXCLUSIVE in relations and not relations & {Relation.SAME, Relation.COMPATIBLE}:
            return f"the {kind.value}"
    return None


def _shares_differ(xs: tuple[float, ...], ys: tuple[float, ...]) -> str | None:
    """Shares that differ however written ("a dropout of 0.1" / "30% dropout", "sampled
    at one in ten" / ``sample_rate: 0.5``), none of them equal ("10%" and 0.1 are one) nor
    the rest of the other ("at 80% used" / "when free space drops below one fifth")."""
    if not xs or not ys or any(_one_share(x, y) for x in xs for y in ys):
        return None
    return "the share"


def _one_share(x: float, y: float) -> bool:
    return math.isclose(x, y, abs_tol=1e-6) or math.isclose(x, 100 - y, abs_tol=1e-6)


def _placed(x: Slot, y: Slot) -> bool:
    """Whether the slots read both amounts well enough to have judged them: one named
    attribute (``_by_slots`` compared them), or qualifiers each lacks ("for images" /
    "for videos"): other things."""
    if x.named and y.named and x.attribute == y.attribute:
        return True
    return bool(x.qualifiers - y.qualifiers and y.qualifiers - x.qualifiers)
