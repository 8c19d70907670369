"""Parts named by their kind (``anchors.component_kinds``), on a real commit."""

from __future__ import annotations

import pytest

from anchors.component_kinds import KindPath, kind_path, part_claims
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource
from anchors.subject import resolve_subject
from tests.conftest import GitRepo

FILES = {
    "app/__init__.py": "",
    "app/jobs/management/commands/sync-exercises.py": "import requests\n",
    "app/jobs/management/commands/warmup.py": "",
    "app/plugins/__init__.py": "",
    "app/plugins/counters.py": "",
    "app/plugins/history/__init__.py": "",
    "web/src/components/UserCard.vue": "<template></template>\n",
}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(FILES, "parts of kinds")
    return source.fingerprint()


@pytest.mark.parametrize(
    ("name", "kind", "where"),
    [
        ("sync-exercises", "command", KindPath("app/jobs/management/commands/sync-exercises.py",
                                               False)),
        ("sync_exercises", "commands", KindPath("app/jobs/management/commands/sync-exercises.py",
                                                False)),
        ("counters", "plugin", KindPath("app/plugins/counters.py", False)),
        ("history", "plugin", KindPath("app/plugins/history", False)),
        ("UserCard", "component", KindPath("web/src/components/UserCard.vue", False)),
        ("rate-limit", "plugin", KindPath("app/plugins/rate_limit", True)),  # where it would be
        ("counters", "middleware", None),  # no middleware folder: nothing to say
        ("counters", "gadget", None),  # no kind known
    ],
)  # fmt: skip
def test_a_part_is_found_in_the_folder_of_its_kind(
    fp: Fingerprint, name: str, kind: str, where: KindPath | None
) -> None:
    assert kind_path(name, kind, fp) == where


def test_what_a_note_says_the_project_has_or_lacks(fp: Fingerprint) -> None:
    text = ("The app has no counters plugin. It ships a `rate-limit` plugin. There is no "
            "custom plugin. It has a tracing plugin. There is no audit plugin.")  # fmt: skip
    found = [(absent, where.path) for _w, absent, where, _n in part_claims(text, fp)]
    # "no custom plugin" names no part; "a tracing plugin" would be a guess from a word;
    # "no audit plugin" is checked where it would be (a module is found without its suffix)
    assert found == [(True, "app/plugins/counters.py"), (False, "app/plugins/rate_limit"),
                     (True, "app/plugins/audit")]  # fmt: skip


def test_a_part_named_as_the_subject_scopes_the_note(fp: Fingerprint) -> None:
    text = "The sync-exercises management command fetches exercises with requests."
    assert resolve_subject(None, text, fp) == "app/jobs/management/commands/sync-exercises.py"
