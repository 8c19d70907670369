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

A project file is shared: teams commit it, and every teammate's client reads it. So it
names no path of this machine. The repository is what each client gives the server:

- claude-code starts the servers of ``.mcp.json`` in the directory it runs in, the
  project (and ignores a ``cwd`` key): the entry is ``anchormem serve``, which finds the
  repository from its working directory;
- cursor and vscode substitute ``${workspaceFolder}`` in ``mcp.json`` (their
  documentation): the entry says ``--repo ${workspaceFolder}``;
- a user file (in the home directory) names the repository by its absolute path, as
  claude-desktop has no workspace at all.

The command is ``anchormem`` when it is on PATH (``uv tool install`` or ``pipx``). When
it is not, a project file is refused with what to do (install it as a command, or
``--scope user``): a path of this machine written there silently would be committed and
work nowhere else. A user file names the running script by its absolute path. ``--db``
is a path of this machine too: refused for a project file.

The entry is merged into the file: other servers and keys are kept as they are, and an
entry of the same name that anchormem did not write (its command is not anchormem's) is
never overwritten. The old file is copied first to a folder only this user can enter
(``setup_backup_dir``: 0700, the copy 0600), never beside it: a copy beside it is an
untracked file that ``git add .`` commits, with every other server's tokens in it. The
file is then replaced atomically. Running it twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.store_location import data_home, prepare_folder
from store.errors import AnchormemError, InvalidInput, StoreUnavailable

__all__ = [
    "CLIENTS",
    "SetupError",
    "add_setup_arguments",
    "config_path",
    "merge_entry",
    "run_setup",
    "server_entry",
    "setup_backup_dir",
]

CLIENTS = ("claude-desktop", "claude-code", "cursor", "vscode")
_SCOPES = {
    "claude-desktop": ("user",),
    "claude-code": ("project",),  # its user scope is ~/.claude.json, which it manages itself
    "cursor": ("project", "user"),
    "vscode": ("project", "user"),
}
# What earlier versions left beside the file: moved to the private folder when found.
BACKUP_SUFFIX = ".anchormem-backup"
WORKSPACE_FOLDER = "${workspaceFolder}"  # substituted by cursor and vscode
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


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
    # Not resolved: a virtual environment's python is a link to the base interpreter,
    # which does not have anchormem.
    return os.path.abspath(sys.executable), ["-m", "anchormem"]


def repo_args(client: str, scope: str, repo: Path) -> list[str]:
    """How the entry names the repository: nothing for claude-code (its servers start in
    the project), ``${workspaceFolder}`` in a cursor or vscode project file, the absolute
    path in a user file."""
    if scope == "project":
        return [] if client == "claude-code" else ["--repo", WORKSPACE_FOLDER]
    return ["--repo", str(repo)]


def server_entry(
    client: str, command: str, prefix: list[str], repo: Path, scope: str = "user"
) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if client == "vscode":
        entry["type"] = "stdio"
    entry["command"] = command
    entry["args"] = [*prefix, "serve", *repo_args(client, scope, repo)]
    return entry


def _not_on_path(client: str, path: Path, command: str, prefix: list[str]) -> SetupError:
    """Why a project file does not get this machine's path of anchormem, and what to do."""
    started = " ".join([command, *prefix])
    if client == "claude-code":
        own = f"`claude mcp add anchormem -- {started} serve` (your own ~/.claude.json)"
    else:
        own = f"`anchormem setup {client} --scope user` (your own config file)"
    return SetupError(
        f"anchormem is not on your PATH, so the entry would start it as {started}, a path"
        f" of this machine, in {path}, which your team shares; it was not changed. Install"
        " anchormem as a command (`uv tool install .` or `pipx install .` in its clone:"
        f' README, "Installing it as a tool") and run this again, or use {own}'
    )


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
    from store.pg.url import has_password, is_postgres_url

    settings = Settings.resolve(args.repo, None)
    if settings.repo is None:
        raise InvalidInput("no git repository here: give --repo PATH")
    repo = Path(settings.repo).resolve()
    scope = args.scope or ("user" if args.client == "claude-desktop" else "project")
    path = config_path(args.client, scope, repo, sys.platform, os.environ)
    command, prefix = launcher()
    entry = server_entry(args.client, command, prefix, repo, scope)
    named = getattr(args, "db", None)
    if named and is_postgres_url(named):
        # A team's shared store: its address may go in a shared config, its password never
        # (libpq reads PGPASSWORD or ~/.pgpass).
        if has_password(named):
            raise SetupError(
                "the --db address holds a password, which is never written to a client's"
                " config: give it without one and put the password in ~/.pgpass (or"
                " PGPASSWORD in the client's environment)"
            )
        entry["args"] += ["--db", named]
    elif named:  # a store named on the command line is named in the entry
        if scope == "project" and not args.print_only:
            raise SetupError(
                f"--db names a path of this machine, and {path} is shared by your team; it"
                " was not changed: use --scope user, or add --db by hand where only you"
                " read it"
            )
        entry["args"] += ["--db", str(Path(settings.db).resolve())]
    key = servers_key(args.client)
    machine_path = command != "anchormem"
    if args.print_only:
        print(f"anchormem: the entry for {path}:", file=sys.stderr)
        if machine_path and scope == "project":
            print(f"anchormem: {_not_on_path(args.client, path, command, prefix)}", file=sys.stderr)
        print(json.dumps({key: {args.name: entry}}, indent=2))
        return 0
    if machine_path and scope == "project":
        raise _not_on_path(args.client, path, command, prefix)
    # Imported here: every CLI call imports this module for its arguments.
    from anchors.worktree_files import SpecialFile, read_regular

    config: object = {}
    old = None
    try:
        old = read_regular(path)
    except FileNotFoundError:
        pass
    except (SpecialFile, IsADirectoryError) as exc:
        raise SetupError(f"{exc}; it was not changed") from None
    if old is not None:
        try:
            text = old.decode("utf-8")
            config = json.loads(text) if text.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
            raise SetupError(
                f"{path} is not valid JSON{where}; it was not changed (fix it, or add the"
                " entry that `anchormem setup --print` shows by hand)"
            ) from None
    tag = f"{args.client}-{scope}-{repo.name}"  # in the copies' names
    _move_old_backup(path, tag)
    merged = merge_entry(config, key, args.name, entry)
    if not merged.changed:
        print(f"anchormem: {path} already has this entry; nothing changed", file=sys.stderr)
        return 0
    backup = _back_up(path, old, tag) if old is not None else None
    _write(path, merged.config, old is not None)
    what = "updated" if merged.replaced else "added"
    kept = f"; the old file is kept at {backup} (only you can read it)" if backup else ""
    print(
        f"anchormem: {what} server '{args.name}' in {path}{kept}; restart {args.client} to load it",
        file=sys.stderr,
    )
    return 0


def setup_backup_dir(env: Mapping[str, str]) -> Path:
    """Where setup keeps the files it replaced: ``setup-backups`` in this user's
    anchormem data folder (``server.store_location.data_home``), made 0700. Raises
    ``SetupError`` when the folder is a link, another user's, or others may write to it."""
    folder = data_home(env) / "setup-backups"
    try:
        prepare_folder(folder)
    except StoreUnavailable as exc:
        raise SetupError(f"{exc}; nothing was changed") from None
    return folder


def _backup_name(path: Path, tag: str) -> str:
    """``<UTC time>-<tag>-<hash of the file's path>.json`` (the tag: client, scope and
    repository): in the order they were made, and telling which file it was without a
    path in the name."""
    digest = hashlib.blake2b(str(path).encode(errors="surrogateescape"), digest_size=6)
    now = time.time_ns()
    when = (
        time.strftime("%Y%m%dT%H%M%S", time.gmtime(now // 10**9)) + f".{now // 1000 % 10**6:06d}Z"
    )
    return f"{when}-{_UNSAFE_NAME.sub('_', tag)[:80]}-{digest.hexdigest()}.json"


def _back_up(path: Path, old: bytes, tag: str) -> Path:
    """``old`` (the file's content) in ``setup_backup_dir``, 0600; its path."""
    folder = setup_backup_dir(os.environ)
    name = _backup_name(path, tag)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for n in range(100):  # a name already taken: another one, never an overwrite
        backup = folder / (name if n == 0 else f"{name.removesuffix('.json')}-{n}.json")
        try:
            fd = os.open(backup, flags, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise SetupError(f"cannot keep the old file in {folder}: {exc}") from None
        with os.fdopen(fd, "wb") as fh:
            if hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), 0o600)  # whatever the umask
            fh.write(old)
        return backup
    raise SetupError(f"cannot name the copy of the old file in {folder}; nothing was changed")


def _move_old_backup(path: Path, tag: str) -> None:
    """The ``<file>.anchormem-backup`` an earlier version left beside ``path`` (other
    servers' tokens, in a file git does not ignore): moved to ``setup_backup_dir``, said
    on stderr."""
    from anchors.worktree_files import read_regular

    beside = path.with_name(path.name + BACKUP_SUFFIX)
    try:
        if not stat.S_ISREG(os.lstat(beside).st_mode):
            return
        content = read_regular(beside)
    except OSError:
        return
    moved = _back_up(beside, content, tag)
    try:
        beside.unlink()
    except OSError as exc:
        print(f"anchormem: copied {beside} to {moved}; cannot remove it: {exc}", file=sys.stderr)
        return
    print(
        f"anchormem: moved {beside}, which an earlier anchormem left beside the file (git"
        f" would commit it, and the tokens in it), to {moved}",
        file=sys.stderr,
    )


def _write(path: Path, config: dict[str, Any], existed: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(config, indent=2, ensure_ascii=False) + "\n")
        if existed:
            with contextlib.suppress(OSError):
                shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
