"""A third-party client: the MCP Inspector's CLI (TypeScript SDK) drives `anchormem serve`
over stdio through the whole remember / recall / retract flow.

``scripts/test`` installs the Inspector with
``npm install --no-save @modelcontextprotocol/inspector@2.12.0``; without npm or the
installed binary this test is skipped, saying why.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import GitRepo, anchormem_env

REPO_ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = REPO_ROOT / "node_modules" / ".bin" / "mcp-inspector"
SCRIPT = Path(sys.executable).with_name("anchormem")
CLAIM = "Billing calls the payment API with httpx"
TOOL_IS_ERROR_EXIT = 5  # the Inspector's exit code when a tool answers isError


@pytest.fixture
def inspector(tmp_path: Path) -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node is not installed, so the MCP Inspector cannot run")
    if not INSPECTOR.exists():
        pytest.skip(
            f"the MCP Inspector is not installed at {INSPECTOR.relative_to(REPO_ROOT)}; run "
            "`npm install --no-save @modelcontextprotocol/inspector@2.12.0` (scripts/test does)"
        )
    return INSPECTOR


class Inspector:
    def __init__(self, binary: Path, repo: GitRepo, home: Path) -> None:
        self.binary = binary
        self.repo = repo
        # The Inspector keeps a catalog and client settings under $HOME; keep them here.
        home.mkdir()
        self.env = {
            **anchormem_env(),
            "HOME": str(home),
        }

    def run(self, method: str, *options: str) -> tuple[int, dict[str, Any]]:
        done = subprocess.run(
            [
                str(self.binary),
                "--cli",
                "--format",
                "json",
                "-q",
                "--cwd",
                str(self.repo.root),
                "--method",
                method,
                *options,
                "--",
                str(SCRIPT),
                "serve",
            ],
            cwd=self.repo.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.stdout, done.stderr
        return done.returncode, json.loads(done.stdout)

    def call(self, tool: str, **arguments: str) -> dict[str, Any]:
        options = ["--tool-name", tool]
        for key, value in arguments.items():
            options += ["--tool-arg", f"{key}={value}"]
        code, payload = self.run("tools/call", *options)
        result = payload["result"]
        assert code == 0 and not result.get("isError"), payload
        structured: dict[str, Any] = result["structuredContent"]
        # The text block carries the same answer, as short lines, for clients that ignore
        # structured output: the ids and statuses it holds are in it.
        text = result["content"][0]["text"]
        for memory in structured.get("memories", [structured] if "status" in structured else []):
            assert memory["id"] in text and memory["status"] in text, (text, structured)
        if "id" in structured:
            assert structured["id"] in text
        return structured


def test_the_inspector_lists_the_tools_with_their_schemas(
    inspector: Path, project: GitRepo, tmp_path: Path
):
    # --strict: the Inspector checks every tool schema for portability problems and
    # exits 6 on any error-severity one.
    code, payload = Inspector(inspector, project, tmp_path / "home").run("tools/list", "--strict")
    assert code == 0
    tools = {t["name"]: t for t in payload["result"]["tools"]}
    assert {"remember", "recall", "retract", "verify"} <= set(tools)
    for name in ("remember", "recall", "retract"):
        assert tools[name]["description"]
        assert tools[name]["inputSchema"]["type"] == "object"
        assert tools[name]["outputSchema"]["type"] == "object"
    assert set(tools["retract"]["inputSchema"]["required"]) == {"id", "reason"}
    assert tools["recall"]["annotations"]["readOnlyHint"] is True


@pytest.mark.slow  # ~33 s: seven inspector runs, each starting node and a server
def test_remember_recall_retract_and_remember_again_through_the_inspector(
    inspector: Path, project: GitRepo, tmp_path: Path
):
    client = Inspector(inspector, project, tmp_path / "home")

    made = client.call("remember", text=CLAIM, subject="billing/client.py")
    assert made["outcome"] == "stored"
    assert made["status"] == "VERIFIED"
    assert "import:httpx@billing/client.py (inferred)" in made["captured"]

    found = client.call("recall", query="billing httpx")
    assert [m["id"] for m in found["memories"]] == [made["id"]]
    assert found["commit"] == project.head()
    assert all(a.endswith(" ✓") for a in found["memories"][0]["anchors"])  # every one holds

    gone = client.call("retract", id=made["id"], reason="billing moved to requests")
    assert gone["status"] == "REFUTED"
    assert gone["reason"] == "billing moved to requests"

    assert client.call("recall", query="billing httpx")["memories"] == []

    refuted = client.call("recall", query="billing httpx", include_refuted="true")
    assert [m["id"] for m in refuted["memories"]] == [made["id"]]
    assert refuted["memories"][0]["status"] == "REFUTED"
    assert refuted["memories"][0]["why"].startswith("refuted (retraction) by ")
    full = client.call("recall", query="billing httpx", include_refuted="true", detail="true")
    assert full["memories"][0]["refuted_by"] == "retraction"
    assert full["memories"][0]["receipt"]["id"] == gone["receipt"]

    again = client.call("remember", text=CLAIM)
    assert again["outcome"] == "previously_retracted"
    assert again["id"] == made["id"]
    assert again["receipt"] == gone["receipt"]


@pytest.mark.slow  # ~12 s of Node start-up (CI's budget); bad input over MCP: test_bad_input.py
def test_the_inspector_sees_is_error_for_an_unknown_id(
    inspector: Path, project: GitRepo, tmp_path: Path
):
    client = Inspector(inspector, project, tmp_path / "home")
    code, payload = client.run(
        "tools/call",
        "--tool-name",
        "retract",
        "--tool-arg",
        "id=mnope0000",
        "--tool-arg",
        "reason=wrong",
    )
    assert code == TOOL_IS_ERROR_EXIT
    assert payload["result"]["isError"] is True
    assert "not found" in payload["result"]["content"][0]["text"]
