"""``resolve_anchor``: anchors shaped the way LLMs write them, resolved against the
fingerprint of a real repository (or, without one, only rewritten syntactically), and the
ambiguous or missing ones rejected with a did-you-mean."""

from __future__ import annotations

import pytest

from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource
from anchors.normalize import resolve_anchor
from anchors.spec import AnchorSyntaxError
from tests.conftest import GitRepo

LAYOUT = {
    "src/pkg/__init__.py": "from ._client import Client\nfrom . import tools\n",
    "src/pkg/_client.py": "import click\n\n\nclass Client:\n    def send(self):\n        pass\n",
    "src/pkg/cli.py": "import click\n\n\ndef main():\n    pass\n",
    "src/pkg/tools.py": "def helper():\n    pass\n",
    "src/pkg/sub/__init__.py": "",
    "lib/util.py": "def helper():\n    pass\n\n\nclass Store:\n    def open(self):\n        pass\n",
    "lib/big.py": "huge = [\n" + "    1,\n" * 700_000 + "]\n",
    "other/util.py": "def helper():\n    pass\n",
    "docs/guide.md": "# guide\n",
    "notes.py:42": "",  # a real file name that looks like a line reference
}


@pytest.fixture(scope="module")
def fp(tmp_path_factory: pytest.TempPathFactory) -> Fingerprint:
    repo = GitRepo(tmp_path_factory.mktemp("normalize"))
    repo.commit(LAYOUT)
    with CodeSource(repo.root, _Cache()) as source:
        return source.fingerprint()


class _Cache:
    def load(self, blob_ids):  # type: ignore[no-untyped-def]
        return {}

    def save(self, facts):  # type: ignore[no-untyped-def]
        pass


@pytest.mark.parametrize(
    ("given", "canonical", "change"),
    [
        # dotted symbols to the file that defines them
        ("symbol:pkg._client.Client", "symbol:src/pkg/_client.py::Client", "Client in"),
        ("symbol:pkg._client.Client.send", "symbol:src/pkg/_client.py::Client.send", "in"),
        ("symbol:pkg.Client", "symbol:src/pkg/_client.py::Client", "in src/pkg/_client.py"),
        ("symbol:pkg.Client.send", "symbol:src/pkg/_client.py::Client.send", "in"),
        ("symbol:pkg.tools.helper", "symbol:src/pkg/tools.py::helper", "in"),
        ("symbol:lib.util.Store.open", "symbol:lib/util.py::Store.open", "in"),
        ("symbol:lib.util::Store", "symbol:lib/util.py::Store", "module lib.util is"),
        # absent: a claim about that module, even though it defines nothing by that name
        ("!symbol:lib.util.Gone", "!symbol:lib/util.py::Gone", "in lib/util.py"),
        # an unread module cannot be searched: scoped to it (its check says unknown)
        ("symbol:lib.big.huge", "symbol:lib/big.py::huge", "in lib/big.py"),
        # real qualified names and plain names stay as they are
        ("symbol:Store.open", "symbol:Store.open", None),
        ("symbol:Client", "symbol:Client", None),
        ("symbol:Nothing.like_this", "symbol:Nothing.like_this", None),
        ("symbol:src/pkg/cli.py::main", "symbol:src/pkg/cli.py::main", None),
        # file anchors
        ("file:src/pkg/cli.py:42", "file:src/pkg/cli.py", "line 42 dropped"),
        ("file:src/pkg/cli.py:42-50", "file:src/pkg/cli.py", "line 42-50 dropped"),
        ("file:src/pkg/cli.py#L42", "file:src/pkg/cli.py", "line L42 dropped"),
        ("file:src/pkg/cli.py#L42-L50", "file:src/pkg/cli.py", "line L42-L50 dropped"),
        ("file:notes.py:42", "file:notes.py:42", None),  # tracked under that very name
        ("file:src/pkg/", "file:src/pkg", "names the directory"),
        ("file:./src/pkg/cli.py", "file:src/pkg/cli.py", "leading './' dropped"),
        ("file:././docs/guide.md", "file:docs/guide.md", "leading './' dropped"),
        ("!file:./gone.py", "!file:gone.py", "leading './' dropped"),
        # bare file names in scopes
        ("import:click@cli.py", "import:click@src/pkg/cli.py", "the only tracked path"),
        ("import:click@_client.py::Client", "import:click@src/pkg/_client.py::Client", "only"),
        ("symbol:cli.py::main", "symbol:src/pkg/cli.py::main", "the only tracked path"),
        ("import:click@./src/pkg/", "import:click@src/pkg", "names the directory"),
        ("import:click@pkg.cli", "import:click@src/pkg/cli.py", "module pkg.cli is"),
        ("import:click@pkg", "import:click@src/pkg", "the only tracked path"),  # a directory
        # untouched kinds
        ("dep:click>=8", "dep:click>=8", None),
        ("env:HOME", "env:HOME", None),
    ],
)
def test_an_llm_shaped_anchor_resolves_to_one_canonical_anchor(
    fp: Fingerprint, given: str, canonical: str, change: str | None
):
    resolved = resolve_anchor(given, fp)
    assert resolved.anchor.render() == canonical
    assert resolved.given == given
    if change is None:
        assert resolved.changes == ()
    else:
        assert any(change in c for c in resolved.changes), resolved.changes


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("import:click@util.py", "'util.py' names 2 tracked paths: lib/util.py, other/util.py"),
        ("import:click@__init__.py", "names 2 tracked paths"),
        (
            "import:click@clli.py",
            "no tracked file is named 'clli.py'; did you mean 'src/pkg/cli.py'",
        ),
        ("symbol:utl.py::helper", "did you mean 'lib/util.py' or 'other/util.py'"),
        ("import:click@nothing_similar.zzz", "no tracked file is named 'nothing_similar.zzz'"),
        ("symbol:pkg._client.Clinet", "did you mean 'symbol:src/pkg/_client.py::Client'?"),
        ("symbol:lib.util.Stor", "lib/util.py does not define Stor; did you mean"),
        ("file:src/pkg/cli.py/", "src/pkg/cli.py is a file, not a directory"),
    ],
)
def test_an_ambiguous_or_missing_target_is_rejected_with_a_did_you_mean(
    fp: Fingerprint, given: str, message: str
):
    with pytest.raises(AnchorSyntaxError) as caught:
        resolve_anchor(given, fp)
    assert message in str(caught.value)


def test_a_name_defined_under_several_dotted_paths_is_rejected_listing_them(tmp_path):  # type: ignore[no-untyped-def]
    repo = GitRepo(tmp_path)
    repo.commit(
        {
            "a/__init__.py": "from .x import C\nfrom .y import C\n",
            "a/x.py": "class C:\n    pass\n",
            "a/y.py": "class C:\n    pass\n",
        }
    )
    with CodeSource(repo.root, _Cache()) as source:
        fp = source.fingerprint()
    with pytest.raises(AnchorSyntaxError) as caught:
        resolve_anchor("symbol:a.C", fp)
    assert "symbol:a/x.py::C, symbol:a/y.py::C" in str(caught.value)


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("file:src/pkg/cli.py:42", "file:src/pkg/cli.py"),
        ("file:x.py#L3", "file:x.py"),
        ("file:./x.py", "file:x.py"),
        ("file:src/pkg/", "file:src/pkg"),
        ("import:click@./cli.py", "import:click@cli.py"),
        # no code to resolve against: left as written
        ("symbol:pkg._client.Client", "symbol:pkg._client.Client"),
        ("import:click@cli.py", "import:click@cli.py"),
    ],
)
def test_without_a_fingerprint_only_the_syntactic_rewrites_apply(given: str, canonical: str):
    assert resolve_anchor(given, None).anchor.render() == canonical


@pytest.mark.parametrize(
    "given",
    ["file:./../secrets.py", "file:.//x.py", "file:./", "file:/", "file:./.git/config", 42],
)
def test_the_rewrites_never_let_an_unsafe_path_through(fp: Fingerprint, given: object):
    with pytest.raises(AnchorSyntaxError):
        resolve_anchor(given, fp)  # type: ignore[arg-type]
    with pytest.raises(AnchorSyntaxError):
        resolve_anchor(given, None)  # type: ignore[arg-type]
