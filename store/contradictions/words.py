"""The words of claims: which say what a note is about (``content_words``), how a word is
brought to one form (``stem``, by ``store.text``'s rules), and the closed sets the claim
model reads with: filler, verbs, generic nouns, environments and variant words
(platforms, regions, plans). Pure functions; no database."""

from __future__ import annotations

import functools
import re

from store.text import SPELLINGS, singular, words
from store.text import STOP as _COMMON

__all__ = [
    "ENVS",
    "GENERIC",
    "STOP",
    "VARIANTS",
    "VERBS",
    "content_words",
    "qualifiers",
    "stem",
    "variants",
]


ENVS = words(
    """staging stage production prod development dev qa test testing local ci preview
    sandbox uat canary"""
)
# Words that name a variant of a thing (a platform, a region, a plan): like environments,
# two notes that differ in them are about different things.
VARIANTS = words(
    """ios android web mobile desktop windows linux macos mac eu us uk apac emea latam
    asia europe america free pro premium enterprise basic paid trial business starter
    internal external public private admin guest anonymous debug"""
)
# Claims skip more than recall does: the other pronouns and auxiliaries, hedges, times,
# quantities and the words of configuring, none of which says what slot a note fills ("the
# default timeout is currently about 30s"). Recall keeps them: it ranked worse without them.
STOP = _COMMON | words(
    """these those my they us them were been being am will would should must can could
    may might shall did has have had having without into onto over under about but so
    if then than there here also too just only still again now currently current today
    nowadays days actually really always usually normally typically default defaults
    all any each every per some more most less least set configured setting settings
    value values config configuration around roughly approximately approx exactly up
    down out off back right new old via through using whom not no never behind"""
)
VERBS = words(
    """go goes going went run runs running ran fire fires fired kick kicks kicked start
    starts started happen happens happened execute executes executed trigger triggers
    triggered send sends sent sending get gets got use uses used make makes made keep
    keeps kept hold holds held take takes took allow allows allowed accept accepts
    accepted need needs needed spin spins spun live lives lasts last expire expires
    expired remain remains stay stays scheduled schedule schedules cron scale scales
    scaled is are point points handle handles handled deploy deploys deployed ship ships
    shipped move moved moves switched switch replaced replace upgraded upgrade bumped
    changed change migrated say says said think thinks told mention mentioned note noted
    confirm confirmed retain retains retained purge purges purged delete deletes deleted
    store stores stored limit limits limited cap caps capped own owns owned maintain
    maintains maintained listen listens listening serve serves served bind binds bound
    expose exposes exposed available reachable wait waits waited poll polls polled
    happen rotate rotates rotated require requires required raised lowered increased
    decreased reduced bumped"""
)
GENERIC = words(
    """service services system systems module modules component components app apps
    application applications project projects codebase repo repository thing things
    setup part side suite deployment deployments mode flag flags toggle"""
)
# One name for each environment however it is written ("prod" is "production").
_ENV_NAMES = {
    "prod": "production",
    "stage": "staging",
    "dev": "development",
    "testing": "test",
    "locally": "local",
}
# Words ending in "ed" that are no past tense, or name a value rather than an act
_KEEP_ED = words("""hundred unlimited limited""")
_SKIPPED = STOP | VERBS | GENERIC
_TOKEN = re.compile(r"[\w@][\w@'.+#/-]*")
_NUMERIC = re.compile(r"[\d.,:]+")


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A word as claims compare it: another spelling to its name (``db`` -> ``database``),
    an environment to its one name (``prod`` -> ``production``), no possessive, no
    hyphen, a plural to its singular, a long past tense to its verb ("reviewed" ->
    "review", so "reviewed monthly" and "we review" are about one thing). Other verb
    forms are kept: the keys made of these stems are stored with each memory (its slot)."""
    w = word.lower().strip("'\".,;:()[]`")
    w = SPELLINGS.get(w, w)
    w = w.removesuffix("'s").removesuffix("’s")
    if "-" in w and not re.search(r"\d", w):
        w = w.replace("-", "")
    if w in VARIANTS or w in ENVS or w in _ENV_NAMES:
        return _ENV_NAMES.get(w, w)
    if re.fullmatch(r"[A-Za-z]*[A-Z]s", word.strip(".,;:")):
        return w[:-1]  # "vCPUs", "GPUs": an acronym's plural
    if len(w) > 6 and w.endswith("ed") and w.isalpha() and w not in _KEEP_ED:
        w = re.sub(r"([b-df-hj-np-tv-z])\1$", r"\1", w[:-2])  # "reviewed": "review"
        return w
    return singular(w)


@functools.lru_cache(maxsize=1 << 16)
def content_words(text: str) -> frozenset[str]:
    """The words that say what a phrase is about: no filler, no verb, no number. A
    hyphenated word with a filler part is its other parts ("per-key" is "key")."""
    return frozenset(w for w in map(content_word, _tokens(text)) if w)


def _tokens(text: str) -> list[str]:
    found = []
    for token in _TOKEN.findall(text):
        parts = token.split("-")
        if len(parts) > 1 and not re.search(r"\d", token) and any(p.lower() in STOP for p in parts):
            found += [p for p in parts if p]
        else:
            found.append(token)
    return found


@functools.lru_cache(maxsize=1 << 17)
def content_word(raw: str) -> str | None:
    """A word as ``content_words`` keeps it, or None (filler, a verb, a number)."""
    w = stem(raw.rstrip("."))
    low = raw.lower().rstrip(".")
    if raw.isupper() and len(raw) >= 2 and low in STOP:  # "US", "IT": a name
        return low
    if not w or w in _SKIPPED or low in _SKIPPED or _NUMERIC.fullmatch(w):
        return None
    return w


@functools.lru_cache(maxsize=1 << 14)
def modifiers(text: str) -> dict[str, frozenset[str]]:
    """Each word of a text that another word just before it narrows, with those words
    ("payments worker": ``worker`` narrowed by ``payment``)."""
    found: dict[str, set[str]] = {}
    for m in _NARROWED.finditer(text):
        before, word = content_word(m.group(1).removesuffix("'s")), content_word(m.group(2))
        if before and word and before != word:
            found.setdefault(word, set()).add(before)
    return {word: frozenset(those) for word, those in found.items()}


# A word and the next, with nothing but a space between ("payments worker", "gunicorn
# --timeout"; not "proxy `/api`", where the first is more likely a verb than a kind).
_NARROWED = re.compile(
    r"(?<![\w`'./-])([a-z][\w-]*(?:'s)?) (?=-{0,2}([a-z][\w-]*)(?![\w`'/]))", re.I
)


@functools.lru_cache(maxsize=1 << 14)
def variants(text: str) -> frozenset[str]:
    """The environments and variants a text names, one word each ("prod" is
    "production")."""
    words = {stem(w) for w in re.findall(r"[\w-]+", text.lower())}
    found = {w for w in words if w in ENVS or w in VARIANTS}
    if _RELEASE_BUILD.search(text):  # a build variant; "the releases endpoint" is none
        found.add("release")
    return frozenset(found)


_RELEASE_BUILD = re.compile(r"\brelease\s+(?:builds?|variants?|mode|configuration)\b", re.I)


def qualifiers(text: str) -> frozenset[str]:
    found = set(variants(text))
    for m in re.finditer(
        r"\b(?:for|on|in|of|under|during|across|within|inside|behind)\s+(?:the\s+|our\s+|all\s+|a\s+)?"
        r"((?:[\w-]+\s*){1,3})",
        text,
        re.I,
    ):
        found |= content_words(m.group(1))
    return frozenset(found)
