"""The experiments' branch of the error tree (drawn in ``store.errors``).

Every error an experiment reports is an ``ExperimentError`` and carries the exit code
its command returns: 2 for a usage problem (a bad option, facts file or repository),
1 for a failure while running.
"""

from __future__ import annotations

from anchors.errors import AnchormemError, InvalidInput

__all__ = ["EXIT_FAILURE", "EXIT_USAGE", "ExperimentError", "exit_code"]

EXIT_FAILURE, EXIT_USAGE = 1, 2


class ExperimentError(AnchormemError):
    """The experiment cannot run as asked; ``code`` is the exit code (2: usage, 1: failure).
    Subclasses set their own default ``code``."""

    code: int = EXIT_FAILURE

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


def exit_code(exc: AnchormemError) -> int:
    """The exit code of an experiment command that stopped on ``exc``."""
    if isinstance(exc, ExperimentError):
        return exc.code
    return EXIT_USAGE if isinstance(exc, InvalidInput) else EXIT_FAILURE
