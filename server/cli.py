"""The ``anchormem`` command: a thin skin over the memory service.

Exit codes: 0 ok, 1 failure, 2 usage or invalid input, 3 not found. Errors are one line
on stderr. Output is JSON with ``--json`` or when stdout is not a terminal; at a terminal,
text wrapped at word boundaries (``list`` one line per memory, ``review`` and ``conflicts``
as tables: ``render``, ``cli_tables``), in colour unless ``NO_COLOR`` is set (adr/0024).
A command's changes are recorded as the person's (``user``), not the agent's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from server.cli_tables import conflicts_table, review_table, terminal_width
from server.colour import palette_for
from server.operations import COMMANDS
from server.setup_clients import add_setup_arguments
from store.errors import AnchormemError, InvalidInput, NotFound

if TYPE_CHECKING:
    from server.config import Settings

# The store, the service and the renderer are imported when a command needs them, so
# that `--version` and `--help` answer at once (importing them costs about a second).

# Commands a process runs on the store itself, even when an owner serves it: they read
# or write a file of the person's (the owner's working directory is not theirs).
_LOCAL_COMMANDS = frozenset({"export", "import"})

# Commands that read the store (``Command.reads``; what verify-on-read changes is written
# as in any call). With no owner running, they are answered in this process, the store
# opened under its lease as with ``ANCHORMEM_SHARE=0`` (adr/0012: the owner takes the same
# lease, so the two mix safely), instead of starting an owner for one answer: an owner's
# start is a second interpreter's imports, a standby and a store loaded whole, for a
# process that then idles. A command that changes memories still starts one.
_READING_COMMANDS = frozenset(name for name, command in COMMANDS.items() if command.reads)

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_FAILURE",
    "EXIT_NOT_FOUND",
    "EXIT_OK",
    "EXIT_USAGE",
    "build_parser",
    "main",
]

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_NOT_FOUND = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2
        # argparse echoes the offending argument as typed: escape control characters so
        # a line break cannot split the error and no escape sequence reaches a terminal.
        safe = "".join(
            ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
            for ch in message
        )
        self.exit(EXIT_USAGE, f"anchormem: {safe} (see --help)\n")


class _Version(argparse.Action):
    """``--version``, with the version read only when it is asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "show program's version number and exit") -> None:  # fmt: skip
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:  # fmt: skip
        from anchormem import __version__

        print(f"anchormem {__version__}")  # on stdout, as argparse's own version action
        parser.exit()


def build_parser(with_bench: bool = True) -> argparse.ArgumentParser:
    """The command's parser; ``with_bench`` False leaves out ``bench``'s own options, which
    import the benchmark (tens of milliseconds) for a call that never runs it."""

    def global_options(suppress: bool) -> _Parser:
        # Subcommands repeat the global options with SUPPRESS defaults, so that
        # `anchormem --db X list` and `anchormem list --db X` mean the same.
        extra: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
        opts = _Parser(add_help=False)
        opts.add_argument(
            "--repo", help="the git repository (default: the one around the cwd)", **extra
        )
        opts.add_argument(
            "--db",
            help="the store file (default: this checkout's, in ANCHORMEM_HOME), or a team's"
            " shared store: postgresql://user@host/db",
            **extra,
        )
        opts.add_argument(
            "--json", action="store_true", help="print JSON (default when piped)", **extra
        )
        return opts

    common = global_options(suppress=True)

    parser = _Parser(
        prog="anchormem",
        description="Memories for coding agents, checked against the code before they are served.",
        parents=[global_options(suppress=False)],
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text, parents=[common])

    for name, command in COMMANDS.items():
        command.add_arguments(add(name, command.help))
        if name == "supersede":  # the transfer commands, listed after it
            p = add("export", "write memories as JSON Lines, to keep them beside the code")
            p.add_argument(
                "--status",
                action="append",
                type=str.upper,
                choices=["ACTIVE", "VERIFIED", "REFUTED", "FORGOTTEN"],
                help="only memories with this status (repeatable; default: all, tombstones "
                "included)",
            )
            p.add_argument("--out", metavar="FILE", help="the file to write (default: stdout)")
            p = add("import", "read memories from an export file; importing twice changes nothing")
            p.add_argument("file", metavar="FILE", help="an export file ('-': stdin)")
            p = add(
                "migrate",
                "copy the memories of one store into another: this repository's into a shared"
                " store (--to postgresql://...), or back (--from postgresql://...); the source"
                " is only read, and running it again adds nothing",
            )
            p.add_argument(
                "--to",
                dest="target",
                metavar="STORE",
                help="the destination: a postgresql:// address or a .duckdb file (default:"
                " this repository's embedded store, or --db FILE)",
            )
            p.add_argument(
                "--from",
                dest="source",
                metavar="STORE",
                help="the source: a postgresql:// address or a .duckdb file (default: this"
                " repository's embedded store, or --db FILE)",
            )
            p.add_argument(
                "--project",
                metavar="NAME",
                help="the shared store's project (default: ANCHORMEM_PROJECT, else named by"
                " the repository's first commit, as for serve)",
            )
            p.add_argument(
                "--progress-every",
                type=int,
                default=1000,
                metavar="N",
                help="say on stderr every N memories read (default 1000; 0: never)",
            )

    add("doctor", "check the store, its lock, its schema and the repository")

    p = add("completion", "print the shell completion script for bash, zsh or fish")
    p.add_argument("shell", choices=["bash", "zsh", "fish"], help="the shell")

    p = add("bench", "time the fingerprint and recall with verification (README: Benchmarks)")
    if with_bench:
        from benchmarks.recall import add_arguments as add_bench_arguments

        add_bench_arguments(p, with_repo=False)  # --repo PATH: also time a cold fingerprint

    p = add("serve", "run the MCP server (stdio by default)")
    p.add_argument("--transport", type=str.lower, choices=["stdio", "http"], default="stdio")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765, help="HTTP port (0: any free port)")
    p.add_argument(
        "--token-env",
        default="ANCHORMEM_HTTP_TOKEN",
        metavar="NAME",
        help="the environment variable holding the HTTP bearer token (default "
        "ANCHORMEM_HTTP_TOKEN); required off loopback, optional on it",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=None,
        metavar="HOST[:PORT]",
        help="a Host value HTTP clients may send (repeatable; default ANCHORMEM_ALLOWED_HOSTS; "
        "required off loopback)",
    )
    p.add_argument(
        "--allowed-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="an origin (http(s)://host[:port]) browsers may send (repeatable; default "
        "ANCHORMEM_ALLOWED_ORIGINS)",
    )
    p.add_argument(
        "--exposed",
        action="store_true",
        help="apply the non-loopback rules (token, explicit hosts) on a loopback bind too, "
        "e.g. behind a reverse proxy",
    )

    p = add("ui", "a local web page to inspect, search and curate the memories (127.0.0.1 only)")
    p.add_argument("--port", type=int, default=0, help="the port (default 0: any free port)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")

    add_setup_arguments(
        add("setup", "write the MCP server entry into a client's config (Claude, Cursor, VS Code)")
    )

    p = add("experiment", "run an experiment on anchormem itself")
    experiments = p.add_subparsers(dest="experiment", metavar="EXPERIMENT", parser_class=_Parser)
    experiments.required = True
    text = (
        "how many false memories reach an agent, per memory lifecycle (experiments/README.md); "
        "without --repo and --facts it builds its own repository and facts (--db is not used)"
    )
    p = experiments.add_parser("contamination", help=text, description=text, parents=[common])
    p.add_argument("--facts", help="a JSONL fact set (default: the built-in facts)")
    p.add_argument(
        "--out", help="the results folder (default: ~/.cache/anchormem/results/contamination)"
    )
    p.add_argument("--per-category", type=int, metavar="N", help="at most N facts per category")
    p.add_argument("--keep-workdir", action="store_true", help="keep the scratch repository")
    p.add_argument(
        "--corpus",
        type=str.lower,
        choices=("fixture", "real"),
        default="fixture",
        help="real: the truth benchmark over PyPI projects (experiments.truth_benchmark)",
    )
    p.add_argument("--project", action="append", metavar="NAME", help="with --corpus real")
    return parser


def _no_owner(settings: Settings) -> bool:
    """Whether no owner holds the store's owner lock (none runs, or one was killed and
    its standby has not taken over yet: that one then waits for this call's lease)."""
    from server.sharing import owner_link

    link = owner_link(settings)
    try:
        return link.owner_gone()
    finally:
        link.close()


# A reader that stopped early (`anchormem list | head -1`): exit quietly, with the status
# of a process ended by SIGPIPE, as Unix tools do.
EXIT_BROKEN_PIPE = 128 + 13


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            code = _main(argv)
        finally:  # also after argparse's exit: here a closed pipe can still be caught
            sys.stdout.flush()
        return code
    except BrokenPipeError:
        # Python would report the failed flush again at exit: stdout goes nowhere now.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


_NEEDS_BENCH = frozenset({"bench", "completion"})


def _main(argv: Sequence[str] | None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # `bench` parses its own options and `completion` completes them; other calls skip them.
    parser = build_parser(with_bench=any(w in _NEEDS_BENCH for w in words))
    args = parser.parse_args(words)
    as_json = args.json or not sys.stdout.isatty()
    try:
        if args.command == "experiment" and args.corpus == "real":
            from experiments.truth_benchmark import run_cli as run_benchmark

            return run_benchmark(args, as_json)
        if args.command == "experiment":
            from experiments.contamination import run_cli

            return run_cli(args, as_json)
        if args.command == "bench":  # its own temporary repository and stores
            from benchmarks.recall import main as bench_main

            return bench_main(args)
        if args.command == "setup":
            from server.setup_clients import run_setup

            return run_setup(args)
        if args.command == "completion":
            from server.completion import script

            sys.stdout.write(script(parser, args.shell))
            return EXIT_OK
        if args.command == "migrate":  # two stores, each resolved and opened by it
            from server.cli_migrate import run_migrate

            return run_migrate(args, as_json)
        if args.command == "export" and args.out is None and sys.stdout.isatty():
            raise InvalidInput(
                "export writes JSON Lines, not text for a terminal: give --out FILE,"
                " or redirect it (anchormem export > memories.jsonl)"
            )
        from server.config import Settings

        # A command typed at the CLI is the person's; the MCP server's calls are the
        # agent's (``ANCHORMEM_ACTOR`` names someone else for both).
        settings = Settings.resolve(args.repo, args.db, person=args.command != "serve")
        if args.command == "serve":
            if args.transport == "http":
                from server.http_security import read_token, refuse_unsafe

                refuse_unsafe(
                    args.host,
                    args.port,
                    # from a copy: the server reads the variable again (and removes it)
                    token=read_token(args.token_env, dict(os.environ)),
                    allowed_hosts=args.allowed_host or settings.http_allowed_hosts,
                    allowed_origins=args.allowed_origin or settings.http_allowed_origins,
                    exposed=args.exposed,
                )
            if args.transport == "stdio" and settings.share and settings.relay:
                # The owner runs the session; this process only pipes (adr/0035).
                from server.pipe import serve_piped, startup_line
                from server.sharing import owner_link

                if sys.stderr.isatty():
                    print(startup_line(settings), file=sys.stderr, flush=True)
                return serve_piped(settings, owner_link(settings))
            if settings.share:
                from server.sharing import start_owner_early

                start_owner_early(settings)  # it loads while this process loads the SDK
            from server.serve import serve, startup_line

            if args.transport == "stdio" and sys.stderr.isatty():
                print(startup_line(settings), file=sys.stderr, flush=True)
            return serve(
                settings,
                args.transport,
                args.host,
                args.port,
                token_env=args.token_env,
                allowed_hosts=args.allowed_host or (),
                allowed_origins=args.allowed_origin or (),
                exposed=args.exposed,
            )
        if args.command == "ui":
            from server.ui.app import run_ui

            return run_ui(settings, args.port, args.open)
        if args.command == "doctor":
            from server.doctor import run_doctor

            result = run_doctor(settings)
            code = EXIT_OK if all(c["ok"] for c in result["checks"]) else EXIT_FAILURE
        elif (
            settings.share
            and args.command not in _LOCAL_COMMANDS
            and not (args.command in _READING_COMMANDS and _no_owner(settings))
        ):
            # Run and rendered by the store's owner (adr/0012).
            from server.sharing import cli_call

            result = cli_call(settings, args)
            code = EXIT_OK
        else:
            from server.runtime import open_runtime

            lines: list[str] = []
            if args.command == "import":
                from server.cli_transfer import read_import

                lines = read_import(args.file)
            rt = open_runtime(settings)
            try:
                if args.command in ("export", "import"):
                    from server.cli_transfer import run_transfer

                    return run_transfer(args, rt.service, as_json, lines)
                result = COMMANDS[args.command].run(rt.service, vars(args))
            finally:
                rt.close()
            code = EXIT_OK
    except NotFound as exc:
        print(f"anchormem: {exc}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except InvalidInput as exc:
        print(f"anchormem: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except AnchormemError as exc:
        print(f"anchormem: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        raise  # main(): the reader went away, not a bug
    except Exception as exc:  # the top-level safety net: a bug, in one line (details on request)
        if os.environ.get("ANCHORMEM_DEBUG"):
            raise
        print(
            f"anchormem: internal error ({type(exc).__name__}); set ANCHORMEM_DEBUG=1 for details",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return code
    palette = palette_for(sys.stdout)
    if args.command == "review":
        print(review_table(result, terminal_width(), palette))
    elif args.command == "conflicts":
        print(conflicts_table(result, terminal_width()))
    else:
        from server.render import render

        long, limit = getattr(args, "long", False), getattr(args, "limit", None)
        print(render(args.command, result, terminal_width(), palette, long=long, limit=limit))
    return code


if __name__ == "__main__":
    sys.exit(main())
