"""A version spec quoted as the manifest writes it (``anchors.declared_specs``), on a real
git repository with a pyproject.toml and a frontend's package.json."""

from __future__ import annotations

import pytest

from anchors.declared_specs import declared_specs
from anchors.development import role_unchecked
from anchors.fingerprint import CodeSource
from anchors.subject import sentence_spans
from tests.conftest import GitRepo

R = pytest.param
FILES = {
    "pyproject.toml": (
        '[project]\nname = "svc"\ndependencies = ["jupyter_server>=2.0.1,<3", "httpx"]\n'
    ),
    "web/package.json": (
        '{"dependencies": {"react": "^18.2.0", "@jupyterlab/services": "~7.0.0"},'
        ' "devDependencies": {"jest": "^29.2.0"}}'
    ),
}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        R("jest ^29.2.0 is a devDependency.", [("29.2.0", "jest", "jest")], id="npm"),
        R("pyproject requires jupyter_server>=2.0.1,<3.",
          [("2.0.1", "jupyter_server", "jupyter-server"), ("3", "jupyter_server",
                                                           "jupyter-server")], id="pep-440"),
        R("The frontend is on React 18 (react ^18.2.0).",
          [("18", "React", "react"), ("18.2.0", "react", "react")], id="a-bare-major"),
        R("@jupyterlab/services ~7.0.0 talks to the server.",
          [("7.0.0", "@jupyterlab/services", "@jupyterlab/services")], id="scoped"),
        R("jest ^28.0.0 is a devDependency.", [], id="another-spec"),
        R("React 17 renders the panel.", [], id="another-major"),
        R("httpx>=0.27 is required.", [], id="declared-without-that-spec"),
    ],
)  # fmt: skip
def test_a_stated_spec_is_found_where_the_manifest_writes_it(
    git_repo: GitRepo, source: CodeSource, text: str, found: list[tuple[str, str, str]]
) -> None:
    git_repo.commit(FILES, "a service and its frontend")
    fp = source.fingerprint()
    specs = declared_specs(text, fp)
    assert [(text[slice(*d.span)], d.written, d.dependency) for d in specs] == found


def test_the_role_a_sentence_gives_a_declaration_is_checked(
    git_repo: GitRepo, source: CodeSource
) -> None:
    git_repo.commit(FILES, "a service and its frontend")
    fp = source.fingerprint()
    for text, part in [
        ("jest ^29.2.0 is a devDependency.", None),
        ("react ^18.2.0 is a devDependency.", "that react is a development dependency"),
        ("jest ^29.2.0 is a runtime dependency.", "that jest is a run-time dependency"),
        ("react ^18.2.0 renders the panel.", None),
    ]:
        [declared] = declared_specs(text, fp)
        sentence = text[slice(*next((a, b) for a, b, _ in sentence_spans(text)))]
        assert role_unchecked(sentence, declared.written, declared.runtime) == part, text
