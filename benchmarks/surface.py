"""What the agent is handed, in bytes: a recall of 10 memories and ``tools/list``, through the
SDK's in-memory MCP client, on the experiments' shopfront fixture.

    python -m benchmarks surface [--memories 10]

Prints, e.g.::

    recall of 10 memories: structured 2310 B, 231 B per memory beyond its text
    recall of 10 memories: text content 1720 B, 172 B per memory beyond its text
    tools/list: 11034 B (output schemas 6120 B)

"Beyond its text": the bytes of the result (compact JSON, UTF-8, as it is sent) less the
bytes of the recalled memories' own texts, divided by the number of memories. The text
content is the ``TextContent`` the model reads; the structured content is
``structuredContent``. ``tools/list`` is the list result as sent (compact JSON).

The store holds the fixture's true facts (``experiments/data/facts.jsonl``), remembered
with their subjects and anchors; the query is one word all of them share (``shop``), so
that exactly ``--memories`` are recalled, verified at HEAD (the fingerprint is built
first, as an agent's server has it after start-up; the verification budget is raised so
that a loaded machine does not change the sizes). Nothing is written outside a
temporary directory.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

__all__ = ["Sizes", "main", "measure"]

QUERY = "shop"


@dataclass(frozen=True)
class Sizes:
    memories: int
    structured: int
    text_content: int
    texts: int  # the recalled memories' own texts
    tools_list: int
    output_schemas: int

    @property
    def structured_per_memory(self) -> float:
        return (self.structured - self.texts) / self.memories

    @property
    def text_per_memory(self) -> float:
        return (self.text_content - self.texts) / self.memories

    def lines(self) -> list[str]:
        n = self.memories
        return [
            f"recall of {n} memories: structured {self.structured} B, "
            f"{self.structured_per_memory:.0f} B per memory beyond its text",
            f"recall of {n} memories: text content {self.text_content} B, "
            f"{self.text_per_memory:.0f} B per memory beyond its text",
            f"tools/list: {self.tools_list} B (output schemas {self.output_schemas} B)",
        ]


def _size(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _facts() -> list[dict[str, Any]]:
    from importlib import resources

    path = Path(str(resources.files("experiments") / "data" / "facts.jsonl"))
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if r["category"] == "true" and "shop" in r["claim"].casefold()]


def measure(work: Path, memories: int = 10) -> Sizes:
    """Build the fixture in ``work``, remember its facts, and measure one recall."""
    from mcp import Client
    from mcp.types import TextContent

    from experiments.fixture import build_fixture
    from server.app import build_server
    from server.config import Settings
    from server.runtime import open_runtime

    repo = work / "repo"
    build_fixture(repo)
    # A budget no check runs out of: this measures sizes, and an unchecked memory (the
    # budget spent on a loaded machine) would be served with a shorter status line.
    env = {"ANCHORMEM_VERIFY_BUDGET_MS": "30000"}
    settings = Settings.resolve(repo=str(repo), db=str(work / "store.duckdb"), env=env)
    facts = _facts()
    if len(facts) < memories:
        raise SystemExit(f"benchmarks.surface: the fixture has {len(facts)} facts about 'shop'")
    runtime = open_runtime(settings)
    try:
        for fact in facts:
            runtime.service.remember(
                fact["claim"], subject=fact.get("subject"), anchors=fact.get("anchors")
            )
        runtime.service.verify()  # the fingerprint, built as after a server's start-up
    finally:
        runtime.close()

    async def run() -> Sizes:
        async with Client(build_server(settings)) as client:
            listed = await client.list_tools()
            tools = [
                t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools
            ]
            schemas = sum(_size(t.get("outputSchema", {})) for t in tools)
            result = await client.call_tool("recall", {"query": QUERY, "limit": memories})
            if result.is_error or result.structured_content is None:
                raise RuntimeError(f"recall failed: {result.content}")
            found = result.structured_content["memories"]
            if len(found) != memories:
                raise RuntimeError(f"recall found {len(found)} memories, not {memories}")
            texts = sum(len((m.get("text") or "").encode()) for m in found)
            text_content = sum(
                len(c.text.encode()) for c in result.content if isinstance(c, TextContent)
            )
            return Sizes(
                memories,
                _size(result.structured_content),
                text_content,
                texts,
                _size({"tools": tools}),
                schemas,
            )

    return anyio.run(run)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks surface", description=__doc__)
    parser.add_argument("--memories", type=int, default=10, help="memories recalled (1-20)")
    args = parser.parse_args(argv)
    if not 1 <= args.memories <= 20:
        raise SystemExit("benchmarks.surface: --memories must be between 1 and 20")
    with tempfile.TemporaryDirectory(prefix="anchormem-surface-") as tmp:
        sizes = measure(Path(tmp), args.memories)
    for line in sizes.lines():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
