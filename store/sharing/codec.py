"""The service's values as JSON and back: the one place that knows how a result of
``store.results`` (and every value inside it), a call's arguments and an error cross the
owner's socket (adr/0012). Never pickle: a peer's bytes only ever become JSON values,
dataclasses and enums of anchormem's own packages, dates and anchormem's errors.

    None, bool, int, float, str    as themselves
    list / dict with str keys      as themselves (dict values encoded)
    tuple                          {"$t": [...]}
    set / frozenset                {"$s": [...]}        (decoded as a frozenset)
    dict with other keys           {"$m": [[key, value], ...]}
    datetime                       {"$dt": "<ISO 8601>"}
    Path                           {"$p": "..."}
    enum member                    {"$e": "module:Class", "v": value}
    dataclass                      {"$c": "module:Class", "f": {field: value}}

A class is found by name only among modules of ``store`` and ``anchors`` that this
process has already imported, and only if it is a dataclass or an enum there; anything
else is refused (``CodecError``). Decoding a dataclass calls its constructor, so its own
checks run.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

from store.errors import AnchormemError, StoreError

__all__ = ["CodecError", "decode", "decode_error", "encode", "encode_error"]

_PACKAGES = ("store.", "anchors.")


class CodecError(StoreError):
    """A message from the other side is not a value this version knows."""


_SCALARS = (str, int, float, bool, type(None))
_DATACLASSES: dict[type, tuple[str, tuple[str, ...]]] = {}  # class -> name, fields
_ENUMS: dict[type, str] = {}
_DECODABLE: dict[str, tuple[type, frozenset[str], frozenset[str]]] = {}  # name -> class,
# the fields its constructor takes, the others


def encode(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    known = _DATACLASSES.get(kind)
    if known is not None:
        name, names = known
        return {"$c": name, "f": {n: encode(getattr(value, n)) for n in names}}
    if kind is tuple:
        return {"$t": [encode(v) for v in value]}
    enum = _ENUMS.get(kind)
    if enum is not None:
        return {"$e": enum, "v": value.value}
    if kind is list:
        return [encode(v) for v in value]
    if isinstance(value, Enum):  # before str: a StrEnum is a str too
        _ENUMS[kind] = _name(kind)
        return encode(value)
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime):
        return {"$dt": value.isoformat()}
    if isinstance(value, Path):
        return {"$p": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _DATACLASSES[kind] = (_name(kind), tuple(f.name for f in dataclasses.fields(value)))
        return encode(value)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value] if isinstance(value, list) else encode(tuple(value))
    if isinstance(value, set | frozenset):
        return {"$s": [encode(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$m": [[encode(k), encode(v)] for k, v in value.items()]}
    raise CodecError(f"cannot send a {kind.__name__} to the store's owner")


def decode(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [decode(v) for v in value]
    if kind is not dict:
        raise CodecError(f"unexpected {kind.__name__} in a message")
    if "$c" in value:
        return _dataclass(value)
    if "$t" in value:
        return tuple(decode(v) for v in _list(value["$t"]))
    if "$e" in value:
        enum = _class(value["$e"])
        if not (isinstance(enum, type) and issubclass(enum, Enum)):
            raise CodecError(f"{value['$e']!r} is not an enum")
        try:
            return enum(value.get("v"))
        except ValueError:
            raise CodecError(f"{value.get('v')!r} is not a {enum.__name__}") from None
    if "$s" in value:
        return frozenset(decode(v) for v in _list(value["$s"]))
    if "$m" in value:
        return {decode(k): decode(v) for k, v in (_pair(p) for p in _list(value["$m"]))}
    if "$dt" in value:
        try:
            return datetime.fromisoformat(str(value["$dt"]))
        except ValueError:
            raise CodecError("a malformed date in a message") from None
    if "$p" in value:
        return Path(str(value["$p"]))
    return {str(k): decode(v) for k, v in value.items()}


def _dataclass(value: dict[str, Any]) -> Any:
    name = value["$c"]
    known = _DECODABLE.get(name) if isinstance(name, str) else None
    if known is None:
        cls = _class(name)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise CodecError(f"{name!r} is not a value type")
        fields = dataclasses.fields(cls)
        known = (
            cls,
            frozenset(f.name for f in fields if f.init),
            frozenset(f.name for f in fields if not f.init),
        )
        _DECODABLE[name] = known
    cls, init, other = known
    given = value.get("f")
    if type(given) is not dict:
        raise CodecError("a value without fields")
    unknown = given.keys() - init - other
    if unknown:
        raise CodecError(f"unknown fields of {cls.__name__}: {sorted(unknown)}")
    try:
        made = cls(**{k: decode(v) for k, v in given.items() if k in init})
    except TypeError as exc:
        raise CodecError(f"{cls.__name__}: {exc}") from None
    for k in given.keys() & other:
        object.__setattr__(made, k, decode(given[k]))
    return made


def encode_error(exc: BaseException) -> dict[str, str]:
    """An error for the other side: its class (one of anchormem's) and its message."""
    if isinstance(exc, AnchormemError):
        return {"type": _name(type(exc)), "message": str(exc)}
    return {"type": "", "message": f"internal error in the store's owner ({type(exc).__name__})"}


def decode_error(error: Any) -> AnchormemError:
    """The error the owner reported, as this process's class of it (``StoreError`` for an
    unknown or internal one)."""
    if not isinstance(error, dict):
        return CodecError("the store's owner sent a malformed error")
    message = str(error.get("message") or "the store's owner failed")
    try:
        cls = _class(error.get("type"))
    except CodecError:
        return StoreError(message)
    if not (isinstance(cls, type) and issubclass(cls, AnchormemError)):
        return StoreError(message)
    for base in cls.__mro__:  # the nearest class that is made from a message alone
        if isinstance(base, type) and issubclass(base, AnchormemError):
            try:
                made: AnchormemError = base(message)
            except TypeError:
                continue
            return made
    return StoreError(message)


# Where the closed sets a call's arguments may hold are defined: a process that has not
# needed one yet (the owner loads the contradiction judging on first use) imports it to
# decode it. Only these: a name from the socket never chooses what is imported.
_ARGUMENT_MODULES = frozenset(
    {"store.contradictions.judging", "store.evidence.observations", "store.model"}
)


def _name(cls: type) -> str:
    if not cls.__module__.startswith(_PACKAGES):
        raise CodecError(f"cannot send a {cls.__name__} to the store's owner")
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(name: object) -> object:
    if not isinstance(name, str) or ":" not in name:
        raise CodecError(f"not a type name: {name!r}")
    module_name, _, qualname = name.partition(":")
    if not module_name.startswith(_PACKAGES):
        raise CodecError(f"not one of anchormem's types: {name!r}")
    module = sys.modules.get(module_name)
    if module is None:
        if "store.results" not in sys.modules:  # every result's types, imported once
            importlib.import_module("store.results")
        if module_name in _ARGUMENT_MODULES:  # a call's argument, its module not loaded yet
            importlib.import_module(module_name)
        module = sys.modules.get(module_name)
    if module is None or "." in qualname:
        raise CodecError(f"unknown type {name!r}")
    found = getattr(module, qualname, None)
    if found is None:
        raise CodecError(f"unknown type {name!r}")
    return found


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise CodecError("a malformed sequence in a message")
    return value


def _pair(value: object) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise CodecError("a malformed mapping in a message")
    return value[0], value[1]
