"""The output models are pinned to what they render: each closed set is the store's enum,
the agent's view of a memory fills exactly its model, each model has the fields of the
dataclass it renders, and every tool publishes typed input and output schemas."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import pytest
from mcp import Client
from pydantic import BaseModel

from server import schemas
from server.app import build_server
from server.config import Settings
from server.rendering import agent_memory, memory
from store.contradictions.judging import Judgement
from store.contradictions.rules import ConflictKind, ConflictState, Outcome, ReasonCode
from store.evidence.confidence import Band
from store.evidence.observations import Effect, ObservationKind
from store.evidence.review import ReviewAction
from store.evidence.settings import EvidenceSettings
from store.limits import MAX_REASON_CHARS
from store.model import Kind, Memory, Source, Status
from store.reading import Unchecked, UncheckedReason, read
from store.results import ConsolidateResult, Question, RememberOutcome, RetractOutcome, ReviewItem

PINNED: list[tuple[type[BaseModel], str, type[StrEnum]]] = [
    (schemas.AgentMemory, "status", Status),
    (schemas.AgentMemory, "band", Band),
    (schemas.Remembered, "outcome", RememberOutcome),
    (schemas.Superseded, "outcome", RememberOutcome),
    (schemas.Retracted, "status", Status),
    (schemas.Retracted, "outcome", RetractOutcome),
    (schemas.Observed, "effect", Effect),
    (schemas.DecisionOut, "kind", ConflictKind),
    (schemas.DecisionOut, "state", ConflictState),
    (schemas.DecisionOut, "outcome", Outcome),
    (schemas.DecisionOut, "reason_code", ReasonCode),
    (schemas.PairOut, "state", ConflictState),
    (schemas.PairOut, "reason_code", ReasonCode),
    (schemas.ReviewItemOut, "action", ReviewAction),
]


def _enum_of(model: type[BaseModel], field: str) -> set[str]:
    schema = model.model_json_schema()
    prop = schema["properties"][field]
    options = prop.get("anyOf", [prop])
    for option in options:
        ref = option.get("$ref")
        if ref:
            return set(schema["$defs"][ref.split("/")[-1]]["enum"])
    raise AssertionError(f"{model.__name__}.{field} carries no enum")


def test_every_closed_set_in_the_output_schemas_is_the_stores_enum():
    for model, field, enum in PINNED:
        assert _enum_of(model, field) == {m.value for m in enum}, (model.__name__, field)


def test_models_have_the_fields_of_the_dataclasses_they_render():
    pairs = [
        (ReviewItem, schemas.ReviewItemOut),
        (Question, schemas.QuestionOut),
        (ConsolidateResult, schemas.Consolidated),
    ]
    for data, model in pairs:
        assert {f.name for f in dataclasses.fields(data)} == set(model.model_fields), data


# The full record of a memory, in order: what ``memory://<id>``, ``detail`` and the CLI's
# JSON give (not validated by a model: the tools' schema calls it an object).
FULL_RECORD = (
    "id",
    "text",
    "subject",
    "kind",
    "scope",
    "source",
    "origin",
    "created_at",
    "written_at_commit",
    "status",
    "refuted_by",
    "confidence",
    "observations",
    "checked_commit",
    "verification",
    "anchors",
    "derived_from",
    "supersedes",
    "flags",
    "receipt",
    "forgotten",
    "band",
    "origins",
    "candidate",
    "last_confirmed_at",
    "provenance",
    "expires_at",
    "conflicts",
)


def test_the_renderer_fills_exactly_the_agents_memory_model():
    now = datetime.now(UTC)
    mem = Memory(
        "m1",
        "We use DuckDB",
        None,
        Kind.FACT,
        None,
        Source.AGENT,
        "a",
        now,
        None,
        Status.ACTIVE,
        origins=("a",),
    )
    reading = read(
        mem, None, None, Unchecked(UncheckedReason.UNCHECKED), None, now, EvidenceSettings()
    )
    brief = agent_memory(reading, 0.5)
    assert set(brief) == set(schemas.AgentMemory.model_fields)
    schemas.AgentMemory.model_validate(brief)  # extra="forbid": nothing unknown slips in
    assert list(memory(reading)) == list(FULL_RECORD)  # the fields of memory://<id>


@pytest.mark.anyio
async def test_every_tool_publishes_typed_inputs_and_an_output_schema(settings: Settings):
    async with Client(build_server(settings)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert all(t.output_schema for t in tools.values()), [
        n for n, t in tools.items() if not t.output_schema
    ]
    remember: dict[str, Any] = tools["remember"].input_schema
    defs = remember.get("$defs", {})

    def enum(prop: dict[str, Any]) -> set[str]:
        ref = prop.get("$ref") or next(o["$ref"] for o in prop.get("anyOf", []) if "$ref" in o)
        return set(defs[ref.split("/")[-1]]["enum"])

    assert enum(remember["properties"]["kind"]) == {k.value for k in Kind}
    assert enum(remember["properties"]["source"]) == {s.value for s in Source}
    assert remember["properties"]["text"]["maxLength"] == 8000
    resolve: dict[str, Any] = tools["resolve"].input_schema
    defs = resolve.get("$defs", {})
    assert enum(resolve["properties"]["verdict"]) == {j.value for j in Judgement}
    assert resolve["properties"]["reason"]["maxLength"] == MAX_REASON_CHARS
    observe: dict[str, Any] = tools["observe"].input_schema
    defs = observe.get("$defs", {})
    assert enum(observe["properties"]["kind"]) == {k.value for k in ObservationKind}
