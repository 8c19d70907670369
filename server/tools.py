"""The MCP tools' functions, registered from ``server.operations`` by ``server.app``: each
one's signature is its input schema and its docstring the description the model reads.

A tool is thin: it takes the validated arguments, calls its service method in a worker
thread, and shapes the result. Anticipated failures become ``ToolError`` (the model sees
``isError`` with a message it can act on); nothing else leaks.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import BeforeValidator, Field

from server.operations import OPERATIONS
from server.rendering import ToolContent, tool_content
from server.runtime import AnyRuntime as Runtime
from server.schemas import (
    Consolidated,
    Observed,
    Recalled,
    Remembered,
    Resolved,
    Retracted,
    ReviewOut,
    Superseded,
    Verified,
)
from store.contradictions.judging import Judgement
from store.errors import AnchormemError, NotFound
from store.evidence.observations import ObservationKind
from store.limits import (
    MAX_ANCHORS,
    MAX_ORIGIN_CHARS,
    MAX_QUERY_CHARS,
    MAX_REASON_CHARS,
    MAX_RECALL_LIMIT,
    MAX_SUBJECT_CHARS,
    MAX_TEXT_CHARS,
)
from store.model import Kind, Source
from store.sharing.remote import RemoteService

if TYPE_CHECKING:
    from store.service import MemoryService
    from store.service_api import Service

__all__ = [
    "DirectCall",
    "consolidate",
    "observe",
    "recall",
    "remember",
    "resolve",
    "retract",
    "review",
    "supersede",
    "verify",
]


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


# A closed set in the input schema (the model sees the allowed values), matched
# case-insensitively ("Fact" is fact).
KindIn = Annotated[Kind, BeforeValidator(_lower)]
SourceIn = Annotated[Source, BeforeValidator(_lower)]
ObservationKindIn = Annotated[ObservationKind, BeforeValidator(_lower)]
JudgementIn = Annotated[Judgement, BeforeValidator(_lower)]


class DirectCall:
    """What a tool gets in place of the SDK's ``Context`` when the store's owner runs it on
    a frame relayed to it (``server.direct``, adr/0017): the service of the client's
    settings. The tool then runs on the thread that already serves that client."""

    def __init__(self, service: MemoryService) -> None:
        self.service = service


def runtime_of(ctx: Context[Runtime, Any]) -> Runtime:
    return ctx.request_context.lifespan_context


async def _call(
    ctx: Context[Runtime, Any] | DirectCall,
    method: str,
    *args: object,
    detail: bool = False,
    **kwargs: object,
) -> CallToolResult:
    """The tool's call of the service's ``method``: on a worker thread (the SDK's event
    loop must not wait for the store), or at once for the owner's direct call."""
    if isinstance(ctx, DirectCall):
        return _tool(ctx.service, method, *args, detail=detail, **kwargs)
    service = runtime_of(ctx).service
    return await anyio.to_thread.run_sync(
        lambda: _tool(service, method, *args, detail=detail, **kwargs)
    )


def _tool(
    service: Service, method: str, *args: object, detail: bool = False, **kwargs: object
) -> CallToolResult:
    """One tool call: the service's ``method`` and the agent's view of its result
    (``server.rendering.tool_content``), which must be the tool's output model. Every
    error of the tree (``store.errors``) becomes a ``ToolError`` the model can read;
    anything else is a bug, which the SDK reports without details. A store served by its
    owner (adr/0012) renders it there: this process relays the wire content, never
    decoding the typed result."""
    try:
        if isinstance(service, RemoteService):
            content = ToolContent(**service.tool(method, args, kwargs, detail))
        else:
            content = tool_content(method, getattr(service, method)(*args, **kwargs), detail)
    except NotFound as exc:
        raise ToolError(f"not found: {exc}") from None
    except AnchormemError as exc:
        raise ToolError(str(exc)) from None
    tool = OPERATIONS[method].tool
    if tool is None or content.model != tool.out:
        raise TypeError(f"{content.model} is not the output model of {method}")
    return CallToolResult(
        content=[TextContent(type="text", text=content.text)], structured_content=content.structured
    )


async def remember(
    text: Annotated[str, Field(max_length=MAX_TEXT_CHARS, description="The claim, one sentence.")],
    ctx: Context[Runtime, Any],
    subject: Annotated[
        str | None,
        Field(max_length=MAX_SUBJECT_CHARS, description="The file, module or component."),
    ] = None,
    kind: KindIn = Kind.FACT,
    source: SourceIn = Source.AGENT,
    origin: Annotated[
        str | None, Field(max_length=MAX_ORIGIN_CHARS, description="Session or user id.")
    ] = None,
    anchors: Annotated[
        list[str] | None,
        Field(
            max_length=MAX_ANCHORS,
            description="e.g. import:duckdb@store/db.py; default: read from the text.",
        ),
    ] = None,
    scope: Annotated[
        str | None,
        Field(
            max_length=MAX_SUBJECT_CHARS, description="e.g. 'staging'; 'external': never checked."
        ),
    ] = None,
    attribute: Annotated[
        str | None, Field(max_length=MAX_SUBJECT_CHARS, description="Slot it fills.")
    ] = None,
    value: Annotated[
        str | None, Field(max_length=MAX_SUBJECT_CHARS, description="The slot's value.")
    ] = None,
    derived_from: Annotated[list[str] | None, Field(description="Ids it derives from.")] = None,
) -> Annotated[CallToolResult, Remembered]:
    """Store a note about this repository, checked against the code."""
    return await _call(
        ctx,
        "remember",
        text,
        subject=subject,
        kind=kind,
        source=source,
        origin=origin,
        anchors=anchors,
        derived_from=derived_from,
        scope=scope,
        attribute=attribute,
        value=value,
    )


async def recall(
    query: Annotated[str, Field(max_length=MAX_QUERY_CHARS, description="What to look for.")],
    ctx: Context[Runtime, Any],
    limit: Annotated[int, Field(ge=1, le=MAX_RECALL_LIMIT, description="At most this many.")] = 10,
    include_refuted: Annotated[
        bool, Field(description="Also REFUTED ones (never act on them).")
    ] = False,
    min_score: Annotated[float, Field(ge=0, description="Leave out matches scoring less.")] = 0.0,
    detail: Annotated[bool, Field(description="Full records instead.")] = False,
) -> Annotated[CallToolResult, Recalled]:
    """Notes matching the query, best first, checked against the code at HEAD."""
    return await _call(
        ctx, "recall", query, limit, include_refuted, min_score=min_score, detail=detail
    )


async def retract(
    id: str,
    reason: Annotated[str, Field(max_length=MAX_REASON_CHARS, description="Why it is wrong.")],
    ctx: Context[Runtime, Any],
    evidence: Annotated[
        str | None, Field(max_length=MAX_TEXT_CHARS, description="What shows it.")
    ] = None,
) -> Annotated[CallToolResult, Retracted]:
    """Mark a memory wrong (REFUTED, with a receipt), and those derived from it."""
    return await _call(ctx, "retract", id, reason, None, evidence)


async def supersede(
    id: Annotated[str, Field(description="The memory to replace.")],
    text: Annotated[
        str, Field(max_length=MAX_TEXT_CHARS, description="The new text, one sentence.")
    ],
    ctx: Context[Runtime, Any],
    reason: Annotated[
        str | None, Field(max_length=MAX_REASON_CHARS, description="Why it no longer holds.")
    ] = None,
) -> Annotated[CallToolResult, Superseded]:
    """Replace a memory's text; the old one is REFUTED, with a receipt."""
    return await _call(ctx, "supersede", id, text, reason, source=Source.AGENT)


async def verify(
    ctx: Context[Runtime, Any],
    id: Annotated[str | None, Field(description="One memory id; default all.")] = None,
    detail: Annotated[bool, Field(description="Full records instead.")] = False,
) -> Annotated[CallToolResult, Verified]:
    """Check memories against the code at HEAD now."""
    service = runtime_of(ctx).service
    # The fingerprint is built on its own executor thread, not an AnyIO worker: name
    # the event loop, and never let a progress report fail the build.
    loop = anyio.lowlevel.current_token()

    def progress(done: int, total: int) -> None:
        with suppress(Exception):
            anyio.from_thread.run(
                ctx.report_progress,
                float(done),
                float(total),
                "fingerprinting the repository",
                token=loop,
            )

    return await anyio.to_thread.run_sync(
        lambda: _tool(service, "verify", id, progress=progress, detail=detail)
    )


async def observe(
    id: str,
    confirms: Annotated[bool, Field(description="Does the observation fit the memory?")],
    ctx: Context[Runtime, Any],
    kind: Annotated[
        ObservationKindIn,
        Field(
            description="correction: it changed (new claim in note); exception: explained one-off."
        ),
    ] = ObservationKind.BEHAVIOUR,
    source: SourceIn = Source.USER,
    origin: Annotated[
        str | None, Field(max_length=MAX_ORIGIN_CHARS, description="User or session id.")
    ] = None,
    note: Annotated[
        str | None, Field(max_length=MAX_TEXT_CHARS, description="Corrected claim, or why.")
    ] = None,
    weight: Annotated[float | None, Field(ge=0, le=1, description="Override weight.")] = None,
) -> Annotated[CallToolResult, Observed]:
    """Record evidence for or against a memory; a correction supersedes it."""
    return await _call(ctx, "observe", id, confirms, kind, source, origin, note, weight)


async def review(ctx: Context[Runtime, Any]) -> Annotated[CallToolResult, ReviewOut]:
    """Memories to review and questions for the user (answer with observe)."""
    return await _call(ctx, "review")


async def consolidate(ctx: Context[Runtime, Any]) -> Annotated[CallToolResult, Consolidated]:
    """Find and settle contradictions; judge possible_conflicts and related pairs with resolve."""
    return await _call(ctx, "consolidate")


async def resolve(
    first: str,
    second: str,
    verdict: Annotated[
        JudgementIn,
        Field(
            description="conflict: not both (give winner); compatible: both hold; "
            "same: one claim twice."
        ),
    ],
    reason: Annotated[str, Field(max_length=MAX_REASON_CHARS)],
    ctx: Context[Runtime, Any],
    winner: Annotated[str | None, Field(description="The id that holds now.")] = None,
    actor: Annotated[
        str | None, Field(max_length=MAX_ORIGIN_CHARS, description="Who judges (an id).")
    ] = None,
) -> Annotated[CallToolResult, Resolved]:
    """Judge a pair of memories that may conflict; it is never asked again."""
    return await _call(ctx, "resolve", first, second, verdict, winner, reason, actor)
