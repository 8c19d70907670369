"""What notes say of values Go derives, of names the code writes as strings and of the
data structures code is built on, through MCP ``remember`` + ``recall`` on real git
repositories, each phrased true and false:

- a constant of a ``const`` block valued by ``iota`` or by repeating the line before (1, 2,
  ``1 << iota``): its number is checked, and "is explicitly assigned 1" is refuted where
  the language derives the 1;
- "under the string key "vars"", "the context key "user"": a name the code writes as a
  string; "named worker-1, worker-2, ... (workerName)": numbered names made from a stem;
- "matched through a radix tree", "deduplicated with a Bloom filter": a data structure
  the repository's text never names is refuted; one a comment or a docstring names leaves
  the note unchecked, never VERIFIED (the note may put it elsewhere);
- what a second round of notes showed: a member read after a dot (``a.state.dataUpdatedAt``)
  is a name the repository has; "the web UI" read as a folder of built assets is no place
  a package must be used in; what a source file exports, unchecked unless its names say
  it; "asks for rust-version 1.60"; an option ConfigArgParse or click also reads from a
  variable (``env_var=``, ``envvar=``); names given their values by unpacking a list;
- and a third: "ToX" beside "ToXE" is no package; ``map[string]string`` is not
  ``map[string][]string``; a Go type in lower case has its fields checked; a name imported
  from a module ("imports AsyncStorage"); an object literal's camelCase key is a name the
  repository has; a method said to be a field is left unchecked; "F's timeout defaults to
  30" of a parameter named in words; "the web UI listens on port 8080" of ``--web-port``.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

ROUTER = {
    "go.mod": "module example.com/router\n\ngo 1.20\n",
    "regexp.go": 'package router\n\nimport "strconv"\n\n'
                 "type regexpType int\n\n"
                 "const (\n\tregexpTypePath regexpType = iota\n\tregexpTypeHost\n"
                 "\tregexpTypePrefix\n)\n\n"
                 "const (\n\tRead Op = 1 << iota\n\tWrite\n\tRemove\n)\n\n"
                 "const maxDepth = 3\n\n"
                 "func varGroupName(idx int) string {\n"
                 '\treturn "v" + strconv.Itoa(idx)\n}\n',
    "context.go": 'package router\n\nimport "context"\n\n'
                  "type contextKey int\n\nconst (\n\tvarsKey contextKey = iota\n\trouteKey\n)\n\n"
                  'const userKey = "user"\n\n'
                  "func withVars(ctx context.Context, v map[string]string) context.Context {\n"
                  "\treturn context.WithValue(ctx, varsKey, v)\n}\n",
    # "Radix tree below, after the original by ...": a data structure code names in a comment
    "tree.go": "package router\n\n// Radix tree implementation for the routes.\n"
               "type node struct {\n\tprefix string\n\tchildren []*node\n}\n",
}  # fmt: skip
SERVICE = {
    "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\n',
    "svc/__init__.py": "",
    "svc/seen.py": 'SEEN = "seen"\n\n\ndef check(key):\n    """Look the key up: no Bloom filter, '
                   'a plain set."""\n    return key in set()\n',
    "svc/routes.py": "ROUTES = {}\n\n\ndef match(path):\n    return ROUTES.get(path)\n",
}  # fmt: skip

PERSIST = {
    "package.json": '{"name": "persist", "version": "1.0.0", "type": "module",\n'
                    ' "dependencies": {"@tanstack/query-core": "5.0.0"}}\n',
    "src/persist.ts": "export function persist(client: any) {\n  return client\n}\n",
    "src/retry.ts": "export const removeOldest = (c: any) =>\n"
                    "  [...c.queries].sort((a: any, b: any) => a.state.dataUpdatedAt -"
                    " b.state.dataUpdatedAt)\n",
    "src/index.ts": "export * from './persist'\nexport * from './retry'\n",
}  # fmt: skip
LOAD = {
    "pyproject.toml": '[project]\nname = "load"\nversion = "1.0"\n'
                      'dependencies = ["flask", "flask-login", "configargparse", "click"]\n',
    "load/__init__.py": "",
    "load/web.py": "from flask import Flask\nfrom flask_login import LoginManager\n\n"
                   "app = Flask(__name__)\nlogin = LoginManager(app)\n",
    "load/webui/dist/index.html": "<html><body>load</body></html>\n",
    "load/webui/dist/assets/index-abc.js": "const login=()=>fetch('/login');export{login};\n",
    "load/options.py": "import click\nimport configargparse\n\n"
                       "parser = configargparse.ArgumentParser()\n"
                       'parser.add_argument("--web-port", type=int, default=8089,'
                       ' env_var="LOAD_WEB_PORT")\n\n\n'
                       '@click.command()\n@click.option("--workers", envvar="LOAD_WORKERS",'
                       " default=4)\ndef main(workers):\n    return workers\n",
    "load/runners.py": 'STATE_INIT, STATE_RUNNING = ["ready", "running"]\n',
    "load/db.py": "class Database:\n    revision = 0\n\n"
                  "    def __init__(self, path, timeout: float = 5.0):\n"
                  "        self.path = path\n        self.timeout = timeout\n",
}  # fmt: skip
CRATE = {
    "Cargo.toml": '[package]\nname = "rnd"\nversion = "1.8.0"\nedition = "2018"\n'
                  'rust-version = "1.34"\n',
    "src/lib.rs": "pub struct Rng(u64);\n\n"
                  "pub struct Buf {\n    cap: usize,\n    data: Vec<u8>,\n}\n\n"
                  "impl Buf {\n    pub fn len(&self) -> usize {\n        self.data.len()\n    }\n\n"
                  "    pub fn cap(&self) -> usize {\n        self.cap\n    }\n}\n",
}  # fmt: skip

CASTS = {
    "go.mod": "module example.com/cast\n\ngo 1.18\n",
    "cast.go": "package cast\n\nfunc ToBool(i interface{}) bool {\n\tv, _ := ToBoolE(i)\n"
               "\treturn v\n}\n\nfunc ToStringMapStringSlice(i interface{}) map[string][]string {\n"
               "\treturn nil\n}\n",
    "caste.go": "package cast\n\nfunc ToBoolE(i interface{}) (bool, error) {\n"
                "\treturn false, nil\n}\n\ntype timeFormat struct {\n\tformat string\n"
                "\ttyp    int\n}\n",
}  # fmt: skip
STORE = {
    "package.json": '{"name": "store", "version": "1.0.0",\n'
                    ' "dependencies": {"@tanstack/query-persist-client-core": "5.0.0"}}\n',
    "src/index.ts": "import type { AsyncStorage } from '@tanstack/query-persist-client-core'\n\n"
                    "export const make = (storage: AsyncStorage) => ({\n"
                    "  restoreClient: async () => storage.getItem('k'),\n})\n",
}  # fmt: skip

CLAIMS = [
    # iota and repeated values
    (ROUTER, "regexpTypeHost is 1 in regexp.go.", "VERIFIED", "(implicitly)"),
    (ROUTER, "regexpTypeHost is 2 in regexp.go.", "REFUTED", "not 2"),
    (ROUTER, "regexpTypeHost is explicitly assigned 1 in regexp.go.", "REFUTED",
     "writes no value for regexpTypeHost"),
    (ROUTER, "maxDepth is explicitly set to 3 in regexp.go.", "VERIFIED", "maxDepth = 3"),
    (ROUTER, "`Remove` is 4 in regexp.go.", "VERIFIED", "Remove = 4"),
    (ROUTER, "`Remove` is 3 in regexp.go.", "REFUTED", "not 3"),
    # names written as strings
    (ROUTER, 'The vars live in the request context under the string key "vars".', "REFUTED",
     'no string in the source code is "vars"'),
    (ROUTER, 'The user is stored under the context key "user".', "VERIFIED",
     'context.go writes the string "user"'),
    (ROUTER, "Capture groups are named var0, var1, ... (varGroupName).", "REFUTED",
     '"var0" or "var"'),
    (ROUTER, "Capture groups are named v0, v1, ... (varGroupName).", "VERIFIED",
     'regexp.go writes the string "v0"'),
    # data structures
    (ROUTER, "Routes are matched through a radix tree.", "ACTIVE",
     "radix tree is named in tree.go"),
    (ROUTER, "Routes are deduplicated with a Bloom filter.", "REFUTED",
     "Bloom filter is not used by the project"),
    (SERVICE, "Routes are matched through a radix tree (svc/routes.py).", "REFUTED",
     "radix tree is not used by the project"),
    (SERVICE, "Seen keys are checked against a Bloom filter.", "ACTIVE",
     "Bloom filter is named in svc/seen.py"),
    (SERVICE, "Routes are not kept in a skip list.", "ACTIVE", "no checkable anchor"),
    # a member read after a dot is no name the repository lacks
    (PERSIST, "removeOldest returns the queries sorted by dataUpdatedAt.", "ACTIVE",
     "removeOldest"),
    (PERSIST, "removeOldest returns the queries sorted by lastUpdatedAt.", "REFUTED",
     "lastUpdatedAt"),
    # what a source file exports
    (PERSIST, "src/index.ts exports a default persister.", "ACTIVE",
     "that src/index.ts exports a default persister"),
    (PERSIST, "src/index.ts re-exports persist and retry.", "VERIFIED", "src/index.ts"),
    # a folder of built assets is no place a package must be used in
    (LOAD, "Web UI login goes through Flask-Login.", "ACTIVE", "holds no source code"),
    (LOAD, "Web UI login goes through Authlib.", "REFUTED", "authlib"),
    # the toolchain's version by its key
    (CRATE, "Cargo.toml asks for rust-version 1.34.", "VERIFIED", "1.34"),
    (CRATE, "Cargo.toml asks for rust-version 1.60.", "REFUTED", "1.60"),
    # options read from the environment too
    (LOAD, "LOAD_WEB_PORT defaults to 8089.", "VERIFIED", "LOAD_WEB_PORT"),
    (LOAD, "LOAD_WEB_PORT defaults to 8080.", "REFUTED", "LOAD_WEB_PORT"),
    (LOAD, "LOAD_WORKERS defaults to 4.", "VERIFIED", "LOAD_WORKERS"),
    (LOAD, "The web UI listens on port 8089 by default (--web-port, LOAD_WEB_PORT).",
     "VERIFIED", "--web-port"),
    (LOAD, "The web UI listens on port 8080 by default (--web-port, LOAD_WEB_PORT).",
     "REFUTED", "--web-port"),
    # the option named by its words: ``--web-port``, the one declared option ending in port
    (LOAD, "The web UI listens on port 8089 by default.", "VERIFIED", "--web-port"),
    (LOAD, "The web UI listens on port 8080 by default.", "REFUTED", "--web-port"),
    (LOAD, "The API listens on port 8080 by default.", "ACTIVE", "the value 8080"),
    # names given their values by unpacking a list
    (LOAD, 'A worker\'s state starts as "ready" (STATE_INIT).', "VERIFIED", "STATE_INIT"),
    (LOAD, 'STATE_INIT is "init".', "REFUTED", "STATE_INIT"),
    # a parameter's default, the parameter named in words
    (LOAD, "Database.__init__'s timeout defaults to 30.", "REFUTED", "timeout"),
    (LOAD, "Database.__init__ takes a timeout that defaults to 5.0.", "VERIFIED", "timeout"),
    (LOAD, "Database.__init__'s revision defaults to 0.", "ACTIVE", "the value 0"),
    # a placeholder of code's names, brackets of types, fields of a Go type in lower case
    (CASTS, "Each ToX function drops the error of its ToXE counterpart (ToBool calls ToBoolE).",
     "VERIFIED", "ToBoolE"),
    (CASTS, "ToStringMapStringSlice returns a map[string]string.", "REFUTED",
     "no map[string]string"),
    (CASTS, "ToStringMapStringSlice returns a map[string][]string.", "VERIFIED",
     "ToStringMapStringSlice"),
    (CASTS, "timeFormat has layout and zone fields.", "REFUTED", "layout"),
    (CASTS, "timeFormat has format and typ fields.", "VERIFIED", "timeFormat.typ"),
    (CRATE, "Buf has len and data fields.", "ACTIVE", "that Buf.len is a field"),
    (CRATE, "Buf has cap and data fields.", "VERIFIED", "Buf.cap"),
    # a name imported from a module; an object literal's key
    (STORE, "src/index.ts imports AsyncStorage from @tanstack/query-persist-client-core.",
     "VERIFIED", "imported by src/index.ts"),
    (STORE, "src/index.ts imports debounce from lodash.", "REFUTED", "debounce"),
    (STORE, "restoreClient returns the stored value of the key k.", "ACTIVE", ""),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_a_derived_value_a_string_name_or_a_data_structure_as_agents_state_it(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
