"""Caller input made into typed values, or refused with a clear ``InvalidInput`` before
anything is read or written. The MCP tools' schemas carry the same limits and enums, so a
model sees them; the CLI and the library arrive here with plain strings."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TypeVar

from anchors.facts import Fingerprint
from anchors.normalize import Resolved, resolve_anchor
from anchors.spec import MAX_ANCHOR_LENGTH, AnchorSyntaxError
from store.errors import InvalidInput
from store.limits import (
    MAX_ANCHORS,
    MAX_ORIGIN_CHARS,
    MAX_REASON_CHARS,
    MAX_RECALL_LIMIT,
    MAX_SUBJECT_CHARS,
    MAX_TEXT_CHARS,
)
from store.redaction import holds_secret, redact

__all__ = [
    "clean_actor",
    "clean_reason",
    "clean_subject",
    "clean_text",
    "parse_anchors",
    "parse_choice",
    "parse_limit",
    "parse_score",
    "parse_weight",
    "resolve",
    "withhold_secret_anchors",
]

E = TypeVar("E", bound=StrEnum)


def clean_text(value: object, what: str, limit: int = MAX_TEXT_CHARS, required: bool = True) -> str:
    """Validate free text from a caller: a non-empty string of valid Unicode within limit,
    with every secret in it replaced by ``[REDACTED:<kind>]`` (``store/redaction.py``)."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} contains invalid Unicode (a lone surrogate)") from None
    if "\x00" in value:
        raise InvalidInput(f"{what} contains a NUL character")
    stripped = value.strip()
    if required and not stripped:
        raise InvalidInput(f"{what} must not be empty")
    if len(stripped) > limit:
        raise InvalidInput(f"{what} is {len(stripped)} characters; the limit is {limit}")
    return redact(stripped).text


def parse_choice(cls: type[E], value: object, what: str) -> E:
    """A member of the closed set ``cls`` from caller input, case-insensitively, or a
    clear error listing what is allowed."""
    if isinstance(value, cls):
        return value
    text = str(value).strip()
    for member in cls:
        if member.value.lower() == text.lower():
            return member
    allowed = ", ".join(m.value for m in cls)
    raise InvalidInput(f"unknown {what} {text[:40]!r}; expected one of: {allowed}")


def clean_subject(value: object, what: str = "subject") -> str | None:
    if value is None:
        return None
    subject = clean_text(value, what, MAX_SUBJECT_CHARS, required=False)
    return subject or None


def clean_reason(value: object) -> str:
    return clean_text(value, "reason", MAX_REASON_CHARS)


def clean_actor(value: object, default: str, what: str = "actor") -> str:
    return clean_text(value, what, MAX_ORIGIN_CHARS) if value else default


def parse_limit(value: object, ceiling: int = MAX_RECALL_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput("limit must be a whole number")
    if not 1 <= value <= ceiling:
        raise InvalidInput(f"limit must be between 1 and {ceiling}")
    return value


def parse_weight(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput("weight must be a number between 0 and 1")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidInput("weight must be between 0 and 1")
    return float(value)


def parse_score(value: object) -> float:
    """A recall's ``min_score``: a number, at least 0 (0 keeps every match)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise InvalidInput("min_score must be a number of at least 0")
    if value < 0:
        raise InvalidInput("min_score must be at least 0")
    return float(value)


def parse_anchors(raw: Sequence[object] | None) -> list[Resolved]:
    """The anchors a caller gave, checked for syntax before any code is read."""
    if raw is None:
        return []
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise InvalidInput("anchors must be a list of anchor strings")
    if len(raw) > MAX_ANCHORS:
        raise InvalidInput(f"at most {MAX_ANCHORS} anchors per memory")
    parsed = []
    for item in raw:
        if not isinstance(item, str):
            raise InvalidInput("each anchor must be a string like 'import:duckdb'")
        parsed.append(resolve(item, None))
    return parsed


def withhold_secret_anchors(
    raw: Sequence[object] | None,
) -> tuple[Sequence[object] | None, tuple[str, ...]]:
    """The anchors a caller gave without those that hold a secret, and those, redacted.

    An anchor names code, and code is never a secret: ``env:sk-ant-...`` gives a key's
    value where its variable's name belongs. Such an anchor is dropped, and reported with
    the secret replaced, rather than stored, parsed (a syntax error would quote it) or
    refused (adr/0011: a refusal makes the agent retry, and puts the secret in an error).
    Anything but a list of strings is returned as it is, for ``parse_anchors`` to refuse,
    and so is an anchor too long to be one (refused without being quoted)."""
    if raw is None or isinstance(raw, str) or not isinstance(raw, Sequence):
        return raw, ()
    kept: list[object] = []
    withheld: list[str] = []
    for item in raw:
        if isinstance(item, str) and len(item.strip()) <= MAX_ANCHOR_LENGTH and holds_secret(item):
            withheld.append(redact(item.strip()).text)
        else:
            kept.append(item)
    return (kept, tuple(withheld)) if withheld else (raw, ())


def resolve(raw: str, fp: Fingerprint | None) -> Resolved:
    """An LLM-shaped anchor (``pkg.mod.Class``, ``x.py:42``) resolved against the code."""
    try:
        return resolve_anchor(raw, fp)
    except AnchorSyntaxError as exc:
        raise InvalidInput(f"anchor rejected: {exc}") from None
