"""Settings dicts' values and environment defaults read in several places (issue #31):
``remember`` then ``recall`` through the MCP client on a real git repository. A true value
is VERIFIED, a wrong one REFUTED with a receipt quoting the code, and one the code cannot
tell (a computed default beside another literal, a key two dicts hold, a duration whose
unit is unknown) keeps the note ACTIVE."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

APP = {
    "pyproject.toml": '[project]\nname = "shop"\nrequires-python = ">=3.11"\n',
    "shop/__init__.py": (
        'DEFAULT_SETTINGS = {\n    "retry_after_seconds": 3,\n    "project_name": "shop",\n}\n'
    ),
    "shop/core/__init__.py": (
        "DEFAULT_SETTINGS = {\n"
        '    "retry_after_seconds": 30,\n'
        '    "pagination_token_validity_seconds": 10 * 60,\n'
        '    "session_ttl": 10 * 60 * 1000,\n'
        "}\n"
    ),
    "shop/__main__.py": (
        "import os\n\n"
        'DEFAULT_CONFIG_FILE = os.getenv("SHOP_INI", "config/shop.ini")\n'
        'PORT = int(os.getenv("SHOP_PORT", "8000"))\n'
    ),
    "shop/config/__init__.py": (
        "import os\n\n\n"
        "def ini_path():\n"
        '    return os.environ.get("SHOP_INI", os.path.join(".", "config", "shop.ini"))\n\n\n'
        "def port():\n"
        '    return int(os.environ.get("SHOP_PORT", "8080"))\n'
    ),
}

# (note, the status served, text the receipts must hold)
CHECKED: list[tuple[str, str, str]] = [
    # an environment default read in two places
    ("The CLI reads its ini path from SHOP_INI and falls back to config/shop.ini.", "VERIFIED",
     '`SHOP_INI` defaults to `"config/shop.ini"` at shop/__main__.py:3; '
     "shop/config/__init__.py:5 computes its own"),
    ("SHOP_PORT defaults to 9000", "REFUTED",
     'shop/__main__.py:4 gives SHOP_PORT the default "8000", not 9000'),
    ("SHOP_PORT defaults to 8080", "VERIFIED",
     '`SHOP_PORT` defaults to `"8080"` at shop/config/__init__.py:9'),
    # a dict entry a named file sets
    ("The app overrides retry_after_seconds to 3 in shop/__init__.py", "VERIFIED",
     "`DEFAULT_SETTINGS.retry_after_seconds = 3` at shop/__init__.py:2"),
    ("The app overrides retry_after_seconds to 5 in shop/__init__.py", "REFUTED",
     "shop/__init__.py:2 sets DEFAULT_SETTINGS.retry_after_seconds = 3, not 5"),
    # a key named alone, its arithmetic folded, the duration in the key's unit
    ("Pagination tokens stay valid for 10 minutes (pagination_token_validity_seconds).",
     "VERIFIED",
     "`DEFAULT_SETTINGS.pagination_token_validity_seconds = 10 * 60` at shop/core/__init__.py:3"),
    ("Pagination tokens stay valid for 5 minutes (pagination_token_validity_seconds).",
     "REFUTED",
     "shop/core/__init__.py:3 sets DEFAULT_SETTINGS.pagination_token_validity_seconds = "
     "10 * 60, not 300"),
]  # fmt: skip

# (note, what the memory says is left unchecked or why it cannot tell)
UNCHECKED: list[tuple[str, str]] = [
    # another literal, while the other read site computes its default
    ("The CLI reads its ini path from SHOP_INI and falls back to config/other.ini.",
     "shop/config/__init__.py:5 computes SHOP_INI default, and shop/__main__.py:3 gives "
     '"config/shop.ini"; cannot tell whether it is config/other.ini'),
    # two dicts hold the key and no file is named
    ("Clients are told to retry after 5 seconds (retry_after_seconds).",
     "inconclusive: no checkable anchor"),
    # ten minutes in milliseconds: the key's unit cannot be told, so the true note is not
    # compared as 600
    ("Sessions last 10 minutes (`session_ttl`).", "inconclusive: no checkable anchor"),
]  # fmt: skip


@pytest.fixture
def app_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(APP, "an application with settings dicts")
    return git_repo


@pytest.mark.parametrize(("text", "status", "receipt"), CHECKED)
async def test_a_settings_value_is_verified_or_refuted_with_the_code_quoted(
    app_repo: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == status, served
    assert receipt in receipts(served), served


@pytest.mark.parametrize(("text", "why"), UNCHECKED)
async def test_a_value_the_code_cannot_tell_keeps_the_note_active(
    app_repo: GitRepo, text: str, why: str
) -> None:
    served = await remember_and_serve(app_repo.root, text)
    assert served["status"] == "ACTIVE", served
    assert why in said(served), served
