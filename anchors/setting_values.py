"""Values a note states for a setting it names in words or by a key (issue #31).

``anchors.value_binding`` binds a value to a name written as code right beside it. Two
more ways agents name a setting's default are read here:

- **The setting's own words as the subject.** "The credential helper caches for 15
  minutes: `cache --timeout=900`", "the git command timeout is 30 s": two or three words
  in a row that, joined as code joins them (``credential_helper``, ``gitCommandTimeout``),
  name exactly one setting the code gives a literal. The value is a literal written as
  code in the sentence, or a number (a duration converted as for any unit-less Python
  setting, ``anchors.durations``). A quoted literal that is only part of the code's, or
  holds it, says something true of a part: left unbound.
- **A rate keyed by a word.** "Login attempts are throttled at 5/min", "the 'login' rate
  is 5/min" against ``DEFAULT_THROTTLE_RATES = {'login': '10/min'}``: a rate (``5/min``,
  ``5 per minute``) stated in a sentence that names a key of a dict whose value is a rate
  (as a word, quoted or in backticks). Never from the value alone; and when another key of
  that dict begins a word of the sentence ("anonymous users" beside ``anon`` and
  ``user``), which entry is meant cannot be told.

A rate or a duration that means what the code says is stated in the code's own spelling,
so ``5/minute`` holds against ``'5/min'``. A bound ("at most", "capped at", "up to") is
no default: left as it was. Guards of ``anchors.value_binding`` apply (a condition, a
plan, the past, a negation, another environment).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from anchors.durations import in_plain_seconds, in_units_of, seconds
from anchors.env_records import ValueFact
from anchors.facts import Fingerprint
from anchors.literals import same_value, typed_value
from anchors.mentions import runs
from anchors.settings_schemas import UNIT_SECONDS, UNIT_SUFFIX
from anchors.spec import Anchor, AnchorKind
from anchors.subject import named_file
from anchors.value_binding import _ELSEWHERE, _NOT_PLAIN, Binding, _file_of, _named
from anchors.value_claims import StatedValue, bare_value, stated_values

__all__ = ["bind_setting_values", "rate_seconds", "same_rate", "setting_names"]

_RATE_UNITS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60,
               "h": 3600, "hr": 3600, "hour": 3600, "d": 86400, "day": 86400}  # fmt: skip
_RATE = re.compile(
    r"(?<![\w./])(?P<n>\d+)\s*(?:/\s*|\s+per\s+|\s+a\s+|\s+an\s+)(?P<k>\d+\s*)?"
    r"(?P<unit>s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)(?![\w/])",
    re.IGNORECASE,
)
# "5 requests per minute", "5 attempts/min": a count of something per period
_COUNTED_RATE = re.compile(
    r"(?<![\w./])(?P<n>\d+)\s+[a-z]+(?:\s*/\s*|\s+per\s+|\s+an?\s+)"
    r"(?P<unit>s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)(?![\w/])",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_CODE_LITERAL = re.compile(r"`(?P<v>[^`\n]{1,80})`")
_QUOTED_WORD = re.compile(r"(?P<q>['\"`])(?P<w>[A-Za-z_][\w\-]*)(?P=q)")
# A bound is no default: "at most 30 s", "capped at 100", "up to 5/min"
_BOUND = re.compile(
    r"\b(?:at\s+most|at\s+least|up\s+to|capped\s+at|caps?\s+at|limit(?:ed)?\s+to|max(?:imum)?|"
    r"min(?:imum)?|no\s+more\s+than|no\s+less\s+than|more\s+than|less\s+than|fewer\s+than|"
    r"over|under|above|below|within)\s*`?$",
    re.IGNORECASE,
)


def rate_seconds(text: str) -> tuple[int, float] | None:
    """A rate as (count, period in seconds): ``10/min`` and ``10 per minute`` are (10, 60),
    ``100/5m`` is (100, 300); None when ``text`` is not one."""
    m = _RATE.fullmatch(text.strip().strip("`'\""))
    if m is None:
        return None
    unit = m["unit"].lower()
    unit = unit[:-1] if unit.endswith("s") and unit != "s" else unit
    per = _RATE_UNITS.get(unit)
    if per is None:
        return None
    return int(m["n"]), per * (int(m["k"]) if m["k"] else 1)


def same_rate(one: str, other: str) -> bool:
    """Whether two texts state the same rate (``5/min``, ``5/m``, ``5 per minute``)."""
    a, b = rate_seconds(one), rate_seconds(other)
    return a is not None and a == b


_UNIT_NAMES = ("seconds", "ms", "minutes", "hours", "days")


def setting_names(words: Sequence[str]) -> list[str]:
    """The names code gives a setting called by ``words`` ("credential", "helper"):
    ``credential_helper``, ``credentialHelper``, ``CREDENTIAL_HELPER``, ``CredentialHelper``;
    and with the unit
    a name may end with ("the CORS max age" of ``cors_max_age_seconds``)."""
    low = [w.lower() for w in words]
    snake = "_".join(low)
    camel = low[0] + "".join(w.capitalize() for w in low[1:])
    pascal = camel[:1].upper() + camel[1:]  # Go's exported ``DefaultMultiplier``
    names = [snake, camel, snake.upper(), pascal]
    for unit in _UNIT_NAMES:
        names += [f"{snake}_{unit}", f"{camel}{unit.capitalize()}", f"{snake}_{unit}".upper(),
                  f"{pascal}{unit.capitalize()}"]  # fmt: skip
    return names


def bind_setting_values(
    text: str,
    fp: Fingerprint,
    scope: str | None,
    spans: Sequence[tuple[int, int, bool]],
    taken: Sequence[tuple[int, int]],
) -> list[Binding]:
    """The value anchors of settings named by their words or by a rate's key (see the
    module docstring); none over the ``taken`` spans, which other readers bound."""
    found: list[Binding] = []
    for start, end, question in spans:
        if question or _ELSEWHERE.search(text, start, end):
            continue
        for binding in (
            *_rates(text, fp, start, end),
            *_schema_values(text, fp, scope, start, end),
            *_subject_values(text, fp, start, end),
        ):
            a, z = binding.span
            if not any(x < z and a < y for x, y in (*taken, *(b.span for b in found))):
                found.append(binding)
    return found


def _plain_before(text: str, start: int, at: int) -> bool:
    """Nothing before ``at`` in the sentence makes the value a condition, a plan, the
    past, a negation or a bound."""
    return not _NOT_PLAIN.search(text, start, at) and not _BOUND.search(text[start:at])


# -- rates ------------------------------------------------------------------------------------
def _rates(text: str, fp: Fingerprint, start: int, end: int) -> list[Binding]:
    found = []
    sentence = text[start:end]
    for m in (*_RATE.finditer(text, start, end), *_COUNTED_RATE.finditer(text, start, end)):
        if not _plain_before(text, start, m.start()):
            continue
        stated = m.group() if m.re is _RATE else f"{m['n']}/{m['unit']}"
        entry = _rate_entry(sentence, fp)
        if entry is None:
            continue
        path, fact = entry
        value = fact.text if fact.text is not None and same_rate(fact.text, stated) else stated
        anchor = Anchor(AnchorKind.SYMBOL, fact.name, scope=path, version=value)
        found.append(Binding(anchor, fact.name.rpartition(".")[2], m.span()))
    return found


def _rate_entry(sentence: str, fp: Fingerprint) -> tuple[str, ValueFact] | None:
    """The one dict entry whose value is a rate and whose key the sentence names."""
    words = {w.casefold() for w in _WORD.findall(sentence)}
    words |= {m["w"].casefold() for m in _QUOTED_WORD.finditer(sentence)}
    candidates: dict[tuple[str, str], ValueFact] = {}
    for word in {m["w"] for m in _QUOTED_WORD.finditer(sentence)} | set(_WORD.findall(sentence)):
        for key in {word, word.lower()}:
            for path, fact in fp.members_named(key):
                if fact.text is not None and rate_seconds(_unquoted(fact.text)) is not None:
                    candidates[(path, fact.name)] = fact
    if not candidates:
        return None
    running = {k: v for k, v in candidates.items() if runs(k[0])} or candidates
    # the dict named in the sentence ("DEFAULT_THROTTLE_RATES") decides between dicts
    named = {k: v for k, v in running.items()
             if any(part.casefold() in words for part in k[1].split(".")[:-1])}  # fmt: skip
    chosen = named or running
    if len(chosen) != 1:
        return None
    [((path, name), fact)] = chosen.items()
    holder, _, key = name.rpartition(".")
    siblings = [c.name.rpartition(".")[2].casefold() for c in fp.code[path].constants
                if c.name.rpartition(".")[0] == holder and c.name != name]  # fmt: skip
    if any(w != s and w.startswith(s) for s in siblings for w in words if len(s) > 1):
        return None  # "anonymous users" beside ``anon``: which key is meant is unclear
    if key.casefold() not in words:
        return None
    return path, fact


def _unquoted(text: str) -> str:
    value = typed_value(text)
    return value if isinstance(value, str) else text


# -- a setting named by its words, or by its name in a JSON settings schema -----------------------
@dataclass(frozen=True)
class _Setting:
    """A setting with the literal it defaults to, where; ``unit``: what its number counts
    (a JSON schema's ``ms``...; None: not said), ``schema``: declared in a JSON schema."""

    path: str
    fact: ValueFact
    unit: str | None = None
    schema: bool = False


def _subject_values(text: str, fp: Fingerprint, start: int, end: int) -> list[Binding]:
    known = fp.derived("setting_values.words", _name_words)
    words = list(_WORD.finditer(text, start, end))
    where = named_file(text, start, end, fp)  # "(src/rate-limiter.ts)": that file's setting
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            run = words[i : i + size]
            if any(w.group().lower() not in known for w in run):
                continue  # a word no setting's name holds: no setting is called so
            if any(text[a.end() : b.start()] != " " for a, b in pairwise(run)):
                continue
            if size == 1 and not _DEFAULT_BEFORE.search(text, start, run[0].start()):
                continue  # one word names a setting only as "the default level"
            phrase = _whole_phrase(text, start, run[0].start(), run[-1].end(), end)
            if phrase is None:
                continue
            setting = _setting(fp, setting_names([w.group() for w in run]), where)
            if setting is None or (size == 1 and not _in_defaults(setting)):
                continue
            binding = _value_for(text, setting, run[-1].end(), end)
            if (
                binding is not None
                and phrase == "verb"
                and bare_value(StatedValue(text[binding.span[0] : binding.span[1]], *binding.span))
                is not None
            ):
                return []  # "the page size values are 50": a bare number after a verb
            return [binding] if binding is not None else []
    return []


_DEFAULT_BEFORE = re.compile(r"\bdefault\s+\Z", re.IGNORECASE)


def _in_defaults(setting: _Setting) -> bool:
    """Whether a setting is a key of what the code calls its defaults (``defaultOptions``,
    ``DEFAULTS``): "the default level" is ``defaultOptions.level``."""
    owner = setting.fact.name.rpartition(".")[0]
    return "default" in owner.lower()


_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _name_words(fp: Fingerprint) -> frozenset[str]:
    """Every word of a constant's, a class attribute's, a dict key's or a schema setting's
    name, lower case (``credential_helper``, ``refreshInterval``: credential, helper,
    refresh, interval): a run of words none of which is here names no setting."""
    names = [fact.name for facts in fp.code.values() for fact in facts.constants]
    names += list(fp.derived("setting_values.schemas", _schema_index))
    return frozenset(part.lower() for name in names for part in _NAME_PART.findall(name))


# What may stand before a setting's words ("the", "its", "by default the"), and after them:
# "the page size limit is", "the maximum page size is" name another setting than page_size.
_DETERMINERS = frozenset({"the", "its", "our", "their", "this", "a", "an", "default"})
_COPULA_AFTER = re.compile(
    r"\s*(?:[:=(]|(?:is|are|defaults?\s+to|defaults|equals|remains|stays)\b)", re.IGNORECASE
)
_VERB_AFTER = re.compile(r"\s+(?!is\b|as\b)[a-z]+(?<!ss)e?s\b")  # "caches", "refreshes"


def _whole_phrase(text: str, start: int, first: int, last: int, end: int) -> str | None:
    """Whether the words from ``first`` to ``last`` are the whole name of what the
    sentence states a value of: nothing but a determiner or a quote before them; after
    them a copula or a colon ("copula"), or a verb ("verb": "caches for"); else None."""
    before = text[start:first].rstrip(" ,")
    last_word = before.rpartition(" ")[2].lower()
    if before and before[-1] not in "(\"'`" and last_word not in _DETERMINERS and not (
            before.endswith(("'s", "’s"))):  # fmt: skip
        return None
    if _COPULA_AFTER.match(text, last, end):
        return "copula"
    return "verb" if _VERB_AFTER.match(text, last, end) else None


def _schema_values(
    text: str, fp: Fingerprint, scope: str | None, start: int, end: int
) -> list[Binding]:
    """A value stated for a name written as code that a JSON settings schema declares
    ("refreshes every 10000 ms by default (refreshInterval)", "`historyCount` defaults to
    25") (``anchors.value_binding`` finds the name as it does a constant's)."""
    if not fp.settings:
        return []
    found = []
    for value in stated_values(text):
        if not start <= value.start < end or not _plain_before(text, start, value.start):
            continue
        named = _named(text, value, (start, end))
        if named is None:
            continue
        name, _, path = named
        setting = _setting(fp, [name], where=_file_of(path, fp) or scope, schemas_only=True)
        version = None if setting is None else _comparable(value, setting)
        if setting is not None and version is not None:
            anchor = Anchor(AnchorKind.SYMBOL, setting.fact.name, scope=setting.path,
                            version=version)  # fmt: skip
            found.append(Binding(anchor, name, (value.start, value.end)))
    return found


def _schema_index(fp: Fingerprint) -> dict[str, list[_Setting]]:
    """The settings of every JSON settings schema, by name and by its last dotted part
    (VS Code's ``git.autofetchPeriod`` as ``autofetchPeriod`` too)."""
    index: dict[str, list[_Setting]] = {}
    for path, facts in fp.settings.items():
        if _data(path) or not runs(path):
            continue  # a schema in the tests, the docs or an example is data, not settings
        units = {f.name[: -len(UNIT_SUFFIX)]: f.text for f in facts.constants
                 if f.name.endswith(UNIT_SUFFIX)}  # fmt: skip
        for fact in facts.constants:
            if fact.name.endswith(UNIT_SUFFIX):
                continue
            setting = _Setting(path, fact, units.get(fact.name), schema=True)
            for key in {fact.name, fact.name.rpartition(".")[2]}:
                index.setdefault(key, []).append(setting)
    return index


def _setting(
    fp: Fingerprint, names: Sequence[str], where: str | None = None, schemas_only: bool = False
) -> _Setting | None:
    """The one setting called by one of ``names`` that the code or a settings schema gives
    one literal (in ``where`` when it is declared there); None when none or several are."""
    found: dict[tuple[str, str], _Setting] = {}
    schemas = fp.derived("setting_values.schemas", _schema_index)
    for name in names:
        # (a capitalised name is a Go package's constant: ``DefaultMultiplier``, never a
        # struct's field, ``App.UsageText``, which words name loosely)
        members = fp.members_named(name) if name[:1].islower() or name.isupper() else ()
        for path, fact in () if schemas_only else (*fp.constant_values(name), *members):
            found[(path, fact.name)] = _Setting(path, fact)
        for setting in schemas.get(name, ()):
            found[(setting.path, setting.fact.name)] = setting
    running = {k: v for k, v in found.items() if runs(k[0]) and not _data(k[0])} or found
    # the sources' value, not a build's copy of it (``dist/``, quoted its own way)
    running = {k: v for k, v in running.items() if not _built(k[0])} or running
    if where is not None:
        running = {k: v for k, v in running.items() if k[0] == where} or running
    if len({(v.fact.text, v.unit) for v in running.values()}) != 1:
        return None  # none, or several values: which one applies cannot be told
    # the same value in several files (a schema and its built copy): the source's
    setting = min(running.values(), key=lambda v: (_built(v.path), v.path.count("/"), v.path))
    return None if setting.fact.text is None else setting


def _built(path: str) -> bool:
    return any(p in _BUILT for p in path.lower().split("/")[:-1])


_BUILT = frozenset({"dist", "build", "lib", "out", "labextension", "static", "generated"})


def _data(path: str) -> bool:
    """A fixture or sample: a settings file of the tests or the docs, not the application's."""
    parts = path.lower().split("/")[:-1]
    return any(p in _NOT_THE_APPLICATION for p in parts)


_NOT_THE_APPLICATION = frozenset({"test", "tests", "testing", "fixtures", "testdata", "examples",
                                  "example", "samples", "docs", "doc", "node_modules"})  # fmt: skip


def _value_for(text: str, setting: _Setting, after: int, end: int) -> Binding | None:
    """The value stated after the setting's words: a literal in backticks, else the one
    number or duration of the rest of the sentence."""
    fact = setting.fact
    code = fact.text or ""
    literal = _CODE_LITERAL.search(text, after, end)
    if literal is not None and isinstance(typed_value(code), str):
        if not _plain_before(text, after, literal.start()) or not _close(
                text, after, literal.start(), literal=True):  # fmt: skip
            return None
        if _names_code(literal["v"].strip(), fact.name):
            return None  # "the credential helper is `JupyterLabGit.credential_helper`"
        stated, held = literal["v"].strip().casefold(), str(typed_value(code))
        if stated != held and (stated in held or held in stated):
            return None  # a part of the value, or more than it: not what it defaults to
        anchor = Anchor(AnchorKind.SYMBOL, fact.name, scope=setting.path,
                        version=literal["v"].strip())  # fmt: skip
        # "caches for one hour: `cache --timeout=3600`": the value said twice is checked once
        numbers = {float(n) for n in re.findall(r"\d+", literal["v"])}
        said = [v.start for v in stated_values(text)
                if after <= v.start < literal.start() and seconds(v.text) in numbers]  # fmt: skip
        return Binding(
            anchor,
            fact.name.rpartition(".")[2],
            (min([*said, literal.start("v")]), literal.end("v")),
        )
    quoted = _QUOTED_AFTER.match(text, after, end)
    if quoted is not None and isinstance(typed_value(code), str) and _plain_before(
            text, after, quoted.start("v")):  # fmt: skip
        # "the default level is 'info'": a quoted word right after the copula
        anchor = Anchor(AnchorKind.SYMBOL, fact.name, scope=setting.path, version=quoted["v"])
        return Binding(anchor, fact.name.rpartition(".")[2], quoted.span("v"))
    values = [v for v in stated_values(text) if after <= v.start < end]
    if len(values) != 1 or not _plain_before(text, after, values[0].start):
        return None
    if not _close(text, after, values[0].start, literal=False):
        return None  # "the history count is shown in a panel of 3 columns": another thing's
    version = _comparable(values[0], setting)
    if version is None:
        return None
    anchor = Anchor(AnchorKind.SYMBOL, fact.name, scope=setting.path, version=version)
    return Binding(anchor, fact.name.rpartition(".")[2], (values[0].start, values[0].end))


_QUOTED_AFTER = re.compile(
    r"\s*(?:is|are|defaults\s+to|equals|=|:)\s*(?P<v>(?P<q>['\"])[^'\"\n]{1,60}(?P=q))"
    r"(?=\s*(?:[.,;()]|$|\s+(?:and|but|by|when|unless)\b))",
    re.IGNORECASE,
)
# What a literal the setting "is" follows: a copula, "to", a colon or "=" (not "in", "by":
# "is set in `app/config.py`" says where, not what)
_LITERAL_LEAD = re.compile(r"(?:\b(?:is|are|to|equals|as)|[:=])\s*\Z", re.IGNORECASE)
_ALPHA = re.compile(r"[A-Za-z]+")


def _close(text: str, after: int, at: int, literal: bool) -> bool:
    """Whether the value at ``at`` is what the words ending at ``after`` are said to be:
    at most four words and no clause break between ("is", "caches for 15 minutes:",
    "times out after"), and a literal right after a copula, "to" or a colon."""
    between = text[after:at]
    if len(_ALPHA.findall(between)) > 4 or any(c in between for c in ",;"):
        return False
    return not literal or _LITERAL_LEAD.search(between) is not None


def _names_code(literal: str, name: str) -> bool:
    """A literal that names code rather than a value: the setting itself (as a dotted
    name's last part), or a path."""
    last = name.rpartition(".")[2]
    return (
        literal.rpartition(".")[2] == last
        or literal.rpartition("::")[2] == last
        or ("/" in literal and " " not in literal and "." in literal.rpartition("/")[2])
    )


def _comparable(value: StatedValue, setting: _Setting) -> str | None:
    """``value`` as the setting's literal would be written: a plain literal as stated; a
    duration in the unit the setting counts (its name's, its schema's; seconds for a
    Python setting whose name says none, ``in_plain_seconds``), in the code's spelling when
    equal; None when it cannot be told."""
    fact = setting.fact
    code = typed_value(fact.text or "")
    bare = bare_value(value)
    if bare is not None:
        # a number for a number, a word for a word: "is 20" of ``"20s"`` is no comparison
        return bare if isinstance(typed_value(bare), float) == isinstance(code, float) else None
    if not isinstance(code, float) or isinstance(code, bool):
        return None
    total = seconds(value.text)
    if setting.schema:
        per = UNIT_SECONDS.get(setting.unit or "")
        if total is None or per is None:
            return None  # "10000 ms" of a number whose unit the schema does not say
        counted = total / per
        version = str(int(counted)) if counted == int(counted) else repr(round(counted, 6))
    else:
        in_seconds = in_units_of(value.text, fact.name) or in_plain_seconds(
            value.text, fact.name, [fact.text or ""])  # fmt: skip
        if in_seconds is None or not setting.path.endswith(".py"):
            return None
        version = in_seconds
    return fact.text if same_value(fact.text or "", version) else version
