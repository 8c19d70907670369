"""A FIFO where anchormem or git reads a file (``.git/info/exclude``, a ``.gitignore``, a
ref, ``packed-refs``, the index, a tracked file): the real CLI answers at once, and
nothing opens the FIFO for reading, unless git itself must (a ``.gitignore``: git is
stopped).

Opening a FIFO for reading waits for a writer, forever: before, the first call after one
appeared at ``.git/info/exclude`` waited on two ``git ls-files`` of 60 s each. The
subprocess timeout (30 s) is the failure condition, not a measure of speed."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo, anchormem_env

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")

ANCHORMEM = str(Path(sys.executable).with_name("anchormem"))


def cli(repo: Path, *args: str, **settings: str) -> dict[str, Any]:
    """One CLI call as a person runs it; its JSON answer. An owner it starts leaves soon
    after (``ANCHORMEM_OWNER_IDLE``)."""
    done = subprocess.run(
        [ANCHORMEM, *args, "--json"],
        cwd=repo,
        env=anchormem_env(ANCHORMEM_OWNER_IDLE="2", **settings),
        capture_output=True,
        text=True,
        timeout=30,  # the failure condition: a FIFO read by anyone waits forever
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@contextmanager
def never_opened(fifo: Path) -> Iterator[None]:
    """Fails if anything opens ``fifo`` for reading meanwhile, even for an instant: a
    writer waits on it in a thread, and its ``open`` returns only when a reader comes.
    Afterwards nobody holds it open either (a writer that does not wait gets ENXIO)."""
    opened, done = threading.Event(), threading.Event()

    def wait_for_a_reader() -> None:
        fd = os.open(fifo, os.O_WRONLY)
        opened.set()
        done.wait(60)
        os.close(fd)

    writer = threading.Thread(target=wait_for_a_reader, daemon=True)
    writer.start()
    try:
        yield
        assert not opened.is_set(), f"{fifo} was opened for reading"
        assert_no_reader(fifo)
    finally:
        done.set()
        if not opened.is_set():  # let the writer go: a reader of our own, for an instant
            with suppress(OSError):  # the test removed it
                fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
                writer.join(5)
                os.close(fd)


def assert_no_reader(fifo: Path) -> None:
    with pytest.raises(OSError) as caught:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert caught.value.errno == errno.ENXIO, f"something holds {fifo} open for reading"


def replace_by_fifo(path: Path) -> Path:
    if path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _packed_branch_only(repo: GitRepo) -> Path:
    """The branch only in ``packed-refs`` (``pack-refs`` drops the loose ref), which is
    a FIFO."""
    repo.git("pack-refs", "--all")
    assert not (repo.root / ".git" / "refs" / "heads" / "main").exists()
    return replace_by_fifo(repo.root / ".git" / "packed-refs")


def _excludes_file(repo: GitRepo) -> Path:
    """``core.excludesFile`` in the repository's config names a FIFO."""
    fifo = replace_by_fifo(repo.root.parent / "global-ignore")
    repo.git("config", "core.excludesFile", str(fifo))
    return fifo


def _at(relative: str) -> Callable[[GitRepo], Path]:
    return lambda repo: replace_by_fifo(repo.root / relative)


# The FIFO made; whether notes are still checked at HEAD; whether the work tree's
# files are still known (what remember reads a note's anchors from).
CASES: dict[str, tuple[Callable[[GitRepo], Path], bool, bool]] = {
    # info/exclude holds no pattern: the listing names the other ignore files itself.
    "info-exclude": (_at(".git/info/exclude"), True, True),
    # git is told to read the null device instead.
    "core-excludes-file": (_excludes_file, True, True),
    # The branch's loose ref shadows packed-refs, and git never reads it for an object id.
    "packed-refs-beside-a-loose-ref": (_at(".git/packed-refs"), True, True),
    # A tracked file that is a FIFO is a deleted file; the notes are about another one.
    "tracked-file": (_at("store/db.py"), True, True),
    # git would wait on the index to list the work tree: HEAD alone is checked.
    "index": (_at(".git/index"), True, False),
    # HEAD cannot be resolved, or git would wait on its first file: nothing is checked.
    "branch-ref": (_at(".git/refs/heads/main"), False, False),
    "packed-refs-holding-the-branch": (_packed_branch_only, False, False),
    "head": (_at(".git/HEAD"), False, False),
    "config": (_at(".git/config"), False, False),
}
# A note with its anchor, and one whose anchors remember reads from the work tree.
NOTE = ("Billing calls the payment API with httpx", "--anchor", "import:httpx@billing/client.py")
PROSE = "billing/client.py posts charges with httpx"


def checked(made: dict[str, Any]) -> bool:
    """True when remember checked the note against the code; False when it says it
    could not (never a wrong verdict)."""
    if made["status"] == "VERIFIED":
        return True
    assert made["status"] == "ACTIVE", made
    assert made["verification"].startswith("cannot_verify"), made
    assert all(a["verdict"] == "unchecked" for a in made["anchors"]), made
    return False


def read_from_the_work_tree(made: dict[str, Any]) -> bool:
    """True when remember read the prose's anchors from the files; False when it says
    the repository cannot be verified."""
    anchors = [c["anchor"] for c in made["captured"]]
    if "import:httpx@billing/client.py" in anchors:
        return True
    assert [d["reason"] for d in made["dropped"]] == ["cannot_verify"], made
    return False


@pytest.mark.parametrize("case", list(CASES))
def test_a_fifo_git_or_anchormem_would_read_never_stalls_a_call_and_is_never_opened(
    case: str, project: GitRepo
):
    make, at_head, work_tree = CASES[case]
    fifo = make(project)  # before the first call: the owner starts with it there
    with never_opened(fifo):
        made = cli(project.root, "remember", *NOTE)
        assert made["outcome"] == "stored" and checked(made) is at_head
        found = cli(project.root, "recall", "httpx payment")
        assert made["id"] in [m["id"] for m in found["memories"]]
        prose = cli(project.root, "remember", PROSE)
        assert prose["outcome"] == "stored"
        assert read_from_the_work_tree(prose) is work_tree


@pytest.mark.parametrize("where", [".gitignore", "billing/.gitignore"])
@pytest.mark.parametrize("watch", ["1", "0"])
def test_a_fifo_gitignore_stops_git_the_call_answers_and_it_recovers(
    where: str, watch: str, project: GitRepo
):
    """git opens every .gitignore it meets and would wait on a FIFO: anchormem stops it,
    says the work tree cannot be read, does not run it again while the FIFO is there,
    and reads it again once it is gone."""
    fifo = replace_by_fifo(project.root / where)
    made = cli(project.root, "remember", PROSE, ANCHORMEM_WATCH=watch)
    assert made["outcome"] == "stored" and not read_from_the_work_tree(made)
    assert_no_reader(fifo)  # git was stopped, not left waiting on it
    again = cli(project.root, "remember", f"{PROSE}, always", ANCHORMEM_WATCH=watch)
    assert not read_from_the_work_tree(again)
    assert_no_reader(fifo)
    found = cli(project.root, "recall", "charges httpx", ANCHORMEM_WATCH=watch)
    assert made["id"] in [m["id"] for m in found["memories"]]
    fifo.unlink()
    fifo.write_text("*.log\n")
    later = cli(project.root, "remember", f"{PROSE}, still", ANCHORMEM_WATCH=watch)
    assert read_from_the_work_tree(later)
