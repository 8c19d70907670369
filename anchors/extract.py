"""Anchors inferred from memory text, kept only when they resolve unambiguously.

A wrong anchor is worse than none: a present anchor that does not hold refutes a true
memory, and a negated fact stored as its positive is precisely inverted. So every candidate
is read in its clause (negated, hypothetical, someone else's, or a plain statement);
present anchors must resolve against the fingerprint, while absent ones ("we no longer use
redis") are kept unresolved, because absence is the claim.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum

from anchors.codenames import CodeNames, DropReason, Outcome, Pref
from anchors.facts import Fingerprint
from anchors.mentions import in_area, tool_area
from anchors.spec import (
    Anchor,
    AnchorKind,
    AnchorSyntaxError,
    Expect,
    normalize_dist_name,
    parse_anchor,
)
from anchors.subject import resolve_name, resolve_subject, sentence_spans
from anchors.versions import poetry_to_pep440
from anchors.vocabulary import TechKind, Technology, lookup
from anchors.wordlists import (
    COMMON_WORDS,
    DEFINES_CUE,
    DEP_AFTER,
    DEP_BEFORE,
    FILLER_WORDS,
    FUNCTION_WORDS,
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

__all__ = ["DropReason", "DroppedCandidate", "Inference", "infer_anchors"]


@dataclass(frozen=True)
class DroppedCandidate:
    """A candidate from the text that is not an anchor: ``reason`` is a stable code,
    ``detail`` a sentence for people."""

    candidate: str
    reason: DropReason
    detail: str


@dataclass(frozen=True)
class Inference:
    """What the text anchors: ``anchors`` (scope applied), what was left out and why, the
    memory's ``scope``, and ``origins[i]``, the text ``anchors[i]`` was read from."""

    anchors: tuple[Anchor, ...]
    dropped: tuple[DroppedCandidate, ...]
    scope: str | None
    origins: tuple[str, ...] = ()
    # What the note asserts that no anchor covers (a name neither the vocabulary nor the
    # code knows, code found nowhere): such a note is never VERIFIED, only not contradicted.
    uncovered: tuple[str, ...] = ()


class _Form(Enum):
    TECH = "technology"  # a multi-word name from the vocabulary ("HashiCorp Vault")
    IMPORT = "import phrase"
    PATH_SYMBOL = "path::symbol"
    PATH = "path"
    UNSAFE_PATH = "unsafe path"
    DOTTED = "dotted name"
    CALL = "call"
    ENV = "env name"
    WORD = "word"


class _Neg(Enum):
    """How strongly a negation speaks: what kinds of anchor it may negate."""

    REMOVAL = "removal"  # "X was removed": gone, whatever X is
    USAGE = "usage"  # "we no longer use X": an import, dependency or env read
    WEAK = "weak"  # "not X", "no X", "without X": package names only


class _Mode(Enum):
    PRESENT = "present"
    ABSENT = "absent"
    HYPOTHETICAL = "hypothetical"
    OTHER_PARTY = "other_party"
    UNCLEAR = "unclear"
    NOT_A_USE = "not_a_use"  # an alternative or a comparison: "over MySQL", "unlike requests"


@dataclass
class _Cand:
    start: int
    end: int
    text: str
    form: _Form
    code: bool = False
    mode: _Mode = _Mode.PRESENT
    neg: _Neg = _Neg.USAGE
    pref: Pref = None
    slot: bool = False  # stands where a dependency is named ("we use |X")
    strong: bool = False  # ... by a verb of use, not just "with"/"via" ("built on |X")
    ticked: bool = False  # written in backticks
    claimed: bool = False  # its clause says the scope defines it ("billing defines X")
    joined: _Cand | None = None  # the list item before it, when a negation covers a list
    tech: Technology | None = None  # the technology a (multi-word) name is, if any
    common: bool = False  # that name is also an ordinary English word ("click", "rich")
    reads: bool = False  # its clause says the code reads it ("reads X from ENV_NAME")
    initial: bool = False  # it opens its sentence (a capital there says nothing)
    object: bool = False  # it follows a usage verb or a preposition ("by a |Jenkins| job")
    runtime: bool = False  # "depends on |X|", "requires |X|": a dependency at run time


# -- scanning ----------------------------------------------------------------------------
_I = re.IGNORECASE
_LOOKALIKE = "\uff0f\u2215\u2044\u29f8\u2024\u2025\ufe52\uff0e\uff3c\u2216"
_PCH = rf"[A-Za-z0-9_.%~\-{_LOOKALIKE}]"
_EXT = r"(?:py|pyi|toml|cfg|ini|txt|md|rst|json|ya?ml|lock|example|sample|template|sql|sh|in|typed)"
# Repetitions are bounded so that no pattern is quadratic on a pathological memory.
_SCANNERS: tuple[tuple[_Form | None, re.Pattern[str]], ...] = (
    (None, re.compile(r"\b[a-z][a-z0-9+.-]{0,20}://\S+|\bwww\.\S+", _I)),
    (_Form.IMPORT, re.compile(
        r"\bfrom\s+(?P<v>[A-Za-z_][\w.]{0,200}\w)\s+import\s+[\w*]+"
        r"|\bimport\s+(?P<w>[A-Za-z_][\w.]{0,200}\w)", re.ASCII)),
    (_Form.PATH_SYMBOL, re.compile(
        rf"(?<![\w./-]){_PCH}{{0,100}}(?:/{_PCH}{{1,100}}){{0,20}}::[A-Za-z_]\w*"
        r"(?:\.[A-Za-z_]\w*){0,20}", re.ASCII)),
    (_Form.UNSAFE_PATH, re.compile(r"(?<![\w\\])(?:[A-Za-z]:)?[\w.-]{0,100}(?:\\[\w.-]{1,100})+")),
    (_Form.PATH, re.compile(
        rf"(?<![\w./\\~%-])(?:[~/]|\.{{1,2}}/)?(?:{_PCH}{{1,100}}[/{_LOOKALIKE[:4]}]){{1,30}}"
        rf"{_PCH}{{0,100}}", re.ASCII)),
    (_Form.PATH, re.compile(
        rf"(?<![\w./-])\.?[\w-]{{1,100}}(?:\.[\w-]{{1,100}}){{0,10}}\.{_EXT}(?![\w/(]|\.\w)",
        re.ASCII)),
    (_Form.CALL, re.compile(r"(?<![\w./-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,20}\(\)", re.ASCII)),
    (_Form.DOTTED, re.compile(r"(?<![\w./-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,20}", re.ASCII)),
    (_Form.ENV, re.compile(r"(?<![\w.])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w|\.\w)", re.ASCII)),
    (_Form.WORD, re.compile(r"(?<![\w./-])[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*(?![\w/])",
                            re.ASCII)),
)  # fmt: skip


def _fold(text: str) -> str:
    """Lower case without changing length, so positions stay aligned with ``text``."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _is_camel(word: str) -> bool:
    """"PreparedRequest", "HTTPAdapter", "getLogger": a capital inside a word that also has
    lower-case letters is code, not prose ("Django" and "NASA" are not)."""
    return word.isalnum() and any(c.islower() for c in word) and any(c.isupper() for c in word[1:])


_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9+]*(?:[-.][A-Za-z0-9]+)*", re.ASCII)


def _multiword(text: str, taken: list[bool], found: list[_Cand]) -> None:
    """Technologies named by several words ("HashiCorp Vault", "GitHub Actions")."""
    words = list(_WORDS.finditer(text))
    tokens = [m.group() for m in words]
    i = 0
    while i < len(words):
        hit = lookup(tokens, i)
        if hit is not None and hit[1] > 1:
            start, end = words[i].start(), words[i + hit[1] - 1].end()
            joined = all(text[words[j].end() : words[j + 1].start()] == " "
                         for j in range(i, i + hit[1] - 1))  # fmt: skip
            if joined and not any(taken[start:end]):
                taken[start:end] = [True] * (end - start)
                proper = all(tokens[j][:1].isupper() for j in range(i, i + hit[1]))
                found.append(_Cand(start, end, text[start:end], _Form.TECH, tech=hit[0],
                                   common=hit[2] and not proper))  # fmt: skip
                i += hit[1]
                continue
        i += 1


def _scan(text: str) -> list[_Cand]:
    taken = [False] * len(text)
    spans = [m.span(1) for m in re.finditer(r"`([^`\n]+)`", text)]
    found: list[_Cand] = []
    for form, pattern in _SCANNERS:
        if form is _Form.WORD:
            _multiword(text, taken, found)
        for m in pattern.finditer(text):
            start, end = m.span()
            if any(taken[start:end]):
                continue
            taken[start:end] = [True] * (end - start)
            if form is None:
                continue
            if form is _Form.WORD and (len(m.group()) < 2 or m.group().lower() in FUNCTION_WORDS
                                       or text[start - 1 : start] in ("'", "’")):  # fmt: skip
                continue  # "and", "not", the "re" of "we're"
            value = m.group()
            if form is _Form.IMPORT:
                value = m.group("v") or m.group("w")
                start, end = m.span("v") if m.group("v") else m.span("w")
            elif form in (_Form.PATH, _Form.PATH_SYMBOL, _Form.DOTTED):
                value = value.rstrip(".")
            # A snake_case identifier is code even without backticks: "compute_discount"
            # names a definition (or a variable) — never an English word.
            code = any(a <= start and end <= b for a, b in spans) or bool(
                form is _Form.WORD and (_SNAKE.fullmatch(value) or _is_camel(value))
            )
            ticked = any(a <= start and end <= b for a, b in spans)
            found.append(_Cand(start, start + len(value), value, form, code, ticked=ticked))
    return sorted(found, key=lambda c: c.start)


# -- reading the clauses -----------------------------------------------------------------
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


# -- resolving ---------------------------------------------------------------------------
_MODE_DROP = {
    _Mode.HYPOTHETICAL: (DropReason.HYPOTHETICAL, "stated as a plan, question or condition"),
    _Mode.OTHER_PARTY: (DropReason.OTHER_PARTY, "about someone else's code"),
    _Mode.UNCLEAR: (DropReason.UNCLEAR_POLARITY, "negated clause, not plainly what it negates"),
    _Mode.NOT_A_USE: (DropReason.NOT_A_USE, "named as an alternative or a comparison, not a use"),
}


def _resolve(c: _Cand, names: CodeNames, fp: Fingerprint, absent: bool) -> Outcome:
    text = c.text
    removal = c.neg is _Neg.REMOVAL
    if c.form is _Form.UNSAFE_PATH:
        return DropReason.UNSAFE, "backslash paths are not repository paths"
    if absent and not removal and c.form in (_Form.PATH, _Form.PATH_SYMBOL):
        # "we no longer use auth/legacy.py" does not say the file is gone.
        return DropReason.UNCLEAR_POLARITY, "only removal ('X was deleted') negates a path"
    if absent and c.neg is _Neg.WEAK and c.form is _Form.ENV:
        # "starts without DATABASE_URL" does not say the code never reads it.
        return DropReason.UNCLEAR_POLARITY, "'no/not/without' negates only package names"
    if c.form is _Form.IMPORT:
        return names.import_phrase(text, absent)
    if c.form is _Form.PATH_SYMBOL:
        return names.path_symbol(text, absent)
    if c.form is _Form.PATH:
        return names.path(text, absent, code=c.code)
    if c.form is _Form.ENV or (c.form is _Form.WORD and text.isupper() and text in fp.env_names()):
        return names.env(text, absent, claimed=c.reads)
    if c.form is _Form.TECH and c.tech is not None:
        return _technology(c, c.tech, names, absent)
    if c.form in (_Form.DOTTED, _Form.CALL):
        name = text.removesuffix("()")
        if absent:
            return names.absent_dotted(name, removal)
        if "." in name:
            found = names.dotted(name, claimed=c.claimed, loose=True)
            sure = c.code or c.form is _Form.CALL or name != name.lower() or "_" in name
            if sure and isinstance(found, tuple):
                return names.missing_in_scope(name, names.missing_member(name))
            return found
        return names.missing_in_scope(name, names.symbol(name, claimed=c.claimed))
    if c.code and c.pref == "import" and re.fullmatch(r"[A-Za-z_]\w*", text):
        return [names.import_claim(text, absent)]  # "imports pallets_sphinx_themes"
    if c.code and text not in COMMON_WORDS:  # `verify`, `Store`: code, maybe a symbol
        found = names.symbol(text, claimed=c.claimed and not absent)
        if absent and isinstance(found, list) and not removal:
            return DropReason.UNCLEAR_POLARITY, "only removal negates a definition"
        if isinstance(found, list) or found[0] is not DropReason.UNRESOLVED:
            return [a.negated() for a in found] if absent and isinstance(found, list) else found
        if not absent and _SNAKE.fullmatch(text):
            return names.missing_in_scope(text, found)
    outcome = _word(c, text, names, absent)
    head = text.split("-", 1)[0]
    if "-" in text and isinstance(outcome, tuple) and len(head) > 2 and c.tech is None:
        # "a duckdb-backed store": the compound names duckdb.
        outcome = _word(c, head, names, absent)
    return outcome


def _technology(c: _Cand, tech: Technology, names: CodeNames, absent: bool) -> Outcome:
    if names.own_package(tech):
        return DropReason.OWN_PACKAGE, f"{tech.display} is this repository's own package"
    word = c.text.lower()
    if tech.kind is TechKind.PACKAGE and c.text.isupper() and len(c.text) > 1 and not c.pref:
        # "PBKDF2", "JSON", "ORM": an acronym names an algorithm or a format, not a package
        return DropReason.COMMON_WORD, f"{c.text!r} is an acronym, not a package name"
    by_import = (tech.kind is TechKind.PACKAGE and word in tech.imports
                 and normalize_dist_name(word) not in tech.dists)  # fmt: skip
    proper = c.text[:1].isupper() and not c.initial  # "payments go through Stripe"
    if (c.common or by_import) and not (c.strong or (c.object and proper) or c.code or c.pref
                                        or absent):  # fmt: skip
        detail = (f"{c.text!r} is an ordinary word as well as {tech.display}; write it in "
                  "backticks, say 'the X package', or pass an anchor")  # fmt: skip
        return DropReason.COMMON_WORD, detail
    return names.technology(tech, c.text, absent, c.pref)


def _word(c: _Cand, text: str, names: CodeNames, absent: bool) -> Outcome:
    """A single word: a technology from the vocabulary, an ordinary word (never an anchor),
    or a name the repository may know (an import or dependency it has)."""
    if text[:1].isupper() and names.fp.has_path(text):
        return [Anchor(AnchorKind.FILE, text)]  # "Dockerfile", "Makefile": a root file
    hit = lookup([text])
    if hit is not None and c.tech is None:
        c.tech, c.common = hit[0], hit[2]
        return _technology(c, hit[0], names, absent)
    w = text.lower()
    if c.claimed and not absent and text[:1].isupper() and names.defined_in_scope(text):
        return [Anchor(AnchorKind.SYMBOL, text, scope=names.scope)]  # "models defines Request"
    if names.is_ordinary(w) and c.pref is None and not c.code:
        return DropReason.COMMON_WORD, f"{w!r} is an ordinary word, not a named thing"
    outcome = names.absent_word(text, c.pref) if absent else names.word(text, c.pref)
    if absent or not isinstance(outcome, tuple) or outcome[0] is not DropReason.UNRESOLVED:
        return outcome
    if names.is_stdlib(w) and c.pref != "dep":
        return [names.module_claim(w)]  # a standard-library module the code never imports
    # Only a name written like a package can be an untyped technology: "PBKDF2", "HS256"
    # and other acronyms are algorithms and formats, not things the code imports.
    if (c.slot and re.fullmatch(r"[a-z][a-z0-9._-]*[a-z0-9]", w) and w not in names.first_party
            and not text.isupper()):  # fmt: skip
        detail = (f"{text!r} looks like a technology but is neither in the vocabulary nor in "
                  "the repository: pass an anchor (e.g. tech:NAME or dep:NAME)")  # fmt: skip
        return DropReason.UNTYPED, detail
    return outcome


def _touches_control(text: str, c: _Cand) -> bool:
    around = text[max(c.start - 1, 0) : c.start] + text[c.end : c.end + 1]
    return any((ord(ch) < 0x20 and ch not in "\t\n\r") or ord(ch) == 0x7F for ch in around)


def infer_anchors(text: str, fp: Fingerprint, subject: str | None = None) -> Inference:
    """Anchors a memory's ``text`` supports against ``fp``, and what was left out and why.

    Candidates are code spans, paths, ``path::Qual``, dotted names, ``import`` phrases,
    ALL_CAPS env names and package-like words. A present anchor is kept only when it
    resolves unambiguously; a negated one ("we no longer use redis", "X was removed") is
    kept as an absent anchor even if the code never mentions it. Plans, questions and
    other people's code yield nothing. With a scope (from ``subject`` or the text), import
    anchors are claimed for it: ``import:sqlite3@app/billing.py``, which the verifier
    breaks if only another file imports sqlite3.
    """
    scope = resolve_subject(subject, text, fp)
    names = CodeNames(fp, scope)
    dropped: list[DroppedCandidate] = []
    if subject is not None and subject.strip():
        named = resolve_name(subject, fp)
        if named is None or named != scope:
            detail = "the subject names no single Python file, directory or module"
            dropped.append(DroppedCandidate(subject, DropReason.UNRESOLVED, detail))
    cands = _scan(text)
    _read_modes(text, cands, scope is not None, frozenset(names.first_party))
    if scope is None:
        _narrowed_by_subject(text, cands)
    kept: list[tuple[Anchor, str]] = []
    uncovered: list[str] = []
    for c in cands:
        # Prose is full of words; only those that stand where a package is named, are code,
        # or name a known module are worth reporting when they are left out.
        salient = (c.form is not _Form.WORD or c.code or names.known(c.text)
                   or (c.slot and c.text.lower() not in COMMON_WORDS))  # fmt: skip
        if _touches_control(text, c):
            detail = "next to a control character"
            dropped.append(DroppedCandidate(c.text, DropReason.UNSAFE, detail))
            continue
        python = _python_claim(text, c) if c.form is _Form.WORD else None
        if c.mode in _MODE_DROP and not python:
            resolves = isinstance(_resolve(c, names, fp, absent=False), list)
            if salient or resolves:
                dropped.append(DroppedCandidate(c.text, *_MODE_DROP[c.mode]))
            continue
        outcome = python or _resolve(c, names, fp, absent=c.mode is _Mode.ABSENT)
        if isinstance(outcome, tuple):
            if salient or outcome[0] in _ALWAYS_REPORTED or c.tech is not None:
                dropped.append(DroppedCandidate(c.text, *outcome))
            if c.mode is _Mode.PRESENT and _uncovered(c, outcome[0]):
                uncovered.append(c.text)
            continue
        if c.runtime and c.mode is _Mode.PRESENT and _development_only(outcome, fp, scope):
            uncovered.append(f"{c.text} (declared for development only)")
        spec = (_version_after(text, c.end)
                if c.form in (_Form.WORD, _Form.TECH) and not python else None)  # fmt: skip
        if spec is not None and c.mode is _Mode.PRESENT:
            outcome = _with_version(outcome, spec, c) if spec else outcome
            exact = _EXACT_VERSION.match(text, c.end) is not None
            if exact or not any(a.version for a in outcome):
                # "the requirement is ^2.6.0" states the spec itself: a narrower declaration
                # satisfies the anchor without making the sentence true, so never VERIFIED
                uncovered.append(f"{c.text} {spec or 'version'}")
        for anchor in outcome:
            try:  # the parser is the one gate every anchor passes, inferred ones included
                kept.append((parse_anchor(anchor.render()), c.text))
            except AnchorSyntaxError as exc:
                dropped.append(DroppedCandidate(c.text, DropReason.UNSAFE, str(exc)))
    settled = _settle(kept, dropped, scope)
    return dataclasses.replace(settled, uncovered=tuple(dict.fromkeys(uncovered)))


_OP = r"(?:===|==|~=|!=|<=|>=|<|>)"
_SPEC_AFTER = re.compile(rf"\s*(?P<spec>{_OP}\s*v?\d[\w.*+!-]*(?:\s*,\s*{_OP}\s*v?\d[\w.*+!-]*)*)")
_WORDED = (
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:below|under|before|older\s+than)\s+v?(\d[\w.]*)",
                _I), "<"),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:above|after|newer\s+than)\s+v?(\d[\w.]*)",
                _I), ">"),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:at\s+least|from)\s+v?(\d[\w.]*)", _I), ">="),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:at\s+most|up\s+to)\s+v?(\d[\w.]*)", _I), "<="),
    (re.compile(r"\s+v?(\d[\w.]*)\s+or\s+(?:newer|later|higher|above|up)\b", _I), ">="),
    (re.compile(r"\s+(?:is\s+)?pinned\s+(?:to|at)\s+v?(\d[\w.]*)", _I), "=="),
)  # fmt: skip


_POETRY_AFTER = re.compile(
    r"\s+(?:requirement|dependency|pin|version|constraint)?\s*(?:is|of|at|=)?\s*`?"
    r"(?P<spec>[\^~]\s*\d[\w.*]*)", _I
)


_EXACT_VERSION = re.compile(
    r"\s+(?:requirement|dependency|pin|version|constraint)?\s*(?:is|=)?\s*`?[\^~]"
    r"|\s+(?:is\s+)?pinned\s+(?:to|at)\b", _I
)


def _version_after(text: str, at: int) -> str | None:
    """A version constraint stated right after a package name: ``httpx>=0.27``, Poetry's
    ``^2.6.0`` ("the pygments requirement is ^2.6.0"), or in words ("idna is pinned below 3",
    "pytest 8 or newer"), as a PEP 440 specifier."""
    m = _SPEC_AFTER.match(text, at)
    if m:
        return re.sub(r"\s+", "", m.group("spec"))
    p = _POETRY_AFTER.match(text, at)
    if p:
        return poetry_to_pep440(re.sub(r"\s+", "", p.group("spec")).rstrip(".")) or ""
    for pattern, op in _WORDED:
        w = pattern.match(text, at)
        if w:
            return f"{op}{w.group(1).rstrip('.').removesuffix('.x')}"
    return None


def _with_version(outcome: list[Anchor], spec: str, c: _Cand) -> list[Anchor]:
    """The claim is about the declared version: the package's dependency anchor with it."""
    out = []
    for anchor in outcome:
        if anchor.kind is AnchorKind.DEP:
            out.append(dataclasses.replace(anchor, version=spec))
        elif anchor.kind is AnchorKind.TECH and c.tech is not None and c.tech.dists:
            out.append(Anchor(AnchorKind.DEP, c.tech.dists[0], version=spec))
        else:
            out.append(anchor)
    return out


_BARE_VERSION = re.compile(r"\s+v?(?P<v>\d+(?:\.\d+){0,2})(?P<plus>\+)?(?!\w|\.\d)")
_DROPPED_SUPPORT = re.compile(
    r"\b(?:dropped|removed|ended|no\s+longer|(?:does|do)\s*(?:not|n[’']t))\s+(?:\w+\s+){0,2}"
    r"support|\bsupport\b[^.;]{0,30}\b(?:was|is|has\s+been|got)\s+(?:dropped|removed|ended)"
    r"|\bno\s+longer\s+supported\b|\bnot\s+supported\b|\bunsupported\b", _I
)


def _python_claim(text: str, c: _Cand) -> list[Anchor] | None:
    """"Requires Python 3.8+", "supports Python 3.6", "Python 2 support was dropped": the
    Python versions the project declares (``requires-python``, ``python_requires``), as a
    dependency on ``python``. A bare version means that series (``==3.6.*``)."""
    if c.text.lower() != "python" or c.mode not in (_Mode.PRESENT, _Mode.ABSENT, _Mode.UNCLEAR):
        return None
    spec = _version_after(text, c.end)
    if not spec:
        bare = _BARE_VERSION.match(text, c.end)
        if bare is None:
            return None
        spec = f">={bare['v']}" if bare["plus"] else f"=={bare['v']}.*"
    sentence = next((text[a:b] for a, b, _ in sentence_spans(text) if a <= c.start < b), "")
    dropped = bool(_DROPPED_SUPPORT.search(sentence))
    if c.mode is _Mode.UNCLEAR and not dropped:
        return None
    absent = c.mode is _Mode.ABSENT or dropped
    return [Anchor(AnchorKind.DEP, "python", Expect.ABSENT if absent else Expect.PRESENT,
                   version=spec)]  # fmt: skip


def _development_only(outcome: list[Anchor], fp: Fingerprint, scope: str | None) -> bool:
    """"Requests depends on Flask" when Flask is only a test requirement: the dependency
    anchor holds, but the sentence claims a run-time dependency nothing checked."""
    if scope is not None and tool_area(scope):
        return False
    for anchor in outcome:
        if anchor.kind is AnchorKind.DEP and anchor.expect is Expect.PRESENT:
            declared = [d for d in fp.dependency(anchor.value) if in_area(d.source, None)]
            if declared and not any(d.runtime for d in declared):
                return True
    return False


_ALWAYS_REPORTED = frozenset({DropReason.UNTYPED, DropReason.OWN_PACKAGE, DropReason.NOT_A_USE})
_CODE_FORMS = frozenset({_Form.DOTTED, _Form.CALL, _Form.PATH_SYMBOL, _Form.PATH})


def _uncovered(c: _Cand, reason: DropReason) -> bool:
    """Whether a plain statement's candidate that got no anchor leaves part of the claim
    unchecked: a name that looks like a technology, or code that resolves nowhere."""
    if reason is DropReason.UNTYPED:
        return True
    if c.form is _Form.PATH and not (c.code or "." in c.text.rpartition("/")[2]):
        return False  # "yes/no", "and/or", "client/server": prose, not a path
    code = c.ticked or c.form in _CODE_FORMS or bool(_SNAKE.fullmatch(c.text))
    return code and reason in (DropReason.UNRESOLVED, DropReason.AMBIGUOUS,
                               DropReason.NOT_IN_SCOPE)  # fmt: skip


def _settle(kept: list[tuple[Anchor, str]], dropped: list[DroppedCandidate],
            scope: str | None) -> Inference:  # fmt: skip
    """Deduplicate, and drop anything the text states both ways (by anchor or by name)."""
    polarity: dict[object, set[Expect]] = {}
    for anchor, origin in kept:
        polarity.setdefault((anchor.kind, anchor.value, anchor.scope), set()).add(anchor.expect)
        polarity.setdefault(origin.lower(), set()).add(anchor.expect)
    anchors: list[Anchor] = []
    origins: list[str] = []
    for anchor, origin in kept:
        key = (anchor.kind, anchor.value, anchor.scope)
        if len(polarity[key]) > 1 or len(polarity[origin.lower()]) > 1:
            if anchor.expect is Expect.PRESENT:
                detail = f"{origin} is stated both present and absent"
                dropped.append(DroppedCandidate(origin, DropReason.AMBIGUOUS, detail))
            continue
        if anchor not in anchors:
            anchors.append(anchor)
            origins.append(origin)
    return Inference(tuple(anchors), tuple(dropped), scope, tuple(origins))
