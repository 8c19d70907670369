"""What notes say of an application's settings files, its programs, its routes and its
build, as agents wrote them about applications they had not been shown before, through
MCP ``remember`` + ``recall`` on real git repositories, most phrased true and false:

- an INI settings file named ``*.conf`` and its keys as ``section/key`` or ``[section]
  key``; a ConfigArgParse option declared with ``parser.add``, among more than sixty; a
  value in backticks or quotes; a Go program's flags (``flag.String``,
  ``flag.DurationVar``, a default read from a package-level config literal), "if you
  don't pass `-http`";
- a console script and its target (``[project.scripts]``, setup.cfg's
  ``console_scripts``, package.json's ``bin``), its name, the build backend and an npm
  package's build tool;
- a URL path the application serves (a path literal, or its last part under a prefix the
  code names), refuted where nothing the code writes has any part of it;
- what the first notes about these applications got wrong: a location stated for a
  module's constant, a dependency said to be listed among the required or runtime ones, a
  negation inside a condition, "at import time", a folder of the repository called "the X
  package", an HTTP header's name, "N" in a quoted message, a word in backticks nothing
  checks, "derives from", a negative number, a quoted default, a place on the machine, a
  module of the standard library named as the means, a dict's key by subscript, a peer
  dependency said not to be a runtime one, a package named like a compound word;
- and what a second round showed: a Go package's member, the ``go`` directive, a name
  before or after what it names ("the `x.plugins` entry-point group", "a network called
  "x""), an HTTP header's name, a quoted literal nothing reads, a file in a condition, an
  extra said to be a hard requirement, a settings class's field read from a variable,
  npm's package of a name the vocabulary knows from Python, "the regex `...`", a
  manifest's table, a crate's programs, a Dockerfile at any depth, what a call returns.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

MUSIC = {
    "pyproject.toml": '[project]\nname = "music"\nversion = "4.0"\n'
                      'requires-python = ">=3.13"\ndependencies = ["tornado", "pykka"]\n\n'
                      '[project.optional-dependencies]\ndocs = ["markdown"]\n\n'
                      '[project.scripts]\nmusic = "music.cli:main"\n\n'
                      '[build-system]\nrequires = ["setuptools"]\n'
                      'build-backend = "setuptools.build_meta"\n',
    "music/__init__.py": 'DEFAULT_NAME = "music.conf"\n',
    "music/settings.py": "from music import DEFAULT_NAME\n\nLOADED = DEFAULT_NAME\n",
    "music/default.conf": "[core]\nmax_tracklist_length = 10000\nrestore_state = false\n\n"
                          "[audio]\noutput = autoaudiosink\n\n[http]\nenabled = true\n"
                          "port = 6680\n",
    "music/errors.py": "class MusicError(Exception):\n    pass\n\n\n"
                       "class ValidationError(ValueError):\n    pass\n\n\n"
                       "class ParseError(MusicError):\n    code = -32700\n",
    "music/tracklist.py": "from music.errors import MusicError\n\n\n"
                          "def add(tracks, limit):\n    if len(tracks) > limit:\n"
                          '        raise MusicError(f"Tracklist may contain at most {limit:d}'
                          ' tracks.")\n',
    "music/state.py": "import json\n\n\ndef save(state, path):\n"
                      "    path.write_text(json.dumps(state))\n",
    "music/gi.py": "import sys\n\nREQUIRED = (1, 26)\n\nif sys.version_info < (3, 13):\n"
                   "    sys.exit(1)\n",
    "music/zone.py": "try:\n    import tzlocal\nexcept ImportError:\n    tzlocal = None\n\n\n"
                     "def zone():\n"
                     '    return tzlocal.get_localzone_name() if tzlocal else "Europe/Rome"\n',
    "music/cli.py": "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
                    '    parser.add_argument("config")\n    return parser\n',
    "music/http.py": "from tornado import web\n\n"
                     'APPS = {"name": "music"}\n\n\n'
                     "def handlers():\n"
                     '    return [(r"/ws/?", web.RequestHandler), (r"/rpc", web.RequestHandler),'
                     ' (r"/(.+)", web.RequestHandler), (r"/", web.RequestHandler)]\n',
}  # fmt: skip
BACKUPS = {
    "pyproject.toml": '[project]\nname = "backups"\nversion = "7.2"\n'
                      'dependencies = ["configargparse", "cherrypy"]\n',
    "backups/__init__.py": "",
    "backups/config.py": "import configargparse\n\nparser = configargparse.ArgumentParser()\n"
                         + "".join(f'parser.add("--option-{i}", default={i})\n' for i in range(70))
                         + "parser.add(\n    '--server-port',\n    metavar='PORT',\n"
                           "    default='8080',\n    type=int,\n)\n"
                         + "parser.add_argument('--admin-user', default='admin')\n",
    "backups/app.py": "import cherrypy\n\n\nclass ApiPage:\n    exposed = True\n\n\n"
                      "class Root:\n    def __init__(self):\n        self.api = ApiPage()\n\n\n"
                      "def start():\n    cherrypy.quickstart(Root())\n",
}  # fmt: skip
MEDIA = {
    "go.mod": "module example.com/media\n\ngo 1.16\n\nrequire golang.org/x/net v0.1.0\n",
    "main.go": 'package main\n\nimport (\n\t"flag"\n\t"time"\n)\n\n'
               "type mediaConfig struct {\n\tHttp string\n\tIfName string\n"
               "\tNotifyInterval time.Duration\n}\n\n"
               "var config = &mediaConfig{\n"
               '\tHttp:   ":1338",\n\tIfName: "",\n}\n\n'
               "func main() {\n"
               '\thttp := flag.String("http", config.Http, "http server port")\n'
               '\tifName := flag.String("ifname", config.IfName, "network interface")\n'
               '\tflag.DurationVar(&config.NotifyInterval, "notifyInterval", 30*time.Second,'
               ' "interval between announces")\n'
               '\tflag.Bool("logHeaders", false, "log HTTP headers")\n'
               "\tflag.Parse()\n\t_, _ = http, ifName\n}\n",
    "server/server.go": "package server\n\nconst (\n"
                        '\tresPath      = "/res"\n\ticonPath     = "/icon"\n'
                        '\trootDescPath = "/rootDesc.xml"\n\tcontrolURL   = "/ctl"\n'
                        '\teventURL     = "/evt/ContentDirectory"\n'
                        '\tdeviceIcon   = "/deviceIcon"\n)\n',
    "ssdp/ssdp.go": 'package ssdp\n\nimport "golang.org/x/net/ipv4"\n\n'
                    "func ttl(c *ipv4.PacketConn) error {\n\treturn c.SetMulticastTTL(2)\n}\n",
    "server/browse.go": 'package server\n\nimport "strings"\n\n'
                        "func foldersLast(agent string) bool {\n"
                        '\treturn strings.Contains(agent, "AwoX/1.1")\n}\n',
}  # fmt: skip
SITE = {
    "pyproject.toml": '[project]\nname = "site"\nversion = "4.12"\n'
                      'dependencies = ["blinker"]\n\n'
                      '[project.optional-dependencies]\nmarkdown = ["markdown>=3.1"]\n\n'
                      '[project.scripts]\nsite-quickstart = "site.tools.quickstart:main"\n\n'
                      '[build-system]\nrequires = ["pdm-backend"]\nbuild-backend = "pdm.backend"\n',
    "site/__init__.py": "",
    "site/settings.py": 'DEFAULT_CONFIG = {\n    "PORT": 8000,\n    "BIND": "127.0.0.1",\n}\n',
    "site/tools/__init__.py": "",
    "site/tools/quickstart.py": "def main():\n    return 0\n",
    "site/limits.py": "from flask_limiter import Limiter\n\nlimiter = Limiter()\n",
}  # fmt: skip
DJANGOISH = {
    "setup.cfg": "[metadata]\nname = djangoish\n\n[options.entry_points]\nconsole_scripts =\n"
                 "    djangoish-admin = djangoish.core.management:execute_from_command_line\n",
    "djangoish/__init__.py": "",
    "djangoish/core/__init__.py": "",
    "djangoish/core/management.py": "def execute_from_command_line(argv=None):\n    return argv\n",
}  # fmt: skip
TYPES = {
    "package.json": '{"name": "typegen", "version": "7.13.0",\n'
                    ' "bin": {"typegen": "./bin/cli.js"},\n'
                    ' "scripts": {"build": "unbuild && tsc -p tsconfig.build.json"},\n'
                    ' "dependencies": {"ansi-colors": "^4.1.3"},\n'
                    ' "peerDependencies": {"typescript": "^5.x"},\n'
                    ' "devDependencies": {"typescript": "^5.9.0"}}\n',
    "bin/cli.js": "import { run } from '../dist/index.js'\nrun()\n",
    "src/index.ts": "import ts from 'typescript'\nimport c from 'ansi-colors'\n\n"
                    "export function run(): string {\n  return c.bold(ts.version)\n}\n",
}  # fmt: skip

PROXY = {
    "go.mod": "module example.com/proxy\n\ngo 1.13\n\nrequire cloud.google.com/go v0.56.0\n",
    "proxy/limits/limits.go": "package limits\n\nconst ExpectedFDs = 8500\n",
    "proxy/limits/limits_windows.go": "package limits\n\nconst ExpectedFDs = 0\n",
    "proxy/dialers/mysql/hook.go": 'package mysql\n\nfunc init() {\n'
                                   '\tRegisterDial("cloudsql", nil)\n}\n\n'
                                   "func RegisterDial(net string, f interface{}) {}\n",
    "proxy/fuse/fuse.go": "package fuse\n\nfunc Supported() bool {\n\treturn true\n}\n",
}  # fmt: skip
BINUTILS = {
    "Cargo.toml": '[package]\nname = "binutils"\nversion = "0.3.5"\nedition = "2018"\n\n'
                  '[dependencies]\nrustc-demangle = "0.1"\n',
    "src/lib.rs": "pub mod tool;\npub mod rustc;\npub mod llvm;\npub mod postprocess;\n",
    "src/tool.rs": "pub enum Tool {\n    Lld,\n    Nm,\n}\n\nimpl Tool {\n"
                   "    pub fn rust_exec(self) -> i32 {\n        0\n    }\n}\n",
    "src/rustc.rs": "pub fn rustlib() -> String {\n    String::new()\n}\n",
    "src/llvm.rs": "pub fn tools() -> Vec<String> {\n    Vec::new()\n}\n",
    "src/postprocess.rs": "pub fn demangle(s: &str) -> String {\n"
                          "    rustc_demangle::demangle(s).to_string()\n}\n",
    "src/bin/cargo-nm.rs": "fn main() {\n    binutils::tool::Tool::Nm.rust_exec();\n}\n",
    "src/bin/rust-lld.rs": "fn main() {\n    binutils::tool::Tool::Lld.rust_exec();\n}\n",
}  # fmt: skip
CHATOPS = {
    "pyproject.toml": '[project]\nname = "chatops"\nversion = "6.2"\ndependencies = ["flask"]\n\n'
                      '[project.optional-dependencies]\nshell = ["ipython"]\n',
    "chatops/__init__.py": "",
    "chatops/bootstrap.py": "def defaults(config):\n"
                            '    if not hasattr(config, "BOT_PREFIX"):\n'
                            '        config.BOT_PREFIX = "!"\n'
                            '    if not hasattr(config, "BOT_ADMINS"):\n'
                            '        raise ValueError("BOT_ADMINS missing from config.py.")\n',
    "chatops/plugins.py": "from importlib.metadata import entry_points\n\n\ndef find():\n"
                          '    return entry_points(group="chatops.plugins")\n',
    "chatops/auth.py": "class HeaderTokenAuth:\n"
                       '    param_name = "X-ChatOps-API-Key"\n\n'
                       "    def token(self, request):\n"
                       "        return request.headers.get(self.param_name)\n",
    "chatops/config.py": "class BaseConfigSet:\n    pass\n\n\n"
                         "class DatabaseConfig(BaseConfigSet):\n    DATABASE_PORT: int = 5432\n",
    "chatops/cors.py": 'ALLOW = "Access-Control-Allow-Methods"\n',
}  # fmt: skip
GRAPH = {
    "package.json": '{"name": "graph-server", "version": "5.5.1",\n'
                    ' "peerDependencies": {"graphql": "^16.11.0"},\n'
                    ' "dependencies": {"negotiator": "^1.0.0"}}\n',
    "src/index.ts": "import { GraphQLSchema } from 'graphql'\nimport n from 'negotiator'\n\n"
                    "export const schema = (s: GraphQLSchema) => n(s)\n",
}  # fmt: skip

VAULT = {
    "go.mod": "module example.com/vault\n\ngo 1.16\n",
    "cmd/ro/main.go": 'package main\n\nimport (\n\t"flag"\n\t"os"\n)\n\n'
                      'var userEnv = flag.String("userenv", "RO_USER", "variable of the user")\n\n'
                      "func main() {\n"
                      '\tvault := flag.String("vaultpath", "diskrecord.json", "the vault file")\n'
                      "\tflag.Parse()\n\t_, _ = vault, os.Getenv(*userEnv)\n}\n",
}  # fmt: skip
MOCKS = {
    "package.json": '{"name": "mocks", "version": "3.0.5", "dependencies": {"vite": "^5.0.0"}}\n',
    "src/core/index.ts": "export { http } from './http'\n",
    "src/http.ts": "export const http = {}\n",
    "src/setup.ts": "export function start(started: boolean) {\n  if (started) {\n"
                    "    throw new Error('Failed to call \"start()\": the worker is already "
                    "started.')\n  }\n}\n",
    "src/vite/plugin.ts": "import type { Plugin } from 'vite'\n\n"
                          "const VIRTUAL_MODULE_ID = 'virtual:mocks'\n\n"
                          "export const plugin = (): Plugin => ({ name: VIRTUAL_MODULE_ID })\n",
}  # fmt: skip
PASTE = {
    "pyproject.toml": '[project]\nname = "paste"\nversion = "1.2"\ndependencies = ["flask"]\n',
    "paste/__init__.py": "",
    "paste/app.py": "from flask import Flask\n\n\ndef create_app():\n    app = Flask(__name__)\n"
                    '    app.config.from_envvar("PASTE_CONFIG", silent=True)\n    return app\n',
    "paste/db.py": "import os\n\nDATABASE_URL = os.environ.get('DATABASE_URL', 'sqlite://')\n",
    "paste/tests/__init__.py": "",
    "paste/tests/conftest.py": "import pytest\n\nfrom paste.app import create_app\n\n\n"
                               "@pytest.fixture\ndef app():\n    return create_app()\n",
}  # fmt: skip

ADMIN = {
    "pyproject.toml": '[project]\nname = "cms"\nversion = "3.3"\ndependencies = ["flask"]\n',
    "cms/__init__.py": "",
    "cms/admin.py": "from flask import Blueprint\n\n"
                    'dash = Blueprint("dash", __name__, url_prefix="/admin")\n'
                    'api = Blueprint("api", __name__, url_prefix="/admin/api")\n\n\n'
                    '@api.route("/build", methods=["POST"])\ndef build():\n    return {}\n',
}  # fmt: skip

CLAIMS = [
    # an INI settings file named *.conf, its keys by section
    (MUSIC, "`core/restore_state` is off by default.", "VERIFIED", "restore_state"),
    (MUSIC, "`core/restore_state` is on by default, so the state is restored on every start.",
     "REFUTED", "restore_state"),
    (MUSIC, "`audio/output` defaults to `autoaudiosink`.", "VERIFIED", "autoaudiosink"),
    (MUSIC, "`audio/output` defaults to `pulsesink`.", "REFUTED", "autoaudiosink"),
    (MUSIC, "The `[http] port` defaults to 6680.", "VERIFIED", "6680"),
    (MUSIC, "The default HTTP port is 6600.", "REFUTED", "6680"),
    # ConfigArgParse's parser.add, past sixty options; a value in backticks
    (BACKUPS, "`--server-port` defaults to 8080.", "VERIFIED", "--server-port"),
    (BACKUPS, "`--server-port` defaults to 8000.", "REFUTED", "not 8000"),
    (BACKUPS, "`--admin-user` defaults to `admin`.", "VERIFIED", "--admin-user"),
    (BACKUPS, "The `--admin-user` option defaults to `root`.", "REFUTED", "not root"),
    # a Go program's flags
    (MEDIA, "`-notifyInterval` defaults to 30 seconds.", "VERIFIED", "--notifyInterval"),
    (MEDIA, "The announce interval (`-notifyInterval`) defaults to one minute.", "REFUTED",
     "30*time.Second"),
    (MEDIA, "If you don't pass `-http`, the server listens on port 1338.", "VERIFIED",
     '":1338"'),
    (MEDIA, "If you don't pass `-http`, the server listens on port 8200.", "REFUTED", "not 8200"),
    (MEDIA, '`-http` defaults to ":1338".', "VERIFIED", "--http"),
    (MEDIA, 'The `-ifname` flag defaults to "eth0".', "REFUTED", "not eth0"),
    (MEDIA, "`-logHeaders` is on by default.", "REFUTED", "not on"),
    # a Go module named as the means, which nothing requires or imports
    (MEDIA, "Flags are parsed with github.com/alecthomas/kong.", "REFUTED",
     "github.com/alecthomas/kong"),
    (MEDIA, "The ssdp package uses golang.org/x/net/ipv4 to set the multicast TTL.", "VERIFIED",
     "imported by ssdp/ssdp.go"),
    # console scripts, the build backend, npm's bin and build tool
    (MUSIC, "The console script music runs music.cli:main.", "VERIFIED", "music.cli:main"),
    (MUSIC, "The console script music runs music.main:run.", "REFUTED", "music.cli:main"),
    (MUSIC, "The console script is named music-server.", "REFUTED", "project.scripts"),
    (MUSIC, "The build backend is `setuptools.build_meta`.", "VERIFIED", "setuptools.build_meta"),
    (SITE, "Packaging uses setuptools with a setup.py.", "REFUTED", "pdm.backend"),
    (SITE, "The project is built with pdm-backend.", "VERIFIED", "pdm.backend"),
    (SITE, "The `site-quickstart` console script points to `site.tools.quickstart:main`.",
     "VERIFIED", "site.tools.quickstart:main"),
    (SITE, "The `site-quickstart` entry point is `site.quickstart:main`.", "REFUTED",
     "site.tools.quickstart:main"),
    (DJANGOISH, "The `djangoish-admin` script runs "
                "`djangoish.core.management.execute_from_command_line`.", "VERIFIED",
     "execute_from_command_line"),
    (TYPES, "The bin `typegen` points to `bin/cli.js`.", "VERIFIED", "bin/cli.js"),
    (TYPES, "The library is built with unbuild.", "VERIFIED", "unbuild"),
    (TYPES, "The dist bundles are built with tsup.", "REFUTED", "tsup"),
    # routes
    (MEDIA, "The root device description is served at `/rootDesc.xml`.", "VERIFIED",
     "/rootDesc.xml"),
    (MEDIA, "The device description XML lives at `/description.xml`.", "REFUTED",
     "serves no /description.xml"),
    (MEDIA, "Device icons are served under `/icons/<n>.png`.", "REFUTED", "serves no"),
    (MUSIC, "The JSON-RPC endpoint is `/music/rpc`.", "VERIFIED", "under a prefix"),
    (BACKUPS, "`GET /api` returns the version.", "ACTIVE", "cannot tell"),
    # a location stated for a module's constant
    (MUSIC, "`DEFAULT_NAME` is defined in music/settings.py.", "REFUTED",
     "music/settings.py does not define DEFAULT_NAME"),
    (MUSIC, "`DEFAULT_NAME` is defined in music/__init__.py.", "VERIFIED", "DEFAULT_NAME"),
    # dependencies said to be listed among the required or runtime ones
    (SITE, "markdown is listed among the required runtime dependencies in pyproject.toml.",
     "ACTIVE", "an optional dependency"),
    (SITE, "`requests` is listed in the project's `dependencies` in pyproject.toml.", "REFUTED",
     "requests"),
    (TYPES, "typescript is declared in the runtime `dependencies` of package.json.", "ACTIVE",
     "a peer dependency"),
    (TYPES, "typescript is not a runtime dependency (it is a peer dependency).", "ACTIVE",
     "the negation"),
    (TYPES, "ansi-colors is listed in the devDependencies of package.json.", "ACTIVE",
     "development dependency"),
    # a negation inside a condition; "at import time"
    (MUSIC, "zone() falls back to Europe/Rome when tzlocal is not installed.", "ACTIVE",
     "tzlocal"),
    (MUSIC, 'If tzlocal is missing, zone() defaults the timezone to "UTC".', "ACTIVE", "UTC"),
    (MUSIC, "music/gi.py exits at import time when `REQUIRED` is (1, 27).", "ACTIVE",
     "the value 1"),
    # an HTTP header's name is no package; "N" in a quoted message
    (MEDIA, "Clients whose User-Agent contains `AwoX/1.1` get folders last.", "ACTIVE",
     "AwoX/1.1"),
    (MUSIC, 'add() raises MusicError ("Tracklist may contain at most N tracks.").', "VERIFIED",
     "Tracklist may contain at most"),
    # a word in backticks nothing checks; "derives from"; a negative number
    (MUSIC, "`music/cli.py` registers a built-in `scan` command.", "ACTIVE", "scan"),
    (MUSIC, "`ValidationError` derives from `ValueError`.", "VERIFIED", "ValidationError"),
    (MUSIC, "`ValidationError` derives from `MusicError`.", "ACTIVE", "derives from"),
    (MUSIC, "The JSON-RPC `ParseError` uses error code -32600.", "ACTIVE", "-32600"),
    # a place on the machine; the standard library named as the means
    (MUSIC, "The state lives at `/var/lib/music/state.json`.", "ACTIVE", "/var/lib/music"),
    (MUSIC, "The state is persisted with pickle.", "REFUTED", "pickle"),
    # a dict's key by subscript, and by its dict in parentheses
    (SITE, '`DEFAULT_CONFIG["PORT"]` is 8000.', "VERIFIED", "DEFAULT_CONFIG.PORT"),
    (SITE, '`DEFAULT_CONFIG["PORT"]` is 8080.', "REFUTED", "DEFAULT_CONFIG.PORT"),
    # a package named like a compound word; a package's name in title case is still one
    (TYPES, "Remote schemas are downloaded with node-fetch.", "ACTIVE", "node-fetch"),
    (SITE, "Rate limiting uses Flask-Limiter (site/limits.py).", "VERIFIED",
     "imported by site/limits.py"),
    # what a second round of notes showed: a Go package's member, the go directive
    (PROXY, "-fd_rlimit defaults to limits.ExpectedFDs, which is 8500 in "
            "proxy/limits/limits.go.", "ACTIVE", "ExpectedFDs"),
    (PROXY, "go.mod declares the module example.com/proxy with `go 1.13`.", "VERIFIED",
     "go.mod"),
    # a name followed, or preceded, by what it names; an HTTP header's name
    (PROXY, 'The mysql dialer registers a network called "cloudsql".', "VERIFIED",
     '"cloudsql"'),
    (PROXY, 'The mysql dialer registers a network called "cloudsqlmysql".', "REFUTED",
     "cloudsqlmysql"),
    (CHATOPS, "Plugins are found through the `chatops.plugins` entry-point group.", "VERIFIED",
     "chatops.plugins"),
    (CHATOPS, "Plugins are found through the `chatops.extensions` entry-point group.",
     "REFUTED", "chatops.extensions"),
    (CHATOPS, "HeaderTokenAuth reads the API token from the X-ChatOps-API-Key header.",
     "VERIFIED", "X-ChatOps-API-Key"),
    (CHATOPS, "HeaderTokenAuth reads the API token from the X-API-Key header.", "ACTIVE",
     "the header X-API-Key"),
    (CHATOPS, "CORS sets the Allow-Methods header.", "VERIFIED", "Access-Control-Allow-Methods"),
    # a literal quoted that no reader checks
    (PROXY, 'The socket file name gets a ".s.MYSQL.3306" suffix.', "ACTIVE", ".s.MYSQL.3306"),
    # a file in a condition; a hard requirement that is an extra; an empty value said used
    (CHATOPS, 'If config.py does not set BOT_PREFIX, defaults() in chatops/bootstrap.py sets '
              'it to "!".', "ACTIVE", "chatops/bootstrap.py"),
    (CHATOPS, "IPython is a hard install requirement of chatops.", "ACTIVE",
     "an optional dependency"),
    (CHATOPS, "If BOT_ADMINS is missing, chatops silently uses an empty tuple.", "ACTIVE",
     "empty tuple"),
    # a variable a settings class's field may be read from
    (CHATOPS, "DATABASE_PORT defaults to 5432 and can be set via the CHATOPS_DATABASE_PORT "
              "environment variable.", "ACTIVE", "settings library"),
    # npm's package of a name the vocabulary knows as a Python one
    (GRAPH, "graphql is listed under `dependencies` in package.json.", "ACTIVE",
     "graphql (a peer dependency)"),
    (GRAPH, "graphql is a peer dependency.", "VERIFIED", "graphql"),
    # Rust: a word naming the literal after it, a manifest's table, a crate's programs
    (BINUTILS, "postprocess::demangle finds symbols with the regex `_Z.+?E` and demangles "
               "them with rustc_demangle.", "ACTIVE", "postprocess::demangle"),
    (BINUTILS, "Cargo.toml declares a [features] section with optional dependencies.", "ACTIVE",
     "the [features] section"),
    (BINUTILS, "There is a cargo-ar binary in src/bin that proxies llvm-ar.", "REFUTED",
     "src/bin/cargo-ar.rs"),
    (BINUTILS, "There is a cargo-nm binary.", "VERIFIED", "src/bin/cargo-nm.rs"),
    (BINUTILS, "src/bin/rust-lld.rs just calls Tool::Lld.rust_exec().", "ACTIVE",
     "Tool.rust_exec"),
    (BINUTILS, "rustlib() is defined in src/llvm.rs.", "REFUTED", "src/llvm.rs"),
    # a file of a kind, at any depth; what a function returns
    (MEDIA, "The repository ships a Dockerfile.", "REFUTED", "Dockerfile"),
    (PROXY, "fuse.Supported() returns true on Windows.", "ACTIVE", "returns true"),
    # and a third: a Go program's flags named, a default after ", which", a variable's name
    # the code writes, a fixture's attribute, a logger's tag, a specifier in quotes, files a
    # program writes as it runs, a name said to be exported by a file
    (VAULT, "Socket activation is turned on with a -systemd-socket flag.", "REFUTED",
     "no --systemd-socket"),
    (VAULT, "The vault file is chosen with -vaultpath, which defaults to \"diskrecord.json\".",
     "VERIFIED", "--vaultpath"),
    (VAULT, "The ro client reads the user from the RO_USER environment variable.", "ACTIVE",
     "cannot tell"),
    (PASTE, "create_app() reads the PASTE_CONFIG file with app.config.from_envvar.", "ACTIVE",
     "create_app"),
    (ADMIN, "The admin API routes live under `/admin/api`.", "VERIFIED", "/admin/api"),
    (ADMIN, "/admin/api/build is handled by `build`.", "ACTIVE",
     "that /admin/api/build is handled by `build`"),
    (PROXY, "The RegisterDial net field is an int.", "ACTIVE", "that net field is an int"),
    (CHATOPS, "BOT_PREFIX takes precedence over BOT_ADMINS.", "ACTIVE",
     "that BOT_PREFIX takes precedence over BOT_ADMINS"),
    (ADMIN, "The admin API routes live under `/api/admin`.", "ACTIVE", "cannot tell"),
    (PASTE, "paste/db.py reads DATABASE_URL, with 'postgres://' if not set.", "REFUTED",
     "sqlite://"),
    (PASTE, "The word is 'fine' here, and paste/db.py reads DATABASE_URL.", "VERIFIED",
     "DATABASE_URL"),
    (MOCKS, "Calling start() twice fails with '[MOCKS] Failed to call \"start()\": the worker "
            "is already started.'", "VERIFIED", "already started"),
    (MOCKS, "The Vite plugin exposes the virtual module 'virtual:mocks' (src/vite/plugin.ts).",
     "ACTIVE", "virtual:mocks"),
    (MOCKS, "start() in src/setup.ts deletes themes.bin from the cache directory.", "ACTIVE",
     "names what no anchor covers"),
    (MOCKS, "graphql is re-exported from the root entry (src/core/index.ts).", "ACTIVE",
     "that graphql is exported from src/core/index.ts"),
    (MOCKS, "http is re-exported from the root entry (src/core/index.ts).", "VERIFIED",
     "src/core/index.ts"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_an_applications_settings_programs_routes_and_build_as_agents_state_them(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
