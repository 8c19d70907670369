"""A changed copy of a frozen record, made without running its ``__init__``.

``dataclasses.replace`` calls the class's ``__init__``, and a frozen dataclass's
``__init__`` sets every field through ``object.__setattr__``: 9 µs for a ``ConflictRecord``
and 18 µs for a ``Memory`` here. A remember makes one such copy per conflict it logs (the
mirror gives each record its sequence number) and a few of its memory, so a note that
meets a hundred conflicts spent about a millisecond on copies (adr/0017).
``evolve`` copies the fields as they are (a ``__dict__`` update, or each slot's own
descriptor) and sets the changed ones: the same object, in 1.5 µs and 7 µs. Only fields
are copied, never anything else an instance holds (a cached property).

It is for plain records only: a dataclass with ``__post_init__`` or a field left out of
``__init__`` would need its ``__init__`` to run, and goes through ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["evolve"]

_T = TypeVar("_T")


@dataclasses.dataclass(frozen=True)
class _Layout:
    names: frozenset[str]
    order: tuple[str, ...]
    slots: tuple[Any, ...] | None  # each field's slot descriptor, or None: a __dict__
    values: Callable[[object], tuple[Any, ...]] | None  # the fields' values, in slot order


def evolve(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace(obj, **changes)`` for a plain frozen dataclass, faster."""
    layout = _layout(type(obj))  # type: ignore[arg-type]  # a class is hashable
    if layout is None or not layout.names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(type(obj))
    if layout.slots is None:
        held = obj.__dict__  # only the fields: a cached property must be computed again
        new.__dict__.update({name: held[name] for name in layout.order}, **changes)
        return new
    assert layout.values is not None
    for slot, value in zip(layout.slots, layout.values(obj), strict=True):
        slot.__set__(new, value)
    for name, value in changes.items():
        type(obj).__dict__[name].__set__(new, value)
    return new


@functools.cache
def _layout(cls: type) -> _Layout | None:
    """How ``cls``'s fields are held, or None if a copy must run its ``__init__``."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        return None
    names = tuple(f.name for f in fields)
    slotted = [b for b in cls.__mro__ if b.__dict__.get("__slots__")]
    if not slotted:
        return _Layout(frozenset(names), names, None, None)
    if slotted != [cls] or set(cls.__dict__["__slots__"]) != set(names):
        return None  # slots of a base class, or beyond the fields: not a plain record
    getter = operator.attrgetter(*names)
    values = getter if len(names) > 1 else (lambda obj: (getter(obj),))
    return _Layout(frozenset(names), names, tuple(cls.__dict__[n] for n in names), values)
