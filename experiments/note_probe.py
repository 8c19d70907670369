"""Notes read against a real project at one version: how many true ones are VERIFIED or
refuted, how many false ones served or served VERIFIED.

``python -m experiments.note_probe [--probe NAME ...]`` reads the probes manifest
(``experiments/data/probes/probes.json``: per probe a PyPI sdist, an npm tarball or a
Debian package — its version, file name, URL and sha256, and a .deb's project
directory), builds each one's scratch repository through ``experiments.corpus`` (the
archive fetched into the cache, its sha256 verified, unpacked safely, committed; nothing
of it executed), and remembers each note of ``experiments/data/probes/NAME.notes`` on a
fresh store through the MCP server in memory, as an agent would: ``remember`` the text,
then the memory as ``memory://`` serves it. A notes file holds one note a line, ``T`` or
``F``, a tab, the note; ``#`` starts a comment.

It prints each note that is not what it should be (a false one served, a true one not
VERIFIED) with its verification, and one table: false served VERIFIED, false served (not
REFUTED), true VERIFIED, true refuted. These are development probes: their notes were
written while readers were built, unlike the truth benchmark's corpus. Run it from an
older checkout to compare. It is not part of CI: the first run downloads the archives.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from mcp import Client

from anchors.errors import AnchormemError
from experiments.corpus import Project, Version, build
from experiments.errors import EXIT_USAGE, ExperimentError, exit_code

__all__ = ["Note", "main", "read_notes", "tally"]


@dataclass(frozen=True)
class Note:
    true: bool
    text: str


def _data() -> Path:
    return Path(str(resources.files("experiments") / "data" / "probes"))


def read_notes(path: Path) -> list[Note]:
    """The notes of a ``.notes`` file; a malformed line is an error naming it."""
    notes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        label, tab, text = line.partition("\t")
        if not tab or label not in ("T", "F") or not text.strip():
            raise ExperimentError(f"{path}:{number}: expected 'T' or 'F', a tab, then the note")
        notes.append(Note(label == "T", text.strip()))
    return notes


def _probes() -> dict[str, Project]:
    path = _data() / "probes.json"
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["probes"]
        return {
            str(e["name"]): Project(f"probe-{e['name']}", (Version(
                str(e["version"]), str(e["filename"]), str(e["sha256"]).lower(), str(e["url"]),
                str(e.get("root", ""))),))
            for e in entries
        }  # fmt: skip
    except (OSError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ExperimentError(f"cannot read the probes manifest {path}: {exc}") from None


async def _read(repo: Path, notes: Sequence[Note]) -> list[tuple[Note, str, str]]:
    from server.app import build_server
    from server.config import Settings

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(repo=repo, db=Path(tmp) / "probe.duckdb", verify_budget_s=30.0)
        async with Client(build_server(settings)) as client:
            served = []
            for note in notes:
                made = await client.call_tool("remember", {"text": note.text})
                if made.is_error or made.structured_content is None:
                    raise ExperimentError(f"remember failed: {made.content}")
                read = await client.read_resource(f"memory://{made.structured_content['id']}")
                record: dict[str, Any] = json.loads(read.contents[0].text)  # type: ignore[union-attr]
                served.append((note, str(record["status"]), str(record.get("verification"))))
            return served


def tally(served: Sequence[tuple[Note, str, str]]) -> dict[str, int]:
    """The counts of the table (see the module docstring)."""
    false = [s for n, s, _ in served if not n.true]
    true = [s for n, s, _ in served if n.true]
    return {
        "false": len(false),
        "false served VERIFIED": sum(s == "VERIFIED" for s in false),
        "false served": sum(s != "REFUTED" for s in false),
        "true": len(true),
        "true VERIFIED": sum(s == "VERIFIED" for s in true),
        "true refuted": sum(s == "REFUTED" for s in true),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.note_probe",
        description="development notes read against real projects (PyPI sdists)",
    )
    parser.add_argument("--probe", action="append", metavar="NAME", help="a probe (repeatable)")
    args = parser.parse_args(argv)
    try:
        probes = _probes()
        wanted = args.probe or sorted(probes)
        unknown = [name for name in wanted if name not in probes]
        if unknown:
            print(f"anchormem: no probe named {', '.join(unknown)}", file=sys.stderr)
            return EXIT_USAGE
        for name in wanted:
            repo = build(probes[name], log=lambda m: print(m, file=sys.stderr, flush=True))
            served = asyncio.run(_read(repo, read_notes(_data() / f"{name}.notes")))
            for note, status, why in served:
                if (status != "VERIFIED") if note.true else (status != "REFUTED"):
                    print(f"  {'T' if note.true else 'F'} {status:8} {note.text}\n      {why}")
            counts = tally(served)
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    except AnchormemError as exc:
        print(f"anchormem: {exc}", file=sys.stderr)
        return exit_code(exc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
