"""Reading the structure of a claim from its text: the slot it fills (subject, attribute,
value), the scope it is about (staging, production, ...), and whether it is negated.

The slot itself is read by ``store.contradictions.slots`` (subject, qualifiers,
attribute, typed value); what is stored with a memory is its first slot's key and value.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from anchors.needles import ascii_key, guarded
from store.contradictions.slots import clauses, content_words, read_slots
from store.text import singular, words

__all__ = ["ENV_SCOPES", "Slot", "env_scope", "negation_core", "parse_slot", "slot_key"]

# The deployment environments a claim may be scoped to, and other ways of writing them.
ENV_SCOPES = words("staging production development test qa local ci preview sandbox")
_ENVS = {e: e for e in ENV_SCOPES} | {
    "stage": "staging",
    "prod": "production",
    "dev": "development",
    "testing": "test",
}
_ENV_RE = guarded(r"\b(" + "|".join(sorted(_ENVS, key=len, reverse=True)) + r")\b", re.I)
_NEGATIONS = guarded(
    r"\b(?:do not|don't|does not|doesn't|no longer|never|not|stopped|isn't|aren't|"
    r"won't|cannot|can't)\b\s*",
    re.I,
)
_IGNORED = ("the ", "we ", "our ")
_ANY_MORE = guarded(r"\b(any more|anymore|any longer)\b")
_PUNCTUATION = re.compile(r"[^\w\s./-]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Slot:
    subject: str
    attribute: str
    value: str


@functools.lru_cache(maxsize=1 << 16)
def env_scope(text: str) -> str | None:
    """The one deployment environment a claim names (``staging``, ``production``...),
    or None when it names none or several. Only the claim's own words count, not its
    reasons or asides ("..., which is why QA sessions get logged out": no scope)."""
    if _ENV_RE.search(text) is None:
        return None
    found = {_ENVS[ascii_key(m.group(1))] for m in _ENV_RE.finditer(" ".join(clauses(text)))}
    return found.pop() if len(found) == 1 else None


def parse_slot(text: str, subject: str | None = None) -> Slot | None:
    """The slot a claim fills as stored with the memory (its key and value, as text): the
    first slot ``store.contradictions.slots`` reads from the note."""
    found = read_slots(text)
    if not found:
        return None
    first = found[0]
    about = first.about | (content_words(subject) if subject else frozenset())
    return Slot(" ".join(sorted(about)), first.attribute, first.value.render())


def slot_key(slot: Slot) -> str:
    return f"{slot.subject}|{slot.attribute}"


@functools.lru_cache(maxsize=1 << 16)
def negation_core(text: str) -> tuple[str, bool]:
    """The claim with negation words removed, normalised, and whether it was negated:
    "we don't use redis" and "we use redis" share a core and differ in polarity; plurals
    are folded (a negation changes the verb form: "retries"/"retry", "uses"/"use")."""
    lowered = text.casefold().strip().rstrip(".!")
    negated = bool(_NEGATIONS.search(lowered))
    core = _NEGATIONS.sub("", lowered)
    core = _ANY_MORE.sub("", core)
    core = _PUNCTUATION.sub(" ", core)
    core = _SPACES.sub(" ", core).strip()
    for prefix in _IGNORED:
        core = core.removeprefix(prefix)
    return " ".join(singular(w) for w in core.split()), negated
