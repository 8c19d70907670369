"""Claims about a Cargo.toml or a go.mod whose words are also English, on real git
repositories: a dependency named before its version or in a dependency phrase
(``anchors.dependency_words``), the default features and keys a manifest states or not
(``anchors.manifest_binding``, ``anchors.cargo_toml.cargo_values``), a Go library with an
ordinary name (``anchors.ecosystem_words``) and its absence (``anchors.technology``), and a
requirement quoted as the manifest writes it (``anchors.semver``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from anchors.cargo_toml import cargo_values, read_cargo_toml
from anchors.dependency_words import dependency_word
from anchors.ecosystem_words import ecosystem_library
from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.intervals import Relation
from anchors.manifest_binding import bind_manifest
from anchors.semver import relation
from anchors.subject import sentence_spans
from anchors.technology import find_technology
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from benchmarks.prose import fingerprint_of
from tests.conftest import GitRepo

CARGO = """[package]
name = "env_thing"
version = "0.1.0"
rust-version = "1.71"

[features]
default = ["auto-color", "humantime"]
auto-color = []
humantime = ["dep:humantime"]

[dependencies]
log = { version = "0.4.21", features = ["std"] }
humantime = { version = "2.0.0", optional = true }

[dev-dependencies]
regex = "1"
"""
LIB_RS = "use log::info;\n\npub fn start() {\n    info!(\"start\");\n}\n"
GO_MOD = "module example.com/svc\n\ngo 1.22\n\nrequire go.uber.org/zap v1.27.0\n"
MAIN_GO = 'package main\n\nimport "go.uber.org/zap"\n\nfunc main() { zap.NewNop() }\n'
MUX_GO = 'package mux\n\nimport "net/http"\n\ntype Router struct{ h http.Handler }\n'


@pytest.fixture
def crate(tmp_path: Path) -> Fingerprint:
    repo = GitRepo(tmp_path / "crate")
    repo.commit({"Cargo.toml": CARGO, "src/lib.rs": LIB_RS}, "a crate")
    return fingerprint_of(repo.root)


@pytest.fixture
def service(tmp_path: Path) -> Fingerprint:
    repo = GitRepo(tmp_path / "svc")
    repo.commit({"go.mod": GO_MOD, "main.go": MAIN_GO}, "a service")
    return fingerprint_of(repo.root)


@pytest.fixture
def router(tmp_path: Path) -> Fingerprint:
    repo = GitRepo(tmp_path / "mux")
    repo.commit({"go.mod": "module example.com/mux\n\ngo 1.20\n", "mux.go": MUX_GO}, "mux")
    return fingerprint_of(repo.root)


def rendered(text: str, fp: Fingerprint) -> list[str]:
    return [a.render() for a in infer_anchors(text, fp).anchors]


def verdicts(text: str, fp: Fingerprint) -> dict[str, Verdict]:
    return {a.render(): check_anchor(a, None, fp).verdict for a in infer_anchors(text, fp).anchors}


# ---------------------------------------------------------------- the manifest's values


def test_a_cargo_toml_states_its_default_features_and_optional_crates() -> None:
    text = CARGO + '\n[dependencies.anstream]\nversion = "0.6"\noptional = true\n'
    values = {v.key: (v.text, v.line) for v in cargo_values(read_cargo_toml(text.encode()), text)}
    assert values["features.default"] == ("auto-color,humantime", 7)
    assert values["features.default.humantime"] == ("true", 7)
    assert values["dependencies.humantime.optional"] == ("true", 13)
    assert values["dependencies.anstream.optional"] == ("true", 17)
    assert "dependencies.log.optional" not in values and "dependencies.regex.optional" not in values


def test_no_default_features_state_no_value() -> None:
    text = '[package]\nname = "x"\n\n[features]\ndefault = []\n'
    assert list(cargo_values(read_cargo_toml(text.encode()), text)) == []


# ---------------------------------------------------------------- a dependency that is a word


def test_a_word_before_a_version_is_the_declared_dependency(crate: Fingerprint) -> None:
    assert verdicts("env_thing needs log 0.4.20.", crate) == {"dep:log==0.4.20": Verdict.BROKEN}
    assert verdicts("env_thing needs log 0.4.21.", crate) == {"dep:log0.4.21": Verdict.HOLDS}
    assert verdicts("env_thing needs log 0.4.", crate) == {"dep:log==0.4.*": Verdict.HOLDS}


@pytest.mark.parametrize("text", [
    "The logger writes log 2 times per request.",  # a count, not a version
    "We keep the log for 30 days.",
    "env_thing needs time 0.3.",  # an ordinary word no manifest declares
])  # fmt: skip
def test_a_word_before_a_number_is_no_dependency_unless_declared_and_versioned(
    text: str, crate: Fingerprint
) -> None:
    assert not any(a.startswith("dep:") for a in rendered(text, crate)), rendered(text, crate)


def test_a_dependency_phrase_names_the_word_as_a_package(crate: Fingerprint) -> None:
    # a dev-dependency: declared, but not an optional one
    assert verdicts("regex is a direct optional dependency of env_thing.", crate) == {
        "dep:regex": Verdict.HOLDS,
        "config:Cargo.toml::dependencies.regex.optional": Verdict.BROKEN,
    }
    assert verdicts("env_thing depends on log.", crate) == {"dep:log": Verdict.HOLDS}
    assert verdicts("env_thing no longer depends on log.", crate) == {"!dep:log": Verdict.BROKEN}
    assert verdicts("time is a dependency of env_thing.", crate) == {}  # no package of the word


def test_optional_is_checked_by_cargos_flag(crate: Fingerprint) -> None:
    assert verdicts("humantime is an optional dependency of env_thing.", crate) == {
        "dep:humantime": Verdict.HOLDS,
        "config:Cargo.toml::dependencies.humantime.optional": Verdict.HOLDS,
    }
    assert verdicts("log is an optional dependency of env_thing.", crate) == {
        "dep:log": Verdict.HOLDS,
        "config:Cargo.toml::dependencies.log.optional": Verdict.BROKEN,
    }


def test_a_reading_needs_the_word_at_the_phrase(crate: Fingerprint) -> None:
    text = "env_thing depends on log output being flushed."
    at = text.index("log")
    assert dependency_word(text, at, at + 3, False, crate) is None  # "log" qualifies a noun
    text = "log is not a dependency of env_thing."
    # the clause reader says present where the phrase negates: no reading
    assert dependency_word(text, 0, 3, False, crate) is None
    found = dependency_word(text, 0, 3, True, crate)
    assert found is not None and [a.render() for a in found.anchors] == ["!dep:log"]


# ---------------------------------------------------------------- what the manifest states


@pytest.mark.parametrize(("text", "anchors", "verdict"), [
    ("The default features are just color and humantime.",
     ["config:Cargo.toml::features.default=color,humantime"], Verdict.BROKEN),
    ("The default features are only humantime and auto-color.",
     ["config:Cargo.toml::features.default=auto-color,humantime"], Verdict.HOLDS),
    ("The default features include humantime.",
     ["config:Cargo.toml::features.default.humantime"], Verdict.HOLDS),
    ("color is a default feature.", ["config:Cargo.toml::features.default.color"],
     Verdict.BROKEN),
    ("humantime is not a default feature.", ["!config:Cargo.toml::features.default.humantime"],
     Verdict.BROKEN),
    ("The crate has no default features.", ["!config:Cargo.toml::features.default"],
     Verdict.BROKEN),
    ("The crate declares no MSRV (no rust-version in Cargo.toml).",
     ["!config:Cargo.toml::package.rust-version"], Verdict.BROKEN),
    ("The crate doesn't declare a rust-version.", ["!config:Cargo.toml::package.rust-version"],
     Verdict.BROKEN),
    ("The crate declares an MSRV.", ["config:Cargo.toml::package.rust-version"], Verdict.HOLDS),
])  # fmt: skip
def test_what_a_cargo_toml_states(text: str, anchors: list[str], verdict: Verdict,
                                  crate: Fingerprint) -> None:  # fmt: skip
    found = verdicts(text, crate)
    assert list(found) == anchors and set(found.values()) == {verdict}, found


@pytest.mark.parametrize("text", [
    "We should drop the default features.",
    "Are the default features just color and humantime?",
    "If the crate declares no MSRV, cargo builds with any toolchain.",
])  # fmt: skip
def test_a_plan_a_question_or_a_condition_binds_nothing(text: str, crate: Fingerprint) -> None:
    assert bind_manifest(text, crate, list(sentence_spans(text))) == []


def test_a_go_mod_without_a_toolchain_line(router: Fingerprint) -> None:
    assert verdicts("go.mod has no toolchain line.", router) == {
        "!config:go.mod::go-toolchain": Verdict.HOLDS}


# ---------------------------------------------------------------- Go libraries named by words


@pytest.mark.parametrize(("text", "word", "named"), [
    ("Request logging goes through zap.", "zap", True),
    ("The service logs with the zap logger.", "zap", True),
    ("Routing uses the chi router.", "chi", True),
    ("Middleware can zap the cache.", "zap", False),
    ("A zap of static ends the stream.", "zap", False),
])  # fmt: skip
def test_an_ordinary_word_is_a_go_library_only_as_a_tool(
    text: str, word: str, named: bool, router: Fingerprint
) -> None:
    at = text.index(word)
    assert (ecosystem_library(text, at, at + len(word), router) is not None) is named


def test_without_a_go_mod_the_word_stays_a_word(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "py")
    repo.commit({"pyproject.toml": '[project]\nname = "shop"\n', "shop.py": "x = 1\n"}, "py")
    fp = fingerprint_of(repo.root)
    text = "Request logging goes through zap."
    assert ecosystem_library(text, text.index("zap"), text.index("zap") + 3, fp) is None
    finding = find_technology("zap", None, fp)
    assert not finding.found_in and finding.weak  # absence proves nothing without a go.mod


def test_a_go_library_absent_from_go_mod_and_the_imports_is_not_used(
    router: Fingerprint, service: Fingerprint
) -> None:
    absent = find_technology("zap", None, router)
    assert not absent.found_in and absent.answerable and not absent.weak
    assert "go.mod does not require go.uber.org/zap" in absent.detail
    assert find_technology("zap", None, service).found_in
    assert verdicts("Request logging goes through zap.", router) == {"tech:zap": Verdict.BROKEN}
    assert verdicts("Request logging goes through zap.", service) == {"tech:zap": Verdict.HOLDS}
    assert verdicts("The server serves HTTP/3 through quic-go.", router) == {
        "tech:quic-go": Verdict.BROKEN}


# ---------------------------------------------------------------- a requirement as written


@pytest.mark.parametrize(("wanted", "declared", "ecosystem", "found"), [
    ("0.4.21", "0.4.21", "cargo", Relation.SUBSET),  # as Cargo writes it
    ("0.4.21", "0.4.30", "cargo", Relation.DISJOINT),  # a later requirement is another one
    ("==0.4.20", "0.4.21", "cargo", Relation.DISJOINT),
    ("^1.2.0", "^1.2.0", "npm", Relation.SUBSET),
    ("v1.27.0", "v1.27.0", "go", Relation.SUBSET),
    ("latest", "next", "npm", Relation.UNDECIDABLE),
])  # fmt: skip
def test_a_requirement_quoted_as_written(wanted: str, declared: str, ecosystem: str,
                                         found: Relation) -> None:  # fmt: skip
    assert relation(wanted, declared, ecosystem) is found


# ---------------------------------------------------------------- Rust defaults

TARGET_RS = """#[derive(Default)]
pub enum Target {
    Stdout,
    #[default]
    Stderr,
    Pipe(Box<dyn std::io::Write>),
}

pub enum Precision {
    Seconds,
    Millis,
}

impl Default for Precision {
    fn default() -> Self {
        Precision::Seconds
    }
}

pub struct Builder {
    indent: Option<usize>,
    suffix: &'static str,
    target: bool,
    style: Precision,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            indent: Some(4),
            suffix: "\\n",
            target: true,
            style: Default::default(),
        }
    }
}

pub struct Other {
    limit: u32,
}

impl Default for Other {
    fn default() -> Self {
        let limit = 3;
        Other { limit }
    }
}
"""


def test_rust_defaults_are_read_as_values() -> None:
    from anchors.rustfacts import extract_rust

    values = {v.name: v.text for v in extract_rust(TARGET_RS.encode()).constants}
    assert values == {
        "Target.default": "Stderr",
        "Precision.default": "Seconds",
        "Builder.default.indent": "Some(4)",
        "Builder.default.suffix": '"\\n"',
        "Builder.default.target": "true",
        "Builder.default.style": None,  # computed
    }  # a default() that computes first says nothing read here (Other)


@pytest.fixture
def defaults(tmp_path: Path) -> Fingerprint:
    repo = GitRepo(tmp_path / "defaults")
    repo.commit({"Cargo.toml": CARGO, "src/lib.rs": LIB_RS, "src/target.rs": TARGET_RS}, "a crate")
    return fingerprint_of(repo.root)


@pytest.mark.parametrize(("text", "anchor", "verdict"), [
    ("Logs go to stdout by default (Target::Stdout is the #[default]).",
     "symbol:src/target.rs::Target.default=Stdout", Verdict.BROKEN),
    ("Logs go to stderr by default (`Target::Stderr` is the #[default]).",
     "symbol:src/target.rs::Target.default=Stderr", Verdict.HOLDS),
    ("The default precision is Precision::Millis.",
     "symbol:src/target.rs::Precision.default=Millis", Verdict.BROKEN),
    ("Continuation lines are indented 2 spaces by default (indent: Some(2)).",
     "symbol:src/target.rs::Builder.default.indent=Some(2)", Verdict.BROKEN),
    ("Continuation lines are indented 4 spaces by default (indent: Some(4)).",
     "symbol:src/target.rs::Builder.default.indent=Some(4)", Verdict.HOLDS),
    ("By default `target` is true.", "symbol:src/target.rs::Builder.default.target=true",
     Verdict.HOLDS),
])  # fmt: skip
def test_a_rust_default_a_note_states(text: str, anchor: str, verdict: Verdict,
                                      defaults: Fingerprint) -> None:  # fmt: skip
    reading = infer_anchors(text, defaults)
    assert verdicts(text, defaults) == {anchor: verdict}, reading
    assert not reading.uncovered, reading  # the value said twice, the variant in prose


@pytest.mark.parametrize("text", [
    "Target::Stdout is not the default.",  # a negation
    "If Target::Stdout were the default, logs would interleave.",  # a condition
    "Pipe output falls back to Target::Stderr, not Target::Stdout, by default.",  # which one?
    "Target::Stdout writes to standard output.",  # says nothing of the default
    "The style is computed by default (style: 3).",  # a value the code computes
])  # fmt: skip
def test_a_rust_default_is_bound_only_when_plainly_stated(
    text: str, defaults: Fingerprint
) -> None:
    from anchors.rust_defaults import bind_rust_defaults

    assert bind_rust_defaults(text, defaults, list(sentence_spans(text))) == []
