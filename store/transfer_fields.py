"""Typed access to the JSON objects of an export line (``store.transfer_format``): each
value checked for its type, closed set, limit or form, and every free text with its
secrets replaced, as remember's inputs are (``store.redaction``, adr/0011).

An export file is text from outside this store (a teammate's committed export, a file
written by hand): a secret in any field of it, not only in a memory's text, would
otherwise reach the database file, its journal, the audit trail and the search terms.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from store.bounded_json import MAX_DETAIL_CHARS, MAX_DETAIL_DEPTH, nesting
from store.errors import InvalidInput
from store.limits import MAX_SUBJECT_CHARS
from store.redaction import redact

__all__ = ["ID", "Fields", "Redactions"]

ID = re.compile(r"^[a-z][0-9a-z]{1,63}$")
E = TypeVar("E", bound=StrEnum)


class Redactions:
    """The fields of one line whose secrets were replaced, named once each in the order
    found (the import's report says where)."""

    def __init__(self) -> None:
        self.fields: list[str] = []

    def clean(self, value: str, where: str) -> str:
        done = redact(value)
        if done.kinds:
            self.note(where)
        return done.text

    def note(self, where: str) -> None:
        if where not in self.fields:
            self.fields.append(where)


class Fields:
    """Typed access to one JSON object; a wrong value is ``InvalidInput`` naming it."""

    def __init__(self, data: object, what: str, redactions: Redactions | None = None) -> None:
        if not isinstance(data, dict):
            raise InvalidInput(f"{what} must be an object")
        self.data: dict[str, Any] = data
        self.what = what
        self.redactions = redactions if redactions is not None else Redactions()

    def _get(self, key: str, kinds: tuple[type, ...], required: bool) -> Any:
        value = self.data.get(key)
        if value is None:
            if required:
                raise InvalidInput(f"{self.what}: '{key}' is missing")
            return None
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise InvalidInput(f"{self.what}: '{key}' has the wrong type")
        return value

    def _where(self, key: str) -> str:
        return key if self.what == "a memory" else f"{self.what}'s {key}"

    def raw(self, key: str, limit: int = MAX_SUBJECT_CHARS, required: bool = False) -> Any:
        """A string as the file has it: for ids, times and closed sets, which are checked
        for their form; never for text that is stored as written."""
        value = self._get(key, (str,), required)
        if value is not None and ("\x00" in value or len(value) > limit):
            raise InvalidInput(f"{self.what}: '{key}' is too long or holds a NUL")
        return value

    def text(self, key: str, limit: int = MAX_SUBJECT_CHARS, required: bool = False) -> Any:
        """Free text, its secrets replaced by ``[REDACTED:<kind>]``."""
        value = self.raw(key, limit, required)
        return None if value is None else self.redactions.clean(value, self._where(key))

    def ident(self, key: str, required: bool = False) -> Any:
        value = self.raw(key, 64, required)
        if value is not None and not ID.match(value):
            raise InvalidInput(f"{self.what}: '{key}' is not an id")
        return value

    def number(self, key: str, required: bool = True) -> float | None:
        value = self._get(key, (int, float), required)
        if value is not None and not math.isfinite(value):
            raise InvalidInput(f"{self.what}: '{key}' is not a finite number")
        return None if value is None else float(value)

    def flag(self, key: str) -> bool:
        return bool(self._get(key, (bool,), True))

    def time(self, key: str, required: bool = False) -> Any:
        value = self.raw(key, 64, required)
        if value is None:
            return None
        try:
            at = datetime.fromisoformat(value)
        except ValueError:
            raise InvalidInput(f"{self.what}: '{key}' is not an ISO 8601 time") from None
        if at.tzinfo is None:
            raise InvalidInput(f"{self.what}: '{key}' has no time zone")
        return at

    def choice(self, key: str, cls: type[E], required: bool = True) -> Any:
        value = self.raw(key, 64, required)
        if value is None:
            return None
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise InvalidInput(f"{self.what}: '{key}' must be one of {allowed}") from None

    def items(self, key: str, limit: int = 100_000) -> list[Any]:
        value = self._get(key, (list,), False) or []
        if len(value) > limit:
            raise InvalidInput(f"{self.what}: '{key}' holds more than {limit} items")
        return list(value)

    def idents(self, key: str, limit: int = 1_000) -> tuple[str, ...]:
        values = self.items(key, limit)
        if not all(isinstance(v, str) and ID.match(v) for v in values):
            raise InvalidInput(f"{self.what}: '{key}' must be a list of ids")
        return tuple(values)

    def strings(self, key: str, limit: int = 1_000) -> tuple[str, ...]:
        """A list of short free texts, each with its secrets replaced."""
        values = self.items(key, limit)
        if not all(isinstance(v, str) and len(v) <= MAX_SUBJECT_CHARS for v in values):
            raise InvalidInput(f"{self.what}: '{key}' must be a list of short texts")
        return tuple(self.redactions.clean(v, self._where(key)) for v in values)

    def detail(self, key: str) -> dict[str, Any]:
        """A free-form JSON object within the bounds every listing can show
        (``store.bounded_json``), every key and text in it with its secrets replaced."""
        value = self.data.get(key) or {}
        if not isinstance(value, dict):
            raise InvalidInput(f"{self.what}: '{key}' must be an object")
        depth = nesting(value, MAX_DETAIL_DEPTH)
        if depth > MAX_DETAIL_DEPTH:
            raise InvalidInput(
                f"{self.what}: '{key}' nests more than {MAX_DETAIL_DEPTH} levels deep"
            )
        if len(_compact(value)) > MAX_DETAIL_CHARS:
            raise InvalidInput(
                f"{self.what}: '{key}' is larger than {MAX_DETAIL_CHARS:,} characters"
            )
        cleaned: dict[str, Any] = self._redacted(value, self._where(key))
        return cleaned

    def _redacted(self, value: Any, where: str) -> Any:
        # Recursive, but only over a value already found no deeper than MAX_DETAIL_DEPTH.
        if isinstance(value, str):
            return self.redactions.clean(value, where)
        if isinstance(value, list):
            return [self._redacted(v, where) for v in value]
        if isinstance(value, dict):
            return {
                self.redactions.clean(k, where): self._redacted(v, where) for k, v in value.items()
            }
        return value


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
