"""One PEP 508 requirement string read as a declared dependency, and the name a project's
supported Python versions are declared under.

Its own module because every Python manifest reader needs it: ``anchors.manifests``
(pyproject.toml, requirements files) and ``anchors.legacy_manifests`` (setup.py,
setup.cfg), which ``anchors.manifests`` dispatches to.
"""

from __future__ import annotations

import re

from anchors.facts import Dependency
from anchors.spec import normalize_dist_name

__all__ = ["COMPUTED", "PYTHON", "development_group", "parse_requirement"]

# The Python versions a project supports (``requires-python``, ``python_requires``, Poetry's
# ``python``) are declared as a dependency on this name: "requires Python 3.8+" is checked
# like any version claim.
PYTHON = "python"
# A manifest whose run-time requirements are taken from elsewhere (``dynamic =
# ["dependencies"]``) declares this name: the project may depend on anything.
COMPUTED = "*"

_REQUIREMENT = re.compile(
    r"^(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*"
    r"(?:\[(?P<extras>[^\]]*)\])?\s*(?P<rest>.*)$"
)


def parse_requirement(text: str, source: str) -> Dependency | None:
    """One PEP 508 requirement string: name normalised, version spec kept as text.

    Extras and environment markers are dropped; a direct reference (``name @ url``) declares
    the name with an empty spec. Returns None for text that names no distribution.
    """
    text = text.split(";", 1)[0].strip()
    match = _REQUIREMENT.match(text)
    if match is None:
        return None
    rest = match.group("rest").strip()
    if rest.startswith("@"):
        spec = ""
    elif rest.startswith("(") and rest.endswith(")"):
        spec = rest[1:-1].strip()
    elif rest == "" or rest[0] in "<>=!~":
        spec = rest
    else:
        return None  # e.g. a URL or a path: "name" would be a fragment of it
    return Dependency(normalize_dist_name(match.group("name")), spec, source)


# An extra or dependency group for development: "dev", "test", "docs", "lint", "typing" ...
_DEV_GROUP = re.compile(
    r"(?:^|[_.-])(?:dev|devel|develop|development|test|tests|testing|doc|docs|lint|linting|ci|"
    r"bench|typing|types|mypy|build|check|checks|qa|style|format|coverage|tox)(?:[_.-]|$)"
)


def development_group(name: str) -> bool:
    """Whether an extra or a dependency group named ``name`` is for development."""
    return _DEV_GROUP.search(name.lower()) is not None
