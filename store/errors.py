"""The one exception hierarchy of anchormem; every error it raises derives from it.

    AnchormemError                   anchors.errors (the root: the bottom package owns it)
    ├── InvalidInput                 anchors.errors: bad arguments (empty text, unknown kind, ...)
    │   └── AnchorSyntaxError        anchors.spec: a malformed or unsafe anchor
    ├── NotFound                     no memory (or receipt) with that id
    ├── CodeError                    anchors.errors: the repository's code cannot be read
    │   ├── RepositoryError          anchors.errors: no repository where one is needed
    │   ├── GitError                 anchors.gitrepo: a git command failed
    │   └── FingerprintUnavailable   anchors.fingerprint: no fingerprint of HEAD
    ├── StoreError                   the store could not do what was asked
    │   ├── SchemaTooNew             the store was written by a newer anchormem; left untouched
    │   ├── StoreBusy                another process held the store past the wait limit
    │   ├── StalePlan                a planned change no longer applies (changed since read)
    │   ├── CodecError               store.sharing.codec: a message from the store's owner
    │   │                            (or a client) is not a value this version knows
    │   └── StoreUnavailable         the store file cannot be created or opened
    │       ├── StoreTampered        the store file holds what anchormem never writes
    │       └── OwnerMismatch        store.sharing.client: the owner is a newer anchormem
    ├── SetupError                   server.setup_clients: a client's config cannot be merged
    └── ExperimentError              experiments.errors: an experiment cannot run (``code``)
        ├── FactsError               experiments.facts: the facts file is not valid (code 2)
        │   └── CheckSyntaxError     experiments.evidence: a fact's check is malformed
        ├── CorpusError              experiments.corpus: the real-repository corpus failed
        ├── ScratchGitError          experiments.scratch: git failed in a scratch repository
        └── SessionError             experiments.agents: an agent's MCP session failed

Errors of DuckDB, git and the file system are mapped to these where they happen, once,
and the boundaries (the MCP handlers in ``server.app``, ``server.cli.main``, the
experiments' ``run_cli``) catch the branches, so callers never see SQL, tracebacks or
paths outside the repository. Anything else reaching a boundary is a bug.
"""

from __future__ import annotations

from anchors.errors import AnchormemError, CodeError, InvalidInput, RepositoryError

__all__ = [
    "AnchormemError",
    "CodeError",
    "InvalidInput",
    "NotFound",
    "RepositoryError",
    "SchemaTooNew",
    "StalePlan",
    "StoreBusy",
    "StoreError",
    "StoreTampered",
    "StoreUnavailable",
]


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


class StoreTampered(StoreUnavailable):
    """The store file holds something anchormem never writes (a view, a macro, an
    expression): it was replaced or changed by someone else, and is not opened."""
