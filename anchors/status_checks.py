"""Finding ``status:`` anchors (issue #32): whether a function sets an HTTP status in its
own body, with receipts that quote the code: "mux.go:603 methodNotAllowed writes 405
(http.StatusMethodNotAllowed), not 400".

A function is only ever said not to answer with a status when every status it sets is one
the facts name (``anchors.http_status``), none of them is the stated one, and nothing else
may set one for it: a status computed at run time, an exception raised, a helper it calls
that sets statuses of its own, or 200 (what every framework answers when nothing is set)
leave the check unknown. A function that sets no status itself (it may delegate) is never
refuted either.
"""

from __future__ import annotations

from anchors.facts import FileFacts, Fingerprint
from anchors.finding import Finding
from anchors.http_status import CALLS, COMPUTED, StatusFact, may_answer
from anchors.spec import Anchor, Expect
from anchors.status_anywhere import ANY, find_anywhere

__all__ = ["find_status"]

# The status a response has when the code sets none, and the one any uncaught error gets.
_IMPLIED = {200: "what a response has when nothing sets a status",
            500: "what an error nothing catches is answered with"}


def find_status(anchor: Anchor, fp: Fingerprint) -> Finding:
    """``status:[PATH::]func=NNN``: found where ``func``'s own body sets NNN."""
    function, stated = anchor.value, int(anchor.version or 0)
    if function == ANY:  # "the router never writes a 405": any function of the place
        return find_anywhere(anchor, fp)
    places = _places(fp, function, anchor.scope)
    if not places:
        return Finding((), None, f"no definition of {function} was read; cannot tell", False)
    own = [(path, [s for s in facts.statuses if s.function == function])
           for path, facts in places]  # fmt: skip
    said = [(path, s) for path, facts in own for s in facts if s.status == stated]
    if said:
        path, fact = said[0]
        return Finding(tuple(dict.fromkeys(p for p, _ in said)), None,
                       f"{path}:{fact.line} {function} writes {_shown(fact)}")  # fmt: skip
    known = [(path, [s for s in facts if s.status > 0]) for path, facts in own]
    if not any(statuses for _, statuses in known):
        detail = f"{function} sets no HTTP status itself (what it calls may); cannot tell"
        return Finding((), None, detail, False)
    path, statuses = next((p, s) for p, s in known if s)
    quoted = f"{path}:{statuses[0].line} {function} writes " + ", ".join(
        _shown(s) for s in _distinct(statuses)[:3])  # fmt: skip
    doubt = _doubt(fp, function, stated, own, places)
    if doubt:
        return Finding((), None, f"{quoted}; {doubt}; cannot tell", False)
    if anchor.expect is Expect.ABSENT:
        return Finding((), None, f"{quoted}; never {stated}")
    return Finding((), None, f"{quoted}, not {stated}")


def _places(fp: Fingerprint, function: str, scope: str | None) -> list[tuple[str, FileFacts]]:
    """The files defining ``function`` (in ``scope`` when given), with their facts."""
    if scope is not None:
        scope = fp.tracked_path(scope) or scope
        paths = [scope] if fp.definition(scope, function) is not None else []
    else:
        paths = [p for p, _ in fp.definitions(function)]
    return [(p, fp.code[p]) for p in paths if p in fp.code]


def _doubt(
    fp: Fingerprint, function: str, stated: int,
    own: list[tuple[str, list[StatusFact]]], places: list[tuple[str, FileFacts]],
) -> str:
    """Why the statuses read may not be all the function answers with, or ""."""
    if stated in _IMPLIED:
        return f"{stated} is {_IMPLIED[stated]}"
    if stated == _INVALID and any(fp.importers(m) for m in _VALIDATING):
        return f"{_INVALID} is what the framework answers an invalid request with"
    if any(not facts.parsed for _, facts in places):
        return "a file defining it was not fully read"
    if any(not any(s.status > 0 for s in facts) for _, facts in own):
        return f"another definition of {function} sets none itself"
    computed = next((s for _, facts in own for s in facts if s.status == COMPUTED), None)
    if computed is not None:
        return f"its status may also come from {computed.written}"
    helpers = fp.derived("http_status_setters", _setters)
    name = function.rpartition(".")[2]
    called = next((s.written for _, facts in own for s in facts
                   if s.status == CALLS and s.written != name and s.written in helpers),
                  None)  # fmt: skip
    if called is not None:
        return f"it calls {called}, which sets statuses of its own"
    named = next((s.written for _, facts in own for s in facts
                  if s.status == CALLS and may_answer(s.written)), None)  # fmt: skip
    if named is not None:
        return f"it calls {named}, which may answer for it"
    return ""


# Frameworks that answer a request their models reject with 422 before the function runs.
_INVALID = 422
_VALIDATING = ("fastapi", "litestar", "starlite")


def _setters(fp: Fingerprint) -> frozenset[str]:
    """The last names of the functions that set a status (``badRequest`` for
    ``api.badRequest``): a call of one may answer for its caller."""
    return frozenset(
        s.function.rpartition(".")[2]
        for facts in fp.code.values() for s in facts.statuses if s.status != CALLS
    )  # fmt: skip


def _distinct(statuses: list[StatusFact]) -> list[StatusFact]:
    return list({s.status: s for s in reversed(statuses)}.values())[::-1]


def _shown(fact: StatusFact) -> str:
    return str(fact.status) if fact.written == str(fact.status) else (
        f"{fact.status} ({fact.written})")  # fmt: skip
