"""``anchormem setup CLIENT``: real config files with other servers in them, under a fake
HOME / XDG_CONFIG_HOME / APPDATA (never the real home)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.setup_clients import BACKUP_SUFFIX, CLIENTS, config_path
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
    monkeypatch.setenv("HOME", str(places["home"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(places["xdg"]))
    monkeypatch.setenv("APPDATA", str(places["appdata"]))
    return places


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
        PATH=path,
    )
    return env


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
    (homes["bin"] / "anchormem").symlink_to(SCRIPT)
    on_path = f"{homes['bin']}{os.pathsep}/usr/bin{os.pathsep}/bin"
    done = subprocess.run(
        [str(SCRIPT), "setup", client, "--repo", str(repo)],
        env=_env(homes, on_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    written = json.loads(path.read_text())
    key = "servers" if client == "vscode" else "mcpServers"
    entry = written[key].pop("anchormem")
    assert entry["command"] == "anchormem"
    assert entry["args"] == ["serve", "--repo", str(repo)]
    assert entry.get("type") == ("stdio" if client == "vscode" else None)
    assert written == before  # every other server and setting as it was
    assert path.with_name(path.name + BACKUP_SUFFIX).read_text() == old_text
    # Twice: nothing changes (run in process, the same command line).
    after_once = path.read_bytes()
    monkeypatch.setenv("PATH", on_path)
    assert main(["setup", client, "--repo", str(repo)]) == 0
    assert path.read_bytes() == after_once


def test_without_anchormem_on_path_the_entry_names_the_script(
    git_repo: GitRepo, homes: dict[str, Path]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    done = subprocess.run(
        [str(SCRIPT), "setup", "cursor", "--repo", str(git_repo.root)],
        env=_env(homes, f"/usr/bin{os.pathsep}/bin"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    written = json.loads((git_repo.root / ".cursor" / "mcp.json").read_text())
    command = written["mcpServers"]["anchormem"]["command"]
    assert Path(command).is_absolute() and Path(command).name == "anchormem"
    assert Path(command).resolve() == SCRIPT.resolve()


def test_print_shows_the_snippet_and_writes_nothing(
    git_repo: GitRepo, homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    assert main(["setup", "vscode", "--repo", str(git_repo.root), "--print"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "serve" in out["servers"]["anchormem"]["args"]
    assert not (git_repo.root / ".vscode").exists()


def test_invalid_json_is_a_clear_error_and_the_file_is_unchanged(
    git_repo: GitRepo, homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
):
    git_repo.commit({"app.py": "print(1)\n"}, "initial")
    path = git_repo.root / ".mcp.json"
    broken = '{"mcpServers": {"filesystem": {"command": "npx",}}\n'
    path.write_text(broken)
    assert main(["setup", "claude-code", "--repo", str(git_repo.root)]) == 1
    err = capsys.readouterr().err
    assert "is not valid JSON (line 1)" in err and "was not changed" in err
    assert path.read_text() == broken
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists()


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
    assert path.with_name(path.name + BACKUP_SUFFIX).read_text() == kept
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
