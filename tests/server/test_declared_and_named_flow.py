"""What notes say of settings declared by calls, of names only code has, of types, of
packages and tools, through MCP ``remember`` + ``recall`` on real git repositories, each
phrased true and false:

- a setting declared by a call that names it and gives its default (derpconf's
  ``Config.define``, tornado's ``define``, oslo.config's ``cfg.IntOpt`` in a list), and a
  default stated as a dotted module path ("The default LOADER is app.loaders.http");
- a name only code has (``ErrQueueFull``, ``enableCollections``, ``StatusHandler`` placed in
  a file) that no file of the repository has: refuted; a builtin (``ValueError``) or a key
  a settings file holds is no such name;
- "takes the length as a usize", "returns the watched paths as a []string", "returns only
  a *Watcher" of ``(*Watcher, error)``, "returns a u64" of Rust's ``Option<u64>``;
- "the console crate" (declared) and "the crossterm crate" (declared nowhere); "a
  windows-only dependency" names no package; "rayon support is an optional dependency";
- "the web server is Tornado" of a declared package the code imports; "the tests run with
  jest" against the ``package.json`` that declares the tools;
- a TypeScript class field's initial value; a template a function's string holds; "Event
  has Name and Op fields"; "go.mod asks for Go 1.16"; "the only required module is X" is
  no claim about the module's own path;
- a class declaring one setting by its attributes (gunicorn's ``name``/``cli``/``default``),
  an example's configuration never the default; npm's peer dependencies; a hyphenated
  package named whole; a name the repository defines that a technology also has; a file
  the grammar could not read whole that lacks the word; "is described as "..."".
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

THUMBS = {
    "pyproject.toml": '[project]\nname = "thumbs"\nversion = "1.0"\n'
                      'dependencies = ["tornado>=6", "derpconf"]\n',
    "thumbs/__init__.py": "",
    "thumbs/config.py": "from derpconf.config import Config\n\n"
                        'Config.define("QUALITY", 80, "JPEG quality", "Imaging")\n'
                        'Config.define("MAX_AGE", 24 * 60 * 60, "Max age in seconds", "Imaging")\n'
                        'Config.define("LOADER", "thumbs.loaders.http_loader", "Loader", "Ext")\n'
                        'Config.define("AUTO_WEBP", False, "Serve WebP", "Imaging")\n',
    "thumbs/options.py": "from tornado.options import define\n\n"
                         'define("port", default=8888, help="port to listen on", type=int)\n',
    "thumbs/workers.py": "from oslo_config import cfg\n\n"
                         'OPTS = [\n    cfg.IntOpt("workers", default=4, help="processes"),\n]\n',
    "thumbs/loaders/__init__.py": "",
    "thumbs/loaders/http_loader.py": "def load(url):\n    return url\n",
    "thumbs/loaders/file_loader.py": "def load(path):\n    return path\n",
    "thumbs/handlers.py": "import tornado.web\n\n\n"
                          "class HealthcheckHandler(tornado.web.RequestHandler):\n"
                          "    def get(self):\n        self.write('WORKING')\n\n\n"
                          "def check(value):\n    if not value:\n"
                          "        raise ValueError('empty')\n",
    "thumbs/server.py": "import tornado.ioloop\n\n\ndef main():\n"
                        "    tornado.ioloop.IOLoop.current().start()\n",
    "settings.json": '{"refreshInterval": 3000}\n',
}  # fmt: skip
NOTIFY = {
    "go.mod": "module example.com/notify\n\ngo 1.16\n\n"
              "require golang.org/x/sys v0.1.0\n",
    "notify.go": 'package notify\n\nimport (\n\t"errors"\n\n\t"golang.org/x/sys/unix"\n)\n\n'
                 "type Op uint32\n\n"
                 "type Event struct {\n\tName string\n\tOp   Op\n}\n\n"
                 'var ErrEventOverflow = errors.New("queue overflow")\n\n'
                 "type Watcher struct {\n\tfd int\n}\n\n"
                 "func NewWatcher() (*Watcher, error) {\n"
                 "\tfd, err := unix.InotifyInit1(unix.IN_CLOEXEC)\n"
                 "\treturn &Watcher{fd: fd}, err\n}\n\n"
                 "func (w *Watcher) WatchList() []string {\n\treturn nil\n}\n",
}  # fmt: skip
BARS = {
    "Cargo.toml": '[package]\nname = "bars"\nversion = "0.17.3"\nedition = "2018"\n\n'
                  '[dependencies.console]\nversion = "0.15"\n\n'
                  '[dependencies.rayon]\nversion = "1.1"\noptional = true\n\n'
                  '[target."cfg(windows)".dependencies.winapi]\nversion = "0.3"\n',
    "src/lib.rs": "use console::Term;\n\n"
                  "pub struct ProgressBar {\n    len: Option<u64>,\n}\n\n"
                  "impl ProgressBar {\n"
                  "    pub fn new(len: u64) -> Self {\n"
                  "        ProgressBar { len: Some(len) }\n    }\n"
                  "    pub fn length(&self) -> Option<u64> {\n        self.len\n    }\n"
                  "}\n\n"
                  "pub struct ProgressStyle {\n    template: String,\n}\n\n"
                  "impl ProgressStyle {\n"
                  "    pub fn default_bar() -> Self {\n"
                  '        ProgressStyle { template: String::from("{wide_bar} {pos}/{len}") }\n'
                  "    }\n}\n\n"
                  "pub fn term() -> Term {\n    Term::stderr()\n}\n",
}  # fmt: skip
DRAFTS = {
    "package.json": '{"name": "drafts", "version": "1.0.0", "main": "dist/index.js",\n'
                    ' "devDependencies": {"vitest": "^1.0.0", "tsup": "^8.0.0",'
                    ' "typescript": "^5.0.0"}}\n',
    "src/immer.ts": "export class Immer {\n"
                    "  autoFreeze_: boolean = true\n"
                    "  useStrictShallowCopy_: boolean = false\n"
                    "  produce(base: object): object {\n    return base\n  }\n}\n\n"
                    "export function enableMapSet(): void {}\n\n"
                    "export const produce = new Immer().produce\n",
}  # fmt: skip

SERVER = {
    "pyproject.toml": '[project]\nname = "serve"\nversion = "1.0"\n',
    "serve/__init__.py": "",
    "serve/config.py": "class Setting:\n    name = None\n\n\n"
                       'class MaxRequests(Setting):\n    name = "max_requests"\n'
                       '    cli = ["--max-requests"]\n    default = 0\n\n\n'
                       'class WorkerClass(Setting):\n    name = "worker_class"\n'
                       '    cli = ["-k", "--worker-class"]\n    default = "sync"\n',
    "examples/conf.py": "max_requests = 1000\n",
}  # fmt: skip
STATE = {
    "package.json": '{"name": "state", "version": "2.0.0",\n'
                    ' "dependencies": {"immer": "^11.0.0", "redux-thunk": "^3.1.0"},\n'
                    ' "peerDependencies": {"react": "^18"},\n'
                    ' "devDependencies": {"react": "^18", "vitest": "^1.0.0"}}\n',
    "src/nanoid.ts": "export let nanoid = (size = 21) => 'x'.repeat(size)\n",
    "src/slice.ts": "export function buildCreateSlice() {\n  return 1\n}\n"
                    "export const createSlice = buildCreateSlice()\n"
                    "interface Compose {\n  <Ext extends {}>(\n    ...funcs: Ext[]\n  ): Ext\n"
                    "  <R>(\n  <\n}\n",
}  # fmt: skip
HANDLER = {
    "Cargo.toml": '[package]\nname = "handler"\nversion = "3.2.3"\nedition = "2018"\n',
    "src/lib.rs": "pub enum Error {\n    MultipleHandlers,\n}\n\n"
                  "impl Error {\n    fn describe(&self) -> &str {\n"
                  '        "Ctrl-C signal handler already registered"\n    }\n}\n',
}  # fmt: skip

CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # a class that declares one setting; an example's configuration is not the default
    (SERVER, "max_requests defaults to 0 (serve/config.py).", "VERIFIED", "max_requests"),
    (SERVER, "max_requests defaults to 1000.", "REFUTED", "not 1000"),
    (SERVER, "The default worker class is sync (WorkerClass in serve/config.py).", "VERIFIED",
     "WorkerClass"),
    (SERVER, "The default worker class is gthread (WorkerClass in serve/config.py).", "REFUTED",
     "not gthread"),
    (SERVER, "`--worker-class` defaults to sync.", "VERIFIED", "--worker-class"),
    # peer dependencies, a package named whole, a definition of the repository's own
    (STATE, "react is a peer dependency.", "VERIFIED", "react"),
    (STATE, "react is a runtime dependency.", "ACTIVE", "react (a peer dependency)"),
    (STATE, "immer is a peer dependency.", "ACTIVE", "that immer is a peer dependency"),
    (STATE, "redux-thunk is a runtime dependency.", "VERIFIED", "redux-thunk"),
    (STATE, "redux-saga is a runtime dependency.", "REFUTED",
     "redux-saga is not a declared dependency"),
    (STATE, "nanoid is defined in src/nanoid.ts.", "VERIFIED", "src/nanoid.ts defines nanoid"),
    # ... but the package of that name, which nothing declares, is not the function
    (STATE, "Ids come from the nanoid package.", "REFUTED", "nanoid"),
    # a file the grammar could not read whole, that does not hold the word
    (STATE, "createSlice is built by makeSliceFactory in src/slice.ts.", "REFUTED",
     "src/slice.ts does not hold the word makeSliceFactory"),
    # a message said in other words; a Go map type; a Go constructor's name
    (HANDLER, 'MultipleHandlers is described as "Ctrl-C signal handler already registered".',
     "VERIFIED", "Ctrl-C signal handler already registered"),
    (HANDLER, 'MultipleHandlers is described as "a handler is already set".', "REFUTED",
     "a handler is already set"),
    (NOTIFY, "Watcher.WatchList returns a map[interface{}]bool.", "REFUTED",
     "no map[interface{}]bool"),
    (NOTIFY, "The watcher is made by NewFileWatcher.", "REFUTED", "NewFileWatcher"),
    (NOTIFY, "The watcher is made by NewWatcher.", "VERIFIED", "NewWatcher"),
    # settings declared by calls
    (THUMBS, "The default JPEG QUALITY is 80 (thumbs/config.py).", "VERIFIED", "QUALITY"),
    (THUMBS, "The default JPEG QUALITY is 85 (thumbs/config.py).", "REFUTED", "not 85"),
    (THUMBS, "MAX_AGE defaults to 24 * 60 * 60 seconds, one day.", "VERIFIED", "MAX_AGE"),
    (THUMBS, "MAX_AGE defaults to one hour.", "REFUTED", "MAX_AGE = 24 * 60 * 60"),
    (THUMBS, "AUTO_WEBP is off by default.", "VERIFIED", "AUTO_WEBP"),
    (THUMBS, "AUTO_WEBP is on by default.", "REFUTED", "AUTO_WEBP"),
    (THUMBS, "The default LOADER is thumbs.loaders.http_loader.", "VERIFIED", "LOADER"),
    (THUMBS, "The default LOADER is thumbs.loaders.file_loader.", "REFUTED", "LOADER"),
    (THUMBS, "The `port` option defaults to 8888 (thumbs/options.py).", "VERIFIED", "8888"),
    (THUMBS, "The `port` option defaults to 8080 (thumbs/options.py).", "REFUTED", "not 8080"),
    (THUMBS, "The `workers` option defaults to 4 (thumbs/workers.py).", "VERIFIED", "workers"),
    (THUMBS, "The `workers` option defaults to 8 (thumbs/workers.py).", "REFUTED", "not 8"),
    # names only code has
    (THUMBS, "The healthcheck route is served by StatusHandler in thumbs/handlers.py.",
     "REFUTED", "StatusHandler"),
    (THUMBS, "The healthcheck route is served by HealthcheckHandler in thumbs/handlers.py.",
     "VERIFIED", "HealthcheckHandler"),
    (THUMBS, "check raises ValueError on an empty value.", "ACTIVE", ""),
    (THUMBS, "The poll refreshes every 3000 ms (refreshInterval in settings.json).",
     "ACTIVE", ""),
    (NOTIFY, "ErrQueueFull is returned when the queue overflows.", "REFUTED", "ErrQueueFull"),
    (NOTIFY, "ErrEventOverflow is returned when the queue overflows.", "VERIFIED",
     "ErrEventOverflow"),
    (DRAFTS, "Map and Set support is turned on with enableCollections.", "REFUTED",
     "enableCollections"),
    (DRAFTS, "Map and Set support is turned on with enableMapSet.", "VERIFIED", "enableMapSet"),
    # types
    (BARS, "ProgressBar::new takes the length as a usize.", "REFUTED", "no usize"),
    (BARS, "ProgressBar::new takes the length as a u64.", "VERIFIED", "len: u64"),
    (BARS, "ProgressBar::length returns a u64.", "REFUTED", "not always u64"),
    (BARS, "ProgressBar::length returns an Option<u64>.", "VERIFIED", "Option<u64>"),
    (NOTIFY, "NewWatcher returns only a *Watcher.", "REFUTED", "not only *Watcher"),
    (NOTIFY, "NewWatcher returns a *Watcher and an error.", "VERIFIED", "NewWatcher"),
    (NOTIFY, "Watcher.WatchList returns the watched paths as a []string.", "VERIFIED",
     "WatchList"),
    (NOTIFY, "Watcher.WatchList returns the watched paths as a map[string]bool.", "REFUTED",
     "no map[string]bool"),
    # packages and tools
    (BARS, "Terminal handling comes from the console crate.", "ACTIVE", "dep:console holds"),
    (BARS, "Terminal handling comes from the crossterm crate.", "REFUTED",
     "crossterm is not a declared dependency"),
    (BARS, "winapi is a Windows-only dependency.", "VERIFIED", "winapi"),
    (BARS, "rayon support is an optional dependency.", "VERIFIED", "rayon"),
    (BARS, "rayon is a required dependency.", "REFUTED", "rayon"),
    (THUMBS, "The web server is Tornado.", "VERIFIED", "tornado"),
    (THUMBS, "The web server is aiohttp.", "REFUTED", "aiohttp"),
    (DRAFTS, "The tests run with vitest.", "VERIFIED", "vitest"),
    (DRAFTS, "The tests run with jest.", "REFUTED", "jest is not a declared dependency"),
    (DRAFTS, "The build runs with rollup.", "REFUTED", "rollup is not a declared dependency"),
    (DRAFTS, "The bundle is transpiled with Babel.", "REFUTED",
     "@babel/core is not a declared dependency"),
    # fields, strings, members, go.mod
    (DRAFTS, "Auto-freezing is on by default (autoFreeze_ is true in src/immer.ts).",
     "VERIFIED", "autoFreeze_"),
    (DRAFTS, "Auto-freezing is off by default (autoFreeze_ is false in src/immer.ts).",
     "REFUTED", "autoFreeze_"),
    (DRAFTS, "useStrictShallowCopy_ defaults to true.", "REFUTED", "useStrictShallowCopy_"),
    (BARS, 'ProgressStyle::default_bar uses the template "{wide_bar} {pos}/{len}".',
     "VERIFIED", "{wide_bar} {pos}/{len}"),
    (BARS, 'ProgressStyle::default_bar uses the template "{bar} {percent}%".', "REFUTED",
     "{bar} {percent}%"),
    (NOTIFY, "Event has Name and Op fields.", "VERIFIED", "Event.Op"),
    (NOTIFY, "Event has Name and Path fields.", "REFUTED", "Path"),
    (NOTIFY, "go.mod asks for Go 1.16.", "VERIFIED", "1.16"),
    (NOTIFY, "go.mod asks for Go 1.18.", "REFUTED", "not 1.18"),
    (NOTIFY, "The only required module is golang.org/x/sys.", "ACTIVE", "golang.org/x/sys"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_a_declared_setting_a_code_name_a_type_or_a_tool_as_agents_state_it(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
