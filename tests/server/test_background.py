"""A served store's background work: the journal written into its tables once the
server is idle, and the contradiction check's caches warmed, without a call waiting."""

from __future__ import annotations

import time
from pathlib import Path

from server.config import Settings
from server.runtime import IDLE_S, QUIET_S, open_runtime
from store.db import Database
from tests.conftest import GitRepo, settings_env


def _runtime(tmp_path: Path):
    repo = GitRepo(tmp_path / "repo")
    repo.commit({"app.py": "import click\n"}, "initial")
    db = tmp_path / "store.duckdb"
    return open_runtime(Settings.resolve(repo=str(repo.root), db=str(db), env=settings_env())), db


def _until(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_an_idle_server_writes_its_journal_into_the_tables(tmp_path: Path):
    runtime, db = _runtime(tmp_path)
    try:
        assert not runtime.db.drain_idle()  # nothing to write yet
        made = runtime.service.remember("The CLI is built on click", origin="alice")
        journal = Path(f"{db}.journal")
        assert runtime.db.backlog() >= 1 and journal.stat().st_size > 0  # not started yet
        runtime.start_background()
        assert _until(lambda: runtime.db.backlog() == 0), "the idle server never drained"
        assert journal.stat().st_size == 0
        assert runtime.service.idle_for() >= IDLE_S
    finally:
        runtime.close()
    # In the tables, not only in the journal (which is empty): a fresh open finds it.
    assert not Path(f"{db}.journal").exists() or Path(f"{db}.journal").stat().st_size == 0
    again = Database(db)
    try:
        assert again.get(made.reading.id) is not None
    finally:
        again.close()


def test_a_server_idle_for_long_still_writes_a_later_call_into_the_tables(tmp_path: Path):
    """Once quiet, the drain looks less often (``QUIET_LOOK_S``), but it still looks."""
    runtime, db = _runtime(tmp_path)
    try:
        runtime.start_background()
        assert _until(lambda: runtime.service.idle_for() >= 2 * QUIET_S)
        runtime.service.remember("The CLI is built on click", origin="alice")
        assert runtime.db.backlog() >= 1
        assert _until(lambda: runtime.db.backlog() == 0), "the quiet server never drained"
        assert Path(f"{db}.journal").stat().st_size == 0
    finally:
        runtime.close()


def test_warming_ends_with_one_line_and_close_stops_the_background(tmp_path: Path, capfd):
    runtime, _db = _runtime(tmp_path)
    try:
        runtime.service.remember("Requests time out after 30 seconds", origin="alice")
        runtime.start_background()
        assert _until(lambda: "conflict check warm: 1 memories" in capfd.readouterr().err)
    finally:
        runtime.close()
    assert all(not t.is_alive() for t in runtime._background)
