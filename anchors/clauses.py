"""Reading each candidate in its clause: a plain statement, negated, hypothetical, someone
else's, or an alternative.

A sentence splits into clauses at commas, dashes and contrasts ("but", "while"); cues from
``anchors.wordlists`` decide a candidate's mode ("we no longer use |redis|", "|X| was
removed", "if we adopted |X|", "my friend's project uses |X|", "chose X over |MySQL|"),
how strongly a negation speaks, whether it stands where a dependency or an import is
named, and whether a qualifier narrows it ("not in production"). A negation covers the
list it opens or closes, across clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anchors.candidates import _I, _Cand, _fold, _Mode, _Neg
from anchors.subject import sentence_spans
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

_CLAUSE_SPLIT = re.compile(
    r"[,:](?=\s)|[()]|\s[-–—]+\s|\s+(?P<contrast>but|while|whereas|although|though|however|"
    r"yet|except|unlike)\s+|\s+(?:because|so)\s+|\s+and\s+(?=(?:now|then|also|we|i|it|they|"
    r"instead|later|still|use[sd]?|using|switched|moved|migrated|adopted|rel(?:y|ies)|"
    r"depends?|imports?|reads?)\b)",
    _I,
)
_HYPO = [re.compile(p, _I) for p in HYPOTHETICAL_CUES]
_OTHER = [re.compile(p, _I) for p in OTHER_PARTY_CUES]
_REMOVAL = [re.compile(p, _I) for p in REMOVAL_CUES]
_USAGE = [re.compile(p, _I) for p in USAGE_NEGATION_CUES]
_REPLACE = [re.compile(p, _I) for p in REPLACEMENT_CUES]
_WEAK = [re.compile(p, _I) for p in WEAK_NEGATION_CUES]
_MARKERS = [re.compile(p, _I) for p in NEGATION_MARKERS]
_POST_REMOVAL = re.compile(POST_REMOVAL, _I)
_POST_UNUSED = re.compile(POST_UNUSED, _I)
_POST_ANYWHERE = re.compile(POST_ANYWHERE, _I)
_SLOT = re.compile(USAGE_SLOT, _I)
_STRONG = re.compile(STRONG_SLOT, _I)
_RUNTIME = re.compile(
    r"\b(?:depends?\s+on|depended\s+on|requires?|required)\s+(?:the\s+)?[`'\"]?$", _I
)
_PREPOSITION = re.compile(
    r"\b(?:by|to|on|in|at|from|with|via|through|into|onto|using|behind|over)\s+"
    r"(?:(?:the|a|an|our|its)\s+)?$", _I
)
_FILL = "|".join(sorted(FILLER_WORDS))
_GAP = re.compile(rf"[\s`'\"“”‘’]*(?:(?:{_FILL})[\s`'\"“”‘’]+)*", _I)
_LIST_GAP = re.compile(
    rf"[\s`'\"“”‘’]*,?\s*(?:and|or|nor|&|plus)\s+(?:(?:{_FILL})\s+)*[`'\"“”‘’]?", _I
)
_REPLACEMENT_SLOT = re.compile(rf"(?:with|by|to|for|in\s+favou?r\s+of)\s+(?:(?:{_FILL})\s+)*$", _I)
_PURE_LIST = re.compile(rf"[\s`'\"“”‘’]*(?:(?:and|or|nor|also|plus|{_FILL})\b[\s`'\"]*)*", _I)
_DEP_AFTER = re.compile(DEP_AFTER, _I)
_DEP_BEFORE = re.compile(DEP_BEFORE, _I)
_IMPORT_AFTER = re.compile(IMPORT_AFTER, _I)
_IMPORT_BEFORE = re.compile(IMPORT_BEFORE, _I)
_DEFINES = re.compile(DEFINES_CUE, _I)
_PARTIAL = re.compile(PARTIAL_QUALIFIER, _I)
_WINDOW = 80
_BE_WORDS = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"})


@dataclass
class _Cue:
    start: int
    end: int
    neg: _Neg
    replacement: bool = False
    targets: bool = True  # False: marks the clause as negated, governs no name


def _cues(low: str, start: int, end: int) -> list[_Cue]:
    cues: list[_Cue] = []
    kinds = ((_REMOVAL, _Neg.REMOVAL, False), (_USAGE, _Neg.USAGE, False),
             (_REPLACE, _Neg.USAGE, True), (_WEAK, _Neg.WEAK, False))  # fmt: skip
    for patterns, neg, repl in kinds:
        for pattern in patterns:
            for m in pattern.finditer(low, start, end):
                if m.group().startswith("used"):
                    before = low[max(start, m.start() - 20) : m.start()].split()
                    if before and before[-1] in _BE_WORDS:
                        continue  # "httpx is used to call the API": present, not the past
                cues.append(_Cue(m.start(), m.end(), neg, repl))
    for pattern in _MARKERS:
        cues.extend(_Cue(m.start(), m.end(), _Neg.WEAK, targets=False)
                    for m in pattern.finditer(low, start, end))  # fmt: skip
    return cues


def _post(text: str) -> _Neg | None:
    """The negation right after a candidate ("X was removed", "X is no longer used")."""
    text = text.lstrip("`'\"“”‘’)")
    if _POST_REMOVAL.match(text):
        return _Neg.REMOVAL
    return _Neg.USAGE if _POST_UNUSED.match(text) else None


def _read_clause(low: str, start: int, end: int, cands: list[_Cand], inherited: _Mode | None,
                 tail: _Cand | None, scoped: bool,
                 own: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Set mode, strength and kind preference on the candidates of one clause."""
    clause = low[start:end]
    if inherited is None and any(p.search(clause) for p in _OTHER):
        inherited = _Mode.OTHER_PARTY
    if inherited is None and any(p.search(clause) for p in _HYPO):
        inherited = _Mode.HYPOTHETICAL
    # "we no longer use redis, memcached or celery": a clause that opens with more names
    # continues the list that ended the clause before it.
    continuing = bool(cands and tail and _PURE_LIST.fullmatch(low, start, cands[0].start))
    if continuing:  # only names, or several joined by and/or, or narrowed ("..., x for y")
        chain = 1
        while chain < len(cands) and _LIST_GAP.fullmatch(low, cands[chain - 1].end,
                                                        cands[chain].start):  # fmt: skip
            chain += 1
        after = low[cands[chain - 1].end : end]
        continuing = chain > 1 or not after.strip(" `'\"") or bool(_PARTIAL.match(after.lstrip()))
    cues = _cues(low, start, end)
    claims = bool(_DEFINES.search(clause))
    replacing = any(q.replacement for q in cues) or "favo" in clause
    previous: _Cand | None = tail if continuing else None
    for c in cands:
        # The words that decide how a name is read stand right next to it; a bounded
        # window keeps a long clause linear.
        window = low[max(start, c.start - _WINDOW) : c.start]
        before = window.rstrip("`'\" ")
        after = low[c.end : min(end, c.end + _WINDOW)]
        c.slot = bool(_SLOT.search(before + " "))
        c.strong = bool(_STRONG.search(before + " "))
        c.runtime = bool(_RUNTIME.search(window))
        c.object = c.slot or bool(_PREPOSITION.search(before + " "))
        c.claimed = claims
        if _DEP_AFTER.match(after) or _DEP_BEFORE.search(window):
            c.pref = "dep"
        elif _IMPORT_AFTER.match(after) or _IMPORT_BEFORE.search(window):
            c.pref = "import"
        listed = previous is not None and (
            (previous is tail and c is cands[0])
            or bool(_LIST_GAP.fullmatch(low, previous.end, c.start))
        )
        if listed and previous is not None:
            c.pref = c.pref or previous.pref
            c.slot = c.slot or previous.slot  # "built on click and zorbcli"
            c.strong = c.strong or previous.strong
            c.object = c.object or previous.object
        if inherited is not None:
            c.mode = inherited
        elif listed and previous is not None and previous.mode in (_Mode.ABSENT, _Mode.UNCLEAR):
            c.mode, c.neg, c.joined = previous.mode, previous.neg, previous
        elif target := next((q for q in cues if q.targets and q.end <= c.start
                             and _GAP.fullmatch(low, q.end, c.start)), None):  # fmt: skip
            c.mode, c.neg = _Mode.ABSENT, target.neg
        elif post := _post(after):
            c.mode, c.neg = _Mode.ABSENT, post
        elif replacing and _REPLACEMENT_SLOT.search(window):
            c.mode = _Mode.PRESENT  # "replaced redis with |duckdb|": the replacement is present
        elif any(q.start < c.start for q in cues):
            c.mode = _Mode.UNCLEAR
        previous = c
    # "redis and memcached were removed": a post-negation covers the list before it.
    for left, right in zip(reversed(cands[:-1]), reversed(cands[1:]), strict=True):
        if (right.mode is _Mode.ABSENT and left.mode is _Mode.PRESENT
                and _LIST_GAP.fullmatch(low, left.end, right.start)
                and _post(low[right.end : min(end, right.end + _WINDOW)])):  # fmt: skip
            left.mode, left.neg, right.joined = _Mode.ABSENT, right.neg, left
    if post_at := [m.start() for m in _POST_ANYWHERE.finditer(low, start, end)]:
        for c in cands:  # "the legacy sqlite3 report was deleted": sqlite3 is not claimed
            if c.mode is _Mode.PRESENT and c.end <= post_at[-1] and not _post(low[c.end : end]):
                c.mode = _Mode.UNCLEAR
    for c in cands:
        if c.mode is _Mode.PRESENT and any(
            at <= c.start and _GAP.fullmatch(low, at, c.start)
            for at in _not_a_use(low, start, end)
        ):
            c.mode = _Mode.NOT_A_USE
        c.reads = bool(_READS.search(clause))
    _narrowed(low, end, cands, scoped, own)


_NOT_A_USE = [re.compile(p, _I) for p in NOT_A_USE_CUES]
_CHOICE = re.compile(
    r"\b(?:chose|choose|chosen|picked|prefer(?:s|red)?|selected|favou?r(?:s|ed)?)\b", _I
)
_OVER = re.compile(r"\bover\s+", _I)
_READS = re.compile(r"\b(?:reads?|loaded|loads?|comes?|taken|pulled|fetched)\b", _I)


def _not_a_use(low: str, start: int, end: int) -> list[int]:
    """Cues after which a name is compared with, not used: "compatible with requests";
    "over" after a choice ("chose PostgreSQL over MySQL")."""
    found = [m.end() for p in _NOT_A_USE for m in p.finditer(low, start, end)]
    if _CHOICE.search(low, start, end):
        found.extend(m.end() for m in _OVER.finditer(low, start, end))
    return found


_NARROW_SUBJECT = re.compile(
    r"^\s*(?:the|our|this|that|its)\s+(?!(?:project|codebase|code|repo|repository|package|"
    r"library|app|application|service|team)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}\s+"
    r"(?:no\s+longer|(?:does|do|did)\s*(?:not|n[’']t)|never|stopped)\b", _I
)


def _narrowed_by_subject(text: str, cands: list[_Cand]) -> None:
    """"The security extra no longer pulls in pyOpenSSL": a negation about one part of the
    project that is no path the code has says nothing about the whole project."""
    for start, end, _question in sentence_spans(text):
        if not _NARROW_SUBJECT.match(text, start, end):
            continue
        for c in cands:
            if start <= c.start < end and c.mode is _Mode.ABSENT:
                c.mode = _Mode.UNCLEAR


_PLACES = frozenset({"from", "in", "inside", "within", "outside", "except", "only", "on"})


def _names_the_project(low: str, at: int, own: frozenset[str]) -> bool:
    words = low[at : at + 60].split()
    if words[:1] == ["the"]:
        words = words[1:]
    return bool(words) and words[0].strip("`'\".,;") in own


def _narrowed(low: str, end: int, cands: list[_Cand], scoped: bool,
              own: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Negations narrowed by a qualifier after them become unclear: "we don't use redis in
    production" says nothing about the repository. With a scope, "in/from the billing
    module" is the scope itself, not a narrowing."""
    run: list[_Cand] = []
    for i, c in enumerate(cands):
        if c.mode is not _Mode.ABSENT:
            run = []
            continue
        run.append(c)
        nxt = cands[i + 1] if i + 1 < len(cands) else None
        if nxt and nxt.mode is _Mode.ABSENT and _LIST_GAP.fullmatch(low, c.end, nxt.start):
            continue  # the list goes on; the qualifier after its last item covers it all
        for m in _PARTIAL.finditer(low, c.end, min(end, c.end + _WINDOW)):
            if _names_the_project(low, m.end(), own):
                continue  # "certifi was dropped from requests": the whole project
            if c.neg is _Neg.REMOVAL and m.group("q") not in _PLACES:
                continue  # "X was deleted when ...": gone is gone, whatever the reason
            if not (scoped and m.group("q") in ("in", "inside", "within", "from")):
                item: _Cand | None = c
                while item is not None:  # back through the list, across clauses
                    item.mode, item = _Mode.UNCLEAR, item.joined
                break
        run = []


def _read_modes(text: str, cands: list[_Cand], scoped: bool,
                own: frozenset[str] = frozenset()) -> None:  # fmt: skip
    low = _fold(text)
    for s_start, s_end, question in sentence_spans(text):
        opening = re.match(r"[\s`'\"“”‘’(*-]*", text[s_start:s_end])
        first = s_start + (opening.end() if opening else 0)
        for c in cands:
            c.initial = c.initial or c.start == first
        bounds: list[tuple[int, int, bool]] = []
        pos, contrast = s_start, False
        for m in _CLAUSE_SPLIT.finditer(text, s_start, s_end):
            bounds.append((pos, m.start(), contrast))
            pos, contrast = m.end(), bool(m.group("contrast"))
        bounds.append((pos, s_end, contrast))
        carried: _Mode | None = _Mode.HYPOTHETICAL if question else None
        tail: _Cand | None = None
        for start, end, contrast in bounds:
            inside = [c for c in cands if start <= c.start < end]
            if contrast and not question:
                carried = None
            if carried is _Mode.OTHER_PARTY and re.match(r"\s*(?:we|our|i|us)\b", low[start:end]):
                carried = None  # "my friend's project uses redis, and we use duckdb"
            _read_clause(low, start, end, inside, carried, tail, scoped, own)
            for c in inside:
                if c.mode in (_Mode.HYPOTHETICAL, _Mode.OTHER_PARTY):
                    carried = c.mode
            if inside:
                tail = inside[-1]
            if carried is None and any(p.search(low, start, end) for p in _OTHER):
                carried = _Mode.OTHER_PARTY
            elif carried is None and any(p.search(low, start, end) for p in _HYPO):
                carried = _Mode.HYPOTHETICAL

