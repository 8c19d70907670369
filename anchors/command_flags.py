"""What a note says the image runs with, bound to the Dockerfile's CMD and ENTRYPOINT,
or is built with, bound to a RUN (issue #31): "the image starts kinto with `--port 8888`",
"gunicorn in the image runs 2 workers", "the Docker build runs uv sync --locked".

- A command-line option written as one (``--host 0.0.0.0``, ``--preload``) is bound to
  the command that states it; when neither CMD nor ENTRYPOINT does, to the one command the
  image has, which then refutes it. With both and neither stating it, it stays uncovered:
  which one was meant cannot be told.
- A value the command passes as it is written (``0.0.0.0:8080``, ``10001``) is checked
  there; one it does not pass stays uncovered, since it may be stated elsewhere.
- A number of workers, or the address a server is bound to, is the value of the option
  the command passes for it (``-w 4``, ``--workers=4``, ``--concurrency 4``,
  ``--processes 4``, ``-b 0.0.0.0:8080``), written back with the file's own spelling of
  the option. A command that passes none leaves it uncovered: the value may come from the
  environment or a configuration file.

- "The image doesn't use gunicorn" (a program the clause ends with): refuted where CMD or
  ENTRYPOINT runs it (``!gunicorn``), never verified, since a script the command runs may.

The caller (``anchors.infra_binding``) reads only plain sentences about the image, and
picks the Dockerfile the sentence is about.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.infra_values import InfraValue
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding
from anchors.value_claims import OPTION, StatedValue

__all__ = ["bind_command_flags", "bind_command_literals", "not_run"]

_COMMANDS = ("ENTRYPOINT", "CMD")
_RUNS = re.compile(r"\b(?:runs?|starts?|started|launch\w*|serves?|boots?|entrypoint|"
                   r"command|cmd)\b", re.IGNORECASE)  # fmt: skip
_BUILDS = re.compile(r"\b(?:(?i:build\w*|built|install\w*|compil\w*|cop(?:y|ies))|RUN)\b")
_PORT_AFTER = re.compile(r":\d{2,5}\b")
_NUMBERS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
            "seven": "7", "eight": "8", "nine": "9", "ten": "10", "twelve": "12",
            "sixteen": "16"}  # fmt: skip
# "runs 2 workers", "with four gunicorn workers", "4 worker processes"
_WORKERS = re.compile(
    rf"\b(?P<n>\d{{1,3}}|{'|'.join(_NUMBERS)})\s+(?:[a-z]+\s+)?workers?\b(?!\s+(?:class|type|timeout))",
    re.IGNORECASE,
)
_WORKER_OPTION = re.compile(
    r"(?<!\S)(?P<opt>-w|--workers|--concurrency|-c|--processes)(?:=|\s+)(?P<n>\d+)(?!\S)"
)
# "bound to 0.0.0.0:8080", "listens on 127.0.0.1:8000": the address a server binds
_BOUND = re.compile(
    r"\b(?:bound\s+to|binds?(?:\s+to)?|listens?\s+on|listening\s+on)\s+`?"
    r"(?P<n>[\w.\-]+:\d{2,5})\b`?",
    re.IGNORECASE,
)
_BIND_OPTION = re.compile(r"(?<!\S)(?P<opt>-b|--bind)(?:=|\s+)(?P<n>\S+)")
# Which servers read each option so (``-c`` is gunicorn's config file, celery's workers).
_SERVERS = {
    "-b": "gunicorn|hypercorn",
    "--bind": "gunicorn|hypercorn|granian",
    "-w": "gunicorn|uvicorn|hypercorn|granian",
    "--workers": "gunicorn|uvicorn|hypercorn|granian",
    "-c": "celery",
    "--concurrency": "celery",
    "--processes": "uwsgi",
}


def bind_command_flags(text: str, start: int, end: int, fp: Fingerprint,
                       dockerfile: str) -> list[Binding]:  # fmt: skip
    """The options and worker counts the sentence ``text[start:end]`` states of what
    ``dockerfile`` runs."""
    values = fp.infra.get(dockerfile) or ()
    commands = [v for v in values if v.key in _COMMANDS and v.text]
    builds = _BUILDS.search(text, start, end) is not None
    out: list[Binding] = []
    # Only a sentence about what the image runs, not about how it is built, can mean the
    # one command when none passes the option: "installs with uv sync --locked" is a RUN,
    # bound only to a RUN that passes it (a RUN may run a script that passes it unseen).
    running = _RUNS.search(text, start, end) is not None and not builds
    for m in OPTION.finditer(text, start, end):
        stated = m["opt"] + (f" {m['value'].strip('`')}" if m["value"] else "")
        steps = [v for v in values if v.key == "RUN"] if builds else []
        bound = _command_for(m["opt"], steps, False) or _command_for(m["opt"], commands, running)
        if bound is not None:
            anchor = Anchor(AnchorKind.CONFIG, bound, scope=dockerfile, version=stated)
            out.append(Binding(anchor, stated, m.span()))
    stated_for = [(m, _NUMBERS.get(m["n"].lower(), m["n"]), _WORKER_OPTION)
                  for m in _WORKERS.finditer(text, start, end)]  # fmt: skip
    stated_for += [(m, m["n"], _BIND_OPTION) for m in _BOUND.finditer(text, start, end)]
    for m, said, option in stated_for:
        for value in commands:
            passed = option.search(value.text or "")
            if passed is not None and _read_so(value.text or "", passed):
                stated = f"{passed['opt']} {said}"
                anchor = Anchor(AnchorKind.CONFIG, value.key, scope=dockerfile, version=stated)
                out.append(Binding(anchor, m["n"], m.span("n")))
                break
    return out


def _command_for(option: str, commands: list[InfraValue], running: bool) -> str | None:
    """The key of the command that passes ``option``; else, in a sentence about what the
    image runs, its only command."""
    having = [v.key for v in commands if re.search(rf"(?<!\S){re.escape(option)}(?![\w-])",
                                                   v.text or "")]  # fmt: skip
    if having:
        return str(having[0])
    keys = {v.key for v in commands}
    return str(next(iter(keys))) if running and len(keys) == 1 else None


def _read_so(command: str, passed: re.Match[str]) -> bool:
    """Whether the server the command runs before ``passed`` reads it so (a worker count,
    the address it binds)."""
    servers = _SERVERS[passed["opt"]]
    return re.search(rf"\b(?:{servers})\b", command[: passed.start()]) is not None


def bind_command_literals(text: str, values: list[StatedValue], fp: Fingerprint,
                          dockerfile: str) -> list[Binding]:  # fmt: skip
    """The stated ``values`` (of a sentence about the image) that a command of
    ``dockerfile`` passes word for word: "bound to 0.0.0.0:8080" and ``-b 0.0.0.0:8080``,
    "uid 10001" and ``useradd --uid 10001``. Only a number, an address or a path, never a
    plain word, and only where it is written: what is not written there is not refuted."""
    commands = [v for v in fp.infra.get(dockerfile) or ()
                if v.key in (*_COMMANDS, "RUN") and v.text]  # fmt: skip
    out = []
    for value in values:
        raw = value.text.strip("`'\"").rstrip(".,;:")
        end = value.end
        if (port := _PORT_AFTER.match(text, end)) is not None:  # "0.0.0.0:8080": one value
            raw, end = raw + port.group(), port.end()
        if len(raw) < 2 or not re.search(r"[\d/:]", raw) or re.search(r"\s", raw):
            continue
        for command in commands:
            words = {w.strip("'\"") for part in (command.text or "").split()
                     for w in part.split("=", 1)}  # fmt: skip
            if raw in words:
                anchor = Anchor(AnchorKind.CONFIG, command.key, scope=dockerfile, version=raw)
                out.append(Binding(anchor, raw, (value.start, end)))
                break
    return out


# "the production image doesn't use gunicorn", "the container no longer runs celery."
NOT_RUN = re.compile(
    r"\b(?:does\s+not|doesn['’]t|do\s+not|don['’]t|never|no\s+longer)\s+(?:uses?|runs?|"
    r"starts?|launch(?:es)?)\s+(?:with\s+|through\s+|via\s+)?`?(?P<x>[a-z][\w-]*[a-z0-9])`?"
    r"(?=\s*(?:[.;,)](?![\w/])|$))",
    re.IGNORECASE,
)


def not_run(text: str, start: int, end: int, fp: Fingerprint, dockerfile: str) -> list[Binding]:
    """The programs the sentence says the image does not run, one anchor for each command
    ``dockerfile`` has: ``CMD=!gunicorn`` (``anchors.infra_compare.compare_command``)."""
    commands = [v for v in fp.infra.get(dockerfile) or () if v.key in _COMMANDS and v.text]
    if _BUILDS.search(text, start, end):  # "the build no longer uses ...": not what it runs
        return []
    out = []
    for m in NOT_RUN.finditer(text, start, end):
        for key in dict.fromkeys(v.key for v in commands):
            anchor = Anchor(AnchorKind.CONFIG, key, scope=dockerfile, version=f"!{m['x']}")
            out.append(Binding(anchor, m.group(), m.span()))
    return out
