"""Messages a note quotes as what the code says (issue #31: a value said of a definition
is checked, never VERIFIED on the definition existing), through MCP ``remember`` +
``recall`` on a real git repository: the right message is VERIFIED with the literal
quoted, a wrong one REFUTED; a note about a function whose body changed is judged again at
HEAD by the message it quotes."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import remember_and_serve, remember_commit_recall, said

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

EDITOR = '''\
class ClickException(Exception):
    pass


class Editor:
    def edit_file(self, editor, code):
        if code != 0:
            raise ClickException(f"{editor}: Editing failed")
        return code
'''
REGEXP_GO = '''\
package mux

import "fmt"

func braces(s string) error {
	return fmt.Errorf("mux: unbalanced braces in %q", s)
}
'''
FILES = {"pyproject.toml": '[project]\nname = "clk"\n', "clk/__init__.py": "",
         "clk/editor.py": EDITOR, "regexp.go": REGEXP_GO}  # fmt: skip
RAISES = '`Editor.edit_file` raises ClickException("<editor>: Editing failed") when it fails.'


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(FILES, "code with messages")
    return git_repo


@pytest.mark.parametrize(
    ("text", "status", "reason"),
    [
        (RAISES, "VERIFIED", 'clk/editor.py says "{editor}: Editing failed"'),
        ('`Editor.edit_file` raises ClickException("<editor>: Editing failed!") when it fails.',
         "REFUTED", 'says "<editor>: Editing failed!"'),
        ('A template with unbalanced braces fails with "mux: unbalanced braces in %q".',
         "VERIFIED", 'regexp.go says "mux: unbalanced braces in %q"'),
        ('A template with unbalanced braces fails with "mux: braces do not balance".',
         "REFUTED", 'no string in the source code says "mux: braces do not balance"'),
    ],
)  # fmt: skip
async def test_a_quoted_message_is_checked_against_the_code(
    repo: GitRepo, text: str, status: str, reason: str
) -> None:
    served = await remember_and_serve(repo.root, text)
    assert served["status"] == status, served
    assert reason in said(served), served


@pytest.mark.parametrize(
    ("old", "new", "status", "reason"),
    [
        # the body changed, the message kept: what the note says holds at HEAD
        ("return code", "return code or None", "VERIFIED", "re-judged at HEAD"),
        # the message changed: refuted, whatever else holds
        ("Editing failed", "Editing was aborted", "REFUTED", "no string in clk/editor.py says"),
    ],
)
async def test_a_drifted_note_is_judged_again_by_the_message_it_quotes(
    repo: GitRepo, old: str, new: str, status: str, reason: str
) -> None:
    _, served = await remember_commit_recall(
        repo, RAISES, None, {"clk/editor.py": EDITOR.replace(old, new)}
    )
    assert served["status"] == status, served
    assert reason in said(served), served
