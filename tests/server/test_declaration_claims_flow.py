"""What a note says of a package's declaration and role (issue #31), through MCP
``remember`` + ``recall`` on a real git repository: a run-time role denied ("Sphinx is not
a runtime requirement", "pytest-asyncio is only a test extra, not a runtime dependency"),
a negation said of the backend ("the backend doesn't use GitPython"), one manifest named
("bleach is listed in requirements_dev.txt", "Sphinx was removed from requirements.txt"),
a framework's version ("we are on Django 4.2"), a pin said after other words, and an upper
bound in words ("urllib3>=1.21 and below 3")."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

FILES = {
    "pyproject.toml": (
        '[project]\nname = "shop"\n'
        'dependencies = ["django~=4.2", "pexpect>=4", "urllib3>=1.21.1,<3"]\n'
        "[project.optional-dependencies]\n"
        'test = ["pytest-asyncio", "pytest"]\ndocs = ["sphinx"]\n'
    ),
    "requirements.txt": "django~=4.2\nbleach==6.1.0\ndjango-environ==0.9.0\n",
    "requirements_dev.txt": "pytest\nblack\n",
    "shop/__init__.py": "",
    "shop/shell.py": "import pexpect\n",
    "shop/views.py": "import django\nimport environ\nimport bleach\n\nenv = environ.Env()\n",
    "tests/test_views.py": "import pytest\nimport pytest_asyncio\n",
    ".gitignore": "*.pyc\n.git-credentials\n",
    ".copier-answers.yml": "_src_path: gh:org/template\nvcs: git\n",
}

# (note, the status served, words the served reasons hold)
CLAIMS: list[tuple[str, str, str]] = [
    # a run-time role denied: checked by the code that runs and what is declared to run
    ("Sphinx is not a runtime requirement.", "VERIFIED", "sphinx is not imported in shop"),
    ("pytest-asyncio is only a test extra, not a runtime dependency.", "VERIFIED",
     "pytest-asyncio is declared in pyproject.toml"),
    ("pexpect is only a dev dependency.", "REFUTED", "pexpect is declared in pyproject.toml"),
    ("Django is not a runtime dependency any more.", "REFUTED", "imported by shop/views.py"),
    ("celery was removed from the runtime dependencies.", "VERIFIED",
     "celery is not imported in shop"),
    ("Django was dropped from the core dependencies.", "REFUTED", "imported by shop/views.py"),
    # the server side's negation: its Python code and its run-time declarations
    ("The backend doesn't use GitPython; it shells out to git.", "VERIFIED",
     "no file imports git"),
    ("The backend no longer uses pexpect.", "REFUTED", "imported by shop/shell.py"),
    # one manifest named: its declarations alone
    ("bleach is listed in requirements.txt.", "VERIFIED", "bleach is declared in requirements.txt"),
    ("bleach is declared in requirements_dev.txt.", "REFUTED",
     "bleach is not declared in requirements_dev.txt (declared in requirements.txt)"),
    ("Sphinx was removed from requirements.txt.", "VERIFIED",
     "sphinx is not declared in requirements.txt"),
    ("We removed bleach from requirements.txt.", "REFUTED",
     "bleach is declared in requirements.txt"),
    # a framework's version is its package's
    ("The shop is on Django 4.2.", "VERIFIED", "django~=4.2 is satisfied"),
    ("The shop is on Django 3.2.", "REFUTED", "excludes django==3.2.*"),
    # a pin said after other words, and an upper bound in words
    ("We use django-environ (environ.Env), pinned to 0.9.0.", "VERIFIED",
     "django-environ==0.9.0 is satisfied"),
    ("We use django-environ (environ.Env), pinned to 0.8.1.", "REFUTED",
     "excludes django-environ==0.8.1"),
    ("We require urllib3>=1.21 and below 3.", "VERIFIED", "urllib3>=1.21,<3 is satisfied"),
    ("We require urllib3>=1.21 and below 2.", "REFUTED", "the upper bound is 3, not 2"),
]  # fmt: skip


@pytest.fixture
def shop(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(FILES, "an application with run-time and development declarations")
    return git_repo


@pytest.mark.parametrize(("text", "status", "reason"), CLAIMS)
async def test_a_declarations_role_place_and_version_are_checked(
    shop: GitRepo, text: str, status: str, reason: str
) -> None:
    served = await remember_and_serve(shop.root, text)
    assert served["status"] == status, served
    assert reason in said(served), served


async def test_an_import_name_in_configuration_files_is_no_use_of_the_package(
    shop: GitRepo,
) -> None:
    """"git" in ``.gitignore`` and a template's answers is not GitPython (imported as
    ``git``): a true "we don't use GitPython" is not refuted by it."""
    served = await remember_and_serve(shop.root, "We don't use GitPython.")
    assert served["status"] == "VERIFIED", served


async def test_a_role_denied_of_a_package_only_tests_import_inside_the_package_stays_open(
    git_repo: GitRepo,
) -> None:
    """Tests inside the application's package import it: no absent import anchor can say
    "the code that runs does not", so the negation is left unchecked, never VERIFIED."""
    git_repo.commit({"pyproject.toml": '[project]\nname = "app"\n', "app/__init__.py": "",
                     "app/tests/test_a.py": "import respx\n"}, "tests inside the package")
    served = await remember_and_serve(git_repo.root, "respx is only used in tests.")
    assert served["status"] == "ACTIVE", served


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("tokio is only a dev-dependency.", "VERIFIED"),
        ("tokio is not a runtime dependency.", "VERIFIED"),
        ("serde is only a dev-dependency.", "REFUTED"),
    ],
)
async def test_a_crates_role_is_its_declarations(
    git_repo: GitRepo, text: str, status: str
) -> None:
    """tokio in ``[dev-dependencies]``, imported by a test: "only a dev-dependency" holds
    on the declaration (no Python reading of a test's import refutes it); serde is
    declared for run time."""
    git_repo.commit({
        "Cargo.toml": '[package]\nname = "sub"\nversion = "0.1.0"\n\n[dependencies]\n'
                      'serde = "1"\n\n[dev-dependencies]\ntokio = "1"\n',
        "src/lib.rs": "use serde::Serialize;\npub fn f() {}\n",
        "tests/run.rs": "use tokio::runtime::Runtime;\n",
    }, "a crate")  # fmt: skip
    served = await remember_and_serve(git_repo.root, text)
    assert served["status"] == status, served
