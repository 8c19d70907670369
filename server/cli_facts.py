"""What the CLI's JSON adds to a command's result, read where the store is (its owner, or
this process): what a ``verify`` changed, when each ``review`` item was written and last
confirmed and what to run next, and the words of a shown note that no anchor covers
(adr/0024). The MCP tools' answers are not changed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.rendering import timestamp
from server.uncovered import uncovered_words
from store.model import Memory

__all__ = ["next_step", "review_facts", "uncovered_facts", "verify_changes"]


def verify_changes(before: Mapping[str, Memory], after: Mapping[str, Memory]) -> dict[str, Any]:
    """Each memory's stored status before the check and after it. The status before is
    the one the memory's last check (or retraction, restore, ...) wrote: every change of
    it is an audit row, so nothing new is kept to know it. A memory forgotten meanwhile
    is left out; one written meanwhile was not in the check."""
    changed = [
        {"id": mid, "from": old.status.value, "to": new.status.value}
        for mid, old in before.items()
        if (new := after.get(mid)) is not None and new.status is not old.status
    ]
    kept = sum(1 for mid in before if mid in after)
    return {"checked": kept, "unchanged": kept - len(changed), "changed": changed}


def next_step(action: str, memory_id: str) -> list[str]:
    """The command a person runs next for a review item, for either answer (the likelier
    first)."""
    confirm = f"anchormem observe {memory_id} --confirms"
    retract = f"anchormem retract {memory_id} --reason WHY"
    if action == "ASK":  # three contradictions in a row: more likely wrong
        return [f"if wrong: {retract}", f"if right: {confirm}"]
    if action == "DEMOTE":  # no longer served: a confirmation brings it back
        return [f"if right: {confirm}", f"if wrong: {retract}"]
    return [f"if still right: {confirm}", f"if not: {retract}"]


def review_facts(result: dict[str, Any], memories: Mapping[str, Memory]) -> dict[str, Any]:
    """Each item with when it was written and last confirmed (the queue's
    ``staleness_days`` is at least one day: it ranks questions), and its next step."""
    for item in result.get("items") or []:
        mem = memories.get(item["id"])
        if mem is not None:
            item["written_at"] = timestamp(mem.created_at)
            item["confirmed_at"] = timestamp(mem.last_confirmed_at)
        item["next"] = next_step(str(item.get("action")), item["id"])
    for question in result.get("questions") or []:
        question["next"] = next_step("ASK", question["id"])
    return result


def uncovered_facts(result: dict[str, Any]) -> dict[str, Any]:
    """The memory with ``uncovered``: its words no anchor covers (``server.uncovered``)."""
    anchors = [str(a.get("anchor")) for a in result.get("anchors") or []]
    result["uncovered"] = uncovered_words(result.get("text"), anchors, result.get("flags") or ())
    return result
