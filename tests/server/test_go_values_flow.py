"""Values and module paths in notes about Go code (issues #31, #32), through MCP
``remember`` + ``recall`` on a real git repository: a constant given another constant
(``EnableSorting = defaultSorting``) or a ``time.Duration`` (``5 * time.Second``) is
compared as the value it makes; a version a note states for a module ``go.mod`` requires
("pflag is required at v1.0.5") is the require's; a module named by its path ("spf13/pflag",
"gopkg.in/yaml.v2", "gorilla/context") is its import. Each true claim is VERIFIED and each
false one REFUTED with the code quoted; a tool named by its path that nothing imports is
left unchecked, never refuted."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

GO_MOD = """module example.com/cli

go 1.21

require (
\tgithub.com/spf13/pflag v1.0.5
\tgopkg.in/yaml.v3 v3.0.1
)
"""
CLI_GO = """package cli

import (
\t"time"

\t"github.com/spf13/pflag"
)

const (
\tdefaultSorting = true
\tdefaultPrefix  = false
)

var EnableSorting = defaultSorting
var EnablePrefix = defaultPrefix
var StartupDelay = 5 * time.Second
var PollEvery = time.Minute * 2

func Flags() *pflag.FlagSet { return pflag.NewFlagSet("cli", pflag.ContinueOnError) }
"""
YAML_GO = """package docs

import "gopkg.in/yaml.v3"

func Dump(v any) ([]byte, error) { return yaml.Marshal(v) }
"""

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    # a variable given a constant: the constant's literal
    ("Sorting is on by default (EnableSorting).", "VERIFIED",
     "`EnableSorting = true` at cli.go:14"),
    ("Sorting is off by default (EnableSorting).", "REFUTED",
     "cli.go:14 sets EnableSorting = true, not off"),
    ("Prefix matching is disabled by default (defaultPrefix is false).", "VERIFIED",
     "`defaultPrefix = false` at cli.go:11"),
    # a time.Duration, compared in seconds
    ("StartupDelay defaults to 5 seconds.", "VERIFIED",
     "`StartupDelay = 5 * time.Second` at cli.go:16"),
    ("StartupDelay defaults to 10 seconds.", "REFUTED",
     "cli.go:16 sets StartupDelay = 5 * time.Second, not 10"),
    ("PollEvery is two minutes.", "VERIFIED", "`PollEvery = time.Minute * 2` at cli.go:17"),
    # the version go.mod requires, the module named by its last element
    ("pflag is required at v1.0.5 in go.mod.", "VERIFIED",
     "pflag==1.0.5 is satisfied by github.com/spf13/pflag v1.0.5 in go.mod"),
    ("pflag is required at v1.0.3 in go.mod.", "REFUTED",
     "declared as github.com/spf13/pflag v1.0.5 in go.mod, which excludes pflag==1.0.3"),
    ("The CLI depends on pflag v1.0.2.", "REFUTED",
     "declared as github.com/spf13/pflag v1.0.5 in go.mod, which excludes pflag==1.0.2"),
    # a module named by its path, with or without its host
    ("The CLI parses flags with spf13/pflag.", "VERIFIED", "imported by cli.go"),
    ("docs/yaml.go marshals with gopkg.in/yaml.v2.", "REFUTED",
     "gopkg.in/yaml.v2 is not imported in docs/yaml.go"),
    ("docs/yaml.go marshals with gopkg.in/yaml.v3.", "VERIFIED",
     "imported by docs/yaml.go (line 3)"),
    ("The project no longer uses gorilla/context.", "VERIFIED", "no file imports gorilla/context"),
    ("We don't use spf13/pflag.", "REFUTED", "imported by cli.go"),
]  # fmt: skip


@pytest.fixture
def go_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit({"go.mod": GO_MOD, "cli.go": CLI_GO, "docs/yaml.go": YAML_GO}, "a Go CLI")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_a_go_value_or_module_is_verified_or_refuted_with_the_code_quoted(
    go_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(go_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


async def test_a_tool_named_by_its_module_path_is_never_refuted_for_not_being_imported(
    go_repo: GitRepo,
) -> None:
    """"We lint with golangci/golangci-lint": run beside the code, imported by nothing."""
    served = await remember_and_serve(go_repo.root, "We lint with golangci/golangci-lint.")
    assert served["status"] == "ACTIVE", served
    assert not any(a["verdict"] == "broken" for a in served["anchors"]), served
