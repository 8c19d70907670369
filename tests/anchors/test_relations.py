"""Stated places, relations and roles read from prose and checked (issue #31, adr/0025).

The fingerprint is plain fact data (``tests.anchors.test_extract.FP``): ``app/billing.py``
imports httpx and defines ``charge``, ``auth/jwt.py`` reads ``JWT_SECRET`` and defines
``verify``, ``store/db.py`` imports duckdb, ``scrape/pages.py`` imports bs4, and
``DATABASE_URL`` is only declared in ``.env.example``.
"""

from __future__ import annotations

import pytest

from anchors.extract import infer_anchors, read_given
from anchors.facts import Definition, FileFacts
from anchors.fingerprint import CodeSource, facts_from_json, facts_to_json
from anchors.normalize import resolve_anchor
from anchors.relations import role_parts
from anchors.spec import AnchorSyntaxError, parse_anchor
from anchors.subject import resolve_subject, sentence_spans
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.anchors.test_extract import FP
from tests.conftest import GitRepo

R = pytest.param


def _read(text: str) -> tuple[dict[str, str], tuple[str, ...]]:
    """Each anchor read from ``text`` with its verdict, and the parts left unchecked."""
    inference = infer_anchors(text, FP)
    verdicts = {a.render(): check_anchor(a, None, FP).verdict.value for a in inference.anchors}
    return verdicts, inference.uncovered


# -- environment reads claimed for a place ------------------------------------------------
@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        R("env:JWT_SECRET@auth/jwt.py", Verdict.HOLDS, "JWT_SECRET is read in auth/jwt.py",
          id="read-there"),
        R("env:JWT_SECRET@auth", Verdict.HOLDS, "JWT_SECRET is read in auth/jwt.py",
          id="read-under-a-directory"),
        R("env:JWT_SECRET@app/billing.py", Verdict.BROKEN,
          "app/billing.py does not read JWT_SECRET; it is read in auth/jwt.py",
          id="read-elsewhere-says-where"),
        R("env:DATABASE_URL@app/billing.py", Verdict.UNKNOWN,
          "cannot tell whether app/billing.py does", id="declared-only-cannot-tell"),
        R("env:NOPE_NOT_SET@app/billing.py", Verdict.BROKEN,
          "no code reads NOPE_NOT_SET and no .env.example declares it", id="read-nowhere"),
        R("env:JWT_SECRET@README.md", Verdict.UNKNOWN, "README.md is not source code",
          id="not-python-cannot-tell"),
        R("env:JWT_SECRET@app/gone.py", Verdict.BROKEN, "app/gone.py is not in the repository",
          id="no-such-file"),
    ],
)  # fmt: skip
def test_an_env_read_claimed_for_a_place_is_checked_there(
    anchor: str, verdict: Verdict, detail: str
) -> None:
    check = check_anchor(parse_anchor(anchor), None, FP)
    assert (check.verdict, detail in check.detail) == (verdict, True), check.detail


@pytest.mark.parametrize(
    ("text", "scope", "value"),
    [("env:X@app/settings.py", "app/settings.py", None), ("env:X@app/settings.py=5",
      "app/settings.py", "5"), ("!env:X@app", "app", None), ("env:X=a@b.c", None, "a@b.c")],
)  # fmt: skip
def test_an_env_anchor_with_a_place_renders_and_parses_back(
    text: str, scope: str | None, value: str | None
) -> None:
    anchor = parse_anchor(text)
    assert (anchor.value, anchor.scope, anchor.stated) == ("X", scope, value)
    assert parse_anchor(anchor.render()) == anchor


def test_an_env_anchor_place_is_resolved_like_an_import_place() -> None:
    assert resolve_anchor("env:JWT_SECRET@jwt.py", FP).anchor.render() == (
        "env:JWT_SECRET@auth/jwt.py"
    )
    with pytest.raises(AnchorSyntaxError, match="no tracked file"):
        resolve_anchor("env:JWT_SECRET@jwtt.py", FP)


# -- definitions claimed for a place ------------------------------------------------------
@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        R("symbol:app/other.py::charge", Verdict.BROKEN,
          "app/other.py does not define charge; it is defined in app/billing.py:1",
          id="file-says-where-it-is"),
        R("symbol:app::charge", Verdict.HOLDS, "app/billing.py defines charge",
          id="directory-holding-it"),
        R("symbol:auth::charge", Verdict.BROKEN,
          "no file in auth/ defines charge; it is defined in app/billing.py:1",
          id="directory-lacking-it"),
    ],
)  # fmt: skip
def test_a_definition_claimed_for_a_place_is_checked_there(
    anchor: str, verdict: Verdict, detail: str
) -> None:
    check = check_anchor(parse_anchor(anchor), None, FP)
    assert (check.verdict, detail in check.detail) == (verdict, True), check.detail


def test_a_dotted_name_in_the_wrong_module_is_kept_there_not_rejected() -> None:
    assert resolve_anchor("symbol:app.other.charge", FP).anchor.render() == (
        "symbol:app/other.py::charge"
    )
    with pytest.raises(AnchorSyntaxError, match="does not define"):
        resolve_anchor("symbol:app.other.chargee", FP)  # a typo: defined nowhere


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        R("`charge` is implemented in `app/other.py`",
          {"symbol:app/other.py::charge": "broken", "file:app/other.py": "holds"},
          id="implemented-in-the-wrong-file"),
        R("`charge` is in `app/other.py`",
          {"symbol:app/other.py::charge": "broken", "file:app/other.py": "holds"},
          id="is-in-the-wrong-file"),
        R("`charge` lives in the `auth` package",
          {"symbol:auth::charge": "broken"}, id="wrong-package"),
        R("`charge` lives in the `app` package",
          {"symbol:app/billing.py::charge": "holds"}, id="right-package"),
        # looser spellings of the same place resolve as before
        R("`verify` is implemented in `jwt.py:7`",
          {"symbol:auth/jwt.py::verify": "holds", "file:auth/jwt.py": "holds"},
          id="a-unique-base-name-and-a-line"),
        R("`verify` is implemented in `./auth/jwt.py`",
          {"symbol:auth/jwt.py::verify": "holds", "file:auth/jwt.py": "holds"},
          id="a-leading-dot-slash"),
        R("The `verify` helper lives in auth.jwt",
          {"symbol:auth/jwt.py::verify": "holds", "file:auth/jwt.py": "holds"},
          id="a-dotted-module"),
        R("`verify` is implemented in `billing.py`",
          {"symbol:app/billing.py::verify": "broken", "file:app/billing.py": "holds"},
          id="a-unique-base-name-of-the-wrong-file"),
        R("`app/billing.py` reads JWT_SECRET",
          {"file:app/billing.py": "holds", "env:JWT_SECRET@app/billing.py": "broken"},
          id="env-read-in-the-wrong-file"),
        R("`auth/jwt.py` reads JWT_SECRET",
          {"file:auth/jwt.py": "holds", "env:JWT_SECRET@auth/jwt.py": "holds"},
          id="env-read-in-the-right-file"),
        R("`config/loader.py` imports PyYAML",
          {"file:config/loader.py": "holds", "import:yaml@config/loader.py": "holds"},
          id="a-distribution-name-is-its-import-name"),
    ],
)  # fmt: skip
def test_a_place_stated_in_prose_is_the_anchor_s_scope(
    text: str, expected: dict[str, str]
) -> None:
    assert _read(text)[0] == expected


# -- relations ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected", "part"),
    [
        R("The billing code calls out with httpx", {"import:httpx@app/billing.py": "holds"},
          None, id="component-resolves-and-imports-it"),
        R("Pages are parsed with bs4", {"import:bs4@scrape/pages.py": "holds"}, None,
          id="plural-noun-names-the-file"),
        R("Pages are parsed with httpx", {"tech:httpx": "holds"},
          "that pages are parsed with httpx", id="component-resolves-but-does-not-import-it"),
        R("Tokens are checked with PyYAML (config/loader.py)",
          {"import:yaml@config/loader.py": "holds", "file:config/loader.py": "holds"}, None,
          id="a-path-the-sentence-names"),
        R("Tokens are checked with httpx (config/loader.py)",
          {"tech:httpx": "holds", "file:config/loader.py": "holds"},
          "that tokens are checked with httpx", id="a-path-the-sentence-names-lacks-it"),
        R("Encoding detection uses httpx", {"tech:httpx": "holds"},
          "that encoding detection uses httpx", id="component-resolves-nowhere"),
        R("Thumbnails are resized with httpx, and the loader retries with httpx",
          {"tech:httpx": "holds"}, "that thumbnails are resized with httpx",
          id="one-part-per-subject"),
    ],
)  # fmt: skip
def test_a_library_a_component_uses_is_checked_in_it_or_left_unchecked(
    text: str, expected: dict[str, str], part: str | None
) -> None:
    verdicts, uncovered = _read(text)
    assert verdicts == expected
    assert (part in uncovered) if part else not uncovered, uncovered


@pytest.mark.parametrize(
    "text",
    [
        R("We use httpx", id="we"),
        R("The project depends on httpx", id="the-project"),
        R("Our API uses httpx", id="the-api"),
        R("The web app is built on httpx", id="the-web-app"),
        R("The docs build with httpx", id="tooling"),
        R("It uses httpx", id="a-pronoun"),
        R("httpx is used for outgoing calls", id="the-library-is-the-subject"),
        R("Sessions are stored in DuckDB", id="a-system-not-a-library"),
        R("pyproject.toml requires httpx", id="a-manifest-declares"),
    ],
)
def test_the_project_its_tooling_and_systems_are_not_components(text: str) -> None:
    assert not [u for u in _read(text)[1] if u.startswith("that ")]


# -- roles ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "parts"),
    [
        R("`MailBackend` in `accounts/backends.py` is the SMTP backend that sends our mail",
          ["that `MailBackend` is the SMTP backend that sends our mail"], id="role-of-a-class"),
        R("`verify` is the function that checks JWT signatures",
          ["that `verify` is the function that checks JWT signatures"], id="kind-and-a-role"),
        R("`BadParameter` is a `UsageError` subclass", ["that `BadParameter` is a `UsageError` "
          "subclass"], id="a-base-class"),
        R("`verify` is a function in `auth/jwt.py`", [], id="a-kind-and-a-place"),
        R("`ProgressBar` is the `ProgressBar` class", [], id="an-identity"),
        R("`verify` is defined in `auth/jwt.py`", [], id="existence"),
        R("If `verify` is the token checker we should say so", [], id="a-condition"),
        R("Is `verify` the token checker?", [], id="a-question"),
        R("`MAX_RETRIES` is the 3 we chose", [], id="a-value-not-a-role"),
    ],
)  # fmt: skip
def test_a_role_given_to_a_code_name_is_an_unchecked_part(text: str, parts: list[str]) -> None:
    assert role_parts(text, list(sentence_spans(text))) == parts


# -- given anchors --------------------------------------------------------------------------
def test_a_given_anchor_without_a_place_takes_the_place_the_text_states() -> None:
    given = (parse_anchor("symbol:charge"), parse_anchor("env:JWT_SECRET"))
    text = "`charge` is implemented in `app/other.py`"
    bound, parts = read_given(text, FP, None, resolve_subject(None, text, FP), given)
    assert [a.render() for a in bound] == ["symbol:app/other.py::charge", "env:JWT_SECRET"]
    assert parts == []


def test_a_given_project_wide_anchor_leaves_the_relation_and_the_role_unchecked() -> None:
    _, parts = read_given("Encoding detection uses httpx", FP, None, None,
                          (parse_anchor("tech:httpx"),))  # fmt: skip
    assert parts == ["that encoding detection uses httpx"]
    _, parts = read_given("Encoding detection uses httpx", FP, None, None,
                          (parse_anchor("import:httpx@app/billing.py"),))  # fmt: skip
    assert parts == []


# -- a base class is a role the code can check -----------------------------------------------
BASES = {
    "pyproject.toml": '[project]\nname = "cli"\n',
    "cli/__init__.py": "",
    "cli/exceptions.py": (
        "class UsageError(Exception):\n    pass\n\n\n"
        "class BadParameter(UsageError):\n    pass\n\n\n"
        "class Abort(RuntimeError, metaclass=type):\n    pass\n"
    ),
}


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        R("`BadParameter` is a `UsageError` subclass in exceptions.py.", [], id="it-derives"),
        R("`BadParameter` is a subclass of `UsageError`.", [], id="subclass-of"),
        R("`Abort` is a `UsageError` subclass.", ["that `Abort` is a `UsageError` subclass"],
          id="it-does-not-derive"),
        R("`Abort` is a `RuntimeError` subclass that stops the command.",
          ["that `Abort` is a `RuntimeError` subclass that stops the command"],
          id="a-base-and-a-role"),
    ],
)  # fmt: skip
def test_a_base_class_the_code_names_covers_the_role(
    git_repo: GitRepo, source: CodeSource, text: str, parts: list[str]
) -> None:
    git_repo.commit(BASES, "exceptions")
    fp = source.fingerprint()
    assert fp.definitions("BadParameter")[0][1].bases == ("UsageError",)
    assert fp.definitions("Abort")[0][1].bases == ("RuntimeError",)
    assert [u for u in infer_anchors(text, fp).uncovered if u.startswith("that ")] == parts


def test_a_class_s_bases_survive_the_facts_cache() -> None:
    facts = FileFacts(definitions=(Definition("A", "h1", 1, ("B", "C")), Definition("f", "h2", 4)))
    assert facts_from_json(facts_to_json(facts)) == facts
