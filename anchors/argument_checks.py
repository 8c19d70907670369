"""Finding ``param:`` and ``call:`` anchors in a fingerprint (issue #31), with receipts that
quote the code: "app/status.py:12 defines get_status(self, verbose=False): no parameter now",
"app/db.py:5 calls sa.create_engine(pool_pre_ping=False), not True".

A parameter is found in the signature of the function it names (a class stands for its
``__init__``); a keyword argument in the calls of the callee that pass keyword arguments
(``anchors.signatures``). Neither is ever refuted on what the fingerprint cannot see: a
function taking ``**kwargs`` may accept any keyword, a call passing ``**options`` may pass
any, a computed default or value cannot be compared, a file that was not parsed (or holds
more calls than were kept) may hold the call, and a callee never seen passing a keyword
argument may be called through an alias or ``functools.partial``: all of these are unknown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import MAX_CALLS, CallFact, Fingerprint, ParamKind, Signature
from anchors.finding import Finding
from anchors.literals import same_value
from anchors.spec import Anchor

__all__ = ["find_call", "find_param"]


def _signatures(fp: Fingerprint, function: str, scope: str | None) -> list[tuple[str, Signature]]:
    """Where ``function`` is defined with a signature (in ``scope`` when given); a class
    named there stands for its ``__init__``."""

    def of(name: str) -> list[tuple[str, Signature]]:
        if scope is None:
            return fp.signatures_of(name)
        found = fp.signature(scope, name)
        return [] if found is None else [(scope, found)]

    return of(function) or of(f"{function}.__init__")


def find_param(anchor: Anchor, fp: Fingerprint) -> Finding:
    """``param:[PATH::]func(name[?|=VALUE])``: found where the signature has the parameter
    (with a default, or that default, when the anchor says so)."""
    function, name = anchor.argument
    scope = None if anchor.scope is None else fp.tracked_path(anchor.scope) or anchor.scope
    found = _signatures(fp, function, scope)
    if not found:
        return _no_function(fp, function, scope)
    judged = [_judge_param(path, sig, name, anchor.stated, fp) for path, sig in found]
    if all(j.found_in for j in judged):
        return Finding(tuple(p for j in judged for p in j.found_in), None, judged[0].detail)
    if len(judged) > 1 and any(j.found_in for j in judged):
        detail = f"{function} is defined in {len(judged)} files that disagree: {judged[0].detail}"
        return Finding((), None, f"{detail}; cannot tell", False)
    unknown = next((j for j in judged if not j.answerable), None)
    return unknown or judged[0]


def _no_function(fp: Fingerprint, function: str, scope: str | None) -> Finding:
    if scope is None:
        if fp.definitions(function) or any(not f.parsed for _, f in fp.unread()):
            return Finding((), None, f"no signature of {function} was read; cannot tell", False)
        return Finding((), None, f"no file defines {function}")
    facts = fp.code.get(scope)
    if scope not in fp.blobs:
        return Finding((), None, f"{scope} is not in the repository")
    if facts is None or not facts.parsed:
        return Finding((), None, f"{scope} was not read as code; cannot tell", False)
    if fp.definition(scope, function) is not None:
        detail = f"{scope} defines {function}, which is not a function; cannot tell"
        return Finding((), None, detail, False)
    return Finding((), None, f"{scope} does not define {function}")


def _judge_param(path: str, sig: Signature, name: str, stated: str | None,
                 fp: Fingerprint) -> Finding:  # fmt: skip
    where = f"{path}:{sig.line} defines {sig.render()}"
    if sig.text is None:
        return Finding((), None, f"{where}: its parameters were not kept; cannot tell", False)
    param = next((p for p in sig.params if p.name == name), None)
    if param is None:
        if any(p.kind is ParamKind.KWARGS for p in sig.params):
            return Finding((), None, f"{where}: {name} may be passed in **kwargs; cannot tell",
                           False)  # fmt: skip
        return Finding((), None, f"{where}: no parameter {name}")
    if stated is None:
        return Finding((path,), None, where)
    if not param.has_default:
        return Finding((), None, f"{where}: {name} has no default")
    if stated == "?":
        return Finding((path,), None, where)
    # ``pool_connections=DEFAULT_POOLSIZE``: the literal the file gives that constant
    value = _constant_in(param.named, path, fp) if param.default is None else param.default
    if value is None:
        return Finding((), None, f"{where}: its default for {name} is computed; cannot tell",
                       False)  # fmt: skip
    said = value if param.default is not None else f"{param.named} = {value}"
    if same_value(value, stated):
        return Finding((path,), None, where if param.default is not None else f"{where}, {said}")
    return Finding((), None, f"{where}: {name} defaults to {said}, not {stated}")


def _constant_in(named: str | None, path: str, fp: Fingerprint) -> str | None:
    """The literal a constant a default names has where the file assigns it, or None."""
    if named is None:
        return None
    found = [c.text for p, c in fp.constant_values(named) if p == path]
    return found[0] if len(found) == 1 and found[0] and _LITERAL.fullmatch(found[0]) else None


# (a number, a string, True/False/None: what a default is compared as)
_LITERAL = re.compile(r"-?\d[\d_]*(?:\.\d+)?|\"[^\"]*\"|'[^']*'|True|False|None")


def find_call(anchor: Anchor, fp: Fingerprint) -> Finding:
    """``call:CALLEE(kw[=VALUE])[@PATH]``: found where a call of CALLEE passes kw (with that
    value, when the anchor says one)."""
    callee, keyword = anchor.argument
    scope = anchor.scope
    if scope is not None:
        scope = fp.tracked_path(scope) or fp.tracked_directory(scope)
        if scope is None:
            return Finding((), None, f"{anchor.scope} is not in the repository")
        if scope in fp.blobs and scope not in fp.python:
            return Finding((), None, f"{scope} is not a Python file; cannot tell", False)
    calls = fp.calls_of(callee, scope)
    where = f" in {scope}" if scope else ""
    passing = [(p, c, v) for p, c in calls for k, v in c.keywords if k == keyword]
    stated = anchor.stated
    if passing:
        same = [(p, c) for p, c, v in passing
                if stated is None or (v is not None and same_value(v, stated))]  # fmt: skip
        if same:
            paths = tuple(sorted({p for p, _ in same}))
            return Finding(paths, None, _quote(*same[0], keyword))
        p, c, _ = passing[0]
        if any(v is None for _, _, v in passing):
            return Finding((), None, f"{_quote(p, c, keyword)} computes it; cannot tell", False)
        return Finding((), None, f"{_quote(p, c, keyword)}, not {stated}")
    splat = next(((p, c) for p, c in calls if any(k == "**" for k, _ in c.keywords)), None)
    if splat is not None:
        detail = f"{_quote(*splat)} passes a **mapping that may hold {keyword}; cannot tell"
        return Finding((), None, detail, False)
    unread = _unread_in(fp, scope)
    if unread:
        return Finding((), None, f"{unread} was not fully read; cannot tell", False)
    if not calls:
        detail = (f"no call of {callee} passing keyword arguments was found{where}; "
                  "cannot tell")  # fmt: skip
        return Finding((), None, detail, False)
    more = f" (and {len(calls) - 1} more calls)" if len(calls) > 1 else ""
    return Finding((), None, f"{_quote(*calls[0])} without {keyword}{more}")


def _unread_in(fp: Fingerprint, scope: str | None) -> str:
    """A Python file in ``scope`` whose calls may not all be known, or ""."""
    prefix = None if scope is None or scope in fp.blobs else scope + "/"
    for path, facts in fp.python.items():
        if scope is not None and path != scope and not (prefix and path.startswith(prefix)):
            continue
        if not facts.parsed or len(facts.calls) >= MAX_CALLS:
            return path
    return ""


def _quote(path: str, call: CallFact, keyword: str | None = None) -> str:
    """The call quoted ("app/db.py:5 calls sa.create_engine(pool_pre_ping=True)"): the
    keyword asked about, or the keywords the call passes."""
    shown: Sequence[tuple[str, str | None]] = call.keywords
    if keyword is not None:
        shown = [(k, v) for k, v in call.keywords if k == keyword][:1]
    args = ", ".join("**…" if k == "**" else f"{k}={v if v is not None else '…'}"
                     for k, v in shown)  # fmt: skip
    lead = "…, " if keyword is not None and len(call.keywords) > 1 else ""
    return f"{path}:{call.line} calls {call.callee}({lead}{args})"
