"""Anchors that must not refute true notes, end to end: ``remember`` then ``recall`` through
the MCP client on real git repositories, asserting the anchors stored and the status served.

* version specifiers compare as PEP 440 sets, not as text;
* a Python file that was not read (too large, not UTF-8, syntax errors) makes an unscoped
  check unknown when it could hold the name, and the detail says why it was not read;
* anchors shaped the way LLMs write them are resolved at remember time, or rejected with a
  did-you-mean;
* a file name committed in NFD (macOS) is found from NFC and from NFD anchors.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call, remember_full

pytestmark = pytest.mark.anyio


def settings_for(repo: GitRepo) -> Settings:
    # A generous budget: these tests are about verdicts, not speed.
    return Settings.resolve(
        repo=str(repo.root), env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000")
    )


async def remember_and_recall(
    repo: GitRepo, anchor: str, files: Mapping[str, str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Commit ``files``, remember one note anchored by ``anchor``, and recall it."""
    repo.commit(files, "project")
    async with Client(build_server(settings_for(repo))) as client:
        made = await remember_full(client, text="Quokkanote about the code", anchors=[anchor])
        found = await call(
            client, "recall", query="quokkanote", include_refuted=True, detail=True
        )
    [served] = [m for m in found["memories"] if m["id"] == made["id"]]
    return made, served


async def rejection(repo: GitRepo, anchor: str, files: Mapping[str, str]) -> str:
    """The error text ``remember`` answers for ``anchor`` (the call must fail)."""
    repo.commit(files, "project")
    async with Client(build_server(settings_for(repo))) as client:
        result = await client.call_tool(
            "remember", {"text": "Quokkanote about the code", "anchors": [anchor]}
        )
        assert result.is_error, result.structured_content
        everything = await call(client, "verify")
    assert everything["memories"] == []  # nothing was stored
    return result.content[0].text  # type: ignore[union-attr]


# -- 1. version specifiers --------------------------------------------------------------------
DEPS = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "1"\n'
        'dependencies = ["starlette>=0.40.0", "click>=3.1.0", "httpx>=0.27,<1", "rich"]\n'
    ),
    "tools/pyproject.toml": (
        '[tool.poetry]\nname = "tools"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.11"\nrequests = "^2.31"\nattrs = "~23.1"\n'
    ),
}


@pytest.mark.parametrize(
    ("anchor", "status", "verdict"),
    [
        ("dep:starlette>=0.40", "VERIFIED", "holds"),  # the same set, spelled differently
        ("dep:click>=3", "VERIFIED", "holds"),  # >=3.1.0 satisfies "at least 3"
        ("dep:httpx<1.0", "VERIFIED", "holds"),
        ("dep:httpx>=1", "REFUTED", "broken"),  # disjoint
        # a stated bound is a claim about the declared one: the lower bound is 0.27
        ("dep:httpx>=0.28", "REFUTED", "broken"),
        ("dep:httpx>=0.26", "REFUTED", "broken"),  # every declared version satisfies it
        ("dep:httpx<2", "REFUTED", "broken"),  # the upper bound is 1
        ("dep:httpx>=0.27.0", "VERIFIED", "holds"),  # to the precision written
        ("dep:httpx===0.27", "ACTIVE", "unknown"),  # arbitrary equality: undecidable
        ("dep:rich>=13", "ACTIVE", "unknown"),  # declared without a version
        ("dep:requests>=2.31,<3", "VERIFIED", "holds"),  # Poetry ^2.31
        ("dep:requests<2", "REFUTED", "broken"),
        ("dep:attrs==23.1.*", "VERIFIED", "holds"),  # Poetry ~23.1
    ],
)
async def test_a_dependency_version_is_judged_by_the_versions_it_allows(
    git_repo: GitRepo, anchor: str, status: str, verdict: str
):
    made, served = await remember_and_recall(git_repo, anchor, DEPS)
    assert [a["anchor"] for a in made["anchors"]] == [anchor]
    assert served["status"] == status
    assert [a["verdict"] for a in served["anchors"]] == [verdict]


async def test_a_version_specifier_packaging_rejects_is_rejected_with_an_example(
    git_repo: GitRepo,
):
    text = await rejection(git_repo, "dep:httpx~=1", DEPS)
    assert "not a PEP 440 specifier set" in text and "'~=1.4'" in text


# -- 2. files that were not read ----------------------------------------------------------------
BIG = "huge_table = [\n" + "    1,\n" * 700_000 + "]\nimport yaml\n"  # 4.7 MB
UNREAD = {
    "app/__init__.py": "",
    "app/big.py": BIG,
    "app/broken.py": "def f(a, b:\n    return 1\nclass Lost:\n  import toml\n",
    "app/ok.py": "import os\n\n\ndef fine():\n    return os.getcwd()\n",
}
TOO_LARGE = r"app/big\.py was not parsed: too large \(4\.\d MB > 4 MB limit\)"


@pytest.mark.parametrize(
    ("anchor", "status", "verdict", "detail"),
    [
        ("symbol:huge_table", "ACTIVE", "unknown", TOO_LARGE),
        ("!import:yaml", "ACTIVE", "unknown", TOO_LARGE),
        ("import:yaml", "ACTIVE", "unknown", TOO_LARGE),
        ("symbol:app/big.py::huge_table", "ACTIVE", "unknown", TOO_LARGE),
        ("symbol:Lost", "ACTIVE", "unknown", r"app/broken\.py was not parsed: syntax errors"),
        ("!import:toml", "ACTIVE", "unknown", r"app/broken\.py was not parsed: syntax errors"),
        ("!import:ujson", "ACTIVE", "unknown", r"app/latin\.py was not parsed: not UTF-8"),
        # the words of every unread file rule these out: answered, not unknown
        ("symbol:nowhere_at_all", "REFUTED", "broken", r"^no file defines nowhere_at_all$"),
        ("!import:redis", "VERIFIED", "holds", r"^no file imports redis$"),
        ("symbol:fine", "VERIFIED", "holds", r"app/ok\.py defines fine \(line 4\)"),
    ],
)
async def test_a_file_that_was_not_read_makes_a_check_unknown_and_says_why(
    git_repo: GitRepo, anchor: str, status: str, verdict: str, detail: str
):
    # latin-1 bytes: not UTF-8 (and what follows the broken def is lost to the parse)
    (git_repo.root / "app").mkdir()
    latin = b"def f(a, b:\n    return 'caf\xe9'\nclass Latin:\n  import ujson\n"
    (git_repo.root / "app/latin.py").write_bytes(latin)
    made, served = await remember_and_recall(git_repo, anchor, UNREAD)
    assert [a["anchor"] for a in made["anchors"]] == [anchor]
    assert served["status"] == status
    [check] = served["anchors"]
    assert check["verdict"] == verdict
    assert re.search(detail, check["detail"]), check["detail"]


# -- 3. anchors as LLMs write them --------------------------------------------------------------
LAYOUT = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\ndependencies = ["click"]\n',
    "src/pkg/__init__.py": "from ._client import Client\n",
    "src/pkg/_client.py": "import click\n\n\nclass Client:\n    def send(self):\n        pass\n",
    "src/pkg/cli.py": "import click\n\n\ndef main():\n    click.echo('hi')\n",
    "src/pkg/sub/__init__.py": "import click\n",
}


@pytest.mark.parametrize(
    ("given", "stored", "change"),
    [
        ("symbol:pkg._client.Client", "symbol:src/pkg/_client.py::Client", "Client in"),
        ("symbol:pkg._client.Client.send", "symbol:src/pkg/_client.py::Client.send", "send"),
        ("symbol:pkg.Client", "symbol:src/pkg/_client.py::Client", "Client in"),
        ("file:src/pkg/cli.py:42", "file:src/pkg/cli.py", "line 42 dropped"),
        ("file:src/pkg/cli.py:3-9", "file:src/pkg/cli.py", "line 3-9 dropped"),
        ("file:src/pkg/cli.py#L3", "file:src/pkg/cli.py", "line L3 dropped"),
        ("import:click@cli.py", "import:click@src/pkg/cli.py", "the only tracked path"),
        ("symbol:cli.py::main", "symbol:src/pkg/cli.py::main", "the only tracked path"),
        ("file:src/pkg/", "file:src/pkg", "names the directory"),
        ("file:./src/pkg/cli.py", "file:src/pkg/cli.py", "leading './' dropped"),
        ("symbol:Client", "symbol:Client", None),
    ],
)
async def test_an_anchor_shaped_the_way_llms_write_it_is_stored_canonical_and_verified(
    git_repo: GitRepo, given: str, stored: str, change: str | None
):
    made, served = await remember_and_recall(git_repo, given, LAYOUT)
    assert [a["anchor"] for a in made["anchors"]] == [stored]
    assert [a["anchor"] for a in served["anchors"]] == [stored]
    assert served["status"] == "VERIFIED", served["anchors"]
    if change is None:
        assert "rewritten" not in made
    else:
        # One line per rewrite: "given -> stored (what changed)".
        [rewrite] = made["rewritten"]
        assert rewrite.startswith(f"{given} -> {stored} (") and change in rewrite, rewrite


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("import:click@__init__.py", "'__init__.py' names 2 tracked paths: src/pkg/__init__.py"),
        (
            "import:click@clli.py",
            "no tracked file is named 'clli.py'; did you mean 'src/pkg/cli.py'",
        ),
        (
            "symbol:pkg._client.Clinet",
            "src/pkg/_client.py does not define Clinet; "
            "did you mean 'symbol:src/pkg/_client.py::Client'?",
        ),
        ("file:src/pkg/cli.py/", "src/pkg/cli.py is a file, not a directory"),
    ],
)
async def test_an_llm_shaped_anchor_that_is_ambiguous_or_missing_is_rejected_with_a_did_you_mean(
    git_repo: GitRepo, given: str, message: str
):
    text = await rejection(git_repo, given, LAYOUT)
    assert "anchor rejected" in text and message in text, text


# -- 4. names in NFD ----------------------------------------------------------------------------
NFD_NAME = unicodedata.normalize("NFD", "café.py")
NFC_NAME = unicodedata.normalize("NFC", "café.py")
NFD_DIR = unicodedata.normalize("NFD", "crème")
NFC_DIR = unicodedata.normalize("NFC", "crème")


@pytest.mark.parametrize("spelling", ["NFC", "NFD"])
@pytest.mark.parametrize(
    ("template", "stored", "found_in"),
    [
        ("file:{cafe}", f"file:{NFC_NAME}", NFD_NAME),
        ("symbol:{cafe}::menu", f"symbol:{NFC_NAME}::menu", NFD_NAME),
        ("import:os@{cafe}", f"import:os@{NFC_NAME}", NFD_NAME),
        ("file:menus/{cafe}", f"file:menus/{NFC_NAME}", f"menus/{NFD_NAME}"),
        ("file:{creme}", f"file:{NFC_DIR}", NFD_DIR),  # a directory
        ("import:os@{creme}", f"import:os@{NFC_DIR}", f"{NFD_DIR}/a.py"),
    ],
)
async def test_a_file_committed_with_an_nfd_name_is_found_from_either_spelling(
    git_repo: GitRepo, spelling: str, template: str, stored: str, found_in: str
):
    assert NFD_NAME != NFC_NAME
    form = "NFD" if spelling == "NFD" else "NFC"
    anchor = template.format(
        cafe=unicodedata.normalize(form, "café.py"), creme=unicodedata.normalize(form, "crème")
    )
    files = {
        NFD_NAME: "import os\n\n\ndef menu():\n    return os.sep\n",
        f"menus/{NFD_NAME}": "",
        f"{NFD_DIR}/a.py": "import os\n",
    }
    made, served = await remember_and_recall(git_repo, anchor, files)
    tracked = git_repo.git("ls-files", "-z").split("\0")
    assert NFD_NAME in tracked  # git really holds the decomposed bytes
    assert [a["anchor"] for a in made["anchors"]] == [stored]
    assert served["status"] == "VERIFIED", served["anchors"]
    [check] = served["anchors"]
    assert check["verdict"] == "holds"
    assert check["found_in"] == [found_in]  # the path as git spells it


async def test_a_compatibility_look_alike_of_a_name_is_still_rejected(git_repo: GitRepo):
    text = await rejection(git_repo, "file:caf\u00e9\uff0fmenu.py", {NFD_NAME: ""})
    assert "compatibility characters" in text


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("file:./app/x.py:42", "file:app/x.py"),
        ("file:app/", "file:app"),
        ("symbol:pkg.mod.Class", "symbol:pkg.mod.Class"),  # no code to resolve against
        ("import:click@cli.py", "import:click@cli.py"),
    ],
)
async def test_without_code_to_read_only_the_syntactic_rewrites_apply(
    git_repo: GitRepo, given: str, stored: str
):
    settings = settings_for(git_repo)  # no commit yet: no fingerprint
    async with Client(build_server(settings)) as client:
        made = await remember_full(client, text="Quokkanote without git", anchors=[given])
    assert made["verification"].startswith("cannot_verify")
    assert [a["anchor"] for a in made["anchors"]] == [stored]
    rewritten = [r.removeprefix(f"{given} -> ") for r in made.get("rewritten", [])]
    assert [r.split(" (")[0] for r in rewritten] == ([stored] if stored != given else [])
