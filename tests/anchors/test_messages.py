"""Messages the code holds and the notes that quote them (``anchors.messages``,
``anchors.message_claims``), read from real commits."""

from __future__ import annotations

import pytest

from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource
from anchors.languages import extract_facts
from anchors.messages import fixed_segments, name_literals, string_literals
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

EDITOR_PY = '''\
from gettext import gettext as _


class Editor:
    def edit_file(self, editor):
        """Edit the file."""
        if failed():
            raise ClickException(_("{editor}: Editing failed").format(editor=editor))
        log.warning("retrying %s after %d seconds", editor, 3)
'''
REGEXP_GO = '''\
package mux

import "fmt"

func braces(s string) error {
	return fmt.Errorf("mux: unbalanced braces in %q", s)
}
'''
CONTEXT_GO = '''\
package mux

import "strconv"

const userKey = "user"

func workerName(i int) string {
	return "worker-" + strconv.Itoa(i)
}
'''
CLIENT_TS = "export const fail = (n: number) => { throw new Error(`request ${n} timed out`) }\n"


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit({"click/editor.py": EDITOR_PY, "regexp.go": REGEXP_GO,
                     "web/client.ts": CLIENT_TS, "context.go": CONTEXT_GO,
                     "README.md": 'Says "Editing failed" too.\n'},
                    "code with messages")  # fmt: skip
    return source.fingerprint()


def test_string_literals_keep_what_reads_as_a_message() -> None:
    assert string_literals(EDITOR_PY.encode()) == (  # a docstring is text the code holds too
        "Edit the file.", "{editor}: Editing failed", "retrying %s after %d seconds")
    assert string_literals(REGEXP_GO.encode()) == ("mux: unbalanced braces in %q",)
    assert extract_facts(CLIENT_TS.encode(), "typescript").strings == ("request ${n} timed out",)


@pytest.mark.parametrize(
    ("message", "segments"),
    [
        ("<editor>: Editing failed!", ("editing failed!",)),
        ("{editor}: Editing failed", ("editing failed",)),
        ("mux: unbalanced braces in %q", ("mux: unbalanced braces in",)),
        ("retrying %(name)s after {n} seconds", ("retrying", "after", "seconds")),
        ("request ${n} timed out", ("request", "timed out")),
    ],
)
def test_placeholders_split_a_message_into_its_fixed_text(
    message: str, segments: tuple[str, ...]
) -> None:
    assert fixed_segments(message) == segments


@pytest.mark.parametrize(
    ("anchor", "verdict"),
    [
        ("message:<editor>: Editing failed", Verdict.HOLDS),
        ("message:click/editor.py::<editor>: Editing failed", Verdict.HOLDS),
        ("message:<editor>: Editing failed!", Verdict.BROKEN),  # "!" is text, "." is not
        ("message:retrying <name> after <n> seconds.", Verdict.HOLDS),
        ("message:retrying <name> before <n> seconds", Verdict.BROKEN),
        ("message:regexp.go::mux: unbalanced braces in %s", Verdict.HOLDS),
        ("message:request <id> timed out", Verdict.HOLDS),
        # said by another file than the one named: a helper may raise it, no answer
        ("message:regexp.go::<editor>: Editing failed", Verdict.UNKNOWN),
        # prose is no source: the README saying it does not count
        ("message:Says Editing failed too", Verdict.BROKEN),
        ("!message:mux: unbalanced braces in %q", Verdict.BROKEN),
        # a name the code writes as a string, whole or by the stem of numbered names
        ("message:user", Verdict.HOLDS),
        ("message:session", Verdict.BROKEN),
        ("message:context.go::worker-3", Verdict.HOLDS),
        ("message:worker-3", Verdict.UNKNOWN),  # a "worker-" anywhere may name anything
        ("message:job3", Verdict.BROKEN),
    ],
)
def test_a_message_anchor_is_checked_against_the_literals(
    fp: Fingerprint, anchor: str, verdict: Verdict
) -> None:
    assert check_anchor(parse_anchor(anchor), None, fp).verdict is verdict


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('A template with unbalanced braces fails with "mux: unbalanced braces in %q".',
         "message:mux: unbalanced braces in %q"),
        ('`Editor.edit_file` raises ClickException("<editor>: Editing failed!") on error.',
         "message:click/editor.py::<editor>: Editing failed!"),
        ("The editor logs 'retrying <editor> after 3 seconds' between attempts.",
         "message:retrying <editor> after 3 seconds"),
        # a quoted name, a reason phrase, a single word: no message
        ('The "Getting started" page explains the setup.', None),
        ('A missing page answers 404 "Not Found".', None),
        # a name stored under, written as a string; numbered names the code makes
        ('The vars live under the string key "vars".', "message:vars"),
        ('The user is kept under the context key "user".', "message:user"),
        ("Workers are named worker-1, worker-2, ... (workerName).",
         "message:context.go::worker-1"),
        ('The "user" field is shown first.', None),
    ],
)  # fmt: skip
def test_a_note_quoting_what_the_code_says_gets_a_message_anchor(
    fp: Fingerprint, text: str, message: str | None
) -> None:
    found = [a.render() for a in infer_anchors(text, fp).anchors
             if a.render().startswith("message:")]  # fmt: skip
    assert found == ([message] if message else []), found


def test_name_literals_keep_strings_that_read_as_names_or_numbered_stems() -> None:
    source = b'a := "vars"; b := "var%d"; c := "v" + s; d := "a b"; // the "k-1" key\n'
    assert name_literals(source) == ("k-1", "v", "var%d", "vars")  # a comment's quote too
    assert name_literals(b"x = [" + b", ".join(b'"k%d"' % i for i in range(2000)) + b"]") is None


def test_the_messages_of_a_file_are_cached_with_its_facts() -> None:
    from anchors.fingerprint import facts_from_json, facts_to_json

    facts = extract_facts(REGEXP_GO.encode(), "go")
    assert facts_from_json(facts_to_json(facts)).strings == facts.strings
    named = extract_facts(CONTEXT_GO.encode(), "go")
    assert named.keys == ("strconv", "user", "worker-")  # an import path is a string too
    assert facts_from_json(facts_to_json(named)).keys == named.keys
