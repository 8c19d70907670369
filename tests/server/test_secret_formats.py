"""The secret formats redaction once missed (issue 30, item 8) never reach the store.

Each format is planted through every caller text that is stored: a memory's text and
subject, an anchor given with it (or read from its text), an observation's note, the
reason of a ``resolve``, and a retraction's reason and evidence; once through the MCP SDK
client and once through the CLI run as a person runs it, each on a real git repository.
Then every file in the store's folder is searched for the secret's bytes, as they are and
again once the store's owner has stopped (its journal written into the tables, the database
closed). A control marker written the same way must be found, or the search proves nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from tests.conftest import GitRepo, settings_env, store_file
from tests.mcp_calls import call, record
from tests.secret_formats import ANCHOR_CASES, FORMATS, Planted
from tests.server.test_cli import run

CASES = [*FORMATS, *ANCHOR_CASES]
SUBJECT_CHARS = 200


def stop_owner(repo: Path) -> None:
    """Stop the store's owner, if one runs, so that its files are complete and closed."""
    link = OwnerLink(Files(store_file(repo)), None, env=settings_env(), wait_s=20, version="test")
    link.stop_owner()


def files_holding(repo: Path, data: bytes) -> list[str]:
    """The files in the store's folder (journal, WAL, database and the rest) holding
    ``data``."""
    folder = store_file(repo).parent
    assert folder.is_dir(), folder
    return [str(p.relative_to(folder)) for p in folder.rglob("*")
            if p.is_file() and data in p.read_bytes()]  # fmt: skip


def assert_nowhere_in_store(repo: Path, planted: Planted, control: str) -> None:
    """Searched as the files are (an owner may still hold entries in its journal), then
    once the owner has stopped (the journal written into the tables, the database closed)."""
    for stopped in (False, True):
        if stopped:
            stop_owner(repo)
        assert files_holding(repo, control.encode()), "the search cannot see stored text"
        for needle in planted.needles:
            assert files_holding(repo, needle.encode()) == [], (planted.name, stopped)


def subject_of(planted: Planted) -> str | None:
    return planted.text if len(planted.text) <= SUBJECT_CHARS else None


def assert_remembered_without_it(result: dict[str, Any], planted: Planted) -> None:
    shown = json.dumps(result)
    assert not any(n in shown for n in planted.needles)
    if planted.in_text:
        assert f"[REDACTED:{planted.kind}]" in result["text"]
    if planted.anchor is not None:
        dropped = result.get("dropped") or []
        assert any("secret" in json.dumps(d) for d in dropped), dropped


def assert_no_anchor_holds_it(anchors: list[str], planted: Planted) -> None:
    for anchor in anchors:
        assert "REDACTED" not in anchor and "github" not in anchor, anchors
        assert not any(n in anchor for n in planted.needles), anchors


@pytest.mark.anyio
@pytest.mark.parametrize("planted", CASES, ids=lambda p: p.name)
async def test_planted_through_mcp_it_never_reaches_the_store(
    planted: Planted, settings: Settings, project: GitRepo
):
    control = f"mcp-control-{planted.name}"
    async with Client(build_server(settings)) as client:
        first = await call(
            client, "remember", text=f"{control}: {planted.text}", subject=subject_of(planted),
            anchors=[planted.anchor] if planted.anchor else None,
        )  # fmt: skip
        assert_remembered_without_it(first, planted)
        full = await record(client, first["id"])
        assert_no_anchor_holds_it([a["anchor"] for a in full["anchors"]], planted)
        second = await call(client, "remember", text=f"{control}: staging keeps its own copy")
        await call(
            client, "observe", id=first["id"], confirms=True, kind="behaviour",
            note=f"seen in the logs: {planted.text}",
        )  # fmt: skip
        judged = await call(
            client, "resolve", first=first["id"], second=second["id"], verdict="compatible",
            reason=f"both hold: {planted.text}",
        )  # fmt: skip
        retracted = await call(
            client, "retract", id=second["id"], reason=f"leaked {planted.text}",
            evidence=planted.text,
        )  # fmt: skip
        for result in (judged, retracted):
            assert not any(n in json.dumps(result) for n in planted.needles)
    assert_nowhere_in_store(project.root, planted, control)


def cli(root: Path, *args: str) -> Any:
    code, out, err = run(root, *args, "--json")
    assert code == 0, err
    return out


def test_planted_through_the_cli_it_never_reaches_the_store(project: GitRepo):
    """Every format through the CLI calls of one store's owner, as a person's session makes
    them; then the store's files are searched for each one's bytes, and each one's control
    marker must be found."""
    root = project.root
    for planted in CASES:
        control = f"cli-control-{planted.name}"
        subject = subject_of(planted)
        given = [*(["--subject", subject] if subject else []),
                 *(["--anchor", planted.anchor] if planted.anchor else [])]  # fmt: skip
        first = cli(root, "remember", f"{control}: {planted.text}", *given)
        assert_remembered_without_it(first, planted)
        assert_no_anchor_holds_it([a["anchor"] for a in first["anchors"]], planted)
        second = cli(root, "remember", f"{control}: staging keeps its own copy")
        cli(root, "observe", first["id"], "--confirms", "--note", f"seen: {planted.text}")
        cli(root, "resolve", first["id"], second["id"], "compatible",
            "--reason", f"both hold: {planted.text}")  # fmt: skip
        cli(root, "retract", second["id"], "--reason", f"leaked {planted.text}",
            "--evidence", planted.text)  # fmt: skip
    for stopped in (False, True):
        if stopped:
            stop_owner(root)
        for planted in CASES:
            control = f"cli-control-{planted.name}"
            assert files_holding(root, control.encode()), "the search cannot see stored text"
            for needle in planted.needles:
                assert files_holding(root, needle.encode()) == [], (planted.name, stopped)
