"""``package.json`` as a manifest (``anchors.package_json``): dependency rows by table,
scoped names, ranges kept as written, engines; and lock files of
every ecosystem are never manifests."""

from __future__ import annotations

import pytest

from anchors.facts import Dependency
from anchors.manifests import manifest_kind, parse_manifest
from anchors.package_json import engines, package_name, parse_package_json, read_package_json

# A Vue CLI plugin monorepo root, as written in the wild.
MONOREPO = b"""{
  "name": "@acme/Storefront",
  "version": "2.4.0",
  "private": true,
  "workspaces": ["packages/*", "apps/web"],
  "engines": { "node": ">=18", "pnpm": ">=8.6" },
  "scripts": {
    "build": "vue-cli-service build",
    "test:unit": "vitest run --coverage",
    "lint": "eslint . --ext .ts,.vue"
  },
  "dependencies": {
    "vue": "^3.2.0",
    "@vue/cli-service": "~5.0.8",
    "Axios": "1.6.2",
    "@acme/shared": "workspace:*",
    "lodash-es": "git+https://github.com/lodash/lodash.git#es",
    "@acme/storefront": "1.0.0",
    "broken": 3
  },
  "devDependencies": {
    "vitest": "^1.0.4",
    "typescript": "~5.3.3",
    "vue": "^3.2.0"
  },
  "peerDependencies": { "pinia": ">=2.1 <3" },
  "optionalDependencies": { "fsevents": "2.x" },
  "bundledDependencies": ["left-pad"]
}
"""


def test_each_dependency_table_gives_rows_with_the_range_as_written():
    deps = parse_package_json(MONOREPO, "package.json")
    got = {(d.name, d.spec, d.runtime) for d in deps}
    assert got == {
        ("vue", "^3.2.0", True),
        ("@vue/cli-service", "~5.0.8", True),
        ("axios", "1.6.2", True),
        ("@acme/shared", "workspace:*", True),
        ("lodash-es", "git+https://github.com/lodash/lodash.git#es", True),
        ("vitest", "^1.0.4", False),
        ("typescript", "~5.3.3", False),
        ("vue", "^3.2.0", False),
        ("pinia", ">=2.1 <3", True),
        ("fsevents", "2.x", True),
    }
    assert {d.ecosystem for d in deps} == {"npm"}
    assert {d.source for d in deps} == {"package.json"}


def test_the_package_s_own_name_is_not_a_dependency():
    names = [d.name for d in parse_package_json(MONOREPO, "package.json")]
    assert "@acme/storefront" not in names
    assert package_name(MONOREPO) == "@acme/storefront"


def test_engines_are_read_as_written():
    assert engines(read_package_json(MONOREPO)) == {"node": ">=18", "pnpm": ">=8.6"}
    assert engines(MONOREPO) == {"node": ">=18", "pnpm": ">=8.6"}


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"{",
        b'{"dependencies": {"vue": "^3"},}',  # a trailing comma: not JSON
        b"[1, 2]",
        b'"just a string"',
        b"\xff\xfe{}",
        b'{"dependencies": ["vue"], "devDependencies": null, "engines": "node 18"}',
        b"[" * 100_000,
    ],
)
def test_malformed_package_json_declares_nothing_and_raises_nothing(data):
    assert parse_package_json(data, "package.json") == []
    assert engines(data) == {}


def test_a_byte_order_mark_is_not_an_error():
    data = b'\xef\xbb\xbf{"dependencies": {"express": "^4.18.2"}}'
    assert parse_package_json(data, "api/package.json") == [
        Dependency("express", "^4.18.2", "api/package.json", True, "npm")
    ]


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("package.json", "package_json"),
        ("packages/ui/package.json", "package_json"),
        ("go.mod", "go_mod"),
        ("tools/go.mod", "go_mod"),
        ("Cargo.toml", "cargo_toml"),
        ("crates/core/Cargo.toml", "cargo_toml"),
        ("node_modules/vue/package.json", None),
        ("web/node_modules/@vue/shared/package.json", None),
        ("vendor/github.com/gin-gonic/gin/go.mod", None),
        ("vendor/serde/Cargo.toml", None),
        ("cargo.toml", None),
        ("package.json5", None),
        ("tsconfig.json", None),
    ],
)
def test_manifests_of_other_ecosystems_are_known_by_exact_name(path, kind):
    assert manifest_kind(path) == kind


@pytest.mark.parametrize(
    "path",
    ["package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb",
     "go.sum", "Cargo.lock", "poetry.lock", "uv.lock", "Pipfile.lock", "web/yarn.lock",
     "crates/core/Cargo.lock"],
)  # fmt: skip
def test_lock_files_are_never_manifests(path):
    """A lock file lists transitive packages: an entry in it must never verify "we use X"."""
    assert manifest_kind(path) is None
    lock = b'{"name": "app", "packages": {"node_modules/left-pad": {"version": "1.3.0"}}}'
    assert parse_manifest(lock, path) == []


def test_parse_manifest_dispatches_a_package_json():
    deps = parse_manifest(MONOREPO, "web/package.json")
    assert Dependency("vue", "^3.2.0", "web/package.json", True, "npm") in deps
