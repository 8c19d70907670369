"""The readers behind the questions about settings, counts and things of one kind
(``questions``, ``words``, ``values``): pure functions, no store."""

from __future__ import annotations

import pytest

from store.contradictions.questions import counted, denials, settings, stances
from store.contradictions.values import ValueType, intervals, number_at, parse_quantity
from store.contradictions.words import modifiers, stem, variants


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Cookies use `SameSite=Strict`.", {"samesite": "strict"}),
        ("`server_idle_timeout = 300` in `pgbouncer.ini`", {"serveridletimeout": "300"}),
        ("`fp16: true` in the fine-tuning config", {"fp16": "true"}),
        # a boolean however written, and a setting said to be set
        ("`ENABLE_DEBUG_UART` is set in the release build.", {"enabledebuguart": "true"}),
        ("ships with `ENABLE_DEBUG_UART=0`", {"enabledebuguart": "false"}),
        ("`FEATURE_X` is disabled", {"featurex": "false"}),
        # one named twice with two values says neither
        ("`mode=fast` for reads and `mode=safe` for writes", {}),
        ("Plain prose has no setting in it.", {}),
    ],
)
def test_settings_are_read_by_name_and_value(text: str, expected: dict[str, str]) -> None:
    assert settings(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("samples three thousand prompts from the pool", (("prompt", 3000.0),)),
        ("draws 500 prompts per run", (("prompt", 500.0),)),
        ("holds three dozen products per page", (("product", 36.0),)),
        ("returns at most 50k rows per call", (("row", 50000.0),)),
        ("capped at 10,000 rows", (("row", 10000.0),)),
        # no unit, version, year, clock time, issue or name
        ("times out after 30 seconds", ()),
        ("since the 4.2 app release", ()),
        ("in 2023 releases", ()),
        ("see #212 tickets and v2 clients", ()),
        ("fixed in SHOP-2 reports", ()),
    ],
)
def test_counts_are_a_number_and_the_thing_counted(
    text: str, expected: tuple[tuple[str, float], ...]
) -> None:
    assert counted(text) == expected


def test_digits_grouped_in_thousands_are_read_whole() -> None:
    read = parse_quantity("Max payload is 2,000,000 bytes.")
    assert read is not None
    assert read[0].type is ValueType.SIZE and read[0].amount == 2_000_000


def test_a_thousand_of_things_is_no_kilobyte() -> None:
    assert parse_quantity("returns at most 50k rows per call") is None
    read = parse_quantity("a read buffer of 64k.")
    assert read is not None and read[0].amount == 64 * 1024


def test_modifiers_are_the_word_just_before() -> None:
    assert modifiers("the payments worker timeout") == {
        "worker": frozenset({"payment"}),
        "timeout": frozenset({"worker"}),
    }
    assert modifiers("gunicorn --timeout is 120")["timeout"] == frozenset({"gunicorn"})
    # a word before code is more likely a verb than a kind
    assert "api" not in modifiers("proxy `/api` to the mock backend")


@pytest.mark.parametrize(
    "text",
    [
        "No merging without an approval.",
        "Merging stays blocked until the pipeline is green.",
        "Deploys are never run unless the smoke test passed.",
    ],
)
def test_a_condition_denies_nothing(text: str) -> None:
    assert denials(text) == ()


def test_a_denial_is_still_read() -> None:
    assert denials("The exporter never retries a failed upload.")


def test_locally_is_the_local_environment() -> None:
    assert stem("locally") == "local"
    assert variants("uvicorn runs with two workers locally") == {"local"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Snapshots are taken every six hours.", (21600.0,)),
        ("backed up twice a day, at 02:00 and 14:00", (43200.0,)),
        ("the retrain runs nightly", (86400.0,)),
        ("releases ship every other week", (1209600.0,)),
        ("polls four times a minute", (15.0,)),
        # how long, not how often
        ("Sprints last two weeks.", ()),
        ("100 requests per minute", ()),
    ],
)
def test_intervals_are_how_often(text: str, expected: tuple[float, ...]) -> None:
    assert intervals(text) == expected


def test_hertz_and_thousands_are_rates() -> None:
    hz = parse_quantity("samples the IMU at 200 Hz")
    per_minute = parse_quantity("3k requests per minute per key")
    assert hz is not None and hz[0].type is ValueType.RATE and hz[0].amount == 200
    assert per_minute is not None and per_minute[0].amount == 50


def test_a_number_in_a_name_is_no_count() -> None:
    assert number_at("the primary region is us-east-1") is None
    assert number_at("see #212") is None
    assert number_at("runs 3 replicas") == (3.0, 5, 6)


def test_a_denial_in_a_condition_denies_nothing() -> None:
    assert denials("Pods get 100m CPU if the manifest doesn't set one.") == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Telemetry is opt-in.", (("on by default", False),)),
        (
            "CLI telemetry stays off unless the user sets `TELEMETRY=1`.",
            (("on by default", False),),
        ),
        ("The client reports usage stats by default.", (("on by default", True),)),
        ("It ships enabled; users opt out in Settings.", (("on by default", True),)),
        ("`POST /refunds` is idempotent, so retries are safe.", (("safe to retry", True),)),
        ("Retrying a refund can pay out twice.", (("safe to retry", False),)),
        ("The endpoint has no idempotency protection.", (("safe to retry", False),)),
        # both ways of one property hold neither
        ("Opt-in at first, then users can opt out.", ()),
        ("Nothing here says either.", ()),
    ],
)
def test_stances_are_read_however_written(
    text: str, expected: tuple[tuple[str, bool], ...]
) -> None:
    assert stances(text) == expected
