"""Values a note binds to a constant or an environment variable it names (issue #31, adr/0025).

"`PAGE_SIZE` defaults to 50", "MAX_RETRIES is 3", "The maximum page size is 500
(`MAX_PAGE_SIZE` in `app/paging.py`)": the value belongs to the name, and a value anchor
(``env:PAGE_SIZE=50``, ``symbol:app/paging.py::MAX_PAGE_SIZE=500``) checks it, so a wrong
value REFUTES. A wrong binding would refute a true note, so a value is bound only when

- the name is written as code (in backticks, ALL_CAPS, with ``_`` or ``Class.ATTR``);
- the value follows it in the same clause after a copula, "defaults to", "=" or ":", or the
  name stands in parentheses right after the value ("... is 500 (`MAX_PAGE_SIZE`)");
- the name resolves in the fingerprint to one file's constant (a class attribute or a
  settings dict's key by its own name: ``PAGE_SIZE`` of ``REST_FRAMEWORK``, adr/0037), or,
  where the note says "default", to an environment default, and the code gives it a
  literal (a computed value cannot be compared: left unbound); a duration is converted to
  the unit the name carries (``anchors.durations``);
- nothing in the sentence places the value elsewhere (production, the tests, an override,
  an example, ``export X=...``) or makes it a condition, a plan, the past or a negation.

A word written as code or a path right before a string constant named in parentheses
("the filter variable is RUST_LOG_FILTER (DEFAULT_FILTER_ENV)") is that constant's value.
A value a named Python file "sets" or "overrides" a name to ("overrides
`retry_after_seconds` to 3 in kinto/__init__.py") is that file's own entry: an override the
code makes is no deployment's. A dict's key placed in a file that does not hold it is not
another file's entry, and an environment default placed in a file or a directory counts
only the reads there (``anchors.env_defaults``).
Anything else stays an uncovered value: the note is ACTIVE and the value is named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from anchors.durations import in_plain_seconds, in_units_of, seconds
from anchors.facts import Fingerprint
from anchors.literals import EXPLICITLY, QUALIFIED_NAME, is_duration_code, typed_value
from anchors.mentions import runs
from anchors.spec import Anchor, AnchorKind
from anchors.tooling_dirs import built_copy
from anchors.value_claims import STANDARD, StatedValue, bare_value, stated_values

__all__ = ["Binding", "bind_values"]


@dataclass(frozen=True)
class Binding:
    """A value anchor read from the text: the ``name`` it binds, and the value's span."""

    anchor: Anchor
    name: str
    span: tuple[int, int]


# "is explicitly assigned 1", "is explicitly set to 2": the code writes the value for the name
_EXPLICIT_COPULA = (r"is\s+explicitly\s+(?:assigned(?:\s+to)?|set\s+to|given|initiali[sz]ed\s+"
                    r"(?:to|with|as)|defined\s+as)")
_EXPLICIT = re.compile(rf"\b{_EXPLICIT_COPULA}\s*`?$", re.IGNORECASE)
_NAME = r"[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_]\w*){0,3}"  # ``EnvFilter::DEFAULT_ENV`` too
_COPULA = (r"(?:is|equals|defaults\s+to|is\s+set\s+to|is\s+by\s+default|is\s+configured\s+as"
           # "Stop is a time.Duration of -1": its type, then its value
           r"|is\s+an?\s+`?[A-Za-z_][\w.]*`?\s+(?:of|with\s+(?:the\s+)?value)"
           r"|starts\s+as|is\s+initially"
           rf"|{_EXPLICIT_COPULA})")
# "`PAGE_SIZE` defaults to `50`", "MAX_RETRIES is 3", "TIMEOUT = 30", "workers: 4"
# "`ADD_DATA_TIMEOUT` in `app/conditions.py` is 10": the file named between them
_NAME_BEFORE = re.compile(
    rf"`?(?P<name>{_NAME})(?:[\"']\])?`?(?:['’]s\s+(?:error\s+)?(?:message|text|value|string|id)\b)?"
    # "the RUNNING flag is 1 << 0": a noun for what the name is
    r"(?:\s+(?:flag|constant|setting|option|variable|field|bit|mask)\b)?"
    r"(?:\s+(?:in|from)\s+`?(?P<path>[\w\-]*[./][\w./\-]*[\w/])`?)?"
    rf"(?:\s+{_COPULA}\s+|\s*[=:]\s*)`?$",
    re.IGNORECASE,
)
_HOLDER = re.compile(r"(?:^|[\s(])`?(?P<holder>[A-Za-z_]\w*)`?(?:\[[\"']?|\s+)`?\Z")
_COPULA_BEFORE = re.compile(rf"(?:\b{_COPULA}|\bof|=)\s*`?$", re.IGNORECASE)
# In parentheses: "(`MAX_PAGE_SIZE` in `app/paging.py`)", "(REST_FRAMEWORK PAGE_SIZE)" (a
# dict and its key), "(batch_max_requests in kinto.core's DEFAULT_SETTINGS)"
_PARENTHESISED = (
    rf"\s*\(\s*`?(?:(?P<holder>{_NAME})`?\s+`?)?(?P<name>{_NAME})`?"
    rf"(?:\s+(?:in|from|at|of)\s+(?:the\s+)?`?(?P<path>[\w./\-]*[\w/])`?"
    rf"(?:['’]s\s+`?(?P<within>{_NAME})`?)?)?"
    # "(`PORT` in `DEFAULT_CONFIG`, pelican/settings.py)": the dict, then its file
    r"(?:,\s*`?(?P<file>[\w\-]*[./][\w./\-]*[\w/])`?)?"
    r"(?:\s+(?:is|=|==)\s+`?[\w.\-'\"]+`?)?\s*\)"  # "(defaultSorting is true)"
)
# "... is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)"
_NAME_AFTER = re.compile(rf"`?{_PARENTHESISED}")
# "... retries up to 3 times (`MAX_RETRY_COUNT`)", "... 25 objects per page
# (PAGINATION_OBJECTS_PER_PAGE in wger/utils/constants.py)", "100 likes + dislikes per
# comment (MAX_VOTES)": a few words without a number, a comma or a clause's end between
# the value and the name it is stated for
_NAME_LATER = re.compile(r"(?:\s+(?:[A-Za-z][A-Za-z/'\-]*|[+&])){0,5}?" + _PARENTHESISED)
_ASSIGNED = re.compile(rf"^(?P<name>{_NAME})\s?=")
_OWNER = re.compile(r"`?(?P<owner>(?:[A-Za-z_]\w*\.)+)\Z")
_DEFAULTS_TO = re.compile(
    r"\b(?:defaults?|defaulting|falls?\s+back|falling\s+back)\s+to\s*`?$", re.IGNORECASE
)
_CODE_NAME = re.compile(rf"(?<![\w./-])`?(?P<name>{_NAME})`?(?![\w/-])")
# A condition, a plan, the past or a negation before the value: not what the code says now.
_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|when|whether|should|would|could|might|must|will|was|were|used\s+to|"
    r"previously|formerly|no\s+longer|not|never|instead\s+of|rather\s+than)\b|n't\b",
    re.IGNORECASE,
)
# A value somewhere else than the code's own: an environment, the tests, an override.
_ELSEWHERE = re.compile(
    r"\b(?:in|on|for|during|under)\s+(?:production|prod|staging|tests?|dev|development|ci|"
    r"local|deployment)\b|\boverrid|\bexport\b|\bset\s+`?[A-Za-z_]\w*`?\s?=|"
    r"\b(?:e\.g\.|for\s+example|such\s+as)",
    re.IGNORECASE,
)
# "... 5000 unless `PORT` is set", "... cert.pem when SSL_CERT_FILE is unset": the value
# the code takes when the variable is not given, said after the value
_WHEN_UNSET = (
    rf"\bunless\s+`?(?P<name>{_NAME})`?\s+(?:is\s+(?:set|given|defined|provided|configured)"
    r"|says\s+otherwise|names\s+an?\s*other|overrides\s+it)\b"
    rf"|\b(?:when|if|while)\s+`?(?P<unset>{_NAME})`?\s+is\s+(?:unset|not\s+set|missing|absent|"
    r"undefined|not\s+given)\b"
)
_UNSET_AFTER = re.compile(rf"(?:\s+[A-Za-z][\w'\-]*){{0,4}}?\s+(?:{_WHEN_UNSET})")
_DEFAULT = re.compile(
    rf"\bdefault|\bfalls?\s+back|\bfalling\s+back|{_WHEN_UNSET}|\bif\s+(?:it\s+is\s+)?(?:not\s+set|"
    r"unset|missing|absent)\b", re.IGNORECASE
)
_IN_SECTION = re.compile(r"`?\s+(?:in|under)\s+(?:the\s+)?`?\[[\w.\-: ]{1,40}\]")
_FLAG_WORDS = frozenset({"on", "off", "enabled", "disabled", "true", "false", "yes", "no"})
# "... one hour by default": the default stated right after the value
# (and "with 'sqlite://' if not set": what the name is when nothing sets it)
_BY_DEFAULT = re.compile(
    r"\s*,?\s*(?:by\s+default|\(\s*the\s+default\s*\)|if\s+(?:it\s+is\s+|it[’']s\s+)?(?:not\s+set|"
    r"unset|missing|absent)\b)", re.IGNORECASE)


def bind_values(
    text: str, fp: Fingerprint, scope: str | None, spans: Sequence[tuple[int, int, bool]]
) -> list[Binding]:
    """The value anchors ``text`` supports: each stated value bound to a name it is stated
    for (see the module docstring). ``scope`` is the note's resolved subject path."""
    found = []
    for value in stated_values(text):
        sentence = next(((a, b) for a, b, question in spans if a <= value.start < b
                         and not question), None)  # fmt: skip
        if sentence is None:
            continue
        if _NOT_PLAIN.search(text, sentence[0], value.start):
            continue
        placed = _set_in_file(text, value, sentence, fp)
        if placed is not None:  # "overrides `retry_after` to 3 in app/settings.py"
            found.append(placed)
            continue
        if _ELSEWHERE.search(text, sentence[0], sentence[1]):
            continue
        named = _named(text, value, sentence)
        if named is None:
            continue
        name, _, path = named
        if (path is None and not name.isupper() and _ASSIGNED.match(value.text)
                and _settings_file_named(text[sentence[0] : sentence[1]], fp)):  # fmt: skip
            continue  # "the packaged mycli/myclirc ships use_keyring = False": that file's
        bare = (bare_value(value) or in_units_of(value.text, name)
                or _in_seconds(value.text, name, fp) or _in_bytes(value.text, name, fp))
        if bare is None:
            continue
        # The environment's value is what a deployment sets; the code only says its default:
        # a value is bound to an environment variable only where the note says "default".
        default = _DEFAULT.search(text, sentence[0], sentence[1]) is not None
        if path is not None and "." not in name and _key_elsewhere(name, _file_of(path, fp), fp):
            continue  # a dict's key the named file does not hold: not another file's entry
        anchor = _resolve(name, _file_of(path, fp) or scope, fp, bare, default)
        if anchor is not None and anchor.kind is AnchorKind.ENV and path is not None:
            # "(`PAGE_SIZE` in `app/`)": only the reads the note places count
            placed_in = fp.tracked_path(path) or fp.tracked_directory(path)
            if placed_in is not None:
                anchor = Anchor(AnchorKind.ENV, name, scope=placed_in, version=bare)
        if anchor is not None and anchor.kind is AnchorKind.SYMBOL and anchor.version and (
                _EXPLICIT.search(text, sentence[0], value.start)):  # fmt: skip
            anchor = replace(anchor, version=EXPLICITLY + anchor.version)
        if anchor is not None:
            found.append(Binding(anchor, name, (value.start, value.end)))
    taken = [b.span for b in found]
    more = [*_words_for_strings(text, fp, scope, spans), *_standards(text, fp, scope, spans)]
    return found + [b for b in more if not any(a <= b.span[0] < z for a, z in taken)]


# "The filter variable is RUST_LOG_FILTER (DEFAULT_FILTER_ENV)", "mounted under /api/git
# (NAMESPACE)": a word or a path right before a constant named in parentheses
_WORD_BEFORE_NAME = re.compile(
    rf"(?<![\w./-])`?(?P<v>/?[A-Za-z_][\w.\-]*(?:/[\w.\-]+)*/?)`?\s*\(\s*`?(?P<name>{_NAME})`?"
    r"(?:\s+(?:in|from|at)\s+`?(?P<path>[\w./\-]*[\w/])`?)?\s*\)"
)


def _words_for_strings(text: str, fp: Fingerprint, scope: str | None,
                       spans: Sequence[tuple[int, int, bool]]) -> list[Binding]:  # fmt: skip
    """A word stated right before a string constant named in parentheses is that
    constant's value: bound when the constant is one the code gives a string literal, and
    the word is written as code or follows a copula ("the password is changeme
    (`DEFAULT_PASSWORD`)")."""
    found = []
    for m in _WORD_BEFORE_NAME.finditer(text):
        sentence = next(((a, b) for a, b, question in spans if a <= m.start() < b
                         and not question), None)  # fmt: skip
        value = m["v"]
        if sentence is None or value == m["name"] or not _code_like(
                text, m["name"], m.start("name")):  # fmt: skip
            continue
        stated = _COPULA_BEFORE.search(text, sentence[0], m.start("v")) is not None
        if "/" not in value and not stated and not (_code_like(text, value, m.start("v")) and (
                value.isupper() or "_" in value or text[m.start("v") - 1 : m.start("v")] == "`"
                or _CAMEL.search(value))):  # "RedisCache (CACHE_TYPE)": a class's name
            continue  # "the media folder (MEDIA_ROOT)": a word for the thing, not its value
        if _NOT_PLAIN.search(text, sentence[0], m.start("v")) or _ELSEWHERE.search(
            text, sentence[0], sentence[1]
        ):
            continue
        constant = _constant(m["name"], _file_of(m["path"], fp) or scope, fp)
        if constant is None:
            continue
        path, qualname = constant
        literal = next((v.text for p, v in fp.constant_values(qualname) if p == path), None)
        if literal is None or literal[:1] not in "\"'":
            continue  # a number or a name: the word is no string it holds
        anchor = Anchor(AnchorKind.SYMBOL, qualname, scope=path, version=m["v"])
        found.append(Binding(anchor, m["name"], m.span("v")))
    return found


# "overrides `retry_after_seconds` to 3 in kinto/__init__.py", "the defaults set PAGE_SIZE
# to 50 in app/settings.py": said of what a named file does, never of what someone can do
# ("you can override", "to set") nor an instruction ("Set X to 5 in ..." begins a sentence)
_SET_BEFORE = re.compile(
    r"(?<!\bcan\s)(?<!\bmay\s)(?<!\bto\s)(?<!\bplease\s)(?<=\w\s)"
    rf"\b(?:sets?|overrides?|configures?)\s+(?:the\s+)?`?(?P<name>{_NAME})`?\s+to\s*`?$",
    re.IGNORECASE,
)
_IN_FILE = re.compile(r"`?\s+in\s+`?(?P<path>[\w.\-]+(?:/[\w.\-]+)*\.py)`?(?=[\s.,;:)]|$)")


def _set_in_file(
    text: str, value: StatedValue, sentence: tuple[int, int], fp: Fingerprint
) -> Binding | None:
    """A value a sentence says a named Python file sets a constant or a dict entry to: bound
    to that file's own entry, and only when it has exactly one so named with a literal. An
    override is then the code's own value, not one a deployment sets; nothing else in the
    sentence may place the value elsewhere."""
    m = _SET_BEFORE.search(text[sentence[0] : value.start])
    placed = _IN_FILE.match(text, value.end, sentence[1])
    if m is None or placed is None or not _code_like(
            text, m["name"], sentence[0] + m.start("name")):  # fmt: skip
        return None
    if any(not hit.group().lower().startswith("overrid")
           for hit in _ELSEWHERE.finditer(text, sentence[0], sentence[1])):  # fmt: skip
        return None
    path = fp.tracked_path(placed["path"])
    bare = bare_value(value) or in_units_of(value.text, m["name"])
    if path is None or path not in fp.code or bare is None:
        return None
    constant = _constant(m["name"], path, fp)
    if constant is None or constant[0] != path:
        return None
    anchor = Anchor(AnchorKind.SYMBOL, constant[1], scope=path, version=bare)
    return Binding(anchor, m["name"], (value.start, value.end))


_PATH_WORD = re.compile(r"[\w.\-]+(?:/[\w.\-]+)+")


def _settings_file_named(sentence: str, fp: Fingerprint) -> bool:
    """Whether the sentence names a tracked file that is no source code (a settings file
    such as ``mycli/myclirc``), which an assignment it states is a key of."""
    return any(fp.has_path(m.group()) and fp.language(m.group()) is None
               for m in _PATH_WORD.finditer(sentence))  # fmt: skip


def _named(
    text: str, value: StatedValue, sentence: tuple[int, int]
) -> tuple[str, int, str | None] | None:
    """``_named_as_written``, a Rust path (``EnvFilter::DEFAULT_ENV``) as a dotted name."""
    found = _named_as_written(text, value, sentence)
    return (found[0].replace("::", "."), *found[1:]) if found else None


def _named_as_written(
    text: str, value: StatedValue, sentence: tuple[int, int]
) -> tuple[str, int, str | None] | None:
    """(name, where it starts, the path named with it) a value is stated for, or None: the
    name before the copula, else the one in parentheses after the value; code-like only."""
    assigned = _ASSIGNED.match(value.text)
    if assigned and (text[max(0, value.start - 1) : value.start] == "-"
                     or _IN_SECTION.match(text, value.end)):  # fmt: skip
        # "`--host=0.0.0.0`", "use_keyring = auto in [main]": a program's option, a key of
        # a settings file's section, no name of code
        return None
    if assigned:
        # "(SQLite3.MAX_VERSION = 3)": the assignment's name with what it is an attribute of
        owner = _OWNER.search(text, sentence[0], value.start)
        if owner:
            return owner.group("owner") + assigned.group("name"), owner.start(), None
        return assigned.group("name"), value.start, None
    before = text[sentence[0] : value.start]
    m = _NAME_BEFORE.search(before)
    if m and _code_like(text, m.group("name"), sentence[0] + m.start("name")):
        name, at = m.group("name"), sentence[0] + m.start("name")
        # "(WGER_SETTINGS ALLOW_UPLOAD_VIDEOS is True)": the dict written before its key
        holder = _HOLDER.search(text, sentence[0], at)
        if holder and holder.group("holder").isupper() and "_" in holder.group("holder"):
            return f"{holder.group('holder')}.{name}", holder.start("holder"), None
        return name, at, m.group("path")
    after = _NAME_AFTER.match(text, value.end, sentence[1])
    if (after and _COPULA_BEFORE.search(before)
            and _code_like(text, after.group("name"), after.start("name"))):  # fmt: skip
        return _parenthesised(after)
    later = _NAME_LATER.match(text, value.end, sentence[1])
    if later and _code_like(text, later.group("name"), later.start("name")):
        return _parenthesised(later)
    unset = _UNSET_AFTER.match(text, value.end, sentence[1])
    if unset and value.text.lower() not in _FLAG_WORDS:  # "listens on 5000 unless `PORT` is set"
        # (a flag is another thing's: "snapshots are off unless DISABLE_SNAPSHOTS is set")
        group = "name" if unset.group("name") else "unset"
        if _code_like(text, unset.group(group), unset.start(group)):
            return unset.group(group), unset.start(group), None
    # "TIME_ZONE comes from the environment and defaults to Europe/Berlin": the one name
    # written as code earlier in the sentence is what defaults to the value ("... after
    # WORKER_MAX_RUNTIME seconds, one hour by default" the same)
    if _DEFAULTS_TO.search(before) or _BY_DEFAULT.match(text, value.end, sentence[1]):
        names = {m.group("name"): sentence[0] + m.start("name")
                 for m in _CODE_NAME.finditer(before)
                 if _code_like(text, m.group("name"), sentence[0] + m.start("name"))}  # fmt: skip
        if len(names) > 1:  # "... DJANGO_DEBUG with os.environ.get, defaulting to": the setting
            names = {n: at for n, at in names.items() if n.isupper()}
        if len(names) > 1:  # "the CLI reads KINTO_INI and falls back to": not an acronym
            names = {n: at for n, at in names.items() if "_" in n}
        if len(names) == 1:
            [(name, at)] = names.items()
            if not _DEFAULTS_TO.search(before) and _DEFAULT.search(text, at, value.start):
                return None  # "X, default https://..., and ... (maxsize 128 by default)"
            return name, at, None
    return None


def _standards(text: str, fp: Fingerprint, scope: str | None,
               spans: Sequence[tuple[int, int, bool]]) -> list[Binding]:  # fmt: skip
    """A standard stated of a constant the code gives a package's name of it ("formats
    times as RFC 3339 (`TimeFormat`)" and ``time.RFC3339``): the same standard where the
    name is the standard's ("RFC3339", "RFC3339Nano"), another where it is not
    (``time.Kitchen``). A constant holding anything else is not compared."""
    found = []
    for m in STANDARD.finditer(text):
        sentence = next(((a, b) for a, b, question in spans if a <= m.start() < b
                         and not question), None)  # fmt: skip
        if sentence is None or _NOT_PLAIN.search(text, sentence[0], m.start()):
            continue
        named = _named(text, StatedValue(m.group(), m.start(), m.end()), sentence)
        constant = _constant(named[0], _file_of(named[2], fp) or scope, fp) if named else None
        if named is None or constant is None:
            continue
        path, qualname = constant
        held = next((v.text for p, v in fp.constant_values(qualname) if p == path), None)
        code = QUALIFIED_NAME.fullmatch(held or "")
        if code is None:
            continue
        said = re.sub(r"[\s\-]", "", m.group()).lower()
        version = held if code["name"].lower().startswith(said) else said.upper()
        anchor = Anchor(AnchorKind.SYMBOL, qualname, scope=path, version=version)
        found.append(Binding(anchor, named[0], m.span()))
    return found


def _in_seconds(stated: str, name: str, fp: Fingerprint) -> str | None:
    """A duration stated for a unit-less Python setting or a Go ``time.Duration``, in
    seconds (``in_plain_seconds``); None where any literal the code gives it is outside
    Python files and no duration written with its unit."""
    given = [*fp.env_default_values(name), *fp.constant_values(name)]
    if not given and "." not in name:
        given = fp.members_named(name)
    if not given or not all(p.endswith(".py") or is_duration_code(v.text) for p, v in given):
        return None
    if all(is_duration_code(v.text) for _, v in given):
        total = seconds(stated)  # a Go ``time.Duration``: the same in any unit
        return None if total is None else _number(total)
    return in_plain_seconds(stated, name, [v.text for _, v in given if v.text is not None])


_SIZE = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s?(?P<unit>[kKmMgGtT])(?P<i>i?)[bB]")
_SIZE_NAME = re.compile(r"bytes|size|length", re.IGNORECASE)
_POWERS = {"k": 1, "m": 2, "g": 3, "t": 4}


def _in_bytes(stated: str, name: str, fp: Fingerprint) -> str | None:
    """A size ("10 MB", "512 KiB") stated for a setting named in bytes, as a size or a
    length (``LOG_MAX_BYTES``, ``MAX_UPLOAD_SIZE``, ``MAX_CONTENT_LENGTH``), in bytes: the
    code's own number where it is that size counted in 1000s or in 1024s ("10 MB" and
    ``10 * 1024 * 1024``, as people say it) or, for a setting not named in bytes, the number
    as stated (``cache_size = 1024`` counts in MB), else the size in 1024s, which it is not."""
    m = _SIZE.fullmatch(stated.strip())
    if m is None or not _SIZE_NAME.search(name):
        return None
    power = _POWERS[m["unit"].lower()]
    sizes = [float(m["n"]) * base**power for base in ((1024,) if m["i"] else (1000, 1024))]
    otherwise = sizes[-1]
    if "bytes" not in name.lower():  # ``cache_size = 1024`` is "1024 MB": counted in MB
        sizes.append(float(m["n"]))
    given = [*fp.constant_values(name), *fp.env_default_values(name)]
    for _, held in given or fp.members_named(name):
        number = typed_value(held.text) if held.text is not None else None
        if isinstance(number, float) and number in sizes:
            return _number(number)
    return _number(otherwise)


def _number(x: float) -> str:
    """A number as a literal states it: ``10485760``, ``0.001``."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _file_of(named: str | None, fp: Fingerprint) -> str | None:
    """The tracked file a note names as a path (``app/paging.py``) or as a Python module
    (``kinto.core``, ``app.paging``); the text as written when it is neither."""
    if named is None:
        return None
    if fp.tracked_path(named) is not None:
        return fp.tracked_path(named)
    base = named.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if "/" in named or "." in named:
            found = fp.tracked_path(candidate)
            if found is not None:
                return found
    return named


# A unit written in parentheses after a number ("10 (MB)"), not a constant so named
_UNIT_NAME = re.compile(r"[KMGTP]I?B|B|MS|SEC|SECS|KBPS|MBPS|RPS|QPS")


def _parenthesised(m: re.Match[str]) -> tuple[str, int, str | None] | None:
    """(name, where it starts, the path or module named) from a parenthesis: the key of the
    dict named before it ("REST_FRAMEWORK PAGE_SIZE") or after the module ("in kinto.core's
    DEFAULT_SETTINGS") qualified by that dict."""
    holder = m.group("holder") or m.group("within")
    path = m.group("path")
    if holder is None and path is None and _UNIT_NAME.fullmatch(m.group("name").upper()):
        return None
    if holder is None and path and _DICT_NAME.fullmatch(path):  # "(`PORT` in `DEFAULT_CONFIG`)"
        holder, path = path, m.group("file")
    name = f"{holder}.{m.group('name')}" if holder else m.group("name")
    return name, m.start("name"), path


_DICT_NAME = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*")


def _code_like(text: str, name: str, at: int) -> bool:
    """Written as code: in backticks, in capitals, with an underscore or a dot."""
    ticked = text[at - 1 : at] == "`"
    camel = name[1:] != name[1:].lower() and name != name.upper()  # ErrNotFound, gitClone
    return ticked or "_" in name or "." in name or camel or (name.isupper() and len(name) > 1)


def _resolve(name: str, where: str | None, fp: Fingerprint, value: str,
             default: bool) -> Anchor | None:  # fmt: skip
    """The value anchor for ``name``: an environment default when the note says "default",
    else a constant in one file (``where`` first). None when the code has no literal."""
    constant = _constant(name, where, fp)
    env = fp.env_default_values(name) if "." not in name else []  # a dict's key: a constant
    # "(`MAIL_PORT` in `configs/default.py`)": that file's own literal, where it has one
    placed = constant is not None and where is not None and constant[0] == where
    if default and any(v.text is not None for _, v in env) and not placed:
        return Anchor(AnchorKind.ENV, name, version=value)
    if constant is not None:
        path, qualname = constant
        return Anchor(AnchorKind.SYMBOL, qualname, scope=path, version=_literal_of(value, path, fp))
    return None


def _literal_of(value: str, path: str, fp: Fingerprint) -> str:
    """``value``, or the literal it names when it is another constant of ``path``
    ("`DEFAULT_PAGE_SIZE = QUERY_LIMIT`": what QUERY_LIMIT holds there)."""
    if not _IDENTIFIER.fullmatch(value) or value.lower() in _FLAG_WORDS | {"none", "null"}:
        return value
    held = next((v.text for p, v in fp.constant_values(value) if p == path), None)
    return held if held is not None else value


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_CAMEL = re.compile(r"[a-z][A-Z]")


def _key_elsewhere(name: str, named: str | None, fp: Fingerprint) -> bool:
    """Whether ``name`` is only a key (or a class attribute) of other files than the code
    file a note names it in ("(`page_size` in `app/settings.py`)")."""
    if named is None or named not in fp.code or fp.constant_values(name):
        return False
    members = fp.members_named(name)
    return bool(members) and not any(p == named for p, _ in members)


# A folder of examples or samples: configurations to copy, not the application's own
_EXAMPLE = re.compile(r"(?:^|/)(?:examples?|samples?|demos?)/", re.IGNORECASE)


def _constant(name: str, where: str | None, fp: Fingerprint) -> tuple[str, str] | None:
    """(file, qualified name) of the one constant ``name`` that the code gives a literal
    (in ``where`` when it is assigned there): the name itself, else the one class attribute
    or dict key so called ("PAGE_SIZE" for ``REST_FRAMEWORK = {"PAGE_SIZE": 20}``)."""
    found = fp.constant_values(name)
    if not found and "." not in name:
        members = fp.members_named(name)
        found = [(p, v) for p, v in members if v.text is not None]
        if len(found) < len(members) and not any(p == where for p, _ in found):
            # another class gives it a name, not a literal (``__node_cls__ = LndRestNode``
            # in a subclass, ``None`` in the base): which one is meant cannot be told
            return None
    if not found and "." not in name and name[:1].isupper():
        # ``class Timeout(Setting): default = 30``: a class declaring one setting
        found = fp.constant_values(f"{name}.default")
    # the application's own value, not a test's fixture of it nor a build's copy of it,
    # nor an example's configuration
    # (a test's constant only where the note names its file: "PORT = 8001" in a test is
    # not the application's port)
    found = ([(p, v) for p, v in found if runs(p) and not built_copy(p, fp)]
             or [(p, v) for p, v in found if p == where])  # fmt: skip
    found = [(p, v) for p, v in found if not _EXAMPLE.search(p)] or found
    if where is not None:
        here = [(p, v) for p, v in found if p == where]
        if here:
            found = here
    places = {(p, v.name) for p, v in found}
    if not places or any(v.text is None for _, v in found):
        return None
    if len(places) > 1 and len({v.text for _, v in found}) > 1:
        return None  # two settings so named, with different values: which one is meant
    return min(places)  # one, or several with one literal (``WEBAPP``'s and ``DAEMON``'s)
