"""What a search of one fingerprint found for one anchor, before it becomes a verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Finding", "listed"]


@dataclass(frozen=True)
class Finding:
    """``found_in``: where the anchor's thing is (empty: not found). ``detail`` says what was
    found, or what was looked for and not found. ``answerable`` False: the fingerprint cannot
    tell (an unread file could hold it). ``weak``: found only where it does not count for
    the claim (prose, a sub-project), so an absence holds but a presence is not confirmed
    and not refuted either."""

    found_in: tuple[str, ...]
    content_hash: str | None
    detail: str
    answerable: bool = True
    weak: bool = False


def listed(items: Sequence[str], limit: int = 3) -> str:
    """The first ``limit`` of ``items`` and how many more, for a detail."""
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"
