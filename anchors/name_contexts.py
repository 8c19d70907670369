"""What a name means where a note writes it (adr/0058), read from the note's words around
it: a path the repository lacks that names no file of it, a list of the code's own names,
a string literal or a subscript's key inside code, and the file a sentence places a
definition or a package's use in."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from anchors.candidates import _Cand, _Form
from anchors.codenames import CodeNames, DropReason, Outcome, _as_path
from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.tooling_dirs import built_copy

__all__ = [
    "content_unread",
    "import_manner",
    "named_otherwise",
    "names_listed",
    "no_repository_file",
    "placed_where_said",
    "quoted_in_code",
    "read_by_dependency",
    "reread_in_context",
    "written_keys",
]

_Kept = list[tuple[Anchor, str]]


# A list after a colon: "types: caldav, carddav, filesystem and google_calendar"
_LISTED = re.compile(
    r":\s+(?P<l>`?[\w\-]+`?(?:(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)"
    r"`?[\w\-]+`?)+)"
)


def names_listed(text: str) -> list[tuple[int, int]]:
    """The spans of lists of three or more names after a colon, one of them a name of code
    (``google_calendar``): values the code names, not packages it uses."""
    found = []
    for m in _LISTED.finditer(text):
        items = [i.strip("` ") for i in re.split(r",|\band\b|\bor\b", m["l"]) if i.strip()]
        if len(items) > 2 and any("_" in item for item in items):
            found.append(m.span("l"))
    return found


def quoted_in_code(c: _Cand, text: str) -> bool:
    """Whether the candidate is a string literal inside a code span (``loop="uvloop"``) or a
    key in a subscript (``os.environ["NETRC"]``)."""
    before, after = text[c.start - 1 : c.start], text[c.end : c.end + 1]
    return (
        before in ("'", '"')
        and after == before
        and (text.count("`", 0, c.start) % 2 == 1 or text[c.start - 2 : c.start - 1] == "[")
    )


# What a name the repository lacks is, when not a file of it: a package with its
# requirement ("ruamel.yaml>0.15.0"), a place on the machine ("config.yaml under
# $XDG_CONFIG_HOME"), a route ("the openapi.yaml endpoint"), a kind of file ("_test.go files")
_REQUIREMENT_AFTER = re.compile(r"\s*(?:[<>=!~^]=?|==)\s*v?\d")
_ON_THE_MACHINE = re.compile(
    r"[^,;:()]{0,40}?\b(?:under|in|below|inside)\s+`?(?:\$\{?\w+|~/|%\w+%|os\.User\w+Dir\(|"
    r"the\s+user['’]?s\s+(?:config|home|cache|data))", re.IGNORECASE
)
_MACHINE_BEFORE = re.compile(r"(?:\$\{?\w+\}?|~|%\w+%)/$")
# "(default ./config/kinto.ini)", "falls back to conf/app.yaml": where the program looks
# when nothing else is said, a value of the note
_DEFAULT_BEFORE = re.compile(r"\b(?:default(?:s\s+to)?|falls?\s+back\s+to)\s+[`'\"]?$", re.I)
_SERVED_AFTER = re.compile(r"`?\s+(?:endpoint|route|url|uri|handler)s?\b", re.IGNORECASE)
_KIND_OF_FILE = re.compile(r"`?\s+files\b", re.IGNORECASE)


def no_repository_file(c: _Cand, text: str, outcome: Sequence[Anchor],
                        names: CodeNames) -> tuple[DropReason, str] | None:  # fmt: skip
    """Why a path the repository lacks names no file of it (see above), or None: a file
    anchor that would break is kept only where the note means a file of the repository. A
    package is another reader's (its dependency anchor); the rest stays unchecked."""
    missing = [
        a
        for a in outcome
        if a.kind is AnchorKind.FILE
        and a.expect is Expect.PRESENT
        and not names.fp.has_path(a.value)
        and not names.fp.has_directory(a.value)
    ]
    if not missing:
        return None
    if _REQUIREMENT_AFTER.match(text, c.end) or names.declares(c.text.strip("`").lower()):
        return DropReason.EXTERNAL, f"{c.text} is a package the project requires, not a file"
    if (_ON_THE_MACHINE.match(text, c.end) or _MACHINE_BEFORE.search(text, 0, c.start)
            or text[c.start - 1 : c.start] == "$"):  # fmt: skip
        return DropReason.UNRESOLVED, f"{c.text} is a place on the machine, not a repository file"
    if _DEFAULT_BEFORE.search(text, max(0, c.start - 24), c.start):
        return DropReason.UNRESOLVED, f"{c.text} is a default the note states, not a file here"
    if _SERVED_AFTER.match(text, c.end):
        return DropReason.UNRESOLVED, f"{c.text} is a path the code serves, not a file"
    if c.text.lstrip("`")[:1] in "_*" and _KIND_OF_FILE.match(text, c.end):
        return DropReason.UNRESOLVED, f"{c.text} names a kind of file"
    return None


# "`create_app()` lives in app/server.py": a definition placed in a file, said anywhere
_LIVES_IN = re.compile(
    r"`?(?P<name>[A-Za-z_][\w.]*)(?:\(\))?`?(?:\s+\([^()\n]{1,80}\))?"  # ("(the spec parser)")
    r"\s+(?:lives|is\s+defined|is\s+declared|is\s+implemented)"
    r"\s+in\s+`?(?P<path>[\w./\-]+\.\w{1,4})`?"
)


def written_keys(kept: _Kept, fp: Fingerprint) -> _Kept:
    """``kept`` with a dotted name placed in a file that defines nothing of that name but
    writes it whole as a string (``config["plugin_directories.upload"]``) checked as that
    string: a settings key the file reads, no attribute of code."""
    found = []
    for a, origin in kept:
        facts = fp.code.get(a.scope) if a.scope is not None else None
        if (a.kind is AnchorKind.SYMBOL and a.expect is Expect.PRESENT and a.version is None
                and "." in a.value and a.scope is not None and facts is not None
                and facts.keys and a.value in facts.keys
                and fp.definition(a.scope, a.value) is None):  # fmt: skip
            a = Anchor(AnchorKind.MESSAGE, a.value, scope=a.scope)
        found.append((a, origin))
    return found


_USED_BY = re.compile(
    r"`?(?P<pkg>[\w@/.\-]+)`?\s+(?:(?:dependency|package|module|library|crate)\s+)?(?:is|are)\s+"
    r"(?:only\s+)?used\s+(?:only\s+)?(?:by|in)\s+`?(?P<user>[A-Za-z_][\w./\-]*[\w])`?"
)


def placed_where_said(text: str, kept: _Kept, fp: Fingerprint) -> _Kept:
    """``kept`` with the places the text states applied: a package "used by" a definition
    or a file is checked there (``import:clone@src/cache.ts``), and a definition that
    "lives in" a source file is checked in that file, beside other files the sentence
    names (defined elsewhere, the anchor breaks and says where)."""
    return _lives_in(text, _used_by(text, kept, fp), fp)


def _used_by(text: str, kept: _Kept, fp: Fingerprint) -> _Kept:
    """"The `clone` dependency is used by PluginTransformCache": its import or technology
    anchor scoped to the one file that defines the user (the one the note's own anchor
    found, else the one source that is no build's copy)."""
    for m in _USED_BY.finditer(text):
        users = {a.scope for a, o in kept if a.kind is AnchorKind.SYMBOL and a.scope
                 and o.strip("`") == m["user"]}  # fmt: skip
        if not users:
            users = {m["user"]} if m["user"] in fp.code else {
                p for p, _ in fp.definitions(m["user"]) if not built_copy(p, fp)}
        if len(users) != 1:
            continue
        where = users.pop()
        kept = [(replace(a, scope=where) if a.kind in (AnchorKind.IMPORT, AnchorKind.TECH)
                 and a.scope is None and a.expect is Expect.PRESENT
                 and o.strip("`") == m["pkg"] else a, o) for a, o in kept]  # fmt: skip
    return kept


def _lives_in(text: str, kept: _Kept, fp: Fingerprint) -> _Kept:
    placed = {}
    for m in _LIVES_IN.finditer(text):
        path = _as_path(m["path"], fp)
        if path is not None and path in fp.code:
            placed[m["name"]] = path
    if not placed:
        return kept
    found = []
    for a, origin in kept:
        name = origin.strip("`").removesuffix("()")
        if (a.kind is AnchorKind.SYMBOL and a.expect is Expect.PRESENT and a.version is None
                and name in placed):  # fmt: skip
            a = replace(a, scope=placed[name])
        found.append((a, origin))
    return found


# "reads VAULT_ADDR via vault's conf.ReadEnvironment()", "through the AWS SDK": a
# variable a dependency reads, which no code of the repository has to name
_THROUGH_DEPENDENCY = re.compile(
    r"\b(?:via|through|by|using)\s+(?:the\s+)?`?[\w.\-/]+`?(?:['’]s\b|\s+(?:sdk|library|"
    r"client|package|crate|dependency)\b)", re.IGNORECASE)


def read_by_dependency(text: str, spans: Sequence[tuple[int, int, bool]], kept: _Kept,
                       fp: Fingerprint) -> tuple[_Kept, list[str]]:  # fmt: skip
    """``kept`` without the environment variables no code of the repository reads that a
    sentence says a dependency reads, and those, as uncovered parts."""
    out: _Kept = []
    parts: list[str] = []
    for anchor, origin in kept:
        if (anchor.kind is AnchorKind.ENV and anchor.expect is Expect.PRESENT
                and not fp.env_sources(anchor.value)):  # fmt: skip
            at = text.find(origin)
            sentence = next((text[a:b] for a, b, _ in spans if a <= at < b), text)
            if _THROUGH_DEPENDENCY.search(sentence):
                parts.append(f"that a dependency reads {anchor.value}")
                continue
        out.append((anchor, origin))
    return out, parts


_TYPES_SAID = re.compile(r"(?<![\w/.])(?:typ(?:e|es|ed|ing)|interfaces?)(?![\w.])", re.I)
_LAZY_SAID = re.compile(r"\b(?:lazy|lazily|on\s+demand|inside|within|dynamic(?:ally)?)\b", re.I)
_TOP_LEVEL_SAID = re.compile(r"\b(?:at\s+(?:the\s+)?(?:module\s+)?top|top[\s-]level|(?:at\s+)?"
                             r"module\s+level|at\s+import\s+time|eagerly|always\s+loaded)\b", re.I)


def import_manner(text: str, kept: _Kept, fp: Fingerprint) -> list[str]:
    """How the imports ``kept`` claims are made, where the note says what the code does not:
    every import found is for types only (TypeScript's ``import type``, Python's ``if
    TYPE_CHECKING:``) in a note that says nothing of types, or every run-time import is
    inside a function in a note that says it is made at the module's top ("imports
    `loadSync` ... at module top, so it is always loaded"). The import is there; how it is
    made is left an uncovered part."""
    types = _TYPES_SAID.search(text) is not None
    top = _TOP_LEVEL_SAID.search(text) is not None and not _LAZY_SAID.search(text)
    parts = []
    for anchor, origin in kept:
        if anchor.kind is not AnchorKind.IMPORT or anchor.expect is not Expect.PRESENT:
            continue
        found = [imp for path, imp in fp.importers(anchor.value)
                 if anchor.scope is None or path == anchor.scope
                 or path.startswith(anchor.scope.rstrip("/") + "/")]  # fmt: skip
        running = [imp for imp in found if not imp.typing]
        named = {n for imp in found for n in imp.names}  # "imports `AsyncStorage` from x"
        if found and not running and not types and not any(n in text for n in named):
            parts.append(f"that {origin} is imported when the code runs (only its types are)")
        elif running and top and all(imp.within for imp in running):
            parts.append(f"that {origin} is imported at the module's top (only inside "
                         f"{running[0].within})")
    return parts


_KEYWORD_AFTER = re.compile(r"=(?!=)\s*[^\s`]|`?\s+\((?:defaults?|default\s+value)\b")
# ("a Redis message_queue", "Flask `MethodView` classes": a name of code after the word)
_CODE_NOUN_AFTER = re.compile(r"\s+(?:`[A-Za-z_][\w.]*`|[a-z]+_[\w.]+|[A-Z][a-z]+[A-Z]\w*)(?!\()")
_DATA_FILE = re.compile(r"\.(?:json|ya?ml|toml|ini|cfg|conf|txt|xml|csv|db|sqlite3?|lock)$")


def reread_in_context(c: _Cand, text: str, outcome: list[Anchor],
                      names: CodeNames) -> tuple[Outcome, str | None]:  # fmt: skip
    """The anchors a present candidate resolved to, read again where the note writes it,
    and a part then left unchecked (or None):

    - "passes `multiprocessing=True`", "checks `threading` (default True)": a keyword
      argument or a parameter, a name of code;
    - "the WSGI app": the protocol an acronym names, not the module ``werkzeug.wsgi``;
    - "a Redis message_queue" in a file that imports no redis, "Flask `MethodView`
      classes", "fresh SQLAlchemy connections": what the thing is, checked for the project,
      and whether that file uses it itself left unchecked;
    - "pprof/settings.json": a data file, never a package's import path."""
    if c.form in (_Form.WORD, _Form.TECH) and c.text.islower() and _KEYWORD_AFTER.match(
            text, c.end):  # fmt: skip
        return (DropReason.UNRESOLVED, f"{c.text!r} is a parameter or keyword argument"), None
    if (c.form is _Form.WORD and not c.ticked and c.text.isupper() and outcome
            and all(a.kind is AnchorKind.IMPORT and "." in a.value
                    and a.value.rpartition(".")[2] == c.text.lower()
                    for a in outcome)):  # fmt: skip
        return (DropReason.COMMON_WORD, f"{c.text!r} names a protocol or format"), None
    if (c.form in (_Form.WORD, _Form.TECH) and c.text[:1].isupper()
            and (c.modifies or _CODE_NOUN_AFTER.match(text, c.end))
            and not (c.ticked or c.instrument or c.packaged)
            and (wider := _used_elsewhere(outcome, names.fp))):  # fmt: skip
        return wider, f"that {names.scope} uses {c.text} itself"
    if (c.form is _Form.PATH and outcome and _DATA_FILE.search(c.text)
            and all(a.kind is AnchorKind.IMPORT for a in outcome)):  # fmt: skip
        return [Anchor(AnchorKind.FILE, c.text, outcome[0].expect)], None
    return outcome, None


def _used_elsewhere(outcome: Sequence[Anchor], fp: Fingerprint) -> list[Anchor] | None:
    """For a word that qualifies a noun ("a Redis message_queue", "Flask `MethodView`
    classes") read as imports claimed for one file: the same imports unscoped, when that
    file imports none of them and another file does; else None."""
    scoped = [a for a in outcome if a.kind is AnchorKind.IMPORT and a.scope is not None
              and a.expect is Expect.PRESENT]  # fmt: skip
    if not scoped or len(scoped) != len(outcome):
        return None
    within = [p for a in scoped for p, _ in fp.importers(a.value)
              if p == a.scope or p.startswith(a.scope.rstrip("/") + "/")]  # type: ignore[union-attr]
    anywhere = [p for a in scoped for p, _ in fp.importers(a.value)]
    if within or not anywhere:
        return None
    return [replace(a, scope=None) for a in scoped]


# "ci.yml exists", "the Dockerfile is tracked", "docs live under docs/": what a file's
# existence answers
_EXISTENCE = re.compile(
    r"\b(?:exists?|is\s+(?:tracked|present|committed|checked\s+in|there)|there\s+(?:is|are)|"
    r"ships|lives?|sits?|located|(?:is|are)\s+(?:in|at|under)\b|has\s+(?:an?|its\s+own)\s+"
    r"[\w.\-`]+\s+file|no\s+longer|removed|deleted|renamed|moved|see|refer\s+to)\b", re.IGNORECASE)


def content_unread(text: str, kept: _Kept, fp: Fingerprint, checked: bool) -> list[str]:
    """What a note says a file that is not code holds, when the only anchors are that the
    files exist ("The rustfmt job in .github/workflows/ci.yml installs the nightly
    toolchain"): a file's existence answers where it is, never what it says. ``checked``:
    whether a value or other reader checked part of the note."""
    if checked or not kept or _EXISTENCE.search(text):
        return []
    files = [a for a, _ in kept if a.kind is AnchorKind.FILE and a.expect is Expect.PRESENT]
    if len(files) != len(kept) or any(fp.language(a.value) is not None or not fp.has_path(a.value)
                                      for a in files):  # fmt: skip
        return []
    return [f"what {files[0].value} says"]


# What a candidate names that is neither a package nor a path of the repository
_RUNTIME_GLOBALS = frozenset({"Deno", "Bun", "window", "document", "globalThis", "navigator"})
_NAMES_PAIRED = re.compile(r"[A-Za-z_]\w*\.[A-Z]\w*(?:/[A-Z]\w*)+")
_LITERAL_QUOTE = re.compile(r'"[^"\n]{1,80}"')
_LITERAL_MARK = re.compile(r"[:<>{}%]")
_DISTRIBUTIONS = frozenset({"debian", "ubuntu", "fedora", "alpine", "arch", "homebrew", "nix",
                            "conda-forge", "snap", "flatpak", "rpm", "deb"})  # fmt: skip
_PACKAGE_AFTER = re.compile(r"\s+(?:packag(?:e|es|ing)|package\s+maintainers?|packagers?|"
                            r"patch(?:es)?|build)\b", re.IGNORECASE)
_PLATFORMS = frozenset({"posix", "nt"})
_ON_PLATFORM = re.compile(r"\b(?:on|under|for|in)\s+$", re.IGNORECASE)
_RUNTIMES = frozenset({"node", "node.js", "nodejs", "deno", "bun"})
_BROWSER = re.compile(r"\bbrowsers?\b", re.IGNORECASE)


def named_otherwise(c: _Cand, text: str, runtime: bool) -> tuple[DropReason, str] | None:
    """Why a candidate names no package, definition or path, or None: what the JavaScript
    runtime provides ("`Deno.env.get`"), a word of a quoted message ("prints "pprof:
    <err>""; ``runtime``: the word names a language's runtime, which such a quote may
    hold as a tag, "python:3.12"), two names joined by "/" ("EncodeBlob/DecodeBlob"), a
    distribution's package ("the Debian package"), a platform ("on POSIX"), a runtime
    beside the browser ("8 in Node and 4 in browsers")."""
    if c.form in (_Form.DOTTED, _Form.CALL) and c.text.partition(".")[0] in _RUNTIME_GLOBALS:
        return DropReason.NOT_A_USE, f"{c.text} is provided by the JavaScript runtime"
    if c.form in (_Form.WORD, _Form.TECH) and _in_call_arguments(c, text):
        # "`createApp(options, unleashClient?, app = express())`": a parameter's name, no
        # package (and a part no anchor checks)
        return DropReason.UNTYPED, f"{c.text!r} is an argument of a call written out"
    if c.form is _Form.WORD and not runtime and _inside_message(text, c):
        return DropReason.NOT_A_USE, f"'{c.text}' is a word of a quoted literal"
    if c.form is _Form.PATH and _NAMES_PAIRED.fullmatch(c.text):
        return DropReason.UNRESOLVED, "names of code"
    if not c.ticked and c.text.lower() in _DISTRIBUTIONS and _PACKAGE_AFTER.match(text, c.end):
        return DropReason.NOT_A_USE, f"'{c.text}' names the distribution that packages the project"
    if (not c.ticked and c.text.lower() in _PLATFORMS
            and _ON_PLATFORM.search(text, max(0, c.start - 8), c.start)):  # fmt: skip
        return DropReason.NOT_A_USE, f"'{c.text}' names a platform the code runs on"
    if (not c.ticked and c.text.lower() in _RUNTIMES
            and _ON_PLATFORM.search(text, max(0, c.start - 8), c.start)
            and _BROWSER.search(text)):  # fmt: skip
        # "8 in Node and 4 in browsers": where the code runs, which sets a value
        return DropReason.NOT_A_USE, f"'{c.text}' names a runtime the code runs in"
    return None


def _in_call_arguments(c: _Cand, text: str) -> bool:
    """Whether the candidate stands between the parentheses of a call or a signature
    written in backticks (`f(a, b?, c = d)`)."""
    opened = text.rfind("`", 0, c.start)
    closed = text.find("`", c.end)
    if opened == -1 or closed == -1 or text.count("`", 0, c.start) % 2 == 0:
        return False
    before = text[opened + 1 : c.start]
    depth, at = 0, -1
    for i in range(len(before) - 1, -1, -1):
        if before[i] == ")":
            depth += 1
        elif before[i] == "(":
            if depth == 0:
                at = i
                break
            depth -= 1
    return at > 0 and (before[at - 1].isalnum() or before[at - 1] == "_")


def _inside_message(text: str, c: _Cand) -> bool:
    """Whether the candidate stands inside a double-quoted message of the code: with a
    space, and a colon, a placeholder or a format ("pprof: <err>")."""
    line_start = text.rfind("\n", 0, c.start) + 1
    for m in _LITERAL_QUOTE.finditer(text, line_start, min(len(text), c.end + 80)):
        if m.start() < c.start and c.end < m.end():
            said = m.group()
            return " " in said and _LITERAL_MARK.search(said) is not None
    return False
