"""Words as recall and the contradiction check read them: tokens, the stemmer, stop words
and synonyms. The stemmer is by hand: Snowball's English and Porter stemmers ranked the
questions of ``python -m benchmarks recall-quality`` a little worse."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from anchors.plurals import singular

__all__ = [
    "SPELLINGS",
    "STOP",
    "SYNONYMS",
    "Synonyms",
    "parts",
    "singular",
    "stem",
    "tokens",
    "words",
]


def words(text: str) -> frozenset[str]:
    """The words of a list written as text, one space or line apart."""
    return frozenset(text.split())


# Words that say nothing of what a text is about: articles, pronouns, auxiliaries and
# prepositions. Recall and the contradiction check each skip a few more (their own lists).
STOP = words(
    """a an and are as at be by do does for from how i in is it its of on or our that the
    their this to was we what when where which who why with you your"""
)


class Synonyms(NamedTuple):
    name: str
    same: tuple[str, ...]  # other spellings: the contradiction check reads them as the name
    related: tuple[str, ...]  # what a query for any of them also looks for (recall)


def _synonyms(line: str) -> Synonyms:
    name, same, related = (
        tuple(filter(None, map(str.strip, f.split(",")))) for f in line.split("|")
    )
    return Synonyms(name[0], same, related)


# Names programmers use for one thing: name | other spellings | related words.
SYNONYMS = tuple(
    map(
        _synonyms,
        """cli | | command line, command-line, console script, terminal command
        test | | test runner, test suite, pytest, unittest, tox, nose
        database | db | sql, orm, sqlalchemy
        config | | configuration, configure, setting, settings
        environment | env | environment variable, env var
        dependency | | dep, requirement, package
        auth | | authentication, authenticate, login
        token | jwt |
        http | | web, api
        cache | | caching
        log | | logging, logger
        retry | | back-off, backoff, attempt, redelivery
        email | e-mail | mail, smtp
        job | | worker, queue, background
        payment | | billing, charge
        docs | | documentation, doc
        lint | | linter, style, format, formatter
        repository | repo |
        storage | | store, persist
        password | | passwd
        money | | amount, cents, price
        deploy | | release, ship
        type | | typing, annotation, mypy
        postgres | postgresql |
        kubernetes | k8s |
        message | msg |""".splitlines(),
    )
)
SPELLINGS = {same: group.name for group in SYNONYMS for same in group.same}  # -> name

_TOKEN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*[A-Za-z0-9_]|[A-Za-z0-9_]")
_PARTS = re.compile(r"[./\-_]+")
# camelCase and PascalCase humps, acronyms before a capitalised word (HTTPServer), digits.
_HUMPS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_DOUBLE = re.compile(r"([b-df-hj-km-np-rtv-y])\1$")  # runn -> run; not ll, ss, zz
_VOWEL = re.compile(r"[aeiouy]")


def tokens(text: str, stop: frozenset[str] = STOP) -> list[str]:
    """The words of a text, case kept (``verify_token``, ``store/db.py`` and ``HTTPServer``
    are one token each: ``parts`` splits them), without the ``stop`` words."""
    return [t for t in _TOKEN.findall(text) if t.casefold() not in stop]


def parts(raw: str) -> list[str]:
    """The parts of a compound token, folded: paths, dotted and snake_case names, camelCase."""
    found: list[str] = []
    for piece in _PARTS.split(raw):
        found += _HUMPS.findall(piece) if piece else []
    return [p.casefold() for p in found]


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A word brought to one form: plurals and verb forms of one word meet (tests,
    testing, tested -> test; uses, using, used, use -> us); names with digits and short
    words stay as they are."""
    w = word.casefold()
    if len(w) < 3 or not w.isalpha():
        return w
    w = singular(w)
    if len(w) > 4 and w.endswith("ied"):
        return w[:-3] + "y"
    for suffix in ("ing", "ed"):
        rest = w[: -len(suffix)]
        # What is left must be a word (a vowel in it): "string" and "bring" stay whole.
        if w.endswith(suffix) and len(rest) >= 2 and _VOWEL.search(rest) and not w.endswith("eed"):
            w = _DOUBLE.sub(r"\1", rest)
            break
    if len(w) >= 3 and w.endswith("e") and not w.endswith("ee"):
        w = w[:-1]
    return w
