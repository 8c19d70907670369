"""What an application's own files say is checked, not only that the things a note names
exist (issue #31): ``remember`` then ``recall`` through the MCP client on a real git
repository holding a small web application.

- a settings dict's entries (``REST_FRAMEWORK = {"PAGE_SIZE": 20}``, a package's
  ``DEFAULT_SETTINGS``) are values a note can state, by the key alone, by the dict and the
  key, or by the key and the module; a test's fixture of the same key is not the value;
- a dict named before its key ("GYM_SETTINGS ALLOW_UPLOAD_VIDEOS is True"), a module named
  by its own name ("settings_global"), an INI key given by the application's own settings
  file rather than a sample or a developer's copy, a duration said twice ("30 days",
  ``30d``);
- the Python versions ``setup.py``'s classifiers list answer a support claim when no
  ``python_requires`` does, each version of a listed claim checked;
- a version stated after "pinned to" is compared with the declaration;
- a product named only in the docs, the README or the changelog is not used: the note
  saying it is is REFUTED, with the files named in the receipt; one named in a template
  that renders the application's pages, or a package named by an English word ("marshmallow"),
  still says nothing either way;
- a product name written capitalised before a noun ("a React app") is that product.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "setup.py": (
        "from setuptools import setup\n\n"
        "with open('requirements.txt') as f:\n    install_requires = f.readlines()\n\n"
        "setup(\n    name='gym',\n    install_requires=install_requires,\n    classifiers=[\n"
        "        'Programming Language :: Python :: 3',\n"
        "        'Programming Language :: Python :: 3.9',\n"
        "        'Programming Language :: Python :: 3.10',\n"
        "        'Programming Language :: Python :: 3.11',\n    ],\n)\n"
    ),
    "requirements.txt": "django~=4.2\nbleach[css]~=6.0\ndjangorestframework>=3.14\n",
    "gym/__init__.py": (
        "DEFAULT_SETTINGS = {\n    'batch_max_requests': 25,\n    'retry_after_seconds': 3,\n"
        "    'cache': {'ttl_seconds': 600, 'backend': 'memory'},\n    'hooks': [],\n}\n"
    ),
    "gym/core/__init__.py": "DEFAULT_SETTINGS = {\n    'retry_after_seconds': 30,\n}\n",
    "gym/settings.py": (
        "import os\n\nDEBUG = os.environ.get('DJANGO_DEBUG', 'false') == 'true'\n\n"
        "REST_FRAMEWORK = {\n"
        "    'DEFAULT_PAGINATION_CLASS': 'rest_framework.pagination.LimitOffsetPagination',\n"
        "    'PAGE_SIZE': 20,\n"
        "    'DEFAULT_THROTTLE_RATES': {'login': '3/min'},\n}\n"
    ),
    "gym/db.py": "class Schema:\n    MAX_VERSION = 5\n",
    "gym/api.py": 'NAMESPACE = "/gym"\nMEDIA_ROOT = "/var/gym/media"\nFILTER_ENV = "GYM_LOG"\n',
    "gym/settings_global.py": (
        "GYM_SETTINGS = {\n    'ALLOW_UPLOAD_VIDEOS': False,\n    'EXERCISE_CACHE_TTL': 3600,\n}\n"
    ),
    "gym/gym.cfg": (
        "[moderation]\nenabled = false\npurge-after = 30d\n\n[smtp]\nport = 587\ntimeout = 10\n"
    ),
    "contrib/gym-dev.cfg": "[moderation]\npurge-after = 1d\n",
    "gym/templates/base.html": (
        "<html><head><script src=\"{% static 'js/htmx.min.js' %}\"></script></head></html>\n"
    ),
    "tests/test_settings.py": (
        "class SettingsTest:\n    settings = {'batch_max_requests': 100}\n"
    ),
    "docs/faq.rst": "Can I store data in MongoDB?\n===========================\n\nNo.\n",
    "docs/search.rst": "Search\n======\n\nElasticsearch was considered and not adopted.\n",
    "README.md": "# gym\n\nErrors may one day be reported to Sentry.\n",
    "CHANGELOG.md": (
        "# Changes\n\n## 2.0\n\n- Dropped ujson: the standard json is enough.\n"
        "- Payloads are no longer validated with marshmallow.\n"
    ),
    "tox.ini": "[testenv]\ndeps =\n    pytest\n    flask-caching>=1.9\ncommands = pytest\n",
    "frontend/package.json": '{"name": "gym-ui", "dependencies": {"vue": "^3.4.0"}}\n',
    "frontend/src/main.js": "import { createApp } from 'vue'\n\ncreateApp({}).mount('#app')\n",
}

# (note, anchors the agent gives or None, the status served, text the receipts must hold)
NOTES: list[tuple[str, list[str] | None, str, str]] = [
    # a settings dict's entries: by the key, by the dict and the key, by the module
    ("The REST API pages 20 objects by default (PAGE_SIZE).", None, "VERIFIED",
     "`REST_FRAMEWORK.PAGE_SIZE = 20` at gym/settings.py:7"),
    ("The REST API returns 50 objects per page by default (PAGE_SIZE).", None, "REFUTED",
     "gym/settings.py:7 sets REST_FRAMEWORK.PAGE_SIZE = 20, not 50"),
    ("The API pages 20 objects (REST_FRAMEWORK PAGE_SIZE in gym/settings.py).", None,
     "VERIFIED", "`REST_FRAMEWORK.PAGE_SIZE = 20`"),
    ("The API pages 100 objects (REST_FRAMEWORK PAGE_SIZE in gym/settings.py).", None,
     "REFUTED", "sets REST_FRAMEWORK.PAGE_SIZE = 20, not 100"),
    ("`PAGE_SIZE` is 20", None, "VERIFIED", "`REST_FRAMEWORK.PAGE_SIZE = 20`"),
    ("PAGE_SIZE is 25", None, "REFUTED", "sets REST_FRAMEWORK.PAGE_SIZE = 20, not 25"),
    # the application's value, not the test's fixture of the same key
    ("A batch may hold at most 25 requests (batch_max_requests).", None, "VERIFIED",
     "`DEFAULT_SETTINGS.batch_max_requests = 25` at gym/__init__.py:2"),
    ("A batch may hold up to 100 requests (batch_max_requests).", None, "REFUTED",
     "gym/__init__.py:2 sets DEFAULT_SETTINGS.batch_max_requests = 25, not 100"),
    # the same key in two modules: the one the note names
    ("retry_after_seconds is 3 in gym/__init__.py.", None, "VERIFIED",
     "`DEFAULT_SETTINGS.retry_after_seconds = 3` at gym/__init__.py:3"),
    ("retry_after_seconds is 30 in gym/__init__.py.", None, "REFUTED",
     "sets DEFAULT_SETTINGS.retry_after_seconds = 3, not 30"),
    ("Clients are asked to retry after 30 (retry_after_seconds in gym.core's "
     "DEFAULT_SETTINGS).", None, "VERIFIED",
     "`DEFAULT_SETTINGS.retry_after_seconds = 30` at gym/core/__init__.py:2"),
    ("Clients are asked to retry after 5 (retry_after_seconds in gym.core's "
     "DEFAULT_SETTINGS).", None, "REFUTED",
     "gym/core/__init__.py:2 sets DEFAULT_SETTINGS.retry_after_seconds = 30, not 5"),
    # a nested entry, and one the agent anchors
    ("The cache keeps entries for 600 seconds (ttl_seconds).", None, "VERIFIED",
     "`DEFAULT_SETTINGS.cache.ttl_seconds = 600`"),
    ("The cache backend is 'redis' (DEFAULT_SETTINGS.cache.backend).", None, "REFUTED",
     "sets DEFAULT_SETTINGS.cache.backend = 'memory', not 'redis'"),
    ("retry_after_seconds is overridden in gym/__init__.py.",
     ["symbol:gym/__init__.py::retry_after_seconds"], "VERIFIED",
     "gym/__init__.py assigns DEFAULT_SETTINGS.retry_after_seconds (line 3)"),
    # a class attribute assigned in parentheses, the value said twice
    ("The schema version is 5 (Schema.MAX_VERSION = 5).", None, "VERIFIED",
     "`Schema.MAX_VERSION = 5` at gym/db.py:2"),
    ("The schema version is 3 (Schema.MAX_VERSION = 3).", None, "REFUTED",
     "gym/db.py:2 sets Schema.MAX_VERSION = 5, not 3"),
    # a dict written before its key, with a Python literal; the module named by its name
    ("settings_global allows video uploads by default (GYM_SETTINGS ALLOW_UPLOAD_VIDEOS is "
     "True).", None, "REFUTED",
     "gym/settings_global.py:2 sets GYM_SETTINGS.ALLOW_UPLOAD_VIDEOS = False, not True"),
    ("settings_global forbids video uploads by default (GYM_SETTINGS ALLOW_UPLOAD_VIDEOS is "
     "False).", None, "VERIFIED", "gym/settings_global.py is tracked"),
    # the application's settings file, not a developer's copy; a duration said twice
    ("Old comments are purged after 30 days by default ([moderation] purge-after = 30d).",
     None, "VERIFIED", "gym/gym.cfg:3 says moderation.purge-after: 30d"),
    ("Old comments are purged after 7 days by default ([moderation] purge-after = 7d).",
     None, "REFUTED", "gym/gym.cfg:3 says moderation.purge-after: 30d, not 7d"),
    # a number after a setting's word, in a sentence naming its section
    ("SMTP defaults to port 465.", None, "REFUTED", "gym/gym.cfg:6 says smtp.port: 587, not 465"),
    ("The SMTP port is 587.", None, "VERIFIED", "gym/gym.cfg:6 says smtp.port: 587"),
    ("Mail delivery gives up after a timeout of 30 in the smtp settings.", None, "REFUTED",
     "says smtp.timeout: 10, not 30"),
    # a value written right before the string constant it is
    ("The API is mounted under /api/gym (NAMESPACE).", None, "REFUTED",
     'gym/api.py:1 sets NAMESPACE = "/gym", not /api/gym'),
    ("The API is mounted under /gym (NAMESPACE).", None, "VERIFIED", '`NAMESPACE = "/gym"`'),
    ("The filter variable is GYM_LOG_FILTER (FILTER_ENV).", None, "REFUTED",
     'sets FILTER_ENV = "GYM_LOG", not GYM_LOG_FILTER'),
    # Python versions from the classifiers, every listed one checked
    ("setup.py's classifiers list Python 3.9, 3.10 and 3.11.", None, "VERIFIED",
     "python==3.11.* is satisfied by"),
    ("setup.py's classifiers list Python 3.9, 3.10 and 3.12.", None, "REFUTED",
     "which excludes python==3.12.*"),
    ("gym supports Python 3.9 through 3.11.", None, "VERIFIED",
     "python~=3.9.0 is within"),
    ("gym still supports Python 3.7 (setup.py classifiers).", None, "REFUTED",
     "which excludes python~=3.7.0"),
    # the key that declares it, named as code
    ("setup.py declares python_requires >= 3.7.", None, "REFUTED",
     "the lower bound is 3.9, not 3.7"),
    ("The `requires-python` is >=3.8.", None, "REFUTED", "the lower bound is 3.9, not 3.8"),
    # a bare version after a package's name: that series
    ("gym uses bleach 6.", None, "VERIFIED", "bleach~=6.0 is satisfied by bleach~=6.0"),
    ("gym uses bleach 3.", None, "REFUTED", "which excludes bleach==3.*"),
    # a pin stated after "pinned to"
    ("bleach is pinned to ~=3.3.", None, "REFUTED",
     "declared as bleach~=6.0 in requirements.txt, which excludes bleach~=3.3"),
    # named only in documentation: not used
    ("Records can be stored in MongoDB.", None, "REFUTED",
     "MongoDB is not used by the project: it is named only in docs/faq.rst"),
    ("Records are indexed in Elasticsearch for search.", None, "REFUTED",
     "named only in docs/search.rst (documentation or data, which is never a use)"),
    ("Errors are reported to Sentry.", None, "REFUTED", "named only in README.md"),
    # a package whose name is no English word is that package wherever it is named
    ("JSON responses are serialised with ujson.", None, "REFUTED",
     "ujson is not used by the project: it is named only in CHANGELOG.md"),
    ("Payloads are validated with marshmallow.", None, "ACTIVE",
     "marshmallow is mentioned only in CHANGELOG.md"),  # an English word: weak
    # a library declared only for development, claimed as the application's: none of the
    # application's code imports it
    ("Responses are cached with flask-caching.", None, "REFUTED",
     "flask_caching is not imported in gym"),
    # a product capitalised before a noun: that product
    ("The dashboard is a React app.", None, "REFUTED", "React is not used by the project"),
    ("The dashboard is a Vue app.", None, "VERIFIED", "frontend/package.json declares vue"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application")
    return git_repo


async def remembered(repo: GitRepo, text: str, anchors: list[str] | None) -> dict[str, Any]:
    return await remember_and_serve(repo.root, text, anchors)


@pytest.mark.parametrize(("text", "anchors", "status", "receipt"), NOTES)
async def test_what_the_application_says_decides_the_note(
    app_repo: GitRepo, text: str, anchors: list[str] | None, status: str, receipt: str
):
    served = await remembered(app_repo, text, anchors)
    assert served["status"] == status, served
    assert receipt in receipts(served), served
    if status == "VERIFIED":
        assert served["band"] == "assert", served


async def test_a_template_naming_a_technology_is_not_documentation(app_repo: GitRepo):
    """htmx is loaded by a page template: not an import, and not documentation either, so
    a note about it is neither VERIFIED nor REFUTED."""
    served = await remembered(app_repo, "The pages use htmx for partial updates.", None)
    assert served["status"] == "ACTIVE", served
    assert "htmx" in receipts(served), served


async def test_a_setup_py_that_computes_its_requirements_may_declare_any(app_repo: GitRepo):
    """``install_requires`` read from a file at build time: a package missing from the
    manifests read may still be declared, so neither its presence nor its absence is told."""
    served = await remembered(app_repo, "gym depends on flask.", None)
    assert served["status"] == "ACTIVE", served
    assert "setup.py may declare it" in receipts(served), served


async def test_a_setup_py_stub_declares_nothing(git_repo: GitRepo):
    """``setup()`` with the metadata in pyproject.toml: the manifests read are all there is,
    so a package none declares is not a dependency, either way the note puts it."""
    git_repo.commit({
        "setup.py": "from setuptools import setup\n\n# all is in pyproject.toml\nsetup()\n",
        "pyproject.toml": '[project]\nname = "blog"\ndependencies = ["werkzeug>=3"]\n',
        "blog/__init__.py": "import werkzeug\n",
    }, "a stub setup.py")  # fmt: skip
    absent = await remembered(git_repo, "blog doesn't depend on Flask.", None)
    assert absent["status"] == "VERIFIED", absent
    present = await remembered(git_repo, "blog depends on Flask.", None)
    assert present["status"] == "REFUTED", present
    assert "flask is not a declared dependency" in receipts(present), present


async def test_a_development_library_said_to_serve_the_tests_is_not_refuted(app_repo: GitRepo):
    served = await remembered(app_repo, "The test suite runs with flask-caching installed.", None)
    assert served["status"] != "REFUTED", served
    assert "is not imported in gym" not in receipts(served), served


async def test_a_number_after_a_settings_word_needs_its_section_named(app_repo: GitRepo):
    """"port 25" names no section: which file's port is meant cannot be told."""
    served = await remembered(app_repo, "The relay listens on port 25.", None)
    assert served["status"] == "ACTIVE", served
    assert "smtp.port" not in receipts(served), served


async def test_a_word_for_the_thing_is_not_its_value(app_repo: GitRepo):
    """"the media folder (MEDIA_ROOT)": "folder" names what the constant is, not what it
    holds, so it is never compared with ``/var/gym/media``."""
    served = await remembered(app_repo, "Uploads go to the media folder (MEDIA_ROOT).", None)
    assert served["status"] != "REFUTED", served
