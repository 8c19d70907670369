"""Typed values of claims, read from the words people write and normalised so that two
notes can be compared: durations in seconds, sizes in bytes, clock times in minutes since
midnight (with the timezone when one is named), counts, rates, versions, booleans, and
names (persons, technologies). Pure functions; no database.

Equivalent values are never a conflict ("90 minutes" is "an hour and a half", "4096 MB"
is "4 GB"); values of different types cannot be compared at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from anchors.needles import ascii_key, guarded

__all__ = [
    "Relation",
    "Value",
    "ValueType",
    "compare",
    "number_at",
    "parse_clock",
    "parse_duration",
    "parse_quantity",
    "parse_shares",
    "parse_value",
]


class ValueType(StrEnum):
    DURATION = "duration"  # seconds
    SIZE = "size"  # bytes
    CLOCK = "clock"  # minutes since midnight
    DAY = "day"  # a day of the week
    COUNT = "count"
    NUMBER = "number"
    PERCENT = "percent"
    RATE = "rate"  # per second
    VERSION = "version"
    BOOLEAN = "boolean"
    NAME = "name"  # a person, a team, a technology, a word


class Relation(StrEnum):
    SAME = "same"  # equivalent values: never a conflict
    EXCLUSIVE = "exclusive"  # one slot cannot hold both
    COMPATIBLE = "compatible"  # both can hold (a version and a more precise one)
    UNKNOWN = "unknown"  # not comparable (different types, a clock time without its zone)


@dataclass(frozen=True)
class Value:
    type: ValueType
    amount: float | None = None
    text: str = ""  # the normalised word (names, versions, booleans)
    zone: str | None = None  # a clock time's timezone, when named
    approx: bool = False  # in calendar units (months, years): 12 months is a year

    def render(self) -> str:
        if self.type is ValueType.CLOCK and self.amount is not None:
            h, m = divmod(int(self.amount), 60)
            return f"{h:02d}:{m:02d}" + (f" {self.zone}" if self.zone else "")
        if self.amount is not None:
            return f"{self.amount:g} {_UNIT_NAMES.get(self.type, '')}".strip()
        return self.text


_UNIT_NAMES = {
    ValueType.DURATION: "s",
    ValueType.SIZE: "bytes",
    ValueType.PERCENT: "%",
    ValueType.RATE: "/s",
}

_WORD_NUMBERS = {
    "zero": 0,
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "two": 2,
    "couple": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "thousand": 1000,
    "dozen": 12,
    "half": 0.5,
}
# A number word ends where its word ends: "eighty" is never "eight" and a "y" (years).
# Digits, whole: "2,000,000" is never "000,000" read from its middle.
_DIGITS = r"(?<![\d,.])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:[.,]\d+)?)"
_NUM = (
    r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:[.,]\d+)?|(?:"
    + "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
    + r")(?![a-z]))"
)

NUMBER = _NUM  # for the readers of counts (``questions.counted``)

_SECONDS = {
    "ms": 0.001,
    "millisecond": 0.001,
    "msec": 0.001,
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "d": 86400,
    "day": 86400,
    "night": 86400,
    "w": 604800,
    "wk": 604800,
    "week": 604800,
    "fortnight": 1209600,
    "month": 2592000,
    "mo": 2592000,
    "quarter": 7776000,
    "y": 31536000,
    "yr": 31536000,
    "year": 31536000,
}
_DURATION_UNIT = (
    r"(?:milliseconds?|msec|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|"
    r"nights?|weeks?|wks?|w|fortnights?|months?|mo|quarters?|years?|yrs?|y)"
)
DURATION_UNIT = _DURATION_UNIT
_DURATION = guarded(
    rf"\b(?P<n>{_NUM})(?:\s*|-)(?P<u>{_DURATION_UNIT})(?![a-z])"
    rf"(?:\s*(?:and\s+)?(?P<n2>\d+|a half|half)\s*(?P<u2>{_DURATION_UNIT})?\b)?",
    re.I,
)
# "an hour and a half", "a day and a half", "half an hour", "half a day"
_AND_A_HALF = guarded(rf"\b(?P<n>{_NUM})\s+(?P<u>{_DURATION_UNIT})\s+and\s+a\s+half\b", re.I)
_HALF_A = guarded(rf"\bhalf\s+an?\s+(?P<u>{_DURATION_UNIT})\b", re.I)
# "a quarter of an hour", "three quarters of a day": a part of a unit, never a quarter year
_PART_OF = guarded(
    rf"\b(?P<f>a|one|three)\s+quarters?\s+of\s+an?\s+(?P<u>{_DURATION_UNIT})\b", re.I
)
# "twice a day", "3 times per week", "every other week": a period, the unit over the count
_TIMES_PER = guarded(
    r"\b(?P<n>once|twice|thrice|\d+\s+times|(?:two|three|four|five|six)\s+times)\s+"
    r"(?:an?|per|each|every)\s+(?P<u>second|minute|hour|day|night|week|fortnight|month|"
    r"quarter|year)\b",
    re.I,
)
_EVERY_OTHER = guarded(r"\bevery\s+(?:other|second)\s+(?P<u>day|night|week|month|year)\b", re.I)
_EVERY_UNIT = guarded(
    r"\b(?:every|each|once an?|once per|per)\s+(?P<u>second|minute|hour|day|night|week|"
    r"fortnight|month|quarter|year)\b",
    re.I,
)
_EVERY_N = guarded(rf"\bevery\s+(?P<n>{_NUM})\s+(?P<u>{_DURATION_UNIT})\b", re.I)
_FREQUENCY = {
    "hourly": 3600,
    "daily": 86400,
    "nightly": 86400,
    "weekly": 604800,
    "biweekly": 1209600,
    "bimonthly": 5184000,
    "fortnightly": 1209600,
    "monthly": 2592000,
    "quarterly": 7776000,
    "yearly": 31536000,
    "annually": 31536000,
}
_NUMBER = re.compile(rf"\b{_NUM}\b", re.I)
_FREQUENCY_RE = guarded(r"\b(bi-(?:weekly|monthly)|" + "|".join(_FREQUENCY) + r")\b", re.I)
_BYTES = {"b": 1, "byte": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40, "p": 2**50}
_SIZE = re.compile(
    rf"\b(?P<n>{_DIGITS})\s*(?P<u>[kmgtp]i?b|[kmgtp]|bytes?|b|"
    r"(?:kilo|mega|giga|tera)bytes?)\b",
    re.I,
)
_RATE = guarded(
    rf"\b(?P<n>{_DIGITS})(?P<k>k\b)?\s*(?P<what>[a-z]+(?:\s+[a-z]+)?)?(?:\s+(?:per|an?|each)\s+|\s*/\s*)"
    rf"(?P<u>{_DURATION_UNIT})\b",
    re.I,
)
_HERTZ = guarded(rf"\b(?P<n>{_DIGITS})\s*(?:hz|hertz)\b", re.I)  # so many times a second
_RPX = guarded(r"\b(?P<n>\d+(?:\.\d+)?)\s*(?P<u>rps|rpm|rph|qps)\b", re.I)
_PERCENT = guarded(rf"\b(?P<n>{_NUM})\s*(?:%|per ?cent\b)", re.I)
# A share written as a part of a whole: "one in ten", "3 out of 100", "1/10 of requests"
_SHARE = guarded(
    rf"\b(?P<part>{_NUM})\s+(?:in|out of)(?:\s+every)?\s+(?P<whole>{_NUM})\b"
    rf"(?!\s*(?:%|{_DURATION_UNIT}\b))"
    # ... and a thing counted between: "one request in ten", not "a replica in one zone"
    rf"|\b(?P<p3>\d+|one|two|three)\s+[a-z]+\s+(?:in|out of)(?:\s+every)?\s+"
    rf"(?P<w3>\d{2,}|ten|twenty|hundred|a\s+hundred|a\s+thousand|thousand)\b"
    rf"(?!\s*(?:%|{_DURATION_UNIT}\b|[a-z]+\s+(?:of|per)\b))"
    r"|\b(?P<p2>\d+)/(?P<w2>\d+)\s+of\b",
    re.I,
)
_CLOCK = re.compile(
    r"\b(?P<h>[01]?\d|2[0-3])(?:[:.h](?P<m>[0-5]\d))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)?"
    r"(?:\s*(?P<tz>utc|gmt|z|cet|cest|eet|est|edt|cst|cdt|mst|mdt|pst|pdt|bst|ist|jst|aest|"
    r"(?:[a-z]+ time)))?(?![\w:])",
    re.I,
)
_NOON = guarded(r"\b(noon|midday|midnight)\b", re.I)
ZONES = {
    "utc": 0,
    "gmt": 0,
    "z": 0,
    "bst": 60,
    "cet": 60,
    "cest": 120,
    "eet": 120,
    "est": -300,
    "edt": -240,
    "cst": -360,
    "cdt": -300,
    "mst": -420,
    "mdt": -360,
    "pst": -480,
    "pdt": -420,
    "ist": 330,
    "jst": 540,
    "aest": 600,
}
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = guarded(r"\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?\b", re.I)
_VERSION = re.compile(r"\bv?(?P<v>\d+(?:\.\d+){0,3})(?:\.x)?\b", re.I)


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TRUE = words("""enabled on true yes required mandatory allowed active turned-on switched-on""")
_FALSE = words(
    """disabled off false no optional forbidden disallowed inactive turned-off switched-off"""
)
_TOLERANCE = {ValueType.SIZE: 0.03, ValueType.DURATION: 0.001, ValueType.RATE: 0.01}


def _number(word: str) -> float | None:
    w = word.lower()
    # "1,000" groups thousands; "2,5" is a decimal comma
    w = w.replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+", w) else w.replace(",", ".")
    if w in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[w])
    try:
        return float(w)
    except ValueError:
        return None


def _unit_seconds(unit: str) -> float | None:
    u = ascii_key(unit)
    if u in _SECONDS:
        return _SECONDS[u]
    if u.endswith("s") and u[:-1] in _SECONDS:
        return _SECONDS[u[:-1]]
    return None


def parse_duration(text: str) -> tuple[float, int, int] | None:
    """The first duration in ``text`` in seconds, with its span: "15 minutes", "1h30",
    "an hour and a half", "half an hour", "90s", "daily" (as an interval)."""
    found: list[tuple[int, int, float]] = []
    for m in _AND_A_HALF.finditer(text) if "half" in text else ():
        n, u = _number(m.group("n")), _unit_seconds(m.group("u"))
        if n is not None and u is not None:
            found.append((m.start(), m.end(), (n + 0.5) * u))
    for m in _HALF_A.finditer(text) if "half" in text else ():
        u = _unit_seconds(m.group("u"))
        if u is not None:
            found.append((m.start(), m.end(), 0.5 * u))
    for m in _PART_OF.finditer(text) if "quarter" in text.lower() else ():
        u = _unit_seconds(m.group("u"))
        if u is not None:
            part = 0.75 if m.group("f").lower() == "three" else 0.25
            found.append((m.start(), m.end(), part * u))
    for m in _TIMES_PER.finditer(text) if not found else ():
        period = _period(m)
        if period is not None:
            found.append((m.start(), m.end(), period))
    for m in _EVERY_OTHER.finditer(text) if not found else ():
        u = _unit_seconds(m.group("u"))
        if u is not None:
            found.append((m.start(), m.end(), 2.0 * u))
    if not found:
        for m in _DURATION.finditer(text):
            n, u = _number(m.group("n")), _unit_seconds(m.group("u"))
            if n is None or u is None:
                continue
            if not m.group("n")[0].isdigit() and len(m.group("u")) < 3:
                continue  # "an S3 bucket", "a m.2 drive": a number word takes a unit's word
            if m.group("u") in ("m", "M") and re.match(r"\s*b", text[m.end() :], re.I):
                continue
            seconds = n * u
            extra = m.group("n2")
            end = m.end()
            if extra:
                u2 = _unit_seconds(m.group("u2")) if m.group("u2") else _smaller(u)
                if extra.lower() in ("a half", "half"):
                    seconds += 0.5 * u
                elif u2 is not None and u2 < u:
                    seconds += float(extra) * u2
                else:
                    end = m.start("n2")
            else:
                end = m.end("u")
            found.append((m.start(), end, seconds))
            break
    if not found:
        for m in _EVERY_UNIT.finditer(text):
            u = _unit_seconds(m.group("u"))
            if u is not None:
                found.append((m.start(), m.end(), float(u)))
                break
    if not found:  # "nightly", "weekly": only with no duration
        for m in _FREQUENCY_RE.finditer(text):
            word = ascii_key(m.group(1)).replace("-", "")
            found.append((m.start(), m.end(), float(_FREQUENCY[word])))
    if not found:
        return None
    start, end, seconds = min(found)
    return seconds, start, end


def intervals(text: str) -> tuple[float, ...]:
    """How often a text says things happen, each in seconds: "nightly", "every six
    hours", "twice a day", "every other week", "once a month". Not how long something
    takes or lasts ("sprints last two weeks")."""
    found = [
        float(_FREQUENCY[ascii_key(m.group(1)).replace("-", "")])
        for m in _FREQUENCY_RE.finditer(text)
    ]
    found += (p for p in map(_period, _TIMES_PER.finditer(text)) if p is not None)
    for m in _EVERY_OTHER.finditer(text):
        u = _unit_seconds(m.group("u"))
        if u is not None:
            found.append(2.0 * u)
    for m in _EVERY_N.finditer(text):
        n, u = _number(m.group("n")), _unit_seconds(m.group("u"))
        if n is not None and u is not None:
            found.append(n * u)
    for m in _EVERY_UNIT.finditer(text):
        u = _unit_seconds(m.group("u"))
        if u is not None and not m.group(0).lower().startswith("per"):
            found.append(float(u))
    return tuple(found)


def _period(m: re.Match[str]) -> float | None:
    """The seconds between two times of a ``_TIMES_PER`` match ("twice a day": 43200)."""
    u = _unit_seconds(m.group("u"))
    count = {"once": 1.0, "twice": 2.0, "thrice": 3.0}.get(m.group("n").lower())
    count = count or _number(m.group("n").split()[0])
    return u / count if u is not None and count else None


def _smaller(unit: float) -> float | None:
    return {3600.0: 60.0, 60.0: 1.0, 86400.0: 3600.0}.get(float(unit))


def parse_clock(text: str) -> tuple[Value, int, int] | None:
    """The first clock time ("07:30", "7.30 am", "9pm", "noon", "19:00 UTC") as minutes
    since midnight; a bare number is a clock time only with am/pm."""
    noon = _NOON.search(text)
    for m in _CLOCK.finditer(text):
        hours, minutes, ampm = int(m.group("h")), m.group("m"), m.group("ap")
        if minutes is None and ampm is None:
            continue
        if m.group(0)[len(m.group("h")) : len(m.group("h")) + 1] in ".h" and not (
            ampm or m.group("tz")
        ):
            continue  # "3.12" is a version, "1h30" a duration: a clock time needs ":" here
        if ampm:
            if hours > 12:
                continue
            hours = hours % 12 + (12 if ampm.lower().startswith("p") else 0)
        tz = (m.group("tz") or "").lower() or None
        if tz and tz.endswith(" time") and tz != "local time":
            tz = tz  # "berlin time": a zone we can name but not convert
        value = Value(ValueType.CLOCK, float(hours * 60 + int(minutes or 0)), zone=tz)
        return value, m.start(), m.end()
    if noon:
        minutes_of = {"noon": 720, "midday": 720, "midnight": 0}[ascii_key(noon.group(1))]
        return Value(ValueType.CLOCK, float(minutes_of)), noon.start(), noon.end()
    return None


def parse_quantity(text: str) -> tuple[Value, int, int] | None:
    """The first measured quantity: a size, a rate, a percentage or a duration."""
    options: list[tuple[int, int, Value]] = []
    for m in _SIZE.finditer(text):
        unit = ascii_key(m.group("u"))
        n = _number(m.group("n"))
        if n is None:
            continue
        if unit in ("m", "b") and not re.search(r"\d\s*[mb]\b", m.group(0), re.I):
            continue
        if unit == "m":  # "10m" is ten minutes, never ten megabytes
            continue
        if unit == "k" and re.match(r"\s+[a-z]", text[m.end() :], re.I):
            continue  # "50k rows": a count, not kilobytes
        key = "byte" if unit.startswith("byte") else unit[0]
        options.append((m.start(), m.end(), Value(ValueType.SIZE, n * _BYTES[key])))
        break
    for m in _RPX.finditer(text):
        n = float(m.group("n"))
        per = {"rps": 1, "qps": 1, "rpm": 60, "rph": 3600}[ascii_key(m.group("u"))]
        options.append((m.start(), m.end(), Value(ValueType.RATE, n / per)))
    for m in _RATE.finditer(text):
        n, u = _number(m.group("n")), _unit_seconds(m.group("u"))
        if n is None or u is None or not re.match(r"\d|\w", m.group("n")):
            continue
        if not m.group("what") and not re.search(r"per|/", m.group(0)):
            continue
        n *= 1000 if m.group("k") else 1  # "3k requests per minute"
        options.append((m.start(), m.end(), Value(ValueType.RATE, n / u)))
        break
    for m in _HERTZ.finditer(text):
        n = _number(m.group("n"))
        if n is not None:
            options.append((m.start(), m.end(), Value(ValueType.RATE, n)))
            break
    for m in _PERCENT.finditer(text):
        n = _number(m.group("n"))
        if n is not None:
            options.append((m.start(), m.end(), Value(ValueType.PERCENT, n)))
            break
    for m in _SHARE.finditer(text) if " in " in text or "/" in text or "out of" in text else ():
        part = _number(m.group("part") or m.group("p2") or m.group("p3"))
        whole = _number(re.sub(r"^a\s+", "", m.group("whole") or m.group("w2") or m.group("w3")))
        if part is not None and whole:
            options.append((m.start(), m.end(), Value(ValueType.PERCENT, 100 * part / whole)))
            break
    duration = parse_duration(text)
    if duration is not None:
        seconds, start, end = duration
        calendar = bool(re.search(r"mo|y|quarter", text[start:end], re.I))
        options.append((start, end, Value(ValueType.DURATION, seconds, approx=calendar)))
    if not options:
        return None
    # A rate contains a duration word ("100 requests per minute"): the longest at a start.
    options.sort(key=lambda o: (o[0], -(o[1] - o[0])))
    start, end, value = options[0]
    return value, start, end


# A share in words ("a third of requests", "half of the logs"), never of a time ("a quarter
# of an hour", "half a minute"); a bare decimal below one ("a dropout of 0.1",
# ``sample_rate: 0.5``); a part of a whole written with a slash ("1/10 of requests",
# ``setWeight: 1/4``).
_SHARE_WORD = guarded(
    r"\b(?:(?P<n>a|one|two|three)\s+)?(?P<f>half|third|thirds|quarter|quarters|fifth|fifths|tenth|"
    r"tenths)\b(?!\s+(?:of\s+)?(?:an?\s+)?(?:hour|minute|second|day|week|month|year)s?\b)",
    re.I,
)
_FRACTIONS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
_DECIMAL = re.compile(r"(?<![\d.,])0?\.\d+(?!\d|\.\d)")
_SLASHED = re.compile(r"(?<![\d/.])(\d{1,3})\s*/\s*(\d{1,4})(?![\d/.])")


def parse_shares(text: str) -> list[float]:
    """Every share a text states, in percent: "10%", "one in ten", "a third", "0.1",
    "1/10". A decimal below one and a percentage are read alike: "0.9" and "90%" are one
    share, and other shares differ (whether a bare decimal is a share at all is the
    reader's guess, so what is found here is only ever put to the agent)."""
    found: list[float] = []
    for m in _PERCENT.finditer(text):
        n = _number(m.group("n"))
        if n is not None:
            found.append(n)
    for m in _SHARE.finditer(text) if " in " in text or "out of" in text or "/" in text else ():
        part = _number(m.group("part") or m.group("p2") or m.group("p3"))
        whole = _number(re.sub(r"^a\s+", "", m.group("whole") or m.group("w2") or m.group("w3")))
        if part is not None and whole:
            found.append(100 * part / whole)
    for m in _SHARE_WORD.finditer(text):
        base = m.group("f").lower().rstrip("s")
        count = {"a": 1, "one": 1, "two": 2, "three": 3}.get((m.group("n") or "a").lower(), 1)
        found.append(100 * count / _FRACTIONS[base])
    for m in _DECIMAL.finditer(text):
        found.append(100 * float(m.group(0)))
    for m in _SLASHED.finditer(text):
        part, whole = int(m.group(1)), int(m.group(2))
        if 0 < part < whole:
            found.append(100 * part / whole)
    return found


_TIMES = re.compile(r"\s+(dozen|hundred|thousand)\b", re.I)
_MULTIPLES = {"dozen": 12, "hundred": 100, "thousand": 1000}


def number_at(text: str) -> tuple[float, int, int] | None:
    """The first plain number (digits or a number word) with its span: "three dozen" is
    36, "two hundred" 200."""
    for m in _NUMBER.finditer(text):
        if m.start() and text[m.start() - 1] in "-_/#.":
            continue  # a number in a name: "us-east-1", "#212"
        n = _number(m.group(0))
        if n is not None and m.group(0).lower() not in ("a", "an", "half", "single", "couple"):
            times = _TIMES.match(text, m.end())
            if times is not None and m.group(0).lower() not in _MULTIPLES:
                return n * _MULTIPLES[times.group(1).lower()], m.start(), times.end()
            return n, m.start(), m.end()
    return None


def parse_value(raw: str) -> Value:
    """A value as a caller or a pattern gives it, typed where its words say what it is."""
    text = raw.strip().strip(".,;:'\"`").strip()
    low = text.lower()
    clock = parse_clock(text)
    if clock is not None and clock[1] == 0:
        return clock[0]
    quantity = parse_quantity(text)
    if quantity is not None and quantity[1] == 0:
        return quantity[0]
    if low.replace(" ", "-") in _TRUE:
        return Value(ValueType.BOOLEAN, text="true")
    if low.replace(" ", "-") in _FALSE:
        return Value(ValueType.BOOLEAN, text="false")
    day = _DAY.fullmatch(low)
    if day:
        return Value(ValueType.DAY, text=_day_name(day.group(1)))
    if re.fullmatch(r"v?\d+(?:\.\d+){1,3}(?:\.x)?", low):
        return Value(ValueType.VERSION, text=low.lstrip("v").removesuffix(".x"))
    n = _number(re.sub(r"^an?\s+(?=dozen|hundred|thousand)", "", low))
    if n is not None and low not in ("a", "an", "half", "single", "couple"):
        return Value(ValueType.COUNT, n)
    return Value(ValueType.NAME, text=_name(low))


def day_of(text: str) -> str | None:
    m = _DAY.search(text)
    return _day_name(m.group(1)) if m else None


def _day_name(prefix: str) -> str:
    p = ascii_key(prefix)[:3]
    return next(d for d in _DAYS if d.startswith(p))


def _name(low: str) -> str:
    low = re.sub(r"^(?:the|a|an|our|their)\s+", "", low)
    low = re.sub(r"[\s_]+", " ", low)
    return low.replace("-", "").replace(".", "").replace(" ", "") or low


def compare(a: Value, b: Value) -> Relation:
    """How two values of one slot relate: the same, exclusive, compatible, or unknown."""
    if a.type is not b.type:
        if {a.type, b.type} <= {ValueType.COUNT, ValueType.NUMBER}:
            return _amounts(a, b, ValueType.COUNT)
        return Relation.UNKNOWN
    kind = a.type
    if kind is ValueType.CLOCK:
        if a.amount is None or b.amount is None:
            return Relation.UNKNOWN
        za, zb = a.zone, b.zone
        if za == zb or (za in ZONES and zb in ZONES):
            shift_a = ZONES.get(za or "", 0)
            shift_b = ZONES.get(zb or "", 0)
            same = (a.amount - shift_a) % 1440 == (b.amount - shift_b) % 1440
            return Relation.SAME if same else Relation.EXCLUSIVE
        if a.amount == b.amount:
            return Relation.SAME  # one zone left out: the same time as written
        return Relation.UNKNOWN
    if kind is ValueType.VERSION:
        pa, pb = a.text.split("."), b.text.split(".")
        if pa == pb:
            return Relation.SAME
        shorter = min(len(pa), len(pb))
        if pa[:shorter] == pb[:shorter]:
            return Relation.COMPATIBLE  # "3.12" and "3.12.4"
        return Relation.EXCLUSIVE
    if a.amount is not None and b.amount is not None:
        return _amounts(a, b, kind)
    return Relation.SAME if a.text == b.text else Relation.EXCLUSIVE


def _amounts(a: Value, b: Value, kind: ValueType) -> Relation:
    assert a.amount is not None and b.amount is not None
    biggest = max(abs(a.amount), abs(b.amount)) or 1.0
    tolerance = 0.03 if a.approx or b.approx else _TOLERANCE.get(kind, 1e-9)
    if abs(a.amount - b.amount) / biggest <= tolerance:
        return Relation.SAME
    return Relation.EXCLUSIVE
