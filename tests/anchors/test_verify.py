"""Anchor verdicts against fingerprints of real commits: each kind, each expectation,
scopes, drift, and what a memory's status becomes."""

from __future__ import annotations

import re

import pytest

from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource
from anchors.spec import Anchor, AnchorKind, parse_anchor
from anchors.verdicts import AnchorCheck, Capture, Verdict, memory_verdict
from anchors.verify import capture, check_anchor
from tests.conftest import GitRepo

PROJECT = {
    "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["duckdb>=1.1,<2", "httpx"]\n',
    ".env.example": "DATABASE_URL=x\n",
    "store/__init__.py": "",
    "store/db.py": (
        "import json\n\n"
        "class Store:\n"
        "    def open(self):\n"
        "        import duckdb\n"
        "        return duckdb.connect()\n\n"
        "def helper():\n"
        "    return 1\n"
    ),
    "app/other.py": "import sqlite3\nimport os\nKEY = os.getenv('API_KEY')\n",
    "app/billing.py": "import httpx\n",
}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(PROJECT)
    return source.fingerprint()


def check(text: str, fp: Fingerprint, captured: Capture | None = None) -> AnchorCheck:
    return check_anchor(parse_anchor(text), captured, fp)


@pytest.mark.parametrize(
    ("anchor", "verdict"),
    [
        ("file:store/db.py", Verdict.HOLDS),
        ("file:store", Verdict.HOLDS),
        ("file:store/cache.py", Verdict.BROKEN),
        ("!file:store/cache.py", Verdict.HOLDS),
        ("!file:store/db.py", Verdict.BROKEN),
        ("symbol:store/db.py::Store.open", Verdict.HOLDS),
        ("symbol:Store.open", Verdict.HOLDS),
        ("symbol:app/other.py::Store.open", Verdict.BROKEN),
        ("symbol:store/db.py::Store.close", Verdict.BROKEN),
        ("!symbol:Store.close", Verdict.HOLDS),
        ("import:duckdb", Verdict.HOLDS),
        ("import:duckdb@store/db.py", Verdict.HOLDS),
        ("import:duckdb@store", Verdict.HOLDS),
        ("import:duckdb@app", Verdict.BROKEN),
        ("import:duckdb@store/db.py::Store", Verdict.HOLDS),
        ("import:duckdb@store/db.py::Store.open", Verdict.HOLDS),
        ("import:duckdb@store/db.py::helper", Verdict.BROKEN),
        ("import:json@store/db.py::Store", Verdict.BROKEN),
        ("import:duckdb@missing/file.py", Verdict.BROKEN),
        ("!import:redis", Verdict.HOLDS),
        ("!import:sqlite3", Verdict.BROKEN),
        ("env:API_KEY", Verdict.HOLDS),
        ("env:DATABASE_URL", Verdict.HOLDS),
        ("env:REDIS_URL", Verdict.BROKEN),
        ("!env:REDIS_URL", Verdict.HOLDS),
        ("dep:duckdb", Verdict.HOLDS),
        ("dep:DuckDB", Verdict.HOLDS),
        ("dep:duckdb<2, >=1.1", Verdict.HOLDS),
        ("dep:duckdb>=2", Verdict.BROKEN),
        ("dep:redis", Verdict.BROKEN),
        ("!dep:redis", Verdict.HOLDS),
        ("!dep:httpx", Verdict.BROKEN),
    ],
)
def test_each_kind_and_expectation_gets_its_verdict(fp: Fingerprint, anchor: str, verdict: Verdict):
    assert check(anchor, fp).verdict is verdict


def test_the_present_trap_an_import_elsewhere_does_not_hold_for_the_claimed_file(fp: Fingerprint):
    result = check("import:sqlite3@app/billing.py", fp)
    assert result.verdict is Verdict.BROKEN
    assert result.found_in == ()
    assert result.detail == "sqlite3 is not imported in app/billing.py (imported by app/other.py)"
    assert check("import:sqlite3", fp).found_in == ("app/other.py",)


def test_a_holding_import_says_where_it_is_imported(fp: Fingerprint):
    result = check("import:duckdb@store", fp)
    assert result.found_in == ("store/db.py",)
    assert re.fullmatch(r"imported by store/db\.py \(line \d+\)", result.detail), result.detail


def test_a_changed_symbol_body_is_drift_and_a_removed_one_is_broken(
    git_repo: GitRepo, source: CodeSource, fp: Fingerprint
):
    anchor = parse_anchor("symbol:store/db.py::Store.open")
    captured = capture(anchor, fp)
    assert captured.found_in == ("store/db.py",)
    assert captured.content_hash == fp.definition("store/db.py", "Store.open").body_hash
    assert check_anchor(anchor, captured, fp).verdict is Verdict.HOLDS

    changed = PROJECT["store/db.py"].replace("duckdb.connect()", "duckdb.connect(':memory:')")
    git_repo.commit({"store/db.py": changed})
    drifted = check_anchor(anchor, captured, source.fingerprint())
    assert drifted.verdict is Verdict.DRIFTED and "changed since" in drifted.detail
    helper = parse_anchor("symbol:store/db.py::helper")
    assert check_anchor(helper, capture(helper, fp), source.fingerprint()).verdict is Verdict.HOLDS

    git_repo.commit({"store/db.py": "class Store:\n    pass\n"})
    broken = check_anchor(anchor, captured, source.fingerprint())
    assert broken.verdict is Verdict.BROKEN
    assert broken.detail == "store/db.py no longer defines Store.open"


def test_trailing_whitespace_edits_are_not_drift(
    git_repo: GitRepo, source: CodeSource, fp: Fingerprint
):
    anchor = parse_anchor("symbol:helper")
    captured = capture(anchor, fp)
    git_repo.commit(
        {"store/db.py": PROJECT["store/db.py"].replace("return 1\n", "return 1   \n\n")}
    )
    assert check_anchor(anchor, captured, source.fingerprint()).verdict is Verdict.HOLDS


def test_a_changed_file_is_drift(git_repo: GitRepo, source: CodeSource, fp: Fingerprint):
    anchor = parse_anchor("file:app/billing.py")
    captured = capture(anchor, fp)
    assert captured.content_hash == fp.blobs["app/billing.py"]
    git_repo.commit({"app/billing.py": "import httpx\nimport json\n"})
    assert check_anchor(anchor, captured, source.fingerprint()).verdict is Verdict.DRIFTED


def test_import_and_env_captures_are_where_found_without_a_hash(fp: Fingerprint):
    assert capture(parse_anchor("import:os"), fp) == Capture(("app/other.py",), None)
    assert capture(parse_anchor("env:DATABASE_URL"), fp) == Capture((".env.example",), None)
    assert capture(parse_anchor("import:redis"), fp) == Capture((), None)


def test_a_dependency_capture_holds_what_it_is_declared_for(fp: Fingerprint):
    assert capture(parse_anchor("dep:httpx"), fp) == Capture(("pyproject.toml",), "dep-role:run")
    assert capture(parse_anchor("dep:redis"), fp) == Capture((), None)


def test_a_run_time_dependency_declared_for_development_only_later_has_drifted(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit({"package.json": '{"dependencies": {"@playwright/test": "^1.40.0"}}'})
    anchor = parse_anchor("dep:@playwright/test")
    before = capture(anchor, source.fingerprint())
    git_repo.commit({"package.json": '{"devDependencies": {"@playwright/test": "^1.41.0"}}'})
    moved = check_anchor(anchor, before, source.fingerprint())
    assert moved.verdict is Verdict.DRIFTED
    git_repo.commit({"package.json": '{"dependencies": {"@playwright/test": "^1.42.0"}}'})
    assert check_anchor(anchor, before, source.fingerprint()).verdict is Verdict.HOLDS


def test_a_version_mismatch_names_the_declared_spec(fp: Fingerprint):
    result = check("dep:duckdb>=2", fp)
    assert result.verdict is Verdict.BROKEN
    assert "duckdb>=1.1,<2 in pyproject.toml" in result.detail


def test_a_file_in_scope_that_fails_to_parse_gives_unknown(git_repo: GitRepo, source: CodeSource):
    git_repo.commit({"broken.py": "def oops(:\n    pass\n", "ok.py": "import duckdb\n"})
    fp = source.fingerprint()
    assert check("symbol:broken.py::pass", fp).verdict is Verdict.UNKNOWN  # it holds the word
    # a word the file does not hold at all: nothing unparsed in it can define the name
    absent = check("symbol:broken.py::Store", fp)
    assert absent.verdict is Verdict.BROKEN and "does not hold the word Store" in absent.detail
    assert check("import:duckdb@broken.py", fp).verdict is Verdict.UNKNOWN
    assert check("!import:duckdb@broken.py", fp).verdict is Verdict.UNKNOWN
    assert check("symbol:broken.py::oops", fp).verdict is Verdict.HOLDS


def test_literal_setup_py_requirements_are_read_and_computed_ones_give_unknown(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit({"setup.py": "setup(install_requires=['redis'])\n"})
    fp = source.fingerprint()
    assert check("dep:redis", fp).verdict is Verdict.HOLDS
    assert check("!dep:redis", fp).verdict is Verdict.BROKEN
    git_repo.commit({"setup.py": "setup(install_requires=read_requirements())\n"})
    fp = source.fingerprint()
    assert check("dep:redis", fp).verdict is Verdict.UNKNOWN
    assert check("!dep:redis", fp).verdict is Verdict.UNKNOWN


def test_an_uncommitted_edit_is_what_gets_checked(
    git_repo: GitRepo, source: CodeSource, fp: Fingerprint
):
    git_repo.write({"app/billing.py": "import sqlite3\n"})
    assert check("import:sqlite3@app/billing.py", source.fingerprint()).verdict is Verdict.HOLDS


def _check(verdict: Verdict) -> AnchorCheck:
    return AnchorCheck(Anchor(AnchorKind.FILE, "a.py"), verdict, (), "")


@pytest.mark.parametrize(
    ("verdicts", "status"),
    [
        ([], "ACTIVE"),
        ([Verdict.HOLDS], "VERIFIED"),
        ([Verdict.HOLDS, Verdict.HOLDS], "VERIFIED"),
        ([Verdict.HOLDS, Verdict.BROKEN], "REFUTED"),
        ([Verdict.UNKNOWN, Verdict.BROKEN], "REFUTED"),
        ([Verdict.DRIFTED, Verdict.BROKEN], "REFUTED"),
        ([Verdict.UNKNOWN], "ACTIVE"),
        ([Verdict.HOLDS, Verdict.UNKNOWN], "ACTIVE"),
        ([Verdict.HOLDS, Verdict.DRIFTED], "ACTIVE"),
    ],
)
def test_a_memory_is_refuted_by_any_broken_anchor_and_verified_only_when_all_hold(
    verdicts: list[Verdict], status: str
):
    assert memory_verdict([_check(v) for v in verdicts]).value == status
