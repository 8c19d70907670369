"""The git layer on real repositories: HEAD from refs, trees, blobs, the work-tree overlay,
and typed statuses for repositories that cannot be read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from anchors.gitrepo import (
    GitError,
    GitRepository,
    RepoStatus,
    find_repository_root,
    git_blob_id,
)
from tests.anchors.conftest import child_processes
from tests.conftest import GitRepo


def head_of(root: Path) -> str | None:
    with GitRepository(root) as repo:
        return repo.head().commit


def test_head_follows_commits_and_branch_checkouts(git_repo: GitRepo):
    first = git_repo.commit({"a.py": "x = 1\n"})
    with GitRepository(git_repo.root) as repo:
        head = repo.head()
        assert (head.status, head.commit, head.ref, head.detached) == (
            RepoStatus.OK, first, "refs/heads/main", False,
        )  # fmt: skip
        git_repo.git("checkout", "-q", "-b", "feature")
        second = git_repo.commit({"a.py": "x = 2\n"})
        assert repo.head().commit == second and repo.head().ref == "refs/heads/feature"
        git_repo.checkout("main")
        assert repo.head().commit == first


def test_a_detached_head_is_resolved_and_flagged(git_repo: GitRepo):
    first = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.commit({"a.py": "x = 2\n"})
    git_repo.checkout(first)
    with GitRepository(git_repo.root) as repo:
        head = repo.head()
    assert head.commit == first and head.detached and head.ref is None


def test_head_resolves_through_packed_refs_after_pack_refs(git_repo: GitRepo):
    commit = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.git("pack-refs", "--all")
    assert not (git_repo.root / ".git/refs/heads/main").exists()
    assert head_of(git_repo.root) == commit


def test_head_follows_a_symbolic_ref_to_a_symbolic_ref(git_repo: GitRepo):
    commit = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
    git_repo.git("symbolic-ref", "HEAD", "refs/heads/alias")
    assert head_of(git_repo.root) == commit


def test_a_linked_worktree_resolves_its_own_head_and_shared_refs(git_repo: GitRepo, tmp_path: Path):
    main_commit = git_repo.commit({"a.py": "x = 1\n"})
    git_repo.git("worktree", "add", "-q", "-b", "feature", str(tmp_path / "wt"))
    (tmp_path / "wt" / "b.py").write_text("y = 1\n")
    git_repo.git("-C", str(tmp_path / "wt"), "add", "b.py")
    git_repo.git("-C", str(tmp_path / "wt"), "commit", "-q", "-m", "wt")
    feature = git_repo.git("rev-parse", "feature")
    git_repo.git("pack-refs", "--all")
    with GitRepository(tmp_path / "wt") as repo:
        head = repo.head()
        assert (head.commit, head.ref, head.worktree) == (feature, "refs/heads/feature", True)
        assert "b.py" in repo.ls_tree(feature).blobs
    assert head_of(git_repo.root) == main_commit


def test_head_ttl_reuses_the_last_answer_until_it_expires(git_repo: GitRepo):
    first = git_repo.commit({"a.py": "x = 1\n"})
    with (
        GitRepository(git_repo.root, head_ttl=3600) as cached,
        GitRepository(git_repo.root) as fresh,
    ):
        assert cached.head().commit == fresh.head().commit == first
        second = git_repo.commit({"a.py": "x = 2\n"})
        assert cached.head().commit == first
        assert fresh.head().commit == second


def test_head_resolved_again_sees_every_change_to_the_files_it_was_read_from(git_repo: GitRepo):
    """``head()`` reuses its last answer while the files it read are unchanged (their
    stat keys); each change below, including ones that keep a file's size, is seen by the
    next call of the same repository object."""
    with GitRepository(git_repo.root) as repo:
        assert repo.head().status is RepoStatus.NO_COMMITS
        first = git_repo.commit({"a.py": "x = 1\n"})
        assert repo.head().commit == first  # the branch's first commit: its file appears
        second = git_repo.commit({"a.py": "x = 2\n"})
        assert repo.head().commit == repo.head().commit == second
        git_repo.git("update-ref", "refs/heads/main", first)  # same size, new file
        assert repo.head().commit == first
        ref = git_repo.root / ".git/refs/heads/main"
        with ref.open("r+") as rewritten:  # rewritten in place, as a person might
            rewritten.write(second)
        assert repo.head().commit == second
        git_repo.git("pack-refs", "--all")
        assert not ref.exists() and repo.head().commit == second  # now from packed-refs
        third = git_repo.commit({"a.py": "x = 3\n"})  # a loose ref shadows the packed one
        assert repo.head().commit == third
        assert not repo.head().has_submodules
        (git_repo.root / ".gitmodules").write_text("")
        assert repo.head().has_submodules
        (git_repo.root / ".git/shallow").write_text(first + "\n")
        assert repo.head().shallow
        git_repo.git("checkout", "-q", "--detach", first)
        assert repo.head().commit == first and repo.head().detached


def test_a_repository_without_commits_says_so(git_repo: GitRepo):
    with GitRepository(git_repo.root) as repo:
        head = repo.head()
    assert head.status is RepoStatus.NO_COMMITS and head.commit is None
    assert head.ref == "refs/heads/main"


def test_a_directory_outside_any_repository_is_not_a_repository(tmp_path: Path):
    plain = tmp_path / "plain"
    plain.mkdir()
    if find_repository_root(plain) is not None:
        pytest.skip("the temporary directory is inside a git repository")
    with GitRepository(plain) as repo:
        assert repo.head().status is RepoStatus.NOT_A_REPOSITORY


@pytest.mark.parametrize("link", [b"gitdir: a\0b\n", b"gitdir: \xff\xfe\n", b"gitdir:\n"])
def test_a_broken_gitdir_link_is_not_a_repository_not_a_crash(tmp_path: Path, link: bytes):
    (tmp_path / ".git").write_bytes(link)
    with GitRepository(tmp_path) as repo:
        head = repo.head()
    assert head.status is RepoStatus.NOT_A_REPOSITORY and head.commit is None


def test_the_root_is_found_from_a_subdirectory(git_repo: GitRepo):
    git_repo.commit({"pkg/sub/a.py": ""})
    assert find_repository_root(git_repo.root / "pkg" / "sub") == git_repo.root.resolve()


def test_a_missing_git_binary_is_a_status(git_repo: GitRepo, tmp_path: Path, monkeypatch):
    git_repo.commit({"a.py": ""})
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with GitRepository(git_repo.root) as repo:
        assert repo.head().status is RepoStatus.NO_GIT_BINARY


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the repository another owner")
def test_a_repository_owned_by_someone_else_is_unsafe_ownership(git_repo: GitRepo, monkeypatch):
    git_repo.commit({"a.py": ""})
    monkeypatch.delenv("SUDO_UID", raising=False)
    for path in [git_repo.root, *git_repo.root.rglob("*")]:
        os.lchown(path, 54321, 54321)
    with GitRepository(git_repo.root) as repo:
        head = repo.head()
    assert head.status is RepoStatus.UNSAFE_OWNERSHIP and "dubious ownership" in head.detail


def test_a_shallow_clone_is_flagged_and_still_lists_its_tree(git_repo: GitRepo, tmp_path: Path):
    git_repo.commit({"a.py": "x = 1\n"})
    tip = git_repo.commit({"b.py": "y = 1\n"})
    clone = tmp_path / "clone"
    git_repo.git("clone", "-q", "--depth", "1", f"file://{git_repo.root}", str(clone))
    with GitRepository(clone) as repo:
        head = repo.head()
        assert (head.status, head.commit, head.shallow) == (RepoStatus.OK, tip, True)
        assert set(repo.ls_tree(tip).blobs) == {"a.py", "b.py"}


def test_submodule_entries_are_left_out_of_the_tree(git_repo: GitRepo, tmp_path: Path):
    (tmp_path / "lib").mkdir()
    other = GitRepo(tmp_path / "lib")
    other.commit({"lib.py": "z = 1\n"})
    git_repo.commit({"a.py": ""})
    allow_file = ("-c", "protocol.file.allow=always")
    git_repo.git(*allow_file, "submodule", "add", "-q", str(other.root), "vendor/lib")
    commit = git_repo.commit({}, "add submodule")
    with GitRepository(git_repo.root) as repo:
        tree = repo.ls_tree(commit)
        assert tree.submodules == ("vendor/lib",)
        assert "vendor/lib" not in tree.blobs and ".gitmodules" in tree.blobs
        assert repo.head().has_submodules


def test_a_symlink_out_of_the_repository_is_listed_but_never_read(
    git_repo: GitRepo, tmp_path: Path
):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("SECRET = 'do not read'\n")
    (git_repo.root / "leak.py").symlink_to(outside / "secret.py")
    (git_repo.root / "linkdir").symlink_to(outside)
    commit = git_repo.commit({"a.py": ""})
    with GitRepository(git_repo.root) as repo:
        tree = repo.ls_tree(commit)
        assert {"leak.py", "linkdir"} <= tree.symlinks
        link = tree.blobs["leak.py"]
        assert repo.read_blobs([link]) == {link: str(outside / "secret.py").encode()}
        assert repo.read_worktree_file("leak.py") is None
        assert repo.read_worktree_file("linkdir/secret.py") is None
        assert repo.read_worktree_file("../outside/secret.py") is None
        (git_repo.root / "new_leak.py").symlink_to(outside / "secret.py")
        [entry] = repo.overlay().entries
        assert (entry.path, entry.symlink, entry.readable) == ("new_leak.py", True, False)


def test_dash_prefixed_paths_never_reach_git_as_options(git_repo: GitRepo, tmp_path: Path):
    commit = git_repo.commit({"--output=pwned.txt": "data\n", "-rf.py": "import os\n"})
    with GitRepository(git_repo.root) as repo:
        blobs = repo.ls_tree(commit).blobs
        assert {"--output=pwned.txt", "-rf.py"} <= set(blobs)
        assert repo.read_blobs([blobs["--output=pwned.txt"]]).popitem()[1] == b"data\n"
        with pytest.raises(ValueError):
            repo.read_blobs(["--batch-all-objects"])
        (git_repo.root / "--version.py").write_text("x = 1\n")
        assert [e.path for e in repo.overlay().entries] == ["--version.py"]
        with pytest.raises(ValueError):
            repo.ls_tree("--output=/tmp/pwned")
    assert not (git_repo.root / "pwned.txt").exists() and not Path("/tmp/pwned").exists()


def test_a_thousand_head_resolutions_and_reads_use_at_most_two_git_processes(git_repo: GitRepo):
    commit = git_repo.commit({"a.py": "x = 1\n", "b.py": "y = 2\n"})
    before = child_processes("git")
    with GitRepository(git_repo.root) as repo:
        blobs = repo.ls_tree(commit).blobs
        for i in range(1000):
            assert repo.head().commit == commit
            assert repo.read_blobs([blobs["a.py" if i % 2 else "b.py"]])
        assert len(child_processes("git") - before) <= 2
    assert child_processes("git") <= before


def test_blobs_are_read_in_bulk_and_missing_ones_left_out(git_repo: GitRepo):
    commit = git_repo.commit({f"m{i}.py": f"x = {i}\n" * 100 for i in range(600)})
    with GitRepository(git_repo.root) as repo:
        blobs = repo.ls_tree(commit).blobs
        missing = "0" * 40
        contents = repo.read_blobs([*blobs.values(), missing])
        assert missing not in contents and len(contents) == 600
        assert contents[blobs["m7.py"]] == b"x = 7\n" * 100


def test_the_overlay_has_edits_untracked_files_and_deletions(git_repo: GitRepo):
    git_repo.commit({"a.py": "x = 1\n", "gone.py": "", "ignored/.gitignore": "*\n"})
    with GitRepository(git_repo.root) as repo:
        assert repo.overlay().key == ""
        git_repo.write({"a.py": "x = 2\n", "new/b.py": "y = 1\n", "gone.py": None})
        git_repo.write({"ignored/junk.py": "z = 1\n"})
        overlay = repo.overlay()
        by_path = {e.path: e for e in overlay.entries}
        assert set(by_path) == {"a.py", "new/b.py", "gone.py"}
        assert by_path["a.py"].readable and repo.read_worktree_file("a.py") == b"x = 2\n"
        assert by_path["a.py"].blob_id == git_blob_id(b"x = 2\n")
        assert by_path["gone.py"].blob_id is None
        assert overlay.key != "" and repo.overlay().key == overlay.key
        git_repo.write({"a.py": "x = 3\n"})
        assert repo.overlay().key != overlay.key


def test_work_tree_blob_ids_match_the_ids_git_gives_them(git_repo: GitRepo):
    git_repo.write({"a.py": "x = 1\n"})
    assert git_blob_id(b"x = 1\n") == git_repo.git("hash-object", "a.py")


def test_closing_stops_the_cat_file_process_and_later_reads_fail(git_repo: GitRepo):
    commit = git_repo.commit({"a.py": "x = 1\n"})
    before = child_processes("git")
    repo = GitRepository(git_repo.root)
    blob = repo.ls_tree(commit).blobs["a.py"]
    assert repo.read_blobs([blob]) == {blob: b"x = 1\n"}
    assert len(child_processes("git") - before) == 1
    repo.close()
    assert child_processes("git") <= before
    assert repo.head().commit == commit
    with pytest.raises(GitError):
        repo.read_blobs([blob])
