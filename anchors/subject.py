"""Which path a memory is about, and the sentences of its text.

Scoping is what defeats the present-trap: "the billing module uses sqlite3" is not verified
by ``app/other.py`` importing sqlite3, because the anchor becomes
``import:sqlite3@app/billing.py``. A scope is only taken when it is unambiguous: an
explicit subject that names exactly one path, or one path named in the text as the thing
doing something, with no sentence about anything else. What the other names in the text
denote is ``anchors.codenames``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from anchors.codenames import CodeNames, DropReason, _as_path
from anchors.component_kinds import KIND_WORDS, kind_path
from anchors.facts import Fingerprint
from anchors.projects import named_project
from anchors.spec import Anchor, AnchorKind
from anchors.wordlists import COMMON_WORDS, GENERIC_NOUNS, PRONOUNS, SUBJECT_VERBS

__all__ = [
    "CLAUSE_BREAK",
    "CODE_FILE",
    "CodeNames",
    "DropReason",
    "Spans",
    "apply_scope",
    "clause_before",
    "resolve_name",
    "resolve_subject",
    "sentence_spans",
]

# A sentence ends at . ! ? ; or a newline followed by space (dots inside `a.b` do not end one).
# ("the `bail!` macro": a "!" before a word in lower case ends no sentence)
_SENTENCE_END = re.compile(r"(?:[.?;]|!(?!\s+[a-z]))+(?=\s|$)|\n+")
_GOES_ON = re.compile(r"\.\.\.\s+[(a-z]")
_NP_TOKEN = re.compile(r"`?[A-Za-z0-9_./:-]+`?|[’']s\b")
_DETERMINERS = frozenset({"the", "our", "a", "an", "in"})
_FIRST_PERSON = frozenset({"we", "i", "our", "us"})
# "... is checked in auth/jwt.py", "used by app.billing": a path or dotted module after in/by.
_IN_PATH = re.compile(
    r"\b(?:in|inside|within|by|from)\s+(?:the\s+)?`?(?P<name>[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]*)+"
    r"|[A-Za-z0-9_-]+\.(?:py|go|rs|[cm]?[jt]sx?)|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+(?:::[A-Za-z0-9_.]+)?"
    r"|[a-z0-9_-]+`?\s+(?:module|service|package|file|layer|component|subsystem)"
    r"|front-?end|(?:web\s+)?ui|web\s+client)\b`?",
    re.IGNORECASE,
)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
# A source file's name in any language the fingerprint reads ("mux.go", "src/git.ts").
_SOURCE_FILE = re.compile(r"\w\.(?:py|go|rs|[cm]?[jt]sx?)$")
_STEM_WORD = re.compile(r"[a-z0-9_-]+")
_VERB_FORM = re.compile(r"[a-z]+(?:s|ed)")
_GENERIC_OR_COMMON = GENERIC_NOUNS | COMMON_WORDS
_OPENERS = _DETERMINERS | _FIRST_PERSON | PRONOUNS
# Pieces of a sentence that may each have their own subject.
_PIECES = re.compile(r"[,:]\s|\s(?:and|but|while|whereas|although|though)\s", re.IGNORECASE)


def sentence_spans(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is_question) for each sentence of ``text``."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if _GOES_ON.match(text, match.start()):
            continue  # "named v0, v1, ... (varGroupName)": an ellipsis within the sentence
        if text[start : match.start()].strip():
            yield start, match.start(), "?" in match.group()
        start = match.end()
    if text[start:].strip():
        yield start, len(text), False


@dataclass(frozen=True)
class _PathNames:
    """The names words can match in one fingerprint (read-only, built once per fingerprint):
    Python files by stem (``billing`` for ``app/billing.py``, not ``__init__``) and
    directories by their last component."""

    files: Mapping[str, tuple[str, ...]]
    directories: Mapping[str, tuple[str, ...]]

    @classmethod
    def of(cls, fp: Fingerprint) -> _PathNames:
        files: dict[str, list[str]] = {}
        for path in fp.blobs:
            base = path.rsplit("/", 1)[-1]
            if base.endswith(".py") and base != "__init__.py":
                files.setdefault(base[:-3], []).append(path)
        dirs: dict[str, list[str]] = {}
        for directory in fp.directories():
            dirs.setdefault(directory.rsplit("/", 1)[-1], []).append(directory)
        return cls({k: tuple(v) for k, v in files.items()},
                   {k: tuple(v) for k, v in dirs.items()})  # fmt: skip


def resolve_name(name: str, fp: Fingerprint, *, allow_common: bool = True) -> str | None:
    """The one repository path ``name`` denotes, or None.

    ``name`` may be a path (``app/billing.py``, ``store/``), a ``path::Qual`` anchor target,
    a dotted module (``app.billing``) or words (``billing``, ``billing service``): words
    match a file stem or directory name, and must match exactly one.
    """
    words = [w.strip("`") for w in name.split() if w.lower() not in _DETERMINERS]
    if len(words) > 1 and words[-1].lower() in KIND_WORDS:
        # "the sync-exercises management command": that command's file, where commands are
        for part in dict.fromkeys((words[0], "_".join(words[:-1]))):
            where = kind_path(part, words[-1], fp)
            if where is not None and not where.missing:
                return where.path
    while len(words) > 1 and words[-1].lower() in GENERIC_NOUNS:
        words.pop()  # "the store/ package", "billing service"
    if not words:
        return None
    name = words[0]
    if "::" in name:
        name = name.split("::", 1)[0]
    if len(words) == 1 and ("/" in name or _SOURCE_FILE.search(name)):
        return _as_path(name, fp)
    if len(words) == 1 and "." in name and fp.has_path(name):
        return name  # README.md, pyproject.toml
    if len(words) == 1 and _DOTTED.fullmatch(name):
        module = fp.module_path(name)
        if module is not None:
            return module.removesuffix("/__init__.py")
        as_dir = name.replace(".", "/")
        return as_dir if fp.has_directory(as_dir) else None
    words = [w.lower() for w in words]
    if not all(_STEM_WORD.fullmatch(w) for w in words):
        return None
    if len(words) == 1 and words[0] in _GENERIC_OR_COMMON and not allow_common:
        return None
    stems = {"_".join(words), "-".join(words), "".join(words)}
    names = fp.derived("subject.paths", _PathNames.of)  # once per fingerprint, not per note
    hits: set[str] = set()
    for stem in stems:
        hits.update(names.files.get(stem, ()))
        hits.update(names.directories.get(stem, ()))
    if not hits:  # "the frontend", "the Go service": the one project of that kind
        return named_project(" ".join(words), fp)
    return hits.pop() if len(hits) == 1 else None


def _piece_subject(piece: str, fp: Fingerprint, first: bool,
                   places: Sequence[re.Match[str]]) -> tuple[str, str | None]:  # fmt: skip
    """Who one piece of a sentence is about: ("path", p), or ("we" | "pronoun" | "other" |
    "none", None). A later piece ("..., and the store module uses duckdb") counts only if it
    opens with a determiner, pronoun or path: otherwise it continues the first one's verb.
    ``places``: the piece's ``_IN_PATH`` matches."""
    in_paths = {resolve_name(m.group("name"), fp) for m in places}
    in_paths.discard(None)
    if len(in_paths) == 1:
        return "path", in_paths.pop()
    tokens = [t.strip("`").rstrip(",:") for t in _NP_TOKEN.findall(piece)]
    tokens = [t for t in tokens if t and not t.startswith(("'", "’"))]
    opener = tokens[0].lower() if tokens else ""
    if not first and not (opener in _OPENERS or "/" in opener):
        return "none", None
    noun: list[str] = []
    for i, token in enumerate(tokens[:6]):
        low = token.lower()
        if noun and (low in SUBJECT_VERBS or low.endswith("n't")):
            break
        if noun and noun[-1].lower() in KIND_WORDS and _VERB_FORM.fullmatch(low):
            break  # "the sync-exercises management command fetches ...": a part, its verb
        if (len(noun) == 1 and _VERB_FORM.fullmatch(low) and _SOURCE_FILE.search(noun[0])
                and not noun[0].endswith(".py")):  # fmt: skip
            break  # "mux.go cleans ...": a file's name, then its verb (Python's: unchanged)
        if (len(noun) == 1 and _VERB_FORM.fullmatch(low) and "." in noun[0]
                and not _SOURCE_FILE.search(noun[0]) and fp.has_path(noun[0])):  # fmt: skip
            break  # "requirements.txt pins ...": a file of the tree that is no code, its verb
        if noun or low not in _DETERMINERS:
            noun.append(token)
        if len(noun) > 1 and low in GENERIC_NOUNS:
            after = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
            if _VERB_FORM.fullmatch(after):
                break  # "the models module rounds ...": the generic noun ends the phrase
    else:
        return "none", None  # no verb: not a statement about a subject
    pathlike = [t for t in noun if "/" in t or _SOURCE_FILE.search(t)]
    if len(pathlike) == 1 and (named := resolve_name(pathlike[0], fp)) is not None:
        return "path", named  # "the Sphinx config docs/conf.py imports ..."
    head = noun[0].lower() if noun else ""
    if not noun or head in _FIRST_PERSON:
        return ("we", None) if noun else ("none", None)
    if head in PRONOUNS:
        return "pronoun", None
    part = _part_of_project(noun, fp)
    if part is not None:
        return "path", part
    named = named_project(" ".join(w.lower() for w in noun), fp)
    if named is not None:  # "the frontend", "the Go service": a project of the repository
        return "path", named
    # Only a name that says it is code counts: a path, a dotted module, or words ending in
    # "module"/"service"/...: "Pages are parsed" must not scope to scrape/pages.py.
    generic = len(noun) > 1 and noun[-1].lower() in GENERIC_NOUNS | KIND_WORDS
    if not generic and not (len(noun) == 1 and ("/" in noun[0] or "." in noun[0])):
        return "other", None
    resolved = resolve_name(" ".join(noun), fp, allow_common=generic)
    return ("path", resolved) if resolved else ("other", None)


# Subjects that name a part of the project by what it is ("the docs", "the test suite"):
# the directories that part usually lives in.
_PARTS = {
    "docs": ("docs", "doc", "documentation"), "doc": ("docs", "doc"),
    "documentation": ("docs", "doc", "documentation"), "tests": ("tests", "test", "testing"),
    "test": ("tests", "test"), "examples": ("examples", "example"),
    "benchmarks": ("benchmarks", "benchmark", "bench"),
}  # fmt: skip


def _part_of_project(noun: Sequence[str], fp: Fingerprint) -> str | None:
    """"The docs are built with Sphinx", "Tests run with pytest": the directory of that
    part of the project, when the repository has exactly one of them."""
    words = [w.lower() for w in noun]
    if words[-1:] in (["suite"], ["site"], ["pages"], ["build"]):
        words = words[:-1]
    if len(words) != 1 or words[0] not in _PARTS:
        return None
    found = [d for d in _PARTS[words[0]] if fp.has_directory(d)]
    return found[0] if len(found) == 1 else None


Spans = Sequence[tuple[int, int, bool]]


def resolve_subject(subject: str | None, text: str, fp: Fingerprint, *,
                    spans: Spans | None = None) -> str | None:  # fmt: skip
    """The repository path (file or directory, no trailing slash) the memory is about.

    An explicit ``subject`` wins when it names exactly one path or module (``billing``,
    ``app.billing``, ``app/billing.py``, "billing service"). Otherwise the text decides: a
    path named as the thing doing something ("the billing service uses httpx",
    "auth/jwt.py checks tokens", "... is read in auth/jwt.py"), provided every other
    subject names that same path or continues it with a pronoun. A statement about "we"
    or about anything else means no scope: a wrong scope refutes true memories.
    ``spans``: the text's ``sentence_spans``, when the caller has them already.
    """
    if subject is not None and subject.strip():
        resolved = resolve_name(subject, fp)
        if resolved is not None and _can_scope(resolved, fp):
            return resolved
    found: set[str] = set()
    for start, end, _question in sentence_spans(text) if spans is None else spans:
        # "`parse`, the reviver that rejects keys, is defined in x.ts": the appositive
        # describes the subject and is no subject of its own
        pieces = _PIECES.split(_APPOSITIVE.sub(r"\g<head> ", text[start:end]))
        places = [list(_IN_PATH.finditer(piece)) for piece in pieces]
        kinds = [_piece_subject(piece, fp, i == 0, places[i]) for i, piece in enumerate(pieces)]
        named_in = any(places)
        for kind, path in kinds:
            # "In app/billing.py, we use httpx": the place outranks the "we".
            if kind == "other" or (kind == "we" and not named_in):
                return None
            if path is not None:
                found.add(path)
    scope = found.pop() if len(found) == 1 else None
    return scope if scope is not None and _can_scope(scope, fp) else None


_APPOSITIVE = re.compile(
    r"^(?P<head>\s*`?[\w.:]+(?:\(\))?`?),\s+(?:the|a|an|our|its)\s+[^,;]{1,80},\s+"
    r"(?=(?:is|are|was|lives|sits|lies|resides|can\s+be\s+found)\b)")


def _can_scope(path: str, fp: Fingerprint) -> bool:
    """Imports can be claimed for a source file (of any language read) or a directory, not
    for pyproject.toml."""
    return path.endswith(".py") or path in fp.code or fp.has_directory(path)


def apply_scope(
    anchors: Iterable[Anchor], scope: str | None, fp: Fingerprint
) -> tuple[Anchor, ...]:
    """Scope every unscoped ``import`` anchor to ``scope`` (a path in ``fp``).

    Used for explicit anchors when the caller names a subject: "uses sqlite3" about the
    billing module is a claim about that module, not about the repository. Other kinds are
    returned unchanged (dependencies and env names are repository-wide facts), and so is
    everything when ``scope`` is None or not a path in ``fp``.
    """
    anchors = tuple(anchors)
    if scope is None or not (fp.has_path(scope) or fp.has_directory(scope)):
        return anchors
    return tuple(
        dataclasses.replace(a, scope=scope)
        if a.kind is AnchorKind.IMPORT and a.scope is None
        else a
        for a in anchors
    )


# A file named as code is ("route.go", "src/logger.rs", "`app/settings.py`").
CODE_FILE = re.compile(r"`?(?P<path>[\w./-]*\w\.(?:py|go|rs|js|jsx|ts|tsx|mjs|cjs))`?(?![\w.])")


def named_file(text: str, start: int, end: int, fp: Fingerprint) -> str | None:
    """The one tracked source file ``text[start:end]`` names ("(leading: true in
    src/debouncer.ts)"), or None where it names none or several."""
    named = {p for m in CODE_FILE.finditer(text, start, end) if (p := fp.tracked_path(m["path"]))}
    return named.pop() if len(named) == 1 else None
# Where a clause of a sentence ends: a stop, a colon, a comma, a dash between spaces.
CLAUSE_BREAK = re.compile(r"[;:,!?]|\.(?=\s)|\s[-–—]\s")


def clause_before(text: str, start: int, at: int) -> str:
    """The words of the clause before ``at`` (the sentence starting at ``start``), from
    its last break on: what a claim at ``at`` is said of."""
    before = text[start:at]
    breaks = list(CLAUSE_BREAK.finditer(before))
    return before[breaks[-1].end() :] if breaks else before
