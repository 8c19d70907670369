"""A word a note names as a dependency, whatever else the word means in English.

"env_logger needs log 0.4.20", "regex is a direct optional dependency of env_logger",
"env_logger depends on log": the sentence itself says the word is a package, so the word
lists' ordinary words ("log", "regex", "time") do not drop it here. Two readings:

- **a version right after the word** (``log 0.4.20``), where a manifest the fingerprint
  reads declares the word as a dependency: the declared dependency, whose version the
  extractor then compares in the manifest's dialect (``anchors.declared_specs``). An
  undeclared word before a number is left alone ("writes log 2 times" names no package):
  the number must look like a version (a dotted one, or one that ends the clause).
- **a dependency phrase**: "X is a (direct | optional | runtime) dependency (of Y)", "X is
  not a dependency any more", "Y depends on X". The phrase names X as a package: declared,
  it is that dependency; undeclared, it is one only where the vocabulary knows the word as
  a package and the manifests name packages by such names (``go.mod`` names modules by
  path), or where the phrase denies it ("no longer depends on atty": nothing declares
  it). A development, build or test dependency is left to the readings that check the
  role (``anchors.development``). The word is read here only where the usual rules would
  drop it as English, or where "optional" can be checked: a name they read already is
  theirs.

"optional" in the phrase is a claim of its own: checked for a crate by its
``optional = true`` (``config:Cargo.toml::dependencies.NAME.optional``, read by
``anchors.cargo_toml.cargo_values``); for any other manifest it is named as a part no anchor
checks. So is "required" ("hard", "mandatory"): the crate's flag must be absent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect, normalize_dist_name
from anchors.vocabulary import TechKind, is_ordinary_word, lookup_word
from anchors.wordlists import COMMON_WORDS

__all__ = ["DependencyWord", "affirmed_dependency", "denial_at", "dependency_word"]

_I = re.IGNORECASE
# "log 0.4.20", "log v0.4", "log version 0.4.21": a dotted version, or a bare number
# that ends the clause ("needs log 1." but not "log 2 levels")
_VERSION_AFTER = re.compile(
    r"`?\s+(?:version\s+)?v?(?:\d+\.\d+(?:\.\d+)?(?![\w%]|\.\d)|\d+(?=\s*(?:[.,;:)]|$)))", _I
)
_QUALIFIERS = (r"(?:direct|non-optional|optional|runtime|run-time|required|hard|mandatory|"
               r"normal|regular)")
# "regex is a direct optional dependency of env_logger", "log is no longer a dependency"
_ROLE_AFTER = re.compile(
    r"`?\s+(?:is|was)\s+(?P<neg>not\s+|no\s+longer\s+|never\s+)?(?:(?:still|now|also|only|"
    r"just)\s+)?(?:an?|the)\s+(?P<q>(?:" + _QUALIFIERS + r"[\s,]+(?:and\s+)?){0,3})"
    r"(?:crate\s+|package\s+|module\s+)?(?:dev-?|dev\s+|development\s+)?dependency\b",
    _I,
)
# "env_logger depends on log", "the crate depends on the regex crate"
_DEPENDS_BEFORE = re.compile(
    r"\b(?P<neg>(?:does\s*not|doesn[’']t|no\s+longer|never)\s+)?(?:depends|depend|depended)"
    r"\s+on\s+(?:the\s+)?(?:crate\s+|package\s+|module\s+)?[`'\"]?$",
    _I,
)
# a word right after that makes the name a modifier ("depends on log output")
_NOUN_AFTER = re.compile(r"`?\s+(?!and\b|or\b|for\b|with\b|in\b|at\b|to\b|as\b|of\b|from\b|"
                         r"since\b|v?\d|crate\b|package\b|module\b|library\b|is\b|was\b)"
                         r"[a-z]", _I)  # fmt: skip
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*\Z")


_DENIAL = re.compile(r"\b(?:does\s*not|doesn[’']t|no\s+longer|never)\s+(?:depends?|depended)"
                     r"\s+on\s+(?:the\s+)?(?:crate\s+|package\s+|module\s+)?[`'\"]?$", _I)


_AFFIRMED = re.compile(r"\b(?:depends|depend)\s+on\s+(?:the\s+)?(?:crate\s+|package\s+)?[`'\"]?$",
                       _I)  # fmt: skip
_KIND_AFTER = re.compile(r"`?\s+(?:crate|package|library|module)\b", _I)


def affirmed_dependency(text: str, start: int, end: int, fp: Fingerprint) -> tuple[int, str] | None:
    """Where "depends on" right before the word at ``text[start:end]`` begins, and the
    dependency it names as the manifests would declare it ("the crate depends on
    dirs-next"): for a word of English only when a noun says it is a package ("the home
    crate"). None elsewhere, and for Go, whose modules are paths."""
    word = text[start:end].strip("`'\"")
    found = _AFFIRMED.search(text, max(0, start - 40), start)
    if found is None or not re.fullmatch(r"[a-z][a-z0-9_.-]*", word):
        return None
    if _ordinary(word) and _KIND_AFTER.match(text, end) is None:
        return None
    name = _declared(word, fp)
    if name is None and ("-" in word or all(d.ecosystem == "cargo" for d in fp.dependencies)):
        # undeclared: a name no runtime ships (a crate's manifest names every one it
        # uses; "sqlite3" or "fs" may be the language's own)
        name = _denied(word, fp)
    return (found.start(), name) if name is not None else None


def denial_at(text: str, start: int) -> int | None:
    """Where "does not / no longer depend(s) on" right before ``start`` begins, or None."""
    found = _DENIAL.search(text, max(0, start - 60), start)
    return found.start() if found else None


@dataclass(frozen=True)
class DependencyWord:
    """The anchors a word named as a dependency stands for, and what the phrase claims that
    they do not check (``unchecked``: "the optional flag of X")."""

    anchors: tuple[Anchor, ...]
    unchecked: tuple[str, ...] = ()
    # what checks the role the phrase gives it ("a required dependency": the crate's
    # optional flag absent), apart from the name's own polarity
    role: tuple[Anchor, ...] = ()


def dependency_word(text: str, start: int, end: int, absent: bool,
                    fp: Fingerprint, *,
                    any_name: bool = False) -> DependencyWord | None:  # fmt: skip
    """What the word at ``text[start:end]`` stands for where the sentence names it as a
    dependency (see the module docstring); None where it does not, or where the reading
    would not be sure. ``absent``: the clause negates it. ``any_name``: read a name the
    usual rules would read too (they could not tell what the clause negates)."""
    word = text[start:end].strip("`'\"")
    if not _NAME.match(word) or not fp.dependencies:
        return None
    role = _ROLE_AFTER.match(text, end)
    depends = _DEPENDS_BEFORE.search(text, max(0, start - 60), start)
    optional = role is not None and not absent and re.search(r"(?<!-)\boptional\b", role["q"],
                                                             _I)  # ("non-optional": required)
    required = role is not None and not absent and not optional and bool(
        re.search(r"\b(?:required|hard|mandatory|non-optional)\b", role["q"], _I))
    flagged = (optional or required) and _cargo_optional(word, fp)
    if not (any_name or _ordinary(word) or flagged):
        return None  # a name the usual rules read as a package already
    declared = _declared(word, fp)
    if role is None and depends is None:
        if absent or declared is None or _VERSION_AFTER.match(text, end) is None:
            return None
        return DependencyWord((Anchor(AnchorKind.DEP, declared),))
    cue = role if role is not None else depends
    assert cue is not None
    if bool(cue["neg"]) is not absent:
        return None  # the clause reader and the phrase disagree on what is negated
    if depends is not None and role is None and _NOUN_AFTER.match(text, end):
        return None  # "depends on log output": the word qualifies a noun
    name = declared or _package_name(word, fp) or (_denied(word, fp) if absent else None)
    if name is None:
        return None
    expect = Expect.ABSENT if absent else Expect.PRESENT
    anchors = [Anchor(AnchorKind.DEP, name, expect)]
    unchecked: list[str] = []
    checks: tuple[Anchor, ...] = ()
    if optional or required:
        flag = _optional_flag(name, fp)
        if flag is not None and optional:
            anchors.append(flag)
        elif flag is not None:
            checks = (flag.negated(),)
        elif declared is not None:
            unchecked.append(f"the optional flag of {word}")
    return DependencyWord(tuple(anchors), tuple(unchecked), checks)


def _ordinary(word: str) -> bool:
    """Whether the usual rules drop the word as English: an ordinary word, or a package
    the vocabulary knows under a common name ("regex", "mocha" of npm). A system ("Redis
    7") never: its version is the server's, not a dependency's."""
    hit = lookup_word(word)
    if hit is not None:  # (a tool shipped as an npm package or a crate: "mocha")
        return hit[2] and (hit[0].kind is TechKind.PACKAGE or bool(hit[0].packages))
    return word.lower() in COMMON_WORDS or is_ordinary_word(word.lower())


def _declared(word: str, fp: Fingerprint) -> str | None:
    """The dependency a manifest declares under the word's name (a crate's "_" as "-", a
    PyPI name normalised), or None."""
    for key in dict.fromkeys((word, word.lower(), normalize_dist_name(word))):
        found = fp.dependency(key)
        if found:
            return found[0].name
    return None


def _package_name(word: str, fp: Fingerprint) -> str | None:
    """An undeclared word the vocabulary knows as a package under a common name ("regex"):
    its name as a manifest would declare it, where the repository's manifests name packages
    by such names (not Go's ``go.mod``, which names modules by path)."""
    hit = lookup_word(word)
    if hit is None or hit[0].kind is not TechKind.PACKAGE or not hit[0].dists:
        return None
    if any(d.ecosystem == "go" for d in fp.dependencies):
        return None
    return normalize_dist_name(word)


def _denied(word: str, fp: Fingerprint) -> str | None:
    """An undeclared word a negated phrase names as a dependency ("no longer depends on
    atty"): its name as the repository's manifests would declare it, so that its absence is
    checked. Not for ``go.mod``, whose modules are paths."""
    if not re.fullmatch(r"[a-z][a-z0-9_.-]*", word) or any(
            d.ecosystem == "go" for d in fp.dependencies):  # fmt: skip
        return None
    return normalize_dist_name(word)


def _cargo_optional(word: str, fp: Fingerprint) -> bool:
    """Whether a crate's ``optional`` flag can check the word: one ``Cargo.toml`` declares
    it."""
    declared = _declared(word, fp)
    return declared is not None and _optional_flag(declared, fp) is not None


def _optional_flag(name: str, fp: Fingerprint) -> Anchor | None:
    """The ``config:`` anchor that checks a crate's ``optional = true``, where exactly one
    ``Cargo.toml`` declares it."""
    sources = {d.source for d in fp.dependency(name) if d.ecosystem == "cargo"}
    if len(sources) != 1:
        return None
    [source] = sources
    if fp.infra.get(source) is None:
        return None
    return Anchor(AnchorKind.CONFIG, f"dependencies.{name}.optional", scope=source)
