"""How evidence is weighed and served: one settings value, built and validated by the
composition root (``server.config``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from store.evidence.confidence import DEFAULT_HALF_LIVES
from store.evidence.observations import DEFAULT_SOURCE_WEIGHTS

if TYPE_CHECKING:  # imported when used: settings are read before anything is checked
    from store.contradictions.outcomes import Strategy
    from store.model import Kind

__all__ = ["EvidenceSettings"]


@dataclass(frozen=True)
class EvidenceSettings:
    hide_below: float = 3.5
    strict: bool = False
    half_lives: Mapping[str, float | None] = field(default_factory=lambda: DEFAULT_HALF_LIVES)
    source_weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_SOURCE_WEIGHTS)
    stale_after_days: float = 90.0
    episode_days: float = 30.0
    questions_per_user_per_week: int = 1
    # Systems of record (code, ci) a caller of this process may speak for
    # (ANCHORMEM_TRUSTED_SOURCES): none by default (store/evidence/observations.py).
    trusted_sources: frozenset[str] = frozenset()
    # The order contradictions of each kind are resolved in (ANCHORMEM_CONFLICT_<KIND>).
    conflict_order: Mapping[Kind, Strategy] = field(default_factory=dict)

    def strategy(self, kind: Kind) -> Strategy:
        from store.contradictions.outcomes import Strategy

        return self.conflict_order.get(kind, Strategy.DEFAULT)
