"""Notes phrased the way agents write them, through ``remember`` and ``recall`` on a real git
repository: the exact anchors each note gets, and the status it is served with.

One table per failure pattern of issue #10: ordinary words in the subject phrase, half-checked
claims, names the code lacks (packages, paths, systems), sub-project dependencies, negations
without anchors, absent expectations on ordinary words, alternatives that are not uses.
The repository is a small shop with a payment gateway, a click CLI, DuckDB storage, a docs
sub-project on Sphinx, an example app on flask, a Dockerfile, a GitHub Actions workflow that
uploads to Codecov and a tox.ini that runs flake8; Celery and Sentry are mentioned only in
the docs and the README, ujson only in a changelog and msgpack only in a lock file.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.anchors.test_verify_on_read import recall_one
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import remember_full

pytestmark = pytest.mark.anyio

SHOP = {
    "pyproject.toml": (
        '[project]\nname = "shop"\nversion = "1.0"\nrequires-python = ">=3.10"\n'
        'dependencies = ["httpx", "duckdb>=1.0", "click", "pyyaml", "tenacity>=3.1.0"]\n'
        '[project.optional-dependencies]\ntest = ["pytest", "responses"]\n'
    ),
    "shop/__init__.py": "",
    "shop/gateway.py": (
        "import os\n\nimport httpx\nimport tenacity\n\n\n"
        "def charge(amount):\n    key = os.environ['PAYMENT_KEY']\n"
        "    return httpx.post('/charge', json=amount, headers={'key': key})\n\n\n"
        "class Gateway:\n    def pay(self, amount):\n        return charge(amount)\n"
    ),
    "shop/models.py": (
        "import decimal\n\n\nclass Order:\n    def total(self):\n"
        "        return decimal.Decimal('1.00')\n"
    ),
    "shop/handler.py": "def handle(request):\n    return request\n",
    "shop/cli.py": "import click\n\n\n@click.command()\ndef main():\n    pass\n",
    "shop/store.py": "import duckdb\n\n\ndef connect():\n    return duckdb.connect()\n",
    "shop/config.py": "import yaml\n\n\ndef load(path):\n    return yaml.safe_load(path)\n",
    "tests/__init__.py": "",
    "tests/test_gateway.py": "import pytest\nimport responses\n\n\ndef test_x():\n    pass\n",
    "docs/requirements.txt": "sphinx>=7\n",
    "docs/index.md": "# Shop\n\nWe considered Celery for background jobs and decided against it.\n",
    "examples/flask_app/requirements.txt": "flask\n",
    "examples/flask_app/app.py": "import flask\n\napp = flask.Flask(__name__)\n",
    "Dockerfile": "FROM python:3.12-slim\nCOPY . /app\n",
    ".github/workflows/ci.yml": (
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: tox\n      - uses: codecov/codecov-action@v4\n"
    ),
    "tox.ini": "[tox]\nenvlist = py312\n[testenv:lint]\ncommands = flake8 shop\n",
    "README.md": "# Shop\n\nA small shop. Errors may one day be reported to Sentry.\n",
    "CHANGELOG.md": "# Changes\n\n## 0.9\n\n- Dropped ujson: the standard json is enough.\n",
    "uv.lock": '[[package]]\nname = "msgpack"\nversion = "1.0.8"\n',
}

VERIFIED, ACTIVE, REFUTED = "VERIFIED", "ACTIVE", "REFUTED"
R = pytest.param
# (note, remember's extra arguments, the exact anchors stored, the status recall serves)
SUBJECT_WORDS = [
    R("The payment gateway uses braintree", {}, {"tech:braintree"}, REFUTED,
      id="gateway-is-a-word-braintree-is-the-claim-and-absent"),
    # A component named by words is checked where a file of that name imports the package;
    # where none does, the relation is left unchecked (ACTIVE), never VERIFIED project-wide.
    R("The payment gateway talks to the API with httpx", {}, {"import:httpx@shop/gateway.py"},
      VERIFIED, id="gateway-is-a-word-httpx-holds"),
    R("The request handler retries with tenacity", {}, {"tech:tenacity"}, ACTIVE,
      id="request-and-handler-are-words"),
    R("The handler logs every request", {}, set(), ACTIVE, id="only-words-no-anchor"),
    R("Order models are stored in DuckDB", {}, {"tech:duckdb"}, VERIFIED,
      id="models-is-a-word"),
    R("The gateway module uses httpx", {}, {"import:httpx@shop/gateway.py"}, VERIFIED,
      id="a-module-noun-makes-the-word-a-scope"),
    R("The CLI module uses httpx", {}, {"import:httpx@shop/cli.py"}, REFUTED,
      id="present-trap-in-a-scoped-module"),
    R("The models module rounds totals with babel", {}, {"import:babel@shop/models.py"},
      REFUTED, id="scoped-package-the-module-lacks"),
]
HALF_CHECKED = [
    R("`Order.total` rounds with the decimal module via babel", {},
      {"symbol:shop/models.py::Order.total", "import:decimal@shop/models.py", "tech:babel"},
      REFUTED,
      id="real-symbol-real-module-absent-package"),
    R("`charge` posts with httpx and signs requests with pynacl", {},
      {"symbol:shop/gateway.py::charge", "import:httpx@shop/gateway.py", "tech:pynacl"},
      REFUTED,
      id="real-symbol-real-package-absent-package"),
    R("The CLI is built on click and zorbcli", {}, {"tech:click"}, ACTIVE,
      id="an-untyped-name-keeps-the-note-from-verified"),
    R("The CLI is built on click", {}, {"tech:click"}, VERIFIED,
      id="an-ordinary-word-package-in-a-usage-slot"),
    # the method exists; what it does is not checked by that
    R("`Gateway.pay` retries failed charges", {}, {"symbol:shop/gateway.py::Gateway.pay"},
      ACTIVE, id="a-method-that-exists"),
]
ABSENT_NAMES = [
    R("We use falcon for the HTTP API", {}, {"tech:falcon"}, REFUTED, id="absent-package"),
    R("Payloads are decoded with msgspec", {}, {"tech:msgspec"}, REFUTED,
      id="absent-package-passive"),
    R("The ORM is tortoise-orm", {}, {"tech:tortoise-orm"}, REFUTED,
      id="absent-hyphenated-package"),
    R("We use structlog for logging", {}, {"tech:structlog"}, REFUTED,
      id="absent-logging-package"),
    R("The router lives in shop/routing.py", {}, {"file:shop/routing.py"}, REFUTED,
      id="absent-path"),
    R("The release process is documented in RELEASING.md", {}, {"file:RELEASING.md"}, REFUTED,
      id="absent-bare-file-name"),
    R("Tokens are checked in `shop/auth.py::verify_token`", {},
      {"symbol:shop/auth.py::verify_token"}, REFUTED, id="absent-path-symbol"),
    R("`shop.models.Invoice` renders PDFs", {}, {"symbol:shop/models.py::Invoice"}, REFUTED,
      id="absent-qualified-name-whose-module-exists"),
    # the class exists; what it holds is not checked (anchors.code_relations)
    R("`shop.models.Order` holds the line items", {}, {"symbol:shop/models.py::Order"},
      ACTIVE, id="dotted-qualified-name-that-exists"),
    R("`shop.models.Order` is defined in shop/models.py", {},
      {"symbol:shop/models.py::Order", "file:shop/models.py"}, VERIFIED,
      id="dotted-qualified-name-where-it-is-defined"),
    R("Orders are priced by compute_discount in shop/models.py", {},
      {"file:shop/models.py", "symbol:shop/models.py::compute_discount"}, REFUTED,
      id="a-function-the-file-lacks"),
    R("Releases are deployed with Pulumi", {}, {"tech:pulumi"}, REFUTED, id="absent-system"),
    R("Metrics go to Datadog", {}, {"tech:datadog"}, REFUTED, id="absent-observability"),
    R("Mail is sent through SendGrid", {}, {"tech:sendgrid"}, REFUTED, id="absent-provider"),
    R("Secrets live in HashiCorp Vault", {}, {"tech:hashicorp-vault"}, REFUTED,
      id="absent-multi-word-system"),
    R("The service reads its key from STRIPE_SECRET_KEY", {},
      {"env:STRIPE_SECRET_KEY"}, REFUTED, id="absent-env-name-said-to-be-read"),
    R("The gateway reads PAYMENT_KEY", {}, {"env:PAYMENT_KEY"}, VERIFIED,
      id="env-name-that-is-read"),
    R("We use zorbdb for caching", {}, set(), ACTIVE, id="an-untyped-name-gets-no-anchor"),
]
PRESENT_SYSTEMS = [
    R("The app ships as a Docker image", {}, {"tech:docker"}, VERIFIED, id="footprint-file"),
    # Compose is its own: a Dockerfile is no compose file
    R("We run the shop locally with docker-compose", {}, {"tech:docker-compose"}, REFUTED,
      id="compose-is-not-a-dockerfile"),
    R("There is no docker-compose setup", {}, {"!tech:docker-compose"}, VERIFIED,
      id="no-compose-beside-a-dockerfile"),
    R("CI runs on GitHub Actions", {}, {"tech:github-actions"}, VERIFIED,
      id="footprint-directory"),
    R("Coverage is uploaded to Codecov", {}, {"tech:codecov"}, VERIFIED,
      id="named-in-a-workflow"),
    R("Linting uses flake8", {}, {"tech:flake8"}, VERIFIED, id="named-in-tox-ini"),
    # The docs, the README and a changelog say what was considered, hoped for or dropped:
    # a technology named only there is not used
    R("Background jobs run on Celery", {}, {"tech:celery"}, REFUTED,
      id="mentioned-only-in-docs-is-not-a-use"),
    R("Errors are reported to Sentry", {}, {"tech:sentry"}, REFUTED,
      id="mentioned-only-in-the-readme-is-not-a-use"),
    # A lock file says what a resolver pulled in; a package whose name is no English word,
    # named only in a changelog, is not used
    R("Responses are serialised with ujson", {}, {"tech:ujson"}, REFUTED,
      id="a-package-named-only-in-a-changelog-is-not-a-use"),
    R("Cache entries are packed with msgpack", {}, {"tech:msgpack"}, REFUTED,
      id="named-only-in-a-lock-file-is-not-used"),
    R("We no longer use ujson", {}, {"!tech:ujson"}, VERIFIED,
      id="a-changelog-mention-keeps-a-negation-true"),
    R("Config is loaded with PyYAML", {}, {"tech:pyyaml"}, VERIFIED,
      id="distribution-name-of-an-import"),
    R("HTTP calls go through httpx", {}, {"tech:httpx"}, VERIFIED, id="plain-use"),
]
SUBPROJECTS = [
    R("We use flask", {}, {"tech:flask"}, ACTIVE, id="used-only-in-an-example-app"),
    R("flask is a declared dependency", {}, {"dep:flask"}, ACTIVE,
      id="declared-only-in-an-example-requirements-file"),
    R("We use sphinx", {}, {"tech:sphinx"}, ACTIVE, id="declared-only-in-docs-requirements"),
    R("The docs are built with Sphinx", {}, {"tech:sphinx@docs"}, VERIFIED,
      id="a-note-about-the-docs-is-scoped-to-them"),
    R("Tests run with pytest and the responses package", {},
      {"tech:pytest@tests", "dep:responses"}, VERIFIED,
      id="a-note-about-the-tests-is-scoped-to-them"),
    # an ordinary word that is also a package, after "with": the package where the
    # subject imports it (the tests do import responses)
    R("Tests run with pytest and responses", {}, {"tech:pytest@tests", "import:responses@tests"},
      VERIFIED, id="an-ordinary-word-package-after-with-is-the-package-where-imported"),
    R("We don't use flask", {}, {"!tech:flask"}, VERIFIED,
      id="absence-holds-when-only-an-example-uses-it"),
]
NEGATIONS = [
    R("Redis was dropped from the dependencies", {}, {"!tech:redis"}, VERIFIED,
      id="dropped-from-the-dependencies-is-not-narrowed"),
    R("We don't use celery anywhere", {}, {"!tech:celery"}, VERIFIED,
      id="a-prose-mention-is-not-a-use"),
    R("httpx was dropped", {}, {"!tech:httpx"}, REFUTED, id="false-removal"),
    R("We no longer use click", {}, {"!tech:click"}, REFUTED, id="false-no-longer"),
    R("We stopped using requests", {}, {"!tech:requests"}, VERIFIED, id="true-stopped"),
    R("There is no Redis anywhere", {}, {"!tech:redis"}, VERIFIED, id="there-is-no"),
    R("We never import yaml", {}, {"!import:yaml"}, REFUTED, id="false-never-import"),
    R("We use httpx instead of requests", {}, {"tech:httpx", "!tech:requests"}, VERIFIED,
      id="instead-of"),
    R("We moved from webpack to Vite", {}, {"!tech:webpack", "tech:vite"}, REFUTED,
      id="the-replacement-is-checked-too"),
]
PYTHON_VERSIONS = [
    R("The shop requires Python 3.10 or newer", {}, {"dep:python>=3.10"}, VERIFIED,
      id="requires-python-as-declared"),
    R("The shop still supports Python 3.8", {}, {"dep:python~=3.8.0"}, REFUTED,
      id="a-python-series-the-project-excludes"),
    R("Python 3.9 support was dropped", {}, {"!dep:python==3.9.*"}, VERIFIED,
      id="dropped-python-support"),
    R("We test on Python 3.12", {}, {"dep:python==3.12.*"}, ACTIVE,
      id="a-series-inside-an-open-range-cannot-be-told"),
]
ORDINARY_WORDS = [
    R("Unverified accounts are deleted after 7 days", {}, set(), ACTIVE,
      id="accounts-is-no-absent-anchor"),
    R("Commit signing is not required", {}, set(), ACTIVE, id="signing-required-are-words"),
    R("Guest checkout is not supported", {}, set(), ACTIVE, id="checkout-is-a-word"),
    R("We don't cache sessions", {}, set(), ACTIVE, id="sessions-is-a-word"),
    R("We squash-merge pull requests", {}, set(), ACTIVE, id="a-team-habit"),
]
NOT_A_USE = [
    R("We chose DuckDB over PostgreSQL for analytics", {}, {"tech:duckdb"}, VERIFIED,
      id="the-rejected-alternative-is-no-claim"),
    R("Our HTTP client API is compatible with requests", {}, set(), ACTIVE,
      id="compatible-with-is-no-use"),
    R("We might move to Kafka", {}, set(), ACTIVE, id="a-plan"),
    R("My friend's project uses Celery", {}, set(), ACTIVE, id="someone-elses-code"),
    R("Secrets live in HashiCorp Vault", {"scope": "external"}, set(), ACTIVE,
      id="a-note-about-infrastructure-opts-out"),
]
ALL = (SUBJECT_WORDS + HALF_CHECKED + ABSENT_NAMES + PRESENT_SYSTEMS + SUBPROJECTS + NEGATIONS
       + PYTHON_VERSIONS + ORDINARY_WORDS + NOT_A_USE)  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("shop"))
    repo.commit(SHOP, "the shop")
    return repo


def test_the_table_covers_at_least_sixty_phrasings() -> None:
    assert len(ALL) >= 60


@pytest.mark.parametrize(("text", "extra", "anchors", "status"), ALL)
async def test_a_note_gets_exactly_its_anchors_and_is_served_with_its_status(
    shop: GitRepo, tmp_path: Any, text: str, extra: dict[str, Any], anchors: set[str],
    status: str,
) -> None:  # fmt: skip
    settings = Settings.resolve(
        repo=str(shop.root), db=str(tmp_path / "memory.duckdb"),
        env=settings_env(ANCHORMEM_VERIFY_BUDGET_MS="30000"),
    )  # fmt: skip
    async with Client(build_server(settings)) as client:
        made = await remember_full(client, text=text, **extra)
        assert {a["anchor"] for a in made["anchors"]} == anchors
        seen = await recall_one(client, text, made["id"])
    assert seen["status"] == status, seen["anchors"]
    if status == REFUTED:
        assert seen["refuted_by"] == "code"
    if status != VERIFIED:
        assert seen["band"] != "assert"


async def test_remember_says_which_names_it_could_not_type_and_how_to_anchor_them(
    shop: GitRepo, tmp_path: Any
) -> None:
    settings = Settings.resolve(repo=str(shop.root), db=str(tmp_path / "memory.duckdb"))
    async with Client(build_server(settings)) as client:
        made = await remember_full(client, text="Sessions are cached in zorbdb")
        refuted = await remember_full(client, text="Metrics go to Datadog")
    # What was not anchored, and why, in one line each: "candidate: reason (detail)".
    [untyped] = [d for d in made["dropped"] if d.startswith("zorbdb: ")]
    assert untyped.startswith("zorbdb: untyped (") and "pass an anchor" in untyped
    assert "uncovered" in made["flags"] and made["status"] == "ACTIVE"
    # The refutation says what was searched, at which commit, and how to opt out.
    assert refuted["status"] == "REFUTED"
    reason = refuted["receipt"]["reason"]
    assert "datadog" in reason.lower() and shop.head()[:12] in reason
    assert "scope 'external'" in reason


async def test_depends_on_a_test_only_requirement_is_refuted(
    shop: GitRepo, tmp_path: Any
) -> None:
    settings = Settings.resolve(repo=str(shop.root), db=str(tmp_path / "memory.duckdb"))
    async with Client(build_server(settings)) as client:
        made = await remember_full(client, text="The shop depends on responses")
        runtime = await remember_full(client, text="The shop depends on httpx")
    # responses is an optional test extra: the declaration holds, but the shop's package
    # imports none of it, so the shop does not depend on it as it runs
    assert [a["anchor"] for a in made["anchors"]] == ["import:responses@shop", "dep:responses"]
    assert made["status"] == "REFUTED" and "uncovered" in made["flags"]
    assert "responses is not imported in shop" in str(made["anchors"])
    assert runtime["status"] == "VERIFIED"


async def test_a_python_version_claim_is_unknown_where_no_versions_are_declared(
    tmp_path: Any,
) -> None:
    (tmp_path / "bare").mkdir()
    repo = GitRepo(tmp_path / "bare")
    repo.commit({"pyproject.toml": '[project]\nname = "x"\ndependencies = []\n', "x.py": ""})
    settings = Settings.resolve(repo=str(repo.root), db=str(tmp_path / "memory.duckdb"))
    async with Client(build_server(settings)) as client:
        made = await remember_full(client, text="We upgraded to Python 3.12")
    assert [a["anchor"] for a in made["anchors"]] == ["dep:python==3.12.*"]
    assert made["status"] == "ACTIVE"
    assert made["anchors"][0]["verdict"] == "unknown"
