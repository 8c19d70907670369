"""The store's owner answering a hot ``tools/call`` frame itself (adr/0017).

An ``anchormem serve`` process pipes every frame to the owner, which runs its session
(``server.sessions``, adr/0035); the frames of the hot tools (``RELAYED_TOOLS``) are
answered here, without the SDK's dispatch. The owner answers each one with the frame the
SDK's server would have written for it, built by the SDK's own parts: the request is
parsed and checked by the SDK's models (``jsonrpc_message_adapter``, the per-version
request surface, ``CallToolRequestParams``), unless it has the one plain shape all of them
accept as it stands, which ``json`` reads once (``_plain_call``); the tool runs through
``ToolServer.call_tool_unchecked`` (the same argument model, refusals and error wrapping
as any call, without checking the output model a second time), with the client's service
in place of the SDK's ``Context`` (``server.tools.DirectCall``); the result is shaped as the
SDK's runner shapes it (``model_dump`` then ``serialize_server_result`` for the session's
protocol version) and framed as its dispatcher frames it (the members of
``JSONRPCResponse``, by pydantic's serializer).

Whatever this path does not cover is *declined* (``None``), and the session's SDK server
answers the frame instead: a session of the 2026-07-28 era (per-request
envelopes), a frame that is not a call of a relayed tool, a request the SDK would refuse
with a protocol error, and a tool body that would have to wait on the event loop. So an
agent sees the same answers either way; only the SDK's dispatch is skipped (and, with it,
the SDK's OpenTelemetry span for the call).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Coroutine
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    PROTOCOL_VERSION_META_KEY,
    CallToolRequestParams,
    CallToolResult,
    JSONRPCRequest,
    TextContent,
    jsonrpc_message_adapter,
)
from mcp_types.methods import serialize_server_result, validate_client_request
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError
from pydantic_core import to_json

from server.app import ToolServer
from server.operations import OPERATIONS
from server.tools import DirectCall
from store.service import MemoryService

__all__ = ["RELAYED_TOOLS", "DirectAnswers"]

log = logging.getLogger("anchormem.direct")

# The calls of an agent's every turn (``Tool.relayed``). Each may be sent again to the
# next owner when the one running them dies (``Operation.resendable``), which is what the
# pipe does with the frames it had in flight (``server.pipe``).
RELAYED_TOOLS = frozenset(
    name for name, op in OPERATIONS.items() if op.tool is not None and op.tool.relayed
)
_METHOD = "tools/call"


class DirectAnswers:
    """Answers relayed frames with the tools of ``mcp`` (built by ``server.app``)."""

    def __init__(self, mcp: ToolServer) -> None:
        self._mcp = mcp
        # A cache hint would change the wire form (``ttlMs``): leave such a server's calls
        # to the SDK rather than shape them here.
        self._hinted = mcp.hints_calls

    def answer(self, frame: bytes, version: str, service: MemoryService) -> bytes | None:
        """The response frame (ending in a newline) the SDK would write for ``frame`` in a
        session of protocol ``version``, the call run on ``service``; ``None``: declined,
        the SDK must answer it (nothing was run)."""
        if self._hinted or version not in HANDSHAKE_PROTOCOL_VERSIONS:
            return None
        call = _plain_call(frame) or _checked_call(frame, version)
        if call is None:
            return None
        request_id, name, arguments = call
        result = self._run(name, arguments, DirectCall(service))
        if result is None:
            return None
        wire = _shaped(result, version)
        # ``JSONRPCResponse(...).model_dump_json(exclude_unset=True)`` without building the
        # model: the same three members, in its order, by the same serializer.
        return to_json({"jsonrpc": "2.0", "id": request_id, "result": wire}) + b"\n"

    def _run(self, name: str, arguments: dict[str, Any], call: DirectCall) -> CallToolResult | None:
        """The tool run to its end on this thread as ``MCPServer.call_tool`` runs it (but
        for the output check ``ToolServer.call_tool_unchecked`` leaves out), its failures
        made into results as the SDK's handler makes them; ``None`` if it would have
        waited."""
        coroutine = self._mcp.call_tool_unchecked(name, arguments, call)
        try:
            result = _run_to_end(coroutine)
        except MCPError:
            return None  # a protocol error: the SDK answers it as one
        except Exception as exc:  # as the SDK's handler: an error result, a crash logged here
            if not isinstance(exc, ToolError) or isinstance(exc, UnexpectedToolError):
                log.exception("tool %r raised an unexpected exception", name)
            return CallToolResult(content=[TextContent(type="text", text=str(exc))], is_error=True)
        if result is _WAITED or not isinstance(result, CallToolResult):
            return None
        return result


def _shaped(result: CallToolResult, version: str) -> dict[str, Any]:
    """``serialize_server_result`` of ``result.model_dump(...)`` for ``version``, as the
    SDK's runner makes it, without walking the structured content twice more: it is JSON
    data already (``tool_content`` dumped it in JSON mode), which a JSON-mode dump of a
    ``dict[str, Any]`` member returns as it is. So the rest of the result is shaped, and
    the structured content is put in as it stands where the version's result keeps the
    member (the SDK's surface is asked once per version), and left out where it does not
    (adr/0017)."""
    structured = result.structured_content
    rest = result if structured is None else result.model_copy(update={"structured_content": None})
    dumped = rest.model_dump(by_alias=True, mode="json", exclude_none=True)
    wire = serialize_server_result(_METHOD, version, dumped)
    if structured is not None and _carries_structured(version):
        wire[_STRUCTURED] = structured
    return wire


@functools.cache
def _carries_structured(version: str) -> bool:
    """Whether ``version``'s ``CallToolResult`` has structured content: asked of the
    SDK's surface once per version, with a probe."""
    probe = CallToolResult(content=[], structured_content={"probe": 1})
    dumped = probe.model_dump(by_alias=True, mode="json", exclude_none=True)
    return serialize_server_result(_METHOD, version, dumped).get(_STRUCTURED) == {"probe": 1}


def _plain_call(frame: bytes) -> tuple[int | str, str, dict[str, Any]] | None:
    """(id, tool, arguments) of a frame in the one shape every handshake-era version takes
    as it stands: ``{"jsonrpc": "2.0", "id": <int or str>, "method": "tools/call",
    "params": {"name": <a relayed tool>, "arguments": {...}}}`` and nothing more. What
    clients send; anything else is checked by the SDK's models (``_checked_call``). Parsed
    once by ``json``, not three times by the models (adr/0017)."""
    try:
        body = json.loads(frame)
    except ValueError:
        return None
    if type(body) is not dict or body.keys() != _PLAIN_KEYS:
        return None
    request_id, params = body["id"], body["params"]
    if body["jsonrpc"] != "2.0" or body["method"] != _METHOD or type(request_id) not in (int, str):
        return None  # a bool is not an id (the SDK reads such a frame as a notification)
    if type(params) is not dict or not params.keys() <= _PLAIN_PARAMS:
        return None
    name, arguments = params.get("name"), params.get("arguments", {})
    if type(name) is not str or name not in RELAYED_TOOLS or type(arguments) is not dict:
        return None
    return request_id, name, arguments


def _checked_call(frame: bytes, version: str) -> tuple[int | str, str, dict[str, Any]] | None:
    """(id, tool, arguments) of any other frame the SDK would run as a call of a relayed
    tool, parsed and checked by its models; ``None``: declined."""
    try:
        message = jsonrpc_message_adapter.validate_json(frame, by_name=False)
    except (ValidationError, ValueError):
        return None
    if not isinstance(message, JSONRPCRequest) or message.method != _METHOD:
        return None
    params = message.params
    meta = (params or {}).get("_meta")
    if isinstance(meta, dict) and PROTOCOL_VERSION_META_KEY in meta:
        return None  # an envelope of the other era: the SDK refuses it, with its code
    try:
        validate_client_request(_METHOD, version, params)
        call = CallToolRequestParams.model_validate(params or {}, by_name=False)
    except (ValidationError, KeyError, ValueError):
        return None
    if call.name not in RELAYED_TOOLS:
        return None
    return message.id, call.name, call.arguments or {}


_STRUCTURED = "structuredContent"
_PLAIN_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PLAIN_PARAMS = frozenset({"name", "arguments"})


_WAITED = object()


def _run_to_end(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """The value of a coroutine that completes without suspending (our tools do, given a
    ``DirectCall``); ``_WAITED`` if it suspends instead, and then it is closed."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    return _WAITED
