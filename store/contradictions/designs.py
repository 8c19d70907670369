"""Designs that exclude each other, and products that do one job (adr/0060): what an
engineer knows of two notes that share no slot. "The backend is one Django monolith" and
"billing runs as its own independently deployed service" cannot both hold; nor can "the
firmware runs on Zephyr" and "the firmware is built on FreeRTOS". The slots never line
such notes up: they name no common attribute, and their words differ.

A design is one pole of an axis (``_AXES``: how services share data, where a page is
rendered, where a model runs, ...), read from the phrases that state it; a product is a
member of a family (``families.members_of``). Two notes holding other poles of one axis,
or naming other products of one family for one thing, are asked about, never decided:
the agent, a language model, knows whether "the marketing site" and "the marketing
pages" are one thing, and whether a cluster of EC2 instances and an EKS cluster differ.

Asked only when the notes are about one thing: no other environments or variants, no
history ("we used to"), and the subjects of the clauses that state the design or name the
product not apart: each narrowed by a word the other never says ("transactional e-mail"
/ "marketing e-mail"), or each naming its own thing ("the admin app" / "the storefront")
unless both name one thing in other words. A note naming both poles of an axis, or two
products of one family, states a history or a mix ("we split the monolith into
services"), and holds neither. Pure functions over claims; no database.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from anchors.needles import guarded
from store.contradictions.families import MANY_VALUED, one_thing
from store.contradictions.questions import kinds_apart, other_variants
from store.contradictions.slots import MANY_MARK
from store.contradictions.terms import kinds
from store.contradictions.words import content_words

if TYPE_CHECKING:
    from store.contradictions.rules import Claim

__all__ = ["designs", "first_pole", "other_designs", "rival_products"]

# axis: (what is asked, (pole, phrases), (pole, phrases)). Phrases are case-blind regular
# expressions over the note's text; each states its pole on its own, without the other
# note's help. A phrase that negates the other pole ("no dedicated server") is that pole.
_AXES: dict[str, tuple[str, tuple[str, str], tuple[str, str]]] = {
    "data-sharing": (
        "whether the services share one database",
        (
            "shared",
            r"\bshare[sd]?\s+(?:one|a|a single|the same)\s+(?:[\w-]+\s+){0,2}"
            r"(?:database|db|cluster|instance|schema|postgres(?:ql)?|mysql|aurora)\b"
            r"|\bread(?:s|ing)?\s+each other'?s\s+(?:tables|data|schemas?|rows)"
            r"|\bshared\s+(?:database|db)\b"
            r"|\b(?:all|every)\s+(?:the\s+)?(?:micro)?services\s+(?:point|talk|connect|write)s?"
            r"\s+(?:at|to)\s+(?:one|a single|the same)\b",
        ),
        (
            "owned",
            r"\bowns?\s+(?:its|their)\s+(?:own\s+)?(?:\w+\s+)?(?:database|db|schema|datastore)"
            r"|\b(?:has|have|gets?|with)\s+(?:its|their)\s+own\s+(?:\w+\s+)?(?:database|db|schema)"
            r"|\b(?:database|db)[- ]per[- ](?:micro)?service\b"
            r"|\bno\s+service\s+(?:reads|touches|queries)\s+another",
        ),
    ),
    "tenancy": (
        "whether customers share one deployment and its tables",
        (
            "isolated",
            r"\bsingle[- ]tenant\b|\b(?:schema|database|db)[- ]per[- ](?:tenant|customer)\b"
            r"|\beach\s+(?:tenant|customer)\s+(?:gets|has)\s+(?:its|their)\s+own\s+"
            r"(?:\w+\s+)?(?:schema|database|db|deployment|instance|stack)",
        ),
        (
            "pooled",
            r"\b(?:all|every)\s+(?:[\w-]+\s+)?(?:tenants|customers)\s+share\b"
            r"|\btenant_id\b|\bshared\s+tables\b|\bseparated\s+by\s+a\s+tenant",
        ),
    ),
    "rendering": (
        "where the pages are rendered",
        (
            "server",
            r"\bserver[- ]side[- ]render(?:ed|ing|s)?\b|\bssr\b|\bserver[- ]rendered\b"
            r"|\brendered\s+(?:on\s+the\s+server|server[- ]side|per\s+request)"
            r"|\b(?:django|jinja2?|erb|rails|server(?:-side)?)\s+templates\b",
        ),
        (
            "static",
            r"\bstatic\s+(?:export|site|bundle|html)\b|\bnext\s+export\b|output:\s*'export'"
            r"|\bsingle[- ]page\s+(?:app|application)\b|\bspa\b|\bstatically\s+generated\b"
            r"|\bno\s+node\s+server\b|\bclient[- ]side\s+rendered\b",
        ),
    ),
    "compute": (
        "whether it runs as serverless functions or long-running servers",
        (
            "serverless",
            r"\bserverless\b|\blambda\s+functions?\b|\bcloud\s+functions\b",
        ),
        (
            "servers",
            r"\blong[- ]running\b|\balways[- ]on\s+(?:server|process|instance)s?\b"
            r"|\bsystemd\s+(?:units?|services?)\b",
        ),
    ),
    "calls": (
        "whether the services call each other or only exchange events",
        (
            "events",
            r"\bevent[- ]driven\b"
            r"|\bonly\s+(?:talk\s+|communicate\s+)?(?:through|via|over)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}"
            r"(?:events?|event\s+bus|message\s+bus|queues?|broker|kafka|rabbitmq|nats|sqs)\b"
            r"|\bnever\s+call\s+(?:one\s+another|each\s+other)"
            r"|\bno\s+synchronous\s+(?:calls|requests)\b"
            r"|\bnothing\s+calls\s+(?:[\w-]+\s+){0,2}synchronously",
        ),
        (
            "calls",
            r"\bcalls?\s+(?:the\s+)?[\w-]+(?:'s)?\s+(?:`[^`]+`\s+)?(?:endpoint\s+)?"
            r"(?:over|via)\s+(?:http|grpc|rest)\b"
            r"|\bcalls?\s+[\w-]+'s\s+(?:grpc|http|rest)\b"
            r"|\b(?:waits?|blocks?)\s+(?:for|on)\s+the\s+response\b"
            r"|\bno\s+(?:message\s+)?broker\b"
            r"|\b(?:call|talk\s+to)\s+each\s+other\s+synchronously\b",
        ),
    ),
    "client-data": (
        "whether the app keeps its data locally or fetches it live",
        (
            "local",
            r"\boffline[- ]first\b|\bworks\s+(?:fully\s+)?offline\b"
            r"|\blocal\s+(?:sqlite|database|db|store|storage)\s+is\s+the\s+source\s+of\s+truth"
            r"|\breads\s+and\s+writes\s+a\s+local\b",
        ),
        (
            "live",
            r"\bno\s+local\s+(?:persistence|storage|database|db|cache)\b|\bthin\s+client\b"
            r"|\b(?:every|each)\s+(?:screen|command|view|page)\s+(?:fetches|calls|hits|queries)"
            r"\s+(?:live\s+data|the\s+(?:hosted\s+)?(?:api|server|backend))",
        ),
    ),
    "inference": (
        "whether it runs on the device or on a server",
        (
            "device",
            r"\bon[- ]device\b|\bnever\s+leaves?\s+the\s+(?:phone|device|laptop|browser)"
            r"|\bruns?\s+(?:fully\s+|entirely\s+)?locally\s+on\s+the\s+(?:phone|device)",
        ),
        (
            "server",
            r"\b(?:runs?|served|happens)\s+(?:\w+\s+)?"
            r"(?:server[- ]side|in\s+the\s+cloud|on\s+cloud)"
            r"|\buploads?\s+(?:the\s+)?(?:recorded\s+)?(?:photos?|images?|audio|recordings?|"
            r"video|files?)\s+to\b",
        ),
    ),
    "sessions": (
        "whether sessions are kept on the server",
        (
            "stateless",
            r"\bstateless\s+(?:auth|authentication|sessions?|tokens?)\b"
            r"|\b(?:auth|authentication)\s+is\s+stateless\b"
            r"|\bno\s+server[- ]side\s+session|\bnever\s+looks?\s+(?:up\s+)?sessions",
        ),
        (
            "stored",
            r"\bsessions?\s+(?:are\s+|is\s+)?(?:stored|kept)\s+(?:server[- ]side|in\s+(?:redis|"
            r"the\s+database|postgres|memcached))|\bsession\s+store\b"
            r"|\bchecks?\s+(?:its|the)\s+session\s+id",
        ),
    ),
    "regions": (
        "whether it runs in one region or several",
        (
            "one",
            r"\bsingle[- ]region\b"
            r"|\b(?:everything|all)\b[^.;]{0,40}\blives?\s+in\s+(?:one\s+region|[a-z]{2}-[a-z]+-\d)\b",
        ),
        (
            "many",
            r"\bmulti[- ]region\b|\bactive[- ]active\b"
            r"|\b(?:across|between)\s+(?:two|three|\d|multiple|several)\s+regions\b"
            r"|\bbetween\s+[a-z]{2}-[a-z]+-\d\s+and\s+[a-z]{2}-[a-z]+-\d\b",
        ),
    ),
    "codebases": (
        "whether the apps share one codebase",
        (
            "native",
            r"\bfully\s+native\b|\bnative\s+(?:android|ios)\s+apps?\b|\bseparate\s+native\s+apps?\b",
        ),
        (
            "shared",
            r"\bcross[- ]platform\b|\b(?:one|single|shared)\s+(?:[\w-]+\s+)?codebase\b",
        ),
    ),
    "repositories": (
        "whether the code lives in one repository",
        ("mono", r"\bmono[- ]?repo\b|\b(?:single|one)\s+(?:git\s+)?repo(?:sitory)?\b"),
        (
            "poly",
            r"\b(?:its|their)\s+own\s+(?:git\s+)?repo(?:sitory)?\b|\bpoly[- ]?repo\b"
            r"|\bseparate\s+(?:git\s+)?repo(?:sitorie)?s\b",
        ),
    ),
    "deployables": (
        "whether it is one deployable or separate services",
        (
            "monolith",
            r"\bmonolith(?:ic)?\b|\b(?:single|one)\s+deployable\b",
        ),
        (
            "services",
            r"\bmicro[- ]?services?\b|\bseparate\s+(?:[\w-]+\s+)?services\b"
            r"|\b(?:independently\s+deployed|deployed\s+independently)\b"
            r"|\b(?:its|their)\s+own\s+deploy(?:ment)?\s+pipeline",
        ),
    ),
    "netcode": (
        "whether a server holds the authoritative state",
        (
            "server",
            r"\bserver\s+is\s+authoritative\b|\bserver[- ]authoritative\b"
            r"|(?<!no )\bdedicated\s+server\b|\bvalidated?\s+[\w ]{0,30}server[- ]side\b",
        ),
        (
            "peers",
            r"\bpeer[- ]to[- ]peer\b|\bp2p\b|\blockstep\b|\bno\s+dedicated\s+server\b"
            r"|\btaken\s+from\s+the\s+client\s+as[- ]is\b",
        ),
    ),
    "scheduling": (
        "whether the firmware runs an RTOS",
        (
            "bare",
            r"\bbare[- ]metal\b[^.;]{0,40}\b(?:loop|firmware)|\bsuper[- ]?loop\b|\bno\s+rtos\b",
        ),
        ("rtos", r"\brtos\s+tasks?\b|\b(?:freertos|zephyr|threadx)\b"),
    ),
    "containers": (
        "whether it runs in containers",
        (
            "containers",
            r"\b(?:kubernetes|k8s|eks|gke|aks|ecs|fargate|pods?|containers?|docker(?:-compose)?)\b",
        ),
        (
            "none",
            r"\bno\s+containers\b|\bnot\s+containeri[sz]ed\b|\bwithout\s+(?:docker|containers)\b",
        ),
    ),
    "work": (
        "whether the work is done in the request or in the background",
        (
            "inline",
            r"\b(?:in|inside|within|during)\s+the\s+request(?:\s+cycle|\s+handler)?\b"
            r"|\bpersisted\s+immediately\b|\bflushed\s+on\s+every\b",
        ),
        (
            "background",
            r"\bbackground\s+(?:jobs?|tasks?|workers?)\b|\bbatched\b",
        ),
    ),
}

_POLES = {
    axis: tuple((pole, guarded(pattern, re.I)) for pole, pattern in poles)
    for axis, (_, *poles) in _AXES.items()
}
_QUESTIONS = {axis: question for axis, (question, *_) in _AXES.items()}
# What makes a note about a product exclusive: "the only warehouse we run".
_EXCLUSIVE = guarded(
    r"\b(?:only|sole|solely|single|exclusively|entirely|no\s+other|nothing\s+else|"
    r"all\s+(?:of\s+)?(?:our|the))\b",
    re.I,
)
# Words that name no particular thing: sharing one says nothing of two notes' subject.
_GENERIC = content_words(
    "app apps application service services microservice microservices system code project"
    " team thing way data user users server servers client clients product stack whole"
    " each every all both single one other fully entirely doing depend depends talk talks"
    " run runs running use uses using built written"
)


def first_pole(axis: str) -> str:
    """The first pole of an axis: a design is paired by its axis, one pole with the other."""
    return _AXES[axis][1][0]


@functools.lru_cache(maxsize=1 << 14)
def designs(text: str) -> tuple[tuple[str, str, str], ...]:
    """(axis, pole, the words that stated it) of each design a note states; an axis it
    holds both ways (a history, a mix) it states neither way."""
    found = []
    for axis, poles in _POLES.items():
        said = []
        for pole, pattern in poles:
            m = pattern.search(text)
            if m is not None:
                said.append((axis, pole, m.group(0)))
        if len(said) == 1:
            found.append(said[0])
    return tuple(found)


def other_designs(a: Claim, b: Claim) -> str | None:
    """Two notes about one thing holding other poles of one design axis ("one Django
    monolith" / "each runs as its own independently deployed service"): asked, never
    decided."""
    if not (a.designs and b.designs):
        return None
    theirs = {axis: (pole, words) for axis, pole, words in b.designs}
    for axis, pole, words in a.designs:
        other = theirs.get(axis)
        if other is not None and other[0] != pole and _one_thing(a, b, words, other[1]):
            return _QUESTIONS[axis]
    return None


# The language a thing is written in, as notes state it: "written in Go", "a Rust binary",
# "the CLI itself is Rust", "pure GDScript". "Go" only with its capital: "go" is a verb.
_LANGUAGES = (
    r"python|(?-i:Go)|golang|rust|java|kotlin|swift|typescript|javascript|ruby|php|elixir|"
    r"scala|c#|c\+\+|gdscript|dart|haskell|clojure|erlang|lua|zig|ocaml|f#"
)
_LANGUAGE = re.compile(
    rf"\b(?:written|implemented|coded|built)\s+(?:entirely\s+|purely\s+|mostly\s+)?in\s+"
    rf"(?P<a>{_LANGUAGES})(?![\w+#:/-])"
    rf"|\b(?:a|an|the|pure|plain|in)\s+(?P<b>{_LANGUAGES})\s+(?:binary|service|app|cli|"
    r"codebase|library|module|program|server|crate|package|project)\b"
    rf"|\b(?:is|are)\s+(?:pure\s+|plain\s+|all\s+)?(?P<c>{_LANGUAGES})(?![\w+#:/-]|\.\w|\s+\d)"
    rf"|\bpure\s+(?P<d>{_LANGUAGES})(?![\w+#:/-])",
    re.I,
)
_SAME_LANGUAGE = {"golang": "go"}


@functools.lru_cache(maxsize=1 << 14)
def languages(text: str) -> frozenset[str]:
    """The languages a note says something is written in (``_LANGUAGE``)."""
    found = set()
    for m in _LANGUAGE.finditer(text):
        name = next(g for g in m.groups() if g is not None).lower()
        found.add(_SAME_LANGUAGE.get(name, name))
    return frozenset(found)


def rival_products(a: Claim, b: Claim) -> str | None:
    """Two notes about one thing naming other products of one family, each one only
    ("the sensor firmware runs on Zephyr" / "... is built on FreeRTOS"): asked, never
    decided. For a family whose products are used side by side (databases, brokers,
    linters), only when one note says its product is the only one."""
    mine, theirs = a.products, b.products
    if not (mine and theirs):
        return None
    for family in sorted(mine.keys() & theirs.keys()):
        x, y = mine[family], theirs[family]
        if not (_one(x) and _one(y)) or any(one_thing(p, q) for p in x for q in y):
            continue
        if family in MANY_VALUED and not (
            _EXCLUSIVE.search(a.text) or _EXCLUSIVE.search(b.text) or _named_both(a.text, b.text)
        ):
            continue
        if family in MANY_VALUED and (MANY_MARK.search(a.text) or MANY_MARK.search(b.text)):
            continue  # "MySQL 8 is also supported": one of several
        if _one_thing(a, b, _first_named(a.text, x), _first_named(b.text, y)):
            return f"which {family.replace('-', ' ')} it uses"
    return None


# A name of the project's own in a note: in backticks, or a word with the marks of an
# identifier ("auth-service", "nightly_etl", "orders.v1").
_IDENTIFIER = re.compile(r"`([^`]{2,60})`|(?<![\w`])([a-z][\w]*[-_.][\w.-]*[a-z0-9])(?![\w`])")


def _named_both(one: str, other: str) -> bool:
    """Whether both notes name one thing of the project's own ("`nightly-etl`"): then
    two products of a family used side by side are for that one thing."""

    def names(text: str) -> set[str]:
        found = (m.group(1) or m.group(2) for m in _IDENTIFIER.finditer(text))
        return {re.sub(r"[`\s]", "", n.lower()).replace("_", "-") for n in found}

    return bool(names(one) & names(other))


def _first_named(text: str, products: frozenset[str]) -> str:
    """The words of ``text`` that name the first of ``products`` it names."""
    low = text.lower()
    places = [low.find(p) for p in products if p in low]
    at = min(places) if places else len(text)
    return text[at : at + max(map(len, products))]


def _one(products: frozenset[str]) -> bool:
    """Whether the products a note names in one family are one thing ("RDS Postgres")."""
    return all(one_thing(p, q) for p in products for q in products)


def _one_thing(a: Claim, b: Claim, mine: str, theirs: str) -> bool:
    """Whether two notes are about one thing: neither environments or variants apart, nor
    subjects apart (``_subject``), ``mine`` and ``theirs`` being the words that state what
    each holds."""
    if other_variants(a.text, b.text):
        return False
    if _PAST.search(a.text) or _PAST.search(b.text):
        return False  # what was ("we used to deploy with Capistrano") holds beside what is
    (x, said_x), (y, said_y) = _subject(a.text, mine), _subject(b.text, theirs)
    x, y = x - a.product_words, y - b.product_words
    if x & y:  # one thing, unless each narrows it by a word the other never says
        return not kinds_apart(said_x, said_y)  # "transactional e-mail" / "marketing e-mail"
    if not (x and y) or x & b.words or y & a.words:
        return True
    # each names its own thing, and never the other's ("the admin panel" / "the storefront"),
    # unless both name one thing in other words ("the customer frontend" / "the web client")
    return bool(kinds(said_x)[0] & kinds(said_y)[0])


_PAST = guarded(
    r"\b(?:used\s+to|originally|formerly|previously|in\s+the\s+past|back\s+then|"
    r"before\s+(?:the\s+move|we\s+moved|\d{4})|until\s+(?:\d{4}|last|we))\b",
    re.I,
)
# Where a clause's subject ends: its verb ("the web app | is deployed to Vercel").
_VERB = re.compile(
    r"\s(?:is|are|was|were|has|have|had|gets?|runs?|uses?|lives?|goes|sits|deployed|built|"
    r"written|served|hosted|talks?|calls?|depends?|keeps?|reads?|writes?|sends?|comes?|"
    r"points?|owns?|share[sd]?|queries|doing)\b",
    re.I,
)
_CLAUSE = re.compile(r"[.;:!?\u2014(]\s|\s[-\u2013]\s|,\s(?:and|but|so|while)\s")


def _subject(text: str, stated: str) -> tuple[frozenset[str], str]:
    """What a note says the design or product is of: the content words of its clause
    before the words that state it, without the generic ones ("the shop backend is a
    single Django monolith": shop, backend), and that part of the clause."""
    at = text.find(stated)
    if at < 0:
        return frozenset(), ""
    before = _VERB.split(_CLAUSE.split(text[:at])[-1], maxsplit=1)[0]
    return content_words(before) - _GENERIC - content_words(stated), before
