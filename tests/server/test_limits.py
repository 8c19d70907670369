"""Size limits: memory text, subject, reason, origin, anchors, query, limit, and one
stdio frame. Larger input is refused with a clear error, never truncated; a 100 MB
argument is refused without the server growing (run with ``-s`` to see how long the
refusal took: measured, not asserted)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from store.limits import (
    MAX_ANCHORS,
    MAX_FRAME_BYTES,
    MAX_ORIGIN_CHARS,
    MAX_QUERY_CHARS,
    MAX_REASON_CHARS,
    MAX_RECALL_LIMIT,
    MAX_SUBJECT_CHARS,
    MAX_TEXT_CHARS,
)
from tests.conftest import GitRepo
from tests.server.test_protocol_frames import StrictServer

README = Path(__file__).parents[2] / "README.md"
MAX_ANCHOR_CHARS = 512
BIG = 100 * 1024 * 1024


def words(n: int) -> str:
    """``n`` characters of prose (so nothing is refused for another reason)."""
    return ("billing uses httpx " * (n // 19 + 1))[:n].strip().ljust(n, "x")


def anchors(n: int) -> list[str]:
    return [f"env:LIMIT_VAR_{i}" for i in range(n)]


# (what, tool, arguments at the limit, arguments one over it)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    (
        "text",
        "remember",
        {"text": words(MAX_TEXT_CHARS)},
        {"text": words(MAX_TEXT_CHARS + 1)},
    ),
    (
        "subject",
        "remember",
        {"text": "subject at the limit", "subject": "s" * MAX_SUBJECT_CHARS},
        {"text": "subject over the limit", "subject": "s" * (MAX_SUBJECT_CHARS + 1)},
    ),
    (
        "origin",
        "remember",
        {"text": "origin at the limit", "origin": "o" * MAX_ORIGIN_CHARS},
        {"text": "origin over the limit", "origin": "o" * (MAX_ORIGIN_CHARS + 1)},
    ),
    (
        "anchors",
        "remember",
        {"text": "as many anchors as allowed", "anchors": anchors(MAX_ANCHORS)},
        {"text": "one anchor too many", "anchors": anchors(MAX_ANCHORS + 1)},
    ),
    (
        "one anchor",
        "remember",
        {"text": "a long anchor", "anchors": ["env:" + "A" * (MAX_ANCHOR_CHARS - 4)]},
        {"text": "a too long anchor", "anchors": ["env:" + "A" * (MAX_ANCHOR_CHARS - 3)]},
    ),
    (
        "query",
        "recall",
        {"query": words(MAX_QUERY_CHARS)},
        {"query": words(MAX_QUERY_CHARS + 1)},
    ),
    (
        "limit",
        "recall",
        {"query": "billing", "limit": MAX_RECALL_LIMIT},
        {"query": "billing", "limit": MAX_RECALL_LIMIT + 1},
    ),
    ("limit zero", "recall", {"query": "billing", "limit": 1}, {"query": "billing", "limit": 0}),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("what", "tool", "at_limit", "over"), CASES, ids=[c[0] for c in CASES])
async def test_input_at_a_limit_is_accepted_and_one_over_is_refused(
    settings: Settings, what: str, tool: str, at_limit: dict[str, Any], over: dict[str, Any]
):
    async with Client(build_server(settings)) as client:
        ok = await client.call_tool(tool, at_limit)
        assert not ok.is_error, (what, ok.content)
        refused = await client.call_tool(tool, over)
        assert refused.is_error, what
    message = refused.content[0].text  # type: ignore[union-attr]
    assert re.search(r"limit|at most|less than or equal|greater than or equal|longer", message)


@pytest.mark.anyio
async def test_the_reason_for_a_retraction_is_limited_too(settings: Settings):
    async with Client(build_server(settings)) as client:
        made = await client.call_tool("remember", {"text": "Billing uses httpx"})
        assert made.structured_content is not None
        mid = made.structured_content["id"]
        over = await client.call_tool(
            "retract", {"id": mid, "reason": "r" * (MAX_REASON_CHARS + 1)}
        )
        assert over.is_error
        ok = await client.call_tool("retract", {"id": mid, "reason": "r" * MAX_REASON_CHARS})
        assert not ok.is_error


@pytest.mark.anyio
async def test_a_ten_megabyte_text_is_refused_without_reaching_the_store(
    settings: Settings,
):
    async with Client(build_server(settings)) as client:
        refused = await client.call_tool("remember", {"text": "a" * 10_000_000})
        listed = await client.call_tool("verify", {})
    assert refused.is_error
    assert f"at most {MAX_TEXT_CHARS} characters" in refused.content[0].text  # type: ignore[union-attr]
    assert listed.structured_content is not None
    assert listed.structured_content["memories"] == []


def test_the_readme_documents_every_limit():
    text = README.read_text()
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for value in (
        MAX_TEXT_CHARS,
        MAX_SUBJECT_CHARS,
        MAX_REASON_CHARS,
        MAX_ANCHORS,
        MAX_ANCHOR_CHARS,
        MAX_QUERY_CHARS,
        MAX_RECALL_LIMIT,
        MAX_ORIGIN_CHARS,
    ):
        assert f"{value:,}" in section, value
    assert MAX_FRAME_BYTES == 1 << 20 and "1 MiB" in section


# -- a 100 MB argument over stdio ------------------------------------------------------------


def vm(pid: int, field: str) -> int:
    """A /proc/<pid>/status memory figure, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


class RssSampler:
    """The highest VmRSS of a process while the block runs, sampled every 2 ms."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = vm(pid, "VmRSS")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, vm(self.pid, "VmRSS"))
            time.sleep(0.002)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, vm(self.pid, "VmRSS"))


@pytest.fixture
def stdio_server(project: GitRepo, tmp_path: Path) -> Iterator[StrictServer]:
    with (tmp_path / "server.stderr").open("w+b") as log:
        srv = StrictServer(project.root, log)
        try:
            srv.initialize()
            # Warm up: the store is open and the fingerprint built before measuring.
            assert not srv.tool("remember", text="Billing uses httpx").get("isError")
            assert not srv.tool("recall", query="billing").get("isError")
            yield srv
        finally:
            srv.close()


def remember_frame(request_id: int, text: bytes, id_last: bool) -> bytes:
    call = b'"method":"tools/call","params":{"name":"remember","arguments":{"text":"'
    if id_last:
        return b'{"jsonrpc":"2.0",' + call + text + b'"}},"id":%d}\n' % request_id
    return b'{"jsonrpc":"2.0","id":%d,' % request_id + call + text + b'"}}}\n'


@pytest.mark.parametrize("id_last", [False, True], ids=["id-first", "id-last"])
def test_a_100_mb_remember_is_refused_without_the_server_growing(
    stdio_server: StrictServer, id_last: bool, capsys: pytest.CaptureFixture[str]
):
    srv = stdio_server
    frame = remember_frame(4242, b"a" * BIG, id_last)
    rss_before, hwm_before = vm(srv.pid, "VmRSS"), vm(srv.pid, "VmHWM")
    with RssSampler(srv.pid) as rss:
        start = time.monotonic()
        writer = threading.Thread(target=srv.send_raw, args=(frame,), daemon=True)
        writer.start()
        answer = srv.reply(4242, timeout=30)
        refused_after = time.monotonic() - start
        writer.join(timeout=30)
        pong = srv.call("ping")
        done_after = time.monotonic() - start
    grew_mb = (rss.peak - rss_before) / 1024
    hwm_grew_mb = (vm(srv.pid, "VmHWM") - hwm_before) / 1024
    with capsys.disabled():
        print(
            f"\n100 MB remember ({'id last' if id_last else 'id first'}): refused after "
            f"{refused_after * 1000:.0f} ms, whole frame discarded after {done_after * 1000:.0f} "
            f"ms; RSS {rss_before / 1024:.0f} MB, peak +{grew_mb:.1f} MB, "
            f"high-water mark +{hwm_grew_mb:.1f} MB"
        )
    assert answer["error"]["code"] == -32600 and "limit" in answer["error"]["message"]
    assert grew_mb < 50 and hwm_grew_mb < 50
    assert "result" in pong
    still = srv.tool("recall", query="billing")
    assert not still.get("isError") and len(still["structuredContent"]["memories"]) == 1
    assert srv.bad == []


def test_a_text_just_under_the_frame_limit_reaches_the_text_limit_and_is_refused(
    stdio_server: StrictServer,
):
    srv = stdio_server
    text = b"b" * (MAX_FRAME_BYTES - 200)
    srv.send_raw(remember_frame(77, text, id_last=False))
    answer = srv.reply(77)
    assert answer["result"]["isError"] is True
    # Refused by the input schema's maxLength, which names the limit.
    assert f"at most {MAX_TEXT_CHARS} characters" in answer["result"]["content"][0]["text"]


def test_the_frame_refusal_names_the_limit(stdio_server: StrictServer):
    """The error message names the limit, so a client can tell what to do."""
    srv = stdio_server
    srv.send_raw(remember_frame(78, b"c" * (MAX_FRAME_BYTES + 1), id_last=False))
    answer = srv.reply(78)
    assert f"{MAX_FRAME_BYTES}-byte limit" in answer["error"]["message"]
