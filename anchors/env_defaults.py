"""An environment variable's default as a note states it, checked against every place the
code reads the variable with one (issue #31, adr/0025).

A variable is often read in more than one place, and each read may give its own default:
``os.getenv("KINTO_INI", "config/kinto.ini")`` in the command line, and
``os.environ.get("KINTO_INI", os.path.join(".", "config", "kinto.ini"))`` in a helper.
A note that states the literal one read site gives is true of the code: it holds, and the
receipt names that site. A note is refuted only when every read site gives a literal and
none is the stated one; where the only others compute theirs, nothing can be told.

``env:NAME@PATH=VALUE`` (the note placed the read in a file or a directory) counts only the
read sites in PATH. A test's own default counts only where no code the application runs
gives one (``anchors.mentions.runs``).
"""

from __future__ import annotations

from collections.abc import Sequence

from anchors.env_records import ValueFact
from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.literals import mentioned_within, same_value
from anchors.mentions import runs

__all__ = ["find_env_default"]


def find_env_default(name: str, stated: str, scope: str | None, fp: Fingerprint) -> Finding:
    """The verdict's finding for ``env:NAME[@scope]=stated`` (see the module docstring)."""
    sites = fp.env_default_values(name)
    where = _within(scope, fp)
    if where is not None:
        sites = [(p, v) for p, v in sites if _inside(p, where)]
    sites = [(p, v) for p, v in sites if runs(p)] or sites  # not a test's own default
    place = f" in {where.rstrip('/')}" if where is not None else ""
    if not sites:
        reads = [p for p in fp.env_sources(name) if where is None or _inside(p, where)]
        said = f"{name} is read in {listed(reads)} with no default" if reads else (
            f"no code read{place} gives {name} a default")  # fmt: skip
        return Finding((), None, f"{said}; cannot tell whether it defaults to {stated}", False)
    return _judged(name, stated, sites)


def _judged(name: str, stated: str, sites: Sequence[tuple[str, ValueFact]]) -> Finding:
    """Holds where a read site's literal default is ``stated``; refuted where every site
    gives a literal and none is; unknown otherwise. The receipt quotes the code."""
    same = [(p, v) for p, v in sites if v.text is not None and same_value(v.text, stated)]
    if same:
        path, v = same[0]
        detail = f"`{name}` defaults to `{v.text}` at {path}:{v.line}"
        others = [(p, o) for p, o in sites if (p, o) not in same]
        if len(same) > 1:
            detail += f" (and {len(same) - 1} more)"
        if others:
            p, o = others[0]
            said = "computes its own" if o.text is None else f"gives {o.text}"
            more = f" (and {len(others) - 1} more)" if len(others) > 1 else ""
            detail += f"; {p}:{o.line} {said}{more}"
        return Finding(tuple(sorted({p for p, _ in same})), None, detail)
    named = [(p, v) for p, v in sites if v.text is not None and mentioned_within(v.text, stated)]
    if named:  # "defaults to redis" and ``"redis://localhost:6379"``: the same thing, maybe
        path, v = named[0]
        detail = (f"{path}:{v.line} gives {name} the default {v.text}, which names {stated}; "
                  f"cannot tell whether the note means it")  # fmt: skip
        return Finding((), None, detail, False)
    computed = [(p, v) for p, v in sites if v.text is None]
    if computed:
        path, v = computed[0]
        other = next(((p, o) for p, o in sites if o.text is not None), None)
        also = f", and {other[0]}:{other[1].line} gives {other[1].text}" if other else ""
        detail = (f"{path}:{v.line} computes {name} default{also}; "
                  f"cannot tell whether it is {stated}")  # fmt: skip
        return Finding((), None, detail, False)
    path, v = sites[0]
    more = f" (and {len(sites) - 1} more read sites)" if len(sites) > 1 else ""
    return Finding((), None, f"{path}:{v.line} gives {name} the default {v.text}, "
                             f"not {stated}{more}")  # fmt: skip


def _within(scope: str | None, fp: Fingerprint) -> str | None:
    """The file, or the directory with a trailing ``/``, a scope names; None: anywhere."""
    if scope is None:
        return None
    path = fp.tracked_path(scope)
    if path is not None:
        return path
    directory = fp.tracked_directory(scope)
    return (directory or scope).rstrip("/") + "/" if directory is not None else scope


def _inside(path: str, where: str) -> bool:
    return path.startswith(where) if where.endswith("/") else path == where
