"""The slots a note fills, read from its words: *what* it is about (the subject's content
words, and the qualifiers that narrow it: "for the public API", "on staging", "for
iOS"), *which* attribute of it (a timeout, a lifetime, a retention period, a clock time,
a count of workers, an owner, the technology that does one job, ...) and the typed value
(``store.contradictions.values``). Pure functions; no database.

The reading is general rather than a list of sentences: an attribute is named by one of
a few families of words (``_ATTRIBUTES``), or by the verb of a job ("e-mail is *sent
through* SendGrid"), or by the noun that is counted ("4 gunicorn *workers*"); the subject
is every content word left once the attribute, the value, filler words and verbs are
taken out. Two notes are about one slot only when those words agree (``relate``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from anchors.needles import ascii_key, guarded
from store.contradictions.values import (
    Value,
    ValueType,
    day_of,
    number_at,
    parse_clock,
    parse_quantity,
    parse_value,
)
from store.contradictions.words import ENVS as _ENVS
from store.contradictions.words import STOP as _STOP
from store.contradictions.words import VARIANTS as _PLATFORMS
from store.contradictions.words import VERBS as _VERBISH
from store.contradictions.words import content_words, stem
from store.contradictions.words import qualifiers as _qualifiers
from store.text import words

__all__ = ["Match", "Slot", "content_words", "read_slots", "relate", "relate_subjects", "stem"]


@dataclass(frozen=True)
class Slot:
    subject: frozenset[str]  # content words of what it is about
    qualifiers: frozenset[str]  # words of the phrases and environments that narrow it
    attribute: str
    value: Value
    exclusive: bool = True  # holds one value at a time ("uses X" does not, unless "only")
    named: bool = True  # the attribute is named; False: only a value and its type
    many: bool = False  # the note says it is one of several ("also", "as well", "too")
    replaces: Value | None = None  # the value it says this one replaced ("instead of X")

    @functools.cached_property
    def about(self) -> frozenset[str]:
        return self.subject | self.qualifiers

    @functools.cached_property
    def key(self) -> str:
        return " ".join(sorted(self.about)) + "|" + self.attribute


class Match(StrEnum):
    SAME = "same"  # one subject, one attribute
    AMBIGUOUS = "ambiguous"  # one names a qualifier or a word the other leaves out
    SIMILAR = "similar"  # close subjects that differ in a word: only a question
    DIFFERENT = "different"


_ATTRIBUTES: tuple[tuple[str, str], ...] = (
    ("timeout", r"time[- ]?outs?|timing out|times? out|timed out"),
    (
        "lifetime",
        r"ttls?|lifetimes?|expir(?:y|ation|es|e)|lives? for|valid for|good for|"
        r"last(?:s)? for|lasts?",
    ),
    (
        "retention",
        r"retention|retain(?:ed|s)?|kept|keeps?|stored for|held for|deleted after|"
        r"purged after|archived after|deleted|purged|rotated after",
    ),
    ("interval", r"intervals?|frequency|every|polls?|polled|refresh(?:ed|es)?"),
    ("delay", r"delays?|backoffs?|waits?|cooldown|grace period"),
    (
        "limit",
        r"limits?|limited|cap|caps|capped|max(?:imum)?|quotas?|ceiling|at most|up to|no more than",
    ),
    ("threshold", r"thresholds?|at least|minimum|min"),
    ("size", r"sizes?|lengths?"),
    ("duration", r"takes|took|duration"),
)
_ATTR_RE = [(name, guarded(rf"\b(?:{pat})\b", re.I)) for name, pat in _ATTRIBUTES]
_COUNTED = {
    "worker": "worker",
    "process": "worker",
    "replica": "replica",
    "instance": "replica",
    "pod": "replica",
    "node": "node",
    "shard": "shard",
    "partition": "partition",
    "thread": "thread",
    "retry": "retry",
    "retrie": "retry",
    "attempt": "retry",
    "time": "retry",  # "retried 3 times"
    "connection": "connection",
    "core": "cpu",
    "cpu": "cpu",
    "vcpu": "cpu",
    "consumer": "consumer",
    "broker": "broker",
    "server": "server",
    "machine": "server",
    "container": "container",
    "slot": "slot",
    "region": "region",
    "zone": "zone",
    "copy": "copy",
    "backup": "backup",
    "level": "level",
    "step": "step",
    "stage": "step",
    "page": "page",
    "item": "item",
    "row": "item",
    "record": "item",
    "request": "request",
    "job": "job",
    "task": "job",
    "user": "user",
    "seat": "user",
    "character": "character",
    "char": "character",
    "digit": "character",
}
_VERSION = re.compile(
    r"\b(?P<name>[A-Za-z][A-Za-z+#-]*)(?:'s)?\s+(?:version\s+(?:is\s+|=\s*|:\s*)?|v)?"
    r"(?P<ver>\d+(?:\.\d+){1,3}|\d+)(?:\.x)?\b"
)
_NOT_NAMES = words(
    """is are was to of at on in for by every about around after before than limit port
    version v the and or runs run has have with up within under over next last first top
    only until from"""
)
_PORT = guarded(
    r"\bport\s*(?:is\s+|=\s*|:\s*|of\s+|number\s+(?:is\s+)?)?(?P<n>\d{2,5})\b"
    r"|\b(?:listens?|listening|runs?|served|serves?|available|exposed|binds?|bound|reachable)"
    r"\s+on\s+(?:port\s+|localhost:|0\.0\.0\.0:|:)?(?P<m>\d{2,5})\b(?![:.]\d)"
    r"|:(?P<k>\d{4,5})\b",
    re.I,
)
_OWNER_BY = guarded(
    r"\b(?:(?:owned|maintained|looked after|run|led|managed)\s+by|belongs\s+to)\s+"
    r"(?P<who>@?[\w.-]+(?:\s+[A-Z][\w-]*)?(?:\s+team)?)",
    re.I,
)
_OWNER_IS = guarded(
    r"^(?P<who>@[\w.-]+|[A-Z][\w.-]*(?:\s+[A-Z][\w-]*)?|the\s+[\w-]+(?:\s+[\w-]+)?\s+team)\s+"
    r"(?:now\s+|still\s+|currently\s+|also\s+)?(?:owns|maintains|is responsible for|looks after|"
    r"is the (?:owner|maintainer|point of contact|tech lead|lead|contact|dri) (?:of|for))\s+"
    r"(?P<what>.+)$",
)
_OWNER_OF = guarded(
    r"\b(?:owner|maintainer|point of contact|dri|tech lead)\s+(?:of|for)\s+(?P<what>.+?)\s+"
    r"is\s+(?:now\s+)?(?P<who>@?[\w.-]+(?:\s+[A-Z][\w-]*)?)",
    re.I,
)
_BOOLEAN = guarded(
    r"\b(?:is|are|was|stays?|remains?|gets?|got|has been|have been|been)\s+"
    r"(?:now\s+|still\s+|currently\s+|always\s+)?(?P<neg>not\s+)?"
    r"(?P<val>enabled|disabled|turned on|turned off|switched on|switched off|on|off|"
    r"required|optional|mandatory|allowed|forbidden|disallowed|active|inactive)\b",
    re.I,
)
_BOOL_ATTR = {
    "enabled": "enabled",
    "disabled": "enabled",
    "turned on": "enabled",
    "turned off": "enabled",
    "switched on": "enabled",
    "switched off": "enabled",
    "on": "enabled",
    "off": "enabled",
    "active": "enabled",
    "inactive": "enabled",
    "required": "required",
    "optional": "required",
    "mandatory": "required",
    "allowed": "allowed",
    "forbidden": "allowed",
    "disallowed": "allowed",
}
_TRUE = frozenset(
    {"enabled", "turned on", "switched on", "on", "active", "required", "mandatory", "allowed"}
)
_JOB = guarded(
    r"\b(?P<verb>[a-z]+ed|sent|built|written|run|kept|held|done|hosted|stored|driven|"
    r"made|served|handled|cached|queued|signed|hashed|encrypted|logged|shipped|deployed|"
    r"rendered|tracked|monitored|scheduled|processed|published|backed up|load[- ]balanced|"
    r"goes|go|runs|run|flows?|passes|routed|fronted|terminated|proxied)"
    r"\s+(?:out\s+|up\s+)?(?P<prep>through|via|with|in|on|by|using|to|into|onto|behind|from|as)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+)?(?P<val>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})",
    re.I,
)
_PREP = {
    "through": "via",
    "via": "via",
    "with": "via",
    "using": "via",
    "by": "via",
    "in": "in",
    "into": "in",
    "on": "in",
    "onto": "in",
    "to": "to",
    "behind": "behind",
    "from": "from",
    "as": "as",
}
_USES = guarded(
    r"\b(?:uses?|using|relies on|is built on|depends on|talks to|is on)\s+"
    r"(?:only\s+)?(?:the\s+)?(?P<val>[\w.+#/-]+)(?:\s+for\s+(?P<role>[\w\s-]+?))?(?:[.,;]|$|\s+(?:instead|rather|now|and|to|in|on|for)\b)",
    re.I,
)
_COPULA = guarded(
    r"^(?P<subj>.*?\b(?P<head>database|db|broker|queue|cache|region|branch|language|framework|"
    r"orm|runner|registry|cdn|provider|host|hosting|scheduler|timezone|time zone|format|"
    r"encoding|backend|store|bucket|mailer|datastore|search engine|web server|server|"
    r"package manager|linter|formatter|test runner|bundler|algorithm|strategy|mode|level|"
    r"engine|platform|cloud|tool|library|client|driver|storage))\s+(?:is|=|:)\s+(?:now\s+)?"
    r"(?:the\s+|a\s+|an\s+)?(?P<val>[\w.+#/-]+)\s*(?P<rest>.*)$",
    re.I,
)
_EXCLUSIVE_MARK = guarded(
    r"\b(only|instead of|instead|replaced|replacing|switched|rather than|exclusively|no longer|"
    r"not .{1,30} any ?more|moved (?:off|away from|to|from))\b",
    re.I,
)
_MANY_MARK = guarded(r"\b(also|as well|too|in addition|additionally|both|alongside|plus)\b", re.I)
_ATTRIBUTION = guarded(
    r"^(?:according to [^,]+,\s*|.{0,40}?\b(?:says|said|claims|claimed|told (?:me|us)|"
    r"mentioned|confirmed|reports|reported|notes|noted|wrote|writes)\s+(?:that\s+)?)",
    re.I,
)
_LEAD_IN = guarded(
    r"^(?:note|fyi|heads up|reminder|important|btw|update|correction|as of [^,]+|"
    r"for the record|turns out|it turns out)\s*[:,-]?\s*(?:that\s+)?",
    re.I,
)
_NEGATED = guarded(
    r"\b(?:not|never|no longer|don't|doesn't|isn't|aren't|won't|cannot|can't|stopped)\b", re.I
)


_ATTRIBUTION_WORDS = guarded(
    r"according|says|said|claim|told|mention|confirm|report|note|wrote|writes", re.I
)


def _clean(text: str) -> str:
    text = text.strip()
    if "`" in text:
        text = re.sub(r"`([^`]*)`", r"\1", text)
    text = _LEAD_IN.sub("", text)
    if _ATTRIBUTION_WORDS.search(text):
        text = _ATTRIBUTION.sub("", text)
    return text.rstrip(" .!")


def _slot(
    text: str,
    span: tuple[int, int],
    attribute: str,
    value: Value,
    *,
    drop: frozenset[str] = frozenset(),
    exclusive: bool = True,
    named: bool = True,
) -> Slot:
    rest = text[: span[0]] + " " + text[span[1] :]
    words = content_words(rest) - drop
    qualifiers = _qualifiers(rest) & words
    return Slot(words - qualifiers, qualifiers, attribute, value, exclusive, named)


def _attribute_near(text: str, start: int) -> tuple[str, tuple[int, int]] | None:
    """The attribute named in ``text`` nearest before ``start`` (else just after)."""
    best: tuple[int, str, tuple[int, int]] | None = None
    for name, pattern in _ATTR_RE:
        for m in pattern.finditer(text):
            distance = start - m.end() if m.end() <= start else (m.start() - start) * 3 + 1
            if best is None or distance < best[0]:
                best = (distance, name, (m.start(), m.end()))
    return (best[1], best[2]) if best else None


def _words_of(text: str, span: tuple[int, int]) -> frozenset[str]:
    return content_words(text[span[0] : span[1]])


_QUANTITY_HINT = guarded(
    r"second|minute|hour|day|daily|night|week|month|year|annual|fortnight|quarter|percent|dozen|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|sixty|ninety|hundred|half)\b",
    re.I,
)
_DIGIT = re.compile(r"\d")
_CHANGE_HINT = guarded(r"from|replac|instead|rather|in place", re.I)
_CODE_LIKE = re.compile(r"--|_|=|\b[A-Z][A-Z0-9]{2,}\b|\w\.\w")
_OWNER_WORDS = guarded(r"own|maintain|responsib|look|belong|contact|lead|\bdri\b|\bby\b", re.I)
_NOON_WORDS = guarded(r"noon|midday|midnight", re.I)


@functools.lru_cache(maxsize=1 << 16)
def read_slots(text: str) -> tuple[Slot, ...]:
    """Every slot the note's words fill (most notes fill one, or none). A note's text
    never changes, so a reading is kept (a consolidate pass reads each note once)."""
    clean = _clean(text)
    if not clean:
        return ()
    negated = bool(_NEGATED.search(clean))
    many = bool(_MANY_MARK.search(clean))
    digits = _DIGIT.search(clean) is not None
    found: list[Slot] = _setting(clean) if _CODE_LIKE.search(clean) else []
    if not found and digits:
        found += _versions(clean)
    if _OWNER_WORDS.search(clean):
        found += _owner(clean, many)
    port = _PORT.search(clean) if digits else None
    if port:
        n = port.group("n") or port.group("m") or port.group("k")
        found.append(
            _slot(
                clean,
                port.span(),
                "port",
                Value(ValueType.COUNT, float(n)),
                drop=frozenset({"port"}),
            )
        )
    boolean = _BOOLEAN.search(clean)
    if boolean and not found:
        val = ascii_key(boolean.group("val"))
        truth = (val in _TRUE) != bool(boolean.group("neg"))
        found.append(
            _slot(
                clean,
                boolean.span(),
                _BOOL_ATTR[val],
                Value(ValueType.BOOLEAN, text=str(truth).lower()),
            )
        )
    if negated:
        return tuple(found)  # a negated note is compared by its core (``negation_core``)
    clock = parse_clock(clean) if digits or _NOON_WORDS.search(clean) else None
    if clock and not port and not found:
        value, start, end = clock
        found.append(_slot(clean, (start, end), "clock time", value))
    day = day_of(clean) if "day" in clean.lower() else None
    if day and not re.search(r"\b(?:and|or|,)\s+\w+days?\b", clean, re.I):
        m = re.search(r"\b(?:on|every|each)\s+\w+days?\b|\b\w+days?\b", clean, re.I)
        # "the release day is weds": a day read from a short name, while the "day" that
        # let the search in is another word; no span to name, so no slot
        if m is not None and day_of(m.group(0)):
            found.append(_slot(clean, m.span(), "day", Value(ValueType.DAY, text=day)))
    if not found and (digits or _QUANTITY_HINT.search(clean)):
        found += _measured(clean)
    if not found:
        found += _job(clean, many)
    if not found:
        found += _copula(clean, many)
    if not found:
        found += _uses(clean, many)
    return _marked(clean, found, many)


_CHANGE = [
    guarded(
        r"\b(?:switched|moved|migrated|changed|went|upgraded|downgraded|ported)\s+(?:\w+\s+)?"
        r"from\s+(?:the\s+)?(?P<old>[\w.+#/-]+)\s+to\s+(?:the\s+)?(?P<new>[\w.+#/-]+)",
        re.I,
    ),
    guarded(
        r"\breplaced\s+(?:the\s+)?(?P<old>[\w.+#/-]+)\s+(?:with|by)\s+(?:the\s+)?"
        r"(?P<new>[\w.+#/-]+)",
        re.I,
    ),
    guarded(
        r"\b(?P<new>[\w.+#/-]+)\s+(?:instead of|rather than|in place of|replaced|replacing)\s+"
        r"(?:the\s+)?(?P<old>[\w.+#/-]+)",
        re.I,
    ),
]


def _marked(text: str, found: list[Slot], many: bool) -> tuple[Slot, ...]:
    """The slots with what the whole note says of them: one of several ("also"), or a
    value that replaced another ("switched from X to Y", "Y instead of X")."""
    for pattern in _CHANGE if _CHANGE_HINT.search(text) else ():
        m = pattern.search(text)
        if m is None or not _is_name(m.group("new"), m.group("new")):
            continue
        old, new = parse_value(m.group("old")), parse_value(m.group("new"))
        drop = content_words(m.group("old")) | content_words(m.group("new"))
        drop |= {"instead", "rather", "place"}
        if not found:
            found = [_slot(text, m.span(), "uses", new, drop=drop)]
        found = [
            dataclasses.replace(
                s, replaces=old, subject=s.subject - drop, qualifiers=s.qualifiers - drop
            )
            for s in found
        ]
        break
    if many:
        found = [dataclasses.replace(s, many=True, exclusive=False) for s in found]
    return tuple(found)


# A named setting: a code identifier or a flag set to a value ("MAX_UPLOAD_MB is 20",
# "max_connections = 100", "--workers 8", "gunicorn --timeout is 30").
_SETTING = re.compile(
    r"(?P<key>--[a-z][\w-]*|\b[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|\b[A-Z][A-Z0-9]{2,}\b)"
    r"\s*(?:(?:is|was|=|:|to|of)\s*|(?:is\s+)?(?:set|configured|now)\s+(?:to\s+)?|\s)"
    r"(?:now\s+)?(?P<val>[\w.:+-]+(?:\s*(?:ms|s|sec|seconds?|minutes?|min|hours?|h|mb|gb|kb|"
    r"days?|%))?)(?=\s|$|[,;)])",
)


def _setting(text: str) -> list[Slot]:
    for m in _SETTING.finditer(text):
        key, raw = m.group("key"), m.group("val")
        if "." in key and re.fullmatch(r"[\d.]+", key):
            continue
        if key.upper() == key and m.group(0)[len(key) :].strip()[:1] not in ("i", "=", ":"):
            continue  # "AWS SES": an acronym, not a setting
        value = parse_value(raw)
        if value.type is ValueType.NAME and not re.search(r"\d", raw) and not _is_name(raw, raw):
            continue
        attribute = "setting " + key.lower().lstrip("-")
        return [_slot(text, m.span(), attribute, value, drop=frozenset({key.lower()}))]
    return []


def _versions(text: str) -> list[Slot]:
    for m in _VERSION.finditer(text):
        name, ver = m.group("name"), m.group("ver")
        low = name.lower()
        if low in _NOT_NAMES or low in _VERBISH or low in _STOP or len(low) < 2:
            continue
        after = text[m.end() : m.end() + 12].lower()
        named = any(c.isupper() for c in name) or "version" in m.group(0).lower()
        if "." not in ver and (not named or re.match(r"\s*[a-z%]", after)):
            continue  # "runs 4 workers", "Gunicorn 4 workers": a count, not a version
        value = Value(ValueType.VERSION, text=ver)
        return [_slot(text, m.span(), f"{stem(low)} version", value)]
    return []


def _owner(text: str, many: bool) -> list[Slot]:
    for pattern in (_OWNER_IS, _OWNER_BY, _OWNER_OF):
        m = pattern.search(text)
        if m is None:
            continue
        who = re.sub(r"^the\s+", "", m.group("who").lower()).removesuffix(" team")
        if who in _STOP:
            continue
        value = Value(ValueType.NAME, text=re.sub(r"[\s@.-]+", "", who))
        span = m.span("who")
        drop = frozenset({"owner", "maintainer", "contact", "lead", "team", "dri", "point"})
        return [_slot(text, span, "owner", value, drop=drop, exclusive=not many)]
    return []


def _measured(text: str) -> list[Slot]:
    quantity = parse_quantity(text)
    if quantity is not None:
        value, start, end = quantity
        near = _attribute_near(text, start)
        if near is None:
            return [_slot(text, (start, end), f"? {value.type.value}", value, named=False)]
        name, span = near
        if name == "interval" and value.type is not ValueType.DURATION:
            name = "rate" if value.type is ValueType.RATE else "limit"
        lo, hi = min(span[0], start), max(span[1], end)
        between = text[min(span[1], end) : max(span[0], start)]
        drop = _words_of(text, span)
        if len(between) > 40:  # far apart: cut out both, keep the words between
            rest_span = (start, end)
            slot = _slot(
                text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :],
                rest_span,
                f"{name} {value.type.value}",
                value,
                drop=drop,
            )
            return [slot]
        return [_slot(text, (lo, hi), f"{name} {value.type.value}", value, drop=drop)]
    return _counted(text)


def _counted(text: str) -> list[Slot]:
    number = number_at(text)
    if number is None:
        return []
    n, start, end = number
    after = re.findall(r"[\w-]+", text[end : end + 40])
    for word in after[:3]:
        noun = _COUNTED.get(stem(word))
        if noun is not None:
            span_end = end + text[end:].lower().find(word.lower()) + len(word)
            return [
                _slot(
                    text,
                    (start, span_end),
                    f"count {noun}",
                    Value(ValueType.COUNT, n),
                    drop=frozenset({stem(word)}),
                )
            ]
    near = _attribute_near(text, start)
    before = content_words(text[max(0, start - 30) : start])
    for noun_word in sorted(before):
        noun = _COUNTED.get(noun_word)
        if noun is not None:
            return [
                _slot(
                    text,
                    (start, end),
                    f"count {noun}",
                    Value(ValueType.COUNT, n),
                    drop=frozenset({noun_word}),
                )
            ]
    if near is not None:
        name, span = near
        return [
            _slot(
                text,
                (min(span[0], start), max(span[1], end)),
                f"{name} count",
                Value(ValueType.COUNT, n),
                drop=_words_of(text, span),
            )
        ]
    return []


def _is_name(token: str, original: str) -> bool:
    if not token or token.lower() in _STOP or token.lower() in _VERBISH:
        return False
    if re.search(r"[A-Z\d]", original) or any(c in token for c in ".+#/-"):
        return True
    from anchors.vocabulary import by_name, is_ordinary_word

    # A named technology, or a word that is not ordinary English ("libvips").
    return by_name(token.lower()) is not None or not is_ordinary_word(token.lower())


def _job(text: str, many: bool) -> list[Slot]:
    for m in _JOB.finditer(text):
        raw = m.group("val")
        first = raw.split()[0]
        if not _is_name(first, first):
            continue
        if not re.search(r"[A-Z]", first):
            raw = first  # "bcrypt": one word; "HashiCorp Vault": the capitalised name
        verb = stem(ascii_key(m.group("verb"))).removesuffix("ed")
        attribute = f"{verb} {_PREP[ascii_key(m.group('prep'))]}"
        value = Value(ValueType.NAME, text=parse_value(raw).text or raw.lower())
        exclusive = not many or bool(_EXCLUSIVE_MARK.search(text))
        return [_slot(text, (m.start("verb"), m.end()), attribute, value, exclusive=exclusive)]
    return []


def _copula(text: str, many: bool) -> list[Slot]:
    m = _COPULA.match(text)
    if m is None:
        return []
    worded = m.group("head").lower() in _WORDED and m.group("val").lower() not in _STOP
    if not worded and not _is_name(m.group("val"), m.group("val")):
        return []
    head = stem(m.group("head").lower())
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text)
    subject_part = m.group("subj")[: m.start("head")]
    rest = m.group("rest")
    words = content_words(subject_part + " " + rest)
    qualifiers = _qualifiers(rest + " " + subject_part) & words
    return [Slot(words - qualifiers, qualifiers, head, value, not many)]


_WORDED = words("""branch region mode level strategy format encoding timezone algorithm""")
_PROTOCOLS = words("""http https grpc websocket websockets tls ssh ftp sftp mqtt amqp""")


def _uses(text: str, many: bool) -> list[Slot]:
    m = _USES.search(text)
    if m is None or not _is_name(m.group("val"), m.group("val")):
        return []
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text)
    exclusive = bool(_EXCLUSIVE_MARK.search(text)) and not many
    role = m.group("role")
    span = (m.start(), m.end("val"))
    attribute = "uses for" if role else "uses"
    if value.text in _PROTOCOLS:
        attribute, exclusive = "protocol", True
    return [_slot(text, span, attribute, value, exclusive=exclusive)]


def relate(a: Slot, b: Slot) -> Match:
    """Whether two slots are about one thing: the same words (``SAME``); one says more
    than the other ("for batch jobs", "on staging", ``AMBIGUOUS``); close subjects that
    differ in a word (``SIMILAR``); or different subjects (qualifiers that differ on
    both sides are different subjects, never one)."""
    if a.attribute != b.attribute:
        return Match.DIFFERENT
    return relate_subjects(a, b)


def relate_subjects(a: Slot, b: Slot) -> Match:
    """``relate`` for what two slots are about, whatever their attributes."""
    if a.about == b.about:
        return Match.SAME
    if a.about < b.about or b.about < a.about:
        return Match.AMBIGUOUS
    if (a.qualifiers - b.qualifiers) and (b.qualifiers - a.qualifiers):
        return Match.DIFFERENT
    only_a, only_b = a.about - b.about, b.about - a.about
    if any(w in _ENVS or w in _PLATFORMS for w in only_a | only_b):
        return Match.DIFFERENT
    shared = a.about & b.about
    if shared and len(shared) / len(a.about | b.about) >= 0.5:
        return Match.SIMILAR
    return Match.DIFFERENT
