"""The claim model on plain values, with no database: typed values and when they are the
same, the slot a note fills (subject, qualifiers, attribute, value), the judgement of a
pair, temporal supersession only on a stated change, and the plan of an agent's verdict."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from store.contradictions.judging import Judgement, judgement_plan
from store.contradictions.resolving import claims_of, settle
from store.contradictions.rules import (
    Conflict,
    ConflictKind,
    ConflictState,
    Outcome,
    Question,
    Rated,
    ReasonCode,
    Rule,
    judge,
    resolve,
)
from store.contradictions.slots import Match, read_slots, relate
from store.contradictions.values import Relation, Value, ValueType, compare, parse_value
from store.errors import InvalidInput
from store.evidence.settings import EvidenceSettings
from store.model import AuditAction, Kind, Memory, RefutedBy, Source, Status
from store.plan import ConflictRecord

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SETTINGS = EvidenceSettings()


def value_of(text: str) -> Value:
    (slot,) = read_slots(text)
    return slot.value


# -- values ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Sessions expire after 90 minutes.", "Sessions expire after an hour and a half."),
        ("The worker memory limit is 4096 MB.", "The worker memory limit is 4 GB."),
        ("The lock timeout is half a minute.", "The lock timeout is 30 seconds."),
        ("Audit events are kept for 12 months.", "Audit events are kept for a year."),
        ("The report goes out at 18:00.", "The report goes out at 6 pm."),
        ("The refresh starts at 07:00 CET.", "The refresh starts at 06:00 UTC."),
        ("The rate limit is 60 requests per minute.", "The rate limit is 1 request per second."),
        ("The cleanup job runs every 24 hours.", "The cleanup job runs daily."),
        ("The API runs 4 gunicorn workers.", "The API runs four gunicorn workers."),
    ],
)
def test_equivalent_values_written_in_other_units_are_the_same(a: str, b: str):
    assert compare(value_of(a), value_of(b)) is Relation.SAME


@pytest.mark.parametrize(
    ("raw", "kind", "amount"),
    [
        ("15 minutes", ValueType.DURATION, 900),
        ("1h30", ValueType.DURATION, 5400),
        ("25 MB", ValueType.SIZE, 25 * 2**20),
        ("07:30", ValueType.CLOCK, 450),
        ("9pm", ValueType.CLOCK, 1260),
        ("12", ValueType.COUNT, 12),
        ("80%", ValueType.PERCENT, 80),
    ],
)
def test_values_are_typed_and_normalised(raw: str, kind: ValueType, amount: float):
    value = parse_value(raw)
    assert value.type is kind and value.amount == pytest.approx(amount)


def test_a_version_and_a_more_precise_one_are_compatible_and_other_types_are_unknown():
    assert compare(parse_value("3.12"), parse_value("3.12.4")) is Relation.COMPATIBLE
    assert compare(parse_value("3.11"), parse_value("3.12")) is Relation.EXCLUSIVE
    assert compare(parse_value("30"), parse_value("30 seconds")) is Relation.UNKNOWN
    assert compare(parse_value("07:30"), parse_value("08:30 CET")) is Relation.UNKNOWN


# -- slots ------------------------------------------------------------------------------
def test_a_slot_has_its_subject_its_qualifiers_its_attribute_and_a_typed_value():
    (slot,) = read_slots("The request timeout is 10 s for the public API.")
    assert slot.attribute == "timeout duration" and slot.value.amount == 10
    assert "request" in slot.subject and {"public", "api"} <= slot.qualifiers


@pytest.mark.parametrize(
    ("a", "b", "match"),
    [
        (
            "The timeout is 10 s for the public API.",
            "The timeout is 60 s for batch jobs.",
            "different",
        ),
        ("The staging API uses HTTP.", "The production API uses HTTPS.", "different"),
        ("Pushes go through APNs for iOS.", "Pushes go through FCM for Android.", "different"),
        (
            "The request timeout is 30 s.",
            "The request timeout is 90 s for batch jobs.",
            "ambiguous",
        ),
        ("The report e-mail goes out at 07:30.", "The report email is sent at 09:00.", "same"),
    ],
)
def test_qualifiers_that_differ_make_different_subjects(a: str, b: str, match: str):
    (sa,), (sb,) = read_slots(a), read_slots(b)
    assert relate(sa, sb) is Match(match)


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("Priya owns the billing service.", "owner"),
        ("The billing service is owned by Tom.", "owner"),
        ("E-mail is sent through SendGrid.", "sent via"),
        ("Audit events are retained for 6 months.", "retention duration"),
        ("Redis runs on port 6379.", "port"),
        ("We run 12 gunicorn workers for the API.", "count worker"),
        ("MAX_UPLOAD_MB is 20.", "setting max_upload_mb"),
        ("Our Postgres version is 16.", "postgre version"),
        ("Deploys happen on Tuesdays.", "day"),
    ],
)
def test_the_attribute_is_read_from_how_people_write_it(text: str, attribute: str):
    assert read_slots(text)[0].attribute == attribute


# -- judging a pair -----------------------------------------------------------------------
def memory(mid: str, text: str, minutes: int, origin: str = "agent") -> Memory:
    return Memory(
        id=mid,
        text=text,
        subject=None,
        kind=Kind.FACT,
        scope=None,
        source=Source.AGENT,
        origin=origin,
        created_at=NOW - timedelta(minutes=minutes),
        commit=None,
        status=Status.ACTIVE,
        origins=(origin,),
    )


def pair(a: str, b: str, origin: str = "agent") -> Conflict | Question | None:
    claims = claims_of([memory("m1", a, 10, origin), memory("m2", b, 1, origin)])
    return judge(claims["m1"], claims["m2"])


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Access tokens live for 15 minutes.", "Access tokens live for one hour."),
        ("Priya owns the billing service.", "Tom owns the billing service."),
        ("Background jobs are queued in RabbitMQ.", "Background jobs are queued in SQS."),
        ("The dev server listens on port 8000.", "The dev server listens on port 3000."),
        ("Two-factor auth is required for admins.", "Two-factor auth is optional for admins."),
        ("The web app is deployed to Heroku.", "The web app moved to Fly.io instead of Heroku."),
    ],
)
def test_a_conflict_is_one_subject_and_attribute_with_exclusive_values(a: str, b: str):
    found = pair(a, b)
    assert isinstance(found, Conflict) and not found.scope_ambiguous


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The billing service uses Stripe.", "The billing service uses PayPal."),
        ("Logs are shipped to Loki.", "Logs are also shipped to S3 for archiving."),
        ("The orders database uses Postgres 16.", "The analytics database uses Postgres 13."),
        ("The EU cluster has 5 replicas.", "The US cluster has 3 replicas."),
        ("Access tokens live for 15 minutes.", "Access tokens are signed with RS256."),
    ],
)
def test_look_alikes_are_not_conflicts(a: str, b: str):
    assert pair(a, b) is None


def test_a_pair_the_rules_cannot_decide_is_a_question():
    found = pair(
        "We use SendGrid for transactional e-mail.", "We use Mailgun for transactional e-mail."
    )
    assert isinstance(found, Question)


def test_recency_decides_only_a_stated_change_or_a_named_author_updating_itself():
    unnamed = pair("Tokens are signed with HS256.", "Tokens are signed with RS256.")
    assert isinstance(unnamed, Conflict)
    even = Rated(5.0, 5.0)  # two notes with no evidence yet: the neutral 5.0 each
    assert resolve(unnamed, even).reason is ReasonCode.TOO_CLOSE  # two notes by "agent"
    stated = pair("Tokens are signed with HS256.", "Tokens are now signed with RS256.")
    assert isinstance(stated, Conflict)
    assert resolve(stated, even).reason is ReasonCode.TEMPORAL_SUPERSESSION
    named = pair("Tokens are signed with HS256.", "Tokens are signed with RS256.", "alice")
    assert isinstance(named, Conflict)
    assert resolve(named, even).winner == "m2"


def test_a_pair_judged_by_an_agent_is_never_judged_again_by_the_rules():
    a = memory("m1", "Access tokens live for 15 minutes.", 10)
    b = memory("m2", "Access tokens live for one hour.", 1)
    claims = claims_of([a, b])
    judged = judgement_plan(
        a,
        b,
        Judgement.COMPATIBLE,
        None,
        "web and mobile",
        "alice",
        ConflictKind.SLOT,
        NOW,
        SETTINGS,
    ).conflicts[0]
    plan, found = settle(
        [(claims["m1"], claims["m2"])], {"m1": a, "m2": b}, {("m1", "m2"): judged}, NOW, SETTINGS
    )
    assert plan.empty and found == []


# -- the plan of a verdict ----------------------------------------------------------------
def _judged(verdict: Judgement, winner: str | None = None) -> tuple[ConflictRecord, object]:
    a, b = memory("m1", "x is 1", 10), memory("m2", "x is 2", 1)
    plan = judgement_plan(a, b, verdict, winner, "why", "alice", ConflictKind.SLOT, NOW, SETTINGS)
    assert [(e.memory_id, e.action, e.actor) for e in plan.events] == [
        ("m1", AuditAction.RESOLVE, "alice"),
        ("m2", AuditAction.RESOLVE, "alice"),
    ]
    (row,) = plan.conflicts
    assert row.rule is Rule.JUDGEMENT and row.state is ConflictState.RESOLVED
    return row, plan


def test_a_conflict_verdict_refutes_the_loser_by_correction():
    row, plan = _judged(Judgement.CONFLICT, "m2")
    assert (row.winner, row.loser, row.outcome) == ("m2", "m1", Outcome.REFUTED)
    (change,) = plan.changes  # type: ignore[attr-defined]
    assert change.memory_id == "m1" and change.refuted_by is RefutedBy.CORRECTION
    assert change.actor == "alice" and change.receipt.cause_id == "m2"


def test_compatible_changes_nothing_and_same_records_a_restatement():
    row, plan = _judged(Judgement.COMPATIBLE)
    assert row.outcome is Outcome.KEPT_BOTH and row.reason_code is ReasonCode.JUDGED_COMPATIBLE
    assert not plan.changes and not plan.observations  # type: ignore[attr-defined]
    row, plan = _judged(Judgement.SAME)
    assert row.outcome is Outcome.MERGED and not plan.changes  # type: ignore[attr-defined]
    (obs,) = plan.observations  # type: ignore[attr-defined]
    assert obs.memory_id == "m1" and obs.agrees


@pytest.mark.parametrize(
    ("verdict", "winner", "second"),
    [
        (Judgement.CONFLICT, None, "m2"),
        (Judgement.CONFLICT, "m9", "m2"),
        (Judgement.SAME, "m1", "m2"),
        (Judgement.COMPATIBLE, None, "m1"),
    ],
)
def test_a_verdict_that_does_not_fit_the_pair_is_refused(
    verdict: Judgement, winner: str | None, second: str
):
    a = memory("m1", "x is 1", 10)
    b = a if second == "m1" else memory("m2", "x is 2", 1)
    with pytest.raises(InvalidInput):
        judgement_plan(a, b, verdict, winner, "why", "alice", ConflictKind.SLOT, NOW, SETTINGS)


@pytest.mark.parametrize(
    "text", ["the release day is weds", "Deploy day: thurs", "Our standup day moved to tues"]
)
def test_a_day_written_as_a_short_name_is_read_without_failing(text: str):
    """The day search let these in (a word "day" and a short day name) and then found no
    span for a slot: an internal error on remember and on import."""
    read_slots(text)
