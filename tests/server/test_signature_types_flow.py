"""What notes say of signatures, members, flags and the project's own version, through MCP
``remember`` + ``recall`` on real git repositories, each phrased true and false:

- the types a Go, Rust or TypeScript function takes and returns (``param:F(: T)``,
  ``param:F(-> T)``), ``Self`` read as the method's type; a generic parameter or an alias
  the repository defines leaves the note unchecked; "one ... per call" of a variadic
  parameter is refuted;
- a Rust field set true or false by ``new``, said in its own words ("case insensitive");
- the version a ``Cargo.toml`` or a ``package.json`` gives the project itself;
- an npm package a note says the project depends on, which only its manifest can say;
- a TypeScript interface's members; a name the package is said to export and defines nowhere;
- a flag written as a shift in TypeScript; a Go constant named by its words
  ("the default multiplier"); a number written with digit separators (``1_024``);
- a class a Python file imports by name; a size a setting counts in MB; one value under
  two keys of one class; the address a command-line option binds to;
- a name qualifying a noun ("the SameSite modes") placed in a file; a type in capitals; a
  build's copy without types; a required dependency no manifest declares;
- a class attribute declared by a call with its ``default=``; a defaults object's key in
  the file a sentence names; "Min" ending a name as the minimum, not minutes.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

RETRY = {
    "go.mod": "module example.com/retry\n\ngo 1.13\n",
    "retry.go": 'package retry\n\nimport (\n\t"errors"\n\t"time"\n)\n\n'
                "type Operation func() error\n\n"
                "type BackOff interface {\n\tNextBackOff() time.Duration\n\tReset()\n}\n\n"
                "type ConstantBackOff struct {\n\tInterval time.Duration\n}\n\n"
                "const DefaultMultiplier = 1.5\n\n"
                "var defaultRetryWaitMin = 1 * time.Second\n\n"
                'var ErrStop = errors.New("stop retrying")\n\n'
                "func Retry(o Operation, b BackOff) error {\n\treturn o()\n}\n\n"
                "func NewConstantBackOff(d time.Duration) *ConstantBackOff {\n"
                "\treturn &ConstantBackOff{Interval: d}\n}\n\n"
                "func WithMaxRetries(b BackOff, max uint64) BackOff {\n\treturn b\n}\n\n"
                "func AddOps(ops ...Operation) {}\n\n"
                "type StopFunc func(err error) error\n\n"
                "type SameSiteMode int\n\n"
                "const (\n\tSameSiteDefaultMode SameSiteMode = iota + 1\n\tSameSiteLaxMode\n)\n",
    "options.go": "package retry\n\ntype Option func(*ConstantBackOff)\n\n"
                  "func SameSite(m SameSiteMode) Option {\n\treturn nil\n}\n",
}  # fmt: skip
GLOB = {
    "Cargo.toml": '[package]\nname = "glob"\nversion = "0.3.0"\nedition = "2018"\n',
    "src/lib.rs": "use std::path::{Path, PathBuf};\n\n"
                  "pub struct Paths {\n    todo: usize,\n}\n\n"
                  "pub struct PatternError {\n    pub pos: usize,\n"
                  "    pub msg: &'static str,\n}\n\n"
                  "pub struct GlobError {\n    path: PathBuf,\n}\n\n"
                  "pub type GlobResult = Result<PathBuf, GlobError>;\n\n"
                  "pub fn glob(pattern: &str) -> Result<Paths, PatternError> {\n"
                  "    Ok(Paths { todo: pattern.len() })\n}\n\n"
                  "pub fn first(paths: &Paths) -> GlobResult {\n    todo!()\n}\n\n"
                  "pub fn to_owned_path<P: AsRef<Path>>(p: P) -> PathBuf {\n"
                  "    p.as_ref().to_path_buf()\n}\n\n"
                  "pub struct Pattern {\n    original: String,\n}\n\n"
                  "impl Pattern {\n"
                  "    pub fn new(p: &str) -> Result<Self, PatternError> {\n"
                  "        Ok(Pattern { original: p.to_string() })\n    }\n"
                  "    pub fn matches(&self, s: &str) -> bool {\n"
                  "        s == self.original\n    }\n"
                  "    pub fn matches_path(&self, p: &Path) -> bool {\n        p.exists()\n    }\n"
                  "}\n\n"
                  "pub struct MatchOptions {\n    pub case_sensitive: bool,\n"
                  "    pub require_literal_separator: bool,\n}\n\n"
                  "pub const KIB: u64 = 1_024;\npub const MIB: u64 = 1_048_576;\n\n"
                  "impl MatchOptions {\n    pub fn new() -> Self {\n"
                  "        Self { case_sensitive: true, require_literal_separator: false }\n"
                  "    }\n}\n",
}  # fmt: skip
SIGNALS = {
    "package.json": '{"name": "@preact/signals-core", "version": "1.14.5", '
                    '"homepage": "https://preactjs.com", "license": "MIT"}\n',
    "src/index.ts": 'const BRAND = Symbol.for("preact-signals");\n'
                    "const RUNNING = 1 << 0;\nconst TRACKING = 1 << 5;\n\n"
                    "export interface SignalOptions {\n  watched?: () => void;\n"
                    "  name?: string;\n}\n\n"
                    "interface ReadonlySignal<T> {\n  value: T;\n}\n\n"
                    "function computed<T>(fn: () => T, options?: SignalOptions): "
                    "ReadonlySignal<T> {\n  return { value: fn() };\n}\n\n"
                    "function batch(fn: () => void) {\n  fn();\n}\n\n"
                    "export function fromHref(href: string): URL {\n"
                    "  return new URL(href);\n}\n\n"
                    "export { computed, batch, BRAND, RUNNING, TRACKING };\n",
    "dist/index.js": "export function fromHref(href) {\n  return new URL(href);\n}\n",
}  # fmt: skip
MUSIC = {
    "pyproject.toml": '[project]\nname = "music"\nversion = "0.7"\n'
                      'dependencies = ["flask", "watchdog", "click"]\n',
    "music/__init__.py": "",
    "music/config.py": "class DefaultConfig:\n"
                       '    WEBAPP = {"cache_size": 1024, "log_level": "WARNING"}\n'
                       '    DAEMON = {"socket": "/tmp/music.sock", "log_level": "WARNING"}\n',
    "music/web.py": "import logging\nfrom logging.handlers import TimedRotatingFileHandler\n\n"
                    "from flask import Flask\n\n\ndef create_app(logfile):\n"
                    "    app = Flask(__name__)\n"
                    '    handler = TimedRotatingFileHandler(logfile, when="midnight")\n'
                    "    logging.getLogger().addHandler(handler)\n    return app\n",
    "music/watcher.py": "from watchdog.observers import Observer\n\n\ndef watch(path):\n"
                        "    observer = Observer()\n    observer.schedule(None, path)\n"
                        "    return observer\n",
    "music/lastfm.py": "import requests\n\n\ndef scrobble(url):\n"
                       "    return requests.post(url)\n",
    "music/server.py": "import click\n\n\n@click.command()\n"
                       '@click.option("--host", default="0.0.0.0")\n'
                       '@click.option("--port", default=5722)\n'
                       "def main(host, port):\n    pass\n",
}  # fmt: skip
MONITOR = {
    "setup.py": "from setuptools import setup\n\n\ndef extras():\n"
                "    return {'web': ['fastapi']}\n\n\n"
                "setup(name='monitor', install_requires=['psutil'], extras_require=extras())\n",
    "monitor/__init__.py": "",
    "monitor/web.py": "import fastapi\n\napp = fastapi.FastAPI()\n",
    "monitor/stats.py": "import psutil\n\n\ndef cpu():\n    return psutil.cpu_percent()\n",
}  # fmt: skip
SITE = {
    "pyproject.toml": '[project]\nname = "site"\nversion = "1.0"\n',
    "site/__init__.py": "",
    "site/config/__init__.py": "",
    "site/config/defaults.py": "from site.config import options as c\n\n\n"
                               "class SiteConfig:\n"
                               "    dev_addr = c.IpAddress(default='127.0.0.1:8000')\n"
                               "    site_dir = c.SiteDir(default='site')\n"
                               "    strict = c.Type(bool, default=False)\n",
    "site/config/options.py": "class IpAddress:\n    def __init__(self, default=None):\n"
                              "        self.default = default\n\n\n"
                              "class SiteDir(IpAddress):\n    pass\n\n\n"
                              "class Type(IpAddress):\n"
                              "    def __init__(self, kind, default=None):\n"
                              "        super().__init__(default)\n",
}  # fmt: skip
PACER = {
    "package.json": '{"name": "pacer", "version": "0.2.0"}\n',
    "src/debouncer.ts": "const defaultOptions = {\n  leading: false,\n  trailing: true,\n}\n\n"
                        "export function debounce(fn: () => void) {\n  return fn\n}\n",
    "src/throttler.ts": "const defaultOptions = {\n  leading: true,\n  trailing: true,\n}\n\n"
                        "export function throttle(fn: () => void) {\n  return fn\n}\n",
    "src/rate-limiter.ts": "const defaultOptions = {\n  windowType: 'fixed',\n  limit: 1,\n}\n",
    "dist/rate-limiter.js": 'const defaultOptions = {\n  windowType: "fixed",\n  limit: 1,\n}\n',
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # the types a Go function or function type takes and returns
    (RETRY, "Operation takes a context.Context argument.", "REFUTED", "takes no parameter"),
    (RETRY, "Retry takes a BackOff.", "VERIFIED", "Retry(o Operation, b BackOff) error"),
    (RETRY, "Retry takes a time.Duration.", "REFUTED", "takes no time.Duration"),
    (RETRY, "Retry returns an error.", "VERIFIED", "Retry(o Operation, b BackOff) error"),
    (RETRY, "NewConstantBackOff takes a time.Duration.", "VERIFIED", "d time.Duration"),
    (RETRY, "NewConstantBackOff returns a BackOff.", "REFUTED", "returns no BackOff"),
    (RETRY, "WithMaxRetries takes an int.", "REFUTED", "takes no int"),
    (RETRY, "WithMaxRetries takes a uint64.", "VERIFIED", "max uint64"),
    # one per call against a variadic parameter; a value the code defines is no type
    (RETRY, "AddOps takes one Operation per call.", "REFUTED", "any number of Operation"),
    (RETRY, "Retry takes one BackOff per call.", "VERIFIED", "b BackOff"),
    (RETRY, "AddOps takes any number of operations.", "ACTIVE", "the parameters of AddOps"),
    (RETRY, "A StopFunc returns ErrStop to end the retries.", "VERIFIED", "ErrStop"),
    # a Go constant named by its words
    (RETRY, "The default multiplier is 2.", "REFUTED", "not 2"),
    (RETRY, "The default multiplier is 1.5.", "VERIFIED", "DefaultMultiplier"),
    # "Min" ends a name as the minimum, not minutes
    (RETRY, "The minimum wait defaults to 1 second (defaultRetryWaitMin).", "VERIFIED",
     "defaultRetryWaitMin"),
    # Rust: the written result, Self as the method's type, a generic or an alias unseen
    (GLOB, "glob returns a Vec<PathBuf>.", "REFUTED", "Result<Paths, PatternError>"),
    (GLOB, "glob returns a Result<Paths, PatternError>.", "VERIFIED", "glob(pattern: &str)"),
    (GLOB, "Pattern::matches takes a &Path.", "REFUTED", "takes no &Path"),
    (GLOB, "Pattern::matches_path takes a &Path.", "VERIFIED", "p: &Path"),
    (GLOB, "Pattern::new returns a Pattern.", "VERIFIED", "Result<Self, PatternError>"),
    (GLOB, "to_owned_path takes an AsRef<Path>.", "ACTIVE", "P may be AsRef<Path>"),
    (GLOB, "first returns a Result<PathBuf, GlobError>.", "ACTIVE", "GlobResult may be"),
    # a field new() sets, in its own words or their opposite
    (GLOB, "MatchOptions::new is case insensitive by default.", "REFUTED", "not false"),
    (GLOB, "MatchOptions::new is case sensitive by default.", "VERIFIED", "case_sensitive"),
    # a name qualifying a noun is not what the clause places
    (RETRY, "The SameSite modes are declared in retry.go.", "ACTIVE", "SameSite"),
    (RETRY, "SameSite is declared in retry.go.", "REFUTED", "options.go"),
    # a number written with digit separators, as Rust and Python write them
    (GLOB, "KIB is 1_024.", "VERIFIED", "KIB = 1_024"),
    (GLOB, "MIB is 1_000_000.", "REFUTED", "not 1_000_000"),
    # the crate's own version
    (GLOB, "The crate is at version 0.4.0.", "REFUTED", "0.3.0"),
    (GLOB, "The crate is named glob and is at version 0.3.0.", "VERIFIED", "0.3.0"),
    # TypeScript: a dependency only the manifest can declare, an interface's members
    (SIGNALS, "The package depends on preact.", "REFUTED", "not a declared dependency"),
    (SIGNALS, "SignalOptions has an equals option.", "REFUTED", "equals"),
    (SIGNALS, "SignalOptions has a watched option.", "VERIFIED", "SignalOptions.watched"),
    (SIGNALS, "The package exports a useSignal hook.", "REFUTED", "useSignal"),
    (SIGNALS, "The RUNNING flag is 1 << 1.", "REFUTED", "not 1 << 1"),
    (SIGNALS, "The TRACKING flag is 1 << 5.", "VERIFIED", "TRACKING = 1 << 5"),
    (SIGNALS, "The package is at version 2.0.0.", "REFUTED", "1.14.5"),
    (SIGNALS, "computed returns a ReadonlySignal.", "VERIFIED", "src/index.ts"),
    (SIGNALS, "computed returns a Promise.", "REFUTED", "returns no Promise"),
    (SIGNALS, "batch returns a Promise.", "ACTIVE", "not all written"),
    # a type in capitals; the source's signature, not its build's copy without types
    (SIGNALS, "fromHref takes a URL object.", "REFUTED", "takes no URL"),
    (SIGNALS, "fromHref returns a URL object.", "VERIFIED", "src/index.ts"),
    # Python: a class imported by name, a size counted in MB, one value under two keys
    (MUSIC, "The log file rotates at midnight through TimedRotatingFileHandler.", "VERIFIED",
     "imported by music/web.py"),
    (MUSIC, "The main cache defaults to 1024 MB (cache_size in music/config.py).", "VERIFIED",
     "DefaultConfig.WEBAPP.cache_size = 1024"),
    (MUSIC, "The main cache defaults to 512 MB (cache_size in music/config.py).", "REFUTED",
     "DefaultConfig.WEBAPP.cache_size = 1024"),
    (MUSIC, "The default log level is INFO (log_level in DefaultConfig).", "REFUTED",
     "not INFO"),
    (MUSIC, "The default log level is WARNING (log_level in DefaultConfig).", "VERIFIED",
     "log_level"),
    # a required dependency the manifests do not declare
    (MUSIC, "requests is a required dependency.", "REFUTED", "not a declared dependency"),
    (MUSIC, "flask is a required dependency.", "VERIFIED", "flask"),
    (MONITOR, "fastapi is a required dependency.", "ACTIVE", "no required dependency"),
    (MONITOR, "psutil is a required dependency.", "VERIFIED", "psutil"),
    # a class attribute declared by a call with its default
    (SITE, "The dev server listens on 127.0.0.1:8000 by default (dev_addr in "
           "site/config/defaults.py).", "VERIFIED", "SiteConfig.dev_addr"),
    (SITE, "The dev server listens on 0.0.0.0:8000 by default (dev_addr in "
           "site/config/defaults.py).", "REFUTED", "not 0.0.0.0:8000"),
    (SITE, "site_dir defaults to 'build'.", "REFUTED", "not 'build'"),
    # a defaults object's key in the file the sentence names; the source's, not dist/'s
    (PACER, "A debouncer runs on the leading edge by default (leading: true in "
            "src/debouncer.ts).", "REFUTED", "not true"),
    (PACER, "A throttler runs on the leading edge by default (leading: true in "
            "src/throttler.ts).", "VERIFIED", "defaultOptions.leading"),
    (PACER, "The rate limiter's default window type is 'sliding' (src/rate-limiter.ts).",
     "REFUTED", "not 'sliding'"),
    (PACER, "The default window type is 'fixed'.", "VERIFIED", "defaultOptions.windowType"),
    # the address an option binds to
    (MUSIC, "The server binds to 0.0.0.0 by default.", "VERIFIED", "--host"),
    (MUSIC, "The server binds to 127.0.0.1 by default.", "REFUTED", "not 127.0.0.1"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_a_signature_member_flag_or_version_as_agents_state_it(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
