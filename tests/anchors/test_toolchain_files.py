"""Toolchain versions as infrastructure values (issue #32): ``.nvmrc``, ``.node-version``,
``.tool-versions``, ``rust-toolchain(.toml)``, ``package.json`` engines, ``go.mod`` and
``Cargo.toml`` (``anchors.toolchain_files``); official node/golang/rust images; Rust setup
steps in CI; and how a stated version compares with each (``anchors.infra_compare``)."""

from __future__ import annotations

import pytest

from anchors.fingerprint import CodeSource
from anchors.infra_compare import (
    Match,
    compare_version,
    comparison_for,
    is_list_key,
    versions_cover,
)
from anchors.infra_facts import InfraKind, InfraValue, infra_kind, read_infra
from anchors.spec import parse_anchor
from anchors.toolchain_files import compared_text
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

S, D, U = Match.SAME, Match.DIFFERENT, Match.UNKNOWN


def values(data: str, path: str) -> list[tuple[str, str | None, int]]:
    read = read_infra(data.encode(), path)
    assert read is not None
    return [(v.key, v.text, v.line) for v in read]


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        (".nvmrc", InfraKind.NODE_VERSION_FILE),
        ("web/.node-version", InfraKind.NODE_VERSION_FILE),
        (".tool-versions", InfraKind.TOOL_VERSIONS),
        ("rust-toolchain", InfraKind.RUST_TOOLCHAIN),
        ("rust-toolchain.toml", InfraKind.RUST_TOOLCHAIN),
        ("package.json", InfraKind.PACKAGE_JSON),
        ("apps/web/package.json", InfraKind.PACKAGE_JSON),
        ("go.mod", InfraKind.GO_MOD),
        ("Cargo.toml", InfraKind.CARGO_TOML),
        ("node_modules/react/package.json", None),
        ("vendor/golang.org/x/sys/go.mod", None),
        (".nvmrc.bak", None),
        ("go.sum", None),
        ("Cargo.lock", None),
        ("package-lock.json", None),
    ],
)
def test_toolchain_files_are_known_by_their_names(path, kind):
    assert infra_kind(path) is kind


@pytest.mark.parametrize(
    ("path", "data", "expected"),
    [
        (".nvmrc", "v18.17.0\n", [("node-version", "v18.17.0", 1)]),
        (".nvmrc", "# the LTS we deploy\n\nlts/hydrogen\n", [("node-version", "lts/hydrogen", 3)]),
        (".node-version", "20\n", [("node-version", "20", 1)]),
        (".nvmrc", "\n\n", []),
        (".tool-versions",
         "# asdf\nnodejs 18.17.0 20.5.0\ngolang 1.21.3\nrust 1.75.0\npython 3.11.6 3.10.13\n"
         "terraform 1.6.0\nruby system\n",
         [("node-version", "18.17.0", 2), ("go-version", "1.21.3", 3),
          ("rust-version", "1.75.0", 4), ("python-version", "3.11.6", 5)]),
        (".tool-versions", "go 1.22.0 # pinned\nnode\n", [("go-version", "1.22.0", 1)]),
        ("rust-toolchain.toml",
         '# pinned for the MSRV job\n[toolchain]\nchannel = "1.75"\n'
         'components = ["rustfmt", "clippy"]\n',
         [("rust-version", "1.75", 3)]),
        ("rust-toolchain", "nightly-2024-01-15\n", [("rust-version", "nightly-2024-01-15", 1)]),
        ("rust-toolchain", '[toolchain]\nchannel = "stable"\n', [("rust-version", "stable", 2)]),
        ("rust-toolchain.toml", '[toolchain]\nprofile = "minimal"\n', []),
        ("package.json",
         '{\n  "name": "shop",\n  "scripts": {"node": "node server.js"},\n'
         '  "engines": {\n    "npm": ">=9",\n    "node": ">=18"\n  }\n}\n',
         [("name", "shop", 2), ("node-version", ">=18", 6), ("engines.npm", ">=9", 5),
          ("engines.node", ">=18", 6)]),
        ("package.json", '{"name": "shop", "dependencies": {"vue": "^3"}}', [("name", "shop", 1)]),
        # the go line and the rust-version twice: as a minimum, and as written
        ("go.mod", "module example.com/shop\n\ngo 1.21\n\ntoolchain go1.21.3\n",
         [("module", "example.com/shop", 1), ("go-version", "1.21", 3), ("go", "1.21", 3),
          ("go-toolchain", "go1.21.3", 5)]),
        ("go.mod", "module example.com/shop\n", [("module", "example.com/shop", 1)]),
        ("Cargo.toml",
         '[package]\nname = "shop"\nedition = "2021"\nrust-version = "1.70"\n\n'
         '[dependencies]\nserde = "1"\n',
         [("package.name", "shop", 2), ("edition", "2021", 3), ("rust-version", "1.70", 4),
          ("package.rust-version", "1.70", 4)]),
        ("Cargo.toml",
         '[workspace]\nmembers = ["a"]\n[workspace.package]\nrust-version = "1.74"\n',
         [("rust-version", "1.74", 4), ("package.rust-version", "1.74", 4)]),
    ],
)  # fmt: skip
def test_each_toolchain_file_states_its_version_with_its_line(path, data, expected):
    assert values(data, path) == expected


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("rust-toolchain.toml", "[toolchain\nchannel = 1.75\n"),
        ("rust-toolchain", '[toolchain]\nchannel = "1.75\n'),
        ("package.json", "{not json"),
        ("package.json", "[1, 2]"),
        ("package.json", "[" * 100_000),
        ("Cargo.toml", "[package\n"),
        (".nvmrc", "\udcff"),
    ],
)
def test_a_toolchain_file_that_is_not_valid_is_not_read(path, data):
    """Unreadable, not "states nothing": a check of it is unknown, never broken."""
    assert read_infra(data.encode("utf-8", "surrogateescape"), path) is None


DOCKERFILE = """\
FROM golang:1.21-alpine AS build
WORKDIR /src
RUN go build -o /app ./cmd/server

FROM node:18-alpine AS assets
RUN npm ci && npm run build

FROM rust:1.75-slim-bookworm AS wasm
FROM node:lts AS tools

FROM gcr.io/distroless/static
COPY --from=build /app /app
"""


def test_official_toolchain_images_give_their_versions_for_every_stage():
    got = [v for v in values(DOCKERFILE, "Dockerfile") if v[0].endswith("-version")]
    assert got == [("go-version", "1.21", 1), ("node-version", "18", 5),
                   ("rust-version", "1.75", 8), ("node-version", None, 9)]  # fmt: skip


def test_a_python_image_still_gives_the_python_version_of_the_built_image_only():
    got = values("FROM python:3.10 AS base\nFROM python:3.12-slim\n", "Dockerfile")
    assert [v for v in got if v[0] == "python-version"] == [("python-version", "3.12", 2)]
    assert [v for v in values("FROM nodejs:18\n", "Dockerfile") if v[0] == "node-version"] == []


WORKFLOW = """\
name: ci
on: [push]
jobs:
  msrv:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: dtolnay/rust-toolchain@1.70
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        rust: [stable, "1.75"]
    steps:
      - uses: dtolnay/rust-toolchain@master
        with:
          toolchain: ${{ matrix.rust }}
  legacy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions-rs/toolchain@v1
        with:
          toolchain: 1.72.0
          override: true
      - uses: dtolnay/rust-toolchain@v1
      - uses: actions/setup-go@v5
        with:
          go-version: '1.22'
"""


def test_rust_setup_steps_in_ci_give_the_rust_version():
    got = [v for v in values(WORKFLOW, ".github/workflows/ci.yml")
           if v[0] in ("rust-version", "go-version")]  # fmt: skip
    assert got == [("rust-version", "1.70", 8), ("rust-version", "stable", 13),
                   ("rust-version", "1.75", 13), ("rust-version", "1.72.0", 23),
                   ("go-version", "1.22", 28)]  # fmt: skip


# -- comparison -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stated", "actual", "match"),
    [
        ("18", ">=18", S),
        ("20", ">=18", S),
        ("14", ">=18", D),
        ("18", ">=18.17", U),
        ("18", "^18.17 || >=20", U),
        ("20", "^18.17 || >=20", S),
        ("16", "18.x || 20.x", D),
        ("18", "v18.17.0", S),
        ("18", "lts/hydrogen", U),
        ("1.21", "go1.21.3", S),
        ("go1.21.3", "go1.21.3", S),
        ("1.22", "go1.21.3", D),
        ("1.75", "1.75.0", S),
        ("1.75", "stable", U),
        ("1.70", "nightly-2024-01-15", U),
        ("1.21", "1.21", S),
    ],
)
def test_a_stated_version_compares_with_a_toolchain_value(stated, actual, match):
    assert compare_version(stated, actual) is match


def test_an_engines_range_is_covered_by_a_floor_and_refuted_by_an_older_version():
    assert versions_cover(">=18", [">=18"]) is S  # "Node 18 or later"
    assert versions_cover("14", [">=18"]) is D  # "Node 14"
    assert versions_cover("18", [">=18", "20"]) is S


@pytest.mark.parametrize(
    ("stated", "kind", "key", "written", "match"),
    [
        ("1.21", InfraKind.GO_MOD, "go-version", "1.21", S),
        ("1.22", InfraKind.GO_MOD, "go-version", "1.21", S),  # a minimum: 1.22 builds it
        ("1.19", InfraKind.GO_MOD, "go-version", "1.21", D),
        ("1.21.3", InfraKind.GO_MOD, "go-toolchain", "go1.21.3", S),
        ("1.22", InfraKind.GO_MOD, "go-toolchain", "go1.21.3", D),
        ("1.75", InfraKind.CARGO_TOML, "rust-version", "1.70", S),
        ("1.65", InfraKind.CARGO_TOML, "rust-version", "1.70", D),
        ("1.75", InfraKind.RUST_TOOLCHAIN, "rust-version", "1.70", D),  # a pin, not a floor
        ("1.22", InfraKind.GITHUB_WORKFLOW, "go-version", "1.21", D),
    ],
)
def test_a_declared_minimum_is_compared_as_a_floor(stated, kind, key, written, match):
    actual = compared_text(kind, InfraValue(key, written, 3))
    assert compare_version(stated, actual) is match
    assert compared_text(kind, InfraValue(key, None, 3)) is None


@pytest.mark.parametrize("key", ["node-version", "go-version", "go-toolchain", "rust-version"])
def test_toolchain_keys_compare_as_versions_and_list_several(key):
    assert comparison_for(key) is compare_version
    assert is_list_key(key)


# -- a real repository ------------------------------------------------------------------------
REPO = {
    ".nvmrc": "18.17.0\n",
    "web/package.json": '{\n  "name": "web",\n  "engines": {"node": ">=18"}\n}\n',
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "rust-toolchain.toml": '[toolchain]\nchannel = "1.75"\n',
    "node_modules/left-pad/package.json": '{"engines": {"node": ">=0.10"}}\n',
}


@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        ("config:.nvmrc::node-version=18", Verdict.HOLDS, ".nvmrc:1"),
        ("config:.nvmrc::node-version=20", Verdict.BROKEN, "not 20"),
        ("config:web/package.json::node-version=20", Verdict.HOLDS, "web/package.json:3"),
        ("config:web/package.json::node-version=14", Verdict.BROKEN, "not 14"),
        ("config:go.mod::go-version=1.21", Verdict.HOLDS, "go.mod:3"),
        ("config:go.mod::go-version=1.19", Verdict.BROKEN, "not 1.19"),
        ("config:rust-toolchain.toml::rust-version=1.75", Verdict.HOLDS,
         "rust-toolchain.toml:2"),
        ("config:rust-toolchain.toml::rust-version=1.70", Verdict.BROKEN, "not 1.70"),
    ],
)  # fmt: skip
def test_a_toolchain_config_anchor_is_judged_on_a_real_repository(
    git_repo: GitRepo, source: CodeSource, anchor: str, verdict: Verdict, detail: str
):
    git_repo.commit(REPO, "a polyglot shop")
    result = check_anchor(parse_anchor(anchor), None, source.fingerprint())
    assert (result.verdict, detail in result.detail) == (verdict, True), result.detail


def test_manifests_of_a_real_repository_give_rows_of_their_ecosystems(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit({
        "web/package.json": '{"dependencies": {"vue": "^3.2.0"}}',
        "go.mod": "module m\nrequire github.com/gin-gonic/gin v1.9.1\n",
        "Cargo.toml": '[dependencies]\nserde_json = "1"\n',
        "node_modules/vue/package.json": '{"dependencies": {"@vue/shared": "3.3.4"}}',
        "web/package-lock.json": '{"packages": {"node_modules/left-pad": {"version": "1"}}}',
    }, "manifests")  # fmt: skip
    fp = source.fingerprint()
    assert {(d.name, d.spec, d.ecosystem) for d in fp.dependencies} == {
        ("vue", "^3.2.0", "npm"),
        ("github.com/gin-gonic/gin", "v1.9.1", "go"),
        ("serde-json", "1", "cargo"),
    }
