"""Values a note states about the application's infrastructure, bound to the file that
says them (issue #31): "The image is built FROM python:3.9", "compose runs postgres:12",
"CI tests on Python 3.8", "the container exposes port 8000".

A wrong binding would refute a true note, so a value is bound to a key only when

- the sentence names the context: Docker (Dockerfile, image, base image, container),
  compose (compose, service) or CI (CI, workflow, GitHub Actions, pipeline, matrix,
  "tested on");
- the fingerprint has such a file stating that key (a base image of that repository, a
  service running that image or named in the sentence, a CI ``python-version`` list);
  a Dockerfile's USER is bound where it states none too (its image runs as its base
  image's user: ``anchors.infra_check``), and a base image is bound against every
  Dockerfile when the sentence is about building one and no infrastructure file uses an
  image of that repository at all ("built FROM python:3.10" beside FROM ubuntu);
- nothing in the sentence makes it a plan, a condition, the past, a negation or an
  example, or places it elsewhere (production, staging, a deployment, Kubernetes); the
  only negations read are of the image's user: "doesn't run as root" (``USER=!root``)
  and "has no USER directive" (``!config:Dockerfile::USER``);
- the value has the key's form: an image reference, a version ("Python 3.8", "3.10
  through 3.12", "3.8+"), a port after "port" / "expose" / "listens on", an assignment
  the file's ``ENV`` or ``environment`` has, a runner name, a user after "runs as"
  ("runs as a non-root user", "drops root": ``!root``).

The binding is a ``config:`` anchor whose span covers the value, so the value is no longer
an uncovered part. Anything else stays uncovered (ACTIVE, the value named), as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from anchors.command_flags import NOT_RUN, bind_command_flags, bind_command_literals, not_run
from anchors.facts import Fingerprint
from anchors.infra_check import default_user
from anchors.infra_compare import NOT_ROOT, Match, compare_image
from anchors.infra_facts import InfraKind, infra_kind
from anchors.ini_binding import bind_named_settings, bind_placed_settings, bind_settings, ini_files
from anchors.mentions import subproject_of
from anchors.npm_binding import bind_npm_values
from anchors.own_version import bind_own_version
from anchors.program_binding import bind_programs
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.value_binding import Binding
from anchors.value_claims import OPTION, StatedValue, stated_values
from anchors.yaml_binding import bind_yaml_settings

__all__ = ["bind_infra"]

_I = re.IGNORECASE
# (a folder of a path, "app/services/mail.py", is no compose service)
_COMPOSE = re.compile(
    r"\b(?:docker[\s-]compose|compose)\b|(?<![/.\-])\bservices?\b(?![/.\-]\w)", _I)
_DOCKER = re.compile(r"\b(?:dockerfile|containerfile|docker|images?|containers?)\b", _I)
_CI = re.compile(
    r"\b(?:ci|workflows?|github\s+actions|pipelines?|matrix|gitlab)\b"
    r"|\btest(?:s|ed)?\s+(?:\w+\s+)?(?:on|against)\b|\btest\s+matrix\b",
    _I,
)
# A plan, a condition, the past, a negation: not what the files say now.
_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|when|whether|should|would|could|might|must|will|was|were|used\s+to|"
    r"previously|formerly|no\s+longer|not|never|instead\s+of|rather\s+than|upgrad\w*|"
    r"migrat\w*|bump\w*|switch\w*|mov(?:e|ing)\s+to|plan\w*|propos\w*|consider\w*|"
    r"want|wants|going\s+to|todo|eventually|soon|later|next|deprecat\w*|pin\s+to)\b|n't\b",
    _I,
)
# Somewhere else than the repository's files, or an illustration.
_ELSEWHERE = re.compile(
    r"\b(?:in|on|for|during|under)\s+(?:production|prod|staging|deployment|kubernetes|k8s|"
    r"helm|the\s+cluster|heroku|ecs|fargate|cloud\s+run)\b|\bhelm\b|\bk8s\b|"
    # "on the server" is where it is deployed; "for the server" is the program it runs
    r"\b(?:in|on|under)\s+the\s+server\b|"
    r"\bkubernetes\b|^\W*(?:production|prod|staging)\b|\boverrid|\bexport\b|\blocally\b|"
    r"\b(?:production|prod|staging)\s+(?:servers?|clusters?|environments?|env|deployments?|"
    r"databases?|db|hosts?|stacks?|instances?|runs?)\b|"
    r"\b(?:e\.g\.|for\s+example|for\s+instance|such\s+as)|(?<![\w./])(?:example|sample)\b(?![.\-_]\w)"
    # ("the example config": a file of the tree that holds examples of the settings)
    r"(?!\s+(?:config(?:uration)?|settings|(?:config\s+|settings\s+)?files?)\b)",
    _I,
)
# A negation or an ending anywhere in the sentence: "support for Python 2 was dropped",
# "CI stopped testing 3.8", "exposes 8000, not 5000". Nothing in it is bound.
_CONSEQUENCE = re.compile(r",\s+(?:so|hence|therefore|thus|which\s+means)\b", _I)
_NEGATED = re.compile(
    r"\b(?:not|no|never|no\s+longer|dropped|removed|stopped|ended|unsupported|without|except|"
    r"excluding|nor)\b|n't\b",
    _I,
)
# "supports Python 3.9 to 3.12", "works with Python 3.10+", "requires Python 3.8+"
_SUPPORT = re.compile(
    r"\b(?:supports?|supported|compatible\s+with|works\s+(?:on|with)|requires?|needs)\b", _I
)
_TAG = re.compile(r"^[a-z][\w.\-]*(?:/[\w.\-]+)*:v?\d[\w.\-]*$", _I)
_WORD = re.compile(r"[A-Za-z][\w\-]*")
_VERSION = r"\d+\.\d+(?:\.\d+)?"
# "Python 3.8", "python 3.10 through 3.12", "Python 3.8+", "3.8 or newer" (never the end of
# a module's path: "hjson-go v3.1.0")
_LANG_VERSION = re.compile(
    rf"(?<![\w\-./@])(?P<lang>python|py|node(?:\.?js)?|go(?:lang)?|rust(?:[-_]version)?|msrv)"
    rf"(?:\s+version)?(?:\s+(?:is|of)|\s*[:=])?\s+v?(?P<lo>{_VERSION}|\d+)"
    rf"(?:(?P<plus>\+|\s+or\s+(?:newer|later|higher|above))|\s*(?:-|–|to|through|until|\.\.)"
    rf"\s*(?:python\s+)?v?(?P<hi>{_VERSION}))?",
    _I,
)
# "on 3.8", "against 3.10 through 3.12", "3.10, 3.11 and 3.12" in a CI sentence
_BARE_VERSIONS = re.compile(
    r"(?<![\w.])(?P<lo>[23]\.\d{1,2})(?:(?P<plus>\+)|\s*(?:-|–|to|through|\.\.)\s*"
    r"(?P<hi>[23]\.\d{1,2}))?(?![\w.])",
    _I,
)
# A bare "3.8" is a Python version only in a sentence about Python versions.
_PYTHON_WORDS = re.compile(r"\b(?:python|py|cpython|interpreters?|versions?|matrix)\b", _I)
_VERSION_CUE = re.compile(
    r"(?:\b(?:python|py|on|against|with|versions?|and|or|to|covers?|includes?|tests?|"
    r"matrix|runs?|from)|[,:(])\s*$",
    _I,
)
_TESTED_ON = re.compile(r"\btest(?:s|ed|ing)?\s+(?:on|against)\s+$", _I)
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_PORT_CUE = re.compile(r"\b(?:ports?|expos\w*|listen\w*|publish\w*|bind\w*|serv\w*\s+on)\b", _I)
# Only connecting words between the cue and the number: "exposes 2 ports" is a count.
_PORT_FILLER = re.compile(
    r"[\s`(]*(?:(?:on|at|to|port|ports|tcp|the|its|container's|host|number)\s+[`(]*)*", _I
)
_COUNTED = re.compile(
    r"`?\s+(?:ports?|endpoints?|services?|containers?|times|workers?|"
    r"replicas?|processes|threads|connections?)\b",
    _I,
)
_MAPPING = re.compile(r"(?<![\w:.])(?P<m>\d{2,5}:\d{2,5})(?![\w:.])")
_RUNNER = re.compile(r"(?<![\w-])(?P<r>(?:ubuntu|macos|windows)-(?:latest|\d[\w.]*))(?![\w-])",
                     _I)  # fmt: skip
_RUNS_AS = re.compile(
    r"\bruns?\s+as\s+(?:an?\s+|the\s+)?(?:(?:unprivileged|non-root|nonroot|system|dedicated)\s+)?"
    r"(?:(?:user|uid)\s+`?(?P<u>[A-Za-z_][\w-]*|\d+)`?"
    r"|`(?P<t>[A-Za-z_][\w-]*)`|(?P<root>root)\b)"
    r"|(?-i:\bUSER)\s+`?(?P<x>[A-Za-z_][\w-]*|\d+)`?",
    _I,
)
_ASSIGN = re.compile(r"^`?(?P<name>[A-Za-z_]\w*)\s?=\s?[\"']?(?P<value>[^\"'`\s]+)[\"']?`?$")
_SETS_TO = re.compile(r"\bsets?\s+`?(?P<name>[A-Z][A-Z0-9_]*)`?\s+to\s+[`'\"]?$")


def bind_infra(
    text: str,
    fp: Fingerprint,
    spans: Sequence[tuple[int, int, bool]],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """The ``config:`` anchors ``text`` supports (see the module docstring); ``spans`` are
    its sentences, ``taken`` the value spans another anchor checks already."""
    if not fp.infra:
        return []
    values = [v for v in stated_values(text) if not any(a <= v.start < b for a, b in taken)]
    settings = ini_files(fp)
    found: list[Binding] = []
    for start, end, question in spans:
        if question:
            continue
        sentence = text[start:end]
        # "doesn't run as root", "has no USER directive": the only negations read; the
        # rest of the sentence is read without them
        plain, negations = _user_negations(text, start, end, fp)
        # "the production image doesn't use gunicorn": the program it runs (command_flags)
        plain, negations = _program_negations(plain, start, end, fp, negations)
        # "--no-cache-dir" is an option's name, not a negation
        unoptioned = OPTION.sub(lambda m: "x" * len(m.group()), plain)
        # "engines node >=18, so Node 16 is unsupported": what follows is drawn from it,
        # and the statement before is read alone
        if (so := _CONSEQUENCE.search(unoptioned, start, end)) and not _NEGATED.search(
                unoptioned, start, so.start()):  # fmt: skip
            end, sentence = so.start(), text[start : so.start()]
        if _ELSEWHERE.search(sentence) or _NEGATED.search(unoptioned, start, end):
            continue
        here = [v for v in values if start <= v.start < end]
        bound = _sentence(plain, start, end, here, fp)
        bound = _without_root_claim(bound, negations, fp)
        # "package.json pins engines.node >= 18", "the tsconfig targets ES2020"
        bound += bind_npm_values(text, start, end, fp, [*taken, *(b.span for b in bound)])
        # "the crate is at version 0.3.0": the project's own manifest
        bound += bind_own_version(text, start, end, fp)
        # "the console script `beet` runs `beets.ui:main`", "built with hatchling"
        bound += bind_programs(text, start, end, fp, [*taken, *(b.span for b in bound)])
        # "[markup] renderer = mistune in isso/isso.cfg": an application's settings file
        bound += bind_settings(text, start, end, fp, settings, [*taken, *(b.span for b in bound)])
        # "`core/restore_state` is off by default": the [core] section's key
        bound += bind_placed_settings(text, start, end, fp, settings,
                                      [*taken, *(b.span for b in bound)])  # fmt: skip
        # "SMTP defaults to port 465": the [smtp] section's port
        bound += bind_named_settings(text, start, end, fp, settings,
                                     [*taken, *(b.span for b in bound)])  # fmt: skip
        # "`plugin_directories.trash` in maubot/example-config.yaml is ./trash"
        bound += bind_yaml_settings(text, start, end, fp, [*taken, *(b.span for b in bound)])
        found += [b for b in bound if not _NOT_PLAIN.search(plain, start, b.span[0])]
    return found


def _sentence(text: str, start: int, end: int, values: list[StatedValue],
              fp: Fingerprint) -> list[Binding]:  # fmt: skip
    sentence = text[start:end]
    compose = _COMPOSE.search(sentence) is not None
    ci = _CI.search(sentence) is not None
    docker = _DOCKER.search(_COMPOSE.sub(" ", sentence)) is not None
    out: list[Binding] = []
    if ci:
        if not docker:  # "CI builds the image on Python 3.12": which one is meant?
            out += _ci_versions(text, start, end, fp)
        out += _runners(text, start, end, fp)
        out += _actions(text, start, end, fp)
    # (a compose "service" states no toolchain version: only an image would)
    if not ci and not docker and (_SUPPORT.search(sentence) or _BUILT.search(sentence)
                                  or _DECLARED.search(sentence)):  # fmt: skip
        # "the Go service is built with Go 1.21": go.mod's go line; "needs Node 18":
        # engines.node, .nvmrc; "Rust 1.70": rust-version, rust-toolchain
        out += _declared_toolchains(text, start, end, fp)
    if not ci and not docker:
        out += _manifest_keys(text, start, end, fp)  # "edition 2021", "the module path is"
    if not ci and not docker and not compose and _SUPPORT.search(sentence) and not (
        fp.dependency("python")
    ):
        # No requires-python declares the versions: what CI tests is what is supported.
        out += _ci_versions(text, start, end, fp, bare=False, only="python-version")
    covered = [b.span for b in out]
    for value in values:
        if any(a <= value.start < b for a, b in covered):
            continue
        raw = value.text.strip("`'\"").rstrip(".,;:")  # "... FROM python:3.9." ends a sentence
        bound = None
        if _TAG.match(raw):
            bound = _image(raw, sentence, fp, compose=compose, docker=docker, ci=ci)
        elif _ASSIGN.match(raw):
            bound = _assignment(raw, sentence, fp, compose=compose, docker=docker, ci=ci)
        elif (docker or compose) and (named_to := _SETS_TO.search(text[start : value.start])):
            # "the image sets FAVA_HOST to 0.0.0.0": that variable's value
            bound = _assignment(f"{named_to['name']}={raw}", sentence, fp, compose=compose,
                                docker=docker)  # fmt: skip
        elif raw.isdigit() and _port_cued(text, start, value.start, value.end):
            bound = _port(raw, sentence, fp, compose=compose, docker=docker)
            on = _ON_ADDRESS.match(text, value.end) if compose and bound is not None else None
            if bound is not None and on is not None:
                # "publishes port 8080 on 127.0.0.1 only": that address, and no other
                bound = replace(bound, version=f"{on['ip']}:{raw}")
                out.append(Binding(bound, on["ip"], (value.start, on.end("ip"))))
                continue
        elif raw.startswith("/") and docker and not compose and _WORKDIR.search(sentence):
            bound = _workdir(raw, sentence, fp)
        elif compose and _PLAIN_NUMBER.fullmatch(raw) and (
                named := _NAMED_BEFORE.search(text, start, value.start)):  # fmt: skip
            # "the compose stack runs PostgreSQL 16": the image of the service running it
            bound = _service_version(named["w"], raw, fp)
        if bound is not None:
            out.append(Binding(bound, raw, (value.start, value.end)))
    if docker and not compose and not ci:
        out += _docker_python(text, start, end, fp, [b.span for b in out])
    if docker and not compose:
        out += _runs_as(text, start, end, fp)
    if docker and not compose and not ci:
        picked = _dockerfile(sentence, _files(fp, InfraKind.DOCKERFILE), fp)
        if picked is not None:  # "the image starts kinto with --port 8888", "runs 2 workers"
            covered = [b.span for b in out]
            out += [b for b in bind_command_flags(text, start, end, fp, picked)
                    if not any(a <= b.span[0] < z for a, z in covered)]  # fmt: skip
            covered = [b.span for b in out]
            out += bind_command_literals(text, [v for v in values if not any(
                a <= v.start < z for a, z in covered)], fp, picked)  # fmt: skip
    if compose:
        out += _mappings(text, start, end, fp)
    return out


# -- where the files are -------------------------------------------------------------------
_GENERIC = frozenset({"docker", "dockerfile", "containerfile", "dockerfiles", "src", "app",
                      "build", "deploy", "deployment", "extras", "ci", "config"})  # fmt: skip


def _having(fp: Fingerprint, key: str) -> list[str]:
    """The Dockerfiles that state ``key``."""
    return [p for p in _files(fp, InfraKind.DOCKERFILE) if _keyed(fp, p, key)]


def _dockerfile(
    sentence: str, candidates: list[str], fp: Fingerprint, *, root: bool = True
) -> str | None:
    """The one of ``candidates`` the sentence is about: the one a word of whose path the
    sentence says ("the demo image" and ``docker/demo/Dockerfile``, "the e2e testbed
    image" and ``docker/Dockerfile-js-testbed``), or whose path it writes out; else, when it
    names no Dockerfile at all,
    the only candidate, or (``root``) the one at the repository's root. None when the
    sentence names a Dockerfile that is not a candidate: it is about that one. An image
    reference names none (``wger/base:2.1-dev`` is not ``extras/docker/base/Dockerfile``)."""
    written = [p for p in _files(fp, InfraKind.DOCKERFILE) if "/" in p
               and re.search(rf"(?<![\w/.-]){re.escape(p)}(?![\w/-]|\.\w)", sentence)]
    if len(written) == 1:  # "(docker/Dockerfile, ...)": the path itself
        return written[0] if written[0] in candidates else None
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]+", _without_images(sentence))}
    named = [p for p in _files(fp, InfraKind.DOCKERFILE) if _path_words(p) & words]
    if named:
        chosen = [p for p in named if p in candidates]
        return chosen[0] if len(chosen) == len(named) == 1 else None
    if len(candidates) == 1:
        return candidates[0]
    at_root = [p for p in candidates if "/" not in p]
    return at_root[0] if root and len(at_root) == 1 else None


def _without_images(sentence: str) -> str:
    """The sentence without its image references (``wger/base:2.1-dev``)."""
    return " ".join(w for w in sentence.split() if not _TAG.match(w.strip("`'\".,;:()")))


def _path_words(path: str) -> set[str]:
    return {w for w in re.split(r"[/._\-]+", path.lower()) if w} - _GENERIC


def _files(fp: Fingerprint, kind: InfraKind) -> list[str]:
    return [p for p in sorted(fp.infra) if infra_kind(p) is kind and fp.infra[p] is not None]


def _keyed(fp: Fingerprint, path: str, key: str) -> list[str | None]:
    return [v.text for v in fp.infra.get(path) or () if v.key == key]


def _services(fp: Fingerprint) -> list[tuple[str, str]]:
    """(compose file, service) for every service the compose files define."""
    found: dict[tuple[str, str], None] = {}
    for path in _files(fp, InfraKind.COMPOSE):
        for value in fp.infra[path] or ():
            parts = value.key.split(".")
            if len(parts) >= 3 and parts[0] == "services":
                found[(path, parts[1])] = None
    return list(found)


def _named_service(sentence: str, fp: Fingerprint) -> tuple[str, str] | None:
    """The one compose service the sentence names, by its name or its image's repository
    ("the db service", "postgres"); None when it names none, or several."""
    words = {w.lower() for w in _WORD.findall(sentence)}
    named = {
        (p, s)
        for p, s in _services(fp)
        if s.lower() in words
        or any(_repository(t) in words for t in _keyed(fp, p, f"services.{s}.image"))
    }
    return named.pop() if len(named) == 1 else None


def _repository(image: str | None) -> str:
    if image is None:
        return ""
    ref = image.lower().partition("@")[0].rpartition(":")[0] or image.lower()
    return ref.rpartition("/")[2]


def _anchor(path: str, key: str, value: str) -> Anchor | None:
    if "=" in path or "::" in path:
        return None  # the anchor's syntax could not carry it
    return Anchor(AnchorKind.CONFIG, key, scope=path, version=value)


# -- images ------------------------------------------------------------------------------
def _image(tag: str, sentence: str, fp: Fingerprint, *, compose: bool, docker: bool,
           ci: bool) -> Anchor | None:  # fmt: skip
    repo = _repository(tag)
    if compose:
        # the service running that image; else the one service the sentence names by name
        # ("the db service uses mysql:8"), when no service runs an image of that repository
        same = [
            (p, s)
            for p, s in _services(fp)
            if any(_repository(t) == repo for t in _keyed(fp, p, f"services.{s}.image"))
        ]
        if not same:
            words = {w.lower() for w in _WORD.findall(sentence)}
            same = [
                (p, s)
                for p, s in _services(fp)
                if s.lower() in words and _keyed(fp, p, f"services.{s}.image")
            ]
        if len(same) == 1:
            return _anchor(same[0][0], f"services.{same[0][1]}.image", tag)
        return None
    if docker and not ci:
        bare = tag.rpartition(":")[0] or tag  # the repository, registry included
        matching = [p for p in _files(fp, InfraKind.DOCKERFILE) if any(
            compare_image(bare, v.text) is Match.SAME
            for v in fp.infra[p] or () if v.key.startswith("FROM."))]  # fmt: skip
        # Another repository's image may be another image altogether ("the e2e testbed
        # image is FROM node:20" beside a python Dockerfile): left unbound.
        if not matching:
            return _unused_base(tag, sentence, fp)
        picked = _dockerfile(sentence, matching, fp, root=False)
        return _anchor(picked, "FROM", tag) if picked else None
    if ci:
        files = [p for p in _files(fp, InfraKind.GITHUB_WORKFLOW) + _files(fp, InfraKind.GITLAB_CI)
                 if any(_repository(t) == repo for t in _keyed(fp, p, "image"))]  # fmt: skip
        if len(files) == 1:
            return _anchor(files[0], "image", tag)
    return None


# "PostgreSQL 16", "Redis v7": a name right before a version
_NAMED_BEFORE = re.compile(r"(?P<w>[A-Za-z][\w\-]*)\s+v?\Z")


def _service_version(word: str, version: str, fp: Fingerprint) -> Anchor | None:
    """The image anchor of the one compose service whose image's repository the word
    names ("PostgreSQL" and ``postgres:18-alpine``, "Valkey" and ``valkey/valkey:9``), at
    the version stated: ``postgres:16``. None when no service or several run it."""
    low = word.lower()
    same = {(p, s, _repository(t)) for p, s in _services(fp)
            for t in _keyed(fp, p, f"services.{s}.image")
            if len(_repository(t)) > 2 and low.startswith(_repository(t))}  # fmt: skip
    if len(same) != 1:
        return None
    [(path, service, repo)] = same
    return _anchor(path, f"services.{service}.image", f"{repo}:{version}")


# "built FROM x", "the base image is x", "based on x", "the image is FROM x"
_BUILDS_FROM = re.compile(
    r"(?-i:\bFROM\b)|\bbase\s+images?\b|\bbuilt\s+(?:from|on(?:\s+top\s+of)?)\b|"
    r"\bbased\s+on\b",
    _I,
)
# An image built somewhere else than the repository's Dockerfiles
_OTHER_IMAGE = re.compile(
    r"\b(?:production|prod|staging|release|deploy\w*|upstream|official|vendor|third[\s-]party|"
    r"external|public|published)\s+(?:docker\s+|container\s+)?images?\b",
    _I,
)
_IMAGE_KINDS = (InfraKind.DOCKERFILE, InfraKind.COMPOSE, InfraKind.GITHUB_WORKFLOW,
                InfraKind.GITLAB_CI)  # fmt: skip


def _unused_base(tag: str, sentence: str, fp: Fingerprint) -> Anchor | None:
    """ "The base image is built FROM python:3.10" where no infrastructure file uses a
    ``python`` image at all (no stage of a Dockerfile, no compose service, no CI job): a
    ``FROM`` anchor the Dockerfiles break, scoped to the one the sentence names, else to
    them all (unscoped: any one built FROM it would hold it, or leave it unknown). None
    when a file uses that repository's image (it may be the one meant), computes one or
    could not be read, or a Dockerfile template could be the one meant."""
    dockerfiles = _files(fp, InfraKind.DOCKERFILE)
    if not dockerfiles or not _BUILDS_FROM.search(sentence) or _OTHER_IMAGE.search(sentence):
        return None
    if _another_image(sentence, dockerfiles, fp):
        return None
    repo = _repository(tag)
    for path, read in fp.infra.items():
        if infra_kind(path) not in _IMAGE_KINDS:
            continue
        if read is None:
            return None
        images = [v.text for v in read if v.key in ("FROM", "image")
                  or v.key.startswith("FROM.") or v.key.endswith(".image")]  # fmt: skip
        if any(t is None or _repository(t) == repo for t in images):
            return None
    if any(_template(p) for p in fp.blobs):
        return None
    # "the base image": the base image of any of them, not extras/docker/base's
    words = _BASE_IMAGE.sub(" ", _without_images(sentence))
    named = [p for p in dockerfiles if _path_words(p) & {w.lower() for w in _WORD.findall(words)}]
    if len(named) == 1:
        return _anchor(named[0], "FROM", tag)
    if len(dockerfiles) == 1:
        return _anchor(dockerfiles[0], "FROM", tag)
    return None if named else Anchor(AnchorKind.CONFIG, "FROM", version=tag)


_BASE_IMAGE = re.compile(r"\bbase\s+(?=images?\b)", _I)
_IMAGE_WORD = re.compile(r"\b(?:images?|containers?)\b", _I)
# Where the words qualifying "image" stop, walking back from it
_NOT_QUALIFYING = frozenset({
    "the", "a", "an", "our", "its", "this", "that", "their", "your", "my", "each", "every",
    "is", "are", "was", "of", "for", "from", "in", "on", "with", "and", "or", "to", "by",
    "built", "uses", "use", "runs", "run",
})  # fmt: skip
# What any of the repository's images is called
_ANY_IMAGE = frozenset({"base", "docker", "container", "app", "application", "project", "main",
                        "final", "runtime", "resulting", "own", "built", "oci"})  # fmt: skip


def _another_image(sentence: str, dockerfiles: list[str], fp: Fingerprint) -> bool:
    """Whether the sentence calls the image something no Dockerfile of the repository is
    called ("the e2e testbed image" with no testbed Dockerfile): an image built
    elsewhere, perhaps, whose base the Dockerfiles here do not say."""
    known = set(_ANY_IMAGE)
    for path in dockerfiles:
        known |= _path_words(path)
        stages = [v.key for v in fp.infra[path] or () if v.key.startswith("FROM.")]
        known |= {k.partition(".")[2] for k in stages}
    sentence = _without_images(sentence)
    for m in _IMAGE_WORD.finditer(sentence):
        for word in reversed(sentence[: m.start()].split()[-3:]):
            word = re.sub(r"['’]s$", "", word.strip("`'\".,;:()")).lower()
            if word in _NOT_QUALIFYING or not word:
                break
            if word not in known:
                return True
    return False


def _template(path: str) -> bool:
    """A Dockerfile's template (``Dockerfile.j2``, ``Dockerfile.in``): what it builds from
    is not read."""
    name = path.rpartition("/")[2].lower()
    return name.startswith(("dockerfile", "containerfile")) and (
        infra_kind(path) is not InfraKind.DOCKERFILE
    )


# -- versions ------------------------------------------------------------------------------
def _ci_scope(fp: Fingerprint, key: str) -> str | None:
    """The CI files that list ``key``: the workflows folder, or the one GitLab file."""
    workflows = [p for p in _files(fp, InfraKind.GITHUB_WORKFLOW) if _keyed(fp, p, key)]
    if workflows:
        return ".github/workflows"
    gitlab = [p for p in _files(fp, InfraKind.GITLAB_CI) if _keyed(fp, p, key)]
    return gitlab[0] if len(gitlab) == 1 else None


_KEY_OF_LANG = {"python": "python-version", "py": "python-version", "node": "node-version",
                "nodejs": "node-version", "node.js": "node-version", "go": "go-version",
                "golang": "go-version", "rust": "rust-version", "msrv": "rust-version",
                "rust-version": "rust-version", "rust_version": "rust-version"}  # fmt: skip
# The files that declare a toolchain's version for a project (not CI, not an image).
_DECLARING = (InfraKind.NODE_VERSION_FILE, InfraKind.TOOL_VERSIONS, InfraKind.RUST_TOOLCHAIN,
              InfraKind.PACKAGE_JSON, InfraKind.GO_MOD, InfraKind.CARGO_TOML)  # fmt: skip
# What a file declares, as written: "go.mod declares (says) go 1.21", "the MSRV is 1.74", "the
# module requires Go 1.21" (the minimum is that version, not any below a newer one); not a
# version a newer toolchain satisfies ("built with Go 1.21", "supports Go 1.22")
_DECLARED = re.compile(r"\bdeclar\w*|\bmsrv\b|\bminimum\b|\brust-version\b"
                       r"|\bgo\s+(?:line|directive)\b|\brequir\w*|\bneeds?\b|\btargets?\b"
                       r"|\basks?\s+for\b"
                       r"|\bat\s+least\b|\b(?:says|states|lists|specifies)\b", _I)  # fmt: skip
_AS_WRITTEN = {"go-version": "go", "rust-version": "package.rust-version",
               "node-version": "engines.node"}  # fmt: skip
_BUILT = re.compile(r"\b(?:built|builds?|compiled?|compiles|targets?|pinned|uses?)\s+"
                    r"(?:with|using|on|to|against)?\b", _I)  # fmt: skip
_NAMED_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)+|[\w.-]+/")


def _declared_toolchains(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """A Node, Go or Rust version a project's own files declare: the one file stating the
    key, or the one under a directory or project the sentence names (``web/package.json``,
    "the frontend", "the Go service")."""
    from anchors.projects import named_project  # it reads this package's manifests

    out: list[Binding] = []
    sentence = text[start:end]
    named = {m.group().rstrip("/") for m in _NAMED_PATH.finditer(sentence)}
    low = sentence.lower()
    for words in ("frontend", "front-end", "ui", "web client", "go", "rust", "node"):
        if re.search(rf"\b{re.escape(words)}\b", low):
            directory = named_project(words, fp)
            if directory:
                named.add(directory)
    for m in _LANG_VERSION.finditer(text, start, end):
        key = _KEY_OF_LANG.get(m["lang"].lower())
        if key is None or key == "python-version":
            continue
        if _DECLARED.search(text, start, end):  # "go.mod declares go 1.21": that value
            key = _AS_WRITTEN.get(key, key)
        files = [p for kind in _DECLARING for p in _files(fp, kind) if _keyed(fp, p, key)]
        there = [p for p in files if any(p == n or p.startswith(n + "/") for n in named)]
        picked = there if there else files
        if len(set(picked)) != 1:
            continue
        anchor = _anchor(picked[0], key, _spec(m["lo"], m["hi"], m["plus"]))
        if anchor is not None:
            out.append(Binding(anchor, m.group(), (m.start("lo"), m.end())))
    return out


# "the crate is on edition 2021", "the 2018 edition"; "the module path is example.com/x"
_EDITION = re.compile(
    r"\bedition`?\s*(?:is\s+|=\s*|\s)[`'\"]?(?P<v>20\d\d)\b|\b(?P<w>20\d\d)\s+edition\b", _I
)
# (not "the only required module is golang.org/x/sys": a module it requires, not its own)
_MODULE = re.compile(
    r"(?<!required\s)(?<!dependency\s)(?<!imported\s)(?<!other\s)"
    r"\bmodule(?:\s+path)?\s+(?:is\s+|=\s*)?`?(?P<v>[\w.\-~]+(?:/[\w.\-~]+)+)`?", _I
)


def _manifest_keys(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """A Rust edition and a Go module path, stated of the one ``Cargo.toml`` or ``go.mod``
    that gives them (an example's or the docs' own aside)."""
    out: list[Binding] = []
    for pattern, key, kind in ((_EDITION, "edition", InfraKind.CARGO_TOML),
                               (_MODULE, "module", InfraKind.GO_MOD)):  # fmt: skip
        files = [p for p in _files(fp, kind) if _keyed(fp, p, key)]
        if len(files) > 1:  # an example's own manifest is not the project's
            files = [p for p in files if subproject_of(p) is None]
        for m in pattern.finditer(text, start, end) if len(files) == 1 else ():
            group = "v" if m["v"] else "w"
            value = m[group].rstrip(".")
            anchor = _anchor(files[0], key, value)
            if anchor is not None:
                out.append(Binding(anchor, value, (m.start(group), m.start(group) + len(value))))
    return out


def _spec(lo: str, hi: str | None, plus: str | None) -> str:
    return f"{lo}-{hi}" if hi else f">={lo}" if plus else lo


def _ci_versions(text: str, start: int, end: int, fp: Fingerprint, *, bare: bool = True,
                 only: str | None = None) -> list[Binding]:  # fmt: skip
    """ "CI tests on Python 3.8", "the matrix covers 3.10 through 3.12", "Node 20"; a bare
    version ("on 3.8") only when ``bare``; only the key ``only`` when given."""
    out: list[Binding] = []
    taken: list[tuple[int, int]] = []
    for m in _LANG_VERSION.finditer(text, start, end):
        key = _KEY_OF_LANG.get(m["lang"].lower())
        scope = _ci_scope(fp, key) if key and (only is None or key == only) else None
        if key is None or scope is None:
            continue
        anchor = _anchor(scope, key, _spec(m["lo"], m["hi"], m["plus"]))
        if anchor is not None:
            out.append(Binding(anchor, m.group(), (m.start("lo"), m.end())))
            taken.append((m.start(), m.end()))
    scope = _ci_scope(fp, "python-version")
    if scope is None or not bare:
        return out
    versions = _PYTHON_WORDS.search(text, start, end) is not None
    # a version alone, as the note states it: not "2.5" of "2.5 seconds"
    plain = {v.start for v in stated_values(text[:end]) if _PLAIN_NUMBER.fullmatch(v.text)}
    for m in _BARE_VERSIONS.finditer(text, start, end):
        if any(a <= m.start() < b for a, b in taken) or m.start() not in plain:
            continue
        if m["hi"] and m.start("hi") not in plain:
            continue
        if not versions and not _TESTED_ON.search(text, start, m.start()):
            continue
        if not _VERSION_CUE.search(text, start, m.start()):
            continue  # "retries 3.5 times": not a version the sentence lists
        anchor = _anchor(scope, "python-version", _spec(m["lo"], m["hi"], m["plus"]))
        if anchor is not None:
            out.append(Binding(anchor, m.group(), (m.start(), m.end())))
    return out


def _docker_python(text: str, start: int, end: int, fp: Fingerprint,
                   taken: list[tuple[int, int]]) -> list[Binding]:  # fmt: skip
    """ "The Docker image runs Python 3.11": the one Dockerfile built from a python image."""
    picked = _dockerfile(text[start:end], _having(fp, "python-version"), fp)
    if picked is None:
        return []
    out = []
    for m in _LANG_VERSION.finditer(text, start, end):
        if m["lang"].lower() not in ("python", "py") or m["hi"] or m["plus"]:
            continue
        if any(a <= m.start("lo") < b for a, b in taken):
            continue
        anchor = _anchor(picked, "python-version", m["lo"])
        if anchor is not None:
            out.append(Binding(anchor, m.group(), (m.start("lo"), m.end())))
    return out


_ACTION = re.compile(r"(?<![\w./@-])`?(?P<a>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(?:@[\w.\-]+)?)`?"
                     r"(?![\w/-])")  # fmt: skip


def _actions(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """ "CI sets Python up with actions/setup-python": an action the workflows' steps run,
    named as ``owner/name`` of an owner whose actions they use (``actions/checkout``), and
    not a path of the repository."""
    scope = _ci_scope(fp, "uses")
    if scope is None:
        return []
    owners = {(v.text or "").partition("/")[0].casefold()
              for p in _files(fp, InfraKind.GITHUB_WORKFLOW) for v in fp.infra[p] or ()
              if v.key == "uses"}  # fmt: skip
    out = []
    for m in _ACTION.finditer(text, start, end):
        action = m["a"].rstrip(".")
        if fp.has_path(action) or fp.has_directory(action.partition("@")[0]):
            continue
        if action.partition("/")[0].casefold() in owners:
            anchor = _anchor(scope, "uses", action)
            if anchor is not None:
                out.append(Binding(anchor, action, (m.start("a"), m.start("a") + len(action))))
    return out


def _runners(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    scope = _ci_scope(fp, "runs-on")
    if scope is None:
        return []
    out = []
    for m in _RUNNER.finditer(text, start, end):
        anchor = _anchor(scope, "runs-on", m["r"])
        if anchor is not None:
            out.append(Binding(anchor, m["r"], m.span("r")))
    return out


# -- ports, environment, users -----------------------------------------------------------
def _port_cued(text: str, start: int, at: int, end: int) -> bool:
    """ "port 8000", "exposes 8000", "listens on `8000`": the cue right before the number,
    which counts nothing after it ("exposes 2 ports")."""
    if int(text[at:end].strip("`'\"")) < 20 or _COUNTED.match(text, end):
        return False
    cues = list(_PORT_CUE.finditer(text, max(start, at - 40), at))
    return bool(cues) and _PORT_FILLER.fullmatch(text, cues[-1].end(), at) is not None


# "the working directory", "WORKDIR": the directory the image's commands run in
_WORKDIR = re.compile(r"\bworking\s+director(?:y|ies)\b|(?-i:\bWORKDIR\b)", _I)


def _workdir(path: str, sentence: str, fp: Fingerprint) -> Anchor | None:
    """"the image's working directory is /data": the WORKDIR of the Dockerfile the sentence
    is about, when one states it."""
    picked = _dockerfile(sentence, _having(fp, "WORKDIR"), fp)
    return _anchor(picked, "WORKDIR", path) if picked is not None else None


def _port(port: str, sentence: str, fp: Fingerprint, *, compose: bool,
          docker: bool) -> Anchor | None:  # fmt: skip
    if not 0 < int(port) < 65536:
        return None
    if compose:
        named = _named_service(sentence, fp)
        if named is not None and _keyed(fp, named[0], f"services.{named[1]}.ports"):
            return _anchor(named[0], f"services.{named[1]}.ports", port)
        return None
    if docker:
        picked = _dockerfile(sentence, _having(fp, "EXPOSE"), fp)
        if picked is None and _EXPOSE.search(sentence) and not _having(fp, "EXPOSE"):
            # "the Dockerfile declares EXPOSE 8888": the instruction, which none states
            picked = _dockerfile(sentence, _files(fp, InfraKind.DOCKERFILE), fp)
        if picked is not None:
            return _anchor(picked, "EXPOSE", port)
    return None


_EXPOSE = re.compile(r"\bEXPOSE\b")  # the instruction, in capitals as a Dockerfile writes it
# After a published port: the address it is published on ("on 127.0.0.1", "bound to localhost")
_ON_ADDRESS = re.compile(r"`?\s+(?:on|to|at)\s+(?:the\s+)?(?:host\s+|address\s+|interface\s+)?`?"
                         r"(?P<ip>\d{1,3}(?:\.\d{1,3}){3}|localhost)\b", _I)  # fmt: skip


def _mappings(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """ "maps port 8080 to the container's 8000" is two numbers; ``8080:8000`` is one."""
    named = _named_service(text[start:end], fp)
    if named is None or not _keyed(fp, named[0], f"services.{named[1]}.ports"):
        return []
    out = []
    for m in _MAPPING.finditer(text, start, end):
        anchor = _anchor(named[0], f"services.{named[1]}.ports", m["m"])
        if anchor is not None:
            out.append(Binding(anchor, m["m"], m.span("m")))
    return out


def _assignment(assigned: str, sentence: str, fp: Fingerprint, *, compose: bool,
                docker: bool, ci: bool = False) -> Anchor | None:  # fmt: skip
    m = _ASSIGN.match(assigned)
    if m is None:
        return None
    name, value = m["name"], m["value"]
    if ci and not (compose or docker):  # "the CI tests run with PYTHONHASHSEED=random"
        scope = _ci_scope(fp, f"env.{name}")
        return _anchor(scope, f"env.{name}", value) if scope else None
    if compose:
        named = _named_service(sentence, fp)
        services = [named] if named is not None else _services(fp)
        having = [(p, s) for p, s in services
                  if _keyed(fp, p, f"services.{s}.environment.{name}")]  # fmt: skip
        if len(having) == 1:
            path, service = having[0]
            return _anchor(path, f"services.{service}.environment.{name}", value)
        return None
    if docker:
        for key in (f"ENV.{name}", f"ARG.{name}"):
            picked = _dockerfile(sentence, _having(fp, key), fp)
            if picked is not None:
                return _anchor(picked, key, value)
    return None


def _runs_as(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """ "The container runs as user `app`" / "runs as root" / "runs as a non-root user" /
    "drops root": the built image's USER, of any Dockerfile (one that states none runs as
    its base image's user: ``anchors.infra_check``)."""
    picked = _dockerfile(text[start:end], _files(fp, InfraKind.DOCKERFILE), fp)
    if picked is None:
        return []
    out = []
    for m in _RUNS_AS.finditer(text, start, end):
        group = next(g for g in ("u", "t", "x", "root") if m[g])
        if group == "u" and m[group].lower() in _NOT_A_USER:
            continue  # "runs as a non-root user and listens on 8080"
        anchor = _anchor(picked, "USER", m[group])
        if anchor is not None:
            out.append(Binding(anchor, m[group], m.span(group)))
    for m in _NON_ROOT.finditer(text, start, end):
        anchor = _anchor(picked, "USER", NOT_ROOT)
        if anchor is not None and anchor not in (b.anchor for b in out):
            out.append(Binding(anchor, m.group(), m.span()))
    return out


_NOT_A_USER = frozenset({"and", "or", "but", "so", "with", "in", "on", "at", "for", "to", "by",
                        "that", "which", "who", "when", "while", "inside", "instead"})  # fmt: skip
# "runs as a non-root user" (no name), "drops root privileges"
_NON_ROOT = re.compile(
    r"\bruns?\s+as\s+(?:an?\s+)?(?:unprivileged|non-?root|non-privileged)\s+user\b"
    r"(?!\s*\(?\s*`?(?-i:USER\b)|\s+`?(?!(?:and|or|but|so|with|in|on|inside)\b)[\w-]+`?"
    r"\s*(?:$|[.,;:)]))|\bdrops?\s+root\b",
    _I,
)
# The only negations read, both of the built image's user: "doesn't run as root" (any user
# but root) and "has no USER directive" (its last stage states none).
_NOT_AS_ROOT = re.compile(
    r"\b(?:does\s+not|doesn['’]t|do\s+not|don['’]t|never|is\s+not|isn['’]t)\s+"
    r"(?:runs?|be\s+run)\s+as\s+(?:the\s+)?(?:root|uid\s+0|user\s+(?:root|0))\b"
    r"(?:\s+user\b)?",
    _I,
)
_NO_USER = re.compile(
    r"\b(?:(?:has|have|states?|sets?|contains?|declares?|with|there\s+is|there['’]s)\s+no"
    r"|(?:does\s+not|doesn['’]t|never)\s+(?:set|have|state|contain|declare|specify)"
    r"(?:\s+(?:a|any))?|without(?:\s+(?:a|any))?)\s+"
    r"(?:(?-i:USER)\b|user\b(?=\s+(?:directive|instruction|line|statement)))"
    r"(?:\s+(?:directive|instruction|line|statement)s?\b)?",
    _I,
)


def _program_negations(text: str, start: int, end: int, fp: Fingerprint,
                       negations: list[Binding]) -> tuple[str, list[Binding]]:  # fmt: skip
    """``text`` with "doesn't use gunicorn" blanked in a sentence about the image, and
    ``negations`` with the bindings of the programs it says the image does not run."""
    sentence = text[start:end]
    if (not NOT_RUN.search(sentence) or _COMPOSE.search(sentence) or _CI.search(sentence)
            or not _DOCKER.search(sentence)):  # fmt: skip
        return text, negations
    picked = _dockerfile(sentence, _files(fp, InfraKind.DOCKERFILE), fp)
    if picked is None or _anchor(picked, "CMD", "") is None:
        return text, negations
    found = not_run(text, start, end, fp, picked)
    for b in found:
        text = text[: b.span[0]] + " " * (b.span[1] - b.span[0]) + text[b.span[1] :]
    return text, negations + found


def _without_root_claim(bound: list[Binding], negations: list[Binding],
                        fp: Fingerprint) -> list[Binding]:  # fmt: skip
    """``bound`` and ``negations``, one claim of the user where the sentence makes two:
    "has no USER directive, so it runs as root" states the same of the Dockerfile both
    ways, and an absent and a present anchor of one key would cancel out. Where the base
    image runs as root (``default_user``), the absence says it all and checks the
    negation; else "runs as root" is the claim, which the Dockerfile cannot settle."""
    absent = [n for n in negations if n.anchor.expect is Expect.ABSENT]
    if not absent:
        return bound + [n for n in negations if n.anchor not in {b.anchor for b in bound}]
    scope = absent[0].anchor.scope or ""
    rooted = [b for b in bound if b.anchor.value == "USER" and b.anchor.scope == scope]
    if not rooted:
        return bound + negations
    built = _keyed(fp, scope, "FROM")
    if built and default_user(built[0]) == "root":
        return [b for b in bound if b not in rooted] + negations
    return bound + [n for n in negations if n not in absent]


def _user_negations(text: str, start: int, end: int,
                    fp: Fingerprint) -> tuple[str, list[Binding]]:  # fmt: skip
    """``text`` with the sentence's plain USER negations blanked, and their bindings: "the
    container doesn't run as root" a user other than root (``USER=!root``); "the Dockerfile
    has no USER directive" none (``!config:Dockerfile::USER``, which checks the negation:
    it is read from the word USER)."""
    forms: list[tuple[re.Match[str], str | None]] = [
        (m, NOT_ROOT) for m in _NOT_AS_ROOT.finditer(text, start, end)
    ]
    forms += [(m, None) for m in _NO_USER.finditer(text, start, end)]
    if not forms:
        return text, []
    plain = text
    for m, _ in forms:
        plain = plain[: m.start()] + " " * (m.end() - m.start()) + plain[m.end() :]
    sentence = text[start:end]
    if _COMPOSE.search(sentence) or not _DOCKER.search(sentence):
        return plain, []
    picked = _dockerfile(sentence, _files(fp, InfraKind.DOCKERFILE), fp)
    if picked is None or _anchor(picked, "USER", "") is None:
        return plain, []
    out: list[Binding] = []
    for m, user in forms:
        if user is None:
            anchor = Anchor(AnchorKind.CONFIG, "USER", Expect.ABSENT, scope=picked)
            binding = Binding(anchor, "USER", m.span())
        else:
            anchor = Anchor(AnchorKind.CONFIG, "USER", scope=picked, version=user)
            binding = Binding(anchor, m.group(), m.span())
        if anchor not in (b.anchor for b in out):
            out.append(binding)
    return plain, out
