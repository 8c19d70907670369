"""Values and places notes state in the forms agents write them, through MCP ``remember``
+ ``recall`` on real git repositories, each phrased true and false:

- the name a thing "is called" in quotes, bound to the constant named beside it;
- the unit a Go ``time.Duration`` constant is ("logged in milliseconds");
- a standard ("RFC 3339") against the package's name of it a constant holds
  (``time.RFC3339``, ``time.Kitchen``), and such a name stated as the value;
- a constant given another constant (``DEFAULT_PAGE_SIZE = QUERY_LIMIT``) holds its value;
- a size in MB against a byte count written as arithmetic;
- a distribution named with its affix ("pysaml2") is the module the code imports;
- a package used "through" its SDK module in the file the sentence names;
- a list a value is tested against ("not in ALLOWED_ENVIRONMENTS") is named, not negated;
- a definition placed in a file ("debounce lives in src/scroll.ts"): the file is the claim;
- a definition copied into ``dist/`` is the source's;
- the keys of a defaults object (``defaultOptions = { level: 'info' }``);
- a variant a Rust enum lists; the fields a Rust ``new`` sets; "a dev-dependency only";
- what a definition does, or how often, is not made true by the definition existing;
- a class attribute of the file a note names; a class's name as a setting's string; a
  content length in MB; a ``timedelta``; a camelCase name's unit; a build's copy;
- a Cargo feature on by default, an optional crate "always compiled in", a macro's "!";
- what a Go ``New...`` function's struct literal gives a field; a key stated in quotes;
- a flag written as a shift; a word after a copula as a string's value; a Dockerfile named
  by its path; a compose service named by its product and version; a Go module with no
  requirements; a capitalised name placed in a file; the minimum Rust version in words.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

GO = {
    "go.mod": "module example.com/trail\n\ngo 1.17\n",
    "globals.go": 'package trail\n\nimport "time"\n\nvar (\n'
                  '\tTimeKey = "ts_utc"\n\tDurationUnit = time.Millisecond\n'
                  "\tTimeFormat = time.RFC3339\n)\n",
    "console.go": 'package trail\n\nimport "time"\n\nconst consoleTimeFormat = time.Kitchen\n\n'
                  "type Console struct {\n\tNoColor bool\n}\n",
}  # fmt: skip
SETTINGS = {
    "pyproject.toml": '[project]\nname = "pager"\nversion = "1.0"\n'
                      'dependencies = ["flask", "sentry-sdk", "pysaml2"]\n',
    "pager/__init__.py": "",
    "pager/settings.py": "QUERY_LIMIT = 50\nDEFAULT_PAGE_SIZE = QUERY_LIMIT\n"
                         "DEFAULT_TIMEOUT = 86400\nHEARTBEAT_TIMEOUT = DEFAULT_TIMEOUT\n"
                         "LOG_MAX_BYTES = 10 * 1024 * 1024\nDELETE_EXPIRED_AFTER = 2 * 60 * 60\n"
                         "BLACKOUT_DURATION = 3600\nALLOWED_ENVIRONMENTS = ['Production']\n",
    "pager/app.py": "import sentry_sdk\nfrom flask import Flask\n\n"
                    "sentry_sdk.init()\napp = Flask(__name__)\n",
    "pager/saml.py": "import saml2.client\n\n\ndef login():\n    return saml2.client\n",
    "pager/reject.py": "import os\n\n\nclass RejectPolicy:\n"
                       "    def allowed(self):\n"
                       "        return os.environ.get('ALLOWED_ENVIRONMENTS', 'Production')\n",
}  # fmt: skip
WEB = {
    "package.json": '{"name": "scroller", "version": "1.0.0", "type": "module"}\n',
    "src/utils.ts": "export function debounce(fn: () => void) {\n  return fn\n}\n",
    "src/scroll.ts": "import { debounce } from './utils'\n\n"
                     "export function observeRect(cb: () => void) {\n  return debounce(cb)\n}\n",
    "dist/esm/scroll.js": "export function observeRect(cb) {\n  return cb\n}\n",
    "src/focus.ts": "export const focusManager = {\n  listen(cb: () => void) {\n"
                    "    document.addEventListener('visibilitychange', cb)\n  },\n}\n",
    "src/options.ts": "export const defaultOptions = {\n  level: 'info',\n"
                      "  messageKey: 'msg',\n}\n",
}  # fmt: skip
CRATE = {
    "Cargo.toml": '[package]\nname = "dotfile"\nversion = "0.1.0"\nedition = "2018"\n\n'
                  '[dev-dependencies]\ntempfile = "3"\n',
    "src/lib.rs": "pub enum Error {\n    LineParse(String),\n    Io(std::io::Error),\n}\n\n"
                  "pub struct Options {\n    max_open: usize,\n    follow: bool,\n}\n\n"
                  "pub struct Walker {\n    opts: Options,\n}\n\n"
                  "impl Walker {\n    pub fn new() -> Self {\n"
                  "        Walker { opts: Options { max_open: 10, follow: false } }\n    }\n}\n\n"
                  "pub fn var(key: &str) -> String {\n    key.to_string()\n}\n",
    "tests/find.rs": "use std::io::ErrorKind;\n\n#[test]\nfn missing() {\n"
                     "    let _ = ErrorKind::NotFound;\n}\n",
}  # fmt: skip

FORUM = {
    "pyproject.toml": '[project]\nname = "forum"\nversion = "1.0"\ndependencies = ["flask"]\n',
    "forum/__init__.py": "",
    "forum/configs/__init__.py": "",
    "forum/configs/default.py": "import datetime\n\n\nclass DefaultConfig:\n"
                                "    MAIL_PORT = 25\n    CACHE_TYPE = 'SimpleCache'\n"
                                "    MAX_CONTENT_LENGTH = 32 * 1024 * 1024\n"
                                "    REMEMBER_COOKIE_DURATION = datetime.timedelta(days=365)\n",
    "forum/configs/docker.py": "import os\n\nfrom forum.configs.default import DefaultConfig\n\n\n"
                               "def _env_int(name, default):\n"
                               "    value = os.environ.get(name)\n"
                               "    return int(value) if value else default\n\n\n"
                               "class DockerConfig(DefaultConfig):\n"
                               "    MAIL_PORT = _env_int('MAIL_PORT', 25)\n",
}  # fmt: skip
SOCKETS = {
    "package.json": '{"name": "rpc-client", "version": "1.0.0", "type": "module"}\n',
    "src/options.ts": "export const keepAliveDefaults = {\n  enabled: false,\n"
                      "  intervalMs: 5_000,\n}\n",
    "dist/options.js": "export const keepAliveDefaults = {\n  enabled: false,\n"
                       "  intervalMs: 5000,\n}\n",
}  # fmt: skip
ERRORS = {
    "Cargo.toml": '[package]\nname = "oops"\nversion = "1.0.0"\nedition = "2018"\n\n'
                  '[dependencies]\nbacktrace = { version = "0.3", optional = true }\n\n'
                  '[features]\ndefault = ["std"]\nstd = []\n',
    "src/lib.rs": "mod macros;\n\npub struct Error;\n\nimpl Error {\n"
                  "    pub fn chain(&self) -> usize {\n        0\n    }\n}\n",
    "src/macros.rs": "#[macro_export]\nmacro_rules! bail {\n    ($e:expr) => {\n"
                     "        return Err($e)\n    };\n}\n",
    "src/trace.rs": "use backtrace::Backtrace;\n\npub fn capture() -> Backtrace {\n"
                    "    Backtrace::new()\n}\n",
}  # fmt: skip
COOKIES = {
    "go.mod": "module example.com/cookies\n\ngo 1.17\n",
    "store.go": "package cookies\n\nconst flashesKey = \"_flash\"\n\n"
                "type Options struct {\n\tPath   string\n\tMaxAge int\n}\n\n"
                "type CookieStore struct {\n\tOptions *Options\n}\n\n"
                "func NewCookieStore() *CookieStore {\n\tcs := &CookieStore{\n"
                "\t\tOptions: &Options{Path: \"/\", MaxAge: 86400 * 30},\n\t}\n\treturn cs\n}\n",
}  # fmt: skip

EBOOKS = {
    "pyproject.toml": '[project]\nname = "ebooks"\nversion = "1.0"\ndependencies = ["flask"]\n',
    "ebooks/__init__.py": "",
    "ebooks/constants.py": "ROLE_USER = 0 << 0\nROLE_ADMIN = 1 << 0\nROLE_UPLOAD = 1 << 2\n"
                           'DEFAULT_PASSWORD = "admin123"\n'
                           'DEFAULT_MAIL_SERVER = "mail.example.org"\n',
    "docker/Dockerfile": "FROM python:3.13-slim\nEXPOSE 8000\n",
    "docker/Dockerfile.dev": "FROM python:3.13-slim\nEXPOSE 5000\n",
    "docker/compose.yaml": "services:\n  db:\n    image: docker.io/library/postgres:18-alpine\n"
                           "  web:\n    build: .\n",
}  # fmt: skip
SCHEDULER = {
    "go.mod": "module example.com/sched/v3\n\ngo 1.12\n",
    "cron.go": 'package sched\n\nimport "time"\n\n'
               "type Cron struct {\n\tlocation *time.Location\n}\n\n"
               "func New() *Cron {\n\treturn &Cron{location: time.Local}\n}\n",
}  # fmt: skip
VERSIONS = {
    "Cargo.toml": '[package]\nname = "versions"\nversion = "1.0.0"\nedition = "2018"\n'
                  'rust-version = "1.31"\n',
    "src/lib.rs": "mod parse;\n\npub struct Prerelease {\n    text: String,\n}\n",
    "src/parse.rs": "use crate::Prerelease;\n\nimpl Prerelease {\n"
                    "    pub fn empty() -> usize {\n        0\n    }\n}\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # the name a thing is called, quoted, with the constant beside it
    (GO, 'The timestamp field is called "ts_utc" (TimeKey in globals.go).', "VERIFIED",
     'TimeKey = "ts_utc"'),
    (GO, 'The timestamp field is called "ts" (TimeKey in globals.go).', "REFUTED",
     'not "ts"'),
    # the unit a duration constant is
    (GO, "Durations are logged in milliseconds by default (DurationUnit).", "VERIFIED",
     "DurationUnit = time.Millisecond"),
    (GO, "Durations are logged in seconds by default (DurationUnit).", "REFUTED",
     "DurationUnit = time.Millisecond"),
    # a standard against the package's name of it
    (GO, "Times are formatted as RFC 3339 by default (TimeFormat).", "VERIFIED",
     "TimeFormat = time.RFC3339"),
    (GO, "Console times are formatted as RFC 3339 by default (consoleTimeFormat).", "REFUTED",
     "consoleTimeFormat = time.Kitchen"),
    (GO, "Times are formatted as RFC 3339 by default (TimeFormat = time.RFC3339).", "VERIFIED",
     "TimeFormat = time.RFC3339"),
    (GO, "The time format is time.Kitchen (TimeFormat).", "REFUTED", "not time.Kitchen"),
    # a constant given another constant holds its value
    (SETTINGS, "The default page size is 50 (DEFAULT_PAGE_SIZE = QUERY_LIMIT in "
               "pager/settings.py).", "VERIFIED", "DEFAULT_PAGE_SIZE"),
    (SETTINGS, "The default page size is 20 (DEFAULT_PAGE_SIZE in pager/settings.py).",
     "REFUTED", "not 20"),
    (SETTINGS, "Heartbeats time out after one hour by default (HEARTBEAT_TIMEOUT).", "REFUTED",
     "not 3600"),
    # a size in MB against the bytes the code counts
    (SETTINGS, "Log files roll over at 10 MB (LOG_MAX_BYTES).", "VERIFIED",
     "LOG_MAX_BYTES = 10 * 1024 * 1024"),
    (SETTINGS, "Log files roll over at 5 MB (LOG_MAX_BYTES).", "REFUTED", "not 5242880"),
    # a value bound to a name whose words also say "deleted" or "unless"
    (SETTINGS, "Expired alerts are deleted two hours after they expire (DELETE_EXPIRED_AFTER).",
     "VERIFIED", "DELETE_EXPIRED_AFTER = 2 * 60 * 60"),
    (SETTINGS, "Expired alerts are deleted one hour after they expire (DELETE_EXPIRED_AFTER).",
     "REFUTED", "not 3600"),
    (SETTINGS, "A blackout lasts one hour unless a duration is given (BLACKOUT_DURATION = 3600).",
     "VERIFIED", "BLACKOUT_DURATION = 3600"),
    # a distribution named with its affix is the module the code imports
    (SETTINGS, "SAML login uses pysaml2 in pager/saml.py.", "VERIFIED",
     "imported by pager/saml.py"),
    # a package through its SDK module, in the file the sentence names
    (SETTINGS, "Errors are reported to Sentry through sentry_sdk, set up in pager/app.py.",
     "VERIFIED", "imported by pager/app.py"),
    # the list a value is tested against is named, not negated
    (SETTINGS, "The RejectPolicy in pager/reject.py rejects alerts whose environment is not in "
               "ALLOWED_ENVIRONMENTS.", "VERIFIED", "ALLOWED_ENVIRONMENTS"),
    # a definition placed in a file: the file is the claim
    (WEB, "debounce lives in src/utils.ts.", "VERIFIED", "src/utils.ts defines debounce"),
    (WEB, "debounce lives in src/scroll.ts.", "REFUTED", "debounce"),
    # a definition copied into dist/ is the source's
    (WEB, "Element sizes are watched by observeRect.", "VERIFIED",
     "src/scroll.ts defines observeRect"),
    # the keys of a defaults object
    (WEB, "The default level is 'info'.", "VERIFIED", "defaultOptions.level = 'info'"),
    (WEB, "The default level is 'debug'.", "REFUTED", "not 'debug'"),
    (WEB, "The message key defaults to 'msg'.", "VERIFIED", "defaultOptions.messageKey"),
    # what a definition does is not made true by its existing
    (WEB, "focusManager listens to the window focus event.", "ACTIVE",
     "that focusManager listens to the window focus event"),
    # a Rust enum's variants, the fields new() sets, a dev-dependency only
    (CRATE, "Error has a LineParse variant.", "VERIFIED", "Error.LineParse"),
    (CRATE, "Error has a NotFound variant.", "REFUTED", "NotFound"),
    (CRATE, "At most 10 handles are kept open by default (max_open: 10).", "VERIFIED",
     "max_open"),
    (CRATE, "At most 32 handles are kept open by default (max_open: 32).", "REFUTED",
     "not 32"),
    (CRATE, "tempfile is a dev-dependency only.", "VERIFIED", "tempfile"),
    (CRATE, "dotfile::var re-reads the file on every call.", "ACTIVE",
     "that dotfile::var re-reads the file on every call"),
    # a class attribute of the file named, though another file reads the variable
    (FORUM, "The default mail port is 25 (MAIL_PORT in forum/configs/default.py).", "VERIFIED",
     "DefaultConfig.MAIL_PORT = 25"),
    (FORUM, "The default mail port is 587 (MAIL_PORT in forum/configs/default.py).", "REFUTED",
     "not 587"),
    # a class's name as the string a setting holds
    (FORUM, "The default cache type is RedisCache (CACHE_TYPE in forum/configs/default.py).",
     "REFUTED", "not RedisCache"),
    # a size against a content length, a duration against a timedelta
    (FORUM, "Uploads are capped at 32 MB (MAX_CONTENT_LENGTH).", "VERIFIED",
     "MAX_CONTENT_LENGTH = 32 * 1024 * 1024"),
    (FORUM, "Remember-me cookies last 365 days (REMEMBER_COOKIE_DURATION).", "VERIFIED",
     "timedelta(days=365)"),
    (FORUM, "Remember-me cookies last 30 days (REMEMBER_COOKIE_DURATION).", "REFUTED",
     "not 2592000"),
    # the unit a camelCase name ends with; the source's value, not the build's copy
    (SOCKETS, "The keep-alive interval defaults to 5 seconds (keepAliveDefaults.intervalMs).",
     "VERIFIED", "src/options.ts"),
    (SOCKETS, "The keep-alive interval defaults to 30000 ms (keepAliveDefaults.intervalMs).",
     "REFUTED", "not 30000"),
    # "WebSocket" in a TypeScript library is no Python package
    (SOCKETS, "WebSocket keep-alive is off by default (keepAliveDefaults.enabled = false).",
     "VERIFIED", "keepAliveDefaults.enabled = false"),
    # a Cargo feature on by default; an optional crate said to be always compiled in
    (ERRORS, "The std feature is on by default.", "VERIFIED", "features.default"),
    (ERRORS, "The std feature is off by default.", "REFUTED", "features.default"),
    (ERRORS, "backtrace is always compiled in.", "ACTIVE", "an optional dependency"),
    # a macro named with its "!" is placed where the note says
    (ERRORS, "The bail! macro is defined in src/macros.rs.", "VERIFIED", "src/macros.rs"),
    (ERRORS, "The bail! macro is defined in src/lib.rs.", "REFUTED", "bail"),
    # what a Go constructor's struct literal gives a field; a key stated in quotes
    (COOKIES, "A new CookieStore keeps sessions for 30 days by default (MaxAge: 86400 * 30).",
     "VERIFIED", "MaxAge"),
    (COOKIES, "A new CookieStore keeps sessions for 7 days by default (MaxAge: 86400 * 7).",
     "REFUTED", "not 86400 * 7"),
    (COOKIES, 'Flash messages are stored under the key "flashes" (flashesKey in store.go).',
     "REFUTED", 'not "flashes"'),
    # a flag written as a shift; a word or a host after a copula, as a string's value
    (EBOOKS, "ROLE_ADMIN is 1 (1 << 0 in ebooks/constants.py).", "VERIFIED",
     "ROLE_ADMIN = 1 << 0"),
    (EBOOKS, "ROLE_UPLOAD is 2 (ebooks/constants.py).", "REFUTED", "not 2"),
    (EBOOKS, "The default admin password is changeme (DEFAULT_PASSWORD).", "REFUTED",
     "not changeme"),
    (EBOOKS, "The default mail server is mail.example.org (DEFAULT_MAIL_SERVER).", "VERIFIED",
     'DEFAULT_MAIL_SERVER = "mail.example.org"'),
    # a Dockerfile named by its path; a compose service's product and version
    (EBOOKS, "The image built from docker/Dockerfile exposes port 5000.", "REFUTED", "8000"),
    (EBOOKS, "The compose stack runs PostgreSQL 16.", "REFUTED", "postgres:18-alpine"),
    (EBOOKS, "The compose stack runs PostgreSQL 18.", "VERIFIED", "postgres:18-alpine"),
    # what a Go constructor sets to a package's name; a module with no requirements
    (SCHEDULER, "New uses UTC by default (location: time.UTC).", "REFUTED", "time.Local"),
    (SCHEDULER, "The module has no dependencies outside the standard library.", "VERIFIED",
     "go.mod"),
    # a capitalised name opening the sentence, placed in a file; the MSRV in words
    (VERSIONS, "Prerelease is defined in src/parse.rs.", "REFUTED", "defined in src/lib.rs"),
    (VERSIONS, "The minimum Rust version is 1.31.", "VERIFIED", "1.31"),
    (VERSIONS, "The minimum Rust version is 1.60.", "REFUTED", "1.31"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_a_value_or_place_in_the_form_agents_state_it(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
