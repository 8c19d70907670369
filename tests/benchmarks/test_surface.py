"""``python -m benchmarks surface``: what the agent is handed, in bytes, through MCP. A
smoke run in process that also pins the issue's targets (a regression in the result's or
the schemas' size fails here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.surface import measure


@pytest.mark.slow  # ~6 s: the fixture built, 40 notes remembered (tests/server/test_agent_view.py
# pins the sizes on a small store, fast)
def test_a_recall_of_ten_and_tools_list_stay_within_their_budgets(tmp_path: Path):
    sizes = measure(tmp_path, 10)
    lines = sizes.lines()
    assert lines[0].startswith("recall of 10 memories: structured ")
    assert lines[2].startswith("tools/list: ")
    assert sizes.memories == 10 and sizes.texts > 0
    assert 0 < sizes.structured_per_memory <= 350
    assert 0 < sizes.text_per_memory <= 250
    # the budget of tests/server/test_agent_view.py: 12 KiB and recall's optional line
    # naming its refuted matches
    assert 0 < sizes.output_schemas < sizes.tools_list <= 12 * 1024 + 256
