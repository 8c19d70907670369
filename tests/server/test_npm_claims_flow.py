"""Notes about a JupyterLab-style extension (a Python backend, a TypeScript frontend with its
root ``package.json``, a ``ui-tests/`` project), as agents write them, through MCP
``remember`` + ``recall`` on a real git repository with real commits (issues #31, #32).

Each case is written twice, true and false: a development-only package claimed as a
run-time dependency; ``engines.node``, ``packageManager`` and the tsconfig's target as
values; a negation said of the frontend; an npm tool known by its configuration file; a
TypeScript method's parameter default. A false note is served REFUTED with a receipt that
quotes the code; a true one is never refuted."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

PACKAGE_JSON = """{
  "name": "@acme/lab-git",
  "packageManager": "yarn@3.5.0",
  "engines": {"node": ">=20"},
  "dependencies": {"@mui/material": "^5.14.0", "typestyle": "^2.0.0", "react": "^18.2.0"},
  "devDependencies": {"typescript": "~5.0.0", "jest": "^29.2.0"}
}
"""
UI_TESTS_PACKAGE = """{
  "name": "@acme/lab-git-ui-tests",
  "private": true,
  "devDependencies": {"@jupyterlab/galata": "^5.0.6", "@playwright/test": "^1.37.0"}
}
"""
TSCONFIG = """{
  "compilerOptions": {
    // what JupyterLab's browsers run
    "target": "ES2018",
    "module": "esnext",
  },
}
"""
MODEL_TS = """import { classes } from 'typestyle';

export class GitExtension {
  async log(count = 25): Promise<string[]> {
    return [classes('history'), String(count)];
  }
}
"""
TOOLBAR_TSX = """import Button from '@mui/material/Button';
import * as React from 'react';

export const Toolbar = () => <Button>{React.version}</Button>;
"""
UI_SPEC_TS = """import { test } from '@jupyterlab/galata';
import { expect } from '@playwright/test';

test('opens the panel', async () => { expect(1).toBe(1); });
"""
EXTENSION = {
    "pyproject.toml": '[project]\nname = "lab-git"\ndependencies = ["jupyter_server>=2"]\n',
    "lab_git/__init__.py": "import jupyter_server\n",
    "package.json": PACKAGE_JSON,
    "tsconfig.json": TSCONFIG,
    "src/model.ts": MODEL_TS,
    "src/components/Toolbar.tsx": TOOLBAR_TSX,
    "ui-tests/package.json": UI_TESTS_PACKAGE,
    "ui-tests/tests/panel.spec.ts": UI_SPEC_TS,
}
# What a spell-checked repository adds
CSPELL = {".cspell.json": '{"words": ["jupyterlab", "typestyle"]}\n'}

# (note, status served, text a receipt holds: "" when the status says it all)
CASES: list[tuple[str, str, str]] = [
    # 1. a package declared for development only, claimed at run time
    ("@jupyterlab/galata is a runtime dependency of the extension.", "REFUTED",
     "@jupyterlab/galata is not imported in src"),
    ("@playwright/test sits in the extension's runtime dependencies.", "REFUTED",
     "@playwright/test is declared in ui-tests/package.json"),
    ("@jupyterlab/galata is a devDependency.", "VERIFIED", ""),
    ("typestyle is a runtime dependency of the extension.", "VERIFIED",
     "typestyle is declared in package.json"),
    # 2. engines, packageManager and the tsconfig
    ("package.json pins engines.node >= 18.", "REFUTED",
     "package.json:4 says engines.node: >=20, not >=18"),
    ("package.json pins engines.node >= 20.", "VERIFIED", "package.json:4 says engines.node"),
    ("The repository pins yarn 4 (packageManager yarn@4.x).", "REFUTED",
     "says packageManager: yarn@3.5.0, not yarn@4"),
    ("The repository pins yarn 3 (packageManager yarn@3.5.0).", "VERIFIED",
     "package.json:3 says packageManager: yarn@3.5.0"),
    ("The package manager is pnpm 8.", "REFUTED", "not pnpm@8"),
    ("The tsconfig compiles to ES2020.", "REFUTED",
     "tsconfig.json:4 says compilerOptions.target: ES2018, not ES2020"),
    ("The tsconfig compiles to ES2018.", "VERIFIED", "compilerOptions.target: ES2018"),
    ("tsconfig.json sets module to CommonJS.", "REFUTED", "not CommonJS"),
    ("tsconfig.json sets module to esnext.", "VERIFIED", "compilerOptions.module: esnext"),
    # 3. negations said of the frontend
    ("The extension doesn't use Material UI any more.", "REFUTED",
     "imported by src/components/Toolbar.tsx"),
    ("The frontend no longer uses typestyle; components are styled with plain CSS.",
     "REFUTED", "imported by src/model.ts"),
    ("The extension doesn't use jQuery any more.", "VERIFIED", "jquery is not imported in src"),
    ("The frontend no longer uses styled-components.", "VERIFIED",
     "styled-components is not imported in src"),
    # 4. an npm tool known by its configuration file
    ("Commit messages are spell-checked with cspell before committing.", "REFUTED",
     "CSpell is not used by the project"),
    ("Commit messages are checked by commitlint.", "REFUTED",
     "commitlint is not used by the project"),
    # 5. a TypeScript method's parameter default
    ("The history panel loads 50 commits by default (GitExtension.log(count = 50)).",
     "REFUTED", "src/model.ts:4 defines log(count=25): count defaults to 25, not 50"),
    ("The history panel loads 25 commits by default (GitExtension.log(count = 25)).",
     "VERIFIED", "src/model.ts:4 defines log(count=25)"),
    ("`GitExtension.log` has a `count` parameter defaulting to 50.", "REFUTED",
     "count defaults to 25, not 50"),
    ("`GitExtension.log` takes an optional `count` argument.", "VERIFIED",
     "defines log(count=25)"),
]  # fmt: skip

# True in the repository that configures cspell
SPELL_CHECKED: list[tuple[str, str, str]] = [
    ("Commit messages are spell-checked with cspell before committing.", "VERIFIED",
     "CSpell: .cspell.json is tracked"),
    ("The repository's words are spell-checked with CSpell.", "VERIFIED", ".cspell.json"),
]  # fmt: skip


@pytest.fixture
def extension(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(EXTENSION, "a JupyterLab extension with its UI tests")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CASES)
async def test_a_note_about_the_extension_is_served_as_the_code_says(
    extension: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(extension.root, text)
    assert served["status"] == status, served["anchors"]
    assert receipt in receipts(served), served["anchors"]


@pytest.mark.parametrize(("text", "status", "receipt"), SPELL_CHECKED)
async def test_a_tool_configured_by_its_own_file_is_found_there(
    extension: GitRepo, text: str, status: str, receipt: str
) -> None:
    extension.commit(CSPELL, "spell-check the sources")
    served = await remember_and_serve(extension.root, text)
    assert served["status"] == status, served["anchors"]
    assert receipt in receipts(served), served["anchors"]


async def test_a_default_changed_in_a_commit_refutes_the_note_that_quoted_it(
    extension: GitRepo,
) -> None:
    text = "The history panel loads 25 commits by default (GitExtension.log(count = 25))."
    assert (await remember_and_serve(extension.root, text))["status"] == "VERIFIED"
    extension.commit({"src/model.ts": MODEL_TS.replace("count = 25", "count = 40")},
                     "load more history")  # fmt: skip
    served = await remember_and_serve(extension.root, text)
    assert served["status"] == "REFUTED", served["anchors"]
    assert "count defaults to 40, not 25" in receipts(served), served["anchors"]
