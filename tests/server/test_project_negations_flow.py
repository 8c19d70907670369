"""What a note denies of the whole project (issue #32), through MCP ``remember`` +
``recall`` on real git repositories in Go, Rust, Python and TypeScript: "never reads
environment variables" (``!env:*``), "has no third-party dependencies" (``!dep:*``),
"only the tests import log" (``!import:log@*``). The code that runs is the whole claim:
tests, examples and build scripts may read or import anything."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served, remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

GO_QUIET = {
    "go.mod": "module github.com/acme/router\n\ngo 1.21\n",
    "router.go": 'package router\n\nimport "strings"\n\nfunc Clean(p string) string {\n'
                 '\treturn strings.TrimSpace(p)\n}\n',
    "router_test.go": 'package router\n\nimport (\n\t"log"\n\t"os"\n\t"testing"\n)\n\n'
                      'func TestClean(t *testing.T) {\n\tlog.Println(os.Getenv("CI"))\n}\n',
}  # fmt: skip
GO_LOUD = {
    "go.mod": "module github.com/acme/router\n\ngo 1.21\n\n"
              "require github.com/google/uuid v1.6.0\n",
    "router.go": 'package router\n\nimport (\n\t"log"\n\t"os"\n)\n\n'
                 'func Port() string {\n\tlog.Println("port")\n\treturn os.Getenv("PORT")\n}\n',
}  # fmt: skip
GO_DYNAMIC = {
    "go.mod": "module github.com/acme/router\n\ngo 1.21\n",
    "router.go": 'package router\n\nimport "os"\n\nfunc Get(key string) string {\n'
                 "\treturn os.Getenv(key)\n}\n",
}  # fmt: skip
RUST = {
    "Cargo.toml": '[package]\nname = "tidy"\nversion = "0.1.0"\n\n[dependencies]\n'
                  'log = "0.4"\n\n[dev-dependencies]\nenv_logger = "0.11"\n',
    "src/lib.rs": "use log::info;\n\npub fn run() {\n    info!(\"run\");\n}\n",
    "build.rs": 'fn main() {\n    let _ = std::env::var("OUT_DIR");\n}\n',
    "tests/it.rs": 'use env_logger;\n\n#[test]\nfn t() {\n    std::env::var("RUST_LOG").ok();\n}\n',
}  # fmt: skip
PYTHON = {
    "pyproject.toml": '[project]\nname = "shop"\ndependencies = []\n'
                      '[project.optional-dependencies]\ntest = ["pytest"]\n',
    "shop/__init__.py": "",
    "shop/core.py": "import json\n\ndef load(text):\n    return json.loads(text)\n",
    "tests/test_core.py": "import os\nimport pytest\n\nROOT = os.environ.get('ROOT')\n",
}  # fmt: skip
TYPESCRIPT = {
    "package.json": '{"name": "web", "dependencies": {"axios": "^1.6.0"},'
                    ' "devDependencies": {"vitest": "^1.0.0"}}\n',
    "src/api.ts": "import axios from 'axios';\n"
                  "export const base = import.meta.env.VITE_API_URL;\n"
                  "export const get = (u: string) => axios.get(base + u);\n",
    "src/api.test.ts": "import { test } from 'vitest';\ntest('x', () => {});\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # Go: tests read CI and import log; the code that runs does neither
    (GO_QUIET, "router never reads environment variables.", "VERIFIED",
     "no code that runs reads the environment"),
    (GO_QUIET, "The library has no third-party dependencies: go.mod has no require block.",
     "VERIFIED", "go.mod declares no run-time dependency"),
    (GO_QUIET, "Only the tests import log.", "VERIFIED",
     "only where the code does not run: router_test.go"),
    (GO_LOUD, "The library never reads environment variables.", "REFUTED",
     "router.go reads PORT"),
    (GO_LOUD, "router has no third-party dependencies.", "REFUTED",
     "go.mod declares github.com/google/uuid"),
    (GO_LOUD, "Only the tests import log.", "REFUTED", "log is imported by router.go"),
    # a read whose name is not a literal is a read all the same
    (GO_DYNAMIC, "The code never reads environment variables.", "REFUTED",
     "a variable whose name it computes"),
    # Rust: build.rs and tests/ read the environment; a run-time crate is declared
    (RUST, "The crate never touches the environment.", "VERIFIED",
     "no code that runs reads the environment"),
    (RUST, "tidy has no dependencies.", "REFUTED", "Cargo.toml declares log"),
    (RUST, "Only the tests use env_logger.", "VERIFIED", "no code that runs imports env_logger"),
    # Python: the tests read ROOT; an optional test extra is no run-time dependency
    (PYTHON, "shop has no runtime dependencies.", "VERIFIED", "declares no run-time dependency"),
    (PYTHON, "The app doesn't read any environment variables.", "VERIFIED",
     "no code that runs reads the environment"),
    # TypeScript: Vite's import.meta.env is a read; axios is a run-time dependency
    (TYPESCRIPT, "The app never reads environment variables.", "REFUTED",
     "src/api.ts reads VITE_API_URL"),
    (TYPESCRIPT, "The project has zero runtime dependencies.", "REFUTED",
     "package.json declares axios"),
    (TYPESCRIPT, "Only the tests import vitest.", "VERIFIED", "no code that runs imports vitest"),
    # one manifest named, with its owner's words before it
    (TYPESCRIPT, "The frontend's package.json has no runtime dependencies.", "REFUTED",
     "package.json declares axios"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS)
async def test_a_denial_of_the_whole_project_is_checked_against_the_code_that_runs(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)


@pytest.mark.parametrize(
    "text",
    [
        # narrowed: which ones, not none
        "router has no dependencies besides uuid.",
        "The library never reads environment variables other than PORT.",
        # a part of the project, a plan, a development role
        "The handler never reads environment variables.",
        "The library should never read environment variables.",
        "router has no dev dependencies.",
    ],
)
async def test_a_narrowed_or_partial_denial_is_not_read_as_one_of_the_whole_project(
    git_repo: GitRepo, text: str
) -> None:
    """None of these is about all of the running code: no wildcard anchor is read, so
    the code that does read PORT and declare uuid neither refutes nor verifies them."""
    git_repo.commit(GO_LOUD, "a project")
    served = await remember_and_serve(git_repo.root, text)
    assert not any(a["anchor"].startswith(("!env:*", "!dep:*")) for a in served["anchors"]), served
    assert served["status"] != "VERIFIED", served


async def test_it_may_be_any_part_so_its_denial_is_not_the_projects(git_repo: GitRepo) -> None:
    """"it" may stand for the part a note spoke of first: the project's declared uuid must
    not refute "the parser ... has no dependencies"."""
    git_repo.commit(GO_LOUD, "a project")
    served = await remember_and_serve(
        git_repo.root, "The path parser is tiny; it has no dependencies."
    )
    assert served["status"] != "REFUTED", served


POLYGLOT = {
    "pyproject.toml": '[project]\nname = "ext"\ndependencies = []\n',
    "ext/__init__.py": "import os\n\nROOT = os.environ.get('EXT_ROOT')\n",
    "package.json": '{"name": "ext", "dependencies": {"@lumino/widgets": "^2.0.0"}}\n',
    "src/index.ts": "import { Widget } from '@lumino/widgets';\nexport const w = new Widget();\n",
    "src/api.ts": "export const base = '/api';\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("extra", "status", "reason"),
    [
        ({}, "VERIFIED", "no code that runs under src/ reads the environment"),
        ({"src/config.ts": "export const mode = process.env.NODE_ENV;\n"}, "REFUTED",
         "src/config.ts reads NODE_ENV"),
    ],
)  # fmt: skip
async def test_the_frontends_denial_is_checked_in_its_sources_alone(
    git_repo: GitRepo, extra: dict[str, str], status: str, reason: str
) -> None:
    """The Python package reads EXT_ROOT; the frontend's claim is its sources' alone."""
    git_repo.commit({**POLYGLOT, **extra}, "a server extension with a frontend")
    served = await remember_and_serve(git_repo.root, "The frontend source never reads process.env.")
    assert served["status"] == status, served
    assert reason in said(served), served


GO_MOD = "module example.com/cfg\n\ngo 1.21\n"
WHOLE_ENVIRONMENT: list[tuple[dict[str, str], str]] = [
    # reading all of the environment is reading it, whatever the names
    ({"go.mod": GO_MOD,
      "cfg.go": 'package cfg\n\nimport "os"\n\nfunc All() []string {\n'
                "\treturn os.Environ()\n}\n"}, "REFUTED"),
    ({"Cargo.toml": '[package]\nname = "cfg"\nversion = "0.1.0"\n',
      "src/lib.rs": "pub fn all() -> Vec<(String, String)> {\n"
                    "    std::env::vars().collect()\n}\n"}, "REFUTED"),
    ({"package.json": '{"name": "cfg"}\n',
      "src/index.ts": "export const all = { ...process.env };\n"}, "REFUTED"),
    ({"pyproject.toml": '[project]\nname = "cfg"\n', "cfg/__init__.py": "",
      "cfg/all.py": "import os\n\nALL = os.environ.copy()\n"}, "REFUTED"),
    # only a comment names it: no read, but no proof of none either
    ({"go.mod": GO_MOD,
      "cfg.go": "package cfg\n\n// unlike os.Environ(), this takes no variables\n"
                "func None() {}\n"}, "ACTIVE"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "status"), WHOLE_ENVIRONMENT)
async def test_reading_the_whole_environment_refutes_never_reading_it(
    git_repo: GitRepo, files: dict[str, str], status: str
) -> None:
    git_repo.commit(files, "a configuration package")
    text = "The cfg package never reads environment variables."
    served = await remember_and_serve(git_repo.root, text)
    assert served["status"] == status, served
    if status == "REFUTED":
        assert "reads the environment: all of it" in said(served), served


DYNAMIC = {
    "pyproject.toml": '[project]\nname = "shop"\ndynamic = ["dependencies"]\n\n'
                      "[tool.setuptools.dynamic]\n"
                      'dependencies = {file = ["requirements/base.in"]}\n',
    "requirements/base.in": "requests\n",
    "shop/__init__.py": "",
    "shop/api.py": "import requests\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("shop has no runtime dependencies.", "may declare requirements the fingerprint does"),
        ("The shop depends on flask.", "pyproject.toml takes its dependencies from elsewhere"),
    ],
)
async def test_dependencies_taken_from_a_file_not_read_are_never_known_absent(
    git_repo: GitRepo, text: str, reason: str
) -> None:
    """``dynamic = ["dependencies"]`` from a file the fingerprint does not read: the
    project may declare anything, so neither "no dependencies" nor a missing one is
    decided."""
    await check_served(git_repo, DYNAMIC, text, "ACTIVE", reason)
