"""Values compared as the code means them, not as they are spelled (issue #31, adr/0025).

A note says "the page size defaults to 20" and the code says ``os.getenv("PAGE_SIZE",
"20")``: an environment variable is always a string, so the string ``"20"`` *is* the number
20 there. Likewise ``100`` and ``100.0``, ``True`` and ``"true"``, ``'json'`` and `json`.
What is compared is a typed value: a bool, a number, None, or a string (case folded, since
"info" and "INFO" name one log level in every library a note talks about). A bool is never
equal to a number: ``True`` is not ``1`` in what a note claims.
"""

from __future__ import annotations

import re

__all__ = ["same_value", "typed_value"]

_NUMBER = re.compile(r"[+-]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# ``r'x'``, ``u"x"``: a string prefix that does not change the value
_PREFIXED = re.compile(r"^[rRuU]?(?P<q>'''|\"\"\"|'|\")(?P<s>.*)(?P=q)$", re.DOTALL)


def typed_value(text: str) -> bool | float | str | None:
    """``text`` (a Python literal, a value as a note writes it, in backticks or not) as a
    bool, a number, None or a string."""
    t = text.strip().strip("`").strip()
    quoted = _PREFIXED.match(t)
    if quoted:
        t = quoted.group("s")
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if not quoted and low in ("none", "null"):
        return None
    if _NUMBER.fullmatch(t):
        return float(t.replace("_", ""))
    return t.casefold()


def same_value(a: str, b: str) -> bool:
    """Whether two spellings state one value (see the module docstring)."""
    x, y = typed_value(a), typed_value(b)
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    return x == y
