"""A status a note denies without naming a function: "The router never writes a 405
itself; a method mismatch falls through to NotFoundHandler", "mux.go never answers 405".

It is read as ``!status:[PATH::]*=NNN``: no function (``ANY``) of the file the clause
names, or of the project's code when the clause is about the project as a whole, sets
NNN. Any function that sets that status literally refutes it, and the receipt names the
file, the line and the function. None setting it proves nothing (a helper, a framework, a
status computed at run time may set it): unknown, never VERIFIED from a scan.

The project is the subject only when the clause says so: "the router", "the server",
"the library", the project's own name; "the login view never returns 403" is about one
view, which a status another view writes does not refute, so it is not read.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.finding import Finding
from anchors.http_status import StatusFact
from anchors.mentions import runs
from anchors.spec import Anchor, Expect
from anchors.subject import CODE_FILE, clause_before, resolve_name

__all__ = ["ANY", "find_anywhere", "sets_anywhere", "unnamed_subject"]

ANY = "*"  # the function of a ``status:`` anchor about every function of its place

# Nouns a note calls the whole project by ("the router" of a routing library).
# No word may stand before the noun: "the billing service", "the admin app" are parts.
_WHOLE = "router|server|service|app|application|api|library|crate|project|codebase|framework"
_SUBJECT = re.compile(rf"^\s*(?:the|this|our)\s+(?:{_WHOLE})(?:\s+itself)?\s*$", re.IGNORECASE)
_OWN = re.compile(r"^\s*`?(?P<name>[\w-]+)`?\s*$")
# What stands before the negation: "never" / "doesn't" and the like (``status_claims``).
_NEGATION = re.compile(r"\s*\b(?:never|not|no\s+longer|(?:does|do|did|will|can)n[’']t|cannot|"
                       r"won[’']t|does\s+not|do\s+not)\b.*$", re.IGNORECASE)  # fmt: skip
# Test code answers whatever a test needs; it is not what the project answers.
_TEST_NAME = re.compile(
    r"(?:.*/)?(?:__tests__|benches)/.*|"
    r".*(?:_test\.go|\.(?:test|spec)\.[cm]?[jt]sx?|(?:^|/)tests?\.rs)$"
)


def unnamed_subject(sentence: str, at: int, fp: Fingerprint,
                    own: frozenset[str]) -> tuple[str, str | None] | None:  # fmt: skip
    """(``ANY``, the file or None for the project) a negated status at ``at`` is said of,
    when the words before it are a file's name or the project's ("the router", ``own``:
    the names of the project's own packages); None otherwise."""
    clause = clause_before(sentence, 0, at)
    subject = _NEGATION.sub("", clause)
    files = [m["path"] for m in CODE_FILE.finditer(subject)]
    if len(files) == 1 and subject.strip(" `").endswith(files[0]):
        path = resolve_name(files[0], fp)
        return (ANY, path) if path is not None and path in fp.code else None
    if files:
        return None
    named = _OWN.match(subject)
    if _SUBJECT.match(subject) or (named is not None and named["name"] in own):
        return ANY, None
    return None


def _area(fp: Fingerprint, scope: str | None) -> list[str]:
    """The files a status said of ``scope`` (a file, or None: the project) is looked for in."""
    if scope is not None:
        scope = fp.tracked_path(scope) or scope
        return [scope] if scope in fp.code else []
    return sorted(p for p in fp.code if runs(p) and not _TEST_NAME.fullmatch(p))


def _setting(fp: Fingerprint, scope: str | None, status: int) -> list[tuple[str, StatusFact]]:
    return [(path, s) for path in _area(fp, scope) for s in fp.code[path].statuses
            if s.status == status and (scope is not None or not _in_tests(s.function))]  # fmt: skip


def _in_tests(function: str) -> bool:
    """Whether ``function`` is in a test module inside a source file (Rust's ``mod tests``)."""
    return function.split(".", 1)[0] in ("tests", "test")


def sets_anywhere(fp: Fingerprint, scope: str | None, status: int) -> bool:
    """Whether some function of the place sets ``status`` literally."""
    return bool(_setting(fp, scope, status))


def find_anywhere(anchor: Anchor, fp: Fingerprint) -> Finding:
    """``status:[PATH::]*=NNN``: found where a function of PATH (or of the project's code
    that is no test) sets NNN itself; not found is unknown."""
    stated = int(anchor.version or 0)
    found = _setting(fp, anchor.scope, stated)
    where = anchor.scope or "the project's code"
    if not found:
        detail = f"no function in {where} sets {stated} itself (what they call may); cannot tell"
        return Finding((), None, detail, False)
    path, fact = found[0]
    shown = str(fact.status) if fact.written == str(fact.status) else (
        f"{fact.status} ({fact.written})")  # fmt: skip
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    detail = f"{path}:{fact.line} {fact.function} writes {shown}{more}"
    if anchor.expect is Expect.ABSENT:
        detail += f"; {where} does write {stated}"
    return Finding(tuple(dict.fromkeys(p for p, _ in found)), None, detail)
