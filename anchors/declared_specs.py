"""A version spec a note quotes as its manifest writes it: "jest ^29.2.0 is a
devDependency", "pyproject requires jupyter_server>=2.0.1,<3", "react ^18.2.0 in
dependencies".

A dependency anchor with a version checks that the declared range satisfies the stated
one, which a narrower declaration does too: so a spec the note states as such is never
VERIFIED by it (adr/0026). What the manifest writes can be compared as text, though: a
stated version whose package, operator and number the declaration of that package holds
as written (``^29.2.0`` in ``"jest": "^29.2.0"``) is checked; so is a bare major ("React
18") that the declared spec starts with. Anything else stays an uncovered value.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect, normalize_dist_name
from anchors.value_claims import stated_values
from anchors.vocabulary import TechKind, Technology, by_name

__all__ = [
    "DeclaredSpec",
    "as_go_requirement",
    "as_wanted",
    "bare_version",
    "declared_specs",
]

# The package name and the operator right before a version, with the earlier clauses of
# the same spec between them ("jupyter_server>=2.0.1,<" before "3").
_BEFORE = re.compile(
    r"(?P<name>@?[A-Za-z][\w.\-]*(?:/[\w.\-]+)?)`?\s*\(?\s*"
    r"(?:[\^~<>=!]{1,2}\s*[\w.*]+\s*,\s*)*(?P<op>[\^~<>=!]{0,2})\s*v?$"
)
_SPACES = re.compile(r"\s+")


class DeclaredSpec(NamedTuple):
    """A stated version a declaration holds as written: its span, the package as the note
    names it, and the dependency's name as its manifest indexes it."""

    span: tuple[int, int]
    written: str
    dependency: str
    runtime: bool
    spec: str  # as the manifest writes it: the anchor checks it again at every read


# "..., pinned to 0.9.0", "locked at version 2.1", "declared as "1.3"": a pin said of a
# package named earlier
_PINNED = re.compile(r"\b(?:(?:pinned|locked|fixed|held)\s+(?:at|to)|"
                     r"(?P<as>declared\s+(?:as|at|with)))"
                     r"\s+(?:version\s+)?[`'\"]?(?P<op>[\^~]|>=)?v?$", re.I)  # fmt: skip
_WORD = re.compile(r"@?[A-Za-z][\w.\-]*(?:/[\w.\-]+)?")


def declared_specs(text: str, fp: Fingerprint) -> list[DeclaredSpec]:
    """The stated versions of ``text`` that a declaration holds as written, and the pins
    said of a declared package named before them in the sentence."""
    found_specs = []
    for value in stated_values(text):
        if (pinned := _pinned(text, value.start, value.text, fp)) is not None:
            found_specs.append(pinned)
            continue
        found = _BEFORE.search(text, max(0, value.start - 80), value.start)
        if found is None:
            continue
        name, op = found.group("name"), found.group("op")
        bound = _BELOW.match(text, value.end)
        for dep in (d for n in _names(name) for d in fp.dependency(n)):
            if bound is not None and f"<{bound.group(1)}" not in _SPACES.sub("", dep.spec):
                continue  # "and below 6.6": a bound the declaration does not write
            if _holds(_SPACES.sub("", dep.spec), op, value.text):
                span = (value.start, value.end)
                found_specs.append(DeclaredSpec(span, name, dep.name, dep.runtime, dep.spec))
                break
    return found_specs


_YEAR = re.compile(r"(?:19|20)\d\d")
_WORD_AFTER = re.compile(r"\s+[A-Za-z]")
# "tornado>=6.5.7 and below 7": an upper bound said after the version
_BELOW = re.compile(
    r"\s*,?\s*(?:and|but)?\s+(?:below|under|before|less\s+than)\s+v?(\d[\w.]*\d|\d)", re.I
)


def _pinned(text: str, at: int, number: str, fp: Fingerprint) -> DeclaredSpec | None:
    """"django-environ (environ.Env), pinned to 0.9.0": ``==0.9.0`` of the last declared
    package the sentence names before the pin, whatever stands between."""
    start = max(text.rfind(". ", 0, at), text.rfind(";", 0, at), 0)
    pin = _PINNED.search(text, start, at)
    if pin is None or not number[:1].isdigit():
        return None
    if _YEAR.fullmatch(number) and _WORD_AFTER.match(text, at + len(number)):
        return None  # "pinned to 2018 pseudo-versions": a year that says of which versions
    for word in reversed(_WORD.findall(text, start, at)):
        declared = [d for n in _names(word.strip(".")) for d in fp.dependency(n)]
        if declared and len({d.ecosystem for d in declared}) == 1:
            dep = declared[0]
            # ("pinned to ^0.4.17": the range as written, else that one version; "declared
            # as "1.3"": the manifest's text, where it writes that)
            spec = f"{pin['op'] or '=='}{number}"
            if pin["as"] and _holds(_SPACES.sub("", dep.spec), pin["op"] or "", number):
                spec = dep.spec
            return DeclaredSpec((at, at + len(number)), word, dep.name, dep.runtime, spec)
    return None


def _names(name: str) -> set[str]:
    """How a manifest may index the package: npm as written (lower case), PyPI normalised,
    a crate with "-" for "_"."""
    low = name.lower()
    return {low, normalize_dist_name(low), low.replace("_", "-")}


def _holds(spec: str, op: str, number: str) -> bool:
    if op:
        return re.search(rf"(?:^|,){re.escape(op)}{re.escape(number)}(?:,|$)", spec) is not None
    # "React 18" with "^18.2.0": the declared range's own version starts with the number
    # (a caret, tilde or exact spec only: "Python 3.11" of ">=3.11" is not its floor)
    if spec[:1] not in ("^", "~") and not spec[:1].isdigit():
        return False
    bare = spec.lstrip("^~=v")  # (PEP 440's "~=3.2" is the series from 3.2)
    return bare == number or bare.startswith(number + ".")


def as_wanted(spec: str, stated: str) -> str | None:
    """A spec as its manifest writes it, as the anchor states it. A bare series the note
    names of a longer bare requirement ("tokio 1" of Cargo's ``1.35``) is that series
    (``==1.*``); else the spec itself, which a bare full version states exactly (Cargo's
    ``0.4.21`` allows 0.4.22 too: "needs log 0.4.21" is then never VERIFIED, and a later
    ``0.4.30`` does not pass for it)."""
    if not spec:
        return None
    bare = stated.strip("`").lstrip("v")
    if spec[:1].isdigit() and spec != bare and spec.startswith(f"{bare}.") and "*" not in spec:
        return f"=={bare}.*"
    return spec


# "env_logger depends on env_filter 0.2", "needs log 0.4.20": a version right after the name
_BARE = re.compile(r"\s+(?:version\s+)?v?(?P<v>\d+(?:\.\d+){0,2})(?![\w%]|\.\d|\s+%)")


# "trace 10", "warn 40": a word and a number, one pair of a list
_PAIR = re.compile(r"(?<![\w.\-])(?P<w>[A-Za-z][\w\-]*)\s+\d+(?:\.\d+)*(?=\s*(?:[,;)]|and\b|$|\.))")


def _in_a_mapping(text: str, at: int, fp: Fingerprint) -> bool:
    """Whether the name at ``at`` is one of a list of names with numbers of which at least
    two others are no dependency ("trace 10, debug 20, info 30"): levels, codes or limits
    by name, not packages and versions ("django 4.2, celery 5.3 and redis 5" are)."""
    start = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at), 0)
    end = min((i for i in (text.find(". ", at), text.find("\n", at)) if i != -1), default=len(text))
    others = [m["w"] for m in _PAIR.finditer(text, start, end + 1) if m.end("w") != at]
    return sum(1 for w in others if not fp.dependency(w)) >= 2


def bare_version(text: str, at: int, outcome: list[Anchor], fp: Fingerprint) -> Anchor | None:
    """The dependency anchor for a version a note states right after a dependency's name:
    ``4.2`` is the series ``==4.2.*`` and ``4.2.1`` exactly ``==4.2.1``, for a PyPI, npm
    or Cargo package (compared in its manifest's dialect, ``anchors.semver``). None where
    the name is no declared dependency of one ecosystem, or a system (a server's version is
    not its client library's: "we run Redis 7")."""
    m = _BARE.match(text, at)
    if m is None or len(outcome) != 1 or outcome[0].version is not None:
        return None
    if _in_a_mapping(text, at, fp):
        return None  # "trace 10, debug 20, info 30": names and their numbers
    [anchor] = outcome
    tech = by_name(anchor.value) if anchor.kind is AnchorKind.TECH else None
    if anchor.kind is AnchorKind.DEP or _requires_go_import(anchor, fp):
        name = anchor.value  # a Go import named by its last part ("pflag") is its require
    elif tech is not None and tech.dists and (tech.kind is TechKind.PACKAGE
                                             or _python_framework(tech)):  # fmt: skip
        name = tech.dists[0]  # "wger uses bleach 5", "on Django 3.2": the package's
    elif tech is not None and not tech.dists and len(tech.packages) == 1:
        name = tech.packages[0].partition(":")[2]  # "axios 1", "tokio 1": a library's
    else:
        return None
    ecosystems = {d.ecosystem for d in fp.dependency(name)}
    version = m.group("v")
    if len(ecosystems) != 1 or not ecosystems <= {"pypi", "npm", "cargo", "go"}:
        return None
    spec = f"=={version}.*" if version.count(".") < 2 else f"=={version}"
    return Anchor(AnchorKind.DEP, name, scope=anchor.scope, version=spec)


def _python_framework(tech: Technology) -> bool:
    """A system that is one Python package configured by Python or ini files of the project
    (Django's ``manage.py``, pytest's ``conftest.py``, Celery's ``celeryconfig.py``): its
    version is its package's, unlike a server's ("we run Redis 7") or Docker's."""
    return tech.dists[:1] == (tech.name,) and any(
        f.endswith((".py", ".ini", ".cfg")) for f in tech.footprints)


def _requires_go_import(anchor: Anchor, fp: Fingerprint) -> bool:
    """Whether ``anchor`` is an import of a module ``go.mod`` requires ("pflag" for
    ``github.com/spf13/pflag``): a version stated for it is the require's."""
    return anchor.kind is AnchorKind.IMPORT and anchor.expect is Expect.PRESENT and any(
        d.ecosystem == "go" for d in fp.dependency(anchor.value))


def as_go_requirement(outcome: list[Anchor], fp: Fingerprint) -> list[Anchor]:
    """``outcome`` with the imports of required Go modules as their dependency anchors:
    "pflag is required at v1.0.5" states ``go.mod``'s version, which an import cannot
    check."""
    return [Anchor(AnchorKind.DEP, a.value) if _requires_go_import(a, fp) else a for a in outcome]
