"""Anchors inferred from memory text: one realistic repository, many phrasings.

The fingerprint is built directly from plain fact data (no git, no parser): a small app whose
billing module calls out with httpx, a legacy report on sqlite3, an MCP server on
``mcp.server.fastmcp``, a DuckDB store, JWT auth reading ``JWT_SECRET``, YAML config and
BeautifulSoup scraping, with ``DATABASE_URL`` declared in ``.env.example``.
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.extract import DropReason, Inference, infer_anchors
from anchors.facts import Definition, Dependency, FileFacts, Fingerprint, ImportFact
from anchors.spec import Anchor, AnchorKind, Expect, parse_anchor
from anchors.subject import apply_scope, resolve_subject
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from anchors.vocabulary import by_name, for_import


def _defs(*names: str) -> tuple[Definition, ...]:
    return tuple(Definition(name, f"hash-{name}", line) for line, name in enumerate(names, 1))


def _imports(*modules: str | tuple[str, ...]) -> tuple[ImportFact, ...]:
    facts = []
    for module in modules:
        name, *names = (module,) if isinstance(module, str) else module
        facts.append(ImportFact(name, tuple(names)))
    return tuple(facts)


PYTHON = {
    "app/__init__.py": FileFacts(),
    "app/billing.py": FileFacts(imports=_imports("httpx"), definitions=_defs("charge")),
    "app/other.py": FileFacts(imports=_imports("sqlite3"), definitions=_defs("legacy_report")),
    "server/__init__.py": FileFacts(),
    "server/main.py": FileFacts(
        imports=_imports(("mcp.server.fastmcp", "FastMCP"), "json", ("store.db", "Store")),
        definitions=_defs("main"),
    ),
    "store/__init__.py": FileFacts(),
    "store/db.py": FileFacts(
        imports=_imports("duckdb"), definitions=_defs("Store", "Store.open", "Store.close")
    ),
    "auth/__init__.py": FileFacts(),
    "auth/jwt.py": FileFacts(
        imports=_imports("os"), definitions=_defs("verify"), env_reads=("JWT_SECRET",)
    ),
    "config/loader.py": FileFacts(imports=_imports("yaml"), definitions=_defs("load_config")),
    "src/loader/core.py": FileFacts(definitions=_defs("install")),
    "scrape/pages.py": FileFacts(
        imports=_imports(("bs4", "BeautifulSoup")), definitions=_defs("parse_page")
    ),
}
PATHS = [*PYTHON, "pyproject.toml", ".env.example", "README.md"]
FP = Fingerprint(
    commit="0" * 40,
    blobs={path: f"blob{i:02d}" for i, path in enumerate(PATHS)},
    code=PYTHON,
    dependencies=tuple(
        Dependency(name, "", "pyproject.toml")
        for name in ("duckdb", "httpx", "mcp", "pyyaml", "beautifulsoup4")
    ),
    env_example={"DATABASE_URL": ".env.example"},
)

R = pytest.param
# (text, subject, exact set of rendered anchors)
TABLE = [
    # -- imports reached through a submodule, and plain package words
    R("We use fastmcp for the MCP server.", None, {"import:mcp.server.fastmcp"},
      id="fastmcp-resolves-to-its-submodule-import"),
    R("The server is built on FastMCP.", None, {"import:mcp.server.fastmcp"},
      id="camel-case-fastmcp"),
    R("We use DuckDB for storage.", None, {"tech:duckdb"}, id="duckdb-import"),
    R("`from mcp.server.fastmcp import FastMCP` starts the server.", None,
      {"import:mcp.server.fastmcp"}, id="from-import-phrase-in-code-span"),
    R("We import mcp.server.fastmcp in server/main.py.", None,
      {"file:server/main.py", "import:mcp.server.fastmcp@server/main.py"},
      id="dotted-module-scoped-by-the-file-named"),
    R("We use httpx-based clients for outbound calls.", None, {"tech:httpx"},
      id="hyphenated-compound-names-its-package"),
    # -- the standard library is never a dependency
    R("We use json for payloads.", None, set(), id="stdlib-json-imported-exactly"),
    R("json is a dependency.", None, set(), id="stdlib-json-is-no-dependency"),
    R("We depend on the sqlite3 package.", None, set(), id="stdlib-sqlite3-is-no-dependency"),
    R("We use sqlite3 for the legacy report.", None, {"import:sqlite3"}, id="stdlib-import"),
    # -- common words are not anchors
    R("Fix the import path before release.", None, set(), id="import-path-is-prose"),
    R("The store keeps data for a long time.", None, set(), id="store-data-time-are-prose"),
    R("We pass the token through the request context.", None, set(), id="jargon-is-prose"),
    # -- distributions whose import name differs
    R("We depend on pyyaml.", None, {"dep:pyyaml"}, id="pyyaml-is-a-dependency"),
    R("We use the PyYAML package for config.", None, {"dep:pyyaml"}, id="pyyaml-package"),
    R("Config is parsed with yaml.", None, {"tech:pyyaml"}, id="yaml-is-the-import"),
    R("We import pyyaml in the loader.", None, {"import:yaml"},
      id="import-cue-maps-a-dist-to-its-import"),
    R("beautifulsoup4 is installed.", None, {"dep:beautifulsoup4"}, id="bs4-dist"),
    # A plural noun is no subject: no scope; it names a component only where that holds
    R("Pages are parsed with bs4.", None, {"import:bs4@scrape/pages.py"},
      id="bs4-import-checked-in-the-component-a-plural-noun-names-where-it-holds"),
    R("Pages are parsed with httpx.", None, {"tech:httpx"},
      id="a-component-that-does-not-import-it-is-not-the-scope"),
    R("We scrape with BeautifulSoup.", None, {"tech:beautifulsoup4"}, id="beautifulsoup-alias"),
    R("The mcp package is pinned.", None, {"dep:mcp"}, id="package-cue-prefers-dep"),
    R("The duckdb dependency is declared.", None, {"dep:duckdb"}, id="dependency-cue"),
    # -- negations, in several forms: absent anchors, kept although unresolved
    R("We no longer use Redis.", None, {"!tech:redis"}, id="no-longer-use"),
    R("We don't use redis anymore.", None, {"!tech:redis"}, id="dont-use"),
    R("We stopped using celery in 2023.", None, {"!tech:celery"},
      id="stopped-using"),
    R("We got rid of memcached.", None, {"!tech:memcached"},
      id="got-rid-of"),
    R("Redis was removed.", None, {"!tech:redis"}, id="was-removed"),
    R("Redis isn't used anywhere.", None, {"!tech:redis"}, id="isnt-used"),
    R("No redis.", None, {"!tech:redis"}, id="bare-no"),
    R("We never use celery.", None, {"!tech:celery"}, id="never-use"),
    R("We dropped redis and memcached.", None,
      {"!tech:memcached", "!tech:redis"},
      id="dropped-a-list-joined-by-and"),
    R("We no longer use redis, memcached or celery.", None,
      {"!tech:celery", "!tech:memcached", "!tech:redis"}, id="negated-comma-list"),
    R("We used to use celery.", None, {"!tech:celery"}, id="used-to-is-past"),
    R("We no longer use fastmcp.", None, {"!import:mcp.server.fastmcp"},
      id="false-negation-resolves-so-it-can-be-refuted"),
    R("We dropped PyYAML.", None, {"!tech:pyyaml"},
      id="negated-dist-also-negates-its-import"),
    R("We no longer use sqlite3.", None, {"!import:sqlite3"},
      id="negated-stdlib-has-no-dep-anchor"),
    R("We no longer use the cache.", None, set(), id="negated-common-word-is-no-anchor"),
    R("We don't parse yaml by hand.", None, set(),
      id="negation-of-another-verb-leaves-the-name-alone"),
    # -- negated paths, symbols and env names
    R("auth/legacy.py was deleted.", None, {"!file:auth/legacy.py"}, id="deleted-file"),
    R("We removed auth/legacy.py.", None, {"!file:auth/legacy.py"}, id="removed-file"),
    R("Store.close was removed.", None, {"!symbol:store/db.py::Store.close"},
      id="removed-symbol-that-still-exists-is-refutable"),
    R("We removed `verify()`.", None, {"!symbol:auth/jwt.py::verify"}, id="removed-call"),
    R("We no longer read REDIS_URL.", None, {"!env:REDIS_URL"}, id="env-no-longer-read"),
    R("JWT_SECRET is no longer read.", None, {"!env:JWT_SECRET"}, id="env-post-negation"),
    R("The server starts without DATABASE_URL.", None, set(),
      id="without-does-not-negate-an-env-read"),
    R("auth/jwt.py no longer reads REDIS_URL.", None, {"file:auth/jwt.py", "!env:REDIS_URL"},
      id="subject-before-a-negation-stays-present"),
    R("We no longer call verify().", None, set(), id="not-calling-a-function-keeps-it-defined"),
    R("We no longer use auth/legacy.py.", None, set(), id="not-using-a-file-keeps-it-tracked"),
    R("We call Store.open, not Store.close.", None, {"symbol:store/db.py::Store.open"},
      id="contrast-on-a-method-negates-nothing"),
    R("Store.close no longer exists.", None, {"!symbol:store/db.py::Store.close"},
      id="no-longer-exists-is-removal"),
    R("We dropped the `Store.close` method.", None, {"!symbol:store/db.py::Store.close"},
      id="dropped-a-method"),
    R("The old redis client is gone.", None, {"!tech:redis"}, id="is-gone"),
    R("We don't use redis in production.", None, set(), id="negation-narrowed-to-production"),
    R("We no longer use redis for sessions.", None, set(), id="negation-narrowed-to-a-purpose"),
    R("Don't call duckdb from the request handler.", None, set(),
      id="negation-narrowed-to-a-place"),
    R("We no longer use redis, memcached or celery for caching.", None, set(),
      id="a-narrowed-list-is-narrowed-throughout"),
    R("We no longer use redis anywhere in the codebase.", None, {"!tech:redis"},
      id="the-whole-codebase-does-not-narrow"),
    R("We don't parse yaml, json or toml by hand.", None, set(),
      id="a-list-in-a-negated-clause-stays-unclear"),
    # -- mixed polarity in one sentence
    R("We use httpx, not requests.", None,
      {"!tech:requests", "tech:httpx"}, id="x-not-y"),
    R("We use httpx instead of requests.", None,
      {"!tech:requests", "tech:httpx"}, id="x-instead-of-y"),
    R("We moved off Redis to DuckDB.", None, {"!tech:redis", "tech:duckdb"},
      id="moved-off-x-to-y"),
    R("We replaced sqlite3 with duckdb.", None, {"!import:sqlite3", "tech:duckdb"},
      id="replaced-x-with-y"),
    R("We switched to duckdb from sqlite3.", None, {"!import:sqlite3", "tech:duckdb"},
      id="switched-to-y-from-x"),
    R("duckdb, not sqlite3, stores events.", None, {"!import:sqlite3", "tech:duckdb"},
      id="parenthetical-not"),
    R("Everything runs on duckdb; redis is gone.", None,
      {"!tech:redis", "tech:duckdb"}, id="two-sentences-two-polarities"),
    R("We dropped redis and now use duckdb.", None,
      {"!tech:redis", "tech:duckdb"}, id="dropped-x-and-now-use-y"),
    R("There is no Redis anywhere; caching is in DuckDB.", None,
      {"!tech:redis", "tech:duckdb"}, id="there-is-no-x"),
    R("No more sqlite3: everything is in DuckDB now.", None, {"!import:sqlite3", "tech:duckdb"},
      id="no-more-x"),
    R("httpx is used to call the payments API.", None, {"tech:httpx"},
      id="is-used-to-is-present-tense"),
    R("The legacy sqlite3 report was deleted.", None, set(),
      id="a-deleted-thing-named-after-a-module-claims-nothing-about-it"),
    R("Tests use real git repositories, not mocks.", None, set(),
      id="plural-of-a-common-word-is-prose"),
    R("We pin duckdb>=1.1 in pyproject.toml.", None, {"dep:duckdb>=1.1", "file:pyproject.toml"},
      id="pin-is-a-dependency-and-a-manifest-is-no-scope"),
    # -- hypotheticals, plans and questions: nothing
    R("We might move to redis next year.", None, set(), id="might"),
    R("We plan to adopt celery.", None, set(), id="plan-to"),
    R("Consider polars for the reports.", None, set(), id="consider"),
    R("Should we use aiohttp instead of httpx?", None, set(), id="question-instead-of"),
    R("If we ever need redis, we would drop duckdb.", None, set(), id="if-we-ever"),
    R("Maybe we could use polars.", None, set(), id="maybe-could"),
    R("We will migrate to polars.", None, set(), id="we-will"),
    R("We use duckdb but might add redis.", None, {"tech:duckdb"},
      id="plan-after-but-leaves-the-fact"),
    # -- other people's code: nothing
    R("My friend's project uses redis.", None, set(), id="friends-project"),
    R("In the upstream repo they use celery.", None, set(), id="upstream"),
    R("Their service uses httpx and duckdb.", None, set(), id="their-service"),
    R("My friend's project uses redis, but we use duckdb.", None, {"tech:duckdb"},
      id="theirs-but-ours"),
    R("Unlike upstream, we use httpx.", None, {"tech:httpx"}, id="unlike-upstream"),
    # -- paths, symbols, env names
    R("Tokens are checked in `auth/jwt.py` by `verify`.", None,
      {"file:auth/jwt.py", "symbol:auth/jwt.py::verify"}, id="path-and-code-symbol"),
    R("auth/jwt.py::verify checks tokens.", None, {"symbol:auth/jwt.py::verify"},
      id="path-qualified-symbol"),
    R("Store.open opens the database.", None, {"symbol:store/db.py::Store.open"},
      id="dotted-method"),
    R("`store/db.py` defines `Store.open`.", None,
      {"file:store/db.py", "symbol:store/db.py::Store.open"}, id="file-defines-symbol"),
    R("The store/ package wraps duckdb.", None, {"file:store", "import:duckdb@store"},
      id="directory-path-scopes-the-import"),
    R("app.billing charges cards.", None, {"file:app/billing.py"}, id="first-party-module"),
    R("The loader reads jwt.py settings.", None, {"file:auth/jwt.py"},
      id="unique-basename"),
    R("See README.md and .env.example.", None, {"file:README.md", "file:.env.example"},
      id="dotfiles-and-docs"),
    R("The server reads DATABASE_URL and JWT_SECRET.", None,
      {"env:DATABASE_URL", "env:JWT_SECRET"}, id="env-names"),
    R("We read STRIPE_KEY from the environment.", None, {"env:STRIPE_KEY"},
      id="an-env-name-the-text-says-is-read-is-anchored-even-if-nothing-reads-it"),
    R("Secrets are in /etc/passwd.", None, set(), id="absolute-path-is-unsafe"),
    R("The file ../secrets.py holds keys.", None, set(), id="dotdot-is-unsafe"),
    R(r"Paths like C:\repo\app.py break.", None, set(), id="backslash-path-is-unsafe"),
    R("Docs are at https://example.com/auth/jwt.py today.", None, set(), id="urls-are-skipped"),
    # -- present-traps, defeated by scope
    R("The billing module uses sqlite3.", None, {"import:sqlite3@app/billing.py"},
      id="present-trap-from-text-subject"),
    R("We use sqlite3.", "billing", {"import:sqlite3@app/billing.py"},
      id="present-trap-from-subject-word"),
    R("Uses sqlite3 for reports.", "app.billing", {"import:sqlite3@app/billing.py"},
      id="present-trap-from-subject-module"),
    R("It talks to Stripe with httpx.", "billing service",
      {"import:httpx@app/billing.py", "tech:stripe@app/billing.py"},
      id="subject-with-generic-noun"),
    R("We use sqlite3.", "app/other.py", {"import:sqlite3@app/other.py"},
      id="subject-path-where-it-holds"),
    R("The billing service uses fastmcp.", None, {"import:mcp.server.fastmcp@app/billing.py"},
      id="present-trap-through-a-submodule"),
    R("The billing service no longer uses sqlite3.", None, {"!import:sqlite3@app/billing.py"},
      id="scoped-negation-has-no-repo-wide-dep"),
    R("We no longer use redis.", "billing", {"!import:redis@app/billing.py"},
      id="scoped-negation-from-subject"),
    R("The billing module defines verify().", None, {"symbol:app/billing.py::verify"},
      id="symbol-present-trap"),
    R("The billing module calls Store.open.", None, {"symbol:store/db.py::Store.open"},
      id="symbol-used-not-defined-stays-where-defined"),
    # No scope for the note; a component that imports what it is said to use is checked there
    R("The billing service uses httpx. We use duckdb.", None,
      {"tech:duckdb", "import:httpx@app/billing.py"}, id="two-subjects-no-scope"),
    R("The billing module uses httpx and the store module uses duckdb.", None,
      {"tech:duckdb", "import:httpx@app/billing.py"}, id="two-subjects-in-one-sentence-no-scope"),
    R("Storage uses duckdb. The billing service uses httpx.", None,
      {"tech:duckdb", "import:httpx@app/billing.py"}, id="a-non-code-subject-blocks-scope"),
    R("The billing module uses httpx and retries failed calls.", None,
      {"import:httpx@app/billing.py"}, id="a-continued-verb-keeps-the-scope"),
    R("In app/billing.py, we use httpx.", None,
      {"file:app/billing.py", "import:httpx@app/billing.py"}, id="in-path-outranks-we"),
    R("sqlite3 was replaced by duckdb in the billing module.", None,
      {"!import:sqlite3@app/billing.py", "import:duckdb@app/billing.py"},
      id="in-the-x-module-scopes-a-replacement"),
    R("The billing module uses httpx, not sqlite3.", None,
      {"import:httpx@app/billing.py", "!import:sqlite3@app/billing.py"},
      id="scoped-mixed-polarity"),
    R("The store module uses duckdb.", None, {"import:duckdb@store"},
      id="common-word-with-module-noun-is-a-subject"),
    R("The billing module imports httpx lazily inside charge().", None,
      {"import:httpx@app/billing.py", "symbol:app/billing.py::charge"},
      id="symbol-found-in-scope"),
    R("`os.environ[\"JWT_SECRET\"]` is read in auth/jwt.py.", None,
      {"env:JWT_SECRET@auth/jwt.py", "file:auth/jwt.py", "import:os@auth/jwt.py"},
      id="attribute-of-an-imported-module"),
    R("`Store` wraps a duckdb connection.", None, {"symbol:store/db.py::Store", "tech:duckdb"},
      id="code-span-class-is-a-symbol-not-a-common-word"),
    R("requests were replaced by httpx.", None,
      {"!tech:requests", "tech:httpx"}, id="x-were-replaced-by-y"),
    R("httpx replaced requests.", None, {"!tech:requests", "tech:httpx"},
      id="y-replaced-x"),
    R("We don't depend on redis.", None, {"!dep:redis"}, id="negated-dependency-only"),
    R("The old redis cache was removed.", None, {"!tech:redis"},
      id="post-negation-through-a-generic-noun"),
    R("We're not using redis.", None, {"!tech:redis"}, id="were-not-using"),
    R("Not all endpoints use httpx.", None, set(), id="not-all-is-unclear"),
    R("No module imports redis directly.", None, set(), id="no-module-is-unclear"),
    R("We no longer need to set DATABASE_URL.", None, set(),
      id="negated-verb-not-the-env-name"),
    R("When DATABASE_URL is unset, the store uses an in-memory DuckDB.", None,
      {"env:DATABASE_URL", "tech:duckdb"}, id="a-runtime-condition-is-not-hypothetical"),
    R("We tried redis but it was slow.", None, set(), id="tried"),
    R("Handlers read their settings from DATABASE_URL.", None, set(),
      id="their-is-conservatively-other-party"),
    # -- a place between "nothing" and its verb scopes the negation
    R("Nothing in the scrape package imports redis.", None, {"!import:redis@scrape"},
      id="nothing-in-a-package-imports"),
    # -- a negated role never gets a positive anchor of use: absent ones check it
    R("httpx is not a runtime requirement any more.", None, {"!dep:httpx", "!import:httpx"},
      id="negated-role-absent-anchors"),
    R("We only use httpx for outbound calls.", None, {"tech:httpx"},
      id="a-restriction-keeps-its-positive-anchor"),
    # -- an ordinary word that qualifies the next one names no package
    R("The project has no click handler.", None, set(), id="no-qualifying-common-word"),
    R("We do not use click.", None, {"!tech:click"}, id="not-using-a-common-word-package"),
    # -- a verb inside a code span governs nothing after it
    R("`loader.install` returns the previous hook.", None, set(),
      id="a-verb-in-a-code-span-is-code"),
    # -- a path below a source root, written without it
    R("The loader lives in loader/core.py.", None, {"file:src/loader/core.py"},
      id="a-path-below-a-source-root"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "subject", "expected"), TABLE)
def test_inferred_anchors_match_the_table(
    text: str, subject: str | None, expected: set[str]
) -> None:
    inference = infer_anchors(text, FP, subject)
    assert {a.render() for a in inference.anchors} == expected


def test_the_table_has_at_least_forty_phrasings() -> None:
    assert len(TABLE) >= 40


@pytest.mark.parametrize(("text", "subject", "expected"), TABLE)
def test_every_inferred_anchor_round_trips_through_the_parser(
    text: str, subject: str | None, expected: set[str]
) -> None:
    for anchor in infer_anchors(text, FP, subject).anchors:
        assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize(
    ("text", "candidate", "reason"),
    [
        ("json is a dependency.", "json", DropReason.STDLIB_NOT_DEPENDENCY),
        ("Fix the import path.", "path", DropReason.COMMON_WORD),
        ("We might move to redis.", "redis", DropReason.HYPOTHETICAL),
        ("Should we use aiohttp?", "aiohttp", DropReason.HYPOTHETICAL),
        ("My friend's project uses redis.", "redis", DropReason.OTHER_PARTY),
        ("We use zorbdb for background tasks.", "zorbdb", DropReason.UNTYPED),
        ("STRIPE_KEY is set at startup.", "STRIPE_KEY", DropReason.UNRESOLVED),
        ("Secrets are in /etc/passwd.", "/etc/passwd", DropReason.UNSAFE),
        ("The file ../secrets.py holds keys.", "../secrets.py", DropReason.UNSAFE),
        ("The server starts without DATABASE_URL.", "DATABASE_URL", DropReason.UNCLEAR_POLARITY),
        ("We use httpx; we no longer use httpx.", "httpx", DropReason.AMBIGUOUS),
    ],
)
def test_dropped_candidates_say_why(text: str, candidate: str, reason: DropReason) -> None:
    dropped = {(d.candidate, d.reason) for d in infer_anchors(text, FP).dropped}
    assert (candidate, reason) in dropped


def test_a_statement_made_both_ways_keeps_neither_polarity() -> None:
    inference = infer_anchors("We use httpx; we no longer use httpx.", FP)
    assert not any(a.value == "httpx" for a in inference.anchors)


def test_an_unknown_subject_is_reported_and_leaves_anchors_unscoped() -> None:
    inference = infer_anchors("We use httpx.", FP, subject="payments")
    assert inference.scope is None
    assert [a.render() for a in inference.anchors] == ["tech:httpx"]
    assert ("payments", DropReason.UNRESOLVED) in {
        (d.candidate, d.reason) for d in inference.dropped
    }


def test_a_subject_that_cannot_hold_imports_is_reported_and_not_used() -> None:
    inference = infer_anchors("It pins duckdb.", FP, subject="pyproject.toml")
    assert inference.scope is None
    assert ("pyproject.toml", DropReason.UNRESOLVED) in {
        (d.candidate, d.reason) for d in inference.dropped
    }


def test_the_inference_reports_its_scope_and_where_each_anchor_came_from() -> None:
    inference = infer_anchors("auth/jwt.py reads JWT_SECRET.", FP)
    assert inference == Inference(
        anchors=inference.anchors, dropped=inference.dropped, scope="auth/jwt.py",
        origins=inference.origins,
    )  # fmt: skip
    assert dict(zip((a.render() for a in inference.anchors), inference.origins, strict=True)) == {
        "file:auth/jwt.py": "auth/jwt.py",
        "env:JWT_SECRET@auth/jwt.py": "JWT_SECRET",
    }


def test_an_ambiguous_last_component_is_not_guessed() -> None:
    python = {
        "a.py": FileFacts(imports=_imports("alpha.zorblets")),
        "b.py": FileFacts(imports=_imports("beta.zorblets")),
    }
    fp = Fingerprint("1" * 40, {"a.py": "x", "b.py": "y"}, python)
    inference = infer_anchors("We use zorblets.", fp)
    assert inference.anchors == ()
    assert [(d.candidate, d.reason) for d in inference.dropped] == [
        ("zorblets", DropReason.AMBIGUOUS)
    ]
    scoped = infer_anchors("We use zorblets.", fp, subject="a.py")
    assert [a.render() for a in scoped.anchors] == ["import:alpha.zorblets@a.py"]


def test_a_repository_without_declared_dependencies_gets_the_same_absent_technology() -> None:
    fp = Fingerprint("2" * 40, {"main.py": "x"}, {"main.py": FileFacts()})
    inference = infer_anchors("We no longer use redis.", fp)
    assert [a.render() for a in inference.anchors] == ["!tech:redis"]


def test_a_control_character_next_to_a_path_makes_it_unsafe() -> None:
    inference = infer_anchors("See auth/jwt.py\x00.txt for details.", FP)
    assert inference.anchors == ()
    assert any(d.reason is DropReason.UNSAFE for d in inference.dropped)


def test_unicode_look_alike_paths_are_unsafe_not_resolved() -> None:
    inference = infer_anchors("See auth\uff0fjwt.py and \u2024\u2024/secrets.", FP)
    assert inference.anchors == ()
    assert {d.reason for d in inference.dropped} == {DropReason.UNSAFE}


@pytest.mark.parametrize(
    ("subject", "text", "expected"),
    [
        ("billing", "", "app/billing.py"),
        ("app.billing", "", "app/billing.py"),
        ("app/billing.py", "", "app/billing.py"),
        ("billing service", "", "app/billing.py"),
        ("the billing module", "", "app/billing.py"),
        ("store", "", "store"),
        ("store/", "", "store"),
        ("server.main", "", "server/main.py"),
        ("app", "", "app"),
        ("payments", "", None),
        ("../app", "", None),
        (None, "The billing service uses httpx.", "app/billing.py"),
        (None, "auth/jwt.py checks tokens. It reads JWT_SECRET.", "auth/jwt.py"),
        (None, "Tokens are checked in auth/jwt.py.", "auth/jwt.py"),
        (None, "We use httpx.", None),
        (None, "The store uses duckdb.", None),
        (None, "Redis was removed.", None),
        (None, "The billing service uses httpx. auth/jwt.py reads JWT_SECRET.", None),
        ("auth", "The billing service uses httpx.", "auth"),
    ],
)
def test_subjects_resolve_to_exactly_one_path(
    subject: str | None, text: str, expected: str | None
) -> None:
    assert resolve_subject(subject, text, FP) == expected


def test_a_word_matching_both_a_file_and_a_directory_is_ambiguous() -> None:
    blobs = {"app/billing.py": "x", "billing/__init__.py": "y"}
    python = {path: FileFacts() for path in blobs}
    assert resolve_subject("billing", "", Fingerprint("3" * 40, blobs, python)) is None


def test_apply_scope_scopes_only_unscoped_imports() -> None:
    anchors = [parse_anchor(text) for text in (
        "import:sqlite3", "!import:redis", "import:duckdb@store/db.py", "dep:httpx",
        "env:JWT_SECRET", "symbol:verify",
    )]  # fmt: skip
    scoped = apply_scope(anchors, "app/billing.py", FP)
    assert [a.render() for a in scoped] == [
        "import:sqlite3@app/billing.py",
        "!import:redis@app/billing.py",
        "import:duckdb@store/db.py",
        "dep:httpx",
        "env:JWT_SECRET",
        "symbol:verify",
    ]


@pytest.mark.parametrize("scope", [None, "nowhere/else.py"])
def test_apply_scope_leaves_anchors_alone_without_a_real_scope(scope: str | None) -> None:
    anchors = (parse_anchor("import:sqlite3"),)
    assert apply_scope(anchors, scope, FP) == anchors


_WORDS = ["we", "use", "no", "longer", "not", "httpx", "redis", "sqlite3", "the", "billing",
          "module", "auth/jwt.py", "Store.open", "JWT_SECRET", "might", "removed", "was",
          "and", "or", ",", ".", "?", "`", "fastmcp", "pyyaml", "their", "from", "import",
          "../x", "in", "for", "instead", "of", "used", "to", "\u2215", "\x00"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), max_size=25).map(" ".join),
    st.sampled_from([None, "billing", "store", "nowhere"]),
)
def test_any_word_salad_yields_only_valid_anchors(text: str, subject: str | None) -> None:
    inference = infer_anchors(text, FP, subject)
    for anchor in inference.anchors:
        assert parse_anchor(anchor.render()) == anchor
    assert len(inference.origins) == len(inference.anchors)


def _holds(anchor: Anchor) -> bool:
    """Whether a present anchor holds in FP (a plain reading of the anchor's meaning)."""
    scope = anchor.scope
    if anchor.kind is AnchorKind.FILE:
        return FP.has_path(anchor.value) or FP.has_directory(anchor.value)
    if anchor.kind is AnchorKind.SYMBOL:
        if scope:
            return FP.definition(scope, anchor.value) is not None
        return bool(FP.definitions(anchor.value))
    if anchor.kind is AnchorKind.IMPORT:
        paths = [p for p, _ in FP.importers(anchor.value)]
        return any(not scope or p == scope or p.startswith(scope + "/") for p in paths)
    if anchor.kind is AnchorKind.ENV:
        return bool(FP.env_sources(anchor.value))
    if anchor.kind is AnchorKind.TECH:
        return check_anchor(anchor, None, FP).verdict is not Verdict.BROKEN
    return bool(FP.dependency(anchor.value))


def _a_named_thing_the_code_lacks(anchor: Anchor, text: str) -> bool:
    """Absence refutes: a present anchor may break only when the text names a technology,
    a standard-library module, an env name it says is read, or code-shaped text."""
    if anchor.kind is AnchorKind.TECH:
        return by_name(anchor.value) is not None
    if anchor.kind is AnchorKind.IMPORT:
        return (anchor.value in sys.stdlib_module_names or for_import(anchor.value) is not None
                or any(anchor.value in span for span in re.findall(r"`([^`]*)`", text)))
    return anchor.kind in (AnchorKind.ENV, AnchorKind.FILE, AnchorKind.SYMBOL) and (
        anchor.value in text or (anchor.scope or "") in text
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=25).map(" ".join))
def test_an_inferred_present_anchor_holds_unless_it_is_a_trap_or_names_what_the_code_lacks(
    text: str,
) -> None:
    for anchor in infer_anchors(text, FP).anchors:
        if anchor.expect is Expect.PRESENT and not _holds(anchor):
            unscoped = Anchor(anchor.kind, anchor.value, anchor.expect, None, anchor.version)
            trap = anchor.scope is not None and _holds(unscoped)
            assert trap or _a_named_thing_the_code_lacks(anchor, text), anchor


@pytest.mark.parametrize(("text", "subject", "expected"), TABLE)
def test_table_present_anchors_hold_unless_traps_or_named_things_the_code_lacks(
    text: str, subject: str | None, expected: set[str]
) -> None:
    for anchor in infer_anchors(text, FP, subject).anchors:
        if anchor.expect is Expect.PRESENT and not _holds(anchor):
            unscoped = Anchor(anchor.kind, anchor.value, anchor.expect, None, anchor.version)
            trap = anchor.scope is not None and _holds(unscoped)
            assert trap or _a_named_thing_the_code_lacks(anchor, text), anchor


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    infer_anchors(text, FP)
