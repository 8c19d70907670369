"""What a fingerprint indexes once so that reading a note need not walk every tracked path:
its directories, its files by name, and the words a subject matches. Each index answers as
the walk over the paths it replaces."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.codenames import _as_path
from anchors.facts import FileFacts, Fingerprint
from anchors.spec import AnchorSyntaxError, validate_repo_path
from anchors.subject import resolve_name
from anchors.wordlists import GENERIC_NOUNS

_PART = st.sampled_from(["app", "billing", "store", "docs", "a", "b-c", "x_y", "é", "e\u0301",
                         "__init__.py", "billing.py", "store.py", "README.md", "",
                         "."])  # fmt: skip
paths = st.lists(_PART, min_size=1, max_size=4).map("/".join)


def _fingerprint(tracked: list[str]) -> Fingerprint:
    blobs = {path: f"blob{i}" for i, path in enumerate(tracked)}
    python = {path: FileFacts() for path in tracked if path.endswith(".py")}
    return Fingerprint("0" * 40, blobs, python)


def _tracked_directory(fp: Fingerprint, path: str) -> bool:
    prefix = path.rstrip("/") + "/"
    return any(p.startswith(prefix) for p in fp.blobs)


@settings(max_examples=300, deadline=None)
@given(st.lists(paths, max_size=12), paths)
def test_a_directory_is_tracked_exactly_when_a_tracked_path_is_under_it(
    tracked: list[str], path: str
) -> None:
    fp = _fingerprint(tracked)
    for asked in (path, path + "/", *tracked, *(p.rpartition("/")[0] for p in tracked)):
        if asked.rstrip("/").isascii():
            assert fp.has_directory(asked) == _tracked_directory(fp, asked), asked


def _as_path_walked(name: str, fp: Fingerprint) -> str | None:
    """codenames._as_path by walking every path: a tracked file or directory, else the one
    file whose path ends with the name at a directory boundary (a bare file name, or a path
    written without its source root)."""
    name = name.strip("`").rstrip("/")
    try:
        validate_repo_path(name)
    except AnchorSyntaxError:
        return None
    if fp.has_path(name) or fp.has_directory(name):
        return name
    if "." not in name.rsplit("/", 1)[-1]:
        return None
    hits = [p for p in fp.blobs if p == name or p.endswith("/" + name)]
    return hits[0] if len(hits) == 1 else None


def _resolve_name_walked(name: str, fp: Fingerprint) -> str | None:
    """subject.resolve_name as it was written, every path and directory walked."""
    words = [w.strip("`") for w in name.split() if w.lower() not in ("the", "our", "a", "an",
                                                                       "in")]  # fmt: skip
    while len(words) > 1 and words[-1].lower() in GENERIC_NOUNS:
        words.pop()
    if not words:
        return None
    name = words[0]
    if "::" in name:
        name = name.split("::", 1)[0]
    if len(words) == 1 and ("/" in name or name.endswith(".py")):
        return _as_path_walked(name, fp)
    if len(words) == 1 and "." in name and fp.has_path(name):
        return name
    if len(words) == 1 and re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", name):
        module = fp.module_path(name)
        if module is not None:
            return module.removesuffix("/__init__.py")
        as_dir = name.replace(".", "/")
        return as_dir if fp.has_directory(as_dir) else None
    words = [w.lower() for w in words]
    if not all(re.fullmatch(r"[a-z0-9_-]+", w) for w in words):
        return None
    stems = {"_".join(words), "-".join(words), "".join(words)}
    hits: set[str] = set()
    for path in fp.blobs:
        base = path.rsplit("/", 1)[-1]
        if base.endswith(".py") and base[:-3] in stems and base != "__init__.py":
            hits.add(path)
        parts = path.split("/")[:-1]
        hits.update("/".join(parts[: i + 1]) for i in range(len(parts)) if parts[i] in stems)
    return hits.pop() if len(hits) == 1 else None


@settings(max_examples=400, deadline=None)
@given(st.lists(paths, max_size=12),
       st.lists(st.sampled_from(["billing", "store", "a", "the", "b-c", "x_y", "docs", "app",
                                 "service", "module", "billing.py", "app/billing.py",
                                 "app.billing", "README.md", "store/", "x::Y", "é"]),
                min_size=1, max_size=3))  # fmt: skip
def test_a_name_resolves_as_a_walk_of_every_path_would_resolve_it(
    tracked: list[str], words: list[str]
) -> None:
    fp = _fingerprint(tracked)
    name = " ".join(words)
    assert resolve_name(name, fp) == _resolve_name_walked(name, fp)


@settings(max_examples=300, deadline=None)
@given(st.lists(paths, max_size=12), st.sampled_from(["billing.py", "store.py", "README.md",
                                                       "x.py", "__init__.py"]))  # fmt: skip
def test_a_file_name_is_found_by_its_name_as_a_walk_of_the_paths_would(
    tracked: list[str], name: str
) -> None:
    fp = _fingerprint(tracked)
    assert _as_path(name, fp) == _as_path_walked(name, fp)
