"""What notes say of a project's manifests, targets and configuration in words, through MCP
``remember`` + ``recall`` on real git repositories: a crate declared for some targets
("a Windows-only dependency", "on every platform"), a dependency the project is said to
have that nothing declares, Rust items inside inline modules, "X is a method of Y", the
edition Cargo assumes, an npm package's own unscoped name, ``process.env.NAME``, an
option's default named by its word, the Dockerfile named as a file and the variable it
sets, a snake_case key a Python file writes as a string, a JavaScript package's ``lib/``
sources, Node's own modules, a declared minimum, a devDependency, what Cargo fills in at
build time, an example's own manifest and a member a type lacks."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CRATE = {
    "Cargo.toml": '[package]\nname = "dirs-sys"\nversion = "0.3.7"\n\n'
                  '[target."cfg(unix)".dependencies.libc]\nversion = "0.2"\n\n'
                  '[target."cfg(windows)".dependencies.winapi]\nversion = "0.3"\n\n'
                  '[target."cfg(unix)".dev-dependencies.termion]\nversion = "2"\n',
    "src/lib.rs": "#[cfg(windows)]\nmod target_windows {\n"
                  "    pub fn known_folder() -> Option<String> {\n        None\n    }\n}\n"
                  "#[cfg(windows)]\npub use self::target_windows::known_folder;\n",
}  # fmt: skip
GO = {
    "go.mod": "module github.com/acme/cors\n",
    "cors.go": 'package cors\n\nimport (\n\t"log"\n\t"os"\n)\n\n'
               "type Cors struct {\n\tLog *log.Logger\n}\n\n"
               "func (c *Cors) isOriginAllowed(origin string) bool {\n"
               '\treturn origin != ""\n}\n\n'
               "func New() *Cors {\n"
               '\treturn &Cors{Log: log.New(os.Stdout, "[cors] ", log.LstdFlags)}\n}\n',
}  # fmt: skip
NPM = {
    "package.json": '{"name": "@acme/query-core", "version": "5.0.0"}\n',
    "src/query.ts": "export function warn(): void {\n"
                    "  if (process.env.NODE_ENV !== 'production') {\n"
                    "    console.warn('dev');\n  }\n}\n",
}  # fmt: skip
APP = {
    "pyproject.toml": '[project]\nname = "ledger"\nversion = "1.0"\ndependencies = ["click>=8"]\n',
    "ledger/__init__.py": "",
    "ledger/cli.py": "import click\n\n\n"
                     '@click.command(context_settings={"auto_envvar_prefix": "LEDGER"})\n'
                     '@click.option("-p", "--port", type=int, default=5000)\n'
                     "def main(port: int) -> None:\n    print(port)\n",
    "contrib/docker/Dockerfile": 'FROM python:3.12-slim\nENV LEDGER_HOST "0.0.0.0"\n'
                                 "EXPOSE 5000\nCMD ledger\n",
}  # fmt: skip

EXPRESS = {
    "package.json": '{"name": "express", "version": "4.21.1", "main": "index.js",\n'
                    ' "engines": {"node": ">= 0.10.0"},\n'
                    ' "dependencies": {"debug": "2.6.9"},\n'
                    ' "devDependencies": {"mocha": "10.7.3"}}\n',
    "index.js": "module.exports = require('./lib/express');\n",
    "lib/express.js": "var http = require('http');\nvar debug = require('debug')('express');\n"
                      "var env = process.env.NODE_ENV || 'development';\n"
                      "module.exports = function () { return http.createServer(); };\n",
    "test/app.js": "var mocha = require('mocha');\n",
}  # fmt: skip
UREQ = {
    "Cargo.toml": '[package]\nname = "ureq"\nversion = "2.6.2"\nedition = "2018"\n\n'
                  '[dependencies]\nlog = "0.4"\n\n[dev-dependencies]\nenv_logger = "0.9"\n',
    "src/lib.rs": 'pub const VERSION: &str = env!("CARGO_PKG_VERSION");\n\n'
                  "pub struct Agent {\n    pub max_idle: usize,\n}\n",
    "examples/tls/Cargo.toml": '[package]\nname = "tls"\nversion = "0.1.0"\nedition = "2021"\n',
    "examples/tls/src/main.rs": "fn main() {}\n",
}  # fmt: skip

COMMANDER = {
    "package.json": '{"name": "commander", "version": "12.1.0", "main": "./index.js",\n'
                    ' "types": "typings/index.d.ts", "engines": {"node": ">=18"},\n'
                    ' "devDependencies": {"typescript": "^5.4.0"}}\n',
    "index.js": "module.exports = require('./lib/command.js');\n",
    "lib/command.js": "const childProcess = require('node:child_process');\n"
                      "function fromEnv(option) {\n"
                      "  return option.envVar in process.env;\n}\n"
                      "module.exports = { fromEnv, childProcess };\n",
    "typings/index.d.ts": "export declare function fromEnv(option: object): boolean;\n",
    "typings/esm.d.mts": "export { fromEnv } from './index.js';\n",
}  # fmt: skip
SERVER = {
    "pyproject.toml": '[project]\nname = "pkgserver"\nversion = "2.4"\n'
                      'dependencies = ["defusedxml>=0.7"]\n\n'
                      '[project.optional-dependencies]\npasslib = ["passlib==1.7.4"]\n\n'
                      '[dependency-groups]\ndev = ["passlib>=1.6", "pytest"]\n',
    "pkgserver/__init__.py": "",
    "pkgserver/config.py": "import defusedxml\n\ntry:\n    import passlib\n"
                           "except ImportError:\n    passlib = None\n",
}  # fmt: skip
CLI = {
    "go.mod": "module github.com/acme/cli\n\ngo 1.11\n",
    "app.go": 'package cli\n\nimport (\n\t"io"\n\t"os"\n)\n\n'
              "type App struct {\n\tWriter io.Writer\n}\n\n"
              "func NewApp() *App {\n\treturn &App{Writer: os.Stdout}\n}\n",
    "errors.go": 'package cli\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
                 "func report(err error) {\n\tfmt.Fprintln(os.Stderr, err)\n}\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # the targets a crate is declared for
    (CRATE, "winapi is a Windows-only dependency.", "VERIFIED",
     "dependencies.winapi.target: cfg(windows)"),
    (CRATE, "libc is only a dependency on Unix targets.", "VERIFIED",
     "dependencies.libc.target: cfg(unix)"),
    (CRATE, "winapi is a dependency on every platform.", "REFUTED",
     "dependencies.winapi.target: cfg(windows)"),
    (CRATE, "libc is a Windows-only dependency.", "REFUTED", "not cfg(windows)"),
    # a dev-dependency's targets are not read: never refuted on a run-time reading
    (CRATE, "termion is a Unix-only dev-dependency.", "ACTIVE", ""),
    # a dependency said of the project that nothing declares
    (CRATE, "The crate depends on dirs-next.", "REFUTED", "dirs-next is not a declared dependency"),
    (CRATE, "The crate depends on the home crate.", "REFUTED", "home is not a declared dependency"),
    # an item of an inline module, by its own name; the edition Cargo assumes
    (CRATE, "known_folder is defined in src/lib.rs.", "VERIFIED",
     "src/lib.rs defines known_folder"),
    (CRATE, "The crate uses edition 2021.", "REFUTED", "edition: 2015, not 2021"),
    # a member on a type; a Go package's member in a note about no file
    (GO, "isOriginAllowed is a method of Cors.", "VERIFIED", "defines Cors.isOriginAllowed"),
    (GO, "isHeaderAllowed is a method of Cors.", "REFUTED", "has no isHeaderAllowed"),
    (GO, "The debug logger writes to os.Stdout.", "VERIFIED", "imported by cors.go"),
    (GO, "The debug logger writes to os.Stderr.", "ACTIVE", ""),
    # an npm scope's package by its own name, and one variable of process.env
    (NPM, "query-core never reads process.env.", "REFUTED", "reads NODE_ENV"),
    (NPM, "The code reads process.env.NODE_ENV to warn outside production.", "VERIFIED",
     "NODE_ENV is read"),
    # an option's default named by its word; the Dockerfile as a file; a key as a string
    (APP, "The CLI's default port is 5000.", "VERIFIED", "`--port` defaults to `5000`"),
    (APP, "The CLI's default port is 8080.", "REFUTED", "not 8080"),
    (APP, "The Dockerfile sets LEDGER_HOST to 0.0.0.0.", "VERIFIED", 'ENV LEDGER_HOST="0.0.0.0"'),
    (APP, "The Dockerfile sets LEDGER_HOST to 127.0.0.1.", "REFUTED", "not 127.0.0.1"),
    (APP, "Options come from LEDGER_ variables (auto_envvar_prefix in cli.py).", "ACTIVE", ""),
    # a JavaScript package whose sources are its lib/; Node's own modules; a declared minimum
    (EXPRESS, "express never reads environment variables.", "REFUTED", "reads NODE_ENV"),
    (EXPRESS, "lib/express.js requires the https module.", "REFUTED",
     "https is not imported in lib/express.js"),
    (EXPRESS, "lib/express.js requires the http module.", "VERIFIED", "imported by lib/express.js"),
    (EXPRESS, "express requires Node 18 or later.", "REFUTED", "engines.node: >= 0.10.0, not >=18"),
    (EXPRESS, "mocha is a devDependency.", "VERIFIED", "mocha is declared in package.json"),
    (EXPRESS, "mocha is a runtime dependency.", "REFUTED", "no code that runs imports mocha"),
    # what Cargo fills in at build time is no read of the environment; an example's manifest
    (UREQ, "ureq never reads environment variables.", "VERIFIED",
     "no code that runs reads the environment"),
    (UREQ, "The crate uses edition 2018.", "VERIFIED", "edition: 2018"),
    (UREQ, "env_logger is only a dev-dependency.", "VERIFIED", "env-logger is declared"),
    # a member a type lacks, named in camelCase, is no package
    (UREQ, "The Agent struct has no maxIdle field.", "VERIFIED", "does not define Agent.maxIdle"),
    (UREQ, "The Agent struct has no max_idle field.", "REFUTED", "defines Agent.max_idle"),
    # lib/ beside type declarations only; a variable by a computed name is a read; a
    # module's "node:" prefix is no use of Node.js; typings are no TypeScript sources
    (COMMANDER, "commander never reads process.env.", "REFUTED", "a variable whose name"),
    (COMMANDER, "lib/command.js requires the node:child_process module.", "VERIFIED",
     "imported by lib/command.js"),
    (COMMANDER, "commander is written in TypeScript.", "ACTIVE",
     "that the code is written in TypeScript"),
    # an extra and a development group are no hard dependency
    (SERVER, "passlib is a hard dependency.", "ACTIVE", "an optional dependency"),
    (SERVER, "defusedxml is a runtime dependency.", "VERIFIED", "defusedxml is declared"),
    # a Go package's member in a note naming the file's word: that file's use
    (CLI, "An app writes to os.Stdout by default.", "VERIFIED", "imported by app.go"),
    (CLI, "An app writes to os.Stderr by default.", "ACTIVE", ""),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_what_notes_say_of_manifests_and_configuration(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
