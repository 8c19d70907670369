"""Claims about Go and Rust projects as agents write them (issue #32), through MCP
``remember`` + ``recall`` on real git repositories: a toolchain minimum stated as a
requirement, a crate that only a ``#[cfg(test)]`` module uses said to be a run-time
dependency, a Go module path with the verb that says what is claimed of it, a definition
placed in a bare file name that does not exist, an environment variable without "_"
named as one, and a crate's default features "including" one."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

GO = {
    "go.mod": "module github.com/acme/flags\n\ngo 1.12\n\n"
              "require golang.org/x/text v0.14.0\n",
    "flag.go": 'package flags\n\nimport (\n\t"os"\n\t"strings"\n)\n\n'
               "type FlagSet struct {\n\tname string\n}\n\n"
               "func (f *FlagSet) Parse(args []string) error {\n"
               '\t_ = strings.TrimSpace(os.Getenv("HOME"))\n\treturn nil\n}\n',
}  # fmt: skip
RUST = {
    "Cargo.toml": '[package]\nname = "stamp"\nversion = "0.1.0"\nedition = "2018"\n\n'
                  '[dependencies]\nlog = "0.4"\n\n[dev-dependencies]\nrand = "0.8"\n',
    "src/lib.rs": "use log::debug;\n\npub fn stamp() -> u64 {\n    debug!(\"stamp\");\n    0\n}\n\n"
                  "#[cfg(test)]\nmod tests {\n    use rand::Rng;\n\n    #[test]\n"
                  "    fn t() {\n        let _ = rand::thread_rng().gen::<u8>();\n    }\n}\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # go.mod's go line is the minimum: "requires" / "needs ... or later" state it exactly
    (GO, "The module requires Go 1.18.", "REFUTED", "go.mod:3 lists go 1.12, not 1.18"),
    (GO, "The module requires Go 1.12.", "VERIFIED", "go.mod:3 lists go 1.12"),
    (GO, "flags needs Go 1.18 or later.", "REFUTED", "not >=1.18"),
    (GO, "flags supports Go 1.21.", "VERIFIED", "go-version 1.12"),
    # a module path with its verb
    (GO, "flags imports github.com/pkg/errors for error wrapping.", "REFUTED",
     "no file imports github.com/pkg/errors"),
    (GO, "flags depends on golang.org/x/sys.", "REFUTED",
     "golang.org/x/sys is not a declared dependency"),
    (GO, "flags depends on golang.org/x/text.", "VERIFIED", "golang.org/x/text is declared"),
    # a bare file name the repository lacks, stated as the place
    (GO, "FlagSet.Parse is defined in parse.go.", "REFUTED", "parse.go is not in the repository"),
    (GO, "FlagSet.Parse is defined in flag.go.", "VERIFIED", "flag.go defines FlagSet.Parse"),
    # an environment variable without "_", said to be one
    (GO, "Parse reads the HOME environment variable.", "VERIFIED", "HOME is read"),
    (GO, "flags reads the TZ environment variable to pick a zone.", "REFUTED", "no code reads TZ"),
    # a crate used only by a test module is no run-time dependency
    (RUST, "rand is a runtime dependency.", "REFUTED", "no code that runs imports rand"),
    (RUST, "log is a runtime dependency.", "VERIFIED", "log is declared in Cargo.toml"),
    (RUST, "The crate has default features including std.", "REFUTED",
     "states no features.default.std"),
    (RUST, "Only the tests use rand.", "VERIFIED", "no code that runs imports rand"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS)
async def test_go_and_rust_claims_as_agents_write_them(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)


async def test_a_website_named_like_a_file_is_no_file(git_repo: GitRepo) -> None:
    """"docs.rs" is where the documentation is built, not a missing file to refute."""
    git_repo.commit(RUST, "a crate")
    served = await remember_and_serve(git_repo.root, "docs.rs builds the documentation.")
    assert served["status"] != "REFUTED", served
    assert not any(a["anchor"] == "file:docs.rs" for a in served["anchors"]), served


EXTENSION = {
    "pyproject.toml": '[project]\nname = "ext"\ndependencies = ["pexpect"]\n',
    "ext/__init__.py": "",
    "ext/shell.py": "import pexpect\n",
    "package.json": '{"name": "ext", "dependencies": {"@lumino/widgets": "^2.0.0"},'
                    ' "devDependencies": {"@babel/core": "^7.0.0"}}\n',
    "babel.config.js": "module.exports = { presets: [] };\n",
    "src/index.ts": "import { Widget } from '@lumino/widgets';\nexport const w = new Widget();\n",
    "src/api.ts": "export const base = '/api';\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        # the frontend is its sources: what they import, what their package.json declares
        ("The frontend uses @lumino/widgets.", "VERIFIED", "imported by src/index.ts"),
        ("The frontend uses pexpect.", "REFUTED", "pexpect is used in"),
        # JavaScript's Babel, configured and declared, beside the PyPI one
        ("The frontend is transpiled with Babel.", "VERIFIED", "package.json declares @babel/core"),
    ],
)  # fmt: skip
async def test_the_frontend_named_as_a_component_is_its_sources(
    git_repo: GitRepo, text: str, status: str, reason: str
) -> None:
    """A pyproject.toml beside the package.json declares nothing for ``src/``'s TypeScript."""
    await check_served(git_repo, EXTENSION, text, status, reason)


TS_LIBRARY = {
    "package.json": '{"name": "@acme/server", "devDependencies": {"fastify": "^4.13.0",'
                    ' "express": "^4.17.1", "zod": "^3.0.0"}}\n',
    "src/index.ts": "export { handler } from './adapters/standalone';\n",
    "src/adapters/standalone.ts": "import http from 'http';\n"
                                  "export const handler = http.createServer();\n",
    "src/adapters/fastify.ts": "import type { FastifyInstance } from 'fastify';\n"
                               "export function plugin(app: FastifyInstance) { return app; }\n",
    "src/adapters/express.ts": "import type * as express from 'express';\n"
                               "export type Req = express.Request;\n",
}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        # the package's own scoped name is the note's subject, not a module to import
        ("@acme/server has no runtime dependencies.", "VERIFIED",
         "package.json declares no run-time dependency"),
        # only its types imported: erased before the code runs
        ("fastify is only a devDependency.", "VERIFIED", "only its types"),
        ("express is a runtime dependency.", "REFUTED", "no code that runs imports express"),
        # "Node's http module" says whose module; the module is the claim
        ("The standalone adapter is built on Node's http module "
         "(src/adapters/standalone.ts imports http).", "VERIFIED",
         "imported by src/adapters/standalone.ts"),
    ],
)  # fmt: skip
async def test_a_typescript_librarys_declarations_and_type_only_imports(
    git_repo: GitRepo, text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, TS_LIBRARY, text, status, reason)


async def test_the_projects_own_name_in_any_case_is_no_package_it_uses(git_repo: GitRepo) -> None:
    """"a WebSocket" in the Go module ``.../websocket`` is the project itself, not the PyPI
    ``websocket-client`` (imported as ``websocket``) a Go repository never declares (what
    ``Upgrade`` does is a part left unchecked, adr/0059)."""
    files = {
        "go.mod": "module github.com/acme/websocket\n\ngo 1.12\n",
        "server.go": 'package websocket\n\nimport "net/http"\n\ntype Upgrader struct{}\n\n'
                     "func (u *Upgrader) Upgrade(w http.ResponseWriter, r *http.Request) {}\n",
    }  # fmt: skip
    served = await check_served(
        git_repo, files,
        "Upgrader.Upgrade upgrades an HTTP connection to a WebSocket (server.go).",
        "ACTIVE", "server.go defines Upgrader.Upgrade")  # fmt: skip
    assert not any("websocket" in a["anchor"] for a in served["anchors"]), served
