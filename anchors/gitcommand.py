"""How anchormem runs git: nothing a repository's configuration names is ever executed.

A repository's config can make git run commands: filter drivers (``clean``, ``smudge``,
``process``), diff drivers and ``diff.external``, merge drivers, ``core.fsmonitor``, hooks
(``core.hooksPath``), a pager or editor, ``core.sshCommand``, credential helpers and
remote helpers reached by a lazy fetch of a partial clone. The commands anchormem runs
(``rev-parse``, ``symbolic-ref``, ``ls-tree``, ``cat-file --batch``, ``ls-files`` and
``config --get-regexp``) need none of them, and each is started with every such setting
overridden in the command scope, which wins over every config file (includes too):

- fixed overrides for the single-valued settings (``core.fsmonitor=false``,
  ``core.hooksPath=/dev/null``, ``core.pager=cat``, ``protocol.allow=never`` so no
  transport, ``ssh`` or ``ext::`` included, is ever started, ...);
- an empty value for every configured driver command, found by reading the config with
  ``git config --get-regexp`` (reading config runs nothing);
- an environment without the caller's ``GIT_*`` variables except the global config's
  location, ``GIT_CONFIG_NOSYSTEM=1`` and no prompts.

The overrides go through ``GIT_CONFIG_COUNT`` / ``GIT_CONFIG_KEY_<n>`` /
``GIT_CONFIG_VALUE_<n>``, so a driver name holding ``=`` cannot split an override.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "FIXED_OVERRIDES",
    "GIT_TIMEOUT_S",
    "DriverOverrides",
    "driver_overrides",
    "git_environment",
]

# The files git reads that anchormem knows of are looked at before git runs, and one that
# git would wait on (a FIFO) is never handed to it (``anchors/gitrepo.py``,
# ``anchors/worktree.py``). A git that waits anyway, on a FIFO only git knows of (one
# named by ``include.path``, a pack file) must not hang the server: every short command
# is bounded.
GIT_TIMEOUT_S = 60.0

FIXED_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.editor", "false"),
    ("sequence.editor", "false"),
    ("core.askPass", ""),
    ("core.sshCommand", "false"),
    ("core.gitProxy", ""),
    ("core.alternateRefsCommand", ""),
    ("credential.helper", ""),  # an empty value clears the list of helpers
    ("diff.external", ""),
    ("gpg.program", "false"),
    ("uploadpack.packObjectsHook", ""),
    ("protocol.allow", "never"),  # no lazy fetch of a partial clone, no remote helper
    *((f"protocol.{n}.allow", "never") for n in ("ext", "file", "git", "ssh", "http", "https")),
    ("fetch.recurseSubmodules", "false"),
    ("submodule.recurse", "false"),
    ("maintenance.auto", "false"),
    ("gc.auto", "0"),
    # anchormem names objects by their full id only: git need not look for a ref spelled
    # like one, so ``ls-tree`` never reads ``packed-refs`` (a FIFO there would stall it).
    ("core.warnAmbiguousRefs", "false"),
)

# <section>.<driver>.<key> settings whose value is a command: emptied when configured.
_DRIVER_COMMAND = re.compile(
    r"^(?:filter\..+\.(?:clean|smudge|process)|diff\..+\.(?:textconv|command)"
    r"|merge\..+\.driver|remote\..+\.(?:uploadpack|receivepack))$",
    re.IGNORECASE | re.DOTALL,
)
_PROTOCOL = re.compile(r"^protocol\..+\.allow$", re.IGNORECASE | re.DOTALL)
_FILTER_REQUIRED = re.compile(r"^(filter\..+)\.(?:clean|smudge|process)$", re.I | re.DOTALL)
_CONFIG_QUERY = r"^((filter|diff|merge|remote|include|includeif|protocol)\.|core\.excludesfile$)"
_EXCLUDES_FILE = "core.excludesfile"
_INCLUDE = re.compile(r"^include(?:if\..+)?\.path$", re.IGNORECASE | re.DOTALL)

# The caller's GIT_* variables may point git at another repository or name commands
# (GIT_EXTERNAL_DIFF, GIT_SSH_COMMAND, GIT_ASKPASS, GIT_CONFIG_PARAMETERS, ...): all go,
# except where the user's own global config lives.
_KEPT_GIT_VARS = frozenset({"GIT_CONFIG_GLOBAL"})


def git_environment(overrides: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """The environment of a git command: ours, with ``FIXED_OVERRIDES`` and
    ``overrides`` as command-scope config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in _KEPT_GIT_VARS}
    env.update(
        GIT_OPTIONAL_LOCKS="0",
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_PAGER="cat",
        GIT_NO_REPLACE_OBJECTS="1",
        # An allow-list in the environment beats every protocol.*.allow in the config
        # (even a repository's protocol.ext.allow=always): no transport is allowed.
        GIT_ALLOW_PROTOCOL="none",
        GIT_PROTOCOL_FROM_USER="0",
        LC_ALL="C",
    )
    pairs = [*FIXED_OVERRIDES, *overrides]
    env["GIT_CONFIG_COUNT"] = str(len(pairs))
    for i, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    return env


@dataclass(frozen=True)
class DriverOverrides:
    """The overrides for the drivers configured now; ``includes``: the config pulls in
    other files, so a change cannot be seen from the stats of the usual config files;
    ``excludes_file``: ``core.excludesFile`` as configured (None: not set)."""

    overrides: tuple[tuple[str, str], ...]
    includes: bool
    excludes_file: str | None = None


def driver_overrides(root: Path, base_env: Mapping[str, str]) -> DriverOverrides:
    """An empty command (and ``required=false``) for every driver configured for the
    repository at ``root``, read with ``git config`` (which executes nothing). Unreadable
    config gives no overrides: the fixed ones still hold, and the commands run need no
    driver."""
    try:
        done = subprocess.run(
            ["git", "config", "-z", "--get-regexp", _CONFIG_QUERY],
            cwd=root,
            env=dict(base_env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return DriverOverrides((), True)
    found: dict[str, str] = {}
    includes = False
    excludes_file = None
    for record in done.stdout.split(b"\0"):
        raw_key, _, raw_value = record.partition(b"\n")
        key = raw_key.decode("utf-8", errors="surrogateescape")
        includes = includes or bool(_INCLUDE.match(key))
        if key == _EXCLUDES_FILE:  # the last one set wins, as in git
            excludes_file = raw_value.decode("utf-8", errors="surrogateescape")
        elif _PROTOCOL.match(key):
            found[key] = "never"
        elif _DRIVER_COMMAND.match(key):
            found[key] = ""
            required = _FILTER_REQUIRED.match(key)
            if required:
                found[f"{required.group(1)}.required"] = "false"
    return DriverOverrides(tuple(sorted(found.items())), includes, excludes_file)
