"""This process as a client of the store's owner (adr/0012): the link to it, and the CLI's
rendered calls. Light on purpose: a CLI ``recall`` through here imports neither DuckDB nor
tree-sitter nor the output models; the owner renders the result."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import Any

from server.config import Settings
from server.operations import RESENDABLE_COMMANDS
from store.errors import AnchormemError
from store.sharing.client import OwnerLink
from store.sharing.protocol import Files, version

__all__ = [
    "SERVICE_ENV",
    "cli_call",
    "client_env",
    "owner_command",
    "owner_link",
    "start_owner_early",
]

# Settings that are the owner's, not a call's: never sent (and no secret ever is).
_NOT_SENT = frozenset(
    {
        "ANCHORMEM_DB",
        "ANCHORMEM_REPO",
        "ANCHORMEM_HTTP_TOKEN",
        "ANCHORMEM_ALLOWED_HOSTS",
        "ANCHORMEM_ALLOWED_ORIGINS",
        "ANCHORMEM_SHARE",
        "ANCHORMEM_RELAY",
        "ANCHORMEM_WATCH",
        "ANCHORMEM_OWNER_IDLE",
        "ANCHORMEM_OWNER_STANDBY",
        "ANCHORMEM_STANDBY_AFTER",
        "ANCHORMEM_LOCK_WAIT",
        "ANCHORMEM_SYNC_MS",
        "ANCHORMEM_DEBUG",
    }
)
SERVICE_ENV = "ANCHORMEM_"


def client_env() -> dict[str, str]:
    """The ``ANCHORMEM_*`` settings this process's calls are served with."""
    return {k: v for k, v in os.environ.items() if k.startswith(SERVICE_ENV) and k not in _NOT_SENT}


def owner_command(settings: Settings, module: str = "server.owner") -> list[str]:
    """How a client starts the owner (or an owner its standby, ``server.standby``): this
    interpreter, without the cwd on its path."""
    argv = [sys.executable, "-P", "-m", module, "--db", str(settings.db)]
    if settings.repo is not None:
        argv += ["--repo", str(settings.repo)]
    return argv


def owner_link(
    settings: Settings,
    stopping: threading.Event | None = None,
    env: dict[str, str] | None = None,
) -> OwnerLink:
    """A link to the store's owner; ``env``: the settings the calls are served with
    (default ``client_env()``)."""
    said = settings.prepare_store_dir()
    if said:
        print(f"anchormem: {said}", file=sys.stderr)
    return OwnerLink(
        Files(settings.db),
        owner_command(settings),
        env=client_env() if env is None else env,
        wait_s=settings.lock_wait_s,
        version=version(),
        repo=str(settings.repo) if settings.repo is not None else None,
        stopping=stopping,
    )


def start_owner_early(settings: Settings) -> threading.Thread:
    """Start the store's owner, if none runs, in a daemon thread of this process: called
    by ``serve`` before its own imports, so that the owner's start-up (about a second of
    imports) runs beside them instead of after them, and a session's first call waits
    less for it. Nothing is reported from the thread: the server's first connection
    starts an owner itself if this one failed, and says why if it cannot."""

    def start() -> None:
        try:
            link = owner_link(settings)
            try:
                link.start_if_none()
            finally:
                link.close()
        except (AnchormemError, OSError):  # said by the server's own connection instead
            return

    thread = threading.Thread(target=start, name="anchormem-owner-start", daemon=True)
    thread.start()
    return thread


def cli_call(settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """One CLI command run and rendered by the owner, as ``server.cli._dispatch`` would."""
    given = {
        k: v
        for k, v in vars(args).items()
        if k != "command" and (v is None or isinstance(v, bool | int | float | str | list))
    }
    # The owner serves each distinct set of settings with its own service: this one
    # records changes as the person who typed the command (``Settings.resolve(person=)``).
    link = owner_link(settings, env={**client_env(), "ANCHORMEM_ACTOR": settings.actor})
    try:
        result: dict[str, Any] = link.request(
            {"op": "cli", "command": args.command, "args": given},
            resend=args.command in RESENDABLE_COMMANDS,
        )
    finally:
        link.close()
    return result

