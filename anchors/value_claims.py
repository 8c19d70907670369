"""The values a note states: what an existence anchor never checks (issue #31, adr/0025).

"The maximum page size is 500 (``MAX_PAGE_SIZE`` in ``app/paging.py``)" is not made true
by ``app/paging.py`` existing, nor "compose runs postgres:12" by ``tech:postgresql``. A
note that states a value is VERIFIED only when an anchor checks that value; until then the
value is an uncovered part of the claim, named in the answer ("not checked: the value
500"), and the note stays ACTIVE.

A value here is what a sentence asserts of a thing, read by its form:

- a number, with or without a unit (``500``, ``30 s``, ``10MB``, ``5%``, ``3.9``, ``v2``);
- an image or package tag (``postgres:12``, ``python:3.9-slim``);
- an assignment (``DEBUG=False``, ``pool_pre_ping=True``);
- a code literal after a verb of value ("defaults to ``json``", "is set to ``False``",
  "is True");
- an upper-case token with digits that names a variant (``RS256``, ``SHA512``, ``UTF8``);
- a Dockerfile instruction written as in the file (``USER isso``, ``EXPOSE 8000``);
- a path or a capitalised word after "defaults to" (``/etc/app.cfg``, ``UTC``);
- the name a thing "is named" or "is called" (``var0``), unless the code has it.

Numbers that are part of a name (``s3``, ``oauth2``, ``http2``, ``v1/api.py``, a
standard's: "RFC 3339", "ISO 8601"), a path, a line reference (``app.py:42``), an issue
(``#123``) or an ordinal list marker are not values the note asserts about the code.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from anchors.durations import WORD_DURATION
from anchors.literals import EMPTY, QUALIFIED_NAME, same_value

__all__ = [
    "STANDARD",
    "StatedValue",
    "bare_value",
    "in_call_expression",
    "stated_as_default",
    "stated_values",
    "uncovered_values",
    "values_checked_by",
    "values_configured_by",
    "values_stated_by",
    "version_span",
]


_CALL_OPEN = re.compile(r"[A-Za-z_][\w.]*\($")


def in_call_expression(text: str, at: int) -> bool:
    """Whether ``at`` stands inside the parentheses of a call written in backticks
    (`` `PBKDF2(salt=None, iterations=1000)` ``): an argument of that call, not the value
    of a name of the code elsewhere."""
    opened = text.rfind("`", 0, at)
    if opened < 0 or text.count("`", 0, at) % 2 == 0:
        return False
    depth = 0
    for i in range(at - 1, opened, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                return _CALL_OPEN.search(text, opened + 1, i + 1) is not None
            depth -= 1
    return False


@dataclass(frozen=True)
class StatedValue:
    """One value a note states: its text, its span, and the phrase an answer names it by."""

    text: str
    start: int
    end: int
    default: bool = False  # stated only as what something defaults to ("an empty list")

    @property
    def phrase(self) -> str:
        return f"that it defaults to {self.text}" if self.default else f"the value {self.text}"


_UNITS = (
    r"%|ms|msec|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|"
    r"weeks?|months?|years?|[kKmMgGtT]i?[bB]|bytes?|kb|mb|gb|tb|rps|qps|req/s|x"
)
# A number standing alone, or negative: not glued to a letter, a path, a dotted name or a
# `#` (``1_024`` as Rust and Python write it).
_NUMBER = re.compile(
    rf"(?<![\w#/.\-:@$])(?:-(?=\d))?v?\d+(?:_\d{{3}})*(?:[.,]\d+)*(?:\s?(?:{_UNITS})(?![\w]))?(?![\w/]|\.\w)",
    re.IGNORECASE,
)
_UNIT_AFTER = re.compile(rf"\s?(?:{_UNITS})\b", re.IGNORECASE)
# A number written with its base: ``0o644``, ``0x1F``, ``0b101``
_BASED = re.compile(r"(?<![\w#/.\-:@$])0(?:[xX][0-9a-fA-F_]+|[oO][0-7_]+|[bB][01_]+)(?![\w/]|\.\w)")
# ``postgres:12``, ``python:3.9-slim``, ``node:20-alpine``, ``redis:7.2``
_TAG = re.compile(r"(?<![\w/.\-])[a-z][\w.\-]*(?:/[\w.\-]+)*:v?\d[\w.\-]*", re.IGNORECASE)
# ``DEBUG=False``, ``pool_pre_ping=True``, ``workers = 4``
# (arithmetic of numbers is one value: ``EXPIRE = 3600 * 24 * 7``)
_ARITHMETIC = r"\d[\d_]*(?:\.\d+)?(?:\s?(?:[*+/]|<<|>>)\s?\d[\d_]*(?:\.\d+)?)+(?!\w|\.\d)"
_SCALED = r"\d[\d_]*(?:\.\d+)?\s?\*\s?[A-Za-z_][\w.]*\w(?![\w(])"  # ("2 * time.Minute")
_ASSIGN = re.compile(  # (``DELAY = timedelta(minutes=1)``: the call whole)
    rf"\b[A-Za-z_]\w*\s?=\s?(?!=)(?:{_ARITHMETIC}|[A-Za-z_][\w.]*\([^()\n]{{0,60}}\)"
    rf"|{_SCALED}|[\"']?[\w.\-:/]+[\"']?)"
)
_BARE_ARITHMETIC = re.compile(rf"(?<![\w.\-:/]){_ARITHMETIC}")  # (not ``localhost:6379/0``)
# ``RS256``, ``HS512``, ``SHA256``, ``UTF8``: a variant named in capitals with digits
_VARIANT = re.compile(r"(?<![\w\-.])[A-Z]{2,}\d{1,4}(?![\w\-])")
# "defaults to `json`", "is set to `False`", "is `'info'`"
_DEFAULTS = (
    r"(?:defaults?|defaulting|defaulted|falls?\s+back|falling\s+back)\s+to"
    r"|(?:its|the|a|with\s+a)\s+default\s+(?:of|is)"
)
_LITERAL_AFTER = re.compile(
    rf"\b(?:{_DEFAULTS}|is\s+set\s+to|set\s+to|is|=|equals|of)\s+"
    r"`(?P<v>[^`\n]{1,40})`",
    re.IGNORECASE,
)
# "the default timestamp format is time.RFC3339": a package's exported name as the value
_QUALIFIED_AFTER = re.compile(
    rf"\b(?:{_DEFAULTS}|is\s+set\s+to|set\s+to|is|=|equals)\s+"
    rf"(?P<v>{QUALIFIED_NAME.pattern})(?![\w(]|\.\w)"
)
# "ALLOW_UPLOAD_VIDEOS is True", "defaults to None": Python's literals, written as code
# ("... when it is None" is a condition on something unnamed, not a value stated of it)
_PYTHON_LITERAL = re.compile(
    r"(?<!\bit\s)(?<!\bthis\s)(?<!\bthat\s)(?<!\bthey\s)"
    r"\b(?:is|=|equals|(?:defaults?|defaulting)\s+to|set\s+to|is\s+set\s+to)\s+"
    r"(?P<v>True|False|None)\b"
)
# "`EnableSorting` is true", "defaultSorting = false": a bool or nil as Go, JavaScript and
# Rust write them, stated of a name written as code
_CODE_BOOL = re.compile(
    r"(?:`[^`\n]+`|\b[A-Za-z_]*(?:[a-z][A-Z]|_)\w*)\s+(?:is|=|==|equals)\s+`?"
    r"(?P<v>true|false|nil|null)\b"
)
# "`EnvFilter::DEFAULT_ENV` is RUST_LOG": a name in capitals with an underscore, stated of a
# name written as code, is the string it holds
_CAPS_AFTER = re.compile(
    r"(?:`[^`\n]+`|\b[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)+|\b[A-Za-z]*(?:[a-z][A-Z]|_)\w*)"
    r"\s+(?:is|equals|=)\s+`?(?P<v>[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])\b"
)
# "defaults to /etc/app.cfg", "falls back to config/app.ini", "defaults to UTC", "defaults
# to Europe/Berlin": a path or a capitalised word after "defaults to" is the default the
# note states.
_DEFAULT_WORD = re.compile(
    rf"\b(?:{_DEFAULTS})\s+`?(?P<v>~?/[\w.\-/]+|[\w.\-]+/[\w.\-/]*\.\w+"
    r"|[A-Z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*)"
    r"(?![\w/])"
)
# "defaults the timezone to "UTC"", "falls back to the "Europe/Rome" timezone": a quoted
# literal stated as what something defaults to
_DEFAULT_QUOTED = re.compile(
    rf"\b(?:{_DEFAULTS}|defaults?\s+(?:the\s+|its\s+)?[\w\-]+(?:\s[\w\-]+)?\s+to)\s+"
    r"(?:the\s+|an?\s+)?(?P<q>[\"“'])(?P<v>[^\"”'\n]{1,60})[\"”']",
    re.IGNORECASE,
)
# "defaults to cert.pem", "defaults to image_ssim_diff", "defaults to info": a file name, a
# snake_case word or one plain word ending its clause is the default the note states
_DEFAULT_CODE_WORD = re.compile(
    rf"\b(?:{_DEFAULTS})\s+`?(?P<v>[a-z][\w\-]*(?:\.[A-Za-z0-9_\-]+)+|[a-z][a-z0-9]*_\w*"
    r"|(?!(?:the|a|an|its|their|his|her|our|your|this|that|these|those|what|whatever|"
    r"whichever|some|something|any|one|whether|using)\b)[a-z][a-z0-9\-]*(?=`?\s*(?:[,;:)]|\.(?:\s|$)|$)"
    r"|`?\s+(?:when|if|unless|and|but|so|which|because|while)\b))"
    r"(?![\w/])"
)
# "The default LOADER is thumbor.loaders.http_loader": a setting named as code, its default
# a dotted module path or a snake_case word, as ``_DEFAULT_CODE_WORD`` reads after "defaults to"
_DEFAULT_NAME_IS = re.compile(
    r"\b[Tt]he\s+default\s+`?(?:[A-Z][A-Z0-9]*_?[A-Z0-9_]*|[a-z]+_\w+)`?\s+is\s+"
    r"`?(?P<v>[a-z][\w\-]*(?:\.[A-Za-z0-9_\-]+)+|[a-z][a-z0-9]*_\w*)`?(?![\w/])"
)
# "defaults to an empty list", "falls back to nothing": an empty value (``EMPTY``)
_EMPTY_DEFAULT = re.compile(
    rf"\b(?:{_DEFAULTS}|is\s+set\s+to|uses|returns|gets)\s+(?P<v>(?:an?\s+)?empty(?:\s+(?:list|string|str|dict|"
    r"dictionary|mapping|set|tuple|array|map|value|collection))?|nothing|blank)\b",
    re.IGNORECASE,
)
# Whatever else a note says something defaults to, up to its clause's end: a value no
# reader here compares, named as unchecked so that the existence of the thing never
# VERIFIES it ("`DISABLED_PROCESSORS` defaults to every processor but one").
_DEFAULT_PHRASE = re.compile(
    r"\b(?:(?:defaults?|defaulting|defaulted|falls?\s+back|falling\s+back)\s+to"
    r"|default\s+(?:value\s+)?(?:of|is))\s+"
    r"(?!(?:used|applied|set|taken|read|chosen|kept|not|only|always|never)\b"
    r"|(?:its|their|the|a|an)\s+(?:own\s+)?defaults?\b)"
    r"(?P<v>[^\s,;()][^,;()\n]{0,48}?)"
    r"(?=\s*(?:[,;()]|\.(?:\s|$)|$)|\s+(?:when|if|unless|so|but|because|which|while|except)\b)",
    re.IGNORECASE,
)
# "The default level of a new Logger is DebugLevel": what a thing's default is, said of it
# in words; a name of the code there exists, which says nothing of its being the default
_DEFAULT_OF_IS = re.compile(
    r"\bthe\s+default\s+(?!(?:is|are|value|of|when|if|unless)\b)[\w\-']+"
    r"(?:\s+(?!(?:is|are|when|if|unless|while|because|that|which|where|and|but|or)\b)"
    r"[\w\-'.]+){0,6}?"
    r"\s+(?:is|are)\s+(?!(?:not|never|always|set|used|taken|read|applied|chosen)\b)"
    r"(?:(?:just|only|exactly)\s+)?(?P<v>[^\s,;()][^,;()\n]{0,48}?)(?=\s*(?:[,;()]|\.(?:\s|$)|$)|\s+(?:when|if|unless|so|but|"
    r"because|which|while|except)\b)",
    re.IGNORECASE,
)
# "the image's working directory is /data": a Dockerfile's WORKDIR in words
_WORKDIR_WORDS = re.compile(
    r"\bworking\s+director(?:y|ies)\s+(?:is|=|:|is\s+set\s+to|of\s+[\w\s']{1,30}?\s+is)\s+"
    r"`?(?P<v>/[\w.\-/]*)",
    re.IGNORECASE,
)
# "is on by default", "is empty by default": a flag's or a list's default in words
_BY_DEFAULT_WORD = re.compile(
    r"\b(?:is|are)\s+(?P<v>on|off|enabled|disabled|empty|blank|set|unset)\s+"
    r"(?:by\s+default\b|(?=(?:unless|until|when|if)\s))",  # "are off unless `X` is set"
    re.IGNORECASE,
)
# ``127.0.0.1:5797``, ``localhost:8000``, ``redis://localhost:6379/0``: an address, one value
_ADDRESS = re.compile(
    r"(?<![\w.\-/:@])(?:[a-z][a-z0-9+]*://[^\s,;()`'\"]+[^\s,;()`'\".]"
    r"|(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):\d{1,5})(?![\w:])"
)
_EMPTY_WORDS = re.compile(r"(?:an?\s+)?empty(?:\s+\w+)?|nothing|blank", re.IGNORECASE)
# "capture groups are named var0, var1": the name a thing is given, a value the note states
# (a name in backticks is code the note names, anchored as such)
_NAMED_AS = re.compile(
    r"\b(?:is|are|gets?|was|were)\s+(?:named|called)\s+"
    r"(?P<v>(?=[\w\-]*[A-Z0-9_])[A-Za-z_][\w\-]*(?:\.\w+)*"  # a name: "called on" is not
    r"|`?[\w\-]+\.[A-Za-z][A-Za-z0-9]{0,4}`?(?![\w.]))"  # ... or a file's: "config.json"
)
# "durations are logged in seconds by default (`DurationFieldUnit`)": the unit a constant
# is, said of one named in parentheses right after it; its value is one of that unit
_UNIT_OF = re.compile(
    r"\bin\s+(?P<v>(?:nano|micro|milli)?seconds|minutes|hours)\b"
    r"(?=(?:\s*,?\s*by\s+default)?\s*\(\s*`?[A-Za-z_])",
    re.IGNORECASE,
)
# A Dockerfile instruction written as in the file: "USER isso", "EXPOSE 8000".
_INSTRUCTION = re.compile(
    r"(?<!\bno\s)\b(?:FROM|EXPOSE|USER|WORKDIR|ENTRYPOINT|CMD)\s+(?P<v>[^\s,;()`'\"]+)"
)
_NOT_AN_ARGUMENT = frozenset(
    {"line", "lines", "directive", "directives", "instruction", "instructions", "statement"}
)
_DOCKER_CONTEXT = re.compile(r"dockerfile|\bimage\b|\bcontainer", re.IGNORECASE)
_IMAGE_CONTEXT = re.compile(r"docker|\bimage\b|\bcontainer", re.IGNORECASE)
# "--host 0.0.0.0", "--port=8000", "`--preload`": a command-line option, with the value after
# it when that is written like one (a number, a path, an address, a variable, code).
OPTION = re.compile(
    r"(?<![\w-])(?P<opt>--[a-z][a-z0-9-]*[a-z0-9])"
    r"(?:(?:=|\s+)(?P<value>`[^`\s]+`|(?=\S*[\d$/:.])[^\s,;`'\")]+(?<![.,;:])))?",
)
_CODE_LITERAL = re.compile(r"^(?:True|False|None|true|false|null|['\"].*['\"]|-?\d[\w.]*)$")
# ``07:30``, ``4:00 pm``, ``2024-01-05``: a time or a date, one value
_CLOCK = re.compile(r"(?<![\w:.])\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?![\w:])", re.I)
_DATE = re.compile(r"(?<![\w\-])\d{4}-\d{2}-\d{2}(?![\w\-])")
_LINE_REF = re.compile(r"\.\w{1,5}:\d+")
# A name in backticks (`PY2`, `handlers.v2`) is code the note names, not a value it states.
_TICKED_NAME = re.compile(r"`(?!(?:True|False|None|true|false|null)`)[A-Za-z_][\w.]*`")
_LIST_MARKER = re.compile(r"(?:^|\n)\s*(?P<n>\d+)[.)]\s")
# "RFC 3339", "ISO 8601", "PEP 517", "CVE-2023-1234": a standard's number is its name
STANDARD = re.compile(
    r"(?<![\w.])(?:RFC|ISO(?:/IEC)?|PEP|IEEE|ECMA|FIPS|CVE|BCP|NIST\s+SP|ITU-T\s+[A-Z]\.?)"
    r"[\s\-]?\d+(?:[.\-]\d+)*(?!\w|\.\d)"
)
# A quoted string stated of a code name: "`ErrNotFound`'s message is "route not found"",
# "the id is 'git:clone' (`CommandIDs.gitClone`)", "the field is called "time"
# (`TimestampFieldName`)", "stored under the key "_flash" (`flashesKey`)". Prose quotes
# a word without a code name.
_QUOTE = r"(?P<v>\"[^\"\n]{1,80}\"|'[^'\n]{1,80}'|“[^”\n]{1,80}”)"
_QUOTED_OF = re.compile(
    r"(?P<name>`[^`\n]{1,80}`|[A-Za-z_][\w.]*)(?:['’]s(?:\s+[a-z]+){1,2})?\s+"
    rf"(?:is|equals|defaults\s+to|is\s+set\s+to|reads|returns)\s+{_QUOTE}"
)
# "reads DATABASE_URL, with 'sqlite://' if not set": the default a quote states
_QUOTED_IF_UNSET = re.compile(
    rf"\bwith\s+{_QUOTE}\s+if\s+(?:it\s+is\s+|it[’']s\s+)?(?:not\s+set|unset|missing|absent)\b",
    re.IGNORECASE)
_QUOTED_BEFORE = re.compile(
    rf"\b(?:is|equals|defaults\s+to|is\s+set\s+to|(?:is|are)\s+(?:called|named)|starts\s+as|"
    r"is\s+initially|(?:under|with|as|in)"
    r"\s+the\s+(?:key|name|field|header|cookie|prefix|label|tag))\s+"
    rf"{_QUOTE}"
    r"\s*\(\s*"
    r"(?P<name>`[^`\n]{1,80}`|[A-Za-z_][\w.]*)"
)


def stated_values(text: str) -> list[StatedValue]:
    """Every value ``text`` states, in order, without overlaps."""
    return list(_stated_values(text))


# A value built by code, in backticks after "is" or "=": a composite literal or a call
_COMPOSITE = re.compile(r"(?:\bis|=)\s+`(?P<v>[A-Za-z_][\w.]*(?:\{[^`{}\n]*\}|\([^`()\n]*\)))`")


@functools.lru_cache(maxsize=256)  # one note is read for values by several readers
def _stated_values(text: str) -> tuple[StatedValue, ...]:
    found: list[StatedValue] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, value: str) -> None:
        if any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        found.append(StatedValue(value, start, end))

    markers = {m.start("n") for m in _LIST_MARKER.finditer(text)}
    taken.extend(m.span() for m in _TICKED_NAME.finditer(text))
    taken.extend(m.span() for m in STANDARD.finditer(text))
    for m in _ASSIGN.finditer(text):
        if _UNIT_AFTER.match(text, m.end()):
            continue  # "maxBufSize = 8 KB": the number with its unit, read below
        said = m.group().rstrip(".")  # "... with case_sensitive = False.": a sentence's end
        add(m.start(), m.start() + len(said), said)
    for m in _COMPOSITE.finditer(text):  # "is `StandardKeyGenerator{KeyType: RSA2048}`"
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _BARE_ARITHMETIC.finditer(text):  # "(1 << 0)", "86400 * 30": one value
        add(m.start(), m.end(), m.group())
    for m in _ADDRESS.finditer(text):
        add(m.start(), m.end(), m.group())
    for m in (*_CLOCK.finditer(text), *_DATE.finditer(text)):
        add(m.start(), m.end(), m.group())
    for m in _TAG.finditer(text):
        if _LINE_REF.search(m.group()):
            continue
        add(m.start(), m.end(), m.group())
    quoted = '"' in text or "“" in text or text.count("'") > 1  # else no quote to read
    for m in (*_QUOTED_OF.finditer(text), *_QUOTED_BEFORE.finditer(text)) if quoted else ():
        if _names_code(m.group("name")):
            add(m.start("v"), m.end("v"), m.group("v"))
    for m in (*_PYTHON_LITERAL.finditer(text), *_CODE_BOOL.finditer(text),
              *_CAPS_AFTER.finditer(text)):  # fmt: skip
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _QUALIFIED_AFTER.finditer(text):
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _LITERAL_AFTER.finditer(text):
        value = m.group("v").strip()
        if _CODE_LITERAL.match(value):
            add(m.start("v"), m.end("v"), value)
    for m in _UNIT_OF.finditer(text):
        add(m.start("v"), m.end("v"), f"1 {m.group('v')[:-1].lower()}")
    for m in _INSTRUCTION.finditer(text) if _DOCKER_CONTEXT.search(text) else ():
        value = m.group("v").rstrip(".:")
        if value.lower() not in _NOT_AN_ARGUMENT:
            add(m.start("v"), m.start("v") + len(value), value)
    for m in OPTION.finditer(text) if _IMAGE_CONTEXT.search(text) else ():
        add(m.start(), m.end(), m.group())  # what the image runs with: a value to check
    for m in _DEFAULT_QUOTED.finditer(text) if quoted else ():
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _QUOTED_IF_UNSET.finditer(text) if quoted else ():
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _DEFAULT_WORD.finditer(text):
        value = m.group("v").rstrip(".")
        add(m.start("v"), m.start("v") + len(value), value)
    for m in (*_DEFAULT_CODE_WORD.finditer(text), *_DEFAULT_NAME_IS.finditer(text)):
        value = m.group("v").rstrip(".")
        add(m.start("v"), m.start("v") + len(value), value)
    for m in (*_EMPTY_DEFAULT.finditer(text), *_BY_DEFAULT_WORD.finditer(text),
              *_WORKDIR_WORDS.finditer(text)):  # fmt: skip
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _NAMED_AS.finditer(text):
        add(m.start("v"), m.end("v"), m.group("v"))
    for m in _VARIANT.finditer(text):
        add(m.start(), m.end(), m.group())
    for m in WORD_DURATION.finditer(text):
        add(m.start(), m.end(), m.group())  # "defaults to one hour"
    for m in _BASED.finditer(text):  # "a mode of 0o644", "flags 0x10"
        add(m.start(), m.end(), m.group())
    for m in _NUMBER.finditer(text):
        if m.start() in markers or _in_line_ref(text, m.start()):
            continue
        add(m.start(), m.end(), m.group().strip())
    for m in (*_DEFAULT_PHRASE.finditer(text), *_DEFAULT_OF_IS.finditer(text)):
        if not any(a < m.end("v") and m.start("v") < b for a, b in taken):
            taken.append(m.span("v"))
            found.append(StatedValue(m.group("v"), m.start("v"), m.end("v"), default=True))
    found.sort(key=lambda v: v.start)
    return tuple(found)


def _names_code(name: str) -> bool:
    """Whether ``name`` is written as code: in backticks, with ``_`` or ``.``, in capitals
    or camelCase ("ErrNotFound", "SkipRouter")."""
    if name.startswith("`") or "_" in name or "." in name.strip("."):
        return True
    return len(name) > 1 and (name.isupper() or (name[1:] != name[1:].lower()
                                                 and name != name.upper()))  # fmt: skip


def _in_line_ref(text: str, at: int) -> bool:
    """``app.py:42`` / ``line 42``: a place in a file, not a value."""
    before = text[max(0, at - 6) : at].lower()
    return before.endswith(("line ", "lines ", "l.", "#l"))


_AFTER_DEFAULT = re.compile(rf"\b(?:{_DEFAULTS})\s+`?$", re.IGNORECASE)


def stated_as_default(text: str, value: StatedValue) -> bool:
    """Whether ``value`` is what the note says something defaults to ("defaults to
    PostgreSQL", "the default level ... is DebugLevel"): a thing of that name existing
    does not make it the default."""
    return value.default or bool(_AFTER_DEFAULT.search(text, max(0, value.start - 60),
                                                       value.start))  # fmt: skip


def uncovered_values(text: str, covered: Iterable[tuple[int, int]]) -> list[StatedValue]:
    """The values ``text`` states outside the ``covered`` spans (those an anchor checks):
    a value a span overlaps is checked ("`Precision::Millis`" of which the anchor reads
    ``Millis``)."""
    spans = list(covered)
    return [v for v in stated_values(text) if not any(a < v.end and v.start < b for a, b in spans)]


# What a version stated right after a package name takes up: "django 4.2", "httpx>=0.27",
# "pinned below 3", "Python 3.8+", "^2.6.0", "3.8 or newer", "between 1.2 and 2".
_VERSION_TAIL = re.compile(
    r"(?:[\s`]*(?:version|requirement|pin|constraint|is|pinned|required|declared|locked|to|"
    r"at|below|above|under|least|most|"
    r"over|from|between|and|or|newer|older|later|earlier|higher|lower|[<>=!~^]{1,2}))*"
    r"[\s`]*v?\d[\w.*+]*(?:\s*(?:,|and|or|to|through|until|–|but)\s*"
    r"(?:(?:below|under|before|less\s+than|lower\s+than)\s+)?[<>=!~^]{0,2}\s*v?\d[\w.*+]*)*"
    r"`?\+?",
    re.IGNORECASE,
)


def version_span(text: str, at: int) -> tuple[int, int]:
    """The span of the version stated right after ``at`` (a package's name), which its
    dependency anchor checks; empty when none follows."""
    m = _VERSION_TAIL.match(text, at)
    return (at, m.end()) if m else (at, at)


def values_checked_by(text: str, versions: Iterable[str]) -> list[tuple[int, int]]:
    """The spans of ``text``'s values that one of ``versions`` (the version specs of the
    anchors given with a note) states: a dependency anchor with a version checks it."""
    digits = [re.findall(r"\d+(?:\.\d+)*", v) for v in versions]
    wanted = {d for ds in digits for d in ds}
    return [
        (v.start, v.end)
        for v in stated_values(text)
        if set(re.findall(r"\d+(?:\.\d+)*", v.text)) & wanted
    ]


# What a value anchor can state: a number, a bool, None, a quoted string, one code word, or
# dotted numbers (``0.0.0.0``, a version), compared as the string they are.
_PLAIN = re.compile(
    r"^(?:-?\d[\d_]*(?:\.\d+)?|\d+(?:\.\d+){2,}|['\"][^'\"]*['\"]|~?/?[A-Za-z_][\w.\-/]*"
    rf"|{_ARITHMETIC}|{_SCALED})$"
)


def bare_value(value: StatedValue) -> str | None:
    """The literal a value anchor would state for ``value``, or None when it has a unit or
    another form no constant holds ("30 s", "postgres:12"): ``NAME=3`` gives ``3``."""
    text = value.text.strip("`")
    if _EMPTY_WORDS.fullmatch(text):
        return EMPTY
    if value.default:
        return None
    if _ASSIGN.fullmatch(text):
        text = text.partition("=")[2].strip()
    if _ADDRESS.fullmatch(text):
        return text
    return text if _PLAIN.match(text) and not _TAG.fullmatch(text) else None


_NUMBERS = re.compile(r"\d+(?:\.\d+)*")


def values_configured_by(text: str, stated: Iterable[str]) -> list[tuple[int, int]]:
    """The spans of ``text``'s values that one of ``stated`` (the values of the ``config:``
    anchors given with a note: ``python:3.11``, ``3.10-3.12``, ``8080:8000``) states: the
    same text, or a value whose numbers are all among the anchor's ("Python 3.11" and
    ``python:3.11``, "port 8000" and ``8080:8000``, "3.10" and ``3.10-3.12``)."""
    wanted = [(w.strip("`'\"").casefold(), set(_NUMBERS.findall(w))) for w in stated]
    spans = []
    for v in stated_values(text):
        raw = v.text.strip("`'\"").casefold()
        numbers = set(_NUMBERS.findall(raw))
        if any(raw == w or (numbers and numbers <= n) for w, n in wanted):
            spans.append((v.start, v.end))
    return spans


def values_stated_by(text: str, stated: Iterable[str]) -> list[tuple[int, int]]:
    """The spans of ``text``'s values that one of ``stated`` (the values of the symbol and
    env anchors given with a note, ``env:PAGE_SIZE=50``) states: those anchors check them."""
    wanted = list(stated)
    spans = []
    for v in stated_values(text):
        bare = bare_value(v)
        if bare is not None and any(same_value(bare, w) for w in wanted):
            spans.append((v.start, v.end))
    return spans
