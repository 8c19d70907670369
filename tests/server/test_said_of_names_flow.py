"""What notes say of the names they use, through MCP ``remember`` + ``recall`` on real git
repositories, each phrased true and false:

- a name given to ``os.environ.get`` (``env = os.environ.get``) reads the environment
  through it, with the default it passes;
- a value written as arithmetic ("EXPIRE = 3600 * 24 * 7"), and a duration said in
  words beside it ("one week");
- what a thing's default is, said in words ("the default level of a new Logger is
  DebugLevel"), is not made true by the name existing;
- a member a type "has" ("JSONFormatter has a PrettyPrint option");
- names with numbers in a list ("trace 10, debug 20, info 30") are no package versions;
- "deleted by a Celery task" names who deletes, not what is gone;
- a bare function name that is also a method of a type scopes nothing;
- what one definition does to another ("`TextFormatter` wraps `JSONFormatter`") is not
  made true by both existing: checked where the facts say it (a base class, an embedded
  struct, a module's member the file writes), else named as unchecked.
"""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import check_served

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

DJANGO = {
    "setup.cfg": "[metadata]\nname = paste\n\n[options]\ninstall_requires =\n"
                 "    django>=3.2\n    dj_database_url>=0.5\n",
    "paste/__init__.py": "",
    "paste/settings.py": "import os\n\nimport dj_database_url\n\nenv = os.environ.get\n\n"
                         'DEBUG = env("DEBUG") == "True"\n'
                         'SECRET_KEY = env("SECRET_KEY", "secret-key")\n'
                         'DATABASES = {"default": dj_database_url.config()}\n',
    "paste/apps.py": "class PasteConfig:\n    EXPIRE_DEFAULT = 3600 * 24 * 7\n"
                     "    SLUG_LENGTH = 4\n",
    "paste/config.py": "import os\n\nENV_PASTE_CONFIG_DIR = 'PASTE_CONFIG_DIR'\n\n\n"
                       "class Config:\n    FILENAME = 'config.json'\n\n\n"
                       "def config_dir():\n    return os.environ.get(ENV_PASTE_CONFIG_DIR)\n",
    "paste/management/__init__.py": "",
    "paste/management/commands/__init__.py": "",
    "paste/management/commands/cleanup.py": "def handle():\n    return 'expired'\n",
}  # fmt: skip
GO = {
    "go.mod": "module example.com/logs\n\ngo 1.13\n",
    "pool.go": "package logs\n\nconst randPoolSize = 16 * 16\n",
    "logger.go": 'package logs\n\nimport (\n\t"os"\n\t"sync/atomic"\n)\n\n'
                 "type Level uint32\n\nconst (\n\tInfoLevel Level = iota\n\tDebugLevel\n)\n\n"
                 "type Logger struct {\n\tLevel Level\n\tOut   *os.File\n}\n\n"
                 "func New() *Logger {\n\treturn &Logger{Out: os.Stderr, Level: InfoLevel}\n}\n\n"
                 "func (l *Logger) SetLevel(level Level) {\n"
                 "\tatomic.StoreUint32((*uint32)(&l.Level), uint32(level))\n}\n",
    "exported.go": "package logs\n\nvar std = New()\n\n"
                   "func SetLevel(level Level) {\n\tstd.SetLevel(level)\n}\n",
    "json.go": "package logs\n\ntype JSONFormatter struct {\n\tPrettyPrint bool\n"
               "\tDataKey     string\n}\n",
    "text.go": "package logs\n\ntype TextFormatter struct {\n\tDisableColors bool\n}\n",
    "entry.go": "package logs\n\ntype Entry struct {\n\t*Logger\n\tData map[string]string\n}\n",
}  # fmt: skip
STORES = {
    "store/__init__.py": "",
    "store/base.py": "class BaseStore:\n    def get(self, key):\n"
                     "        raise NotImplementedError\n",
    "store/cache.py": "class CacheStore:\n    def get(self, key):\n        return None\n",
    "store/sql.py": "from store.base import BaseStore\n\n\nclass SqlStore(BaseStore):\n"
                    "    def get(self, key):\n        return key\n",
}  # fmt: skip
NODE = {
    "package.json": '{"name": "logline", "version": "1.0.0", "main": "index.js",\n'
                    ' "dependencies": {"sonic-boom": "^4.0.1"},\n'
                    ' "devDependencies": {"debug": "^4.3.4"}}\n',
    "index.js": "const SonicBoom = require('sonic-boom')\n"
                "const { DEFAULT_LEVELS } = require('./lib/constants')\n"
                "module.exports = { SonicBoom, DEFAULT_LEVELS }\n",
    "lib/constants.js": "const DEFAULT_LEVELS = {\n  trace: 10,\n  debug: 20,\n  info: 30\n}\n"
                        "module.exports = { DEFAULT_LEVELS }\n",
}  # fmt: skip

# (files, note, the status served, words the served reasons hold)
CLAIMS: list[tuple[dict[str, str], str, str, str]] = [
    # a name given to os.environ.get reads the environment, with its default
    (DJANGO, "DEBUG is read from the environment in paste/settings.py.", "VERIFIED",
     "DEBUG is read in paste/settings.py"),
    (DJANGO, "SECRET_KEY defaults to \"secret-key\" in paste/settings.py.", "VERIFIED",
     'defaults to `"secret-key"`'),
    (DJANGO, "SECRET_KEY defaults to \"changeme\" in paste/settings.py.", "REFUTED",
     '"secret-key"'),
    # arithmetic is one value, and a duration in words beside it the same value
    (DJANGO, "The default expiry is one week (EXPIRE_DEFAULT = 3600 * 24 * 7).", "VERIFIED",
     "EXPIRE_DEFAULT = 3600 * 24 * 7"),
    (DJANGO, "The default expiry is two weeks (EXPIRE_DEFAULT = 3600 * 24 * 14).", "REFUTED",
     "not 3600 * 24 * 14"),
    # a constant that names the variable is read where it is passed
    (DJANGO, "The config directory can be set with the PASTE_CONFIG_DIR environment variable.",
     "VERIFIED", "PASTE_CONFIG_DIR is read"),
    # the name a file is given is a value, not a path of the repository
    (DJANGO, "The config file is named config.json (Config.FILENAME).", "VERIFIED",
     "Config.FILENAME = 'config.json'"),
    (DJANGO, "The config file is named config.toml (Config.FILENAME).", "REFUTED",
     "not config.toml"),
    (DJANGO, "Paste keeps its settings in a file called settings.json in the config directory.",
     "ACTIVE", ""),
    # who deletes is no removal
    (DJANGO, "Expired pastes are deleted by a Celery beat task.", "REFUTED",
     "Celery is not used by the project"),
    # a default said in words: the name existing does not make it the default
    (GO, "The default level of a new Logger is DebugLevel.", "ACTIVE",
     "that it defaults to DebugLevel"),
    # a Go constant of arithmetic, and the same value said with a unit beside it
    (GO, "The pool holds 256 bytes (randPoolSize = 16 * 16).", "VERIFIED",
     "`randPoolSize = 16 * 16` at pool.go:3"),
    (GO, "The pool holds 1024 bytes (randPoolSize = 16 * 64).", "REFUTED", "not 16 * 64"),
    # a member the type has, or not
    (GO, "JSONFormatter has a PrettyPrint option.", "VERIFIED",
     "json.go defines JSONFormatter.PrettyPrint"),
    (GO, "JSONFormatter has a Compact option.", "REFUTED",
     "JSONFormatter is defined in json.go (line 3) but has no Compact"),
    # SetLevel is a function and a method: the import is looked for in the whole package
    (GO, "SetLevel stores the level with sync/atomic.", "ACTIVE", "imported by logger.go"),
    (GO, "SetLevel stores the level with sync/once.", "REFUTED", "no file imports sync/once"),
    # what one definition does to another: named unless the facts say it
    (GO, "TextFormatter wraps JSONFormatter.", "ACTIVE", "that TextFormatter wraps JSONFormatter"),
    (GO, "Logger.SetLevel calls atomic.StoreUint32.", "VERIFIED",
     "logger.go defines Logger.SetLevel"),
    (GO, "Logger.SetLevel calls atomic.AddUint32.", "ACTIVE", "names what no anchor covers"),
    (GO, "The Entry struct embeds a Logger.", "VERIFIED", "entry.go defines Entry"),
    (GO, "The Entry struct embeds a JSONFormatter.", "ACTIVE", "embeds a JSONFormatter"),
    (STORES, "`SqlStore` extends `BaseStore`.", "VERIFIED", "store/sql.py defines SqlStore"),
    (STORES, "`SqlStore` extends `CacheStore`.", "ACTIVE", "that `SqlStore` extends `CacheStore`"),
    # names with their numbers are no package and its version
    (NODE, "The default levels are trace 10, debug 20 and info 30 (DEFAULT_LEVELS in "
           "lib/constants.js).", "ACTIVE", "lib/constants.js defines DEFAULT_LEVELS"),
    (NODE, "logline uses sonic-boom 4.", "VERIFIED", "sonic-boom^4.0.1 is satisfied"),
]  # fmt: skip


@pytest.mark.parametrize(("files", "text", "status", "reason"), CLAIMS,
                         ids=[c[1][:60] for c in CLAIMS])  # fmt: skip
async def test_what_a_note_says_of_the_names_it_uses(
    git_repo: GitRepo, files: dict[str, str], text: str, status: str, reason: str
) -> None:
    await check_served(git_repo, files, text, status, reason)
