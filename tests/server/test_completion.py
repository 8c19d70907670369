"""``anchormem completion bash|zsh|fish``: scripts written from the parser, that parse in
their shell and complete the commands, their options and their values (adr/0024).
The bash script is driven as bash drives it (``COMP_WORDS``/``COMP_CWORD``); fish answers
``complete -C``; zsh is checked to parse and register (skipped where the shell is not
installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli import build_parser
from server.completion import SHELLS, command_tree, script
from tests.conftest import anchormem_env

SCRIPT = str(Path(sys.executable).with_name("anchormem"))


def printed(shell: str, cwd: Path) -> str:
    """The script as the console script prints it: outside any repository, to a pipe."""
    done = subprocess.run(
        [SCRIPT, "completion", shell],
        cwd=cwd,
        env=anchormem_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def bash_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("completion")
    path = folder / "anchormem.bash"
    path.write_text(printed("bash", folder))
    return path


def complete_in_bash(script_file: Path, *words: str) -> list[str]:
    """What the script offers for ``words`` (the last one being typed)."""
    program = (
        f"source {script_file}\n"
        'COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()\n'
        "_anchormem\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program, "bash", *words],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=script_file.parent,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_the_bash_script_is_valid_bash(bash_file: Path):
    done = subprocess.run(["bash", "-n", str(bash_file)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_bash_completes_every_command_name_from_the_parser(bash_file: Path):
    parser = build_parser()
    names = [c.name for c in command_tree(parser, "anchormem").subcommands]
    assert complete_in_bash(bash_file, "anchormem", "") == names
    assert complete_in_bash(bash_file, "anchormem", "re") == [
        n for n in names if n.startswith("re")
    ]
    assert complete_in_bash(bash_file, "anchormem", "comp") == ["completion"]
    # Global options and their values do not hide the command.
    assert complete_in_bash(bash_file, "anchormem", "--db", "x.duckdb", "li") == ["list"]


def test_bash_completes_options_values_and_nested_commands(bash_file: Path):
    assert complete_in_bash(bash_file, "anchormem", "list", "--l") == ["--limit", "--long"]
    assert complete_in_bash(bash_file, "anchormem", "list", "--status", "") == [
        "ACTIVE",
        "VERIFIED",
        "REFUTED",
    ]
    assert complete_in_bash(bash_file, "anchormem", "resolve", "m1", "m2", "co") == [
        "conflict",
        "compatible",
    ]
    assert complete_in_bash(bash_file, "anchormem", "completion", "") == list(SHELLS)
    assert complete_in_bash(bash_file, "anchormem", "experiment", "") == ["contamination"]
    assert complete_in_bash(
        bash_file, "anchormem", "experiment", "contamination", "--corpus", "r"
    ) == ["real"]
    # A file for the options that take one, a folder for --repo.
    assert complete_in_bash(bash_file, "anchormem", "import", "anchormem.ba") == ["anchormem.bash"]
    (bash_file.parent / "sub").mkdir(exist_ok=True)
    assert complete_in_bash(bash_file, "anchormem", "--repo", "su") == ["sub"]
    # A value typed for an option is never taken for a command name.
    assert complete_in_bash(bash_file, "anchormem", "recall", "--limit", "") == []


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_the_zsh_script_parses_and_registers_the_completion(tmp_path: Path):
    path = tmp_path / "_anchormem"
    path.write_text(printed("zsh", tmp_path))
    done = subprocess.run(["zsh", "-n", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    program = (
        f"autoload -U compinit; compinit -u -d {tmp_path}/zcompdump; source {path};"
        " print -r -- ${_comps[anchormem]}; whence -w _anchormem_list _anchormem_experiment"
    )
    done = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "_anchormem",
        "_anchormem_list:",
        "function",
        "_anchormem_experiment:",
        "function",
    ]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_the_fish_script_parses_and_completes(tmp_path: Path):
    path = tmp_path / "anchormem.fish"
    path.write_text(printed("fish", tmp_path))
    done = subprocess.run(["fish", "--no-execute", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    def offered(line: str) -> list[str]:
        done = subprocess.run(
            ["fish", "--no-config", "-c", f"source {path}; complete -C '{line}'"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return [entry.split("\t")[0] for entry in done.stdout.splitlines()]

    assert "completion" in offered("anchormem comp")
    assert set(offered("anchormem re")) >= {"remember", "recall", "retract", "restore", "review"}
    assert offered("anchormem list --status ") == ["ACTIVE", "REFUTED", "VERIFIED"]
    assert offered("anchormem experiment ") == ["contamination"]
    assert "--long" in offered("anchormem list --")


def test_every_command_and_option_of_the_parser_is_in_each_script():
    parser = build_parser()
    tree = command_tree(parser, "anchormem")
    for shell in SHELLS:
        text = script(parser, shell)
        for path, command in tree.walk():
            if path:
                assert command.name in text, (shell, path)
            for option in command.options:
                assert option.flags[-1].lstrip("-") in text, (shell, path, option.flags)
