"""Reading the structure of a claim from its text: the slot it fills (subject, attribute,
value), the scope it is about (staging, production, ...), and whether it is negated.

Deliberately conservative (seed 004): a claim yields a slot only for patterns whose
meaning is unambiguous — a version of a named thing, a numeric setting, a protocol — so
that two memories are compared as values of one slot only when they really are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Slot", "env_scope", "negation_core", "parse_slot", "slot_key"]

_ENVS = {
    "staging": "staging",
    "stage": "staging",
    "production": "production",
    "prod": "production",
    "development": "development",
    "dev": "development",
    "test": "test",
    "testing": "test",
    "qa": "qa",
    "local": "local",
    "ci": "ci",
    "preview": "preview",
    "sandbox": "sandbox",
}
_ENV_RE = re.compile(r"\b(" + "|".join(sorted(_ENVS, key=len, reverse=True)) + r")\b", re.I)
_VERSION = re.compile(
    r"\b(?P<name>[A-Za-z][A-Za-z+#]*)\s+(?:version\s+)?v?"
    r"(?P<ver>\d+(?:\.\d+){1,2})\b"
)
_SETTING = re.compile(
    r"\b(?P<attr>(?:rate |request |connection |batch |page |pool |upload |max(?:imum)? )?"
    r"(?:limit|timeout|port|retries|ttl|size|quota|workers|concurrency))"
    r"(?:\s+\w+){0,2}?\s+(?:is|of|=|to|at|was|are)\s+(?P<val>\d+(?:\.\d+)?\s?(?:ms|s|mb|kb|gb|%)?)\b",
    re.I,
)
_PROTOCOL = re.compile(
    r"\b(?:uses?|over|via|speaks|serves?|runs? on)\s+(?P<val>https?|grpc|websockets?|tls|ssh)\b",
    re.I,
)
_SUBJECT_BEFORE = re.compile(
    r"(?P<noun>(?:[\w-]+\s+){0,2}(?:api|server|service|database|db|cache|queue|endpoint|"
    r"site|app|backend|frontend))\b",
    re.I,
)
_FILLER = frozenset({"the", "a", "an", "our", "their", "its", "this", "that", "we", "and"})
_NEGATIONS = re.compile(
    r"\b(?:do not|don't|does not|doesn't|no longer|never|not|stopped|isn't|aren't|"
    r"won't|cannot|can't)\b\s*",
    re.I,
)
_IGNORED = ("the ", "we ", "our ")


@dataclass(frozen=True)
class Slot:
    subject: str
    attribute: str
    value: str


def env_scope(text: str) -> str | None:
    """The one deployment environment a claim names (``staging``, ``production``...),
    or None when it names none or several."""
    found = {_ENVS[m.group(1).lower()] for m in _ENV_RE.finditer(text)}
    return found.pop() if len(found) == 1 else None


def parse_slot(text: str, subject: str | None = None) -> Slot | None:
    """The slot a claim fills, if its text says it unambiguously."""
    subj = (subject or "").strip().lower()
    version = _VERSION.search(text)
    if version and not version.group("name").lower().startswith(("v", "version")):
        name = version.group("name").lower()
        if name not in ("is", "are", "was", "to", "of", "at", "limit", "port"):
            return Slot(subj, f"{name} version", version.group("ver"))
    setting = _SETTING.search(text)
    if setting:
        attr = re.sub(r"\s+", " ", setting.group("attr").lower()).strip()
        value = re.sub(r"\s+", "", setting.group("val").lower())
        return Slot(subj or _subject_noun(text[: setting.start()]), attr, value)
    protocol = _PROTOCOL.search(text)
    if protocol:
        noun = subj or _subject_noun(text[: protocol.start()])
        return Slot(noun, "protocol", protocol.group("val").lower())
    return None


def _subject_noun(prefix: str) -> str:
    """The thing a setting or protocol belongs to: "the billing API" -> "billing api";
    environment words are the claim's scope, not its subject."""
    matches = list(_SUBJECT_BEFORE.finditer(prefix))
    if not matches:
        return ""
    words = [
        w for w in matches[-1].group("noun").lower().split() if w not in _FILLER and w not in _ENVS
    ]
    return " ".join(words)


def _stem(word: str) -> str:
    # Enough to match "retries"/"retry", "uses"/"use": a negation changes the verb form.
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def slot_key(slot: Slot) -> str:
    return f"{slot.subject}|{slot.attribute}"


def negation_core(text: str) -> tuple[str, bool]:
    """The claim with negation words removed, normalised, and whether it was negated:
    "we don't use redis" and "we use redis" share a core and differ in polarity."""
    lowered = text.casefold().strip().rstrip(".!")
    negated = bool(_NEGATIONS.search(lowered))
    core = _NEGATIONS.sub("", lowered)
    core = re.sub(r"\b(any more|anymore|any longer)\b", "", core)
    core = re.sub(r"[^\w\s./-]", " ", core)
    core = re.sub(r"\s+", " ", core).strip()
    for prefix in _IGNORED:
        core = core.removeprefix(prefix)
    return " ".join(_stem(w) for w in core.split()), negated
