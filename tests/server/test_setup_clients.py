"""``anchormem setup CLIENT``: real config files with other servers in them, under a fake
HOME / XDG_CONFIG_HOME / APPDATA / ANCHORMEM_HOME (never the real home)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.setup_clients import BACKUP_SUFFIX, CLIENTS, config_path, setup_backup_dir
from tests.conftest import GitRepo, anchormem_env

MAC = "Library/Application Support"
SCRIPT = Path(sys.executable).with_name("anchormem")
OTHERS = {
    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"]},
    "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"]},
}


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    places = {name: tmp_path / name for name in ("home", "xdg", "appdata", "bin")}
    for path in places.values():
        path.mkdir()
    places["data"] = tmp_path / "data"  # made by setup, private
    monkeypatch.setenv("HOME", str(places["home"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(places["xdg"]))
    monkeypatch.setenv("APPDATA", str(places["appdata"]))
    monkeypatch.setenv("ANCHORMEM_HOME", str(places["data"]))
    return places


def backups(homes: dict[str, Path]) -> list[Path]:
    """The copies setup kept of the files it replaced, oldest first."""
    folder = setup_backup_dir({"ANCHORMEM_HOME": str(homes["data"])})
    return sorted(folder.iterdir())


def _existing(client: str, path: Path) -> dict[str, Any]:
    """A config as a person has it: other servers, other settings."""
    key = "servers" if client == "vscode" else "mcpServers"
    config: dict[str, Any] = {"theme": "dark", key: dict(OTHERS)}
    if client == "vscode":
        config["inputs"] = [{"type": "promptString", "id": "token", "password": True}]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=4))
    return config


def _env(homes: dict[str, Path], path: str) -> dict[str, str]:
    env = anchormem_env()
    env.update(
        HOME=str(homes["home"]),
        XDG_CONFIG_HOME=str(homes["xdg"]),
        APPDATA=str(homes["appdata"]),
        ANCHORMEM_HOME=str(homes["data"]),
        PATH=path,
    )
    return env


def _on_path(homes: dict[str, Path]) -> str:
    """A PATH with anchormem on it, as ``uv tool install`` or ``pipx`` leave it."""
    if not (homes["bin"] / "anchormem").exists():
        (homes["bin"] / "anchormem").symlink_to(SCRIPT)
    return f"{homes['bin']}{os.pathsep}/usr/bin{os.pathsep}/bin"


def _setup(
    homes: dict[str, Path], *args: str, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "setup", *args],
        env=_env(homes, path or _on_path(homes)),
        capture_output=True,
        text=True,
        timeout=120,
    )


# What each client is given for the repository (see server/setup_clients.py).
REPO_ARGS = {
    "claude-desktop": None,  # a user file: the absolute path
    "claude-code": [],  # started in the project
    "cursor": ["--repo", "${workspaceFolder}"],
    "vscode": ["--repo", "${workspaceFolder}"],
}


@pytest.mark.parametrize("client", CLIENTS)
def test_setup_merges_the_entry_keeps_the_others_and_a_backup(
    client: str, git_repo: GitRepo, homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    repo = git_repo.root.resolve()
    scope = "user" if client == "claude-desktop" else "project"
    path = config_path(client, scope, repo, sys.platform, os.environ)
    assert homes["home"] in path.parents or homes["xdg"] in path.parents or repo in path.parents
    before = _existing(client, path)
    old_text = path.read_text()
    # anchormem on PATH (uv tool install / pipx): the entry says "anchormem".
    on_path = _on_path(homes)
    done = _setup(homes, client, "--repo", str(repo))
    assert done.returncode == 0, done.stderr
    written = json.loads(path.read_text())
    key = "servers" if client == "vscode" else "mcpServers"
    entry = written[key].pop("anchormem")
    assert entry["command"] == "anchormem"
    repo_args = REPO_ARGS[client]
    assert entry["args"] == ["serve", *(["--repo", str(repo)] if repo_args is None else repo_args)]
    assert entry.get("type") == ("stdio" if client == "vscode" else None)
    assert written == before  # every other server and setting as it was
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists()
    [backup] = backups(homes)
    assert backup.read_text() == old_text and str(backup) in done.stderr
    # Twice: nothing changes (run in process, the same command line).
    after_once = path.read_bytes()
    monkeypatch.setenv("PATH", on_path)
    assert main(["setup", client, "--repo", str(repo)]) == 0
    assert path.read_bytes() == after_once


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
def test_without_anchormem_on_path_a_project_file_is_refused_and_says_what_to_do(
    client: str, git_repo: GitRepo, homes: dict[str, Path]
):
    """The entry would name this machine's script in a file the team commits."""
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    path = config_path(client, "project", git_repo.root, sys.platform, os.environ)
    done = _setup(homes, client, "--repo", str(git_repo.root), path=f"/usr/bin{os.pathsep}/bin")
    assert done.returncode == 1
    err = " ".join(done.stderr.split())
    assert "not on your PATH" in err and "was not changed" in err
    assert "uv tool install" in err and "pipx install" in err
    own = "claude mcp add anchormem --" if client == "claude-code" else "--scope user"
    assert own in err
    assert not path.exists() and not backups(homes)


def test_without_anchormem_on_path_a_user_file_names_the_script(
    git_repo: GitRepo, homes: dict[str, Path]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    done = _setup(
        homes, "cursor", "--scope", "user", "--repo", str(git_repo.root),
        path=f"/usr/bin{os.pathsep}/bin",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = json.loads((homes["home"] / ".cursor" / "mcp.json").read_text())
    entry = written["mcpServers"]["anchormem"]
    command = entry["command"]
    assert Path(command).is_absolute() and Path(command).name == "anchormem"
    assert Path(command).resolve() == SCRIPT.resolve()
    assert entry["args"] == ["serve", "--repo", str(git_repo.root.resolve())]


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
def test_a_project_file_names_no_path_of_this_machine_and_nothing_with_tokens_can_be_committed(
    client: str, git_repo: GitRepo, homes: dict[str, Path]
):
    """The project file is one a team commits: no absolute path in it. The old file is
    kept where git cannot see it: not beside it, where ``git add -A`` would take it,
    another server's token with it (here the file itself is ignored, as a file holding
    a token is)."""
    repo = git_repo.root.resolve()
    path = config_path(client, "project", repo, sys.platform, os.environ)
    relative = path.relative_to(repo).as_posix()
    git_repo.commit({"app.py": "print(1)\n", ".gitignore": f"{relative}\n"}, "initial")
    token = "ghp_" + "A1b2C3d4" * 4  # a fake GitHub token
    key = "servers" if client == "vscode" else "mcpServers"
    github = {"command": "docker", "args": ["run", "-i", "github-mcp"]}
    config = {key: {"github": {**github, "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": token}}}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2))
    old = path.read_bytes()

    done = _setup(homes, client, "--repo", str(repo))
    assert done.returncode == 0, done.stderr

    text = path.read_text()
    assert json.loads(text)[key]["github"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"] == token
    for machine in (Path(os.path.expanduser("~")), homes["home"], repo, repo.parent, SCRIPT):
        assert str(machine) not in text, f"{machine} is written in {path}"
    assert str(repo.anchor + "tmp") not in text  # no temporary path either
    assert json.loads(text)[key]["anchormem"]["command"] == "anchormem"
    status = git_repo.git("status", "--porcelain", "--untracked-files=all", "--ignored=no")
    assert status == "", status  # nothing new for git: no backup beside the file
    would_add = git_repo.git("add", "-A", "--dry-run").splitlines()
    for line in would_add:
        added = repo / line.removeprefix("add '").removesuffix("'")
        assert token not in added.read_text(errors="replace"), f"git add -A takes {added}"
    [backup] = backups(homes)
    assert backup.read_bytes() == old
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(backup.parent.stat().st_mode) == 0o700
    assert str(backup) in " ".join(done.stderr.split())


def test_a_backup_an_earlier_version_left_beside_the_file_is_moved_away(
    git_repo: GitRepo, homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):  # fmt: skip
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    path = git_repo.root / ".cursor" / "mcp.json"
    _existing("cursor", path)
    beside = path.with_name(path.name + BACKUP_SUFFIX)
    beside.write_text('{"mcpServers": {"github": {"env": {"TOKEN": "ghp_secret"}}}}')
    monkeypatch.setenv("PATH", _on_path(homes))
    assert main(["setup", "cursor", "--repo", str(git_repo.root)]) == 0
    assert not beside.exists()
    kept = [b.read_text() for b in backups(homes)]
    assert '{"mcpServers": {"github": {"env": {"TOKEN": "ghp_secret"}}}}' in kept
    assert "moved" in capsys.readouterr().err


def test_a_store_path_is_refused_in_a_project_file(
    git_repo: GitRepo, homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
):  # fmt: skip
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    monkeypatch.setenv("PATH", _on_path(homes))
    db = str(tmp_path / "m.duckdb")
    assert main(["--db", db, "setup", "vscode", "--repo", str(git_repo.root)]) == 1
    assert "--scope user" in capsys.readouterr().err
    assert not (git_repo.root / ".vscode").exists()


def test_a_shared_stores_address_is_written_but_never_its_password(
    git_repo: GitRepo, homes: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):  # fmt: skip
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    monkeypatch.setenv("PATH", _on_path(homes))
    secret = "s3cret-Pw-9"
    with_password = f"postgresql://team:{secret}@db.internal:5432/memory"
    assert main(["--db", with_password, "setup", "vscode", "--repo", str(git_repo.root)]) == 1
    err = capsys.readouterr().err
    assert "~/.pgpass" in err and secret not in err
    assert not (git_repo.root / ".vscode").exists()

    address = "postgresql://team@db.internal:5432/memory?sslmode=verify-full"
    assert main(["--db", address, "setup", "vscode", "--repo", str(git_repo.root)]) == 0
    written = (git_repo.root / ".vscode" / "mcp.json").read_text()
    assert address in written


def test_print_shows_the_snippet_and_writes_nothing(
    git_repo: GitRepo, homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    assert main(["setup", "vscode", "--repo", str(git_repo.root), "--print"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "serve" in out["servers"]["anchormem"]["args"]
    assert not (git_repo.root / ".vscode").exists()


def test_invalid_json_is_a_clear_error_and_the_file_is_unchanged(
    git_repo: GitRepo,
    homes: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    path = git_repo.root / ".mcp.json"
    broken = '{"mcpServers": {"filesystem": {"command": "npx",}}\n'
    path.write_text(broken)
    monkeypatch.setenv("PATH", _on_path(homes))
    assert main(["setup", "claude-code", "--repo", str(git_repo.root)]) == 1
    err = capsys.readouterr().err
    assert "is not valid JSON (line 1)" in err and "was not changed" in err
    assert path.read_text() == broken
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists() and not backups(homes)


def test_an_entry_anchormem_did_not_write_is_never_clobbered(
    git_repo: GitRepo, homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    path = Path(os.environ["HOME"]) / ".cursor" / "mcp.json"
    theirs = {"mcpServers": {"anchormem": {"command": "node", "args": ["other-memory.js"]}}}
    path.parent.mkdir()
    path.write_text(json.dumps(theirs))
    args = ["setup", "cursor", "--scope", "user", "--repo", str(git_repo.root)]
    assert main(args) == 1
    assert "did not write" in capsys.readouterr().err
    assert json.loads(path.read_text()) == theirs
    assert main([*args, "--name", "anchormem-repo"]) == 0  # under another name: added
    written = json.loads(path.read_text())["mcpServers"]
    assert written["anchormem"] == theirs["mcpServers"]["anchormem"]
    assert written["anchormem-repo"]["args"][-2:] == ["--repo", str(git_repo.root.resolve())]
    # An entry anchormem wrote for another repository is updated (with a backup).
    other = GitRepo(Path(os.environ["HOME"]).parent / "other-repo")  # made by git init
    other.commit({"lib.py": "x = 1\n"}, "initial")
    kept = path.read_text()
    assert main([*args[:-1], str(other.root), "--name", "anchormem-repo"]) == 0
    assert "updated server 'anchormem-repo'" in capsys.readouterr().err
    assert backups(homes)[-1].read_text() == kept
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists()
    written = json.loads(path.read_text())["mcpServers"]
    assert written["anchormem-repo"]["args"][-1] == str(other.root.resolve())


@pytest.mark.parametrize(
    ("client", "scope", "platform", "expected"),
    [
        ("claude-desktop", "user", "darwin", f"H/{MAC}/Claude/claude_desktop_config.json"),
        ("claude-desktop", "user", "win32", "A/Claude/claude_desktop_config.json"),
        ("claude-desktop", "user", "linux", "X/Claude/claude_desktop_config.json"),
        ("claude-code", "project", "linux", "R/.mcp.json"),
        ("cursor", "project", "win32", "R/.cursor/mcp.json"),
        ("cursor", "user", "darwin", "H/.cursor/mcp.json"),
        ("vscode", "project", "darwin", "R/.vscode/mcp.json"),
        ("vscode", "user", "darwin", f"H/{MAC}/Code/User/mcp.json"),
        ("vscode", "user", "win32", "A/Code/User/mcp.json"),
        ("vscode", "user", "linux", "X/Code/User/mcp.json"),
    ],
)  # fmt: skip
def test_each_client_config_location(client: str, scope: str, platform: str, expected: str):
    env = {"HOME": "/H", "APPDATA": "/A", "XDG_CONFIG_HOME": "/X"}
    got = config_path(client, scope, Path("/R"), platform, env)
    assert got == Path("/" + expected)


def test_a_scope_the_client_does_not_have_is_refused(git_repo: GitRepo, homes, capsys):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    assert main(["setup", "claude-code", "--scope", "user", "--repo", str(git_repo.root)]) == 2
    assert "claude-code takes --scope project" in capsys.readouterr().err
