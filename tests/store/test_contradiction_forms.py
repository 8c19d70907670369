"""Contradictions as agents write them, on plain values with no database: the claim read
out of its context (lead-ins, reasons, who said it), a note of two facts read as two
claims, the verbs of a change (dropped, shut down, switched to, swapped, gone), values
in words (nine, a dozen, weekly, a quarter of an hour, MiB), polarity (imperatives,
flags, properties), who does what (releases, on call, approvals, postmortems, hotfix
branches); a look-alike of each kind is no conflict; and the code's verdict decides a
conflict only on what the conflict is about."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from anchors.spec import Anchor, AnchorKind, Expect, Provenance
from store.contradictions.claims import env_scope
from store.contradictions.resolving import claims_of
from store.contradictions.rules import (
    Claim,
    Conflict,
    ConflictState,
    Question,
    Rated,
    ReasonCode,
    judge,
    resolve,
)
from store.contradictions.slots import Slot, clauses, read_slots, without_context
from store.contradictions.values import Relation, ValueType, compare, parse_value
from store.model import Kind, Memory, RefutedBy, Source, Status, StoredAnchor

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
EVEN = Rated(5.0, 5.0)


def memory(
    mid: str,
    text: str,
    minutes: int,
    status: Status = Status.ACTIVE,
    anchors: tuple[str, ...] = (),
) -> Memory:
    stored = tuple(
        StoredAnchor(Anchor(AnchorKind(kind), value, Expect.PRESENT), Provenance.EXPLICIT)
        for kind, _, value in (a.partition(":") for a in anchors)
    )
    return Memory(
        id=mid,
        text=text,
        subject=None,
        kind=Kind.FACT,
        scope=env_scope(text),
        source=Source.AGENT,
        origin="agent",
        created_at=NOW - timedelta(minutes=minutes),
        commit=None,
        status=status,
        refuted_by=RefutedBy.CODE if status is Status.REFUTED else None,
        origins=("agent",),
        anchors=stored,
    )


def claims(a: str, b: str) -> tuple[Claim, Claim]:
    found = claims_of([memory("m1", a, 10), memory("m2", b, 1)])
    return found["m1"], found["m2"]


def pair(a: str, b: str) -> Conflict | Question | None:
    return judge(*claims(a, b))


def slots(text: str) -> tuple[Slot, ...]:
    return read_slots(text)


def one(text: str) -> Slot:
    (slot,) = [s for s in read_slots(text) if s.named]
    return slot


# -- the claim out of its context --------------------------------------------------------
@pytest.mark.parametrize(
    ("wrapped", "plain"),
    [
        (
            "After debugging the flaky login test with the user, we found the session cookie "
            "expires after 30 minutes, which is why QA sessions get logged out.",
            "The session cookie expires after 30 minutes.",
        ),
        ("Note from today's chat: the session cookie expires after 30 minutes.", None),
        ("Heads up: the session cookie expires after 30 minutes, per the user's notes.", None),
        ("The user said the session cookie expires after 30 minutes.", None),
        ("The session cookie expires after 30 minutes because the user asked for it.", None),
        ("The session cookie expires after 30 minutes, so QA gets logged out.", None),
    ],
)
def test_lead_ins_reasons_and_attributions_leave_the_claims_own_slot(
    wrapped: str, plain: str | None
) -> None:
    expected = one(plain or "The session cookie expires after 30 minutes.")
    slot = one(wrapped)
    assert (slot.attribute, slot.about, slot.value) == (
        expected.attribute,
        expected.about,
        expected.value,
    )


def test_context_is_cut_but_what_narrows_a_claim_is_kept() -> None:
    assert without_context("The API runs 6 replicas after the Black Friday load test") == (
        "The API runs 6 replicas"
    )
    assert "staging" in without_context("The timeout is 30s (staging only)")
    assert "when running in CI" in without_context("The timeout is 30s when running in CI")
    # an environment named only in a reason is not the note's scope
    assert env_scope("The cache TTL is 5 minutes, which is why QA sees stale prices.") is None
    assert env_scope("The cache TTL is 5 minutes on staging.") == "staging"


# -- a note of two facts ------------------------------------------------------------------
def test_a_note_of_two_facts_is_two_claims_each_with_its_subject() -> None:
    text = "The ingest service is written in Rust and reads from events.v1."
    assert clauses(text) == ["The ingest service is written in Rust", "reads from events.v1"]
    written, reads = slots(text)
    assert (written.attribute, written.value.text) == ("written in", "rust")
    assert (reads.attribute, reads.value) == ("read from", parse_value("events.v1"))
    assert written.subject == reads.subject == frozenset({"ingest"})
    assert isinstance(pair(text, "The ingest service is written in Go."), Conflict)
    assert isinstance(pair(text, "The ingest service reads from events.v2."), Question)
    assert pair(text, "The ingest service reads from events.v1 in batches.") is None


def test_one_verb_with_two_subjects_gives_each_its_value() -> None:
    access, refresh = slots("Access tokens are valid for one hour and refresh tokens for 30 days.")
    assert access.attribute == refresh.attribute == "lifetime duration"
    assert access.subject == {"access", "token"} and refresh.subject == {"refresh", "token"}
    found = pair(
        "Access tokens are valid for one hour and refresh tokens for 30 days.",
        "The access token TTL is 15 minutes now.",
    )
    assert isinstance(found, Conflict) and not found.scope_ambiguous
    assert resolve(found, EVEN).reason is ReasonCode.TEMPORAL_SUPERSESSION


# -- the verbs of a change ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Logs are shipped to Datadog.", "We dropped Datadog and switched log shipping to Loki."),
        ("Metrics are scraped by Prometheus.", "We got rid of Prometheus last month."),
        ("Builds run on the Jenkins server.", "We shut down the Jenkins server."),
        ("The old box runs on Heroku.", "We decommissioned Heroku."),
        ("Secrets are stored in HashiCorp Vault.", "Vault was removed; secrets are in AWS SSM."),
        ("Images are stored in S3.", "We swapped S3 for Cloudflare R2 for images."),
        ("The app talks to the GraphQL gateway.", "The GraphQL gateway is gone since March."),
        ("Transactional email is sent through SendGrid.", "SendGrid was cancelled."),
        ("Package management is done with Poetry.", "We switched from Poetry to uv."),
        ("Frontend state is managed with Redux Toolkit.", "We replaced Redux with Zustand."),
        ("CI runs on GitHub Actions.", "We moved CI to GitLab CI."),
        ("The CDN is CloudFront.", "We moved the CDN to Fastly last quarter."),
        ("Schema migrations are managed with Alembic.", "Migrations run with Django, not Alembic."),
    ],
)
def test_each_verb_of_a_change_says_the_old_value_no_longer_holds(old: str, new: str) -> None:
    found = pair(old, new)
    assert found is not None
    assert claims(old, new)[1].states_change or "not Alembic" in new


def test_a_dropped_name_is_read_as_replaced_and_a_moved_to_name_as_the_new_one() -> None:
    (gone,) = slots("We got rid of Prometheus last month.")
    assert gone.attribute == "dropped" and gone.replaces == parse_value("Prometheus")
    moved = one("We moved CI to GitLab CI.")
    assert moved.changed and moved.value.text == "gitlabci" and moved.about == {"ci"}
    swapped = one("We swapped S3 for Cloudflare R2.")
    assert swapped.value.text == "cloudflarer2" and swapped.replaces == parse_value("S3")


def test_a_change_stated_decides_by_recency_and_a_change_not_stated_does_not() -> None:
    found = pair("Backups run at 02:00 UTC.", "Backups were moved to 04:00 UTC.")
    assert isinstance(found, Conflict)
    assert resolve(found, EVEN).reason is ReasonCode.TEMPORAL_SUPERSESSION
    found = pair("Backups run at 02:00 UTC.", "Backups run at 04:00 UTC.")
    assert isinstance(found, Conflict)
    assert resolve(found, EVEN).state is ConflictState.OPEN


# -- values in words ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The cluster has twelve nodes.", "The cluster has 12 nodes."),
        ("The cluster has a dozen nodes.", "The cluster has 12 nodes."),
        ("The sync runs every two weeks.", "The sync runs fortnightly."),
        ("The sync runs bi-weekly.", "The sync runs every 14 days."),
        ("The report is generated weekly.", "The report is generated every 7 days."),
        ("The lock is held for a quarter of an hour.", "The lock is held for 15 minutes."),
        ("The lock is held for an hour.", "The lock is held for 60 minutes."),
        ("The cache is refreshed twice a day.", "The cache is refreshed every 12 hours."),
        ("The body limit is 10 MiB.", "The body limit is 10 MB."),
        ("The CPU alert threshold is ninety percent.", "The CPU alert threshold is 90%."),
    ],
)
def test_values_written_in_words_are_the_same_as_in_digits(a: str, b: str) -> None:
    assert compare(one(a).value, one(b).value) is Relation.SAME
    assert pair(a, b) is None


def test_values_in_words_that_differ_conflict() -> None:
    assert isinstance(
        pair("The cluster has nine nodes.", "The cluster has a dozen nodes."), Conflict
    )
    assert isinstance(
        pair("The sitemap is rebuilt weekly.", "The sitemap is rebuilt daily."), Conflict
    )
    assert parse_value("eighty").amount == 80  # never "eight" and a "y"
    assert parse_value("1,000").amount == 1000


def test_a_fraction_and_a_percentage_without_a_stated_unit_are_not_compared() -> None:
    assert compare(parse_value("0.9"), parse_value("90%")) is Relation.UNKNOWN
    assert not isinstance(
        pair("Success rate must stay above 0.9.", "Success rate must stay above 90%."), Conflict
    )


# -- polarity ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Always squash commits when merging.", "Never squash commits when merging."),
        (
            "Do rebase feature branches before merging.",
            "Don't rebase feature branches before merging.",
        ),
        ("We always run migrations in a transaction.", "Never run migrations in a transaction."),
        ("The import job is idempotent.", "Heads up: the import job is not idempotent."),
        ("Dark mode is turned on for beta users.", "Dark mode is turned off for beta users."),
        ("new_checkout is enabled in prod.", "new_checkout is still off in production."),
        ("DEBUG_WEBHOOKS is set in staging.", "DEBUG_WEBHOOKS=False in staging."),
        ("CSRF protection is disabled for /api.", "All of /api has CSRF protection turned on."),
    ],
)
def test_opposite_polarity_of_one_rule_or_flag_conflicts(a: str, b: str) -> None:
    found = pair(a, b)
    assert found is not None
    sa, sb = one(a), one(b)
    assert sa.value.type is sb.value.type is ValueType.BOOLEAN and sa.value != sb.value


def test_rules_and_properties_of_other_things_do_not_conflict() -> None:
    assert (
        pair(
            "Always squash commits on feature branches.",
            "Never squash commits on release branches.",
        )
        is None
    )
    assert pair("Always squash commits.", "Never force-push to main.") is None
    assert pair("The import job is idempotent.", "The export job is not idempotent.") is None
    assert pair("The import job is idempotent.", "The import job is slow.") is None


# -- who does what -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "attribute"),
    [
        ("Dana cuts the releases.", "Releases are cut by Eve, per the user.", "does cut"),
        (
            "Schema changes are approved by Alice.",
            "Bob approves schema changes now.",
            "does approve",
        ),
        (
            "The postmortem is written by the incident commander.",
            "The on-call engineer writes the postmortem.",
            "does write",
        ),
        ("Priya is on call this week.", "Note: Marco is on call this week.", "on call"),
        (
            "Hotfix branches start from main.",
            "Hotfixes branch off the release branch.",
            "branch from",
        ),
        (
            "The mobile team owns push notifications.",
            "Push notifications are owned by the growth team now.",
            "owner",
        ),
    ],
)
def test_who_does_a_duty_is_one_slot_however_it_is_written(a: str, b: str, attribute: str) -> None:
    sa, sb = one(a), one(b)
    assert sa.attribute == sb.attribute == attribute
    assert sa.value != sb.value
    assert isinstance(pair(a, b), Conflict | Question)


def test_other_duties_and_other_weeks_are_not_a_conflict() -> None:
    assert pair("Dana cuts the releases.", "Eve approves the releases.") is None
    assert pair("Priya is on call this week.", "Marco is on call next week.") is None
    assert pair("Sam is on call for payments.", "Kim is on call for search.") is None


# -- look-alikes of each kind --------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "We dropped Datadog for metrics.",
            "Logs are shipped to Datadog.",
        ),  # change, other subject
        ("We moved the docs site to GitHub Pages.", "The blog is hosted on Netlify."),
        ("We replaced Jenkins with GitHub Actions for CI.", "GitHub Actions runs the CI pipeline."),
        (
            "Password reset links expire after 24 hours.",
            "Email verification links expire after 7 days.",
        ),
        ("We use Redis for caching.", "We also use Redis for the job queue."),  # many-valued
        ("The worker talks to RabbitMQ.", "The worker talks to Postgres."),
        ("Certificates are rotated every 30 days.", "Certificates are rotated monthly."),  # units
        ("The nightly ETL starts at 01:30 UTC.", "The nightly ETL starts at 02:30 CET."),
        ("Rate limiting is disabled on staging.", "Rate limiting is enabled on production."),
        ("Module 1 logs to stderr.", "Module 2 logs to stderr."),  # a number, not a version
        ("Backups are encrypted with KMS.", "Backups are stored in S3 for 30 days."),
    ],
)
def test_a_look_alike_of_each_kind_is_no_conflict(a: str, b: str) -> None:
    assert pair(a, b) is None


# -- the code's verdict, on what the conflict is about -----------------------------------
def _coded(refuted_anchor: str) -> Conflict:
    found = claims_of(
        [
            memory("m1", "E-mail is sent through SendGrid.", 10, Status.REFUTED, (refuted_anchor,)),
            memory(
                "m2", "E-mail is sent through Amazon SES.", 1, Status.VERIFIED, ("import:boto3",)
            ),
        ]
    )
    conflict = judge(found["m1"], found["m2"])
    assert isinstance(conflict, Conflict)
    return conflict


def test_the_code_decides_a_conflict_when_it_refuted_the_note_on_its_slot() -> None:
    decided = resolve(_coded("import:sendgrid"), EVEN)
    assert decided.reason is ReasonCode.CODE_VERDICT and decided.loser == "m1"


def test_a_note_refuted_for_an_incidental_name_does_not_lose_by_the_code() -> None:
    decided = resolve(_coded("file:docs/old_mailer.md"), Rated(1.0, 5.0))
    assert decided.reason is not ReasonCode.CODE_VERDICT
    assert decided.state is ConflictState.OPEN  # no stated change; confidence alone no evidence
