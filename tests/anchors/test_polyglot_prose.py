"""How prose about Go, TypeScript and Rust code is read into anchors: a negated clause stays
negative, a package named as an instrument is an import of the subject file in any language,
an English word is no import because a Go file imports a module of that name, a quoted value
is bound or left uncovered, a parameter claim about a function without a read signature is
uncovered, "declared but never used" denies the import, and a file subject scopes what it
uses. Each test reads a note against a fingerprint of a real git repository."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from anchors.extract import Inference, infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.spec import AnchorKind, parse_anchor
from anchors.subject import resolve_subject
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

MUX_GO = """package mux

import (
\t"errors"
\t"net/http"
\t"path"
\t"regexp"
)

var ErrNotFound = errors.New("no matching route was found")

type Router struct{ routes []string }

func (r *Router) Match(req *http.Request) bool {
\treturn regexp.MustCompile("x").MatchString(path.Clean(req.URL.Path))
}
"""
MIDDLEWARE_GO = """package mux

import "net/http"

type MiddlewareFunc func(http.Handler) http.Handler

func (r *Router) Use(mwf ...MiddlewareFunc) {
}
"""
REGEXP_GO = """package mux

import "regexp"

func compile(s string) *regexp.Regexp { return regexp.MustCompile(s) }
"""
GO_MOD = "module github.com/example/mux\n\ngo 1.20\n"
CARGO = """[package]
name = "logger"
version = "0.1.0"

[dependencies]
humantime = "2"
log = "0.4"
"""
LIB_RS = """use log::Log;
use humantime::format_rfc3339;

pub fn stamp() -> String { format_rfc3339(std::time::SystemTime::now()).to_string() }
"""
GIT_TS = """import { requestAPI } from './server';

export class Git {
  async clone(url: string): Promise<void> { await requestAPI('clone', { url }); }
}
"""
SERVER_TS = "export async function requestAPI(p: string, b: object) { return p; }\n"
HANDLERS_PY = "import pexpect\n\n\ndef prompt(cmd):\n    return pexpect.spawn(cmd)\n"
PACKAGE_JSON = '{"name": "gitui", "dependencies": {"react": "^18.0.0"}}\n'
ERRORS_PY = 'NOT_FOUND = "no matching route"\n\n\ndef fail(code, reason=None):\n    return code\n'
REPORT_PY = "import csv\n\n\ndef write(rows):\n    return csv.writer(rows)\n"
CLI_PY = "import json\n\n\ndef show(data):\n    return json.dumps(data)\n"


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Fingerprint]]:
    files = {
        "go": {"mux.go": MUX_GO, "middleware.go": MIDDLEWARE_GO, "regexp.go": REGEXP_GO,
               "go.mod": GO_MOD},
        "rust": {"Cargo.toml": CARGO, "src/lib.rs": LIB_RS},
        "ts": {"src/git.ts": GIT_TS, "src/server.ts": SERVER_TS, "package.json": PACKAGE_JSON,
               "gitui/handlers.py": HANDLERS_PY},
        "py": {"app/errors.py": ERRORS_PY, "app/report.py": REPORT_PY, "app/cli.py": CLI_PY},
    }  # fmt: skip
    out: dict[str, Fingerprint] = {}
    for name, tree in files.items():
        root = tmp_path_factory.mktemp(name)
        repo = GitRepo(root)
        repo.commit(tree)
        with CodeSource(root, InMemoryFactsCache()) as code:
            out[name] = code.fingerprint()
    yield out


def _read(fp: Fingerprint, text: str, subject: str | None = None) -> Inference:
    return infer_anchors(text, fp, subject, scope=resolve_subject(subject, text, fp))


def _rendered(inference: Inference) -> set[str]:
    return {a.render() for a in inference.anchors}


def _verdict(fp: Fingerprint, anchor: str) -> Verdict:
    return check_anchor(parse_anchor(anchor), None, fp).verdict


def test_a_negated_import_of_a_go_file_stays_negative_and_the_contrast_is_read(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["go"]
    found = _rendered(_read(fp, "mux.go doesn't import regexp; only regexp.go does."))
    assert "!import:regexp@mux.go" in found and "import:regexp@regexp.go" in found
    assert "import:regexp@mux.go" not in found
    assert _verdict(fp, "!import:regexp@mux.go") is Verdict.BROKEN  # the note is false


def test_the_x_package_is_an_import_of_the_go_subject_file(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["go"]
    text = "middleware.go matches the allowed methods with the regexp package."
    found = _rendered(_read(fp, text, "middleware.go"))
    assert "import:regexp@middleware.go" in found
    assert _verdict(fp, "import:regexp@middleware.go") is Verdict.BROKEN
    assert "import:path@mux.go" in _rendered(_read(fp, "mux.go cleans URLs with the path package."))
    assert "import:net/http@middleware.go" in _rendered(
        _read(fp, "middleware.go wraps handlers from net/http."))


def test_an_english_word_is_no_import_because_a_go_file_imports_it(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["go"]
    assert not any(a.startswith("import:path") for a in _rendered(
        _read(fp, "The module path is github.com/example/mux/v2.")))  # fmt: skip
    assert "import:path@mux.go" in _rendered(_read(fp, "mux.go uses `path`."))


def test_a_quoted_message_of_a_go_error_is_bound_to_its_value(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["go"]
    inference = _read(fp, 'ErrNotFound\'s message is "route not found".')
    bound = [a for a in inference.anchors if a.value == "ErrNotFound"]
    if bound and bound[0].version is not None:  # the Go extractor reads the message literal
        assert _verdict(fp, bound[0].render()) is Verdict.BROKEN
    else:
        assert 'the value "route not found"' in inference.uncovered


def test_a_quoted_value_no_constant_holds_is_uncovered(repos: dict[str, Fingerprint]) -> None:
    inference = _read(repos["go"], "`Router.Match`'s value is \"strict\".")
    assert 'the value "strict"' in inference.uncovered
    assert _read(repos["go"], "The word is 'fine' here.").uncovered == ()  # no code name


def test_parameters_of_a_go_method_are_uncovered(repos: dict[str, Fingerprint]) -> None:
    inference = _read(repos["go"], "Router.Use takes middlewares in the order given.")
    assert "the parameters of Router.Use" in inference.uncovered
    assert _read(repos["go"], "Router.Use registers middleware.").uncovered == ()


def test_the_type_a_go_method_takes_is_read_from_its_signature(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["go"]
    one = _read(fp, "Router.Use takes one MiddlewareFunc per call.")
    [typed] = [a for a in one.anchors if a.kind is AnchorKind.PARAM]
    assert typed.render() == "param:middleware.go::Router.Use(: one MiddlewareFunc)"
    assert _verdict(fp, typed.render()) is Verdict.BROKEN  # ``Use(mwf ...MiddlewareFunc)``
    [any_number] = [a for a in _read(fp, "Router.Use takes a MiddlewareFunc.").anchors
                    if a.kind is AnchorKind.PARAM]  # fmt: skip
    assert _verdict(fp, any_number.render()) is Verdict.HOLDS


def test_declared_but_never_used_denies_the_crate_import(repos: dict[str, Fingerprint]) -> None:
    fp = repos["rust"]
    found = _rendered(_read(fp, "humantime is declared but never used by the source."))
    assert "!import:humantime" in found and "import:humantime" not in found
    assert _verdict(fp, "!import:humantime") is Verdict.BROKEN


def test_a_technology_used_by_a_typescript_file_is_scoped_to_it(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["ts"]
    text = "src/git.ts drives git's password prompts through pexpect."
    found = _rendered(_read(fp, text, "src/git.ts"))
    assert "tech:pexpect" not in found
    scoped = [a for a in found if "pexpect" in a]
    assert scoped and all(a.endswith("@src/git.ts") for a in scoped), found
    assert all(_verdict(fp, a) is Verdict.BROKEN for a in scoped)


def test_a_technology_named_like_a_file_is_still_a_technology(
    repos: dict[str, Fingerprint],
) -> None:
    found = _rendered(_read(repos["ts"], "The frontend runs on Node.js."))
    assert not any(a.startswith("file:") for a in found), found


def test_a_quoted_value_of_a_python_constant_is_checked(repos: dict[str, Fingerprint]) -> None:
    fp = repos["py"]
    wrong = _read(fp, 'NOT_FOUND is "route not found".')
    anchors = [a.render() for a in wrong.anchors]
    assert anchors == ['symbol:app/errors.py::NOT_FOUND="route not found"'], anchors
    assert _verdict(fp, anchors[0]) is Verdict.BROKEN
    right = [a.render() for a in _read(fp, 'NOT_FOUND is "no matching route".').anchors]
    assert all(_verdict(fp, a) is Verdict.HOLDS for a in right) and right


def test_each_sentence_about_a_file_scopes_its_own_imports(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["py"]
    text = "app/cli.py doesn't import csv. app/report.py does."
    found = _rendered(_read(fp, text))
    assert {"!import:csv@app/cli.py", "import:csv@app/report.py"} <= found, found
    assert all(_verdict(fp, a) is Verdict.HOLDS for a in found)


def test_the_stdlib_package_named_for_a_python_file_is_its_import(
    repos: dict[str, Fingerprint],
) -> None:
    fp = repos["py"]
    text = "app/report.py writes rows with the json package."
    found = _rendered(_read(fp, text, "app/report.py"))
    assert "import:json@app/report.py" in found, found
    assert _verdict(fp, "import:json@app/report.py") is Verdict.BROKEN


def test_parameters_of_a_python_function_are_not_made_uncovered(
    repos: dict[str, Fingerprint],
) -> None:
    inference = _read(repos["py"], "fail_now.x takes a code.")  # defined nowhere: not read
    assert not any(u.startswith("the parameters of") for u in inference.uncovered)
    signed = _read(repos["py"], "`fail` takes a `reason` argument.")
    assert "the parameters of fail" not in signed.uncovered
