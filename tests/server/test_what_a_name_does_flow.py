"""What a note says a name does or how it is used, as agents wrote notes about a comment
server, a git-hook manager, a gRPC library (TypeScript) and a Chef server (Go) they had
not been shown before; through MCP ``remember`` + ``recall`` on real git repositories,
each class phrased true and false:

- a private name (``_logVerbosity``) is a name of code, and what a file or a definition
  placed in a file does to it is no existence ("`FileIndex.Save()` in index.go writes
  ... as JSON");
- an order between two variables in other words ("`A` overrides `B`");
- what names no file or package: a path that is a constant's value, a module's member
  written like a file (``file_lock.lock``), a platform ("on POSIX"), a keyword argument
  or a parameter with its default, an acronym for a protocol ("the WSGI app"), a pair of
  names joined by ``/``, a runtime's module ("Node's zlib");
- what a package is to the code when the code does not import it: a vendored copy, a
  variable a dependency reads;
- the arguments of a call written out ("`PBKDF2(salt=None, iterations=1000)`") are the
  signature's defaults, never the value of a class attribute elsewhere;
- a Go package used by its package name (``cache.New`` from ``go-cache``), and how an
  import is made: only for types, or only inside a function when the note says at the top;
- and what a second round showed (a Flask production tracker, a job queue, an API client
  in TypeScript, a Rust systemd generator): a runtime's global (``Deno.env.get``), an
  attribute the code assigns (``app.json = ...``), a value that is a call, a technology
  naming what a thing is ("a Redis message_queue") in a file that need not import it, a
  constant among variables of the environment, a distribution's package, a quoted shape
  ("lines like "<prio>msg""), what a file that is not code says, and how an action is
  done beyond the package that another anchor checks; a parameter's default named by its
  words ("defaults to a pool of 10 connections"), through the constant the signature names;
- and a third round: a data file is no import path, a module's member written like a file
  (`comments.util.codec.json`), a default path in parentheses, a file name the program
  writes, a place after ``$HOME``, a section written with a colon, and a dependency the
  manifest declares under a word a Python package is imported as (``bson``).
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

COMMENTS = {
    "pyproject.toml": '[project]\nname = "comments"\nversion = "0.14"\n'
                      'dependencies = ["werkzeug"]\n',
    "comments/__init__.py": "import os\n\nfrom comments.core import ThreadedMixin\n\n\n"
                            "def make_app(conf, threading=True, multiprocessing=False):\n"
                            "    return ThreadedMixin() if threading else None\n\n\n"
                            "def main():\n"
                            '    path = os.environ.get("COMMENTS_SETTINGS", "/etc/c.cfg")\n'
                            "    return make_app(path)\n",
    "comments/core.py": "import threading\n\n\nclass ThreadedMixin:\n"
                        "    lock = threading.Lock()\n",
    "comments/run.py": "from comments import make_app\n\n"
                       "application = make_app(None, multiprocessing=True)\n",
    "comments/wsgi.py": "from werkzeug.wsgi import get_current_url\n\n\n"
                        "def url(environ):\n    return get_current_url(environ)\n",
    "comments/constants.py": 'CONFIG_FILE = ".comments-config.yaml"\nLOCAL_VERSION = "1"\n',
    "comments/file_lock.py": "import fcntl\n\n\ndef lock(fd):\n"
                             "    fcntl.flock(fd, fcntl.LOCK_EX)\n",
    "comments/store.py": "from comments import file_lock\n\n\nclass Store:\n"
                         "    def exclusive_lock(self, fd):\n        file_lock.lock(fd)\n",
    "comments/cache.py": "class BaseCache:\n    pass\n\n\nclass SimpleCache(BaseCache):\n"
                         "    pass\n",
    "comments/hash.py": "class Hash:\n    func = None\n\n"
                        '    def __init__(self, salt=None, func="sha1"):\n'
                        "        self.salt = salt\n\n\n"
                        "class PBKDF2(Hash):\n"
                        "    def __init__(self, salt=None, iterations=1000, dklen=6,\n"
                        '                 func="sha1"):\n'
                        "        super().__init__(salt)\n"
                        "        self.iterations = iterations\n",
    "comments.cfg": "[hash]\nsalt = Eech7co8\nalgorithm = pbkdf2\n",
    "comments/auth.py": "from datetime import timedelta\n\n"
                        "MAX_FAILED_ATTEMPTS = 5\nLOCKOUT_DELAY = timedelta(minutes=1)\n",
    "comments/config.py": "import os\n\n"
                          'CORS_ORIGINS = os.getenv("CORS_ORIGINS", "").split(";")\n'
                          'EXEMPT_USERS_STR = os.getenv("2FA_EXEMPT_USERS", "")\n'
                          'EXEMPT_USERS = EXEMPT_USERS_STR.split(",")\n'
                          "EVENTS_DB_INDEX = 2\n",
    "comments/events.py": "from comments.config import EVENTS_DB_INDEX\n\n\n"
                          "def init(socketio, app):\n"
                          '    url = f"redis://localhost/{EVENTS_DB_INDEX}"\n'
                          "    socketio.init_app(app, message_queue=url)\n",
    "comments/queue.py": "import redis\nimport multiprocessing\n\n\nclass WorkerPool:\n"
                         "    def start(self):\n"
                         '        return multiprocessing.get_context("fork")\n\n\n'
                         "def connect():\n    return redis.Redis()\n",
    "comments/factory.py": "from comments.json_provider import ORJSONProvider\n\n\n"
                           "def create_app(app):\n    app.json = ORJSONProvider(app)\n"
                           "    return app\n",
    "comments/adapter.py": "DEFAULT_POOLSIZE = 10\nDEFAULT_RETRIES = 0\n\n\nclass Adapter:\n"
                           "    def __init__(self, pool_connections=DEFAULT_POOLSIZE,\n"
                           "                 pool_maxsize=DEFAULT_POOLSIZE,\n"
                           "                 max_retries=DEFAULT_RETRIES, timeout=30):\n"
                           "        self.timeout = timeout\n",
    "comments/util/__init__.py": "",
    "comments/util/codec.py": "import json as _json\n\njson = _json\n",
    "comments/json_provider.py": "class ORJSONProvider:\n"
                                 "    def __init__(self, app):\n        self.app = app\n",
}  # fmt: skip
GRPC = {
    "package.json": '{"name": "grpc-lib", "version": "1.14.7",\n'
                    ' "dependencies": {"@grpc/proto-loader": "^0.8.0", "bson": "^7.3.2"}}\n',
    "src/constants.ts": "export enum LogVerbosity {\n  DEBUG = 0,\n  INFO,\n  ERROR,\n}\n",
    "src/logging.ts": "import { LogVerbosity } from './constants';\n\n"
                      "let _logVerbosity: LogVerbosity = LogVerbosity.ERROR;\n\n"
                      "const verbosity = process.env.GRPC_NODE_VERBOSITY ?? "
                      "process.env.GRPC_VERBOSITY;\n"
                      "if (verbosity === 'INFO') {\n  _logVerbosity = LogVerbosity.INFO;\n}\n\n"
                      "export function getVerbosity(): LogVerbosity {\n"
                      "  return _logVerbosity;\n}\n",
    "src/http_proxy.ts": "export function getProxyInfo(): string | null {\n"
                         "  return process.env.https_proxy ?? process.env.http_proxy ?? null;\n}\n",
    "src/compression.ts": "import * as zlib from 'zlib';\n\n"
                          "export function deflate(b: Buffer): Buffer {\n"
                          "  return zlib.deflateSync(b);\n}\n",
    "src/channelz.ts": "import type { loadSync } from '@grpc/proto-loader';\n\n"
                       "export function getDefinition(): unknown {\n"
                       "  const load = require('@grpc/proto-loader').loadSync as typeof loadSync;\n"
                       "  return load('channelz.proto');\n}\n",
    "src/types.ts": "import type { Options } from '@grpc/proto-loader';\n\n"
                    "export type LoaderOptions = Options;\n",
    "src/env.ts": "declare const Deno: any;\n\n"
                  "export const readEnv = (name: string): string | undefined => {\n"
                  "  if (typeof Deno !== 'undefined') {\n"
                  "    return Deno.env?.get?.(name)?.trim() || undefined;\n  }\n"
                  "  return process.env[name]?.trim() || undefined;\n};\n",
}  # fmt: skip
GENERATOR = {
    "Cargo.toml": '[package]\nname = "generator"\nversion = "1.1.2"\nedition = "2018"\n\n'
                  '[dependencies]\nanyhow = "1.0.12"\nclap = "2.33"\n',
    "src/main.rs": "use clap::App;\n\nfn main() {\n"
                   '    let _m = App::new("generator").get_matches();\n}\n',
    "src/kernlog.rs": "use std::fs::OpenOptions;\n\npub fn open() -> bool {\n"
                      '    OpenOptions::new().write(true).open("/dev/kmsg").is_ok()\n}\n\n'
                      "pub fn line(prio: u8, target: &str, pid: u32, msg: &str) -> String {\n"
                      '    format!("<{}>{}[{}]: {}", prio, target, pid, msg)\n}\n',
    ".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  rustfmt:\n"
                                "    runs-on: ubuntu-latest\n    steps:\n"
                                "      - uses: actions/checkout@v4\n"
                                "      - run: rustup component add rustfmt\n"
                                "      - run: cargo fmt -- --check\n",
    "debian/patches/relax-dep.diff": "--- a/Cargo.toml\n+++ b/Cargo.toml\n",
}  # fmt: skip
CHEF = {
    "go.mod": "module github.com/example/chef\n\ngo 1.19\n\nrequire (\n"
              "\tgithub.com/pmylund/go-cache v2.1.0+incompatible\n"
              "\tgithub.com/hashicorp/vault/api v1.0.0\n)\n",
    "datastore/datastore.go": 'package datastore\n\nimport (\n\t"os"\n\n'
                              '\t"github.com/pmylund/go-cache"\n)\n\n'
                              "type DataStore struct {\n\tdsCache *cache.Cache\n}\n\n"
                              "func New() *DataStore {\n"
                              "\treturn &DataStore{dsCache: cache.New(0, 0)}\n}\n\n"
                              "func (ds *DataStore) Save(f string) error {\n"
                              "\treturn os.Rename(f+\".tmp\", f)\n}\n",
    "datastore/db.go": 'package datastore\n\nimport "encoding/json"\n\n'
                       "func EncodeBlob(v interface{}) ([]byte, error) {\n"
                       "\treturn json.Marshal(v)\n}\n\n"
                       "func DecodeBlob(b []byte, v interface{}) error {\n"
                       "\treturn json.Unmarshal(b, v)\n}\n",
    "indexer/file_index.go": 'package indexer\n\nimport "encoding/gob"\n\n'
                             "type FileIndex struct {\n\tfile string\n}\n\n"
                             "func (i *FileIndex) Save(w interface{}) error {\n"
                             "\t_ = gob.NewEncoder\n\treturn nil\n}\n",
    "internal/driver/settings.go": 'package driver\n\nimport "os"\n\n'
                                   'const settingsFileName = "pprof/settings.json"\n\n'
                                   "func settingsDir() (string, error) {\n"
                                   "\treturn os.UserConfigDir()\n}\n",
    "secret/vault.go": 'package secret\n\nimport vault "github.com/hashicorp/vault/api"\n\n'
                       "func configureVault() (*vault.Config, error) {\n"
                       "\tconf := vault.DefaultConfig()\n"
                       "\treturn conf, conf.ReadEnvironment()\n}\n",
}  # fmt: skip

CLAIMS = [
    # a private name, and what a file or a placed definition does
    (GRPC, "When no verbosity variable is set, src/logging.ts starts `_logVerbosity` at "
           "`LogVerbosity.INFO`.", "ACTIVE", "that src/logging.ts starts `_logVerbosity`"),
    (GRPC, "`_logVerbosity` is declared in src/logging.ts.", "VERIFIED", "_logVerbosity"),
    (GRPC, "`_logVerbosity` is declared in src/constants.ts.", "REFUTED", "_logVerbosity"),
    (CHEF, "`FileIndex.Save()` in indexer/file_index.go writes the index to the file as "
           "plain JSON.", "ACTIVE", "that `FileIndex.Save()` in indexer/file_index.go writes"),
    (GRPC, "`getProxyInfo()` in src/http_proxy.ts accepts both http: and https: proxy URLs.",
     "ACTIVE", "that `getProxyInfo()` in src/http_proxy.ts accepts"),
    (GRPC, "`getProxyInfo()` is defined in src/http_proxy.ts.", "VERIFIED", "getProxyInfo"),
    # an order between two variables
    (GRPC, "If both are set, `GRPC_VERBOSITY` overrides `GRPC_NODE_VERBOSITY`.", "ACTIVE",
     "that `GRPC_VERBOSITY` overrides `GRPC_NODE_VERBOSITY`"),
    (GRPC, "If both are set, `GRPC_NODE_VERBOSITY` overrides `GRPC_VERBOSITY`.", "ACTIVE",
     "that `GRPC_NODE_VERBOSITY` overrides `GRPC_VERBOSITY`"),
    (GRPC, "GRPC_NODE_VERBOSITY overrides the log level.", "VERIFIED", "GRPC_NODE_VERBOSITY"),
    # what names no file or package
    (COMMENTS, "`CONFIG_FILE` is `.comments-config.yaml` in comments/constants.py.",
     "VERIFIED", "CONFIG_FILE"),
    (COMMENTS, "`C.CONFIG_FILE` is `.comments-config.yaml`, beside `LOCAL_VERSION` in "
               "comments/constants.py.", "ACTIVE", "names what no anchor covers"),
    (COMMENTS, "The config file is comments/config.yaml.", "REFUTED",
     "comments/config.yaml is not in the repository"),
    (COMMENTS, "The lock is taken with file_lock.lock.", "ACTIVE", "no checkable anchor"),
    (COMMENTS, "The lock is taken in comments/lock_file.py.", "REFUTED",
     "comments/lock_file.py is not in the repository"),
    (COMMENTS, "comments/file_lock.py uses fcntl.flock on POSIX.", "VERIFIED",
     "imported by comments/file_lock.py"),
    (COMMENTS, "comments/file_lock.py uses msvcrt on POSIX.", "REFUTED", "msvcrt"),
    (COMMENTS, "comments/run.py passes `multiprocessing=True` to `make_app`.", "VERIFIED",
     "calls make_app(multiprocessing=True)"),
    (COMMENTS, "comments/run.py passes `threading=False` to `make_app`.", "REFUTED",
     "threading"),
    (COMMENTS, "`make_app` checks `threading` (default True) first.", "ACTIVE", "threading"),
    (COMMENTS, "comments/core.py imports threading.", "VERIFIED", "imported by comments/core.py"),
    (COMMENTS, "comments/run.py imports multiprocessing.", "REFUTED", "multiprocessing"),
    (COMMENTS, "The WSGI app is made by `make_app`.", "VERIFIED", "make_app"),
    (COMMENTS, "comments/wsgi.py uses werkzeug.wsgi.", "VERIFIED", "comments/wsgi.py"),
    (CHEF, "datastore.EncodeBlob/DecodeBlob in datastore/db.go use encoding/json.", "VERIFIED",
     "imported by datastore/db.go"),
    (CHEF, "datastore.EncodeBlob/DecodeBlob in datastore/db.go use encoding/gob.", "REFUTED",
     "encoding/gob"),
    (GRPC, "Compression in src/compression.ts uses Node's zlib.", "VERIFIED",
     "imported by src/compression.ts"),
    (GRPC, "Compression in src/compression.ts uses Node's brotli.", "ACTIVE", "brotli"),
    # what a package is to the code when it is not imported
    (COMMENTS, "comments/cache.py is a vendored, trimmed copy of cachelib (BaseCache, "
               "SimpleCache).", "ACTIVE", "that it is a copy of cachelib"),
    (COMMENTS, "comments/cache.py uses cachelib.", "REFUTED", "cachelib"),
    (CHEF, "secret/vault.go's configureVault reads VAULT_ADDR via vault's "
           "conf.ReadEnvironment().", "ACTIVE", "names what no anchor covers"),
    (CHEF, "configureVault reads VAULT_ADDR from the environment.", "REFUTED", "VAULT_ADDR"),
    # a call written out: its arguments are the signature's defaults
    (COMMENTS, 'Hash defaults: `PBKDF2(salt=None, iterations=1000, dklen=6, func="sha1")`.',
     "VERIFIED", "defines __init__(self, salt=None, iterations=1000"),
    (COMMENTS, 'Hash defaults: `PBKDF2(salt=None, iterations=5000, dklen=6, func="sha1")`.',
     "REFUTED", "iterations"),
    # a Go package by its package name; how an import is made
    (CHEF, "datastore/datastore.go calls `cache.New`.", "VERIFIED",
     "imported by datastore/datastore.go (line 6)"),
    (CHEF, "datastore/db.go uses `cache.New`.", "REFUTED", "cache"),
    (GRPC, "src/channelz.ts imports @grpc/proto-loader at the module's top, so it is always "
           "loaded.", "ACTIVE", "imported at the module's top"),
    (GRPC, "src/channelz.ts loads @grpc/proto-loader lazily inside `getDefinition`, with only "
           "a type import at the top.", "ACTIVE", "lazily"),
    (GRPC, "src/types.ts imports @grpc/proto-loader.", "ACTIVE",
     "imported when the code runs (only its types are)"),
    (GRPC, "src/types.ts imports the `Options` type from @grpc/proto-loader.", "VERIFIED",
     "imported by src/types.ts"),
    (GRPC, "src/compression.ts imports @grpc/proto-loader.", "REFUTED", "@grpc/proto-loader"),
    # what a second round showed
    (GRPC, "`readEnv` in src/env.ts also works under Deno via `Deno.env.get`.", "ACTIVE",
     "that `readEnv` in src/env.ts also works under Deno via `Deno.env.get`"),
    (GRPC, "`readEnv` is defined in src/env.ts.", "VERIFIED", "src/env.ts defines readEnv"),
    (COMMENTS, "create_app sets app.json = ORJSONProvider (comments/json_provider.py).",
     "ACTIVE", "defines ORJSONProvider"),
    (COMMENTS, "create_app sets app.json = ORJSONProvider (comments/provider.py).", "REFUTED",
     "comments/provider.py is not in the repository"),
    (COMMENTS, "In comments/auth.py, LOCKOUT_DELAY = timedelta(minutes=1).", "ACTIVE",
     "the value LOCKOUT_DELAY = timedelta(minutes=1)"),
    (COMMENTS, "In comments/auth.py, MAX_FAILED_ATTEMPTS = 5.", "VERIFIED",
     "MAX_FAILED_ATTEMPTS = 5"),
    (COMMENTS, "In comments/auth.py, MAX_FAILED_ATTEMPTS = 3.", "REFUTED", "MAX_FAILED_ATTEMPTS"),
    (COMMENTS, "comments/events.py sets up the event stream with a Redis message_queue on "
               "EVENTS_DB_INDEX.", "ACTIVE", "tech:redis"),
    (COMMENTS, "comments/queue.py connects with the redis client.", "VERIFIED",
     "imported by comments/queue.py"),
    (COMMENTS, "comments/events.py imports redis.", "REFUTED",
     "redis is not imported in comments/events.py"),
    (COMMENTS, "Note to self: list-type env vars are split on semicolons (CORS_ORIGINS), but the "
               "2FA exemption list comes from `2FA_EXEMPT_USERS` and is split on commas into "
               "EXEMPT_USERS.", "ACTIVE", "that EXEMPT_USERS is read from the environment"),
    (COMMENTS, "The CORS_ORIGINS env var is read in comments/config.py.", "VERIFIED",
     "CORS_ORIGINS"),
    (COMMENTS, "The ORIGINS_LIST env var is read in comments/config.py.", "REFUTED",
     "ORIGINS_LIST"),
    (COMMENTS, "`WorkerPool` in comments/queue.py starts its workers with the multiprocessing "
               "'spawn' context to avoid fork issues.", "ACTIVE",
     "that `WorkerPool` in comments/queue.py starts its workers"),
    (COMMENTS, "`WorkerPool` in comments/queue.py uses multiprocessing.", "VERIFIED",
     "imported by comments/queue.py"),
    (GENERATOR, "The Debian package patches Cargo.toml (debian/patches/relax-dep.diff) to relax "
                "clap.", "ACTIVE", "debian/patches/relax-dep.diff is tracked"),
    (GENERATOR, 'src/kernlog.rs writes to /dev/kmsg lines like "<prio>target[pid]: msg".',
     "ACTIVE", "/dev/kmsg"),
    (GENERATOR, "The rustfmt job in .github/workflows/ci.yml installs the nightly toolchain.",
     "ACTIVE", "what .github/workflows/ci.yml says"),
    (GENERATOR, "The CI workflow lives in .github/workflows/ci.yml.", "VERIFIED",
     ".github/workflows/ci.yml is tracked"),
    (GENERATOR, "The CI workflow lives in .github/workflows/test.yml.", "REFUTED",
     ".github/workflows/test.yml is not in the repository"),
    # what a third round showed
    (CHEF, "Saved configs live in pprof/settings.json under os.UserConfigDir() "
           "(`settingsFileName` in internal/driver/settings.go).", "ACTIVE",
     "pprof/settings.json"),
    (CHEF, "The default binary path is $HOME/.chef/binaries when nothing is set.", "ACTIVE",
     "the value $HOME/.chef/binaries"),
    (COMMENTS, "JSON goes through `comments.util.codec.json`.", "VERIFIED",
     "comments/util/codec.py assigns json"),
    (COMMENTS, "JSON goes through comments/util/codec.json.", "REFUTED",
     "comments/util/codec.json is not in the repository"),
    (COMMENTS, "`main` reads COMMENTS_SETTINGS (default ./config/comments.ini).", "ACTIVE",
     "./config/comments.ini"),
    (COMMENTS, "The baseline run writes the temp file name `_comments_run.json_`.", "ACTIVE",
     "no checkable anchor"),
    (COMMENTS, "`make_app` reads the `[tool:comments]` section.", "ACTIVE",
     "the [tool:comments] section"),
    (GRPC, "The runtime dependencies are @grpc/proto-loader ^0.8.0 and bson ^7.3.2.",
     "VERIFIED", "bson"),
    (GRPC, "The runtime dependencies are @grpc/proto-loader ^0.8.0 and bson ^6.0.0.",
     "REFUTED", "bson"),
    # a parameter's default named by its words, through the constant it names
    (COMMENTS, "`Adapter` defaults to a pool of 10 connections and 0 retries.", "VERIFIED",
     "DEFAULT_POOLSIZE = 10"),
    (COMMENTS, "`Adapter` defaults to a pool of 20 connections.", "REFUTED",
     "pool_connections defaults to DEFAULT_POOLSIZE = 10, not 20"),
    (COMMENTS, "`Adapter` waits with a timeout of 30 by default.", "VERIFIED",
     "comments/adapter.py"),
    (COMMENTS, "`Adapter` defaults to 10 workers.", "ACTIVE", "the value 10"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_what_a_note_says_a_name_does_is_read_for_what_it_is(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
