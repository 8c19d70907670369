"""What notes about a JavaScript/TypeScript application say, checked against its manifests and
code (issues #31, #32): a package claimed as a run-time dependency that only development (or
a test project) declares; ``engines``, ``packageManager`` and a tsconfig's compiler options
as values; a negation said of the frontend bound to its sources and ``package.json``; npm
tools known by their configuration files; a TypeScript method's parameter defaults. Each
test reads a note against a fingerprint of a real git repository."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from anchors import vocabulary
from anchors.extract import Inference, infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.infra_compare import (
    Match,
    compare_compiler_option,
    compare_package_manager,
    compare_range,
)
from anchors.infra_facts import InfraKind, infra_kind
from anchors.jsonc import loads_jsonc
from anchors.npm_application import application_sources, for_development
from anchors.parameters import ParamKind, parse_params
from anchors.spec import parse_anchor
from anchors.subject import resolve_subject
from anchors.tooling_dirs import js_runs
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

ROOT_PACKAGE = """{
  "name": "@acme/lab-widget",
  "packageManager": "yarn@3.5.0",
  "engines": {"node": ">=20", "npm": ">=9"},
  "dependencies": {"@mui/material": "^5.14.0", "typestyle": "^2.0.0", "react": "^18.2.0"},
  "devDependencies": {"typescript": "~5.0.0", "jest": "^29.2.0",
                      "@testing-library/react": "^14.0.0"}
}
"""
UI_TESTS_PACKAGE = """{
  "name": "@acme/lab-widget-ui-tests",
  "private": true,
  "devDependencies": {"@jupyterlab/galata": "^5.0.6", "@playwright/test": "^1.37.0"}
}
"""
# A test project that declares what it needs as plain dependencies
E2E_PACKAGE = '{"name": "e2e", "private": true, "dependencies": {"puppeteer": "^21.0.0"}}\n'
TSCONFIG = """{
  // the extension's sources
  "compilerOptions": {
    "module": "esnext",
    /* the oldest browsers JupyterLab supports */
    "target": "ES2018",
    "strict": true,
  },
  "include": ["src/*"],
}
"""
MODEL_TS = """import { classes } from 'typestyle';

export class GitExtension {
  async log(count = 25, path?: string): Promise<string[]> {
    return [classes('a'), String(count), path ?? ''];
  }

  async diff(options: { staged?: boolean } = {}): Promise<void> {}
}
"""
INDEX_TSX = """import Button from '@mui/material/Button';
import * as React from 'react';

export const Toolbar = () => <Button>{React.version}</Button>;
"""
SPEC_TS = """import { render } from '@testing-library/react';

test('renders', () => { render(null as any); });
"""
UI_SPEC_TS = """import { test } from '@jupyterlab/galata';
import { expect } from '@playwright/test';

test('opens', async () => { expect(1).toBe(1); });
"""
E2E_SPEC_JS = "const puppeteer = require('puppeteer');\nmodule.exports = puppeteer;\n"
EXTENSION = {
    "pyproject.toml": '[project]\nname = "lab-widget"\ndependencies = ["jupyter_server>=2"]\n',
    "lab_widget/__init__.py": "import jupyter_server\n",
    "package.json": ROOT_PACKAGE,
    "tsconfig.json": TSCONFIG,
    "src/model.ts": MODEL_TS,
    "src/index.tsx": INDEX_TSX,
    "src/__tests__/model.spec.tsx": SPEC_TS,
    "ui-tests/package.json": UI_TESTS_PACKAGE,
    "ui-tests/tests/open.spec.ts": UI_SPEC_TS,
    "e2e/package.json": E2E_PACKAGE,
    "e2e/tests/open.test.js": E2E_SPEC_JS,
}
# An application that states no engines, spell-checks with cspell, and whose tsconfig
# extends a base that sets the target
APP = {
    "package.json": '{"name": "shop-web", "dependencies": {"vue": "^3.4.0"}}\n',
    ".cspell.json": '{"words": ["pinia"]}\n',
    "tsconfig.base.json": '{"compilerOptions": {"target": "ES2020"}}\n',
    "tsconfig.json": '{"extends": "./tsconfig.base.json", "compilerOptions": {}}\n',
    "src/main.ts": "import { createApp } from 'vue';\n\ncreateApp({}).mount('#app');\n",
}


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Fingerprint]]:
    out: dict[str, Fingerprint] = {}
    for name, tree in (("extension", EXTENSION), ("app", APP)):
        root = tmp_path_factory.mktemp(name)
        GitRepo(root).commit(tree)
        with CodeSource(root, InMemoryFactsCache()) as code:
            out[name] = code.fingerprint()
    yield out


def _read(fp: Fingerprint, text: str) -> Inference:
    return infer_anchors(text, fp, None, scope=resolve_subject(None, text, fp))


def _verdicts(fp: Fingerprint, text: str) -> dict[str, Verdict]:
    return {a.render(): check_anchor(a, None, fp).verdict for a in _read(fp, text).anchors}


# -- development-only npm packages claimed as run-time dependencies ------------------------
def test_the_application_sources_are_its_src_beside_test_projects(
    repos: dict[str, Fingerprint],
) -> None:
    assert application_sources(repos["extension"]) == "src"
    assert application_sources(repos["app"]) == "src"
    assert js_runs("src/model.ts") and js_runs("src/components/Panel.tsx")
    for path in ("src/__tests__/model.spec.tsx", "ui-tests/tests/open.spec.ts",
                 "ui-tests/playwright.config.js", "e2e/tests/open.test.js", "jest.config.js",
                 "src/types.d.ts", "lib/index.js"):  # fmt: skip
        assert not js_runs(path), path
    declared = {d.name: d for d in repos["extension"].dependencies if d.ecosystem == "npm"}
    assert for_development(declared["puppeteer"])  # a test project's plain dependency
    assert not for_development(declared["typestyle"])


@pytest.mark.parametrize(
    ("text", "package"),
    [
        ("@jupyterlab/galata is a runtime dependency of the extension.", "@jupyterlab/galata"),
        ("@playwright/test sits in the extension's runtime dependencies.", "@playwright/test"),
        ("puppeteer is a production dependency of the widget.", "puppeteer"),
    ],
)
def test_a_development_only_package_claimed_at_run_time_is_refuted(
    repos: dict[str, Fingerprint], text: str, package: str
) -> None:
    verdicts = _verdicts(repos["extension"], text)
    assert verdicts[f"import:{package}@src"] is Verdict.BROKEN, verdicts


@pytest.mark.parametrize(
    "text",
    [
        "@jupyterlab/galata is a devDependency of the UI tests.",
        "The UI tests depend on @playwright/test.",
        "typestyle is a runtime dependency of the extension.",
    ],
)
def test_a_true_or_undecidable_role_is_never_refuted(
    repos: dict[str, Fingerprint], text: str
) -> None:
    verdicts = _verdicts(repos["extension"], text)
    assert Verdict.BROKEN not in verdicts.values(), verdicts


# -- engines, packageManager and the tsconfig as values -------------------------------------
@pytest.mark.parametrize(
    ("repo", "text", "anchor", "verdict"),
    [
        ("extension", "package.json pins engines.node >= 18.",
         "config:package.json::engines.node=>=18", Verdict.BROKEN),
        ("extension", "package.json pins engines.node >= 20.",
         "config:package.json::engines.node=>=20", Verdict.HOLDS),
        ("extension", "The engines field requires npm >=9.",
         "config:package.json::engines.npm=>=9", Verdict.HOLDS),
        ("app", "package.json pins engines.node >= 18.",
         "config:package.json::engines.node=>=18", Verdict.BROKEN),  # it states none
        ("extension", "The repository pins yarn 4 (packageManager yarn@4.x).",
         "config:package.json::packageManager=yarn@4.x", Verdict.BROKEN),
        ("extension", "The project uses Yarn 3.5 as its package manager.",
         "config:package.json::packageManager=yarn@3.5", Verdict.HOLDS),
        ("extension", "The package manager is pnpm 8.",
         "config:package.json::packageManager=pnpm@8", Verdict.BROKEN),
        ("extension", "The tsconfig compiles to ES2020.",
         "config:tsconfig.json::compilerOptions.target=ES2020", Verdict.BROKEN),
        ("extension", "The tsconfig compiles to ES2018.",
         "config:tsconfig.json::compilerOptions.target=ES2018", Verdict.HOLDS),
        ("extension", "tsconfig.json sets module to CommonJS.",
         "config:tsconfig.json::compilerOptions.module=CommonJS", Verdict.BROKEN),
        ("extension", "TypeScript strict mode is enabled in tsconfig.json.",
         "config:tsconfig.json::compilerOptions.strict=true", Verdict.HOLDS),
        # followed to the configuration it extends
        ("app", "The tsconfig targets ES2020.",
         "config:tsconfig.base.json::compilerOptions.target=ES2020", Verdict.HOLDS),
    ],
)  # fmt: skip
def test_a_stated_configuration_value_is_checked_in_its_file(
    repos: dict[str, Fingerprint], repo: str, text: str, anchor: str, verdict: Verdict
) -> None:
    verdicts = _verdicts(repos[repo], text)
    assert verdicts.get(anchor) is verdict, verdicts
    assert not [u for u in _read(repos[repo], text).uncovered if u.startswith("the value")]


def test_an_option_a_tsconfig_may_inherit_is_unknown_when_not_stated(
    repos: dict[str, Fingerprint],
) -> None:
    def verdict(repo: str, anchor: str) -> Verdict:
        return check_anchor(parse_anchor(anchor), None, repos[repo]).verdict

    # the app's tsconfig.json extends another: what it does not state may come from there
    assert verdict("app", "config:tsconfig.json::compilerOptions.module=esnext") is (
        Verdict.UNKNOWN)  # fmt: skip
    # the extension's extends nothing: an option it does not state is not set
    assert verdict("extension", "config:tsconfig.json::compilerOptions.jsx=react") is (
        Verdict.BROKEN)  # fmt: skip


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("tsconfig.json", InfraKind.TSCONFIG),
        ("packages/web/tsconfig.app.json", InfraKind.TSCONFIG),
        ("jsconfig.json", InfraKind.TSCONFIG),
        ("node_modules/vue/tsconfig.json", None),
        ("docs/tsconfig.md", None),
    ],
)
def test_tsconfig_files_are_known_by_their_names(path: str, kind: InfraKind | None) -> None:
    assert infra_kind(path) is kind


def test_json_with_comments_and_trailing_commas_is_read_as_data() -> None:
    assert loads_jsonc(TSCONFIG)["compilerOptions"] == {
        "module": "esnext", "target": "ES2018", "strict": True}  # fmt: skip
    assert loads_jsonc('{"url": "http://a//b", "c": "/* kept */",}') == {
        "url": "http://a//b", "c": "/* kept */"}  # fmt: skip
    with pytest.raises(ValueError):
        loads_jsonc('{"a": }')


@pytest.mark.parametrize(
    ("compare", "stated", "actual", "match"),
    [
        (compare_range, ">=18", ">=20", Match.DIFFERENT),
        (compare_range, ">=20", ">=20.0.0", Match.SAME),
        (compare_range, ">=18", ">=18.12", Match.UNKNOWN),  # the note may round
        (compare_range, "20", ">=18", Match.SAME),
        (compare_range, "16", ">=18", Match.DIFFERENT),
        (compare_package_manager, "yarn@4.x", "yarn@3.5.0", Match.DIFFERENT),
        (compare_package_manager, "yarn@3", "yarn@3.5.0+sha224.953c8233", Match.SAME),
        (compare_package_manager, "pnpm@8", "yarn@3.5.0", Match.DIFFERENT),
        (compare_compiler_option, "es6", "ES2015", Match.SAME),
        (compare_compiler_option, "ES2020", "ES2018", Match.DIFFERENT),
    ],
)
def test_configuration_values_compare_by_their_meaning(
    compare: object, stated: str, actual: str, match: Match
) -> None:
    assert callable(compare) and compare(stated, actual) is match


# -- negations said of the frontend --------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "anchor", "verdict"),
    [
        ("The extension doesn't use Material UI any more.", "!import:@mui/material@src",
         Verdict.BROKEN),
        ("The frontend no longer uses typestyle; components are styled with plain CSS.",
         "!import:typestyle@src", Verdict.BROKEN),
        ("The frontend no longer uses typestyle.", "!dep:typestyle", Verdict.BROKEN),
        ("The extension doesn't use jQuery any more.", "!import:jquery@src", Verdict.HOLDS),
        ("The frontend no longer uses styled-components.", "!import:styled-components@src",
         Verdict.HOLDS),
    ],
)  # fmt: skip
def test_a_negation_of_the_frontend_is_checked_in_its_sources(
    repos: dict[str, Fingerprint], text: str, anchor: str, verdict: Verdict
) -> None:
    inference = _read(repos["extension"], text)
    verdicts = _verdicts(repos["extension"], text)
    assert verdicts.get(anchor) is verdict, verdicts
    assert not inference.negations, inference.negations  # the negation is checked


def test_a_negation_of_the_frontend_about_a_python_package_stays_unclear(
    repos: dict[str, Fingerprint],
) -> None:
    inference = _read(repos["extension"], "The extension no longer uses jupyter_server.")
    assert not inference.anchors and inference.negations


# -- npm tools known by their configuration files ------------------------------------------
def test_cspell_is_a_tool_with_a_footprint_whose_absence_refutes(
    repos: dict[str, Fingerprint],
) -> None:
    tech = vocabulary.by_name("cspell")
    assert tech is not None and ".cspell.json" in tech.footprints and not tech.beside
    text = "Commit messages are spell-checked with cspell before committing."
    assert _verdicts(repos["extension"], text) == {"tech:cspell": Verdict.BROKEN}
    assert _verdicts(repos["app"], text) == {"tech:cspell": Verdict.HOLDS}


def test_the_shipped_npm_tools_are_the_curated_tables() -> None:
    """Editing vocabulary_ecosystems.py without regenerating the data fails here."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    try:
        import vocabulary_ecosystems as eco
    finally:
        sys.path.pop(0)
    for name in ("cspell", "commitlint", "stylelint", "markdownlint", "typedoc"):
        [curated] = [t for t in eco.ECOSYSTEM_TECHS if t.name == name]
        tech = vocabulary.by_name(name)
        assert tech is not None, name
        assert (tech.display, tech.footprints, tech.packages) == (
            curated.display, curated.footprints, curated.packages)  # fmt: skip


# -- TypeScript parameters -----------------------------------------------------------------
def test_typescript_signatures_are_read_with_their_defaults(
    repos: dict[str, Fingerprint],
) -> None:
    sig = repos["extension"].signature("src/model.ts", "GitExtension.log")
    assert sig is not None and sig.language == "typescript"
    assert [(p.name, p.default, p.has_default) for p in sig.params] == [
        ("count", "25", True), ("path", None, True)]  # fmt: skip
    diff = repos["extension"].signature("src/model.ts", "GitExtension.diff")
    # an object of options: a note may name one of its members
    assert diff is not None and [p.kind for p in diff.params] == [ParamKind.POSITIONAL,
                                                                  ParamKind.KWARGS]
    untyped = parse_params("a, b = -1, ...rest", 1, "javascript")
    assert [(p.name, p.kind) for p in untyped] == [
        ("a", ParamKind.POSITIONAL), ("b", ParamKind.POSITIONAL), ("rest", ParamKind.ARGS),
        ("…", ParamKind.KWARGS)]  # fmt: skip (untyped "a" may be an object of options)
    defaults = parse_params("n = -1, s = 'HEAD', t = `x`, u = f()", 1, "javascript")
    assert [(p.default, p.has_default) for p in defaults if p.kind is ParamKind.POSITIONAL] == [
        ("-1", True), ("'HEAD'", True), ("`x`", True), (None, True)]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "anchor", "verdict"),
    [
        ("The history panel loads 50 commits by default (GitExtension.log(count = 50)).",
         "param:src/model.ts::GitExtension.log(count=50)", Verdict.BROKEN),
        ("The history panel loads 25 commits by default (GitExtension.log(count = 25)).",
         "param:src/model.ts::GitExtension.log(count=25)", Verdict.HOLDS),
        ("`GitExtension.log` takes an optional `path` argument.",
         "param:src/model.ts::GitExtension.log(path?)", Verdict.HOLDS),
        ("`GitExtension.log` has a `count` parameter defaulting to 50.",
         "param:src/model.ts::GitExtension.log(count=50)", Verdict.BROKEN),
        ("`GitExtension.log` takes a `limit` argument.",
         "param:src/model.ts::GitExtension.log(limit)", Verdict.BROKEN),
    ],
)  # fmt: skip
def test_a_typescript_default_is_checked_against_the_signature(
    repos: dict[str, Fingerprint], text: str, anchor: str, verdict: Verdict
) -> None:
    verdicts = _verdicts(repos["extension"], text)
    assert verdicts.get(anchor) is verdict, verdicts


def test_a_keyword_inside_a_destructured_parameter_is_never_refuted(
    repos: dict[str, Fingerprint],
) -> None:
    anchor = parse_anchor("param:src/model.ts::GitExtension.diff(staged)")
    assert check_anchor(anchor, None, repos["extension"]).verdict is Verdict.UNKNOWN


def test_a_package_only_tests_inside_the_sources_import_is_refuted_at_run_time(
    repos: dict[str, Fingerprint],
) -> None:
    """A test inside ``src`` imports it: an import anchor on ``src`` would hold on the
    test, the code that runs (``import:X@*``) does not import it."""
    text = "@testing-library/react is a runtime dependency of the extension."
    verdicts = _verdicts(repos["extension"], text)
    assert verdicts["import:@testing-library/react@*"] is Verdict.BROKEN, verdicts
