"""Absence by kind and negations that bind, read from prose (``anchors.absence``,
``anchors.clauses._negated_references``) and checked (``anchors.technology``)."""

from __future__ import annotations

import pytest

from anchors.codenames import DropReason
from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, facts_from_json, facts_to_json
from anchors.pyfacts import extract_file_facts
from anchors.spec import parse_anchor
from anchors.technology import BESIDE_DETAIL, find_technology
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

FILES = {
    "pyproject.toml": '[project]\nname = "shop"\ndependencies = ["httpx", "asyncpg"]\n',
    "app/__init__.py": "",
    "app/client.py": "import os\nimport httpx\n\nURL = os.getenv('API_URL')\n",
    "app/types.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import requests\n",
    "tests/test_client.py": "import respx\n",
    "conftest.py": "import respx\n",  # a test helper at the root runs no application code
    ".github/workflows/ci.yml": "on: push\n",
    "ops/alertmanager.yml": "receivers:\n  - pagerduty_configs:\n      - routing_key: K\n",
}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(FILES, "app")
    return source.fingerprint()


def _read(text: str, fp: Fingerprint) -> tuple[list[str], tuple[str, ...]]:
    found = infer_anchors(text, fp)
    return [a.render() for a in found.anchors], found.uncovered


def test_a_tool_beside_the_code_that_the_repository_does_not_name_is_unknown(
    fp: Fingerprint,
) -> None:
    finding = find_technology("linear", None, fp)
    assert not finding.answerable and BESIDE_DETAIL in finding.detail
    for anchor in ("tech:linear", "!tech:linear", "tech:slack", "!tech:github-issues"):
        assert check_anchor(parse_anchor(anchor), None, fp).verdict is Verdict.UNKNOWN, anchor


def test_a_tool_beside_the_code_that_the_repository_names_is_checked(fp: Fingerprint) -> None:
    assert check_anchor(parse_anchor("tech:pagerduty"), None, fp).verdict is Verdict.HOLDS
    assert check_anchor(parse_anchor("!tech:pagerduty"), None, fp).verdict is Verdict.BROKEN


def test_what_must_leave_a_footprint_is_refuted_by_its_absence(fp: Fingerprint) -> None:
    for anchor in ("tech:redis", "tech:sentry", "tech:celery", "tech:circleci"):
        assert check_anchor(parse_anchor(anchor), None, fp).verdict is Verdict.BROKEN, anchor


@pytest.mark.parametrize(
    ("text", "anchors", "part"),
    [
        ("We track bugs in Linear, not GitHub issues.", ["tech:linear"],
         f"GitHub Issues ({BESIDE_DETAIL})"),
        ("Release notes are written in Notion.", ["tech:notion"], f"Notion ({BESIDE_DETAIL})"),
        ("Production runs on ECS Fargate.", ["tech:ecs"], f"Amazon ECS ({BESIDE_DETAIL})"),
        ("We don't track bugs in Jira anymore.", [], f"Jira ({BESIDE_DETAIL})"),
        ("We no longer use Wrike.", [], f"Wrike ({BESIDE_DETAIL})"),
    ],
)  # fmt: skip
def test_a_tool_beside_the_code_is_an_uncovered_part_and_never_negated(
    fp: Fingerprint, text: str, anchors: list[str], part: str
) -> None:
    found, uncovered = _read(text, fp)
    assert found == anchors
    assert part in uncovered


def test_a_negated_tool_beside_the_code_is_dropped_with_its_reason(fp: Fingerprint) -> None:
    found = infer_anchors("We track bugs in Linear, not GitHub issues.", fp)
    assert [d.reason for d in found.dropped if d.candidate == "GitHub issues"] == [
        DropReason.BESIDE_THE_CODE
    ]


def test_a_tool_beside_the_code_the_repository_names_leaves_nothing_uncovered(
    fp: Fingerprint,
) -> None:
    assert _read("Alerts page through PagerDuty.", fp) == (["tech:pagerduty"], ())


def test_a_negated_lower_case_unknown_name_is_still_an_absent_import(fp: Fingerprint) -> None:
    assert _read("We no longer use zorbdb.", fp)[0] == ["!import:zorbdb", "!dep:zorbdb"]


def test_a_negated_capitalised_name_the_code_has_is_still_checked(fp: Fingerprint) -> None:
    # "Httpx" is in the vocabulary; an unknown capitalised name the code imports is too
    assert _read("We no longer use httpx.", fp)[0] == ["!tech:httpx"]


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        ("Nothing reads `API_URL` from the environment.", ["!env:API_URL"]),
        ("No code imports aiohttp.", ["!import:aiohttp"]),
        ("No module imports httpx.", ["!import:httpx"]),
    ],
)
def test_nothing_and_no_code_negate_what_follows(
    fp: Fingerprint, text: str, anchors: list[str]
) -> None:
    assert _read(text, fp)[0] == anchors


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("httpx is only a type-checking dependency; nothing imports it at runtime.",
         "the claim about httpx"),
        ("We added httpx, but it is not imported at runtime.", "the claim about httpx"),
        ("Nothing imports respx at runtime.", "the claim about respx"),
        ("The `httpx` package is used only by the client.", "the claim about httpx"),
        ("We use httpx only in the client.", "the claim about httpx"),
    ],
)  # fmt: skip
def test_a_negation_no_anchor_checks_keeps_no_positive_anchor(
    fp: Fingerprint, text: str, part: str
) -> None:
    found, uncovered = _read(text, fp)
    name = part.removeprefix("the claim about ").lower()
    positive = [a for a in found if not a.startswith("!")]
    assert not any(a.split(":", 1)[1].startswith(name) for a in positive), found
    assert part in uncovered


def test_a_replacement_is_no_negation_of_its_subject(fp: Fingerprint) -> None:
    found, _ = _read("We no longer call the API with requests; httpx replaced it.", fp)
    assert "tech:httpx" in found


def test_an_import_under_type_checking_is_recorded_as_such() -> None:
    source = (b"import typing\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              b"    import requests\nelse:\n    import json\nif typing.TYPE_CHECKING:\n"
              b"    from a.b import c\n")  # fmt: skip
    facts = extract_file_facts(source, "app/x.py")
    assert {i.module: i.typing for i in facts.imports} == {
        "typing": False, "requests": True, "json": False, "a.b": True}  # fmt: skip
    assert facts_from_json(facts_to_json(facts)).imports == facts.imports


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        # false: app/client.py imports httpx, and it runs
        ("httpx is only a type-checking dependency; nothing imports it at runtime.",
         ["!import:httpx@app/client.py"]),
        # false: declared for run time, and the application's package imports it
        ("httpx is only used in tests.", ["!dep:httpx", "!import:httpx@app"]),
        ("httpx is a test-only dependency.", ["!dep:httpx", "!import:httpx@app"]),
        ("httpx is not a runtime requirement any more.", ["!dep:httpx", "!import:httpx@app"]),
        ("Nothing imports httpx at runtime.", ["!import:httpx@app/client.py"]),
        # true: only TYPE_CHECKING and the tests import them; nothing can say "nowhere"
        ("requests is only a type-checking dependency; nothing imports it at runtime.", []),
        ("The `requests` package is only a type-checking dependency.", []),
        # true: no module of the application's package imports it (tests beside it do)
        ("respx is only used in tests; nothing imports it at runtime.", ["!import:respx@app"]),
        ("respx is only a test dependency, not a runtime one.", ["!import:respx@app"]),
        # the server side: what its Python code imports, and what is declared to run
        ("The API doesn't use SQLAlchemy, only raw asyncpg.",
         ["!import:sqlalchemy", "dep:asyncpg"]),
        ("The backend no longer uses httpx.", ["!import:httpx", "!dep:httpx"]),
        # "only at run time" says it is used there: no absent anchor
        ("httpx is only used at runtime.", []),
    ],
)  # fmt: skip
def test_not_at_run_time_is_checked_against_code_that_runs(
    fp: Fingerprint, text: str, anchors: list[str]
) -> None:
    assert _read(text, fp)[0] == anchors
