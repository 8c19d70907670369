"""Contradictions between memories as plain functions: candidate pairs, conflicts, and
their resolution (seed 004, adr/0006).

Candidates are found by shared keys (``candidates``), never by comparing all pairs. Two
memories conflict when one slot holds exclusive values, one anchor is expected both
present and absent, or one text is the negation of the other; a pair the rules cannot
decide is a ``Question`` for the agent, and changes nothing. Different scopes and
different qualifiers never conflict.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from anchors.needles import guarded
from store.contradictions.designs import (
    designs,
    first_pole,
    languages,
    other_designs,
    rival_products,
)
from store.contradictions.duties import duties, other_doers
from store.contradictions.families import members_of
from store.contradictions.gone import gone, said_gone
from store.contradictions.kin import akin, family, name_words, shared_words
from store.contradictions.outcomes import (
    ConflictKind,
    ConflictState,
    Outcome,
    ReasonCode,
    Rule,
    Strategy,
)
from store.contradictions.questions import (
    counted,
    default_and_override,
    denials,
    denied,
    kinds_apart,
    other_amounts,
    other_settings,
    other_stances,
    settings,
    stance,
    stances,
)
from store.contradictions.slots import (
    FLOWS,
    Match,
    Slot,
    compare_names,
    relate,
    relate_subjects,
    stem,
    subjects_apart,
)
from store.contradictions.values import Relation, ValueType, compare, intervals, parse_shares
from store.model import Kind, RefutedBy, Status

__all__ = [
    "Claim",
    "Conflict",
    "ConflictKind",
    "ConflictState",
    "Outcome",
    "Question",
    "Rated",
    "ReasonCode",
    "Resolution",
    "Rule",
    "Strategy",
    "judge",
    "resolve",
]

CONFIDENCE_MARGIN = 0.5
# The newer claim states a change: only then is recency evidence (adr/0010). "since" or
# "adopted" say nothing of what came before; "now" and "no longer" do.
_TEMPORAL = guarded(
    r"\b(now|upgraded|downgraded|migrated|moved|switched|replaced|"
    r"no longer|anymore|any more|changed|from now on|these days|bumped|went from|"
    r"instead of|not any ?more|as of today|starting today|from today|dropped|removed|"
    r"decommissioned|retired|shut down|got rid of|swapped|took over|taken over|is gone|"
    r"are gone|was cancell?ed|were cancell?ed|phased out|raised|lowered|increased|decreased|"
    r"reduced|scaled (?:up |down )?to|ported)\b",
    re.I,
)
# An origin that only names the kind of source (the default when none is given) is no
# identity: two notes by "agent" are not one author updating its own claim.
MANY_VALUED = frozenset({"uses", "uses for"})  # single only when a note says "only"


def _anchor_order(anchor: tuple[str, str, str | None, str]) -> tuple[str, str, str, str]:
    """A fixed order of a claim's anchors (a set's own order changes with the hash seed)."""
    kind, value, scope, expect = anchor
    return kind, value, scope or "", expect


_ANONYMOUS = frozenset({"agent", "user", "code", "ci", "doc", "anchormem"})


@dataclass(frozen=True)
class Claim:
    """What conflict detection needs to know of one live memory, as it is whenever it is
    read: a claim is made once per memory and kept (``resolving.claims_of``), so nothing
    that changes with time is in it. Its confidence, which decays, is the memory's at the
    time of the call that resolves or records a pair (``Rated``)."""

    id: str
    text: str
    kind: Kind
    slots: tuple[Slot, ...]
    scope: str | None
    anchors: frozenset[tuple[str, str, str | None, str]]  # kind, value, scope, expect
    status: Status
    refuted_by: RefutedBy | None
    origins: int
    created_at: datetime
    origin: str
    supersedes: str | None = None
    core: str = ""
    negated: bool = False
    words: frozenset[str] = frozenset()  # content words, for rare-term candidates
    kinds: frozenset[str] = frozenset()  # the generic things it names (``terms.kinds``)
    naming: frozenset[str] = frozenset()  # ... the words that named them

    @functools.cached_property
    def key_set(self) -> frozenset[str]:
        """The keys it is paired by, without their sides (``keys``)."""
        return frozenset(key for key, _ in self.keys)

    @functools.cached_property
    def denials(self) -> tuple[str, ...]:
        """What its claim denies (``questions.denials``). Read once, as the claim is kept."""
        return denials(self.text)

    @functools.cached_property
    def shares(self) -> tuple[float, ...]:
        """The shares it states, in percent (``values.parse_shares``)."""
        return tuple(parse_shares(self.text))

    @functools.cached_property
    def settings(self) -> dict[str, str]:
        """The settings it gives a value (``questions.settings``)."""
        return settings(self.text)

    @functools.cached_property
    def intervals(self) -> tuple[float, ...]:
        """How often it says things happen, in seconds (``values.intervals``)."""
        return intervals(self.text)

    @functools.cached_property
    def stances(self) -> tuple[tuple[str, bool], ...]:
        """The properties it holds either way (``questions.stances``)."""
        return stances(self.text)

    @functools.cached_property
    def counts(self) -> tuple[tuple[str, float], ...]:
        """The things it counts, with their numbers (``questions.counted``)."""
        return counted(self.text)

    @functools.cached_property
    def designs(self) -> tuple[tuple[str, str, str], ...]:
        """The designs it states, with their words (``designs.designs``)."""
        return designs(self.text)

    @functools.cached_property
    def duties(self) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
        """The duties it names, who does them and who does not (``duties.duties``)."""
        return duties(self.text)

    @functools.cached_property
    def gone(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """The names it says are gone or replaced (``gone.gone``)."""
        return gone(self.text)

    @functools.cached_property
    def products(self) -> dict[str, frozenset[str]]:
        """The products it names, by family (``families.members_of``), and the languages
        it says a thing is written in (``designs.languages``)."""
        found = members_of(self.text)[0]
        spoken = languages(self.text)
        return {**found, "language": spoken} if spoken else found

    @functools.cached_property
    def product_words(self) -> frozenset[str]:
        """The words that named its products."""
        return members_of(self.text)[1] | languages(self.text)

    @functools.cached_property
    def default_or_override(self) -> tuple[bool, bool]:
        """Whether it states a default, and an override (``questions.stance``)."""
        return stance(self.text)

    @functools.cached_property
    def said(self) -> frozenset[str]:
        """Its words, a word that names a generic thing by its group instead (counted
        once): what it is paired by with a claim sharing rare words (``candidates``)."""
        return (self.words - self.naming) | self.kinds if self.kinds else self.words

    @functools.cached_property
    def says_replaced(self) -> bool:
        """Whether one of its slots says what was replaced: only then can a pair be
        ``_replaced`` or ``_gone_named`` by its side. Read once, as the claim is kept."""
        return any(slot.replaces is not None for slot in self.slots)

    @functools.cached_property
    def states_change(self) -> bool:
        """Whether the note states a change ("now", "switched", "no longer", ...): only
        then is it newer evidence (adr/0010). Read once: the newer side of most pairs a
        remember resolves is the new note."""
        return _TEMPORAL.search(self.text) is not None

    @functools.cached_property
    def expectations(self) -> Mapping[tuple[str, str, str | None], str]:
        """(kind, value, scope) of each anchor -> what it expects (present or absent). A
        memory holding both sides of one anchor says nothing about it: left out, so the
        answer never depends on the order a set is walked in."""
        found: dict[tuple[str, str, str | None], str] = {}
        both: set[tuple[str, str, str | None]] = set()
        for k, v, s, e in self.anchors:
            if found.setdefault((k, v, s), e) != e:
                both.add((k, v, s))
        return {key: e for key, e in found.items() if key not in both}

    @functools.cached_property
    def keys(self) -> tuple[tuple[str, str], ...]:
        """(key, side) of each key it is paired by (``candidates``): claims meet within a
        key; anchor keys pair across sides (present with absent), since the same
        expectation never conflicts. Read once, as the claim is kept."""
        found: list[tuple[str, str]] = []
        for slot in self.slots:
            found.append(("slot:" + slot.key, ""))
            found += ((f"attr:{slot.attribute}|{word}", "") for word in slot.about)
            # A name replaced meets the notes that name it; what something was moved to
            # meets the notes naming a technology for it, whatever their verbs (``_moved``)
            if slot.attribute.startswith(_POLAR):  # a rule or property, in any words
                found.append((f"polar:{slot.attribute}", ""))
            kind = family(slot.attribute) if slot.named and not slot.many else None
            if kind is not None:  # slots about one attribute in other words (``kin``)
                found += ((f"kin:{kind}|{word}", "") for word in name_words(slot.about))
            if slot.replaces is not None and slot.replaces.text:
                found.append((f"attr:name|{slot.replaces.text}", ""))
            if slot.value.type is ValueType.NAME and slot.value.text and slot.named:
                found.append((f"attr:name|{slot.value.text}", ""))
                if slot.changed or _technology(slot):
                    found += ((f"attr:technology|{word}", "") for word in _about(slot))
        for kind, value, scope, expect in sorted(self.anchors, key=_anchor_order):
            found.append((f"anchor:{kind}:{value}@{scope or ''}", expect))
        if self.core:
            found.append(("neg:" + self.core, ""))
        # a property held one way meets the notes holding it the other ("opt-in" / "on by
        # default"), across sides as anchors do
        found += (
            (f"stance:{name}", "present" if holds else "absent") for name, holds in self.stances
        )
        # ... and so does a design (``designs``); products of one family meet each other
        found += (
            (f"design:{axis}", "present" if pole == first else "absent")
            for axis, pole, _ in self.designs
            for first in (first_pole(axis),)
        )
        found += ((f"rival:{family}", "") for family in sorted(self.products))
        found += ((f"duty:{duty}", "") for duty, doers, _ in self.duties if doers)
        return tuple(found)


class Rated(NamedTuple):  # a tuple: made for every pair a call resolves
    """The confidence of both sides of a pair (the older ``a`` first) at the time of the
    call that resolves or records it."""

    a: float
    b: float


@dataclass(frozen=True)
class Conflict:
    a: Claim
    b: Claim
    kind: ConflictKind
    scope_ambiguous: bool = False
    slot: str | None = None  # the key of the slot both fill


@dataclass(frozen=True)
class Question:
    """A pair the rules cannot decide: perhaps a conflict, for the agent to judge."""

    a: Claim
    b: Claim
    kind: ConflictKind
    about: str  # what they seem to disagree on, for the question put to the agent


@dataclass(frozen=True)
class Resolution:
    state: ConflictState
    rule: Rule
    outcome: Outcome
    winner: str | None
    loser: str | None
    reason: ReasonCode


def judge(a: Claim, b: Claim) -> Conflict | Question | None:
    """A conflict the rules are sure of, a question they cannot decide, or None.

    Sure: one slot (same subject, qualifiers and attribute) with values its type says
    are exclusive; one anchor expected present and absent; one claim and its negation.
    Equivalent values never conflict, nor do qualifiers that differ (different subjects)
    or different explicit scopes. One qualified claim against an unqualified one is a
    scope ambiguity: reported, never resolved."""
    if a.scope and b.scope and a.scope != b.scope:
        return None
    ambiguous = bool(a.scope) != bool(b.scope)
    if _opposite_anchors(a, b):
        return Conflict(a, b, ConflictKind.ANCHOR, scope_ambiguous=ambiguous)
    if default_and_override(a, b) or default_and_override(b, a):
        return None
    slotted, agreed = _by_slots(a, b, ambiguous)
    if slotted is not None or agreed:
        return slotted
    if a.core and a.core == b.core and a.negated != b.negated:
        return Conflict(a, b, ConflictKind.NEGATION, scope_ambiguous=ambiguous)
    if a.negated != b.negated and _close(a.words, b.words, 0.6):
        return Question(a, b, ConflictKind.NEGATION, "whether one note denies the other")
    asked = _by_values(a, b)
    if asked is not None:
        return asked
    about = denied(a, b)
    if about is not None:
        return Question(a, b, ConflictKind.NEGATION, about)
    about = other_stances(a, b) or other_designs(a, b)
    if about is not None:
        return Question(a, b, ConflictKind.NEGATION, about)
    about = said_gone(a, b) or rival_products(a, b) or other_doers(a, b)
    if about is not None:
        return Question(a, b, ConflictKind.SLOT, about)
    about = other_amounts(a, b) or other_settings(a, b)
    return Question(a, b, ConflictKind.VALUE, about) if about is not None else None


def _opposite_anchors(a: Claim, b: Claim) -> bool:
    if not a.anchors or not b.anchors:
        return False
    expected = a.expectations
    return any(expected.get((k, v, s), e) != e for k, v, s, e in b.anchors)


def _by_slots(a: Claim, b: Claim, ambiguous: bool) -> tuple[Conflict | Question | None, bool]:
    """The verdict of the slots both fill, and whether they agree on one (then nothing
    else about the pair is a conflict)."""
    question: Question | None = None
    apart = False  # a rule or a property of other things ("on feature branches", "on release")
    replaced = (
        _best(_replaced(a, b, sa, sb, ambiguous) for sa in a.slots for sb in b.slots)
        if (a.says_replaced or b.says_replaced) and a.slots and b.slots
        else None
    )
    if replaced is not None:
        return replaced, False
    for sa in a.slots:
        for sb in b.slots:
            match = relate(sa, sb)
            if match is Match.DIFFERENT and sa.attribute.startswith(_POLAR):
                apart = apart or (sa.attribute == sb.attribute and _apart(sa, sb, a, b))
            if match is Match.DIFFERENT or sa.many or sb.many:
                continue  # other subjects, or one of several values ("also")
            relation = compare(sa.value, sb.value)
            if relation in (Relation.SAME, Relation.COMPATIBLE):
                if match is Match.SAME:
                    return None, True  # the same value said twice, however written
                continue
            about = f"{sa.attribute} of {' '.join(sorted(sa.about)) or 'it'}"
            asked = Question(a, b, ConflictKind.SLOT, about)
            if relation is Relation.UNKNOWN or not (sa.named and sb.named):
                question = question or asked
                continue
            single = sa.exclusive or sb.exclusive
            if sa.attribute not in MANY_VALUED:
                single = sa.exclusive and sb.exclusive
            if not single:
                if sa.attribute == "uses for" or sa.attribute.split()[0] in FLOWS:
                    question = question or asked
                continue  # many-valued: "uses X" and "uses Y" both hold
            if match is Match.SIMILAR:
                question = question or asked
                continue
            scope = ambiguous or match is Match.AMBIGUOUS
            return Conflict(a, b, ConflictKind.SLOT, scope_ambiguous=scope, slot=sa.key), False
    found = question or _moved(a, b) or _gone_named(a, b) or _akin(a, b)
    return found, apart and question is None


def _apart(sa: Slot, sb: Slot, a: Claim, b: Claim) -> bool:
    """Whether one rule or property is of other things: narrowed apart by the slots
    (``slots.subjects_apart``) or by the words before what both name ("the import job"
    / "the export job": ``questions.kinds_apart``)."""
    return subjects_apart(sa, sb) or kinds_apart(a.text, b.text)


def _akin(a: Claim, b: Claim) -> Question | None:
    """Slots about one attribute in other words (``kin.akin``): only a question."""
    for sa in a.slots:
        for sb in b.slots:
            if akin(sa, sb, a.text, b.text):
                about = " ".join(sorted(shared_words(sa, sb, a.text, b.text)))
                return Question(a, b, ConflictKind.SLOT, f"{family(sa.attribute)} of {about}")
    return None


def _best(found: Iterable[Conflict | Question | None]) -> Conflict | Question | None:
    """The surest of the verdicts of a pair's slots: a conflict on one slot, then one
    whose scope is ambiguous, then a question ("we dropped Redis; sessions are in
    Postgres now": the sessions' slot decides, not the bare "dropped Redis")."""

    def rank(verdict: Conflict | Question) -> int:
        if isinstance(verdict, Question):
            return 2
        return 1 if verdict.scope_ambiguous else 0

    verdicts = [v for v in found if v is not None]
    return min(verdicts, key=rank) if verdicts else None


def _gone_named(a: Claim, b: Claim) -> Question | None:
    """One note says a name is gone ("reports-v1 was decommissioned", "we removed
    --legacy-format from exportctl"), the other names it as something that is, about
    what the first says it was gone from if it says, and states no change of its own:
    whether it still exists is asked, never decided."""
    for new_side, old_side in ((b, a), (a, b)):
        if not new_side.says_replaced or old_side.states_change:
            continue
        for slot in new_side.slots:
            gone = slot.replaces
            if gone is None or len(gone.text) < 3:
                continue
            if slot.about and not name_words(slot.about) & name_words(old_side.words):
                continue  # "dropped Datadog for metrics" says nothing of its logs
            if any(s.replaces is not None and s.replaces.text == gone.text for s in old_side.slots):
                continue
            if gone.text in _names_in(old_side.text):
                return Question(a, b, ConflictKind.SLOT, f"whether {gone.text} is still in use")
    return None


@functools.lru_cache(maxsize=1 << 14)
def _names_in(text: str) -> frozenset[str]:
    """The names a text holds as values are written (``parse_value``): each word and
    each two words together, lower case, letters and digits only ("Docker Hub":
    dockerhub)."""
    tokens = [re.sub(r"[^a-z0-9]", "", t) for t in re.findall(r"[\w.+#/-]+", text.lower())]
    tokens = [t for t in tokens if t]
    return frozenset(tokens) | {x + y for x, y in itertools.pairwise(tokens)}


def _moved(a: Claim, b: Claim) -> Question | None:
    """One note says what something was moved to ("We moved CI to GitLab CI"), the other
    names another technology doing a job for that same thing ("CI runs on GitHub
    Actions"): the verbs differ, so only a question."""
    for new_side, old_side in ((b, a), (a, b)):
        for sn in new_side.slots:
            if not sn.changed:
                continue
            for so in old_side.slots:
                if so.value.type is not sn.value.type or not so.named or so.changed:
                    continue
                if not _technology(so):
                    continue
                if compare(so.value, sn.value) is Relation.SAME or compare_names(
                    so.value, sn.value
                ):
                    continue
                # a word in common, names and paths read as their parts ("image storage"
                # moved, "container images are pushed to ..."): only a question
                if name_words(_about(so)) & name_words(sn.about):
                    return Question(
                        a, b, ConflictKind.SLOT, f"what {' '.join(sorted(sn.about))} uses"
                    )
    return None


_POLAR = ("rule ", "is ")  # the attributes of a rule and of a property, read with their polarity
_NOT_TECHNOLOGY = frozenset({"owner", "dropped", "enabled", "required", "allowed", "on call"})


def _about(slot: Slot) -> frozenset[str]:
    """What a slot is about, with the head a copula names ("the CDN is CloudFront")."""
    return slot.about | {slot.attribute} if " " not in slot.attribute else slot.about


def _technology(slot: Slot) -> bool:
    """Whether a slot names what does a job (a technology), not a person or a setting."""
    return not (
        slot.attribute in _NOT_TECHNOLOGY
        or slot.attribute.startswith(("setting ", "does ", "is "))
        or slot.changed
    )


def _replaced(
    a: Claim, b: Claim, sa: Slot, sb: Slot, ambiguous: bool
) -> Conflict | Question | None:
    """One note says the other's value was replaced ("moved to Fly.io instead of
    Heroku" against "deployed to Heroku"): a conflict, whatever verbs they use."""
    for old, new in ((sa, sb), (sb, sa)):
        if new.replaces is None or old.replaces is not None:
            continue
        same = compare(new.replaces, old.value) is Relation.SAME
        if not same and not compare_names(new.replaces, old.value):
            continue
        match = relate_subjects(old, new)
        asked = Question(a, b, ConflictKind.SLOT, f"what replaced {old.value.render()}")
        if match is Match.SIMILAR:
            return asked
        if match in (Match.SAME, Match.AMBIGUOUS):
            scope = ambiguous or match is Match.AMBIGUOUS
            return Conflict(a, b, ConflictKind.SLOT, scope_ambiguous=scope, slot=new.key)
        # the name it replaced, with nothing said of what for, or said of something the
        # two share a word of (names and paths read as their parts): asked. "We dropped
        # Datadog for metrics" says nothing of the logs shipped to it.
        if not new.about or name_words(_about(old)) & name_words(new.about):
            return asked
    return None


def _by_values(a: Claim, b: Claim) -> Question | None:
    """Values of one type that differ, in notes that share most of their words."""
    if not _close(a.words, b.words, 0.5):
        return None
    for sa in a.slots:
        for sb in b.slots:
            differ_both = (sa.qualifiers - sb.qualifiers) and (sb.qualifiers - sa.qualifiers)
            if differ_both or sa.value.type is not sb.value.type:
                continue
            if sa.named and sb.named and sa.attribute == sb.attribute:
                continue  # one attribute: ``relate`` has said they are other subjects
            if sa.named and sb.named and sa.value.type is ValueType.NAME:
                continue  # what does one job and what does another ("written in", "read from")
            if compare(sa.value, sb.value) is Relation.EXCLUSIVE:
                return Question(a, b, ConflictKind.VALUE, f"the {sa.value.type.value}")
    return None


def _close(x: frozenset[str], y: frozenset[str], at_least: float) -> bool:
    union = x | y
    return bool(union) and len(x & y) / len(union) >= at_least


def resolve(conflict: Conflict, rated: Rated, strategy: Strategy = Strategy.DEFAULT) -> Resolution:
    """Decide a conflict, its sides' confidence now being ``rated``: the code's verdict,
    then an explicit correction, then confidence and independent origins, then temporal
    recency; too close: keep both."""
    a, b = conflict.a, conflict.b  # a is the older
    if conflict.scope_ambiguous:
        return Resolution(
            ConflictState.OPEN,
            Rule.SCOPE,
            Outcome.KEPT_BOTH,
            None,
            None,
            ReasonCode.SCOPE_AMBIGUOUS,
        )
    by_code = _by_code(a, b)
    if by_code is not None and by_code.loser is not None:
        if _on_its_slot(conflict, b if by_code.loser == b.id else a):
            return by_code
        # Refuted for another name it holds: the code says nothing of this slot, and the
        # confidence it lowered is no evidence either. Only a stated change decides.
        steps_left: tuple[_Step, ...] = (_by_recency,)
    else:
        steps_left = ()
    for x, y in ((a, b), (b, a)):
        if y.supersedes == x.id:
            return Resolution(
                ConflictState.RESOLVED,
                Rule.EXPLICIT_CORRECTION,
                Outcome.REFUTED,
                y.id,
                x.id,
                ReasonCode.EXPLICIT_CORRECTION,
            )
    steps = (
        steps_left
        or {
            Strategy.DEFAULT: (_by_confidence, _by_recency),
            Strategy.RECENCY_FIRST: (_by_recency, _by_confidence),
            Strategy.CONFIDENCE_FIRST: (_by_confidence,),
        }[strategy]
    )
    for step in steps:
        decided = step(a, b, rated)
        if decided is not None:
            return decided
    return Resolution(
        ConflictState.OPEN, Rule.TOO_CLOSE, Outcome.KEPT_BOTH, None, None, ReasonCode.TOO_CLOSE
    )


_Step = Callable[[Claim, Claim, Rated], "Resolution | None"]


def _on_its_slot(conflict: Conflict, refuted: Claim) -> bool:
    """Whether the code refuted a note on what the conflict is about: every anchor of the
    refuted note names a word of the conflict (its subject, attribute or values). A note
    refuted for an incidental name ("... in docs/old.md", the file gone) says nothing
    of the slot it disagrees on, and must not lose the conflict by the code's verdict."""
    if conflict.kind is ConflictKind.ANCHOR or not refuted.anchors:
        return True
    names = _names(conflict)
    return all(_parts(value) & names for _, value, _, _ in refuted.anchors)


def _names(conflict: Conflict) -> frozenset[str]:
    """The words of what a conflict is about: for a slot, the subject, attribute and values
    of the slots both notes fill; otherwise the words both notes share."""
    a, b = conflict.a, conflict.b
    if conflict.kind is not ConflictKind.SLOT:
        return a.words & b.words
    slots = [s for s in (*a.slots, *b.slots) if s.key == conflict.slot] or [*a.slots, *b.slots]
    found: set[str] = set()
    for slot in slots:
        found |= slot.about | set(slot.attribute.split())
        for value in (slot.value, slot.replaces):
            if value is not None and value.text:
                found |= _parts(value.text)
    return frozenset(found)


def _parts(name: str) -> frozenset[str]:
    """A name as the words it is made of, and whole ("store/cache.py": store, cache, py,
    storecachepy), each as claims compare words (``stem``)."""
    low = name.lower()
    parts = {stem(p) for p in re.split(r"[^a-z0-9]+", low) if p}
    return frozenset(parts | {re.sub(r"[^a-z0-9]", "", low)})


def _by_code(a: Claim, b: Claim) -> Resolution | None:
    for kept, refuted in ((a, b), (b, a)):  # one verified by the code, the other refuted
        if (
            kept.status is Status.VERIFIED
            and refuted.status is Status.REFUTED
            and refuted.refuted_by is RefutedBy.CODE
        ):
            return Resolution(
                ConflictState.RESOLVED,
                Rule.CODE_VERDICT,
                Outcome.REFUTED_BY_CODE,
                kept.id,
                refuted.id,
                ReasonCode.CODE_VERDICT,
            )
    return None


def _by_confidence(a: Claim, b: Claim, rated: Rated) -> Resolution | None:
    if abs(rated.a - rated.b) >= CONFIDENCE_MARGIN:
        win, lose = (a, b) if rated.a > rated.b else (b, a)
        return Resolution(
            ConflictState.RESOLVED,
            Rule.CONFIDENCE,
            Outcome.DEMOTED,
            win.id,
            lose.id,
            ReasonCode.HIGHER_CONFIDENCE,
        )
    if a.origins != b.origins:
        win, lose = (a, b) if a.origins > b.origins else (b, a)
        return Resolution(
            ConflictState.RESOLVED,
            Rule.ORIGINS,
            Outcome.DEMOTED,
            win.id,
            lose.id,
            ReasonCode.MORE_ORIGINS,
        )
    return None


def _by_recency(a: Claim, b: Claim, _rated: Rated) -> Resolution | None:
    # Recency decides a temporal supersession: the newer claim states a change, or the
    # same origin restates its own fact. Otherwise two sources simply disagree.
    same_author = a.origin == b.origin and a.origin not in _ANONYMOUS
    if b.created_at > a.created_at and (b.states_change or same_author):
        return Resolution(
            ConflictState.RESOLVED,
            Rule.RECENCY,
            Outcome.REFUTED,
            b.id,
            a.id,
            ReasonCode.TEMPORAL_SUPERSESSION,
        )
    return None
