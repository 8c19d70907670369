"""Calling a tool the way every end-to-end test does: it must succeed with structured output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import Client

from tests.conftest import GitRepo, settings_env


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    """Call ``tool`` and return its structured result; fail the test on ``isError``."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def record(client: Client, memory_id: str) -> dict[str, Any]:
    """A memory's full record, as ``memory://<id>`` serves it."""
    import json

    read = await client.read_resource(f"memory://{memory_id}")
    return json.loads(read.contents[0].text)  # type: ignore[union-attr]


async def remember_full(client: Client, **args: Any) -> dict[str, Any]:
    """``remember``, then the memory's full record (``memory://<id>``) over its result: for
    tests that check what was captured and checked (anchors, verdicts, receipts)."""
    made = await call(client, "remember", **args)
    return {**made, **await record(client, made["id"])}


async def remember_and_serve(
    repo_root: Path, text: str, anchors: list[str] | None = None
) -> dict[str, Any]:
    """``remember`` one note on a server of the repository at ``repo_root`` (a generous
    verification budget: these tests are about verdicts), then the memory as ``recall``
    serves it (refuted ones included, full records)."""
    from server.app import build_server
    from server.config import Settings

    settings = Settings.resolve(
        repo=str(repo_root), env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000")
    )
    args: dict[str, Any] = {"text": text}
    if anchors is not None:
        args["anchors"] = anchors
    async with Client(build_server(settings)) as client:
        made = await call(client, "remember", **args)
        found = await call(client, "recall", query=text, include_refuted=True, detail=True)
    [served] = [m for m in found["memories"] if m["id"] == made["id"]]
    return served


def receipts(served: dict[str, Any]) -> str:
    """Every anchor's verdict sentence of a served memory, joined: what a test looks for a
    receipt in ("app/paging.py:1 sets MAX_PAGE_SIZE = 100, not 500")."""
    return " | ".join(str(a["detail"]) for a in served["anchors"])


def said(served: dict[str, Any]) -> str:
    """Everything a served memory says of its check, joined: its verification, its flags
    and every anchor's verdict sentence (what a test looks for a reason in)."""
    parts = [served["verification"], *served["flags"], *(a["detail"] for a in served["anchors"])]
    return " | ".join(str(p) for p in parts)


async def remember_commit_recall(
    repo: GitRepo, text: str, anchors: list[str] | None, changed: dict[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``remember`` at the first commit, commit ``changed``, then ``recall`` on a new server
    (as the next session would): the memory as written and as served at the new HEAD."""
    from server.app import build_server
    from server.config import Settings

    settings = Settings.resolve(
        repo=str(repo.root), env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000")
    )
    args: dict[str, Any] = {"text": text}
    if anchors is not None:
        args["anchors"] = anchors
    async with Client(build_server(settings)) as client:
        made = await call(client, "remember", **args)
    repo.commit(changed, "change the code")
    async with Client(build_server(settings)) as client:
        found = await call(client, "recall", query=text, include_refuted=True, detail=True)
    [served] = [m for m in found["memories"] if m["id"] == made["id"]]
    return made, served


async def check_served(
    repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str = ""
) -> dict[str, Any]:
    """Commit ``files``, remember ``text`` and assert the status it is served with and a
    reason its check says (``said``); the served memory, for more assertions."""
    repo.commit(files, "the project")
    served = await remember_and_serve(repo.root, text)
    assert served["status"] == status, served
    assert reason in said(served), served
    return served
