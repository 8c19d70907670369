"""Which grammar reads a file (``anchors.languages``) and the projects a repository holds
(``anchors.projects``), on real git repositories."""

from __future__ import annotations

import pytest

from anchors.facts import NotRead
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.languages import UNCOVERED, dialect_of, extract_facts, language_of
from anchors.projects import declares_above, frontend_directory, named_project, projects
from tests.conftest import GitRepo


@pytest.mark.parametrize(
    ("path", "dialect", "language"),
    [
        ("app/x.py", "python", "python"),
        ("web/src/a.ts", "typescript", "typescript"),
        ("web/src/types.d.ts", "typescript", "typescript"),
        ("web/src/App.TSX", "tsx", "typescript"),
        ("web/src/App.vue", "vue", "typescript"),
        ("lib/x.mjs", "javascript", "javascript"),
        ("svc/store.go", "go", "go"),
        ("src/main.rs", "rust", "rust"),
        ("legacy/Billing.java", UNCOVERED, None),
        ("README.md", None, None),
        ("a.b/Makefile", None, None),
        (".env", None, None),
    ],
)
def test_a_file_s_dialect_follows_its_name(path: str, dialect: str | None, language: str | None):
    assert dialect_of(path) == dialect
    assert language_of(path) == language


def test_code_no_grammar_reads_keeps_its_words_and_counts_as_not_read():
    facts = extract_facts(b"public class Billing { void charge() {} }\n", UNCOVERED)
    assert not facts.parsed and facts.not_read is NotRead.NO_GRAMMAR
    assert facts.could_mention(["Billing", "charge"]) and not facts.could_mention(["refund"])
    assert "no grammar" in facts.why_not_read()


def test_each_dialect_is_read_by_its_own_grammar():
    ts = extract_facts(b'import axios from "axios";\nexport function f() {}\n', "typescript")
    go = extract_facts(b'package x\nimport "os"\nfunc F() { os.Getenv("A") }\n', "go")
    rs = extract_facts(b"use tokio::sync::Mutex;\nfn f() {}\n", "rust")
    assert (ts.language, [i.module for i in ts.imports]) == ("typescript", ["axios"])
    assert (go.language, go.env_reads) == ("go", ("A",))
    assert (rs.language, [d.qualname for d in rs.definitions]) == ("rust", ["f"])
    with pytest.raises(ValueError, match="no grammar"):
        extract_facts(b"", "cobol")


POLYGLOT = {
    "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["redis"]\n',
    "shop/app.py": "import redis\n",
    "web/package.json": '{"name": "web", "dependencies": {"vue": "^3.4.0"}}\n',
    "web/src/main.ts": 'import { createApp } from "vue";\n',
    "svc/go.mod": "module example.com/svc\n\ngo 1.21\n",
    "svc/main.go": "package main\n\nfunc main() {}\n",
    "docs/package.json": '{"name": "docs-site"}\n',
}


@pytest.fixture
def polyglot(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(POLYGLOT, "a backend, a frontend, a Go service, a docs site")
    return git_repo


def test_each_manifest_is_a_project_and_the_frontend_is_the_one_npm_project(polyglot: GitRepo):
    with CodeSource(polyglot.root, InMemoryFactsCache(), watch=False) as source:
        fp = source.fingerprint()
    found = {(p.directory, p.ecosystem) for p in projects(fp)}
    assert found == {("", "pypi"), ("web", "npm"), ("svc", "go")}  # docs/ is a sub-project
    assert frontend_directory(fp) == "web"
    assert named_project("frontend", fp) == named_project("web ui", fp) == "web"
    assert named_project("go", fp) == "svc" and named_project("rust", fp) is None
    assert named_project("billing", fp) is None
    # the root pyproject does not declare for the frontend, which has its own manifest
    assert not declares_above("pyproject.toml", "web/src", fp)
    assert declares_above("pyproject.toml", "shop", fp)
    assert not declares_above("svc/go.mod", "web", fp)


def test_two_frontends_name_none(git_repo: GitRepo):
    git_repo.commit({**POLYGLOT, "admin/package.json": '{"name": "admin"}\n'}, "two")
    with CodeSource(git_repo.root, InMemoryFactsCache(), watch=False) as source:
        fp = source.fingerprint()
    assert frontend_directory(fp) is None and named_project("frontend", fp) is None
