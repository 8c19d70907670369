"""The default of a named setting, declared where the fingerprint did not read one (issue
#31): a traitlets class (a trait's value, a ``@default`` method), a JSON settings schema
(JupyterLab's ``schema/*.json``), a rate in a Python settings dict (``DEFAULT_THROTTLE_RATES``).
``remember`` then ``recall`` through the MCP client on a real git repository: a false
default is REFUTED with the code's value and line in the receipt, the true one VERIFIED, a
computed one (or one declared twice, or in a unit that cannot be told) stays unchecked."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

_EXTENSION = '''\
import os

from traitlets import Float, Int, Unicode, default
from traitlets.config import Configurable


class GitConfig(Configurable):
    git_command_timeout = Float(20.0, config=True, help="Timeout of a git command.")
    credential_helper = Unicode(config=True)
    history_limit = Int(config=True)
    poll_interval = Float(config=True)

    @default("credential_helper")
    def _credential_helper_default(self):
        return "cache --timeout=3600"

    @default("history_limit")
    def _history_limit_default(self):
        """Commits shown in the log."""
        return 100

    @default("poll_interval")
    def _poll_interval_default(self):
        return float(os.environ.get("POLL", "5"))
'''


def _schema(properties: dict[str, dict[str, object]]) -> str:
    return json.dumps({"title": "Git", "type": "object", "properties": properties}, indent=2)


APP = {
    "pyproject.toml": '[project]\nname = "gitext"\ndependencies = ["traitlets>=5"]\n',
    "gitext/__init__.py": "",
    "gitext/config.py": _EXTENSION,
    "gitext/settings.py": (
        "BURST = compute_burst()\n\n"
        "REST_FRAMEWORK = {\n"
        "    'DEFAULT_THROTTLE_RATES': {\n"
        "        'anon': '100/day',\n        'user': '1000/day',\n        'login': '10/min',\n"
        "        'burst': BURST,\n"
        "    },\n}\n"
    ),
    "schema/plugin.json": _schema({
        "refreshInterval": {"type": "integer", "default": 3000,
                            "description": "Number of milliseconds between polls."},
        "historyCount": {"type": "integer", "default": 25},
        "contextLines": {"type": "integer", "default": 3},
        "maxFiles": {"type": "integer", "default": 10},
    }),
    "schema/diff.json": _schema({"maxFiles": {"type": "integer", "default": 20}}),
    "tests/fixtures/settings.json": _schema({"fixtureOnly": {"type": "integer", "default": 5}}),
}  # fmt: skip

# (note, the status served, text the receipts must hold)
NOTES: list[tuple[str, str, str]] = [
    # traitlets: the value a trait is declared with, the literal a @default method returns
    ("git commands time out after 30 s by default (git_command_timeout)", "REFUTED",
     "gitext/config.py:8 sets GitConfig.git_command_timeout = 20.0, not 30"),
    ("git commands time out after 20 s by default (git_command_timeout)", "VERIFIED",
     "`GitConfig.git_command_timeout = 20.0` at gitext/config.py:8"),
    ("The git command timeout is half an hour", "REFUTED",
     "sets GitConfig.git_command_timeout = 20.0, not 1800"),
    ("the credential helper caches for 15 minutes: `cache --timeout=900`", "REFUTED",
     'gitext/config.py:15 sets GitConfig.credential_helper = "cache --timeout=3600", '
     "not cache --timeout=900"),
    ("the credential helper caches for one hour: `cache --timeout=3600`", "VERIFIED",
     '`GitConfig.credential_helper = "cache --timeout=3600"` at gitext/config.py:15'),
    ("The history limit is 50", "REFUTED",
     "gitext/config.py:20 sets GitConfig.history_limit = 100, not 50"),
    ("The history limit is 100", "VERIFIED", "`GitConfig.history_limit = 100`"),
    # a JSON settings schema, a duration in the unit its description says
    ("The status poll refreshes every 10000 ms by default (refreshInterval)", "REFUTED",
     "schema/plugin.json:7 sets refreshInterval = 3000, not 10000"),
    ("The status poll refreshes every 10 s by default (refreshInterval)", "REFUTED",
     "sets refreshInterval = 3000, not 10000"),
    ("The status poll refreshes every 3 seconds by default (refreshInterval)", "VERIFIED",
     "`refreshInterval = 3000` at schema/plugin.json:7"),
    ("`historyCount` defaults to 50", "REFUTED", "schema/plugin.json:12 sets historyCount = 25"),
    ("`historyCount` defaults to 25", "VERIFIED", "`historyCount = 25` at schema/plugin.json:12"),
    ("The history count is 25", "VERIFIED", "`historyCount = 25`"),
    # a rate in a settings dict, by the key the note names
    ("Login attempts are throttled at 5/min", "REFUTED",
     "gitext/settings.py:7 sets REST_FRAMEWORK.DEFAULT_THROTTLE_RATES.login = '10/min', not 5/min"),
    ("the 'login' rate is 5/min", "REFUTED", "DEFAULT_THROTTLE_RATES.login = '10/min', not 5/min"),
    ("Login attempts are throttled at 10 per minute", "VERIFIED",
     "`REST_FRAMEWORK.DEFAULT_THROTTLE_RATES.login = '10/min'` at gitext/settings.py:7"),
    ("the 'login' rate is 10/min", "VERIFIED", "DEFAULT_THROTTLE_RATES.login = '10/min'"),
]  # fmt: skip

# Nothing to compare with, so never refuted: a default the code computes, a name two files
# give different defaults, a duration for a number whose unit is not said, a key the
# sentence does not tell from another, a bound rather than a default.
UNCHECKED: list[str] = [
    "The poll interval is 5 s",
    "polls every 5 s by default (poll_interval)",
    "Burst requests are throttled at 60/min",
    "`maxFiles` defaults to 10",
    "A diff shows 3 s of context by default (contextLines)",
    "Anonymous users are throttled at 100/day",
    "Login attempts are throttled at most 20/min",
    "The git command timeout is at most 60 s",
    "`fixtureOnly` defaults to 9",
]

# A value the sentence does not state of the setting: where it is set, another thing's.
NOT_ITS_VALUE: list[str] = [
    "The credential helper is set in `gitext/config.py`",
    "The credential helper is `GitConfig.credential_helper`",
    "The history limit is shown in a panel of 3 columns",
    "The history limit, like the page of 3 columns, is configurable",
]


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a Jupyter server extension with its settings")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), NOTES)
async def test_a_settings_default_is_verified_when_declared_and_refuted_when_another(
    app_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served
    assert "not checked" not in str(served.get("verification")), served


@pytest.mark.parametrize("text", UNCHECKED)
async def test_a_default_that_cannot_be_compared_is_never_refuted(
    app_repo: GitRepo, text: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    assert "symbol:" not in " ".join(a["anchor"] for a in served["anchors"]), served


@pytest.mark.parametrize("text", NOT_ITS_VALUE)
async def test_a_value_the_sentence_does_not_give_the_setting_is_not_compared(
    app_repo: GitRepo, text: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] != "REFUTED", served
    assert not any("=" in a["anchor"] for a in served["anchors"]), served
