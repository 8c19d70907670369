"""A duration a note states in words, in the unit a setting's name carries.

"Tokens stay valid for 10 minutes (``token_validity_seconds``)": the code holds ``600``.
A value with a unit is compared with a constant only when the constant's name says its
unit (``_seconds``, ``_ms``, ``_MINUTES``, ``_hours``, ``_days``); any other name leaves
the value unbound, since ``TTL = 3600`` could be seconds or milliseconds.
"""

from __future__ import annotations

import re

__all__ = ["in_units_of", "same_duration"]

_SECONDS = {
    "ms": 0.001, "msec": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "millis": 0.001,
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400, "week": 604800, "weeks": 604800,
}  # fmt: skip
_STATED = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s?(?P<unit>[A-Za-z]+)")
# The unit a name ends with; a bare "m", "s", "h" or "d" is too short to be one there.
_NAMED_UNIT = re.compile(
    r"[_.](?P<unit>ms|msec|millis|milliseconds|secs?|seconds|mins?|minutes|hrs|hours|days|"
    r"weeks)\Z",
    re.IGNORECASE,
)


def in_units_of(stated: str, name: str) -> str | None:
    """``stated`` ("10 minutes") as a number in the unit ``name`` ends with ("600" for
    ``validity_seconds``); None when either has no duration unit."""
    m = _STATED.fullmatch(stated.strip("`"))
    unit = _NAMED_UNIT.search(name)
    if m is None or unit is None:
        return None
    given = _SECONDS.get(m["unit"].lower())
    wanted = _SECONDS.get(unit["unit"].lower())
    if given is None or wanted is None:
        return None
    value = float(m["n"]) * given / wanted
    return str(int(value)) if value == int(value) else repr(round(value, 6))


def seconds(stated: str) -> float | None:
    """``stated`` ("30 days", "30d", "1.5 h") in seconds; None when it is not a duration."""
    m = _STATED.fullmatch(stated.strip("`'\""))
    unit = _SECONDS.get(m["unit"].lower()) if m else None
    return None if m is None or unit is None else float(m["n"]) * unit


def same_duration(one: str, other: str) -> bool:
    """Whether two texts state the same duration ("30 days" and ``30d``)."""
    a, b = seconds(one), seconds(other)
    return a is not None and a == b
