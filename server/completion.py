"""Shell completion for bash, zsh and fish, written from the argparse parser itself:
``anchormem completion SHELL`` prints a static script, so completing costs the shell
nothing (no Python is started on TAB) and needs no global activation (adr/0024). A
command or option added to the parser is in the next script printed."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["SHELLS", "Command", "command_tree", "script"]

SHELLS = ("bash", "zsh", "fish")

_SAFE = re.compile(r"^[\w.:@/+=-]+$")  # a word written into a script without quoting
# Values that are paths: a folder, or any file.
_DIRS = frozenset({"repo"})
_FILES = frozenset({"db", "out", "facts", "file", "source", "target"})


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    help: str
    takes_value: bool
    repeatable: bool
    choices: tuple[str, ...] = ()
    path: str = ""  # "dir", "file" or ""


@dataclass(frozen=True)
class Positional:
    name: str
    choices: tuple[str, ...] = ()
    path: str = ""
    optional: bool = False
    many: bool = False


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    options: tuple[Option, ...] = ()
    positionals: tuple[Positional, ...] = ()
    subcommands: tuple[Command, ...] = field(default_factory=tuple)

    def walk(self, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Command]]:
        """(the command words leading to it, the command), this one first."""
        yield path, self
        for sub in self.subcommands:
            yield from sub.walk((*path, sub.name))


def _ident(word: str) -> str:
    """``word`` as part of a shell function's name."""
    return re.sub(r"\W", "_", word)


def _brief(help_text: str, most: int = 70) -> str:
    """A help text's first clause, cut at a word to at most ``most`` characters."""
    first = help_text.split(";")[0].strip()
    if len(first) <= most:
        return first
    return first[: first.rfind(" ", 0, most - 1)].rstrip(" ,(") + "…"


def _path_kind(action: argparse.Action) -> str:
    if action.dest in _DIRS:
        return "dir"
    metavar = str(action.metavar or "")
    if action.dest in _FILES or metavar in ("FILE", "DIR", "PATH"):
        return "file"
    return ""


def _choices(action: argparse.Action) -> tuple[str, ...]:
    if action.choices is None or isinstance(action, argparse._SubParsersAction):
        return ()
    return tuple(str(c) for c in action.choices if _SAFE.match(str(c)))


def command_tree(parser: argparse.ArgumentParser, name: str, help_text: str = "") -> Command:
    """The commands, options and arguments of ``parser``, as the scripts need them."""
    options: list[Option] = []
    positionals: list[Positional] = []
    subcommands: list[Command] = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for sub_name, sub_parser in action.choices.items():
                subcommands.append(command_tree(sub_parser, sub_name, helps.get(sub_name, "")))
            continue
        if action.option_strings:
            options.append(
                Option(
                    flags=tuple(action.option_strings),
                    help=" ".join(str(action.help or "").split()),
                    takes_value=action.nargs != 0,
                    repeatable=isinstance(action, argparse._AppendAction),
                    choices=_choices(action),
                    path=_path_kind(action),
                )
            )
        else:
            positionals.append(
                Positional(
                    name=str(action.metavar or action.dest),
                    choices=_choices(action),
                    path=_path_kind(action),
                    optional=action.nargs in ("?", "*"),
                    many=action.nargs in ("*", "+"),
                )
            )
    return Command(name, help_text, tuple(options), tuple(positionals), tuple(subcommands))


# -- bash ---------------------------------------------------------------------------------


def _bash(root: Command) -> str:
    prog = root.name
    fn = "_" + _ident(prog)
    tables: dict[str, dict[str, str]] = {
        "words": {},  # subcommands and positional choices, per command path
        "opts": {},  # options, per command path
        "takes": {},  # options that take a value, per command path
        "subs": {},  # subcommands, per command path
        "choices": {},  # "path|--option": its values
        "dirs": {},
        "files": {},
        "posfiles": {},  # paths whose positional takes a file
    }
    for path, cmd in root.walk():
        key = " ".join((prog, *path))  # bash has no empty key: the root is the program
        subs = [s.name for s in cmd.subcommands]
        tables["subs"][key] = " ".join(subs)
        tables["words"][key] = " ".join([*subs, *(c for p in cmd.positionals for c in p.choices)])
        tables["opts"][key] = " ".join(f for o in cmd.options for f in o.flags)
        tables["takes"][key] = " ".join(f for o in cmd.options if o.takes_value for f in o.flags)
        if any(p.path for p in cmd.positionals):
            tables["posfiles"][key] = "1"
        for o in cmd.options:
            for flag in o.flags:
                if o.choices:
                    tables["choices"][f"{key}|{flag}"] = " ".join(o.choices)
                elif o.path == "dir":
                    tables["dirs"][f"{key}|{flag}"] = "1"
                elif o.path == "file":
                    tables["files"][f"{key}|{flag}"] = "1"

    def array(name: str, values: dict[str, str]) -> str:
        body = "".join(f'    ["{k}"]="{v}"\n' for k, v in values.items())
        return f"declare -gA {fn}_{name}=(\n{body})\n"

    arrays = "".join(array(name, values) for name, values in tables.items())
    return f"""# bash completion for {prog}, written by `{prog} completion bash`.
# Load it with: source <({prog} completion bash)   (or save it in
# ~/.local/share/bash-completion/completions/{prog})
{arrays}
{fn}() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" path="{prog}" value_of="" i w
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        if [[ " ${{{fn}_takes[$path]}} " == *" $w "* ]]; then
            if ((i + 1 == COMP_CWORD)); then
                value_of="$w"
            fi
            ((i++))
        elif [[ " ${{{fn}_subs[$path]}} " == *" $w "* ]]; then
            path="$path $w"
        fi
    done
    COMPREPLY=()
    if [[ -n "$value_of" ]]; then
        local key="$path|$value_of"
        if [[ -n "${{{fn}_choices[$key]+set}}" ]]; then
            COMPREPLY=($(compgen -W "${{{fn}_choices[$key]}}" -- "$cur"))
        elif [[ -n "${{{fn}_dirs[$key]+set}}" ]]; then
            COMPREPLY=($(compgen -d -- "$cur"))
        elif [[ -n "${{{fn}_files[$key]+set}}" ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return 0
    fi
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "${{{fn}_opts[$path]}}" -- "$cur"))
    elif [[ -n "${{{fn}_words[$path]}}" ]]; then
        COMPREPLY=($(compgen -W "${{{fn}_words[$path]}}" -- "$cur"))
    elif [[ -n "${{{fn}_posfiles[$path]+set}}" ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}}
complete -o bashdefault -o default -F {fn} {prog}
"""


# -- zsh ----------------------------------------------------------------------------------


def _zq(text: str) -> str:
    """``text`` inside a single-quoted zsh word of an ``_arguments`` spec."""
    text = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return text.replace(":", "\\:").replace("'", "'\\''")


def _zsh_described(cmd: Command) -> str:
    """``'name:description'`` for ``_describe`` (a description may hold colons)."""
    entry = f"{cmd.name}:{_brief(cmd.help)}"
    return "'" + entry.replace("'", "'\\''") + "'"


def _zsh_action(choices: tuple[str, ...], path: str) -> str:
    if choices:
        return f"({' '.join(choices)})"
    return {"dir": "_files -/", "file": "_files"}.get(path, " ")


def _zsh_option(o: Option) -> list[str]:
    help_text = _zq(_brief(o.help))
    action = f":{_zq(o.flags[-1].lstrip('-'))}:{_zsh_action(o.choices, o.path)}"
    value = action if o.takes_value else ""
    star = "*" if o.repeatable else ""
    if len(o.flags) > 1:
        group = " ".join(o.flags)
        flags = ",".join(o.flags)
        return [f"'({group})'{{{flags}}}'[{help_text}]{value}'"]
    return [f"'{star}{o.flags[0]}[{help_text}]{value}'"]


def _zsh(root: Command) -> str:
    prog = root.name
    functions: list[str] = []
    for path, cmd in root.walk():
        fn = "_" + "_".join(_ident(p) for p in (prog, *path))
        specs = [s for o in cmd.options for s in _zsh_option(o)]
        body: list[str] = []
        if cmd.subcommands:
            described = " ".join(_zsh_described(sub) for sub in cmd.subcommands)
            specs += ["'1:command:->command'", "'*::arg:->args'"]
            cases = "\n".join(
                f"        {sub.name}) {fn}_{_ident(sub.name)} ;;" for sub in cmd.subcommands
            )
            body = [
                "  case $state in",
                "    command)",
                f"      local -a commands; commands=({described})",
                "      _describe -t commands 'command' commands ;;",
                "    args)",
                "      case $words[1] in",
                cases,
                "      esac ;;",
                "  esac",
            ]
        else:
            for p in cmd.positionals:
                lead = "*" if p.many else ""
                colon = "::" if p.optional and not p.many else ":"
                specs.append(f"'{lead}{colon}{_zq(p.name)}:{_zsh_action(p.choices, p.path)}'")
        args = " \\\n    ".join(specs)
        functions.append(
            f'{fn}() {{\n  local curcontext="$curcontext" state line\n'
            f"  typeset -A opt_args\n  _arguments -C \\\n    {args}\n"
            + ("\n".join(body) + "\n" if body else "")
            + "}\n"
        )
    main = "_" + _ident(prog)
    return (
        f"#compdef {prog}\n"
        f"# zsh completion for {prog}, written by `{prog} completion zsh`.\n"
        f"# Load it after compinit with: source <({prog} completion zsh)   (or save it as\n"
        f"# _{prog} in a folder of $fpath)\n\n"
        + "\n".join(functions)
        + f'\nif [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n  {main} "$@"\n'
        f"else\n  compdef {main} {prog}\nfi\n"
    )


# -- fish ---------------------------------------------------------------------------------


def _fq(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(root: Command) -> str:
    prog = root.name
    lines = [
        f"# fish completion for {prog}, written by `{prog} completion fish`.",
        f"# Load it with: {prog} completion fish | source   (or save it as",
        f"# ~/.config/fish/completions/{prog}.fish)",
        f"complete -c {prog} -f",
    ]
    for path, cmd in root.walk():
        # Options and arguments once the command's name is typed; its subcommands until
        # one of them is.
        cond = f"__fish_seen_subcommand_from {path[-1]}" if path else "__fish_use_subcommand"
        where = cond
        if path and cmd.subcommands:
            subs = " ".join(s.name for s in cmd.subcommands)
            where = f"{cond}; and not __fish_seen_subcommand_from {subs}"
        for sub in cmd.subcommands:
            lines.append(
                f"complete -c {prog} -n {_fq(where)} -a {sub.name} -d {_fq(_brief(sub.help))}"
            )
        for o in cmd.options:
            names: list[str] = []
            for flag in o.flags:
                if flag.startswith("--"):
                    names.append(f"-l {flag[2:]}")
                elif len(flag) == 2:
                    names.append(f"-s {flag[1:]}")
            if not names:
                continue
            what = ""
            if o.takes_value:
                if o.choices:
                    what = f" -x -a {_fq(' '.join(o.choices))}"
                elif o.path == "dir":
                    what = " -x -a '(__fish_complete_directories (commandline -ct))'"
                elif o.path == "file":
                    what = " -r -F"
                else:
                    what = " -x"
            said = f" -d {_fq(_brief(o.help))}" if o.help else ""
            lines.append(f"complete -c {prog} -n {_fq(cond)} {' '.join(names)}{what}{said}")
        if path and not cmd.subcommands:
            for p in cmd.positionals:
                if p.choices:
                    lines.append(f"complete -c {prog} -n {_fq(cond)} -a {_fq(' '.join(p.choices))}")
                elif p.path:
                    lines.append(f"complete -c {prog} -n {_fq(cond)} -F")
    return "\n".join(lines) + "\n"


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (one of ``SHELLS``)."""
    root = command_tree(parser, parser.prog)
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](root)
