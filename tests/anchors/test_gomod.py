"""``go.mod`` as a manifest (``anchors.gomod``): direct requirements in single lines and
blocks, ``// indirect`` entries left out, ``replace``/``exclude`` ignored, the ``module``,
``go`` and ``toolchain`` lines."""

from __future__ import annotations

import pytest

from anchors.facts import Dependency
from anchors.gomod import GoRequire, parse_go_mod, read_go_mod
from anchors.manifests import parse_manifest

GO_MOD = b"""// A gin service.
module github.com/acme/Orders

go 1.21

toolchain go1.21.3

require github.com/spf13/cobra v1.8.0 // CLI

require (
\tgithub.com/gin-gonic/gin v1.9.1
\tgithub.com/BurntSushi/toml v1.3.2 // config files
\t// a comment line inside the block
\tgolang.org/x/sync v0.5.0 // indirect
\tgithub.com/json-iterator/go v1.1.12 // indirect; needed by gin
\tgopkg.in/yaml.v3 v3.0.1
\tgithub.com/docker/docker v24.0.7+incompatible
\tgolang.org/x/exp v0.0.0-20231110203233-9a3e6036ecaa
\t"example.com/quoted/path" v1.0.0
)

require github.com/acme/Orders v0.0.0 // the module itself, through a replace

replace github.com/gin-gonic/gin => ../gin-fork

replace (
\tgithub.com/old/dep v1.0.0 => github.com/new/dep v1.2.0
)

exclude github.com/bad/dep v1.2.3

retract v1.0.1
"""


def test_direct_requirements_are_dependencies_with_their_version():
    deps = parse_go_mod(GO_MOD, "go.mod")
    assert [(d.name, d.spec) for d in deps] == [
        ("github.com/spf13/cobra", "v1.8.0"),
        ("github.com/gin-gonic/gin", "v1.9.1"),
        ("github.com/BurntSushi/toml", "v1.3.2"),
        ("gopkg.in/yaml.v3", "v3.0.1"),
        ("github.com/docker/docker", "v24.0.7+incompatible"),
        ("golang.org/x/exp", "v0.0.0-20231110203233-9a3e6036ecaa"),
        ("example.com/quoted/path", "v1.0.0"),
    ]
    assert {(d.ecosystem, d.runtime, d.source) for d in deps} == {("go", True, "go.mod")}


def test_indirect_requirements_are_read_but_are_not_dependencies():
    mod = read_go_mod(GO_MOD)
    indirect = [r.path for r in mod.requires if r.indirect]
    assert indirect == ["golang.org/x/sync", "github.com/json-iterator/go"]
    names = {d.name for d in parse_go_mod(GO_MOD, "go.mod")}
    assert not names & set(indirect)


def test_replace_exclude_and_the_module_itself_are_not_dependencies():
    names = {d.name for d in parse_go_mod(GO_MOD, "go.mod")}
    assert not names & {"github.com/old/dep", "github.com/new/dep", "github.com/bad/dep",
                        "../gin-fork", "github.com/acme/Orders"}  # fmt: skip


def test_the_module_go_and_toolchain_lines_are_read_with_their_lines():
    mod = read_go_mod(GO_MOD)
    assert (mod.module, mod.go, mod.go_line, mod.toolchain, mod.toolchain_line) == (
        "github.com/acme/Orders",
        "1.21",
        4,
        "go1.21.3",
        6,
    )
    assert mod.requires[1] == GoRequire("github.com/gin-gonic/gin", "v1.9.1", 11)


@pytest.mark.parametrize(
    "data",
    [b"", b"require (\n", b"require\n", b"require github.com/a/b\n", b"module\ngo banana\n",
     b"\xff\xfe\x00garbage", b"require (\ngithub.com/a/b v1 v2\n)\n", b")\n)\n"],
)  # fmt: skip
def test_malformed_go_mod_gives_what_could_be_read(data):
    assert parse_go_mod(data, "go.mod") == []


def test_an_unterminated_block_keeps_the_entries_before_the_end():
    data = b"module m\nrequire (\n\tgithub.com/a/b v1.2.3\n"
    assert parse_go_mod(data, "go.mod") == [
        Dependency("github.com/a/b", "v1.2.3", "go.mod", True, "go")
    ]


def test_parse_manifest_dispatches_a_nested_go_mod():
    deps = parse_manifest(GO_MOD, "tools/go.mod")
    assert Dependency("github.com/gin-gonic/gin", "v1.9.1", "tools/go.mod", True, "go") in deps
