"""The defaults settings are declared with where the fingerprint did not read them: a
traitlets class (``anchors.trait_defaults``), a JSON settings schema
(``anchors.settings_schemas``), and the forms a note names them by
(``anchors.setting_values``)."""

from __future__ import annotations

import json

import pytest

from anchors.facts import FileFacts, ValueFact
from anchors.fingerprint import CodeSource, InMemoryFactsCache, facts_from_json, facts_to_json
from anchors.pyfacts import extract_file_facts
from anchors.setting_values import rate_seconds, same_rate, setting_names
from anchors.settings_schemas import schema_defaults, unit_of
from tests.conftest import GitRepo


def _constants(source: str) -> dict[str, str | None]:
    return {c.name: c.text for c in extract_file_facts(source.encode()).constants}


TRAITS = '''\
import os
import traitlets
from traitlets import Enum, Float, Int, List, Unicode, default
from traitlets.config import Configurable


class Settings(Configurable):
    timeout = Float(20.0, config=True)
    retries = Int(default_value=3, config=True)
    mode = Enum(["a", "b"], default_value="b")
    paths = List(Unicode(), config=True)
    helper = Unicode(config=True)
    greeting = traitlets.Unicode("hello")
    computed = Int(config=True)
    overridden = Int(5)

    @default("helper")
    def _helper(self):
        """The helper git caches credentials with."""
        return "cache --timeout=3600"

    @default("computed")
    def _computed(self):
        return int(os.environ.get("N", "1"))

    @default("overridden")
    def _overridden(self):
        return 7


class Local(Settings):
    @default("timeout")
    def _timeout(self):
        return 60.0
'''


def test_a_traits_default_is_its_declared_value_or_what_its_default_method_returns() -> None:
    found = _constants(TRAITS)
    assert found["Settings.timeout"] == "20.0"
    assert found["Settings.retries"] == "3"
    assert found["Settings.mode"] == '"b"'  # Enum's first argument is its values
    assert found["Settings.paths"] is None  # List's first argument is its item's trait
    assert found["Settings.helper"] == '"cache --timeout=3600"'
    assert found["Settings.greeting"] == '"hello"'
    assert found["Settings.computed"] is None  # the method computes it
    assert found["Settings.overridden"] == "7"  # the method wins, as in traitlets
    assert found["Local.timeout"] == "60.0"  # a subclass's default: a value of its own


def test_a_default_methods_line_is_where_it_returns_the_value() -> None:
    facts = extract_file_facts(TRAITS.encode())
    [helper] = [c for c in facts.constants if c.name == "Settings.helper"]
    assert TRAITS.splitlines()[helper.line - 1].strip() == 'return "cache --timeout=3600"'


def test_calls_of_names_not_from_traitlets_are_no_traits() -> None:
    source = (
        "from myconfig import Float, default\n\n\nclass C:\n    timeout = Float(20.0)\n\n"
        '    @default("timeout")\n    def _t(self):\n        return 30.0\n'
    )
    assert _constants(source)["C.timeout"] is None


SCHEMA = {
    "title": "Git",
    "type": "object",
    "properties": {
        "refreshInterval": {"type": "integer", "default": 3000,
                            "description": "Number of milliseconds between polls."},
        "simpleStaging": {"type": "boolean", "default": False},
        "branchPrefix": {"type": "string", "default": "feature/"},
        "colors": {"type": "object", "default": {"added": "green"}},
        "noDefault": {"type": "string"},
        "diff": {"type": "object", "properties": {"context": {"type": "integer", "default": 3}}},
    },
}  # fmt: skip


def test_a_json_schema_declares_each_propertys_default_with_its_line_and_unit() -> None:
    text = json.dumps(SCHEMA, indent=2)
    found = {f.name: f for f in schema_defaults(text.encode())}
    assert {n: f.text for n, f in found.items()} == {
        "refreshInterval": "3000", "refreshInterval#unit": "ms", "simpleStaging": "false",
        "branchPrefix": '"feature/"', "colors": None, "diff.context": "3",
    }  # fmt: skip
    line = text.splitlines()[found["refreshInterval"].line - 1]
    assert '"default": 3000' in line


def test_a_vs_code_extension_declares_its_configuration_in_package_json() -> None:
    manifest = {
        "name": "gitlens", "version": "1.0.0",
        "contributes": {"configuration": [
            {"title": "Views", "properties": {
                "gitlens.views.autoRefreshSeconds": {"type": "number", "default": 30}}},
        ]},
    }  # fmt: skip
    found = {f.name: f.text for f in schema_defaults(json.dumps(manifest).encode())}
    assert found == {"gitlens.views.autoRefreshSeconds": "30",
                     "gitlens.views.autoRefreshSeconds#unit": "s"}  # fmt: skip


@pytest.mark.parametrize(
    "data",
    [
        b'{"name": "x", "version": "1"}',
        b"[1, 2]",
        b"not json {",
        b'{"properties": 1, "default": 2}',
        b'  {"properties": {"a": {"default": 1}}',
    ],
)
def test_what_is_no_settings_schema_declares_nothing(data: bytes) -> None:
    assert schema_defaults(data) == ()


@pytest.mark.parametrize(
    ("name", "description", "unit"),
    [
        ("refreshInterval", "Number of milliseconds between polls.", "ms"),
        ("pollIntervalMs", "", "ms"),
        ("timeout_seconds", "", "s"),
        ("timeoutSeconds", "How long to wait, in seconds.", "s"),
        ("items", "", None),  # "ms" ends the word, not a unit
        ("timeout_seconds", "How long to wait, in minutes.", None),  # they disagree
        ("delay", "Seconds to wait, at most 5 minutes.", None),  # two units: cannot tell
        ("count", "Number of commits shown.", None),
    ],
)
def test_a_settings_unit_is_read_from_its_name_or_its_description(
    name: str, description: str, unit: str | None
) -> None:
    assert unit_of(name, description) == unit


def test_text_facts_keep_a_schemas_defaults_in_the_cache() -> None:
    facts = FileFacts(mentions=("git",), constants=(ValueFact("refreshInterval", "3000", 7),))
    assert facts_from_json(facts_to_json(facts)).constants == facts.constants


@pytest.mark.parametrize(
    ("text", "rate"),
    [("10/min", (10, 60)), ("10/m", (10, 60)), ("5 per minute", (5, 60)), ("100/day", (100, 86400)),
     ("3/s", (3, 1)), ("100/5m", (100, 300)), ("'10/min'", (10, 60)), ("10 minutes", None),
     ("v1/api", None)],
)  # fmt: skip
def test_a_rate_is_a_count_per_period(text: str, rate: tuple[int, float] | None) -> None:
    assert rate_seconds(text) == rate


def test_two_spellings_of_one_rate_are_the_same_rate() -> None:
    assert same_rate("5/min", "5 per minute")
    assert same_rate("60/h", "60/hour")
    assert not same_rate("5/min", "5/hour")
    assert not same_rate("5/min", "5")


def test_a_settings_words_name_it_as_code_does() -> None:
    names = setting_names(["Credential", "helper"])
    assert names[:3] == ["credential_helper", "credentialHelper", "CREDENTIAL_HELPER"]
    assert "cors_max_age_seconds" in setting_names(["CORS", "max", "age"])


def test_the_fingerprint_reads_a_schemas_defaults_and_an_uncommitted_edit_of_them(
    git_repo: GitRepo,
) -> None:
    git_repo.commit({"schema/plugin.json": json.dumps(SCHEMA, indent=2), "README.md": "x\n"})
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        committed = source.fingerprint()
        edited = dict(SCHEMA, properties={"refreshInterval": {"type": "integer", "default": 500}})
        git_repo.write({"schema/plugin.json": json.dumps(edited)})
        overlaid = source.fingerprint()
    assert list(committed.settings) == ["schema/plugin.json"]
    values = {c.name: c.text for c in committed.settings["schema/plugin.json"].constants}
    assert values["refreshInterval"] == "3000"
    [now] = [c for c in overlaid.settings["schema/plugin.json"].constants
             if c.name == "refreshInterval"]  # fmt: skip
    assert now.text == "500"
