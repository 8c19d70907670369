"""Secrets in caller text are replaced by a visible placeholder before anything is stored.

Agents paste what they see: a key from a ``.env``, a token from a log, a connection
string. Every free text a caller gives (a memory's text, subject, scope and slot, an
origin, an observation's note, a receipt's reason and evidence) passes through
``redact`` in ``store/inputs.py``, and every anchor a caller gives or the text yields is
checked with ``holds_secret``, so a secret never reaches the database file, its WAL,
the journal, the audit trail, a search term or a log line (adr/0011):

- known formats, with the patterns of ``detect-secrets`` (Yelp's scanner): AWS access
  keys, Azure storage keys, Artifactory, Cloudant, IBM Cloud IAM, IBM COS HMAC and
  SoftLayer credentials, GitHub, GitLab, Slack, Stripe, Square, SendGrid, Mailchimp,
  Twilio, Discord, Telegram, npm, PyPI and OpenAI tokens, JWTs (checked to decode);
- formats it does not know: GitHub fine-grained tokens (``github_pat_``), OpenAI project,
  service-account and admin keys (``sk-proj-``), Anthropic keys (``sk-ant-``), Hugging
  Face tokens (``hf_``), Google API keys (``AIza``), an ``Authorization:`` header's
  credentials and a ``Bearer`` token;
- the password of a URL (``scheme://user:password@host``, also with no user:
  ``redis://:password@host``);
- private-key blocks, PEM (``-----BEGIN ... PRIVATE KEY-----``), RFC 4716
  (``---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----``) and PuTTY, to their end line (or to
  the end of the text when the block is cut);
- a high-entropy value assigned to a name such as password, token, secret or api_key
  (``password = "Xk9#mQ2$..."``, ``API_TOKEN: f8a7...``): at least 8 characters and
  3.0 bits per character, so ``password: changeme``, ``token: <your token>`` or
  ``the secret is SECRET_KEY`` (a variable's name) stay.

A match becomes ``[REDACTED:<kind>]``, the whole token it is part of. A placeholder is
never redacted again, so redacting twice changes nothing.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

__all__ = ["PLACEHOLDER", "Redacted", "holds_secret", "redact", "without_placeholders"]

# detect-secrets plugin class -> the kind named in the placeholder.
_PLUGINS = {
    "artifactory.ArtifactoryDetector": "artifactory-token",
    "aws.AWSKeyDetector": "aws-access-key",
    "azure_storage_key.AzureStorageKeyDetector": "azure-storage-key",
    "cloudant.CloudantDetector": "cloudant-credential",
    "discord.DiscordBotTokenDetector": "discord-token",
    "github_token.GitHubTokenDetector": "github-token",
    "gitlab_token.GitLabTokenDetector": "gitlab-token",
    "ibm_cloud_iam.IbmCloudIamDetector": "ibm-cloud-iam-key",
    "ibm_cos_hmac.IbmCosHmacDetector": "ibm-cos-hmac-key",
    "mailchimp.MailchimpDetector": "mailchimp-key",
    "npm.NpmDetector": "npm-token",
    "openai.OpenAIDetector": "openai-key",
    "pypi_token.PypiTokenDetector": "pypi-token",
    "sendgrid.SendGridDetector": "sendgrid-key",
    "slack.SlackDetector": "slack-token",
    "softlayer.SoftlayerDetector": "softlayer-key",
    "square_oauth.SquareOAuthDetector": "square-secret",
    "stripe.StripeDetector": "stripe-key",
    "telegram_token.TelegramBotTokenDetector": "telegram-token",
    "twilio.TwilioKeyDetector": "twilio-key",
}
# Its other plugins, and why each is left out (adr/0011, with what each would flag in this
# project's own notes, docs and code: ``python -m benchmarks redaction``).
_LEFT_OUT = {
    "base": "not a plugin",
    "basic_auth": "a URL's password: _URL_PASSWORD, which also takes an empty user",
    "high_entropy_strings": "flags every commit id and hash a note quotes",
    "ip_public": "an address is no secret, and notes name hosts",
    "jwt": "its pattern is _JWT; its check that a token decodes is used",
    "keyword": "_ASSIGNED covers it, and keeps references and weak values (changeme)",
    "private_key": "flags the BEGIN line only: _PRIVATE_KEY takes the whole block",
}
PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9\-]+\]")
# A match is widened to the token it is part of: forward over base64 characters, back
# over word characters (not "/" or ".", which would eat a URL's host).
_TOKEN_TAIL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=")
_TOKEN_HEAD = _TOKEN_TAIL - frozenset("/+=")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[ A-Z0-9]*-----|\Z)"
    r"|---- ?BEGIN SSH2[ A-Z0-9]*PRIVATE KEY ?----.*?(?:---- ?END SSH2[ A-Z0-9]*----|\Z)"
    r"|PuTTY-User-Key-File-\d:.*?(?:Private-MAC: *\S+|\Z)",
    re.DOTALL,
)
_JWT = re.compile(r"eyJ[A-Za-z0-9_\-]+\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*")
# The user may be empty: redis://:password@host.
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@\[\]]*:([^\s/?@]+)@")
_AUTH_HEADER = re.compile(
    r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(bearer|basic|token|bot|digest|negotiate|apikey)\s+)?([^\s\"'`,;]+)"
)
_BEARER = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]+=*)")
_ASSIGNED = re.compile(
    r"(?i)\b[\w.\-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-]?key|apikey"
    r"|access[_\-]?key|auth[_\-]?key|private[_\-]?key|credentials?)[\w.\-]*"
    r"[\"']?\s*(=|:=|=>|:(?!:)|\bis\b)\s*([\"']?)([^\s\"'`,;]{8,})\2"
)
# A reference to a secret, not the secret: ${VAR}, %(name)s, <token>, os.environ[...], xxxx,
# Mapped[str]; and, case-sensitively, a variable's name (SECRET_KEY) or an attribute
# (args.token_env).
_REFERENCE = re.compile(
    r"^(?:[$%<{\[(]|x{3,}|\*{3,}|\.{3,}|os\.|env\.|process\.env|getenv|settings\.)|[(){}\[\]]",
    re.IGNORECASE,
)
_VARIABLE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+")
# One word in one case ("configured", "Required"): prose, not a secret ("the token is
# configured").
_WORD = re.compile(r"[a-z]+|[A-Z][a-z]+|[A-Z]+")
# A CamelCase or snake_case name: not the random tail a token's prefix is followed by.
_NAME = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)*|[a-z]+(?:_[a-z]+)*")
_MIN_BITS_PER_CHAR = 3.0
_MIN_BEARER_CHARS = 16


@dataclass(frozen=True)
class Redacted:
    text: str
    kinds: tuple[str, ...]  # the kinds replaced, in order of first appearance


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _random(value: str) -> bool:
    """A token that is not a name: a letter and a digit, and no fewer bits than a secret."""
    return (
        any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and _entropy(value) >= _MIN_BITS_PER_CHAR
    )


def _not_a_name(value: str) -> bool:
    return _NAME.fullmatch(value) is None


def _assigned_value(value: str, prose: bool) -> bool:
    """Whether a value given to a secret's name is a secret: not a reference to one, not
    a word of the sentence ("the token is configured"), and random enough."""
    if _REFERENCE.search(value) or _VARIABLE.fullmatch(value.rstrip(".")):
        return False
    if prose and _WORD.fullmatch(value.rstrip(".!?")):
        return False
    return _entropy(value) >= _MIN_BITS_PER_CHAR


# Formats detect-secrets 1.5.0 does not know; each with the check its tail must pass, if
# its prefix alone could begin an ordinary name.
_Check = Callable[[str], bool]
_FORMATS: tuple[tuple[re.Pattern[str], str, _Check | None], ...] = (
    (re.compile(r"github_pat_[A-Za-z0-9_]{22,}"), "github-token", None),
    (re.compile(r"(?<![A-Za-z0-9])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{32,}"), "openai-key",
     None),
    (re.compile(r"(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_\-]{32,}"), "anthropic-key", None),
    (re.compile(r"(?<![A-Za-z0-9_])(?:hf|api_org)_([A-Za-z0-9]{34,})"), "huggingface-token",
     _not_a_name),
    (re.compile(r"AIza[0-9A-Za-z_\-]{35}"), "google-api-key", None),
)  # fmt: skip
# A detect-secrets pattern whose prefix begins ordinary words ("APDefaultHandler").
_PLUGIN_CHECKS: dict[str, _Check] = {"artifactory-token": _random}


@cache
def _format_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    from store.secret_patterns import PLUGIN_PATTERNS

    return tuple(
        (re.compile(source, flags), _PLUGINS[plugin])
        for plugin, source, flags in PLUGIN_PATTERNS
        if plugin in _PLUGINS
    )


def _jwt_valid(token: str) -> bool:
    """Whether each part of a JWT-shaped token decodes as base64url, the first two as JSON
    (detect-secrets' ``JwtTokenDetector.is_formally_valid``): a word that merely begins
    ``eyJ`` stays."""
    for at, part in enumerate(token.split(".")):
        try:
            raw = part.encode("ascii")
            if len(raw) % 4 == 1:
                return False
            # padded as detect-secrets pads it (three for a remainder of three)
            decoded = base64.urlsafe_b64decode(raw + b"=" * (len(raw) % 4))
            if at < 2:
                json.loads(decoded.decode("utf-8"))
        except (ValueError, UnicodeError):  # binascii.Error and JSONDecodeError included
            return False
    return True


_Span = tuple[int, int, str]


def _blocks_and_urls(text: str) -> Iterator[_Span]:
    for m in _PRIVATE_KEY.finditer(text):
        yield m.start(), m.end(), "private-key"
    for m in _URL_PASSWORD.finditer(text):
        yield m.start(1), m.end(1), "url-password"
    for m in _JWT.finditer(text):
        if _jwt_valid(m.group(0)):
            yield m.start(), m.end(), "jwt"


def _own_formats(text: str) -> Iterator[_Span]:
    for regex, kind, check in _FORMATS:
        for m in regex.finditer(text):
            if check is None or check(m.group(m.lastindex or 0)):
                yield _widened(text, m.start(), m.end(), kind)


def _plugin_formats(text: str) -> Iterator[_Span]:
    for regex, kind in _format_patterns():
        for m in regex.finditer(text):
            # A pattern with context around its secret (aws_secret_access_key = '...',
            # //registry/:_authToken=...) captures the secret as its last group.
            groups = [g for g in range(1, regex.groups + 1) if len(m.group(g) or "") > 12]
            group = max(groups, key=lambda g: len(m.group(g)), default=0)
            found = m.group(group)
            start = m.start(group) + len(found) - len(found.lstrip(" \t\n=:\"'"))
            end = m.end(group) - len(found) + len(found.rstrip(" \t\n\"'"))
            check = _PLUGIN_CHECKS.get(kind)
            if check is not None and not check(text[start:end]):
                continue
            if group and kind == "aws-access-key":
                kind = "aws-secret-key"  # the keyword pattern: aws_secret_access_key = '...'
            yield _widened(text, start, end, kind)


def _credentials(text: str) -> Iterator[_Span]:
    """An ``Authorization:`` header's credentials, and a ``Bearer`` token anywhere."""
    for m in _AUTH_HEADER.finditer(text):
        if _assigned_value(m.group(2), prose=True):
            bearer = (m.group(1) or "").lower() == "bearer"
            yield m.start(2), m.end(2), "bearer-token" if bearer else "authorization"
    for m in _BEARER.finditer(text):
        token = m.group(1)
        if len(token) >= _MIN_BEARER_CHARS and _random(token):
            yield m.start(1), m.end(1), "bearer-token"


def _assigned(text: str) -> Iterator[_Span]:
    for m in _ASSIGNED.finditer(text):
        value = m.group(3).rstrip(".!?")  # the sentence's full stop is not the value's
        if len(value) >= 8 and _assigned_value(value, prose=m.group(1).lower() == "is"):
            yield m.start(3), m.start(3) + len(value), "assigned-secret"


def _spans(text: str) -> Iterator[_Span]:
    yield from _blocks_and_urls(text)
    yield from _own_formats(text)
    yield from _plugin_formats(text)
    yield from _credentials(text)
    yield from _assigned(text)


def _widened(text: str, start: int, end: int, kind: str) -> _Span:
    """The whole token a match is part of (a pattern may stop short of its ends)."""
    while start > 0 and text[start - 1] in _TOKEN_HEAD:
        start -= 1
    while end < len(text) and text[end] in _TOKEN_TAIL:
        end += 1
    return start, end, kind


def _found(text: str) -> list[_Span]:
    """Every secret's span, a placeholder already in the text excepted, a known format
    before a value merely assigned to a secret's name."""
    placed = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
    found = [s for s in _spans(text) if not any(a <= s[0] and s[1] <= b for a, b in placed)]
    known = [s for s in found if s[2] != "assigned-secret"]
    return known + [
        s for s in found
        if s[2] == "assigned-secret" and not any(k[0] < s[1] and s[0] < k[1] for k in known)
    ]  # fmt: skip


def redact(text: str) -> Redacted:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``."""
    if len(text) < 8:
        return Redacted(text, ())
    spans = sorted(_found(text), key=lambda s: (s[0], -s[1]))
    if not spans:
        return Redacted(text, ())
    out: list[str] = []
    kinds: list[str] = []
    at = 0
    for start, end, kind in spans:
        if end <= at:
            continue  # inside a span already replaced
        start = max(start, at)
        out.append(text[at:start])
        out.append(f"[REDACTED:{kind}]")
        if kind not in kinds:
            kinds.append(kind)
        at = end
    out.append(text[at:])
    return Redacted("".join(out), tuple(kinds))


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a secret, or the placeholder of one redacted before: what
    an anchor must never hold, since it names code, and code is never a secret."""
    return PLACEHOLDER.search(text) is not None or bool(redact(text).kinds)


def without_placeholders(text: str) -> str:
    """``text`` with each ``[REDACTED:<kind>]`` blanked out, for reading anchors from it:
    the kind's words ("github-token") are the placeholder's, not the note's."""
    return PLACEHOLDER.sub(" ", text) if "[REDACTED:" in text else text
