"""The fact set of a contamination experiment: one JSON object per line.

Required: ``id`` (unique), ``claim`` (the memory text an agent would write), ``truth``
(true/false: is the claim true of the code at HEAD?), ``category`` (``true``,
``contradicted``, ``silent``, ``present_trap``, ``negation``, ``temporal``, ``drift``,
``convention``, or any other word). Optional: ``subject`` (what the claim is about, passed
to ``remember``), ``anchors`` (explicit anchors the writing agent passes to ``remember``),
``commit`` (remember at that revision, judge at HEAD: a sha, a tag or any revision git
understands), ``check`` (the code evidence: anchors or ``grep:PATH::REGEX`` lines that hold
exactly when the claim is true), ``unmentioned`` (words the repository must never mention;
used to validate ``silent`` facts), ``kind`` (the memory's kind, passed to ``remember``
as ``kind``: e.g. ``fact``, ``convention``, ``decision``, ``preference``) and ``scope``
(passed to ``remember`` as ``scope``: e.g. ``production``, ``tests``). ``experiments/README.md``
describes the schema for people.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from experiments.errors import EXIT_USAGE, ExperimentError

__all__ = ["DEFAULT_FACTS", "KINDS", "Fact", "FactsError", "default_facts_path", "load_facts"]

DEFAULT_FACTS = "facts.jsonl"
_REQUIRED = ("id", "claim", "truth", "category")
KINDS = (
    "decision",
    "fact",
    "convention",
    "preference",
    "incident",
    "episode",
    "context",
    "identity",
)
_OPTIONAL = ("subject", "anchors", "commit", "check", "unmentioned", "kind", "scope")


class FactsError(ExperimentError):
    """The facts file cannot be read; the message names the line and the problem. The
    run stops with the usage exit code: the facts were given by the caller."""

    code = EXIT_USAGE


@dataclass(frozen=True)
class Fact:
    id: str
    claim: str
    truth: bool
    category: str
    subject: str | None = None
    anchors: tuple[str, ...] = ()
    commit: str | None = None
    check: tuple[str, ...] = ()
    unmentioned: tuple[str, ...] = ()
    kind: str | None = None
    scope: str | None = None
    line: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def summary(self) -> dict[str, Any]:
        return {"id": self.id, "category": self.category, "truth": self.truth, "claim": self.claim}


def default_facts_path() -> Path:
    """The default fact set shipped with anchormem (over the fixture repository)."""
    return Path(str(resources.files("experiments") / "data" / DEFAULT_FACTS))


def _strings(value: Any, name: str, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FactsError(f"{where}: {name!r} must be a list of strings")
    return tuple(value)


def _optional_text(value: Any, name: str, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise FactsError(f"{where}: {name!r} must be a non-empty string")
    return value.strip()


def load_facts(path: Path) -> list[Fact]:
    """Read a facts file; raises ``FactsError`` for a line that is not a valid fact (the
    run stops: a silently skipped fact would bias the result)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FactsError(f"cannot read the facts file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise FactsError(f"{path} is not UTF-8 text") from None
    facts: list[Fact] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path.name} line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FactsError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise FactsError(f"{where}: a fact must be a JSON object")
        missing = [k for k in _REQUIRED if k not in data]
        if missing:
            raise FactsError(f"{where}: missing {', '.join(missing)}")
        fid, claim, truth, category = (data[k] for k in _REQUIRED)
        if not isinstance(fid, str | int) or isinstance(fid, bool) or not str(fid).strip():
            raise FactsError(f"{where}: 'id' must be a non-empty string")
        fid = str(fid).strip()
        if fid in seen:
            raise FactsError(f"{where}: duplicate id {fid!r}")
        seen.add(fid)
        if not isinstance(claim, str) or not claim.strip():
            raise FactsError(f"{where}: 'claim' must be a non-empty string")
        if not isinstance(truth, bool):
            raise FactsError(f"{where}: 'truth' must be true or false")
        if not isinstance(category, str) or not category.strip():
            raise FactsError(f"{where}: 'category' must be a non-empty string")
        kind = _optional_text(data.get("kind"), "kind", where)
        if kind is not None and kind not in KINDS:
            raise FactsError(f"{where}: 'kind' must be one of {', '.join(KINDS)}")
        extra = {k: v for k, v in data.items() if k not in _REQUIRED + _OPTIONAL}
        facts.append(
            Fact(
                id=fid,
                claim=claim.strip(),
                truth=truth,
                category=category.strip().lower(),
                subject=_optional_text(data.get("subject"), "subject", where),
                anchors=_strings(data.get("anchors"), "anchors", where),
                commit=_optional_text(data.get("commit"), "commit", where),
                check=_strings(data.get("check"), "check", where),
                unmentioned=_strings(data.get("unmentioned"), "unmentioned", where),
                kind=kind,
                scope=_optional_text(data.get("scope"), "scope", where),
                line=number,
                extra=extra,
            )
        )
    if not facts:
        raise FactsError(f"{path} holds no facts")
    return facts
