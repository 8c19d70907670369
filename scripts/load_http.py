#!/usr/bin/env python3
"""Load test of the HTTP transport over loopback.

Starts ``anchormem serve --transport http`` (the console script beside this Python) on a
throwaway git repository, with a bearer token so the auth path is exercised, then runs N
concurrent MCP clients (streamable HTTP, one session each) for a bounded time, each
alternating ``remember`` (a unique text) and ``recall``. Afterwards it stops the server
with SIGTERM and reads the store with ``anchormem list`` to count acknowledged memories
that are missing ("lost"; the goal is 0).

Prints one line per figure, then a JSON summary as the last line:
requests served, errors, p50/p99 latency (ms), throughput, lost, server exit time.

    python scripts/load_http.py                      # 8 clients, 10 s
    python scripts/load_http.py --clients 2 --duration 2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from experiments.scratch import make_repo as make_scratch_repo

MAX_CLIENTS = 64

# Varied facts, so that the run measures serving rather than one ever-growing cluster of
# near-duplicates (which conflict detection compares on every remember).
TOPICS = [
    ("billing", "retries failed charges three times"),
    ("auth", "tokens expire after one hour"),
    ("search", "the index is rebuilt nightly"),
    ("queue", "workers acknowledge after the write"),
    ("cache", "entries live for five minutes"),
    ("deploy", "releases are tagged by hand"),
    ("logging", "request ids are added by middleware"),
    ("storage", "uploads go to the object store"),
    ("metrics", "counters are flushed every ten seconds"),
    ("email", "templates live beside the mailer"),
    ("payments", "refunds need a second approval"),
    ("scheduler", "jobs run in the UTC timezone"),
]
MAX_DURATION_S = 120.0

FILES = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\ndependencies = ["httpx"]\n',
    "shop/__init__.py": "",
    "shop/billing.py": "import httpx\n\n\ndef charge(amount):\n    return httpx.post('/c')\n",
}


def make_repo(root: Path) -> None:
    make_scratch_repo(root, FILES)


def anchormem() -> str:
    return str(Path(sys.executable).with_name("anchormem"))


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env.update(extra)
    return env


def start_server(repo: Path, log: Path, token: str) -> tuple[subprocess.Popen[bytes], str]:
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [anchormem(), "serve", "--transport", "http", "--port", "0"],
            cwd=repo,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=clean_env(ANCHORMEM_HTTP_TOKEN=token),
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", log.read_text())
        if found:
            return proc, found.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.kill()
    raise SystemExit(f"load_http: the server did not start:\n{log.read_text()}")


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.remembered: set[str] = set()
        self.by_tool: dict[str, int] = {"remember": 0, "recall": 0}
        self.tool_latencies: dict[str, list[float]] = {"remember": [], "recall": []}


async def one_client(url: str, token: str, n: int, stop_at: float, tally: Tally) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    try:
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            i = 0
            while time.monotonic() < stop_at:
                area, claim = TOPICS[(n * 7 + i) % len(TOPICS)]
                if i % 2 == 0:
                    tool = "remember"
                    args: dict[str, Any] = {
                        "text": f"In {area} {claim} (noted by client {n}, "
                        f"item {i}, {secrets.token_hex(4)})",
                        "subject": area,
                    }
                else:
                    tool, args = "recall", {"query": f"{area} {claim}", "limit": 10}
                started = time.perf_counter()
                try:
                    result = await client.call_tool(tool, args)
                except Exception as exc:  # a transport or protocol failure
                    tally.errors.append(f"{tool}: {type(exc).__name__}: {exc}"[:200])
                    i += 1
                    continue
                took = time.perf_counter() - started
                tally.latencies.append(took)
                tally.tool_latencies[tool].append(took)
                if result.is_error or result.structured_content is None:
                    tally.errors.append(f"{tool}: tool error {result.content!r}"[:200])
                else:
                    tally.by_tool[tool] += 1
                    if tool == "remember":
                        tally.remembered.add(result.structured_content["id"])
                i += 1
    except Exception as exc:  # the session itself failed
        tally.errors.append(f"session: {type(exc).__name__}: {exc}"[:200])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def run_load(url: str, token: str, clients: int, duration: float, tally: Tally) -> float:
    started = time.monotonic()
    stop_at = started + duration
    with anyio.fail_after(duration + 120):  # a hung client cannot hang the run
        async with anyio.create_task_group() as tg:
            for n in range(clients):
                tg.start_soon(one_client, url, token, n, stop_at, tally)
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help=f"1-{MAX_CLIENTS} (default 8)")
    parser.add_argument(
        "--duration", type=float, default=10.0, help=f"seconds, at most {MAX_DURATION_S:.0f}"
    )
    args = parser.parse_args(argv)
    clients = max(1, min(args.clients, MAX_CLIENTS))
    duration = max(0.5, min(args.duration, MAX_DURATION_S))

    with tempfile.TemporaryDirectory(prefix="anchormem-load-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        make_repo(repo)
        log = Path(tmp) / "server.err"
        token = secrets.token_urlsafe(32)
        proc, url = start_server(repo, log, token)
        tally = Tally()
        try:
            elapsed = anyio.run(run_load, url, token, clients, duration, tally)
        finally:
            stop_started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                exit_code = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                exit_code = proc.wait()
            exit_s = time.monotonic() - stop_started
        listed = subprocess.run(
            [anchormem(), "list", "--json", "--limit", "10000"],
            cwd=repo,
            capture_output=True,
            text=True,
            env=clean_env(ANCHORMEM_LOCK_WAIT="0"),
            timeout=120,
        )
        if listed.returncode != 0:
            tally.errors.append(f"list after the run failed: {listed.stderr.strip()}")
            stored = set(tally.remembered)  # unknown: counted as an error, not as lost
        else:
            stored = {m["id"] for m in json.loads(listed.stdout)["memories"]}
        server_log = log.read_text()

    lost = len(tally.remembered - stored)
    served = len(tally.latencies)
    lat_ms = [x * 1000 for x in tally.latencies]
    summary = {
        "clients": clients,
        "duration_s": round(elapsed, 2),
        "requests": served,
        "remember": tally.by_tool["remember"],
        "recall": tally.by_tool["recall"],
        "errors": len(tally.errors),
        "p50_ms": round(percentile(lat_ms, 50), 2),
        "p99_ms": round(percentile(lat_ms, 99), 2),
        "max_ms": round(max(lat_ms, default=0.0), 2),
        "remember_p50_ms": round(
            percentile([x * 1000 for x in tally.tool_latencies["remember"]], 50), 2
        ),
        "recall_p50_ms": round(
            percentile([x * 1000 for x in tally.tool_latencies["recall"]], 50), 2
        ),
        "throughput_rps": round(served / elapsed, 1) if elapsed else 0.0,
        "lost": lost,
        "server_exit_code": exit_code,
        "server_exit_s": round(exit_s, 3),
    }
    print(f"clients            {clients} for {summary['duration_s']} s over loopback")
    print(
        f"requests served    {served} ({summary['remember']} remember, "
        f"{summary['recall']} recall), {summary['throughput_rps']} req/s"
    )
    print(
        f"latency            p50 {summary['p50_ms']} ms, p99 {summary['p99_ms']} ms, "
        f"max {summary['max_ms']} ms (p50 remember {summary['remember_p50_ms']} ms, "
        f"recall {summary['recall_p50_ms']} ms)"
    )
    print(f"errors             {len(tally.errors)}")
    print(f"lost               {lost} acknowledged memories missing from the store")
    print(f"server exit        code {exit_code} in {summary['server_exit_s']} s after SIGTERM")
    for error in tally.errors[:10]:
        print(f"  error: {error}", file=sys.stderr)
    if tally.errors or exit_code != 0:
        print(server_log[-2000:], file=sys.stderr)
    print(json.dumps(summary))
    return 0 if not tally.errors and lost == 0 and exit_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
