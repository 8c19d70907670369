"""The cue patterns ``anchors.clauses`` matches against lower-cased prose, compiled twice.

Every cue is matched against the text lower-cased (``candidates._fold``) and written in
lower case, so ``IGNORECASE`` only matters for four characters a case-blind pattern of
lower-case ASCII letters also matches: ``İ`` and ``ı`` (for ``i``), ``ſ`` (for ``s``) and
the Kelvin sign (for ``k``). On any other text it changes nothing, and costs two to four
times the time of a case-sensitive match (adr/0020). ``CUES[True]`` holds the
case-sensitive patterns, used when ``case_safe(low)``; ``CUES[False]`` the case-blind ones.
Tests check that every source compiled here could be compiled case-sensitively (no
upper-case letter, no cased non-ASCII letter), that both give the same matches on such
text, and that no other character folds to an ASCII letter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from anchors.at_end import AtEnd, AtEndAll
from anchors.needles import ASCII_FOLDS, alternation, needles
from anchors.wordlists import (
    DEFINES_CUE,
    DEP_AFTER,
    DEP_BEFORE,
    FILLER_WORDS,
    HYPOTHETICAL_CUES,
    IMPORT_AFTER,
    IMPORT_BEFORE,
    NEGATION_MARKERS,
    NOT_A_USE_CUES,
    OTHER_PARTY_CUES,
    PARTIAL_QUALIFIER,
    POST_ANYWHERE,
    POST_REMOVAL,
    POST_UNUSED,
    REMOVAL_CUES,
    REPLACEMENT_CUES,
    STRONG_SLOT,
    USAGE_NEGATION_CUES,
    USAGE_SLOT,
    WEAK_NEGATION_CUES,
)

__all__ = ["CUES", "SOURCES", "Cues", "Listed", "any_of", "case_safe"]

_FILL = "|".join(sorted(FILLER_WORDS))


def any_of(sources: tuple[str, ...]) -> str:
    """One pattern matching wherever one of ``sources`` matches: searching it finds a match
    exactly when searching any of them would."""
    return "|".join(f"(?:{source})" for source in sources)


# name -> source; a tuple is a list of cues whose matches are each kept, in order.
SOURCES: dict[str, str | tuple[str, ...]] = {
    "other_party": any_of(OTHER_PARTY_CUES),
    "hypothetical": any_of(HYPOTHETICAL_CUES),
    "removal": REMOVAL_CUES,
    "usage": USAGE_NEGATION_CUES,
    "replace": REPLACEMENT_CUES,
    "weak": WEAK_NEGATION_CUES,
    "markers": NEGATION_MARKERS,
    "not_a_use": NOT_A_USE_CUES,
    # Right after a name, removal first: a match says which by the group it took.
    "post": f"(?P<removal>{POST_REMOVAL})|(?P<unused>{POST_UNUSED})",
    "post_anywhere": POST_ANYWHERE,
    "slot": USAGE_SLOT,
    "strong": STRONG_SLOT,
    "runtime": r"\b(?:depends?\s+on|depended\s+on|requires?|required)\s+(?:the\s+)?[`'\"]?$",
    "preposition": (
        r"\b(?:by|to|on|in|at|from|with|via|through|into|onto|using|behind|over)\s+"
        r"(?:(?:the|a|an|our|its)\s+)?$"
    ),
    "gap": rf"[\s`'\"“”‘’]*(?:(?:{_FILL})[\s`'\"“”‘’]+)*",
    "list_gap": rf"[\s`'\"“”‘’]*,?\s*(?:and|or|nor|&|plus)\s+(?:(?:{_FILL})\s+)*[`'\"“”‘’]?",
    "replacement_slot": rf"(?:with|by|to|for|in\s+favou?r\s+of)\s+(?:(?:{_FILL})\s+)*$",
    "pure_list": rf"[\s`'\"“”‘’]*(?:(?:and|or|nor|also|plus|{_FILL})\b[\s`'\"]*)*",
    "dep_after": DEP_AFTER,
    "dep_before": DEP_BEFORE,
    "import_after": IMPORT_AFTER,
    "import_before": IMPORT_BEFORE,
    "defines": DEFINES_CUE,
    "partial": PARTIAL_QUALIFIER,
    "choice": r"\b(?:chose|choose|chosen|picked|prefer(?:s|red)?|selected|favou?r(?:s|ed)?)\b",
    "over": r"\bover\s+",
    "reads": r"\b(?:reads?|loaded|loads?|comes?|taken|pulled|fetched)\b",
}


# Cues that end where their text ends (``anchors.at_end``): those before a name are asked
# together, of the words before it (``before``: closing quotes and spaces taken off, one
# space put back) and of the plain window before it (``window``).
_BEFORE = ("slot", "strong", "preposition")
_WINDOW = ("runtime", "dep_before", "import_before")
_AT_END = frozenset({"replacement_slot"})
# Families of cues a clause is searched for together, and the hint that finds the needles
# of all of them (``anchors.needles``): a clause without any has none of those cues.
_FAMILIES = {
    "negation_hint": ("removal", "usage", "replace", "weak", "markers"),
    "not_a_use_hint": ("not_a_use", "choice"),
    "party_hint": ("other_party", "hypothetical"),
}


def _hint(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """One search for every needle of the cues named (case-sensitive: for case-safe text);
    None when one of them has no needles."""
    found: set[str] = set()
    for name in names:
        source = SOURCES[name]
        for one in source if isinstance(source, tuple) else (source,):
            some = needles(one)
            if some is None:
                return None
            found |= some
    return re.compile(alternation(found))


@dataclass(frozen=True, slots=True)
class Listed:
    """One cue of a list, whose every match is kept: its pattern and, for case-safe text, the
    needles one of which each match holds (None: search it anyway)."""

    pattern: re.Pattern[str]
    needles: tuple[str, ...] | None

    @classmethod
    def compiled(cls, source: str, sensitive: bool) -> Listed:
        found = needles(source) if sensitive else None
        return cls(re.compile(source, 0 if sensitive else re.IGNORECASE),
                   tuple(sorted(found)) if found is not None else None)  # fmt: skip

    def absent_from(self, clause: str) -> bool:
        """Whether ``clause`` holds none of the needles, so that the cue cannot be there."""
        return self.needles is not None and not any(map(clause.__contains__, self.needles))


@dataclass(frozen=True, slots=True)
class Cues:
    """The compiled cue patterns, for case-safe text (case-sensitive) or any (case-blind);
    fields are named as in ``SOURCES``, a list of cues is a tuple of ``Listed``, cues ending
    where their text ends are an ``AtEnd`` or, asked together, an ``AtEndAll``. On
    case-safe text, a ``*_hint`` that finds nothing in a clause says that no cue of its family is
    there (``_FAMILIES``)."""

    other_party: re.Pattern[str]
    hypothetical: re.Pattern[str]
    removal: tuple[Listed, ...]
    usage: tuple[Listed, ...]
    replace: tuple[Listed, ...]
    weak: tuple[Listed, ...]
    markers: tuple[Listed, ...]
    not_a_use: tuple[Listed, ...]
    post: re.Pattern[str]
    post_anywhere: re.Pattern[str]
    before: AtEndAll  # slot, strong, preposition
    window: AtEndAll  # runtime, dep_before, import_before
    gap: re.Pattern[str]
    list_gap: re.Pattern[str]
    replacement_slot: AtEnd
    pure_list: re.Pattern[str]
    dep_after: re.Pattern[str]
    import_after: re.Pattern[str]
    defines: re.Pattern[str]
    partial: re.Pattern[str]
    choice: re.Pattern[str]
    over: re.Pattern[str]
    reads: re.Pattern[str]
    negation_hint: re.Pattern[str] | None
    not_a_use_hint: re.Pattern[str] | None
    party_hint: re.Pattern[str] | None

    @classmethod
    def compiled(cls, sensitive: bool) -> Cues:
        """Every pattern of ``SOURCES``, case-sensitive (for case-safe text) or
        case-blind."""
        flags = 0 if sensitive else re.IGNORECASE
        made: dict[str, Any] = {}
        for name, source in SOURCES.items():
            if name in _BEFORE or name in _WINDOW:
                continue  # asked together, below
            if isinstance(source, tuple):
                made[name] = tuple(Listed.compiled(one, sensitive) for one in source)
            elif name in _AT_END:
                made[name] = AtEnd.compiled(source, flags)
            else:
                made[name] = re.compile(source, flags)
        for name, together in (("before", _BEFORE), ("window", _WINDOW)):
            made[name] = AtEndAll.compiled(tuple(str(SOURCES[n]) for n in together), flags)
        for name, family in _FAMILIES.items():
            made[name] = _hint(family) if sensitive else None
        return cls(**made)


class _ByCase(Mapping[bool, Cues]):
    """Each set compiled when a text first asks for it: most notes are case-safe, and a
    process that reads none compiles neither."""

    def __init__(self) -> None:
        self._made: dict[bool, Cues] = {}

    def __getitem__(self, sensitive: bool) -> Cues:
        made = self._made.get(sensitive)
        if made is None:
            made = self._made[sensitive] = Cues.compiled(sensitive=bool(sensitive))
        return made

    def __iter__(self) -> Iterator[bool]:
        return iter((True, False))

    def __len__(self) -> int:
        return 2


# By ``case_safe(low)`` of the lower-cased text the patterns are matched against.
CUES: Mapping[bool, Cues] = _ByCase()
# The characters besides the ASCII letters that a case-blind [a-z] matches (a test checks
# every code point).
FOLDS_TO_ASCII = "".join(ASCII_FOLDS)
_FOLDING = re.compile(f"[{FOLDS_TO_ASCII}]")


def case_safe(low: str) -> bool:
    """Whether the case-sensitive cues find in ``low`` (lower-cased text) what the
    case-blind ones find: it has none of the ``FOLDS_TO_ASCII``."""
    return low.isascii() or _FOLDING.search(low) is None
