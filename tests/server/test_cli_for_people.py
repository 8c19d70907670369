"""The terminal a person reads (adr/0024): ``list`` one line per memory, ``verify``'s
summary of what changed, ``stats`` as text, ``export`` refused on a terminal, ``show``
naming the words no anchor covers, ``review`` with real ages and the next command, the
person as the actor of every CLI command, colour and ``NO_COLOR``.

Each command is the installed console script run as a person runs it: a child process
whose controlling terminal is a pseudo-terminal (``pty.fork``) of a fixed width; then the
same command with ``NO_COLOR=1``, and with stdout a pipe."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from server.memory_lines import cells
from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.mcp_calls import call
from tests.server.conftest import PROJECT

SCRIPT = str(Path(sys.executable).with_name("anchormem"))
COLUMNS = 100
ANSI = re.compile(r"\x1b\[[0-9;]*m")
HINT = "if the note is about something outside this repository, remember it with scope 'external'"
DOUBTED = (
    "The billing client retries every payment request three times with exponential backoff"
    " before it gives up and raises PaymentFailed to the caller"
)


def _env(**extra: str) -> dict[str, str]:
    # The owner each test's store starts leaves soon, and keeps no standby.
    env = anchormem_env(ANCHORMEM_OWNER_IDLE="5", ANCHORMEM_OWNER_STANDBY="0")
    env.pop("NO_COLOR", None)
    env.update({"COLUMNS": str(COLUMNS), "TERM": "xterm-256color", **extra})
    return env


def on_tty(cwd: Path, *args: str, **extra: str) -> tuple[int, str]:
    """``anchormem args`` with a pseudo-terminal of ``COLUMNS`` columns as its controlling
    terminal (stdin, stdout and stderr); its exit code and everything it printed."""
    env = _env(**extra)
    pid, master = pty.fork()
    if pid == 0:  # the child: a new session, the terminal its own
        try:
            os.chdir(cwd)
            os.execve(SCRIPT, [SCRIPT, *args], env)
        finally:
            os._exit(127)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            if not ready:
                os.kill(pid, 9)
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
    _, status = os.waitpid(pid, 0)
    out = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return os.waitstatus_to_exitcode(status), out


def piped(cwd: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """``anchormem args`` with stdout and stderr pipes."""
    return subprocess.run(
        [SCRIPT, *args], cwd=cwd, env=_env(**extra), capture_output=True, text=True, timeout=120
    )


def made(cwd: Path, *args: str) -> dict[str, Any]:
    done = piped(cwd, *args)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def plain(text: str) -> str:
    return ANSI.sub("", text)


def _lines(out: str) -> list[str]:
    return out.rstrip("\n").split("\n")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A repository and its memories: one VERIFIED, two refuted by the code (each with the
    same hint), one naming a class no anchor covers, one with three contradictions (ASK)."""
    root = tmp_path_factory.mktemp("people") / "repo"
    root.mkdir()
    GitRepo(root).commit(PROJECT, "initial project")
    ids = {
        "verified": made(root, "remember", "The store opens DuckDB in store/db.py")["id"],
        "redis": made(root, "remember", "Sessions are cached in Redis")["id"],
        "celery": made(root, "remember", "The worker queue runs on Celery")["id"],
        "uncovered": made(
            root, "remember", "billing/client.py charge posts with httpx and raises PaymentFailed"
        )["id"],
        "doubted": made(root, "remember", DOUBTED, "--scope", "external")["id"],
    }
    for who in ("alice", "bob", "carol"):
        made(root, "observe", ids["doubted"], "--contradicts", "--origin", who)
    yield {"root": root, "ids": ids}


# -- list -----------------------------------------------------------------------------------


def test_list_prints_one_line_per_memory_with_a_short_reason_and_the_hint_once(store):
    root, ids = store["root"], store["ids"]
    code, out = on_tty(root, "list")
    assert code == 0, out
    lines = [plain(line) for line in _lines(out)]
    assert lines[0].split() == ["ID", "STATUS", "WHY", "NOTE"]
    rows = {line.split()[0]: line for line in lines[1 : 1 + len(ids)]}
    assert set(rows) == set(ids.values())  # one line each, no more
    assert lines[1 + len(ids)] == ""  # then the footer
    assert all(cells(line) <= COLUMNS for line in lines), out
    assert rows[ids["redis"]].split()[1:4] == ["REFUTED", "tech:redis", "broken"]
    assert rows[ids["verified"]].split()[1] == "VERIFIED"
    assert "anchors hold" in rows[ids["verified"]] or "holds" in rows[ids["verified"]]
    doubted = rows[ids["doubted"]]
    assert doubted.endswith("…") and "The billing client retries" in doubted  # cut, one line
    assert out.count(HINT) == 1  # two refutations carry it: said once
    assert "is not used by the project" not in out  # the details are for --long and show
    assert "5 memories:" in plain(out) and "2 REFUTED" in plain(out)


def test_list_long_gives_each_memory_in_full_each_reason_once(store):
    root, ids = store["root"], store["ids"]
    code, out = on_tty(root, "list", "--long")
    assert code == 0, out
    text = plain(out)
    assert all(cells(line) <= COLUMNS for line in _lines(text)), out
    assert f"{ids['redis']}  REFUTED" in text and "tech:redis (inferred)" in text
    words = " ".join(text.split())  # as read, across the wrapped lines
    # The anchor's detail, not again in the receipt of the refutation it caused.
    assert words.count("Redis is not used by the project") == 1
    assert "refute_by_code by code at" in words and "(the broken anchors above)" in words
    assert words.count(HINT) == 1


def test_list_in_colour_is_the_same_text_as_without(store):
    root = store["root"]
    code, coloured = on_tty(root, "list")
    assert code == 0 and "\x1b[31mREFUTED\x1b[0m" in coloured and "\x1b[32mVERIFIED" in coloured
    for extra in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        code, out = on_tty(root, "list", **extra)
        assert code == 0 and "\x1b[" not in out, extra
        assert out == plain(coloured)


def test_piped_output_is_json_without_colour(store):
    root = store["root"]
    for args in (["list"], ["list", "--long"], ["show", store["ids"]["redis"]], ["stats"]):
        done = piped(root, *args)
        assert done.returncode == 0, done.stderr
        assert "\x1b[" not in done.stdout and isinstance(json.loads(done.stdout), dict)


# -- show -----------------------------------------------------------------------------------


def test_show_names_the_words_no_anchor_covers(store):
    root, ids = store["root"], store["ids"]
    code, out = on_tty(root, "show", ids["uncovered"], NO_COLOR="1")
    assert code == 0, out
    [said] = [line for line in _lines(out) if "no anchor covers" in line]
    assert said.split(": ", 1)[1].startswith("PaymentFailed")
    assert "httpx" not in said and "billing/client.py" not in said  # anchored
    shown = made(root, "show", ids["uncovered"])
    assert shown["uncovered"] == ["PaymentFailed"]
    assert made(root, "show", ids["verified"])["uncovered"] == []
    code, out = on_tty(root, "show", ids["redis"])
    assert plain(out).count(HINT) == 1 and "Redis is not used" in plain(out)


# -- stats, export --------------------------------------------------------------------------


def test_stats_is_text_on_a_terminal_and_json_when_piped(store):
    root = store["root"]
    code, out = on_tty(root, "stats")
    assert code == 0 and "{" not in out, out
    rows = {line.rsplit("  ", 1)[0].strip(): line.split()[-1] for line in _lines(out)}
    assert rows["memories written"] == "5"
    assert rows["refuted by the code"] == "2"
    assert rows["correction rate"].endswith("%")
    assert made(root, "stats")["wrong_fact_signals"]["refutations_by_code"] == 2
    assert on_tty(root, "stats", "--json")[1].lstrip().startswith("{")


def test_export_refuses_a_terminal_and_writes_to_a_pipe_or_a_file(store, tmp_path: Path):
    root = store["root"]
    code, out = on_tty(root, "export")
    assert code == 2, out
    assert out.startswith("anchormem: export writes JSON Lines") and len(_lines(out)) == 1
    assert '{"type"' not in out
    done = piped(root, "export")
    assert done.returncode == 0 and "exported 5 memories" in done.stderr
    header = json.loads(done.stdout.splitlines()[0])
    assert header["type"] == "anchormem-export"
    target = tmp_path / "memories.jsonl"
    code, out = on_tty(root, "export", "--out", str(target))
    assert code == 0 and "exported 5 memories" in out
    # The same lines but the header's time of export.
    assert target.read_text().splitlines()[1:] == done.stdout.splitlines()[1:]


# -- review ---------------------------------------------------------------------------------


def test_review_shows_real_ages_and_the_next_command_which_works(store):
    root, ids = store["root"], store["ids"]
    code, out = on_tty(root, "review")
    assert code == 0, out
    lines = [plain(line) for line in _lines(out)]
    assert lines[0].split() == ["ID", "ACTION", "CONF", "WRITTEN", "CONFIRMED", "TEXT"]
    row = lines[1].split()
    assert row[:2] == [ids["doubted"], "ASK"]
    assert re.fullmatch(r"<1min|\d+min|\d+h", row[3]), row  # written just now, not "1d"
    assert row[4] == "never"
    wrong = f"if wrong: anchormem retract {ids['doubted']} --reason WHY"
    right = f"if right: anchormem observe {ids['doubted']} --confirms"
    assert wrong in [line.strip() for line in lines]
    assert right in [line.strip() for line in lines]
    assert "\x1b[35mASK\x1b[0m" in out
    queue = made(root, "review")
    [item] = queue["items"]
    assert item["written_at"] and item["confirmed_at"] is None
    assert item["next"] == [wrong, right]
    # The commands given are ones that run.
    assert piped(root, *right.split(": ", 1)[1].split()[1:]).returncode == 0
    code, out = on_tty(root, "review", NO_COLOR="1")
    assert code == 0 and "\x1b[" not in out


# -- verify ---------------------------------------------------------------------------------


def test_verify_ends_with_what_changed_since_the_last_check(project: GitRepo):
    root = project.root
    first = made(root, "remember", "The store opens DuckDB in store/db.py")["id"]
    second = made(root, "remember", "Billing posts with httpx in billing/client.py")["id"]
    code, out = on_tty(root, "verify")
    assert code == 0, out
    assert _lines(plain(out))[-1] == "since the last check: 2 unchanged"
    project.commit({"store/db.py": None}, "store/db.py is gone")
    code, out = on_tty(root, "verify")
    assert code == 0, out
    tail = _lines(plain(out))[-2:]
    assert tail[0] == "since the last check: 1 newly REFUTED, 1 unchanged"
    assert tail[1].split()[:4] == [first, "VERIFIED", "->", "REFUTED"]
    assert "store/db.py" in tail[1] and "broken" in tail[1]
    assert "newly \x1b[31mREFUTED\x1b[0m" in out
    rows = {line.split()[0] for line in _lines(plain(out))[1:3]}
    assert rows == {first, second}  # the list, one line each, before the summary
    # The audit trail holds the change the summary names.
    trail = made(root, "audit", first)["entries"]
    assert [(e["from_status"], e["to_status"]) for e in trail if e["action"] == "verify"][-1] == (
        "VERIFIED",
        "REFUTED",
    )
    code, out = on_tty(root, "verify", NO_COLOR="1")
    assert "\x1b[" not in out and _lines(out)[-1] == "since the last check: 2 unchanged"
    checked = made(root, "verify")
    assert checked["changes"] == {"checked": 2, "unchanged": 2, "changed": []}
    project.commit({"store/db.py": PROJECT["store/db.py"]}, "store/db.py is back")
    checked = made(root, "verify", first)
    assert checked["changes"] == {
        "checked": 1,
        "unchanged": 0,
        "changed": [{"id": first, "from": "REFUTED", "to": "VERIFIED"}],
    }


# -- the actor ------------------------------------------------------------------------------


def _actors(root: Path, memory_id: str, **extra: str) -> dict[str, str]:
    done = piped(root, "audit", memory_id, **extra)
    assert done.returncode == 0, done.stderr
    return {e["action"]: e["actor"] for e in json.loads(done.stdout)["entries"]}


def test_a_cli_command_is_recorded_as_the_person_and_a_tool_call_as_the_agent(
    project: GitRepo,
):
    root = project.root
    one = made(root, "remember", "Tokens are signed with HS256.", "--scope", "external")["id"]
    two = made(root, "remember", "Tokens are signed with RS256.", "--scope", "external")["id"]
    retracted = made(root, "retract", one, "--reason", "wrong algorithm")
    assert retracted["receipt"]["actor"] == "user"
    assert made(root, "restore", one, "--reason", "it was right")["receipt"]["actor"] == "user"
    made(root, "observe", one, "--confirms")
    made(root, "resolve", one, two, "compatible", "--reason", "both in use")
    newer = made(root, "supersede", two, "Tokens are signed with ES256.")["id"]
    actors = _actors(root, one)
    assert actors["retract"] == actors["restore"] == actors["observe"] == "user"
    assert actors["resolve"] == "user"
    assert _actors(root, two)["supersede"] == "user"
    gone = made(root, "forget", newer, "--reason", "privacy")
    assert gone["receipt"]["actor"] == "user"
    # ANCHORMEM_ACTOR names someone else.
    third = made(root, "remember", "Deploys are on Fridays")["id"]
    done = piped(root, "retract", third, "--reason", "moved", ANCHORMEM_ACTOR="alice")
    assert json.loads(done.stdout)["receipt"]["actor"] == "alice"
    # An MCP tool call over the same store stays the agent's.
    settings = Settings.resolve(repo=str(root), env=settings_env())

    async def by_tool() -> dict[str, Any]:
        async with Client(build_server(settings)) as client:
            return await call(client, "retract", id=one, reason="the agent says so")

    anyio.run(by_tool)
    trail = made(root, "audit", one)["entries"]
    assert [e["actor"] for e in trail if e["action"] == "retract"] == ["user", "agent"]


# -- completion -----------------------------------------------------------------------------
# tests/server/test_completion.py: the scripts themselves.
