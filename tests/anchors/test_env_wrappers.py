"""Environment reads through the application's helpers and settings libraries, and the
dotted strings of Django settings (issue #31, failure class 6): what extraction records per
file, how the fingerprint joins a call with a wrapper defined in another file, and what it
leaves alone (a helper that builds the name, a call of something that is no wrapper, a host
name in the settings)."""

from __future__ import annotations

import pytest

from anchors.facts import SETTINGS_STRING, EnvCall, EnvWrapper, FileFacts, Fingerprint
from anchors.fingerprint import CodeSource, InMemoryFactsCache, facts_from_json, facts_to_json
from anchors.pyfacts import extract_file_facts
from anchors.spec import Anchor, AnchorKind, parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

HELPERS = b"""\
import os
from os import environ


def env_int(name: str, default: int = 0) -> int:
    return int(os.getenv(name, str(default)))


def env_bool(name, default=False):
    value = environ.get(name)
    if value is None:
        return default
    return value.lower() in ("1", "true")


def required(name):
    return os.environ[name]


def prefixed(name, default=None):
    return os.getenv(f"APP_{name}", default)


def second(kind, name):
    return os.getenv(name)


class Settings:
    def _get(self, name, default=None):
        return os.environ.get(name, default)

    def limit(self):
        return self._get("RATE_LIMIT", 100)
"""

LIBRARIES = b"""\
import environ
from decouple import config
from environs import Env

env = environ.Env(DEBUG=(bool, False), HOSTS=(list, []), PLAIN=(str))
envs = Env()
DEBUG = env("DEBUG")
SECRET_KEY = env("SECRET_KEY", default="dev")
DB = env.db("DATABASE_URL", default="sqlite:///db.sqlite3")
POOL = config("POOL", default=10, cast=int)
WORKERS = envs.int("WORKERS", 4)
with envs.prefixed("MYAPP_"):
    pass
"""


def wrappers_of(source: bytes) -> dict[str, EnvWrapper]:
    return {w.callee: w for w in extract_file_facts(source).env_wrappers}


def test_a_function_forwarding_its_first_parameter_to_getenv_is_a_wrapper() -> None:
    found = wrappers_of(HELPERS)
    assert found["env_int"] == EnvWrapper("env_int", 1, "default", "0", True)
    # the default returned when the variable is unset is the wrapper's default parameter
    assert found["env_bool"] == EnvWrapper("env_bool", 1, "default", "False", True)
    assert found["required"] == EnvWrapper("required", -1, "")
    assert found["Settings._get"] == EnvWrapper("Settings._get", 1, "default", "None", True)


def test_a_helper_that_builds_the_name_or_reads_another_parameter_is_no_wrapper() -> None:
    found = wrappers_of(HELPERS)
    assert "prefixed" not in found and "second" not in found


def test_the_settings_libraries_objects_are_wrappers_and_a_scheme_gives_defaults() -> None:
    facts = extract_file_facts(LIBRARIES)
    found = {w.callee: w for w in facts.env_wrappers}
    assert found["env"] == EnvWrapper("env", -1, "default")  # django-environ: 2nd is cast
    assert found["env.*"] == EnvWrapper("env.*", 1, "default")
    assert found["envs.*"] == EnvWrapper("envs.*", 1, "default")
    assert found["config"] == EnvWrapper("config", 1, "default")
    assert {"DEBUG", "HOSTS", "PLAIN"} <= set(facts.env_reads)
    defaults = {v.name: v.text for v in facts.env_defaults}
    assert defaults == {"DEBUG": "False", "HOSTS": None}  # a list is computed; no default


def test_calls_with_a_literal_upper_case_name_first_are_recorded_with_their_arguments() -> None:
    calls = {c.name: c for c in extract_file_facts(LIBRARIES).env_calls}
    assert calls["SECRET_KEY"] == EnvCall("env", "SECRET_KEY", (), (("default", '"dev"'),), 8)
    assert calls["POOL"].keywords == (("default", "10"), ("cast", None))
    assert calls["WORKERS"] == EnvCall("envs.int", "WORKERS", ("4",), (), 11)


def test_wrappers_and_calls_survive_the_facts_cache() -> None:
    facts = extract_file_facts(LIBRARIES + HELPERS)
    assert facts.env_wrappers and facts.env_calls
    assert facts_from_json(facts_to_json(facts)) == facts


def fingerprint(files: dict[str, bytes]) -> Fingerprint:
    python = {path: extract_file_facts(src, path) for path, src in files.items()}
    return Fingerprint("c0", {path: f"b{i}" for i, path in enumerate(files)}, python)


def defaults(fp: Fingerprint, name: str) -> list[tuple[str, str | None]]:
    return [(path, v.text) for path, v in fp.env_default_values(name)]


def test_the_fingerprint_joins_calls_with_wrappers_of_the_same_file_and_libraries() -> None:
    fp = fingerprint({"app/settings.py": LIBRARIES, "app/helpers.py": HELPERS})
    assert defaults(fp, "SECRET_KEY") == [("app/settings.py", '"dev"')]
    assert defaults(fp, "DATABASE_URL") == [("app/settings.py", '"sqlite:///db.sqlite3"')]
    assert defaults(fp, "POOL") == [("app/settings.py", "10")]
    assert defaults(fp, "WORKERS") == [("app/settings.py", "4")]
    assert defaults(fp, "RATE_LIMIT") == [("app/helpers.py", "100")]  # self._get(...)
    assert fp.env_sources("SECRET_KEY") == ["app/settings.py"]
    assert "MYAPP_" not in fp.env_names()  # envs.prefixed takes a prefix, not a name


USES = {
    "app/__init__.py": b"",
    "app/helpers.py": HELPERS,
    "app/settings.py": b"""\
from app.helpers import env_bool, env_int
from app import helpers
import app.helpers

PAGE_SIZE = env_int("PAGE_SIZE", 20)
USE_S3 = env_bool("USE_S3")
TOKEN = helpers.required("TOKEN")
LIMIT = app.helpers.env_int("LIMIT", default=5)
MODE = helpers.prefixed("MODE", "dev")
LEVEL = log_level("LOG_LEVEL", "info")
""",
}


def test_a_wrapper_imported_from_another_file_gives_the_callers_default() -> None:
    fp = fingerprint(USES)
    assert defaults(fp, "PAGE_SIZE") == [("app/settings.py", "20")]
    assert defaults(fp, "USE_S3") == [("app/settings.py", "False")]  # the wrapper's own
    assert defaults(fp, "LIMIT") == [("app/settings.py", "5")]  # module.attr, by keyword
    assert defaults(fp, "TOKEN") == [] and fp.env_sources("TOKEN") == ["app/settings.py"]


def test_calls_of_what_is_no_wrapper_are_no_environment_reads() -> None:
    fp = fingerprint(USES)
    assert "MODE" not in fp.env_names() and "LOG_LEVEL" not in fp.env_names()


def test_one_level_of_calls_is_followed_not_two() -> None:
    outer = (
        b"from app.helpers import env_int\n\n\ndef port(name, default=80):\n"
        b"    return env_int(name, default)\n\n\nPORT = port('PORT', 8080)\n"
    )
    fp = fingerprint({**USES, "app/net.py": outer})
    assert "PORT" not in fp.env_names()


def test_a_value_anchor_on_a_wrapped_default_compares_it(git_repo: GitRepo) -> None:
    git_repo.commit({path: src.decode() for path, src in USES.items()})
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
    holds = check_anchor(parse_anchor("env:PAGE_SIZE=20"), None, fp)
    assert holds.verdict is Verdict.HOLDS, holds
    assert "`PAGE_SIZE` defaults to `20` at app/settings.py:5" in holds.detail
    broken = check_anchor(parse_anchor("env:PAGE_SIZE=50"), None, fp)
    assert broken.verdict is Verdict.BROKEN, broken
    assert "app/settings.py:5 gives PAGE_SIZE the default 20, not 50" in broken.detail


SETTINGS = b"""\
INSTALLED_APPS = [
    "django.contrib.admin",
    "django_extensions",
    "accounts.apps.AccountsConfig",
]
MIDDLEWARE = ["whitenoise.middleware.WhiteNoiseMiddleware"]
MIDDLEWARE += ["debug_toolbar.middleware.DebugToolbarMiddleware"]
ALLOWED_HOSTS = ["example.com", "www.example.com", "localhost"]
TIME_ZONE = "Europe/Paris"
LANGUAGE_CODE = "en-us"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],
    "PAGE_SIZE": 20,
}
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "db.sqlite3"}}
CACHES = {"default": dict(BACKEND="django_redis.cache.RedisCache", LOCATION="redis://r:6379")}
DEFAULT_FILE_STORAGE = "storages.backends.s3boto3.S3Boto3Storage"
ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
SITE_NAME = "shop.example"
"""


def settings_modules(source: bytes) -> dict[str, tuple[str, ...]]:
    facts = extract_file_facts(source)
    return {i.module: i.names for i in facts.imports if i.within == SETTINGS_STRING}


def test_dotted_strings_of_a_settings_module_are_imports_django_makes() -> None:
    assert settings_modules(SETTINGS) == {
        "django.contrib.admin": (),
        "django_extensions": (),
        "accounts.apps": ("AccountsConfig",),
        "whitenoise.middleware": ("WhiteNoiseMiddleware",),
        "debug_toolbar.middleware": ("DebugToolbarMiddleware",),
        "rest_framework.authentication": ("TokenAuthentication",),
        "django.db.backends.postgresql": (),
        "django_redis.cache": ("RedisCache",),
        "storages.backends.s3boto3": ("S3Boto3Storage",),
        "config.urls": (),
        "config.wsgi": ("application",),
    }


@pytest.mark.parametrize(
    "source",
    [
        b'ALLOWED_HOSTS = ["example.com"]\nSITE = "a.b.Class"\n',  # not a settings module
        b'def f():\n    INSTALLED_APPS = ["x"]\n',  # not at the top level
    ],
)
def test_strings_outside_a_settings_module_are_no_imports(source: bytes) -> None:
    assert settings_modules(source) == {}


def test_a_settings_string_answers_an_unscoped_import_anchor() -> None:
    fp = fingerprint({"config/settings.py": SETTINGS})
    check = check_anchor(Anchor(AnchorKind.IMPORT, "whitenoise"), None, fp)
    assert check.verdict is Verdict.HOLDS
    assert "named by the Django settings in config/settings.py" in check.detail
    assert check_anchor(Anchor(AnchorKind.IMPORT, "example"), None, fp).verdict is Verdict.BROKEN


@pytest.mark.parametrize(
    ("tracked", "verdict", "detail"),
    [
        (["src/pkg/transport.py"], Verdict.HOLDS, "src/pkg/transport.py is tracked"),
        (["a/transport.py", "b/transport.py"], Verdict.UNKNOWN,
         "transport.py names 2 tracked files (a/transport.py, b/transport.py)"),
        (["src/pkg/other.py"], Verdict.BROKEN, "transport.py is not in the repository"),
    ],
)  # fmt: skip
def test_a_bare_file_name_is_the_one_tracked_file_with_that_name(
    tracked: list[str], verdict: Verdict, detail: str
) -> None:
    fp = Fingerprint("c0", {p: "b" for p in tracked}, {p: FileFacts() for p in tracked})
    check = check_anchor(Anchor(AnchorKind.FILE, "transport.py"), None, fp)
    assert check.verdict is verdict and detail in check.detail, check


def test_a_wrapper_imported_relatively_in_a_src_layout_is_found(git_repo: GitRepo) -> None:
    git_repo.commit(
        {
            "src/shop/__init__.py": "",
            "src/shop/envutil.py": (
                "import os\n\n\ndef env_int(name, default=0):\n"
                "    return int(os.getenv(name, default))\n"
            ),
            "src/shop/settings.py": (
                "from . import envutil\nfrom .envutil import env_int\n\n"
                "PAGE_SIZE = env_int('PAGE_SIZE', 20)\nRETRIES = envutil.env_int('RETRIES')\n"
            ),
        }
    )
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
    assert defaults(fp, "PAGE_SIZE") == [("src/shop/settings.py", "20")]
    assert defaults(fp, "RETRIES") == [("src/shop/settings.py", "0")]  # the wrapper's own
