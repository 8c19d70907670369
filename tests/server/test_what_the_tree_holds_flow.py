"""What a note names that the tree need not hold, and values and types in the forms agents
write them, as agents wrote notes about a Flask application, a chat-ops CLI, an S3 client
in TypeScript and a mesh daemon in Go they had not been shown before; through MCP
``remember`` + ``recall`` on real git repositories, each class phrased true and false:

- a bundler's output (``index-BXi4lWmw.js``) is data: what it names is no use, and what it
  defines is none of the project's definitions;
- a settings file named bare that the program itself names as a string
  (``./configuration.yaml`` in the working directory) is the user's, and its absence from
  the tree proves nothing; one the code never names is still the tree's claim;
- a method of a value the file assigns (``app.app_context()`` of ``app = create_app()``)
  is no definition of that file;
- what the trove classifiers list is not what ``requires-python`` declares;
- pbr's ``[extras]``, and an extra's name, which is no definition;
- values as code writes them: ``2 * time.Minute``, ``24*60*60*7`` however spaced;
- a message the code formats (``"DEBUG: %s not set"`` quoted with the value in it), and a
  quote of a comment, which is no string of the code;
- a member of the project's own Go module named by its import path (``-X pkg.var=``);
- "accepts error, warn, info": values, not Go's ``error``; "takes the `*T` as its first
  argument": a type claim, of a Go function named with its package (``tun.New``);
- a second action of the same subject ("... and wraps it ..."): unchecked like the first;
- a runtime npm dependency said to be used by a file that imports it nowhere; a
  development tool run by a script is no import;
- a place under a folder of the tree that nothing reads is unchecked, not prose;
- a default stated for one name is not another value's default later in the sentence.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

FLASK = {
    "setup.cfg": "[metadata]\nname = tracker\nclassifiers =\n"
                 "    Programming Language :: Python :: 3.8\n"
                 "    Programming Language :: Python :: 3.9\n\n"
                 "[options]\npython_requires = >=3.10\ninstall_requires =\n"
                 "    flask\n    sqlalchemy\n    redis>=5.1\n    cython==3.0.11\n\n"
                 "[extras]\nsarif =\n    sarif-om>=1.0.4\n",
    "tracker/__init__.py": "import sqlalchemy\nfrom flask import Flask\n\nuse_color = None\n\n\n"
                           "def create_app():\n    return Flask(__name__)\n",
    "tracker/__main__.py": "from tracker import create_app\n\n"
                           "app = create_app()\n\n\n"
                           "def pre_fork(server, worker):\n"
                           "    with app.app_context():\n        pass\n",
    "tracker/const.py": 'CONFIG_LOCATIONS = ["./configuration.yaml",\n'
                        '                    "/etc/tracker/configuration.yaml"]\n',
    "tracker/geocode.py": "import os\n\n"
                          'NOMINATIM_URL = os.getenv("NOMINATIM_URL",\n'
                          '                          "https://osm.example.org")\n\n\n'
                          "class Nominatim:\n    url = NOMINATIM_URL\n",
    "tracker/db/redis.py": "import redis\n\n\ndef connect():\n    return redis.Redis()\n",
    "tracker/static/index-BXi4lWmw.js": 'const db={};var w=["celery","stripe"];\n',
    "tracker/tracker.cfg": "[main]\nuse_keyring = False\n",
    "tracker/trackerrc": "[main]\nuse_color = True\n",
    "tracker/gitconf.py": "import subprocess\n\n\ndef repo(path):\n"
                          '    subprocess.run(["git", "config", "--file", path])\n',
}  # fmt: skip
MESH = {
    "go.mod": "module github.com/example/mesh\n\ngo 1.17\n\nrequire (\n"
              "\tgithub.com/hjson/hjson-go v3.1.0+incompatible\n"
              "\tgithub.com/go-playground/validator/v10 v10.10.0\n"
              "\tgithub.com/example/ironwood v0.0.0-20210905161508-09a460cdf81d\n)\n",
    "src/defaults/defaults.go": 'package defaults\n\nvar defaultConfig = "/etc/mesh.conf"\n\n'
                                "func GetDefaults() string {\n\treturn defaultConfig\n}\n",
    "src/core/core.go": "package core\n\ntype Core struct {\n\tname string\n}\n",
    "src/ipv6rwc/ipv6rwc.go": 'package ipv6rwc\n\nimport "time"\n\n'
                              "const keyStoreTimeout = 2 * time.Minute\n\n"
                              "type ReadWriteCloser struct {\n\ttimeout time.Duration\n}\n",
    "src/tun/tun.go": 'package tun\n\nimport "github.com/example/mesh/src/ipv6rwc"\n\n'
                      "type TunAdapter struct {\n\trwc *ipv6rwc.ReadWriteCloser\n}\n\n"
                      "func New(rwc *ipv6rwc.ReadWriteCloser, name string) (*TunAdapter, error) {\n"
                      "\treturn &TunAdapter{rwc: rwc}, nil\n}\n",
    "src/core/debug.go": 'package core\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
                         "func init() {\n\tname := \"PPROFLISTEN\"\n"
                         "\tif os.Getenv(name) == \"\" {\n"
                         '\t\tfmt.Fprintf(os.Stderr,\n'
                         '\t\t\t"DEBUG: %s not set, profiler not started.\\n", name)\n'
                         "\t}\n}\n",
    "src/core/mode.go": 'package core\n\nfunc SetMode(v string) {\n\tswitch v {\n'
                        '\tcase "debug", "release":\n\tdefault:\n'
                        '\t\tpanic("mesh mode unknown: " + v +\n'
                        '\t\t\t" (available mode: debug release)")\n'
                        "\t}\n}\n",
    "cmd/mesh/main.go": 'package main\n\nimport "fmt"\n\n'
                        "func setLogLevel(loglevel string) {\n\tfmt.Println(loglevel)\n}\n\n"
                        "func main() {\n\tsetLogLevel(\"info\")\n}\n",
}  # fmt: skip
S3 = {
    "package.json": '{"name": "s3-client", "version": "8.0.7",\n'
                    ' "scripts": {"bundle": "terser dist/index.js"},\n'
                    ' "dependencies": {"through2": "^4.0.2", "xml2js": "^0.6.2",\n'
                    '                  "unleash-client": "^6.1.1"},\n'
                    ' "devDependencies": {"terser": "^5.0.0"}}\n',
    "src/helpers.ts": "export const DEFAULT_REGION = 'us-east-1'\n"
                      "export const PRESIGN_EXPIRY_DAYS_MAX = 24 * 60 * 60 * 7 // 7 days\n",
    "src/notification.ts": "import { EventEmitter } from 'events'\n\n"
                           "export class NotificationPoller extends EventEmitter {\n"
                           "  start(): void {\n    this.emit('start')\n  }\n}\n",
    "src/xml.ts": "import * as xml2js from 'xml2js'\n\n"
                  "export const builder = new xml2js.Builder()\n",
    "src/loader.ts": "export class Loader {\n"
                     "  load(): string {\n    return 'config'\n  }\n}\n",
    "example.yaml": "# default 10 seconds\ntimeout: 60\n",
    "src/app.ts": "export function createApp(options: object, unleashClient?: object): object {\n"
                  "  return { options, unleashClient }\n}\n",
    "src/client.ts": "import { initialize } from 'unleash-client'\n\n"
                     "export const start = () => initialize({ url: '', appName: 'x' })\n",
}  # fmt: skip

CLAIMS = [
    # a bundler's output is data
    (FLASK, "Background jobs run on Celery.", "REFUTED", "index-BXi4lWmw.js"),
    (FLASK, "`pre_fork` in tracker/__main__.py enters `app.app_context()` so each forked "
            "worker starts with fresh SQLAlchemy connections.", "ACTIVE",
     "import:sqlalchemy holds"),
    (FLASK, "`pre_fork` in tracker/__main__.py calls `teardown_workers()`.", "REFUTED",
     "tracker/__main__.py does not define teardown_workers"),
    # a settings file the program names, or not
    (FLASK, "Config is looked up in ./configuration.yaml in the working directory first.",
     "ACTIVE", "the file ./configuration.yaml"),
    (FLASK, "Settings are read from tracker.yaml at start.", "REFUTED",
     "tracker.yaml is not in the repository"),
    # classifiers and the Python requirement
    (FLASK, "setup.cfg declares python_requires >=3.10 even though the trove classifiers "
            "still list Python 3.8 and 3.9.", "ACTIVE", "the Python versions the classifiers"),
    (FLASK, "setup.cfg declares python_requires >=3.8.", "REFUTED", "python>=3.10"),
    # pbr's extras, an extra's name
    (FLASK, "The `sarif` extra pulls in sarif-om>=1.0.4.", "VERIFIED", "sarif-om"),
    (FLASK, "The `sarif` extra pulls in sarif-om>=2.0.", "REFUTED", "sarif-om"),
    (FLASK, "tracker/db/redis.py connects with `redis.Redis` (extra database_redis requires "
            "redis>=5.1).", "ACTIVE", "redis>=5.1"),
    # a default for one name, a value for another
    (FLASK, "Nominatim uses NOMINATIM_URL, default https://osm.example.org, and caches "
            "lookups (maxsize 128 by default).", "ACTIVE", "the value 128"),
    # values as code writes them
    (MESH, "src/ipv6rwc/ipv6rwc.go keeps key-store entries for "
           "`keyStoreTimeout = 2 * time.Minute`.", "VERIFIED", "keyStoreTimeout = 2 * time.Minute"),
    (MESH, "src/ipv6rwc/ipv6rwc.go keeps key-store entries for "
           "`keyStoreTimeout = 5 * time.Minute`.", "REFUTED", "not 5 * time.Minute"),
    (S3, "`PRESIGN_EXPIRY_DAYS_MAX` = 24*60*60*7 in src/helpers.ts.", "VERIFIED",
     "PRESIGN_EXPIRY_DAYS_MAX = 24 * 60 * 60 * 7"),
    (S3, "`PRESIGN_EXPIRY_DAYS_MAX` = 24*60*60*30 in src/helpers.ts.", "REFUTED",
     "not 24*60*60*30"),
    # a message the code formats, a comment's words
    (MESH, 'When unset, src/core/debug.go prints "DEBUG: PPROFLISTEN not set, profiler not '
           'started." to stderr.', "VERIFIED", 'says "DEBUG: %s not set'),
    (MESH, 'When unset, src/core/debug.go prints "DEBUG: profiler switched off for good".',
     "REFUTED", "no string in src/core/debug.go"),
    (S3, 'The comment in example.yaml that says "default 10 seconds" is out of date.', "ACTIVE",
     "default 10 seconds"),
    # a member of the project's own Go module by its import path
    (MESH, "Packagers override the config path at link time with "
           "`-X github.com/example/mesh/src/defaults.defaultConfig=/etc/x.conf`.", "ACTIVE",
     "src/defaults/defaults.go defines defaultConfig"),
    (MESH, "Packagers override the peers at link time with "
           "`-X github.com/example/mesh/src/defaults.defaultPeers=...`.", "REFUTED",
     "defaultPeers"),
    # values, not a type; a type first, of a function named with its package
    (MESH, "`setLogLevel` accepts error, warn, info, debug and trace.", "ACTIVE",
     "that `setLogLevel` accepts"),
    (MESH, "`tun.New` takes the `*core.Core` as its first argument.", "REFUTED",
     "defines New(rwc *ipv6rwc.ReadWriteCloser"),
    (MESH, "`tun.New` takes the `*ipv6rwc.ReadWriteCloser` as its first argument.", "VERIFIED",
     "defines New(rwc *ipv6rwc.ReadWriteCloser"),
    # a second action of the same subject
    (MESH, "`tun.New` takes a name and retries the open call twice.", "ACTIVE",
     "that `tun.New` takes a name and retries"),
    # a runtime dependency a file is said to use, a tool a script runs
    (S3, "src/notification.ts uses through2 to split the response into records.", "REFUTED",
     "through2 is not imported in src/notification.ts"),
    (S3, "src/xml.ts uses xml2js to build request bodies.", "VERIFIED",
     "imported by src/xml.ts"),
    (S3, "The bundle script in package.json minifies the build with terser.", "VERIFIED",
     "terser is declared in package.json"),
    # a place under a folder of the tree that nothing reads
    (MESH, "ironwood is vendored in this tree under src/ironwood.", "ACTIVE", "src/ironwood"),
    # a message the file joins from literals; words joined by "/"; a major version
    (MESH, '`SetMode` in src/core/mode.go panics with "mesh mode unknown: <value> (available '
           'mode: debug release)".', "VERIFIED", 'says "mesh mode unknown:" + "(available mode'),
    (MESH, '`SetMode` in src/core/mode.go panics with "mesh mode invalid: <value> (allowed: '
           'debug release)".', "REFUTED", "no string in src/core/mode.go"),
    (MESH, "`SetMode` rejects any value other than debug/release/test.", "ACTIVE",
     "that `SetMode` rejects"),
    (MESH, "go.mod requires github.com/go-playground/validator/v10 v10.10.0.", "VERIFIED",
     "validator/v10"),
    # a pronoun is no package; the words of a command; a key of a settings file's section
    (FLASK, "cython==3.0.11 is pinned, but nothing in the tracker package imports cython.",
     "VERIFIED", "no file imports Cython"),
    (FLASK, "`repo` in tracker/gitconf.py runs "
            "`git config --file .git/config receive.denyCurrentBranch updateInstead`.",
     "ACTIVE", 'tracker/gitconf.py writes the string "git"'),
    (FLASK, "`pre_fork` in tracker/__main__.py runs "
            "`git config --file .git/config receive.denyCurrentBranch updateInstead`.",
     "REFUTED", 'no string in tracker/__main__.py is "git"'),
    (FLASK, "`flask user create EMAIL --password SECRET` sets the password directly.", "ACTIVE",
     "no checkable anchor"),
    (FLASK, "The packaged tracker/tracker.cfg ships use_keyring = False (in [main]).",
     "VERIFIED", "main.use_keyring"),
    (FLASK, "The packaged tracker/trackerrc ships use_color = True.", "ACTIVE",
     "tracker/trackerrc is tracked"),
    # a call's arguments written out
    (S3, "`createApp(options, unleashClient?)` in src/app.ts builds the app object.",
     "ACTIVE", "src/app.ts defines createApp"),
    # the module path's own words are no version of Go
    (MESH, "go.mod declares `go 1.17` and pins `github.com/hjson/hjson-go "
           "v3.1.0+incompatible`.", "VERIFIED", "go.mod:3 lists go 1.17"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_what_the_tree_holds_and_values_as_code_writes_them(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
