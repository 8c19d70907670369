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
from store.contradictions.slots import Match, Slot, relate, subjects_apart
from store.contradictions.terms import closeness, normalised, note_query, stored_terms
from store.contradictions.values import (
    DURATION_UNIT,
    NUMBER,
    Relation,
    ValueType,
    compare,
    number_at,
)
from store.contradictions.words import content_word, content_words, modifiers, qualifiers, variants

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
CLOSE_AMOUNTS = 0.33
CLOSE_STANCE = 0.1
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
    r"\b(?:between \S*\d|range|ranges|from \S+(?: \S+)? (?:up )?to|\d[\d.,]*\s*(?:to|-|–)\s*\d+|"
    r"through (?=\d|(?:mon|tue|wed|thu|fri|sat|sun)\w*day)|default|defaults|defaulted|"
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
    read = _DENIAL.finditer(claim)
    found = [
        m["before"] + m["after"]
        for m in read
        if not _CONDITION.match(m["after"]) and not _IF.search(m["before"])
    ]
    return tuple(found + [m["after"] for m in _CONTRAST.finditer(claim)])


# A denial that states a condition ("no merging without an approval", "blocked until the
# check is green", "if the manifest doesn't set one") requires what it names or says
# when: it denies nothing.
_IF = guarded(r"\b(?:if|when|whenever|unless|until|once)\b", re.I)
_CONDITION = guarded(r"^(?:[\s-]+[\w.'`/-]+){0,3}?\s+(?:without|until|unless)\b", re.I)


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
    if other_variants(a.text, b.text) or not _denies_of(denier, other):
        return None
    if _narrowed_apart(denier, other):
        return None
    if not _nearby(a, b, CLOSE_DENIAL):
        return None
    return "whether one note denies the other"


def stances(text: str) -> tuple[tuple[str, bool], ...]:
    """What a note holds of the few properties agents state in many words: whether a
    thing is on by default ("opt-in" / "out of the box") and whether a call is safe to
    retry ("idempotent" / "calling it twice double-charges"). A note that says both ways
    of one holds neither."""
    found = []
    for name, (yes, no) in _STANCES.items():
        says_yes, says_no = bool(yes.search(text)), bool(no.search(text))
        if says_no and (name in _NO_FIRST or not says_yes):
            found.append((name, False))
        elif says_yes and not says_no:
            found.append((name, True))
    return tuple(found)


def other_stances(a: Claim, b: Claim) -> str | None:
    """Close notes holding one property both ways ("telemetry is opt-in" / "the client
    reports usage stats by default"): asked, never decided."""
    theirs = dict(b.stances)
    for name, holds in a.stances:
        if theirs.get(name, holds) != holds:
            if other_variants(a.text, b.text) or kinds_apart(a.text, b.text):
                return None
            # the property links them; a word or a term in common says they are one thing
            near = bool(a.words & b.words) or _nearby(a, b, CLOSE_STANCE)
            return f"whether it is {name}" if near else None
    return None


_STANCES = {
    "on by default": (
        guarded(
            r"\b(?:on|enabled|active|turned on|switched on) by default\b|\bout of the box\b|"
            r"\bopts?[- ]out\b|\bopted[- ]out\b|\bships? (?:enabled|on)\b|"
            r"\b(?:reports?|sends?|collects?|tracks?|uploads?|shares?)\b[^.;]{0,40}\bby default\b|"
            r"\bdefaults? to (?:on|true|enabled)\b",
            re.I,
        ),
        guarded(
            r"\bopts?[- ]in\b|\bopted[- ]in\b|\b(?:off|disabled|inactive) by default\b|"
            r"\b(?:stays?|is|are|remains?) (?:off|disabled) unless\b|"
            r"\bdefaults? to (?:off|false|disabled)\b",
            re.I,
        ),
    ),
    "safe to retry": (
        guarded(
            r"\bidempotent\b|\b(?:safe|fine|ok) to retry\b|\bretries are safe\b|"
            r"\bretr(?:y|ies|ied)\b[^.;]{0,30}\bfreely\b",
            re.I,
        ),
        guarded(
            r"\bnot idempotent\b|\bno idempoten\w*|\b(?:unsafe|not safe|dangerous) to retry\b|"
            r"\bretr(?:y|ying|ies|ied)\b[^.;]{0,40}\b(?:unsafe|not safe|double|twice|duplicate)|"
            r"\btwice\b[^.;]{0,30}\b(?:charge|pay|bill|send|create|record)|"
            r"\b(?:double|duplicate)[- ]?(?:charge|payment|bill|order|send)s?\b|"
            r"\bno (?:duplicate|dedup)\w*",
            re.I,
        ),
    ),
}
_NO_FIRST = frozenset({"safe to retry"})  # "no idempotency protection" names it to deny it


def other_variants(one: str, other: str) -> bool:
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
    about = _amounts_differ(a, b) or _bare_setting_differs(a, b) or _bare_setting_differs(b, a)
    if about is None and not _amounts_apart(a, b):
        about = (
            _shares_differ(a.shares, b.shares)
            or _counts_differ(a.counts, b.counts)
            or _intervals_differ(a.intervals, b.intervals)
        )
    if about is None:
        return None
    if _NOT_ONE_AMOUNT.search(a.text) or _NOT_ONE_AMOUNT.search(b.text):
        return None
    if other_variants(a.text, b.text) or kinds_apart(a.text, b.text):
        return None
    return about if _nearby(a, b, CLOSE_AMOUNTS) else None


def kinds_apart(one: str, other: str) -> bool:
    """Whether the notes name one kind of thing, each narrowed by a word the other never
    says ("payments worker" / "thumbnails worker", "read requests" / "write requests",
    "access tokens" / "refresh tokens"): two things of one kind."""
    mine, theirs = _kinds(normalised(one)), _kinds(normalised(other))
    said_mine, said_theirs = stored_terms(one, spells=False), stored_terms(other, spells=False)
    for word in mine.keys() & theirs.keys():
        only_mine = [m for m in mine[word] if said_theirs.isdisjoint(note_query(m))]
        only_theirs = [m for m in theirs[word] if said_mine.isdisjoint(note_query(m))]
        if only_mine and only_theirs:
            return True
    return False


# Words before a noun that say its state or its place in a sequence, not which kind of it
# ("a failing webhook", "the first canary step" / "the initial canary step").
_STATES = content_words(
    "failing failed pending idle stuck existing current broken slow dead healthy unhealthy"
    " new old first initial last final next previous"
)


def _kinds(text: str) -> dict[str, frozenset[str]]:
    """``words.modifiers``, without the words of a state (``_STATES``)."""
    found = {word: those - _STATES for word, those in modifiers(text).items()}
    return {word: those for word, those in found.items() if those}


def other_settings(a: Claim, b: Claim) -> str | None:
    """One setting given other values ("`SameSite=Strict`" / "`SameSite=Lax`",
    "`ENABLE_DEBUG_UART` is set" / "`ENABLE_DEBUG_UART=0`"): asked, never decided. Not a
    default and its override, nor other environments or variants."""
    mine, theirs = a.settings, b.settings
    for name in sorted(mine.keys() & theirs.keys()):
        if mine[name] != theirs[name]:
            if _NOT_ONE_AMOUNT.search(a.text) or _NOT_ONE_AMOUNT.search(b.text):
                return None
            return None if other_variants(a.text, b.text) else f"the setting {name}"
    return None


def settings(text: str) -> dict[str, str]:
    """The settings a text gives a value: ``name=value`` anywhere, ``name: value`` in
    code, or a setting in code said to be set or unset ("`DEBUG` is on"). Each by its name
    without case or separators, a value for each; one named twice is left out."""
    found: dict[str, set[str]] = {}
    for m in _SETTING.finditer(text):
        name = re.sub(r"[_.-]", "", (m.group("k") or m.group("k2") or m.group("k3")).lower())
        value = m.group("v") or m.group("v3") or m.group("v4") or m.group("state")
        value = value.lower().strip("'\"")
        found.setdefault(name, set()).add(_BOOLEANS.get(value, value))
    return {name: next(iter(values)) for name, values in found.items() if len(values) == 1}


_KEY = r"[A-Za-z_][\w.-]*[A-Za-z0-9_]"
_SETTING = guarded(
    rf"(?<![\w.-])(?P<k>{_KEY})\s?=\s?(?P<v>\"[^\"]{{0,40}}\"|'[^']{{0,40}}'|[\w.+/-]+)"
    rf"|`(?P<k3>{_KEY})(?::\s?(?P<v3>[^`\s]+)|\s(?P<v4>[^`\s]*\d[^`\s]*))`"
    rf"|`(?P<k2>{_KEY})`\s+(?:is|was|gets|stays)\s+(?:set\s+to\s+)?"
    r"(?P<state>set|unset|on|off|enabled|disabled|true|false)\b",
    re.I,
)
_BOOLEANS = {
    **dict.fromkeys(("1", "true", "yes", "on", "set", "enabled"), "true"),
    **dict.fromkeys(("0", "false", "no", "off", "unset", "disabled"), "false"),
}


def _amounts_apart(a: Claim, b: Claim) -> bool:
    """Whether the slots read amounts of one kind on subjects narrowed apart
    (``slots.subjects_apart``): then the shares and counts are theirs, of other things."""
    return any(
        x.value.type is y.value.type and subjects_apart(x, y) for x in a.slots for y in b.slots
    )


def _amounts_differ(a: Claim, b: Claim) -> str | None:
    """The kind of the amounts that differ in slots not placed on other subjects."""
    kinds = {s.value.type for s in a.slots if s.value.type in _AMOUNTS and not s.many}
    for kind in sorted(kinds & {s.value.type for s in b.slots if not s.many}):
        xs = [s for s in a.slots if s.value.type is kind and not s.many]
        ys = [s for s in b.slots if s.value.type is kind and not s.many]
        if any(_placed(x, y) or _counts_of_other_things(x, y) for x in xs for y in ys):
            continue
        relations = {compare(x.value, y.value) for x in xs for y in ys}
        if Relation.EXCLUSIVE in relations and not relations & {Relation.SAME, Relation.COMPATIBLE}:
            return f"the {kind.value}"
    return None


def _bare_setting_differs(a: Claim, b: Claim) -> str | None:
    """A setting named for what it measures, given a bare number ("`server_idle_timeout =
    300`", "`SERVER_TICK_HZ` is 30"), against an amount of that kind ("after ten
    minutes", "64 times a second"): it differs when no reading of the number (a time in
    seconds or milliseconds, a rate a second) is that amount."""
    for slot in a.slots:
        if slot.value.type is not ValueType.COUNT or slot.value.amount is None:
            continue
        n = slot.value.amount
        read: tuple[float, ...]
        if _TIMED_SETTING.search(slot.attribute):
            kind, read = ValueType.DURATION, (n, n / 1000)
        elif _RATE_SETTING.search(slot.attribute):
            kind, read = ValueType.RATE, (n,)
        else:
            continue
        theirs = [
            s.value.amount
            for s in b.slots
            if s.value.type is kind and s.value.amount is not None and not s.many
        ]
        if theirs and not any(math.isclose(x, t, rel_tol=0.001) for x in read for t in theirs):
            return f"the {kind.value}"
    return None


_TIMED_SETTING = guarded(
    r"^setting .*(?:ttl|timeout|interval|expir|lifetime|delay|period|max_?age|seconds|secs)", re.I
)
_RATE_SETTING = guarded(r"^setting .*(?:hz|fps|per_?sec|rps|qps)", re.I)


def _shares_differ(xs: tuple[float, ...], ys: tuple[float, ...]) -> str | None:
    """Shares that differ however written ("a dropout of 0.1" / "30% dropout", "sampled
    at one in ten" / ``sample_rate: 0.5``), none of them equal ("10%" and 0.1 are one) nor
    the rest of the other ("at 80% used" / "when free space drops below one fifth")."""
    if not xs or not ys or any(_one_share(x, y) for x in xs for y in ys):
        return None
    return "the share"


def counted(text: str) -> tuple[tuple[str, float], ...]:
    """The things a text counts, with their numbers: a number and the word after it
    ("three thousand prompts": prompt, 3000), or a measure and its number ("at
    concurrency 4"). Not a unit, a version, a year, a clock time, nor a number that
    labels ("v2", "#212", "4.2 release", "Module 1", "step 2")."""
    found = []
    for m in _COUNT.finditer(text):
        n = _count_number(m.group("n"))
        noun = content_word(m.group("noun"))
        if n is None or noun is None or _UNIT_WORD.fullmatch(m.group("noun")):
            continue
        if _LABEL.search(text[: m.start()]):
            continue
        found.append((noun, n))
    for m in _MEASURE.finditer(text):
        n = _count_number(m.group("n"))
        if n is not None:
            found.append((m.group("noun").lower(), n))
    return tuple(found)


def _count_number(raw: str) -> float | None:
    """A count as written ("3k", "two thousand", "10,000"), never a year or a decimal."""
    if re.fullmatch(r"(?:19|20)\d\d", raw) or "." in raw:
        return None
    n = number_at(raw.rstrip("kK"))
    if n is None:
        return None
    return n[0] * 1000 if raw[-1] in "kK" else n[0]


def _counts_differ(
    xs: tuple[tuple[str, float], ...], ys: tuple[tuple[str, float], ...]
) -> str | None:
    """Counts of one thing that differ ("samples three thousand prompts" / "draws 500
    prompts per run"), none of them equal."""
    for noun in sorted({n for n, _ in xs} & {n for n, _ in ys}):
        mine = {v for n, v in xs if n == noun}
        if mine.isdisjoint(v for n, v in ys if n == noun):
            return f"the number of {noun}"
    return None


# A number (digits or words, "three dozen", "two thousand") and the word after it.
_COUNT = guarded(
    rf"(?<![\w#.:/$€£-])(?P<n>{NUMBER}(?:\s+(?:dozen|hundred|thousand)|(?<=\d)k)?)\s+(?P<noun>[a-z][a-z-]*)\b(?![.:/]\w)",
    re.I,
)
# A number that labels: after a name ("Module 1", "Python 3") or a word that numbers
# things ("step 2", "phase 3").
_LABEL = guarded(
    r"(?:\b[A-Z][\w-]*|\b(?:step|phase|stage|tier|level|module|version|release|part|issue|"
    r"ticket|pr|item|option|case|test|round|week|day|sprint|zone|shard|node)s?)\s+$"
)
# A measure and its number ("at concurrency 4", "with parallelism 8").
_MEASURE = guarded(
    r"\b(?P<noun>concurrency|parallelism|replicas|workers|threads|partitions|shards|retries|"
    r"attempts|batch size|pool size|prefetch)(?:\s+(?:of|=|:|at|to))?\s+(?P<n>\d[\d,]*k?)\b"
    r"(?![.:/%]\w|\s*(?:%|ms|s|m|h|mb|gb|kb)\b)",
    re.I,
)
_UNIT_WORD = guarded(
    rf"(?:{DURATION_UNIT}|[kmgtp]i?b|bytes?|hz|hertz|percent|per|times?|x|and|or|to|of|in|a|an|"
    r"on|at|for|with|by|from|because|since|so|as|when|while|if|before|after|until|each|every|"
    r"more|less|max|min|the|is|are|was|were)",
    re.I,
)


def _intervals_differ(xs: tuple[float, ...], ys: tuple[float, ...]) -> str | None:
    """How often things happen, said both ways and never alike ("every six hours" /
    "twice a day", "weekly" / "every day at 06:00"): a month is four weeks or thirty days."""
    if not xs or not ys:
        return None
    if any(math.isclose(x, y, rel_tol=0.08) for x in xs for y in ys):
        return None
    return "how often"


def _one_share(x: float, y: float) -> bool:
    return math.isclose(x, y, abs_tol=1e-6) or math.isclose(x, 100 - y, abs_tol=1e-6)


def _counts_of_other_things(x: Slot, y: Slot) -> bool:
    """Counts whose slots name what each counts, and other things ("4 gunicorn workers"
    / "port 8000"); a setting's name says what it counts in its own words."""
    if x.value.type is not ValueType.COUNT or not (x.named and y.named):
        return False
    settings = x.attribute.startswith("setting ") or y.attribute.startswith("setting ")
    return x.attribute != y.attribute and not settings


def _placed(x: Slot, y: Slot) -> bool:
    """Whether the slots read both amounts well enough to have judged them: one named
    attribute of subjects the slots could line up (``_by_slots`` compared them), or
    subjects narrowed apart (``slots.subjects_apart``: "for images" / "for videos"). One
    attribute of subjects said in other words ("the scheduler polls" / "queue polling")
    is not placed: the slots cannot tell paraphrase from another subject."""
    if subjects_apart(x, y):
        return True
    same = x.named and y.named and x.attribute == y.attribute
    return same and relate(x, y) is not Match.DIFFERENT
