"""The finding for a ``config:`` anchor: what the infrastructure files say of one key,
compared with the value the anchor states (``anchors.infra_compare``), with a receipt that
quotes the file and line ("Dockerfile:1 says FROM python:3.11-slim, not python:3.9").

Unknown (never broken) when the files in scope were not read, state no value for the key,
state one the repository computes (``${TAG}``, an unexpanded expression) or disagree with
each other; a Dockerfile whose built image differs but an earlier stage matches cannot
tell which stage a note means.
"""

from __future__ import annotations

from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.infra_compare import (
    VERSION_KEYS,
    Match,
    comparison_for,
    is_list_key,
    missing_versions,
    versions_cover,
)
from anchors.infra_facts import InfraValue, infra_kind
from anchors.spec import Anchor
from anchors.toolchain_files import compared_text

__all__ = ["find_config", "quoted"]

_VERSION_KEYS = VERSION_KEYS
_NONE_READ = "no Dockerfile, compose file, CI workflow, toolchain file or manifest"


def quoted(key: str, value: InfraValue) -> str:
    """How the file states it: ``FROM python:3.11-slim``, ``ENV DEBUG=0``,
    ``services.db.image: postgres:15``."""
    text = value.text if value.text is not None else "(computed)"
    head, dot, name = key.partition(".")
    if key.isupper() and not dot:
        return f"{key} {text}"
    if head in ("ENV", "ARG") and dot:
        return f"{head} {name}={text}"
    if head == "FROM" and dot:
        return f"FROM {text} AS {name}"
    return f"{key}: {text}"


def _files(anchor: Anchor, fp: Fingerprint) -> list[str] | Finding:
    """The infrastructure files the anchor is about, or the finding when there are none."""
    scope = anchor.scope
    if scope is None:
        files = sorted(fp.infra)
        if not files:
            return Finding((), None, f"the repository has {_NONE_READ}; cannot tell", False)
        return files
    tracked = fp.tracked_path(scope)
    if tracked is not None:
        files = [tracked] if tracked in fp.infra else []
    else:
        directory = fp.tracked_directory(scope)
        if directory is None:
            return Finding((), None, f"{scope} is not in the repository")
        files = sorted(p for p in fp.infra if p.startswith(f"{directory}/"))
    if not files:
        detail = f"{scope} is not a file that states {anchor.value} ({_NONE_READ}); cannot tell"
        return Finding((), None, detail, False)
    return files


def find_config(anchor: Anchor, fp: Fingerprint) -> Finding:
    """What ``fp``'s infrastructure files say of ``anchor.value`` (the key), compared with
    ``anchor.version`` (the stated value) when there is one."""
    files = _files(anchor, fp)
    if isinstance(files, Finding):
        return files
    key, stated = anchor.value, anchor.version
    where = listed(files)
    unread = [p for p in files if fp.infra[p] is None]
    found = [(p, v) for p in files for v in fp.infra[p] or () if v.key == key]
    if not found:
        if unread:
            detail = f"{listed(unread)} could not be read (too large or not valid); cannot tell"
            return Finding((), None, detail, False)
        if stated is None:
            return Finding((), None, f"{where} states no {key}")
        return Finding((), None, f"{where} states no {key}; cannot tell whether it is {stated}",
                       False)  # fmt: skip
    if stated is None:
        path, value = found[0]
        paths = tuple(sorted({p for p, _ in found}))
        return Finding(paths, None, f"{path}:{value.line} says {quoted(key, value)}")
    if key in _VERSION_KEYS:
        return _versions(key, stated, found)
    rule = comparison_for(key)
    judged = [(p, v, rule(stated, v.text)) for p, v in found]
    same = [(p, v) for p, v, m in judged if m is Match.SAME]
    different = [(p, v) for p, v, m in judged if m is Match.DIFFERENT]
    if same and (is_list_key(key) or len(same) == len(judged)):
        path, value = same[0]
        more = f" (and {len(same) - 1} more)" if len(same) > 1 and not is_list_key(key) else ""
        paths = tuple(sorted({p for p, _ in same}))
        return Finding(paths, None, f"{path}:{value.line} says {quoted(key, value)}{more}")
    if different and len(different) == len(judged):
        path, value = different[0]
        if key == "FROM":
            stage = _matching_stage(stated, path, fp)
            if stage is not None:
                detail = (f"{path}:{value.line} builds the image FROM {value.text}, but "
                          f"{path}:{stage.line} says {quoted(stage.key, stage)}; cannot tell "
                          "which stage is meant")  # fmt: skip
                return Finding((), None, detail, False)
        said = "; ".join(f"{p}:{v.line} says {quoted(key, v)}" for p, v in different[:3])
        return Finding((), None, f"{said}, not {stated}")
    if same and different:
        (p1, v1), (p2, v2) = same[0], different[0]
        detail = (f"{p1}:{v1.line} says {quoted(key, v1)}, but {p2}:{v2.line} says "
                  f"{quoted(key, v2)}; cannot tell which applies")  # fmt: skip
        return Finding((), None, detail, False)
    path, value = next((p, v) for p, v, m in judged if m is Match.UNKNOWN)
    detail = f"{path}:{value.line} says {quoted(key, value)}; cannot tell whether it is {stated}"
    return Finding((), None, detail, False)


def _matching_stage(stated: str, path: str, fp: Fingerprint) -> InfraValue | None:
    """An earlier stage of the Dockerfile at ``path`` whose base image is ``stated``."""
    compare = comparison_for("FROM")
    stages = [v for v in fp.infra.get(path) or () if v.key.startswith("FROM.")]
    return next((v for v in stages[:-1] if compare(stated, v.text) is Match.SAME), None)


def _versions(key: str, stated: str, found: Sequence[tuple[str, InfraValue]]) -> Finding:
    """A version or a set of versions against every one the files list (a CI matrix)."""
    # a go.mod's ``go 1.21`` and a Cargo.toml's rust-version are minimums (``>=1.21``)
    texts = [compared_text(infra_kind(p), v) for p, v in found]
    match = versions_cover(stated, texts)
    listed: dict[str, list[InfraValue]] = {}
    for path, value in found:
        listed.setdefault(path, []).append(value)
    said = "; ".join(
        f"{path}:{values[0].line} lists {key} "
        + ", ".join(dict.fromkeys(v.text or "(computed)" for v in values))
        for path, values in listed.items()
    )
    if match is Match.SAME:
        return Finding(tuple(listed), None, said)
    if match is Match.DIFFERENT:
        missing = missing_versions(stated, texts)
        gap = "" if missing == [stated] else f" ({', '.join(missing)} in none)"
        return Finding((), None, f"{said}, not {stated}{gap}")
    return Finding((), None, f"{said}; cannot tell whether it covers {stated}", False)
