"""Verify-on-read beyond Python (issue #32): notes about a TypeScript frontend, a Go service
and a Rust worker beside a Python backend, through MCP ``remember`` + ``recall`` on a real git
repository with real commits.

Imports, definitions (methods included), environment reads and dependencies are checked in
the file or the project the anchor names, in its own language; a negation is refuted by a
TypeScript import; a note about the frontend is not made true by what the backend uses; a
file in a language no grammar reads leaves its checks unknown (ACTIVE), never decided."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CLIENT_TS = (
    'import axios from "axios";\n'
    'import type { User } from "../types/user";\n'
    'import { useStorage } from "@vueuse/core";\n\n'
    "const base = import.meta.env.VITE_API_URL;\n\n"
    "export function useUserApi() {\n"
    '  return { list: () => axios.get<User[]>(base + "/users") };\n'
    "}\n"
)
STORE_TS = (
    'import { defineStore } from "pinia";\n\n'
    "export const MAX_CACHED = 50;\n\n"
    "export class UserCache {\n"
    "  private items = new Map<string, string>();\n"
    "  get(id: string) { return this.items.get(id); }\n"
    "}\n\n"
    'export const useUserStore = defineStore("user", { state: () => ({ ids: [] }) });\n'
)
APP_VUE = (
    "<template><div>{{ count }}</div></template>\n"
    '<script setup lang="ts">\n'
    'import { ref } from "vue";\n'
    "const count = ref(0);\n"
    "</script>\n"
)
PACKAGE_JSON = """{
  "name": "web",
  "private": true,
  "engines": {"node": ">=18"},
  "dependencies": {"vue": "^3.4.0", "axios": "^1.6.0", "pinia": "^2.1.0",
                   "@vueuse/core": "^10.0.0"},
  "devDependencies": {"vitest": "^1.2.0", "typescript": "~5.3.0",
                      "@playwright/test": "^1.40.0"}
}
"""
STORE_GO = """package svc

import (
\t"os"

\t"github.com/redis/go-redis/v9"
)

type Store struct {
\tclient *redis.Client
}

func NewStore() *Store {
\treturn &Store{client: redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})}
}

func (s *Store) Get(key string) string {
\treturn key
}
"""
GO_MOD = """module example.com/svc

go 1.21

require (
\tgithub.com/gin-gonic/gin v1.9.1
\tgithub.com/redis/go-redis/v9 v9.0.5
)
"""
MAIN_RS = """use std::env;
use tokio::sync::Mutex;

pub struct Queue {
    items: Mutex<Vec<String>>,
}

impl Queue {
    pub async fn push(&self, item: String) {
        self.items.lock().await.push(item);
    }
}

fn threads() -> usize {
    env::var("WORKER_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(4)
}

fn main() {
    let _ = threads();
}
"""
CARGO_TOML = """[package]
name = "worker"
version = "0.1.0"
edition = "2021"

[dependencies]
tokio = { version = "1.35", features = ["full"] }
serde = "1.0"
env_filter = "0.1"

[dev-dependencies]
proptest = "1"
"""
APP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nrequires-python = ">=3.11"\n'
        'dependencies = ["fastapi>=0.110", "redis>=5"]\n'
    ),
    "shop/__init__.py": "",
    "shop/cache.py": (
        "import os\n\nimport redis\n\n"
        "CLIENT = redis.Redis.from_url(os.environ.get('REDIS_URL', 'redis://localhost'))\n"
    ),
    "web/package.json": PACKAGE_JSON,
    "web/src/api/client.ts": CLIENT_TS,
    "web/src/store/user.ts": STORE_TS,
    "web/src/types/user.ts": "export interface User { id: string; name: string }\n",
    "web/src/App.vue": APP_VUE,
    "svc/go.mod": GO_MOD,
    "svc/store.go": STORE_GO,
    "worker/Cargo.toml": CARGO_TOML,
    "worker/src/main.rs": MAIN_RS,
    "legacy/Billing.java": "package legacy;\n\npublic class Billing {\n  void charge() {}\n}\n",
}

# (note, anchors the agent gives, the status served, text an anchor's receipt holds)
GIVEN: list[tuple[str, list[str], str, str]] = [
    # TypeScript: imports, definitions, env reads, values
    ("The API client uses axios", ["import:axios@web/src/api/client.ts"], "VERIFIED",
     "imported by web/src/api/client.ts"),
    ("The API client uses ky", ["import:ky@web/src/api/client.ts"], "REFUTED",
     "ky is not imported in web/src/api/client.ts"),
    ("useUserApi is the API hook", ["symbol:web/src/api/client.ts::useUserApi"], "VERIFIED",
     "web/src/api/client.ts defines useUserApi"),
    ("useAdminApi is the admin hook", ["symbol:web/src/api/client.ts::useAdminApi"], "REFUTED",
     "does not define useAdminApi"),
    ("UserCache.get reads one user", ["symbol:web/src/store/user.ts::UserCache.get"],
     "VERIFIED", "defines UserCache.get"),
    ("The store is a Pinia store", ["symbol:useUserStore", "import:pinia@web/src/store"],
     "VERIFIED", "web/src/store/user.ts defines useUserStore"),
    ("The User type is an interface", ["symbol:web/src/types/user.ts::User"], "VERIFIED",
     "defines User"),
    ("The app component uses ref from vue", ["import:vue@web/src/App.vue"], "VERIFIED",
     "imported by web/src/App.vue"),
    ("The API base URL comes from VITE_API_URL", ["env:VITE_API_URL@web"], "VERIFIED",
     "VITE_API_URL is read in web/src/api/client.ts"),
    ("The backend reads VITE_API_URL", ["env:VITE_API_URL@shop"], "REFUTED",
     "it is read in web/src/api/client.ts"),
    ("At most 50 users are cached", ["symbol:web/src/store/user.ts::MAX_CACHED=50"], "VERIFIED",
     "MAX_CACHED = 50"),
    ("At most 500 users are cached", ["symbol:web/src/store/user.ts::MAX_CACHED=500"], "REFUTED",
     "not 500"),
    # package.json: the project's own manifest, dependencies and dev dependencies
    ("The frontend is a Vue app", ["dep:vue@web"], "VERIFIED", "web/package.json"),
    ("The frontend is a React app", ["dep:react@web"], "REFUTED", "react is not declared"),
    ("Tests use vitest", ["dep:vitest"], "VERIFIED", "vitest is declared in web/package.json"),
    ("Vue is declared by the backend", ["dep:vue@shop"], "REFUTED", "not declared for shop/"),
    # Go: imports by path, methods, env reads, go.mod requirements
    ("The store wraps go-redis", ["import:github.com/redis/go-redis/v9@svc/store.go"],
     "VERIFIED", "imported by svc/store.go"),
    ("Store.Get looks up a key", ["symbol:svc/store.go::Store.Get"], "ACTIVE",
     "svc/store.go defines Store.Get"),
    ("Store.Put writes a key", ["symbol:svc/store.go::Store.Put"], "REFUTED",
     "does not define Store.Put"),
    ("The Go service reads REDIS_ADDR", ["env:REDIS_ADDR@svc"], "VERIFIED",
     "REDIS_ADDR is read in svc/store.go"),
    ("The service is built on gin", ["dep:github.com/gin-gonic/gin@svc"], "VERIFIED",
     "svc/go.mod"),
    ("The service uses echo", ["dep:github.com/labstack/echo/v4@svc"], "REFUTED",
     "not declared for svc/"),
    # Rust: use paths, impl methods (Type::method), env::var, Cargo.toml
    ("The queue locks with tokio's Mutex", ["import:tokio::sync@worker/src/main.rs"],
     "VERIFIED", "imported by worker/src/main.rs"),
    ("Queue::push appends an item", ["symbol:worker/src/main.rs::Queue::push"], "ACTIVE",
     "defines Queue.push"),
    ("Queue::pop removes an item", ["symbol:worker/src/main.rs::Queue::pop"], "REFUTED",
     "does not define Queue.pop"),
    ("WORKER_THREADS sets the pool size", ["env:WORKER_THREADS@worker"], "VERIFIED",
     "WORKER_THREADS is read in worker/src/main.rs"),
    ("The worker runs on tokio", ["dep:tokio@worker"], "VERIFIED", "worker/Cargo.toml"),
    ("The worker uses async-std", ["dep:async-std@worker"], "REFUTED", "not declared"),
    # across languages: present in one project is not present in another
    ("The worker imports redis", ["import:redis@worker"], "REFUTED",
     "imported by shop/cache.py"),
    ("The web client does not use axios", ["!import:axios"], "REFUTED",
     "imported by web/src/api/client.ts"),
]  # fmt: skip

# A file in a language no grammar reads: nothing is decided about it.
UNKNOWN: list[tuple[str, list[str], str]] = [
    ("Billing charges cards", ["symbol:legacy/Billing.java::Billing"],
     "legacy/Billing.java was not parsed: no grammar here reads its language"),
    ("Billing has a charge method", ["symbol:Billing.charge"],
     "no grammar here reads its language"),
]  # fmt: skip


@pytest.fixture
def polyglot(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a Python backend, a Vue frontend, a Go service, a Rust worker")
    return git_repo


@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), GIVEN)
async def test_anchors_into_each_language_are_checked_in_that_language(
    polyglot: GitRepo, text: str, anchors: list[str], status: str, receipt: str
) -> None:
    served = await remember_and_serve(polyglot.root, text, anchors)
    assert served["status"] == status, served["anchors"]
    assert receipt in receipts(served), served["anchors"]


@pytest.mark.parametrize(("text", "anchors", "receipt"), UNKNOWN)
async def test_a_file_no_grammar_reads_leaves_its_checks_unknown(
    polyglot: GitRepo, text: str, anchors: list[str], receipt: str
) -> None:
    served = await remember_and_serve(polyglot.root, text, anchors)
    assert served["status"] == "ACTIVE", served["anchors"]
    assert [a["verdict"] for a in served["anchors"]] == ["unknown"], served["anchors"]
    assert receipt in receipts(served), served["anchors"]


async def test_an_edit_to_a_typescript_file_is_seen_before_it_is_committed(
    polyglot: GitRepo,
) -> None:
    polyglot.write({"web/src/api/client.ts": CLIENT_TS.replace('"axios"', '"ky"')})
    served = await remember_and_serve(
        polyglot.root, "The API client uses ky", ["import:ky@web/src/api/client.ts"]
    )
    assert served["status"] == "VERIFIED", served["anchors"]


# Notes as agents write them: the technology, the project and the version are read from
# the words.
PROSE: list[tuple[str, str, str]] = [
    # what go.mod and Cargo.toml declare, as written; a minimum where the toolchain builds
    ("svc/go.mod declares go 1.21", "VERIFIED", "svc/go.mod:3 lists go 1.21"),
    ("svc/go.mod declares go 1.22", "REFUTED", "svc/go.mod:3 lists go 1.21, not 1.22"),
    ("The Go service is built with Go 1.22", "VERIFIED", "go-version 1.21"),
    ("The svc module path is example.com/svc", "VERIFIED", "svc/go.mod:1 says module"),
    ("The svc module path is example.com/svc/v2", "REFUTED", "not example.com/svc/v2"),
    ("The worker crate is on edition 2021", "VERIFIED", "worker/Cargo.toml:4 says edition"),
    ("The worker crate is on edition 2018", "REFUTED", "says edition: 2021, not 2018"),
    ("The worker crate's edition is 2021.", "VERIFIED", "worker/Cargo.toml:4 says edition"),
    ("The worker crate's edition is 2018.", "REFUTED", "says edition: 2021, not 2018"),
    # a bare version after a dependency: its series (exactly it when full), compared in the
    # manifest's own dialect (Cargo's "0.1" is ^0.1; npm's ^1.6.0)
    ("The worker depends on env_filter 0.2", "REFUTED", "which excludes env-filter==0.2.*"),
    ("The worker depends on tokio 1", "VERIFIED", "worker/Cargo.toml"),
    ("The worker depends on tokio 0.2", "REFUTED", "which excludes tokio==0.2.*"),
    ("The web client uses axios 0.27", "REFUTED", "which excludes axios==0.27.*"),
    ("The web client uses axios 1", "VERIFIED", "web/package.json"),
    ("The web client calls the API with ofetch rather than axios", "REFUTED",
     "web/src/api/client.ts"),
    ("The frontend does not use axios", "REFUTED", "web/src/api/client.ts"),
    ("The frontend talks to Redis directly", "REFUTED", "not in web"),
    ("The frontend keeps its state in Pinia", "VERIFIED", "web/src/store/user.ts imports pinia"),
    ("The frontend is tested with Vitest", "VERIFIED", "web/package.json declares vitest"),
    ("The Go service caches with Redis through go-redis", "VERIFIED", "svc/store.go"),
    ("We do not use axios in the frontend", "REFUTED", "web/src/api/client.ts"),
    ("The Go service does not use Redis", "REFUTED", "svc/store.go"),
    ("The UI is built with Vue", "VERIFIED", "web/package.json"),
    ("The frontend is built with React", "REFUTED", "React is not used in web/"),
    ("The worker's async runtime is tokio", "VERIFIED", "tokio"),
    ("The frontend needs Node 18 or later (engines in web/package.json)", "VERIFIED",
     "web/package.json"),
    ("The Go service is built with Go 1.21", "VERIFIED", "svc/go.mod"),
    ("The Go service is built with Go 1.19", "REFUTED", "svc/go.mod"),
    ("The generated TypeScript types live in `web/src/types`", "VERIFIED", "web/src/types"),
    # a Go file's imports, negated or named as "the X package", are claimed for that file
    ("svc/store.go does not import os", "REFUTED", "imported by svc/store.go"),
    ("svc/store.go reads REDIS_ADDR with the os package", "VERIFIED", "imported by svc/store.go"),
    # a Go method's parameters are not read: its definition existing does not check them
    ("Store.Get takes one key per call", "ACTIVE", "svc/store.go defines Store.Get"),
    # a Rust type's method written as Rust writes it, in prose
    ("Queue::push is in worker/src/main.rs", "VERIFIED", "defines Queue.push"),
    ("Queue::pop is in worker/src/main.rs", "REFUTED", "Queue.pop"),
    # a spec quoted as package.json writes it
    ("vitest ^1.2.0 is a devDependency of the frontend", "VERIFIED", "web/package.json"),
    # npm packages named with their scope
    ("The API client uses @vueuse/core", "VERIFIED", "web/src/api/client.ts"),
    ("The UI components come from @material-ui/core", "REFUTED", "@material-ui/core"),
    ("We no longer use @material-ui/core", "VERIFIED", "@material-ui/core"),
    ("We dropped @vueuse/core", "REFUTED", "web/src/api/client.ts"),
    # a crate named as code writes it (snake case) is the dependency a manifest declares
    ("We depend on env_filter", "VERIFIED", "worker/Cargo.toml"),
]  # fmt: skip


# A development dependency is not a run-time one: the claim is named, never VERIFIED; said
# of a package no running source of the frontend imports, it is refuted.
RUNTIME: list[tuple[str, str, str]] = [
    ("vitest is a runtime dependency of the frontend", "REFUTED",
     "uncovered:vitest (declared for development only)"),
    ("The frontend depends on vitest at runtime", "REFUTED",
     "uncovered:vitest (declared for development only)"),
    ("vue is a runtime dependency of the frontend", "VERIFIED", ""),
    ("@playwright/test sits in the frontend's runtime dependencies", "REFUTED",
     "uncovered:@playwright/test (declared for development only)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status", "flag"), RUNTIME)
async def test_a_dev_dependency_does_not_verify_a_runtime_claim(
    polyglot: GitRepo, text: str, status: str, flag: str
) -> None:
    served = await remember_and_serve(polyglot.root, text)
    assert served["status"] == status, served
    assert not flag or flag in served["flags"], served


@pytest.mark.parametrize(("text", "status", "receipt"), PROSE)
async def test_notes_as_agents_write_them_about_each_language(
    polyglot: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(polyglot.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served["anchors"]


async def test_a_run_time_dependency_moved_to_dev_dependencies_is_drifted_not_verified(
    tmp_path: Path,
) -> None:
    """A note written while the package was a run-time dependency is served as drifted once
    the manifest declares it for development only: what it said of the role is not checked
    again by the dependency still being declared."""
    from mcp import Client

    from server.app import build_server
    from server.config import Settings
    from tests.conftest import settings_env
    from tests.mcp_calls import call

    repo = GitRepo(tmp_path / "repo")
    repo.commit({"package.json": '{"dependencies": {"@playwright/test": "^1.40.0"}}'})
    settings = Settings.resolve(
        repo=str(repo.root), db=str(tmp_path / "memory.duckdb"),
        env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000"),
    )  # fmt: skip
    text = "@playwright/test sits in the runtime dependencies"
    async with Client(build_server(settings)) as client:
        made = await call(client, "remember", text=text)
        assert made["status"] == "VERIFIED", made
    repo.commit({"package.json": '{"devDependencies": {"@playwright/test": "^1.41.0"}}'})
    async with Client(build_server(settings)) as client:
        found = await call(client, "recall", query=text, include_refuted=True, detail=True)
    [served] = [m for m in found["memories"] if m["id"] == made["id"]]
    assert served["status"] == "ACTIVE" and served["anchors"][0]["verdict"] == "drifted", served


async def test_the_repositorys_own_crate_is_no_missing_code_and_a_feature_is_named(
    git_repo: GitRepo,
) -> None:
    """A crate's own name is the note's subject, not code the repository lacks; which
    features a dependency enables is a part no anchor checks."""
    git_repo.commit({
        "Cargo.toml": (
            '[package]\nname = "env-thing"\nversion = "0.1.0"\nedition = "2021"\n\n'
            '[dependencies]\nlog = { version = "0.4.21", features = ["std"] }\n'
        ),
        "src/lib.rs": "use log::info;\n\npub fn start() {\n    info!(\"start\");\n}\n",
    }, "a crate")  # fmt: skip
    plain = await remember_and_serve(git_repo.root, "env_thing depends on log 0.4.")
    assert plain["status"] == "VERIFIED", plain
    assert "unresolved_code" not in plain["flags"], plain
    # Cargo's "0.4.21" quoted as Cargo writes it is that requirement (a later "0.4.30" is
    # another one, which excludes the exact version: tests/anchors/test_cargo_claims.py)
    exact = await remember_and_serve(git_repo.root, "env_thing needs log 0.4.21.")
    assert exact["status"] == "VERIFIED", exact
    featured = await remember_and_serve(
        git_repo.root, "env_thing depends on log 0.4 with the std feature."
    )
    assert featured["status"] == "ACTIVE", featured
    assert "uncovered:the feature std" in featured["flags"], featured
