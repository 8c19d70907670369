"""Files a note names that the tree need not hold: a settings or data file the program
reads or writes at its user's place ("./configuration.yaml in the working directory"), which
the code names as a string, and a file named inside a command in backticks (`pip install -r
requirements.txt`). Their absence from the tree proves nothing: the note leaves them
unchecked (adr/0061)."""

from __future__ import annotations

import re

from anchors.candidates import _Cand
from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.mentions import Role, role_of

__all__ = ["command_of", "command_program", "in_command", "users_file"]

# Files a project keeps at its root beside its manifests and infrastructure files: a note
# naming one means the tree's
_ROOT_FILES = frozenset({
    "makefile", "procfile", "justfile", "jenkinsfile", "vagrantfile", "gemfile", "pipfile",
    "manifest.in", "codeowners", ".gitignore", ".dockerignore", ".gitattributes", ".editorconfig",
    ".travis.yml", "appveyor.yml", "netlify.toml", "vercel.json", "fly.toml", "mkdocs.yml",
    "renovate.json", ".readthedocs.yml", ".readthedocs.yaml", "codecov.yml", ".coveragerc",
})  # fmt: skip
_VALUE_BEFORE = re.compile(r"\b(?:default(?:s|ing)?(?:\s+to)?|falls?\s+back\s+to|=)\s*[`'\"]?$",
                           re.IGNORECASE)
# What says a file is the tree's own: "ships", "at the top level", "in the sdist"
_IN_THE_TREE = re.compile(
    r"\b(?:ships?|shipped|includes?|included|bundles?|bundled|contains?|tracked|committed|"
    r"checked\s+in|vendored|at\s+the\s+(?:top[\s-]level|root)|top[\s-]level|"
    r"(?:in|of|from)\s+(?:the|this|our)\s+(?:repo|repository|sdist|tarball|tree|package|crate|"
    r"archive|checkout|project(?:'s)?\s+root))\b", re.IGNORECASE)


_SETTINGS_KINDS = (None, InfraKind.INI, InfraKind.YAML_SETTINGS)


def users_file(name: str, sentence: str, fp: Fingerprint) -> bool:
    """Whether a settings or data file named bare that the tree holds nowhere is one the
    program reads or writes at run time ("./configuration.yaml in the CWD", ".pre-commit-
    config.yaml"): the code writes its name as a string, it is no file a project keeps at
    its root (a Dockerfile, a compose file, a Makefile), and no word says the tree holds
    it."""
    kind = infra_kind(name)
    if _VALUE_BEFORE.search(sentence.partition(name)[0][-24:]):
        return False  # "defaults to "diskrecord.json"": the value, which its reader checks
    return (role_of(name) is not Role.CODE and kind in _SETTINGS_KINDS
            and name.lower() not in _ROOT_FILES and not _IN_THE_TREE.search(sentence)
            and name in fp.derived("run_time_files.file_names", _file_names_in_code))


def written_path(path: str, fp: Fingerprint) -> bool:
    """Whether the code writes ``path`` (``./misc/tor/control.conf``) whole as a string:
    a file the program opens where it runs, relative to its working directory."""
    return path.removeprefix("./") in fp.derived("run_time_files.paths", _paths_in_code)


def _paths_in_code(fp: Fingerprint) -> frozenset[str]:
    return frozenset(p.removeprefix("./") for facts in fp.code.values() for p in facts.paths or ())


def _file_names_in_code(fp: Fingerprint) -> frozenset[str]:
    """The file names the code writes as strings: a literal that is a name with a suffix
    (``"requirements.txt"``), or the last part of a path literal."""
    found: set[str] = set()
    for facts in fp.code.values():
        found.update(k for k in facts.keys or () if "." in k.strip("."))
        found.update(p.rpartition("/")[2] for p in facts.paths or ())
    return frozenset(found)


_COMMAND_SPAN = re.compile(r"`(?P<c>[a-z][\w.\-]*(?: [^`\n]+)+)`")


def in_command(c: _Cand, text: str, name: str) -> bool:
    """Whether a file that is not source code is named inside a command line in backticks
    (`pip install -r requirements.txt`): the command's file, wherever it runs."""
    return role_of(name) is not Role.CODE and any(
        m.start("c") <= c.start and c.end <= m.end("c") for m in _COMMAND_SPAN.finditer(text))


# A command line's flag ("-r", "--file"): what makes a span in backticks a command; a
# module run alone (`python -m requests.help`) is the module, read as a name
_FLAG = re.compile(r"\s--?[A-Za-z]")
_MODULE_ALONE = re.compile(r"(?:python3?|py)\s+-m\s+[\w.]+")


def command_of(c: _Cand, text: str) -> tuple[int, int] | None:
    """The span of the command line in backticks ``c`` is a word of (`git config --file x
    key value`, `flask user create EMAIL --password X`): a span that opens with a
    program's name and passes a flag. None elsewhere."""
    for m in _COMMAND_SPAN.finditer(text):
        if (m.start("c") <= c.start and c.end <= m.end("c") and _FLAG.search(m["c"])
                and not _MODULE_ALONE.fullmatch(m["c"])):  # fmt: skip
            return m.span("c")
    return None


# Interpreters and runners a command names before what it runs
_RUNNERS = frozenset({"python", "python3", "py", "node", "bash", "sh", "npx", "uv", "uvx",
                      "sudo", "env", "exec"})  # fmt: skip
_RUN_BEFORE = re.compile(r"\b(?:runs?|running|calls?|invokes?|executes?|spawns?|shells?\s+out"
                         r"(?:\s+to)?|with|via|through)\s+$", re.IGNORECASE)
_MODULE_RUN = re.compile(r"(?:python3?|py)\s+-m\s+(?P<m>[A-Za-z_][\w.]*)")


def command_program(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """The span of what a command in backticks runs, where the sentence says something
    runs it ("runs `git config ...`", "installs it with `python -m pip install`"): code
    that runs the command writes it as a string (``["git", "config", ...]``,
    ``[sys.executable, "-m", "pip"]``): the program, or the module after ``python -m``;
    None after another runner, or where nothing is said to run it."""
    if _RUN_BEFORE.search(text, max(0, span[0] - 40), span[0] - 1) is None:
        return None
    command = text[span[0] : span[1]]
    if (m := _MODULE_RUN.match(command)) is not None:
        return span[0] + m.start("m"), span[0] + m.end("m")
    program = command.split(" ", 1)[0]
    return None if program in _RUNNERS else (span[0], span[0] + len(program))

