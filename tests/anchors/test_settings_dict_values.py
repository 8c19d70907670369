"""Values of settings dicts and environment defaults read in several places (issue #31):
an environment variable read with a literal default in one place and a computed one in
another, a value a named file sets a dict entry to, a key named alone, and the arithmetic
of number literals folded to the number it makes. On a real git repository."""

from __future__ import annotations

import pytest

from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.literals import same_value, typed_value
from anchors.pyfacts import extract_file_facts
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

APP = {
    "app/__init__.py": (
        "from app.core import DEFAULT_SETTINGS as CORE\n\n"
        "DEFAULT_SETTINGS = {\n"
        '    "retry_after_seconds": 3,\n'
        '    "project_name": "shop",\n'
        "}\n"
    ),
    "app/core/__init__.py": (
        "DEFAULT_SETTINGS = {\n"
        '    "retry_after_seconds": 30,\n'
        '    "pagination_token_validity_seconds": 10 * 60,\n'
        '    "max_upload_bytes": 1024 * 1024,\n'
        '    "session_ttl": 10 * 60 * 1000,\n'
        '    "history_days": 60 * 60 * 24 // 3600,\n'
        "}\n"
    ),
    # one variable read in two places: a literal default in the command line, a computed
    # one in a helper; another read with a literal default in both
    "app/__main__.py": (
        "import os\n\n"
        'DEFAULT_CONFIG_FILE = os.getenv("APP_INI", "config/app.ini")\n'
        'PORT = int(os.getenv("APP_PORT", "8000"))\n'
    ),
    "app/config/__init__.py": (
        "import os\n\n\n"
        "def ini_path():\n"
        '    return os.environ.get("APP_INI", os.path.join(".", "config", "app.ini"))\n\n\n'
        "def port():\n"
        '    return int(os.environ.get("APP_PORT", "8080"))\n'
    ),
}


@pytest.fixture(scope="module")
def fp(tmp_path_factory: pytest.TempPathFactory) -> Fingerprint:
    repo = GitRepo(tmp_path_factory.mktemp("repo"))
    repo.commit(APP, "an application with settings dicts")
    with CodeSource(repo.root, InMemoryFactsCache()) as source:
        return source.fingerprint()


def _check(anchor: str, fp: Fingerprint) -> tuple[Verdict, str]:
    check = check_anchor(parse_anchor(anchor), None, fp)
    return check.verdict, check.detail


def _values(text: str, fp: Fingerprint) -> list[str]:
    return [a.render() for a in infer_anchors(text, fp).anchors if a.stated is not None]


# -- environment defaults read in more than one place ---------------------------------------
def test_a_literal_default_at_one_read_site_holds_though_another_computes_its_own(
    fp: Fingerprint,
) -> None:
    verdict, detail = _check("env:APP_INI=config/app.ini", fp)
    assert verdict is Verdict.HOLDS, detail
    assert detail == ('`APP_INI` defaults to `"config/app.ini"` at app/__main__.py:3; '
                      "app/config/__init__.py:5 computes its own")  # fmt: skip


def test_another_literal_where_the_other_site_computes_is_unknown_never_refuted(
    fp: Fingerprint,
) -> None:
    verdict, detail = _check("env:APP_INI=config/other.ini", fp)
    assert verdict is Verdict.UNKNOWN, detail
    assert "app/config/__init__.py:5 computes APP_INI default" in detail
    assert 'app/__main__.py:3 gives "config/app.ini"' in detail


def test_a_default_no_read_site_gives_is_refuted_when_every_site_gives_a_literal(
    fp: Fingerprint,
) -> None:
    verdict, detail = _check("env:APP_PORT=9000", fp)
    assert verdict is Verdict.BROKEN, detail
    assert detail == ('app/__main__.py:4 gives APP_PORT the default "8000", not 9000 '
                      "(and 1 more read sites)")  # fmt: skip
    for stated, site in (("8000", "app/__main__.py:4"), ("8080", "app/config/__init__.py:9")):
        verdict, detail = _check(f"env:APP_PORT={stated}", fp)
        assert verdict is Verdict.HOLDS, detail
        assert detail.startswith(f'`APP_PORT` defaults to `"{stated}"` at {site}'), detail


def test_a_scoped_default_counts_only_the_read_sites_in_its_scope(fp: Fingerprint) -> None:
    assert _check("env:APP_PORT@app/config=8080", fp)[0] is Verdict.HOLDS
    verdict, detail = _check("env:APP_PORT@app/__main__.py=8080", fp)
    assert verdict is Verdict.BROKEN, detail
    assert detail == 'app/__main__.py:4 gives APP_PORT the default "8000", not 8080'
    verdict, detail = _check("env:APP_INI@app/config/__init__.py=config/app.ini", fp)
    assert verdict is Verdict.UNKNOWN, detail


def test_prose_binds_the_fallback_and_a_named_place_scopes_it(fp: Fingerprint) -> None:
    note = "The CLI reads its ini path from APP_INI and falls back to config/app.ini."
    assert _values(note, fp) == ["env:APP_INI=config/app.ini"]
    placed = "The port defaults to 8080 (`APP_PORT` in `app/config`)."
    assert _values(placed, fp) == ["env:APP_PORT@app/config=8080"]


# -- a value a named file sets a settings dict's entry to -----------------------------------
@pytest.mark.parametrize(
    ("note", "anchor", "verdict", "detail"),
    [
        ("The app overrides retry_after_seconds to 3 in app/__init__.py.",
         "symbol:app/__init__.py::DEFAULT_SETTINGS.retry_after_seconds=3", Verdict.HOLDS,
         "`DEFAULT_SETTINGS.retry_after_seconds = 3` at app/__init__.py:4"),
        ("The app overrides retry_after_seconds to 5 in app/__init__.py.",
         "symbol:app/__init__.py::DEFAULT_SETTINGS.retry_after_seconds=5", Verdict.BROKEN,
         "app/__init__.py:4 sets DEFAULT_SETTINGS.retry_after_seconds = 3, not 5"),
        ("The core defaults set retry_after_seconds to 3 in app/core/__init__.py.",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.retry_after_seconds=3", Verdict.BROKEN,
         "app/core/__init__.py:2 sets DEFAULT_SETTINGS.retry_after_seconds = 30, not 3"),
        ("The core sets `retry_after_seconds` to 30 in app/core/__init__.py",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.retry_after_seconds=30", Verdict.HOLDS,
         "`DEFAULT_SETTINGS.retry_after_seconds = 30` at app/core/__init__.py:2"),
    ],
)  # fmt: skip
def test_a_value_a_named_file_sets_is_checked_against_its_own_entry(
    fp: Fingerprint, note: str, anchor: str, verdict: Verdict, detail: str
) -> None:
    assert _values(note, fp) == [anchor]
    assert _check(anchor, fp) == (verdict, detail)


@pytest.mark.parametrize(
    "note",
    [
        "You can override retry_after_seconds to 10 in app/__init__.py.",  # a possibility
        "Set retry_after_seconds to 10 in app/__init__.py to slow clients.",  # an instruction
        "To slow clients, set retry_after_seconds to 10 in app/__init__.py.",
        "The app overrides retry_after_seconds to 10 in production.",  # a deployment's
        "The app overrides retry_after_seconds to 10 in app/__main__.py.",  # not assigned there
        "Clients are told to retry after 3 seconds (retry_after_seconds).",  # two dicts
        "The retry delay is 30 (`retry_after_seconds`).",  # two dicts, no file named
    ],
)
def test_no_value_is_bound_where_the_entry_meant_cannot_be_told(fp: Fingerprint, note: str) -> None:
    assert _values(note, fp) == []


# -- a key named alone, and arithmetic of number literals -----------------------------------
@pytest.mark.parametrize(
    ("note", "anchor", "verdict", "detail"),
    [
        ("Pagination tokens stay valid for 10 minutes (pagination_token_validity_seconds).",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.pagination_token_validity_seconds=600",
         Verdict.HOLDS,
         "`DEFAULT_SETTINGS.pagination_token_validity_seconds = 10 * 60` at "
         "app/core/__init__.py:3"),
        ("Pagination tokens stay valid for 5 minutes (pagination_token_validity_seconds).",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.pagination_token_validity_seconds=300",
         Verdict.BROKEN,
         "app/core/__init__.py:3 sets DEFAULT_SETTINGS.pagination_token_validity_seconds = "
         "10 * 60, not 300"),
        ("The upload limit is 1048576 (`max_upload_bytes`).",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.max_upload_bytes=1048576",
         Verdict.HOLDS,
         "`DEFAULT_SETTINGS.max_upload_bytes = 1024 * 1024` at app/core/__init__.py:4"),
        ("History is kept for 24 days (`history_days`).",
         "symbol:app/core/__init__.py::DEFAULT_SETTINGS.history_days=24", Verdict.HOLDS,
         "`DEFAULT_SETTINGS.history_days = 60 * 60 * 24 // 3600` at app/core/__init__.py:6"),
    ],
)  # fmt: skip
def test_a_key_named_alone_is_its_one_dict_entry_and_its_arithmetic_is_folded(
    fp: Fingerprint, note: str, anchor: str, verdict: Verdict, detail: str
) -> None:
    assert _values(note, fp) == [anchor]
    assert _check(anchor, fp) == (verdict, detail)


def test_a_duration_for_a_key_whose_unit_cannot_be_told_stays_unchecked(fp: Fingerprint) -> None:
    # ``10 * 60 * 1000`` is ten minutes in milliseconds: "10 minutes" is not compared as 600
    assert _values("Sessions last 10 minutes (`session_ttl`).", fp) == []


@pytest.mark.parametrize(
    ("source", "text"),
    [
        (b"X = 10 * 60\n", "10 * 60"), (b"X = (5*60) + 30\n", "(5 * 60) + 30"),
        (b"X = (\n    10\n    * 60\n)\n", "(10 * 60)"), (b"X = 60*60-1\n", "60 * 60 - 1"),
        (b"X = 2 ** 10\n", "2 ** 10"), (b"X = -1 * 3\n", "-1 * 3"),
        # computed: a name, a string, an operator that is no arithmetic, what folds to no number
        (b"X = MINUTE * 60\n", None), (b"X = 'a' * 3\n", None), (b"X = 10 % 3\n", None),
        (b"X = ~5 * 3\n", None), (b"X = 1 / 0\n", None), (b"X = 10 ** 1000\n", None),
        (b"X = (10)\n", None),
    ],
)  # fmt: skip
def test_the_facts_keep_arithmetic_of_number_literals_on_one_line(
    source: bytes, text: str | None
) -> None:
    [value] = [v for v in extract_file_facts(source, "app/x.py").constants if v.name == "X"]
    assert value.text == text


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("10 * 60", "600", True), ("60 * 60 * 24", "86400", True), ("1024 * 1024", "1048576", True),
        ("(5 * 60) + 30", "330", True), ("10 * 60", "60", False), ("10 * 60", "'600'", True),
        # written as a note means it, never arithmetic ("24*60*60" is, however spaced)
        ("3-5", "-2", False), ("2024-01-01", "2022", False), ('"10 * 60"', "600", False),
        ("10*60", "600", True), ("24/7", "3.43", False), ("config/app.ini", "config / app.ini",
                                                         False),
    ],
)  # fmt: skip
def test_arithmetic_as_the_facts_spell_it_is_the_number_it_makes(
    a: str, b: str, same: bool
) -> None:
    assert same_value(a, b) is same
    assert same_value(b, a) is same


def test_a_folded_value_is_a_number_and_a_zero_divisor_is_no_fold() -> None:
    assert typed_value("60 * 60 - 1") == 3599.0
    assert typed_value("1 / 0") == "1 / 0"


def test_a_key_placed_in_a_file_that_does_not_hold_it_is_not_another_files_entry(
    fp: Fingerprint,
) -> None:
    placed = "The upload limit is 1048576 (`max_upload_bytes` in `app/__init__.py`)."
    assert _values(placed, fp) == []
    right = "The upload limit is 1048576 (`max_upload_bytes` in `app/core/__init__.py`)."
    assert _values(right, fp) == [
        "symbol:app/core/__init__.py::DEFAULT_SETTINGS.max_upload_bytes=1048576"
    ]
    env = "The port defaults to 8080 (`APP_PORT` in `app/config/__init__.py`)."
    assert _values(env, fp) == ["env:APP_PORT@app/config/__init__.py=8080"]
