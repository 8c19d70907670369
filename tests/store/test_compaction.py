"""Forgetting rewrites the store file so the text is gone from disk; a rewrite that fails
or is killed leaves the store marked, and the next open or close rewrites it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from server.rendering import Rendered
from store.db import Database
from store.service import MemoryService
from tests.conftest import GitRepo

ROOT = Path(__file__).resolve().parents[2]
SECRET = "kv/zebra-quokka-4417"


def _everywhere(folder: Path) -> list[str]:
    """The files in ``folder`` that still hold the forgotten text."""
    return [p.name for p in folder.iterdir() if p.is_file() and SECRET.encode() in p.read_bytes()]


def _marked(db: Path) -> bool:
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT value FROM meta WHERE key = 'compact_pending'").fetchall()
    return bool(rows)


def _forget_one(db: Path) -> str:
    store = Database(db)
    svc = Rendered(MemoryService(store, None))
    made = svc.remember(f"The staging vault path is {SECRET}")
    svc.remember("The billing team owns the invoice exporter")
    store.close()
    return str(made["id"])


@pytest.mark.parametrize("name", ['we"ird.duckdb', "anchormem_compact.duckdb", "it's.duckdb"])
def test_forget_rewrites_stores_of_any_name(tmp_path: Path, name: str):
    db = tmp_path / name
    mid = _forget_one(db)
    store = Database(db)
    Rendered(MemoryService(store, None)).forget(mid, "privacy request")
    store.close()
    assert _everywhere(tmp_path) == []
    assert not _marked(db)


def test_a_rewrite_killed_halfway_is_done_by_the_next_open(tmp_path: Path):
    db = tmp_path / "store.duckdb"
    mid = _forget_one(db)
    code = f"""
        import os
        from pathlib import Path
        from server.rendering import Rendered
        from store.db import Database
        from store.service import MemoryService
        def fault(step):
            if step == "compact":
                os._exit(9)
        db = Database(Path({str(db)!r}), fault=fault)
        Rendered(MemoryService(db, None)).forget({mid!r}, "privacy request")
        """
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 9, done.stderr
    assert _marked(db)  # forgotten (committed), the rewrite still owed
    store = Database(db)  # the next open rewrites
    try:
        assert store.get(mid) is not None and store.get(mid).forgotten  # type: ignore[union-attr]
    finally:
        store.close()
    assert not _marked(db)
    assert _everywhere(tmp_path) == []


def test_a_rewrite_that_cannot_write_its_copy_is_retried_and_leaves_no_copy(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
):
    db = tmp_path / "store.duckdb"
    mid = _forget_one(db)
    blocker = tmp_path / "store.duckdb.compact"
    blocker.mkdir()  # the copy cannot be made: its path is taken by a folder
    (blocker / "x").write_text("x")
    store = Database(db)
    Rendered(MemoryService(store, None)).forget(mid, "privacy request")  # still forgotten
    assert "could not be erased from the file yet" in capfd.readouterr().err
    assert store.compact_pending
    store.close()
    assert _marked(db)
    (blocker / "x").unlink()
    blocker.rmdir()
    Database(db).close()
    assert not _marked(db)
    assert _everywhere(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["store.duckdb", "store.duckdb.lock", "store.duckdb.want", "store.duckdb.journal"]
    )


def test_a_rewrite_on_a_full_disk_leaves_no_copy_and_is_done_once_there_is_room(
    tmp_path: Path,
):
    """An 8 MB tmpfs (needs root and mount; skipped otherwise), filled so that the store
    fits but its copy does not."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        db = folder / "store.duckdb"
        mid = _forget_one(db)
        stat = os.statvfs(folder)
        filler = folder / "filler"
        filler.write_bytes(b"\0" * max(0, stat.f_bavail * stat.f_frsize - 1_000_000))
        store = Database(db)
        result = Rendered(MemoryService(store, None)).forget(mid, "privacy request")
        assert result["id"] == mid
        assert store.compact_pending
        store.close()
        assert not list(folder.glob("*.compact*"))  # no partial copy left on the full disk
        filler.unlink()
        Database(db).close()
        assert not _marked(db)
        assert _everywhere(folder) == []
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


def test_forget_erases_a_memory_that_went_through_every_feature(tmp_path: Path, git_repo: GitRepo):
    """Anchored and verified (verdicts cached), in a conflict, observed with a note,
    reviewed (a question asked), retracted and restored with reasons that quote it, an
    episode beside it; then forgotten. Its text, subject and anchor values are in no file
    of the store's folder: the store, its journal, its WAL."""
    from anchors.fingerprint import CodeSource
    from store.factcache import StoreFactsCache

    git_repo.commit({"vault/zebra_quokka.py": "import hvac\n"}, "one")
    db_path = tmp_path / "store" / "store.duckdb"
    db_path.parent.mkdir()
    words = ["zebra-quokka", "zebra_quokka", "quokka-vault-subject"]
    db = Database(db_path)
    with CodeSource(git_repo.root, StoreFactsCache(db)) as code:
        svc = Rendered(MemoryService(db, code))
        made = svc.remember(
            "The zebra-quokka vault client reads kv/zebra-quokka-4417 with hvac",
            subject="quokka-vault-subject",
            anchors=["import:hvac@vault/zebra_quokka.py", "file:vault/zebra_quokka.py"],
            attribute="vault path",
            value="kv/zebra-quokka-4417",
        )
        mid = made["id"]
        svc.remember(
            "The vault path is kv/other-9",
            attribute="vault path",
            value="kv/other-9",
        )
        svc.remember("Episode: rotated the zebra-quokka token today", kind="episode")
        svc.verify()
        svc.observe(mid, True, "behaviour", "user", "carol", "zebra-quokka still works")
        svc.review()
        svc.retract(mid, "zebra-quokka moved", evidence="see vault/zebra_quokka.py")
        svc.restore(mid, "zebra-quokka is back")
        svc.recall("zebra-quokka vault")
        episode = svc.recall("rotated token")["memories"][0]["id"]
        svc.forget(mid, "privacy request")
        svc.forget(episode, "privacy request")
    db.close()
    for path in db_path.parent.iterdir():
        data = path.read_bytes()
        for word in words:
            assert word.encode() not in data, (path.name, word)
    # the trail stays: who did what, and when
    with duckdb.connect(str(db_path), read_only=True) as con:
        actions = [
            r[0]
            for r in con.execute(
                "SELECT action FROM audit WHERE memory_id = ? ORDER BY seq", [mid]
            ).fetchall()
        ]
    assert actions[0] == "remember" and actions[-1] == "forget" and "retract" in actions
