"""One registry of the service's operations (``server.operations.OPERATIONS``, issue #33):
the MCP tools a client lists, the CLI's store subcommands, what the store's owner answers
and what ``RemoteService`` can call all come from it, and it covers every call of the
service's Protocol (``store.service_api.Service``) that both services implement."""

from __future__ import annotations

import argparse
import inspect
from typing import Any, cast

import pytest
from mcp import Client

from server import tools
from server.app import build_server
from server.cli import build_parser
from server.config import Settings
from server.operations import COMMANDS, OPERATIONS
from server.owner import CALLS, Owner
from store.errors import InvalidInput
from store.service import MemoryService
from store.service_api import CALLS as SERVICE_CALLS
from store.service_api import RESENDABLE, Service
from store.sharing.remote import RemoteService

pytestmark = pytest.mark.anyio

TOOLS = {name for name, op in OPERATIONS.items() if op.tool is not None}
# The subcommands that are not a call of the service: they run elsewhere.
NOT_STORE_CALLS = {"export", "import", "doctor", "completion", "bench", "serve", "ui", "setup"}
NOT_STORE_CALLS |= {"experiment", "migrate"}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(found.choices)


async def test_the_mcp_tools_listed_are_the_registered_ones(settings: Settings) -> None:
    async with Client(build_server(settings)) as client:
        listed = (await client.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    assert len(TOOLS) >= 9
    for one in listed:
        registered = OPERATIONS[one.name].tool
        assert registered is not None and one.annotations is not None
        assert one.annotations.title == registered.title
        assert one.annotations.read_only_hint == (registered.read_only or None)
        assert one.annotations.open_world_hint is False
        # the output model the registry names is the one the function returns
        assert one.output_schema is not None


def test_each_tool_function_is_registered_and_each_registered_tool_has_one() -> None:
    functions = {
        name
        for name, fn in vars(tools).items()
        if inspect.iscoroutinefunction(fn) and fn.__module__ == tools.__name__
        and not name.startswith("_")
    }  # fmt: skip
    assert functions == TOOLS


def test_the_cli_store_subcommands_are_the_registered_commands() -> None:
    parsers = subcommands(build_parser(with_bench=False))
    assert set(parsers) - NOT_STORE_CALLS == set(COMMANDS)
    assert COMMANDS["list"] is OPERATIONS["list_memories"].command
    for name, command in COMMANDS.items():
        declared = argparse.ArgumentParser(add_help=False)
        command.add_arguments(declared)
        # each subcommand's arguments are its registered ones, and the global options
        assert {a.dest for a in parsers[name]._actions} - {"help", "repo", "db", "json"} == {
            a.dest for a in declared._actions
        }, name


def test_the_owner_answers_the_registered_calls_and_commands(settings: Settings) -> None:
    assert set(OPERATIONS) == CALLS
    owner = Owner(settings, idle_s=60.0)  # nothing is opened before it runs
    nothing = cast(MemoryService, None)  # a refused command never reaches the service
    for refused in (*sorted(NOT_STORE_CALLS), "list_memories", "drop"):
        with pytest.raises(InvalidInput, match="unknown command"):
            owner._cli(nothing, {"command": refused, "args": {}})
    with pytest.raises(InvalidInput, match="unknown call"):
        owner._call(nothing, {"method": "stored", "args": [], "kwargs": {}})


def test_remote_service_calls_exactly_the_registered_operations() -> None:
    remote = RemoteService(cast(Any, None))  # no link is used: nothing is sent
    for name in OPERATIONS:
        assert callable(getattr(remote, name))
    for name in ("stored", "export", "import_lines", "warm", "settings", "db"):
        assert not hasattr(remote, name)


def test_every_call_of_the_protocol_is_registered_and_both_services_have_it() -> None:
    assert set(OPERATIONS) == SERVICE_CALLS
    assert {"remember", "recall", "verify", "digest"} <= SERVICE_CALLS
    for name in SERVICE_CALLS:
        assert _shape(getattr(MemoryService, name)) == _shape(getattr(Service, name)), name
    resendable = {name for name, op in OPERATIONS.items() if op.resendable}
    assert resendable == RESENDABLE and "observe" not in resendable
    relayed = {name for name, op in OPERATIONS.items() if op.tool and op.tool.relayed}
    assert relayed and relayed <= resendable  # the relay sends its frames again


def _shape(fn: Any) -> list[tuple[str, Any, Any]]:
    """A signature without its annotations (written differently in the two modules)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def _typed(local: MemoryService, remote: RemoteService) -> list[Service]:
    """For the type checker: both services are a ``Service``."""
    return [local, remote]
