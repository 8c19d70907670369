"""A Rust type's members and a crate's run-time dependencies (issue #32), through MCP
``remember`` + ``recall`` on a real git repository: ``Type::member`` in a note that states
no place is the member wherever the crate defines it, an associated constant's value is
compared ("`EnvFilter::DEFAULT_ENV` is RUST_LOG"), a type's bare name is the crate's own
where another crate's type of that name is only written as a path
(``env_filter::Builder``), a ``pub use`` alias is an item of its module, and a crate a
test imports and a URL in the sources names is no run-time dependency when the manifest
declares it for development only."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CARGO_TOML = """[package]
name = "trace_kit"
version = "0.3.16"
edition = "2018"

[dependencies]
tracing-core = "0.1.30"

[dev-dependencies]
tokio = { version = "1", features = ["rt", "macros"] }
"""
LIB_RS = """#![doc(html_logo_url = "https://raw.githubusercontent.com/tokio-rs/tracing/master/logo.png")]

pub mod filter;

pub struct SubscriberBuilder {
    ansi: bool,
}

impl SubscriberBuilder {
    pub fn with_ansi(self, ansi: bool) -> Self {
        SubscriberBuilder { ansi }
    }
}

pub struct Builder {
    filter: env_filter::Builder,
}

impl Builder {
    pub fn parse_env(&mut self) {}
}

pub use tracing_core as core_api;
"""
FILTER_RS = """pub struct EnvFilter;

impl EnvFilter {
    pub const DEFAULT_ENV: &'static str = "RUST_LOG";
}
"""
TEST_RS = """#[tokio::test]
async fn builds() {}
"""

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    ("SubscriberBuilder::with_ansi turns colours on and off.", "ACTIVE",
     "src/lib.rs defines SubscriberBuilder.with_ansi (line 10)"),
    ("SubscriberBuilder::with_colors turns colours on and off.", "REFUTED",
     "SubscriberBuilder is defined in src/lib.rs (line 5) but has no with_colors"),
    ("EnvFilter::DEFAULT_ENV is RUST_LOG.", "VERIFIED",
     '`EnvFilter.DEFAULT_ENV = "RUST_LOG"` at src/filter.rs:4'),
    ("EnvFilter::DEFAULT_ENV is TRACING_LOG.", "REFUTED",
     'src/filter.rs:4 sets EnvFilter.DEFAULT_ENV = "RUST_LOG", not TRACING_LOG'),
    # ``env_filter::Builder`` written in place: the bare name is still the crate's own type
    ("Builder::parse_default_filters reads RUST_LOG into the builder.", "REFUTED",
     "Builder is defined in src/lib.rs (line 15) but has no parse_default_filters"),
    ("Builder::parse_env is the method that parses the filters.", "ACTIVE",
     "src/lib.rs defines Builder.parse_env"),
    # ``pub use tracing_core as core_api``: an item of the crate's root
    ("src/lib.rs re-exports tracing-core as trace_kit::core_api.", "VERIFIED",
     "src/lib.rs defines core_api (line 23)"),
]  # fmt: skip


@pytest.fixture
def crate(git_repo: GitRepo) -> GitRepo:
    files = {"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB_RS, "src/filter.rs": FILTER_RS,
             "tests/it.rs": TEST_RS}  # fmt: skip
    git_repo.commit(files, "a tracing crate")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_a_types_member_named_with_its_path_is_checked_wherever_it_is_defined(
    crate: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(crate.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


async def test_a_dev_dependency_a_test_imports_is_refuted_as_a_runtime_dependency(
    crate: GitRepo,
) -> None:
    """tokio: declared in ``[dev-dependencies]``, imported by ``tests/it.rs``, named in a
    URL of ``src/lib.rs`` (an organisation's page, not a use): no code that runs imports
    it, which refutes "a runtime dependency"."""
    served = await remember_and_serve(crate.root, "tokio is a runtime dependency of the crate.")
    assert served["status"] == "REFUTED", served
    assert "no code that runs imports tokio" in receipts(served), served
    assert "src/lib.rs" not in receipts(served), served


async def test_a_runtime_dependency_is_never_verified_as_a_dev_dependency(crate: GitRepo) -> None:
    """tracing-core is in ``[dependencies]``: "a dev-dependency" is left unchecked; tokio,
    in ``[dev-dependencies]``, is one."""
    served = await remember_and_serve(crate.root, "tracing-core is a dev-dependency.")
    assert served["status"] == "ACTIVE", served
    assert "that tracing-core is a development dependency" in served["verification"], served
    dev = await remember_and_serve(crate.root, "tokio is a dev-dependency.")
    assert dev["status"] == "VERIFIED", dev
