"""Value anchors (issue #31, adr/0025): the literal values of constants and environment
defaults read from Python, compared with a stated value as typed values, the anchor
syntax that states them, and the values prose binds to a name."""

from __future__ import annotations

import json

import pytest

from anchors.extract import infer_anchors
from anchors.facts import FileFacts, Fingerprint, ValueFact
from anchors.fingerprint import facts_from_json, facts_to_json
from anchors.literals import EMPTY, mentioned_within, same_value
from anchors.pyfacts import extract_file_facts
from anchors.spec import Anchor, AnchorKind, AnchorSyntaxError, parse_anchor
from anchors.value_claims import values_stated_by
from anchors.verdicts import Verdict
from anchors.verify import check_anchor

PAGING = b"""\
MAX_PAGE_SIZE = 100
MAX_RETRIES: int = 3
OFFSET = -1
RATIO = 0.5
NAME = 'shop'
NOTHING = None
CACHE_TTL = 60 * 60
WORKERS = compute()


class Paging:
    LIMIT = 50

    def clamp(self):
        LOCAL = 7
        return LOCAL


def helper():
    INNER = 9
"""

SETTINGS = b"""\
import os
from os import getenv

PAGE_SIZE = int(os.environ.get("PAGE_SIZE", "20"))
DEBUG = os.environ.get("DEBUG", "false") == "true"
TIMEOUT = getenv("TIMEOUT", 30)
REGION = os.getenv("REGION", default="eu")
SECRET = os.environ["SECRET"]
HOST = os.getenv("HOST")
os.environ.setdefault("LOG_FORMAT", "json")
PORT = os.getenv("PORT", str(8000))
"""

PYDANTIC = b"""\
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SHOP_")
    log_level: str = "info"
    pool_size: int = Field(5, ge=1)
    batch: int = Field(default=64)
    database_url: str
"""


def _values(found: tuple[ValueFact, ...]) -> dict[str, str | None]:
    return {v.name: v.text for v in found}


def test_module_and_class_constants_keep_their_literal_and_computed_ones_none():
    facts = extract_file_facts(PAGING)
    assert _values(facts.constants) == {
        "MAX_PAGE_SIZE": "100", "MAX_RETRIES": "3", "OFFSET": "-1", "RATIO": "0.5",
        "NAME": "'shop'", "NOTHING": "None", "CACHE_TTL": "60 * 60", "WORKERS": None,
        "Paging.LIMIT": "50",
    }  # fmt: skip
    assert [v.line for v in facts.constants if v.name == "Paging.LIMIT"] == [12]


MODELS = b"""\
from dataclasses import dataclass, field

import attr
from pydantic import BaseModel, Field


class ServerConfig(BaseModel):
    BIND_ADDR: str = Field(default="127.0.0.1:5797")
    PER_PAGE: int = Field(50, ge=1)
    ADMIN: str | None = Field(default=None)
    SECRET: str = Field(default_factory=make_secret)


@dataclass
class Retry:
    attempts: int = field(default=3)
    codes: list = field(default_factory=list)


@attr.s
class Pool:
    size = attr.ib(default=8)
"""


def test_a_model_field_keeps_the_default_it_is_declared_with():
    """pydantic's ``Field``, dataclasses' ``field`` and attrs' ``attr.ib``: the declared
    default is the class attribute's value; a factory is computed."""
    facts = extract_file_facts(MODELS)
    assert _values(facts.constants) == {
        "ServerConfig.BIND_ADDR": '"127.0.0.1:5797"', "ServerConfig.PER_PAGE": "50",
        "ServerConfig.ADMIN": "None", "ServerConfig.SECRET": None,
        "Retry.attempts": "3", "Retry.codes": None, "Pool.size": "8",
    }  # fmt: skip


def test_environment_defaults_through_get_getenv_setdefault_and_wrappers():
    facts = extract_file_facts(SETTINGS)
    assert _values(facts.env_defaults) == {
        "PAGE_SIZE": '"20"', "DEBUG": '"false"', "TIMEOUT": "30", "REGION": '"eu"',
        "LOG_FORMAT": '"json"', "PORT": None,
    }  # fmt: skip
    assert {"SECRET", "HOST"} <= set(facts.env_reads)  # read, with no default


def test_a_settings_class_reads_its_fields_from_the_environment_with_their_defaults():
    facts = extract_file_facts(PYDANTIC)
    assert _values(facts.env_defaults) == {
        "SHOP_LOG_LEVEL": '"info"', "SHOP_POOL_SIZE": "5", "SHOP_BATCH": "64",
    }  # fmt: skip
    assert "SHOP_DATABASE_URL" in facts.env_reads


def test_values_survive_the_facts_cache_and_older_entries_are_read_again():
    facts = extract_file_facts(PAGING + SETTINGS)
    assert facts_from_json(facts_to_json(facts)) == facts
    older = json.loads(facts_to_json(FileFacts()))
    del older["fv"]
    with pytest.raises(ValueError, match="another version"):
        facts_from_json(json.dumps(older))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("100", "100.0", True), ('"20"', "20", True), ("'20'", "20.5", False),
        ("True", "true", True), ("'false'", "False", True), ("True", "1", False),
        ("'json'", "json", True), ("`json`", '"json"', True), ("'INFO'", "info", True),
        ("None", "null", True), ("'None'", "None", False), ("-1", "-1.0", True),
        ("1_000", "1000", True), ("'eu'", "us", False), ("0", "False", False),
        # a flag in words, and an empty value whatever empty literal the code writes
        ("on", "True", True), ("'off'", "False", True), ("enabled", "'true'", True),
        ("yes", "False", False), (EMPTY, '""', True), (EMPTY, "[]", True),
        (EMPTY, "set()", True), (EMPTY, "'image_ssim_diff'", False), (EMPTY, "None", False),
        ("'127.0.0.1:5797'", "127.0.0.1:5797", True), ("'0.0.0.0'", "127.0.0.1", False),
        # Go's durations, in seconds; a string that spells one is a string
        ("5 * time.Second", "5", True), ("time.Minute * 2", "120", True),
        ("time.Hour", "3600", True), ("500 * time.Millisecond", "0.5", True),
        ('"5 * time.Second"', "5", False),
    ],
)  # fmt: skip
def test_values_are_compared_as_typed_values(a: str, b: str, same: bool):
    assert same_value(a, b) is same
    assert same_value(b, a) is same


@pytest.mark.parametrize(
    ("code", "stated", "named"),
    [
        ('"redis://localhost:6379/0"', "redis", True),
        ('"127.0.0.1:5797"', "127.0.0.1", True),
        ('"sqlite:///app.db"', "sqlite", True),
        ('"redis"', "redis", False),  # the same value: compared, not "named within"
        ('"postgres://db/app"', "mysql", False),
        ("8000", "8000", False),
    ],
)
def test_a_longer_literal_that_holds_the_stated_word_is_not_told_apart(
    code: str, stated: str, named: bool
):
    assert mentioned_within(code, stated) is named


@pytest.mark.parametrize(
    "text",
    ["symbol:app/paging.py::MAX_PAGE_SIZE=100", "symbol:MAX_RETRIES=3",
     "symbol:app/paging.py::Paging.LIMIT='50'", "env:PAGE_SIZE=20", 'env:REGION="eu west"'],
)  # fmt: skip
def test_value_anchors_parse_and_render_back(text: str):
    anchor = parse_anchor(text)
    assert anchor.stated is not None
    assert parse_anchor(anchor.render()) == anchor


def test_a_value_anchor_keeps_its_thing_and_its_value_apart():
    anchor = parse_anchor("symbol:app/paging.py::MAX_PAGE_SIZE = 100")
    assert (anchor.scope, anchor.value, anchor.stated) == ("app/paging.py", "MAX_PAGE_SIZE", "100")
    assert parse_anchor("dep:django>=4.2").stated is None  # a version, not a value


@pytest.mark.parametrize("text", ["!env:PAGE_SIZE=20", "env:PAGE_SIZE=", "symbol:a.py::X= "])
def test_malformed_value_anchors_are_refused(text: str):
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(text)


FP = Fingerprint(
    "1" * 40,
    {"app/paging.py": "p", "app/settings.py": "s", "app/config.py": "c", "README.md": "r"},
    {
        "app/paging.py": extract_file_facts(PAGING, "app/paging.py"),
        "app/settings.py": extract_file_facts(SETTINGS, "app/settings.py"),
        "app/config.py": extract_file_facts(PYDANTIC, "app/config.py"),
    },
)


@pytest.mark.parametrize(
    ("text", "verdict", "detail"),
    [
        ("symbol:app/paging.py::MAX_PAGE_SIZE=100", Verdict.HOLDS,
         "`MAX_PAGE_SIZE = 100` at app/paging.py:1"),
        ("symbol:app/paging.py::MAX_PAGE_SIZE=500", Verdict.BROKEN,
         "app/paging.py:1 sets MAX_PAGE_SIZE = 100, not 500"),
        ("symbol:app/paging.py::Paging.LIMIT=50.0", Verdict.HOLDS,
         "`Paging.LIMIT = 50` at app/paging.py:12"),
        ("symbol:MAX_RETRIES=3", Verdict.HOLDS, "`MAX_RETRIES = 3` at app/paging.py:2"),
        ("symbol:app/paging.py::CACHE_TTL=3600", Verdict.HOLDS,
         "`CACHE_TTL = 60 * 60` at app/paging.py:7"),  # arithmetic of literals, folded
        ("symbol:app/paging.py::WORKERS=4", Verdict.UNKNOWN,
         "app/paging.py:8 computes WORKERS; cannot tell whether it is 4"),
        ("symbol:app/paging.py::helper=1", Verdict.UNKNOWN,
         "app/paging.py defines helper, which is not a value; cannot tell"),
        ("symbol:app/paging.py::INNER=9", Verdict.BROKEN, "app/paging.py does not assign INNER"),
        ("symbol:README.md::X=1", Verdict.UNKNOWN,
         "README.md is not source code the fingerprint reads"),
        ("env:PAGE_SIZE=20", Verdict.HOLDS, '`PAGE_SIZE` defaults to `"20"` at app/settings.py:4'),
        ("env:PAGE_SIZE=50", Verdict.BROKEN,
         'app/settings.py:4 gives PAGE_SIZE the default "20", not 50'),
        ("env:DEBUG=False", Verdict.HOLDS, '`DEBUG` defaults to `"false"` at app/settings.py:5'),
        ("env:DEBUG=True", Verdict.BROKEN,
         'app/settings.py:5 gives DEBUG the default "false", not True'),
        ("env:SHOP_POOL_SIZE=5", Verdict.HOLDS,
         "`SHOP_POOL_SIZE` defaults to `5` at app/config.py:8"),
        ("env:SHOP_LOG_LEVEL=debug", Verdict.BROKEN,
         'app/config.py:7 gives SHOP_LOG_LEVEL the default "info", not debug'),
        ("env:PORT=8000", Verdict.UNKNOWN,
         "app/settings.py:11 computes PORT default; cannot tell whether it is 8000"),
        ("env:SECRET=x", Verdict.UNKNOWN,
         "SECRET is read in app/settings.py with no default; cannot tell whether it defaults to x"),
    ],
)  # fmt: skip
def test_a_value_anchor_holds_on_the_same_value_and_breaks_on_another(
    text: str, verdict: Verdict, detail: str
):
    check = check_anchor(parse_anchor(text), None, FP)
    assert (check.verdict, check.detail) == (verdict, detail)


@pytest.mark.parametrize(
    ("text", "anchor"),
    [
        ("The maximum page size is 500 (`MAX_PAGE_SIZE` in `app/paging.py`)",
         "symbol:app/paging.py::MAX_PAGE_SIZE=500"),
        ("MAX_RETRIES is 3", "symbol:app/paging.py::MAX_RETRIES=3"),
        ("`Paging.LIMIT` is 50", "symbol:app/paging.py::Paging.LIMIT=50"),
        ("`PAGE_SIZE` defaults to 50", "env:PAGE_SIZE=50"),
        ("DEBUG defaults to `False`", "env:DEBUG=False"),
        ("The client retries with MAX_RETRIES=4", "symbol:app/paging.py::MAX_RETRIES=4"),
        ("SHOP_POOL_SIZE defaults to 5 connections", "env:SHOP_POOL_SIZE=5"),
        # a duration for a unit-less Python setting: Python counts seconds
        ("`TIMEOUT` defaults to 30 s", "env:TIMEOUT=30"),
        ("`TIMEOUT` defaults to half a minute", "env:TIMEOUT=30"),
        ("`TIMEOUT` defaults to 30 ms", None),  # no whole number of seconds
        ("`CACHE_TTL` is 3600", "symbol:app/paging.py::CACHE_TTL=3600"),  # ``60 * 60``
        ("`WORKERS` is 4", None),  # computed in the code: nothing to compare
        ("MAX_RETRIES is not 3", None),  # negated
        ("If MAX_RETRIES is 3, the client gives up", None),  # a condition
        ("MAX_RETRIES used to be 5", None),
        ("`PAGE_SIZE` is 50", None),  # not "default": a deployment sets the environment
        ("`PAGE_SIZE` defaults to 20, but it is 50 in production", None),
        ("Run with `export PAGE_SIZE=50` to get bigger pages by default", None),
        ("MAX_RETRIES is 5 in tests", None),
        ("The page size is 50", None),  # no name written as code
        ("`UNKNOWN_NAME` is 5", None),  # not in the code
    ],
)  # fmt: skip
def test_prose_binds_a_value_only_to_a_name_the_code_gives_a_literal(
    text: str, anchor: str | None
):
    inference = infer_anchors(text, FP)
    stated = [a.render() for a in inference.anchors if a.stated is not None]
    assert stated == ([anchor] if anchor else []), inference
    if anchor:
        assert not any(u.startswith("the value") for u in inference.uncovered), inference
    else:
        assert any(u.startswith("the value") for u in inference.uncovered), inference


def test_a_bound_value_anchor_replaces_the_existence_anchor_on_the_same_thing():
    inference = infer_anchors("`Paging.LIMIT` is 50", FP)
    assert inference.anchors == (
        Anchor(AnchorKind.SYMBOL, "Paging.LIMIT", scope="app/paging.py", version="50"),
    )


def test_given_value_anchors_cover_the_value_they_state():
    text = "`PAGE_SIZE` defaults to 50, `DEBUG` defaults to `False`; pages hold 30 rows"
    spans = values_stated_by(text, ["50", "false"])
    assert [text[a:b] for a, b in spans] == ["50", "False"]


def test_a_constant_exists_where_it_is_assigned(tmp_path):
    """``symbol:PATH::NAME`` for a module constant or a class attribute holds in the file
    that assigns it (it is no definition, but it is there), and breaks elsewhere."""
    from anchors.facts import Fingerprint
    from anchors.pyfacts import extract_file_facts
    from anchors.spec import parse_anchor
    from anchors.verdicts import Verdict
    from anchors.verify import check_anchor

    facts = extract_file_facts(b"MAX_RETRY_COUNT = 3\n\n\nclass SQLite3:\n    MAX_VERSION = 5\n",
                               "isso/db.py")  # fmt: skip
    fp = Fingerprint("c", {"isso/db.py": "b1", "isso/other.py": "b2"},
                     {"isso/db.py": facts, "isso/other.py": extract_file_facts(b"x = 1\n")})
    for anchor, verdict in [("symbol:isso/db.py::MAX_RETRY_COUNT", Verdict.HOLDS),
                            ("symbol:isso/db.py::SQLite3.MAX_VERSION", Verdict.HOLDS),
                            ("symbol:isso/other.py::MAX_RETRY_COUNT", Verdict.BROKEN)]:
        check = check_anchor(parse_anchor(anchor), None, fp)
        assert check.verdict is verdict, (anchor, check.detail)
    held = check_anchor(parse_anchor("symbol:isso/db.py::MAX_RETRY_COUNT"), None, fp)
    assert "isso/db.py assigns MAX_RETRY_COUNT (line 1)" in held.detail
