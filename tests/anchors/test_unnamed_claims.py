"""Claims a note makes without the name an anchor is usually read from (issue #32): a
type's member nothing in the code is called (``anchors.member_claims``), a file that never
touches a concept (``anchors.concept_negations``) and a status denied with no function
named (``anchors.status_anywhere``), read from facts of real files in a real repository."""

from __future__ import annotations

import pytest

from anchors.concept_negations import concept_negations
from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource
from anchors.member_claims import lacking, missing_member
from anchors.spec import AnchorKind, parse_anchor
from anchors.status_anywhere import ANY, unnamed_subject
from anchors.subject import sentence_spans
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

FILES = {
    "Cargo.toml": '[package]\nname = "tinylog"\nversion = "0.1.0"\n\n[dependencies]\nregex = "1"\n',
    "src/logger.rs": (
        "use std::env;\n\npub struct Builder {\n    filter: String,\n}\n\n"
        "impl Builder {\n    pub fn parse_filters(&mut self, f: &str) {\n"
        "        self.filter = f.to_string();\n    }\n\n"
        "    pub fn from_env(&mut self) {\n"
        '        if let Ok(s) = env::var("RUST_LOG") {\n            self.parse_filters(&s);\n'
        "        }\n    }\n}\n"
    ),
    "src/server.rs": (
        "use http::StatusCode;\n\npub fn created() -> StatusCode {\n    StatusCode::CREATED\n}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
        "    fn teapot() -> StatusCode {\n        StatusCode::IM_A_TEAPOT\n    }\n}\n"
    ),
    "src/names.rs": 'pub const LOG_ENV: &str = "APP_LOG";\n',
    "src/style.rs": (
        "#[derive(Clone, Default)]\npub struct Style {\n    pub bold: bool,\n}\n\n"
        "pub trait Render {\n    fn render_all(&self) {}\n}\n\nimpl Render for Style {}\n"
    ),
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": (
        'package mux\n\nimport (\n\t"net/http"\n\t"regexp"\n)\n\n'
        "var name = regexp.MustCompile(`x`)\n\ntype Router struct {\n\tStrict bool\n}\n\n"
        "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {\n"
        "\tw.WriteHeader(http.StatusMethodNotAllowed)\n}\n"
    ),
    "route.go": "package mux\n\ntype Route struct {\n\tname string\n}\n",
    "mux_test.go": (
        'package mux\n\nimport "net/http"\n\n'
        "func teapot(w http.ResponseWriter) {\n\tw.WriteHeader(http.StatusTeapot)\n}\n"
    ),
    "shop/models.py": (
        "from django.db import models\n\n\nclass Muscle(models.Model):\n    name = 'x'\n\n\n"
        "class Base:\n    def save(self):\n        pass\n\n\n"
        "class Order(Base):\n    def total(self):\n        return 0\n\n\n"
        "class Lazy:\n    def __getattr__(self, name):\n        return name\n\n\n"
        "def Helper():\n    return 1\n"
    ),
    "shop/views.py": "import os\n\nDEBUG = os.environ.get('SHOP_DEBUG')\n",
    "web/app.js": "const slug = /^[a-z]+$/;\nexport function valid(s) { return slug.test(s); }\n",
}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(FILES, "a crate, a Go package, a Python package and a script")
    return source.fingerprint()


# -- a type's member nothing is called ---------------------------------------------------------
@pytest.mark.parametrize(("owner", "member", "refuted"), [
    ("Builder", "parse_default_filters", True),  # a Rust struct lacking it
    ("Router", "MatchMethod", True),  # a Go struct lacking it
    ("Order", "refund_all", True),  # a Python class whose bases the repository defines
    ("Builder", "parse_filters", False),  # it has it
    ("Builder", "render_all", False),  # another type's, or a trait's default: the name is used
    ("Style", "clone", False),  # derived, never written
    ("Muscle", "objects", False),  # from Django's Model
    ("Lazy", "anything", False),  # any attribute is answered
    ("Helper", "cached", False),  # a function, not a type
    ("Nowhere", "thing", False),  # no such type
    ("Builder", "__init__", False),  # a dunder
])  # fmt: skip
def test_a_member_is_refuted_only_where_every_member_of_the_type_is_seen(
    fp: Fingerprint, owner: str, member: str, refuted: bool
) -> None:
    assert (missing_member(fp, owner, member) is not None) is refuted


def test_the_anchor_and_receipt_of_a_missing_member(fp: Fingerprint) -> None:
    rust = missing_member(fp, "Builder", "parse_default_filters")
    python = missing_member(fp, "Order", "refund_all")
    assert rust is not None and python is not None
    assert rust.anchor().render() == "symbol:Builder.parse_default_filters"  # any file may add it
    assert python.anchor().render() == "symbol:shop/models.py::Order.refund_all"
    check = check_anchor(rust.anchor(), None, fp)
    assert check.verdict is Verdict.BROKEN
    assert (
        check.detail
        == "Builder is defined in src/logger.rs (line 3) but has no parse_default_filters"
    )
    assert lacking(fp, "Builder.parse_filters") == ""  # defined: no such receipt


def test_a_note_naming_a_missing_member_reads_a_failing_anchor(fp: Fingerprint) -> None:
    read = infer_anchors("Builder::parse_default_filters reads RUST_LOG.", fp, None)
    assert parse_anchor("symbol:Builder.parse_default_filters") in read.anchors
    kept = infer_anchors("`Muscle.objects` is the default manager.", fp, None)
    assert not [a for a in kept.anchors if a.kind is AnchorKind.SYMBOL]


# -- a file that never touches a concept ------------------------------------------------------
def _concepts(text: str, fp: Fingerprint, scope: str | None = None) -> set[str]:
    return {a.render() for a, _ in concept_negations(text, fp, list(sentence_spans(text)), scope)}


@pytest.mark.parametrize(("text", "anchors"), [
    ("src/logger.rs never touches the environment itself.",
     {"!import:std::env@src/logger.rs", "!env:RUST_LOG@src/logger.rs"}),
    ("mux.go doesn't touch regular expressions; that is all elsewhere.",
     {"!import:regexp@mux.go"}),
    ("`shop/views.py` does not read environment variables.", {"!env:SHOP_DEBUG@shop/views.py"}),
    ("shop/views.py never uses regexes.",
     {"!import:re@shop/views.py", "!import:regex@shop/views.py"}),
    ("route.go never uses the environment.", set()),  # a Go file: only what it reads
    # a name it only states is no read it makes
    ("src/names.rs never touches the environment.", {"!import:std::env@src/names.rs"}),
    ("web/app.js never uses regular expressions.", set()),  # a literal imports nothing
    ("src/logger.rs never reads environment variables other than RUST_LOG.", set()),
    ("src/logger.rs never reads the environment at build time.", set()),
    ("src/logger.rs should never touch the environment.", set()),  # a rule, not a fact
    ("Does src/logger.rs never touch the environment?", set()),
    ("src/logger.rs touches the environment.", set()),  # a positive claim stays as it was
    ("The logger never touches the environment.", set()),  # no file named
    ("mux.go and route.go never touch regular expressions.", set()),  # which one
])  # fmt: skip
def test_a_concept_denied_for_a_file_is_that_files_absent_anchors(
    fp: Fingerprint, text: str, anchors: set[str]
) -> None:
    assert _concepts(text, fp) == anchors


def test_the_notes_own_file_stands_for_a_clause_that_names_none(fp: Fingerprint) -> None:
    assert _concepts("It never uses regexps.", fp, "mux.go") == set()  # "it": unclear
    assert _concepts("The router never uses regexps.", fp, "mux.go") == {"!import:regexp@mux.go"}


# -- a status denied with no function named ---------------------------------------------------
@pytest.mark.parametrize(("sentence", "subject"), [
    ("The router never writes a 405 itself", (ANY, None)),
    ("This library does not answer 405", (ANY, None)),
    ("mux.go never answers 405", (ANY, "mux.go")),
    ("`mux_test.go` never answers 405", (ANY, "mux_test.go")),
    ("tinylog never answers 405", (ANY, None)),  # the crate's own name
    ("The login view never returns 403", None),  # one part of the project
    ("The admin app never returns 403", None),
    ("We never send a 405", None),
    ("nothing.go never answers 405", None),  # no such file
])  # fmt: skip
def test_what_a_status_without_a_function_is_said_of(
    fp: Fingerprint, sentence: str, subject: tuple[str, str | None] | None
) -> None:
    at = next(i for v in (" writes", " answer", " returns", " send") if (i := sentence.find(v)) > 0)
    assert unnamed_subject(sentence, at + 1, fp, frozenset({"tinylog"})) == subject


@pytest.mark.parametrize(("anchor", "verdict", "detail"), [
    ("!status:*=405", Verdict.BROKEN,
     "mux.go:15 Router.ServeHTTP writes 405 (http.StatusMethodNotAllowed); the project's code"),
    ("!status:mux.go::*=405", Verdict.BROKEN, "; mux.go does write 405"),
    ("!status:route.go::*=405", Verdict.UNKNOWN, "no function in route.go sets 405 itself"),
    # only tests write 418: a Go test file, a Rust test module
    ("!status:*=418", Verdict.UNKNOWN, "no function in the project's code sets 418"),
    ("!status:src/server.rs::*=418", Verdict.BROKEN, "tests.teapot writes 418"),
    ("!status:*=201", Verdict.BROKEN, "src/server.rs:4 created writes 201"),
    ("!status:mux_test.go::*=418", Verdict.BROKEN, "teapot writes 418"),  # the file named
])  # fmt: skip
def test_a_status_of_any_function_refutes_and_never_verifies(
    fp: Fingerprint, anchor: str, verdict: Verdict, detail: str
) -> None:
    parsed = parse_anchor(anchor)
    assert parsed.render() == anchor and parsed.value == ANY
    check = check_anchor(parsed, None, fp)
    assert check.verdict is verdict, check.detail
    assert detail in check.detail


def test_a_note_denying_a_status_of_the_project_reads_the_anchor(fp: Fingerprint) -> None:
    read = infer_anchors("The router never writes a 405 itself.", fp, None)
    assert parse_anchor("!status:*=405") in read.anchors
    told = infer_anchors("The router writes a 405 itself.", fp, None)  # not denied: not read
    assert not [a for a in told.anchors if a.kind is AnchorKind.STATUS]


def test_a_go_struct_embedding_a_type_from_outside_has_its_methods(
    git_repo: GitRepo, source: CodeSource
) -> None:
    git_repo.commit({
        "go.mod": "module example.com/srv\n\ngo 1.21\n",
        "srv.go": (
            'package srv\n\nimport (\n\t"net/http"\n\t"sync"\n)\n\n'
            "type Server struct {\n\t*http.Server\n\tname string\n}\n\n"
            "type Cache struct {\n\tsync.Mutex\n\titems map[string]string\n}\n\n"
            "type Plain struct {\n\tServer *http.Server\n}\n\n"
            "type inner struct{ id int }\n\nfunc (i inner) Identify() int { return i.id }\n\n"
            "type Outer struct {\n\tinner\n}\n"
        ),
    })  # fmt: skip
    fp = source.fingerprint()
    assert missing_member(fp, "Server", "ListenAndServe") is None  # from *http.Server
    assert missing_member(fp, "Cache", "TryLock") is None  # from sync.Mutex
    assert missing_member(fp, "Plain", "ListenAndServe") is not None  # a named field
    assert missing_member(fp, "Outer", "Shutdown") is not None  # embeds a type of its own


def test_a_type_named_like_one_a_file_imports_from_outside_is_never_judged(
    git_repo: GitRepo, source: CodeSource
) -> None:
    """``use env_filter::Builder`` beside the crate's own ``Builder``: a note's
    ``Builder::x`` may mean either, so neither is judged; an import from the crate's own
    modules changes nothing."""
    git_repo.commit({
        "Cargo.toml": '[package]\nname = "tinylog"\nversion = "0.1.0"\n',
        "src/lib.rs": "pub mod fmt;\npub mod logger;\n",
        "src/fmt.rs": "pub struct Writer {\n    out: String,\n}\n\n"
                      "impl Writer {\n    pub fn new() -> Self { Writer { out: 0 } }\n}\n",
        "src/logger.rs": "use crate::fmt::Writer;\n\npub struct Builder {\n    level: u8,\n}\n\n"
                         "impl Builder {\n    pub fn build(&self) -> u8 { self.level }\n}\n",
    })  # fmt: skip
    fp = source.fingerprint()
    assert missing_member(fp, "Builder", "parse_default_filters") is not None
    assert missing_member(fp, "Writer", "flush_all") is not None  # imported from the crate
    git_repo.commit({
        "src/logger.rs": "use env_filter::Builder as FilterBuilder;\nuse env_filter::Builder;\n"
                         "use crate::fmt::Writer;\n\npub struct LogBuilder {\n    level: u8,\n}\n",
        "src/filter.rs": "pub struct Builder {\n    level: u8,\n}\n\n"
                         "impl Builder {\n    pub fn build(&self) -> u8 { self.level }\n}\n",
    })  # fmt: skip
    fp = source.fingerprint()
    assert missing_member(fp, "Builder", "parse_default_filters") is None
    assert missing_member(fp, "Writer", "flush_all") is not None
