"""Verify-on-read end to end: real git repositories with real commits, driven through the
MCP tools (the SDK client, in memory) and the ``anchormem`` CLI (a subprocess).

Every memory read is checked against the code at HEAD: a commit that removes what a memory
claims refutes it (by code, with a receipt naming the anchor, the expectation and the
commit), checking out an earlier commit verifies it again, a retraction outlives every
commit, and unusual repositories say they cannot verify instead of crashing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from benchmarks.fingerprint import generate_repository
from server.app import build_server
from server.config import Settings
from tests.anchors.conftest import child_processes
from tests.conftest import GitRepo, anchormem_env, settings_env
from tests.mcp_calls import call, remember_full

pytestmark = pytest.mark.anyio

PYPROJECT = '[project]\nname = "shop"\nversion = "1.0"\ndependencies = ["duckdb>=1.0", "httpx"]\n'
BILLING = (
    "import os\nimport httpx\n\n\n"
    "def charge(amount):\n"
    "    key = os.environ['BILLING_KEY']\n"
    "    return httpx.post('/charge', json=amount, headers={'key': key})\n"
)
STORE = (
    "import duckdb\n\n\n"
    "class Store:\n"
    "    def open(self, path):\n"
    "        return duckdb.connect(path)\n"
)
PROJECT = {
    "pyproject.toml": PYPROJECT,
    "app/__init__.py": "",
    "app/billing.py": BILLING,
    "app/other.py": "import sqlite3\n\n\ndef legacy_report():\n    return sqlite3.connect('x')\n",
    "store/__init__.py": "",
    "store/db.py": STORE,
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(PROJECT, "initial project")
    return git_repo


def settings_for(repo: GitRepo | Path, budget_ms: int = 30_000) -> Settings:
    """Settings for ``repo``. The verification budget is generous unless a test is about
    the budget: on a loaded machine a 50 ms budget could leave a read unchecked, and these
    tests are about what the verdicts are, not about how fast they come."""
    # Duck-typed: pytest may load the conftest under another module name than ours.
    root = repo if isinstance(repo, Path) else repo.root
    return Settings.resolve(
        repo=str(root), env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS=str(budget_ms))
    )


async def recall_one(client: Client, query: str, memory_id: str) -> dict[str, Any]:
    """The full record of ``memory_id`` as a recall with ``include_refuted`` and
    ``detail`` serves it."""
    found = await call(client, "recall", query=query, include_refuted=True, detail=True)
    matching = [m for m in found["memories"] if m["id"] == memory_id]
    assert len(matching) == 1, found
    # An unchecked memory names no commit: it was not checked at HEAD.
    unchecked = matching[0]["verification"] == "unchecked"
    assert matching[0].get("checked_commit") == (None if unchecked else found.get("commit"))
    return matching[0]


async def served_ids(client: Client, query: str) -> list[str]:
    """Ids a plain recall serves (REFUTED memories are left out)."""
    return [m["id"] for m in (await call(client, "recall", query=query, detail=True))["memories"]]


def cli(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> tuple[int, Any, str]:
    """Run the installed console script (by absolute path) in ``repo``."""
    script = Path(sys.executable).with_name("anchormem")
    base = anchormem_env()
    done = subprocess.run(
        [str(script), *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=120,
    )
    payload = json.loads(done.stdout) if done.returncode == 0 else done.stdout
    return done.returncode, payload, done.stderr


# -- refuted by the commit that removes the anchor, verified again on the earlier one --------
REMOVALS = {
    "import": (
        "import:duckdb@store/db.py",
        {"store/db.py": STORE.replace("import duckdb", "import sqlite3 as duckdb")},
    ),
    "symbol": (
        "symbol:store/db.py::Store.open",
        {"store/db.py": STORE.replace("def open(", "def connect(")},
    ),
    "dep": (
        "dep:httpx",
        {"pyproject.toml": PYPROJECT.replace(', "httpx"', "")},
    ),
    "env": (
        "env:BILLING_KEY",
        {"app/billing.py": BILLING.replace("os.environ['BILLING_KEY']", "'hard-coded'")},
    ),
}


@pytest.mark.parametrize("kind", sorted(REMOVALS))
async def test_removing_an_anchor_refutes_by_code_and_the_earlier_commit_verifies_again(
    project: GitRepo, kind: str
):
    anchor, removal = REMOVALS[kind]
    first = project.head()
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client, text=f"The shop relies on {kind} zebrafact", anchors=[anchor]
        )
        assert made["status"] == "VERIFIED", made
        assert made["anchors"][0]["anchor"] == anchor

        second = project.commit(removal, f"remove the {kind}")
        assert await served_ids(client, "zebrafact") == []
        refuted = await recall_one(client, "zebrafact", made["id"])
        assert refuted["status"] == "REFUTED"
        assert refuted["refuted_by"] == "code"
        assert refuted["verification"] == "refuted_by_code"
        assert refuted["checked_commit"] == second
        assert refuted["anchors"][0]["verdict"] == "broken"
        receipt = refuted["receipt"]
        assert receipt["action"] == "refute_by_code"
        assert receipt["commit"] == second
        assert anchor in receipt["reason"] and "expected present" in receipt["reason"]

        project.checkout(first)
        again = await recall_one(client, "zebrafact", made["id"])
        assert again["status"] == "VERIFIED"
        assert "refuted_by" not in again and "receipt" not in again  # nulls are left out
        assert again["checked_commit"] == first
        assert await served_ids(client, "zebrafact") == [made["id"]]

        project.checkout("main")
        back = await recall_one(client, "zebrafact", made["id"])
        assert back["status"] == "REFUTED" and back["checked_commit"] == second


async def test_a_retracted_memory_stays_refuted_by_retraction_on_every_commit(project: GitRepo):
    first = project.head()
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="Storage goes through DuckDB in store/db.py",
            anchors=["import:duckdb@store/db.py"],
        )
        assert made["status"] == "VERIFIED"
        gone = await call(client, "retract", id=made["id"], reason="we are moving off duckdb")
        receipt_id = gone["receipt"]

        second = project.commit({"README.md": "still duckdb\n"}, "unrelated change")
        project.commit({"store/db.py": STORE.replace("import duckdb", "import os")}, "drop it")
        for commit in (second, first, "main"):
            project.checkout(commit)
            seen = await recall_one(client, "duckdb storage", made["id"])
            assert seen["status"] == "REFUTED"
            assert seen["refuted_by"] == "retraction"
            assert seen["verification"] == "retracted"
            assert seen["receipt"]["id"] == receipt_id
            assert await served_ids(client, "duckdb storage") == []


# -- present-trap and negated claims ------------------------------------------------------------
@pytest.mark.parametrize(
    "how",
    [
        {"anchors": ["import:sqlite3@app/billing.py"]},
        {"subject": "app/billing.py"},
    ],
    ids=["explicit-scoped-anchor", "inferred-with-subject"],
)
async def test_a_module_imported_only_elsewhere_does_not_verify_a_claim_about_the_billing_module(
    project: GitRepo, how: dict[str, Any]
):
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(client, text="The billing module uses sqlite3", **how)
        seen = await recall_one(client, "billing sqlite3", made["id"])
    assert [a["anchor"] for a in made["anchors"]] == ["import:sqlite3@app/billing.py"]
    assert seen["status"] != "VERIFIED"
    assert seen["anchors"][0]["verdict"] == "broken"
    assert "app/other.py" in seen["anchors"][0]["detail"]  # it is there, just not in billing


@pytest.mark.parametrize(
    ("how", "anchor"),
    [({"anchors": ["!dep:redis"]}, "!dep:redis"), ({}, "!tech:redis")],
    ids=["explicit-negated-anchor", "inferred-from-text"],
)
async def test_a_negated_claim_is_verified_while_redis_is_absent_and_refuted_once_a_commit_adds_it(
    project: GitRepo, how: dict[str, Any], anchor: str
):
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(client, text="We no longer use redis", **how)
        assert [a["anchor"] for a in made["anchors"]] == [anchor]
        assert all(a["expect"] == "absent" for a in made["anchors"])
        assert made["status"] == "VERIFIED"

        added = project.commit(
            {
                "pyproject.toml": PYPROJECT.replace('"httpx"', '"httpx", "redis>=5"'),
                "app/cache.py": "import redis\n\nCLIENT = redis.Redis()\n",
            },
            "add a redis cache",
        )
        seen = await recall_one(client, "redis", made["id"])
    assert seen["status"] == "REFUTED" and seen["refuted_by"] == "code"
    assert seen["receipt"]["commit"] == added
    assert f"{anchor} expected absent" in seen["receipt"]["reason"]
    dep = next(a for a in seen["anchors"] if a["anchor"] == anchor)
    assert dep["verdict"] == "broken" and "pyproject.toml" in dep["found_in"]


# -- drift and uncommitted code ------------------------------------------------------------
async def test_a_symbol_whose_body_changed_is_reported_drifted_and_still_served_unverified(
    project: GitRepo,
):
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="Charging posts to the payment API",
            anchors=["symbol:app/billing.py::charge"],
        )
        assert made["status"] == "VERIFIED"
        project.commit(
            {"app/billing.py": BILLING.replace("'/charge'", "'/v2/charge'")}, "new endpoint"
        )
        found = await call(client, "recall", query="charging payment", detail=True)
    assert [m["id"] for m in found["memories"]] == [made["id"]]  # still served
    seen = found["memories"][0]
    assert seen["status"] == "ACTIVE"
    assert seen["verification"] == "drifted"
    assert seen["anchors"][0]["verdict"] == "drifted"
    assert seen["anchors"][0]["found_in"] == ["app/billing.py"]


async def test_an_anchor_on_a_new_untracked_file_is_not_refuted(project: GitRepo):
    project.write({"new_mod.py": "def thing():\n    return 42\n"})
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="The thing helper lives in new_mod.py",
            anchors=["symbol:new_mod.py::thing"],
        )
        found = await call(client, "recall", query="thing helper", detail=True)
    assert made["status"] != "REFUTED"
    assert [m["id"] for m in found["memories"]] == [made["id"]]
    seen = found["memories"][0]
    assert seen["status"] != "REFUTED"
    assert seen["anchors"][0]["verdict"] == "holds"
    assert seen["anchors"][0]["found_in"] == ["new_mod.py"]


# -- what a read says, through the MCP tools and the CLI --------------------------------------
ANCHOR_KEYS = {"kind", "value", "expect", "scope", "verdict", "found_in"}


async def test_recall_and_cli_verify_report_the_checked_commit_and_each_anchors_verdict(
    project: GitRepo,
):
    head = project.head()
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="Store.open connects to duckdb",
            anchors=["import:duckdb@store/db.py", "symbol:store/db.py::Store.open", "!dep:redis"],
        )
        found = await call(client, "recall", query="store duckdb", detail=True)
    assert found.get("commit") == head
    via_mcp = next(m for m in found["memories"] if m["id"] == made["id"])
    assert via_mcp["checked_commit"] == head
    anchors = {a["anchor"]: a for a in via_mcp["anchors"]}
    assert set(anchors["import:duckdb@store/db.py"]) >= ANCHOR_KEYS
    assert {k: anchors["import:duckdb@store/db.py"][k] for k in ANCHOR_KEYS} == {
        "kind": "import",
        "value": "duckdb",
        "expect": "present",
        "scope": "store/db.py",
        "verdict": "holds",
        "found_in": ["store/db.py"],
    }
    assert anchors["!dep:redis"]["expect"] == "absent"
    assert anchors["!dep:redis"]["kind"] == "dep" and anchors["!dep:redis"].get("scope") is None
    assert anchors["symbol:store/db.py::Store.open"]["value"] == "Store.open"

    code, verified, err = cli(project.root, "verify", made["id"], "--json")
    assert code == 0, err
    assert verified["checked_commit"] == head
    [via_cli] = verified["memories"]
    # The tools leave nulls out; the CLI's JSON keeps them.
    via_cli = {k: v for k, v in via_cli.items() if v is not None}
    via_cli["anchors"] = [{k: v for k, v in a.items() if v is not None} for a in via_cli["anchors"]]
    # Recall alone adds "conflicts" (the other side of an open contradiction).
    assert set(via_cli) <= set(via_mcp) and set(via_mcp) - set(via_cli) <= {"conflicts"}
    assert [set(a) for a in via_cli["anchors"]] == [set(a) for a in via_mcp["anchors"]]
    for key in ("id", "status", "checked_commit", "verification"):
        assert via_cli[key] == via_mcp[key]
    assert via_cli["anchors"] == via_mcp["anchors"]


async def test_every_status_change_is_an_audit_row_with_the_commit_it_was_checked_at(
    project: GitRepo,
):
    first = project.head()
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client, text="Env BILLING_KEY is read", anchors=["env:BILLING_KEY"]
        )
        for _ in range(3):  # reads that change nothing write nothing
            await recall_one(client, "billing_key", made["id"])
        second = project.commit(
            {"app/billing.py": BILLING.replace("os.environ['BILLING_KEY']", "'k'")}, "inline"
        )
        for _ in range(2):
            await recall_one(client, "billing_key", made["id"])
        project.checkout(first)
        await recall_one(client, "billing_key", made["id"])

    code, audit, err = cli(project.root, "audit", made["id"], "--json")
    assert code == 0, err
    verifies = [
        (e["from_status"], e["to_status"], e["commit"])
        for e in audit["entries"]
        if e["action"] == "verify"
    ]
    assert verifies == [
        ("ACTIVE", "VERIFIED", first),
        ("VERIFIED", "REFUTED", second),
        ("REFUTED", "VERIFIED", first),
    ]
    assert audit["entries"][0]["action"] == "remember"
    refuting = next(e for e in audit["entries"] if e["to_status"] == "REFUTED")
    assert refuting["receipt_id"] and refuting["actor"] == "code"


# -- hostile names and process hygiene -----------------------------------------------------------
async def test_dash_prefixed_names_never_reach_git_as_options(project: GitRepo):
    project.commit({"--output=x.py": "import duckdb\n\n\ndef dashed():\n    return 1\n"}, "dash")
    project.write({"--new.py": "def fresh_from_dash():\n    return 2\n"})  # untracked
    async with Client(build_server(settings_for(project))) as client:
        tracked = await remember_full(
            client, text="dashed imports duckdb", anchors=["import:duckdb"]
        )
        untracked = await remember_full(
            client, text="fresh_from_dash exists", anchors=["symbol:fresh_from_dash"]
        )
        seen = await recall_one(client, "dashed duckdb", tracked["id"])
        fresh = await recall_one(client, "fresh_from_dash", untracked["id"])
        for bad in ("file:-x", "file:--output=x.py", "import:duckdb@--output=x.py", "symbol:-x::f"):
            result = await client.call_tool("remember", {"text": f"bad {bad}", "anchors": [bad]})
            assert result.is_error, bad
            message = " ".join(getattr(c, "text", "") for c in result.content)
            assert "must not start with '-'" in message
    assert seen["status"] == "VERIFIED" and "--output=x.py" in seen["anchors"][0]["found_in"]
    assert fresh["anchors"][0]["verdict"] == "holds"
    assert fresh["anchors"][0]["found_in"] == ["--new.py"]
    # Had git taken "--output=x.py" as an option, it would have written x.py.
    assert not (project.root / "x.py").exists()
    code, _, err = cli(project.root, "remember", "bad", "--anchor", "file:-x", "--json")
    assert code == 2 and "must not start with '-'" in err


async def test_a_thousand_recalls_leave_at_most_two_git_children(project: GitRepo):
    before = child_processes("git")
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="Store.open connects to duckdb",
            anchors=["import:duckdb@store/db.py", "symbol:store/db.py::Store.open"],
        )
        await remember_full(client, text="Store uses redis", anchors=["import:redis@store"])
        project.commit({"docs/notes.md": "a new commit mid-way\n"}, "docs")
        for n in range(1000):
            found = await call(
                client, "recall", query="store duckdb redis", include_refuted=True, detail=True
            )
            if n % 100 == 0:
                assert len(child_processes("git") - before) <= 2
        assert len(child_processes("git") - before) <= 2
    assert made["id"] in [m["id"] for m in found["memories"]]
    assert {m["status"] for m in found["memories"]} == {"VERIFIED", "REFUTED"}


# -- unusual repositories ---------------------------------------------------------------------
def _detached(project: GitRepo, tmp: Path) -> Path:
    project.commit({"README.md": "two\n"}, "second")
    project.checkout(project.git("rev-parse", "HEAD~1"))
    return project.root


def _worktree(project: GitRepo, tmp: Path) -> Path:
    project.git("worktree", "add", "-q", "-b", "feature", str(tmp / "wt"))
    return tmp / "wt"


def _shallow(project: GitRepo, tmp: Path) -> Path:
    project.commit({"README.md": "two\n"}, "second")
    target = tmp / "shallow"
    project.git("clone", "-q", "--depth", "1", "--", f"file://{project.root}", str(target))
    assert (target / ".git" / "shallow").exists()
    return target


@pytest.mark.parametrize("make", [_detached, _worktree, _shallow], ids=lambda f: f.__name__[1:])
async def test_detached_heads_worktrees_and_shallow_clones_verify_normally(
    project: GitRepo, tmp_path: Path, make: Any
):
    root = make(project, tmp_path)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.strip()
    async with Client(build_server(settings_for(root))) as client:
        made = await remember_full(
            client,
            text="Store.open connects to duckdb",
            anchors=["import:duckdb@store/db.py", "symbol:store/db.py::Store.open"],
        )
        seen = await recall_one(client, "store duckdb", made["id"])
    assert seen["status"] == "VERIFIED" and seen["verification"] == "verified"
    assert seen["checked_commit"] == head


async def test_a_repository_with_no_commits_cannot_verify_and_says_so(git_repo: GitRepo):
    git_repo.write({"store/db.py": STORE})
    async with Client(build_server(settings_for(git_repo))) as client:
        made = await remember_full(
            client, text="Storage uses duckdb", anchors=["import:duckdb@store/db.py"]
        )
        found = await call(client, "recall", query="storage duckdb", detail=True)
    assert made["status"] == "ACTIVE"
    assert found.get("commit") is None
    [seen] = found["memories"]
    assert seen["status"] == "ACTIVE"
    assert seen["verification"] == "cannot_verify: no_commits"
    assert seen["anchors"][0]["verdict"] == "unchecked"


def test_without_git_on_path_the_cli_says_it_cannot_verify(project: GitRepo, tmp_path: Path):
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    env = {"PATH": str(empty)}
    code, made, err = cli(
        project.root, "remember", "Storage uses duckdb", "--anchor", "import:duckdb", env=env
    )
    assert code == 0, err
    assert made["status"] == "ACTIVE"
    code, found, err = cli(project.root, "recall", "storage duckdb", "--json", env=env)
    assert code == 0, err
    [seen] = found["memories"]
    assert seen["verification"] == "cannot_verify: no_git_binary"
    assert "Traceback" not in err
    code, verified, err = cli(project.root, "verify", made["id"], "--json", env=env)
    assert code == 0, err
    assert verified["memories"][0]["verification"] == "cannot_verify: no_git_binary"


# -- a cold, big fingerprint does not block a read ------------------------------------------------
async def test_an_unchecked_memory_is_never_served_verified_even_after_a_commit_broke_it(
    project: GitRepo,
):
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(client, text="Store.open connects to duckdb",
            anchors=["symbol:store/db.py::Store.open"],
        )  # fmt: skip
        assert made["status"] == "VERIFIED"
    # Enough files that a 1 ms budget cannot check, few enough that the CLI's wait for
    # the check (30 s) holds on a loaded machine.
    generate_repository(project.root, 300)
    broke = project.commit({"store/db.py": STORE.replace("def open(", "def connect(")})
    # A fresh server on a large repository: its first recall cannot check in budget.
    async with Client(build_server(settings_for(project, budget_ms=1))) as client:
        first = await recall_one(client, "store duckdb", made["id"])
    assert first["verification"] == "unchecked"
    assert first["status"] == "ACTIVE" and first["band"] != "assert"
    assert first.get("checked_commit") is None
    # A person at a terminal waits for the check instead.
    code, found, err = cli(project.root, "recall", "Store.open connects", "--json",
                           "--include-refuted")  # fmt: skip
    assert code == 0, err
    [seen] = [m for m in found["memories"] if m["id"] == made["id"]]
    assert seen["status"] == "REFUTED" and seen["checked_commit"] == broke


@pytest.mark.slow  # ~13 s: 1,000 files committed and fingerprinted (CI's budget); the
# default run keeps the unit check in test_fingerprint.py and the never-VERIFIED-unchecked
# check below
async def test_a_cold_big_fingerprint_leaves_recall_unchecked_and_a_later_recall_verifies(
    project: GitRepo,
):
    async with Client(build_server(settings_for(project))) as client:
        made = await remember_full(
            client,
            text="Store.open connects to duckdb",
            anchors=["import:duckdb@store/db.py", "symbol:store/db.py::Store.open"],
        )
        assert made["status"] == "VERIFIED"
    # 1,000 new Python files in a new commit: nothing about them is cached anywhere, and
    # far more than a 50 ms budget can parse.
    generate_repository(project.root, 1000)
    head = project.head()
    async with Client(build_server(settings_for(project, budget_ms=50))) as client:
        cold = await recall_one(client, "store duckdb", made["id"])
        assert cold["verification"] == "unchecked"
        assert cold["status"] == "ACTIVE" and cold["band"] != "assert"
        assert cold.get("checked_commit") is None
        assert {a["verdict"] for a in cold["anchors"]} == {"unchecked"}
        deadline = time.monotonic() + 120  # a safety net, not a timing assertion
        warm = cold
        while warm["verification"] == "unchecked" and time.monotonic() < deadline:
            await anyio.sleep(0.2)
            warm = await recall_one(client, "store duckdb", made["id"])
    assert warm["verification"] == "verified"
    assert warm["checked_commit"] == head
    assert {a["verdict"] for a in warm["anchors"]} == {"holds"}


# -- the first read after a commit -------------------------------------------------------------
def _index(fp: Any, name: str) -> dict[str, list[tuple[str, Any]]]:
    return {key: sorted(pairs, key=repr) for key, pairs in getattr(fp, name).items()}


def test_a_new_commits_fingerprint_comes_with_indexes_equal_to_a_fresh_build(project: GitRepo):
    bulk = {
        f"pkg/mod_{n}.py": f"import json\nfrom . import mod_{n + 1}\n\n\ndef f{n}():\n    pass\n"
        for n in range(40)
    }
    project.commit(bulk, "forty modules")
    steps = [
        {"store/db.py": STORE.replace("def open(", "def connect("), "pkg/mod_3.py": None},
        {"pkg/mod_4.py": "import redis\n\n\nclass Cache:\n    def get(self):\n        pass\n"},
        {"app/other.py": None, "pkg/new.py": "from store.db import Store\n"},
    ]
    with CodeSource(project.root, InMemoryFactsCache()) as code:
        code.fingerprint(overlay=False)
        for step in steps:
            project.commit(step)
            fp = code.fingerprint(overlay=False)
            # Ready before any read asks, and the same as indexing every file afresh.
            assert {"_importers", "_definitions"} <= set(fp.__dict__)
            fresh = Fingerprint(fp.commit, fp.blobs, fp.python, fp.dependencies, fp.env_example)
            for name in ("_importers", "_definitions"):
                assert _index(fp, name) == _index(fresh, name), name
        project.write({"pkg/mod_5.py": "import httpx\n", "pkg/new_file.py": "def u():\n    pass\n"})
        overlaid = code.fingerprint(overlay=True)
        assert overlaid.overlay and {"_importers", "_definitions"} <= set(overlaid.__dict__)
        fresh = Fingerprint(
            overlaid.commit, overlaid.blobs, overlaid.python, overlaid.dependencies,
            overlaid.env_example, overlaid.overlay,
        )  # fmt: skip
        for name in ("_importers", "_definitions"):
            assert _index(overlaid, name) == _index(fresh, name), name
        assert [p for p, _ in overlaid.definitions("u")] == ["pkg/new_file.py"]
        assert [p for p, _ in overlaid.importers("httpx")] == ["app/billing.py", "pkg/mod_5.py"]
