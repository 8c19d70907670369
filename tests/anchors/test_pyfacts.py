"""Facts extracted from Python sources: imports, definitions, environment reads."""

from __future__ import annotations

import textwrap

import pytest

from anchors.facts import ImportFact
from anchors.languages import extract_facts
from anchors.pyfacts import (
    MAX_SOURCE_BYTES,
    ParsePool,
    body_hash,
    extract_file_facts,
    resolve_relative_imports,
)


def facts(source: str, path: str = "") -> object:
    return extract_file_facts(textwrap.dedent(source).encode(), path)


def imports(source: str, path: str = "") -> list[tuple[str, tuple[str, ...], str]]:
    found = extract_file_facts(textwrap.dedent(source).encode(), path).imports
    return [(i.module, i.names, i.within) for i in found]


def test_plain_aliased_and_from_imports_name_their_modules():
    assert imports(
        """
        import a.b
        import c as x, d
        from e.f import g, h as i
        from j import (k,
                       l)
        from m import *
        """
    ) == [
        ("a.b", (), ""),
        ("c", (), ""),
        ("d", (), ""),
        ("e.f", ("g", "h"), ""),
        ("j", ("k", "l"), ""),
        ("m", (), ""),
    ]


def test_imports_inside_if_and_try_blocks_at_module_level_are_module_level():
    assert imports(
        """
        try:
            import ujson as json
        except ImportError:
            import json
        if TYPE_CHECKING:
            from typing import Any
        else:
            with suppress(Exception):
                import yaml
        """
    ) == [("ujson", (), ""), ("json", (), ""), ("typing", ("Any",), ""), ("yaml", (), "")]


def test_imports_inside_definitions_record_the_enclosing_qualified_name():
    assert imports(
        """
        class Store:
            import sqlite3
            def open(self):
                import duckdb
                def inner():
                    from json import loads
        async def fetch():
            import httpx
        """
    ) == [
        ("sqlite3", (), "Store"),
        ("duckdb", (), "Store.open"),
        ("json", ("loads",), "Store.open.inner"),
        ("httpx", (), "fetch"),
    ]


def test_relative_imports_resolve_against_the_file_path():
    source = """
        from . import views
        from .models import User
        from ..core.db import connect
        """
    assert imports(source, "app/accounts/forms.py") == [
        ("app.accounts", ("views",), ""),
        ("app.accounts.models", ("User",), ""),
        ("app.core.db", ("connect",), ""),
    ]
    assert imports("from .models import User", "src/shop/__init__.py") == [
        ("shop.models", ("User",), "")
    ]


def test_relative_imports_stay_relative_without_a_path_or_above_the_top_package():
    assert imports("from .models import User") == [(".models", ("User",), "")]
    assert imports("from ...far import x", "app/mod.py") == [("...far", ("x",), "")]


def test_cached_facts_resolve_relative_imports_per_path():
    raw = extract_file_facts(b"from . import x\n")
    first = resolve_relative_imports(raw, "a/__init__.py")
    second = resolve_relative_imports(raw, "b/__init__.py")
    assert first.imports == (ImportFact("a", ("x",), "", 1),)
    assert second.imports == (ImportFact("b", ("x",), "", 1),)


def test_definitions_have_dotted_qualified_names_and_one_based_lines():
    found = extract_file_facts(
        textwrap.dedent(
            """
            @dataclass
            class Store:
                @property
                def path(self): ...
                async def open(self):
                    def helper(): ...
            def outer():
                class Local: ...
            """
        ).encode()
    ).definitions
    assert [(d.qualname, d.line) for d in found] == [
        ("Store", 2),
        ("Store.path", 4),
        ("Store.open", 6),
        ("Store.open.helper", 7),
        ("outer", 8),
        ("outer.Local", 9),
    ]


def test_body_hash_ignores_trailing_whitespace_but_not_code_changes():
    base = extract_file_facts(b"def f(x):\n    return x\n").definitions[0].body_hash
    spaced = extract_file_facts(b"def f(x):   \r\n    return x\t\n\n\n").definitions[0].body_hash
    changed = extract_file_facts(b"def f(x):\n    return x + 1\n").definitions[0].body_hash
    assert base == spaced != changed
    assert len(base) == 16 and base == body_hash(b"def f(x):\n    return x")


def test_a_decorator_change_changes_the_body_hash():
    plain = extract_file_facts(b"@a\ndef f(): pass\n").definitions[0].body_hash
    other = extract_file_facts(b"@b\ndef f(): pass\n").definitions[0].body_hash
    assert plain != other


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('import os\nos.environ["A"]', ["A"]),
        ('import os\nos.environ.get("B", "x")', ["B"]),
        ("import os\nos.getenv('C')", ["C"]),
        ('import os\nos.environ.setdefault("D", "1")', ["D"]),
        ('import os\nif "E" in os.environ: pass', ["E"]),
        ('import os\nif "F" not in os.environ: pass', ["F"]),
        (
            'from os import environ, getenv\nenviron["G"]\nenviron.get("H")\ngetenv("I")',
            ["G", "H", "I"],
        ),
        ('import os\ndef f():\n    class K:\n        x = os.environ["J"]', ["J"]),
        # through a name os.environ is given: a variable, a class attribute
        ('import os\nenv = os.environ\nenv.get("K", "1")\n"L" in env', ["K", "L"]),
        ('import os\nclass C:\n    _environ: dict = os.environ\n'
         '    def f(self):\n        return self._environ["M"], "N" in self._environ', ["M", "N"]),
        ('from os import environ\nenv = environ\nenv["O"]', ["O"]),
    ],
)
def test_environment_reads_are_found_in_every_supported_form(source, expected):
    assert list(extract_file_facts(source.encode()).env_reads) == expected


@pytest.mark.parametrize(
    "source",
    [
        "import os\nos.environ[name]",  # not a literal
        'import os\nos.getenv(f"X_{n}")',  # f-string
        'import os\nos.environ["A"] = "1"',  # a write, not a read
        '# os.environ["A"]\ns = "os.getenv(\'B\')"',  # comment and string
        'environ["A"]\ngetenv("B")',  # not imported from os
        'import os\nother.environ["A"]',  # someone else's environ
        'import os\nenv = dict(os.environ)\nenv["A"] = "0"',  # a copy written for a child
        'import os\nenv = os.environ\nenv["A"] = "1"',  # a write through the name
        'import os\nenv = {}\nenv.get("A")',  # a name never given os.environ
    ],
)
def test_things_that_look_like_environment_reads_but_are_not_are_ignored(source):
    assert extract_file_facts(source.encode()).env_reads == ()


def test_a_file_with_syntax_errors_keeps_what_parsed_and_says_it_did_not_parse():
    found = extract_file_facts(b"import duckdb\n\ndef broken(:\n    pass\n\nclass Ok:\n    pass\n")
    assert found.parsed is False
    assert [i.module for i in found.imports] == ["duckdb"]
    assert "Ok" in [d.qualname for d in found.definitions]


def test_binary_and_oversized_input_do_not_parse_and_do_not_crash():
    assert extract_file_facts(bytes(range(256)) * 64).parsed is False
    assert extract_file_facts(b"x = 1\n" * (MAX_SOURCE_BYTES // 6 + 1)).parsed is False


def test_the_parse_pool_returns_the_same_facts_as_parsing_here():
    chunks = [[(f"blob{i}", f"import m{i}\ndef f{i}(): pass\n".encode())] for i in range(5)]
    with ParsePool(2) as pool:
        results = [pair for chunk in pool.map(chunks) for pair in chunk]
    assert sorted(results, key=lambda p: p[0]) == [
        (blob, extract_facts(source, "python")) for chunk in chunks for blob, source in chunk
    ]


def test_a_setting_declared_by_a_call_is_a_constant_with_its_default() -> None:
    """derpconf's ``Config.define``, oslo.config's ``*Opt`` in a module-level list; a call
    that names no setting, or is inside a function, is none; tornado's ``define`` with its
    ``default=`` is a command-line option (``--port``), not this."""
    found = facts(
        """\
        from derpconf.config import Config
        from tornado.options import define
        from oslo_config import cfg

        Config.define("QUALITY", 80, "JPEG quality", "Imaging")
        define("port", default=8888, help="port", type=int)
        OPTS = [cfg.IntOpt("workers", default=4), cfg.StrOpt("host")]
        define(NAME, 1)
        print("QUALITY", 85)

        def setup():
            define("later", default=1)
        """
    )
    values = {c.name: (c.text, c.line) for c in found.constants}  # type: ignore[attr-defined]
    assert values["QUALITY"] == ("80", 5)
    assert values["--port"] == ("8888", 6) and "port" not in values
    assert values["workers"] == ("4", 7)
    assert values["host"] == (None, 7)
    assert "later" not in values and "NAME" not in values


def test_names_given_values_by_unpacking_keep_each_literal() -> None:
    facts = extract_facts(
        b'INIT, RUNNING = ["ready", "running"]\n(LOW, HIGH) = (1, 2)\n'
        b"FIRST, *REST = [1, 2, 3]\nA, B = make()\n", "python",
    )
    assert [(c.name, c.text) for c in facts.constants] == [
        ("INIT", '"ready"'), ("RUNNING", '"running"'), ("LOW", "1"), ("HIGH", "2")]
