"""What counts as a value a note states (anchors.value_claims): read by form, never a
part of a name, a path or a place in a file."""

from __future__ import annotations

import pytest

from anchors.value_claims import stated_values, uncovered_values, values_checked_by, version_span


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("The maximum page size is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)", ["500"]),
        ("`PAGE_SIZE` defaults to 50", ["50"]),
        ("The image is built FROM python:3.9-slim", ["python:3.9-slim"]),
        ("docker-compose runs postgres:12 for the database", ["postgres:12"]),
        ("CI tests on Python 3.8", ["3.8"]),
        ("Access tokens are signed with RS256", ["RS256"]),
        ("`create_engine` is called with `pool_pre_ping=True`", ["pool_pre_ping=True"]),
        ("The request timeout is 30 s and we retry 3 times", ["30 s", "3"]),
        ("The HTTP API listens on port 8000", ["8000"]),
        ("DEBUG defaults to `False` in settings.py", ["False"]),
        ("Uploads are capped at 10MB", ["10MB"]),
        ("Sampling keeps 5% of traces", ["5%"]),
        ("The session cookie lives 2 weeks", ["2 weeks"]),
        ("WORKERS=4 is set in the Dockerfile", ["WORKERS=4"]),
        ("The log level defaults to `'info'`", ["'info'"]),
        ("We moved to FastAPI in 2023", ["2023"]),
        # a Dockerfile instruction as written in the file, in a sentence about the image
        ("The image drops root: the Dockerfile ends with USER isso.", ["isso"]),
        ("The container's working directory is WORKDIR /srv/app", ["/srv/app"]),
        # a path or a capitalised word after "defaults to"
        ("ISSO_SETTINGS defaults to /etc/isso.cfg when unset", ["/etc/isso.cfg"]),
        ("TIME_ZONE defaults to UTC.", ["UTC"]),
        ("TZ defaults to Europe/Berlin", ["Europe/Berlin"]),
    ],
)
def test_a_value_the_note_states_is_read_by_its_form(text: str, values: list[str]):
    assert [v.text for v in stated_values(text)] == values


@pytest.mark.parametrize(
    "text",
    [
        "The store layer opens DuckDB in store/db.py",
        "We store files on S3 and sign in with OAuth2 through authlib",
        "See app.py:42 and issue #123",
        "billing/v1/api.py defines charge()",
        "It speaks http2 and ipv6, and reads utf-8",
        "Handled in `handlers.v2.dispatch`",
        "1. Run the tests\n2. Tag the release",
        "The check lives on line 12 of checks.py",
        "md5 is not used; sha256 hashes the uploads",
        "Read FROM the table, then USER settings are merged",  # no image named
        "The Dockerfile has no USER directive",
        "Var::get falls back to its default when the variable is unset",
        # a standard's number is its name
        "Timestamps are formatted with humantime's RFC 3339 functions",
        "Dates are written as ISO 8601 strings; the build follows PEP 517",
        "The upgrade fixes CVE-2023-1234 and keeps IEEE 754 doubles",
    ],
)
def test_names_paths_and_places_are_not_values(text: str):
    assert stated_values(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # a file name, a snake_case word, one plain word ending its clause
        ("SSL_CERT_FILE defaults to cert.pem", ["cert.pem"]),
        ("`DISABLED_PROCESSORS` defaults to image_ssim_diff.", ["image_ssim_diff"]),
        ("LOG_LEVEL defaults to info, like the CLI's", ["info"]),
        ("SERVER_MODE defaults to safe-subdomains when unset", ["safe-subdomains"]),
        # empty values, and flags and lists in words
        ("`DISABLED_PROCESSORS` defaults to an empty list.", ["an empty list"]),
        ("The hook falls back to nothing", ["nothing"]),
        ("The public index is on by default (PUBLIC_INDEX).", ["on"]),
        ("CSRF_TRUSTED_ORIGINS is empty by default", ["empty"]),
        ("Snapshots are off unless DISABLE_SNAPSHOTS is set", ["off"]),
        ("USE_X_SETTINGS is unset by default", ["unset"]),
        # an address or a URL is one value
        ("BIND_ADDR defaults to 127.0.0.1:5797.", ["127.0.0.1:5797"]),
        ("The broker URL is redis://localhost:6379/0.", ["redis://localhost:6379/0"]),
        ("LISTEN_HOST defaults to 0.0.0.0", ["0.0.0.0"]),
    ],
)
def test_a_default_in_words_or_as_a_code_word_is_a_value(text: str, values: list[str]):
    found = stated_values(text)
    assert [v.text for v in found] == values
    assert not any(v.default for v in found)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("The backend defaults to the first one", "that it defaults to the first one"),
        ("`DISABLED_PROCESSORS` defaults to every processor but one.",
         "that it defaults to every processor"),
        ("CSRF_TRUSTED_ORIGINS defaults to the value of BASE_URL; see settings",
         "that it defaults to the value of BASE_URL"),
    ],
)  # fmt: skip
def test_whatever_else_a_note_says_a_thing_defaults_to_is_left_unchecked(text: str, phrase: str):
    """A default no reader compares is named as unchecked: the existence of the thing it is
    said of never verifies it."""
    [found] = uncovered_values(text, [])
    assert found.default and found.phrase == phrase


def test_a_version_right_after_a_package_is_the_dependency_anchors_to_check():
    text = "We use httpx>=0.27 and listen on port 8000"
    start = text.index("httpx") + len("httpx")
    assert [v.text for v in uncovered_values(text, [version_span(text, start)])] == ["8000"]
    worded = "Requires django 4.2 or newer, with 3 workers"
    at = worded.index("django") + len("django")
    assert [v.text for v in uncovered_values(worded, [version_span(worded, at)])] == ["3"]


def test_a_given_anchors_version_checks_the_value_it_carries():
    text = "We pin duckdb 1.1 and keep 7 days of backups"
    spans = values_checked_by(text, [">=1.1"])
    assert [v.text for v in uncovered_values(text, spans)] == ["7 days"]


def test_a_name_in_backticks_is_code_the_note_names_not_a_value():
    assert stated_values("There is no `PY2` flag in `_compat.py` any more") == []
    assert [v.text for v in stated_values("`RETRIES` is `3`")] == ["3"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("The nightly backup starts at 04:30 UTC", ["04:30"]),
        ("The release went out on 2024-01-05", ["2024-01-05"]),
        ("Fixed in SHOP-1042, see PAY-7", []),
    ],
)
def test_times_and_dates_are_one_value_and_ticket_keys_none(text: str, values: list[str]):
    assert [v.text for v in stated_values(text)] == values
