"""Values compared as the code means them, not as they are spelled (issue #31, adr/0025).

A note says "the page size defaults to 20" and the code says ``os.getenv("PAGE_SIZE",
"20")``: an environment variable is always a string, so the string ``"20"`` *is* the number
20 there. Likewise ``100`` and ``100.0``, ``True`` and ``"true"``, ``'json'`` and `json`.
What is compared is a typed value: a bool, a number, None, or a string (case folded, since
"info" and "INFO" name one log level in every library a note talks about). A bool is never
equal to a number: ``True`` is not ``1`` in what a note claims. Arithmetic of number
literals as the code's facts spell it (``10 * 60``, ``60 * 60 * 24``: one space around each
operator, ``anchors.python_literals``) is the number it makes.
"""

from __future__ import annotations

import ast
import math
import re

__all__ = ["EMPTY", "EXPLICITLY", "QUALIFIED_NAME", "is_duration_code", "mentioned_within",
           "same_value", "typed_value"]

# A package's exported name as a value (``time.RFC3339``, ``json.Marshal``): compared as
# written, and by its name (``RFC3339``) against a standard a note states
QUALIFIED_NAME = re.compile(r"[a-z]\w*\.(?P<name>[A-Z]\w*)")

# Before a stated value (``symbol:regexp.go::regexpTypeHost=explicitly 1``): the note says
# the code writes that value for the name ("is explicitly assigned 1"), which a value the
# language derives (Go's ``iota``) is not.
EXPLICITLY = "explicitly "

# The value a note states as "an empty list", "an empty string", "nothing": whatever empty
# literal the code writes (``""``, ``[]``, ``()``, ``{}``, ``set()``).
EMPTY = "(empty)"
_EMPTY_LITERALS = frozenset({"[]", "()", "{}", "set()", "frozenset()", "list()", "dict()",
                             "tuple()", '""', "''", 'b""', "b''", "``"})  # fmt: skip
# Words a note and a setting both use for a flag: "defaults to off", ``"yes"``.
_TRUE_WORDS = frozenset({"true", "on", "yes", "enabled"})
_FALSE_WORDS = frozenset({"false", "off", "no", "disabled"})

_NUMBER = re.compile(r"[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# ``r'x'``, ``u"x"``: a string prefix that does not change the value
_PREFIXED = re.compile(r"^[rRuU]?(?P<q>'''|\"\"\"|'|\")(?P<s>.*)(?P=q)$", re.DOTALL)
_TERM = r"\(*[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\)*"
# "10 * 60", "(5 * 60) + 30", "1 << 3", "24*60*60", "60*5+30": never "3-5", "2024-01-01"
# or "24/7", which a note means as written
_ARITHMETIC = re.compile(rf"{_TERM}(?:(?: (?:\*\*|\*|//|/|\+|-|<<|>>) |\s?(?:\*\*|\*|<<|>>|\+)\s?)"
                         rf"{_TERM})+")
# "2 * time.Minute", "10*MB": an expression of names, one spelling however it is spaced
# (never with "/": "config/app.ini" is a path)
_NAMED_EXPRESSION = re.compile(r"[\w.]+(?:\s*[*+]\s*[\w.]+)+")
_OPERATOR = re.compile(r"\s*([*+])\s*")
_FOLDED = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.LShift, ast.RShift)


def typed_value(text: str) -> bool | float | str | None:
    """``text`` (a Python literal, a value as a note writes it, in backticks or not) as a
    bool, a number, None or a string."""
    t = text.strip().strip("`").strip()
    quoted = _PREFIXED.match(t)
    if quoted:
        t = quoted.group("s")
    low = t.lower()
    if low in _TRUE_WORDS or low in _FALSE_WORDS:
        return low in _TRUE_WORDS
    if not quoted and low in ("none", "null"):
        return None
    if _NUMBER.fullmatch(t):
        return float(t.replace("_", ""))
    if not quoted and (duration := _go_duration(t)) is not None:
        return duration
    if not quoted and _ARITHMETIC.fullmatch(t):
        folded = _fold(t)
        if folded is not None:
            return folded
    if not quoted and _NAMED_EXPRESSION.fullmatch(t):
        return _OPERATOR.sub(r" \1 ", t).casefold()
    return t.casefold()


# Go's ``time.Duration`` of a number and a unit: its value is the seconds it makes.
_GO_UNITS = {"Nanosecond": 1e-9, "Microsecond": 1e-6, "Millisecond": 1e-3, "Second": 1.0,
             "Minute": 60.0, "Hour": 3600.0}  # fmt: skip
_GO_DURATION = re.compile(
    r"(?:(?P<a>\d+(?:\.\d+)?)\s*\*\s*)?time\.(?P<unit>[A-Z][a-z]+)(?:\s*\*\s*(?P<b>\d+(?:\.\d+)?))?"
)


def _go_duration(text: str) -> float | None:
    m = _GO_DURATION.fullmatch(text)
    if m is None or m["unit"] not in _GO_UNITS or (m["a"] and m["b"]):
        return _timedelta(text)
    return float(m["a"] or m["b"] or 1) * _GO_UNITS[m["unit"]]


# Python's ``timedelta(days=365)``, ``datetime.timedelta(hours=1, minutes=30)``: of number
# literals, by keyword or in the constructor's order (days, seconds, microseconds, ...)
_TIMEDELTA = re.compile(r"(?:datetime\.)?timedelta\((?P<args>[\w\s=.,_]*)\)")
_TIMEDELTA_UNITS = {"weeks": 604800.0, "days": 86400.0, "hours": 3600.0, "minutes": 60.0,
                    "seconds": 1.0, "milliseconds": 1e-3, "microseconds": 1e-6}  # fmt: skip
_TIMEDELTA_ORDER = ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours",
                    "weeks")  # fmt: skip


def _timedelta(text: str) -> float | None:
    m = _TIMEDELTA.fullmatch(text)
    if m is None:
        return None
    total = 0.0
    for i, arg in enumerate(a.strip() for a in m["args"].split(",") if a.strip()):
        name, _, number = arg.rpartition("=")
        unit = name.strip() if name else (_TIMEDELTA_ORDER[i] if i < 7 else "")
        if unit not in _TIMEDELTA_UNITS or not _NUMBER.fullmatch(number.strip()):
            return None
        total += float(number.replace("_", "")) * _TIMEDELTA_UNITS[unit]
    return total


def is_duration_code(text: str | None) -> bool:
    """Whether a literal is a duration the code writes with its unit (Go's
    ``5 * time.Second``, Python's ``timedelta(days=1)``): a duration stated in any unit is
    compared in seconds."""
    return text is not None and _go_duration(text.strip()) is not None


def _fold(text: str) -> float | None:
    """The number arithmetic of number literals makes; None when it makes none (a zero
    divisor, an overflow, an exponent too large to be a setting's)."""
    try:
        value = _evaluate(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return value if value is not None and math.isfinite(value) else None


def _evaluate(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return None if isinstance(node.value, bool) else float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _evaluate(node.operand)
        return None if operand is None else -operand if isinstance(node.op, ast.USub) else operand
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, _FOLDED)):
        return None
    left, right = _evaluate(node.left), _evaluate(node.right)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Pow):
        return float(left**right) if abs(right) <= 64 and abs(left) <= 1e6 else None
    if isinstance(node.op, (ast.LShift, ast.RShift)):  # ``1 << 3``: of whole numbers only
        if not (left.is_integer() and right.is_integer() and 0 <= right <= 64):
            return None
        a, b = int(left), int(right)
        return float(a << b if isinstance(node.op, ast.LShift) else a >> b)
    if isinstance(node.op, ast.Add):
        return left + right
    if isinstance(node.op, ast.Sub):
        return left - right
    if isinstance(node.op, ast.Mult):
        return left * right
    if isinstance(node.op, ast.FloorDiv):
        return float(left // right)
    return left / right


def same_value(a: str, b: str) -> bool:
    """Whether two spellings state one value (see the module docstring)."""
    if EMPTY in (a, b):
        other = (b if a == EMPTY else a).strip().replace(" ", "")
        return other in _EMPTY_LITERALS or other == EMPTY
    x, y = typed_value(a), typed_value(b)
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    return x == y


_PARTS = re.compile(r"[^\w.\-]+")


def mentioned_within(code: str, stated: str) -> bool:
    """Whether the code's literal is a longer string that holds the stated value as one of
    its parts (``"redis://localhost:6379"`` and "redis", ``"127.0.0.1:5797"`` and
    "127.0.0.1", ``"sqlite:////tmp/app.db"`` and "/tmp/app.db"): the note may name one
    part of the value, so the two are not told apart by comparing them."""
    x = typed_value(code)
    said = stated.strip().strip("`'\"").casefold()
    if not isinstance(x, str) or len(said) < 2 or said == x:
        return False
    if said in _PARTS.split(x):
        return True
    # a part of several pieces: the path of ``"sqlite:////tmp/app.db"``, "/tmp/app.db"
    return bool(_PARTS.search(said)) and re.search(
        rf"(?<![\w.\-]){re.escape(said)}(?![\w.\-])", x) is not None
