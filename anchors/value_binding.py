"""Values a note binds to a constant or an environment variable it names (issue #31, adr/0025).

"`PAGE_SIZE` defaults to 50", "MAX_RETRIES is 3", "The maximum page size is 500
(`MAX_PAGE_SIZE` in `app/paging.py`)": the value belongs to the name, and a value anchor
(``env:PAGE_SIZE=50``, ``symbol:app/paging.py::MAX_PAGE_SIZE=500``) checks it, so a wrong
value REFUTES. A wrong binding would refute a true note, so a value is bound only when

- the name is written as code (in backticks, ALL_CAPS, with ``_`` or ``Class.ATTR``);
- the value follows it in the same clause after a copula, "defaults to", "=" or ":", or the
  name stands in parentheses right after the value ("... is 500 (`MAX_PAGE_SIZE`)");
- the name resolves in the fingerprint to one file's constant, or, where the note says
  "default", to an environment default, and the code gives it a literal (a computed value
  cannot be compared: left unbound);
- nothing in the sentence places the value elsewhere (production, the tests, an override,
  an example, ``export X=...``) or makes it a condition, a plan, the past or a negation.

Anything else stays an uncovered value: the note is ACTIVE and the value is named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind
from anchors.value_claims import StatedValue, bare_value, stated_values

__all__ = ["Binding", "bind_values"]


@dataclass(frozen=True)
class Binding:
    """A value anchor read from the text: the ``name`` it binds, and the value's span."""

    anchor: Anchor
    name: str
    span: tuple[int, int]


_NAME = r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)?"
_COPULA = r"(?:is|equals|defaults\s+to|is\s+set\s+to|is\s+by\s+default|is\s+configured\s+as)"
# "`PAGE_SIZE` defaults to `50`", "MAX_RETRIES is 3", "TIMEOUT = 30", "workers: 4"
_NAME_BEFORE = re.compile(
    rf"`?(?P<name>{_NAME})`?(?:['’]s\s+(?:error\s+)?(?:message|text|value|string|id)\b)?"
    rf"(?:\s+{_COPULA}\s+|\s*[=:]\s*)`?$",
    re.IGNORECASE,
)
_COPULA_BEFORE = re.compile(rf"(?:\b{_COPULA}|\bof|=)\s*`?$", re.IGNORECASE)
# "... is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)"
_NAME_AFTER = re.compile(
    rf"`?\s*\(\s*`?(?P<name>{_NAME})`?(?:\s+(?:in|from|at)\s+`?(?P<path>[\w./\-]+)`?)?\s*\)"
)
# "... retries up to 3 times (`MAX_RETRY_COUNT`)", "... 25 objects per page
# (PAGINATION_OBJECTS_PER_PAGE in wger/utils/constants.py)": a few words without a number,
# a comma or a clause's end between the value and the name it is stated for
_NAME_LATER = re.compile(
    r"(?:\s+[A-Za-z][A-Za-z/'\-]*){0,5}?"
    rf"\s*\(\s*`?(?P<name>{_NAME})`?(?:\s+(?:in|from|at)\s+`?(?P<path>[\w./\-]+)`?)?\s*\)"
)
_ASSIGNED = re.compile(rf"^(?P<name>{_NAME})\s?=")
_DEFAULTS_TO = re.compile(r"\b(?:defaults?|defaulting)\s+to\s*`?$", re.IGNORECASE)
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
_DEFAULT = re.compile(r"\bdefault", re.IGNORECASE)


def bind_values(
    text: str, fp: Fingerprint, scope: str | None, spans: Sequence[tuple[int, int, bool]]
) -> list[Binding]:
    """The value anchors ``text`` supports: each stated value bound to a name it is stated
    for (see the module docstring). ``scope`` is the note's resolved subject path."""
    found = []
    for value in stated_values(text):
        bare = bare_value(value)
        sentence = next(((a, b) for a, b, question in spans if a <= value.start < b
                         and not question), None)  # fmt: skip
        if bare is None or sentence is None:
            continue
        if _NOT_PLAIN.search(text, sentence[0], value.start) or _ELSEWHERE.search(
            text, sentence[0], sentence[1]
        ):
            continue
        named = _named(text, value, sentence)
        if named is None:
            continue
        name, _, path = named
        # The environment's value is what a deployment sets; the code only says its default:
        # a value is bound to an environment variable only where the note says "default".
        default = _DEFAULT.search(text, sentence[0], sentence[1]) is not None
        anchor = _resolve(name, path or scope, fp, bare, default)
        if anchor is not None:
            found.append(Binding(anchor, name, (value.start, value.end)))
    return found


def _named(
    text: str, value: StatedValue, sentence: tuple[int, int]
) -> tuple[str, int, str | None] | None:
    """(name, where it starts, the path named with it) a value is stated for, or None: the
    name before the copula, else the one in parentheses after the value; code-like only."""
    assigned = _ASSIGNED.match(value.text)
    if assigned:
        return assigned.group("name"), value.start, None
    before = text[sentence[0] : value.start]
    m = _NAME_BEFORE.search(before)
    if m and _code_like(text, m.group("name"), sentence[0] + m.start("name")):
        return m.group("name"), sentence[0] + m.start("name"), None
    after = _NAME_AFTER.match(text, value.end, sentence[1])
    if (after and _COPULA_BEFORE.search(before)
            and _code_like(text, after.group("name"), after.start("name"))):  # fmt: skip
        return after.group("name"), after.start("name"), after.group("path")
    later = _NAME_LATER.match(text, value.end, sentence[1])
    if later and _code_like(text, later.group("name"), later.start("name")):
        return later.group("name"), later.start("name"), later.group("path")
    # "TIME_ZONE comes from the environment and defaults to Europe/Berlin": the one name
    # written as code earlier in the sentence is what defaults to the value
    if _DEFAULTS_TO.search(before):
        names = {m.group("name"): sentence[0] + m.start("name")
                 for m in _CODE_NAME.finditer(before)
                 if _code_like(text, m.group("name"), sentence[0] + m.start("name"))}  # fmt: skip
        if len(names) > 1:  # "... DJANGO_DEBUG with os.environ.get, defaulting to": the setting
            names = {n: at for n, at in names.items() if n.isupper()}
        if len(names) == 1:
            [(name, at)] = names.items()
            return name, at, None
    return None


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
    env = fp.env_default_values(name)
    if default and any(v.text is not None for _, v in env):
        return Anchor(AnchorKind.ENV, name, version=value)
    if constant is not None:
        return Anchor(AnchorKind.SYMBOL, name, scope=constant, version=value)
    return None


def _constant(name: str, where: str | None, fp: Fingerprint) -> str | None:
    """The one file that gives constant ``name`` a literal value (``where`` when it does)."""
    found = fp.constant_values(name)
    if where is not None:
        here = [v for p, v in found if p == where]
        if here:
            return where if all(v.text is not None for v in here) else None
    paths = {p for p, _ in found}
    if len(paths) != 1 or any(v.text is None for _, v in found):
        return None
    return paths.pop()
