"""The code side of the experiment: a private working copy, snapshots of its commits, and
what the code says about each fact (the proxy agents' "code evidence" and label validation).

This is the agent reading the code, not the memory: it uses ``anchors`` directly (the
fingerprint and anchor verdicts) plus a plain regular-expression search, and never goes
through the memory server.

A check is one line of a fact's ``check`` list:

    file:PATH, symbol:PATH::Qual.name, import:MODULE[@PATH], env:NAME, dep:NAME
                        an anchor (see README "Anchor syntax"), verdict from the fingerprint
    grep:PATH::REGEX    the Python regular expression matches somewhere in PATH (a file,
                        a directory, or "." for the whole repository)
    !...                expected absent

An unscoped ``import:`` check is scoped to the fact's subject when the subject is a path of
the repository ("billing uses sqlite3" is about billing). A fact's evidence is
``contradicts`` when any check is broken, ``supports`` when every check holds, and
``silent`` otherwise (no checks, or checks the code cannot answer).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.spec import Anchor, AnchorKind, AnchorSyntaxError, Expect, parse_anchor
from anchors.subject import apply_scope
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from experiments.errors import EXIT_USAGE, ExperimentError
from experiments.facts import Fact, FactsError
from experiments.fixture import build_fixture
from experiments.scratch import git

__all__ = [
    "Check",
    "CheckSyntaxError",
    "Evidence",
    "Exclusion",
    "Snapshot",
    "Workspace",
    "evaluate",
    "fact_evidence",
    "parse_check",
    "validate_facts",
]

SUPPORTS, CONTRADICTS, SILENT = "supports", "contradicts", "silent"
_MAX_GREP_BYTES = 2_000_000


class CheckSyntaxError(FactsError):
    """A fact's check (an anchor or ``grep:PATH::REGEX``) is malformed."""


@dataclass(frozen=True)
class Check:
    text: str
    anchor: Anchor | None = None
    path: str | None = None  # grep: a file, a directory, or "." (everything)
    pattern: re.Pattern[str] | None = None
    negated: bool = False


def parse_check(text: str) -> Check:
    raw = text.strip()
    body = raw[1:].strip() if raw.startswith("!") else raw
    if body.startswith("grep:"):
        path, sep, regex = body[len("grep:") :].partition("::")
        path = path.strip().strip("/") or "."
        if not sep or not regex:
            raise CheckSyntaxError(f"{text!r}: expected grep:PATH::REGEX")
        try:
            pattern = re.compile(regex, re.MULTILINE)
        except re.error as exc:
            raise CheckSyntaxError(f"{text!r}: bad regular expression ({exc})") from None
        return Check(raw, path=path, pattern=pattern, negated=raw.startswith("!"))
    try:
        return Check(raw, anchor=parse_anchor(raw))
    except AnchorSyntaxError as exc:
        raise CheckSyntaxError(f"{text!r}: {exc}") from None


@dataclass
class Snapshot:
    """The code at one commit: its fingerprint, and file text on demand (for grep)."""

    commit: str
    fp: Fingerprint
    source: CodeSource
    _texts: dict[str, str | None] = field(default_factory=dict)

    def texts(self, paths: Iterable[str]) -> dict[str, str]:
        wanted = [p for p in paths if p not in self._texts]
        blobs = {p: self.fp.blobs[p] for p in wanted if p in self.fp.blobs}
        data = self.source.repo.read_blobs(sorted(set(blobs.values()))) if blobs else {}
        for path in wanted:
            raw = data.get(blobs.get(path, ""), None)
            text = None
            if raw is not None and len(raw) <= _MAX_GREP_BYTES and b"\0" not in raw[:8000]:
                text = raw.decode("utf-8", errors="replace")
            self._texts[path] = text
        return {p: t for p in paths if (t := self._texts.get(p)) is not None}

    def under(self, path: str) -> list[str]:
        if path == ".":
            return sorted(self.fp.blobs)
        prefix = path + "/"
        return sorted(p for p in self.fp.blobs if p == path or p.startswith(prefix))


def evaluate(check: Check, snap: Snapshot, subject: str | None = None) -> tuple[Verdict, str]:
    """One check at one snapshot: holds, broken or unknown, with a sentence saying why."""
    if check.anchor is not None:
        anchor = check.anchor
        if subject:
            anchor = apply_scope((anchor,), subject, snap.fp)[0]
        result = check_anchor(anchor, None, snap.fp)
        verdict = Verdict.HOLDS if result.verdict is Verdict.DRIFTED else result.verdict
        return verdict, f"{anchor.render()}: {result.detail}"
    assert check.path is not None and check.pattern is not None
    paths = snap.under(check.path)
    hits = [p for p, text in snap.texts(paths).items() if check.pattern.search(text)]
    where = "the repository" if check.path == "." else check.path
    if not paths:
        found, detail = False, f"{where} is not in the repository"
    elif hits:
        found, detail = True, f"/{check.pattern.pattern}/ found in {', '.join(hits[:3])}"
    else:
        found, detail = False, f"/{check.pattern.pattern}/ not found in {where}"
    holds = found != check.negated
    return (Verdict.HOLDS if holds else Verdict.BROKEN), f"{check.text}: {detail}"


@dataclass(frozen=True)
class Evidence:
    verdict: str  # supports / contradicts / silent
    detail: str


def fact_evidence(fact: Fact, snap: Snapshot) -> Evidence:
    """What the code at ``snap`` says about ``fact`` (from its ``check`` list)."""
    if not fact.check:
        return Evidence(SILENT, "no code check names anything this claim depends on")
    results = [evaluate(parse_check(c), snap, fact.subject) for c in fact.check]
    broken = [d for v, d in results if v is Verdict.BROKEN]
    if broken:
        return Evidence(CONTRADICTS, "; ".join(broken))
    if all(v is Verdict.HOLDS for v, _ in results):
        return Evidence(SUPPORTS, "; ".join(d for _, d in results))
    return Evidence(SILENT, "; ".join(d for v, d in results if v is Verdict.UNKNOWN))


# -- the working copy ------------------------------------------------------------------------
class Workspace:
    """A private git working copy the experiment may check out at will: the fixture, or a
    shared clone of the repository under test (the original is never touched). It is left
    detached at ``head``, the commit every fact is judged at."""

    def __init__(self, root: Path, head: str, tags: dict[str, str], origin: str) -> None:
        self.root = root
        self.head = head
        self.tags = tags
        self.origin = origin
        self._source: CodeSource | None = None  # opened on the first snapshot
        self._snapshots: dict[str, Snapshot] = {}

    @classmethod
    def fixture(cls, into: Path) -> Workspace:
        tags = build_fixture(into)
        head = git(into, "rev-parse", "HEAD")
        git(into, "checkout", "-q", "--detach", head)
        return cls(into, head, tags, "fixture")

    @classmethod
    def clone(cls, repo: Path, into: Path) -> Workspace:
        try:
            top = git(repo, "rev-parse", "--show-toplevel")
            head = git(repo, "rev-parse", "--verify", "HEAD^{commit}")
        except (subprocess.CalledProcessError, OSError):
            raise ExperimentError(
                f"{repo} is not a git repository with a commit", EXIT_USAGE
            ) from None
        git(into.parent, "clone", "-q", "--shared", "--no-checkout", "--", top, str(into))
        git(into, "checkout", "-q", "--detach", head)
        return cls(into, head, {}, str(Path(top).resolve()))

    def resolve(self, rev: str) -> str | None:
        """The commit ``rev`` names (a sha, a tag, a branch of the original repository,
        ``HEAD~2``...), or None."""
        if rev.startswith("-"):
            return None
        # The original first: its branches are not local branches of the clone.
        places = [self.root] if self.origin == "fixture" else [Path(self.origin), self.root]
        for place in places:
            try:
                verify = ("rev-parse", "--verify", "--quiet", "--end-of-options")
                return git(place, *verify, f"{rev}^{{commit}}")
            except subprocess.CalledProcessError:
                continue
        return None

    def checkout(self, commit: str) -> None:
        git(self.root, "checkout", "-q", "--force", "--detach", commit)

    def snapshot(self, commit: str) -> Snapshot:
        """The code at ``commit`` (checks it out to fingerprint it, then returns to HEAD)."""
        if commit not in self._snapshots:
            if self._source is None:
                self._source = CodeSource(self.root, InMemoryFactsCache())
            self.checkout(commit)
            try:
                fp = self._source.fingerprint(overlay=False)
            finally:
                if commit != self.head:
                    self.checkout(self.head)
            self._snapshots[commit] = Snapshot(commit, fp, self._source)
        return self._snapshots[commit]

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.root, ignore_errors=True)


# -- label validation ----------------------------------------------------------------------
@dataclass(frozen=True)
class Exclusion:
    fact: Fact
    reason: str

    def view(self) -> dict[str, object]:
        return {**self.fact.summary(), "reason": self.reason}


def _symbols(fact: Fact) -> list[Anchor]:
    found = []
    for text in (*fact.check, *fact.anchors):
        try:
            anchor = parse_anchor(text)
        except AnchorSyntaxError:
            continue
        if anchor.kind is AnchorKind.SYMBOL and anchor.expect is Expect.PRESENT:
            found.append(anchor)
    return found


def _body(fp: Fingerprint, anchor: Anchor) -> str | None:
    if anchor.scope is not None:
        definition = fp.definition(anchor.scope, anchor.value)
        return definition.body_hash if definition else None
    found = fp.definitions(anchor.value)
    return found[0][1].body_hash if len(found) == 1 else None


def _mentions(snap: Snapshot, words: Sequence[str]) -> list[tuple[str, str]]:
    texts = snap.texts(snap.under("."))
    hits = []
    for word in words:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", re.IGNORECASE)
        where = next((p for p, t in texts.items() if pattern.search(t)), None)
        if where is not None:
            hits.append((word, where))
    return hits


def _trap_reason(fact: Fact, head: Snapshot) -> str | None:
    """A false present-trap must name a token the subject lacks but another file has."""
    for text in fact.check:
        check = parse_check(text)
        anchor = check.anchor
        if anchor is None or anchor.expect is Expect.ABSENT:
            continue
        if fact.subject:
            anchor = apply_scope((anchor,), fact.subject, head.fp)[0]
        if anchor.scope is None or anchor.kind not in (AnchorKind.IMPORT, AnchorKind.SYMBOL):
            continue
        scoped = check_anchor(anchor, None, head.fp).verdict
        anywhere = Anchor(anchor.kind, anchor.value, Expect.PRESENT)
        if scoped is Verdict.BROKEN and check_anchor(anywhere, None, head.fp).verdict in (
            Verdict.HOLDS,
            Verdict.DRIFTED,
        ):
            return None
    return (
        "not a present-trap: no check names a module or definition that another file has "
        "but the subject lacks"
    )


def validate_facts(
    facts: Sequence[Fact], ws: Workspace
) -> tuple[list[Fact], list[Exclusion], dict[str, str], dict[str, Evidence]]:
    """Check every label against the code. Returns the facts kept, the exclusions (with
    reasons), the commit each fact is remembered at, and each kept fact's evidence at HEAD.
    """
    head = ws.snapshot(ws.head)
    kept: list[Fact] = []
    excluded: list[Exclusion] = []
    commits: dict[str, str] = {}
    evidence: dict[str, Evidence] = {}
    claims: dict[str, str] = {}
    for fact in facts:
        reason = _exclusion(fact, ws, head, claims, commits, evidence)
        if reason is None:
            kept.append(fact)
            claims[" ".join(fact.claim.split()).casefold()] = fact.id
        else:
            excluded.append(Exclusion(fact, reason))
            commits.pop(fact.id, None)
            evidence.pop(fact.id, None)
    return kept, excluded, commits, evidence


def _exclusion(
    fact: Fact,
    ws: Workspace,
    head: Snapshot,
    claims: dict[str, str],
    commits: dict[str, str],
    evidence: dict[str, Evidence],
) -> str | None:
    key = " ".join(fact.claim.split()).casefold()
    if key in claims:
        return f"the same claim as fact {claims[key]} (remember would store it once)"
    for text in fact.anchors:
        try:
            parse_anchor(text)
        except AnchorSyntaxError as exc:
            return f"invalid anchor {text!r}: {exc}"
    for text in fact.check:
        try:
            parse_check(text)
        except CheckSyntaxError as exc:
            return f"invalid check {exc}"
    commit = ws.head
    if fact.commit is not None:
        found = ws.resolve(fact.commit)
        if found is None:
            return f"commit {fact.commit!r} is not a revision of the repository"
        commit = found
    commits[fact.id] = commit
    ev = fact_evidence(fact, head)
    evidence[fact.id] = ev
    label = "true" if fact.truth else "false"
    if fact.category == "silent":
        if ev.verdict != SILENT:
            return f"labelled silent, but the code {ev.verdict} it at HEAD: {ev.detail}"
        mentioned = _mentions(head, fact.unmentioned)
        if mentioned:
            said = ", ".join(f"{w!r} in {p}" for w, p in mentioned)
            return f"labelled silent, but the repository mentions {said}"
    elif fact.check:
        if ev.verdict == (CONTRADICTS if fact.truth else SUPPORTS):
            return f"labelled {label}, but the code {ev.verdict} it at HEAD: {ev.detail}"
        if ev.verdict == SILENT:
            return f"labelled {label}, but its checks cannot decide at HEAD: {ev.detail}"
    if fact.category == "temporal":
        if fact.commit is None or commit == ws.head:
            return "a temporal fact needs a commit before HEAD"
        if fact.truth:
            return "labelled true, but a temporal fact is true earlier and false at HEAD"
        earlier = fact_evidence(fact, ws.snapshot(commit))
        if earlier.verdict != SUPPORTS:
            return f"temporal, but not true at {fact.commit}: {earlier.detail}"
    if fact.category == "drift":
        if fact.commit is None or commit == ws.head:
            return "a drift fact needs the commit its memory was written at"
        then = ws.snapshot(commit)
        bodies = [(_body(then.fp, s), _body(head.fp, s)) for s in _symbols(fact)]
        rewritten = [b for b in bodies if None not in b and b[0] != b[1]]
        if not rewritten:
            return f"drift, but no symbol it names was rewritten between {fact.commit} and HEAD"
    if fact.category == "present_trap" and not fact.truth:
        return _trap_reason(fact, head)
    return None
