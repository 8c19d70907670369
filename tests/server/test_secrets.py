"""Secrets never reach the store (issue 14, item 11): one of each kind is planted through
MCP and through the CLI, in a memory's text and subject, an observation's note and a
retraction's reason and evidence; then every file in the store's directory (the database,
its WAL, the lock and anything beside them) is searched for each secret's bytes. A
control marker written the same way must be found, or the search proves nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from store.redaction import redact
from tests.conftest import GitRepo
from tests.mcp_calls import call
from tests.server.conftest import store_dir
from tests.server.test_cli import run

# Built from parts, so that no scanner of this repository takes them for real secrets.
SECRETS = {
    "aws-access-key": "AKIA" + "QZ7XK2MP4RW9TB3N",
    "aws-secret-key": "aws_secret_access_key = '" + "wJalrXUtnFEMI/K7MDENG/bPxRfi"
    + "CYZQ4KT2LMNB'",
    "github-token": "ghp_" + "Zk3m9QpL2vX8rT4wY6nB1cD5fG7hJ0sA2eU4",
    "gitlab-token": "glpat-" + "xY7kP2mQ9rT4vW6zB1nC",
    "slack-token": "xoxb-" + "2048815321-4096112233-QmZx7Kp2Lr9Tv4Wy6Nb1Cd5F",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAq7Zk3m9QpL2vX8rT4wY6nB1\n"
    "cD5fG7hJ0sA2eU4Zk3m9QpL2vX8rT4wY6nB1cD5fG7h\n-----END RSA PRIVATE KEY-----",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    + "eyJzdWIiOiJzZXJ2aWNlLWEiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi1pcy1oZXJl",
    "url-password": "postgres://shop:" + "Vq8#Lp2Zx9Rk" + "@db.internal:5432/shop",
    "assigned-secret": "API_TOKEN=" + "f8Q2vK9xL3mR7tW1zN5p",
}
# What must not be found: the secret part of each planted value.
NEEDLES = {
    "aws-secret-key": "wJalrXUtnFEMI/K7MDENG",
    "private-key": "MIIEowIBAAKCAQEAq7Zk3m9",
    "jwt": "c2lnbmF0dXJlLW9mLXRoZS10b2tlbi1pcy1oZXJl",
    "url-password": "Vq8#Lp2Zx9Rk",
    "assigned-secret": "f8Q2vK9xL3mR7tW1zN5p",
}


def needle(kind: str) -> bytes:
    return NEEDLES.get(kind, SECRETS[kind]).encode()


def found_in_store(directory: Path, data: bytes) -> list[str]:
    return [p.name for p in directory.rglob("*") if p.is_file() and data in p.read_bytes()]


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_kind_is_found_and_named(kind: str):
    redacted = redact(f"the value is {SECRETS[kind]} (from .env)")
    assert redacted.kinds == (kind,)
    assert f"[REDACTED:{kind}]" in redacted.text
    assert needle(kind).decode() not in redacted.text


@pytest.mark.parametrize(
    "text",
    [
        "The store layer uses DuckDB (store/db.py)",
        "fixed in commit 3f2a9c1b7e8d4f6a0b5c2e9d1f7a3b6c8e0d4f2a",
        "JWT_SECRET is read from os.environ['JWT_SECRET'] in auth/jwt.py",
        "password: changeme is the default of the dev container",
        "token: <your token>",
        "see https://example.com/docs/a.html and postgres://localhost/shop",
        "secret_key = ${SECRET_KEY}",
    ],
)
def test_ordinary_notes_are_left_as_written(text: str):
    assert redact(text).text == text


@pytest.mark.anyio
async def test_secrets_planted_through_mcp_never_reach_the_store(settings: Settings):
    control = b"control-marker-Q7Z3"
    async with Client(build_server(settings)) as client:
        made: list[dict[str, Any]] = []
        for kind, secret in SECRETS.items():
            text = f"{control.decode()} {kind}: {secret}"
            made.append(await call(client, "remember", text=text, subject=f"config {secret}"))
            assert f"[REDACTED:{kind}]" in made[-1]["text"]
        first = made[0]["id"]
        await call(
            client, "observe", id=first, confirms=True, kind="behaviour",
            note=f"seen with {SECRETS['github-token']}",
        )  # fmt: skip
        retracted = await call(
            client, "retract", id=made[1]["id"], reason=f"leaked {SECRETS['slack-token']}",
            evidence=f"the log said {SECRETS['jwt']}",
        )  # fmt: skip
        assert "[REDACTED:slack-token]" in retracted["reason"]
        found = await call(client, "recall", query="control marker", limit=20)
        assert not [m for m in found["memories"] if "REDACTED" not in m["text"]]
    directory = Path(settings.db).parent  # the store's own folder, wherever it lives
    assert found_in_store(directory, control), "the search cannot see stored text"
    for kind in SECRETS:
        assert found_in_store(directory, needle(kind)) == [], kind


def test_secrets_planted_through_the_cli_never_reach_the_store(project: GitRepo):
    root = project.root
    control = "cli-control-marker-K4W8"
    ids = []
    for kind, secret in SECRETS.items():
        code, made, err = run(root, "remember", f"{control} {kind}: {secret}", "--json")
        assert code == 0, err
        assert f"[REDACTED:{kind}]" in made["text"]
        ids.append(made["id"])
    code, _, err = run(
        root, "observe", ids[0], "--confirms", "--note", SECRETS["gitlab-token"], "--json"
    )
    assert code == 0, err
    code, _, err = run(
        root, "retract", ids[1], "--reason", SECRETS["url-password"],
        "--evidence", SECRETS["private-key"], "--json",
    )  # fmt: skip
    assert code == 0, err
    directory = store_dir(root)
    assert found_in_store(directory, control.encode()), "the search cannot see stored text"
    for kind in SECRETS:
        assert found_in_store(directory, needle(kind)) == [], kind
