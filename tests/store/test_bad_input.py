"""Bad input, from a person at the CLI and from an agent over MCP: every case is a clear
error (one line on stderr with the documented exit code, or ``isError`` / a JSON-RPC error
with a message), and the store is exactly as it was (``anchormem list`` and ``anchormem
audit`` print the same before and after)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest
from mcp import Client, StdioServerParameters

from store.db import Database
from store.limits import MAX_QUERY_CHARS, MAX_REASON_CHARS, MAX_TEXT_CHARS
from store.schema import SCHEMA_VERSION
from tests.conftest import GitRepo, anchormem_env
from tests.server.conftest import PROJECT

SCRIPT = Path(sys.executable).with_name("anchormem")
CLAIM = "The store layer opens DuckDB in store/db.py"


def clean_env() -> dict[str, str]:
    return anchormem_env()


@dataclass(frozen=True)
class Store:
    root: Path
    memory_id: str
    newer_store: Path
    baseline: tuple[Any, Any]


def run(root: Path, *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    argv = [os.fsencode(SCRIPT), *(a if isinstance(a, bytes) else os.fsencode(a) for a in args)]
    return subprocess.run(argv, cwd=root, env=clean_env(), capture_output=True, timeout=120)


def snapshot(root: Path) -> tuple[Any, Any]:
    listed = run(root, "list", "--limit", "10000", "--json")
    audit = run(root, "audit", "--json")
    assert listed.returncode == 0 and audit.returncode == 0, (listed.stderr, audit.stderr)
    return json.loads(listed.stdout), json.loads(audit.stdout)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """One project with one verified memory, shared by every case here: each case must
    leave it exactly as it found it."""
    base = tmp_path_factory.mktemp("bad-input")
    (base / "repo").mkdir()
    repo = GitRepo(base / "repo")
    repo.commit(PROJECT, "initial project")
    made = run(
        repo.root, "remember", CLAIM, "--subject", "store/db.py", "--anchor",
        "import:duckdb@store/db.py", "--json",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    memory = json.loads(made.stdout)
    assert memory["status"] == "VERIFIED"
    newer = base / "newer.duckdb"
    Database(newer).close()
    with duckdb.connect(str(newer)) as con:
        con.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)]
        )
    yield Store(repo.root, memory["id"], newer, snapshot(repo.root))


def assert_unchanged(store: Store) -> None:
    assert snapshot(store.root) == store.baseline


# -- the CLI --------------------------------------------------------------------------------

ID = "{id}"  # stands for the id of the stored memory
MISSING_DIR = "{missing}"
NEWER = "{newer}"

CLI_CASES = [
    pytest.param(("remember", ""), 2, "text must not be empty", id="empty text"),
    pytest.param(("remember", "   \n\t "), 2, "text must not be empty", id="blank text"),
    pytest.param(
        ("remember", "x" * (MAX_TEXT_CHARS + 1)),
        2,
        f"the limit is {MAX_TEXT_CHARS}",
        id="text over the limit",
    ),
    pytest.param(
        ("recall", "q" * (MAX_QUERY_CHARS + 1)),
        2,
        f"the limit is {MAX_QUERY_CHARS}",
        id="long query",
    ),
    pytest.param(("show", "mnope0000"), 3, "no memory with id", id="show unknown id"),
    pytest.param(
        ("retract", "mnope0000", "--reason", "wrong"),
        3,
        "no memory with id",
        id="retract unknown id",
    ),
    pytest.param(("audit", "mnope0000"), 3, "no memory with id", id="audit unknown id"),
    pytest.param(("retract", ID), 2, "--reason", id="retract without a reason"),
    pytest.param(("retract", ID, "--reason", ""), 2, "reason must not be empty", id="empty reason"),
    pytest.param(
        ("retract", ID, "--reason", "r" * (MAX_REASON_CHARS + 1)),
        2,
        f"the limit is {MAX_REASON_CHARS}",
        id="reason over the limit",
    ),
    pytest.param(
        (b"remember", b"We deploy \xff\xfe on Fridays"),
        2,
        "text contains invalid Unicode",
        id="invalid UTF-8 text",
    ),
    pytest.param(
        (b"remember", b"We deploy on Fridays", b"--subject", b"\xc3\x28"),
        2,
        "subject contains invalid Unicode",
        id="invalid UTF-8 subject",
    ),
    pytest.param(
        (b"retract", ID.encode(), b"--reason", b"\xed\xa0\x80"),
        2,
        "reason contains invalid Unicode",
        id="invalid UTF-8 reason (an encoded surrogate)",
    ),
    pytest.param((b"show", b"m\xff\xfe"), 2, "memory id contains invalid", id="invalid UTF-8 id"),
    pytest.param(
        (b"recall", b"duck\x80db"), 2, "query contains invalid Unicode", id="invalid UTF-8 query"
    ),
    pytest.param(
        ("--db", MISSING_DIR, "remember", "We deploy on Fridays"),
        1,
        "does not exist",
        id="db in a missing directory",
    ),
    pytest.param(
        ("--db", NEWER, "remember", "We deploy on Fridays"),
        1,
        "upgrade anchormem",
        id="store from a newer schema",
    ),
]


def fill(store: Store, args: tuple[str | bytes, ...]) -> list[str | bytes]:
    values = {ID: store.memory_id, MISSING_DIR: str(store.root / "nope" / "memory.duckdb")}
    values[NEWER] = str(store.newer_store)
    filled: list[str | bytes] = []
    for arg in args:
        if isinstance(arg, bytes):
            filled.append(arg.replace(ID.encode(), store.memory_id.encode()))
        else:
            filled.append(values.get(arg, arg))
    return filled


@pytest.mark.parametrize(("args", "exit_code", "message"), CLI_CASES)
def test_the_cli_rejects_bad_input_with_one_line_and_leaves_the_store_alone(
    store: Store, args: tuple[str | bytes, ...], exit_code: int, message: str
):
    newer_before = store.newer_store.read_bytes()
    done = run(store.root, *fill(store, args))
    assert done.returncode == exit_code, done.stderr
    assert done.stdout == b""
    err = done.stderr.decode("utf-8", "backslashreplace")
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("anchormem: ") and message in lines[0]
    assert "Traceback" not in err and "Error:" not in err  # no DuckDB or Python internals
    assert not (store.root / "nope").exists()
    assert store.newer_store.read_bytes() == newer_before
    assert_unchanged(store)


# -- MCP ------------------------------------------------------------------------------------


def server(root: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=str(SCRIPT), args=["serve", *extra], cwd=str(root), env=clean_env()
    )


MCP_CASES = [
    pytest.param("remember", {"text": ""}, "text must not be empty", id="empty text"),
    pytest.param(
        "remember",
        {"text": "x" * (MAX_TEXT_CHARS + 1)},
        f"at most {MAX_TEXT_CHARS} characters",  # the input schema's maxLength
        id="text over the limit",
    ),
    pytest.param(
        "remember",
        {"text": "We deploy on Fridays", "anchors": ["file:../../etc/passwd"]},
        "anchor rejected",
        id="anchor outside the repository",
    ),
    pytest.param("retract", {"id": "mnope0000", "reason": "wrong"}, "not found", id="unknown id"),
    pytest.param("retract", {"id": ID}, "reason", id="retract without a reason"),
    pytest.param(
        "retract", {"id": ID, "reason": "  "}, "reason must not be empty", id="blank reason"
    ),
    pytest.param(
        "recall",
        {"query": "q" * (MAX_QUERY_CHARS + 1)},
        f"at most {MAX_QUERY_CHARS} characters",
        id="long query",
    ),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "arguments", "message"), MCP_CASES)
async def test_an_agent_gets_is_error_for_bad_input_and_the_store_is_unchanged(
    store: Store, tool: str, arguments: dict[str, Any], message: str
):
    args = {k: store.memory_id if v == ID else v for k, v in arguments.items()}
    async with Client(server(store.root), read_timeout_seconds=60) as client:
        result = await client.call_tool(tool, args)
        assert result.is_error
        text = " ".join(getattr(block, "text", "") for block in result.content)
        assert message in text
        assert "Traceback" not in text
        # The session goes on: the next call is served.
        found = await client.call_tool("recall", {"query": "duckdb store"})
        assert not found.is_error and found.structured_content is not None
        assert [m["id"] for m in found.structured_content["memories"]] == [store.memory_id]
    assert_unchanged(store)


def raw_exchange(
    root: Path, frames: list[str], *extra: str
) -> tuple[list[dict[str, Any]], int, str]:
    """Start `anchormem serve`, write ``frames`` (raw JSON-RPC lines), waiting for the answer
    to each request, then close its input; the replies, its exit code and its stderr."""
    proc = subprocess.Popen(
        [str(SCRIPT), "serve", *extra],
        cwd=root,
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    replies: list[dict[str, Any]] = []
    try:
        for frame in frames:
            try:
                proc.stdin.write(frame.encode() + b"\n")
                proc.stdin.flush()
            except BrokenPipeError:
                break  # the server has gone
            request_id = json.loads(frame).get("id")
            while request_id is not None:
                line = proc.stdout.readline()
                if not line:
                    break
                replies.append(json.loads(line))
                if replies[-1].get("id") == request_id:
                    break
        with suppress(BrokenPipeError):  # the server may be gone already
            proc.stdin.close()
        replies.extend(json.loads(line) for line in proc.stdout if line.strip())
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    err = proc.stderr.read().decode("utf-8", "backslashreplace")
    proc.stderr.close()
    proc.stdout.close()
    return replies, code, err


INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
)
INITIALIZED = '{"jsonrpc": "2.0", "method": "notifications/initialized"}'


def tool_call(request_id: int, tool: str, arguments: str) -> str:
    # Written by hand: the escapes below must reach the server exactly as typed.
    return (
        f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call",'
        f' "params": {{"name": "{tool}", "arguments": {arguments}}}}}'
    )


def test_lone_surrogates_over_mcp_are_answered_with_an_error_and_nothing_is_stored(store: Store):
    frames = [
        INITIALIZE,
        INITIALIZED,
        tool_call(1, "remember", '{"text": "We deploy \\ud800 on Fridays"}'),
        tool_call(2, "retract", f'{{"id": "{store.memory_id}", "reason": "wrong \\udfff"}}'),
        tool_call(3, "recall", '{"query": "duck\\udc00db"}'),
        tool_call(4, "recall", '{"query": "duckdb store"}'),
    ]
    replies, code, _ = raw_exchange(store.root, frames)
    assert code == 0
    by_id = {r.get("id"): r for r in replies}
    for request_id in (1, 2, 3):
        answer = by_id[request_id]
        assert "result" not in answer
        assert answer["error"]["message"], answer
    served = by_id[4]["result"]["structuredContent"]["memories"]
    assert [m["id"] for m in served] == [store.memory_id]
    assert_unchanged(store)


def test_a_server_on_a_db_in_a_missing_directory_exits_with_one_clear_line(store: Store):
    missing = store.root / "nope" / "memory.duckdb"
    replies, code, err = raw_exchange(store.root, [INITIALIZE], "--db", str(missing))
    assert code == 1 and replies == []
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "does not exist" in lines[0], err
    assert not missing.parent.exists()
    assert_unchanged(store)


def test_a_server_on_a_store_from_a_newer_schema_exits_with_one_clear_line(store: Store):
    before = store.newer_store.read_bytes(), store.newer_store.stat().st_mtime_ns
    replies, code, err = raw_exchange(
        store.root, [INITIALIZE, INITIALIZED], "--db", str(store.newer_store)
    )
    assert code == 1
    assert all("result" not in r for r in replies)
    lines = [line for line in err.strip().splitlines() if "schema version" in line]
    assert len(lines) == 1 and "upgrade anchormem" in lines[0], err
    assert "Traceback" not in err
    assert (store.newer_store.read_bytes(), store.newer_store.stat().st_mtime_ns) == before
    assert_unchanged(store)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
