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

from anchors.candidates import _Cand, _fold, _Form, _Mode, _Neg
from anchors.cue_patterns import CUES, Cues, case_safe
from anchors.development import about_development
from anchors.subject import Spans
from anchors.wordlists import FUNCTION_WORDS

_WINDOW = 80
# The plain word right after a name, if nothing stands between them.
# Verbs that place the name before them ("QuerySet lives in query.py"): it qualifies nothing
_PLACE_VERBS = frozenset({"lives", "live", "sits", "sit", "resides", "reside", "lies", "lie",
                          "stays", "belongs", "exists", "appears", "remains", "moved"})
# "the package exports a useSignal hook": what the project says it offers by name
_EXPORTED = re.compile(r"\b(?:exports?|exposes?)\s+(?:(?:an?|the|its|one)\s+)?$")
# "a windows-only dependency", "an optional package": an article makes the word a kind
_KIND_OF_DEPENDENCY = re.compile(r"\b(?:an?|any|every|each)\s+$")
# (not "library": "the libvips library" may be a system's, which no manifest declares)
_PACKAGED = re.compile(r"`?\s+(?:package|crate|module|gem)\b")
_COMPLEMENT = re.compile(r"\b(?:is|are|was|were)\s+(?:(?:an?|the)\s+)?$")
# A clause about code: what calls, returns, raises, defines or serves a name
_CODED = re.compile(
    r"\b(?:call(?:s|ed|ing)?|invok\w+|(?:turn|switch)(?:s|ed)?\s+on\s+with|enabled\s+(?:with|by)"
    r"|export\w*|defin\w+|functions?|methods?|returns?|returned|raises?|raised|throws?|thrown"
    r"|(?:served|handled|implemented|made|created|constructed)\s+(?:by|in|with))\b"
)
_NEXT_WORD = re.compile(r"[ ]([a-z]+)\b(?![-.:/(`])")
_NEXT_NOUN = re.compile(r"[ ]([a-z][a-z-]*)\b(?![-:/(`]|\.\w)")  # "app", "app." ends it
_BE_WORDS = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"})
# Matched as written (never case-blind), on the text or on its lower-cased form.
_WE = re.compile(r"\s*(?:we|our|i|us)\b")
_OPENING = re.compile(r"[\s`'\"“”‘’(*-]*")
_CLAUSE_SPLIT = re.compile(
    r"[,:](?=\s)|\((?!\))|(?<!\()\)|\s[-–—]+\s|"  # (a call's "()" ends no clause)
    r"\s+(?P<contrast>but|while|whereas|although|though|however|yet|except|unlike)\s+|\s+(?:because|so)\s+|\s+and\s+(?=(?:now|then|also|we|i|it|they|"
    r"instead|later|still|use[sd]?|using|switched|moved|migrated|adopted|rel(?:y|ies)|"
    r"depends?|imports?|reads?)\b)",
    re.IGNORECASE,
)
_NARROW_SUBJECT = re.compile(
    r"^\s*(?:the|our|this|that|its)\s+(?!(?:project|codebase|code|repo|repository|package|"
    r"library|app|application|service|team)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}\s+"
    r"(?:no\s+longer|(?:does|do|did)\s*(?:not|n[’']t)|never|stopped)\b", re.IGNORECASE
)


@dataclass(slots=True)
class _Cue:
    start: int
    end: int
    neg: _Neg
    replacement: bool = False
    targets: bool = True  # False: marks the clause as negated, governs no name


# The things a product's name qualifies when they are made with it ("a React app", "the
# Redis cache", "our Celery workers"), unlike a format's or a class's ("a Markdown string",
# "urllib3's Retry class", "its Stripe key").
# The prepositions of means: "decodes tokens with jwt", "fetched via requests".
_MEANS = ("with", "via", "through", "using")
# "rejects alerts whose environment is not in ALLOWED_ENVIRONMENTS": a membership test
# names the list; it does not negate it
_NOT_MEMBER = re.compile(r"\bnot\s+(?:in|among|listed\s+in|one\s+of)\s+(?:the\s+)?`?$")
_CLAUSE_END = re.compile(r"[`'\"]?\s*(?:[.;,:!?)]|$)")
_INSTALL = re.compile(r"(?:pip\s+)?install")  # a command's verb of installing
# "the shared venv's pip executable": the program, which no file imports
_PROGRAM_NOUNS = frozenset({"executable", "executables", "binary", "binaries"})
_MADE_WITH = frozenset({
    "app", "apps", "application", "applications", "frontend", "front-end", "backend",
    "component", "components", "widget", "widgets", "spa", "site", "ui", "client", "clients",
    "server", "servers", "service", "services", "cluster", "clusters", "instance", "instances",
    "cache", "database", "db", "queue", "queues", "worker", "workers", "broker", "store",
    "hooks", "plugin", "plugins", "integration", "project", "projects", "codebase", "stack",
    "deployment", "container", "containers", "pipeline", "pipelines", "job", "jobs",
})  # fmt: skip


def _cues(k: Cues, low: str, start: int, end: int) -> list[_Cue]:
    if k.negation_hint is not None and not k.negation_hint.search(low, start, end):
        return []  # none of the words any negation cue needs is in the clause
    cues: list[_Cue] = []
    clause = low[start:end]
    kinds = ((k.removal, _Neg.REMOVAL, False), (k.usage, _Neg.USAGE, False),
             (k.replace, _Neg.USAGE, True), (k.weak, _Neg.WEAK, False))  # fmt: skip
    for listed, neg, repl in kinds:
        for cue in listed:
            if cue.needles is not None and not any(map(clause.__contains__, cue.needles)):
                continue  # as cue.absent_from(clause), without the call: this runs often
            for m in cue.pattern.finditer(low, start, end):
                if m.group().startswith("used"):
                    before = low[max(start, m.start() - 20) : m.start()].split()
                    if before and before[-1] in _BE_WORDS:
                        continue  # "httpx is used to call the API": present, not the past
                cues.append(_Cue(m.start(), m.end(), neg, repl))
    for cue in k.markers:
        if not cue.absent_from(clause):
            cues.extend(_Cue(m.start(), m.end(), _Neg.WEAK, targets=False)
                        for m in cue.pattern.finditer(low, start, end))  # fmt: skip
    return cues


# A condition the name opens: what the code does without it, not that the project lacks it
_CONDITION_BEFORE = re.compile(r"\b(?:if|when|whenever|unless|in\s+case|once)\s+(?:the\s+)?$")


# ... or a condition opened earlier in the clause that the negation is part of
_CONDITION_OPEN = re.compile(r"\b(?:if|when|whenever|unless|once)\s(?:[^,;:().!?]|\.(?=\w))*$")


def _post(k: Cues, text: str) -> _Neg | None:
    """The negation right after a candidate ("X was removed", "X is no longer used")."""
    text = text.lstrip("`'\"“”‘’)")
    found = k.post.match(text)  # "X was removed" tried first, then "X is no longer used"
    if found is None:
        return None
    return _Neg.REMOVAL if found.group("removal") is not None else _Neg.USAGE


def _party(k: Cues, low: str, start: int, end: int, sliced: bool) -> _Mode | None:
    """Whether the clause speaks of someone else's code or of a plan, a question or a
    condition (someone else's first). ``sliced``: as matched on ``low[start:end]`` alone
    (which can differ from matching within ``low`` only at a word boundary at ``start``)."""
    clause, a, b = (low[start:end], 0, end - start) if sliced else (low, start, end)
    if k.party_hint is not None and not k.party_hint.search(clause, a, b):
        return None  # none of the words these cues need
    if k.other_party.search(clause, a, b):
        return _Mode.OTHER_PARTY
    return _Mode.HYPOTHETICAL if k.hypothetical.search(clause, a, b) else None


def _read_clause(k: Cues, low: str, start: int, end: int, cands: list[_Cand],
                 inherited: _Mode | None, tail: _Cand | None, scoped: bool,
                 own: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Set mode, strength and kind preference on the candidates of one clause;
    ``inherited``: the mode every candidate of it takes, if any."""
    if not cands:
        return  # nothing to set: each step below only sets candidates
    clause = low[start:end]
    # "we no longer use redis, memcached or celery": a clause that opens with more names
    # continues the list that ended the clause before it.
    continuing = bool(tail and k.pure_list.fullmatch(low, start, cands[0].start))
    if continuing:  # only names, or several joined by and/or, or narrowed ("..., x for y")
        chain = 1
        while chain < len(cands) and k.list_gap.fullmatch(low, cands[chain - 1].end,
                                                         cands[chain].start):  # fmt: skip
            chain += 1
        after = low[cands[chain - 1].end : end]
        continuing = (chain > 1 or not after.strip(" `'\"")
                      or bool(k.partial.match(after.lstrip())))  # fmt: skip
    cues = _cues(k, low, start, end)
    claims = bool(k.defines.search(clause))
    coded = claims or _CODED.search(clause) is not None
    developing = about_development(clause)
    replacing = any(q.replacement for q in cues) or "favo" in clause
    previous: _Cand | None = tail if continuing else None
    # Bound once: the loop below runs for every candidate of every note.
    before_cues, window_cues, list_gap = k.before.found, k.window.found, k.list_gap.fullmatch
    dep_after, import_after = k.dep_after.match, k.import_after.match
    for c in cands:
        # The words that decide how a name is read stand right next to it; a bounded
        # window keeps a long clause linear.
        window = low[max(start, c.start - _WINDOW) : c.start]
        before = window.rstrip("`'\" ") + " "
        after = low[c.end : min(end, c.end + _WINDOW)]
        # Cues that end right before the name (at_end); none when a code span ends there
        # ("`traceback.install` returns ...": the verb is code, not the note's).
        closed = window.rstrip().endswith("`") and low.count("`", start, c.start) % 2 == 0
        slot, strong, preposition = (None, None, None) if closed else before_cues(before)
        following = _NEXT_WORD.match(after)
        c.modifies = following is not None and following.group(1) not in FUNCTION_WORDS
        c.qualifies = c.modifies and following is not None and (
            following.group(1).lower() not in _PLACE_VERBS)
        noun = _NEXT_NOUN.match(after)
        c.builds = noun is not None and noun.group(1) in _MADE_WITH
        c.program = noun is not None and noun.group(1) in _PROGRAM_NOUNS
        runtime, dep_before, import_before = window_cues(window)
        c.slot, c.strong, c.runtime = slot is not None, strong is not None, runtime is not None
        c.object = c.slot or preposition is not None
        # ... only as the clause's last word: "floods the API with requests from clients"
        # speaks of requests, "fetches the feeds with requests." of the package
        c.instrument = (preposition is not None and preposition.group().startswith(_MEANS)
                        and _CLAUSE_END.match(after) is not None)  # fmt: skip
        c.claimed = claims
        c.exported = _EXPORTED.search(before) is not None
        c.coded = coded
        c.complement = _COMPLEMENT.search(before) is not None
        c.developing = developing
        # "the |console| crate", "|redux-saga| is a runtime dependency": named as a package
        c.packaged = (_PACKAGED.match(after) is not None or dep_after(after) is not None) and (
            _KIND_OF_DEPENDENCY.search(before) is None)
        # ("`uv pip install gunicorn`": a command that installs it, wherever it runs, says
        # nothing of what a manifest declares)
        commanded = (dep_before is not None and low.count("`", start, c.start) % 2 == 1
                     and _INSTALL.match(dep_before.group()) is not None)
        if dep_after(after) or (dep_before is not None and not commanded):
            c.pref = "dep"
        elif import_after(after) or import_before is not None:
            c.pref = "import"
        listed = previous is not None and (
            (previous is tail and c is cands[0]) or bool(list_gap(low, previous.end, c.start))
        )
        if listed and previous is not None:
            c.pref = c.pref or previous.pref
            c.slot = c.slot or previous.slot  # "built on click and zorbcli"
            c.strong = c.strong or previous.strong
            c.object = c.object or previous.object
        if c.form is _Form.ENV and _NOT_MEMBER.search(window):
            pass  # named as the list a value is tested against: present
        elif inherited is not None:
            c.mode = inherited
        elif listed and previous is not None and previous.mode in (_Mode.ABSENT, _Mode.UNCLEAR):
            c.mode, c.neg, c.joined = previous.mode, previous.neg, previous
        elif cues and (target := _target(k, low, cues, c)):
            c.mode, c.neg = _Mode.ABSENT, target.neg
            if _CONDITION_OPEN.search(low[max(0, start - 120) : target.start]):
                # "exits when the main database is not Postgres": the condition's thing
                c.mode = _Mode.UNCLEAR
        elif post := _post(k, after):
            c.mode, c.neg = _Mode.ABSENT, post
        elif replacing and k.replacement_slot.found(window):
            c.mode = _Mode.PRESENT  # "replaced redis with |duckdb|": the replacement is present
        elif cues and any(q.start < c.start for q in cues):
            c.mode = _Mode.UNCLEAR
        if (c.mode is _Mode.ABSENT or c.form is _Form.PATH) and _CONDITION_BEFORE.search(before):
            # "falls back to UTC when tzlocal is not installed", "if config.py does not set
            # X": the condition's thing, not the project's
            c.mode = _Mode.UNCLEAR
        previous = c
    # "Node and Rust Core logs": the words joined before a name that qualifies a noun
    # qualify it too
    for left, right in zip(reversed(cands[:-1]), reversed(cands[1:]), strict=True):
        if (right.qualifies and not left.modifies and left.form is right.form
                and k.list_gap.fullmatch(low, left.end, right.start)):  # fmt: skip
            left.qualifies = True
    # "redis and memcached were removed": a post-negation covers the list before it.
    for left, right in zip(reversed(cands[:-1]), reversed(cands[1:]), strict=True):
        if (right.mode is _Mode.ABSENT and left.mode is _Mode.PRESENT
                and k.list_gap.fullmatch(low, left.end, right.start)
                and _post(k, low[right.end : min(end, right.end + _WINDOW)])):  # fmt: skip
            left.mode, left.neg, right.joined = _Mode.ABSENT, right.neg, left
    if post_at := [m.start() for m in k.post_anywhere.finditer(low, start, end)]:
        for c in cands:  # "the legacy sqlite3 report was deleted": sqlite3 is not claimed
            if c.mode is _Mode.PRESENT and c.end <= post_at[-1] and not _post(k, low[c.end : end]):
                c.mode = _Mode.UNCLEAR
    compared: list[int] | None = None  # the clause's not-a-use cues, found once if needed
    # "reads X", and "set with the X environment variable": the code is said to read it
    reads = bool(k.reads.search(clause)) or _ENV_NAMED.search(clause) is not None
    for c in cands:
        if c.mode is _Mode.PRESENT:
            compared = _not_a_use(k, low, start, end) if compared is None else compared
            if compared and any(at <= c.start and k.gap.fullmatch(low, at, c.start)
                                for at in compared):  # fmt: skip
                c.mode = _Mode.NOT_A_USE
        c.reads = reads
    _narrowed(k, low, end, cands, scoped, own)


_ENV_NAMED = re.compile(r"\benvironment\s+variables?\b|\benv\s+vars?\b", re.IGNORECASE)


def _target(k: Cues, low: str, cues: list[_Cue], c: _Cand) -> _Cue | None:
    """The first negation cue that ends before ``c`` with only filler words between."""
    return next((q for q in cues if q.targets and q.end <= c.start
                 and k.gap.fullmatch(low, q.end, c.start)), None)  # fmt: skip


def _not_a_use(k: Cues, low: str, start: int, end: int) -> list[int]:
    """Cues after which a name is compared with, not used: "compatible with requests";
    "over" after a choice ("chose PostgreSQL over MySQL")."""
    if k.not_a_use_hint is not None and not k.not_a_use_hint.search(low, start, end):
        return []  # no word any of these cues needs
    clause = low[start:end]
    found = [m.end() for cue in k.not_a_use if not cue.absent_from(clause)
             for m in cue.pattern.finditer(low, start, end)]  # fmt: skip
    if k.choice.search(low, start, end):
        found.extend(m.end() for m in k.over.finditer(low, start, end))
    return found


def _narrowed_by_subject(text: str, cands: list[_Cand], spans: Spans) -> None:
    """"The security extra no longer pulls in pyOpenSSL": a negation about one part of the
    project that is no path the code has says nothing about the whole project."""
    if not any(c.mode is _Mode.ABSENT for c in cands):
        return  # only a negated name is narrowed
    for start, end, _question in spans:
        if not _NARROW_SUBJECT.match(text, start, end):
            continue
        for c in cands:
            if start <= c.start < end and c.mode is _Mode.ABSENT:
                c.mode = _Mode.UNCLEAR


_REFERENCE = re.compile(r"\b(?:it|them|they)\b")
# What a pronoun may stand for: a name whose positive anchor means "the code uses it" (a
# technology, a package, a module, an environment variable), not a file or a definition,
# which a later "nothing imports it" does not say is gone.
_USED_FORMS = (_Form.TECH, _Form.WORD, _Form.IMPORT, _Form.DOTTED, _Form.ENV)


def _negated_references(text: str, cands: list[_Cand], spans: Spans) -> None:
    """"X is only a type-checking dependency; nothing imports it at runtime": a negation
    whose object is a pronoun speaks of the names before it, in its sentence or the one
    before, and binds to none of them as an anchor could. Those names are no plain
    statements of use (UNCLEAR): the note keeps no positive anchor on them. The same for
    names said to be used only somewhere (``_restricted``)."""
    low = _fold(text)
    if not _REFERENCE.search(low):
        _restricted(text, cands)
        return
    k = CUES[case_safe(low)]
    before = 0  # where the sentence before the current one starts
    for s_start, s_end, _question in spans:
        cues: list[_Cue] | None = None  # the sentence's negation cues, found once if needed
        for m in _REFERENCE.finditer(low, s_start, s_end):
            cues = _cues(k, low, s_start, s_end) if cues is None else cues
            negated = _post(k, low[m.end() : min(s_end, m.end() + _WINDOW)]) is not None or any(
                q.targets and not q.replacement and q.end <= m.start()
                and k.gap.fullmatch(low, q.end, m.start()) for q in cues
            )
            if not negated:
                continue
            for c in cands:
                if (before <= c.start < m.start() and c.mode is _Mode.PRESENT
                        and c.form in _USED_FORMS):
                    c.mode = _Mode.UNCLEAR
        before = s_start
    _restricted(text, cands)


# Right after a name: "X is only used in tests", "X is only a type-checking dependency",
# "X is used only by the CLI", "X is a test-only dependency", "we use X only in the
# client": a claim that it is used
# nowhere else, which an anchor that finds it used somewhere does not check.
_RESTRICTED = re.compile(
    r"[\s`'\"]*(?:only|just|exclusively|solely)\s+(?:in|inside|within|by|for|from|at|during|"
    r"under|when|as)\b"
    r"|[\s`'\"]*(?:(?:package|module|library|dependency)\s+)?(?:is|are)\s+(?:"
    r"(?:only|just|exclusively|solely)\s+(?:(?:ever|really)\s+)?(?:used|imported|needed|"
    r"required|installed|loaded|declared|called|read|a|an)\b"
    r"|(?:used|imported|needed|required|installed|loaded|called|read)\s+(?:only|exclusively|"
    r"solely)\b|(?:a\s+|an\s+)?[a-z]+(?:-[a-z]+)*-only\b)"
)


def _restricted(text: str, cands: list[_Cand]) -> None:
    """Names a clause says are used *only* somewhere are no plain statements of use
    (UNCLEAR): "httpx is only used in tests" is not VERIFIED by app/client.py importing it."""
    low = _fold(text)
    if "only" not in low:
        return
    for c in cands:
        if c.mode is _Mode.PRESENT and c.form in _USED_FORMS and _RESTRICTED.match(low, c.end):
            c.mode = _Mode.UNCLEAR


_PLACES = frozenset({"from", "in", "inside", "within", "outside", "except", "only", "on"})


def _names_the_project(low: str, at: int, own: frozenset[str]) -> bool:
    words = low[at : at + 60].split()
    if words[:1] == ["the"]:
        words = words[1:]
    return bool(words) and words[0].strip("`'\".,;") in own


def _narrowed(k: Cues, low: str, end: int, cands: list[_Cand], scoped: bool,
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
        if nxt and nxt.mode is _Mode.ABSENT and k.list_gap.fullmatch(low, c.end, nxt.start):
            continue  # the list goes on; the qualifier after its last item covers it all
        for m in k.partial.finditer(low, c.end, min(end, c.end + _WINDOW)):
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


def _read_modes(text: str, cands: list[_Cand], scoped: bool, own: frozenset[str],
                spans: Spans) -> None:  # fmt: skip
    """Read every candidate in its clause; ``spans``: the text's ``sentence_spans``."""
    low = _fold(text)
    k = CUES[case_safe(low)]
    for s_start, s_end, question in spans:
        opening = _OPENING.match(text, s_start, s_end)
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
            if carried is _Mode.OTHER_PARTY and _WE.match(low, start, end):
                carried = None  # "my friend's project uses redis, and we use duckdb"
            # The clause's own cues of someone else's code or of a plan: looked for once,
            # unless a word character before the clause could make its start no boundary.
            party: _Mode | None = None
            bounded = start == 0 or not _is_word(low[start - 1])
            if inside and carried is None:
                party = _party(k, low, start, end, sliced=True)
            inherited = carried if carried is not None else party
            _read_clause(k, low, start, end, inside, inherited, tail, scoped, own)
            for c in inside:
                if c.mode in (_Mode.HYPOTHETICAL, _Mode.OTHER_PARTY):
                    carried = c.mode
            if inside:
                tail = inside[-1]
            if carried is None:
                known = bool(inside) and bounded  # looked for above, on the same terms
                carried = party if known else _party(k, low, start, end, sliced=False)


def _is_word(char: str) -> bool:
    """Whether a regular expression's ``\\w`` matches ``char`` (what ``\\b`` looks at)."""
    return char.isalnum() or char == "_"
