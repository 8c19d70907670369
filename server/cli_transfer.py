"""``anchormem export`` and ``import`` at the terminal. A thin skin: the rules are in
``store.transfer``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from server.cli_tables import table, terminal_width
from store.errors import InvalidInput
from store.service import MemoryService
from store.transfer import ImportOutcome, ImportReport

__all__ = ["import_report", "read_import", "run_transfer"]

EXIT_OK, EXIT_FAILURE = 0, 1


def run_transfer(
    args: argparse.Namespace, service: MemoryService, as_json: bool, lines: list[str]
) -> int:
    """``export``, or ``import`` of ``lines`` (``read_import``)."""
    if args.command == "export":
        return _export(service, args.status, args.out)
    return _import(service, lines, as_json)


def _export(service: MemoryService, statuses: list[str] | None, out: str | None) -> int:
    lines = service.export(statuses)
    if out is None:
        counted = _Counted()
        for line in lines:
            sys.stdout.write(line + "\n")
            counted.add(line)
        sys.stdout.flush()
        print(f"anchormem: exported {counted}", file=sys.stderr)
        return EXIT_OK
    target = Path(out)
    if target.is_dir():
        raise InvalidInput(f"{out} is a directory; give a file name")
    if not target.parent.is_dir():
        raise InvalidInput(f"the directory of {out} does not exist")
    # Written beside the target and renamed over it: a failed export leaves the old file.
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    counted = _Counted()
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            for line in lines:
                fh.write(line + "\n")
                counted.add(line)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    print(f"anchormem: exported {counted} to {out}", file=sys.stderr)
    return EXIT_OK


class _Counted:
    def __init__(self) -> None:
        self.memories = self.conflicts = 0

    def add(self, line: str) -> None:
        if line.startswith('{"type":"memory"'):
            self.memories += 1
        elif line.startswith('{"type":"conflict"'):
            self.conflicts += 1

    def __str__(self) -> str:
        return f"{self.memories} memories and {self.conflicts} conflict-log rows"


def read_import(name: str) -> list[str]:
    """The lines of the file ``import`` reads (``-``: stdin), read before the store is
    opened: a missing or unreadable file costs nothing."""
    if name == "-":
        return sys.stdin.read().splitlines()
    path = Path(name)
    if not path.is_file():
        raise InvalidInput(f"no such file: {name}")
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise InvalidInput(f"{name} is not UTF-8 text: not an anchormem export") from None


def _import(service: MemoryService, lines: list[str], as_json: bool) -> int:
    report = service.import_lines(lines)
    result = import_report(report)
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(_report_text(result))
    return EXIT_FAILURE if report.count(ImportOutcome.REFUSED) else EXIT_OK


def import_report(report: ImportReport) -> dict[str, Any]:
    """The report as JSON: the counts, how many lines were added with less trust than
    their file claimed, and one entry per line (``downgraded``: what was lowered)."""
    counts = {o.value: report.count(o) for o in ImportOutcome}
    return {
        **counts,
        "downgraded": len(report.downgraded),
        "conflicts": report.conflicts,
        "lines": [
            {
                k: v
                for k, v in (
                    ("line", line.line),
                    ("id", line.id),
                    ("outcome", line.outcome.value),
                    ("into", line.into),
                    ("detail", line.detail),
                    ("downgraded", list(line.downgraded)),
                )
                if v not in (None, "", [])
            }
            for line in report.lines
        ],
    }


def _report_text(result: dict[str, Any]) -> str:
    head = (
        f"added {result['added']}, merged {result['merged']}, unchanged {result['unchanged']},"
        f" refused {result['refused']}; {result['conflicts']} conflict-log rows added"
    )
    if result["downgraded"]:
        head += f"; {result['downgraded']} added with less trust than the file claimed"
    shown = [
        line for line in result["lines"] if line["outcome"] != "unchanged" or line.get("detail")
    ]
    if not shown:
        return head
    rows = [
        [
            str(line["line"]),
            line.get("id", "-"),
            line["outcome"],
            line_detail(line),
        ]
        for line in shown
    ]
    return head + "\n" + table(["LINE", "ID", "OUTCOME", "DETAIL"], rows, terminal_width())


def line_detail(line: dict[str, Any]) -> str:
    """What an import's report says of one line beyond its outcome: the memory it was
    merged into, why, what was downgraded."""
    parts = (
        f"into {line['into']}" if "into" in line else "",
        line.get("detail", ""),
        "downgraded: " + "; ".join(line["downgraded"]) if "downgraded" in line else "",
    )
    return "; ".join(p for p in parts if p)
