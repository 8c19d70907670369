"""The Python versions a project's trove classifiers list, as declarations of ``python``.

A project with no ``requires-python`` / ``python_requires`` often says what it supports in
its classifiers (``Programming Language :: Python :: 3.10``). Each minor version listed is
one declaration ``python==3.10.*``: "supports Python 3.10" holds when one of them is that
version, and "supports Python 3.7" is refuted when they list minor versions and none is.
A major version alone (``:: 3``) says too little to check a minor one and is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anchors.facts import Dependency
from anchors.requirement_strings import PYTHON

__all__ = ["python_from_classifiers"]

_MINOR = re.compile(r"Programming Language\s*::\s*Python\s*::\s*(?P<v>[23]\.\d{1,2})\s*")


def python_from_classifiers(classifiers: Iterable[object], path: str) -> list[Dependency]:
    """One ``python==X.Y.*`` declaration per minor version the classifiers list."""
    versions = [m.group("v") for c in classifiers
                if isinstance(c, str) and (m := _MINOR.fullmatch(c.strip()))]  # fmt: skip
    return [Dependency(PYTHON, f"=={v}.*", path) for v in dict.fromkeys(versions)]
