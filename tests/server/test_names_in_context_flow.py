"""What a name means where a note writes it, as agents wrote notes about a Flask
application, a backup tool, a DHCP server (Go), a packet sniffer (Rust) and a REST
framework (TypeScript) they had not been shown before; through MCP ``remember`` +
``recall`` on real git repositories, each class phrased true and false:

- a name the code writes as a string is no variable nothing reads (a settings class given
  ``os.environ``, a child's environment set by key), a test's constant is not the
  application's value, "10 (MB)" is a unit, "`app.run`" is the attribute of an ``app``
  object, "for the server" is no deployment;
- what a path the repository lacks is: a package with its requirement, a place on the
  machine, a route, a kind of file ("_test.go files"), a binary described by a word;
- what names the code but claims no use of it: "Syslog-style", "the build requires",
  a Go import's alias, a word some Python package is named in a repository with no
  Python, a behave ``features/`` folder;
- what existence does not check: a base class said beside a parenthesis, a relation after
  a condition, a file's exports (``__all__``, ``export *``), a mode in octal, a program's
  option in backticks, a manifest's table, a Go module named by its path;
- a definition placed past an appositive, and a crate used by its path with no ``use``;
- and what a second round showed: a decorator, a string the code passes, a list of the
  code's names, a folder called ``services``, a submodule reached through its package, a
  sentence's full stop after a value, a name several classes give values, a size with
  its unit, a component's folder, a TypeScript type another may satisfy, the license, a
  stdlib word before a noun, a definition placed beside other files, bases listed, said
  beside an appositive or a file.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

CALENDAR = {
    "pyproject.toml": '[project]\nname = "calendar-app"\nversion = "1.5"\n'
                      'dynamic = ["dependencies"]\n\n'
                      "[project.optional-dependencies]\n"
                      'test = ["selenium", "behave"]\n\n'
                      "[build-system]\n"
                      'requires = ["setuptools>=61.0"]\n'
                      'build-backend = "setuptools.build_meta"\n',
    "requirements/base.in": "flask\nruamel.yaml>0.15.0\n",
    "Dockerfile": "FROM python:3.13-alpine\nEXPOSE 80\nENV PORT=80\nENV WORKERS=4\n"
                  'ENTRYPOINT ["/bin/sh", "start.sh"]\n',
    "app.py": '"""Compatibility entry point."""\n\nfrom calendar_app import app, main\n\n'
              '__all__ = ["app", "main"]\n',
    "calendar_app/__init__.py": "from calendar_app.web import app, main\n",
    "calendar_app/web.py": "from flask import Flask\n\n"
                           "from calendar_app.config import environment\n\n"
                           "app = Flask(__name__)\n\n\n"
                           "def main():\n    app.run(port=environment.port)\n",
    "calendar_app/config.py": "import os\n\nMB = 1024 * 1024\n\n\nclass Config:\n"
                              "    def __init__(self, source):\n        self._source = source\n\n"
                              "    @property\n    def port(self):\n"
                              '        return int(self._source.get("PORT", "5000"))\n\n'
                              "    @property\n    def allowed_hosts(self):\n"
                              '        return self._source.get("ALLOWED_HOSTS", "").split(",")\n\n'
                              "    @property\n    def cache_file_size(self):\n"
                              '        return int(self._source.get("CACHE_FILE_SIZE", "10")) * MB\n'
                              "\n\nenvironment = Config(os.environ)\n",
    "calendar_app/convert/__init__.py": "from calendar_app.convert.ics import ConvertToICS\n\n"
                                        '__all__ = ["ConvertToICS"]\n',
    "calendar_app/convert/ics.py": "class ConvertToICS:\n    pass\n",
    "calendar_app/convert/calendars.py": "class ConvertToCalendars:\n    pass\n",
    "calendar_app/test/__init__.py": "",
    "calendar_app/test/__main__.py": "PORT = 8001\n",
    "features/__init__.py": "",
    "features/environment.py": "from selenium import webdriver\n\n\n"
                               "def before_all(context):\n"
                               "    context.browser = webdriver.Firefox()\n",
    "features/steps/__init__.py": "",
}  # fmt: skip
BACKUP = {
    "pyproject.toml": '[project]\nname = "backup"\nversion = "2.1"\n'
                      'requires-python = ">=3.9"\n'
                      'dependencies = ["jsonschema", "ruamel.yaml>0.15.0"]\n\n'
                      "[build-system]\n"
                      'requires = ["setuptools>=61.0"]\n'
                      'build-backend = "setuptools.build_meta"\n',
    "backup/__init__.py": "",
    "backup/environment.py": "import os\n\n\ndef make_environment(config):\n"
                             "    environment = dict(os.environ)\n"
                             "    environment['BORG_EXIT_CODES'] = 'modern'\n"
                             "    return environment\n",
    "backup/logger.py": "import logging\nimport socket\n\n\n"
                        "class JournaldHandler(logging.Handler):\n"
                        "    def emit(self, record):\n"
                        "        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
                        "        sock.sendto(b'x', '/run/systemd/journal/socket')\n",
    "backup/logs.py": "import logging\n\n\nclass Forgetful_handler(logging.Handler):\n"
                      "    def emit(self, record):\n        pass\n",
    "backup/generate.py": "def write_configuration(config_filename, rendered, mode=0o600):\n"
                          "    with open(config_filename, 'w') as f:\n        f.write(rendered)\n",
    "backup/arguments.py": "ACTION_ALIASES = {\n    'create': ['-C'],\n    'prune': ['-p'],\n}\n",
    "backup/collect.py": "import os\n\n\ndef get_default_config_paths():\n"
                         "    home = os.environ.get('XDG_CONFIG_HOME', '~/.config')\n"
                         "    return ['/etc/backup/config.yaml', f'{home}/backup/config.yaml']\n",
}  # fmt: skip
DHCP = {
    "go.mod": "module github.com/example/dhcpd\n\ngo 1.18\n\nrequire (\n"
              "\tgithub.com/spf13/pflag v1.0.5\n\tgithub.com/spf13/viper v1.10.1\n"
              "\tgithub.com/stretchr/testify v1.7.0\n)\n",
    "cmds/dhcpd/main.go": 'package main\n\nimport (\n\t"fmt"\n\n'
                          '\tflag "github.com/spf13/pflag"\n\n'
                          '\t"github.com/example/dhcpd/config"\n)\n\n'
                          'var conf = flag.StringP("conf", "c", "", "config file")\n\n'
                          "func main() {\n\tflag.Parse()\n\tc, _ := config.Load(*conf)\n"
                          "\tfmt.Println(c)\n}\n",
    "config/config.go": 'package config\n\nimport "github.com/spf13/viper"\n\n'
                        "type Config struct {\n\tListen string\n}\n\n"
                        "func Load(path string) (*Config, error) {\n"
                        '\tviper.SetConfigName("config")\n'
                        '\tviper.AddConfigPath("/etc/dhcpd/")\n'
                        "\treturn &Config{}, viper.ReadInConfig()\n}\n",
    "config/config_test.go": 'package config\n\nimport (\n\t"testing"\n\n'
                             '\t"github.com/stretchr/testify/require"\n)\n\n'
                             "func TestLoad(t *testing.T) {\n\t_, err := Load(\"\")\n"
                             "\trequire.Error(t, err)\n}\n",
}  # fmt: skip
SNIFFER = {
    "Cargo.toml": '[package]\nname = "sniffer"\nversion = "0.15.0"\nedition = "2018"\n\n'
                  '[dependencies]\ntoml = "0.5"\natty = "0.2"\nserde = "1"\n',
    "Dockerfile": "FROM rust:alpine3.12\nWORKDIR /usr/src/sniffer\nCOPY . .\n"
                  "RUN cargo build --release && strip target/release/sniffer\n\n"
                  "FROM alpine:3.12\nCOPY --from=0 /usr/src/sniffer/target/release/sniffer "
                  "/usr/local/bin/\n"
                  'ENTRYPOINT ["/usr/local/bin/sniffer"]\n',
    "src/main.rs": "mod sandbox;\n\nfn main() {\n"
                   "    let colors = atty::is(atty::Stream::Stdout);\n"
                   '    println!("{}", colors);\n}\n',
    "src/sandbox/mod.rs": "pub mod config;\n",
    "src/sandbox/config.rs": "use serde::Deserialize;\n\n#[derive(Deserialize)]\n"
                             "pub struct SandboxConfig {\n    pub user: Option<String>,\n}\n\n"
                             "pub fn parse(content: &str) -> SandboxConfig {\n"
                             "    toml::from_str(content).unwrap()\n}\n",
}  # fmt: skip
REST = {
    "package.json": '{"name": "rest", "version": "15.0.16", "main": "dist/index.js",\n'
                    ' "dependencies": {"js-yaml": "^4.1.0"}}\n',
    "src/index.ts": "export * from './rest.server';\n"
                    "export * from './spec-enhancers/info.spec-enhancer';\n",
    "src/rest.server.ts": "import {MiddlewareSequence} from './sequence';\n"
                          "import {dump} from 'js-yaml';\n\n"
                          "export class RestServer {\n"
                          "  sequence: unknown;\n"
                          "  constructor(config: {sequence?: unknown}) {\n"
                          "    this.sequence = config.sequence ?? MiddlewareSequence;\n  }\n"
                          "  yaml(spec: object) {\n    return dump(spec);\n  }\n}\n",
    "src/sequence.ts": "export class DefaultSequence {}\nexport class MiddlewareSequence {}\n",
    "src/parse-json.ts": "export function sanitizeJsonParse(text: string) {\n"
                         "  return JSON.parse(text);\n}\n",
    "src/body-parsers/body-parser.json.ts": "import {sanitizeJsonParse} from '../parse-json';\n\n"
                                            "export function parse(text: string) {\n"
                                            "  return sanitizeJsonParse(text);\n}\n",
    "src/spec-enhancers/info.spec-enhancer.ts": "export class InfoSpecEnhancer {}\n",
    "src/spec-enhancers/consolidate.spec-enhancer.ts": "export class ConsolidationEnhancer {}\n",
}  # fmt: skip

WALLET = {
    "pyproject.toml": '[project]\nname = "wallet"\nversion = "1.6"\n'
                      'dependencies = ["grpcio", "uvicorn", "pydantic", "tenacity", "vobject",\n'
                      '                "icalendar", "cachetools", "jinja2"]\n\n'
                      '[project.scripts]\nwallet = "wallet.server:main"\n',
    "wallet/__init__.py": "",
    "wallet/settings.py": "from pydantic import BaseModel, BaseSettings\n\n\n"
                          "class WalletSettings(BaseModel):\n    pass\n\n\n"
                          "class AuthSettings(WalletSettings):\n"
                          "    auth_token_expire_minutes: int = 525600\n\n\n"
                          "class Settings(BaseSettings):\n    class Config:\n"
                          "        env_file = '.env'\n        case_sensitive = False\n",
    "wallet/helpers.py": "def create_access_token(data):\n    return data\n",
    "wallet/app.py": "def create_app():\n    return object()\n",
    "wallet/server.py": "import uvicorn\n\n\ndef main():\n"
                        '    config = uvicorn.Config("wallet.__main__:app", loop="uvloop")\n'
                        "    uvicorn.Server(config).run()\n",
    "wallet/__main__.py": "from wallet.app import create_app\n\napp = create_app()\n",
    "wallet/base.py": "class Wallet:\n    __node_cls__ = None\n",
    "wallet/rest.py": "from wallet.base import Wallet\n\n\nclass RestNode:\n    pass\n\n\n"
                      "class RestWallet(Wallet):\n    __node_cls__ = RestNode\n",
    "wallet/boltz.py": "import grpc.aio\n",
    "wallet/webdav.py": "class WebDAVApp:\n    pass\n",
    "wallet/web.py": "import jinja2\n\nfrom wallet import webdav\n"
                     "from wallet.cache import LRU\n\n\n"
                     "class WalletApp(webdav.WebDAVApp):\n    pass\n",
    "wallet/cache.py": "import cachetools\n\n\nclass LRU:\n    store = cachetools.LRUCache\n",
    "wallet/vcard.py": "import vobject\n\n\ndef parse(text):\n"
                       "    return vobject.readOne(text)\n",
    "wallet/templates/index.html": "<html></html>\n",
    "README.md": "Build the image with the Containerfile (see the docs).\n",
    "wallet/db.py": 'ROUTES = ["/api/v1/wallet", "/api/v1/payments", "/api/v1/auth"]\n\n\n'
                    "def url(folder, name):\n"
                    '    return f"sqlite+aiosqlite:///{folder}/{name}.sqlite3"\n',
    "wallet/grpcwallet.py": "import grpc\n\n\ndef channel(url):\n"
                            "    return grpc.aio.insecure_channel(url)\n",
    "wallet/breez.py": "from importlib.util import find_spec\n\n"
                       'HAS_SDK = find_spec("breez_sdk") is not None\n',
    "wallet/core/services/notifications.py": "import smtplib\n\nPORT = 587\n\n\n"
                                             "def send(host):\n"
                                             "    return smtplib.SMTP(host, PORT)\n",
    "wallet/http.py": "import os\n\nfrom tenacity import retry\n\n"
                      "os.environ['NETRC'] = '/dev/null'\n\n\n"
                      "@retry\ndef request(url):\n    return url\n",
    "wallet/storages.py": 'STORAGES = ["caldav", "filesystem", "google_calendar"]\n',
    "wallet/exceptions.py": "class Error(Exception):\n    pass\n\n\n"
                            "class UserError(Error, ValueError):\n    pass\n",
    "docker/docker-compose.yml": "services:\n  wallet:\n    image: wallet:latest\n"
                                 "    ports:\n      - 5001:5001\n",
}  # fmt: skip
AGENT = {
    "go.mod": "module github.com/example/cluster\n\ngo 1.12\n\nrequire (\n"
              "\tgithub.com/mitchellh/mapstructure v1.1.2\n)\n",
    "cmd/cluster/agent/agent.go": "package agent\n\ntype Agent struct {\n\tName string\n}\n",
    "cmd/cluster/agent/config.go": 'package agent\n\nimport (\n\t"encoding/json"\n\n'
                                   '\t"github.com/mitchellh/mapstructure"\n)\n\n'
                                   "func Decode(raw []byte, out interface{}) error {\n"
                                   "\tvar m map[string]interface{}\n"
                                   "\tif err := json.Unmarshal(raw, &m); err != nil {\n"
                                   "\t\treturn err\n\t}\n"
                                   "\treturn mapstructure.Decode(m, out)\n}\n",
    "cmd/cluster/agent/invoke.go": "package agent\n\nconst maxBufSize = 8 * 1024\n",
    "README.md": "Build the image with the Containerfile (see the docs).\n",
}  # fmt: skip
MOCKS = {
    "package.json": '{"name": "mocks", "version": "4.7.0", "license": "Apache-2.0",\n'
                    ' "devDependencies": {"socks": "^2.8.0"}}\n',
    "src/mocks.ts": "export interface Mocks {\n  start(): void;\n}\n",
    "src/client.ts": "import {Mocks} from './mocks';\n\n"
                     "export class MocksClient implements Mocks {\n  start() {}\n}\n",
    "src/main.browser.ts": "import {Mocks} from './mocks';\n"
                           "import {MocksClient} from './client';\n\n"
                           "export function getLocal(): Mocks {\n  return new MocksClient();\n}\n",
    "src/server.ts": "export class MocksServer {\n"
                     "  constructor(private options: {socks?: boolean} = {socks: false}) {}\n}\n",
    "src/util/custom-error.ts": "export class CustomError extends Error {}\n",
    "src/util/abort-error.ts": "import {CustomError} from './custom-error';\n\n"
                               "export class AbortError extends CustomError {}\n",
}  # fmt: skip

CLAIMS = [
    # a name the code writes as a string, a test's constant, a unit, an object's attribute
    (CALENDAR, "Host restriction reads the comma-separated ALLOWED_HOSTS env var.", "ACTIVE",
     'writes the literal "ALLOWED_HOSTS"'),
    (CALENDAR, "The CALENDAR_THEME env var picks the colour theme.", "REFUTED",
     "no code reads CALENDAR_THEME"),
    (BACKUP, "`make_environment` always sets BORG_EXIT_CODES=modern for Borg.", "ACTIVE",
     "BORG_EXIT_CODES"),
    (BACKUP, "Borg reads the BORG_EXIT_CODES environment variable.", "ACTIVE",
     'writes the literal "BORG_EXIT_CODES"'),
    (CALENDAR, "In calendar_app/config.py, `Config.port` reads PORT and falls back to 5000, "
               "which `main()` passes to `app.run`.", "ACTIVE", "names what no anchor covers"),
    (CALENDAR, "The test server's PORT is 8001 (calendar_app/test/__main__.py).", "ACTIVE",
     "the value 8001"),
    (CALENDAR, "The PORT constant in calendar_app/test/__main__.py is 8001.", "VERIFIED",
     "PORT = 8001"),
    (CALENDAR, "CACHE_FILE_SIZE defaults to 10 (MB), multiplied by the MB constant in "
               "config.py.", "ACTIVE", "the value 10"),
    (CALENDAR, "The Dockerfile builds FROM python:3.13-alpine, EXPOSEs 80 and sets ENV PORT=80 "
               "and WORKERS=4 for the server.", "VERIFIED", "WORKERS"),
    (CALENDAR, "The Dockerfile builds FROM python:3.13-alpine and sets ENV WORKERS=2 for the "
               "server.", "REFUTED", "WORKERS"),
    # a path the repository lacks that names no file of it
    (BACKUP, "Runtime deps are jsonschema and ruamel.yaml>0.15.0.", "VERIFIED",
     "ruamel-yaml>0.15.0 is satisfied"),
    (BACKUP, "`get_default_config_paths()` in backup/collect.py adds backup/config.yaml under "
             "$XDG_CONFIG_HOME.", "ACTIVE", "backup/config.yaml"),
    (BACKUP, "The report writer lives in backup/reports.py.", "REFUTED",
     "backup/reports.py is not in the repository"),
    (REST, "The openapi.yaml endpoint serializes the spec with js-yaml's `dump`.", "ACTIVE",
     "names what no anchor covers"),
    (DHCP, "stretchr/testify only appears in _test.go files.", "ACTIVE", "_test.go"),
    (SNIFFER, "The Dockerfile copies the stripped binary into a plain `alpine:3.12` image.",
     "VERIFIED", "alpine:3.12"),
    # a name that claims no use of a package
    (BACKUP, "The build requires setuptools>=61.0.", "VERIFIED", "setuptools"),
    (BACKUP, "Syslog-style logging is done by `JournaldHandler` in backup/logger.py.",
     "VERIFIED", "defines JournaldHandler"),
    (DHCP, "cmds/dhcpd/main.go parses its flags with Go's standard library `flag` package.",
     "ACTIVE", "not checked: flag"),
    (DHCP, "cmds/dhcpd/main.go imports the `flag` package.", "REFUTED",
     "flag is not imported in cmds/dhcpd/main.go"),
    (DHCP, "cmds/dhcpd/main.go parses its flags with spf13/pflag.", "VERIFIED",
     "imported by cmds/dhcpd/main.go"),
    (DHCP, "The old `interface` key in a server section still works as an alias for `listen`.",
     "ACTIVE", "interface"),
    (DHCP, "`config.Load` searches /etc/dhcpd/ for a file named `config`.", "ACTIVE",
     "/etc/dhcpd/"),
    (SNIFFER, "Output colors are only enabled when stdout is a TTY (`atty::is` in main.rs).",
     "ACTIVE", "only enabled when stdout is a TTY"),
    (CALENDAR, "Selenium is a test-only dependency; nothing in the runtime package imports it.",
     "ACTIVE", "!import:selenium@calendar_app holds"),
    # what existence does not check
    (BACKUP, "`Forgetful_handler` (backup/logs.py) subclasses logging.handlers.MemoryHandler.",
     "ACTIVE", "names what no anchor covers"),
    (BACKUP, "`Forgetful_handler` (backup/logs.py) subclasses logging.Handler.", "VERIFIED",
     "Forgetful_handler"),
    (REST, "When no `sequence` is given in the config, the RestServer constructor binds "
           "`DefaultSequence` as the sequence.", "ACTIVE", "binds `DefaultSequence`"),
    (CALENDAR, "`ConvertToCalendars` is exported from the `calendar_app.convert` package "
               "(listed in convert/__init__.py's __all__).", "ACTIVE",
     "that ConvertToCalendars is exported from calendar_app/convert/__init__.py"),
    (CALENDAR, "`ConvertToICS` is exported from the `calendar_app.convert` package (listed in "
               "convert/__init__.py's __all__).", "VERIFIED", "ConvertToICS"),
    (REST, "src/index.ts re-exports `ConsolidationEnhancer` alongside `InfoSpecEnhancer`.",
     "ACTIVE", "that src/index.ts re-exports `ConsolidationEnhancer`"),
    (REST, "src/index.ts re-exports `InfoSpecEnhancer`.", "VERIFIED", "InfoSpecEnhancer"),
    (BACKUP, "`write_configuration` in backup/generate.py takes a `mode` argument that "
             "defaults to 0o644.", "REFUTED", "mode"),
    (BACKUP, "`write_configuration` in backup/generate.py takes a `mode` argument that "
             "defaults to 0o600.", "VERIFIED", "mode"),
    (BACKUP, "`write_configuration` in backup/generate.py writes the config with a default "
             "mode of 0o644.", "ACTIVE", "the value 0o644"),
    (BACKUP, "In backup/arguments.py ACTION_ALIASES, `create` is aliased to `-c`.", "ACTIVE",
     "the option -c"),
    (CALENDAR, "pyproject.toml lists the runtime dependencies statically under "
               "[project].dependencies.", "ACTIVE", "the [project].dependencies table"),
    (DHCP, "The CLI is built on spf13/cobra, which is a direct requirement in go.mod.", "ACTIVE",
     "spf13/cobra"),
    (DHCP, "The CLI uses spf13/cobra.", "REFUTED", "spf13/cobra"),
    # a definition placed past an appositive; a crate used by its path
    (REST, "`sanitizeJsonParse`, the reviver that rejects `__proto__` keys, is defined in "
           "src/body-parsers/body-parser.json.ts.", "REFUTED", "sanitizeJsonParse"),
    (REST, "`sanitizeJsonParse`, the reviver that rejects `__proto__` keys, is defined in "
           "src/parse-json.ts.", "VERIFIED", "sanitizeJsonParse"),
    (SNIFFER, "The sandbox uses the toml crate.", "VERIFIED", "src/sandbox/config.rs"),
    (SNIFFER, "The sandbox uses the atty crate.", "REFUTED", "src/main.rs"),
    # what a second round of notes showed
    (WALLET, "`wallet.http.request` is decorated with tenacity's `@retry`.", "ACTIVE",
     "uncovered:retry"),
    (WALLET, "server.py builds `uvicorn.Config(\"wallet.__main__:app\", loop=\"uvloop\")`.",
     "ACTIVE", "uvloop"),
    (WALLET, "Storage types are listed in wallet/storages.py: caldav, filesystem and "
             "google_calendar.", "ACTIVE", "names what no anchor covers"),
    (WALLET, "Notifications are sent with smtplib on port 587 in "
             "wallet/core/services/notifications.py.", "ACTIVE", "the value 587"),
    (WALLET, "wallet/db.py opens `sqlite+aiosqlite:///<data_folder>/<name>.sqlite3`.", "ACTIVE",
     "the value sqlite+aiosqlite"),
    (WALLET, "The wallet service publishes port 5001 in docker/docker-compose.yml.", "VERIFIED",
     "5001"),
    (WALLET, "wallet/grpcwallet.py imports grpc.aio.", "ACTIVE", "imports grpc; whether"),
    (WALLET, "wallet/grpcwallet.py uses asyncio.", "REFUTED", "asyncio"),
    (WALLET, "Settings in wallet/settings.py reads .env with case_sensitive = False.", "VERIFIED",
     "case_sensitive"),
    (WALLET, "Settings in wallet/settings.py reads .env with case_sensitive = True.", "REFUTED",
     "case_sensitive"),
    (WALLET, "RestWallet sets `__node_cls__ = RestNode`.", "ACTIVE", "__node_cls__"),
    (WALLET, "auth_token_expire_minutes defaults to 525600 in AuthSettings; "
             "`create_access_token` lives in wallet/helpers.py.", "VERIFIED",
     "auth_token_expire_minutes"),
    (WALLET, "wallet/breez.py checks find_spec(\"breez_sdk\") before loading the SDK.", "ACTIVE",
     "names what no anchor covers"),
    (WALLET, "http.py sets NETRC so that requests are not sent with netrc credentials.",
     "ACTIVE", "netrc"),
    (WALLET, "`create_app()` lives in wallet/server.py and wallet/__main__.py imports it.",
     "REFUTED", "create_app"),
    (WALLET, "`create_app()` lives in wallet/app.py and wallet/__main__.py imports it.",
     "VERIFIED", "create_app"),
    (WALLET, "`UserError` in wallet/exceptions.py derives from Error and RuntimeError.", "ACTIVE",
     "derives from Error and RuntimeError"),
    (WALLET, "`UserError` in wallet/exceptions.py derives from Error and ValueError.",
     "VERIFIED", "UserError"),
    (WALLET, "`WalletSettings`, the base of all the settings groups in wallet/settings.py, "
             "subclasses pydantic BaseSettings.", "ACTIVE", "not checked: that `WalletSettings`"),
    (WALLET, "`WalletSettings`, the base of all the settings groups in wallet/settings.py, "
             "subclasses pydantic BaseModel.", "VERIFIED", "WalletSettings"),
    (WALLET, "The release workflow publishes to PyPI with twine after the build.", "ACTIVE",
     "twine"),
    # what a third round showed
    (AGENT, "There is no Dockerfile or Containerfile even though the README mentions a "
            "Containerfile.", "ACTIVE", "Containerfile"),
    (WALLET, "wallet/vcard.py parses vCards with `vobject`, while iCalendar data goes through "
             "the `icalendar` package.", "ACTIVE", "tech:icalendar holds"),
    (WALLET, "wallet/vcard.py parses vCards with `vobject`.", "VERIFIED",
     "imported by wallet/vcard.py"),
    (WALLET, "`WalletApp` (web.py) is a subclass of `webdav.WebDAVApp`.", "VERIFIED",
     "WalletApp"),
    (WALLET, "Pages are rendered with jinja2 from wallet/templates.", "ACTIVE",
     "holds no source code"),
    (WALLET, "The package installs a single console script, `wallet`, mapped to "
             "`wallet.server:main`.", "VERIFIED", "wallet/server.py is tracked"),
    (WALLET, "The `cachetools` dependency is used by LRU to keep entries.", "VERIFIED",
     "wallet/cache.py"),
    (WALLET, "The `jinja2` dependency is used by LRU to keep entries.", "REFUTED",
     "not in wallet/cache.py"),
    (AGENT, "go.mod requires github.com/mitchellh/mapstructure.", "VERIFIED",
     "mitchellh/mapstructure"),
    (AGENT, "go.mod requires github.com/rogpeppe/go-internal.", "REFUTED",
     "rogpeppe/go-internal"),
    (AGENT, "Agent config files are decoded with encoding/json and mapped with "
            "mitchellh/mapstructure.", "VERIFIED", "cmd/cluster/agent/config.go"),
    (AGENT, "invoke.go caps the output buffer at maxBufSize = 8 KB.", "VERIFIED", "8 * 1024"),
    (AGENT, "invoke.go caps the output buffer at maxBufSize = 4 KB.", "REFUTED", "8 * 1024"),
    (MOCKS, "In src/main.browser.ts, getLocal() returns a MocksClient.", "ACTIVE",
     "may be MocksClient"),
    (MOCKS, "MocksServer's constructor defaults `socks` to false.", "ACTIVE", "socks"),
    (MOCKS, "AbortError in src/util/abort-error.ts extends the built-in Error class directly.",
     "ACTIVE", "extends the built-in Error"),
    (MOCKS, "AbortError in src/util/abort-error.ts extends CustomError.", "VERIFIED",
     "AbortError"),
    (MOCKS, "The package is Apache-2.0 licensed per package.json.", "ACTIVE", "the license"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_a_name_is_read_for_what_it_means_where_the_note_writes_it(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
