"""Notes about a Rust crate and Go services whose words are also English (issues #31, #32),
through MCP ``remember`` + ``recall`` on real git repositories with real commits: each claim
phrased true and false, the true one served VERIFIED and the false one REFUTED where the
code says so, and a word that is only a word left unchecked (ACTIVE).

- a dependency named before its version ("needs log 0.4.20") or in a dependency phrase
  ("regex is a direct optional dependency"), with Cargo's ``optional = true`` checked;
- a Cargo.toml's default features (a set with "just", a subset without) and a key it does
  not state ("declares no MSRV");
- a Go library with an ordinary name ("goes through zap", "the chi router") in a Go
  repository, whose absence from go.mod and the imports refutes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call, receipts

pytestmark = pytest.mark.anyio

CARGO_TOML = """[package]
name = "env_thing"
version = "0.11.6"
edition = "2021"
rust-version = "1.71"

[features]
default = ["auto-color", "humantime", "regex"]
auto-color = ["color", "anstream/auto"]
color = ["dep:anstream"]
humantime = ["dep:humantime"]
regex = ["env_filter/regex"]

[dependencies]
log = { version = "0.4.21", features = ["std"] }
env_filter = { version = "0.1.0", default-features = false }

[dependencies.humantime]
version = "2.0.0"
optional = true

[dependencies.anstream]
version = "0.6.7"
optional = true
"""
LIB_RS = """use log::{Log, Record};

pub mod fmt;

pub struct Logger {
    filter: env_filter::Filter,
}

impl Logger {
    pub fn matches(&self, record: &Record) -> bool {
        self.filter.matches(record)
    }
}
"""
FMT_RS = "#[cfg(feature = \"humantime\")]\nuse humantime::format_rfc3339;\n"

ZAP_GO_MOD = """module example.com/svc

go 1.22

require (
\tgithub.com/quic-go/quic-go v0.48.0
\tgo.uber.org/zap v1.27.0
)
"""
ZAP_MAIN_GO = """package main

import (
\t"net/http"

\t"github.com/quic-go/quic-go/http3"
\t"go.uber.org/zap"
)

func main() {
\tlogger, _ := zap.NewProduction()
\tdefer logger.Sync()
\thttp3.ListenAndServeQUIC(":443", "cert.pem", "key.pem", http.DefaultServeMux)
}
"""
MUX_GO_MOD = "module github.com/example/mux\n\ngo 1.20\n"
MUX_GO = """package mux

import (
\t"net/http"
\t"regexp"
)

type Router struct {
\troutes []*regexp.Regexp
}

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}
"""


async def serve_all(root: Path, texts: list[str]) -> dict[str, dict[str, Any]]:
    """Each note remembered on one server of the repository at ``root``, then served as
    ``recall`` serves it (refuted ones included)."""
    from server.app import build_server
    from server.config import Settings

    settings = Settings.resolve(repo=str(root),
                                env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000"))  # fmt: skip
    served: dict[str, dict[str, Any]] = {}
    async with Client(build_server(settings)) as client:
        for text in texts:
            made = await call(client, "remember", text=text)
            found = await call(client, "recall", query=text, include_refuted=True, detail=True)
            [memory] = [m for m in found["memories"] if m["id"] == made["id"]]
            served[text] = memory
    return served


def _check(served: dict[str, dict[str, Any]], cases: list[tuple[str, str, str]]) -> None:
    wrong = [(text, status, served[text]["status"], receipts(served[text]))
             for text, status, _ in cases if served[text]["status"] != status]  # fmt: skip
    assert not wrong, wrong
    for text, _, receipt in cases:
        assert receipt in receipts(served[text]), (text, receipts(served[text]))


RUST_CASES = [
    # a version right after a dependency that is also a word, in Cargo's dialect
    ("env_thing needs log 0.4.21.", "VERIFIED", "log 0.4.21 is satisfied by log 0.4.21"),
    ("env_thing needs log 0.4.20.", "REFUTED", "which excludes log==0.4.20"),
    ("env_thing needs log 0.4.", "VERIFIED", "log==0.4.* is satisfied"),
    ("env_thing needs log 0.3.", "REFUTED", "which excludes log==0.3.*"),
    # "X is a (direct | optional) dependency", "depends on X"
    ("regex is a direct optional dependency of env_thing.", "REFUTED",
     "regex is not a declared dependency"),
    ("humantime is a direct optional dependency of env_thing.", "VERIFIED",
     "dependencies.humantime.optional: true"),
    ("log is an optional dependency of env_thing.", "REFUTED",
     "Cargo.toml states no dependencies.log.optional"),
    ("env_thing depends on log.", "VERIFIED", "log is declared in Cargo.toml"),
    ("env_thing no longer depends on regex.", "VERIFIED", "regex is not a declared dependency"),
    ("env_thing no longer depends on log.", "REFUTED", "log is declared in Cargo.toml"),
    # default features: "just" is the set, without it each one named
    ("The default features are just color and humantime.", "REFUTED",
     "features.default: auto-color,humantime,regex, not color,humantime"),
    ("The default features are just auto-color, humantime and regex.", "VERIFIED",
     "features.default: auto-color,humantime,regex"),
    ("The default features include humantime.", "VERIFIED", "features.default.humantime: true"),
    ("color is a default feature.", "REFUTED", "states no features.default.color"),
    ("regex is not a default feature.", "REFUTED", "features.default.regex: true"),
    ("The crate has no default features.", "REFUTED", "features.default: auto-color"),
    # a key the manifest states, or not
    ("The crate declares no MSRV (no rust-version in Cargo.toml).", "REFUTED",
     "package.rust-version: 1.71"),
    ("The crate declares an MSRV.", "VERIFIED", "package.rust-version: 1.71"),
    # a feature that gates something: declared, and enabling what the note says
    ("Filter regexes are behind the regex feature (env_filter/regex).", "VERIFIED",
     "features.regex: env_filter/regex"),
    ("Colored output is behind the color feature (anstream/auto).", "REFUTED",
     "not anstream/auto"),
    ("The color feature enables anstream.", "VERIFIED", "features.color: anstream"),
    ("Key-value output needs the kv feature.", "REFUTED", "states no features.kv"),
]


async def test_claims_about_a_crates_manifest(git_repo: GitRepo) -> None:
    git_repo.commit({"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB_RS, "src/fmt.rs": FMT_RS},
                    "a crate")  # fmt: skip
    served = await serve_all(git_repo.root, [text for text, _, _ in RUST_CASES])
    _check(served, RUST_CASES)


async def test_a_crate_without_an_msrv_or_default_features(git_repo: GitRepo) -> None:
    manifest = CARGO_TOML.replace('rust-version = "1.71"\n', "").replace(
        'default = ["auto-color", "humantime", "regex"]\n', "")  # fmt: skip
    git_repo.commit({"Cargo.toml": manifest, "src/lib.rs": LIB_RS}, "a crate")
    cases = [
        ("The crate declares no MSRV (no rust-version in Cargo.toml).", "VERIFIED",
         "states no package.rust-version"),
        ("The crate has no default features.", "VERIFIED", "states no features.default"),
        ("The crate declares an MSRV.", "REFUTED", "states no package.rust-version"),
    ]
    served = await serve_all(git_repo.root, [text for text, _, _ in cases])
    _check(served, cases)


async def test_a_later_manifest_refutes_the_version_a_note_quoted(git_repo: GitRepo) -> None:
    """The requirement quoted as Cargo writes it holds while the manifest says it, and a
    bumped requirement is another one: the old note is then refuted, not still VERIFIED."""
    git_repo.commit({"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB_RS}, "a crate")
    [before] = (await serve_all(git_repo.root, ["env_thing needs log 0.4.21."])).values()
    assert before["status"] == "VERIFIED", before
    git_repo.commit({"Cargo.toml": CARGO_TOML.replace('"0.4.21"', '"0.4.30"')}, "bump log")
    [after] = (await serve_all(git_repo.root, ["env_thing needs log 0.4.21."])).values()
    assert after["status"] == "REFUTED", after


GO_CASES_WITHOUT = [
    ("Request logging in the router goes through zap.", "REFUTED",
     "go.mod does not require go.uber.org/zap"),
    ("The router serves HTTP/3 through quic-go.", "REFUTED",
     "does not require github.com/quic-go/quic-go"),
    ("Routing uses the chi router.", "REFUTED", "does not require github.com/go-chi/chi"),
    ("zap is a direct dependency of the router.", "REFUTED",
     "go.mod does not require go.uber.org/zap"),
    # a word only: no tool cue beside it
    ("Middleware can zap the cached routes when asked.", "ACTIVE", ""),
]
GO_CASES_WITH = [
    ("Request logging in the service goes through zap.", "VERIFIED", "imports go.uber.org/zap"),
    ("The service logs with the zap logger.", "VERIFIED", "declares go.uber.org/zap"),
    ("The server serves HTTP/3 through quic-go.", "VERIFIED", "github.com/quic-go/quic-go"),
    ("zap is a direct dependency of the service.", "VERIFIED",
     "go.uber.org/zap is declared in go.mod"),
    ("Routing goes through chi.", "REFUTED", "does not require github.com/go-chi/chi"),
]


async def test_go_libraries_with_ordinary_names(tmp_path: Path) -> None:
    without = GitRepo(tmp_path / "mux")
    without.commit({"go.mod": MUX_GO_MOD, "mux.go": MUX_GO}, "a router")
    served = await serve_all(without.root, [text for text, _, _ in GO_CASES_WITHOUT])
    _check(served, GO_CASES_WITHOUT)
    with_zap = GitRepo(tmp_path / "svc")
    with_zap.commit({"go.mod": ZAP_GO_MOD, "main.go": ZAP_MAIN_GO}, "a service")
    served = await serve_all(with_zap.root, [text for text, _, _ in GO_CASES_WITH])
    _check(served, GO_CASES_WITH)


async def test_a_go_librarys_name_in_a_python_repository_is_only_a_word(
    git_repo: GitRepo,
) -> None:
    """No go.mod: whether the project would require the module is not known, and "zap"
    is not read as the library."""
    git_repo.commit({"pyproject.toml": '[project]\nname = "shop"\ndependencies = []\n',
                     "shop/__init__.py": "import logging\n"}, "a Python project")  # fmt: skip
    served = await serve_all(git_repo.root, ["Request logging goes through zap."])
    assert served["Request logging goes through zap."]["status"] == "ACTIVE", served


TARGET_RS = """#[derive(Default)]
pub enum Target {
    Stdout,
    #[default]
    Stderr,
}

pub struct Builder {
    format_indent: Option<usize>,
    format_target: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            format_indent: Some(4),
            format_target: true,
        }
    }
}
"""
DEFAULT_CASES = [
    ("Logs go to stdout by default (Target::Stdout is the #[default]).", "REFUTED",
     "sets Target.default = Stderr, not Stdout"),
    ("Logs go to stderr by default (Target::Stderr is the #[default]).", "VERIFIED",
     "`Target.default = Stderr` at src/target.rs:5"),
    ("Continuation lines are indented 2 spaces by default (format_indent: Some(2)).", "REFUTED",
     "sets Builder.default.format_indent = Some(4), not Some(2)"),
    ("Continuation lines are indented 4 spaces by default (format_indent: Some(4)).", "VERIFIED",
     "`Builder.default.format_indent = Some(4)`"),
    # a negation is not what a value checks: left unchecked, never decided by the default
    ("Target::Stdout is not the default.", "ACTIVE", ""),
]


async def test_rust_defaults_a_note_states(git_repo: GitRepo) -> None:
    git_repo.commit({"Cargo.toml": CARGO_TOML, "src/lib.rs": LIB_RS, "src/target.rs": TARGET_RS},
                    "a crate with defaults")  # fmt: skip
    served = await serve_all(git_repo.root, [text for text, _, _ in DEFAULT_CASES])
    _check(served, DEFAULT_CASES)


PATHS_LIB_RS = """pub mod fmt;
mod logger;

pub use self::logger::*;
"""
PATHS_LOGGER_RS = """pub struct Builder {
    filter: env_filter::Builder,
}

pub struct Logger {}
"""
PATHS_FMT_RS = """use std::io::Write;

pub use self::stamp::Timestamp;

mod stamp;

pub struct Formatter {}

impl Formatter {
    pub fn print(&self) {
        let stream = anstream::AutoStream::new(std::io::stdout(), anstream::ColorChoice::Auto);
        let _ = stream;
    }
}
"""
PATHS_STAMP_RS = """pub struct Timestamp {}

impl Timestamp {
    /// RFC 3339, as humantime writes it.
    pub fn rfc3339(&self) -> String {
        humantime::format_rfc3339(std::time::SystemTime::now()).to_string()
    }
}
"""
PATH_CASES = [
    # another crate's item where a file writes it; unchecked where none does
    ("The builder wraps an env_filter::Builder.", "VERIFIED",
     "imported by src/logger.rs"),
    ("src/fmt.rs calls anstream::AutoStream::new.", "VERIFIED",
     "imported by src/fmt.rs"),
    ("src/fmt.rs calls anstream::AutoPipe::new.", "ACTIVE", ""),
    ("It never uses anstream::AutoStream.", "REFUTED", "imported by src/fmt.rs"),
    # the crate's own modules and items, defined or re-exported
    ("Formatting lives in the env_thing::fmt module.", "VERIFIED", "src/fmt.rs is tracked"),
    ("env_thing::fmt::Formatter prints records.", "ACTIVE", "src/fmt.rs defines Formatter"),
    ("Timestamps are env_thing::fmt::Timestamp values.", "VERIFIED",
     "src/fmt/stamp.rs defines Timestamp"),
    ("The logger is env_thing::Logger.", "VERIFIED", "src/logger.rs defines Logger"),
    ("Styles are env_thing::fmt::Palette values.", "ACTIVE", ""),
    # a standard's number is its name, not a value left unchecked
    ("src/fmt/stamp.rs formats timestamps with humantime's RFC 3339 functions.", "VERIFIED",
     "src/fmt/stamp.rs is tracked"),
]


async def test_rust_paths_of_other_crates_and_of_the_crates_own(git_repo: GitRepo) -> None:
    git_repo.commit({
        "Cargo.toml": CARGO_TOML, "src/lib.rs": PATHS_LIB_RS, "src/logger.rs": PATHS_LOGGER_RS,
        "src/fmt.rs": PATHS_FMT_RS, "src/fmt/stamp.rs": PATHS_STAMP_RS,
    }, "a crate with modules")  # fmt: skip
    served = await serve_all(git_repo.root, [text for text, _, _ in PATH_CASES])
    _check(served, PATH_CASES)
    unchecked = served["src/fmt.rs calls anstream::AutoPipe::new."]
    assert "anstream::AutoPipe" in str(unchecked), unchecked


DOCS_RS = '\n[package.metadata.docs.rs]\nall-features = true\nrustdoc-args = ["--cfg", "docsrs"]\n'
BUILD_CASES = [
    # no build.rs and no package.build: Cargo runs no build script
    ("The crate has no build script.", "VERIFIED", "build.rs is not in the repository"),
    ("The crate has a build script.", "REFUTED", "build.rs is not in the repository"),
    # what docs.rs builds the documentation with
    ("docs.rs builds the documentation with all features.", "VERIFIED",
     "package.metadata.docs.rs.all-features: true"),
]


async def test_the_build_script_and_what_docs_rs_builds_with(git_repo: GitRepo) -> None:
    git_repo.commit({"Cargo.toml": CARGO_TOML + DOCS_RS, "src/lib.rs": LIB_RS}, "a crate")
    served = await serve_all(git_repo.root, [text for text, _, _ in BUILD_CASES])
    _check(served, BUILD_CASES)


async def test_a_build_script_cargo_is_told_not_to_run(git_repo: GitRepo) -> None:
    """``build = false`` turns off the ``build.rs`` beside the manifest; without it, that
    file is the build script; docs.rs with Cargo's defaults is not "all features"."""
    manifest = CARGO_TOML.replace('edition = "2021"\n', 'edition = "2021"\nbuild = false\n')
    git_repo.commit({"Cargo.toml": manifest, "src/lib.rs": LIB_RS, "build.rs": "fn main() {}\n"},
                    "a crate whose build.rs Cargo skips")  # fmt: skip
    cases = [
        ("The crate has no build script (build = false).", "VERIFIED",
         "Cargo.toml:5 says package.build: false"),
        ("The crate has a build script.", "REFUTED", "says package.build: false"),
        ("docs.rs builds the documentation with all features.", "REFUTED",
         "states no package.metadata.docs.rs.all-features"),
    ]
    served = await serve_all(git_repo.root, [text for text, _, _ in cases])
    _check(served, cases)
    git_repo.commit({"Cargo.toml": CARGO_TOML}, "Cargo runs build.rs again")
    served = await serve_all(git_repo.root, ["The crate has a build script."])
    # the note keeps the anchors it was read with: the key Cargo was told, now gone
    _check(served, [("The crate has a build script.", "VERIFIED",
                     "Cargo.toml states no package.build")])  # fmt: skip
