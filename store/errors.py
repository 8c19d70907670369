"""The one exception hierarchy of anchormem; every public error derives from it.

    AnchormemError
    ├── InvalidInput          bad arguments: empty text, unknown kind, malformed anchor, ...
    ├── NotFound              no memory (or receipt) with that id
    ├── StoreError
    │   ├── SchemaTooNew      the store was written by a newer anchormem; left untouched
    │   ├── StoreBusy         another process held the store for longer than the wait limit
    │   ├── StalePlan         a planned change no longer applies (changed since read)
    │   └── StoreUnavailable  the store file cannot be created or opened
    └── RepositoryError       no repository where one is needed

Errors of DuckDB and git are mapped to these at the boundary, once, so callers (the MCP
tools, the CLI) never show SQL, tracebacks or paths outside the repository.
"""

from __future__ import annotations

__all__ = [
    "AnchormemError",
    "InvalidInput",
    "NotFound",
    "RepositoryError",
    "SchemaTooNew",
    "StalePlan",
    "StoreBusy",
    "StoreError",
    "StoreUnavailable",
]


class AnchormemError(Exception):
    """Base of every error anchormem reports; the message is safe to show to a model."""


class InvalidInput(AnchormemError):
    """The caller's input was rejected; nothing was changed."""


class NotFound(AnchormemError):
    """No memory or receipt with the given id."""


class StoreError(AnchormemError):
    """The store could not do what was asked."""


class SchemaTooNew(StoreError):
    """The store's schema is newer than this version understands."""


class StoreBusy(StoreError):
    """The store stayed locked by another process past the wait limit."""


class StalePlan(StoreError):
    """A planned status change no longer applies: the memory's status changed since it
    was read (another process wrote). Nothing of the plan was written."""


class StoreUnavailable(StoreError):
    """The store file cannot be created or opened."""


class RepositoryError(AnchormemError):
    """A git repository was needed and none was found."""
