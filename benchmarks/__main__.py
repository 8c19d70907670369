"""``python -m benchmarks NAME [OPTIONS]``: run one benchmark (``NAME --help`` for its options)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

COMMANDS = {
    "latency": ("benchmarks.latency", "remember and recall over MCP stdio, beside the floor"),
    "layers": ("benchmarks.layers", "a call's time in-process: service, then in-memory MCP"),
    "recall": ("benchmarks.recall", "fingerprint and in-process verified recall (anchormem bench)"),
    "fingerprint": ("benchmarks.fingerprint", "fingerprint timings, serial vs pool sweep"),
    "overlay": ("benchmarks.overlay", "the work-tree overlay against git status, per call"),
    "store-sharing": ("benchmarks.store_sharing", "one DuckDB file shared between processes"),
    "reference-memory": (
        "benchmarks.reference_memory",
        "the MCP reference memory server (npm), driven as store-sharing's loop client",
    ),
    "consolidate": ("benchmarks.consolidate", "a consolidate pass over 10,000 memories"),
    "drain": ("benchmarks.drain", "writing the journal into the tables (a drain), in-process"),
    "conflict_check": ("benchmarks.conflict_check", "a remember's contradiction check, in-process"),
    "recall-quality": ("benchmarks.recall_quality", "recall@5 and MRR of paraphrased questions"),
    "prose": ("benchmarks.prose", "reading anchors from prose notes, in-process, against DIR"),
    "surface": ("benchmarks.surface", "bytes an agent is handed: a recall of 10, tools/list"),
    "redaction": ("benchmarks.redaction", "texts of this project that secret redaction changes"),
    "footprint": (
        "benchmarks.footprint",
        "resident memory of one repository in use; a cold read-only CLI call; beside floors",
    ),
    "footprint-takeover": (
        "benchmarks.footprint_takeover",
        "the wait after the store's owner is killed: standby always, by default, never",
    ),
    "shared-store": (
        "benchmarks.shared_store",
        "DuckDB beside PostgreSQL: one process at 10k/100k memories; 8 servers on two clones",
    ),
    "ui": ("benchmarks.ui", "the web inspector's pages at 10,000 memories, beside a floor page"),
}


def _usage() -> str:
    lines = ["usage: python -m benchmarks NAME [OPTIONS]   (NAME --help for its options)", ""]
    lines += [f"  {name:<16} {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"benchmarks: unknown benchmark {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest))


if __name__ == "__main__":
    raise SystemExit(main())
