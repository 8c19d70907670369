"""The members of imported modules a file writes (``anchors.references``): what a note's
``os.Stderr`` is checked against."""

from __future__ import annotations

from anchors.facts import ImportFact
from anchors.languages import extract_facts
from anchors.references import MAX_REFERENCES, bindings, camel_names, references


def test_a_python_file_keeps_the_members_of_its_imports_and_its_snake_case_keys() -> None:
    source = (
        b"import os\nimport yaml\nfrom click import group\n\n"
        b"# os.Stderr in a comment is no use\n"
        b'SETTINGS = {"auto_envvar_prefix": "APP"}\n'
        b"data = yaml.safe_load(open(os.path.join('a', 'b')))\n"
        b"self.os.getcwd()\n"
        b"group.command()\n"
    )
    found = extract_facts(source, "python").references
    assert found is not None
    assert {"yaml.safe_load", "os.path", "group.command", '"auto_envvar_prefix"'} <= set(found)
    assert "os.Stderr" not in found  # only in a comment
    assert "self.os" not in found  # ``self`` is bound by no import


def test_a_go_file_binds_its_imports_by_package_name_or_alias() -> None:
    imports = [ImportFact("github.com/go-chi/chi/v5"), ImportFact("gopkg.in/yaml.v3"),
               ImportFact("github.com/sirupsen/logrus", ("log",)), ImportFact("os")]
    assert bindings(imports, "go") == {"chi", "yaml", "log", "os"}
    source = b'package x\n\n// os.Stderr\nfunc f() { chi.NewRouter(); log.Info(""); os.Stdout }\n'
    assert references(source, "go", imports) == ("chi.NewRouter", "log.Info", "os.Stdout")


def test_another_language_records_nothing_and_other_letters_break_nothing() -> None:
    assert references(b"use std::env;\nfn main() { env::var(\"X\"); }\n", "rust", ()) is None
    imports = [ImportFact("caf\u00e9", ()), ImportFact("os", ())]
    assert references("import café\nimport os\ncafé.x\nos.sep\n".encode(), "python",
                      imports) == ("os.sep",)  # fmt: skip


def test_camel_case_names_are_kept_in_every_language() -> None:
    source = (b"a.state.dataUpdatedAt; r.URL.Path; q.getQueryCache().find() // c.someThing\n"
              b"return { restoreClient: async () => x, ErrQueueFull }\n")
    assert camel_names(source) == ("ErrQueueFull", "dataUpdatedAt", "getQueryCache",
                                   "restoreClient", "someThing")
    assert extract_facts(source, "typescript").camel_names == camel_names(source)
    many = b"\n".join(b"x.name%dValue" % i for i in range(MAX_REFERENCES + 1))
    assert camel_names(many) is None
