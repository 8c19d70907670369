"""The owner's direct answers (server/direct.py, adr/0017) in one process: a plain frame is
read once by ``json`` exactly as the SDK's models read it, any other frame still goes
through those models, and the answers are the SDK server's answers for the same calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult, TextContent
from mcp_types.methods import serialize_server_result
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from server.app import build_server
from server.config import Settings
from server.direct import DirectAnswers, _checked_call, _plain_call, _shaped
from server.runtime import open_runtime
from tests.conftest import BACKENDS

VERSIONS = sorted(HANDSHAKE_PROTOCOL_VERSIONS)


def frame(body: object) -> bytes:
    return json.dumps(body).encode() + b"\n"


def call(params: object, request_id: object = 7, **extra: Any) -> bytes:
    return frame(
        {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params, **extra}
    )


PLAIN = [
    call({"name": "remember", "arguments": {"text": "Auth reads JWT_SECRET"}}),
    call({"name": "recall", "arguments": {"query": "auth", "limit": 3}}, request_id="a-1"),
    call({"name": "recall"}, request_id=0),  # no arguments: {}
    call({"name": "recall", "arguments": {}}, request_id=2**70),
    call({"arguments": {"query": "x"}, "name": "recall"}),  # members in any order
]
NOT_PLAIN = [
    call({"name": "recall", "arguments": {"query": "x"}, "_meta": {"progressToken": 3}}),
    call({"name": "recall", "arguments": {"query": "x"}}, extra_member=1),  # the SDK ignores it
    call({"name": "recall", "arguments": {"query": "x"}}, request_id=True),  # a bool
    call({"name": "recall", "arguments": {"query": "x"}}, request_id=1.5),
    call({"name": "recall", "arguments": {"query": "x"}}, request_id=None),
    call({"name": "recall", "arguments": ["x"]}),
    call({"name": "retract", "arguments": {"id": "m", "reason": "r"}}),  # not relayed
    call({"name": 3, "arguments": {}}),
    call({"arguments": {}}),  # no name
    call(["recall"]),
    frame({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "recall"}}),
    frame({"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": {"name": "recall"}}),
    frame({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
    frame([1, 2]),
    b"{not json\n",
    b"\xff\xfe\n",
]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("raw", PLAIN)
def test_a_plain_frame_is_read_as_the_sdk_models_read_it(raw: bytes, version: str) -> None:
    plain = _plain_call(raw)
    assert plain is not None
    assert plain == _checked_call(raw, version)


@pytest.mark.parametrize("raw", NOT_PLAIN)
def test_any_other_frame_is_left_to_the_sdk_models(raw: bytes) -> None:
    assert _plain_call(raw) is None


def test_the_models_still_take_a_call_that_is_not_plain() -> None:
    for taken in NOT_PLAIN[:2]:
        assert _checked_call(taken, VERSIONS[-1]) == (7, "recall", {"query": "x"})
    for declined in NOT_PLAIN[5:]:
        assert _checked_call(declined, VERSIONS[-1]) is None, declined


@pytest.mark.anyio
@pytest.mark.backends(*BACKENDS)
async def test_direct_answers_are_the_sdk_servers_answers(settings: Settings) -> None:
    """The same calls, on one store, answered directly and by the SDK server: the same
    results, refusals included (``ToolServer.call_tool_unchecked`` skips only a check
    that cannot fail)."""
    server = build_server(settings)
    direct = DirectAnswers(server)
    async with Client(server) as client:
        made = await client.call_tool("remember", {"text": "Billing posts charges with httpx"})
        assert not made.is_error
        runtime = open_runtime(settings)
        try:
            for tool, arguments in [
                ("recall", {"query": "billing httpx"}),
                ("recall", {"query": "billing httpx", "detail": True}),
                ("recall", {"query": "billing", "limit": 0}),  # refused: under 1
                ("recall", {"query": "billing", "limit": "3"}),  # a number as a string
                ("remember", {"text": "Billing retries twice", "kind": "rumour"}),  # refused
                ("remember", {"anchors": ["dep:httpx"]}),  # refused: no text
            ]:
                answered = direct.answer(
                    call({"name": tool, "arguments": arguments}), VERSIONS[-1], runtime.service
                )
                assert answered is not None and answered.endswith(b"\n")
                message = json.loads(answered)
                assert list(message) == ["jsonrpc", "id", "result"]
                assert message["id"] == 7
                expected = (await client.call_tool(tool, arguments)).model_dump(
                    by_alias=True, mode="json", exclude_none=True
                )
                # The in-memory client speaks the newest protocol, whose results carry
                # members the handshake era's do not (``_meta``, ``resultType``).
                assert set(message["result"]) == {"content", "structuredContent", "isError"} & set(
                    expected
                )
                assert message["result"] == {k: expected[k] for k in message["result"]}, (
                    tool,
                    arguments,
                )
        finally:
            runtime.close()


@pytest.mark.parametrize("version", VERSIONS)
def test_a_result_is_shaped_as_the_sdk_shapes_it(version: str) -> None:
    structured = {
        "memories": [{"id": "m_1", "text": "caf\u00e9 \u2192 duckdb", "score": 0.5, "tags": []}],
        "count": 1,
        "nested": {"ok": True, "none": None, "big": 2**70, "small": 1e-9},
    }
    for result in (
        CallToolResult(content=[TextContent(type="text", text="t")], structured_content=structured),
        CallToolResult(content=[TextContent(type="text", text="refused")], is_error=True),
        CallToolResult(content=[], structured_content={}),
    ):
        dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        assert _shaped(result, version) == serialize_server_result("tools/call", version, dumped)
