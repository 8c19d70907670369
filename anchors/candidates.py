"""The candidates of a memory's text: the spans that may name something in the code.

``_scan`` finds them by their form (a path, ``path::Qual``, a dotted name, a call, an
``import`` phrase, an ALL_CAPS env name, a technology of several words, a word) and marks
what is code (backticks, snake_case, camelCase). A ``_Cand`` also carries what reading its
clause decides (``anchors.clauses``): its mode, how a negation speaks, and where it stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from anchors.codenames import Pref
from anchors.vocabulary import (
    Technology,
    alias_keys,
    lookup_several,
    lookup_word,
    several_word_starts,
)
from anchors.wordlists import FUNCTION_WORDS


class _Form(Enum):
    TECH = "technology"  # a multi-word name from the vocabulary ("HashiCorp Vault")
    IMPORT = "import phrase"
    PATH_SYMBOL = "path::symbol"
    PATH = "path"
    SCOPED_PACKAGE = "scoped package"  # "@lumino/widgets"
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


@dataclass(slots=True)
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
    instrument: bool = False  # ... a preposition of means ("decodes tokens with |jwt|")
    runtime: bool = False  # "depends on |X|", "requires |X|": a dependency at run time
    modifies: bool = False  # a plain word follows it, which it qualifies ("no |build| script")
    qualifies: bool = False  # ... a noun, no verb of place ("the |SameSite| modes are ...")
    builds: bool = False  # ... a word for software made with it ("a |React| app")
    defined: bool = False  # a kind of definition follows it ("the |which| function")
    exported: bool = False  # its clause says the project exports it ("exports a |useSignal|")
    coded: bool = False  # its clause speaks of code: calling, returning, raising, defining
    complement: bool = False  # it follows "is"/"are" ("the web server is |Tornado|")
    developing: bool = False  # its clause is about tests, the build, linting ("tests run with")
    packaged: bool = False  # what follows names it a package ("the |console| crate")
    called: bool = False  # written as code and called (`|Path|("/opt/pipx")`)
    owner: bool = False  # a thing that has something ("the shared |venv|'s pip")
    program: bool = False  # a program's file follows it ("the |pip| executable")


# -- scanning ----------------------------------------------------------------------------
_I = re.IGNORECASE
_LOOKALIKE = "\uff0f\u2215\u2044\u29f8\u2024\u2025\ufe52\uff0e\uff3c\u2216"
_PCH = rf"[A-Za-z0-9_.%~\-{_LOOKALIKE}]"
_EXT = (r"(?:py|pyi|toml|cfg|ini|txt|md|rst|json|ya?ml|lock|example|sample|template|sql|sh|in|typed"
        r"|go|mod|rs|[cm]?[jt]sx?)")  # ... and the source files of the other languages read
# A file named without its directory ("mux.go", "setup.py").
_BARE = re.compile(
    rf"(?<![\w./*-])\.?[\w-]{{1,100}}(?:\.[\w-]{{1,100}}){{0,10}}\.{_EXT}(?![\w/(]|\.\w)",
    re.ASCII)  # fmt: skip
# Repetitions are bounded so that no pattern is quadratic on a pathological memory. Each
# pattern comes with what every match of it holds: one of its needles (lower case, or no
# letter), so a text whose lower-cased form holds none is not searched; or a match of a
# simpler pattern, searched first (a test checks both against the patterns).
_Needed = tuple[str, ...] | re.Pattern[str]
_SCANNERS: tuple[tuple[_Form | None, re.Pattern[str], _Needed], ...] = (
    (None, re.compile(r"\b[a-z][a-z0-9+.-]{0,20}://\S+|\bwww\.\S+", _I), ("://", "www.")),
    # "node:child_process": a module's specifier, whose "node:" names no use of Node.js
    (None, re.compile(r"`?\bnode:(?=[a-z])"), ("node:",)),
    (_Form.IMPORT, re.compile(
        r"\bfrom\s+(?P<v>[A-Za-z_][\w.]{0,200}\w)\s+import\s+[\w*]+"
        # ("exits at import time": when, not a statement)
        r"|(?<!\bat\s)(?<!\bon\s)(?<!during\s)\bimport\s+(?P<w>[A-Za-z_][\w.]{0,200}\w)",
        re.ASCII), ("import",)),
    # "@lumino/widgets": an npm package in its scope, not a path
    (_Form.SCOPED_PACKAGE, re.compile(
        r"(?<![\w./@-])@[a-z0-9][a-z0-9._-]{0,100}/[a-z0-9][a-z0-9._-]{0,100}(?![\w/@])"
        r"(?<!\.)", re.ASCII), ("@",)),
    (_Form.PATH_SYMBOL, re.compile(
        rf"(?<![\w./-]){_PCH}{{0,100}}(?:/{_PCH}{{1,100}}){{0,20}}(?:::[A-Za-z_]\w*){{1,20}}"
        r"(?:\.[A-Za-z_]\w*){0,20}", re.ASCII), ("::",)),
    (_Form.UNSAFE_PATH, re.compile(r"(?<![\w\\])(?:[A-Za-z]:)?[\w.-]{0,100}(?:\\[\w.-]{1,100})+"),
     ("\\",)),
    (_Form.PATH, re.compile(
        rf"(?<![\w./\\~%-])(?:[~/]|\.{{1,2}}/)?(?:{_PCH}{{1,100}}[/{_LOOKALIKE[:4]}]){{1,30}}"
        rf"{_PCH}{{0,100}}", re.ASCII), ("/", *_LOOKALIKE[:4])),
    (_Form.PATH, _BARE, re.compile(rf"\.{_EXT}")),
    (_Form.CALL, re.compile(r"(?<![\w./-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,20}\(\)", re.ASCII),
     ("()",)),
    (_Form.DOTTED, re.compile(r"(?<![\w./-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,20}", re.ASCII),
     re.compile(r"\w\.[A-Za-z_]", re.ASCII)),
    (_Form.ENV, re.compile(r"(?<![\w.])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w|\.\w)", re.ASCII),
     ("_",)),
    # "the TZ environment variable", "the HOME env var": a name without "_", said to be one
    (_Form.ENV, re.compile(r"(?<![\w.$])[A-Z][A-Z0-9]{1,40}(?=`?\s+(?:environment|env)\s+"
                           r"var(?:iable)?s?\b)", re.ASCII), ("environment var", "env var")),
)  # fmt: skip
# Then technologies of several words (``_multiword``), then single words, in what is left.
# ("`_logVerbosity`", "_compat": a leading underscore is a private name of code; a dunder,
# "__proto__", is the language's)
_WORD = re.compile(r"(?<![\w./-])_?[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*(?![\w/])", re.ASCII)


def _fold(text: str) -> str:
    """Lower case without changing length, so positions stay aligned with ``text``."""
    if text.isascii():  # each ASCII letter lowers to one letter, whatever surrounds it
        return text.lower()
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def _is_camel(word: str) -> bool:
    """"PreparedRequest", "HTTPAdapter", "getLogger": a capital inside a word that also has
    lower-case letters is code, not prose ("Django" and "NASA" are not)."""
    if word.isascii():  # the same questions, asked of the whole string at once
        return word.isalnum() and word.upper() != word and word[1:].lower() != word[1:]
    return word.isalnum() and any(c.islower() for c in word) and any(c.isupper() for c in word[1:])


_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9+]*(?:[-.][A-Za-z0-9]+)*", re.ASCII)


def _multiword(text: str, taken: bytearray, found: list[_Cand]) -> None:
    """Technologies named by several words ("HashiCorp Vault", "GitHub Actions")."""
    words = list(_WORDS.finditer(text))
    tokens = [m.group() for m in words]
    starts = several_word_starts()
    keys = alias_keys(tokens)
    i = 0
    while i < len(words):
        hit = lookup_several(tokens, i) if keys[i] in starts else None
        if hit is not None:
            start, end = words[i].start(), words[i + hit[1] - 1].end()
            joined = all(text[words[j].end() : words[j + 1].start()] == " "
                         for j in range(i, i + hit[1] - 1))  # fmt: skip
            if joined and taken.find(1, start, end) == -1:
                taken[start:end] = _TAKEN * (end - start)
                proper = all(tokens[j][:1].isupper() for j in range(i, i + hit[1]))
                found.append(_Cand(start, end, text[start:end], _Form.TECH, tech=hit[0],
                                   common=hit[2] and not proper))  # fmt: skip
                i += hit[1]
                continue
        i += 1


_TICKS = re.compile(r"`([^`\n]+)`")
_TAKEN = b"\x01"  # a character of the text some earlier candidate (or a URL) covers


def _scan(text: str) -> list[_Cand]:
    taken = bytearray(len(text))
    spans = [m.span(1) for m in _TICKS.finditer(text)]
    lowered = text.lower()
    found: list[_Cand] = []
    for form, pattern, needed in _SCANNERS:
        if isinstance(needed, re.Pattern):
            if needed.search(text) is None:
                continue
        elif not any(map(lowered.__contains__, needed)):
            continue
        for m in pattern.finditer(text):
            start, end = m.span()
            if taken.find(1, start, end) != -1:
                continue
            if ((form is _Form.PATH and pattern is _BARE) or form is _Form.DOTTED) and (
                    _named_technology(m.group(), spans, start)):  # fmt: skip
                continue  # "Node.js", "Vue.js": a technology, not a file (left to the words)
            taken[start:end] = _TAKEN * (end - start)
            if form is None or (form is _Form.CALL and _VERBED.match(text, end)):
                continue  # ("setup.py exec()s that file": a verb made of a call)
            value = m.group()
            if form is _Form.IMPORT:
                value = m.group("v") or m.group("w")
                start, end = m.span("v") if m.group("v") else m.span("w")
            elif form in (_Form.PATH, _Form.PATH_SYMBOL, _Form.DOTTED):
                value = value.rstrip(".")
            ticked = bool(spans) and any(a <= start and end <= b for a, b in spans)
            found.append(_Cand(start, start + len(value), value, form, ticked, ticked=ticked))
    _multiword(text, taken, found)
    _words(text, taken, spans, found)
    return sorted(found, key=lambda c: c.start)


def _named_technology(value: str, ticks: list[tuple[int, int]], start: int) -> bool:
    """Whether a file-like name outside backticks is a technology's name ("Node.js")."""
    if value.rpartition(".")[2].lower() not in ("js", "ts"):
        return False
    ticked = any(a <= start < b for a, b in ticks)
    return not ticked and lookup_word(value) is not None


def _words(text: str, taken: bytearray, spans: list[tuple[int, int]],
           found: list[_Cand]) -> None:  # fmt: skip
    """The single words, in what the other forms left (nothing is read after them)."""
    for m in _WORD.finditer(text):
        start, end = m.span()
        if taken.find(1, start, end) != -1:
            continue
        value = m.group()
        # "the which function": a definition's name, though it is a word of grammar
        named = _DEFINITION_NOUN.match(text, end) is not None and bool(_THE.search(text, 0, start))
        if len(value) < 2 or text[start - 1 : start] in _QUOTES or (
                value.lower() in FUNCTION_WORDS and not named):  # fmt: skip
            continue  # "and", "not", the "re" of "we're"
        ticked = bool(spans) and any(a <= start and end <= b for a, b in spans)
        if text[start - 1 : start] == "{" and text[end : end + 1] == "}" and (
                text[start - 2 : start - 1] != "$"):  # fmt: skip
            continue  # "`{id}-v{version}.mbp`": a placeholder of a pattern, no name
        if (opened := _PLACEHOLDER_OPEN.search(text, max(0, start - 40), start)) and (
                closed := _PLACEHOLDER_CLOSE.match(text, end)) and (
                " " in opened["w"] + closed["w"] or "-" in opened["w"] + closed["w"]
                or closed["after"] in ("/", ".") or opened.group().startswith("/")):
            continue  # "`<venv cache>/.run-key`", "/<domain>/": a placeholder, no name
        if not ticked and _NEGATED_ADJECTIVE.fullmatch(value):
            continue  # "the only non-optional dependency": a quality, never a name
        # A snake_case identifier is code even without backticks: "compute_discount"
        # names a definition (or a variable) — never an English word.
        code = ticked or named or bool(
            ("_" in value and _SNAKE.fullmatch(value)) or _is_camel(value)
        )
        if (text[start - 1 : start] in ('"', "“") and text[end : end + 1] in ('"', "”")
                and _STRING_NOUN.match(text, end + 1)):  # fmt: skip
            continue  # (the "ocsp" prefix): a string the note quotes, read as a quote
        called = ticked and text[end : end + 1] == "("
        owner = (not ticked and text[end : end + 2] in ("'s", "’s")
                 and _DETERMINED.search(text, max(0, start - 30), start) is not None)
        found.append(_Cand(start, end, value, _Form.WORD, code, ticked=ticked, defined=named,
                           called=called, owner=owner))


_QUOTES = ("'", "’")
_STRING_NOUN = re.compile(r"\s+(?:prefix|suffix|key|field|label|tag|string|header|segment|"
                          r"namespace|directory|folder|separator|delimiter)\b")
# (``Vec<String>``, ``Option<u8>`` are types: a placeholder has words or sits in a path)
_PLACEHOLDER_OPEN = re.compile(r"/?<(?P<w>[a-z\s\-]*)$")
_PLACEHOLDER_CLOSE = re.compile(r"(?P<w>[a-z\s\-]*)>(?P<after>[/.]?)")
_DETERMINED = re.compile(r"\b(?:the|a|an|its|each|every|our|their|this|that)\s+(?:[a-z]+\s+)?$")
_VERBED = re.compile(r"(?:s|es|ed|['’]?d|ing)\b")
_NEGATED_ADJECTIVE = re.compile(r"[Nn]on-[a-z]+")
_DEFINITION_NOUN = re.compile(r"!?`?\s+(?:function|method|macro|struct|trait|enum|class)\b")
_THE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Ii]ts)\s+`?$")

