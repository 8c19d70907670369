"""A duration a note states in words, in the unit a setting's name carries.

"Tokens stay valid for 10 minutes (``token_validity_seconds``)": the code holds ``600``.
A value with a unit is compared with a constant only when the constant's name says its
unit (``_seconds``, ``_ms``, ``_MINUTES``, ``_hours``, ``_days``); any other name leaves
the value unbound, since ``TTL = 3600`` could be seconds or milliseconds.
"""

from __future__ import annotations

import re

from anchors.literals import typed_value

__all__ = ["in_plain_seconds", "in_units_of", "restated_in_seconds", "same_duration"]

_SECONDS = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "millis": 0.001,
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400, "week": 604800, "weeks": 604800,
}  # fmt: skip
_STATED = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s?(?P<unit>[A-Za-z]+)")
# The unit a name ends with; a bare "m", "s", "h" or "d" is too short to be one there, and
# "min" is as often the minimum (``RetryWaitMin``, ``POOL_MIN``).
# (``validity_seconds``, ``CACHE.TTL_MS``; in camelCase ``intervalMs``, ``timeoutSeconds``)
_NAMED_UNIT = re.compile(
    r"(?i:[_.](?P<unit>ms|msec|millis|milliseconds|secs?|seconds|mins|minutes|hrs|hours|days|"
    r"weeks))\Z"
    r"|(?<=[a-z0-9])(?P<camel>Ms|Msec|Millis|Milliseconds|Secs?|Seconds|Mins|Minutes|Hrs|Hours"
    r"|Days|Weeks)\Z"
)


def in_units_of(stated: str, name: str) -> str | None:
    """``stated`` ("10 minutes") as a number in the unit ``name`` ends with ("600" for
    ``validity_seconds``); None when either has no duration unit."""
    total = seconds(stated)
    unit = _NAMED_UNIT.search(name)
    wanted = _SECONDS.get((unit["unit"] or unit["camel"]).lower()) if unit is not None else None
    if total is None or wanted is None:
        return None
    value = total / wanted
    return str(int(value)) if value == int(value) else repr(round(value, 6))


# "one hour", "a day", "ten minutes": a duration in words (``anchors.value_claims``)
NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "sixty": 60, "ninety": 90,
}  # fmt: skip
WORD_DURATION = re.compile(
    # "half an hour", "an hour and a half"; "a second" is one only at the end of its phrase:
    # "a second developer" is an ordinal
    rf"\b(?P<half>half\s+)?(?P<n>{'|'.join(NUMBER_WORDS)})\s+"
    r"(?P<unit>seconds|minutes?|hours?|days?|weeks?)\b(?P<more>\s+and\s+a\s+half)?"
    r"|(?<!half\s)\b(?P<m>a|one)\s+(?P<s>second)\b(?![ \t]+[a-z])",
    re.IGNORECASE,
)


def seconds(stated: str) -> float | None:
    """``stated`` ("30 days", "30d", "1.5 h", "one hour") in seconds; None when it is not a
    duration."""
    words = WORD_DURATION.fullmatch(stated.strip("`'\""))
    if words is not None:
        n, unit = (words["n"], words["unit"]) if words["n"] else (words["m"], words["s"])
        times = 0.5 if words["half"] else 1.5 if words["more"] else 1
        return times * NUMBER_WORDS[n.lower()] * _SECONDS[unit.lower()]
    m = _STATED.fullmatch(stated.strip("`'\""))
    unit = _SECONDS.get(m["unit"].lower()) if m else None
    return None if m is None or unit is None else float(m["n"]) * unit


def same_duration(one: str, other: str) -> bool:
    """Whether two texts state the same duration ("30 days" and ``30d``)."""
    a, b = seconds(one), seconds(other)
    return a is not None and a == b


_LEADING_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)\s*[A-Za-z]+\s*$")


def restated_in_seconds(stated: str, literal: str) -> bool:
    """Whether a number the note gives in code (``3600 * 24 * 7``, ``16 * 16``) is
    ``stated`` again: as a duration in seconds ("a week (EXPIRE = 3600 * 24 * 7)"), or as
    the same number with a unit ("256 bytes (POOL = 16 * 16)"). One value said twice."""
    held = typed_value(literal)
    if not isinstance(held, float) or isinstance(held, bool):
        return False
    total = seconds(stated)
    if total is not None:
        return held == total
    m = _LEADING_NUMBER.fullmatch(stated)
    return m is not None and float(m.group(1)) == held


def in_plain_seconds(stated: str, name: str, literals: list[str]) -> str | None:
    """``stated`` ("1 day") in seconds, for a Python setting whose name carries no unit
    (``EXERCISE_CACHE_TTL``) and whose ``literals`` are what the code gives it: Python
    code counts durations in seconds (``time.sleep``, cache timeouts). None when a literal
    reads as the same duration in another unit (``86400000``: milliseconds; ``1440``:
    minutes), or when ``stated`` is no whole number of seconds."""
    total = seconds(stated)
    if total is None or total != int(total) or _NAMED_UNIT.search(name):
        return None
    n = int(total)
    other_units = {n * 1000, n / 60, n / 3600, n / 86400} - {n}
    for literal in literals:
        held = typed_value(literal)  # ``86400000`` and ``24 * 60 * 60 * 1000`` alike
        if isinstance(held, float) and not isinstance(held, bool) and held in other_units:
            return None
    return str(n)
