"""What the agent is handed when a memory meets many others: ten listed, the rest
counted (server/rendering.py, adr/0017)."""

from __future__ import annotations

from server.rendering import LISTED, agent_memory
from store.contradictions.rules import ConflictKind, ReasonCode
from store.reading import ConflictMark, serve
from tests.store.test_policy import _read, memory


def test_a_memory_with_many_open_conflicts_names_ten_and_counts_the_others():
    marks = {
        "m1": [ConflictMark(f"o{i}", ReasonCode.TOO_CLOSE, ConflictKind.SLOT) for i in range(13)]
    }
    (shown, *_beside) = serve([_read(memory("m1"))], marks, lambda _: None)
    view = agent_memory(shown)
    assert view["conflicts"][:LISTED] == [f"o{i} (slot: TOO_CLOSE)" for i in range(LISTED)]
    assert view["conflicts"][LISTED:] == [f"and {13 - LISTED} more"]
    few = serve([_read(memory("m2"))], {"m2": marks["m1"][:2]}, lambda _: None)[0]
    assert agent_memory(few)["conflicts"] == ["o0 (slot: TOO_CLOSE)", "o1 (slot: TOO_CLOSE)"]
