"""The operations of the memory service, one registration each, and how each is offered:
as an MCP tool, as an ``anchormem`` command, or only to the store's owner's clients.

``OPERATIONS`` is keyed by the name of the call (``store.service_api.Service``, which says
which calls may be sent again to a new owner). From it ``server.app`` registers the tools,
``server.cli`` adds the store's subcommands and runs them, and ``server.owner`` answers
its clients' calls and commands. A tool's function is ``server.tools.<name>``: its
signature is the input schema and its docstring the description the model reads. It is
kept apart because it is written in the MCP SDK's types, which neither the CLI nor the
owner imports (a CLI call through the owner imports neither the SDK nor pydantic).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store.service_api import RESENDABLE

if TYPE_CHECKING:
    from store.service import MemoryService

__all__ = [
    "COMMANDS",
    "OPERATIONS",
    "RESENDABLE_COMMANDS",
    "Argument",
    "Command",
    "OneOf",
    "Operation",
    "Tool",
]

Args = Mapping[str, Any]  # a parsed command line, by destination


@dataclass(frozen=True)
class Tool:
    """An operation as an MCP tool: its title, the hints of its annotations (every tool
    is closed-world), and its output model (a ``server.schemas`` name, which the return
    annotation of ``server.tools.<name>`` names too). ``relayed``: an agent's every-turn
    call, answered by the owner straight from the relayed frame (``server.direct``)."""

    title: str
    out: str
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = True
    relayed: bool = False


@dataclass(frozen=True)
class Argument:
    """One ``add_argument`` of a command: its flags and options as argparse takes them."""

    flags: tuple[str, ...]
    options: Mapping[str, Any]

    def add_to(self, parser: argparse.ArgumentParser | argparse._ActionsContainer) -> None:
        parser.add_argument(*self.flags, **self.options)


def arg(*flags: str, **options: Any) -> Argument:
    return Argument(flags, options)


@dataclass(frozen=True)
class OneOf:
    """Arguments of which exactly one must be given."""

    arguments: tuple[Argument, ...]

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group(required=True)
        for one in self.arguments:
            one.add_to(group)


Shown = Callable[[], dict[str, Any]]


@dataclass(frozen=True)
class Command:
    """An operation as an ``anchormem`` subcommand: its name (default: the operation's),
    help, arguments, and how a parsed command line calls the service. ``facts``: what
    the CLI adds to the rendered result where the store is (``server.cli_facts``), given
    the service, the arguments and the call. ``reads``: it only reads the store, so with
    no owner running the CLI answers it in its own process (``server.cli``)."""

    help: str
    call: Callable[[MemoryService, Args], object]
    arguments: tuple[Argument | OneOf, ...] = ()
    name: str = ""
    reads: bool = False
    facts: Callable[[MemoryService, Args, Shown], dict[str, Any]] | None = None

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        for one in self.arguments:
            one.add_to(parser)

    def run(self, service: MemoryService, args: Args) -> dict[str, Any]:
        """The command's result, rendered as the MCP tools render it, with its facts:
        what the CLI prints, and what the owner sends a CLI that asked it to run one."""
        from server.rendering import dump, render_result

        def shown() -> dict[str, Any]:
            return dump(render_result(self.call(service, args)))

        return shown() if self.facts is None else self.facts(service, args, shown)


@dataclass(frozen=True)
class Operation:
    """One call of the service (``name``), and how it is offered."""

    name: str
    tool: Tool | None = None
    command: Command | None = None

    @property
    def resendable(self) -> bool:
        return self.name in RESENDABLE


def _wait(service: MemoryService) -> float | None:
    """A person at a terminal waits for the check instead of reading "unchecked"."""
    return service.settings.capture_wait_s


def _progress_bar(enabled: bool) -> Callable[[int, int], None] | None:
    if not enabled:
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / total) if total else width
        sys.stderr.write(
            f"\rfingerprinting [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _verify_changes(service: MemoryService, args: Args, shown: Shown) -> dict[str, Any]:
    from server import cli_facts

    # The statuses the last checks left, read before this one changes them.
    before = service.stored([str(args["id"]).strip()] if args["id"] else None)
    result = shown()
    after = service.stored(list(before))
    return {**result, "changes": cli_facts.verify_changes(before, after)}


def _review_facts(service: MemoryService, _args: Args, shown: Shown) -> dict[str, Any]:
    from server import cli_facts

    result = shown()
    ids = [str(i["id"]) for i in result.get("items") or []]
    return cli_facts.review_facts(result, service.stored(ids))


def _uncovered_facts(_service: MemoryService, _args: Args, shown: Shown) -> dict[str, Any]:
    from server import cli_facts

    return cli_facts.uncovered_facts(shown())


_REASON = arg("--reason", required=True)
_LONG = arg("--long", action="store_true", help="each memory in full, with its anchors")

_REGISTERED = (
    Operation(
        "remember",
        Tool("Remember a note", "Remembered", relayed=True),
        Command(
            "store a memory, capturing its anchors into the code",
            lambda s, a: s.remember(
                a["text"],
                subject=a["subject"],
                kind=a["kind"],
                source=a["source"],
                origin=a["origin"],
                anchors=a["anchor"],
                derived_from=a["derived_from"],
                scope=a["scope"],
                attribute=a["attribute"],
                value=a["value"],
            ),
            (
                arg("text"),
                arg("--subject", help="the file, module or component it is about"),
                arg(
                    "--kind", default="fact", help="decision, fact, convention, ... (default fact)"
                ),
                arg("--source", default="user", help="user, agent, code, ci or doc (default user)"),
                arg("--origin", help="who or which session says so"),
                arg(
                    "--anchor",
                    action="append",
                    default=None,
                    metavar="ANCHOR",
                    help="e.g. import:duckdb@store/db.py, !dep:redis (repeatable)",
                ),
                arg("--derived-from", action="append", default=None, metavar="ID"),
                arg("--scope", help="the context it holds in, e.g. staging or production"),
                arg("--attribute", help="the slot it fills, e.g. 'python version' (with --value)"),
                arg("--value", help="the slot's value, e.g. 3.12 (with --attribute)"),
            ),
        ),
    ),
    Operation(
        "recall",
        Tool("Recall notes", "Recalled", read_only=True, relayed=True),
        Command(
            "find memories, each checked against the code at HEAD",
            lambda s, a: s.recall(a["query"], a["limit"], a["include_refuted"], wait_s=_wait(s)),
            (
                arg("query"),
                arg("--limit", type=int, default=10),
                arg("--include-refuted", action="store_true"),
            ),
            reads=True,
        ),
    ),
    Operation(
        "retract",
        Tool("Retract a wrong note", "Retracted", destructive=True),
        Command(
            "mark a memory as wrong, with a receipt",
            lambda s, a: s.retract(a["id"], a["reason"], None, a["evidence"]),
            (arg("id"), _REASON, arg("--evidence")),
        ),
    ),
    Operation(
        "restore",
        command=Command(
            "undo a retraction, with a receipt",
            lambda s, a: s.restore(a["id"], a["reason"]),
            (arg("id"), _REASON),
        ),
    ),
    Operation(
        "forget",
        command=Command(
            "erase a memory's text for privacy, leaving a tombstone",
            lambda s, a: s.forget(a["id"], a["reason"]),
            (arg("id"), _REASON),
        ),
    ),
    Operation(
        "supersede",
        Tool("Supersede a note", "Superseded", idempotent=False),
        Command(
            "replace a memory's text by a new memory that supersedes it",
            lambda s, a: s.supersede(a["id"], a["text"], a["reason"], subject=a["subject"]),
            (
                arg("id"),
                arg("text", help="the new text"),
                arg("--reason", help="why the old text no longer holds"),
                arg("--subject", help="the new memory's subject (default: the old one's)"),
            ),
        ),
    ),
    Operation(
        "show",
        command=Command(
            "one memory with its anchors and receipts",
            lambda s, a: s.show(a["id"], wait_s=_wait(s)),
            (arg("id"),),
            reads=True,
            facts=_uncovered_facts,
        ),
    ),
    Operation(
        "list_memories",
        command=Command(
            "memories, newest first, one line each",
            lambda s, a: s.list_memories(a["status"], a["limit"], wait_s=_wait(s)),
            (
                # Closed sets are matched without regard to case (--status refuted), as in
                # parse_choice.
                arg("--status", type=str.upper, choices=["ACTIVE", "VERIFIED", "REFUTED"]),
                arg("--limit", type=int, default=50),
                _LONG,
            ),
            name="list",
            reads=True,
        ),
    ),
    Operation(
        "audit",
        command=Command(
            "the audit trail of one memory, or of the store",
            lambda s, a: s.audit(a["id"]),
            (arg("id", nargs="?"),),
            reads=True,
        ),
    ),
    Operation(
        "verify",
        Tool("Verify notes now", "Verified", read_only=True),
        Command(
            "check memories against the code at HEAD now, and say what changed",
            lambda s, a: s.verify(a["id"], progress=_progress_bar(sys.stderr.isatty())),
            (arg("id", nargs="?"), _LONG),
            facts=_verify_changes,
        ),
    ),
    Operation(
        "observe",
        Tool("Record evidence", "Observed", idempotent=False),
        Command(
            "record evidence that confirms or contradicts a memory",
            lambda s, a: s.observe(
                a["id"], a["agrees"], a["kind"], a["source"], a["origin"], a["note"], a["weight"]
            ),
            (
                arg("id"),
                OneOf(
                    (
                        arg("--confirms", dest="agrees", action="store_true", default=None),
                        arg("--contradicts", dest="agrees", action="store_false"),
                    )
                ),
                arg(
                    "--kind",
                    default="behaviour",
                    help="correction, behaviour, exception, proxy, report or restatement",
                ),
                arg("--source", default="user", help="user, agent, code, ci or doc"),
                arg("--origin", help="who or which session observed it"),
                arg("--note", help="the corrected claim (correction) or the explanation"),
                arg("--weight", type=float, help="0-1; overrides the kind's default weight"),
            ),
        ),
    ),
    Operation(
        "consolidate",
        Tool("Resolve contradictions", "Consolidated"),
        Command(
            "find and resolve contradictions across the whole store",
            lambda s, _: s.consolidate(),
        ),
    ),
    Operation(
        "resolve",
        Tool("Judge a pair of notes", "Resolved", destructive=True, idempotent=False),
        Command(
            "judge a pair of memories that may conflict (the resolve tool)",
            lambda s, a: s.resolve(a["first"], a["second"], a["verdict"], a["winner"], a["reason"]),
            (
                arg("first", metavar="ID"),
                arg("second", metavar="OTHER_ID"),
                arg(
                    "verdict",
                    choices=["conflict", "compatible", "same"],
                    help="conflict (with --winner): the loser is refuted; compatible: both "
                    "hold; same: one claim said twice",
                ),
                arg("--winner", metavar="ID", help="with conflict: the memory that holds"),
                _REASON,
            ),
        ),
    ),
    Operation(
        "conflicts",
        command=Command(
            "open and resolved contradictions, and slots that keep flipping",
            lambda s, _: s.conflicts(),
            reads=True,
        ),
    ),
    Operation(
        "review",
        Tool("Review queue", "ReviewOut", idempotent=False),
        Command(
            "memories that need a person: ASK, DEMOTE, STALE, and this week's question",
            lambda s, _: s.review(),
            reads=True,
            facts=_review_facts,
        ),
    ),
    Operation(
        "stats",
        command=Command("wrong-fact and missed-fact signals", lambda s, _: s.stats(), reads=True),
    ),
    Operation("digest"),  # the resource anchormem://digest
)


OPERATIONS: dict[str, Operation] = {op.name: op for op in _REGISTERED}
# The store's subcommands, by command name, in the order ``anchormem --help`` lists them.
COMMANDS: dict[str, Command] = {
    op.command.name or op.name: op.command for op in _REGISTERED if op.command is not None
}
# Commands a CLI may send again to a new owner when the one running them died first.
RESENDABLE_COMMANDS = frozenset(
    op.command.name or op.name for op in _REGISTERED if op.command is not None and op.resendable
)
