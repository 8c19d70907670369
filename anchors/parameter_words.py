"""A parameter's default named by its own words (issue #31): "`HTTPAdapter` defaults to a
pool of 10 connections and 0 retries" is ``param:requests/adapters.py::HTTPAdapter.__init__
(pool_connections=10)`` and ``...(max_retries=0)``.

Read where a sentence says what a definition with a signature defaults to ("defaults to",
"by default", "uses ... by default") and states a number with the words around it ("a
pool of 10 connections", "0 retries", "a timeout of 30"): the number is bound to the one
parameter of that definition (a class's ``__init__``) whose name's words the phrase holds
("pool_connections": pool, connections; "max_retries": retries, a bound word like "max"
aside). No parameter, or more than one, binds nothing: the value stays an uncovered part.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint, Signature
from anchors.plurals import singular
from anchors.spec import Anchor, AnchorKind, Expect

__all__ = ["WordedDefault", "read_parameter_words"]


@dataclass(frozen=True)
class WordedDefault:
    """A parameter default a sentence states in words: its anchor and the value's span."""

    anchor: Anchor
    span: tuple[int, int]


_DEFAULTS = re.compile(r"\bdefaults?\s+to\b|\bby\s+default\b|\bdefault\s+(?:is|of)\b", re.I)
# "a pool of 10 connections", "0 retries", "a timeout of 30": the words before "of" and
# the noun after the number
_NUMBER = re.compile(
    r"(?:\b(?P<before>[a-z]+)\s+of\s+)?(?<![\w.])(?P<n>\d+(?:\.\d+)?)(?![\w.])"
    r"(?:\s+(?P<after>[a-z]+))?", re.I)
_BOUND_WORDS = frozenset({"max", "min", "maximum", "minimum", "num", "number", "n", "default",
                          "count", "total"})  # fmt: skip


def read_parameter_words(text: str, spans: Sequence[tuple[int, int, bool]],
                         subjects: Sequence[tuple[str, str]], fp: Fingerprint,
                         taken: Sequence[tuple[int, int]]) -> list[WordedDefault]:  # fmt: skip
    """The parameter defaults ``text`` states in words of the definitions ``subjects``
    (path, qualified name: the symbols the note's anchors found), outside the ``taken``
    spans other readers bound."""
    found: list[WordedDefault] = []
    for start, end, question in spans:
        sentence = text[start:end]
        if question or not _DEFAULTS.search(sentence):
            continue
        named = [(path, qual) for path, qual in subjects if qual.rpartition(".")[2] in sentence]
        signature = _one_signature(named, fp)
        if signature is None:
            continue
        path, function, sig = signature
        for m in _NUMBER.finditer(text, start, end):
            at = m.span("n")
            if any(a < at[1] and at[0] < b for a, b in taken):
                continue
            words = {_word(w) for w in (m["before"], m["after"]) if w}
            param = _one_param(sig, words)
            if param is not None:
                anchor = Anchor(AnchorKind.PARAM, f"{function}({param})", Expect.PRESENT,
                                path, m["n"])  # fmt: skip
                found.append(WordedDefault(anchor, at))
    return found


def _word(word: str) -> str:
    return singular(word.casefold())


def _one_signature(named: Sequence[tuple[str, str]],
                   fp: Fingerprint) -> tuple[str, str, Signature] | None:  # fmt: skip
    """The one signature the named definitions have (a class's ``__init__``), or None."""
    found = []
    for path, qual in named:
        for function in (qual, f"{qual}.__init__"):
            sig = fp.signature(path, function)
            if sig is not None and sig.text is not None:
                found.append((path, function, sig))
                break
    return found[0] if len(found) == 1 else None


def _one_param(sig: Signature, words: set[str]) -> str | None:
    """The one parameter of ``sig`` whose name's words (bound words aside) are all among
    ``words``, or None."""
    if not words:
        return None
    hits = []
    for param in sig.params:
        parts = {_word(p) for p in param.name.split("_") if p} - _BOUND_WORDS
        if parts and parts <= words and param.has_default:
            hits.append(param.name)
    return hits[0] if len(hits) == 1 else None
