"""The MCP prompts: two workflows a person starts from their client's prompt menu. Each is
a user message telling the model which tools to call, in what order; no server state is
read (the tools read it when the model calls them)."""

from __future__ import annotations

from typing import Any

from mcp.server import MCPServer

__all__ = ["RECORD", "REVIEW", "register_prompts"]

REVIEW = """\
Review anchormem's memory queue with me.

1. Call the `review` tool.
2. For each question it returns, ask me the question as written, one at a time, and wait
   for my answer. Record the answer with `observe` on that memory (confirms true or
   false; kind `correction` with the corrected claim in `note` if I say it changed).
3. Then go through the items: for STALE, ask me whether the note still holds; for ASK,
   tell me what contradicts it; for DEMOTE, tell me it is no longer served and ask
   whether to retract it. Record each answer with `observe`, or `retract` with my reason.
4. Finish with one line per memory: its id and what changed.

Never change a memory I have not answered about."""

RECORD = """\
Record what was learned in this chat{about} in anchormem.

1. List the durable things we learned: decisions and their reasons, conventions, where
   something lives, what was removed or replaced. Leave out what only mattered for this
   task, and anything secret.
2. For each, call `recall` with its key words first. If a memory already says it, skip
   it; if a memory says the opposite and is wrong now, `retract` it with the reason.
3. Call `remember` for each new one: one sentence as `text`, the file or component as
   `subject`, and `anchors` when you know them (`import:MOD@PATH`, `symbol:PATH::Name`,
   `env:NAME`, `dep:NAME`); `scope: "external"` for what is outside this repository.
4. If `remember` returns possible_conflicts, judge each pair with `resolve`.
5. Show me the list of memory ids with their status."""


def register_prompts(mcp: MCPServer[Any]) -> None:
    @mcp.prompt(
        name="review-memories",
        title="Review the memory queue",
        description="Go through the review queue with the user and record the answers.",
    )
    def review_memories() -> str:
        return REVIEW

    @mcp.prompt(
        name="record-learnings",
        title="Record what was learned",
        description="Store the durable lessons of this chat as anchored memories.",
    )
    def record_learnings(topic: str | None = None) -> str:
        about = f" about {topic.strip()}" if topic and topic.strip() else ""
        return RECORD.format(about=about)
