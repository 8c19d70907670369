"""Settings are read and validated once, by the composition root."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.config import Settings
from store.contradictions.rules import Strategy
from store.errors import InvalidInput
from store.model import Kind


def _settings(tmp_path: Path, **env: str) -> Settings:
    return Settings.resolve(db=str(tmp_path / "store.duckdb"), env=env, cwd=tmp_path)


def test_the_conflict_order_per_kind_comes_from_the_environment(tmp_path: Path):
    settings = _settings(
        tmp_path,
        ANCHORMEM_CONFLICT_FACT="recency_first",
        ANCHORMEM_CONFLICT_DECISION=" Confidence_First ",
    )
    assert settings.evidence.strategy(Kind.FACT) is Strategy.RECENCY_FIRST
    assert settings.evidence.strategy(Kind.DECISION) is Strategy.CONFIDENCE_FIRST
    assert settings.evidence.strategy(Kind.CONVENTION) is Strategy.DEFAULT


def test_a_bad_conflict_order_is_a_clear_error_not_a_silent_default(tmp_path: Path):
    with pytest.raises(InvalidInput, match="ANCHORMEM_CONFLICT_FACT must be one of"):
        _settings(tmp_path, ANCHORMEM_CONFLICT_FACT="newest")
