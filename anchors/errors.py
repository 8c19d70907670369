"""The root of anchormem's one exception hierarchy, and the branches of the code layer.

It lives here, at the bottom of the dependency order (server → store → anchors;
experiments use store and anchors), so that every package derives its errors from it.
``store.errors`` draws the whole tree and re-exports these names.

    AnchormemError
    ├── InvalidInput          bad arguments; ``anchors.spec.AnchorSyntaxError`` is one
    └── CodeError             the repository's code cannot be read
        ├── RepositoryError   no repository where one is needed
        ├── GitError          a git command failed (``anchors.gitrepo``)
        └── FingerprintUnavailable  no fingerprint of HEAD (``anchors.fingerprint``)
"""

from __future__ import annotations

__all__ = ["AnchormemError", "CodeError", "InvalidInput", "RepositoryError"]


class AnchormemError(Exception):
    """Base of every error anchormem reports; the message is safe to show to a model."""


class InvalidInput(AnchormemError):
    """The caller's input was rejected; nothing was changed."""


class CodeError(AnchormemError):
    """The repository's code could not be read (no repository, git failed, no fingerprint)."""


class RepositoryError(CodeError):
    """A git repository was needed and none was found."""
