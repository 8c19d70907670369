"""``python -m anchormem``: the ``anchormem`` command under the distribution's own name.

The code lives in the top-level packages ``server``, ``store`` and ``anchors``
(adr/0001); this package only forwards to the console script's entry point, and says which
version is running: ``__version__``, read from the one place it is written, the ``version``
of ``pyproject.toml`` (in a checkout, that file itself; once installed, the distribution's
metadata).
"""

from functools import cache
from pathlib import Path

__all__ = ["__version__"]


@cache
def _version() -> str:
    # A checkout (run in place or installed editable) reads its own pyproject.toml first:
    # that is the one place the version is written, and reading it is much quicker than
    # importing the metadata machinery, which every quick CLI call would otherwise pay for
    # (the owner's handshake compares versions).
    import tomllib

    try:
        with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as file:
            project = tomllib.load(file).get("project", {})
        if project.get("name") == "anchormem" and isinstance(project.get("version"), str):
            return str(project["version"])
    except (OSError, AttributeError, tomllib.TOMLDecodeError):
        pass
    # An installed distribution: no pyproject.toml beside the package, its metadata.
    from importlib import metadata

    try:
        return metadata.version("anchormem")
    except metadata.PackageNotFoundError:
        return "unknown"


def __getattr__(name: str) -> str:
    """``__version__``, read on first use: a CLI call that never shows it does not pay for
    reading the distribution's metadata."""
    if name != "__version__":
        raise AttributeError(f"module 'anchormem' has no attribute {name!r}")
    return _version()
