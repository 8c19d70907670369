"""Declared dependencies from pyproject.toml and requirements files; .env.example keys."""

from __future__ import annotations

import pytest

from anchors.facts import Dependency
from anchors.manifests import (
    manifest_kind,
    parse_env_example,
    parse_manifest,
    parse_pyproject,
    parse_requirements,
)


def pairs(deps: list[Dependency]) -> list[tuple[str, str]]:
    return [(d.name, d.spec) for d in deps]


def test_pyproject_project_optional_and_dependency_group_entries_are_declared():
    data = b"""
[project]
name = "My_Shop"
dependencies = ["DuckDB>=1.1", "mcp==2.3.0", "tree_sitter[core] >= 0.23 ; python_version >= '3.11'"]

[project.optional-dependencies]
dev = ["pytest>=8", "my-shop[extra]"]

[dependency-groups]
lint = ["ruff", {include-group = "typing"}]
typing = ["mypy (>=1.11)"]
"""
    deps = parse_pyproject(data, "pyproject.toml")
    assert pairs(deps) == [
        ("duckdb", ">=1.1"),
        ("mcp", "==2.3.0"),
        ("tree-sitter", ">= 0.23"),
        ("pytest", ">=8"),
        ("ruff", ""),
        ("mypy", ">=1.11"),
    ]
    assert {d.source for d in deps} == {"pyproject.toml"}


def test_poetry_dependencies_and_groups_are_declared_and_python_is_the_supported_versions():
    data = b"""
[tool.poetry]
name = "shop"
[tool.poetry.dependencies]
python = "^3.11"
Django = "^5.0"
requests = {version = "*", extras = ["socks"]}
local = {path = "../local"}
[tool.poetry.group.dev.dependencies]
pytest = "^8"
"""
    assert pairs(parse_pyproject(data, "pyproject.toml")) == [
        ("python", "^3.11"),
        ("django", "^5.0"),
        ("requests", ""),
        ("local", ""),
        ("pytest", "^8"),
    ]


def test_a_pyproject_that_is_not_toml_declares_nothing():
    assert parse_pyproject(b"[project\ndependencies = [", "pyproject.toml") == []
    assert parse_pyproject(b"\xff\xfe", "pyproject.toml") == []


def test_requirements_skip_comments_options_urls_and_markers():
    data = b"""# pinned
Flask==3.0.0  # web
-r base.txt
-e ./local
--index-url https://example.com/simple
https://example.com/pkg.whl
git+https://github.com/x/y.git@v1#egg=y
./vendor/thing
requests[socks]>=2.31 ; python_version >= "3.8"
uvicorn==0.30 \\
    --hash=sha256:abc
my_pkg @ https://example.com/my_pkg.tar.gz

"""
    assert pairs(parse_requirements(data, "requirements.txt")) == [
        ("flask", "==3.0.0"),
        ("requests", ">=2.31"),
        ("uvicorn", "==0.30"),
        ("my-pkg", ""),
    ]


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("pyproject.toml", "pyproject"),
        ("services/api/pyproject.toml", "pyproject"),
        ("requirements.txt", "requirements"),
        ("requirements-dev.txt", "requirements"),
        ("requirements/prod.txt", "requirements"),
        ("api/requirements/base.txt", "requirements"),
        ("docs/notes.txt", None),
        ("pyproject.toml.bak", None),
        ("setup.py", "setup_py"),
    ],
)
def test_manifest_paths_are_recognised_at_any_depth(path, kind):
    assert manifest_kind(path) == kind


def test_parse_manifest_dispatches_on_the_path():
    assert pairs(parse_manifest(b"httpx\n", "requirements/base.txt")) == [("httpx", "")]
    assert parse_manifest(b"httpx\n", "README.txt") == []


def test_env_example_keys_are_read_and_comments_skipped():
    data = b"# settings\nDATABASE_URL=postgres://x\nexport API_KEY=\n  DEBUG = 1\n# OLD=1\nbad\n"
    assert parse_env_example(data) == ["DATABASE_URL", "API_KEY", "DEBUG"]


# -- setup.py and setup.cfg: read, never run ------------------------------------------------
SETUP_PY = b'''
import os
from setuptools import setup

requires = ["charset_normalizer>=2,<4", "idna>=2.5,<4"]
os.system("echo this never runs")
setup(
    name="demo",
    install_requires=requires,
    extras_require={"socks": ["PySocks>=1.5.6, !=1.5.7"]},
    tests_require=["pytest>=3"],
    packages=find_packages(),
)
'''


@pytest.mark.parametrize(
    ("data", "path", "expected"),
    [
        (SETUP_PY, "setup.py",
         {("charset-normalizer", ">=2,<4"), ("idna", ">=2.5,<4"), ("pysocks", ">=1.5.6, !=1.5.7"),
          ("pytest", ">=3")}),
        (b"setup(install_requires=compute())\n", "setup.py", set()),
        (b"def broken(:\n", "setup.py", set()),
        (b"[options]\ninstall_requires =\n    asgiref>=3.7\n    sqlparse  # comment\n"
         b"[options.extras_require]\nargon2 = argon2-cffi>=19.1.0\n", "setup.cfg",
         {("asgiref", ">=3.7"), ("sqlparse", ""), ("argon2-cffi", ">=19.1.0")}),
        (b"[options\nbroken", "setup.cfg", set()),
    ],
    ids=["literal-lists-and-a-named-list", "computed-requirements-are-skipped",
         "a-syntax-error-yields-nothing", "setup-cfg-options", "broken-ini-yields-nothing"],
)  # fmt: skip
def test_setup_files_declare_their_literal_requirements(
    data: bytes, path: str, expected: set[tuple[str, str]]
) -> None:
    assert manifest_kind(path) is not None
    assert {(d.name, d.spec) for d in parse_manifest(data, path)} == expected


@pytest.mark.parametrize(
    ("data", "path", "runtime"),
    [
        (b'[project]\ndependencies = ["httpx"]\n[project.optional-dependencies]\n'
         b'test = ["pytest"]\n[build-system]\nrequires = ["hatchling"]\n', "pyproject.toml",
         {"httpx": True, "pytest": False, "hatchling": False}),
        (b'[tool.poetry.dependencies]\npython = "^3.8"\nrich = "^13"\n'
         b'ipython = {version = "^8", optional = true}\n'
         b'[tool.poetry.dev-dependencies]\nblack = "*"\n', "pyproject.toml",
         {"python": True, "rich": True, "ipython": False, "black": False}),
        (b"flask\n", "requirements-dev.txt", {"flask": False}),
        (b"redis\n", "tests/requirements/py3.txt", {"redis": False}),
        (b"idna\n", "requirements.txt", {"idna": True}),
        (SETUP_PY, "setup.py",
         {"charset-normalizer": True, "idna": True, "pysocks": False, "pytest": False}),
    ],
    ids=["pyproject-extras-and-build", "poetry-optional-and-dev", "dev-requirements",
         "test-requirements-directory", "root-requirements", "setup-py-keywords"],
)  # fmt: skip
def test_each_declaration_says_whether_the_project_needs_it_at_run_time(
    data: bytes, path: str, runtime: dict[str, bool]
) -> None:
    assert {d.name: d.runtime for d in parse_manifest(data, path)} == runtime


@pytest.mark.parametrize(
    ("data", "path", "spec"),
    [
        (b'[project]\nname = "x"\nrequires-python = ">=3.9"\n', "pyproject.toml", ">=3.9"),
        (b'[tool.poetry.dependencies]\npython = "^3.8"\n', "pyproject.toml", "^3.8"),
        (b"setup(python_requires='>=3.7', install_requires=[])\n", "setup.py", ">=3.7"),
        (b"[options]\npython_requires = >=3.10\n", "setup.cfg", ">=3.10"),
    ],
    ids=["requires-python", "poetry-python", "setup-py", "setup-cfg"],
)
def test_the_supported_python_versions_are_a_dependency_on_python(
    data: bytes, path: str, spec: str
) -> None:
    assert [(d.name, d.spec) for d in parse_manifest(data, path) if d.name == "python"] == [
        ("python", spec)
    ]
