"""Conflicts written in other words (issue #34): values in other forms, a setting's name
read as the attribute it names, changes in other verbs, opposites in other words, and the
claim without the words around it; and the look-alikes none of them may touch. Plain
functions over claims, no database."""

from __future__ import annotations

import pytest

from store.contradictions.kin import akin, family, joined, name_words, shared_words
from store.contradictions.rules import Conflict, Question
from store.contradictions.slots import Slot, attribute_named, clauses, read_slots
from store.contradictions.values import Relation, Value, ValueType, compare, parse_quantity
from tests.store.test_contradiction_forms import pair


def _only(text: str) -> Slot:
    (slot,) = read_slots(text)
    return slot


# -- values in other forms ------------------------------------------------------------------
def test_a_number_word_takes_a_unit_word_never_a_letter() -> None:
    quantity = parse_quantity("the worker gives up on an S3 object after 45 seconds")
    assert quantity is not None and quantity[0] == Value(ValueType.DURATION, 45.0)
    assert parse_quantity("a day")[0].amount == 86400  # type: ignore[index]


@pytest.mark.parametrize("text", ["one in ten lines", "1/10 of requests", "ten percent of it"])
def test_a_share_of_a_whole_is_a_percentage(text: str) -> None:
    quantity = parse_quantity(text)
    assert quantity is not None
    assert compare(quantity[0], Value(ValueType.PERCENT, 10.0)) is Relation.SAME


def test_a_fraction_against_a_percentage_is_left_undecided() -> None:
    fraction = _only("The null threshold for user_id is 0.05.").value
    share = _only("The check fails above one percent of null rows.").value
    assert compare(fraction, share) is Relation.UNKNOWN


def test_a_setting_whose_name_states_its_unit_holds_a_value_in_it() -> None:
    setting = _only("`MAX_UPLOAD_BYTES = 26214400` in the upload handler.")
    prose = _only("Uploads are limited to 25 MiB.")
    assert compare(setting.value, prose.value) is Relation.SAME
    ttl = _only("`SESSION_TTL_SECONDS = 86400` in settings.py")
    assert ttl.value == Value(ValueType.DURATION, 86400.0)


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("refresh_interval", "interval"),
        ("limits.memory", "limit"),
        ("save_steps", "count step"),
        ("max_attempts", "count retry"),
        ("PASSWORD_RESET_TIMEOUT", "timeout"),
        ("user_id", None),  # which one, not how many
        ("broker.id", None),
        ("sample_rate", None),
    ],
)
def test_a_setting_names_an_attribute_by_its_words(name: str, named: str | None) -> None:
    assert attribute_named(name) == named


# -- one attribute in other words (``kin``) -------------------------------------------------
def test_families_of_attributes_read_from_prose_and_from_a_setting() -> None:
    assert family("setting refresh_interval") == family("interval duration") == "interval"
    assert family("setting limits.memory") == family("limit size") == "limit"
    assert family("owner") == family("does handle")
    assert family("does cut") != family("does approve")
    assert family("uses") is None  # many-valued: never paired in other words


def test_names_and_paths_are_read_as_their_parts() -> None:
    words = name_words(frozenset({"payments/refund", "enable.auto.commit", "config.toml"}))
    assert {"payment", "refund", "auto", "commit", "autocommit"} <= words
    assert "toml" not in words


def test_a_setting_and_a_sentence_about_one_interval_are_akin() -> None:
    a_text = "The refresh interval of the products index is 1s."
    b_text = "The products index has `refresh_interval: 30s` set."
    assert akin(_only(a_text), _only(b_text), a_text, b_text)
    assert isinstance(pair(a_text, b_text), Question)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The payments worker timeout is 120 seconds.", "The thumbnails worker timeout is 20 s."),
        ("Read requests time out after 2 seconds.", "Write requests time out after 10 seconds."),
        ("In production the cache TTL is 10 minutes.", "On staging the cache TTL is 1 minute."),
    ],
)
def test_two_kinds_of_one_thing_are_not_akin(a: str, b: str) -> None:
    assert not akin(read_slots(a)[0], read_slots(b)[0], a, b)
    assert pair(a, b) is None


# -- the claim without its context --------------------------------------------------------
@pytest.mark.parametrize(
    ("wrapped", "claim"),
    [
        (
            "After the outage we agreed the invoice run should start at 01:15 UTC.",
            "the invoice run should start at 01:15 UTC",
        ),
        ("We agreed to rotate the keys every 90 days.", "rotate the keys every 90 days"),
        ("For now the client keeps 200 chats offline.", "the client keeps 200 chats offline"),
    ],
)
def test_what_was_agreed_and_for_now_are_cut(wrapped: str, claim: str) -> None:
    assert clauses(wrapped) == [claim]


def test_a_claim_before_a_colon_is_read_apart_from_what_explains_it() -> None:
    note = "The refund handler is idempotent: a retry never refunds twice."
    assert clauses(note)[0] == "The refund handler is idempotent"
    topic = "Rate limiting: each key may make 1000 requests per hour."
    assert len(clauses(topic)) == 1  # a topic before the colon, no claim of its own


# -- ranges --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["The HPA keeps the API between 3 and 12 pods.", "Passwords must be 12 to 128 characters."],
)
def test_a_range_is_no_single_value(text: str) -> None:
    assert all(s.many for s in read_slots(text) if s.value.type is ValueType.COUNT)


def test_a_change_from_one_value_to_another_is_no_range() -> None:
    assert not any(s.many for s in read_slots("We bumped the API from 3 to 5 pods."))


# -- changes in other verbs ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("note", "new", "old"),
    [
        ("We swapped LaunchDarkly for a self-hosted Unleash instance.", "unleash", "launchdarkly"),
        ("Algolia was dropped in favour of Meilisearch.", "meilisearch", "algolia"),
        ("We moved the warehouse off Redshift onto BigQuery.", "bigquery", "redshift"),
        ("Recommendations stores features in DynamoDB, not Redis.", "dynamodb", "redis"),
    ],
)
def test_a_change_names_the_value_it_replaced(note: str, new: str, old: str) -> None:
    (slot,) = [s for s in read_slots(note) if s.value.text]
    assert (slot.value.text, slot.replaces) == (new, Value(ValueType.NAME, text=old))


def test_what_was_moved_may_stand_before_the_verb() -> None:
    slot = _only("Avatars were moved to S3 during the storage migration.")
    assert slot.changed and "avatar" in slot.about and slot.value.text == "s3"


def test_a_change_stated_of_the_same_thing_is_a_conflict_decided_by_the_change() -> None:
    judged = pair(
        "Sessions are cached in Redis.", "We dropped Redis; sessions are in Postgres now."
    )
    assert isinstance(judged, Conflict) and not judged.scope_ambiguous


def test_a_name_said_to_be_gone_is_asked_of_a_note_that_names_it() -> None:
    judged = pair(
        "The billing-v1 service renders the invoices for enterprise plans.",
        "billing-v1 was shut down at the end of Q3.",
    )
    assert isinstance(judged, Question)


def test_a_name_dropped_for_one_job_says_nothing_of_another() -> None:
    assert pair("We dropped Datadog for metrics.", "Logs are shipped to Datadog.") is None


# -- opposites in other words --------------------------------------------------------------
def test_a_flag_someone_turned_off_is_the_flag_off() -> None:
    slot = _only("The user disabled bf16 after the loss spikes.")
    assert (slot.attribute, slot.value.text, "bf16" in slot.subject) == ("enabled", "false", True)


def test_always_and_never_of_one_verb_conflict_whatever_else_is_said() -> None:
    judged = pair(
        "Always rebase feature branches onto main before merging.",
        "Never rebase here: we keep every merge commit.",
    )
    assert isinstance(judged, Conflict) and judged.scope_ambiguous  # open, never resolved


def test_a_property_and_its_negation_of_one_handler_are_asked() -> None:
    judged = pair(
        "The `POST /orders/cancel` handler is idempotent: a retry never cancels twice.",
        "Cancel requests are not idempotent, so clients must not retry them.",
    )
    assert isinstance(judged, Question)


# -- look-alikes ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            "Every PR needs two approvals before merge.",
            "Docs-only PRs are exempt from the two-approval rule and merge with one approval.",
        ),
        ("The HPA keeps the API between 3 and 12 pods.", "Right now the API runs 5 pods."),
        ("Uploads are limited to 25 MiB.", "`MAX_UPLOAD_BYTES = 26214400` in the handler."),
        ("Dana cuts the releases.", "Eve approves the releases."),
        (
            "The orders topic keeps messages for 7 days.",
            "The dead-letter topic keeps messages for 30 days.",
        ),
    ],
)
def test_look_alikes_in_other_words_are_no_conflict(a: str, b: str) -> None:
    assert pair(a, b) is None


# -- what a thing lets in ------------------------------------------------------------------
def test_accepting_and_rejecting_one_thing_are_one_flag_of_opposite_values() -> None:
    accepts = _only("The ingestion API accepts gzip-compressed request bodies.")
    rejected = _only("Compressed payloads are rejected by the ingestion API.")
    assert (accepts.attribute, accepts.value.text) == ("allowed", "true")
    assert (rejected.attribute, rejected.value.text) == ("allowed", "false")
    assert isinstance(
        pair(
            "The ingestion API accepts gzip-compressed request bodies.",
            "The ingestion API rejects gzip-compressed request bodies.",
        ),
        Conflict,
    )


@pytest.mark.parametrize(
    "text",
    [
        "The login endpoint allows 5 attempts before lockout.",
        "Webhook payloads larger than 1 MB are rejected by the receiver.",
        "The importer accepts up to 10 files per batch.",
    ],
)
def test_a_bound_or_a_count_of_what_is_let_in_is_no_flag(text: str) -> None:
    assert not [s for s in read_slots(text) if s.attribute == "allowed"]


def test_a_bound_on_what_is_rejected_is_no_conflict_with_accepting_it() -> None:
    assert (
        pair(
            "Webhook payloads larger than 1 MB are rejected by the receiver.",
            "The receiver accepts webhook payloads.",
        )
        is None
    )


# -- two facts in one note -----------------------------------------------------------------
def test_two_claims_of_two_subjects_in_one_sentence_are_two_clauses() -> None:
    note = "The GraphQL gateway is built on Apollo Server and query depth is limited to 10."
    assert clauses(note) == [
        "The GraphQL gateway is built on Apollo Server",
        "query depth is limited to 10",
    ]
    # two subjects of one copula stay one claim
    assert len(clauses("The API and billing worker are on Python 3.12.")) == 1


def test_the_second_fact_of_a_note_meets_a_note_that_states_only_it() -> None:
    judged = pair(
        "The GraphQL gateway is built on Apollo Server and query depth is limited to 10.",
        "Max query depth on the GraphQL gateway is 7, enforced by the depthLimit rule.",
    )
    assert isinstance(judged, Conflict)
    assert judged.slot is not None and judged.slot.endswith("|limit count")


# -- lifetimes and timeouts in other verbs -------------------------------------------------
def test_giving_up_on_something_after_a_while_is_a_timeout() -> None:
    slot = _only("The ingest-worker gives up on an S3 object read after 45 seconds.")
    assert (family(slot.attribute), slot.value) == ("timeout", Value(ValueType.DURATION, 45.0))
    waits = _only("The fetcher waits up to 120 seconds for an object.")
    assert family(waits.attribute) == "timeout"


def test_a_thing_torn_down_after_a_while_and_one_destroyed_after_another_are_asked() -> None:
    judged = pair(
        "Preview environments are torn down after an hour and a half without traffic.",
        "Preview envs get destroyed after 60 minutes idle by the reaper job.",
    )
    assert isinstance(judged, Question)


def test_a_name_run_together_meets_its_words() -> None:
    assert joined(frozenset({"ingestworker", "queue"}), frozenset({"ingest", "worker"})) == {
        "ingestworker"
    }
    assert not joined(frozenset({"login"}), frozenset({"lo", "gin"}))  # parts too short
    a = "The ingest-worker gives up on an S3 object after 45 seconds."
    b = "The ingest worker's fetch timeout is 120 seconds."
    assert "ingestworker" in shared_words(_only(a), _only(b), a, b)
    assert isinstance(pair(a, b), Question)


def test_an_attribute_of_no_words_has_no_family() -> None:
    assert family("") is None and family(" ") is None and family("setting _") is None


def test_an_acronym_meets_the_words_it_stands_for_and_a_verb_form_its_noun() -> None:
    a = "The toxicity classifier's learning rate warms up over 1000 steps."
    b = "Warmup for the toxicity classifier's LR schedule is 500 steps (`warmup_steps=500`)."
    assert isinstance(pair(a, b), Question)
    assert "checkpoint" in name_words(frozenset({"checkpointing"}))
    assert isinstance(
        pair(
            "We agreed to checkpoint the resnet-finetune run every 500 steps.",
            "Checkpointing in the fine-tune job happens every 2000 steps (`save_steps: 2000`).",
        ),
        Question,
    )


def test_the_last_day_of_a_period_is_no_lifetime() -> None:
    assert not [
        s
        for s in read_slots("Retros are held on the last Friday of each month.")
        if s.attribute.startswith("lifetime")
    ]
    assert _only("Sessions now last 8 hours.").attribute == "lifetime duration"


# -- a flag said by what passes through it -------------------------------------------------
def test_going_through_a_thing_is_its_flag_on_and_bypassing_it_off() -> None:
    through = [s for s in read_slots("Admin pages go through the same Varnish cache.")]
    assert [(s.attribute, s.value.text, "cache" in s.subject) for s in through] == [
        ("enabled", "true", True)
    ]
    bypass = _only("Admin pages bypass the cache.")
    assert (bypass.attribute, bypass.value.text) == ("enabled", "false")
    # a technology named for a job is read as that job, not as a flag
    assert not [
        s for s in read_slots("Outgoing mail goes through Amazon SES.") if s.attribute == "enabled"
    ]


def test_a_flag_off_for_some_pages_and_pages_that_pass_through_it_are_asked() -> None:
    disabled = "Caching is disabled for the admin pages."
    assert isinstance(pair(disabled, "Admin pages go through the same Varnish cache."), Question)
    assert pair(disabled, "Admin pages bypass the cache.") is None  # the same, in other words
    assert pair(disabled, "Product pages go through the CDN cache.") is None  # other pages


# -- which branch a kind of work starts from -----------------------------------------------
def test_the_latest_release_and_main_are_two_branches_work_starts_from() -> None:
    judged = pair(
        "Hotfixes start from the latest release tag, not from `main`.",
        "Hotfix branches are created off `main` and then cherry-picked onto the release branch.",
    )
    assert isinstance(judged, Conflict) and judged.slot is not None
    assert judged.slot.endswith("|branch from")
    same = pair("Hotfixes start from the latest release tag.", "Hotfixes branch off the release.")
    assert same is None


def test_a_two_fact_note_meets_a_note_that_changes_only_where_it_reads_from() -> None:
    note = "The `ledger-sync` service is written in Rust and consumes the Kafka topic `ledger.v3`."
    read = [s for s in read_slots(note) if s.attribute == "read from"]
    assert [(s.value.text, "ledgersync" in s.subject) for s in read] == [("ledgerv3", True)]
    assert isinstance(pair(note, "ledger-sync now reads `ledger.v4`."), Question)
    assert pair(note, "ledger-sync reads `ledger.v3` and `audit.v1`.") is None  # agrees


# -- who does what ---------------------------------------------------------------------------
def test_a_duty_done_by_a_group_and_a_duty_moved_to_another_are_asked() -> None:
    done = _only("Failures of the nightly data pipeline are triaged by the analytics engineers.")
    assert (done.attribute, done.value.text) == ("does triage", "analyticsengineers")
    moved = _only("Pipeline failure triage moved to the data platform on-call rotation.")
    assert moved.attribute == "does triage"
    judged = pair(
        "Failures of the nightly data pipeline are triaged by the analytics engineers.",
        "Pipeline failure triage moved to the data platform on-call rotation in Q3.",
    )
    assert isinstance(judged, Question)
