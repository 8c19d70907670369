"""Path anchors cannot reach outside the repository.

A repository sits beside files that must never be read: ``outside.py`` and a sibling
directory ``repo-evil/`` (whose name starts with the repository's), each holding a sentinel
string; the repository commits symlinks to ``/etc/passwd``, to ``../outside.py`` (relative
and absolute) and to ``../repo-evil``, a gitlink (submodule) and a directory with a ``.git``
file saying ``gitdir: <elsewhere>``; its work tree replaces a tracked directory with a
symlink out and adds an untracked symlink out. Every case goes through ``remember`` with
an explicit anchor and through verification (``verify``, ``recall``), in process under an
audit hook that records every file the server opens, and (where ``strace`` is installed) the
CLI under ``strace -f``, which sees every file git opens too. Nothing outside the
repository may be opened, and no sentinel may appear in anything served.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from mcp import Client

from anchors.gitrepo import GitRepository
from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, anchormem_env, settings_env

SENTINEL = "SENTINEL_7f3a_OUTSIDE"
PASSWD_MARK = "root:x:0:0"
SCRIPT = Path(sys.executable).with_name("anchormem")
_OPENED = re.compile(r"= \d+<(.*)>\s*$")
STRACE = ["strace", "-f", "-qq", "-y", "-e", "trace=open,openat,openat2"]


@dataclass(frozen=True)
class Layout:
    base: Path  # holds the repository and everything that must never be read
    repo: GitRepo

    @property
    def root(self) -> Path:
        return self.repo.root

    def outside(self, path: str) -> bool:
        """True for a path in the forbidden zone: under ``base`` but not the repository, or
        /etc/passwd."""
        real = os.path.realpath(path)
        if real == os.path.realpath("/etc/passwd"):
            return True
        base, root = os.path.realpath(self.base), os.path.realpath(self.root)
        inside_base = real == base or real.startswith(base + os.sep)
        inside_root = real == root or real.startswith(root + os.sep)
        return inside_base and not inside_root


def build_layout(base: Path) -> Layout:
    (base / "outside.py").write_text(
        "import sentinel_outside_mod\nimport os\n\n\n"
        f"def sentinel_outside():\n    return os.environ['SENTINEL_OUTSIDE_ENV'] + '{SENTINEL}'\n"
    )
    evil = base / "repo-evil"
    evil.mkdir()
    for name in ("secret.py", "mod2.py"):
        (evil / name).write_text(f"def sentinel_evil():\n    return '{SENTINEL}'\n")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "HEAD").write_text(f"ref: refs/heads/{SENTINEL}\n")
    root = base / "repo"
    root.mkdir()
    repo = GitRepo(root)
    repo.write(
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": "import json\n\n\ndef inside():\n    return json.dumps(1)\n",
            "pkg2/mod2.py": "def inside2():\n    return 2\n",
            "nested/inner.py": "def nested_inside():\n    return 3\n",
            "pyproject.toml": '[project]\nname = "trav"\nversion = "1"\ndependencies = []\n',
        }
    )
    (root / "nested" / ".git").write_text(f"gitdir: {elsewhere}\n")
    os.symlink("/etc/passwd", root / "link_passwd")
    os.symlink("../outside.py", root / "link_out.py")
    os.symlink(str(base / "outside.py"), root / "abs_link.py")
    os.symlink("../repo-evil", root / "link_dir")
    repo.git("add", "-A")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},sub")
    repo.git("commit", "-q", "-m", "a repository with ways out")
    # The work tree: a tracked directory replaced by a symlink out, an untracked link out.
    shutil.rmtree(root / "pkg2")
    os.symlink("../repo-evil", root / "pkg2")
    os.symlink("../outside.py", root / "new_link.py")
    return Layout(base, repo)


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    return build_layout(tmp_path_factory.mktemp("traversal"))


# -- the cases ------------------------------------------------------------------------------

# Refused when the anchor is parsed: nothing is stored, nothing is looked up.
REJECTED = [
    "file:../outside.py",
    "file:../../etc/passwd",
    "file:/etc/passwd",
    "file:{base}/outside.py",  # absolute, outside
    "file:{root}/pkg/mod.py",  # absolute, even inside
    "file:{root}-evil/secret.py",  # absolute sibling whose name extends the root's
    "file:../repo-evil/secret.py",  # sibling prefix, relative
    "file:pkg/./mod.py",
    "file:pkg//mod.py",
    "file://etc/passwd",
    "file:pkg/../../outside.py",
    "file:pkg/mod.py/../../../outside.py",
    "file:..",
    "file:.",
    "file:..\\outside.py",
    "file:pkg\\..\\..\\outside.py",
    "file:%2e%2e/outside.py",
    "file:%2E%2E%2Foutside.py",
    "file:..%2Foutside.py",
    "file:..%2foutside.py",
    "file:%252e%252e/outside.py",  # double-encoded
    "file:%00",
    "file:\uff0e\uff0e\uff0foutside.py",  # full-width ．．／
    "file:\uff0e\uff0e/outside.py",
    "file:..\uff0foutside.py",
    "file:\u2025/outside.py",  # two-dot leader ‥
    "file:\u2024\u2024/outside.py",  # one-dot leaders ․․
    "file:\ufe52\ufe52/outside.py",  # small full stops ﹒﹒
    "file:..\u2215outside.py",  # division slash
    "file:..\u2044outside.py",  # fraction slash
    "file:..\u29f8outside.py",  # big solidus
    "file:pkg/mod.py\x00../../outside.py",
    "file:..\x00/outside.py",
    "file:pkg/mod.py\n../../outside.py",
    "file:\u200b../outside.py",  # zero-width space
    "file:pkg/\u202e/mod.py",  # bidi override
    "file:..\u0085/outside.py",  # next line (C1)
    "file:~/outside.py",
    "file:~root/.bashrc",
    "file:C:/Windows/win.ini",
    "file:C:\\Windows\\win.ini",
    "file:\\\\server\\share\\x.py",
    "file:.git/config",
    "file:.GIT/config",
    "file:nested/.git",
    "file:pkg/.git/../../outside.py",
    "file:-rf",
    "file:--upload-pack=touch {base}/pwned",
    "symbol:../outside.py::sentinel_outside",
    "symbol:/etc/passwd::root",
    "symbol:pkg\\mod.py::inside",
    "import:os@../outside.py",
    "import:os@/etc",
    "import:sentinel_outside_mod@../repo-evil/secret.py::sentinel_evil",
    "!file:../outside.py",
]

# Accepted (the path is well-formed and inside the repository) but must never be found
# through a link out: broken or unknown, never holds.
NEVER_HOLDS = [
    "symbol:link_out.py::sentinel_outside",  # committed symlink to ../outside.py
    "symbol:abs_link.py::sentinel_outside",  # committed absolute symlink
    "import:sentinel_outside_mod@link_out.py",
    "import:sentinel_outside_mod",  # only outside.py imports it
    "symbol:sentinel_outside",
    "env:SENTINEL_OUTSIDE_ENV",
    "file:link_dir/secret.py",  # through a committed directory symlink
    "symbol:link_dir/secret.py::sentinel_evil",
    "import:sentinel_outside_mod@link_dir",
    "file:repo-evil/secret.py",  # the sibling's name, inside the repository
    "symbol:pkg2/mod2.py::sentinel_evil",  # tracked directory now a symlink out
    "symbol:new_link.py::sentinel_outside",  # untracked symlink out
    "file:sub/inner.py",  # inside a submodule
    "file:...",
    "file:..;/outside.py",
]

# Inside the repository: may hold, but what is found is the link or the file itself.
INSIDE = [
    "file:link_passwd",  # the committed symlink is tracked; its target is never read
    "file:link_out.py",
    "file:pkg/mod.py",
    "symbol:nested/inner.py::nested_inside",  # beside a .git file pointing elsewhere
    "import:json@pkg/mod.py",
    "file:./pkg/mod.py",  # a leading './' is dropped at remember time: file:pkg/mod.py
]

CASES = (
    [(a, "rejected") for a in REJECTED]
    + [(a, "never holds") for a in NEVER_HOLDS]
    + [(a, "inside") for a in INSIDE]
)


def test_there_are_at_least_fifty_traversal_cases():
    assert len(CASES) >= 50
    assert len(set(REJECTED)) == len(REJECTED)


# -- every file the server opens -------------------------------------------------------------


class Opens:
    """Files opened in this process while ``recording``: (path, flags) from the ``open``
    audit event (``open()``, ``os.open``; git's own opens are seen by strace below)."""

    recording: list[tuple[Any, int]] | None = None
    installed = False
    audited = 0  # opens checked so far in this run, for the report

    @classmethod
    def install(cls) -> None:
        if cls.installed:
            return

        def hook(event: str, args: tuple[Any, ...]) -> None:
            if event == "open" and cls.recording is not None:
                cls.recording.append((args[0], args[2] if len(args) > 2 else 0))

        sys.addaudithook(hook)  # cannot be removed: it does nothing unless recording
        cls.installed = True


def forbidden_opens(layout: Layout, opened: list[tuple[Any, int]]) -> list[str]:
    """Opened paths that resolve into the forbidden zone. A relative path is only allowed
    as one component opened with O_NOFOLLOW (the work-tree walk, against a directory
    descriptor): any other relative open cannot be placed, and counts as forbidden."""
    bad = []
    Opens.audited += len(opened)
    for path, flags in opened:
        if isinstance(path, int):
            continue  # an existing descriptor
        text = os.fsdecode(path)
        if not os.path.isabs(text):
            if "/" in text or text in (".", "..") or not flags & os.O_NOFOLLOW:
                bad.append(f"relative open {text!r}")
            continue
        if flags & os.O_NOFOLLOW:  # the last component is never followed
            text = os.path.join(os.path.realpath(os.path.dirname(text)), os.path.basename(text))
        if layout.outside(text):
            bad.append(text)
    return bad


@dataclass
class Live:
    portal: anyio.from_thread.BlockingPortal
    client: Client

    def call(self, tool: str, **args: Any) -> Any:
        return self.portal.call(lambda: self.client.call_tool(tool, args))


@pytest.fixture(scope="module")
def live(layout: Layout) -> Iterator[Live]:
    Opens.install()
    settings = Settings.resolve(repo=str(layout.root), env=settings_env())
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(build_server(settings))) as client,
    ):
        yield Live(portal, client)


def served(result: Any) -> str:
    return json.dumps(result.structured_content) + " ".join(
        getattr(b, "text", "") for b in result.content
    )


@pytest.mark.parametrize(("anchor", "expect"), CASES, ids=[repr(c[0])[1:-1] for c in CASES])
def test_a_path_anchor_never_reads_outside_the_repository(
    layout: Layout, live: Live, anchor: str, expect: str
):
    anchor = anchor.format(base=layout.base, root=layout.root)
    # HEAD is read again only when its files change (gitrepo.head): touched, so that the
    # hook's own check below sees the server read it.
    os.utime(layout.root / ".git" / "HEAD")
    Opens.recording = opened = []
    try:
        made = live.call("remember", text=f"Traversal case {anchor!r}", anchors=[anchor])
        outputs = [served(made)]
        if not made.is_error:
            mid = made.structured_content["id"]
            verified = live.call("verify", id=mid, detail=True)
            outputs.append(served(verified))
            outputs.append(served(live.call("recall", query="traversal case", limit=100)))
            outputs.append(served(live.call("recall", query="traversal case", detail=True)))
    finally:
        Opens.recording = None
    assert forbidden_opens(layout, opened) == []
    for text in outputs:
        assert SENTINEL not in text and PASSWD_MARK not in text
    if expect == "rejected":
        assert made.is_error, made.structured_content
        assert "anchor rejected" in made.content[0].text  # type: ignore[union-attr]
        return
    assert not made.is_error, made.content
    assert any("HEAD" in str(p) for p, _ in opened), "the audit hook saw the server read"
    [stored] = verified.structured_content["memories"][0]["anchors"]  # the full record
    if expect == "never holds":
        assert stored["verdict"] in ("broken", "unknown"), stored
        assert stored["found_in"] == []
    else:
        assert stored["verdict"] in ("holds", "unknown", "broken"), stored
        for found in stored["found_in"]:  # the link itself, never where it points
            assert not found.startswith("/") and ".." not in found.split("/")


def test_the_audit_hook_would_catch_a_read_outside(layout: Layout):
    """The detector itself: a read through the committed symlink is reported."""
    Opens.install()
    Opens.recording = opened = []
    try:
        (layout.root / "link_out.py").read_text()
        os.close(os.open("link_out.py", os.O_RDONLY, dir_fd=os.open(layout.root, os.O_RDONLY)))
    finally:
        Opens.recording = None
    assert len(forbidden_opens(layout, opened)) == 2


def test_the_repository_layer_never_opens_a_file_through_a_link_out(layout: Layout):
    """Defence in depth: the work-tree and object readers, called with every raw case
    (even those the anchor parser refuses), return nothing from outside."""
    Opens.install()
    raw = [a.partition(":")[2].split("::")[0].split("@")[-1] for a, _ in CASES]
    raw = [p.format(base=layout.base, root=layout.root) for p in raw]
    raw += ["link_out.py", "link_dir/secret.py", "pkg2/mod2.py", "new_link.py", "abs_link.py"]
    with GitRepository(layout.root) as repo:
        head = repo.head().commit
        assert head is not None
        committed = repo.ls_tree(head).blobs
        Opens.recording = opened = []
        try:
            found = []
            for path in raw:
                if "\x00" in path:
                    continue
                found.append(repo.read_worktree_file(path))
                if path in committed:
                    found += repo.read_blobs([committed[path]]).values()
        finally:
            Opens.recording = None
    assert forbidden_opens(layout, opened) == []
    for content in found:
        assert content is None or SENTINEL.encode() not in content
        assert content is None or PASSWD_MARK.encode() not in content


def test_a_git_file_pointing_elsewhere_makes_the_repository_unverifiable_not_read(
    tmp_path: Path,
):
    base = tmp_path
    (base / "elsewhere").mkdir()
    (base / "elsewhere" / "config").write_text(f"[core]\n\tworktree = {SENTINEL}\n")
    root = base / "repo"
    root.mkdir()
    (root / ".git").write_text("gitdir: /elsewhere-that-does-not-exist\n")
    (root / "mod.py").write_text("def f():\n    return 1\n")
    layout = Layout(base, GitRepo.__new__(GitRepo))
    object.__setattr__(layout.repo, "root", root)
    Opens.install()
    settings = Settings.resolve(repo=str(root), env=settings_env())

    async def remember() -> Any:
        async with Client(build_server(settings)) as client:
            return await client.call_tool(
                "remember", {"text": "mod.py defines f", "anchors": ["symbol:mod.py::f"]}
            )

    Opens.recording = opened = []
    try:
        made = anyio.run(remember)
    finally:
        Opens.recording = None
    assert not made.is_error
    assert made.structured_content is not None
    assert made.structured_content["status"] == "ACTIVE"
    assert made.structured_content["why"].startswith("cannot_verify")
    assert forbidden_opens(layout, opened) == []


# -- git too: the CLI under strace ---------------------------------------------------------


def strace_opens(log: Path) -> list[str]:
    """Paths of every successful open/openat in an ``strace -f -y`` log (the descriptor a
    call returns is shown with the path the kernel opened: ``= 5</path>``)."""
    paths = []
    for line in log.read_text(errors="replace").splitlines():
        found = _OPENED.search(line)
        if found and "open" in line:
            paths.append(found.group(1))
    return paths


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_no_process_opens_a_file_outside_the_repository_under_strace(
    layout: Layout, tmp_path: Path
):
    accepted = [a for a, expect in CASES if expect != "rejected"]
    env = anchormem_env()
    # In the work tree (untracked), so that any open outside the repository is a finding.
    (layout.root / ".anchormem").mkdir(mode=0o700, exist_ok=True)
    env["ANCHORMEM_DB"] = str(layout.root / ".anchormem" / "strace.duckdb")
    # Each command on the store itself, in the traced process: through an owner its opens
    # would happen in a detached process (started by the first run, traced until its idle
    # exit, then serving the others untraced).
    env["ANCHORMEM_SHARE"] = "0"
    runs = [
        ["remember", "Every accepted traversal case at once", *[f"--anchor={a}" for a in accepted]],
        ["verify"],
        ["recall", "traversal accepted case"],
        ["list"],
    ]
    total_opens = 0
    control = tmp_path / "strace-control.log"
    subprocess.run(
        [*STRACE, "-o", str(control), "cat", "link_out.py"],
        cwd=layout.root,
        check=True,
        capture_output=True,
    )
    assert any(layout.outside(p) for p in strace_opens(control)), "the detector works"
    for number, args in enumerate(runs):
        log = tmp_path / f"strace-{number}.log"
        done = subprocess.run(
            [*STRACE, "-o", str(log), str(SCRIPT), *args, "--json"],
            cwd=layout.root,
            env=env,
            capture_output=True,
            timeout=300,
        )
        if done.returncode != 0 and b"ptrace" in done.stderr:
            pytest.skip("ptrace is not permitted here")
        assert done.returncode == 0, done.stderr
        out = done.stdout.decode()
        assert SENTINEL not in out and PASSWD_MARK not in out
        opened = strace_opens(log)
        assert opened, "strace saw no open at all"
        total_opens += len(opened)
        assert [p for p in opened if layout.outside(p)] == [], args
    print(
        f"\nstrace: {total_opens} files opened by anchormem and git, 0 outside the repository;"
        f" audit hook: {Opens.audited} opens checked in process, 0 outside"
    )
