"""Three claims a note makes without naming what an anchor usually names, through MCP
``remember`` + ``recall`` on real git repositories with real commits (issue #32):

- a member written on a type the repository defines, which nothing in the code is called
  ("`Builder::parse_default_filters` reads RUST_LOG"): refuted, with the type's place;
- a file said never to touch a concept ("src/logger.rs never touches the environment",
  "mux.go doesn't touch regular expressions"): refuted by the file's own import or read;
- a status denied with no function named ("the router never writes a 405 itself"):
  refuted by the function that writes it, with its file and line.

Each false note has a true twin written the same way, which is never refuted."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

RUST = {
    "Cargo.toml": (
        '[package]\nname = "tinylog"\nversion = "0.1.0"\nedition = "2021"\n\n'
        '[dependencies]\nregex = "1"\nhttp = "1"\n'
    ),
    "src/lib.rs": "pub mod fmt;\npub mod logger;\npub mod server;\n",
    "src/logger.rs": """use std::env;

pub const DEFAULT_FILTER_ENV: &str = "RUST_LOG";

pub struct Builder {
    filter: String,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { filter: String::new() }
    }

    pub fn parse_filters(&mut self, filters: &str) -> &mut Self {
        self.filter = filters.to_string();
        self
    }

    pub fn from_env(&mut self) -> &mut Self {
        if let Ok(s) = env::var(DEFAULT_FILTER_ENV) {
            self.parse_filters(&s);
        }
        self
    }
}
""",
    "src/fmt.rs": """use regex::Regex;

#[derive(Clone, Default)]
pub struct Style {
    pub bold: bool,
}

pub struct Builder {
    indent: usize,
}

impl Builder {
    pub fn format_indent(&mut self, indent: usize) -> &mut Self {
        self.indent = indent;
        self
    }

    pub fn is_level(&self, text: &str) -> bool {
        Regex::new("^[A-Z]+$").unwrap().is_match(text)
    }
}
""",
    "src/server.rs": """use http::StatusCode;

pub fn reject_method() -> StatusCode {
    StatusCode::METHOD_NOT_ALLOWED
}
""",
}
GO = {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": """package mux

import (
\t"net/http"
\t"regexp"
)

var varName = regexp.MustCompile(`{(\\w+)}`)

type Router struct {
\tNotFoundHandler http.Handler
}

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
\tif r.NotFoundHandler != nil {
\t\tr.NotFoundHandler.ServeHTTP(w, req)
\t}
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusMethodNotAllowed)
}
""",
    "route.go": """package mux

type Route struct {
\tname string
}

func (r *Route) Name(name string) *Route {
\tr.name = name
\treturn r
}
""",
    "config.go": """package mux

import "os"

func debug() bool {
\treturn os.Getenv("MUX_DEBUG") != ""
}
""",
    "mux_test.go": """package mux

import "net/http"

func teapot(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusTeapot)
}
""",
}
PYTHON = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\n',
    "shop/__init__.py": "",
    "shop/models.py": """from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


class Invoice(Base):
    number = 0


class Order:
    def __init__(self, lines):
        self.lines = lines

    def total(self):
        return sum(line.price for line in self.lines)
""",
    "shop/views.py": """import re

SLUG = re.compile(r"^[a-z-]+$")


def valid(slug):
    return SLUG.match(slug) is not None
""",
    "shop/pricing.py": """def cents(amount):
    return int(amount * 100)
""",
}
REPOS = {"rust": RUST, "go": GO, "python": PYTHON}

# (repository, note, status served, a receipt it carries; "" when not refuted)
NOTES: list[tuple[str, str, str, str]] = [
    # a type's member nothing in the code is called
    ("rust", "Builder::parse_default_filters reads RUST_LOG into the builder.", "REFUTED",
     "Builder is defined in src/fmt.rs (line 8), src/logger.rs (line 5) but none of them "
     "has parse_default_filters"),
    ("rust", "Builder::parse_filters reads a filter string.", "", ""),
    ("rust", "Style::clone copies the style.", "", ""),  # derived, never written
    ("go", "`Router.MatchMethod` matches a route by its method.", "REFUTED",
     "Router is defined in mux.go (line 10) but has no MatchMethod"),
    ("go", "`Router.ServeHTTP` dispatches the request.", "", ""),
    ("python", "`Order.refund_all` refunds every line.", "REFUTED",
     "shop/models.py does not define Order.refund_all"),
    ("python", "`Order.total` sums the lines.", "", ""),
    ("python", "`Invoice.registry` maps the mapped classes.", "", ""),  # from SQLAlchemy
    # a file that never touches a concept
    ("rust", "src/logger.rs never touches the environment itself.", "REFUTED",
     "imported by src/logger.rs (line 1)"),
    ("rust", "src/fmt.rs never touches the environment.", "", ""),
    ("rust", "src/logger.rs doesn't use regular expressions.", "", ""),
    ("rust", "src/fmt.rs doesn't use regular expressions.", "REFUTED",
     "imported by src/fmt.rs (line 1)"),
    ("go", "mux.go doesn't touch regular expressions; that is all in route.go.", "REFUTED",
     "imported by mux.go (line 5)"),
    ("go", "route.go doesn't touch regular expressions.", "", ""),
    ("go", "config.go never reads environment variables.", "REFUTED",
     "MUX_DEBUG is read in config.go"),
    ("go", "mux.go never reads environment variables.", "", ""),
    ("python", "shop/views.py never uses regular expressions.", "REFUTED",
     "imported by shop/views.py (line 1)"),
    ("python", "shop/pricing.py never uses regular expressions.", "", ""),
    # a status denied with no function named
    ("go", "The router never writes a 405 itself; a method mismatch falls through to "
     "NotFoundHandler.", "REFUTED",
     "mux.go:21 methodNotAllowed writes 405 (http.StatusMethodNotAllowed)"),
    ("go", "The router never answers with a 418.", "", ""),  # only a test writes it
    ("go", "route.go never answers 405.", "", ""),
    ("rust", "The crate never answers 405 Method Not Allowed.", "REFUTED",
     "src/server.rs:4 reject_method writes 405 (StatusCode::METHOD_NOT_ALLOWED)"),
    ("rust", "The crate never answers 404 Not Found.", "", ""),
]  # fmt: skip


@pytest.mark.parametrize(("repo", "text", "status", "receipt"), NOTES)
async def test_a_claim_without_its_usual_name_is_checked_against_the_code(
    git_repo: GitRepo, repo: str, text: str, status: str, receipt: str
) -> None:
    git_repo.commit(REPOS[repo], f"a small {repo} project")
    served = await remember_and_serve(git_repo.root, text)
    if status:
        assert served["status"] == status, served["anchors"]
        assert receipt in receipts(served), served["anchors"]
    else:
        assert served["status"] != "REFUTED", served["anchors"]


async def test_a_member_added_later_makes_the_note_hold(git_repo: GitRepo) -> None:
    git_repo.commit(GO, "a router")
    text = "`Router.MatchMethod` matches a route by its method."
    assert (await remember_and_serve(git_repo.root, text))["status"] == "REFUTED"
    git_repo.commit({"route.go": GO["route.go"] + (
        "\nfunc (r *Router) MatchMethod(m string) bool {\n\treturn m != \"\"\n}\n")},
        "match by method")  # fmt: skip
    later = await remember_and_serve(git_repo.root, text)
    assert later["status"] != "REFUTED", later["anchors"]
