"""The CLI at a terminal: tables for review and conflicts, lines wrapped at word
boundaries, the line serve prints on a terminal, --version and python -m anchormem.
Commands run as a user runs them, under a pseudo-terminal (``os.openpty``)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from server.cli_tables import table, wrap_text
from server.config import Settings
from server.runtime import open_runtime
from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.server.conftest import PROJECT

SCRIPT = str(Path(sys.executable).with_name("anchormem"))
COLUMNS = 72
LONG = (
    "The billing client retries every payment request three times with exponential backoff"
    " before it gives up and raises PaymentFailed to the caller"
)


def _env(**extra: str) -> dict[str, str]:
    env = anchormem_env()
    env.update({"COLUMNS": str(COLUMNS), "TERM": "dumb", **extra})
    return env


def on_tty(args: list[str], cwd: Path, stdin_tty: bool = True, **extra: str) -> tuple[int, str]:
    """Run ``args`` with stdout and stderr on a pseudo-terminal (``extra``: more settings);
    its exit code and whole output."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            args,
            cwd=cwd,
            env=_env(**extra),
            stdin=slave if stdin_tty else subprocess.DEVNULL,
            stdout=slave,
            stderr=slave,
            close_fds=True,
        )
    finally:
        os.close(slave)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                proc.kill()
                raise AssertionError("no output for 120 s")
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    code = proc.wait(timeout=60)
    return code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A store with a review item (three contradictions: ASK) and an open conflict."""
    root = tmp_path_factory.mktemp("terminal") / "repo"
    root.mkdir()
    GitRepo(root).commit(PROJECT, "initial project")
    rt = open_runtime(Settings.resolve(repo=str(root), env=settings_env()))
    try:
        svc = rt.service
        doubted = svc.remember(LONG, scope="external").reading.memory.id
        for who in ("alice", "bob", "carol"):
            svc.observe(doubted, False, "behaviour", "user", who)
        svc.remember("The python version is 3.11", attribute="python version", value="3.11")
        svc.remember("The python version is 3.12", attribute="python version", value="3.12")
    finally:
        rt.close()
    yield root


def _words(text: str) -> set[str]:
    return set(text.split())


def test_review_prints_a_table_wrapped_at_word_boundaries(repo: Path):
    code, out = on_tty([SCRIPT, "review"], repo)
    assert code == 0, out
    lines = out.rstrip("\n").splitlines()
    assert lines[0].split() == ["ID", "ACTION", "CONF", "WRITTEN", "CONFIRMED", "TEXT"]
    assert "ASK" in lines[1].split()
    assert all(len(line) <= COLUMNS for line in lines), out
    text_col = lines[0].index("TEXT")
    # The text column's lines, up to the commands printed under the row.
    rows = lines[1 : next(i for i, line in enumerate(lines) if "if wrong:" in line)]
    wrapped = [line[text_col:].strip() for line in rows if line[text_col:].strip()]
    body = " ".join(wrapped)
    assert LONG.split() == body.split()  # whole words, in order
    assert _words(" ".join(wrapped[:3])) <= _words(LONG)  # no word was cut
    assert len(wrapped) >= 3  # it did wrap
    assert "{" not in out  # not JSON


def test_conflicts_prints_a_table(repo: Path):
    code, out = on_tty([SCRIPT, "conflicts"], repo)
    assert code == 0, out
    lines = out.rstrip("\n").splitlines()
    assert lines[0].split() == ["PAIR", "STATE", "OUTCOME", "WINNER", "CLAIMS"]
    assert "open" in lines[1].split() and "kept_both" in lines[1].split()
    at = lines[0].index("CLAIMS")
    claims = " ".join(line[at:].strip() for line in lines[1:])
    expected = "The python version is 3.11 | The python version is 3.12"
    assert claims.split() == expected.split(" ")
    assert all(len(line) <= COLUMNS for line in lines), out


def test_piped_and_json_output_stay_json(repo: Path):
    for args in (["review"], ["conflicts"]):
        done = subprocess.run(
            [SCRIPT, *args], cwd=repo, env=_env(), capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0 and isinstance(json.loads(done.stdout), dict)
    code, out = on_tty([SCRIPT, "conflicts", "--json"], repo)
    assert code == 0 and json.loads(out)["conflicts"]


def test_serve_says_what_it_serves_on_a_terminal_and_nothing_otherwise(repo: Path):
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [SCRIPT, "serve"],
        cwd=repo,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"\n" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                seen += os.read(master, 4096)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # EOF: the server ends
        proc.wait(timeout=60)
        os.close(master)
    line = seen.decode().splitlines()[0]
    assert "serving MCP on stdin/stdout" in line and str(repo) in line
    assert "Ctrl-C" in line
    assert proc.stdout is not None and proc.stdout.read() == b""  # stdout is the protocol's
    quiet = subprocess.run(
        [SCRIPT, "serve"], cwd=repo, env=_env(), input=b"", capture_output=True, timeout=60
    )
    assert b"serving" not in quiet.stderr


def test_version_and_python_m_anchormem():
    done = subprocess.run([SCRIPT, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"anchormem {metadata.version('anchormem')}"
    done = subprocess.run(
        [sys.executable, "-m", "anchormem", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: anchormem")
    for command in ("export", "import", "supersede", "setup"):
        assert command in done.stdout


@pytest.mark.parametrize("width", [40, 60, 100])
def test_wrapping_keeps_words_whole_and_the_indent(width: int):
    text = "m1abc  ACTIVE  " + LONG + "\n    kind=fact  " + LONG
    out = wrap_text(text, width)
    assert out.split() == text.split()  # the same words, in order
    assert all(len(line) <= width for line in out.splitlines())
    rows: list[Any] = [["m1", LONG]]
    laid = table(["ID", "TEXT"], rows, width).splitlines()
    assert " ".join(line[4:].strip() for line in laid[1:]).split() == LONG.split()
