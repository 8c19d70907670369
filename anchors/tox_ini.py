"""The test environments of a ``tox.ini``: what each installs (``deps``) is a development
dependency, never a run-time one.

"isso is a Flask application" is not made true by ``flask`` in a ``[testenv:...]`` list:
tox installs it to run tests. Read as declarations with ``runtime=False``, such names count
as what they are (anchors.extract leaves a claim about run-time use that rests on them
uncovered) rather than as plain mentions in a configuration file, which count as use.

A pure function over the file's bytes; a malformed file yields what could be read.
"""

from __future__ import annotations

import configparser
import re
from dataclasses import replace

from anchors.facts import Dependency
from anchors.requirement_strings import parse_requirement

__all__ = ["parse_tox_ini"]

# "py38,py39: pytest>=7": the factors a line is conditional on come before a colon
_FACTORS = re.compile(r"^[\w{},.!-]+:\s+")


def parse_tox_ini(data: bytes, path: str) -> list[Dependency]:
    """The ``deps`` of every ``[testenv]`` / ``[testenv:NAME]`` section, as development
    dependencies. Options (``-r requirements.txt``), paths, URLs and substitutions
    (``{toxinidir}``) name no distribution and are skipped."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(data.decode("utf-8-sig", errors="replace"), source=path)
    except configparser.Error:
        return []
    found: dict[str, Dependency] = {}
    for section in parser.sections():
        if section != "testenv" and not section.startswith("testenv:"):
            continue
        for raw in parser.get(section, "deps", fallback="").splitlines():
            line = _FACTORS.sub("", raw.split("#", 1)[0].strip())
            if not line or line.startswith(("-", ".", "/")) or "{" in line or "://" in line:
                continue
            dep = parse_requirement(line, path)
            if dep is not None and dep.name not in found:
                found[dep.name] = replace(dep, runtime=False)
    return list(found.values())
