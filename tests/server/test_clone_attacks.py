"""A cloned repository can never attack its user (adr/0022): what an upstream commit puts
in the work tree (a store, an owner's info file, a key, links) is never opened, obeyed or
followed, and a pull never replaces the user's memories. Each attack runs against a real
upstream repository, a real ``git clone`` or ``git pull``, and the CLI run as a user
would, with a canary where the attack would read, write, delete or connect."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from multiprocessing.connection import Listener
from pathlib import Path
from typing import Any

import duckdb
import pytest

from server.store_location import legacy_store
from tests.conftest import IDENTITY, GitRepo, anchormem_env, store_file
from tests.server.conftest import PROJECT

CANARY_TEXT = "canary: the user's private file 7f3a9c"
KEY = "k" * 64


def cli(repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("anchormem")), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=anchormem_env(ANCHORMEM_OWNER_IDLE="3", **env),
        timeout=120,
    )


def clone(upstream: GitRepo, where: Path) -> GitRepo:
    subprocess.run(
        ["git", "clone", "-q", "--", str(upstream.root), str(where)],
        check=True,
        capture_output=True,
    )
    return GitRepo(where)


def hostile_store(path: Path, canary: Path) -> None:
    """A DuckDB file shaped like a store whose ``memories`` is a view of the canary."""
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    con.execute(
        "CREATE VIEW memories AS SELECT 'm1' AS id, content AS text, 'VERIFIED' AS status"
        f" FROM read_text('{canary}')"
    )
    con.close()


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "outside" / "private.txt"
    path.parent.mkdir()
    path.write_text(CANARY_TEXT + "\n")
    return path


@pytest.fixture
def upstream(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "upstream")
    repo.commit(PROJECT, "initial project")
    return repo


def force_commit(repo: GitRepo, paths: list[str], message: str) -> None:
    repo.git("add", "-f", "--", *paths)
    repo.git("commit", "-q", "-m", message)


def commit_hostile_store(upstream: GitRepo, canary: Path) -> None:
    """An upstream commit that force-adds ``.anchormem/memory.duckdb`` (item 1's store)
    where earlier versions kept the store."""
    (upstream.root / ".anchormem").mkdir()
    hostile_store(upstream.root / ".anchormem" / "memory.duckdb", canary)
    force_commit(upstream, [".anchormem/memory.duckdb"], "add a store")


def test_a_committed_store_file_is_never_opened_and_its_view_reads_nothing(
    upstream: GitRepo, canary: Path, tmp_path: Path
) -> None:
    commit_hostile_store(upstream, canary)
    mine = clone(upstream, tmp_path / "clone")

    for args in (["recall", "canary private file"], ["list"], ["doctor"]):
        done = cli(mine.root, *args, "--json")
        assert done.returncode == 0, done.stderr
        assert "7f3a9c" not in done.stdout + done.stderr, args
    listed = json.loads(cli(mine.root, "list", "--json").stdout)
    assert listed["memories"] == []  # the user's own, empty store
    assert store_file(mine.root).exists()
    # Named with --db, the tracked file is refused, never opened.
    named = cli(mine.root, "list", "--json", "--db", ".anchormem/memory.duckdb")
    assert named.returncode == 1 and "git tracks" in named.stderr, named.stderr
    assert "7f3a9c" not in named.stdout + named.stderr


def test_a_store_file_holding_a_view_is_refused_wherever_it_is_named(
    canary: Path, tmp_path: Path, upstream: GitRepo
) -> None:
    elsewhere = tmp_path / "downloads"
    elsewhere.mkdir()
    hostile_store(elsewhere / "team.duckdb", canary)
    done = cli(upstream.root, "list", "--json", "--db", str(elsewhere / "team.duckdb"))
    assert done.returncode == 1
    assert "replaced or changed by someone else" in done.stderr, done.stderr
    assert "7f3a9c" not in done.stdout + done.stderr


def test_duckdb_reads_no_other_file_even_from_a_store_it_opened(tmp_path: Path) -> None:
    from store.db import connect_locked_down

    (tmp_path / "secret.txt").write_text(CANARY_TEXT)
    con = connect_locked_down(tmp_path / "s.duckdb")
    try:
        for sql in (
            f"SELECT * FROM read_text('{tmp_path / 'secret.txt'}')",
            f"ATTACH '{tmp_path / 'other.duckdb'}' AS other",
            "SET enable_external_access = true",
            "LOAD httpfs",
        ):
            with pytest.raises(duckdb.Error):
                con.execute(sql)
    finally:
        con.close()
    assert not (tmp_path / "other.duckdb").exists()


def test_a_committed_owner_info_file_deletes_nothing_and_reaches_no_listener(
    upstream: GitRepo, canary: Path, tmp_path: Path
) -> None:
    seen: list[str] = []
    listener = Listener(("127.0.0.1", 0), authkey=KEY.encode())
    host, port = listener.address
    stop = threading.Event()

    def serve() -> None:
        listener._listener._socket.settimeout(0.2)  # type: ignore[attr-defined]
        while not stop.is_set():
            try:
                conn = listener.accept()
            except (OSError, Exception):
                continue
            seen.append("connected")
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        folder = upstream.root / ".anchormem"
        folder.mkdir()
        for name, info in (
            ("memory.duckdb.owner", {"pid": 999999, "family": "AF_UNIX", "address": str(canary)}),
            ("planted.duckdb.owner", {"pid": 999999, "family": "AF_INET", "address": [host, port]}),
        ):
            (folder / name).write_text(json.dumps({**info, "protocol": 3, "version": "0.1.0"}))
        (folder / "memory.duckdb.key").write_text(KEY)
        (folder / "planted.duckdb.key").write_text(KEY)
        force_commit(upstream, [".anchormem"], "add owner files")
        mine = clone(upstream, tmp_path / "clone")

        for args in (["doctor"], ["recall", "anything"], ["remember", "We use DuckDB"]):
            done = cli(mine.root, *args, "--json")
            assert done.returncode == 0, (args, done.stderr)
            assert "repaired" not in done.stdout
        assert canary.read_text().startswith(CANARY_TEXT)
        assert seen == []
    finally:
        stop.set()
        thread.join(5)
        listener.close()


@pytest.mark.parametrize("family", ["AF_UNIX", "AF_INET"])
def test_an_info_file_beside_a_named_store_is_only_obeyed_for_this_users_own_socket(
    upstream: GitRepo, canary: Path, tmp_path: Path, family: str
) -> None:
    """Even where the info file is this user's (a store named with --db in a folder of
    theirs), its address must be a socket of theirs: no path is removed, nothing else is
    dialled."""
    accepted: list[bool] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.bind(("127.0.0.1", 0))
    probe.listen(1)
    probe.settimeout(0.1)
    folder = tmp_path / "stores"
    folder.mkdir(mode=0o700)
    db = folder / "team.duckdb"
    address: Any = str(canary) if family == "AF_UNIX" else list(probe.getsockname())
    Path(f"{db}.owner").write_text(
        json.dumps({"pid": 999999, "family": family, "address": address, "protocol": 3})
    )
    Path(f"{db}.key").write_text(KEY)
    try:
        for args in (["doctor"], ["list"]):
            done = cli(upstream.root, *args, "--json", "--db", str(db))
            assert done.returncode == 0, (args, done.stderr)
        with pytest.raises(OSError):
            probe.accept()
            accepted.append(True)
    finally:
        probe.close()
    assert canary.read_text().startswith(CANARY_TEXT)
    assert accepted == []


def test_committed_links_in_the_store_folder_are_never_followed(
    upstream: GitRepo, canary: Path, tmp_path: Path
) -> None:
    folder = upstream.root / ".anchormem"
    folder.mkdir()
    for name in ("memory.duckdb.owner.log", "memory.duckdb.lock", ".gitignore",
                 "memory.duckdb.journal", "memory.duckdb.wal"):  # fmt: skip
        os.symlink(canary, folder / name)
    force_commit(upstream, [".anchormem"], "links")
    mine = clone(upstream, tmp_path / "clone")
    before = canary.read_bytes()
    for args in (["remember", "We use DuckDB for storage"], ["recall", "storage"], ["doctor"]):
        done = cli(mine.root, *args, "--json")
        assert done.returncode == 0, (args, done.stderr)
    assert canary.read_bytes() == before
    # Named with --db, the store's links are refused with a clear error.
    named = cli(mine.root, "list", "--json", "--db", ".anchormem/memory.duckdb")
    assert named.returncode == 1 and "git tracks" in named.stderr, named.stderr
    # The same links in a folder git does not track: refused as links.
    for name in ("memory.duckdb.owner.log", "memory.duckdb.journal", "memory.duckdb.wal"):
        only = tmp_path / f"only-{name}"
        only.mkdir()
        os.symlink(canary, only / name)
        named = cli(mine.root, "remember", "a note", "--json", "--db", str(only / "memory.duckdb"))
        assert named.returncode == 1 and "symbolic link" in named.stderr, named.stderr
    assert canary.read_bytes() == before


def test_a_committed_store_folder_link_to_another_project_is_not_followed(
    tmp_path: Path,
) -> None:
    other = GitRepo(tmp_path / "other-project")
    other.commit(PROJECT, "another project")
    assert cli(other.root, "remember", "The other project uses DuckDB", "--json").returncode == 0
    # The other project's store, as an earlier version kept it, in its work tree.
    old = legacy_store(other.root)
    old.parent.mkdir()
    shutil.copyfile(store_file(other.root), old)
    before = old.read_bytes()
    mode = stat.S_IMODE((tmp_path).stat().st_mode)

    upstream = GitRepo(tmp_path / "upstream")
    upstream.commit(PROJECT, "initial project")
    os.symlink("../other-project/.anchormem", upstream.root / ".anchormem")
    force_commit(upstream, [".anchormem"], "a link")
    mine = clone(upstream, tmp_path / "clone")
    for args in (["list"], ["remember", "This project uses SQLite"], ["doctor"]):
        done = cli(mine.root, *args, "--json")
        assert done.returncode == 0, (args, done.stderr)
        assert "The other project uses DuckDB" not in done.stdout
    assert old.read_bytes() == before
    assert sorted(p.name for p in old.parent.iterdir()) == ["memory.duckdb"]
    assert stat.S_IMODE(tmp_path.stat().st_mode) == mode


def test_a_shared_folder_named_for_the_store_is_refused_not_made_private(
    upstream: GitRepo, tmp_path: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    done = cli(upstream.root, "list", "--json", "--db", str(shared / "m.duckdb"))
    assert done.returncode == 1 and "others may write" in done.stderr, done.stderr
    assert stat.S_IMODE(shared.stat().st_mode) == 0o777
    assert list(shared.iterdir()) == []


def test_a_pull_that_adds_a_store_leaves_the_users_memories_alone(
    upstream: GitRepo, canary: Path, tmp_path: Path
) -> None:
    mine = clone(upstream, tmp_path / "clone")
    note = "Team convention: pull requests stay under 400 changed lines"
    made = cli(mine.root, "remember", note, "--json")
    assert made.returncode == 0, made.stderr
    mid = json.loads(made.stdout)["id"]

    commit_hostile_store(upstream, canary)
    pulled = subprocess.run(
        ["git", "-c", f"user.name={IDENTITY[0]}", "-c", f"user.email={IDENTITY[1]}",
         "pull", "-q", "--no-rebase"],
        cwd=mine.root, capture_output=True, text=True,
    )  # fmt: skip
    assert pulled.returncode == 0, pulled.stderr
    assert (mine.root / ".anchormem" / "memory.duckdb").exists()  # git wrote it

    shown = cli(mine.root, "show", mid, "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["text"] == note
    recalled = cli(mine.root, "recall", "pull requests changed lines", "--json")
    assert mid in recalled.stdout and "7f3a9c" not in recalled.stdout


def test_an_earlier_versions_store_in_the_work_tree_is_moved_once_and_nothing_is_lost(
    upstream: GitRepo, tmp_path: Path
) -> None:
    # A store written where earlier versions kept it, untracked and ignored.
    elsewhere = tmp_path / "home-before"
    made = cli(upstream.root, "remember", "The CLI is built with argparse", "--json",
               ANCHORMEM_HOME=str(elsewhere))  # fmt: skip
    assert made.returncode == 0, made.stderr
    mid = json.loads(made.stdout)["id"]
    _wait_closed(store_file(upstream.root, elsewhere))
    old = legacy_store(upstream.root)
    old.parent.mkdir(mode=0o700)
    (old.parent / ".gitignore").write_text("*\n")
    for part in store_file(upstream.root, elsewhere).parent.iterdir():
        if part.name in ("memory.duckdb", "memory.duckdb.journal", "memory.duckdb.wal"):
            shutil.copyfile(part, old.parent / part.name)

    first = cli(upstream.root, "show", mid, "--json")
    assert first.returncode == 0, first.stderr
    assert "moved out of the work tree" in first.stderr
    again = cli(upstream.root, "show", mid, "--json")
    assert again.returncode == 0 and "moved" not in again.stderr
    assert json.loads(again.stdout)["text"] == "The CLI is built with argparse"
    assert old.exists()  # left for the user to delete; doctor says so
    doctor = json.loads(cli(upstream.root, "doctor", "--json").stdout)
    [said] = [c for c in doctor["checks"] if c["name"] == "old store"]
    assert "no longer used" in said["detail"]


def test_a_tracked_store_of_an_earlier_version_is_not_moved(
    upstream: GitRepo, canary: Path, tmp_path: Path
) -> None:
    commit_hostile_store(upstream, canary)
    mine = clone(upstream, tmp_path / "clone")
    done = cli(mine.root, "list", "--json")
    assert done.returncode == 0, done.stderr
    assert "git tracks" in done.stderr and "never used" in done.stderr
    assert json.loads(done.stdout)["memories"] == []


def test_a_store_named_with_ANCHORMEM_DB_and_its_files_are_private(
    upstream: GitRepo, tmp_path: Path
) -> None:
    db = tmp_path / "named" / "m.duckdb"
    db.parent.mkdir()
    old = os.umask(0o022)
    try:
        done = cli(upstream.root, "remember", "We deploy with Docker", "--json",
                   ANCHORMEM_DB=str(db))  # fmt: skip
        assert done.returncode == 0, done.stderr
        # A forget rewrites the file (the copy DuckDB makes becomes the store).
        gone = cli(upstream.root, "forget", json.loads(done.stdout)["id"], "--reason", "test",
                   "--json", ANCHORMEM_DB=str(db))  # fmt: skip
        assert gone.returncode == 0, gone.stderr
    finally:
        os.umask(old)
    _wait_closed(db)
    made = [p for p in db.parent.iterdir() if p.is_file()]
    assert db in made
    for path in made:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


@pytest.mark.skipif(os.geteuid() != 0, reason="making a folder another user owns needs root")
def test_a_socket_folder_another_user_made_first_is_passed_over_with_a_warning(
    upstream: GitRepo, tmp_path: Path
) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="am-", dir="/tmp"))  # short: a socket path fits
    taken = tmp / f"anchormem-{os.getuid()}"
    taken.mkdir(mode=0o755)
    os.chown(taken, 65534, 65534)
    # A data folder so deep that the socket cannot go beside the store.
    home = tmp_path / ("d" * 60) / ("e" * 60)
    env = {"TMPDIR": str(tmp), "ANCHORMEM_HOME": str(home), "XDG_RUNTIME_DIR": ""}
    done = cli(upstream.root, "remember", "We use DuckDB", "--json", **env)
    assert done.returncode == 0, done.stderr
    listed = cli(upstream.root, "list", "--json", **env)
    assert listed.returncode == 0 and len(json.loads(listed.stdout)["memories"]) == 1
    try:
        log = Path(f"{store_file(upstream.root, home)}.owner.log").read_text()
        assert "is not this user's private directory" in log
        assert list(taken.iterdir()) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _wait_closed(db: Path) -> None:
    """Until the store's owner has gone (it closes the store, draining its journal)."""
    import time

    info = Path(f"{db}.owner")
    deadline = time.monotonic() + 60
    while info.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not info.exists(), "the owner did not stop"
