"""A mention is a use only where a project says what it uses (issue #31, adr/0025): a lock
file, a minified or bundled asset, a test fixture or a data file naming a technology never
VERIFIES that the project uses it, and never REFUTES a note that it does not. Through the
MCP client on a real git repository."""

from __future__ import annotations

from typing import Any

import pytest

from anchors.mentions import Role, role_of
from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

BASE = {
    "pyproject.toml": "[project]\nname = 'shop'\ndependencies = ['fastapi>=0.110']\n",
    "app/__init__.py": "",
    "app/main.py": "from fastapi import FastAPI\n\napp = FastAPI()\n",
}

# (the file that names the technology, its content, a note claiming the use)
PLANTED: list[tuple[str, str, str]] = [
    ("static/js/wordlist.min.js", 'var w=["stripe","sentry","celery","kafka"];',
     "Payments go through Stripe"),
    ("static/app.bundle.js", "const s='sentry';", "Errors are reported to Sentry"),
    ("tests/fixtures/search.json", '{"engine": "meilisearch"}', "We cache with Meilisearch"),
    ("poetry.lock", '[[package]]\nname = "aiohttp"\nversion = "3.9.0"\n',
     "The scraper uses aiohttp"),
    ("data/exports.csv", "id,queue\n1,kafka\n", "Events are published to Kafka"),
    ("tests/data/cases.jsonl", '{"broker": "rabbitmq"}\n', "Jobs go through RabbitMQ"),
]  # fmt: skip


async def served(repo: GitRepo, text: str) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text)


@pytest.mark.parametrize(("path", "content", "note"), PLANTED)
async def test_a_mention_in_a_lock_generated_or_data_file_never_verifies_use(
    git_repo: GitRepo, path: str, content: str, note: str
):
    git_repo.commit({**BASE, path: content}, "an application")
    it = await served(git_repo, note)
    assert it["status"] != "VERIFIED", it
    assert it["band"] != "assert"


async def test_a_true_negation_is_not_refuted_by_a_word_list(git_repo: GitRepo):
    git_repo.commit({**BASE, PLANTED[0][0]: PLANTED[0][1]}, "an application")
    it = await served(git_repo, "We don't use Celery")
    assert it["status"] != "REFUTED", it


async def test_the_same_name_in_a_configuration_file_is_a_use(git_repo: GitRepo):
    git_repo.commit({**BASE, "docker-compose.yml": "services:\n  search:\n    image: "
                     "getmeili/meilisearch:v1.6\n"}, "an application")  # fmt: skip
    it = await served(git_repo, "We cache with Meilisearch")
    assert it["status"] == "VERIFIED", it


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("poetry.lock", Role.DATA), ("web/package-lock.json", Role.DATA),
        ("Cargo.lock", Role.DATA), ("static/x.min.js", Role.DATA), ("dist/app.js.map", Role.DATA),
        ("tests/fixtures/user.yaml", Role.DATA), ("tests/payload.json", Role.DATA),
        ("exports/2024.csv", Role.DATA), ("tsconfig.json", Role.CONFIG),
        (".github/workflows/ci.yml", Role.CONFIG), ("pyproject.toml", Role.MANIFEST),
        ("app/main.py", Role.CODE), ("README.md", Role.PROSE),
    ],
)  # fmt: skip
def test_each_file_has_the_role_its_kind_gives_it(path: str, role: Role):
    assert role_of(path) is role


# A comment line in code or configuration is not a use: a commented-out requirement, a
# template's advice, a settings comment naming a server. The same line uncommented is.
COMMENTED: list[tuple[str, str, str]] = [
    ("config/settings.tpl", "# This might be a good idea if you set up redis\nCACHE = 'local'\n",
     "The default cache backend is Redis"),
    ("app/settings.py", "# If you change these, adjust the nginx alias as well\nSTATIC = '/s'\n",
     "The app is served through nginx"),
    ("requirements.txt", "fastapi>=0.110\n# sentry-sdk>=1.40\n", "Errors are reported to Sentry"),
    ("web/app.js", "// TODO: move the queue to kafka\nconst q = [];\n",
     "Events are published to Kafka"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "content", "note"), COMMENTED)
async def test_a_name_in_a_comment_line_is_not_a_use(
    git_repo: GitRepo, path: str, content: str, note: str
):
    git_repo.commit({**BASE, path: content}, "an application")
    it = await served(git_repo, note)
    assert it["status"] == "REFUTED", it["anchors"]


@pytest.mark.parametrize(("path", "content", "note"), COMMENTED)
async def test_the_same_line_uncommented_is_a_use(
    git_repo: GitRepo, path: str, content: str, note: str
):
    uncommented = "\n".join(line.lstrip("#/ ") for line in content.splitlines()) + "\n"
    git_repo.commit({**BASE, path: uncommented}, "an application")
    it = await served(git_repo, note)
    assert it["status"] != "REFUTED", it["anchors"]


async def test_a_heading_in_the_documentation_is_named_and_is_not_a_use(git_repo: GitRepo):
    git_repo.commit({**BASE, "docs/cache.md": "# Redis\n\nHow the cache works.\n"}, "docs")
    it = await served(git_repo, "The default cache backend is Redis")
    assert it["status"] == "REFUTED", it["anchors"]
    assert "named only in docs/cache.md" in str(it["anchors"]), it["anchors"]


# A docstring's or a trailing comment's prose in Python code names a system without using
# it; the same name in the code's own values is a use. (path, prose, code, note)
PROSE: list[tuple[str, str, str, str]] = [
    ("app/store.py", '"""\nEasy migration to postgres later.\n"""\nBACKEND = "files"\n',
     'BACKEND = "postgres://db/shop"\n', "Watches are stored in PostgreSQL"),
    ("app/store.py", 'BACKEND = "files"  # redis: SET settings\n',
     'BACKEND = "redis://cache:6379"\n', "Settings are kept in Redis"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "prose", "code", "note"), PROSE)
async def test_a_system_named_in_pythons_prose_is_no_use_and_in_its_values_is_one(
    git_repo: GitRepo, path: str, prose: str, code: str, note: str
):
    git_repo.commit({**BASE, path: prose}, "an application")
    it = await served(git_repo, note)
    assert it["status"] == "REFUTED", it["anchors"]
    git_repo.commit({path: code}, "the system in the code")
    it = await served(git_repo, note)
    assert it["status"] == "VERIFIED", it["anchors"]
