"""The patterns of ``store/redaction.py`` on their own, no database: the formats it once
missed (issue 30, item 8), the detect-secrets plugins it uses and why the others are left
out, anchors that hold a secret, and ordinary notes that must stay as written."""

from __future__ import annotations

import importlib
import pkgutil
import string

import pytest

from store.inputs import parse_anchors, withhold_secret_anchors
from store.redaction import _LEFT_OUT, _PLUGINS, holds_secret, redact, without_placeholders
from tests.secret_formats import ANCHOR_CASES, FORMATS, Planted, tail

HEX = "0123456789abcdef"


@pytest.mark.parametrize("planted", FORMATS, ids=lambda p: p.name)
def test_each_format_is_replaced_and_named(planted: Planted):
    redacted = redact(planted.text)
    assert redacted.kinds == (planted.kind,)
    assert f"[REDACTED:{planted.kind}]" in redacted.text
    for needle in planted.needles:
        assert needle not in redacted.text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("redis://:pw@host", "redis://:[REDACTED:url-password]@host"),
        ("postgresql://:secret@db/x", "postgresql://:[REDACTED:url-password]@db/x"),
        ("amqp://:Zq9x@rabbit:5672/%2F", "amqp://:[REDACTED:url-password]@rabbit:5672/%2F"),
    ],
)
def test_a_url_password_is_replaced_when_the_user_is_empty(text: str, kept: str):
    assert redact(text).text == kept


def test_an_ssh2_block_is_replaced_whole_and_to_the_end_when_cut():
    body = tail(64, 1, string.ascii_letters + "+/")
    whole = (
        f"key:\n---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n{body}\n"
        "---- END SSH2 ENCRYPTED PRIVATE KEY ----\nafter"
    )
    assert redact(whole).text == "key:\n[REDACTED:private-key]\nafter"
    cut = f"key:\n---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n{body[:30]}"
    assert redact(cut).text == "key:\n[REDACTED:private-key]"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Authorization: Basic " + tail(24, 2) + "==", "authorization"),
        ("authorization: bearer " + tail(32, 3), "bearer-token"),
        ('"Authorization": "Token ' + tail(40, 4) + '"', "authorization"),
        ("sk-ant-admin01-" + tail(90, 5), "anthropic-key"),
        ("sk-svcacct-" + tail(120, 6), "openai-key"),
        ("api_org_" + tail(34, 7, string.ascii_letters), "huggingface-token"),
    ],
)
def test_variants_of_the_new_formats(text: str, kind: str):
    assert redact(f"see {text} here").kinds == (kind,)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("artifactory: AKCp" + tail(69, 11) + " in ~/.jfrog", "artifactory-token"),
        ('cloudant_password = "' + tail(64, 12, HEX) + '"', "cloudant-credential"),
        ('ibm_cloud_iam_key = "' + tail(44, 14) + '"', "ibm-cloud-iam-key"),
        ('cos_hmac_secret_access_key = "' + tail(48, 15, HEX) + '"', "ibm-cos-hmac-key"),
        ("softlayer_api_key = " + tail(64, 16, string.ascii_lowercase + string.digits),
         "softlayer-key"),
    ],
)  # fmt: skip
def test_the_detect_secrets_plugins_added_find_their_formats(text: str, kind: str):
    assert redact(text).kinds == (kind,)


def test_every_detect_secrets_plugin_is_used_or_left_out_for_a_stated_reason():
    import detect_secrets.plugins as package

    modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
    used = {dotted.partition(".")[0] for dotted in _PLUGINS}
    assert used | set(_LEFT_OUT) == modules and not used & set(_LEFT_OUT)
    for module in _LEFT_OUT:
        importlib.import_module(f"detect_secrets.plugins.{module}")


@pytest.mark.parametrize(
    "text",
    [
        # near misses of the new formats
        "we send the Bearer token in the Authorization header",
        "Authorization: Bearer <token>",
        'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com',
        "Authorization: required on every call",
        "Bearer authentication_required_everywhere",
        "uses hf_hub_download from huggingface_hub",
        "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 is a made-up name",
        "the sk-proj- prefix marks project keys; sk-ant-api03 keys are Anthropic's",
        "github_pat_ tokens are fine-grained",
        "redis://localhost:6379/0 and postgresql://user@db/x and http://[::1]:8080/",
        "---- BEGIN SSH2 PUBLIC KEY ----\nAAAAB3NzaC1yc2EAAAABJQAAAIEA\n"
        "---- END SSH2 PUBLIC KEY ----",
        "APDefaultHandler answers AP requests",
        "see auth/tokens.py::TokenStore and Token::new for it",
        # a secret's name or a reference, not its value
        "The secret that signs auth tokens is SECRET_KEY.",
        "unless a bearer token is configured and the allowed Host values are given",
        "token_env=args.token_env,",
        "password_hash: Mapped[str] = mapped_column(String(200))",
        '"second_pass_seconds": first.seconds,',
        'DEFAULT_TOKEN_ENV = "ANCHORMEM_HTTP_TOKEN"',
        "uvicorn.run(app, host='0.0.0.0', port=8000)",
    ],
)
def test_ordinary_notes_are_left_as_written(text: str):
    assert redact(text) == redact(text)  # no state between calls
    assert redact(text).text == text and redact(text).kinds == ()


@pytest.mark.parametrize("planted", FORMATS, ids=lambda p: p.name)
def test_redacting_twice_changes_nothing(planted: Planted):
    once = redact(planted.text).text
    assert redact(once).text == once and redact(once).kinds == ()


def test_a_placeholder_is_not_read_as_words_of_the_note():
    text = "the key file is config/[REDACTED:github-token].txt in [REDACTED:jwt]"
    assert "github" not in without_placeholders(text)
    assert "REDACTED" not in without_placeholders(text)
    assert without_placeholders("no placeholder here") == "no placeholder here"


@pytest.mark.parametrize("planted", [*FORMATS[:4], *ANCHOR_CASES[:2]], ids=lambda p: p.name)
def test_an_anchor_holding_a_secret_is_withheld_and_reported_redacted(planted: Planted):
    assert planted.anchor is not None and holds_secret(planted.anchor)
    kept, withheld = withhold_secret_anchors(["import:duckdb", planted.anchor])
    assert kept == ["import:duckdb"] and len(withheld) == 1
    assert f"[REDACTED:{planted.kind}]" in withheld[0]
    assert not any(n in withheld[0] for n in planted.needles)
    assert [r.anchor.render() for r in parse_anchors(kept)] == ["import:duckdb"]


@pytest.mark.parametrize(
    "anchor",
    [
        "symbol:auth/tokens.py::TokenStore",
        "import:jwt@auth/token.py::verify_token",
        "env:DB_PASSWORD",
        "symbol:settings.SECRET_KEY",
        "file:secrets/config.yaml",
        "symbol:auth.password_is_valid",
    ],
)
def test_an_anchor_naming_a_secret_is_not_one_holding_it(anchor: str):
    assert not holds_secret(anchor)
    assert withhold_secret_anchors([anchor]) == ([anchor], ())


def test_an_anchor_holding_a_placeholder_is_withheld_too():
    kept, withheld = withhold_secret_anchors(["env:[REDACTED:openai-key]", "dep:httpx"])
    assert kept == ["dep:httpx"] and withheld == ("env:[REDACTED:openai-key]",)


@pytest.mark.parametrize(
    "anchors", [None, "import:duckdb", ["import:duckdb", "env:DATABASE_URL"], [3], ["x" * 600]]
)
def test_anchors_without_a_secret_are_passed_on_untouched(anchors: object):
    kept, withheld = withhold_secret_anchors(anchors)  # type: ignore[arg-type]
    assert kept is anchors and withheld == ()


def test_the_prose_corpus_is_left_as_written():
    """The project's own notes (``benchmarks.prose_corpus``, without the fixture's seed
    notes) hold no secret: redaction changes none of them (adr/0011's false-alarm count,
    ``python -m benchmarks redaction`` for the seed notes, docs, commits and code)."""
    from benchmarks.prose_corpus import corpus

    notes = corpus(None)
    assert len(notes) > 1000
    changed = [n.origin for n in notes for t in (n.text, n.subject or "") if redact(t).kinds]
    assert changed == []
