"""What a fingerprint indexes once so that reading a note need not walk every tracked path:
its directories, its files by name, and the words a subject matches. Each index answers as
the walk over the paths it replaces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.codenames import _as_path
from anchors.facts import FileFacts, Fingerprint
from anchors.subject import resolve_name

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


def _resolve_words(words: list[str], fp: Fingerprint) -> str | None:
    """resolve_name's last step as it was written: every path and directory walked."""
    stems = {"_".join(words), "-".join(words), "".join(words)}
    hits: set[str] = set()
    for path in fp.blobs:
        base = path.rsplit("/", 1)[-1]
        if base.endswith(".py") and base[:-3] in stems and base != "__init__.py":
            hits.add(path)
        parts = path.split("/")[:-1]
        hits.update("/".join(parts[: i + 1]) for i in range(len(parts))
                    if parts[i] in stems)  # fmt: skip
    return hits.pop() if len(hits) == 1 else None


@settings(max_examples=300, deadline=None)
@given(st.lists(paths, max_size=12),
       st.lists(st.sampled_from(["billing", "store", "a", "b", "c", "x", "y", "docs"]),
                min_size=1, max_size=2))  # fmt: skip
def test_words_match_file_stems_and_directory_names_as_a_walk_of_the_paths_would(
    tracked: list[str], words: list[str]
) -> None:
    fp = _fingerprint(tracked)
    assert resolve_name(" ".join(words), fp) == _resolve_words(words, fp)


@settings(max_examples=300, deadline=None)
@given(st.lists(paths, max_size=12), st.sampled_from(["billing.py", "store.py", "README.md",
                                                       "x.py", "__init__.py"]))  # fmt: skip
def test_a_file_name_is_found_by_its_name_as_a_walk_of_the_paths_would(
    tracked: list[str], name: str
) -> None:
    fp = _fingerprint(tracked)
    walked = [p for p in fp.blobs if p.rsplit("/", 1)[-1] == name]
    if fp.has_path(name) or fp.has_directory(name):
        return  # found as it is, before any walk
    assert _as_path(name, fp) == (walked[0] if len(walked) == 1 else None)
