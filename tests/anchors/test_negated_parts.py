"""Negated and restricted clauses no absent anchor checks (``anchors.negated_parts``), and
what development-only evidence and CI's own files answer (``anchors.development``,
``anchors.ci_binding``, ``anchors.tox_ini``): pure functions over text, manifests and the
plain fact fingerprint of ``tests.anchors.test_extract``."""

from __future__ import annotations

import pytest

from anchors.ci_binding import _about_ci
from anchors.development import about_development
from anchors.manifests import parse_manifest
from anchors.negated_parts import negated_clauses
from anchors.subject import sentence_spans

R = pytest.param


def _parts(text: str, checked: tuple[str, ...] = (), named: tuple[str, ...] = ()) -> list[str]:
    found = negated_clauses(text, list(sentence_spans(text)), list(checked), list(named))
    return [c.part for c in found if c.part]


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        R("route.go doesn't touch regular expressions; that is all in regexp.go.",
          ['the negation "doesn\'t touch regular expressions"'], id="a-clause"),
        R("The Dockerfile has no USER directive, so it runs as root.",
          ['the negation "no USER directive"'], id="a-determiner"),
        R("Nothing in the package imports pkg_resources.",
          ['the negation "Nothing in the package imports pkg_resources"'], id="nothing"),
        R("The default features are just color and humantime.",
          ['the restriction "just color and humantime"'], id="a-restriction"),
        R("docker-compose publishes port 8080 on 127.0.0.1 only.",
          ['the restriction "docker-compose publishes port 8080 on 127.0.0.1 only"'],
          id="only-at-the-end"),
        R("It never retries. It does not log either.",
          ['the negation "never retries"', 'the negation "not log either"'], id="two-sentences"),
    ],
)  # fmt: skip
def test_a_negated_clause_without_an_absent_anchor_is_named(text: str, parts: list[str]) -> None:
    assert _parts(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        R('ErrNotFound\'s message is "no matching route was found".', id="a-quoted-message"),
        R("`no_cache` turns caching off.", id="a-code-span"),
        R("The prompt module has `Confirm` for yes/no questions.", id="yes-no"),
        R("PAGE_SIZE defaults to 20 when not set.", id="a-condition"),
        R("If no token is given, the request is refused.", id="a-condition-first"),
        R("It not only parses but also validates.", id="not-only"),
        R("Is there no cache?", id="a-question"),
        R("Retries are capped at no more than 5.", id="a-bound"),
    ],
)  # fmt: skip
def test_words_that_only_look_negative_are_no_negation(text: str) -> None:
    assert _parts(text) == []


def test_a_clause_an_absent_anchor_was_read_from_is_covered() -> None:
    text = "mux.go doesn't import regexp; route.go never logs."
    assert _parts(text, checked=("regexp",)) == ['the negation "never logs"']
    # an origin with what it was read as ("humantime (never used)") still names the word
    assert _parts("humantime is never used.", checked=("humantime (never used)",)) == []


def test_a_negation_already_named_in_other_words_is_not_named_twice() -> None:
    text = "Nothing in the isso package imports pkg_resources."
    named = ("that nothing in the isso package imports pkg_resources",)
    assert _parts(text, named=named) == []


@pytest.mark.parametrize(
    ("sentence", "development"),
    [
        R("Tests run with pytest.", True, id="tests"),
        R("CI lints the code with ruff.", True, id="lint"),
        R("The package is built with poetry-core.", True, id="built"),
        R("typescript is a devDependency.", True, id="dev-dependency"),
        R("Responses are cached with flask-caching.", False, id="run-time"),
        R("wger keeps its data in MongoDB through pymongo.", False, id="storage"),
        R("The latest release is 2.0.", True, id="release"),
        R("Attestation happens at runtime.", False, id="contest-is-not-test"),
    ],
)  # fmt: skip
def test_a_sentence_about_development_is_told_from_one_about_what_the_code_does(
    sentence: str, development: bool
) -> None:
    assert about_development(sentence) is development


@pytest.mark.parametrize(
    ("head", "about"),
    [
        R("CI lints the code with ", True, id="ci"),
        R("The CI job runs the tests with ", True, id="the-ci-job"),
        R("In CI, the code is checked with ", True, id="in-ci"),
        R("GitHub Actions runs ", True, id="github-actions"),
        R("The pipeline deploys with ", True, id="the-pipeline"),
        R("We lint with ", False, id="we"),
        R("The scheduler runs jobs with ", False, id="jobs-not-the-subject"),
        R("The API calls Stripe through ", False, id="a-component"),
    ],
)  # fmt: skip
def test_a_clause_whose_subject_is_ci(head: str, about: bool) -> None:
    assert _about_ci(head, 0, len(head)) is about


def test_a_tox_test_environment_declares_for_development_only() -> None:
    tox = (
        b"[tox]\nenvlist = py311\nrequires = tox-uv\n\n[testenv]\ndeps =\n    pytest>=7\n"
        b"    -r requirements-dev.txt\n    {toxinidir}/vendored\n    py311: werkzeug\n"
        b"    .[test]\ncommands = pytest\n\n[testenv:docs]\ndeps = sphinx  # the docs\n"
        b"[flake8]\nmax-line-length = 100\n"
    )
    deps = parse_manifest(tox, "tox.ini")
    assert [(d.name, d.spec, d.runtime) for d in deps] == [
        ("pytest", ">=7", False), ("werkzeug", "", False), ("sphinx", "", False)
    ]  # fmt: skip
    assert parse_manifest(b"[testenv\ndeps = x", "tox.ini") == []  # malformed: nothing


def test_an_extra_the_application_runs_with_is_optional_not_development() -> None:
    pyproject = (
        b'[project]\nname = "kinto"\ndependencies = ["pyramid"]\n'
        b'[project.optional-dependencies]\npostgresql = ["psycopg2"]\ntest = ["pytest"]\n'
        b'dev-tools = ["ruff"]\n'
    )
    deps = {d.name: (d.runtime, d.optional) for d in parse_manifest(pyproject, "pyproject.toml")}
    assert deps == {"pyramid": (True, False), "psycopg2": (False, True),
                    "pytest": (False, False), "ruff": (False, False)}  # fmt: skip
    setup_cfg = (
        b"[options]\ninstall_requires =\n    pyramid\n[options.extras_require]\n"
        b"redis =\n    redis\ntesting =\n    pytest\n"
    )
    deps = {d.name: (d.runtime, d.optional) for d in parse_manifest(setup_cfg, "setup.cfg")}
    assert deps == {"pyramid": (True, False), "redis": (False, True), "pytest": (False, False)}
