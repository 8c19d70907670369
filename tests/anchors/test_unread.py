"""Python files that were not (fully) read: why (too large, not UTF-8, syntax errors), how
that reason survives the facts cache, and how checks answer around them (unknown when an
unread file could hold the name, answered when its words rule the name out)."""

from __future__ import annotations

import json
import re

import pytest

from anchors.facts import MAX_SOURCE_BYTES, FileFacts, Fingerprint, NotRead, words_of
from anchors.fingerprint import CodeSource, facts_from_json, facts_to_json
from anchors.pyfacts import extract_file_facts
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

BIG = b"huge_table = [\n" + b"    1,\n" * 700_000 + b"]\nimport yaml\n"  # 4.7 MB, valid


@pytest.mark.parametrize(
    ("source", "reason", "why"),
    [
        (BIG, NotRead.TOO_LARGE, "too large (4.7 MB > 4 MB limit)"),
        (
            b"x = 1\n" * (MAX_SOURCE_BYTES // 6 + 1),
            NotRead.TOO_LARGE,
            "too large (4 MB > 4 MB limit)",
        ),
        (b"def f(a, b:\n    return 'caf\xe9'\n", NotRead.NOT_UTF8, "not UTF-8"),
        (bytes(range(256)) * 64, NotRead.NOT_UTF8, "not UTF-8"),
        (b"def broken(:\n    pass\n", NotRead.SYNTAX_ERRORS, "syntax errors"),
        (b"def ok():\n    pass\n", None, None),
        (b"x = 'caf\xe9'\n", None, None),  # latin-1 text that parses cleanly is read
    ],
)
def test_a_file_that_is_not_read_says_why(source: bytes, reason: NotRead | None, why: str | None):
    facts = extract_file_facts(source)
    assert facts.not_read is reason
    assert facts.parsed is (reason is None)
    if why is not None:
        assert facts.why_not_read() == why


def test_a_valid_file_that_is_too_large_is_not_reported_as_having_syntax_errors():
    facts = extract_file_facts(BIG)
    assert facts.not_read is NotRead.TOO_LARGE and facts.size == len(BIG)
    assert "syntax" not in facts.why_not_read()
    assert facts.words == ("huge_table", "import", "yaml")


def test_a_read_file_keeps_no_words_and_an_unread_one_keeps_them_all():
    assert extract_file_facts(b"import os\n").words is None
    assert extract_file_facts(b"import os\ndef f(:\n").words == ("def", "f", "import", "os")


def test_too_many_distinct_words_keep_no_proof():
    many = b" ".join(f"w{i}".encode() for i in range(25_000))
    assert words_of(many) is None
    assert FileFacts(parsed=False, not_read=NotRead.TOO_LARGE).could_mention(["anything"])


@pytest.mark.parametrize(
    "facts",
    [
        FileFacts(parsed=False, not_read=NotRead.TOO_LARGE, size=5_000_000, words=("a", "b")),
        FileFacts(parsed=False, not_read=NotRead.NOT_UTF8, words=None),
        FileFacts(parsed=False, not_read=NotRead.SYNTAX_ERRORS, words=()),
        FileFacts(parsed=False, not_read=NotRead.UNREADABLE),
        FileFacts(),
    ],
)
def test_why_a_file_was_not_read_survives_the_cache_codec(facts: FileFacts):
    assert facts_from_json(facts_to_json(facts)) == facts


@pytest.mark.parametrize(
    "old",
    ['{"i":[],"d":[],"e":[],"p":false}', '{"i":[["os",[],"",1]],"d":[],"e":[],"p":true}'],
)
def test_an_entry_cached_by_an_older_anchormem_is_refused_so_it_is_read_again(old: str):
    # Its mentions were never searched (or were searched with another vocabulary): decoding
    # it would make every technology look absent. The cache treats it as a miss.
    with pytest.raises(ValueError, match="vocabulary"):
        facts_from_json(old)


def test_an_entry_of_this_vocabulary_without_a_reason_decodes_as_unrecorded():
    current = json.loads(facts_to_json(FileFacts()))
    old = json.dumps({**current, "p": False})
    facts = facts_from_json(old)
    assert facts.parsed is False and facts.not_read is NotRead.UNRECORDED
    assert facts.words is None  # nothing to prove absence with: checks say unknown


UNREAD = {
    "app/__init__.py": "",
    "app/big.py": BIG.decode(),
    "app/broken.py": "def f(a, b:\n    return 1\nclass Lost:\n  import toml\n",
    "app/ok.py": "import os\n\n\ndef fine():\n    return os.environ['FINE_KEY']\n",
}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(UNREAD)
    return source.fingerprint()


@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        ("symbol:huge_table", Verdict.UNKNOWN, r"^no file read defines huge_table; cannot tell: "
         r"app/big\.py was not parsed: too large \(4\.7 MB > 4 MB limit\)$"),
        ("!symbol:huge_table", Verdict.UNKNOWN, "too large"),
        ("import:yaml", Verdict.UNKNOWN, r"^no file read imports yaml; cannot tell: app/big\.py"),
        ("!import:yaml", Verdict.UNKNOWN, "too large"),
        ("import:yaml.loader", Verdict.UNKNOWN, "too large"),  # its top name is in the file
        ("symbol:Lost", Verdict.UNKNOWN, r"app/broken\.py was not parsed: syntax errors$"),
        ("!import:toml", Verdict.UNKNOWN, "syntax errors"),
        ("import:app.helpers", Verdict.UNKNOWN, r"\(and 1 more unread\)$"),  # relative, in app/
        ("env:TOML_KEY", Verdict.BROKEN, "no code reads TOML_KEY"),
        ("!env:toml", Verdict.UNKNOWN, "syntax errors"),
        # the words of the unread files rule the name out
        ("symbol:nowhere_at_all", Verdict.BROKEN, r"^no file defines nowhere_at_all$"),
        ("symbol:Lost.nowhere", Verdict.BROKEN, r"^no file defines Lost\.nowhere$"),
        ("!symbol:nowhere_at_all", Verdict.HOLDS, r"^no file defines nowhere_at_all$"),
        ("!import:redis", Verdict.HOLDS, r"^no file imports redis$"),
        ("import:redis", Verdict.BROKEN, r"^no file imports redis$"),
        # found in a file that was read: answered as before
        ("symbol:fine", Verdict.HOLDS, r"^app/ok\.py defines fine \(line 4\)$"),
        ("!import:os", Verdict.BROKEN, "imported by app/ok.py"),
        ("env:FINE_KEY", Verdict.HOLDS, "app/ok.py"),
        # scoped on an unread file: unknown, saying why
        ("symbol:app/big.py::huge_table", Verdict.UNKNOWN,
         r"^app/big\.py was not parsed: too large \(4\.7 MB > 4 MB limit\); cannot tell$"),
        ("symbol:app/big.py::anything", Verdict.BROKEN, "does not hold the word anything"),
        ("import:yaml@app/big.py", Verdict.UNKNOWN, "too large"),
        ("import:yaml@app", Verdict.UNKNOWN,
         r"^app/big\.py was not parsed: too large .* \(and 1 more\); cannot tell whether yaml is "
         r"imported in app$"),
        ("symbol:app/broken.py::Lost", Verdict.UNKNOWN, r"syntax errors; cannot tell$"),
    ],
)  # fmt: skip
def test_an_unread_file_leaves_a_name_it_may_hold_unknown_and_one_it_lacks_broken(
    fp: Fingerprint, anchor: str, verdict: Verdict, detail: str
):
    check = check_anchor(parse_anchor(anchor), None, fp)
    assert check.verdict is verdict, check.detail
    assert re.search(detail, check.detail), check.detail
