"""Absence by kind and negations that bind (issue #31, classes 4 and 7), through MCP
``remember`` then ``recall`` on a real git repository.

A technology that must leave a footprint in the code (a library, an SDK, a datastore, a
queue, a CI service configured by a file) is refuted by its absence; a tool people use
beside the code (a tracker, a wiki, paging, chat, a hosting console) never is: the note
stays ACTIVE and names the tool as "not checkable from this repository". A negated
clause never keeps a positive anchor: what it negates is checked by an absent anchor, or
left uncovered and named.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "rq", "asyncpg", "httpx"]\n'
        '[project.optional-dependencies]\ndev = ["pytest", "respx", "types-requests"]\n'
    ),
    "app/__init__.py": "",
    "app/main.py": (
        "import os\nfrom typing import TYPE_CHECKING\n\nimport asyncpg\nimport fastapi\n"
        "from rq import Queue\n\nif TYPE_CHECKING:\n    import requests\n\n"
        "DATABASE_URL = os.getenv('DATABASE_URL')\n"
    ),
    "app/client.py": "import httpx\n\n\ndef client():\n    return httpx.Client()\n",
    "tests/test_client.py": "import respx\n\n\ndef test_client():\n    assert respx\n",
    ".github/workflows/ci.yml": (
        "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n"
    ),
    "deploy/alertmanager.yml": (
        "receivers:\n  - name: oncall\n    pagerduty_configs:\n      - routing_key: KEY\n"
    ),
}

BESIDE = "(not checkable from this repository)"

# Tools people use beside the code, named in the vocabulary or not: never REFUTED, the tool
# named as an uncovered part. (note, the parts the flags must name)
PEOPLE_TOOLS: list[tuple[str, list[str]]] = [
    ("We track bugs in Linear, not GitHub issues.",
     [f"Linear {BESIDE}", f"GitHub Issues {BESIDE}"]),
    ("Release notes are written in Notion.", [f"Notion {BESIDE}"]),
    ("Production runs on ECS Fargate.", [f"Amazon ECS {BESIDE}"]),
    ("The team discusses incidents in Slack.", [f"Slack {BESIDE}"]),
    ("Tickets are tracked in Jira.", [f"Jira {BESIDE}"]),
    ("Designs live in Figma.", [f"Figma {BESIDE}"]),
    ("Deploys are triggered from the Heroku dashboard.", [f"Heroku {BESIDE}"]),
    ("Bug reports go to GitHub issues.", [f"GitHub Issues {BESIDE}"]),
    ("The site is hosted on Vercel.", [f"Vercel {BESIDE}"]),
    ("Sprint planning happens in Asana.", [f"Asana {BESIDE}"]),
    # false (the alerts go to PagerDuty), but nothing in a repository can say so
    ("Alerts page through Opsgenie.", [f"Opsgenie {BESIDE}"]),
    # negated, in the vocabulary or not
    ("We don't track bugs in Jira anymore.", [f"Jira {BESIDE}"]),
    ("We no longer use Wrike.", [f"Wrike {BESIDE}"]),
]  # fmt: skip

# (note, status served, a text the anchors' receipts or the flags must hold)
CHECKED: list[tuple[str, str, str]] = [
    # a people tool the repository does name is checked like any other technology
    ("Alerts page through PagerDuty.", "VERIFIED", "deploy/alertmanager.yml names pagerduty"),
    # GitHub Actions leaves a footprint; GitHub the tracker is another technology
    ("CI runs on GitHub Actions.", "VERIFIED", ".github/workflows/ci.yml is tracked"),
    # technologies that must leave a footprint: absent, a claim of use is refuted
    ("Errors are reported to Sentry.", "REFUTED", "Sentry is not used by the project"),
    ("We cache sessions in Redis.", "REFUTED", "Redis is not used by the project"),
    ("Background jobs run with Celery.", "REFUTED", "Celery is not used by the project"),
    ("Payments go through Stripe.", "REFUTED", "Stripe is not used by the project"),
    ("CI runs on CircleCI.", "REFUTED", "CircleCI is not used by the project"),
    # negations checked by an absent anchor, true and false
    ("We don't use Celery; background jobs run with RQ.", "VERIFIED",
     "Celery is not used by the project"),
    ("We use Celery for background jobs; we no longer use RQ.", "REFUTED",
     "Celery is not used by the project"),
    ("We no longer use aiohttp.", "VERIFIED", "aiohttp is not used by the project"),
    ("No code imports aiohttp.", "VERIFIED", "no file imports aiohttp"),
    ("httpx was removed.", "REFUTED", "app/client.py imports httpx"),
    ("httpx is not used anywhere.", "REFUTED", "app/client.py imports httpx"),
    ("Nothing reads `DATABASE_URL` from the environment.", "REFUTED",
     "DATABASE_URL is read or declared in app/main.py"),
    ("Nothing reads `SECRET_TOKEN` from the environment.", "VERIFIED",
     "no code reads SECRET_TOKEN"),
    # "not at run time" while code that runs imports it (was VERIFIED by tech:httpx)
    ("httpx is only a type-checking dependency; nothing imports it at runtime.", "REFUTED",
     "imported by app/client.py"),
    ("`httpx` is only used in tests; nothing imports it at runtime.", "REFUTED",
     "imported by app/client.py"),
    ("httpx is only used in tests.", "REFUTED", "imported by app/client.py"),
    ("Nothing imports httpx at runtime.", "REFUTED", "imported by app/client.py"),
    # a run-time role denied: no module of the application's package imports it (the tests
    # beside it do, which the role allows)
    ("respx is only used in tests; nothing imports it at runtime.", "ACTIVE",
     "respx is not imported in app"),
    ("respx is a test dependency, not a runtime one.", "VERIFIED", "respx is not imported in app"),
    # the server side's negation: what its Python code imports
    ("The API doesn't use SQLAlchemy, only raw asyncpg.", "VERIFIED",
     "no file imports sqlalchemy"),
]  # fmt: skip

# Negations and restrictions no anchor can check as written, and true ones that say where
# a name is *not* used: no positive anchor is kept on it, the note stays ACTIVE and names
# the claim. (note, part named)
NEGATED_UNCHECKED: list[tuple[str, str]] = [
    # true: only a TYPE_CHECKING block imports requests
    ("The `requests` package is only a type-checking dependency; nothing imports it at "
     "runtime.", "the claim about requests"),
    ("Nothing imports respx at runtime.", "the claim about respx"),
    # "only" says it is used nowhere else: true, and not checked (a place, not run time)
    ("We use respx only in the tests.", "the claim about respx"),
    ("We use httpx only in the client.", "the claim about httpx"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo


def _said(served: dict[str, Any]) -> list[str]:
    return [str(served.get("verification")), *served["flags"],
            *(str(a["detail"]) for a in served["anchors"])]  # fmt: skip


@pytest.mark.parametrize(("text", "parts"), PEOPLE_TOOLS)
async def test_a_tool_people_use_beside_the_code_is_never_refuted_by_its_absence(
    app_repo: GitRepo, text: str, parts: list[str]
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    for part in parts:
        assert f"uncovered:{part}" in served["flags"], served
    # "not GitHub issues" is no claim about GitHub Actions' workflows
    assert not any(a["anchor"].startswith("!") for a in served["anchors"]), served


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_what_must_leave_a_footprint_is_checked_both_ways(
    app_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert any(receipt in said for said in _said(served)), served


@pytest.mark.parametrize(("text", "part"), NEGATED_UNCHECKED)
async def test_a_negation_no_anchor_checks_keeps_no_positive_anchor_and_is_named(
    app_repo: GitRepo, text: str, part: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    assert f"uncovered:{part}" in served["flags"], served
    negated = part.removeprefix("the claim about ").lower()
    assert not any(a["anchor"].startswith("tech:" + negated) for a in served["anchors"])


async def test_a_given_anchor_on_a_tool_beside_the_code_is_unknown_either_way(
    app_repo: GitRepo,
) -> None:
    used = await remember_and_serve(app_repo.root, "We track bugs in Linear", ["tech:linear"])
    unused = await remember_and_serve(app_repo.root, "We left Jira", ["!tech:jira"])
    for served in (used, unused):
        assert served["status"] == "ACTIVE", served
        [anchor] = served["anchors"]
        assert BESIDE.strip("()") in anchor["detail"], served


# A given anchor the text says the opposite of: what is checked is what the text says.
# (note, given anchors, status served, the anchor that must be served, a receipt it holds)
GIVEN_AGAINST_THE_TEXT: list[tuple[str, list[str], str, str, str]] = [
    # false: app/client.py imports httpx (was served ACTIVE, "partly checked")
    ("app/client.py doesn't import httpx; only app/main.py talks to the network.",
     ["import:httpx@app/client.py"], "REFUTED", "!import:httpx@app/client.py",
     "imported by app/client.py"),
    # the text's reading is of the technology: checked beside the declaration given
    ("We don't use httpx.", ["dep:httpx"], "REFUTED", "!tech:httpx",
     "app/client.py imports httpx"),
    # true: app/main.py does not import httpx (was REFUTED by the positive anchor)
    ("app/main.py doesn't import httpx.", ["import:httpx@app/main.py"], "VERIFIED",
     "!import:httpx@app/main.py", "not imported in app/main.py"),
    # a word the reading leaves alone ("json" is no package of this project) is read from
    # the agent's anchor: true, so never refuted
    ("app/client.py doesn't import json.", ["import:json@app/client.py"], "VERIFIED",
     "!import:json@app/client.py", "not imported in app/client.py"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "given", "status", "anchor", "receipt"),
                         GIVEN_AGAINST_THE_TEXT)  # fmt: skip
async def test_a_given_anchor_the_text_negates_is_checked_as_the_text_says(
    app_repo: GitRepo, text: str, given: list[str], status: str, anchor: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text, given)
    assert served["status"] == status, served
    [checked] = [a for a in served["anchors"] if a["anchor"] == anchor]
    assert receipt in checked["detail"], served
    assert not any(a["anchor"] == anchor.removeprefix("!") for a in served["anchors"]), served


async def test_a_negation_the_reading_names_unchecked_keeps_the_given_anchor(
    app_repo: GitRepo,
) -> None:
    # Only the tests import respx: true, since tests are not run time. The reading names
    # the claim unchecked, so the given anchor is not turned into !import:respx, which the
    # test file would break.
    served = await remember_and_serve(
        app_repo.root, "Nothing imports respx at runtime.", ["import:respx"]
    )
    assert served["status"] == "ACTIVE", served
    assert [a["anchor"] for a in served["anchors"]] == ["import:respx"], served


async def test_an_anchor_the_agent_gives_as_absent_stays_as_given(app_repo: GitRepo) -> None:
    served = await remember_and_serve(
        app_repo.root, "app/client.py imports httpx.", ["!import:httpx@app/client.py"]
    )
    assert served["status"] == "REFUTED", served
    assert "!import:httpx@app/client.py" in [a["anchor"] for a in served["anchors"]]
