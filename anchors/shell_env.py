"""The environment variables a shell script reads: a container's entrypoint, a start or
deploy script ("With `WGER_USE_GUNICORN=True` the entrypoint runs gunicorn").

An application's settings are often read by the script that starts it, not by its code:
``if [[ "$USE_GUNICORN" == "True" ]]``, ``exec app --port "${PORT:-8000}"``. The script is
never run; its text is scanned for ``$NAME`` and ``${NAME...}`` in capitals. A name the
script assigns itself is its own variable, not the environment's, unless the assignment
falls back on the environment (``PORT=${PORT:-8000}``). The shell's own variables (``$HOME``,
``$PWD``, ``$RANDOM``) are no application's settings.
"""

from __future__ import annotations

import re

__all__ = ["shell_env_reads", "shell_script"]

_SUFFIXES = (".sh", ".bash")
# An entrypoint or start script without a suffix ("docker-entrypoint", "entrypoint").
_NAMES = frozenset({"entrypoint", "docker-entrypoint", "start", "run", "boot"})
_READ = re.compile(rb"\$(?:\{(?P<braced>[A-Z][A-Z0-9_]*)[^}]*\}|(?P<bare>[A-Z][A-Z0-9_]*))")
# ``NAME=...`` or ``export NAME=...``, ``local NAME=...``, ``readonly NAME=...`` at a
# command's start; ``read NAME``, ``for NAME in``.
_ASSIGN = re.compile(
    rb"(?:^|[;&|(]|\bthen\b|\bdo\b|\belse\b)\s*(?:export\s+|local\s+|readonly\s+|declare\s+"
    rb"(?:-\w+\s+)*)?(?P<name>[A-Z][A-Z0-9_]*)=(?P<value>\S*)"
    rb"|\b(?:read(?:\s+-\w+)*|for)\s+(?P<loop>[A-Z][A-Z0-9_]*)\b",
    re.MULTILINE,
)
_SHELL_OWN = frozenset({
    "HOME", "PATH", "PWD", "OLDPWD", "USER", "UID", "EUID", "SHELL", "HOSTNAME", "TERM",
    "LANG", "IFS", "RANDOM", "SECONDS", "LINENO", "PPID", "SHLVL", "OPTARG", "OPTIND",
    "REPLY", "PIPESTATUS", "FUNCNAME", "BASH_SOURCE", "BASH_VERSION", "BASH_REMATCH",
    "HOSTTYPE", "OSTYPE", "MACHTYPE", "GROUPS", "TMPDIR", "EDITOR", "PS1", "PS4",
})  # fmt: skip
_MAX_BYTES = 256 * 1024


def shell_script(path: str) -> bool:
    """Whether ``path`` is a shell script by its name."""
    name = path.rpartition("/")[2].lower()
    return name.endswith(_SUFFIXES) or name in _NAMES


def shell_env_reads(data: bytes) -> list[str]:
    """The environment variables ``data``, a shell script, reads, in order of first read."""
    if len(data) > _MAX_BYTES or b"\0" in data[:8000]:
        return []
    text = b"\n".join(line for line in data.splitlines() if not line.lstrip().startswith(b"#"))
    own: set[bytes] = set()
    for m in _ASSIGN.finditer(text):
        name = m.group("name") or m.group("loop")
        value = m.group("value") or b""
        if m.group("name") and (b"${" + name in value or b"$" + name in value):
            continue  # ``PORT=${PORT:-8000}``: the environment's value, kept
        own.add(name)
    found: dict[str, None] = {}
    for m in _READ.finditer(text):
        name = m.group("braced") or m.group("bare")
        if name in own or name.decode() in _SHELL_OWN:
            continue
        found.setdefault(name.decode(), None)
    return list(found)
