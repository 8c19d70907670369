"""A package said to be declared, or no longer declared, in one manifest the note names:
"bleach is listed in requirements.txt", "requirements_dev.txt pins pytest", "Sphinx was
removed from requirements.txt", "we dropped axios from web/package.json".

The stated file is the claim: a dependency anchor scoped to that manifest
(``dep:bleach@requirements.txt``), checked against its declarations alone, so a package
declared in another manifest does not make "X is declared in requirements_dev.txt" true,
and a removal is checked where it was said to happen. Bound only when the path is a
manifest the repository tracks; the path then names no claim of its own.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.manifests import manifest_kind
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.vocabulary import by_name

__all__ = ["MANIFEST_KEYS", "REMOVED", "ManifestClaim", "manifest_claim"]

_I = re.IGNORECASE
_PATH = r"[`'\"]?(?P<path>[\w./-]+?)[`'\"]?(?=[\s,;:)]|\.?$|\.\s)"
# "was removed from", "has been taken out of": a package leaving a list of declarations
REMOVED = (r"\s+(?:was|were|has\s+been|have\s+been|got)\s+(?:dropped|removed|deleted|"
           r"taken\s+out|moved\s+out)\s+(?:of|from)")
# After the name: "was removed from requirements.txt", "is no longer listed in package.json"
_OUT = re.compile(
    rf"[`'\"]?(?:{REMOVED}|\s+(?:is|are)\s+(?:no\s+longer|not)\s+(?:listed\s+|declared\s+)?in)"
    rf"\s+(?:the\s+)?{_PATH}", _I
)
# "is listed in requirements.txt", "is declared in pyproject.toml" (a version in parentheses
# may stand between: "django (~=3.2) is pinned in requirements.txt")
# ... or the list in it: "is listed among the required dependencies in pyproject.toml", "is
# declared in the runtime `dependencies` of package.json"
_IN = re.compile(
    r"[`'\"]?(?:\s*\([^()]{1,40}\))?\s+(?:is|are)\s+(?:also\s+)?(?:(?:listed|declared|pinned|"
    r"required|specified)\s+)?(?:(?:in|among|under)\s+(?:the\s+)?(?:project[’']s\s+|its\s+)?"
    r"(?:(?:required|runtime|run-time|main|install|production|core)\s+){0,2}`?"
    r"(?:dependencies|requirements|deps|peerDependencies|devDependencies|optionalDependencies|"
    r"optional-dependencies|dev-dependencies)`?(?:\s+(?:list|table|array|section))?\s+(?:in|of)"
    r"|in)"
    rf"\s+(?:the\s+)?{_PATH}", _I
)
# "we removed bleach from requirements.txt": the verb before the name, the file after it
_VERB_BEFORE = re.compile(r"\b(?:removed|dropped|deleted|took)\s+[`'\"]?$", _I)
_FROM = re.compile(rf"[`'\"]?\s+(?:out\s+of|from)\s+(?:the\s+)?{_PATH}", _I)
# "requirements_dev.txt pins pytest": the file, then a verb of declaring, then the name
_FILE_BEFORE = re.compile(
    r"[`'\"]?(?P<path>[\w./-]+)[`'\"]?\s+(?:lists|declares|pins|requires|specifies)\s+"
    r"(?:the\s+)?[`'\"]?$", _I
)


# What a manifest states besides packages: "setup.py declares python_requires >= 3.7"
MANIFEST_KEYS = frozenset({
    "python-requires", "requires-python", "install-requires", "extras-require", "python",
    "version", "name", "dependencies", "requirements", "engines", "rust-version", "edition",
    "go", "toolchain", "scripts", "entry-points",
})  # fmt: skip


def _package_like(name: str, fp: Fingerprint) -> bool:
    """A name a manifest may declare: one some manifest does, one the vocabulary knows,
    or one spelt as packages are ("django-environ", "py3"); not "dependencies are
    declared in pyproject.toml"."""
    low = name.lower()
    if low.replace("_", "-") in MANIFEST_KEYS:
        return False
    return bool(fp.dependency(low) or fp.dependency(low.replace("_", "-"))
                or by_name(low) is not None or re.search(r"[-_.\d@/]", name))  # fmt: skip


# A version stated right after the name: "sphinx 7.0.1", "pytest-httpbin below 1.0", "x>=2"
_VERSION_AFTER = re.compile(
    r"[`'\"]?\s*(?:[<>=!~^]|v?\d|(?:below|above|under|at\s+least|from|before)\s+v?\d)", _I
)


class ManifestClaim(NamedTuple):
    """A dependency anchor on one manifest, and the span of the words that name it."""

    anchor: Anchor
    span: tuple[int, int]


def manifest_claim(text: str, name: str, start: int, end: int,
                   fp: Fingerprint) -> ManifestClaim | None:  # fmt: skip
    """What the words around a package's name (``start``..``end``) say of one manifest:
    declared there (a present anchor) or removed from it (an absent one); None when they
    say neither, or the path is no manifest the repository tracks."""
    absent = True
    m = _OUT.match(text, end)
    if m is None and _VERB_BEFORE.search(text, max(0, start - 30), start):
        m = _FROM.match(text, end)
    if m is None:
        absent = False
        if _VERSION_AFTER.match(text, end):
            return None  # "pins sphinx 7.0.1": the version readers check what is stated
        m = _IN.match(text, end) or _FILE_BEFORE.search(text, max(0, start - 80), start)
    if m is None:
        return None
    path = fp.tracked_path(m.group("path"))
    if path is None or manifest_kind(path) is None or not _package_like(name, fp):
        return None
    low = name.lower()
    declared = [d for d in fp.dependency(low) if d.source == path] or [
        d for d in fp.dependency(low.replace("_", "-")) if d.source == path]  # fmt: skip
    dependency = declared[0].name if declared else low.replace("_", "-")
    expect = Expect.ABSENT if absent else Expect.PRESENT
    # (the words between the name and the path, "the `devDependencies` of", are the claim's)
    return ManifestClaim(Anchor(AnchorKind.DEP, dependency, expect, scope=path), m.span())
