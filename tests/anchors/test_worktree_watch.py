"""The work-tree overlay served by inotify (adr/0018): every change is seen by the next
call, an unchanged work tree costs no file look-up, and wherever the watcher cannot serve
(another system, no ``ctypes``, the watch limit, lost events) the full pass does.

Every answer is compared with the truth: a fresh ``GitRepository`` without a watcher,
whose first overlay hashes every file from scratch."""

from __future__ import annotations

import mmap
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anchors.gitrepo import GitRepository, Overlay
from anchors.worktree import WorkTree, _pruned
from server.config import Settings
from server.runtime import open_runtime
from tests.anchors.test_worktree_overlay import age
from tests.conftest import GitRepo, settings_env

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="inotify is Linux's; elsewhere the full pass"
)

FILES = {
    "a.py": "import os\n",
    "b.txt": "hello\n",
    "pkg/c.py": "x = 1\n",
    "pkg/sub/d.py": "y = 2\n",
    "docs/e.md": "# e\n",
    ".gitignore": "*.log\nbuild/\n",
}


def truth(root: Path) -> Overlay:
    """The overlay as a fresh repository without a watcher computes it from scratch."""
    with GitRepository(root, watch=False) as fresh:
        return fresh.overlay()


def paths(overlay: Overlay) -> list[str]:
    return [e.path for e in overlay.entries]


def inotify_fds() -> int:
    """This process's open inotify descriptors."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:inotify"
        except OSError:
            continue  # the listing's own descriptor, closed meanwhile
    return count


@pytest.fixture
def repo(git_repo: GitRepo) -> Iterator[GitRepository]:
    git_repo.commit(FILES)
    age(git_repo.root)
    with GitRepository(git_repo.root) as watched:
        assert watched.overlay().key == ""
        assert watched.overlay_watched
        yield watched


def test_an_unchanged_work_tree_is_answered_without_a_full_pass(repo: GitRepository):
    first = repo.overlay()
    passes, listings = repo.overlay_full_passes, repo.overlay_listings
    for _ in range(50):
        assert repo.overlay() is not None
    assert repo.overlay() == first
    assert (repo.overlay_full_passes, repo.overlay_listings) == (passes, listings)


def test_an_edit_is_seen_by_the_very_next_call_and_only_the_edited_file_is_looked_at(
    repo: GitRepository, git_repo: GitRepo
):
    passes = repo.overlay_full_passes
    for n in range(5):  # each write lands within the racy window of the last
        git_repo.write({"pkg/c.py": f"x = {n + 2}\n"})  # same size every time
        [entry] = repo.overlay().entries
        assert entry == truth(git_repo.root).entries[0]
    git_repo.write({"pkg/c.py": FILES["pkg/c.py"]})
    assert repo.overlay().key == ""
    assert repo.overlay_full_passes == passes  # no call looked at every file


def test_a_file_created_in_a_new_directory_is_seen(repo: GitRepository, git_repo: GitRepo):
    git_repo.write({"fresh/deep/er/new.py": "import json\n"})
    assert paths(repo.overlay()) == ["fresh/deep/er/new.py"]
    # The new directories are watched now: a second file in them shows too.
    git_repo.write({"fresh/deep/er/other.py": "", "fresh/top.py": ""})
    assert repo.overlay() == truth(git_repo.root)
    assert paths(repo.overlay()) == [
        "fresh/deep/er/new.py",
        "fresh/deep/er/other.py",
        "fresh/top.py",
    ]


def test_a_deleted_file_and_a_removed_directory_are_seen(repo: GitRepository, git_repo: GitRepo):
    (git_repo.root / "a.py").unlink()
    assert [(e.path, e.blob_id) for e in repo.overlay().entries] == [("a.py", None)]
    shutil.rmtree(git_repo.root / "pkg")
    assert paths(repo.overlay()) == ["a.py", "pkg/c.py", "pkg/sub/d.py"]
    assert repo.overlay() == truth(git_repo.root)
    git_repo.git("checkout", "--", "pkg")  # brought back: files written before any watch
    assert paths(repo.overlay()) == ["a.py"]


def test_a_renamed_directory_is_seen_with_every_file_in_it(repo: GitRepository, git_repo: GitRepo):
    (git_repo.root / "pkg").rename(git_repo.root / "lib")
    assert repo.overlay() == truth(git_repo.root)
    assert paths(repo.overlay()) == ["lib/c.py", "lib/sub/d.py", "pkg/c.py", "pkg/sub/d.py"]
    git_repo.write({"lib/sub/d.py": "y = 3\n"})  # the moved directory's watch follows it
    assert repo.overlay() == truth(git_repo.root)


def test_a_gitignore_change_is_seen(repo: GitRepository, git_repo: GitRepo):
    git_repo.write({"notes.log": "x\n", "scratch.py": "s = 1\n"})
    assert paths(repo.overlay()) == ["scratch.py"]
    git_repo.write({".gitignore": "build/\nscratch.py\n"})  # *.log dropped, scratch.py added
    assert paths(repo.overlay()) == [".gitignore", "notes.log"]
    git_repo.write({"pkg/.gitignore": "*.py\n", "pkg/new.py": ""})  # a new ignore file
    assert paths(repo.overlay()) == [".gitignore", "notes.log", "pkg/.gitignore"]
    assert repo.overlay() == truth(git_repo.root)


def test_info_exclude_is_watched(repo: GitRepository, git_repo: GitRepo):
    git_repo.write({"local.py": ""})
    assert paths(repo.overlay()) == ["local.py"]
    (git_repo.root / ".git" / "info").mkdir(exist_ok=True)
    (git_repo.root / ".git" / "info" / "exclude").write_text("local.py\n")
    assert paths(repo.overlay()) == []


def test_git_add_and_commit_are_seen(repo: GitRepository, git_repo: GitRepo):
    git_repo.write({"build/forced.py": "f = 1\n"})  # in an ignored directory: not watched
    assert paths(repo.overlay()) == []
    git_repo.git("add", "-f", "build/forced.py")  # the index changed
    assert paths(repo.overlay()) == ["build/forced.py"]
    git_repo.write({"build/forced.py": "f = 2\n"})
    assert repo.overlay() == truth(git_repo.root)
    git_repo.git("commit", "-q", "-a", "-m", "forced")  # HEAD moved
    assert repo.overlay().key == ""
    git_repo.write({"build/forced.py": "f = 3\n"})
    assert paths(repo.overlay()) == ["build/forced.py"]


def test_a_tracked_file_no_watch_covers_is_looked_at_on_every_call(
    repo: GitRepository, git_repo: GitRepo
):
    GitRepo(git_repo.root / "pkg" / "sub")  # now a nested repository: never walked
    assert repo.overlay() == truth(git_repo.root)
    assert "pkg/sub" not in repo._worktree()._watcher.watched_directories  # type: ignore[union-attr]
    age(git_repo.root / "pkg" / "sub")
    assert repo.overlay() == truth(git_repo.root)  # pkg/sub/d.py decided on an old stat
    git_repo.write({"pkg/sub/d.py": "y = 3\n"})  # no event: its directory is not watched
    assert "pkg/sub/d.py" in paths(repo.overlay())
    assert repo.overlay() == truth(git_repo.root)


def test_a_file_written_through_mmap_within_the_racy_window_is_seen(
    repo: GitRepository, git_repo: GitRepo
):
    path = git_repo.root / "b.txt"
    path.write_text("howdy\n")  # same size as the commit's; now racy
    with path.open("r+b") as handle:
        assert paths(repo.overlay()) == ["b.txt"]
        mapped = mmap.mmap(handle.fileno(), 0)
        mapped[:6] = b"hello\n"  # back to HEAD's content, and no inotify event
        mapped.flush()
        mapped.close()
        assert repo.overlay().key == ""  # the racy file is looked at again on every call


def test_a_change_no_event_announces_is_found_by_the_periodic_full_pass(git_repo: GitRepo):
    git_repo.commit(FILES)
    age(git_repo.root)
    with GitRepository(git_repo.root) as repo:
        repo._worktree().audit_s = 0.3  # the safety net's period, shortened for the test
        assert repo.overlay().key == ""
        first = repo.overlay_full_passes
        deadline = time.monotonic() + 30  # a safety net, not a timing assertion
        while repo.overlay().key == "" and repo.overlay_full_passes == first:
            assert time.monotonic() < deadline, "the periodic full pass never ran"
            time.sleep(0.05)
        assert repo.overlay().key == ""  # the audit ran, and found nothing changed
        passes = repo.overlay_full_passes
        with (git_repo.root / "b.txt").open("r+b") as handle:  # held open: no close event
            mapped = mmap.mmap(handle.fileno(), 0)
            mapped[:5] = b"HELLO"
            mapped.flush()
            mapped.close()
            deadline = time.monotonic() + 30  # a safety net, not a timing assertion
            while not repo.overlay().entries and time.monotonic() < deadline:
                time.sleep(0.05)
            assert paths(repo.overlay()) == ["b.txt"]
            assert repo.overlay_full_passes > passes


def test_an_overflowed_event_queue_falls_back_to_one_full_pass(
    repo: GitRepository, git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
):
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    count = limit // 3 + 500  # a create, a write and a close each: more than the queue holds
    if count > 40_000:
        pytest.skip(f"fs.inotify.max_queued_events is {limit}: too many files to overflow it")
    git_repo.write({"pkg/c.py": "x = 9\n"})
    for i in range(count):
        fd = os.open(git_repo.root / f"spam-{i}.log", os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, b"x")
        os.close(fd)
    git_repo.write({"a.py": "import re\n"})  # after the overflow: its events were dropped
    passes = repo.overlay_full_passes
    assert paths(repo.overlay()) == ["a.py", "pkg/c.py"]
    assert repo.overlay_full_passes == passes + 1
    assert repo.overlay_watched  # watching goes on after the full pass
    git_repo.write({"b.txt": "later\n"})
    assert paths(repo.overlay()) == ["a.py", "b.txt", "pkg/c.py"]
    assert repo.overlay_full_passes == passes + 1
    assert capsys.readouterr().err.count("overflowed") == 1


def run_git(root: Path) -> Callable[..., bytes]:
    """A git runner for a ``WorkTree`` made by hand."""

    def run(*args: str, **_: object) -> bytes:  # no watchdog (stalled=, patience_s=)
        return subprocess.run(["git", *args], cwd=root, capture_output=True, check=True).stdout

    return run


def test_more_directories_than_the_watch_budget_fall_back_to_the_full_pass_and_say_so_once(
    git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
):
    git_repo.commit(FILES)
    root = git_repo.root
    with GitRepository(root, watch=False) as repo:
        tree = repo.ls_tree(git_repo.head()).blobs
    work_tree = WorkTree(root, root / ".git", root / ".git", run_git(root), max_watches=3)
    before = inotify_fds()
    try:
        assert work_tree.changes(tree, frozenset(), False) == ()
        assert not work_tree.watching
        assert inotify_fds() == before  # the descriptor of the failed attempt is closed
        git_repo.write({"pkg/sub/d.py": "y = 5\n"})
        assert [c.path for c in work_tree.changes(tree, frozenset(), False)] == ["pkg/sub/d.py"]
        assert work_tree.full_passes == 2
    finally:
        work_tree.close()
    err = capsys.readouterr().err
    assert err.count("anchormem: the work tree is not watched") == 1
    assert "more than 3 directories" in err


def test_without_a_watcher_every_call_is_the_full_pass_and_as_right(git_repo: GitRepo):
    git_repo.commit(FILES)
    before = inotify_fds()
    with GitRepository(git_repo.root, watch=False) as repo:
        assert repo.overlay().key == ""
        git_repo.write({"a.py": "import re\n", "fresh/n.py": ""})
        assert paths(repo.overlay()) == ["a.py", "fresh/n.py"]
        assert not repo.overlay_watched
        assert inotify_fds() == before
        assert repo.overlay_full_passes == 2


_NO_CTYPES = r"""
import sys
sys.modules["ctypes"] = None  # a Python built without ctypes
from pathlib import Path
from anchors.gitrepo import GitRepository
root = Path(sys.argv[1])
with GitRepository(root) as repo:
    assert repo.overlay().key == ""
    (root / "a.py").write_text("import re\n")
    assert [e.path for e in repo.overlay().entries] == ["a.py"], repo.overlay()
    assert not repo.overlay_watched
print("ok")
"""


def test_a_python_without_ctypes_imports_everything_and_uses_the_full_pass_silently(
    git_repo: GitRepo,
):
    git_repo.commit(FILES)
    done = subprocess.run(
        [sys.executable, "-c", _NO_CTYPES, str(git_repo.root)],
        capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
    assert done.stderr == ""  # no inotify here is not worth a word


def test_closing_releases_the_inotify_descriptor(git_repo: GitRepo):
    git_repo.commit(FILES)
    before = inotify_fds()
    repo = GitRepository(git_repo.root)
    repo.overlay()
    assert inotify_fds() == before + 1
    repo.close()
    assert inotify_fds() == before
    git_repo.write({"a.py": "import re\n"})
    assert paths(repo.overlay()) == ["a.py"]  # still answers after close, without watching
    assert inotify_fds() == before and not repo.overlay_watched


def test_the_watcher_watches_exactly_the_directories_the_listing_walks(git_repo: GitRepo):
    git_repo.commit({**FILES, "vendor/lib.py": ""})
    git_repo.write({"build/out/x.py": "", "node/y.log": "", "empty/.keep": ""})
    nested = git_repo.root / "nested"
    GitRepo(nested)  # a nested repository: never entered
    (nested / "inner.py").write_text("")
    (git_repo.root / "link").symlink_to(git_repo.root / "pkg")  # a link: never followed
    with GitRepository(git_repo.root) as repo:
        repo.overlay()
        work_tree = repo._worktree()
        watched = work_tree._watcher.watched_directories  # type: ignore[union-attr]
        walked = work_tree._walk(_pruned(work_tree._ignored()))
        prefix = str(git_repo.root)
        expected = {p[len(prefix) + 1 :] for p, _ in walked if not p.endswith("/.gitignore")}
        assert watched == expected
        assert "nested" not in watched and "link" not in watched and "build" not in watched
        assert {"", "pkg", "pkg/sub", "docs", "vendor", "empty", "node"} <= watched


def test_a_directory_swapped_for_a_link_out_of_the_repository_is_not_watched_through_it(
    repo: GitRepository, git_repo: GitRepo, tmp_path: Path
):
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(git_repo.root / "docs")
    (git_repo.root / "docs").symlink_to(outside)
    assert repo.overlay() == truth(git_repo.root)
    assert "docs" not in repo._worktree()._watcher.watched_directories  # type: ignore[union-attr]
    passes = repo.overlay_full_passes
    (outside / "e.md").write_text("# changed outside\n")
    assert repo.overlay() == truth(git_repo.root)
    assert repo.overlay_full_passes == passes


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every directory")
def test_a_directory_this_user_may_not_read_is_left_unwatched_and_the_rest_still_is(
    repo: GitRepository, git_repo: GitRepo
):
    private = git_repo.root / "private"
    private.mkdir()
    (private / "secret.py").write_text("")
    private.chmod(0)
    try:
        assert repo.overlay() == truth(git_repo.root)
        assert repo.overlay_watched
        passes = repo.overlay_full_passes
        git_repo.write({"a.py": "import re\n"})
        assert paths(repo.overlay()) == ["a.py"]
        assert repo.overlay_full_passes == passes
    finally:
        private.chmod(0o755)


def test_a_git_directory_moved_away_and_back_is_watched_again(
    repo: GitRepository, git_repo: GitRepo, capsys: pytest.CaptureFixture[str]
):
    git_dir = git_repo.root / ".git"
    git_dir.rename(git_repo.root / ".git-away")
    (git_repo.root / ".git-away").rename(git_dir)
    git_repo.write({"a.py": "import re\n"})
    assert paths(repo.overlay()) == ["a.py"]
    assert not repo.overlay_watched  # that call was the full pass
    git_repo.write({"b.txt": "later\n"})
    assert paths(repo.overlay()) == ["a.py", "b.txt"]
    assert repo.overlay_watched  # armed again
    assert "watching again next call" in capsys.readouterr().err


def test_calls_from_several_threads_agree_with_the_truth(repo: GitRepository, git_repo: GitRepo):
    stop = threading.Event()

    def call() -> int:
        calls = 0
        while not stop.is_set():
            repo.overlay()
            calls += 1
        return calls

    with ThreadPoolExecutor(4) as pool:
        callers = [pool.submit(call) for _ in range(4)]
        try:
            for n in range(30):
                git_repo.write({f"t/{n % 3}/f{n}.py": f"n = {n}\n", "a.py": f"import os  # {n}\n"})
                if n % 10 == 9:
                    (git_repo.root / "t" / "0").rename(git_repo.root / f"moved{n}")
        finally:
            stop.set()
        assert all(caller.result() > 0 for caller in callers)  # raises what a caller raised
    assert repo.overlay() == truth(git_repo.root)


# -- the watcher's answers against the full pass, over random edits ------------------------

NAMES = (
    "a.py", "b.txt", "pkg/c.py", "pkg/sub/d.py", "docs/e.md", "new.py", "pkg/n.log",
    "fresh/x.py", "fresh/deep/y.py", "build/z.py", "pkg/sub/w.py", "docs/f.txt",
)  # fmt: skip
DIRS = ("pkg", "pkg/sub", "docs", "fresh", "moved", "build")
CONTENTS = ("x = 1\n", "x = 2\n", "import json\n", "")
IGNORES = ("*.log\nbuild/\n", "build/\n", "*.py\n", "fresh/\n*.txt\n", "")

operation = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(NAMES), st.sampled_from(CONTENTS)),
    st.tuples(st.just("delete"), st.sampled_from(NAMES)),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("move_dir"), st.sampled_from(DIRS), st.sampled_from(DIRS)),
    st.tuples(st.just("remove_dir"), st.sampled_from(DIRS)),
    st.tuples(st.just("ignore"), st.sampled_from(("", "pkg/")), st.sampled_from(IGNORES)),
    st.tuples(st.just("add"), st.sampled_from(NAMES)),
    st.tuples(st.just("commit")),
    st.tuples(st.just("link"), st.sampled_from(NAMES), st.sampled_from(("pkg", "/etc"))),
)


def apply(root: Path, scratch: GitRepo, op: tuple[str, ...]) -> None:
    """One edit of the work tree (or the index, or HEAD); impossible ones do nothing."""
    kind = op[0]
    try:
        if kind == "write":
            path = root / op[1]
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink():
                path.unlink()
            path.write_text(op[2])
        elif kind == "delete":
            (root / op[1]).unlink()
        elif kind == "rename":
            (root / op[2]).parent.mkdir(parents=True, exist_ok=True)
            (root / op[1]).rename(root / op[2])
        elif kind == "move_dir":
            (root / op[1]).rename(root / op[2])
        elif kind == "remove_dir":
            shutil.rmtree(root / op[1])
        elif kind == "ignore":
            (root / op[1]).mkdir(exist_ok=True)
            (root / op[1] / ".gitignore").write_text(op[2])
        elif kind == "add":
            scratch.git("add", "-f", "--", op[1])
        elif kind == "commit":
            scratch.git("add", "-A")
            scratch.git("commit", "-q", "--allow-empty", "-m", "step")
        elif kind == "link":
            (root / op[1]).parent.mkdir(parents=True, exist_ok=True)
            (root / op[1]).symlink_to(op[2])
    except (OSError, subprocess.CalledProcessError):
        pass  # a missing source, an occupied target, a path git refuses


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=st.lists(st.lists(operation, min_size=1, max_size=3), min_size=1, max_size=8))
def test_the_watcher_answers_as_the_full_pass_after_any_edits(
    steps: list[list[tuple[str, ...]]],
):
    with tempfile.TemporaryDirectory(prefix="anchormem-watch-") as tmp:
        root = Path(tmp) / "repo"
        scratch = GitRepo(root)
        scratch.commit(FILES)
        age(root)
        with GitRepository(root) as repo:
            assert repo.overlay().key == ""
            for batch in steps:  # a batch: edits made between two calls
                for op in batch:
                    apply(root, scratch, op)
                assert repo.overlay() == truth(root), batch
            assert repo.overlay_watched


@pytest.mark.parametrize(("value", "watched"), [("0", False), ("1", True)])
def test_anchormem_watch_turns_the_watcher_of_the_runtime_off_and_on(
    git_repo: GitRepo, value: str, watched: bool
):
    git_repo.commit(FILES)
    settings = Settings.resolve(repo=str(git_repo.root), env=settings_env(ANCHORMEM_WATCH=value))
    assert settings.watch is watched
    runtime = open_runtime(settings)
    try:
        assert runtime.code is not None
        assert runtime.code.repo.overlay().key == ""
        assert runtime.code.repo.overlay_watched is watched
    finally:
        runtime.close()
