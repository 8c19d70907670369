"""Which JSON values are JSON-RPC 2.0 messages as the MCP SDK reads them, without the SDK.

The stdio guard (``server.stdio_guard``) answers every frame the SDK would drop without a
word. It runs in the serving process, which imports no part of the SDK when the store's
owner answers its frames (``server.pipe``): the SDK and its protocol models are most of a
process's memory. So the shapes of ``mcp_types.jsonrpc`` are read here with the standard
library, member for member; ``tests/server/test_jsonrpc_shape.py`` checks that this
reading and the SDK's ``jsonrpc_message_adapter`` agree on every frame it tries.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

__all__ = ["INVALID_REQUEST", "PARSE_ERROR", "Kind", "kind_of", "parse"]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

Kind = Literal["request", "notification", "response", "error"]


def parse(text: str) -> object:
    """The JSON value of ``text`` (``ValueError`` or ``RecursionError`` if it is none).
    Like the SDK's parser, this one takes ``NaN`` and ``Infinity`` as numbers, and refuses
    a string escape that is half of a surrogate pair."""
    value = json.loads(text)
    if ("\\ud" in text or "\\uD" in text) and _lone_surrogate(value):
        raise ValueError("a string holds a lone surrogate escape")
    return value


def _lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def _request_id(value: object) -> bool:
    # ``int`` is strict in the SDK (``true`` is no id), a string any string.
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _params(message: dict[str, Any]) -> bool:
    params = message.get("params")
    return params is None or isinstance(params, dict)


_INT_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*(?:\.0+)?", re.ASCII)


def _lax_int(value: object) -> bool:
    """Whether pydantic's lax ``int`` takes ``value``: an int or a bool, an integral
    float, or a string of ASCII digits (with single underscores, a ``.0`` end)."""
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, str):
        return _INT_TEXT.fullmatch(value.strip()) is not None
    return False


def _error_data(value: object) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("message"), str)
        and _lax_int(value.get("code"))
    )


def kind_of(message: object) -> Kind | None:
    """What the SDK reads ``message`` (a parsed JSON value) as, or None when it is no
    JSON-RPC message it accepts. The SDK tries each shape and takes the one that fits:
    a request (an id, a method), a notification (a method: any other ``id`` is ignored),
    an error (an id or null, an ``error``), a response (an id, a ``result`` object)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    method = message.get("method")
    if isinstance(method, str) and _params(message):
        if "id" in message and _request_id(message["id"]):
            return "request"
        return "notification"
    if (
        "id" in message
        and (message["id"] is None or _request_id(message["id"]))
        and _error_data(message.get("error"))
    ):
        return "error"  # the SDK prefers it to a response when both fit
    if "id" in message and _request_id(message["id"]) and isinstance(message.get("result"), dict):
        return "response"
    return None
