"""Where an experiment writes its results when no ``--out`` is given: outside the
repository it is run from, so a run never leaves outputs in a source tree.
``$XDG_CACHE_HOME/anchormem/results/NAME`` (``~/.cache/...`` when unset)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_results_dir"]


def default_results_dir(name: str) -> Path:
    """The results folder of the experiment ``name`` ("contamination", "truth-benchmark")."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "anchormem" / "results" / name
