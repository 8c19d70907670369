"""The development probe (``experiments.note_probe``): its notes files, its counts, and a
read of notes on a real git repository through the MCP server in memory."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from experiments.errors import ExperimentError
from experiments.note_probe import Note, _probes, _read, read_notes, tally
from tests.conftest import GitRepo


def test_a_notes_file_is_labels_tabs_and_notes(tmp_path: Path) -> None:
    path = tmp_path / "x.notes"
    path.write_text("# a comment\nT\tWe use click.\n\nF\tWe use typer.\n", encoding="utf-8")
    assert read_notes(path) == [Note(True, "We use click."), Note(False, "We use typer.")]
    path.write_text("T We use click.\n", encoding="utf-8")
    with pytest.raises(ExperimentError, match=r"x.notes:1: expected 'T' or 'F', a tab"):
        read_notes(path)


def test_the_shipped_probes_name_their_notes_and_pin_their_archives() -> None:
    probes = _probes()
    assert {"flower", "datasette"} <= set(probes)
    for name, project in probes.items():
        [version] = project.versions
        assert len(version.sha256) == 64 and version.url.endswith(version.filename)
        notes = read_notes(Path(str(project.facts)).parent.parent / "probes" / f"{name}.notes")
        assert sum(n.true for n in notes) and sum(not n.true for n in notes)


def test_notes_are_read_and_counted_on_a_real_repository(git_repo: GitRepo) -> None:
    git_repo.commit({"pyproject.toml": '[project]\nname = "app"\ndependencies = ["click"]\n',
                     "app/__init__.py": "", "app/cli.py": "import click\n"}, "an app")  # fmt: skip
    notes = [Note(True, "app/cli.py imports click."), Note(False, "app/cli.py imports typer."),
             Note(False, "We track bugs in Jira.")]  # fmt: skip
    served = asyncio.run(_read(git_repo.root, notes))
    assert [status for _n, status, _why in served] == ["VERIFIED", "REFUTED", "ACTIVE"]
    assert tally(served) == {"false": 2, "false served VERIFIED": 0, "false served": 1,
                             "true": 1, "true VERIFIED": 1, "true refuted": 0}  # fmt: skip
