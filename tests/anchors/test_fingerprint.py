"""Fingerprints of real commits: what they hold, what they re-parse, how they are built."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from anchors.facts import Definition, Dependency, FileFacts, Fingerprint, ImportFact
from anchors.fingerprint import (
    CodeSource,
    FingerprintUnavailable,
    InMemoryFactsCache,
    facts_from_json,
    facts_to_json,
)
from anchors.gitrepo import RepoStatus
from benchmarks.fingerprint import generate_repository
from tests.anchors.conftest import child_processes
from tests.conftest import GitRepo

PROJECT = {
    "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["duckdb>=1.1"]\n',
    "services/api/pyproject.toml": '[project]\nname = "api"\ndependencies = ["httpx"]\n',
    "requirements/dev.txt": "pytest>=8\n",
    ".env.example": "DATABASE_URL=x\n",
    "shop/__init__.py": "",
    "shop/db.py": "import duckdb\nfrom . import models\n\nclass Store:\n    def open(self): ...\n",
    "shop/models.py": "import os\nURL = os.environ['DATABASE_URL']\n",
    "README.md": "# shop\n",
}


def test_a_fingerprint_holds_paths_python_facts_dependencies_and_env_example_keys(
    git_repo: GitRepo, source: CodeSource
):
    commit = git_repo.commit(PROJECT)
    fp = source.fingerprint()
    assert fp.commit == commit and fp.overlay == ""
    assert set(fp.blobs) == set(PROJECT)
    assert set(fp.python) == {"shop/__init__.py", "shop/db.py", "shop/models.py"}
    assert fp.python["shop/db.py"].imports[1] == ImportFact("shop", ("models",), "", 2)
    assert fp.definition("shop/db.py", "Store.open") is not None
    assert fp.env_sources("DATABASE_URL") == [".env.example", "shop/models.py"]
    assert set(fp.dependencies) == {
        Dependency("duckdb", ">=1.1", "pyproject.toml"),
        Dependency("httpx", "", "services/api/pyproject.toml"),
        Dependency("pytest", ">=8", "requirements/dev.txt", runtime=False),
    }


def test_a_new_commit_touching_two_files_parses_only_those_two(
    git_repo: GitRepo, source: CodeSource, cache: InMemoryFactsCache
):
    git_repo.commit({f"pkg/m{i}.py": f"def f{i}(): return {i}\n" for i in range(20)})
    source.fingerprint()
    assert source.parsed_count == 20 and len(cache.saved) == 20
    git_repo.commit({"pkg/m3.py": "def f3(): return 33\n", "pkg/m4.py": "def g(): pass\n"})
    fp = source.fingerprint()
    assert source.parsed_count == 22 and len(cache.saved) == 22
    assert fp.definition("pkg/m4.py", "g") is not None
    assert fp.definition("pkg/m4.py", "f4") is None


def _indexes(fp: Fingerprint) -> dict[str, object]:
    """Every derived index of ``fp``, in an order that does not depend on how it was built."""
    def entries(index: dict[str, list[Any]]) -> dict[str, list[str]]:
        return {key: sorted(map(repr, values)) for key, values in index.items()}

    return {
        "importers": entries(fp._importers),
        "definitions": entries(fp._definitions),
        "mentions": entries(fp._mentions),
        "basenames": entries(fp._by_basename),
        "directories": sorted(fp._directories),
    }


def test_a_new_commits_indexes_derived_from_the_last_equal_those_built_afresh(
    git_repo: GitRepo, source: CodeSource
):
    files: dict[str, str | None] = {
        f"pkg/m{i}.py": f"import os\nimport redis\n\ndef f{i}():\n    return {i}\n"
        for i in range(12)
    }
    git_repo.commit({**files, "README.md": "We cache in Redis.\n", "docs/a.md": "Celery\n"})
    source.fingerprint()
    steps: list[dict[str, str | None]] = [
        {"pkg/m1.py": "import os\n\ndef f1():\n    return 1\n\ndef g(): pass\n"},  # one edit
        {"pkg/m2.py": None, "pkg/new.py": "import celery\nclass Task: ...\n"},  # paths change
        {"README.md": "We cache in Memcached.\n"},  # a text file's mentions change
        {"pkg/m3.py": "import os\nimport redis\n\ndef f3():\n    return 33\n"},  # a body
    ]
    for step in steps:
        git_repo.commit(step)
        derived = source.fingerprint(overlay=False)
        afresh = replace(derived)  # the same fields, no index built yet
        assert _indexes(derived) == _indexes(afresh)
    assert [p for p, _ in derived.importers("celery")] == ["pkg/new.py"]
    assert "README.md" not in derived.mentioned_in("redis")


def test_a_new_process_with_a_warm_shared_cache_parses_nothing(
    git_repo: GitRepo, cache: InMemoryFactsCache
):
    git_repo.commit(PROJECT)
    with CodeSource(git_repo.root, cache) as first:
        expected = first.fingerprint()
    with CodeSource(git_repo.root, cache) as second:
        assert second.fingerprint().python == expected.python
        assert second.parsed_count == 0


def test_one_blob_at_two_paths_resolves_relative_imports_for_each_path(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit({"a/__init__.py": "from . import x\n", "b/__init__.py": "from . import x\n"})
    fp = source.fingerprint()
    assert fp.python["a/__init__.py"].imports[0].module == "a"
    assert fp.python["b/__init__.py"].imports[0].module == "b"
    assert source.parsed_count == 1


def test_uncommitted_edits_overlay_head_and_are_not_saved_to_the_shared_cache(
    git_repo: GitRepo, source: CodeSource, cache: InMemoryFactsCache
):
    commit = git_repo.commit(PROJECT)
    source.fingerprint()
    saved = len(cache.saved)
    git_repo.write(
        {
            "shop/db.py": "import sqlite3\n",
            "shop/new.py": "def fresh(): ...\n",
            "shop/models.py": None,
            "requirements/dev.txt": "pytest>=8\nhypothesis\n",
        }
    )
    fp = source.fingerprint()
    assert fp.commit == commit and fp.overlay != ""
    assert [p for p, _ in fp.importers("sqlite3")] == ["shop/db.py"]
    assert fp.importers("duckdb") == []
    assert fp.definition("shop/new.py", "fresh") is not None
    assert not fp.has_path("shop/models.py") and "shop/models.py" not in fp.python
    assert "hypothesis" in fp.dependency_names()
    assert len(cache.saved) == saved
    assert source.fingerprint() is fp  # same work tree: the same fingerprint object
    committed = source.fingerprint(overlay=False)
    assert committed.overlay == "" and committed.importers("duckdb") != []


def test_a_symlinked_python_file_exists_but_is_not_parsed(
    git_repo: GitRepo, source: CodeSource, tmp_path: Path
):
    (tmp_path / "evil.py").write_text("import secret_module\n")
    (git_repo.root / "link.py").symlink_to(tmp_path / "evil.py")
    git_repo.commit({"a.py": ""})
    fp = source.fingerprint()
    assert fp.has_path("link.py") and "link.py" not in fp.python
    assert fp.importers("secret_module") == []


def test_a_repository_without_commits_has_no_fingerprint(git_repo: GitRepo, source: CodeSource):
    with pytest.raises(FingerprintUnavailable) as raised:
        source.fingerprint()
    assert raised.value.status is RepoStatus.NO_COMMITS
    assert source.head().status is RepoStatus.NO_COMMITS


def test_fingerprint_within_returns_none_for_a_cold_big_repository_then_the_fingerprint(
    tmp_path: Path,
):
    root = tmp_path / "big"
    generate_repository(root, 1500)
    before = child_processes()
    with CodeSource(root, InMemoryFactsCache()) as source:
        assert source.fingerprint_within(0.01) is None  # gave up waiting: still building
        fp = source.fingerprint_within(120)
        assert fp is not None and len(fp.python) == 1500
        assert source.parsed_count == 1500  # the first build was picked up, not restarted
    assert child_processes() <= before


def test_concurrent_callers_share_one_build(git_repo: GitRepo, source: CodeSource):
    git_repo.commit({f"m{i}.py": f"x = {i}\n" for i in range(200)})
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(source.fingerprint())) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4 and source.parsed_count == 200


def test_the_worker_processes_give_the_same_fingerprint_and_are_gone_afterwards(
    git_repo: GitRepo,
):
    git_repo.commit({**PROJECT, **{f"pkg/m{i}.py": f"import m{i}\n" for i in range(300)}})
    before = child_processes()
    with CodeSource(git_repo.root, InMemoryFactsCache(), pool_threshold=10**9) as serial:
        expected = serial.fingerprint()
    with CodeSource(git_repo.root, InMemoryFactsCache(), pool_threshold=1) as pooled:
        assert pooled.fingerprint().python == expected.python
        assert {c for c in child_processes() - before if c[1] != "git"} == set()


def test_progress_reports_files_parsed_out_of_the_total(git_repo: GitRepo, source: CodeSource):
    git_repo.commit({f"m{i}.py": f"x = {i}\n" for i in range(300)})
    reports: list[tuple[int, int]] = []
    source.fingerprint(progress=lambda done, total: reports.append((done, total)))
    assert reports[0] == (0, 300) and reports[-1] == (300, 300)


def test_closing_during_a_cold_build_stops_it_and_leaves_no_processes(tmp_path: Path):
    root = tmp_path / "big"
    generate_repository(root, 1500)
    before = child_processes()
    source = CodeSource(root, InMemoryFactsCache())
    assert source.fingerprint_within(0.05) is None
    source.close()
    assert source.parsed_count < 1500  # stopped at a chunk, not left to finish
    assert child_processes() <= before
    with pytest.raises(FingerprintUnavailable):
        source.fingerprint()


def test_facts_survive_the_json_codec():
    facts = FileFacts(
        imports=(ImportFact("a.b", ("c", "d"), "Store.open", 3),),
        definitions=(Definition("Store.open", "0123456789abcdef", 2),),
        env_reads=("DATABASE_URL",),
        parsed=False,
    )
    assert facts_from_json(facts_to_json(facts)) == facts
    with pytest.raises(ValueError):
        facts_from_json('{"i": 1}')
