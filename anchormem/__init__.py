"""``python -m anchormem``: the ``anchormem`` command under the distribution's own name.

The code lives in the top-level packages ``server``, ``store`` and ``anchors``
(adr/0001); this package only forwards to the console script's entry point, and says which
version is running: ``__version__``, read from the one place it is written, the ``version``
of ``pyproject.toml`` (through the installed distribution's metadata).
"""

from functools import cache
from importlib import metadata
from pathlib import Path

__all__ = ["__version__"]


@cache
def _version() -> str:
    try:
        return metadata.version("anchormem")
    except metadata.PackageNotFoundError:
        pass
    # A checkout run without being installed (``PYTHONPATH=.``): its own pyproject.toml.
    import tomllib

    try:
        with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def __getattr__(name: str) -> str:
    """``__version__``, read on first use: a CLI call that never shows it does not pay for
    reading the distribution's metadata."""
    if name != "__version__":
        raise AttributeError(f"module 'anchormem' has no attribute {name!r}")
    return _version()
