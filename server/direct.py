"""The store's owner answering a relayed ``tools/call`` frame itself (adr/0017).

An ``anchormem serve`` process sends the frames of its hot tools (``RELAYED_TOOLS``)
straight to the owner (``server.relay``). The owner answers each one with the frame the
SDK's server would have written for it, built by the SDK's own parts: the request is
parsed and checked by the SDK's models (``jsonrpc_message_adapter``, the per-version
request surface, ``CallToolRequestParams``); the tool runs through
``MCPServer.call_tool`` (the same argument model, refusals, error wrapping and output
check as any call), with the client's service in place of the SDK's ``Context``
(``server.app.DirectCall``); the result is shaped as the SDK's runner shapes it
(``model_dump`` then ``serialize_server_result`` for the session's protocol version) and
framed as its dispatcher frames it (``JSONRPCResponse.model_dump_json``).

Whatever this path does not cover is *declined* (``None``), and the serving process hands
the frame to its SDK server instead: a session of the 2026-07-28 era (per-request
envelopes), a frame that is not a call of a relayed tool, a request the SDK would refuse
with a protocol error, and a tool body that would have to wait on the event loop. So an
agent sees the same answers either way; only the SDK's dispatch and the second process's
hop are skipped (and, with them, the SDK's OpenTelemetry span for the call).
"""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    PROTOCOL_VERSION_META_KEY,
    CallToolRequestParams,
    CallToolResult,
    JSONRPCRequest,
    JSONRPCResponse,
    TextContent,
    jsonrpc_message_adapter,
)
from mcp_types.methods import serialize_server_result, validate_client_request
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import ValidationError

from server.app import DirectCall
from store.service import MemoryService

__all__ = ["RELAYED_TOOLS", "DirectAnswers"]

log = logging.getLogger("anchormem.direct")

# The calls of an agent's every turn. Both may be sent again to the next owner when the
# one running them dies (store.sharing.remote.RESENDABLE), which is what the relay does
# with the frames it had in flight.
RELAYED_TOOLS = frozenset({"remember", "recall"})
_METHOD = "tools/call"


class DirectAnswers:
    """Answers relayed frames with the tools of ``mcp`` (built by ``server.app``)."""

    def __init__(self, mcp: MCPServer[Any]) -> None:
        self._mcp = mcp
        # A cache hint would change the wire form (``ttlMs``): leave such a server's calls
        # to the SDK rather than shape them here.
        self._hinted = _METHOD in mcp._lowlevel_server.cache_hints

    def answer(self, frame: bytes, version: str, service: MemoryService) -> bytes | None:
        """The response frame (ending in a newline) the SDK would write for ``frame`` in a
        session of protocol ``version``, the call run on ``service``; ``None``: declined,
        the SDK must answer it (nothing was run)."""
        if self._hinted or version not in HANDSHAKE_PROTOCOL_VERSIONS:
            return None
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
        result = self._run(call.name, call.arguments or {}, DirectCall(service))
        if result is None:
            return None
        dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        wire = serialize_server_result(_METHOD, version, dumped)
        response = JSONRPCResponse(jsonrpc="2.0", id=message.id, result=wire)
        return response.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"

    def _run(self, name: str, arguments: dict[str, Any], call: DirectCall) -> CallToolResult | None:
        """``MCPServer.call_tool`` run to its end on this thread, with its failures made
        into results as the SDK's handler makes them; ``None`` if it would have waited."""
        coroutine = self._mcp.call_tool(name, arguments, call)  # type: ignore[arg-type]
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
