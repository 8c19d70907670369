"""Who does a duty, however a note words it (adr/0060): "Releases are cut by whoever is
on the release-manager rota" and "Only Dana publishes pyledger to PyPI" name one duty
(shipping a release) done by other people. The slots read a duty only in a few shapes,
and one duty goes by many verbs (cut, tag, publish, submit, deploy; approve, sign off,
review; on call, paged, the pager); so a note's duties are read here by their families
of verbs, and the people, teams and roles it names are read from the whole note.

Two notes about one thing (a word in common that is neither a duty's, a doer's nor
generic; no variants or kinds apart) with one duty and no doer in common are asked
about, never decided. A doer a note says is not the one ("platform isn't in the loop",
"Priya isn't part of that group") is no doer of it. Pure functions; no database.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from anchors.needles import guarded
from store.contradictions.families import members_of
from store.contradictions.questions import kinds_apart, other_variants
from store.contradictions.slots import MANY_MARK
from store.contradictions.words import STOP, content_words, words

if TYPE_CHECKING:
    from store.contradictions.rules import Claim

__all__ = ["duties", "other_doers"]

# duty: the words that name it
_DUTIES = {
    "ships releases": (
        r"\b(?:cut|cuts|cutting|tag|tags|tagged|tagging|publish|publishes|published|publishing|"
        r"ship|ships|shipped|submit|submits|submitted|submissions?|upload\s+rights|"
        r"deploy|deploys|deployed|deploying|rollouts?|roll\s+out|rolls\s+out|"
        r"push(?:es)?\s+(?:\w+\s+){0,3}to\s+production)\b"
    ),
    "approves": (
        r"\b(?:approve|approves|approved|approver|approvals?|sign(?:s|ed)?\s+off|sign-?off|"
        r"reviews?|reviewed|reviewers?)\b"
    ),
    "is on call": (
        r"\bon[- ]?call\b|\bpag(?:e|es|ed|ing)\b|\bpager\b|\bescalation\b|"
        r"\bafter-hours\s+(?:alerts|pages)\b"
    ),
    "writes": r"\b(?:writes?|written|drafts?|drafted|write-up)\b",
    "owns": (
        r"\b(?:owns?|owned|owner|maintains?|maintained|maintainers?|belongs?\s+to|"
        r"responsible\s+for)\b"
    ),
    "translates": r"\btranslat(?:e|es|ed|ion|ions)\b",
}
_DUTY_RE = {duty: guarded(pattern, re.I) for duty, pattern in _DUTIES.items()}

# Who: a team or a group, a role, a handle, a person's name.
_TEAM = re.compile(
    r"\b(?P<of>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)(?:'s)?\s+"
    r"(?:team|squad|guild|group|rotation|chapter|rota|org)\b",
    re.I,
)
_ROLE = re.compile(
    r"\b(?:release\s+(?:captain|manager)|incident\s+commander|tech(?:nical)?\s+lead|"
    r"project\s+lead|qa\s+lead|team\s+lead|privacy\s+engineer|ci\s+bot|bot|renovate|"
    r"dependabot|(?:external\s+|outside\s+)?agency|support\s+(?:staff|team)|"
    r"whoever|whichever|(?:research|gameplay|embedded|mobile|backend|frontend|platform)\s+"
    r"engineers?|engineer\s+who|the\s+(?:pm|em|sre|ic|dba)|sre|pm|ic|dba)\b",
    re.I,
)
_HANDLE = re.compile(r"@[\w./-]+")
_NAME = re.compile(r"(?<![\w@`/.-])(?-i:[A-Z][a-z]{2,})(?![\w`/-])")
# Someone a note says is not the doer: "platform isn't in the loop", "Priya isn't part of
# that group", "the IC only reviews it", "data eng owns ingestion only".
_NOT_DOER = re.compile(
    r"\b(?P<who>[A-Za-z][\w-]*)(?:'s)?\s+(?:team\s+)?(?:isn't|is\s+not|aren't|are\s+not|"
    r"never|only\s+(?:reviews|covers|consumes|signs|adds|files|owns)|"
    r"(?:owns|covers|handles)\s+\w+\s+only)\b",
    re.I,
)
_NOT_NAMES = words(
    """only heads per note since after before every any all when today tomorrow yesterday
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december"""
)
# A duty several share, beyond "also" (``slots.MANY_MARK``): "one of the maintainers",
# "co-owns", "as secondary".
_SHARED = guarded(
    r"\b(?:together\s+with|one\s+of\s+the|co-?(?:own|maintain|lead)\w*|primary|secondary|"
    r"backup|among)\b",
    re.I,
)
# Words a note's subject is never told by: those of the duties, and of who does them.
_DUTY_WORDS = content_words(
    "team squad guild group rotation chapter rota org lead leads engineer engineers person"
    " people someone nobody anyone whoever whichever week call release releases loop path"
    " approval approvals approver review reviews sign off alerts alert pager page pages"
    " owner owns maintains responsible ownership"
)


@functools.lru_cache(maxsize=1 << 14)
def duties(text: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """(duty, who does it, who the note says does not) of each duty a note names: every
    doer it names is taken for each of its duties (a note is a sentence or two)."""
    named = [duty for duty, pattern in _DUTY_RE.items() if pattern.search(text)]
    if not named:
        return ()
    not_doers = frozenset(_key(m.group("who")) for m in _NOT_DOER.finditer(text))
    doers = _doers(text)
    return tuple((duty, doers, not_doers) for duty in named)


def _doers(text: str) -> frozenset[str]:
    found = {_key(m.group("of")) for m in _TEAM.finditer(text)}
    found |= {_key(m.group(0)) for m in _ROLE.finditer(text)}
    found |= {_key(m.group(0)) for m in _HANDLE.finditer(text)}
    products = members_of(text)[1]
    for m in _NAME.finditer(text):
        word = m.group(0).lower()
        if word in STOP or word in _NOT_NAMES or word in products:
            continue
        if m.start() == 0 or text[: m.start()].rstrip().endswith((".", ":", ";")):
            # a sentence's first word is a name only when a duty or "'s" follows it
            after = text[m.end() : m.end() + 30]
            if not re.match(r"(?:'s|,|\s+(?:\w+\s+)?(?:cuts|tags|publishes|owns|maintains|"
                            r"signs|approves|reviews|writes|drafts|submits|deploys|is|only))",
                            after):  # fmt: skip
                continue
        found.add(word)
    return frozenset(w for w in found if w)


def _key(who: str) -> str:
    """One spelling of a doer: lower case, without "the", plurals and punctuation."""
    who = re.sub(r"^(?:the|our|a)\s+", "", who.strip().lower())
    who = re.sub(r"\b(engineer|lead|manager|team)s\b", r"\1", who)
    return re.sub(r"[\s@._-]+", "", who)


def other_doers(a: Claim, b: Claim) -> str | None:
    """Two notes about one thing naming one duty done by nobody in common ("The platform
    team is on call for matchmaking" / "Matchmaking alerts page the gameplay-services
    rotation; platform isn't on that escalation path"): asked, never decided."""
    if not (a.duties and b.duties):
        return None
    theirs = {duty: (doers, nots) for duty, doers, nots in b.duties}
    for duty, doers, nots in a.duties:
        if duty not in theirs:
            continue
        other, other_nots = theirs[duty]
        mine, yours = doers - nots, other - other_nots
        if not mine or not yours or _same_doer(mine, yours):
            continue
        if any(p.search(t) for p in (MANY_MARK, _SHARED) for t in (a.text, b.text)):
            return None
        if _about_one_thing(a, b, doers | other):
            return f"who {duty}"
    return None


def _same_doer(x: frozenset[str], y: frozenset[str]) -> bool:
    """Whether one doer is in both: one spelling, or one inside the other ("sre" and
    "thesreoncallrotation", "data" and "dataplatform" are not: a whole word each)."""
    return bool(x & y) or any(p.startswith(q) or q.startswith(p) for p in x for q in y)


def _about_one_thing(a: Claim, b: Claim, doers: frozenset[str]) -> bool:
    shared = a.words & b.words
    shared -= _DUTY_WORDS | doers | {w for w in shared if any(w in d for d in doers)}
    if not shared - STOP:
        return False
    return not (other_variants(a.text, b.text) or kinds_apart(a.text, b.text))
