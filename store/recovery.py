"""Opening a store whose files are damaged: move the damaged file aside, never delete it.

DuckDB 2.0 fails to open a damaged store with an ``IOException`` whose message says what
is wrong (the messages below, as DuckDB 2.0 writes them):

* a write-ahead log it cannot replay: ``Failure while replaying WAL file "...": ...``
  (a truncated WAL, or one with a garbage header, is skipped by DuckDB itself);
* a main file that is not a store: ``The file "..." exists, but it is not a valid DuckDB
  database file!``; a truncated one: ``Could not read enough bytes from file ...``; a
  block that fails its checksum: ``Corrupt database file`` / ``checksum``.

A main file is only treated as a damaged store if anchormem opened it before or it
carries DuckDB's magic bytes; any other file named as the store is refused, not moved.
For a bad WAL the store opens from the main file without it (the changes only the WAL
held are lost; they are in the moved file). For a bad main file the store starts fresh
(say so). Each move is printed on stderr and appended to ``<db>.recovery.json`` beside
the store, which ``anchormem doctor`` reports until somebody removes it.

The caller holds the store's lease lock, so no other anchormem process has these files
open while they move.
"""

from __future__ import annotations

import json
import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from store.errors import StoreUnavailable
from store.safe_files import open_private, read_private

__all__ = ["damaged_part", "is_a_store", "move_aside", "recovery_log", "recovery_records"]

_WAL_SIGNS = ("replaying wal",)
_MAIN_SIGNS = (
    "not a valid duckdb database file",
    "could not read enough bytes from file",
    "corrupt database file",
    "checksum",
)
_QUOTED = re.compile(r'"[^"]*"')  # DuckDB quotes the paths it names


def damaged_part(message: str) -> str | None:
    """``"wal"`` or ``"main"`` when ``message`` (a DuckDB open error) says that file is
    damaged; ``None`` for anything else (a lock, a newer format, permissions, ...).

    Only DuckDB's words count, not the paths it quotes: a store in a directory named
    ``checksum`` that another program holds open is locked, not damaged."""
    low = _QUOTED.sub('""', message).lower()
    if "could not set lock" in low:  # another process has it open (named, unquoted)
        return None
    if any(sign in low for sign in _WAL_SIGNS):
        return "wal"
    if any(sign in low for sign in _MAIN_SIGNS):
        return "main"
    return None


def is_a_store(db_path: Path, opened_before: bool) -> bool:
    """Whether a main file that fails to open is a damaged store rather than some other
    file named by mistake (``--db README.md``: refused, never moved): anchormem opened it
    before (its ``.lock`` file existed when this process started), or it carries DuckDB's
    magic bytes (``DUCK`` at offset 8)."""
    if opened_before:
        return True
    try:
        return read_private(db_path, 12)[8:12] == b"DUCK"
    except (OSError, StoreUnavailable):
        return False


def recovery_log(db_path: Path) -> Path:
    return Path(f"{db_path}.recovery.json")


def move_aside(db_path: Path, part: str, reason: str) -> list[str]:
    """Rename the damaged file(s) to ``<name>.damaged-<UTC timestamp>``; record and say so.
    For a damaged main file its WAL goes too (it cannot apply to a fresh file)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    wal = Path(f"{db_path}.wal")
    victims = [wal] if part == "wal" else [db_path, wal]
    moved = []
    for path in victims:
        if not path.exists():
            continue
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        os.replace(path, target)
        moved.append(target.name)
    _fsync_dir(db_path.parent)
    started = (
        "started from the main file without the write-ahead log"
        if part == "wal"
        else "started a fresh, empty store"
    )
    record = {
        "at": datetime.now(UTC).isoformat(),
        "file": db_path.name if part == "main" else wal.name,
        "moved_to": moved,
        "reason": reason.splitlines()[0][:300],
        "started": started,
    }
    records = recovery_records(db_path)
    records.append(record)
    log = recovery_log(db_path)
    tmp = log.with_name(f"{log.name}.tmp-{os.getpid()}")
    with os.fdopen(open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "w") as out:
        out.write(json.dumps(records, indent=2) + "\n")
    os.replace(tmp, log)
    print(
        f"anchormem: the store's {'write-ahead log' if part == 'wal' else 'file'} was damaged"
        f" ({record['reason']}); moved it aside to {', '.join(moved)} and {started}",
        file=sys.stderr,
    )
    return moved


def recovery_records(db_path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(read_private(recovery_log(db_path)))
    except (OSError, ValueError, StoreUnavailable):
        return []
    return [r for r in data if isinstance(r, dict)] if isinstance(data, list) else []


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
