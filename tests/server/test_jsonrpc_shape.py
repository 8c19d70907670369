"""The serving process's reading of JSON-RPC shapes (``server.jsonrpc_shape``, no SDK)
against the SDK's own (``jsonrpc_message_adapter``): every frame tried is taken, or
refused, by both alike, and read as the same kind of message."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from mcp_types import (
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from server.jsonrpc_shape import kind_of, parse

_KINDS = {
    JSONRPCRequest: "request",
    JSONRPCNotification: "notification",
    JSONRPCResponse: "response",
    JSONRPCError: "error",
}
_MISSING = object()

IDS = [_MISSING, 1, 0, -7, 2**70, "a", "", True, False, None, 1.0, 1.5, [], {}]
JSONRPC = [_MISSING, "2.0", "2", 2.0, None]
METHODS = [_MISSING, "tools/call", "", 3, None]
PARAMS = [_MISSING, {}, {"a": 1}, [], None, "x", 3]
RESULTS = [_MISSING, {}, {"x": 1}, [], None, "ok"]
ERRORS: list[Any] = [
    _MISSING,
    {"code": -32600, "message": "m"},
    {"code": -32600, "message": "m", "data": [1]},
    {"code": "-32600", "message": "m"},
    {"code": " 12 ", "message": "m"},
    {"code": "1_000", "message": "m"},
    {"code": "1.0", "message": "m"},
    {"code": "x", "message": "m"},
    {"code": "1e3", "message": "m"},
    {"code": "1.5", "message": "m"},
    {"code": "nan", "message": "m"},
    {"code": "inf", "message": "m"},
    {"code": "0x10", "message": "m"},
    {"code": "", "message": "m"},
    {"code": "+4", "message": "m"},
    {"code": "12.000", "message": "m"},
    {"code": "1.", "message": "m"},
    {"code": ".0", "message": "m"},
    {"code": "1__0", "message": "m"},
    {"code": "_1", "message": "m"},
    {"code": "\u0661\u0662", "message": "m"},
    {"code": "\t-3\n", "message": "m"},
    {"code": 1.0, "message": "m"},
    {"code": 1.5, "message": "m"},
    {"code": True, "message": "m"},
    {"code": None, "message": "m"},
    {"code": 1},
    {"message": "m"},
    {"code": 1, "message": 2},
    [],
    None,
]


def _sdk_kind(text: str) -> str | None:
    try:
        message = jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValidationError:
        return None
    return _KINDS[type(message)]


def _frames() -> list[str]:
    frames = []
    for jsonrpc, id_, method, params in itertools.product(JSONRPC, IDS, METHODS, PARAMS):
        frames.append(_dump(jsonrpc=jsonrpc, id=id_, method=method, params=params))
    for jsonrpc, id_, result in itertools.product(JSONRPC, IDS, RESULTS):
        frames.append(_dump(jsonrpc=jsonrpc, id=id_, result=result))
    for id_, error in itertools.product(IDS, ERRORS):
        frames.append(_dump(jsonrpc="2.0", id=id_, error=error))
        frames.append(_dump(jsonrpc="2.0", id=id_, error=error, result={}))
    frames += ["[]", "3", '"x"', "null", "{}", '[{"jsonrpc": "2.0", "method": "ping"}]']
    return frames


def _dump(**members: Any) -> str:
    return json.dumps({k: v for k, v in members.items() if v is not _MISSING})


FRAMES = _frames()


def test_the_frames_cover_every_kind_and_refusals() -> None:
    kinds = {_sdk_kind(text) for text in FRAMES}
    assert kinds == {"request", "notification", "response", "error", None}


def test_every_frame_is_read_as_the_sdk_reads_it() -> None:
    differ = [
        (text, kind_of(parse(text)), _sdk_kind(text))
        for text in FRAMES
        if kind_of(parse(text)) != _sdk_kind(text)
    ]
    assert differ == []


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"jsonrpc": "2.0", "method": "m"',
        "",
        "tru",
        '{"jsonrpc": "2.0", "method": "m", "params": {"a": "\\ud800"}}',
        '{"jsonrpc": "2.0", "method": "m", "params": {"\\uDC00": 1}}',
    ],
)
def test_what_is_not_json_is_refused_by_both(text: str) -> None:
    with pytest.raises(ValueError):
        parse(text)
    assert _sdk_kind(text) is None


def test_a_whole_surrogate_pair_is_taken_by_both() -> None:
    text = '{"jsonrpc": "2.0", "method": "m", "params": {"a": "\\ud83d\\ude00"}}'
    assert kind_of(parse(text)) == _sdk_kind(text) == "notification"


def test_nan_and_infinity_are_numbers_to_both() -> None:
    text = '{"jsonrpc": "2.0", "method": "m", "id": NaN, "params": {"x": Infinity}}'
    assert kind_of(parse(text)) == _sdk_kind(text) == "notification"
