"""The slots a note fills, read from its words: *what* it is about (the subject's content
words, and the qualifiers that narrow it: "for the public API", "on staging", "for
iOS"), *which* attribute of it (a timeout, a lifetime, a retention period, a clock time,
a count of workers, an owner, the technology that does one job, ...) and the typed value
(``store.contradictions.values``). Pure functions; no database.

The reading is general rather than a list of sentences: an attribute is named by one of
a few families of words (``_ATTRIBUTES``), or by the verb of a job ("e-mail is *sent
through* SendGrid"), or by the noun that is counted ("4 gunicorn *workers*"); the subject
is every content word left once the attribute, the value, filler words and verbs are
taken out. Two notes are about one slot only when those words agree (``relate``).

A note is read as agents write them: what wraps the claim is cut first (a lead-in, how
it was found, a reason, who said it: ``without_context``), a note of several facts is
read clause by clause (``clauses``), and a change it states ("dropped X", "moved CI to
Y", "swapped X for Y", "X is gone") marks the value the note says no longer holds
(``Slot.replaces``) or the one something was moved to (``Slot.changed``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from enum import StrEnum

from anchors.needles import ascii_key, guarded
from store.contradictions.values import (
    Value,
    ValueType,
    day_of,
    number_at,
    parse_clock,
    parse_quantity,
    parse_value,
)
from store.contradictions.words import ENVS as _ENVS
from store.contradictions.words import STOP as _STOP
from store.contradictions.words import VARIANTS as _PLATFORMS
from store.contradictions.words import VERBS as _VERBISH
from store.contradictions.words import content_words, stem
from store.contradictions.words import qualifiers as _qualifiers
from store.text import words

__all__ = [
    "FLOWS",
    "MANY_MARK",
    "Match",
    "Slot",
    "attribute_named",
    "clauses",
    "compare_names",
    "content_words",
    "read_slots",
    "relate",
    "relate_subjects",
    "stem",
    "without_context",
]


@dataclass(frozen=True)
class Slot:
    subject: frozenset[str]  # content words of what it is about
    qualifiers: frozenset[str]  # words of the phrases and environments that narrow it
    attribute: str
    value: Value
    exclusive: bool = True  # holds one value at a time ("uses X" does not, unless "only")
    named: bool = True  # the attribute is named; False: only a value and its type
    many: bool = False  # the note says it is one of several ("also", "as well", "too")
    replaces: Value | None = None  # the value it says this one replaced ("instead of X")
    changed: bool = False  # the note says it is what something was moved to

    @functools.cached_property
    def about(self) -> frozenset[str]:
        return self.subject | self.qualifiers

    @functools.cached_property
    def key(self) -> str:
        return " ".join(sorted(self.about)) + "|" + self.attribute


class Match(StrEnum):
    SAME = "same"  # one subject, one attribute
    AMBIGUOUS = "ambiguous"  # one names a qualifier or a word the other leaves out
    SIMILAR = "similar"  # close subjects that differ in a word: only a question
    DIFFERENT = "different"


_ATTRIBUTES: tuple[tuple[str, str], ...] = (
    (
        "timeout",
        r"time[- ]?outs?|timing out|times? out|timed out|gives? up(?: on [\w\s-]{1,40}?)? after|"
        r"gave up(?: on [\w\s-]{1,40}?)? after|waits? up to",
    ),
    (
        "lifetime",
        r"ttls?|lifetimes?|expir(?:y|ation|es|e)|lives? for|valid for|good for|"
        r"last(?:s)? for|lasts|"
        # "sessions last 8 hours", never "the last Friday" nor "last week"
        r"(?<!the )(?<!this )(?<!each )last(?! (?:week|month|year|night|time|sprint|quarter)\b)",
    ),
    (
        "retention",
        r"retention|retain(?:ed|s)?|kept|keeps?|stored for|held for|deleted after|"
        r"purged after|archived after|deleted|purged|rotated after|torn down after|"
        r"destroyed after|removed after|reaped after",
    ),
    ("interval", r"intervals?|frequency|every|polls?|polled|refresh(?:ed|es)?"),
    ("delay", r"delays?|backoffs?|waits?|cooldown|grace period"),
    (
        "limit",
        r"limits?|limited|limiting|cap|caps|capped|max(?:imum)?|quotas?|ceiling|at most|up to|"
        r"no more than",
    ),
    ("threshold", r"thresholds?|at least|minimum|min|more than|above|exceeds?|below|less than"),
    ("size", r"sizes?|lengths?"),
    ("duration", r"takes|took|duration"),
)
_ATTR_RE = [(name, guarded(rf"\b(?:{pat})\b", re.I)) for name, pat in _ATTRIBUTES]
_LIMIT = dict(_ATTR_RE)["limit"]
_ATTRIBUTE_RE = dict(_ATTR_RE)
_COUNTED = {
    "worker": "worker",
    "process": "worker",
    "replica": "replica",
    "instance": "replica",
    "pod": "replica",
    "node": "node",
    "shard": "shard",
    "partition": "partition",
    "thread": "thread",
    "retry": "retry",
    "retrie": "retry",
    "attempt": "retry",
    "time": "retry",  # "retried 3 times"
    "connection": "connection",
    "core": "cpu",
    "cpu": "cpu",
    "vcpu": "cpu",
    "consumer": "consumer",
    "broker": "broker",
    "server": "server",
    "machine": "server",
    "container": "container",
    "slot": "slot",
    "region": "region",
    "zone": "zone",
    "copy": "copy",
    "backup": "backup",
    "level": "level",
    "step": "step",
    "stage": "step",
    "page": "page",
    "item": "item",
    "row": "item",
    "record": "item",
    "request": "request",
    "job": "job",
    "task": "job",
    "user": "user",
    "seat": "user",
    "character": "character",
    "char": "character",
    "digit": "character",
}
_VERSION = re.compile(
    r"\b(?P<name>[A-Za-z][A-Za-z+#-]*)(?:'s)?\s+(?:version\s+(?:is\s+|=\s*|:\s*)?|v)?"
    r"(?P<ver>\d+(?:\.\d+){1,3}|\d+)(?:\.x)?\b"
)
_NOT_NAMES = words(
    """is are was to of at on in for by every about around after before than limit port
    version v the and or runs run has have with up within under over next last first top
    only until from"""
)
_PORT = guarded(
    r"\bport\s*(?:is\s+|=\s*|:\s*|of\s+|number\s+(?:is\s+)?)?(?P<n>\d{2,5})\b"
    r"|\b(?:listens?|listening|runs?|served|serves?|available|exposed|binds?|bound|reachable)"
    r"\s+(?:on|to|at)\s+(?:port\s+|localhost:|0\.0\.0\.0:|:)?(?P<m>\d{2,5})\b(?![:.]\d)"
    r"|:(?P<k>\d{4,5})\b",
    re.I,
)
_OWNER_BY = guarded(
    r"\b(?:(?:owned|maintained|looked after|run|led|managed)\s+by|belongs\s+to)\s+"
    r"(?P<who>@?[\w.-]+(?:\s+[A-Z][\w-]*)?(?:\s+team)?)",
    re.I,
)
_OWNER_IS = guarded(
    r"^(?P<who>@[\w.-]+|[Tt]he\s+[\w-]+(?:\s+[\w-]+)?\s+(?:team|squad)|[A-Z][\w.-]*(?:\s+[A-Z][\w-]*)?)\s+"
    r"(?:now\s+|still\s+|currently\s+|also\s+)?(?:owns|maintains|is responsible for|looks after|"
    r"is the (?:owner|maintainer|point of contact|tech lead|lead|contact|dri) (?:of|for))\s+"
    r"(?P<what>.+)$",
)
_OWNER_OF = guarded(
    r"\b(?:owner|maintainer|point of contact|dri|tech lead)\s+(?:of|for)\s+(?P<what>.+?)\s+"
    r"is\s+(?:now\s+)?(?P<who>@?[\w.-]+(?:\s+[A-Z][\w-]*)?)",
    re.I,
)
_BOOLEAN = guarded(
    r"\b(?:is|are|was|stays?|remains?|gets?|got|has been|have been|been)\s+"
    r"(?:now\s+|still\s+|currently\s+|always\s+)?(?P<neg>not\s+)?"
    r"(?P<val>enabled|disabled|turned on|turned off|switched on|switched off|"
    r"(?:on|off)(?=\s*(?:$|[.,;)]|\s(?:in|for|at|by|since|when|during|across|everywhere|now|"
    r"again|already|today|until|unless|except|behind|via|through)\b))|"
    r"required|optional|mandatory|allowed|forbidden|disallowed|active|inactive)\b",
    re.I,
)
# What a thing lets in, said of the thing let in ("compressed payloads are rejected by
# the API") or of the one letting it in ("the ingestion API accepts gzip bodies")
_LETS_IN = guarded(
    r"\b(?:is|are|was|were|gets?|get)\s+(?:now\s+|still\s+|always\s+)?(?P<neg>not\s+)?"
    r"(?P<val>accepted|rejected|refused|denied)\b",
    re.I,
)
_ACCEPTS = guarded(
    r"^(?P<who>(?:[\w.`'/-]+\s+){0,4}?[\w.`'/-]+)\s+(?:now\s+|still\s+|always\s+)?"
    r"(?P<neg>)(?P<val>accepts|rejects|refuses|allows|forbids|denies)\s+(?P<what>\w.*)$",
    re.I,
)
# What makes a clause of letting in a bound or a count, not a yes or no
_BOUND = guarded(
    r"\b(?:larger|bigger|smaller|longer|shorter|more|less|fewer|over|above|below|under|"
    r"up to|at most|beyond|exceeds?|exceeding)\b",
    re.I,
)


def _lets_in(clean: str) -> re.Match[str] | None:
    """A clause that says whether a thing lets something in ("the API rejects gzip
    bodies", "compressed payloads are rejected"), never one that bounds or counts what
    it lets in ("payloads over 1 MB are rejected", "allows 5 attempts")."""
    m = _LETS_IN.search(clean) or _ACCEPTS.match(clean)
    if m is None or _VALUE_WORD.match(clean[m.end("val") :].strip()):
        return None
    return None if _BOUND.search(clean) or parse_quantity(clean) is not None else m


_HAS_BOOLEAN = guarded(
    r"\b(?:has|have|had|with)\s+(?:[\w/.-]+\s+){1,5}?(?P<neg>not\s+)?"
    r"(?P<val>enabled|disabled|turned on|turned off|switched on|switched off)\b",
    re.I,
)
# "the user disabled bf16", "we turned off retries": a flag set by someone
_TOGGLED = guarded(
    r"\b(?:[Ww]e|I|[Tt]hey|[Tt]he user|[Ss]omeone|[A-Z][a-z]+)\s+(?:have\s+|had\s+|just\s+)?"
    r"(?P<val>enabled|disabled|turned on|turned off|switched on|switched off)\s+"
    r"(?:the\s+|our\s+|all\s+)?(?P<what>[\w./-]+(?:\s+(?!(?:after|before|for|on|in|at|because|"
    r"since|when|so|to|as|and|but|now)\b)[\w./-]+){0,2})",
)
_BOOL_ATTR = {
    "enabled": "enabled",
    "disabled": "enabled",
    "turned on": "enabled",
    "turned off": "enabled",
    "switched on": "enabled",
    "switched off": "enabled",
    "on": "enabled",
    "off": "enabled",
    "active": "enabled",
    "inactive": "enabled",
    "required": "required",
    "optional": "required",
    "mandatory": "required",
    "allowed": "allowed",
    "forbidden": "allowed",
    "disallowed": "allowed",
    "accepted": "allowed",
    "rejected": "allowed",
    "refused": "allowed",
    "denied": "allowed",
    "accepts": "allowed",
    "rejects": "allowed",
    "refuses": "allowed",
    "allows": "allowed",
    "forbids": "allowed",
    "denies": "allowed",
}
_TRUE = frozenset(
    {
        "enabled",
        "turned on",
        "switched on",
        "on",
        "active",
        "required",
        "mandatory",
        "allowed",
        "accepted",
        "accepts",
        "allows",
    }
)
_JOB = guarded(
    r"\b(?!(?:switched|moved|migrated|changed|upgraded|downgraded|ported|replaced|dropped|"
    r"removed|transitioned|converted|raised|lowered|increased|decreased|reduced|scaled)\b)"
    r"(?P<verb>[a-z]+ed|sent|built|written|run|kept|held|done|hosted|stored|driven|"
    r"made|served|handled|cached|queued|signed|hashed|encrypted|logged|shipped|deployed|"
    r"rendered|tracked|monitored|scheduled|processed|published|backed up|load[- ]balanced|"
    r"goes|go|runs|run|flows?|passes|routed|fronted|terminated|proxied|lives?|live|sits?|"
    r"resides?|reads?|writes?|consumes?|pulls?|pushes|publishes|subscribes|starts?|branch|"
    r"branches|cut)"
    r"\s+(?:out\s+|up\s+)?(?P<prep>through|via|with|in|on|by|using|to|into|onto|behind|from|as|"
    r"off)\s+"
    r"(?:the\s+|a\s+|an\s+|our\s+)?(?:latest\s+|last\s+|current\s+|newest\s+)?"
    r"(?:python3?\s+-m\s+|npx\s+|(?:poetry|uv|pipenv)\s+run\s+)?"
    r"(?P<val>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})",
    re.I,
)
# Where data goes: one of several, unless a note says only; two values are asked.
FLOWS = frozenset({"read", "write", "consume", "pull", "push", "publish", "subscribe"})
_BRANCHING = frozenset({"branch", "start", "cut", "fork", "bas", "creat", "spawn"})
_BRANCH_NAMES = frozenset({"main", "master", "develop", "trunk", "release", "dev"})
_PREP = {
    "off": "from",
    "through": "via",
    "via": "via",
    "with": "via",
    "using": "via",
    "by": "via",
    "in": "in",
    "into": "in",
    "on": "in",
    "onto": "in",
    "to": "to",
    "behind": "behind",
    "from": "from",
    "as": "as",
}
_USES = guarded(
    r"\b(?:uses?|using|relies on|is built on|depends on|talks to|is on)\s+"
    r"(?:only\s+)?(?:the\s+)?(?P<val>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})"
    r"(?:\s+(?:server|service|cluster|instance|gateway|proxy|api|sdk|client|library))?"
    r"(?:\s+for\s+(?P<role>[\w\s-]+?))?"
    r"(?:[.,;]|$|\s+(?:instead|rather|now|and|to|in|on|for|with|as|behind|via)\b)",
    re.I,
)
_COPULA = guarded(
    r"^(?P<subj>.*?\b(?P<head>database|db|broker|queue|cache|region|branch|language|framework|"
    r"orm|runner|registry|cdn|provider|host|hosting|scheduler|timezone|time zone|format|"
    r"encoding|backend|store|bucket|mailer|datastore|search engine|web server|server|"
    r"package manager|linter|formatter|test runner|bundler|algorithm|strategy|mode|level|"
    r"engine|platform|cloud|tool|library|client|driver|storage|warehouse))\s+(?:is|=|:)\s+(?:now\s+)?"
    r"(?:the\s+|a\s+|an\s+)?(?P<val>[\w.+#/-]+)\s*(?P<rest>.*)$",
    re.I,
)
_EXCLUSIVE_MARK = guarded(
    r"\b(only|instead of|instead|replaced|replacing|switched|rather than|exclusively|no longer|"
    r"not .{1,30} any ?more|moved (?:off|away from|to|from))\b",
    re.I,
)
# One of several: "we also use X", "X as well", "alongside Y" (``designs``, ``duties`` too)
MANY_MARK = guarded(r"\b(also|as well|too|in addition|additionally|both|alongside|plus)\b", re.I)
_ATTRIBUTION = guarded(
    r"^(?:according to [^,]+,\s*|(?:[\w@.'-]+\s+){1,4}?(?:says|said|claims|claimed|"
    r"told (?:me|us)|mentioned|confirmed|reported|noted|wrote|explained|thinks|believes)\s+"
    r"(?:that\s+|,\s*)?)",
    re.I,
)
_LEAD_IN = guarded(
    r"^(?:(?:quick\s+|important\s+|small\s+)?(?:note|fyi|heads[- ]up|reminder|important|btw|"
    r"update|correction|context|summary|recap|finding|learned|tl;?dr)"
    r"(?:\s+(?:from|for|about|on|re|after|of)\b[^:]{0,40}?)?\s*[:,-]\s*|"
    r"(?:as of [^,]+|for the record|turns out|it turns out|today|yesterday|earlier|"
    r"for now|right now|at the moment|as things stand)\s*[:,-]?\s*)"
    r"(?:that\s+)?",
    re.I,
)
# "After debugging X with the user, we found (that) ...": how it was learned, not what
_FOUND = guarded(
    r"^(?:(?:after|when|while|during|on)\b[^,]{0,120}?(?:,\s*|\s+(?=(?:we|i|the user|they)\s)))?"
    r"(?:we|i|the user|they)\s+(?:all\s+|have\s+|had\s+)?"
    r"(?:found|learned|noticed|saw|realized|realised|confirmed|discovered|verified|checked|"
    r"figured out|established|agreed|decided|settled on)(?:\s+out)?(?:\s+(?:that|to|on))?\s+",
    re.I,
)
# A clause that only refers back to what was said ("the user confirmed this when ...")
_ASIDE = guarded(
    r"^(?:and\s+)?(?:the user|user|they|we|he|she|i)\s+(?:also\s+|just\s+)?(?:confirmed|asked|"
    r"said|mentioned|explained|wanted|requested|agreed|approved|suggested|noted|told us|checked|"
    r"verified|looked at|double-checked|decided|chose)\s+(?:for\s+|on\s+|to\s+)?"
    r"(?:this|that|it)\b",
    re.I,
)
# What follows a claim to say why, who said it or when it was learned: cut from a clause
_REASON = guarded(
    r"(?:,\s*|\s+)(?:which is why|which means|which (?:the user|we|i|they)\b|because\b|"
    r"since\b|so that\b|now that\b|as (?:the user|we|discussed|agreed|explained|confirmed|"
    r"noted|mentioned|requested|per)\b|per (?:the|our|my|their|his|her)\b|according to\b|"
    r"(?:in order )?to (?:cut|simplify|reduce|save|avoid|speed up|make sure|keep|prevent|fix|"
    r"stay|lower|improve|unblock)\b|when we\b|after (?:we|customers|users|they|the user|the team|"
    r"someone)\b|for (?:cost|performance|security|compliance|legal) reasons\b|"
    r"(?:the user|user) (?:said|says|confirmed|asked|explained|prefers|wants|mentioned)\b)"
    r".*$",
    re.I,
)
_SO = guarded(
    r"(?:,\s*so\b|\s+so\s+(?:that|we|they|it|the|nothing|no|there|he|she|you|people|users?|"
    r"[A-Z]{2,})\b|\s+so\s+[\w-]+(?:\s+[\w-]+)?\s+(?:can|could|will|would|won't|can't|does|"
    r"doesn't|don't|never|always|stays?|gets?)\b).*$",
)
# "after/before <an event>" with no value in it, behind a clause that states one: when or
# why, not what ("6 replicas after the load test"; "3 times before giving up")
_WHEN = guarded(r"\s+(?:after|before|once)\s+(?P<rest>.*)$", re.I)
# What narrows a claim and is never cut with its context ("in staging", "only for admins")
_NARROWING = guarded(
    r"\b(?:only|except|unless|if|when|while|but|not)\b|\b(?:in|on|for|under|with|within)\s+"
    r"(?:the\s+)?(?:" + "|".join(sorted(_ENVS | _PLATFORMS)) + r")\b",
    re.I,
)
# A purpose that opens the clause ("To cut costs the team swapped ..."): why, not what
_PURPOSE = guarded(
    r"^(?:in order )?to (?:cut|simplify|reduce|save|avoid|speed up|make sure|keep|prevent|fix|"
    r"lower|improve|unblock)\b[^,]{0,60}?(?:,\s*|\s+(?=(?:we|the team|they|i|the user)\s))",
    re.I,
)
_PARENTHESES = re.compile(r"\s*\((?P<inside>[^()]*)\)")
_PATH_LIKE = re.compile(r"\w/|/\w|\.\w{2,4}\b")
# When it was said or done ("last sprint", "in March", "yesterday"), and what every one
# of something shares ("for all users"): neither narrows what a claim is about
_WHEN_SAID = guarded(
    r"\s*\b(?:(?:last|previous)\s+(?:sprint|week|month|quarter|year|release|time|"
    r"night)|(?:in|since|during|from)\s+(?:early\s+|late\s+|mid[- ])?(?:january|february|"
    r"march|april|may|june|july|august|september|october|november|december|q[1-4])\b(?:\s+\d{4})?|"
    r"yesterday|recently|earlier today|(?:for|to|across)\s+(?:all|every|each|any)\s+[\w-]+)",
    re.I,
)
# Where a setting is written down ("configured in db/settings.py", "see config.yml")
_WHERE_SET = guarded(
    r",?\s*\b(?:as\s+)?(?:configured|defined|set|declared|specified|see)\s+(?:in\s+)?"
    r"(?:the\s+)?[\w./-]*(?:\w/|\.\w{2,4}\b)[\w./-]*",
    re.I,
)
# How a claim stated before it is carried out ("is 7, enforced by the depthLimit rule")
_CARRIED_OUT = guarded(
    r",\s*(?:enforced|checked|validated|implemented|applied)\s+(?:by|in|via|through)\b.*$",
    re.I,
)
_VALUE_WORD = re.compile(  # a digit has no needle: searched always
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|sixty|ninety|hundred|dozen|half|an? (?:hour|day|week|minute|month|"
    r"year|second))\b",
    re.I,
)
_NEGATED = guarded(
    r"\b(?:not|never|no longer|don't|doesn't|isn't|aren't|won't|cannot|can't|stopped)\b", re.I
)


_ATTRIBUTION_WORDS = guarded(
    r"according|says|said|claim|told|mention|confirm|report|note|wrote|writes", re.I
)


def _clean(text: str) -> str:
    text = text.strip()
    if "`" in text:
        text = re.sub(r"`([^`]*)`", r"\1", text)
    text = _LEAD_IN.sub("", text)
    if _ATTRIBUTION_WORDS.search(text):
        text = _ATTRIBUTION.sub("", text)
    return text.rstrip(" .!")


# Where one claim ends and the next begins: a sentence, a semicolon, a comma or "and"/"but"
# before a new subject ("..., the pipeline is defined in ...") or before a verb that goes
# on with the same subject ("X is written in Rust and reads from events.v1").
_CLAUSE = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z@(\"'])|\s*;\s*|\s+(?:--|\u2014)\s+"
    r"|,?\s+(?:and|but|while|whereas)\s+(?=(?:then\s+)?(?:the|we|it|they|its|our|their|this|"
    r"these|those|there|he|she|i|you|nothing|everything|all|each|every|no)\b)"
    r"|,\s+(?:and\s+|but\s+)?(?=(?:the|we|it|they|its|our|their|this|there|nothing)\s)"
    r"|,?\s+and\s+then\s+"
    r"|,?\s+(?:and|but)\s+(?=(?:also\s+|then\s+|now\s+)?(?:is|are|was|were|has|have|had|should|"
    r"must|can|will|would|does|do|did|gets?|\w+(?:s|ed)\s+(?:from|to|into|with|via|on|in|at|by|"
    r"the|a|an|its|their|back|out|up))\b)",
)
_SUBJECTLESS = guarded(
    r"^(?:also\s+|then\s+|now\s+)?(?:is|are|was|were|has|have|had|should|must|can|will|would|"
    r"does|do|did|gets?|\w+(?:s|ed)\s+(?:from|to|into|with|via|on|in|at|by|the|a|an|its|their|"
    r"back|out|up))\b"
)
_VERB_AT = guarded(
    r"\b(?:is|are|was|were|has|have|had|uses?|runs?|should|must|can|will|does|do|gets?|goes|"
    r"lives?|reads?|writes?|sends?|takes?|holds?|keeps?|makes?|needs?)\b",
    re.I,
)


def clauses(text: str) -> list[str]:
    """The clauses of a note, each with its context cut away (``without_context``)."""
    return [clause for clause, _ in _clauses(text)]


def _clauses(text: str) -> list[tuple[str, bool]]:
    """``clauses``, each with whether it shares the verb of the one before it (``_gapped``)."""
    parts = [
        r
        for p in _CLAUSE.split(_clean(text))
        if p and p.strip()
        for q in _explained(p)
        for r in _two_subjects(q)
    ]
    kept = [(without_context(q), i > 0) for p in parts for i, q in enumerate(_gapped(p))]
    return [(k, gapped) for k, gapped in kept if k]


# "X is idempotent: a retry ...": what follows a colon explains the claim before it
_COLON = re.compile(
    r"(?<=[a-z]):\s+(?=(?:a|an|the|it|we|they|its|our|their|this|there|nothing|every|each|no|"
    r"only)\s)"
)


def _explained(part: str) -> list[str]:
    """A part cut at a colon when what stands before it is a claim of its own (it has a
    verb): "Rate limiting: each key ..." names a topic, and stays whole."""
    m = _COLON.search(part) if ":" in part else None
    before = part[: m.start()] if m is not None else ""
    if m is None or (_VERB_AT.search(before) is None and _IMPERATIVE.match(before) is None):
        return [part]
    return [part[: m.start()], *_explained(part[m.end() :])]


_AND = re.compile(
    r",?\s+and\s+(?!(?:a half|an?\s|\d|one|two|three|four|five|six|seven|eight|nine|ten)\b)"
)
# "... is built on Apollo Server and query depth is limited to 10": after a claim, "and"
# opens another with a subject of its own, a few words before its copula
_AND_SUBJECT = re.compile(
    r",?\s+and\s+(?=(?:(?!(?:is|are|was|were|a|an|\d\S*)\s)[\w.`'-]+\s+){1,3}(?:is|are|was|were)\s)",
    re.I,
)


def _two_subjects(part: str) -> list[str]:
    """A part that holds two claims of two subjects, each with its copula ("the gateway is
    built on Apollo and query depth is limited to 10"): two clauses. Only when what stands
    before "and" is a claim of its own (a verb), so that two subjects of one copula ("the
    API and the worker are on Python 3.12") stay one."""
    m = _AND_SUBJECT.search(part)
    if m is None or _VERB_AT.search(part[: m.start()]) is None:
        return [part]
    return [part[: m.start()], *_two_subjects(part[m.end() :])]


def _gapped(clause: str) -> list[str]:
    """A clause that states two values of two things with one verb ("access tokens are
    valid for one hour and refresh tokens for 30 days"): two clauses, the second taking
    its attribute from the first (``read_slots``). Never a range ("between 1 and 16")."""
    if " and " not in clause or re.search(r"\b(?:between|from)\b", clause, re.I):
        return [clause]
    for m in _AND.finditer(clause):
        left, right = clause[: m.start()], clause[m.end() :]
        # "and refresh tokens for 30 days": a subject of its own, then a value
        opens_with_value = _VALUE_WORD.search(right.split()[0]) is not None
        if _VALUE_WORD.search(left) and _VALUE_WORD.search(right) and not opens_with_value:
            return [left, right]
    return [clause]


def without_context(clause: str) -> str:
    """A clause without what an agent wraps a claim in: how it was found ("after
    debugging ..., we found"), a reason ("which is why", "because", "so ..."), who said
    it ("per the user's explanation", "the user said"), an aside that only refers back
    ("the user confirmed this"), and a when with no value of its own ("after the load
    test", behind "6 replicas")."""
    text = clause.strip().strip(",").strip()
    text = _LEAD_IN.sub("", text)
    text = _PURPOSE.sub("", text)
    text = _FOUND.sub("", text)
    if _ATTRIBUTION_WORDS.search(text):
        text = _ATTRIBUTION.sub("", text)
    if _ASIDE.match(text):
        return ""
    if "(" in text:
        text = _PARENTHESES.sub(
            lambda m: (
                m.group(0)
                if _VALUE_WORD.search(m.group("inside"))
                or _PATH_LIKE.search(m.group("inside"))
                or _NARROWING.search(m.group("inside"))
                or content_words(m.group("inside")) & (_ENVS | _PLATFORMS)
                else ""
            ),
            text,
        )
    text = _WHERE_SET.sub("", text)
    text = _CARRIED_OUT.sub("", text)
    text = _WHEN_SAID.sub("", text)
    text = _REASON.sub("", text)
    text = _SO.sub("", text)
    when = _WHEN.search(text)
    rest = when.group("rest") if when else ""
    if when and not _VALUE_WORD.search(rest) and not _NARROWING.search(rest):
        text = text[: when.start()] if _VALUE_WORD.search(text[: when.start()]) else text
    text = re.sub(r"^(?:and|but|then|also)\s+", "", text.strip(), flags=re.I)
    return text.strip().rstrip(" .!,:")


def _slot(
    text: str,
    span: tuple[int, int],
    attribute: str,
    value: Value,
    *,
    drop: frozenset[str] = frozenset(),
    exclusive: bool = True,
    named: bool = True,
) -> Slot:
    rest = text[: span[0]] + " " + text[span[1] :]
    words = content_words(rest) - drop
    qualifiers = (_qualifiers(rest) & words) | _path_scopes(words)
    return Slot(words - qualifiers, qualifiers, attribute, value, exclusive, named)


def _path_scopes(words: frozenset[str]) -> frozenset[str]:
    """The environments a path names ("settings/staging.py" is about staging)."""
    found: set[str] = set()
    for word in words:
        if "/" in word or _FILE.search(word):
            found |= {stem(p) for p in re.split(r"[/._-]+", word)} & (_ENVS | _PLATFORMS)
    return frozenset(found)


def _attribute_near(text: str, start: int) -> tuple[str, tuple[int, int]] | None:
    """The attribute named in ``text`` nearest before ``start`` (else just after)."""
    best: tuple[int, str, tuple[int, int]] | None = None
    for name, pattern in _ATTR_RE:
        for m in pattern.finditer(text):
            distance = start - m.end() if m.end() <= start else (m.start() - start) * 3 + 1
            if best is None or distance < best[0]:
                best = (distance, name, (m.start(), m.end()))
    if best is not None and best[1] == "size":
        for m in _LIMIT.finditer(text[: best[2][0]]):
            if len(text[m.end() : best[2][0]].split()) <= 2:
                return "limit", best[2]  # "the max upload size", "maximum file size"
    return (best[1], best[2]) if best else None


_BOUNDS = frozenset({"limit", "threshold", "duration"})
_IDENTITY = frozenset({"id", "ids", "key", "name", "url", "uri", "path", "dir", "file", "arn"})


@functools.lru_cache(maxsize=1 << 14)
def attribute_named(name: str) -> str | None:
    """The attribute a setting's name names by its words ("refresh_interval": interval,
    "limits.memory": limit, "save_steps": count step, "max_attempts": count retry), as
    the attributes read from prose are named; None if no word of it names one. A counted
    noun says more than a bound ("max", "limit") does."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower()
    parts = [p for p in re.split(r"[^a-z0-9]+", spaced) if p]
    if not parts or parts[-1] in _IDENTITY:
        return None  # "user_id", "broker.id": which one, not how many
    families = [n for p in parts for n, pattern in _ATTR_RE if pattern.fullmatch(p)]
    counted = [_COUNTED[stem(p)] for p in parts if stem(p) in _COUNTED]
    kinds = [n for n in families if n not in _BOUNDS]
    if kinds:
        return kinds[0]
    if counted:
        return f"count {counted[0]}"
    return families[0] if families else None


def _words_of(text: str, span: tuple[int, int]) -> frozenset[str]:
    return content_words(text[span[0] : span[1]])


_QUANTITY_HINT = guarded(
    r"second|minute|hour|day|daily|night|week|month|year|annual|fortnight|quarter|percent|dozen|"
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|sixty|ninety|hundred|half)\b",
    re.I,
)
_DIGIT = re.compile(r"\d")
_NAME = r"[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2}"
_CHANGE_HINT = guarded(r"from|replac|instead|rather|in place|\boff\b|away|out of", re.I)
_CODE_LIKE = re.compile(r"--|_|=|\b[A-Z][A-Z0-9]{2,}\b|\w\.\w")
_OWNER_WORDS = guarded(r"own|maintain|responsib|look|belong|contact|lead|\bdri\b|\bby\b", re.I)
_NOON_WORDS = guarded(r"noon|midday|midnight", re.I)


@functools.lru_cache(maxsize=1 << 16)
def read_slots(text: str) -> tuple[Slot, ...]:
    """Every slot the note's words fill, clause by clause (most notes fill one, or none):
    a clause that goes on without a subject of its own ("... and reads from events.v1")
    is about the subject of the one before it, and a clause that names no attribute
    ("and refresh tokens for 30 days") takes the attribute of the one before it, for a
    value of the same type. A change the note states marks its slots: "switched from X
    to Y" (``_marked``), "moved CI to Y" (``_moved_to``), "dropped X", "X is gone"
    (``_dropped``: X is what every name the note reads replaced). A note's text never
    changes, so a reading is kept (a consolidate pass reads each note once)."""
    found: list[Slot] = []
    gone: Value | None = None  # a name the note says no longer holds
    head: frozenset[str] = frozenset()
    before: tuple[Slot, ...] = ()
    for clause, gapped in _clauses(text):
        old, read = _dropped(clause, _moved_to(clause, list(_clause_slots(clause))))
        gone = gone or old
        if _SUBJECTLESS.match(clause) and head:
            read = [dataclasses.replace(s, subject=s.subject | (head - s.qualifiers)) for s in read]
        named = [s for s in before if s.named]
        bare = _bare(clause) if gapped else None
        read = (
            [bare]
            if bare is not None and any(s.value.type is bare.value.type for s in named)
            else read
        )
        for i, slot in enumerate(read):
            like = [s for s in named if s.value.type is slot.value.type]
            if (gapped or not slot.named) and like:
                read[i] = dataclasses.replace(slot, attribute=like[0].attribute, named=True)
        verb = _VERB_AT.search(clause)
        head = content_words(clause[: verb.start()]) if verb else head
        before = tuple(read) or before
        found += read
    if gone is not None:  # "We shut down Jenkins; CI is on GitHub Actions": what replaced it
        found = [
            dataclasses.replace(s, replaces=gone)
            if s.value.type is ValueType.NAME and s.replaces is None and s.attribute != "dropped"
            else s
            for s in found
        ]
    return tuple(found)


# "handled by Django's migrate command, not Alembic": the name it is not, as replaced
_NOT_NAME = guarded(
    r",\s*(?:and\s+)?(?:not|never)\s+(?:in\s+|on\s+|from\s+)?(?:the\s+|by\s+|with\s+)?"
    r"(?P<old>" + _NAME + r")\s*$"
)


def _bare(clause: str) -> Slot | None:
    """The value of a clause that shares the verb of the one before it, every other word
    its subject ("refresh tokens for 30 days": no attribute of its own)."""
    quantity = parse_quantity(clause)
    if quantity is None:
        return None
    value, start, end = quantity
    return _slot(clause, (start, end), "?", value, named=False)


def _clause_slots(clean: str) -> tuple[Slot, ...]:
    """The slots one clause fills."""
    contrast = _NOT_NAME.search(clean)
    first = contrast.group("old").split()[0] if contrast is not None else ""
    if contrast is not None and (_is_name(first, first) or first.lower() in _BRANCH_NAMES):
        read = _clause_slots(clean[: contrast.start()])
        old = parse_value(contrast.group("old"))
        return tuple(
            dataclasses.replace(s, replaces=s.replaces or old, exclusive=True)
            if s.value.type is ValueType.NAME
            else s
            for s in read
        )
    if not clean:
        return ()
    negated = bool(_NEGATED.search(clean))
    many = bool(MANY_MARK.search(clean))
    digits = _DIGIT.search(clean) is not None
    found: list[Slot] = _setting(clean) if _CODE_LIKE.search(clean) else []
    if not found and digits:
        found += _versions(clean)
    if _OWNER_WORDS.search(clean):
        found += _owner(clean, many)
    if not found and _DUTY_HINT.search(clean):
        found += _duty(clean)
    port = _PORT.search(clean) if digits else None
    if port:
        n = port.group("n") or port.group("m") or port.group("k")
        found.append(
            _slot(
                clean,
                port.span(),
                "port",
                Value(ValueType.COUNT, float(n)),
                drop=frozenset({"port"}),
            )
        )
    boolean = _BOOLEAN.search(clean) or _HAS_BOOLEAN.search(clean) or _lets_in(clean)
    toggled = _TOGGLED.search(clean) if boolean is None and not found else None
    if toggled is not None:
        truth = ascii_key(toggled.group("val")) in _TRUE
        words = content_words(toggled.group("what"))
        qualifiers = _qualifiers(clean[toggled.end() :]) & content_words(clean[toggled.end() :])
        value = Value(ValueType.BOOLEAN, text=str(truth).lower())
        found.append(Slot(words - qualifiers, qualifiers, "enabled", value))
    # "retries switched off (`max_attempts=1`)": the flag, beside the setting that sets it
    settings_only = bool(found) and all(s.attribute.startswith("setting ") for s in found)
    if boolean and (not found or settings_only):
        val = ascii_key(boolean.group("val"))
        truth = (val in _TRUE) != bool(boolean.group("neg"))
        found.append(
            _slot(
                clean,
                boolean.span("val"),
                _BOOL_ATTR[val],
                Value(ValueType.BOOLEAN, text=str(truth).lower()),
            )
        )
    if not found:
        found += _imperative(clean) or (_predicate(clean) if negated else [])
    if negated:
        return tuple(found)  # a negated note is compared by its core (``negation_core``)
    clock = parse_clock(clean) if digits or _NOON_WORDS.search(clean) else None
    if clock and not port and not found:
        value, start, end = clock
        found.append(_slot(clean, (start, end), "clock time", value))
    day = day_of(clean) if "day" in clean.lower() else None
    if day and not re.search(r"\b(?:and|or|,)\s+\w+days?\b", clean, re.I):
        m = re.search(r"\b(?:on|every|each)\s+\w+days?\b|\b\w+days?\b", clean, re.I)
        # "the release day is weds": a day read from a short name, while the "day" that
        # let the search in is another word; no span to name, so no slot
        if m is not None and day_of(m.group(0)):
            found.append(_slot(clean, m.span(), "day", Value(ValueType.DAY, text=day)))
    if not found and (digits or _QUANTITY_HINT.search(clean)):
        found += _measured(clean)
    if all(s.attribute == "interval duration" for s in found):  # "Nightly reports run on X"
        found += _job(clean, many) or _object_job(clean, many)
    if not found:
        found += _reads(clean, many) or _copula(clean, many)
    if not found:
        found += _uses(clean, many)
    if not found:
        found += _located(clean, many)
    if not found:
        found += _predicate(clean)
    if not any(s.value.type is ValueType.NAME for s in found):  # "mail goes through SES"
        found += _through(clean)
    return _marked(clean, found, many)


_CHANGE = [
    guarded(
        r"\b(?:switched|moved|migrated|changed|went|upgraded|downgraded|ported)\s+(?:\w+\s+){0,3}?"
        r"from\s+(?:the\s+)?(?P<old>[\w.+#/-]+)\s+to\s+(?:the\s+)?"
        r"(?P<new>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})",
        re.I,
    ),
    guarded(  # "moved the warehouse off Redshift onto BigQuery"
        r"\b(?:switched|moved|migrated|ported)\s+(?:\w+\s+){0,3}?(?:off|away from|out of)\s+"
        r"(?:the\s+)?(?P<old>[\w.+#/-]+)\s+(?:on)?to\s+(?:the\s+)?"
        r"(?P<new>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})",
        re.I,
    ),
    guarded(
        r"\breplaced\s+(?:the\s+)?(?P<old>[\w.+#/-]+)\s+(?:with|by)\s+(?:the\s+)?"
        r"(?P<new>[\w.+#/-]+(?:\s+(?-i:[A-Z])[\w.+#/-]*){0,2})",
        re.I,
    ),
    guarded(
        r"\b(?P<new>[\w.+#/-]+)\s+(?:instead of|rather than|in place of|replaced|replacing)\s+"
        r"(?:the\s+)?(?P<old>[\w.+#/-]+)",
        re.I,
    ),
]


def _marked(text: str, found: list[Slot], many: bool) -> tuple[Slot, ...]:
    """The slots with what the whole note says of them: one of several ("also"), or a
    value that replaced another ("switched from X to Y", "Y instead of X")."""
    for pattern in _CHANGE if _CHANGE_HINT.search(text) else ():
        m = pattern.search(text)
        if m is None or not _is_name(m.group("new"), m.group("new")):
            continue
        old, new = parse_value(m.group("old")), parse_value(m.group("new"))
        drop = content_words(m.group("old")) | content_words(m.group("new"))
        drop |= {"instead", "rather", "place"}
        if not found:
            found = [_slot(text, m.span(), "uses", new, drop=drop)]
        found = [
            dataclasses.replace(
                s, replaces=old, subject=s.subject - drop, qualifiers=s.qualifiers - drop
            )
            for s in found
        ]
        break
    if many:
        found = [dataclasses.replace(s, many=True, exclusive=False) for s in found]
    elif _RANGE.search(_PARENTHESES.sub("", text)):  # a range holds every value within it
        found = [
            dataclasses.replace(s, many=True, exclusive=False) if s.value.type in _RANGED else s
            for s in found
        ]
    return tuple(found)


_N = r"(?:\d+(?:[.:]\d+)*|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)"
# "between 3 and 12 pods", "from 1 s up to 60 s", "12 to 128 characters", "Node 18 through
# 22", "Tuesday to Thursday"; never a change ("bumped from 3 to 5")
# digits have no needle: a plain pattern, its case folded in ASCII only
_RANGE = re.compile(
    rf"\bbetween\s+(?:\w+\s+)?{_N}\b.{{0,20}}?\s+and\s+(?:\w+\s+)?{_N}\b"
    rf"|\bfrom\s+(?:\w+\s+)?{_N}\b.{{0,20}}?\s+up\s+to\b"
    rf"|(?<!from\s)\b{_N}(?:\s*[a-z]{{1,7}})?\s*(?:to|through|until|\u2013|\s-\s)\s*{_N}\b"
    r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:to|through|-)\s+\w+day\b",
    re.I | re.ASCII,
)
_RANGED = frozenset(
    {
        ValueType.COUNT,
        ValueType.NUMBER,
        ValueType.DURATION,
        ValueType.SIZE,
        ValueType.VERSION,
        ValueType.CLOCK,
        ValueType.DAY,
        ValueType.PERCENT,
        ValueType.RATE,
    }
)


# A note that says a name no longer holds: dropped, removed, shut down, cancelled, gone.
# What a dropped name was ("the Jenkins server", "the GraphQL gateway"): the name itself
_KIND_OF = (
    r"(?:\s+(?:server|servers|service|cluster|instance|box|integration|account|subscription|"
    r"plan|setup|stack|gateway|proxy|layer|backend|frontend|sidecar|agent|deployment|pipeline))?"
)
# What stands before a name: an article, a possessive, a hyphenated kind ("a self-hosted")
_ARTICLE = r"(?:(?:the|a|an|our|their)\s+)?(?:[a-z]+-[a-z]+\s+)?"
_DROPPED = [
    guarded(
        r"\b(?:dropped|removed|retired|decommissioned|deprecated|ditched|got rid of|shut down|"
        r"sunset|sunsetted|killed|abandoned|stopped using|no longer use|uninstalled|cancelled|"
        r"canceled|phased out|ripped out|tore out|pulled out|moved off|migrated off|"
        r"moved away from|migrated away from)\s+(?:the\s+|our\s+|using\s+)?(?P<old>"
        + _NAME
        + r")"
        + _KIND_OF
        + r"(?:\s+(?:for|in favou?r of|with)\s+"
        + _ARTICLE
        + r"(?P<new>"
        + _NAME
        + r"))?",
        re.I,
    ),
    guarded(
        r"\b(?P<old>"
        + _NAME
        + r")"
        + _KIND_OF
        + r"\s+(?:was|were|is|are|has been|have been|got)\s+"
        r"(?:now\s+)?"
        r"(?:(?:replaced\s+(?:by|with)|dropped in favou?r of)\s+"
        + _ARTICLE
        + r"(?P<new>"
        + _NAME
        + r")|"
        r"dropped|removed|retired|decommissioned|deprecated|cancelled|canceled|shut down|"
        r"sunset|killed|abandoned|gone|phased out|no longer used|closed|deleted|ripped out|"
        r"torn out|pulled out|replaced)\b",
        re.I,
    ),
    guarded(
        r"\b(?:swapped|replaced|traded)\s+(?:out\s+)?(?:the\s+|our\s+)?(?P<old>"
        + _NAME
        + r")(?:\s+out)?\s+(?:for|with)\s+"
        + _ARTICLE
        + r"(?P<new>"
        + _NAME
        + r")"
        + _KIND_OF,
        re.I,
    ),
    guarded(r"\btook over\s+(?:[\w-]+\s+){0,3}?from\s+(?:the\s+)?(?P<old>" + _NAME + r")", re.I),
]
# "switched log shipping to Grafana Loki", "moved CI to GitLab CI": what is now used for it
_MOVED_TO = guarded(
    r"\b(?:switched|moved|migrated|ported|changed|transitioned|converted)\s+"
    r"(?P<what>(?:(?!from\b|to\b)[\w.+#/'-]+\s+){0,4}?)(?:over\s+)?to\s+(?:the\s+|a\s+)?"
    r"(?P<new>" + _NAME + r")",
    re.I,
)
_DROP_HINT = guarded(
    r"drop|remov|retir|decommission|deprecat|ditch|got rid|shut down|sunset|kill|abandon|"
    r"stopped using|no longer|uninstall|cancel|phased out|gone|replaced|swapped|took over|"
    r"ripped|tore out|torn out|pulled out|traded|"
    r"switched|moved|migrated|ported|changed|transitioned|converted",
    re.I,
)
# When a change was made ("after the pricing change", "at the end of Q2"): not what changed
_WHEN_DONE = guarded(
    r"^\s*(?:after|before|during|since|as of|at the (?:end|start) of|in|last|this|earlier)\b.*$",
    re.I,
)
_CHANGE_WORDS = frozenset({"instead", "rather", "place", "favour", "favor", "gone"})


def _dropped(clause: str, found: list[Slot]) -> tuple[Value | None, list[Slot]]:
    """The name a clause says no longer holds (dropped, removed, shut down, cancelled,
    gone, taken over from), and the clause's slots with it: the value it was swapped for
    ("dropped X for Y"), or, when the clause reads no value of its own, a slot that says
    only that (``dropped``, met only by ``replaces``: "We got rid of Prometheus")."""
    if not _DROP_HINT.search(clause):
        return None, found
    for m in (m for pattern in _DROPPED for m in pattern.finditer(clause)):
        name = re.sub(r"^(?:the|our|a|an)\s+", "", m.group("old"), flags=re.I)
        took_over = "took over" in m.group(0).lower()  # from a team: any word names it
        first = name.split()[0] if name.split() else ""
        if not _is_name(first, name) and not (took_over and first and first.lower() not in _STOP):
            continue
        old = parse_value(name)
        new: str = m.groupdict().get("new") or ""
        named = bool(new) and _is_name(new.split()[0], new)
        # "dropped Datadog for metrics": what it was dropped for is what the slot is about
        end = m.end() if named or not new else m.end("old")
        gone = content_words(clause[m.start() : end]) | _CHANGE_WORDS
        if new and named and not any(s.named for s in found):
            found = [_slot(clause, m.span(), "uses", parse_value(new), drop=gone), *found]
        if not found:
            rest = clause[: m.start()] + " " + _WHEN_DONE.sub("", clause[end:])
            words = content_words(rest) - gone
            qualifiers = _qualifiers(rest) & words
            none = Value(ValueType.NAME, text="")
            dropped = Slot(words - qualifiers, qualifiers, "dropped", none, False, False)
            return old, [dataclasses.replace(dropped, replaces=old)]
        return old, [
            dataclasses.replace(
                s, replaces=s.replaces or old, subject=s.subject - content_words(m.group("old"))
            )
            if s.value.type is ValueType.NAME
            else s
            for s in found
        ]
    return None, found


def _moved_to(clause: str, found: list[Slot]) -> list[Slot]:
    """A clause's slots with the name it says something was moved to ("moved CI to GitLab
    CI"), a slot of its own (``changed``) unless a slot read already holds it."""
    moved = _MOVED_TO.search(clause) if _DROP_HINT.search(clause) else None
    if moved is None or any(s.replaces for s in found):
        return found
    new = moved.group("new")
    if not _is_name(new.split()[0], new) or parse_value(new).type is not ValueType.NAME:
        return found
    value = parse_value(new)
    if any(s.named for s in found):
        return found  # "upgraded to Python 3.12": the version read says what it moved to
    # "Avatars were moved to S3": what was moved may stand before the verb
    around = clause[: moved.start()] + " " + moved.group("what") + " " + clause[moved.end() :]
    words = content_words(around) - _CHANGE_WORDS
    qualifiers = _qualifiers(around) & words
    return [Slot(words - qualifiers, qualifiers, "uses", value, changed=True), *found]


def compare_names(a: Value, b: Value) -> bool:
    """Whether two names are one, or one is the start of the other ("Redux" and "Redux
    Toolkit", "GitLab" and "GitLab CI")."""
    if a.type is not ValueType.NAME or b.type is not ValueType.NAME or not a.text or not b.text:
        return False
    short, long = sorted((a.text, b.text), key=len)
    return (long.startswith(short) and len(short) >= 3) or (
        long.endswith(short) and len(short) >= 4  # "Vault" and "HashiCorp Vault"
    )


# A named setting: a code identifier or a flag set to a value ("MAX_UPLOAD_MB is 20",
# "max_connections = 100", "--workers 8", "gunicorn --timeout is 30").
_SETTING = re.compile(
    r"(?P<key>--[a-z][\w-]*|\b[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|\b[A-Z][A-Z0-9]{2,}\b)"
    r"(?:\s+(?:in|from)\s+[\w./-]+\.\w{2,4})?"
    r"\s*(?:(?:is|was|=|:|to|of)\s*|(?:is\s+)?(?:set|configured|now)\s+(?:to\s+)?|\s)"
    r"(?:now\s+|still\s+|currently\s+)?(?P<val>[\w.:+-]+(?:\s*(?:ms|s|sec|seconds?|minutes?|min|hours?|h|mb|gb|kb|"
    r"days?|%))?)(?=\s|$|[,;)])",
)


_ATTRIBUTE_ACRONYMS = frozenset({"ttl", "max", "min", "sla", "slo", "eta"})
_FILE = re.compile(
    r"\.(?:py|js|ts|tsx|jsx|json|ya?ml|toml|ini|cfg|conf|env|rb|go|rs|java|kt|php|sh|md|txt|lock|"
    r"xml|html|css|sql)$",
    re.I,
)
# "DEBUG_WEBHOOKS is set", "FOO is unset", "FOO=0": a flag on or off
_FLAG_SET = re.compile(
    r"(?P<key>\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Z][A-Z0-9]{2,}\b)\s+"
    r"(?:is|are)\s+(?:now\s+|still\s+)?(?P<neg>not\s+|un)?set\b(?!\s+to\b)"
)


# The unit a setting's name states ("MAX_ATTACHMENT_BYTES", "TTL_SECONDS", "timeout_ms")
_NAMED_UNITS = {
    "bytes": "bytes",
    "kb": "KB",
    "kib": "KiB",
    "mb": "MB",
    "mib": "MiB",
    "gb": "GB",
    "gib": "GiB",
    "ms": "ms",
    "millis": "ms",
    "msec": "ms",
    "sec": "s",
    "secs": "s",
    "seconds": "s",
    "minutes": "minutes",
    "mins": "minutes",
    "hours": "hours",
    "days": "days",
    "percent": "%",
    "pct": "%",
}


def _in_unit_of(key: str, value: Value, raw: str) -> Value:
    """A bare number set to a setting whose name states its unit, in that unit
    (`IDEMPOTENCY_TTL_SECONDS = 86400` is a day); any other value as it is."""
    if value.type not in (ValueType.COUNT, ValueType.NUMBER):
        return value
    unit = _NAMED_UNITS.get(re.split(r"[^a-z0-9]+", key.lower())[-1])
    if unit is None:
        return value
    return parse_value(f"{raw}{'' if unit == '%' else ' '}{unit}")


def _setting(text: str) -> list[Slot]:
    flag = _FLAG_SET.search(text)
    if flag is not None:
        truth = "false" if flag.group("neg") else "true"
        return [
            _slot(
                text, (flag.end("key"), flag.end()), "enabled", Value(ValueType.BOOLEAN, text=truth)
            )
        ]
    for m in _SETTING.finditer(text):
        key, raw = m.group("key"), m.group("val")
        if "." in key and re.fullmatch(r"[\d.]+", key):
            continue
        if key.upper() == key and m.group(0)[len(key) :].strip()[:1] not in ("i", "=", ":"):
            continue  # "AWS SES": an acronym, not a setting
        if re.split(r"[^a-z0-9]+", key.lower())[-1] in _IDENTITY:
            continue  # "user_id is 0.05", "broker.id 1": which one, never a setting's value
        if key.lower() in _ATTRIBUTE_ACRONYMS or _FILE.search(key) or text[: m.start()][-1:] == "/":
            continue  # "the TTL is 15 minutes", "api/client.py times out": no setting
        value = _in_unit_of(key, parse_value(raw), raw)
        if value.type is ValueType.NAME and not re.search(r"\d", raw) and not _is_name(raw, raw):
            continue
        if value.type is ValueType.BOOLEAN:  # a flag: on or off, however it is set
            return [_slot(text, (m.end("key"), m.end()), "enabled", value)]
        if value.type is ValueType.NAME and re.fullmatch(r"[A-Z][A-Z0-9]+", key):
            # "the CDN is CloudFront": the acronym names what it is, as a copula's head does
            return [_slot(text, m.span(), key.lower(), value, drop=frozenset({key.lower()}))]
        attribute = "setting " + key.lower().lstrip("-")
        return [_slot(text, m.span(), attribute, value, drop=frozenset({key.lower()}))]
    return []


_UNIT_AFTER = re.compile(
    r"%|x|ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|"
    r"[kmgt]i?b|bytes?|percent|times|gb|mb|kb|rps|qps|rpm|per|a|an|each|every|of|or|to|and"
)


# Runtimes, languages and systems named with a bare major version ("Node 18", "Java 17")
_RUNTIMES = words(
    """node nodejs python java ruby php perl go golang dotnet erlang elixir scala kotlin swift
    postgres postgresql mysql mariadb redis mongodb elasticsearch kafka ubuntu debian alpine
    centos rhel fedora angular react vue django rails spring laravel nginx terraform helm
    kubernetes ios android windows macos jdk openjdk gradle maven webpack typescript"""
)


def _known_name(word: str) -> bool:
    from anchors.vocabulary import by_name

    return by_name(word) is not None


def _versions(text: str) -> list[Slot]:
    for m in _VERSION.finditer(text):
        name, ver = m.group("name"), m.group("ver")
        low = name.lower()
        if low in _NOT_NAMES or low in _VERBISH or low in _STOP or len(low) < 2:
            continue
        after = text[m.end() : m.end() + 16].lower()
        named = any(c.isupper() for c in name) or "version" in m.group(0).lower()
        following = re.match(r"\s*([a-z%]+)", after)
        counted = following is not None and (
            stem(following.group(1)) in _COUNTED or bool(_UNIT_AFTER.fullmatch(following.group(1)))
        )
        versioned = "version" in m.group(0).lower()
        known = low in _RUNTIMES or _known_name(low)
        if "." not in ver and not versioned and (not named or counted or not known):
            continue  # "runs 4 workers", "Gunicorn 4 workers", "Module 3 logs": not a version
        value = Value(ValueType.VERSION, text=ver)
        return [_slot(text, m.span(), f"{stem(low)} version", value)]
    return []


def _owner(text: str, many: bool) -> list[Slot]:
    for pattern in (_OWNER_IS, _OWNER_BY, _OWNER_OF):
        m = pattern.search(text)
        if m is None:
            continue
        who = re.sub(r"^the\s+", "", m.group("who").lower()).removesuffix(" team")
        if who in _STOP:
            continue
        value = Value(ValueType.NAME, text=re.sub(r"[\s@.-]+", "", who))
        span = m.span("who")
        drop = frozenset({"owner", "maintainer", "contact", "lead", "team", "dri", "point"})
        return [_slot(text, span, "owner", value, drop=drop, exclusive=not many)]
    return []


_PERIOD = guarded(
    r"\b(?:hourly|daily|nightly|weekly|bi-?weekly|fortnightly|monthly|bi-?monthly|quarterly|"
    r"yearly|annually|every|each|once|twice|thrice|times (?:a|an|per))\b",
    re.I,
)


def _measured(text: str) -> list[Slot]:
    quantity = parse_quantity(text)
    if quantity is not None:
        value, start, end = quantity
        near = _attribute_near(text, start)
        if near is None and value.type is ValueType.DURATION and _PERIOD.search(text[start:end]):
            near = ("interval", (start, start))  # "regenerated weekly", "twice a day"
        if near is None:
            return [_slot(text, (start, end), f"? {value.type.value}", value, named=False)]
        name, span = near
        if name == "interval" and value.type is not ValueType.DURATION:
            name = "rate" if value.type is ValueType.RATE else "limit"
        lo, hi = min(span[0], start), max(span[1], end)
        between = text[min(span[1], end) : max(span[0], start)]
        drop = _words_of(text, span)
        # every word naming the attribute ("the max upload size": "max" as "size" does;
        # "give up after 5s (client.py timeout)": "timeout" as "give up after" does)
        named_by = (_LIMIT, _ATTRIBUTE_RE.get(name, _LIMIT))
        drop |= frozenset().union(
            *(_words_of(text, m.span()) for p in named_by for m in p.finditer(text))
        )
        # far apart, or what it is of between them: cut out both, keep the words between
        if len(between) > 40 or _OF_THING.search(between):
            rest_span = (start, end)
            slot = _slot(
                text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :],
                rest_span,
                f"{name} {value.type.value}",
                value,
                drop=drop,
            )
            return [slot]
        return [_slot(text, (lo, hi), f"{name} {value.type.value}", value, drop=drop)]
    return _counted(text)


# "the refresh interval *of the products index* is 1s": what it is of stands between the
# attribute and its value, and is kept
_OF_THING = re.compile(r"^\s*(?:of|for|on)\s+(?:the\s+|our\s+|its\s+)?[\w`'./-]+", re.I)


def _counted(text: str) -> list[Slot]:
    number = number_at(text)
    if number is None:
        return []
    n, start, end = number

    # "the pool size is 20 connections", "pool max connections = 5": a count's noun says
    # what is counted; "size" or "max" around it says no more about what it is of (read
    # only for a count with its noun: every attribute's pattern is searched for it)
    def named() -> frozenset[str]:
        return frozenset().union(
            *(_words_of(text, m.span()) for _, pattern in _ATTR_RE for m in pattern.finditer(text))
        )

    after = re.findall(r"[\w-]+", text[end : end + 40])
    for word in after[:3]:
        noun = _COUNTED.get(stem(word))
        if noun is not None:
            span_end = end + text[end:].lower().find(word.lower()) + len(word)
            return [
                _slot(
                    text,
                    (start, span_end),
                    f"count {noun}",
                    Value(ValueType.COUNT, n),
                    drop=frozenset({stem(word)}) | named(),
                )
            ]
    near = _attribute_near(text, start)
    before = content_words(text[max(0, start - 30) : start])
    for noun_word in sorted(before):
        noun = _COUNTED.get(noun_word)
        if noun is not None:
            return [
                _slot(
                    text,
                    (start, end),
                    f"count {noun}",
                    Value(ValueType.COUNT, n),
                    drop=frozenset({noun_word}) | named(),
                )
            ]
    if near is not None:
        name, span = near
        return [
            _slot(
                text,
                (min(span[0], start), max(span[1], end)),
                f"{name} count",
                Value(ValueType.COUNT, n),
                drop=_words_of(text, span),
            )
        ]
    return []


# Who does a duty: a person, a handle, a team or a role ("the incident commander")
_WHO = (
    r"@[\w.-]+|(?-i:(?!(?:The|A|An|This|That|These|Those|Our|Its|It|We|They|Each|Every|All)\b)"
    r"[A-Z][\w.-]*(?:\s+[A-Z][\w-]*)?)|(?:the\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:team|squad|engineer|lead|manager|commander|owner|developer|sre|admin|person|on-?call|"
    r"maintainer|reviewer|captain|shepherd|champion|guild|chapter)s?"
)
_DUTIES = (
    r"cut|approve|review|write|own|maintain|triage|merge|deploy|release|tag|lead|sign off on|"
    r"sign off|publish|rotate|page"
)
_DUTY_DONE = {
    "written": "write",
    "led": "lead",
    "cut": "cut",
    "done": "handle",
    "handled": "handle",
    "executed": "handle",
    "performed": "handle",
    "run": "handle",
    "applied": "handle",
    "updated": "update",
    "submitted": "submit",
    "submits": "submit",
    "handles": "handle",
    "applies": "handle",
    "executes": "handle",
    "updates": "update",
    "posts": "update",  # posting the updates is updating
}
_DUTY_HINT = guarded(
    r"\bby\b|on[- ]?call|\b(?:cuts|approves|reviews|writes|owns|maintains|triages|merges|"
    r"deploys|releases|tags|leads|signs off|publishes|rotates|goes to|go to|submits|handles|"
    r"updates|posts|executes|applies)\b",
    re.I,
)
_DUTY_BY = guarded(
    r"^(?P<what>.+?)\s+(?:is|are|was|were|gets?|get)\s+(?:now\s+|usually\s+|always\s+|"
    r"currently\s+|still\s+)?(?P<verb>cut|approved|reviewed|written|triaged|"
    r"merged|deployed|released|tagged|led|signed off|published|rotated|done|handled|executed|"
    r"performed|run|applied|updated|submitted)\s+"
    r"(?:only\s+)?by\s+(?P<who>" + _WHO + r")\b(?P<rest>.*)$",
    re.I,
)
_DUTY_DOES = guarded(
    r"^(?P<who>" + _WHO + r")\s+(?:now\s+|usually\s+|always\s+|currently\s+|still\s+|also\s+)?"
    r"(?P<verb>cuts|approves|reviews|writes|triages|merges|deploys|releases|tags|leads|"
    r"signs off on|publishes|rotates|submits|handles|updates|applies|posts|executes)\s+"
    r"(?P<what>(?!(?:to|from|in|on|with|into)\b).+)$",
    re.I,
)
_DUTY_GOES = guarded(
    r"^(?P<what>.*?\b(?P<duty>reviews?|approvals?|sign-?offs?|pages?|alerts?|escalations?|"
    r"tickets?|incidents?|triage)\b.*?)\s+(?:now\s+)?(?:go|goes|went|are routed|is routed|"
    r"are sent|is sent|come|comes|came|moved|moves|has moved|was moved)\s+(?:to|from)\s+"
    r"(?P<who>" + _WHO + r")\b(?P<rest>.*)$",
    re.I,
)
# What a duty handed to someone is called: "approvals come from X" is X approving
_DUTY_NOUNS = {"review": "review", "approval": "approve", "signoff": "sign off", "triage": "triage"}
_ON_CALL = guarded(
    r"^(?P<who>" + _WHO + r")\s+(?:is|are)\s+(?:now\s+|currently\s+)?(?:the\s+)?(?:primary\s+)?"
    r"on[- ]?call\b(?P<rest>.*)$"
    r"|^(?:the\s+)?(?:primary\s+)?on[- ]?call(?:\s+(?:person|engineer))?(?P<rest2>.*?)\s+"
    r"(?:is|=|:)\s+(?P<who2>" + _WHO + r")\s*$",
    re.I,
)


_PERIODS = ("week", "month", "sprint", "rotation", "weekend")


def _who(raw: str) -> Value:
    who = re.sub(r"^the\s+", "", raw.strip().lower())
    who = re.sub(r"\s+(?:team|squad)$", "", who)
    return Value(ValueType.NAME, text=re.sub(r"[\s@.-]+", "", who))


def _duty_root(verb: str) -> str:
    verb = verb.lower()
    if verb in _DUTY_DONE:
        return _DUTY_DONE[verb]
    for ending in ("s on", " on", "es", "ed", "s", "d"):
        root = verb.removesuffix(ending)
        root = re.sub(r"([gpt])\1$", r"\1", root) if ending == "ed" else root  # "tagged"
        if verb.endswith(ending) and root and re.fullmatch(_DUTIES, root):
            return root
    return verb.split()[0]


def _duty(text: str) -> list[Slot]:
    """Who does what: "Releases are cut by Dana", "Eve cuts the releases", "Code review
    for payments goes to the billing squad", "Priya is on call": a slot per duty
    (``does cut``, ``on call``), the one who does it its value, what it is done to
    its subject."""
    m = _ON_CALL.match(text)
    if m is not None:
        who = m.group("who") or m.group("who2")
        rest = m.group("rest") if m.group("who") else m.group("rest2")
        rest = re.sub(
            r"\b(this|next|last)\s+(week|month|sprint|rotation|weekend)\b", r"\1\2", rest or ""
        )
        words = content_words(rest)
        qualifiers = (_qualifiers(rest) & words) | {w for w in words if w.endswith(_PERIODS)}
        return [Slot(words - qualifiers, qualifiers, "on call", _who(who))]
    for pattern in (_DUTY_BY, _DUTY_DOES, _DUTY_GOES):
        m = pattern.match(text)
        if m is None:
            continue
        who = m.group("who")
        if who.lower().split()[-1] in _STOP or who.lower() in ("it", "they", "we", "this"):
            continue
        what = m.group("what") + " " + (m.groupdict().get("rest") or "")
        noun = stem(m.groupdict().get("duty") or "")
        duty = _DUTY_NOUNS.get(noun, "handle") if noun else _duty_root(m.group("verb"))
        words = content_words(what) - {duty, noun}
        qualifiers = _qualifiers(what) & words
        return [Slot(words - qualifiers, qualifiers, f"does {duty}", _who(who))]
    return []


# "<subject> is (not) <a property>": "the import job is idempotent", "X is not thread-safe"
_PREDICATE = guarded(
    r"^(?P<subj>.+?)\s+(?:is|are)\s+(?:now\s+|still\s+|always\s+|currently\s+)?"
    r"(?P<neg>not\s+|never\s+|no longer\s+)?(?:fully\s+|completely\s+)?"
    r"(?P<adj>[a-z][a-z-]{3,})$",
)


_GONE = words(
    """gone dropped removed retired decommissioned deprecated cancelled canceled killed
    abandoned sunset replaced deleted used done"""
)


# A rule as agents write one: "Always squash commits", "Never force-push to main", "Do
# not rebase shared branches", "We always run migrations in a transaction"
_IMPERATIVE = guarded(
    r"^(?:we\s+|you\s+|please\s+)?(?P<mode>always|never|do not|don't|dont|do|must not|mustn't|"
    r"must|should not|shouldn't|should|avoid|only ever|no longer)\s+(?:ever\s+)?"
    r"(?P<verb>[a-z][a-z-]+)\b(?P<rest>.*)$",
    re.I,
)
_NEVER = frozenset(
    {
        "never",
        "do not",
        "don't",
        "dont",
        "must not",
        "mustn't",
        "should not",
        "shouldn't",
        "avoid",
        "no longer",
    }
)


def _imperative(text: str) -> list[Slot]:
    m = _IMPERATIVE.match(text)
    if m is None or m.group("verb").lower() in _STOP:
        return []
    verb = m.group("verb").lower()
    mode = ascii_key(m.group("mode")).replace("\u2019", "'")
    if mode == "avoid" and verb.endswith("ing"):
        verb = verb[:-3]
    rest = m.group("rest")
    words = content_words(rest)
    if not words and verb in _VERBISH:
        return []  # "never use it": a rule about nothing named
    qualifiers = _qualifiers(rest) & words
    truth = "false" if mode in _NEVER else "true"
    attribute = f"rule {stem(verb.split('-')[0])}"
    return [Slot(words - qualifiers, qualifiers, attribute, Value(ValueType.BOOLEAN, text=truth))]


# "admin pages go through the same Varnish cache" / "... bypass the cache": whether a
# thing is on for what passes through it, as "caching is disabled for admin pages" says
_THROUGH = guarded(
    r"^(?P<who>.+?)\s+(?:now\s+|still\s+|all\s+|also\s+|always\s+)?(?:(?P<on>go|goes|went|"
    r"pass|passes)\s+through|(?P<off>bypass|bypasses|bypassed))\s+"
    r"(?:the\s+|our\s+|its\s+|their\s+)?(?:same\s+|shared\s+)?(?P<what>[\w.-]+(?:\s+[\w.-]+)?)",
    re.I,
)


def _through(text: str) -> list[Slot]:
    """Whether what a clause names is on for its subject: the thing passed through (its
    last word, "the Varnish cache": cache) is the flag, its subject's words narrow it."""
    m = _THROUGH.match(text)
    if m is None:
        return []
    thing = content_words(m.group("what").split()[-1])
    who = content_words(m.group("who"))
    if not thing or not who or thing & who:
        return []
    value = Value(ValueType.BOOLEAN, text="true" if m.group("on") else "false")
    return [Slot(thing, who, "enabled", value)]


def _predicate(text: str) -> list[Slot]:
    m = _PREDICATE.match(text)
    if m is None:
        return []
    adj = m.group("adj")
    if adj in _STOP or adj in _VERBISH or adj in _GONE or adj.endswith(("ing", "ly")):
        return []
    from anchors.vocabulary import by_name

    if by_name(adj) is not None:
        return []  # "the broker is kafka": a name, read by the readers of names
    words = content_words(m.group("subj"))
    if not words:
        return []
    qualifiers = _qualifiers(m.group("subj")) & words
    truth = "false" if m.group("neg") else "true"
    return [
        Slot(
            words - qualifiers, qualifiers, f"is {stem(adj)}", Value(ValueType.BOOLEAN, text=truth)
        )
    ]


def _is_name(token: str, original: str) -> bool:
    if not token or token.lower() in _STOP:
        return False
    if token.lower() in _VERBISH and not (token[:1].isupper() and token[1:].islower()):
        return False  # "go" is a verb; "written in Go" names a language
    if re.search(r"[A-Z\d]", original) or any(c in token for c in ".+#/-"):
        return True
    from anchors.vocabulary import by_name, is_ordinary_word

    # A named technology, or a word that is not ordinary English ("libvips").
    return by_name(token.lower()) is not None or not is_ordinary_word(token.lower())


def _job(text: str, many: bool) -> list[Slot]:
    for m in _JOB.finditer(text):
        raw = m.group("val")
        first = raw.split()[0]
        branch = first.lower() in _BRANCH_NAMES or text[m.end() :].lstrip().lower().startswith(
            "branch"
        )
        if not _is_name(first, first) and not (
            branch and m.group("prep").lower() in ("from", "off", "to", "into", "onto")
        ):
            continue
        if not re.search(r"[A-Z]", first):
            raw = first  # "bcrypt": one word; "HashiCorp Vault": the capitalised name
        verb = stem(ascii_key(m.group("verb"))).removesuffix("ed")
        verb = _KEEPING.get(verb, verb)
        prep = _PREP[ascii_key(m.group("prep"))]
        if prep == "from" and verb in _BRANCHING:
            verb = "branch"  # "hotfixes start from main", "are branched off the release branch"
        attribute = f"{verb} {prep}"
        value = Value(ValueType.NAME, text=parse_value(raw).text or raw.lower())
        exclusive = not many or bool(_EXCLUSIVE_MARK.search(text))
        if verb in FLOWS:  # a service reads from, or writes to, more than one place
            exclusive = bool(_EXCLUSIVE_MARK.search(text)) and not many
        slot = _slot(text, (m.start("verb"), m.end()), attribute, value, exclusive=exclusive)
        if branch:  # "the release branch": "branch" is the kind of value, not the subject
            slot = dataclasses.replace(slot, subject=slot.subject - {"branch"})
        return [slot]
    return []


# Verbs of keeping something somewhere, one job: "kept in", "stored in", "saved to"
_KEEPING = {
    "kept": "stor",
    "keep": "stor",
    "keeps": "stor",
    "held": "stor",
    "sav": "stor",
    "persist": "stor",
    "stores": "stor",
    "store": "stor",
}
# "keeps its feature vectors in Redis", "reports exceptions to Rollbar", "caches downloads
# in ~/.cache/x": a job with its object between the verb and where it is done
_OBJECT_JOB = guarded(
    r"\b(?P<verb>keeps|stores|saves|persists|caches|writes|sends|reports|pushes|logs|ships|"
    r"publishes|puts|loads|streams)\s+(?:its\s+|the\s+|their\s+|our\s+|all\s+)?"
    r"(?P<obj>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?P<prep>in|into|to|on|under)\s+"
    r"(?:the\s+|a\s+)?(?P<val>" + _NAME + r")",
    re.I,
)
# Where data is sent: one of several places (``FLOWS``), as "writes to" is
_SENDING = {"send", "report", "push", "log", "ship", "publish", "load", "stream", "write"}


def _object_job(text: str, many: bool) -> list[Slot]:
    m = _OBJECT_JOB.search(text)
    if m is None:
        return []
    raw = m.group("val")
    first = raw.split()[0]
    if not _is_name(first, first) or content_words(m.group("obj")) == frozenset():
        return []
    raw = raw if re.search(r"[A-Z]", first) else first
    verb = ascii_key(m.group("verb")).lower()
    verb = re.sub(r"(?:es|s)$", "", verb) if verb.endswith(("ches", "shes")) else verb[:-1]
    prep = _PREP[ascii_key(m.group("prep"))] if m.group("prep").lower() != "under" else "in"
    if verb in _SENDING:
        verb, prep = "write", "to"  # where it goes: one of several places
        exclusive = bool(_EXCLUSIVE_MARK.search(text)) and not many
    else:
        verb = "stor" if verb != "cach" and verb != "cache" else "cach"
        exclusive = not many or bool(_EXCLUSIVE_MARK.search(text))
    value = Value(ValueType.NAME, text=parse_value(raw).text or raw.lower())
    # what is kept or sent is what the slot is about: only the verb and the value go
    drop = content_words(m.group("val"))
    span = (m.start("verb"), m.end("verb"))
    return [_slot(text, span, f"{verb} {prep}", value, drop=drop, exclusive=exclusive)]


# "consumes the Kafka topic orders.v1", "now reads orders.v2": where a thing reads from,
# named as code names it (a dot, a slash, an underscore or a digit in it)
_READS = guarded(
    r"\b(?P<verb>reads|consumes|subscribes to|listens to)\s+(?:from\s+)?(?:the\s+|its\s+)?"
    r"(?:(?:[\w-]+\s+){0,2}?(?:topic|queue|stream|subject|channel)\s+)?"
    r"(?P<val>[\w+#-]*[./_\d][\w.+#/-]*)",
    re.I,
)


def _reads(text: str, many: bool) -> list[Slot]:
    """Where a thing reads from, said with no preposition ("reads orders.v2"): one of
    the places it may read from (``FLOWS``), as "reads from" is."""
    m = _READS.search(text)
    if m is None or not re.search(r"[a-z]", m.group("val"), re.I):
        return []
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text or m.group("val").lower())
    exclusive = bool(_EXCLUSIVE_MARK.search(text)) and not many
    return [_slot(text, (m.start("verb"), m.end()), "read from", value, exclusive=exclusive)]


def _copula(text: str, many: bool) -> list[Slot]:
    m = _COPULA.match(text)
    if m is None:
        return []
    worded = m.group("head").lower() in _WORDED and m.group("val").lower() not in _STOP
    if not worded and not _is_name(m.group("val"), m.group("val")):
        return []
    head = stem(m.group("head").lower())
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text)
    subject_part = m.group("subj")[: m.start("head")]
    rest = m.group("rest")
    words = content_words(subject_part + " " + rest)
    qualifiers = _qualifiers(rest + " " + subject_part) & words
    return [Slot(words - qualifiers, qualifiers, head, value, not many)]


_WORDED = words("""branch region mode level strategy format encoding timezone algorithm""")
_PROTOCOLS = words("""http https grpc websocket websockets tls ssh ftp sftp mqtt amqp""")


# "sessions are in Postgres now", "the state is on S3": where something lives
_LOCATED = guarded(
    r"^(?P<subj>.+?)\s+(?:is|are)\s+(?:now\s+|still\s+|currently\s+)?(?:all\s+)?(?:in|on)\s+"
    r"(?:the\s+)?(?P<val>" + _NAME + r")(?:\s+now)?$",
    re.I,
)


def _located(text: str, many: bool) -> list[Slot]:
    """Where a thing lives, said with a bare copula: the slot "live in", as "sessions
    live in Redis" fills it."""
    m = _LOCATED.match(text)
    if m is None or not _is_name(m.group("val").split()[0], m.group("val")):
        return []
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text)
    exclusive = not many or bool(_EXCLUSIVE_MARK.search(text))
    return [_slot(text, m.span("val"), "live in", value, exclusive=exclusive)]


def _uses(text: str, many: bool) -> list[Slot]:
    m = _USES.search(text)
    if m is None or not _is_name(m.group("val"), m.group("val")):
        return []
    value = Value(ValueType.NAME, text=parse_value(m.group("val")).text)
    exclusive = bool(_EXCLUSIVE_MARK.search(text)) and not many
    role = m.group("role")
    span = (m.start(), m.end("val"))
    attribute = "uses for" if role else "uses"
    if value.text in _PROTOCOLS:
        attribute, exclusive = "protocol", True
    return [_slot(text, span, attribute, value, exclusive=exclusive)]


def relate(a: Slot, b: Slot) -> Match:
    """Whether two slots are about one thing: the same words (``SAME``); one says more
    than the other ("for batch jobs", "on staging", ``AMBIGUOUS``); close subjects that
    differ in a word (``SIMILAR``); or different subjects (qualifiers that differ on
    both sides are different subjects, never one)."""
    if a.attribute != b.attribute:
        return Match.DIFFERENT
    return relate_subjects(a, b)


def subjects_apart(a: Slot, b: Slot) -> bool:
    """Whether two slots are about other things by what narrows them: qualifiers each
    lacks ("for images" / "for videos"), or an environment or platform only one names."""
    if (a.qualifiers - b.qualifiers) and (b.qualifiers - a.qualifiers):
        return True
    return any(w in _ENVS or w in _PLATFORMS for w in a.about ^ b.about)


def relate_subjects(a: Slot, b: Slot) -> Match:
    """``relate`` for what two slots are about, whatever their attributes."""
    if a.about == b.about:
        return Match.SAME
    if a.about < b.about or b.about < a.about:
        return Match.AMBIGUOUS
    if subjects_apart(a, b):
        return Match.DIFFERENT
    shared = a.about & b.about
    if shared and len(shared) / len(a.about | b.about) >= 0.5:
        return Match.SIMILAR
    if any("/" in w or _FILE.search(w) for w in shared) and len(shared) > 1:
        return Match.SIMILAR  # the same file and another word: perhaps the one setting
    return Match.DIFFERENT
