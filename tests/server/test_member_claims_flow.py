"""What a note says beyond the names it uses, through MCP ``remember`` + ``recall`` on real
git repositories: a member of an imported module ("writes to os.Stderr") must be one the
files importing it use; a definition named by a word of grammar ("the which function"); a
crate's optional dependency is a feature of its name, and "a required dependency" denies
its optional flag; a dependency denied by a word of English ("no longer depends on atty");
a Python standard-library name declared as a crate is that crate; a
value stated as the path inside a URL; "go.mod says go 1.14"; the status of "the Timeout
middleware"; a keyword argument written without its callee (``force_https=False``)."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

GO = {
    "go.mod": "module github.com/acme/web/v5\n\ngo 1.14\n",
    "logger.go": 'package web\n\nimport (\n\t"log"\n\t"os"\n)\n\n'
                 "// DefaultLogger writes to os.Stderr? No: to standard output.\n"
                 'var DefaultLogger = log.New(os.Stdout, "", log.LstdFlags)\n',
    "timeout.go": 'package web\n\nimport (\n\t"net/http"\n\t"time"\n)\n\n'
                  "func Timeout(d time.Duration) func(http.Handler) http.Handler {\n"
                  "\treturn func(next http.Handler) http.Handler {\n"
                  "\t\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {\n"
                  "\t\t\tw.WriteHeader(http.StatusGatewayTimeout)\n\t\t})\n\t}\n}\n",
}  # fmt: skip
RUST = {
    "Cargo.toml": '[package]\nname = "which"\nversion = "4.2.5"\nedition = "2018"\n\n'
                  '[dependencies.libc]\nversion = "0.2"\n\n'
                  '[dependencies.regex]\nversion = "1.5"\noptional = true\n\n'
                  '[dev-dependencies.tempfile]\nversion = "3.3"\n',
    "src/lib.rs": "mod finder;\n\npub fn which(name: &str) -> Option<String> {\n"
                  "    finder::find(name)\n}\n",
    "src/finder.rs": "pub fn find(name: &str) -> Option<String> {\n    Some(name.to_owned())\n}\n",
    "tests/basic.rs": "use tempfile::TempDir;\n\n#[test]\nfn t() {\n"
                      "    let _d = TempDir::new();\n}\n",
}  # fmt: skip
APP = {
    "pyproject.toml": '[project]\nname = "budget"\nversion = "1.0"\n'
                      'dependencies = ["flask-talisman>=1", "requests>=2"]\n',
    "budget/__init__.py": "",
    "budget/settings.py": 'SQLALCHEMY_DATABASE_URI = "sqlite:////tmp/budget.db"\n',
    "budget/run.py": "import requests\nfrom flask_talisman import Talisman\n\n\n"
                     "def create_app(app):\n    Talisman(app, force_https=False)\n"
                     "    return requests.get('https://example.com/rates')\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # a module's member: the files importing the module must write it (a comment is no use)
    (GO, "logger.go writes to os.Stderr.", "ACTIVE", "names what no anchor covers"),
    (GO, "logger.go writes to os.Stdout.", "VERIFIED", "imported by logger.go"),
    (GO, "timeout.go writes to os.Stdout.", "REFUTED", "os is not imported in timeout.go"),
    (APP, "budget/run.py fetches rates with requests.get.", "VERIFIED", "imported by"),
    (APP, "budget/run.py fetches rates with requests.post.", "ACTIVE",
     "names what no anchor covers"),
    # "the which function": a definition's name though it is a word of grammar
    (RUST, "The which function is defined in src/finder.rs.", "REFUTED",
     "src/finder.rs does not define which"),
    (RUST, "The which function is defined in src/lib.rs.", "VERIFIED", "src/lib.rs defines which"),
    # an optional crate is a feature of its own name; "required" denies its optional flag
    (RUST, "regex is an optional dependency, behind the regex feature.", "VERIFIED",
     "features.regex: dep:regex"),
    (RUST, "regex is a required dependency.", "REFUTED", "dependencies.regex.optional: true"),
    (RUST, "libc is a hard dependency of the crate.", "VERIFIED",
     "states no dependencies.libc.optional"),
    # a dependency denied by name, though nothing declares it or the word is English
    (RUST, "The crate no longer depends on atty.", "VERIFIED", "atty is not a declared dependency"),
    (RUST, "The crate does not depend on libc.", "REFUTED", "libc is declared in Cargo.toml"),
    (RUST, "The finder does not depend on libc.", "ACTIVE", ""),  # a part: no manifest claim
    # a name of Python's standard library declared as a crate is the crate
    (RUST, "tempfile is a runtime dependency.", "REFUTED",
     "no code that runs imports tempfile"),
    # a stated path is a part of a URL the code sets: not told apart, never refuted
    (APP, "The default database is SQLite at /tmp/budget.db (SQLALCHEMY_DATABASE_URI in "
          "budget/settings.py).", "ACTIVE", "names /tmp/budget.db"),
    (APP, "The default database is SQLite at /tmp/other.db (SQLALCHEMY_DATABASE_URI in "
          "budget/settings.py).", "REFUTED", "not /tmp/other.db"),
    # what go.mod "says"
    (GO, "go.mod says go 1.14.", "VERIFIED", "go.mod:3 lists go 1.14"),
    (GO, "go.mod says go 1.18.", "REFUTED", "not 1.18"),
    # the status "the Timeout middleware" writes; its reason phrase says it is HTTP
    (GO, "The Timeout middleware writes 504 Gateway Timeout.", "VERIFIED", "Timeout writes 504"),
    (GO, "The Timeout middleware writes 408 Request Timeout.", "REFUTED", "writes 504"),
    # a keyword argument without its callee: the one callee the code passes it to
    (APP, "budget/run.py sets force_https=False.", "VERIFIED", "calls Talisman(force_https=False)"),
    (APP, "Talisman forces HTTPS (force_https=True) in create_app.", "REFUTED",
     "force_https=False), not True"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_what_a_note_says_beyond_its_names(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
