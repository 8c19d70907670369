"""The anchor syntax: every documented form parses and round-trips; unsafe anchors never do."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from anchors.spec import (
    Anchor,
    AnchorKind,
    AnchorSyntaxError,
    Expect,
    normalize_dist_name,
    parse_anchor,
    validate_repo_path,
)

# Every form the module docstring documents, with the Anchor it denotes.
DOCUMENTED = [
    ("file:store/db.py", Anchor(AnchorKind.FILE, "store/db.py")),
    ("file:store", Anchor(AnchorKind.FILE, "store")),
    ("symbol:store/db.py::Store.open",
     Anchor(AnchorKind.SYMBOL, "Store.open", scope="store/db.py")),
    ("symbol:Store.open", Anchor(AnchorKind.SYMBOL, "Store.open")),
    ("symbol:verify", Anchor(AnchorKind.SYMBOL, "verify")),
    ("import:duckdb", Anchor(AnchorKind.IMPORT, "duckdb")),
    ("import:mcp.server.fastmcp", Anchor(AnchorKind.IMPORT, "mcp.server.fastmcp")),
    ("import:duckdb@store/db.py", Anchor(AnchorKind.IMPORT, "duckdb", scope="store/db.py")),
    ("import:duckdb@store", Anchor(AnchorKind.IMPORT, "duckdb", scope="store")),
    ("import:duckdb@store/db.py::Store.open",
     Anchor(AnchorKind.IMPORT, "duckdb", scope="store/db.py::Store.open")),
    ("env:DATABASE_URL", Anchor(AnchorKind.ENV, "DATABASE_URL")),
    ("dep:duckdb", Anchor(AnchorKind.DEP, "duckdb")),
    ("dep:duckdb>=2", Anchor(AnchorKind.DEP, "duckdb", version=">=2")),
    ("dep:duckdb>=1.1,<2", Anchor(AnchorKind.DEP, "duckdb", version=">=1.1,<2")),
    ("dep:httpx~=0.27", Anchor(AnchorKind.DEP, "httpx", version="~=0.27")),
    ("dep:mcp==2.3.0", Anchor(AnchorKind.DEP, "mcp", version="==2.3.0")),
    ("!dep:redis", Anchor(AnchorKind.DEP, "redis", Expect.ABSENT)),
    ("!import:redis", Anchor(AnchorKind.IMPORT, "redis", Expect.ABSENT)),
    ("!import:sqlite3@app/billing.py",
     Anchor(AnchorKind.IMPORT, "sqlite3", Expect.ABSENT, scope="app/billing.py")),
    ("!file:auth/legacy.py", Anchor(AnchorKind.FILE, "auth/legacy.py", Expect.ABSENT)),
    ("!symbol:auth/jwt.py::verify",
     Anchor(AnchorKind.SYMBOL, "verify", Expect.ABSENT, scope="auth/jwt.py")),
    ("!env:REDIS_URL", Anchor(AnchorKind.ENV, "REDIS_URL", Expect.ABSENT)),
    ("file:.env.example", Anchor(AnchorKind.FILE, ".env.example")),
    ("file:.github/workflows/ci.yml", Anchor(AnchorKind.FILE, ".github/workflows/ci.yml")),
    ("file:docs/my notes.md", Anchor(AnchorKind.FILE, "docs/my notes.md")),
    ("file:café/menu.py", Anchor(AnchorKind.FILE, "café/menu.py")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "anchor"), DOCUMENTED, ids=[t for t, _ in DOCUMENTED])
def test_every_documented_form_parses_to_its_anchor(text: str, anchor: Anchor) -> None:
    assert parse_anchor(text) == anchor


@pytest.mark.parametrize(("text", "anchor"), DOCUMENTED, ids=[t for t, _ in DOCUMENTED])
def test_rendering_a_parsed_anchor_gives_back_the_canonical_text(text: str, anchor: Anchor) -> None:
    assert anchor.render() == text
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("  import:duckdb  ", "import:duckdb"),
        ("IMPORT:duckdb", "import:duckdb"),
        ("! dep:redis", "!dep:redis"),
        ("dep:PyYAML", "dep:pyyaml"),
        ("dep:Typing_Extensions", "dep:typing-extensions"),
        ("dep:duckdb >= 1.1 , < 2", "dep:duckdb>=1.1,<2"),
        ("dep:uvicorn[standard]>=0.30", "dep:uvicorn>=0.30"),
        ("import: duckdb @ store/db.py", "import:duckdb@store/db.py"),
    ],
)
def test_loose_spellings_parse_to_the_canonical_form(loose: str, canonical: str) -> None:
    assert parse_anchor(loose).render() == canonical


def test_negating_an_anchor_flips_only_its_expectation() -> None:
    anchor = parse_anchor("import:sqlite3@app/billing.py")
    assert anchor.negated().render() == "!import:sqlite3@app/billing.py"
    assert anchor.negated().negated() == anchor


def test_distribution_names_normalise_per_pep_503() -> None:
    assert normalize_dist_name("Foo.Bar__baz-Qux") == "foo-bar-baz-qux"


UNSAFE = [
    # absolute, home-relative and drive paths
    "file:/etc/passwd",
    "file://etc/passwd",
    "file:~/.ssh/id_rsa",
    "file:C:/Windows/win.ini",
    "file:c:secrets.txt",
    "import:os@/etc/passwd",
    # traversal and empty or dot components
    "file:../secrets.py",
    "file:app/../../secrets.py",
    "file:app/./billing.py",
    "file:app//billing.py",
    "file:app/billing.py/",
    "file:.",
    "file:..",
    "symbol:../x.py::f",
    "import:duckdb@store/../../etc",
    # NUL and control characters
    "file:app/billing.py\x00.txt",
    "file:app/\x01billing.py",
    "file:app/billing\x7f.py",
    "file:app/billing\u0085.py",
    "file:app/\u202ebilling.py",
    "file:app/bil\u200bling.py",
    "import:duck\x00db",
    "import:duckdb\n@store/db.py",
    "dep:duckdb\n>=1",
    # backslashes
    "file:app\\billing.py",
    "file:..\\secrets.py",
    # the .git directory
    "file:.git/config",
    "file:.GIT/hooks/pre-commit",
    "file:vendor/.git/config",
    "symbol:.git/x.py::f",
    # a leading dash (would read as an option to git)
    "file:-rf",
    "file:--output=/tmp/x",
    "-file:app.py",
    # percent-encoding
    "file:%2e%2e/secrets.py",
    "file:app%2fbilling.py",
    "file:%2E%2E/%2E%2E/etc/passwd",
    # Unicode look-alikes of '/' and '.'
    "file:app\uff0fbilling.py",
    "file:\u2024\u2024/secrets.py",
    "file:\u2025/secrets.py",
    "file:app\u2215billing.py",
    "file:app\u2044billing.py",
    "file:\uff0e\uff0e/secrets.py",
    "file:ﬁle.py",
    # empty values
    "file:",
    "file:   ",
    "symbol:",
    "symbol:app.py::",
    "symbol:::verify",
    "import:",
    "import:duckdb@",
    "env:",
    "dep:",
    "!",
    "",
    # unknown or missing kinds
    "path:app.py",
    "module:duckdb",
    "app/billing.py",
    "!!import:redis",
    # malformed names
    "symbol:app.py::Store..open",
    "symbol:app.py::1verify",
    "symbol:app.py::Store.open()",
    "import:.relative",
    "import:duckdb.",
    "import:duckdb@store/db.py::",
    "import:duckdb@store/db.py::1x",
    # bad env names
    "env:1DATABASE_URL",
    "env:DATABASE-URL",
    "env:DATABASE URL",
    "env:$HOME",
    # bad distribution names and version specifiers
    "dep:-duckdb",
    "dep:duckdb-",
    "dep:duck db",
    "dep:duckdb>=",
    "dep:duckdb=>2",
    "dep:duckdb>=1;python_version<'3.12'",
    "dep:duckdb @ https://example.com/duckdb.whl",
    "dep:duckdb>=1,",
    "dep:duckdb>=1 2",
    # too long
    "file:" + "a/" * 300 + "b.py",
    # messages: none, too long, a place outside the repository
    "message:",
    "message:" + "x" * 201,
    "message:../etc/app.py::Editing failed",
    # wildcards: only negated, only for a variable or a dependency, scoped inside the repository
    "env:*",
    "dep:*",
    "!env:*@../etc",
    "!symbol:*",
]


@pytest.mark.parametrize("text", UNSAFE)
def test_unsafe_or_malformed_anchors_are_rejected(text: str) -> None:
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(text)


def test_at_least_thirty_unsafe_forms_are_covered() -> None:
    assert len(UNSAFE) >= 30


@pytest.mark.parametrize("path", ["app/.gitignore", ".github/ci.yml", "docs/.gitkeep", "a.git/b"])
def test_names_that_merely_start_with_git_are_allowed(path: str) -> None:
    assert validate_repo_path(path) == path


def test_a_non_string_anchor_is_rejected() -> None:
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(42)  # type: ignore[arg-type]


_PATH_PART = st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}", fullmatch=True).filter(
    lambda part: part.lower() != ".git"
)
_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
_PATHS = st.lists(_PATH_PART, min_size=1, max_size=4).map("/".join)
_QUALS = st.lists(_IDENT, min_size=1, max_size=3).map(".".join)
_ANCHORS = st.one_of(
    st.builds(Anchor, st.just(AnchorKind.FILE), _PATHS, st.sampled_from(Expect)),
    st.builds(Anchor, st.just(AnchorKind.SYMBOL), _QUALS, st.sampled_from(Expect),
              st.one_of(st.none(), _PATHS)),
    st.builds(Anchor, st.just(AnchorKind.IMPORT), _QUALS, st.sampled_from(Expect),
              st.one_of(st.none(), _PATHS, st.tuples(_PATHS, _QUALS).map("::".join))),
    st.builds(Anchor, st.just(AnchorKind.ENV), _IDENT, st.sampled_from(Expect)),
    st.builds(Anchor, st.just(AnchorKind.MESSAGE),
              st.from_regex(r"[A-Za-z<{%][\w<>{}% :!,'-]{0,40}[\w!>}]", fullmatch=True),
              st.sampled_from(Expect), st.one_of(st.none(), _PATHS.map(lambda p: p + ".py"))),
    st.builds(Anchor, st.just(AnchorKind.DEP),
              st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)
              .filter(lambda n: "--" not in n),
              st.sampled_from(Expect), st.none(),
              st.one_of(st.none(), st.sampled_from([">=1", "==2.3.0", "~=0.27", ">=1,<2"]))),
)  # fmt: skip


@given(_ANCHORS)
def test_any_well_formed_anchor_round_trips(anchor: Anchor) -> None:
    assert parse_anchor(anchor.render()) == anchor


@given(st.text(max_size=80))
def test_arbitrary_text_either_parses_to_a_round_tripping_anchor_or_is_rejected(
    text: str,
) -> None:
    try:
        anchor = parse_anchor(text)
    except AnchorSyntaxError:
        return
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize(
    "spec",
    ["===1.0", "==1.*", "!=1.5.*", "~=1.4.5", ">=1.0.post1", ">=1!2.0", "<2.0rc1", "==1.0+local",
     ">=1.0.dev3", "!=2,>=1"],
)  # fmt: skip
def test_any_specifier_set_packaging_accepts_is_accepted(spec: str) -> None:
    anchor = parse_anchor(f"dep:httpx{spec}")
    assert anchor.version == spec
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize("spec", ["~=1", ">=1.*", "=1", ">=1,,<2", ">=1.0+local", "~1.2.3.4"])
def test_a_specifier_packaging_rejects_is_rejected_with_a_clear_message(spec: str) -> None:
    with pytest.raises(AnchorSyntaxError, match="is not a PEP 440 specifier set"):
        parse_anchor(f"dep:httpx{spec}")


@pytest.mark.parametrize(
    "text",
    ["file:{}", "symbol:{}::menu", "import:os@{}", "import:os@{}::menu", "!file:{}/x"],
)
def test_a_decomposed_name_parses_to_the_same_anchor_as_the_composed_one(text: str) -> None:
    nfc, nfd = (unicodedata.normalize(form, "café.py") for form in ("NFC", "NFD"))
    assert nfc != nfd
    composed = parse_anchor(text.format(nfc))
    assert parse_anchor(text.format(nfd)) == composed
    assert nfd not in composed.render() and nfc in composed.render()


@pytest.mark.parametrize("path", ["caf\uff45.py", "app\uff0fx.py", "\ufb01le.py", "x\u2024py"])
def test_compatibility_look_alikes_are_still_rejected(path: str) -> None:
    with pytest.raises(AnchorSyntaxError):
        validate_repo_path(path)


@pytest.mark.parametrize(
    ("text", "value", "scope", "version"),
    [
        ("dep:vue^3", "vue", None, "^3"),
        ("dep:@vue/cli~5.0@web", "@vue/cli", "web", "~5.0"),
        ("dep:vue@frontend/", "vue", "frontend", None),
        ("dep:github.com/gin-gonic/gin", "github.com/gin-gonic/gin", None, None),
        ("dep:serde_json>=1", "serde-json", None, ">=1"),
    ],
)
def test_a_dependency_of_any_ecosystem_parses_with_its_project(
    text: str, value: str, scope: str | None, version: str | None
) -> None:
    anchor = parse_anchor(text)
    assert (anchor.value, anchor.scope, anchor.version) == (value, scope, version)
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize(
    ("text", "value", "scope"),
    [
        ("import:axios@web/src/api/client.ts", "axios", "web/src/api/client.ts"),
        ("import:@vue/runtime-core@web", "@vue/runtime-core", "web"),
        ("import:github.com/redis/go-redis/v9", "github.com/redis/go-redis/v9", None),
        ("import:tokio::sync@src/main.rs", "tokio::sync", "src/main.rs"),
        ("symbol:src/lib.rs::Store::get", "Store.get", "src/lib.rs"),
        ("symbol:web/src/store.ts::$store", "$store", "web/src/store.ts"),
    ],
)
def test_imports_and_symbols_of_other_languages_parse(
    text: str, value: str, scope: str | None
) -> None:
    anchor = parse_anchor(text)
    assert (anchor.value, anchor.scope) == (value, scope)
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize("text", ["import:./api/client", "import:../x", "dep:@/x", "import:a b"])
def test_a_relative_import_or_a_malformed_package_is_rejected(text: str) -> None:
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(text)


@pytest.mark.parametrize(
    ("text", "kind", "value", "scope"),
    [
        ("!env:*", AnchorKind.ENV, "*", None),
        ("!env:*@web", AnchorKind.ENV, "*", "web"),
        ("!dep:*", AnchorKind.DEP, "*", None),
        ("!dep:*@go.mod", AnchorKind.DEP, "*", "go.mod"),
        ("!import:log@*", AnchorKind.IMPORT, "log", "*"),
        ("import:github.com/stretchr/testify@*", AnchorKind.IMPORT, "github.com/stretchr/testify",
         "*"),
    ],
)
def test_wildcard_anchors_parse_and_round_trip(
    text: str, kind: AnchorKind, value: str, scope: str | None
) -> None:
    """Any variable, any dependency, the code that runs (``anchors.running_code``)."""
    anchor = parse_anchor(text)
    assert (anchor.kind, anchor.value, anchor.scope) == (kind, value, scope)
    assert parse_anchor(anchor.render()) == anchor
