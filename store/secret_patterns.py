"""The patterns of the ``detect-secrets`` plugins ``store.redaction`` uses, as text.

They are detect-secrets' own (``denylist`` of each plugin class, version 1.5.0), copied so
that a process redacting a note does not import detect-secrets: its plugins import
``requests`` and ``urllib3``, which cost a cold command about 0.2 s and the store's owner
its resident memory, for patterns that are a few lines of text (adr/0040).
``tests/store/test_secret_patterns.py`` compares every entry with the installed
detect-secrets, so an upgrade that changes one fails the tests instead of going unnoticed.
"""

# ruff: noqa: E501  (the patterns are copied as they are, one per line)
from __future__ import annotations

import re

__all__ = ["PLUGIN_PATTERNS"]

# (plugin class, source, flags besides re.UNICODE), in the order of each plugin's list.
PLUGIN_PATTERNS: tuple[tuple[str, str, int], ...] = (
    ('artifactory.ArtifactoryDetector', '(?:\\s|=|:|"|^)AKC[a-zA-Z0-9]{10,}(?:\\s|"|$)', 0),
    ('artifactory.ArtifactoryDetector', '(?:\\s|=|:|"|^)AP[\\dABCDEF][a-zA-Z0-9]{8,}(?:\\s|"|$)', 0),
    ('aws.AWSKeyDetector', '(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}', 0),
    ('aws.AWSKeyDetector', 'aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?[\\\'\\"]([0-9a-zA-Z/+]{40})[\\\'\\"]', re.IGNORECASE),
    ('azure_storage_key.AzureStorageKeyDetector', 'AccountKey=[a-zA-Z0-9+\\/=]{88}', 0),
    ('cloudant.CloudantDetector', '(?:(?<=\\W)|(?<=^))(?:\\[|)(?:"|\\\'|)(?:cloudant|cl|clou)(?:_|-|)(?:api|)(?:key|pwd|pw|password|pass|token)(?:"|\\\'|)(?:\\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)(?:"|\\\'|)([0-9a-f]{64})(?:"|\\\'|)', re.IGNORECASE),
    ('cloudant.CloudantDetector', '(?:(?<=\\W)|(?<=^))(?:\\[|)(?:"|\\\'|)(?:cloudant|cl|clou)(?:_|-|)(?:api|)(?:key|pwd|pw|password|pass|token)(?:"|\\\'|)(?:\\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)(?:"|\\\'|)([a-z]{24})(?:"|\\\'|)', re.IGNORECASE),
    ('cloudant.CloudantDetector', '(?:https?\\:\\/\\/)[\\w\\-]+\\:([0-9a-f]{64})\\@[\\w\\-]+\\.cloudant\\.com', re.IGNORECASE),
    ('cloudant.CloudantDetector', '(?:https?\\:\\/\\/)[\\w\\-]+\\:([a-z]{24})\\@[\\w\\-]+\\.cloudant\\.com', re.IGNORECASE),
    ('discord.DiscordBotTokenDetector', '[MNO][a-zA-Z\\d_-]{23,25}\\.[a-zA-Z\\d_-]{6}\\.[a-zA-Z\\d_-]{27}', 0),
    ('github_token.GitHubTokenDetector', '(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9_]{36}', 0),
    ('gitlab_token.GitLabTokenDetector', '(glpat|gldt|glft|glsoat|glrt)-[A-Za-z0-9_\\-]{20,50}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'GR1348941[A-Za-z0-9_\\-]{20,50}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'glcbt-([0-9a-fA-F]{2}_)?[A-Za-z0-9_\\-]{20,50}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'glimt-[A-Za-z0-9_\\-]{25}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'glptt-[A-Za-z0-9_\\-]{40}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'glagent-[A-Za-z0-9_\\-]{50,1024}(?!\\w)', 0),
    ('gitlab_token.GitLabTokenDetector', 'gloas-[A-Za-z0-9_\\-]{64}(?!\\w)', 0),
    ('ibm_cloud_iam.IbmCloudIamDetector', '(?:(?<=\\W)|(?<=^))(?:\\[|)(?:"|\\\'|)(?:ibm(?:_|-|)cloud(?:_|-|)iam|cloud(?:_|-|)iam|ibm(?:_|-|)cloud|ibm(?:_|-|)iam|ibm|iam|cloud|)(?:_|-|)(?:api|)(?:_|-|)(?:key|pwd|password|pass|token)(?:"|\\\'|)(?:\\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)(?:"|\\\'|)([a-zA-Z0-9_\\-]{44}(?![a-zA-Z0-9_\\-]))(?:"|\\\'|)', re.IGNORECASE),
    ('ibm_cos_hmac.IbmCosHmacDetector', '(?:(?<=\\W)|(?<=^))(?:\\[|)(?:"|\\\'|)(?:(?:ibm)?[-_]?cos[-_]?(?:hmac)?|)(?:_|-|)(?:secret[-_]?(?:access)?[-_]?key)(?:"|\\\'|)(?:\\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)(?:"|\\\'|)([a-f0-9]{48}(?![a-f0-9]))(?:"|\\\'|)', re.IGNORECASE),
    ('mailchimp.MailchimpDetector', '[0-9a-z]{32}-us[0-9]{1,2}', 0),
    ('npm.NpmDetector', '\\/\\/.+\\/:_authToken=\\s*((npm_.+)|([A-Fa-f0-9-]{36})).*', 0),
    ('openai.OpenAIDetector', 'sk-[A-Za-z0-9-_]*[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}', 0),
    ('pypi_token.PypiTokenDetector', 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9-_]{70,}', 0),
    ('pypi_token.PypiTokenDetector', 'pypi-AgENdGVzdC5weXBpLm9yZw[A-Za-z0-9-_]{70,}', 0),
    ('sendgrid.SendGridDetector', 'SG\\.[a-zA-Z0-9_-]{22}\\.[a-zA-Z0-9_-]{43}', 0),
    ('slack.SlackDetector', 'xox(?:a|b|p|o|s|r)-(?:\\d+-)+[a-z0-9]+', re.IGNORECASE),
    ('slack.SlackDetector', 'https://hooks\\.slack\\.com/services/T[a-zA-Z0-9_]+/B[a-zA-Z0-9_]+/[a-zA-Z0-9_]+', re.IGNORECASE | re.VERBOSE),
    ('softlayer.SoftlayerDetector', '(?:(?<=\\W)|(?<=^))(?:\\[|)(?:"|\\\'|)(?:softlayer|sl)(?:_|-|)(?:api|)(?:_|-|)(?:key|pwd|password|pass|token)(?:"|\\\'|)(?:\\]|)(?: *)(?:=|:|:=|=>| +|::)(?: *)(?:"|\\\'|)([a-z0-9]{64})(?:"|\\\'|)', re.IGNORECASE),
    ('softlayer.SoftlayerDetector', '(?:http|https)://api.softlayer.com/soap/(?:v3|v3.1)/([a-z0-9]{64})', re.IGNORECASE),
    ('square_oauth.SquareOAuthDetector', 'sq0csp-[0-9A-Za-z\\\\\\-_]{43}', 0),
    ('stripe.StripeDetector', '(?:r|s)k_live_[0-9a-zA-Z]{24}', 0),
    ('telegram_token.TelegramBotTokenDetector', '\\d{8,10}:[0-9A-Za-z_-]{35}', 0),
    ('twilio.TwilioKeyDetector', 'AC[a-z0-9]{32}', 0),
    ('twilio.TwilioKeyDetector', 'SK[a-z0-9]{32}', 0),
)  # fmt: skip
