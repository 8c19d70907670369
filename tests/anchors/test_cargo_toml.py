"""``Cargo.toml`` as a manifest (``anchors.cargo_toml``): dependency tables, target
dependencies, table entries and renames, workspace inheritance."""

from __future__ import annotations

import pytest

from anchors.cargo_toml import crate_name, parse_cargo_toml
from anchors.facts import Dependency
from anchors.manifests import parse_manifest

WORKSPACE = b"""[workspace]
members = ["crates/*", "xtask"]
resolver = "2"

[workspace.package]
rust-version = "1.70"
edition = "2021"

[workspace.dependencies]
serde = { version = "1.0.190", features = ["derive"] }
anyhow = "1"
tracing_core = { package = "tracing-core", version = "0.1.32" }
local-util = { path = "crates/util" }

[package]
name = "order_service"
version = "0.3.0"
edition.workspace = true
rust-version.workspace = true

[dependencies]
tokio = { version = "1", features = ["full"] }
serde.workspace = true
anyhow = { workspace = true, optional = true }
tracing_core = { workspace = true }
Serde_JSON = "1.0.108"
http-client = { package = "reqwest", version = "0.11", default-features = false }
util = { path = "../util" }
sea-orm = { git = "https://github.com/SeaQL/sea-orm", branch = "master" }
order-service = "0.1"

[dev-dependencies]
mockall = "0.12"
tokio = { version = "1", features = ["test-util"] }

[build-dependencies]
cc = "1.0.83"

[target.'cfg(windows)'.dependencies]
winapi = { version = "0.3.9", features = ["winuser"] }

[target.'cfg(unix)'.dev-dependencies]
nix = "0.27"

[target.x86_64-unknown-linux-gnu.build-dependencies]
pkg-config = "0.3"
"""


def test_every_dependency_table_gives_rows_with_real_crate_names():
    got = {(d.name, d.spec, d.runtime) for d in parse_cargo_toml(WORKSPACE, "Cargo.toml")}
    assert got == {
        ("tokio", "1", True),
        ("serde", "1.0.190", True),
        ("anyhow", "1", False),  # optional: a feature's dependency
        ("tracing-core", "0.1.32", True),
        ("serde-json", "1.0.108", True),
        ("reqwest", "0.11", True),
        ("util", "", True),
        ("sea-orm", "", True),
        ("mockall", "0.12", False),
        ("tokio", "1", False),
        ("cc", "1.0.83", False),
        ("winapi", "0.3.9", True),
        ("nix", "0.27", False),
        ("pkg-config", "0.3", False),
    }


def test_rows_are_cargo_rows_of_the_file():
    deps = parse_cargo_toml(WORKSPACE, "services/orders/Cargo.toml")
    assert {(d.ecosystem, d.source) for d in deps} == {("cargo", "services/orders/Cargo.toml")}


def test_the_package_s_own_name_is_not_a_dependency():
    names = {d.name for d in parse_cargo_toml(WORKSPACE, "Cargo.toml")}
    assert "order-service" not in names and "http-client" not in names


def test_workspace_inheritance_without_the_workspace_table_has_no_version():
    member = b'[package]\nname = "api"\n[dependencies]\nserde = { workspace = true }\n'
    assert parse_cargo_toml(member, "crates/api/Cargo.toml") == [
        Dependency("serde", "", "crates/api/Cargo.toml", True, "cargo")
    ]


@pytest.mark.parametrize(
    "data",
    [b"", b"[dependencies\nserde = '1'", b"[dependencies]\nserde = \n", b"\xff\xfe",
     b"dependencies = 3\n", b"[dependencies]\nserde = 1\nrand = ['0.8']\n",
     b"[target]\nfoo = 1\n", b"[workspace]\nmembers = 'crates/*'\n"],
)  # fmt: skip
def test_malformed_cargo_toml_declares_nothing_and_raises_nothing(data):
    assert parse_cargo_toml(data, "Cargo.toml") == []


@pytest.mark.parametrize(
    ("written", "name"),
    [("serde_json", "serde-json"), ("Inflector", "inflector"), ("tokio", "tokio")],
)
def test_crate_names_are_lower_case_with_dashes(written, name):
    assert crate_name(written) == name


def test_parse_manifest_dispatches_a_cargo_toml():
    deps = parse_manifest(WORKSPACE, "Cargo.toml")
    assert Dependency("tokio", "1", "Cargo.toml", True, "cargo") in deps
