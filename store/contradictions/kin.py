"""Two slots about one attribute in other words: "checkpoint every 500 steps" and
`save_steps: 2000`, "the refresh interval of the products index is 1s" and
`refresh_interval: 30s`, "the memory limit of the worker pod is 512 MiB" and "PDF
workers are capped at 1 GB". Their attributes are one *family* (a named setting counts
by the attribute words of its name), and their subjects share a word once names and
paths are read as the words they are made of.

Such a pair is only ever a question for the agent (``rules``): the words that make two
slots kin are a guess at their meaning, never evidence enough to change a note. Pure
functions; no database.
"""

from __future__ import annotations

import functools
import itertools
import re

from store.contradictions.related_words import acronyms, initials
from store.contradictions.slots import Slot, attribute_named
from store.contradictions.values import Relation, ValueType, compare
from store.contradictions.words import ENVS, VARIANTS, content_words
from store.text import SPELLINGS

__all__ = ["akin", "family", "joined", "name_words", "shared_words"]

# Attributes whose values are read as numbers and are compared as amounts
_NUMERIC = frozenset(
    {
        ValueType.DURATION,
        ValueType.SIZE,
        ValueType.COUNT,
        ValueType.NUMBER,
        ValueType.PERCENT,
        ValueType.RATE,
    }
)
# Families too broad to say two notes are about one thing ("is", "uses", a job's verb)
_MEASURED = frozenset(
    {
        "timeout",
        "lifetime",
        "retention",
        "interval",
        "delay",
        "limit",
        "threshold",
        "size",
        "duration",
        "rate",
        "port",
        "clock time",
        "day",
        "enabled",
        "required",
        "allowed",
    }
)


_JOB_PREPOSITIONS = frozenset({"via", "in", "to", "from", "behind", "as"})


@functools.lru_cache(maxsize=1 << 14)
def family(attribute: str) -> str | None:
    """The family of a slot's attribute: "limit size" and `setting limits.memory` are
    "limit"; "count step" and `setting save_steps` are "count step"; a version keeps its
    name. None for the attributes that say too little to pair notes in other words."""
    if attribute.startswith("setting "):
        return attribute_named(attribute.removeprefix("setting "))
    if attribute.startswith(("count ", "is ", "rule ")) or attribute.endswith(" version"):
        return attribute
    if attribute in ("owner", "does handle"):
        return "does handle"  # who is responsible for a thing is who does it
    if attribute == "on call" or attribute.startswith("does "):
        return attribute  # cutting and approving releases are two duties
    words = attribute.split()
    if not words:
        return None  # a setting whose name holds no word says nothing of what it sets
    if len(words) == 2 and words[1] in _JOB_PREPOSITIONS:
        return attribute  # a job: "sign via", "partition via", "stor in"
    head = words[0] if attribute != "clock time" else attribute
    return head if head in _MEASURED else None


@functools.lru_cache(maxsize=1 << 14)
def name_words(words: frozenset[str]) -> frozenset[str]:
    """Content words, each short spelling also as its name ("env", "db"), each name and
    path also read as the words it is made of
    ("payments/refund": payment, refund; "enable.auto.commit": enable, auto, commit),
    file suffixes and short parts left out."""
    found = set(words) | {SPELLINGS[w] for w in words if w in SPELLINGS}  # "env": environment
    found |= {w[:-3] for w in words if len(w) > 8 and w.endswith("ing")}  # "checkpointing"
    for word in words:
        if re.search(r"[/._-]", word):
            parts = [p for p in re.split(r"[/._-]+", word) if len(p) > 1]
            parts = parts[:-1] if "." in word[-6:] and len(parts) > 1 else parts
            joined = [x + y for x, y in itertools.pairwise(parts)]  # "auto-commit"
            found |= content_words(" ".join(p for p in [*parts, *joined] if len(p) > 2))
    return frozenset(found)


def akin(a: Slot, b: Slot, text_a: str, text_b: str) -> bool:
    """Whether two slots read as about one attribute of one thing though ``relate`` says
    otherwise: one family of attribute, values of it that differ, a subject word in
    common in both texts (names and paths read as their parts), and no qualifier, environment or
    variant that sets them apart, nor a word in common that each note's text narrows
    with a word of its own ("the *payments* worker" / "the *thumbnails* worker")."""
    if not (a.named and b.named) or a.many or b.many:
        return False
    kind = family(a.attribute)
    if kind is None or kind != family(b.attribute):
        return False
    relation = compare(a.value, b.value)
    if relation in (Relation.SAME, Relation.COMPATIBLE):
        return False
    if relation is Relation.UNKNOWN and not {a.value.type, b.value.type} <= _NUMERIC:
        return False
    if (a.qualifiers - b.qualifiers) and (b.qualifiers - a.qualifiers):
        return False
    wa, wb = name_words(a.about), name_words(b.about)
    if any(w in ENVS or w in VARIANTS for w in wa ^ wb):
        return False  # production against preview, iOS against Android: other things
    shared = shared_words(a, b, text_a, text_b)
    if not shared - ENVS - VARIANTS:
        return False  # "preview" alone: where, not what
    return not contrasted(shared, text_a, text_b)


def shared_words(a: Slot, b: Slot, text_a: str, text_b: str) -> frozenset[str]:
    """The subject words two slots share, names and paths read as their parts, a name
    run together meeting its words ("ingest-worker" / "the ingest worker"), an acronym
    meeting the words it stands for ("LR" / "learning rate"); only words
    both notes' own texts hold: a subject a caller gave both is not their words."""
    wa, wb = name_words(a.about), name_words(b.about)
    ta, tb = name_words(content_words(text_a)), name_words(content_words(text_b))
    return (
        (wa & wb & ta & tb)
        | joined(wa & ta, wb & tb)
        | joined(wb & tb, wa & ta)
        | (wa & acronyms(text_a) & initials(text_b))  # "LR" and "learning rate"
        | (wb & acronyms(text_b) & initials(text_a))
    )


def joined(compounds: frozenset[str], words: frozenset[str]) -> frozenset[str]:
    """The words of ``compounds`` written as two of ``words`` run together: "ingestworker"
    (from "ingest-worker") and "the ingest worker"."""
    return frozenset(
        c for c in compounds if any(c[:i] in words and c[i:] in words for i in range(3, len(c) - 2))
    )


def contrasted(shared: frozenset[str], text_a: str, text_b: str) -> bool:
    """Whether a word both notes hold is narrowed in each by another word just before it
    ("read requests" / "write requests", "access tokens" / "refresh tokens"): then they
    name two kinds of one thing, not one thing."""
    before_a, before_b = _before(text_a), _before(text_b)
    return any(
        before_a.get(word) and before_b.get(word) and not before_a[word] & before_b[word]
        for word in shared
    )


@functools.lru_cache(maxsize=1 << 14)
def _before(text: str) -> dict[str, frozenset[str]]:
    """Each content word of a text, with the content words written just before it."""
    found: dict[str, set[str]] = {}
    previous: frozenset[str] = frozenset()
    for token in re.findall(r"[\w'./-]+|[^\w\s]", text):
        words = content_words(token)
        for word in words:
            found.setdefault(word, set()).update(previous - {word})
        previous = words
    return {word: frozenset(before) for word, before in found.items()}
