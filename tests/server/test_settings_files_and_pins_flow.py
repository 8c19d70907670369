"""Settings files, pins and wordings as agents wrote notes about a Matrix bot service, a
Rust logging crate and a TypeScript gateway they had not been shown before; through MCP
``remember`` + ``recall`` on real git repositories, each class phrased true and false:

- a value an application's YAML settings file gives ("`server.port` in
  app/example-config.yaml", "defaults to 3 in the example config", `server.port: 29316`);
- a written range ("pinned to ^0.4.17", "declared as version "1.3"") against the range
  the manifest declares, Cargo's bare version being a caret; ``edition = "2021"``;
- a supported Python minor version inside ``requires-python`` ("supports Python 3.8"
  against ``>=3.8``);
- "gunicorn is not a pyproject dependency" denies a declaration (the image may install
  it); a command that installs a package declares nothing;
- values as written: ``60*5+30``; a quote with single quotes and "..." inside;
- what is no name: "exec()s" (a verb), a placeholder of a pattern (``{id}``), a quality
  ("non-optional"), a key the file writes as a string (``"plugin_directories.upload"``);
- where the sentence puts things: a definition placed past a parenthesis, a subject file
  that is no code ("requirements.txt pins ..."), a negation inside a condition ("exits when
  the database is not Postgres"), a consequence after ", so";
- what a definition is made to do ("makes `Builder::init` panic") is unchecked;
- a bare member name the file defines (``_SharedLibs.needs_upgrade``); a class the code
  imports and calls (`Path("/opt/svc")`); a program by its executable; a name imported
  from a module; a module a file names only as a string (`require.resolve('swc-loader')`);
  a path from the working directory the code writes (``./misc/tor/control.conf``); a
  member of a value by its letter (``g.session_key``); a language naming a thing ("Rust
  Core logs"); words joined by "/" in a Go project ("obtain/renew");
- a bare member name, unless a file defines the name itself ("`Stop` is declared in
  exponential.go" means backoff.go's); a value built by code (a composite literal) and
  what a source file does are unchecked parts.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

BOT = {
    "pyproject.toml": (
        '[project]\nname = "bot"\nversion = "0.6.0"\nrequires-python = ">=3.8"\n'
        'dependencies = ["django>=4.2", "asyncpg>=0.28"]\n'
    ),
    "requirements.txt": "mautrix>=0.21.0,<0.22\naiohttp>=3,<4\n",
    "setup.py": (
        "import setuptools\n\n"
        "with open('requirements.txt') as reqs:\n    install_requires = reqs.readlines()\n\n"
        "meta = {}\nexec(open('bot/__meta__.py').read(), meta)\n"
        "setuptools.setup(name='bot', install_requires=install_requires)\n"
    ),
    "Dockerfile": (
        "FROM python:3.12-slim\nCOPY . /app\nRUN pip install uv && uv pip install --system "
        "gunicorn\nCMD [\"gunicorn\", \"bot.wsgi\"]\n"
    ),
    "bot/__init__.py": "",
    "bot/__meta__.py": '__version__ = "0.6.0"\n',
    "bot/settings.py": "RUN_PERIODIC_MAX_INTERVAL = 60 * 5 + 30\n",
    "bot/upload.py": (
        "import os\n\nfrom bot.config import get_config\n\n\n"
        "def upload_new_plugin(pid, version, data):\n"
        "    path = os.path.join(get_config()[\"plugin_directories.upload\"], "
        "f\"{pid}-v{version}.mbp\")\n"
        "    with open(path, 'wb') as f:\n        f.write(data)\n    return path\n"
    ),
    "bot/config.py": "def get_config():\n    return {}\n",
    "bot/main.py": (
        "import sys\n\nimport asyncpg\n\n\n"
        "def prepare_db(config):\n"
        "    if config['database'].startswith('postgres'):\n"
        "        return asyncpg\n    sys.exit(24)\n"
    ),
    "bot/example-config.yaml": (
        "database: sqlite:bot.db\nplugin_directories:\n    upload: ./plugins\n"
        "    trash: ./trash\nplugin_databases:\n    postgres: null\n"
        "    postgres_max_conns_per_plugin: 3\nserver:\n    hostname: 0.0.0.0\n"
        "    port: 29316\n"
    ),
}

IMAGE = {path: text for path, text in BOT.items() if path != "setup.py"}  # all declared

CRATE = {
    "Cargo.toml": (
        '[package]\nedition = "2018"\nname = "env_logger"\nversion = "0.9.3"\n\n'
        '[dependencies.log]\nversion = "0.4.8"\nfeatures = ["std"]\n\n'
        '[dependencies.humantime]\nversion = "2.0.0"\noptional = true\n'
    ),
    "src/lib.rs": (
        "mod filter;\n\npub struct Builder {\n    parsed: bool,\n}\n\nimpl Builder {\n"
        "    pub fn init(&mut self) {\n        let spec = std::env::var(\"RUST_LOG\")"
        ".unwrap_or_default();\n"
        "        filter::parse_spec(&spec);\n        self.parsed = true;\n    }\n}\n"
    ),
    "src/filter/mod.rs": (
        "mod regex;\n\npub fn parse_spec(spec: &str) -> Option<&str> {\n"
        "    let mut parts = spec.split('/');\n    let mods = parts.next();\n"
        "    if parts.next().is_some() && parts.next().is_some() {\n"
        "        eprintln!(\"warning: invalid logging spec '{}', ignoring it (too many '/'s)\", "
        "spec);\n        return None;\n    }\n    mods\n}\n"
    ),
    "src/filter/regex.rs": "pub struct Filter {\n    inner: String,\n}\n",
}

GATEWAY = {
    "package.json": (
        '{\n  "name": "@acme/gateway",\n  "version": "2.14.4",\n'
        '  "engines": {\n    "node": ">=14.15.0"\n  },\n'
        '  "dependencies": {\n    "make-fetch-happen": "^11.0.0"\n  }\n}\n'
    ),
    "src/loader.ts": (
        "import fetcher from 'make-fetch-happen';\n\n"
        "export class UplinkFetcherError extends Error {}\n\n"
        "export async function loadSupergraphSdlFromStorage(url: string): Promise<string> {\n"
        "  const res = await fetcher(url);\n  if (!res.ok) {\n"
        "    throw new UplinkFetcherError('fetch failed');\n  }\n  return res.text();\n}\n"
    ),
}

SERVICE = {
    "pyproject.toml": '[project]\nname = "svc"\nversion = "1.0"\ndependencies = ["flask>=3"]\n',
    "svc/__init__.py": "",
    "svc/shared_libs.py": (
        "import subprocess\nimport time\n\n\nclass _SharedLibs:\n    @property\n"
        "    def needs_upgrade(self) -> bool:\n        return time.time() > 0\n\n"
        "    def upgrade(self) -> None:\n        subprocess.run(['pip', 'install', '-U', 'pip'])\n"
    ),
    "svc/paths.py": 'from pathlib import Path\n\nDEFAULT_HOME = Path("/opt/svc")\n',
    "svc/request.py": (
        "import os\n\nconfloc = './misc/tor/control.conf'\n"
        "USE_PASS = os.getenv('TOR_USE_PASS', '')\n"
    ),
    "svc/misc.py": (
        "from cryptography.fernet import Fernet\n\n\ndef decrypt_string(key, string):\n"
        "    return Fernet(g.session_key).decrypt(string)\n"
    ),
    "svc/errors.py": "class CSEException(Exception):\n    pass\n",
    "svc/routes.py": "from svc.errors import CSEException\n\n\ndef search():\n"
                     "    try:\n        return 1\n    except CSEException:\n        return 0\n",
}

WORKER = {
    "package.json": (
        '{\n  "name": "@acme/worker",\n  "version": "1.0.0",\n'
        '  "dependencies": {\n    "webpack": "^5.0.0",\n    "swc-loader": "^0.2.0",\n'
        '    "heap-js": "^2.0.0"\n  }\n}\n'
    ),
    "src/bundler.ts": (
        "import webpack from 'webpack';\n\nexport const disallowedModules = "
        "['@acme/activity', 'fs'];\n\nexport function bundle(): unknown {\n"
        "  const loader = require.resolve('swc-loader');\n"
        "  return webpack({ module: { rules: [{ use: { loader } }] } });\n}\n"
    ),
    "src/runtime.ts": (
        "import { Heap } from 'heap-js';\n\nexport class BufferedLogger {\n"
        "  heap = new Heap<number>();\n}\n"
    ),
}

RENEWER = {
    "go.mod": "module example.com/renewer\n\ngo 1.21\n",
    "backoff.go": "package renewer\n\nconst Stop = -1\n",
    "exponential.go": (
        "package renewer\n\ntype ExponentialBackOff struct{ n int }\n\n"
        "func (b *ExponentialBackOff) Stop() int { return Stop }\n"
    ),
    "keys.go": (
        "package renewer\n\ntype KeyType string\n\nconst (\n\tP256 KeyType = \"p256\"\n"
        "\tRSA2048 KeyType = \"rsa2048\"\n)\n\ntype StandardKeyGenerator struct {\n"
        "\tKeyType KeyType\n}\n\n"
        "var DefaultKeyGenerator = StandardKeyGenerator{KeyType: P256}\n"
    ),
    "async.go": (
        "package renewer\n\nimport \"time\"\n\n"
        "func doWithRetry(f func() error) error {\n\ttime.Sleep(time.Minute)\n"
        "\treturn f()\n}\n"
    ),
}

CLAIMS = [
    # a value of an application's YAML settings file
    (BOT, "The default `plugin_directories.trash` in bot/example-config.yaml is ./plugins/trash.",
     "REFUTED", "says plugin_directories.trash: ./trash, not ./plugins/trash"),
    (BOT, "The default `plugin_directories.trash` in bot/example-config.yaml is ./trash.",
     "VERIFIED", "says plugin_directories.trash: ./trash"),
    (BOT, "The listen port is 8080 (`server.port` in bot/example-config.yaml).", "REFUTED",
     "says server.port: 29316, not 8080"),
    (BOT, "The listen port is 29316 (`server.port` in bot/example-config.yaml).", "VERIFIED",
     "says server.port: 29316"),
    (BOT, "postgres_max_conns_per_plugin defaults to 10 in the example config.", "REFUTED",
     "postgres_max_conns_per_plugin: 3, not 10"),
    (BOT, "postgres_max_conns_per_plugin defaults to 3 in the example config.", "VERIFIED",
     "postgres_max_conns_per_plugin: 3"),
    (BOT, "The example config sets `server.port: 29316`.", "VERIFIED", "server.port: 29316"),
    (BOT, "The example config sets `server.port: 8080`.", "REFUTED", "not 8080"),
    # a supported minor version inside requires-python
    (BOT, "The bot supports Python 3.8.", "VERIFIED", "python~=3.8.0 is within python>=3.8"),
    (BOT, "The bot still supports Python 3.7.", "REFUTED", "excludes python~=3.7.0"),
    (BOT, "We test on Python 3.13.", "ACTIVE", "cannot tell whether python==3.13.* holds"),
    # a declaration denied, whatever installs the package
    (IMAGE, "gunicorn is not a pyproject dependency; the image installs it with "
            "`pip install gunicorn`.", "VERIFIED", "gunicorn is not a declared dependency"),
    (IMAGE, "gunicorn is not a dependency.", "VERIFIED",
     "gunicorn is not a declared dependency"),
    (IMAGE, "django is not a pyproject dependency.", "REFUTED", "django is declared"),
    # values as written
    (BOT, "`RUN_PERIODIC_MAX_INTERVAL` is 60*5+30 = 330 seconds.", "VERIFIED",
     "RUN_PERIODIC_MAX_INTERVAL = 60 * 5 + 30"),
    (BOT, "`RUN_PERIODIC_MAX_INTERVAL` is 60*5+60.", "REFUTED", "not 60*5+60"),
    # what is no name: a verb made of a call, a placeholder, a key written as a string
    (BOT, "setup.py exec()s bot/__meta__.py to get the version.", "VERIFIED",
     "bot/__meta__.py is tracked"),
    (BOT, "New uploads are written as `{id}-v{version}.mbp` into `plugin_directories.upload` "
          "by `upload_new_plugin` in bot/upload.py.", "ACTIVE",
     'writes the string "plugin_directories.upload"'),
    (BOT, "New uploads are written into `plugin_directories.download` by `upload_new_plugin` "
          "in bot/upload.py.", "REFUTED", "does not define plugin_directories.download"),
    # a subject file that is no code; a negation inside a condition
    (BOT, "requirements.txt pins `mautrix>=0.21.0,<0.22` and `aiohttp>=3,<4`; setup.py reads "
          "install_requires straight from that file.", "VERIFIED",
     "aiohttp>=3,<4 is satisfied"),
    (BOT, "prepare_db in bot/main.py exits with 24 when the main database is not Postgres.",
     "ACTIVE", "the claim about Postgres"),
    # a written range against the declared one (Cargo's bare version is a caret)
    (CRATE, "The log dependency is pinned to ^0.4.17 in Cargo.toml.", "REFUTED",
     "the lower bound is 0.4.8, not 0.4.17"),
    (CRATE, "The log dependency is pinned to ^0.4.8 in Cargo.toml.", "VERIFIED",
     "is satisfied by log 0.4.8"),
    (CRATE, 'humantime is declared as version "1.3" in Cargo.toml (the 2.x API is not used '
            'here).', "REFUTED", "excludes humantime==1.3"),
    (CRATE, 'The crate is edition = "2021" in Cargo.toml.', "REFUTED", "not 2021"),
    (CRATE, 'The crate is edition = "2018" in Cargo.toml.', "VERIFIED", "edition: 2018"),
    (CRATE, "log is the only non-optional dependency in Cargo.toml.", "ACTIVE",
     'the restriction "only non-optional dependency'),
    # a definition placed past a parenthesis
    (CRATE, "parse_spec (the RUST_LOG directive parser) lives in src/filter/regex.rs.",
     "REFUTED", "it is defined in src/filter/mod.rs"),
    (CRATE, "parse_spec (the RUST_LOG directive parser) lives in src/filter/mod.rs.",
     "VERIFIED", "src/filter/mod.rs defines parse_spec"),
    # a quote with single quotes and an ellipsis inside
    (CRATE, "parse_spec rejects a spec with more than one '/': it prints \"warning: invalid "
            "logging spec ... (too many '/'s)\" to stderr.", "VERIFIED",
     "src/filter/mod.rs says"),
    (CRATE, "parse_spec rejects a spec with more than one '/': it prints \"error: bad logging "
            "spec ... (too many '/'s)\" to stderr.", "REFUTED", "no string in"),
    # what a definition is made to do
    (CRATE, "An invalid regex in RUST_LOG makes Builder::init panic.", "ACTIVE",
     "that an invalid regex in RUST_LOG makes Builder::init panic"),
    # a consequence after ", so"; a written npm range
    (GATEWAY, "package.json says engines node >=18, so Node 16 is unsupported.", "REFUTED",
     "says engines.node: >=14.15.0, not >=18"),
    (GATEWAY, "make-fetch-happen is pinned to ^11.0.0.", "VERIFIED",
     "is satisfied by make-fetch-happen^11.0.0"),
    (GATEWAY, "make-fetch-happen is pinned to ^11.2.0.", "REFUTED",
     "the lower bound is 11.0.0, not 11.2.0"),
    (GATEWAY, "An Uplink response of 'Unchanged' makes loadSupergraphSdlFromStorage throw an "
              "UplinkFetcherError.", "ACTIVE", "makes loadSupergraphSdlFromStorage throw"),
    # a member the file defines, by its bare name; a program named by its executable
    (SERVICE, "`needs_upgrade` in svc/shared_libs.py compares the mtime of the shared "
              "venv's pip executable.", "ACTIVE", "defines _SharedLibs.needs_upgrade"),
    (SERVICE, "`needs_cleanup` in svc/shared_libs.py compares the mtimes.", "REFUTED",
     "does not define needs_cleanup"),
    # a class the code imports, called
    (SERVICE, '`DEFAULT_HOME = Path("/opt/svc")` lives in svc/paths.py.', "ACTIVE",
     "imported by svc/paths.py"),
    # a file the program opens where it runs, named from its working directory
    (SERVICE, "Tor uses a password from ./misc/tor/control.conf when TOR_USE_PASS is set.",
     "ACTIVE", "the file ./misc/tor/control.conf"),
    (SERVICE, "Settings are read from ./misc/tor/other.conf.", "REFUTED",
     "misc/tor/other.conf is not in the repository"),
    # a member of a value by its letter
    (SERVICE, "decrypt_string in svc/misc.py uses g.session_key.", "ACTIVE", "partly checked"),
    # a name imported, not a module
    (SERVICE, "CSEException is imported by svc/routes.py.", "VERIFIED",
     "imported by svc/routes.py"),
    (SERVICE, "CSEError is imported by svc/routes.py.", "REFUTED", "not imported"),
    # a module named as a string is no import, nor its absence
    (WORKER, "src/bundler.ts runs webpack with swc-loader.", "ACTIVE",
     "names swc-loader as a string"),
    (WORKER, "src/bundler.ts uses heap-js.", "REFUTED",
     "heap-js is not imported in src/bundler.ts"),
    # what a thing is written in, naming it
    (WORKER, "heap-js is used in src/runtime.ts so that Node and Rust Core logs come out in "
             "order.", "VERIFIED", "imported by src/runtime.ts"),
    # words joined by "/", no package of Go's
    (RENEWER, "Background obtain/renew retries go through `doWithRetry` in async.go.",
     "VERIFIED", "async.go defines doWithRetry"),
    # a member by its bare name, unless a file defines the name itself
    (SERVICE, "`needs_upgrade` is defined in svc/shared_libs.py.", "VERIFIED",
     "svc/shared_libs.py defines _SharedLibs.needs_upgrade"),
    (RENEWER, "`Stop` is declared in exponential.go.", "REFUTED", "it is defined in backoff.go"),
    # a value built by code, which no anchor reads
    (RENEWER, "`DefaultKeyGenerator` in keys.go is `StandardKeyGenerator{KeyType: RSA2048}`.",
     "ACTIVE", "not checked: the value StandardKeyGenerator{KeyType: RSA2048}"),
    # what a source file does
    (SERVICE, "svc/request.py verifies the Tor config against a checksum.", "ACTIVE",
     "not checked: that svc/request.py verifies the Tor config against a checksum"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_settings_files_pins_and_wordings(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
