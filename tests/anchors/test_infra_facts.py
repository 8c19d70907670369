"""Infrastructure values (issue #31): what Dockerfiles, compose files and CI workflows
state (``anchors.infra_facts``), how a stated value compares with them
(``anchors.infra_compare``), the ``config:`` anchor's syntax, and its verdict on a real
repository's fingerprint, with the receipt quoting file and line."""

from __future__ import annotations

import pytest

from anchors.fingerprint import CodeSource
from anchors.infra_compare import (
    Match,
    compare_command,
    compare_image,
    compare_port,
    compare_runner,
    compare_user,
    compare_version,
    versions_cover,
)
from anchors.infra_facts import MAX_INFRA_BYTES, InfraKind, InfraValue, infra_kind, read_infra
from anchors.spec import AnchorKind, AnchorSyntaxError, Expect, parse_anchor
from anchors.value_claims import values_configured_by
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

S, D, U = Match.SAME, Match.DIFFERENT, Match.UNKNOWN


def values(data: str, path: str) -> dict[str, list[tuple[str | None, int]]]:
    read = read_infra(data.encode(), path)
    assert read is not None
    found: dict[str, list[tuple[str | None, int]]] = {}
    for value in read:
        found.setdefault(value.key, []).append((value.text, value.line))
    return found


# -- which files ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("Dockerfile", InfraKind.DOCKERFILE),
        ("services/api/Dockerfile", InfraKind.DOCKERFILE),
        ("docker/Dockerfile.prod", InfraKind.DOCKERFILE),
        ("api.Dockerfile", InfraKind.DOCKERFILE),
        ("Containerfile", InfraKind.DOCKERFILE),
        ("docker-compose.yml", InfraKind.COMPOSE),
        ("deploy/docker-compose.override.yaml", InfraKind.COMPOSE),
        ("compose.yaml", InfraKind.COMPOSE),
        (".github/workflows/ci.yml", InfraKind.GITHUB_WORKFLOW),
        (".github/workflows/release.yaml", InfraKind.GITHUB_WORKFLOW),
        (".gitlab-ci.yml", InfraKind.GITLAB_CI),
        ("docs/dockerfile.md", None),
        ("composer.json", None),
        ("app/workflows/ci.yml", None),
        ("README.md", None),
    ],
)
def test_infrastructure_files_are_known_by_their_names_at_any_depth(path, kind):
    assert infra_kind(path) is kind


# -- Dockerfiles ------------------------------------------------------------------------------
MULTI_STAGE = """\
# syntax=docker/dockerfile:1
ARG NODE_TAG=20-alpine
FROM node:20-alpine AS assets
ENV NODE_ENV=production
RUN npm ci && \\
    npm run build

FROM --platform=linux/amd64 python:3.11-slim AS runtime
ENV PYTHONUNBUFFERED=1 \\
    APP_HOME="/srv/app"
ENV LEGACY_STYLE some value
EXPOSE 8000 9000/udp
USER app:app
CMD ["gunicorn", "shop.wsgi:application", "--bind", "0.0.0.0:8000"]
"""


def test_a_multi_stage_dockerfile_gives_the_built_image_and_every_stage():
    found = values(MULTI_STAGE, "Dockerfile")
    assert found["FROM"] == [("python:3.11-slim", 8)]
    assert found["FROM.assets"] == [("node:20-alpine", 3)]
    assert found["FROM.runtime"] == [("python:3.11-slim", 8)]
    assert found["ARG.NODE_TAG"] == [("20-alpine", 2)]
    assert found["EXPOSE"] == [("8000", 12), ("9000/udp", 12)]
    assert found["USER"] == [("app:app", 13)]
    assert found["CMD"] == [("gunicorn shop.wsgi:application --bind 0.0.0.0:8000", 14)]
    assert found["ENV.PYTHONUNBUFFERED"] == [("1", 9)]
    assert found["ENV.APP_HOME"] == [("/srv/app", 9)]
    assert found["ENV.LEGACY_STYLE"] == [("some value", 11)]
    assert found["python-version"] == [("3.11", 8)]
    assert "ENV.NODE_ENV" not in found  # an earlier stage's environment is not the image's


def test_a_final_stage_built_from_an_earlier_stage_is_that_stage_s_image():
    found = values("FROM python:3.12 AS base\nRUN true\nFROM base\nUSER 1000\n", "Dockerfile")
    assert found["FROM"] == [("python:3.12", 3)]
    assert found["USER"] == [("1000", 4)]


@pytest.mark.parametrize(
    "line", ["FROM python:${PYTHON_VERSION}-slim", "FROM $BASE_IMAGE", "FROM ${REGISTRY}/app:1",
             "FROM python:${PYTHON_VERSION:-3.10}-slim"]
)
def test_a_build_argument_without_a_default_in_the_base_image_is_not_a_value(line):
    found = values(f"ARG PYTHON_VERSION\nARG BASE_IMAGE\n{line}\n", "Dockerfile")
    assert found["FROM"] == [(None, 3)]
    assert "python-version" not in found or found["python-version"] == [(None, 3)]


def test_a_build_argument_s_default_is_the_image_built_by_default():
    text = (
        "ARG PY_VERSION=3.12\nARG REGISTRY=docker.io\n"
        "FROM ${REGISTRY}/python:${PY_VERSION}-alpine AS builder\n"
        "ARG PORT=8080\nEXPOSE $PORT\n"
        "FROM docker.io/python:$PY_VERSION-alpine\nARG PY_VERSION\nARG PORT\n"
        "ENV PYTHON=${PY_VERSION} LISTEN=${PORT}\nEXPOSE ${PORT}\nCMD serve --python $PY_VERSION\n"
    )
    found = values(text, "Dockerfile")
    assert found["FROM"] == [("docker.io/python:3.12-alpine", 6)]
    assert found["python-version"] == [("3.12", 6)]
    # a stage sees a global argument it declares again, not another stage's argument
    assert found["ENV.PYTHON"] == [("3.12", 9)]
    assert found["ENV.LISTEN"] == [(None, 9)]
    assert found["EXPOSE"] == [(None, 10)]
    # the running shell's variable, kept as written
    assert found["CMD"] == [("serve --python $PY_VERSION", 11)]


def test_the_last_cmd_and_a_computed_expose_are_read_as_docker_reads_them():
    found = values("FROM alpine:3.19\nCMD echo one\nEXPOSE ${PORT}\nCMD echo two\n", "x.Dockerfile")
    assert found["CMD"] == [("echo two", 4)]
    assert found["EXPOSE"] == [(None, 3)]
    assert "python-version" not in found


def test_python_latest_names_no_python_version():
    assert values("FROM python:latest\n", "Dockerfile")["python-version"] == [(None, 1)]


# -- compose ---------------------------------------------------------------------------------
COMPOSE = """\
x-env: &env
  TZ: UTC
services:
  web:
    build: .
    ports:
      - "8080:8000"
      - target: 9000
        published: 9001
    environment:
      - DJANGO_DEBUG=false
      - DATABASE_URL=postgres://shop@db/shop
    command: ["gunicorn", "shop.wsgi"]
  db:
    image: docker.io/library/postgres:15-alpine
    environment:
      <<: *env
      POSTGRES_DB: shop
      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}
  cache:
    image: "redis:7"
"""


def test_compose_gives_each_service_s_image_ports_environment_and_command():
    found = values(COMPOSE, "docker-compose.yml")
    assert found["services.db.image"] == [("docker.io/library/postgres:15-alpine", 15)]
    assert found["services.cache.image"] == [("redis:7", 21)]
    assert found["services.web.ports"] == [("8080:8000", 7), ("9001:9000", 8)]
    assert found["services.web.environment.DJANGO_DEBUG"] == [("false", 11)]
    assert found["services.web.command"] == [("gunicorn shop.wsgi", 13)]
    assert found["services.db.environment.POSTGRES_DB"] == [("shop", 18)]
    assert found["services.db.environment.TZ"] == [("UTC", 2)]  # through the merge key
    assert found["services.db.environment.POSTGRES_PASSWORD"] == [(None, 19)]


@pytest.mark.parametrize("data", ["services: [unclosed", "\tservices:\n", "a: *undefined\n"])
def test_a_compose_file_that_is_not_valid_yaml_is_not_read(data):
    assert read_infra(data.encode(), "docker-compose.yml") is None


def test_a_python_tag_in_yaml_is_never_constructed(tmp_path):
    marker = tmp_path / "ran"
    data = f"services:\n  web:\n    image: !!python/object/apply:os.system ['touch {marker}']\n"
    assert read_infra(data.encode(), "docker-compose.yml") == (
        InfraValue("services.web.image", None, 3),  # not a value: a check of it is unknown
    )
    assert not marker.exists()


def test_an_oversized_or_binary_infrastructure_file_is_not_read():
    assert read_infra(b"services: {}\n" + b"#" * MAX_INFRA_BYTES, "compose.yml") is None
    assert read_infra(b"\xff\xfeFROM x", "Dockerfile") is None


def test_a_yaml_alias_bomb_is_read_without_expanding_it():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
    assert read_infra((bomb + "services: {}\n").encode(), "compose.yml") == ()


# -- CI --------------------------------------------------------------------------------------
WORKFLOW = """\
name: CI
on: [push]
env:
  LINT_PYTHON: "3.12"
jobs:
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-latest, macos-14]
        python-version: ["3.10", "3.11"]
        include:
          - python-version: "3.12"
            os: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
  lint:
    runs-on: ubuntu-22.04
    container:
      image: python:3.12-slim
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ env.LINT_PYTHON }}
      - uses: actions/setup-node@v4
        with: {node-version: 20}
      - uses: actions/setup-go@v5
        with:
          go-version: ${{ steps.pick.outputs.go }}
"""


def test_a_workflow_matrix_is_expanded_into_the_versions_and_runners_it_tests():
    found = values(WORKFLOW, ".github/workflows/ci.yml")
    assert found["python-version"] == [("3.10", 11), ("3.11", 11), ("3.12", 13), ("3.12", 4)]
    assert found["runs-on"] == [("ubuntu-latest", 10), ("macos-14", 10), ("ubuntu-22.04", 20)]
    assert found["image"] == [("python:3.12-slim", 22)]
    assert found["node-version"] == [("20", 28)]
    assert found["go-version"] == [(None, 31)]  # an expression that is not the matrix


def test_a_gitlab_pipeline_gives_its_images():
    data = "image: python:3.11\nstages: [test]\ntest:\n  image: {name: 'postgres:12'}\n"
    assert values(data, ".gitlab-ci.yml")["image"] == [("python:3.11", 1), ("postgres:12", 4)]


# -- comparisons -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("stated", "actual", "match"),
    [
        ("python:3.11", "python:3.11-slim", S),
        ("python:3", "python:3.11.4-slim-bookworm", S),
        ("python:3.11-slim", "python:3.11-slim-bookworm", S),
        ("python:3.11", "docker.io/library/python:3.11", S),
        ("postgres", "postgres:15", S),
        ("python:3.9", "python:3.11-slim", D),
        ("python:3.11-alpine", "python:3.11-slim", D),
        ("python:3.11", "node:20", D),
        ("python:3.11.4", "python:3.11", U),
        ("python:3.11", "python:latest", U),
        ("python:3.11", "python", U),
        ("python:3.11", "python@sha256:abc", U),
        ("python:3.11", "python:${TAG}", U),
        ("python:3.11", None, U),
        ("node:20", "node:lts-alpine", U),
        # another family of image, whatever the version; a release of the same family
        ("python:3.11-slim", "python:3-alpine3.23", D),
        ("python:3.12-alpine", "python:3.12-alpine3.19", S),
        ("python:3.12-alpine3.18", "python:3.12-alpine3.19", D),
        ("python:3.11-slim-bookworm", "python:3.11-slim", U),
    ],
)
def test_an_image_is_compared_as_a_reference(stated, actual, match):
    assert compare_image(stated, actual) is match


@pytest.mark.parametrize(
    ("stated", "actual", "match"),
    [
        ("3.8", "3.8", S),
        ("3.8", "3.8.10", S),
        ("3.10", "3.1", D),
        ("3.8", "3.9", D),
        ("3.8.10", "3.8", U),
        ("3.8", "3.x", U),
        ("18", "18.x", S),  # the series the wildcard names
        ("19", "18.x", D),
        ("3.9", "pypy3.9", U),
        ("3.8", "pypy3.9", D),
        ("3.12", "3.12-dev", S),
        ("3.12", None, U),
    ],
)
def test_one_version_is_a_series(stated, actual, match):
    assert compare_version(stated, actual) is match


MATRIX = ["3.10", "3.11", "3.12"]


@pytest.mark.parametrize(
    ("stated", "listed", "match"),
    [
        ("3.11", MATRIX, S),
        ("3.8", MATRIX, D),
        ("3.10-3.12", MATRIX, S),
        (">=3.10,<=3.12", MATRIX, S),
        ("3.9-3.12", MATRIX, D),
        (">=3.10", MATRIX, S),
        ("3.10+", MATRIX, S),
        (">=3.9", MATRIX, D),
        ("3.8", [*MATRIX, None], U),
        ("3.10-3.12", ["3.10", None], U),
        ("3.8-2.7", MATRIX, U),
        ("latest", MATRIX, U),
    ],
)
def test_a_stated_set_of_versions_must_be_covered_by_the_matrix(stated, listed, match):
    assert versions_cover(stated, listed) is match


@pytest.mark.parametrize(
    ("stated", "actual", "match"),
    [
        ("8000", "8000", S),
        ("8000", "8000/tcp", S),
        ("8000/tcp", "8000", S),
        ("8000/udp", "8000/tcp", D),
        ("8000", "8080:8000", S),
        ("8080", "8080:8000", S),
        ("8080:8000", "8080:8000", S),
        ("8000:8000", "8080:8000", D),
        ("8000", "127.0.0.1:8080:8000", S),
        ("5000", "8080:8000", D),
        ("8005", "8000-8010", S),
        ("8000", "${PORT}", U),
        # the address a port is published on ("on 127.0.0.1 only")
        ("127.0.0.1:8080", "127.0.0.1:8080:8000", S),
        ("localhost:8080", "127.0.0.1:8080:8000", S),
        ("127.0.0.1:8080", "8080:8000", D),
        ("0.0.0.0:8080", "8080:8000", S),
        ("0.0.0.0:8080", "127.0.0.1:8080:8000", D),
        ("127.0.0.1:9090", "127.0.0.1:8080:8000", D),
    ],
)
def test_a_port_is_either_side_of_a_mapping(stated, actual, match):
    assert compare_port(stated, actual) is match


def test_users_commands_and_runners_have_their_own_rules():
    assert compare_user("app", "app:app") is S
    assert compare_user("root", "app") is D
    assert compare_user("app", "1000") is U
    assert compare_command("gunicorn shop.wsgi:application", "gunicorn shop.wsgi:application "
                           "--bind 0.0.0.0:8000") is S  # fmt: skip
    assert compare_command("uvicorn main:app", "gunicorn shop.wsgi:application") is D
    assert compare_runner("ubuntu", "ubuntu-22.04") is S
    assert compare_runner("ubuntu-latest", "ubuntu-latest") is S
    assert compare_runner("ubuntu-22.04", "ubuntu-latest") is U
    assert compare_runner("windows-latest", "ubuntu-latest") is D


# -- the anchor -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "config:Dockerfile::FROM=python:3.11-slim",
        "config:FROM=python:3.11",
        "config:docker/compose.yml::services.db.image=postgres:15",
        "config:docker-compose.yml::services.web.ports=8080:8000",
        "config:.github/workflows::python-version=3.10-3.12",
        "config:python-version=>=3.8",
        "config:CMD=gunicorn app:app --bind 0.0.0.0:8000",
        "config:Dockerfile::ENV.DJANGO_SETTINGS_MODULE=shop.settings",
        "config:Dockerfile::USER",
        "!config:Dockerfile::USER",
    ],
)
def test_a_config_anchor_renders_back_to_itself(text):
    anchor = parse_anchor(text)
    assert anchor.kind is AnchorKind.CONFIG
    assert parse_anchor(anchor.render()) == anchor
    assert anchor.render() == text


def test_a_config_anchor_keeps_path_key_and_value_apart():
    anchor = parse_anchor("config:docker/Dockerfile::ENV.OPTS=a=b::c")
    assert (anchor.scope, anchor.value, anchor.stated) == (
        "docker/Dockerfile",
        "ENV.OPTS",
        "a=b::c",
    )
    assert parse_anchor("!config:FROM").expect is Expect.ABSENT


@pytest.mark.parametrize(
    "text",
    ["config:", "config:Dockerfile::=x", "!config:FROM=python:3", "config:../x::FROM=a",
     "config:FROM=", "config:Dockerfile::FR OM=x", "config:/etc/x::FROM=a"],
)  # fmt: skip
def test_a_malformed_or_negated_config_value_anchor_is_rejected(text):
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(text)


def test_a_config_value_covers_the_values_a_note_states_for_it():
    text = "The image is built FROM python:3.11 and serves port 8000 on Python 3.11."
    spans = values_configured_by(text, ["python:3.11", "8080:8000"])
    assert [text[a:b] for a, b in spans] == ["python:3.11", "8000", "3.11"]
    assert values_configured_by("CI runs 3.8", ["3.10-3.12"]) == []


# -- verdicts on a real repository ---------------------------------------------------------
APP = {
    "Dockerfile": MULTI_STAGE,
    "docker-compose.yml": COMPOSE,
    ".github/workflows/ci.yml": WORKFLOW,
    "docker/.env.example": "SENTRY_DSN=\nexport STRIPE_KEY=sk_test\n",
    "deploy/Dockerfile.worker": "FROM python:3.12-slim\nUSER worker\n",
    "deploy/Dockerfile.proxy": "FROM nginx:1.27\nCOPY site.conf /etc/nginx/conf.d/\n",
    "broken/compose.yml": "services: [\n",
}


def check(source: CodeSource, text: str) -> tuple[Verdict, str]:
    result = check_anchor(parse_anchor(text), None, source.fingerprint())
    return result.verdict, result.detail


@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        ("config:Dockerfile::FROM=python:3.11", Verdict.HOLDS,
         "Dockerfile:8 says FROM python:3.11-slim"),
        ("config:Dockerfile::FROM=python:3.9", Verdict.BROKEN,
         "Dockerfile:8 says FROM python:3.11-slim, not python:3.9"),
        ("config:Dockerfile::FROM=node:20", Verdict.UNKNOWN, "cannot tell which stage is meant"),
        ("config:Dockerfile::FROM.assets=node:20", Verdict.HOLDS,
         "Dockerfile:3 says FROM node:20-alpine AS assets"),
        ("config:Dockerfile::EXPOSE=8000", Verdict.HOLDS, "Dockerfile:12 says EXPOSE 8000"),
        ("config:Dockerfile::EXPOSE=5000", Verdict.BROKEN,
         "Dockerfile:12 says EXPOSE 8000; Dockerfile:12 says EXPOSE 9000/udp, not 5000"),
        ("config:Dockerfile::USER=app", Verdict.HOLDS, "Dockerfile:13 says USER app:app"),
        ("config:USER=app", Verdict.UNKNOWN, "but deploy/Dockerfile.worker:2 says USER worker"),
        # python:3.12-slim exposes nothing; nginx exposes its own port, which the file
        # need not repeat
        ("config:deploy/Dockerfile.worker::EXPOSE=8000", Verdict.BROKEN,
         "deploy/Dockerfile.worker states no EXPOSE and deploy/Dockerfile.worker:1 says FROM "
         "python:3.12-slim, an image that exposes no port, not 8000"),
        ("config:deploy/Dockerfile.proxy::EXPOSE=80", Verdict.UNKNOWN, "states no EXPOSE"),
        ("config:deploy/Dockerfile.worker::EXPOSE", Verdict.BROKEN,
         "deploy/Dockerfile.worker states no EXPOSE"),
        ("!config:deploy/Dockerfile.worker::EXPOSE", Verdict.HOLDS, "states no EXPOSE"),
        ("config:Dockerfile::ENV.PYTHONUNBUFFERED=1", Verdict.HOLDS,
         "Dockerfile:9 says ENV PYTHONUNBUFFERED=1"),
        ("config:Dockerfile::CMD=gunicorn shop.wsgi:application", Verdict.HOLDS, "Dockerfile:14"),
        # a program the command does not run: refuted where it does, never verified
        ("config:Dockerfile::CMD=!gunicorn", Verdict.BROKEN,
         "not a command that does not run gunicorn"),
        ("config:Dockerfile::CMD=!uvicorn", Verdict.UNKNOWN, "cannot tell"),
        ("config:docker-compose.yml::services.db.image=postgres:15", Verdict.HOLDS,
         "docker-compose.yml:15 says services.db.image"),
        ("config:services.db.image=postgres:12", Verdict.BROKEN,
         "docker-compose.yml:15 says services.db.image: docker.io/library/postgres:15-alpine, "
         "not postgres:12"),
        ("config:docker-compose.yml::services.web.ports=8080", Verdict.HOLDS, "8080:8000"),
        ("config:docker-compose.yml::services.db.environment.POSTGRES_PASSWORD=x",
         Verdict.UNKNOWN, "(computed)"),
        ("config:.github/workflows::python-version=3.10-3.12", Verdict.HOLDS,
         ".github/workflows/ci.yml:11 lists python-version 3.10, 3.11, 3.12"),
        ("config:.github/workflows::python-version=3.8", Verdict.BROKEN,
         "lists python-version 3.10, 3.11, 3.12, not 3.8"),
        ("config:runs-on=ubuntu-latest", Verdict.HOLDS, "runs-on: ubuntu-latest"),
        ("config:.github/workflows/ci.yml::runs-on=windows-latest", Verdict.BROKEN, "not windows"),
        ("config:broken/compose.yml::services.db.image=postgres:15", Verdict.UNKNOWN,
         "could not be read"),
        ("config:app/Dockerfile::FROM=python:3.11", Verdict.BROKEN, "not in the repository"),
        ("config:docker/.env.example::FROM=python:3.11", Verdict.UNKNOWN,
         "is not a file that states FROM"),
    ],
)  # fmt: skip
def test_a_config_anchor_is_judged_with_the_file_and_line_quoted(
    git_repo: GitRepo, source: CodeSource, anchor: str, verdict: Verdict, detail: str
):
    git_repo.commit(APP, "an application")
    got, said = check(source, anchor)
    assert (got, detail in said) == (verdict, True), said


def test_a_key_declared_in_a_nested_env_example_is_an_environment_read(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit(APP, "an application")
    assert check(source, "env:SENTRY_DSN") == (
        Verdict.HOLDS,
        "SENTRY_DSN is read or declared in docker/.env.example",
    )
    assert check(source, "env:STRIPE_KEY")[0] is Verdict.HOLDS
    assert check(source, "env:NOT_DECLARED")[0] is Verdict.BROKEN


def test_an_uncommitted_dockerfile_edit_is_judged_and_a_commit_reads_only_what_changed(
    git_repo: GitRepo, source: CodeSource
):
    git_repo.commit(APP, "an application")
    assert check(source, "config:Dockerfile::FROM=python:3.11")[0] is Verdict.HOLDS
    git_repo.write({"Dockerfile": "FROM python:3.13-slim\n"})
    assert check(source, "config:Dockerfile::FROM=python:3.11") == (
        Verdict.BROKEN,
        "Dockerfile:1 says FROM python:3.13-slim, not python:3.11",
    )
    git_repo.commit({}, "a new base image")
    fp = source.fingerprint()
    assert fp.infra["Dockerfile"] == (
        InfraValue("FROM.0", "python:3.13-slim", 1),
        InfraValue("FROM", "python:3.13-slim", 1),
        InfraValue("python-version", "3.13", 1),
    )
    assert fp.infra["docker-compose.yml"] is not None
    assert fp.infra["broken/compose.yml"] is None


# -- prose bound to the file it is about ----------------------------------------------------
SEVERAL = {
    "Dockerfile": (
        "FROM docker.io/node:current-alpine AS js\nRUN make js\n"
        "FROM docker.io/python:3.12-alpine\nARG PY_VERSION=3.12\nEXPOSE 8080\n"
    ),
    "docker/Dockerfile-js-testbed": "FROM node:22-bookworm\nRUN npm install puppeteer\n",
    "extras/docker/demo/Dockerfile": "FROM ubuntu:22.04\nEXPOSE 80\nUSER wger\n",
    "extras/docker/development/Dockerfile": "FROM wger/base:2.1-dev\nEXPOSE 8000\nUSER wger\n",
    "docker-compose.yml": (
        "services:\n  isso-server:\n    image: isso:latest\n    ports:\n"
        "      - 127.0.0.1:8080:8080\n    environment:\n      ISSO_SETTINGS: /config/isso.cfg\n"
    ),
    ".github/workflows/tests.yml": (
        "on: push\njobs:\n  test:\n    runs-on: ${{ matrix.os }}\n    strategy:\n"
        "      matrix:\n        os: [ubuntu-latest, macos-latest]\n"
        "        python: ['3.10', '3.11', '3.12']\n    steps:\n"
        "      - run: uv python install ${{ matrix.python }}\n"
    ),
}


@pytest.mark.parametrize(
    ("note", "anchors"),
    [
        ("The Docker image exposes port 8080.", ["config:Dockerfile::EXPOSE=8080"]),
        ("The development image is FROM wger/base:2.1-dev and exposes port 8000.",
         ["config:extras/docker/development/Dockerfile::FROM=wger/base:2.1-dev",
          "config:extras/docker/development/Dockerfile::EXPOSE=8000"]),
        ("The demo image exposes port 8080.",
         ["config:extras/docker/demo/Dockerfile::EXPOSE=8080"]),
        ("The development container runs as the wger user (USER wger).",
         ["config:extras/docker/development/Dockerfile::USER=wger"]),
        ("The JS e2e testbed image is FROM node:20-bookworm.",
         ["config:docker/Dockerfile-js-testbed::FROM=node:20-bookworm"]),
        ("The Docker build sets ARG PY_VERSION=3.12.", ["config:Dockerfile::ARG.PY_VERSION=3.12"]),
        ("docker-compose publishes the isso-server port 8080.",
         ["config:docker-compose.yml::services.isso-server.ports=8080"]),
        ("compose sets ISSO_SETTINGS=/config/isso.cfg for isso-server.",
         ["config:docker-compose.yml::services.isso-server.environment.ISSO_SETTINGS="
          "/config/isso.cfg"]),
        ("CI runs the tests on Python 3.10 through 3.12.",
         ["config:.github/workflows::python-version=3.10-3.12"]),
        ("The Python test matrix in CI includes windows-latest.",
         ["config:.github/workflows::runs-on=windows-latest"]),
        # the Dockerfile at the root, which states no USER: its image runs as root
        ("The image runs as root.", ["config:Dockerfile::USER=root"]),
        ("The Dockerfile has no USER directive, so it runs as root.",
         ["!config:Dockerfile::USER"]),
        # not bound: several images, a negation, production, a plan
        ("The images are based on node:22.", []),
        ("The e2e testbed image exposes port 9000.", []),
        ("Production runs the image on python:3.13.", []),
        ("We plan to move the image to python:3.13.", []),
        ("Support for Python 3.8 was dropped from CI.", []),
        ("The CI pipeline takes 2.5 minutes per run.", []),
        ("The CI workflow retries 3.5 times on Python failures.", []),
        ("The container exposes 2 ports to the host.", []),
        ("CI tests on 3.8.", ["config:.github/workflows::python-version=3.8"]),
    ],
)  # fmt: skip
def test_a_stated_value_binds_to_the_infrastructure_file_the_sentence_names(
    git_repo: GitRepo, source: CodeSource, note: str, anchors: list[str]
):
    from anchors.extract import infer_anchors

    git_repo.commit(SEVERAL, "several images")
    found = infer_anchors(note, source.fingerprint()).anchors
    assert [a.render() for a in found if a.kind is AnchorKind.CONFIG] == anchors


def test_an_ini_settings_file_gives_each_key_by_section_with_its_line() -> None:
    data = (
        b"; the settings\n[general]\ndbpath = /tmp/comments.db\nhost =\n    http://a/\n"
        b"    http://b/\n[markup]\nRenderer = mistune  # or misaka\nlink = %(host)s/x\n"
        b"[guard]\nratelimit: 2\n"
    )
    values = read_infra(data, "conf/app.cfg")
    assert values is not None
    assert [(v.key, v.text, v.line) for v in values] == [
        ("general.dbpath", "/tmp/comments.db", 3), ("general.host", "", 4),
        ("markup.renderer", "mistune", 8), ("markup.link", None, 9),
        ("guard.ratelimit", "2", 11),
    ]  # fmt: skip
    assert infra_kind("conf/app.ini") is infra_kind("setup.cfg") is InfraKind.INI
    assert infra_kind("vendor/lib/setup.cfg") is None


def test_a_dockerfile_gives_the_working_directory_its_last_workdir_makes():
    """An absolute WORKDIR replaces the one before; a relative one is joined to it; one the
    file computes from a variable it does not set is unknown."""
    data = "FROM python:3.12\nWORKDIR /srv\nWORKDIR app\n"
    assert values(data, "Dockerfile")["WORKDIR"] == [("/srv/app", 3)]
    data = "FROM python:3.12\nWORKDIR /srv\nWORKDIR /data\n"
    assert values(data, "Dockerfile")["WORKDIR"] == [("/data", 3)]
    data = "FROM python:3.12\nARG HOME_DIR=/home/app\nWORKDIR $HOME_DIR\n"
    assert values(data, "Dockerfile")["WORKDIR"] == [("/home/app", 3)]
    assert values("FROM python:3.12\nWORKDIR $UNSET\n", "Dockerfile")["WORKDIR"] == [(None, 2)]
