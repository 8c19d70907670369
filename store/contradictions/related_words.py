"""Words two notes about one thing may use for it though they share none: a few generic
names of one thing ("chats" / "conversations", "build agents" / "CI runners"), an
acronym and the words it stands for ("OKRs" / "objectives and key results"), and the
forms of one word recall's stemmer keeps apart ("classifier" / "classification",
"deployment" / "deployed").

``related`` reads them to hand the agent a candidate; nothing is decided from them. The
table holds only names that programmers use for one thing in any project ("endpoint" /
"route", "host" / "machine"), never a product (``families`` holds those). Pure
functions; no database.
"""

from __future__ import annotations

import functools
import re

from store.search import memory_terms
from store.text import STOP

__all__ = ["acronyms", "groups_of", "initials", "root", "runs", "spelled", "synonyms_of"]

# Generic names of one thing: a note saying one of them is about what a note saying
# another is about. Each line one group; a name of several words is a phrase.
_GROUPS = """
chat, conversation, thread
meeting, call, huddle, sync, standup
mobile, ios, android, iphone, phone
runner, build agent, ci agent
load balancer, alb, elb
traffic, requests
rollout, deploy, release
repo, repository, monorepo
endpoint, route, api route, url, handler
payload, request body, body, request size
frontend, front end, web client, web app, web ui, spa, single-page app, website
backend, back end, api server, server side
service, microservice, svc
database, db, datastore, data store, rds, schema
table, tables, collection
host, machine, server, vm, virtual machine, instance, box
container, pod, docker container
image, container image, docker image, base image
cluster, kubernetes, k8s, eks, gke, aks
job, task, cron job, cronjob, scheduled task, schedule, crontab
queue, topic, stream, event bus, message bus, broker
event, message
worker, consumer, processor
pipeline, workflow, ci, ci pipeline
test suite, tests, specs, test run
config, configuration, settings, config file, settings file
env var, environment variable
secret, credential, credentials, api key, token
auth, authentication, login, sign in, signin, log in
permission, role, privilege
admin, administrator, superuser, back office, admin panel, admin ui, dashboard
password, passphrase, passcode
one-time password, otp, verification code, 2fa, mfa, two-factor
session, login session
cookie, session cookie
log, logs, logging, log lines
metrics, telemetry, monitoring, observability
trace, traces, tracing, span
alert, alerts, alerting, paging, pager
on-call, on call, oncall, pager rotation, rotation
error, exception, crash, failure
incident, outage
postmortem, post-mortem, incident review, rca, root cause analysis
timeout, time limit, deadline
retry, retries, attempt, attempts, tries
rate limit, throttle, throttling, throttled
upload, attachment, file upload
cli, command line, command-line tool, terminal tool
binary, executable, exe
package, library, dependency, dependencies, deps, module
lockfile, lock file
branch, branches
pull request, pr, merge request, mr
review, code review, approval, approve, sign-off, signoff
release manager, release captain, release owner
hotfix, hot fix, patch release, emergency fix
retro, retrospective
ticket, issue, bug, tracker
docs, documentation, doc site, wiki, handbook
dataset, training data, corpus, data set
gpu, accelerator
inference, serving, prediction, predictions
checkpoint, weights, snapshot
notification, push, push notification
email, e-mail, mail, newsletter
sms, text message
webhook, callback
bundle, bundler, build output, assets, static files, static assets
cdn, edge, edge cache
certificate, cert, tls, ssl
backup, backups, snapshot, dump
replica, read replica, follower, standby, secondary
shard, partition
feature flag, flag, toggle, kill switch
analytics, tracking, telemetry, usage stats, usage data
expiry, expiration, expires, expire, ttl, time to live, lifetime
learning rate, lr
payment, payments, billing, checkout, invoice
tenant, organization, org, workspace, account
team, squad, guild
lead, tech lead, manager, engineering manager
owner, owns, maintainer, maintains, responsible
migration, schema change, migrate
eviction, evict, evicted, maxmemory-policy, noeviction
cache, caching, cached, memoize
indentation, indent, indent_style, indent size, tabs, usetabs, tab width, tabwidth
sprint, iteration, sprints, iterations
"""


def _group_terms(line: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(memory_terms(name)) for name in line.split(",") if name.strip())


_LINES = _GROUPS.strip().splitlines()
_TABLE = tuple(_group_terms(line) for line in _LINES)
# Each group by its first name as written ("group:one-time password"), a term of its own
_MEMBERS = {
    "group:" + line.split(",")[0].strip(): group
    for line, group in zip(_LINES, _TABLE, strict=True)
}


@functools.lru_cache(maxsize=1 << 14)
def synonyms_of(terms: frozenset[str]) -> frozenset[str]:
    """The terms of the other names of each group ``terms`` names (a phrase by all its
    words), less ``terms`` themselves."""
    named = groups_of(terms)[0]
    found = {t for group in named for name in _MEMBERS[group] for t in name}
    return frozenset(found - terms)


@functools.cache
def _by_first_term() -> dict[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """Each name's first term -> (the group's term, the name) of every name it starts."""
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for key, group in _MEMBERS.items():
        for name in group:
            if name:
                found.setdefault(name[0], []).append((key, name))
    return {first: tuple(names) for first, names in found.items()}


@functools.lru_cache(maxsize=1 << 14)
def groups_of(terms: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The groups ``terms`` name a member of (a phrase by all its words), as terms named
    by the group's first name (``group:endpoint``), and the terms that named one by
    itself ("route"): two notes naming one thing in other words share its group."""
    found: set[str] = set()
    naming: set[str] = set()
    index = _by_first_term()
    for term in terms:
        for group, name in index.get(term, ()):
            if len(name) == 1:
                found.add(group)
                naming.add(term)
            elif set(name) <= terms:
                found.add(group)
    return frozenset(found), frozenset(naming)


# Derivational endings recall's stemmer keeps: "classifier", "classification" and
# "classify" are one word to a reader.
_ENDINGS = re.compile(r"(?:ification|ifier|ifies|ify|ified)$")
# ... and those that make a noun or an adjective of a verb: "deployment", "deployable"
_VERB_ENDINGS = re.compile(r"(?:ments?|abl|ibl)$")


def root(term: str) -> str:
    """A stemmed term without a derivational ending of ``_ENDINGS`` ("classif") or
    ``_VERB_ENDINGS`` ("deploy" of "deployment")."""
    bare = _VERB_ENDINGS.sub("", _ENDINGS.sub("if", term))
    return bare if len(bare) > 4 else term


# An acronym as written: two to five capitals, a plural "s" after them ("OKRs", "ALB").
_ACRONYM = re.compile(r"\b([A-Z]{2,5})s?\b")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_INSIDE = frozenset({"and", "of", "to", "for", "&"})  # words an acronym may skip or keep


@functools.lru_cache(maxsize=1 << 14)
def acronyms(text: str) -> frozenset[str]:
    """The acronyms ``text`` writes in capitals, folded ("okr")."""
    return frozenset(a.casefold() for a in _ACRONYM.findall(text))


@functools.lru_cache(maxsize=1 << 14)
def initials(text: str) -> frozenset[str]:
    """The acronyms runs of two to five words of ``text`` would make, folded: "objectives
    and key results" makes "okr" (the "and" skipped) and "time to live" "ttl" (kept).
    Stop words other than ``_INSIDE`` end a run; a run's acronym that is itself a stop
    word is left out."""
    found: set[str] = set()
    run: list[str] = []
    for word in [*_WORD.findall(text), "."]:
        low = word.casefold()
        if (low in STOP and low not in _INSIDE) or word == ".":
            found |= _run_initials(run)
            run = []
        else:
            run.append(low)
    found |= _run_initials(run)
    return frozenset(a for a in found if a not in STOP)


def spelled(text: str, wanted: frozenset[str]) -> frozenset[str]:
    """The acronyms of ``wanted`` that ``text``'s words spell: ``wanted & initials(text)``,
    reading only the runs that could make one of them. A new note writes an acronym or
    two, and the stored notes it meets are many: their every acronym is not needed."""
    targets = frozenset(a for a in wanted if 2 <= len(a) <= 5 and a not in STOP)
    if not targets:
        return frozenset()
    prefixes = frozenset(a[:n] for a in targets for n in range(1, len(a) + 1))
    found: set[str] = set()
    for run in runs(text):
        for start, first in enumerate(run):
            if first[0] in prefixes and first not in _INSIDE:
                _spell_from(run, start, prefixes, targets, found)
    return frozenset(found)


@functools.lru_cache(maxsize=1 << 14)  # a stored note is met by many new ones
def runs(text: str) -> tuple[tuple[str, ...], ...]:
    """The runs of two words or more of ``text`` that ``initials`` reads, folded."""
    found: list[tuple[str, ...]] = []
    run: list[str] = []
    for word in [*_WORD.findall(text), "."]:
        low = word.casefold()
        if (low in STOP and low not in _INSIDE) or word == ".":
            if len(run) > 1:
                found.append(tuple(run))
            run = []
        else:
            run.append(low)
    return tuple(found)


def _spell_from(
    run: tuple[str, ...],
    start: int,
    prefixes: frozenset[str],
    targets: frozenset[str],
    found: set[str],
) -> None:
    """Add to ``found`` what ``_run_initials`` reads from ``start`` that is one of
    ``targets``, given every prefix of them: letters no prefix of one never grow into one."""
    kept: str | None = ""
    skipped: str | None = ""
    for word in run[start : start + 7]:
        inside = word in _INSIDE
        if kept is not None:
            kept += word[0]
            if kept not in prefixes:
                kept = None
        if skipped is not None and not inside:
            skipped += word[0]
            if skipped not in prefixes:
                skipped = None
        if kept is None and skipped is None:
            return
        if not inside:
            if kept is not None and kept in targets and len(kept) > 1:
                found.add(kept)
            if skipped is not None and skipped in targets and len(skipped) > 1:
                found.add(skipped)


def _run_initials(run: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(len(run)):
        if run[start] in _INSIDE:
            continue
        kept, skipped = "", ""
        for end in range(start, min(len(run), start + 7)):
            word = run[end]
            kept += word[0]
            if word not in _INSIDE:
                skipped += word[0]
            if end > start and run[end] not in _INSIDE:
                for letters in (kept, skipped):
                    if 2 <= len(letters) <= 5:
                        found.add(letters)
    return found
