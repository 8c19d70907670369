"""Secrets in caller text are replaced by a visible placeholder before anything is stored.

Agents paste what they see: a key from a ``.env``, a token from a log, a connection
string. Every free text a caller gives (a memory's text, subject, scope and slot, an
origin, an observation's note, a receipt's reason and evidence) passes through
``redact`` in ``store/inputs.py``, so a secret never reaches the database file, its WAL,
the audit trail, a search term or a log line (adr/0011):

- known formats, with the patterns of ``detect-secrets`` (Yelp's scanner): AWS access
  keys, Azure storage keys, GitHub, GitLab, Slack, Stripe, Square, SendGrid, Mailchimp,
  Twilio, Discord, Telegram, npm, PyPI and OpenAI tokens, JWTs (checked to decode), and
  the password of a URL (``scheme://user:password@host``);
- private-key blocks, from the ``BEGIN ... PRIVATE KEY`` line to its ``END`` line (or to
  the end of the text when the block is cut);
- Google API keys (``AIza...``);
- a high-entropy value assigned to a name such as password, token, secret or api_key
  (``password = "Xk9#mQ2$..."``, ``API_TOKEN: f8a7...``): at least 8 characters and
  3.0 bits per character, so ``password: changeme`` or ``token: <your token>`` stay.

A match becomes ``[REDACTED:<kind>]``, the whole token it is part of.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

__all__ = ["Redacted", "redact"]

# detect-secrets plugin class -> the kind named in the placeholder.
_PLUGINS = {
    "aws.AWSKeyDetector": "aws-access-key",
    "azure_storage_key.AzureStorageKeyDetector": "azure-storage-key",
    "discord.DiscordBotTokenDetector": "discord-token",
    "github_token.GitHubTokenDetector": "github-token",
    "gitlab_token.GitLabTokenDetector": "gitlab-token",
    "mailchimp.MailchimpDetector": "mailchimp-key",
    "npm.NpmDetector": "npm-token",
    "openai.OpenAIDetector": "openai-key",
    "pypi_token.PypiTokenDetector": "pypi-token",
    "sendgrid.SendGridDetector": "sendgrid-key",
    "slack.SlackDetector": "slack-token",
    "square_oauth.SquareOAuthDetector": "square-secret",
    "stripe.StripeDetector": "stripe-key",
    "telegram_token.TelegramBotTokenDetector": "telegram-token",
    "twilio.TwilioKeyDetector": "twilio-key",
}
# A match is widened to the token it is part of: forward over base64 characters, back
# over word characters (not "/" or ".", which would eat a URL's host).
_TOKEN_TAIL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=")
_TOKEN_HEAD = _TOKEN_TAIL - frozenset("/+=")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[ A-Z0-9]*-----|\Z)"
    r"|PuTTY-User-Key-File-\d:.*?(?:Private-MAC: *\S+|\Z)",
    re.DOTALL,
)
_GOOGLE_KEY = re.compile(r"AIza[0-9A-Za-z_\-]{35}")
_JWT = re.compile(r"eyJ[A-Za-z0-9_\-]+\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*")
_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/?#@\[\]]+:([^\s/?@]+)@")
_ASSIGNED = re.compile(
    r"(?i)\b[\w.\-]*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-]?key|apikey"
    r"|access[_\-]?key|auth[_\-]?key|private[_\-]?key|credentials?)[\w.\-]*"
    r"[\"']?\s*(?:=|:=|=>|:|\bis\b)\s*([\"']?)([^\s\"'`,;]{8,})\1"
)
# A reference to a secret, not the secret: ${VAR}, %(name)s, <token>, os.environ[...], xxxx.
_PLACEHOLDER = re.compile(
    r"^(?:[$%<{\[(]|x{3,}|\*{3,}|\.{3,}|os\.|env\.|process\.env|getenv|settings\.)|[(){}]",
    re.IGNORECASE,
)
_MIN_BITS_PER_CHAR = 3.0


@dataclass(frozen=True)
class Redacted:
    text: str
    kinds: tuple[str, ...]  # the kinds replaced, in order of first appearance


@cache
def _format_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    import importlib

    patterns: list[tuple[re.Pattern[str], str]] = []
    for dotted, kind in _PLUGINS.items():
        module, _, name = dotted.rpartition(".")
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        patterns.extend((regex, kind) for regex in plugin.denylist)
    return tuple(patterns)


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _jwt_valid(token: str) -> bool:
    from detect_secrets.plugins.jwt import JwtTokenDetector

    return bool(JwtTokenDetector.is_formally_valid(token))


def _spans(text: str) -> Iterator[tuple[int, int, str]]:
    for m in _PRIVATE_KEY.finditer(text):
        yield m.start(), m.end(), "private-key"
    for m in _URL_PASSWORD.finditer(text):
        yield m.start(1), m.end(1), "url-password"
    for m in _JWT.finditer(text):
        if _jwt_valid(m.group(0)):
            yield m.start(), m.end(), "jwt"
    for m in _GOOGLE_KEY.finditer(text):
        yield _widened(text, m.start(), m.end(), "google-api-key")
    for regex, kind in _format_patterns():
        for m in regex.finditer(text):
            # A pattern with context around its secret (aws_secret_access_key = '...',
            # //registry/:_authToken=...) captures the secret as its last group.
            groups = [g for g in range(1, regex.groups + 1) if len(m.group(g) or "") > 12]
            group = max(groups, key=lambda g: len(m.group(g)), default=0)
            found = m.group(group)
            start = m.start(group) + len(found) - len(found.lstrip(" \t\n=:\"'"))
            end = m.end(group) - len(found) + len(found.rstrip(" \t\n\"'"))
            if group and kind == "aws-access-key":
                kind = "aws-secret-key"  # the keyword pattern: aws_secret_access_key = '...'
            yield _widened(text, start, end, kind)
    for m in _ASSIGNED.finditer(text):
        value = m.group(2)
        if not _PLACEHOLDER.search(value) and _entropy(value) >= _MIN_BITS_PER_CHAR:
            yield m.start(2), m.end(2), "assigned-secret"


def _widened(text: str, start: int, end: int, kind: str) -> tuple[int, int, str]:
    """The whole token a match is part of (a pattern may stop short of its ends)."""
    while start > 0 and text[start - 1] in _TOKEN_HEAD:
        start -= 1
    while end < len(text) and text[end] in _TOKEN_TAIL:
        end += 1
    return start, end, kind


def redact(text: str) -> Redacted:
    """``text`` with every secret found replaced by ``[REDACTED:<kind>]``."""
    if len(text) < 8:
        return Redacted(text, ())
    found = list(_spans(text))
    # A known format names its kind better than "a value assigned to a secret's name".
    known = [s for s in found if s[2] != "assigned-secret"]
    found = known + [
        s for s in found
        if s[2] == "assigned-secret" and not any(k[0] < s[1] and s[0] < k[1] for k in known)
    ]  # fmt: skip
    spans = sorted(found, key=lambda s: (s[0], -s[1]))
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
