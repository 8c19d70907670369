"""What the fingerprint did not see (issue #31, failure class 6): environment variables read
through the application's own helpers (in the same file or imported, functions and methods)
and through django-environ, environs and python-decouple; a bare file name; the dotted
strings of Django settings; a management command. ``remember`` then ``recall`` through the
MCP client on a real git repository holding a Django-style and a FastAPI-style project."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "requirements.txt": (
        "django>=4.2\ndjango-environ>=0.11\npython-decouple>=3.8\nwhitenoise>=6\n"
        "djangorestframework>=3.14\ndjango-storages>=1.14\nfastapi>=0.110\nenvirons>=11\n"
        "django-extensions>=3\n"
    ),
    "manage.py": "import os\nimport sys\n\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', "
    "'config.settings')\n",
    "config/__init__.py": "",
    "config/env.py": (
        '"""Typed reads of the environment."""\nimport os\n\n\n'
        "def env_int(name: str, default: int = 0) -> int:\n"
        "    return int(os.getenv(name, str(default)))\n\n\n"
        "def env_bool(name, default=False):\n"
        "    value = os.environ.get(name)\n"
        "    if value is None:\n        return default\n"
        "    return value.lower() in ('1', 'true', 'yes')\n\n\n"
        "def app_env(name, default=None):\n"
        "    return os.getenv(f'APP_{name}', default)\n"
    ),
    "config/settings.py": (
        "import os\n\nimport environ\nfrom decouple import config\n\n"
        "from config.env import app_env, env_bool, env_int\n\n"
        "env = environ.Env(DEBUG=(bool, False))\n\n\n"
        "def env_float(name, default=0.0):\n    return float(os.getenv(name, default))\n\n\n"
        "def feature(name):\n    return name in FLAGS\n\n\n"
        "FLAGS = {'BETA_SEARCH'}\n"
        "DEBUG = env('DEBUG')\n"
        "SECRET_KEY = env('SECRET_KEY')\n"
        "SENTRY_DSN = env.str('SENTRY_DSN', default='')\n"
        "DATABASES = {'default': env.db('DATABASE_URL', default='sqlite:///db.sqlite3')}\n"
        "PAGE_SIZE = env_int('PAGE_SIZE', 20)\n"
        "USE_S3 = env_bool('USE_S3')\n"
        "REQUEST_TIMEOUT = env_float('REQUEST_TIMEOUT', 2.5)\n"
        "EMAIL_TIMEOUT = config('EMAIL_TIMEOUT', default=10, cast=int)\n"
        "MODE = app_env('MODE', 'dev')\n"
        "BETA = feature('BETA_SEARCH')\n"
        "ALLOWED_HOSTS = ['example.com', 'www.example.com']\n"
        "INSTALLED_APPS = [\n    'django.contrib.admin',\n    'django.contrib.staticfiles',\n"
        "    'django_extensions',\n    'rest_framework',\n    'accounts.apps.AccountsConfig',\n]\n"
        "MIDDLEWARE = [\n    'django.middleware.security.SecurityMiddleware',\n"
        "    'whitenoise.middleware.WhiteNoiseMiddleware',\n]\n"
        "REST_FRAMEWORK = {\n    'DEFAULT_AUTHENTICATION_CLASSES': [\n"
        "        'rest_framework.authentication.TokenAuthentication',\n    ],\n}\n"
        "DEFAULT_FILE_STORAGE = 'storages.backends.s3boto3.S3Boto3Storage'\n"
        "ROOT_URLCONF = 'config.urls'\n"
    ),
    "accounts/__init__.py": "",
    "accounts/apps.py": "from django.apps import AppConfig\n\n\nclass AccountsConfig(AppConfig):\n"
    "    name = 'accounts'\n",
    "accounts/views.py": "def profile(request):\n    return None\n",
    "accounts/management/__init__.py": "",
    "accounts/management/commands/__init__.py": "",
    "accounts/management/commands/sync_users.py": (
        "from django.core.management.base import BaseCommand\n\n\n"
        "class Command(BaseCommand):\n    help = 'Import users from LDAP'\n\n"
        "    def handle(self, *args, **options):\n        pass\n"
    ),
    "mailer/__init__.py": "",
    "mailer/transport.py": "import smtplib\n\n\nclass SmtpTransport:\n    pass\n",
    "api/__init__.py": "",
    "api/envtools.py": (
        "import os\n\n\ndef env_str(name, default=''):\n    return os.environ.get(name, default)\n"
    ),
    "api/settings.py": (
        "from environs import Env\n\nfrom api import envtools\n\n"
        "env = Env()\nenv.read_env()\n\n"
        "API_PAGE_SIZE = env.int('API_PAGE_SIZE', 25)\n"
        "CORS_ORIGINS = env.list('CORS_ORIGINS', default=[])\n"
        "LOG_FORMAT = envtools.env_str('LOG_FORMAT', 'json')\n"
    ),
    "api/config.py": (
        "import os\n\n\nclass Config:\n"
        "    def _get(self, name, default=None):\n"
        "        return os.environ.get(name, default)\n\n"
        "    @property\n    def rate_limit(self):\n"
        "        return int(self._get('RATE_LIMIT', 100))\n"
    ),
    "api/views.py": "from fastapi import APIRouter\n\nrouter = APIRouter()\n",
}

# (note, anchors the agent gives or None, the status served, text a receipt must hold)
NOTES: list[tuple[str, list[str] | None, str, str]] = [
    # a wrapper imported from another file of the repository (config/env.py)
    ("`PAGE_SIZE` defaults to 20", None, "VERIFIED", "`PAGE_SIZE` defaults to `20`"),
    ("`PAGE_SIZE` defaults to 50", None, "REFUTED",
     "config/settings.py:24 gives PAGE_SIZE the default 20, not 50"),
    ("Pages hold 20 items unless PAGE_SIZE is set", ["env:PAGE_SIZE=20"], "VERIFIED",
     "`PAGE_SIZE` defaults to `20`"),
    # the wrapper's own default applies when the call gives none
    ("`USE_S3` defaults to `False`", None, "VERIFIED", "`USE_S3` defaults to `False`"),
    ("Uploads go to S3 unless configured", ["env:USE_S3=True"], "REFUTED",
     "gives USE_S3 the default False, not True"),
    # a wrapper in the same file
    ("`REQUEST_TIMEOUT` defaults to 2.5", None, "VERIFIED", "`REQUEST_TIMEOUT` defaults to `2.5`"),
    ("`REQUEST_TIMEOUT` defaults to 10", None, "REFUTED",
     "gives REQUEST_TIMEOUT the default 2.5, not 10"),
    # django-environ: a scheme, env(...), env.str / env.db
    ("`DEBUG` defaults to `False`", None, "VERIFIED", "`DEBUG` defaults to `False`"),
    ("`DEBUG` defaults to `True`", None, "REFUTED", "gives DEBUG the default False, not True"),
    ("The secret key comes from the environment", ["env:SECRET_KEY"], "VERIFIED",
     "SECRET_KEY is read or declared in config/settings.py"),
    ("Errors go to Sentry when SENTRY_DSN is set", ["env:SENTRY_DSN"], "VERIFIED",
     "SENTRY_DSN is read or declared in config/settings.py"),
    ("The database is configured by `DATABASE_URL`", ["env:DATABASE_URL"], "VERIFIED",
     "DATABASE_URL is read or declared in config/settings.py"),
    # python-decouple
    ("`EMAIL_TIMEOUT` defaults to 10", None, "VERIFIED", "`EMAIL_TIMEOUT` defaults to `10`"),
    ("`EMAIL_TIMEOUT` defaults to 30", None, "REFUTED",
     "gives EMAIL_TIMEOUT the default 10, not 30"),
    # environs, and a wrapper reached through a module import (envtools.env_str)
    ("`API_PAGE_SIZE` defaults to 25", None, "VERIFIED", "`API_PAGE_SIZE` defaults to `25`"),
    ("The API returns 100 items per page by default", ["env:API_PAGE_SIZE=100"], "REFUTED",
     "gives API_PAGE_SIZE the default 25, not 100"),
    ("Logs are JSON unless LOG_FORMAT says otherwise", ["env:LOG_FORMAT=json"], "VERIFIED",
     "`LOG_FORMAT` defaults to `'json'` at api/settings.py:10"),
    # a method wrapper called through self
    ("`RATE_LIMIT` defaults to 100", None, "VERIFIED", "`RATE_LIMIT` defaults to `100`"),
    ("`RATE_LIMIT` defaults to 1000", None, "REFUTED",
     "gives RATE_LIMIT the default 100, not 1000"),
    # a helper that does not read the environment is no wrapper; the name is written in a
    # file that reads the environment, so it may be read through a mapping: unknown
    ("Beta search is toggled by an environment variable", ["env:BETA_SEARCH"], "ACTIVE",
     'config/settings.py writes the literal "BETA_SEARCH"'),
    # a bare file name: the one tracked file with that name
    ("The SMTP transport lives in the transport module", ["file:transport.py"], "VERIFIED",
     "mailer/transport.py is tracked (the only file named transport.py)"),
    ("`transport.py` holds the SMTP transport", None, "VERIFIED", "mailer/transport.py"),
    # dotted strings of the Django settings are use of those packages
    ("WhiteNoise serves the static files", ["import:whitenoise"], "VERIFIED",
     "named by the Django settings in config/settings.py"),
    ("django-extensions is an installed app", ["import:django_extensions"], "VERIFIED",
     "named by the Django settings in config/settings.py"),
    ("The API authenticates with DRF tokens", ["import:rest_framework.authentication"],
     "VERIFIED", "named by the Django settings"),
    ("The project uses django-storages", ["import:storages"], "VERIFIED",
     "named by the Django settings in config/settings.py"),
    ("We use django-storages", ["tech:django-storages"], "VERIFIED",
     "config/settings.py imports storages"),
    # a Django management command is its file
    ("The `sync_users` management command imports users from LDAP", None, "VERIFIED",
     "accounts/management/commands/sync_users.py is tracked"),
]  # fmt: skip

# Not checkable: the note stays ACTIVE (never REFUTED), and says why.
UNCHECKED: list[tuple[str, list[str] | None, str]] = [
    # two files are named views.py: the bare name cannot say which
    ("The views are in views.py", ["file:views.py"],
     "views.py names 2 tracked files (accounts/views.py, api/views.py); cannot tell which"),
    ("`views.py` holds the request handlers", None,
     "views.py names 2 tracked files (accounts/views.py, api/views.py); cannot tell which"),
    # a helper that builds the name (APP_MODE) is not a wrapper of MODE: the value is unread
    ("`MODE` defaults to `dev`", ["env:MODE=dev"], "no code read gives MODE a default"),
    # a host name in the settings is no module
    ("Requests to example.com are allowed", ["import:example"], "no file imports example"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "a Django project and a FastAPI service")
    return git_repo


async def remembered(repo: GitRepo, text: str, anchors: list[str] | None) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, anchors)


@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), NOTES)
async def test_what_the_application_reads_through_its_helpers_is_checked(
    app_repo: GitRepo, text: str, anchors: list[str] | None, status: str, receipt: str
) -> None:
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == status, served["anchors"]
    assert receipt in receipts(served), served


@pytest.mark.parametrize(("text", "anchors", "why"), UNCHECKED)
async def test_what_cannot_be_told_keeps_the_note_active_or_refutes_only_what_is_false(
    app_repo: GitRepo, text: str, anchors: list[str] | None, why: str
) -> None:
    served = await remembered(app_repo, text, anchors)
    said = [served["verification"], *served["flags"], *(a["detail"] for a in served["anchors"])]
    expected = "REFUTED" if why.startswith("no file imports") else "ACTIVE"
    assert served["status"] == expected, served
    assert any(why in str(s) for s in said), served
