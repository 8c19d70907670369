"""The user an application's image runs as, and a base image no Dockerfile uses (issue #31):
``remember`` then ``recall`` through the MCP client on real git repositories.

A Dockerfile whose built stage states no USER runs as its base image's user, root for an
official image that sets none: "runs as root" is VERIFIED there and "drops root" REFUTED,
the receipt quoting the file. A USER of an earlier ``FROM <image>`` stage is not the image's
(Docker starts such a stage afresh); one of the stage the image is built ``FROM`` is.
A base image whose repository no infrastructure file uses at all is REFUTED against every
Dockerfile; one a compose service or CI job runs is never refuted through a Dockerfile."""

from __future__ import annotations

import pytest

from anchors.infra_check import default_user
from anchors.infra_compare import NOT_ROOT, Match, compare_user, image_repository
from anchors.infra_facts import read_infra
from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

PYPROJECT = '[project]\nname = "isso"\nversion = "1.0"\ndependencies = ["flask>=3"]\n'
APP_CODE = "from flask import Flask\n\napp = Flask(__name__)\n"

# One Dockerfile, no USER: the image runs as python's default user, root.
NO_USER = {
    "pyproject.toml": PYPROJECT,
    "isso/__init__.py": APP_CODE,
    "Dockerfile": (
        "FROM python:3.12-slim\n"
        "WORKDIR /isso\n"
        "COPY . .\n"
        "RUN pip install --no-cache-dir .\n"
        "EXPOSE 8080\n"
        'CMD ["isso", "run"]\n'
    ),
}
# A builder stage with its own USER, the built stage with USER app.
STAGED = {
    "pyproject.toml": PYPROJECT,
    "isso/__init__.py": APP_CODE,
    "Dockerfile": (
        "FROM python:3.12 AS builder\n"
        "USER builder\n"
        "RUN pip wheel --wheel-dir /wheels .\n"
        "\n"
        "FROM python:3.12-slim\n"
        "COPY --from=builder /wheels /wheels\n"
        "USER app\n"
        'CMD ["isso", "run"]\n'
    ),
}
# Only the builder stage says USER: the built stage starts afresh, as root.
BUILDER_ONLY = {
    **STAGED,
    "Dockerfile": (
        "FROM python:3.12 AS builder\n"
        "USER builder\n"
        "RUN pip wheel --wheel-dir /wheels .\n"
        "\n"
        "FROM python:3.12-slim\n"
        "COPY --from=builder /wheels /wheels\n"
        'CMD ["isso", "run"]\n'
    ),
}
# The built stage is FROM a stage that says USER app: the image runs as app.
INHERITED = {
    **STAGED,
    "Dockerfile": 'FROM python:3.12-slim AS base\nUSER app\n\nFROM base\nCMD ["isso"]\n',
}
# Several Dockerfiles, none at the root, and compose running postgres.
MULTI = {
    "pyproject.toml": PYPROJECT,
    "isso/__init__.py": APP_CODE,
    "extras/docker/base/Dockerfile": (
        "FROM ubuntu:22.04\nRUN apt-get update && apt-get install -y python3\n"
    ),
    "extras/docker/development/Dockerfile": (
        "FROM wger/base:2.1-dev\nCOPY . /home/wger/src\nEXPOSE 8000\n"
    ),
    "docker-compose.yml": (
        "services:\n"
        "  web:\n"
        "    build: extras/docker/development\n"
        "  db:\n"
        "    image: postgres:15\n"
        "    environment:\n"
        "      POSTGRES_DB: wger\n"
    ),
}
# No USER, but the command drops privileges itself.
GOSU = {
    **NO_USER,
    "Dockerfile": 'FROM python:3.12-slim\nENTRYPOINT ["gosu", "isso", "isso", "run"]\n',
}
REPOS = {"no-user": NO_USER, "staged": STAGED, "builder-only": BUILDER_ONLY,
         "inherited": INHERITED, "multi": MULTI, "gosu": GOSU}  # fmt: skip

ROOT = "says FROM python:3.12-slim, so the image runs as root"
AS_ROOT = f"Dockerfile states no USER and Dockerfile:1 {ROOT}"
ONLY_FINAL = f"Dockerfile states no USER and Dockerfile:5 {ROOT}"
BUILT_FROM = ("extras/docker/base/Dockerfile:1 says FROM ubuntu:22.04; "
              "extras/docker/development/Dockerfile:1 says FROM wger/base:2.1-dev")  # fmt: skip

# (repository, note, status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str, str]] = [
    # no USER: root
    ("no-user", "The image drops root: the Dockerfile ends with USER isso.", "REFUTED",
     f"{AS_ROOT}, not as isso"),
    ("no-user", "The container runs as root.", "VERIFIED", AS_ROOT),
    ("no-user", "The container runs as user root.", "VERIFIED", AS_ROOT),
    ("no-user", "The Dockerfile has no USER directive, so it runs as root.", "VERIFIED", AS_ROOT),
    ("no-user", "The Dockerfile doesn't set a USER.", "VERIFIED", AS_ROOT),
    ("no-user", "The container runs as a non-root user.", "REFUTED", AS_ROOT),
    ("no-user", "The image is built FROM node:20.", "REFUTED",
     "Dockerfile:1 says FROM python:3.12-slim, not node:20"),
    # USER app in the built stage; a builder stage's USER does not count
    ("staged", "The container runs as root.", "REFUTED", "Dockerfile:7 says USER app, not root"),
    ("staged", "The container runs as user root.", "REFUTED",
     "Dockerfile:7 says USER app, not root"),
    ("staged", "The image drops root: the Dockerfile ends with USER app.", "VERIFIED",
     "Dockerfile:7 says USER app"),
    ("staged", "The image drops root: the Dockerfile ends with USER isso.", "REFUTED",
     "Dockerfile:7 says USER app, not isso"),
    ("staged", "The Dockerfile has no USER directive, so it runs as root.", "REFUTED",
     "Dockerfile:7 says USER app"),
    ("staged", "The container runs as a non-root user.", "VERIFIED",
     "Dockerfile:7 says USER app"),
    ("builder-only", "The container runs as root.", "VERIFIED", ONLY_FINAL),
    ("inherited", "The container runs as root.", "REFUTED", "Dockerfile:2 says USER app, not root"),
    # a base image no file uses: every Dockerfile says what it is built FROM
    ("multi", "The base image is built FROM python:3.10-slim.", "REFUTED",
     f"{BUILT_FROM}, not python:3.10-slim"),
    ("multi", "The Docker image is FROM python:3.10-slim.", "REFUTED",
     f"{BUILT_FROM}, not python:3.10-slim"),
    ("multi", "Our image is based on alpine:3.19.", "REFUTED", f"{BUILT_FROM}, not alpine:3.19"),
    ("multi", "The development image is built FROM python:3.10.", "REFUTED",
     "extras/docker/development/Dockerfile:1 says FROM wger/base:2.1-dev, not python:3.10"),
    ("multi", "The development image is FROM wger/base:2.1-dev.", "VERIFIED",
     "extras/docker/development/Dockerfile:1 says FROM wger/base:2.1-dev"),
    # an image compose runs is checked against compose, never a Dockerfile
    ("multi", "Compose runs postgres:16 for the database.", "REFUTED",
     "docker-compose.yml:5 says services.db.image: postgres:15, not postgres:16"),
]  # fmt: skip

# "doesn't run as root": checked (a user other than root), broken where the image runs as
# root; the value ``!root`` is the negation's check, so nothing of it is left uncovered.
NEGATED: list[tuple[str, str, str, str]] = [
    ("no-user", "The runtime container doesn't run as root.", AS_ROOT, "doesn't run as root"),
    ("no-user", "The container does not run as root.", AS_ROOT, "not run as root"),
    ("builder-only", "The runtime container doesn't run as root.", ONLY_FINAL,
     "doesn't run as root"),
]  # fmt: skip

# Not bound to a Dockerfile: production, a plan, another image, compose's own images.
UNBOUND: list[tuple[str, str, str]] = [
    ("no-user", "In production the image runs as root.", ""),
    ("no-user", "We will move to python:3.13 for the image.", "the value python:3.13"),
    ("no-user", "The e2e testbed image is FROM node:20.", "the value node:20."),
    ("multi", "The db container runs postgres:16.", "the value postgres:16."),
    ("multi", "The database image is based on postgres:16.", "the value postgres:16."),
    ("multi", "Compose will run postgres:16 for the database.", "the value postgres:16"),
    ("multi", "The production image is built FROM python:3.12.", "the value python:3.12."),
    ("multi", "The base image should be built FROM python:3.12.", "the value python:3.12."),
]  # fmt: skip


def committed(git_repo: GitRepo, name: str) -> GitRepo:
    git_repo.commit(REPOS[name], f"an application ({name})")
    return git_repo


@pytest.mark.anyio
@pytest.mark.parametrize(("repo", "text", "status", "receipt"), CHECKED)
async def test_the_image_s_user_and_base_are_verified_or_refuted_with_the_file_quoted(
    git_repo: GitRepo, repo: str, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(committed(git_repo, repo).root, text)
    assert served["status"] == status, (served["anchors"], served["flags"])
    assert receipt in receipts(served), served
    assert not any(f.startswith("uncovered:") for f in served["flags"]), served


@pytest.mark.anyio
@pytest.mark.parametrize(("repo", "text", "receipt", "negation"), NEGATED)
async def test_a_plain_negation_of_root_is_refuted_where_the_image_runs_as_root(
    git_repo: GitRepo, repo: str, text: str, receipt: str, negation: str
) -> None:
    served = await remember_and_serve(committed(git_repo, repo).root, text)
    assert served["status"] == "REFUTED", (served["anchors"], served["flags"])
    [check] = [a for a in served["anchors"] if a["anchor"] == "config:Dockerfile::USER=!root"]
    assert check["detail"] == receipt, check
    uncovered = [f for f in served["flags"] if f.startswith("uncovered:")]
    assert not [f for f in uncovered if negation in f], served["flags"]


# Bound, but the files cannot settle it: the base image may set its own user.
UNDECIDED: list[tuple[str, str, str]] = [
    ("multi", "The development container runs as root.",
     "extras/docker/development/Dockerfile states no USER and "
     "extras/docker/development/Dockerfile:1 says FROM wger/base:2.1-dev, an image that may "
     "set its own user; cannot tell"),
    ("gosu", "The container runs as root.", "which changes user; cannot tell"),
]  # fmt: skip


@pytest.mark.anyio
@pytest.mark.parametrize(("repo", "text", "receipt"), UNDECIDED)
async def test_a_user_the_dockerfile_does_not_settle_keeps_the_note_active(
    git_repo: GitRepo, repo: str, text: str, receipt: str
) -> None:
    served = await remember_and_serve(committed(git_repo, repo).root, text)
    assert served["status"] == "ACTIVE", served
    assert receipt in receipts(served), served


@pytest.mark.anyio
@pytest.mark.parametrize(("repo", "text", "part"), UNBOUND)
async def test_an_image_built_elsewhere_or_later_is_not_checked_against_a_dockerfile(
    git_repo: GitRepo, repo: str, text: str, part: str
) -> None:
    served = await remember_and_serve(committed(git_repo, repo).root, text)
    assert served["status"] == "ACTIVE", served
    assert not any("config:" in str(a["anchor"]) for a in served["anchors"]), served
    if part:
        assert f"uncovered:{part}" in served["flags"], served


@pytest.mark.anyio
async def test_a_negated_non_root_claim_is_verified_by_its_anchor(
    git_repo: GitRepo,
) -> None:
    """ "doesn't run as root" with USER app: ``USER=!root`` holds, and a value that is a
    negation covers the negated clause (``anchors.negated_parts``): VERIFIED."""
    served = await remember_and_serve(
        committed(git_repo, "staged").root, "The runtime container doesn't run as root."
    )
    [check] = [a for a in served["anchors"] if a["anchor"] == "config:Dockerfile::USER=!root"]
    assert check["detail"] == "Dockerfile:7 says USER app", check
    assert served["status"] == "VERIFIED", served


# -- the plain functions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("image", "user"),
    [("python:3.12-slim", "root"), ("docker.io/library/ubuntu:22.04", "root"),
     ("docker.io/python:3.12-alpine", "root"), ("node", "root"), ("scratch", "root"),
     ("wger/base:2.1-dev", None), ("gcr.io/distroless/python3:nonroot", None),
     ("bitnami/python:3.12", None), ("elasticsearch:8.13.0", None),
     ("python:${PY}-slim", None), (None, None)],
)  # fmt: skip
def test_the_default_user_is_root_only_for_an_official_image_known_to_set_none(
    image: str | None, user: str | None
) -> None:
    assert default_user(image) == user


def test_root_is_uid_0_and_not_root_is_any_other_user() -> None:
    assert compare_user("root", "0") is Match.SAME
    assert compare_user("0", "root:root") is Match.SAME
    assert compare_user("root", "1000") is Match.DIFFERENT
    assert compare_user(NOT_ROOT, "app:app") is Match.SAME
    assert compare_user(NOT_ROOT, "1000") is Match.SAME
    assert compare_user(NOT_ROOT, "root") is Match.DIFFERENT
    assert compare_user(NOT_ROOT, "0") is Match.DIFFERENT
    assert compare_user(NOT_ROOT, None) is Match.UNKNOWN


def test_an_image_s_repository_drops_docker_hub_s_prefixes_and_the_tag() -> None:
    assert image_repository("docker.io/library/python:3.11") == "python"
    assert image_repository("ghcr.io/org/app:1@sha256:abc") == "ghcr.io/org/app"


def test_the_built_stage_has_the_last_user_and_inherits_a_stage_s_configuration() -> None:
    def users(text: str) -> list[tuple[str | None, int]]:
        return [(v.text, v.line) for v in read_infra(text.encode(), "Dockerfile") or ()
                if v.key == "USER"]  # fmt: skip

    assert users(BUILDER_ONLY["Dockerfile"]) == []
    assert users(STAGED["Dockerfile"]) == [("app", 7)]
    assert users(INHERITED["Dockerfile"]) == [("app", 2)]
    assert users("FROM python:3.12\nUSER root\nRUN make\nUSER app\n") == [("app", 4)]


def test_a_base_image_an_earlier_stage_of_any_dockerfile_uses_is_not_refuted(
    git_repo: GitRepo,
) -> None:
    """Checked against every Dockerfile, ``config:FROM=node:20`` is broken only when no
    stage of any of them is built FROM it."""
    from anchors.fingerprint import CodeSource, InMemoryFactsCache
    from anchors.spec import parse_anchor
    from anchors.verdicts import Verdict
    from anchors.verify import check_anchor

    assets = "FROM node:20-alpine AS assets\nRUN npm ci\nFROM nginx:1.27\n"
    git_repo.commit({**MULTI, "extras/docker/assets/Dockerfile": assets}, "an assets image")
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
        staged = check_anchor(parse_anchor("config:FROM=node:20"), None, fp)
        unused = check_anchor(parse_anchor("config:FROM=python:3.10"), None, fp)
    assert staged.verdict is Verdict.UNKNOWN
    assert "extras/docker/assets/Dockerfile:1 says FROM node:20-alpine AS assets" in staged.detail
    assert unused.verdict is Verdict.BROKEN
    assert "extras/docker/assets/Dockerfile:3 says FROM nginx:1.27" in unused.detail
