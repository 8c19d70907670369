"""``anchormem setup CLIENT``: the MCP server entry in a client's own JSON config.

Where each client reads its servers, and under which key (the clients' documentation):

- claude-desktop (user): ``claude_desktop_config.json`` in ``~/Library/Application
  Support/Claude/`` (macOS), ``%APPDATA%\\Claude\\`` (Windows) or
  ``$XDG_CONFIG_HOME/Claude/`` (Linux), under ``mcpServers``;
- claude-code (project): ``<repo>/.mcp.json``, under ``mcpServers``;
- cursor: ``<repo>/.cursor/mcp.json`` (project) or ``~/.cursor/mcp.json`` (user), under
  ``mcpServers``;
- vscode: ``<repo>/.vscode/mcp.json`` (project) or the profile's ``Code/User/mcp.json``
  in the same config directory (user), under ``servers``, with ``"type": "stdio"``.

The entry is merged into the file: other servers and keys are kept as they are, the old
file is copied to ``<file>.anchormem-backup`` before it is replaced (atomically), and an
entry of the same name that anchormem did not write (its command is not anchormem's) is
never overwritten. Running it twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from store.errors import AnchormemError, InvalidInput

__all__ = [
    "CLIENTS",
    "SetupError",
    "add_setup_arguments",
    "config_path",
    "merge_entry",
    "run_setup",
    "server_entry",
]

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode")
_SCOPES = {
    "claude-desktop": ("user",),
    "claude-code": ("project",),  # its user scope is ~/.claude.json, which it manages itself
    "cursor": ("project", "user"),
    "vscode": ("project", "user"),
}
BACKUP_SUFFIX = ".anchormem-backup"


class SetupError(AnchormemError):
    """The config cannot be written as asked; the file was not changed."""


def add_setup_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("client", type=str.lower, choices=CLIENTS)
    p.add_argument(
        "--scope",
        type=str.lower,
        choices=["project", "user"],
        help="project: the repository's config file; user: your own (default: project, "
        "but user for claude-desktop)",
    )
    p.add_argument("--name", default="anchormem", help="the server's name in the config")
    p.add_argument(
        "--print", dest="print_only", action="store_true", help="show the entry; write nothing"
    )


def config_path(client: str, scope: str, repo: Path, platform: str, env: Mapping[str, str]) -> Path:
    """The config file ``client`` reads at ``scope`` on ``platform`` (``sys.platform``)."""
    if scope not in _SCOPES[client]:
        allowed = " or ".join(_SCOPES[client])
        raise InvalidInput(f"{client} takes --scope {allowed}")
    home = Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())
    if platform == "darwin":
        config_dir = home / "Library" / "Application Support"
    elif platform.startswith("win"):
        config_dir = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
    else:
        config_dir = Path(env.get("XDG_CONFIG_HOME") or home / ".config")
    if client == "claude-desktop":
        return config_dir / "Claude" / "claude_desktop_config.json"
    if client == "claude-code":
        return repo / ".mcp.json"
    if client == "cursor":
        return (repo if scope == "project" else home) / ".cursor" / "mcp.json"
    if scope == "project":
        return repo / ".vscode" / "mcp.json"
    return config_dir / "Code" / "User" / "mcp.json"


def servers_key(client: str) -> str:
    return "servers" if client == "vscode" else "mcpServers"


def launcher() -> tuple[str, list[str]]:
    """The command that starts this anchormem: ``anchormem`` when it is on PATH (an
    install by ``uv tool install`` or ``pipx``), else the absolute path of the running
    script, else this interpreter with ``-m anchormem``."""
    if shutil.which("anchormem"):
        return "anchormem", []
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if script is not None and script.name == "anchormem" and script.is_file():
        return str(script), []
    return str(Path(sys.executable).resolve()), ["-m", "anchormem"]


def server_entry(client: str, command: str, prefix: list[str], repo: Path) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if client == "vscode":
        entry["type"] = "stdio"
    entry["command"] = command
    entry["args"] = [*prefix, "serve", "--repo", str(repo)]
    return entry


def _ours(entry: object) -> bool:
    """An entry anchormem wrote: its command is anchormem's (by name, or python -m
    anchormem) and it runs ``serve``."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    raw = entry.get("args")
    args: list[Any] = raw if isinstance(raw, list) else []
    name = Path(entry["command"]).name.lower()
    by_name = name in ("anchormem", "anchormem.exe") and args[:1] == ["serve"]
    by_module = args[:3] == ["-m", "anchormem", "serve"]
    return by_name or by_module


@dataclass(frozen=True)
class Merged:
    config: dict[str, Any]
    changed: bool
    replaced: bool  # an older anchormem entry of that name was updated


def merge_entry(config: object, key: str, name: str, entry: dict[str, Any]) -> Merged:
    """``config`` with ``entry`` as server ``name`` under ``key``; ``SetupError`` when the
    config is not an object or the name belongs to an entry anchormem did not write."""
    if not isinstance(config, dict):
        raise SetupError("the config file does not hold a JSON object")
    servers = config.get(key, {})
    if not isinstance(servers, dict):
        raise SetupError(f"'{key}' in the config file is not a JSON object")
    existing = servers.get(name)
    if existing == entry:
        return Merged(config, False, False)
    if existing is not None and not _ours(existing):
        raise SetupError(
            f"the config already has a server named '{name}' that anchormem did not write"
            f" (command {existing.get('command') if isinstance(existing, dict) else existing!r});"
            " it was left alone: pick another name with --name"
        )
    merged = dict(config)
    merged[key] = {**servers, name: entry}
    return Merged(merged, True, existing is not None)


def run_setup(args: argparse.Namespace) -> int:
    from server.config import Settings

    settings = Settings.resolve(args.repo, None)
    if settings.repo is None:
        raise InvalidInput("no git repository here: give --repo PATH")
    repo = Path(settings.repo).resolve()
    scope = args.scope or ("user" if args.client == "claude-desktop" else "project")
    path = config_path(args.client, scope, repo, sys.platform, os.environ)
    command, prefix = launcher()
    entry = server_entry(args.client, command, prefix, repo)
    if getattr(args, "db", None):  # a store named on the command line is named in the entry
        entry["args"] += ["--db", str(Path(settings.db).resolve())]
    key = servers_key(args.client)
    if args.print_only:
        print(f"anchormem: the entry for {path}:", file=sys.stderr)
        print(json.dumps({key: {args.name: entry}}, indent=2))
        return 0
    config: object = {}
    old = None
    if path.exists():
        try:
            old = path.read_text(encoding="utf-8")
            config = json.loads(old) if old.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise SetupError(
                f"{path} is not valid JSON{where}; it was not changed (fix it, or add the"
                " entry that `anchormem setup --print` shows by hand)"
            ) from None
    merged = merge_entry(config, key, args.name, entry)
    if not merged.changed:
        print(f"anchormem: {path} already has this entry; nothing changed", file=sys.stderr)
        return 0
    _write(path, merged.config, old)
    what = "updated" if merged.replaced else "added"
    backup = f"; the old file is {path}{BACKUP_SUFFIX}" if old is not None else ""
    print(
        f"anchormem: {what} server '{args.name}' in {path}{backup}; restart {args.client}"
        " to load it",
        file=sys.stderr,
    )
    return 0


def _write(path: Path, config: dict[str, Any], old: str | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if old is not None:
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        backup.write_text(old, encoding="utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(config, indent=2, ensure_ascii=False) + "\n")
        if old is not None:
            with contextlib.suppress(OSError):
                shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
