"""Calling a tool the way every end-to-end test does: it must succeed with structured output."""

from __future__ import annotations

import os
import subprocess
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from mcp import Client

from tests.conftest import GitRepo, settings_env

# git run on a test's repository: no configuration of this machine's user or system
_GIT_ENV = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


async def call(client: Client, tool: str, **args: Any) -> dict[str, Any]:
    """Call ``tool`` and return its structured result; fail the test on ``isError``."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def pair_asked(
    settings: Any, a: str, b: str, consolidate: bool = False
) -> tuple[list[dict[str, Any]], set[tuple[str, float]]]:
    """On a new server: remember ``a``, then ``b`` (and ``consolidate``, if asked). Every
    conflict record naming the two notes (the second remember's, then consolidate's), and
    both memories' status and confidence after."""
    from server.app import build_server

    async with Client(build_server(settings)) as client:
        first = await call(client, "remember", text=a, scope="external")
        second = await call(client, "remember", text=b, scope="external")
        report = await call(client, "consolidate") if consolidate else {}
        found = await call(client, "verify")
    ids = {first["id"], second["id"]}
    records = [
        *second.get("conflicts", []),
        *second.get("possible_conflicts", []),
        *report.get("conflicts", []),
        *report.get("possible_conflicts", []),
    ]
    standing = {(m["status"], m["confidence"]) for m in found["memories"] if m["id"] in ids}
    return [r for r in records if set(r["ids"]) == ids], standing


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


def _verdict_server(repo_root: Path, **settings: str) -> Client:
    """A client of a new server of the repository at ``repo_root``, with a generous
    verification budget: the tests calling it are about verdicts."""
    from server.app import build_server
    from server.config import Settings

    env = settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000", **settings)
    return Client(build_server(Settings.resolve(repo=str(repo_root), env=env)))


async def _remember_then_recall(client: Client, text: str, args: dict[str, Any]) -> Any:
    made = await call(client, "remember", text=text, **args)
    found = await call(client, "recall", query=text, include_refuted=True, detail=True)
    [served] = [m for m in found["memories"] if m["id"] == made["id"]]
    return served


class ServerPool:
    """Servers a test module keeps open, one per repository content (``_content``): the
    module's cases that commit the same files are judged by one server instead of each
    starting its own (a store created and closed, the tools' schemas compiled by a new
    client). A pooled server has a clone of the repository and a store of its own, so
    neither the test's later commits nor its own store meet it. Each note is retracted
    once served, so no note of one case is there to conflict with the next; a text the
    pooled server has already seen (its retraction would answer) goes to a server of the
    test's repository, as does a repository with uncommitted changes."""

    def __init__(self, stack: AsyncExitStack, folder: Path) -> None:
        self._stack = stack
        self._folder = folder
        self._clients: dict[str, tuple[Client, set[str]]] = {}

    async def serve(self, repo_root: Path, text: str, args: dict[str, Any]) -> Any:
        key = _content(repo_root)
        pooled = self._clients.get(key) if key is not None else None
        if key is not None and pooled is None:
            clone = self._folder / f"repo{len(self._clients)}"
            _git(self._folder, "clone", "--quiet", "--", str(repo_root), str(clone))
            store = self._folder / f"store{len(self._clients)}.duckdb"
            server = _verdict_server(clone, ANCHORMEM_DB=str(store))
            pooled = self._clients[key] = (await self._stack.enter_async_context(server), set())
        if pooled is None or text in pooled[1]:
            async with _verdict_server(repo_root) as client:
                return await _remember_then_recall(client, text, args)
        client, seen = pooled
        seen.add(text)
        served = await _remember_then_recall(client, text, args)
        await call(client, "retract", id=served["id"], reason="the test case is over")
        return served


# The pool of the test module running now (``tests/server/conftest.py``, ``server_pool``).
POOL: list[ServerPool] = []


def _git(where: Path, *args: str) -> str:
    """``git`` run in ``where`` with no configuration of this machine's user or system."""
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True,
                          check=True, env=_GIT_ENV)  # fmt: skip
    return done.stdout


def _content(repo_root: Path) -> str | None:
    """What a server's verdicts on the repository at ``repo_root`` can depend on: the tree
    and the subject of every commit; None when the work tree has uncommitted changes."""
    if _git(repo_root, "status", "--porcelain", "--untracked-files=all").strip():
        return None
    return _git(repo_root, "log", "--format=%T %s")


async def remember_and_serve(
    repo_root: Path, text: str, anchors: list[str] | None = None
) -> dict[str, Any]:
    """``remember`` one note on a server of the repository at ``repo_root`` (a generous
    verification budget: these tests are about verdicts), then the memory as ``recall``
    serves it (refuted ones included, full records). In a module that keeps a pool of
    servers (``server_pool``), one of its servers judges it."""
    args: dict[str, Any] = {} if anchors is None else {"anchors": anchors}
    if POOL:
        served: dict[str, Any] = await POOL[-1].serve(repo_root, text, args)
        return served
    async with _verdict_server(repo_root) as client:
        served = await _remember_then_recall(client, text, args)
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
