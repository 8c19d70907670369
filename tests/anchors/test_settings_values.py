"""The plain readers behind value claims on applications (issue #31): a settings dict's
entries read as constants, durations in a setting's unit, the Python versions trove
classifiers list, and which files are documentation."""

from __future__ import annotations

import pytest

from anchors.classifiers import python_from_classifiers
from anchors.durations import in_units_of, same_duration
from anchors.legacy_manifests import parse_setup_cfg, parse_setup_py
from anchors.manifests import parse_pyproject
from anchors.mentions import documentation
from anchors.pyfacts import extract_file_facts


def constants(source: str) -> dict[str, str | None]:
    facts = extract_file_facts(source.encode(), "app/settings.py")
    return {c.name: c.text for c in facts.constants}


def test_a_dicts_string_keys_are_constants_nested_a_few_levels_deep():
    found = constants(
        "REST_FRAMEWORK = {'PAGE_SIZE': 20, 'RATES': {'login': '3/min', 'deep': {'a': {'b': 1}}},"
        " 'CLASS': some.call(), 'my-key': 1, 3: 'x'}\n"
    )
    assert found["REST_FRAMEWORK.PAGE_SIZE"] == "20"
    assert found["REST_FRAMEWORK.RATES.login"] == "'3/min'"
    assert found["REST_FRAMEWORK.RATES.deep.a"] is None  # a dict: computed, not a literal
    assert "REST_FRAMEWORK.RATES.deep.a.b" not in found  # deeper than three levels
    assert found["REST_FRAMEWORK.CLASS"] is None  # computed
    assert not any("my-key" in n or n.endswith(".3") for n in found)  # not a name


def test_a_class_bodys_dict_is_read_and_a_functions_is_not():
    found = constants(
        "class Settings:\n    DEFAULTS = {'ttl': 5}\n\n\ndef f():\n    local = {'ttl': 9}\n"
    )
    assert found["Settings.DEFAULTS.ttl"] == "5"
    assert not any(n.startswith("local") for n in found)


def test_a_large_table_is_data_not_settings():
    table = ", ".join(f"'k{i}': {i}" for i in range(500))
    found = constants(f"CODES = {{{table}}}\n")
    assert not any(n.startswith("CODES.") for n in found)


@pytest.mark.parametrize(
    ("stated", "name", "expected"),
    [
        ("10 minutes", "token_validity_seconds", "600"),
        ("600 seconds", "ttl_seconds", "600"),
        ("1 h", "CACHE_TTL_MINUTES", "60"),
        ("2 days", "retention_hours", "48"),
        ("1500 ms", "timeout_secs", "1.5"),
        ("30 s", "TIMEOUT_MS", "30000"),
        ("10 minutes", "CACHE_TTL", None),  # the name says no unit
        ("10", "ttl_seconds", None),  # the value says none
        ("10 MB", "limit_seconds", None),  # not a duration
        ("5 m", "max_rows", None),
    ],
)
def test_a_duration_is_stated_in_the_unit_the_name_carries(stated, name, expected):
    assert in_units_of(stated, name) == expected


def test_classifiers_declare_each_minor_python_version_and_not_the_major_one():
    found = python_from_classifiers(
        ["Programming Language :: Python :: 3", "Programming Language :: Python :: 3.9",
         "Programming Language :: Python :: 3.10", "Framework :: Django", 3], "setup.py")
    assert [d.spec for d in found] == ["==3.9.*", "==3.10.*"]


def test_classifiers_answer_only_where_no_python_requires_does():
    setup = (
        "from setuptools import setup\nsetup(name='x', classifiers=["
        "'Programming Language :: Python :: 3.8'], {extra})\n"
    )
    assert [d.spec for d in parse_setup_py(setup.format(extra="").encode(), "setup.py")
            if d.name == "python"] == ["==3.8.*"]  # fmt: skip
    with_requires = setup.format(extra="python_requires='>=3.7'").encode()
    assert [d.spec for d in parse_setup_py(with_requires, "setup.py")
            if d.name == "python"] == [">=3.7"]  # fmt: skip
    cfg = b"[metadata]\nclassifiers =\n    Programming Language :: Python :: 3.11\n"
    assert [d.spec for d in parse_setup_cfg(cfg, "setup.cfg")] == ["==3.11.*"]
    pyproject = b'[project]\nname = "x"\nclassifiers = ["Programming Language :: Python :: 3.12"]'
    assert [d.spec for d in parse_pyproject(pyproject, "pyproject.toml")
            if d.name == "python"] == ["==3.12.*"]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("README.md", True), ("CHANGELOG.rst", True), ("docs/faq.rst", True),
        ("docs/_theme/search.html", True), ("AUTHORS", True), ("isso.egg-info/SOURCES.txt", True),
        ("app/templates/base.html", False), ("app/views.py", False), ("pyproject.toml", False),
        ("Makefile", False), ("uv.lock", False), (".github/workflows/ci.yml", False),
    ],
)  # fmt: skip
def test_documentation_is_what_is_written_for_people_about_the_project(path, expected):
    assert documentation(path) is expected


@pytest.mark.parametrize(
    ("one", "other", "expected"),
    [("30 days", "30d", True), ("1 h", "60 minutes", True), ("90s", "1.5 min", True),
     ("30 days", "3d", False), ("30", "30d", False), ("7d", "7 MB", False)],
)  # fmt: skip
def test_a_duration_said_twice_is_the_same_duration(one, other, expected):
    assert same_duration(one, other) is expected
