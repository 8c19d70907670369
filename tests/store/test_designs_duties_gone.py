"""The readers of adr/0060, as plain functions: designs and their poles, the products of
a family and which are one thing, duties and their doers, what a note says is gone, and
the value forms and narrowing words that decide whether two notes are asked about."""

from __future__ import annotations

import pytest

from store.contradictions.designs import designs, languages
from store.contradictions.duties import duties
from store.contradictions.families import members_of, one_thing
from store.contradictions.gone import gone
from store.contradictions.questions import kinds_apart, settings
from store.contradictions.rules import Question
from store.contradictions.values import parse_shares
from store.contradictions.words import variants
from tests.store.test_claims_as_written import pair


@pytest.mark.parametrize(
    ("text", "axis", "pole"),
    [
        ("The API is one monolith.", "deployables", "monolith"),
        ("Each part is deployed independently.", "deployables", "services"),
        ("Tenants share one schema, separated by a tenant_id column.", "tenancy", "pooled"),
        ("The site is a static export.", "rendering", "static"),
        ("Pages are server-side rendered.", "rendering", "server"),
        ("Inference runs on-device.", "inference", "device"),
        ("Services talk only through Kafka events.", "calls", "events"),
        ("The game uses peer-to-peer lockstep; no dedicated server.", "netcode", "peers"),
    ],
)
def test_a_design_is_read_by_its_pole(text: str, axis: str, pole: str) -> None:
    assert (axis, pole) in {(a, p) for a, p, _ in designs(text)}


def test_a_note_holding_both_poles_holds_neither() -> None:
    said = designs("We split the monolith into microservices last year.")
    assert "deployables" not in {axis for axis, _, _ in said}


def test_products_by_family_and_the_names_of_one_thing() -> None:
    found, words = members_of("Firmware runs on Zephyr; CI builds it with GitHub Actions.")
    assert found["rtos"] == frozenset({"zephyr"})
    assert found["ci"] == frozenset({"github actions"})
    assert {"zephyr", "github", "actions"} <= words
    assert members_of("the database")[0] == {}  # the name of a job is no product
    assert one_thing("eks", "kubernetes") and one_thing("retrofit", "okhttp")
    assert not one_thing("zephyr", "freertos")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The `hoist` CLI is written in Go.", "go"),
        ("pkgsync is a Rust binary.", "rust"),
        ("The CLI itself is Rust, built on clap.", "rust"),
        ("Gameplay is pure GDScript.", "gdscript"),
        ("The service is Python.", "python"),
    ],
)
def test_the_language_a_thing_is_written_in(text: str, language: str) -> None:
    assert languages(text) == frozenset({language})


@pytest.mark.parametrize(
    "text", ["We go through the API first.", "Python 3.11 is required.", "It is Node.js based."]
)
def test_no_language_is_read_from_other_words(text: str) -> None:
    assert languages(text) == frozenset()


def test_duties_are_read_by_their_verbs_and_their_doers_by_name_team_or_role() -> None:
    [(duty, doers, nots)] = duties(
        "Checkout alerts page the payments rotation; platform isn't on that path."
    )
    assert duty == "is on call"
    assert "payments" in doers and nots == frozenset({"platform"})
    [(duty, doers, _)] = duties("Only Marcus tags core-api releases.")
    assert duty == "ships releases" and doers == frozenset({"marcus"})
    assert duties("The cache is warmed at boot.") == ()


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Unleash was decommissioned in March.", "Unleash"),
        ("`devtool lint` no longer exists.", "devtool lint"),
        ("Swapped the Fluentd sidecars for Vector.", "Fluentd sidecars"),
        ("Static assets moved off S3/CloudFront to R2.", "S3/CloudFront"),
        ("Writes are no longer batched.", "batched"),
    ],
)
def test_what_a_note_says_is_gone(text: str, name: str) -> None:
    assert name in {said for said, _ in gone(text)}


def test_a_removal_keeps_what_it_was_for() -> None:
    assert gone("We dropped Datadog for metrics.") == (("Datadog", frozenset({"metric"})),)
    assert pair("We dropped Datadog for metrics.", "Logs are shipped to Datadog.") is None


@pytest.mark.parametrize(
    "text",
    [
        "We changed the timeout from 30s to 90s.",
        "The form rejects passwords shorter than twelve characters.",
        "The limit is no longer 100.",
    ],
)
def test_a_value_changed_or_a_check_is_nothing_gone(text: str) -> None:
    assert gone(text) == ()


def test_value_forms_and_narrowing_words() -> None:
    assert parse_shares("routes one request in ten to the canary") == [10.0]
    assert settings("`app/build.gradle` has `minSdk 24`") == {"minsdk": "24"}
    assert settings("`make test` runs the unit tests") == {}
    # a state is no kind: "a failing webhook" is the payment webhook
    assert not kinds_apart(
        "The payment webhook consumer gives up after 5 attempts.",
        "A failing webhook is retried up to eight times.",
    )
    assert kinds_apart("Transactional e-mail is sent.", "Marketing e-mail is sent.")
    assert variants("Minification is on for release builds.") == frozenset({"release"})
    assert variants("It pings the releases endpoint hourly.") == frozenset()


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The sensor firmware runs on Zephyr.", "The sensor firmware is built on FreeRTOS."),
        ("The shop backend is one monolith.", "The shop backend is separate microservices."),
        (
            "The platform team is on call for matchmaking.",
            "Matchmaking alerts page the gameplay rotation; platform isn't on that path.",
        ),
        (
            "Search logs are shipped by a Logstash sidecar in each pod.",
            "Swapped the Logstash sidecars for a Fluent Bit DaemonSet.",
        ),
        ("The `hoist` CLI is written in Go.", "The hoist CLI itself is Rust, built on clap."),
        # products used side by side, for one thing of the project's own
        ("`auth-service` keeps users in Postgres 15.", "auth-service's database is MySQL 8."),
    ],
)
def test_each_rule_asks_and_never_decides(a: str, b: str) -> None:
    assert isinstance(pair(a, b), Question)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Orders are kept in Postgres.", "Events are kept in BigQuery."),
        ("The admin app runs on Heroku.", "The marketing site runs on Vercel."),
        ("Dana maintains the gateway.", "Luis also maintains the gateway."),
        ("We used to deploy with Capistrano.", "Deploys go through Argo CD."),
        ("The iOS app is written in Swift.", "The Android app is written in Kotlin."),
    ],
)
def test_look_alikes_are_left_alone(a: str, b: str) -> None:
    assert pair(a, b) is None
