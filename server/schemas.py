"""Pydantic models of what the MCP tools return; they give each tool its output schema.
(Inside the packages data is plain dataclasses and dicts; pydantic lives only here.)"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AnchorOut",
    "MemoryOut",
    "RecallOut",
    "ReceiptOut",
    "RememberOut",
    "RetractOut",
    "VerifyOut",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow")


class ReceiptOut(_Model):
    id: str
    memory_id: str
    action: str = Field(description="retract, restore, refute_by_code, supersede or forget")
    actor: str
    reason: str
    evidence: str | None = None
    cause: str | None = Field(None, description="the memory whose retraction cascaded here")
    commit: str | None = None
    at: str | None = None


class AnchorOut(_Model):
    anchor: str = Field(
        description="the anchor in anchormem syntax, e.g. import:duckdb@store/db.py"
    )
    kind: Literal["file", "symbol", "import", "env", "dep", "tech"]
    value: str
    expect: Literal["present", "absent"]
    scope: str | None = None
    version: str | None = None
    provenance: Literal["explicit", "inferred"]
    verdict: Literal["holds", "broken", "drifted", "unknown", "unchecked"]
    found_in: list[str] = Field(default_factory=list)
    detail: str | None = None


class MemoryOut(_Model):
    id: str
    text: str | None
    subject: str | None = None
    kind: str
    scope: str | None = None
    source: str
    origin: str
    created_at: str | None
    written_at_commit: str | None = None
    status: Literal["ACTIVE", "VERIFIED", "REFUTED"]
    refuted_by: Literal["code", "retraction", "correction"] | None = None
    confidence: float = Field(description="0-10; 5.0 means no evidence either way")
    observations: int = 1
    checked_commit: str | None = Field(None, description="the commit the anchors were checked at")
    verification: str = Field(
        description="verified, refuted_by_code, retracted, drifted, inconclusive, unchecked, "
        "or cannot_verify: <why>"
    )
    anchors: list[AnchorOut]
    derived_from: list[str] = Field(default_factory=list)
    supersedes: str | None = None
    flags: list[str] = Field(default_factory=list)
    receipt: ReceiptOut | None = None
    band: Literal["assert", "hedge", "hidden"] = Field(
        "hedge",
        description="assert: state it plainly (8.0+); hedge: give its provenance; hidden: "
        "below the hide threshold, not served",
    )
    origins: int = Field(1, description="independent origins that support it")
    candidate: bool = Field(
        True, description="only one origin and not verified by code: a lead, not a fact"
    )
    last_confirmed_at: str | None = None
    provenance: str | None = Field(
        None,
        description="who said it, when, and whether the code verified it; say this when hedging",
    )
    expires_at: str | None = None
    conflicts: list[dict[str, Any]] = Field(
        default_factory=list,
        description="open conflicts with other memories: do not treat either as fact",
    )


class Dropped(_Model):
    candidate: str
    reason: str
    detail: str = ""


class Captured(_Model):
    anchor: str
    provenance: str
    found_in: list[str] = Field(default_factory=list)


class RememberOut(MemoryOut):
    outcome: Literal["stored", "duplicate", "previously_retracted"] = Field(
        description="stored: a new memory; duplicate: the same claim was already stored "
        "(counted as an observation); previously_retracted: the claim was retracted "
        "before — see receipt — and was NOT stored again"
    )
    captured: list[Captured] = Field(default_factory=list)
    dropped: list[Dropped] = Field(default_factory=list)


class RecallOut(_Model):
    query: str
    checked_commit: str | None = None
    memories: list[MemoryOut]


class Cascaded(_Model):
    id: str
    receipt: ReceiptOut | None


class RetractOut(_Model):
    id: str
    status: Literal["REFUTED"]
    receipt: ReceiptOut | None
    cascaded: list[Cascaded] = Field(default_factory=list)
    outcome: Literal["retracted", "already_retracted"]


class VerifyOut(_Model):
    checked_commit: str | None = None
    memories: list[MemoryOut]


def dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")
