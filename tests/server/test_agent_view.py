"""What the agent is handed, through the MCP SDK client: compact results (full records on
request), ranked recall with scores, compact schemas, prompts, one-sentence errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.mcp_calls import call, record

pytestmark = pytest.mark.anyio

BRIEF = {"id", "text", "status", "why", "band", "confidence", "source", "anchors", "flags",
         "conflicts", "score"}  # fmt: skip


def _nulls(value: object) -> list[str]:
    if isinstance(value, dict):
        return [k for k, v in value.items() if v is None or v == []] + [
            n for v in value.values() for n in _nulls(v)
        ]
    if isinstance(value, list):
        return [n for v in value for n in _nulls(v)]
    return []


async def test_recall_is_compact_ranked_and_full_records_come_on_request(settings: Settings):
    async with Client(build_server(settings)) as client:
        strong = await call(
            client,
            "remember",
            text="The store layer opens DuckDB in store/db.py",
            anchors=["import:duckdb@store/db.py"],
        )
        weak = await call(client, "remember", text="Billing keeps a local store of invoices")
        found = await client.call_tool("recall", {"query": "duckdb store layer"})
        some = await call(client, "recall", query="duckdb store layer", min_score=1.0)
        full = await call(client, "recall", query="duckdb store layer", detail=True)
        own = await record(client, strong["id"])
    data = found.structured_content
    assert data is not None
    memories = data["memories"]
    assert [m["id"] for m in memories] == [strong["id"], weak["id"]]
    assert memories[0]["score"] > memories[1]["score"] > 0
    assert all(set(m) <= BRIEF for m in memories)
    assert _nulls(data) == []  # nulls and empty lists are left out
    wire = len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode())
    texts = sum(len(m["text"].encode()) for m in memories)
    assert (wire - texts) / len(memories) <= 350  # bytes per memory beyond its text
    head = data["commit"]
    assert len(head) == 40 and json.dumps(data).count(head) == 1  # the commit once
    assert memories[0]["status"] == "VERIFIED"
    assert memories[0]["why"] == f"import:duckdb@store/db.py holds at {head[:7]}"
    assert memories[0]["anchors"] == ["import:duckdb@store/db.py ✓"]
    assert memories[1]["status"] == "ACTIVE" and "anchors" not in memories[1]
    # min_score leaves out the weaker match, and nothing else.
    assert memories[1]["score"] < 1.0 <= memories[0]["score"]
    assert [m["id"] for m in some["memories"]] == [strong["id"]]
    # The text content: one short block per memory, the same data, never JSON.
    (text,) = [c.text for c in found.content if c.type == "text"]
    assert not text.startswith("{")
    assert text.splitlines()[0] == f"2 memories at {head[:7]}:"
    for m in memories:
        assert f"{m['id']} {m['status']}: {m['why']}" in text and m["text"] in text
    assert "import:duckdb@store/db.py ✓" in text
    assert (len(text.encode()) - texts) / len(memories) <= 250
    # detail: full records, as memory://<id> serves them (with its receipts).
    first = full["memories"][0]
    assert first["anchors"][0]["found_in"] == ["store/db.py"]
    assert first["checked_commit"] == head
    assert own == {**first, "receipts": []}


async def test_tools_list_is_small_and_its_schemas_say_each_thing_once(settings: Settings):
    async with Client(build_server(settings)) as client:
        tools = (await client.list_tools()).tools
    sent = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    size = len(json.dumps({"tools": sent}, separators=(",", ":"), ensure_ascii=False).encode())
    # the budget holds recall's optional line naming its refuted matches
    assert size <= 12 * 1024 + 256, size
    for tool in sent:
        for schema in (tool["inputSchema"], tool.get("outputSchema", {})):
            text = json.dumps(schema)
            assert '"title"' not in text.replace('"title": {', "")
            assert text.count('"VERIFIED"') <= 1  # a closed set written once
    recall = next(t for t in sent if t["name"] == "recall")
    props = recall["inputSchema"]["properties"]
    assert props["min_score"]["minimum"] == 0 and props["detail"]["type"] == "boolean"
    assert '"enum": ["ACTIVE", "VERIFIED", "REFUTED"]' in json.dumps(recall["outputSchema"])


async def test_the_prompts_are_listed_and_each_names_the_tools_to_call(settings: Settings):
    async with Client(build_server(settings)) as client:
        listed = {p.name: p for p in (await client.list_prompts()).prompts}
        review = await client.get_prompt("review-memories")
        learned = await client.get_prompt("record-learnings", {"topic": "the billing retries"})
        plain = await client.get_prompt("record-learnings")
    assert set(listed) == {"review-memories", "record-learnings"}
    assert [a.name for a in listed["record-learnings"].arguments or []] == ["topic"]
    review_text = review.messages[0].content.text  # type: ignore[union-attr]
    assert "`review`" in review_text and "`observe`" in review_text
    learned_text = learned.messages[0].content.text  # type: ignore[union-attr]
    assert "about the billing retries" in learned_text
    assert "`recall`" in learned_text and "`remember`" in learned_text
    assert "about" not in plain.messages[0].content.text.splitlines()[0]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("recall", {"query": "x", "limit": "ten"},
         "recall: limit must be a whole number from 1 to 100, not 'ten'"),
        ("recall", {"query": "x", "limit": 0},
         "recall: limit must be a whole number from 1 to 100, not 0"),
        ("recall", {"limit": 3}, "recall: query is required (a string of at most 1000 characters)"),
        ("recall", {"query": "x", "min_score": -1},
         "recall: min_score must be a number of at least 0, not -1"),
        ("remember", {"text": "ok", "kind": "gossip"},
         "remember: kind must be one of decision, fact, convention, preference, incident, "
         "episode, context, identity, not 'gossip'"),
        ("remember", {"text": "ok", "anchors": "dep:x"},
         "remember: anchors must be a list of at most 32 items of strings, not 'dep:x'"),
    ],
)  # fmt: skip
async def test_a_refused_argument_is_one_sentence_naming_the_field_and_what_it_allows(
    settings: Settings, tool: str, args: dict[str, Any], expected: str
):
    async with Client(build_server(settings)) as client:
        result = await client.call_tool(tool, args)
        listed = await call(client, "recall", query="ok x", include_refuted=True)
    assert result.is_error
    assert [c.text for c in result.content if c.type == "text"] == [expected]
    assert listed["memories"] == []  # nothing stored
