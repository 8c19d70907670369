"""The values an application's infrastructure files state (issue #31): Dockerfiles, compose
files and CI workflows, read as text and YAML, never run.

Each value is an ``InfraValue``: a key, the literal as the file writes it, and its line.
Keys (what a ``config:`` anchor names, ``anchors.spec``):

- Dockerfile (``Dockerfile``, ``Dockerfile.*``, ``*.Dockerfile``, ``Containerfile``):
  ``FROM`` (the built image: the last stage's base, followed through ``FROM <stage>``),
  ``FROM.<stage>`` for every stage (``AS name``, else its index), and for the last stage
  ``EXPOSE``, ``USER``, ``CMD``, ``ENTRYPOINT``, ``WORKDIR`` (the last of each; a relative
  ``WORKDIR`` joined to the one before it), ``ENV.<NAME>``, with
  what a stage it is built ``FROM`` set (an earlier stage's USER is not the image's
  otherwise: Docker starts each ``FROM <image>`` afresh); ``ARG.<NAME>`` (defaults);
  ``python-version`` when the built image is an official ``python:`` image;
  ``node-version``, ``go-version``, ``rust-version`` for every stage built from an
  official ``node:``, ``golang:`` or ``rust:`` image (a compiler in a build stage is what
  "built with Go 1.21" is about, whatever the final image).
- Compose (``docker-compose*.yml``, ``compose*.yml``, ``.yaml`` too):
  ``services.<svc>.image``, ``services.<svc>.ports`` (one value per mapping),
  ``services.<svc>.environment.<NAME>``, ``services.<svc>.command``.
- CI (``.github/workflows/*.yml``, ``.gitlab-ci.yml``): ``python-version``,
  ``node-version``, ``go-version`` (matrix lists expanded through ``${{ matrix.x }}``),
  ``rust-version`` (the ``toolchain`` of ``dtolnay/rust-toolchain``, ``actions-rs/toolchain``
  or ``actions-rust-lang/setup-rust-toolchain``, or dtolnay's ``@1.75`` ref),
  ``runs-on``, ``image`` (a job's container or GitLab image).
- INI settings files (``*.cfg``, ``*.ini``): ``section.key`` and its value.
- YAML settings files (``config.yaml``, ``example-config.yml``): each scalar under its
  dotted key.
- Toolchain files and manifests (``anchors.toolchain_files``): ``.nvmrc``,
  ``.node-version``, ``.tool-versions``, ``rust-toolchain(.toml)``, and ``package.json``
  ``engines.node``, ``go.mod`` ``go`` / ``toolchain``, ``Cargo.toml`` ``rust-version``.

A value the file computes (``${X}``, an expression that does not resolve to the matrix)
has ``text`` None: a check of it is unknown. A file too large or not valid YAML (JSON, TOML
for those manifests) is not read (``read_infra`` returns None). YAML is composed with the
safe loader into nodes, which keeps each value's line and constructs no Python object.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator

import yaml
from yaml.nodes import Node

from anchors.infra_values import InfraKind, InfraValue
from anchors.toolchain_files import read_toolchain

__all__ = ["MAX_INFRA_BYTES", "InfraKind", "InfraValue", "infra_kind", "read_infra"]

# Infrastructure files are short; a bigger one is generated or data, and not read.
MAX_INFRA_BYTES = 256 * 1024
# Values kept from one file: a matrix expansion or a huge compose file stops here.
_MAX_VALUES = 2_000


# ``Dockerfile.md``, ``Dockerfile.j2``: about a Dockerfile, or a template of one, not one.
_NOT_A_DOCKERFILE = frozenset({"md", "txt", "rst", "orig", "bak", "swp", "j2", "jinja",
                               "jinja2", "tmpl", "template", "tpl", "in", "erb"})  # fmt: skip
# Toolchain files and manifests, by exact name (Cargo and Go accept no other case).
_TOOLCHAIN_FILES = {".nvmrc": InfraKind.NODE_VERSION_FILE,
                    ".node-version": InfraKind.NODE_VERSION_FILE,
                    ".tool-versions": InfraKind.TOOL_VERSIONS,
                    "rust-toolchain": InfraKind.RUST_TOOLCHAIN,
                    "rust-toolchain.toml": InfraKind.RUST_TOOLCHAIN,
                    "package.json": InfraKind.PACKAGE_JSON, "go.mod": InfraKind.GO_MOD,
                    "Cargo.toml": InfraKind.CARGO_TOML,
                    "pyproject.toml": InfraKind.PYPROJECT}  # fmt: skip
# Copies of third-party packages: their manifests state another project's toolchain.
_VENDORED = frozenset({"node_modules", "vendor", "bower_components"})
# A YAML file named as an application's settings: ``config.yml``, ``example-config.yaml``,
# ``settings.yaml``, ``app.config.yml``
_SETTINGS_YAML = re.compile(r"(?:^|[-_.])(?:config|conf|settings|configuration)(?:$|[-_.])")
_COMPOSE = re.compile(r"^(?:docker-)?compose(?:[.\-_][\w.\-]*)?\.ya?ml$", re.IGNORECASE)


def infra_kind(path: str) -> InfraKind | None:
    """Which infrastructure file ``path`` is, by its name, or None."""
    name = path[path.rfind("/") + 1 :]
    toolchain = _TOOLCHAIN_FILES.get(name)
    if toolchain is not None:
        return None if _VENDORED.intersection(path.split("/")[:-1]) else toolchain
    low = name.lower()
    if low.startswith(("tsconfig", "jsconfig")) and low.endswith(".json"):  # (JSON with comments)
        return None if _VENDORED.intersection(path.split("/")[:-1]) else InfraKind.TSCONFIG
    if low.endswith((".cfg", ".ini", ".conf")):
        return None if _VENDORED.intersection(path.split("/")[:-1]) else InfraKind.INI
    # Asked of every tracked path on every build: most are rejected by this test alone.
    if "ocker" not in low and "ontainer" not in low and not low.endswith((".yml", ".yaml")):
        return None
    if low in ("dockerfile", "containerfile") or (
        low.startswith(("dockerfile.", "dockerfile-", "dockerfile_"))
        and low.rpartition(".")[2] not in _NOT_A_DOCKERFILE
    ):
        return InfraKind.DOCKERFILE
    if low.endswith(".dockerfile"):
        return InfraKind.DOCKERFILE
    if _COMPOSE.match(name):
        return InfraKind.COMPOSE
    if low == ".gitlab-ci.yml":
        return InfraKind.GITLAB_CI
    folder = path.rpartition("/")[0]
    if folder == ".github/workflows" and low.endswith((".yml", ".yaml")):
        return InfraKind.GITHUB_WORKFLOW
    if (_SETTINGS_YAML.search(low.rpartition(".")[0]) and not low.startswith(".")
            and not _VENDORED.intersection(path.split("/")[:-1])):  # fmt: skip
        return InfraKind.YAML_SETTINGS  # ("example-config.yaml"; not ".pre-commit-config")
    return None


def read_infra(data: bytes, path: str) -> tuple[InfraValue, ...] | None:
    """The values the file at ``path`` states, or None when it could not be read (too large,
    not text, not valid YAML, JSON or TOML). Never raises."""
    kind = infra_kind(path)
    if kind is None or len(data) > MAX_INFRA_BYTES:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    try:
        if kind is InfraKind.DOCKERFILE:
            values = list(_dockerfile(text))
        elif kind is InfraKind.INI:
            values = list(_ini(text))
        elif kind not in _YAML_KINDS:
            read = read_toolchain(kind, text, path)
            if read is None:
                return None
            values = list(read)
        else:
            root = _compose_yaml(text)
            if root is None:
                return None
            reader = {InfraKind.COMPOSE: _compose, InfraKind.GITHUB_WORKFLOW: _github,
                      InfraKind.GITLAB_CI: _gitlab,
                      InfraKind.YAML_SETTINGS: _settings}[kind]  # fmt: skip
            values = list(reader(root))
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None
    return tuple(values[:_MAX_VALUES])


_YAML_KINDS = (InfraKind.COMPOSE, InfraKind.GITHUB_WORKFLOW, InfraKind.GITLAB_CI,
               InfraKind.YAML_SETTINGS)


# -- INI settings files ------------------------------------------------------------------
_SECTION = re.compile(r"^\[(?P<name>[^\]\n]{1,80})\]$")
_SETTING = re.compile(r"^(?P<key>[A-Za-z0-9_][\w.\-]{0,80})\s*[=:]\s*(?P<value>.*)$")
_INLINE_COMMENT = re.compile(r"\s+[#;].*$")
_INTERPOLATED = re.compile(r"%\(|\$\{|\{\{")


def _ini(text: str) -> Iterator[InfraValue]:
    """``section.key`` (the key lower-cased, as configparser reads it) and its value for
    each setting of an INI file, with its line; a value that interpolates another is
    computed (None). Continuation lines and comments are not values, but for setup.cfg's
    console scripts (``options.entry_points.console_scripts.NAME``)."""
    section, key = "", ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if raw[:1] in " \t" and section == "options.entry_points" and key == "console_scripts":
            script = _SETTING.match(line)  # setup.cfg's scripts: ``name = module:function``
            if script is not None:
                yield InfraValue(f"{section}.{key}.{script.group('key')}",
                                 script.group("value").strip(), number)  # fmt: skip
            continue
        if not line or line[0] in "#;" or raw[:1] in " \t":
            continue
        header = _SECTION.match(line)
        if header is not None:
            section, key = header.group("name").strip(), ""
            continue
        setting = _SETTING.match(line)
        if setting is None:
            continue
        key = setting.group("key").lower()
        value = _INLINE_COMMENT.sub("", setting.group("value")).strip()
        if not value and key == "console_scripts":
            continue  # (its scripts follow, one a line)
        computed = _INTERPOLATED.search(value) is not None
        yield InfraValue(f"{section}.{key}" if section else key, None if computed else value,
                         number)  # fmt: skip


# -- Dockerfile -------------------------------------------------------------------------------
_INSTRUCTION = re.compile(r"^\s*(?P<op>[A-Za-z]+)(?:\s+(?P<rest>.*))?$", re.DOTALL)
_VARIABLE = re.compile(r"\$\{?[A-Za-z_]")


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, instruction) with ``\\`` continuations joined, comments dropped."""
    pending: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            continue  # a comment, also inside a continuation
        if not pending:
            if not stripped:
                continue
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1].strip())
            continue
        pending.append(stripped)
        yield start, " ".join(p for p in pending if p)
        pending = []
    if pending:
        yield start, " ".join(p for p in pending if p)


def _computed(text: str) -> bool:
    return _VARIABLE.search(text) is not None


def _command(rest: str) -> str | None:
    """CMD / ENTRYPOINT as one string: the exec form's items joined, or the shell form."""
    rest = rest.strip()
    if rest.startswith("["):
        try:
            items = json.loads(rest)
        except ValueError:
            return None
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            return None
        rest = " ".join(items)
    # kept with its variables: the options it passes are literal (anchors.infra_compare)
    return " ".join(rest.split())


def _env_pairs(rest: str) -> list[tuple[str, str]]:
    """``ENV A=1 B="two words"`` or the legacy ``ENV A some value``."""
    first = rest.split(None, 1)
    if first and "=" not in first[0]:
        return [(first[0], first[1].strip() if len(first) > 1 else "")]
    pairs = []
    for item in shlex.split(rest, posix=True):
        key, eq, value = item.partition("=")
        if eq:
            pairs.append((key, value))
    return pairs


_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_REFERENCE = re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))"
)


# The instructions read here whose variables Docker replaces as it builds; a CMD's or an
# ENTRYPOINT's are the running shell's, where no build argument is set.
_BUILD_TIME = frozenset({"FROM", "ENV", "EXPOSE", "USER", "WORKDIR"})


def _substituted(text: str, args: dict[str, str | None]) -> str:
    """``text`` with each ``$NAME`` / ``${NAME}`` of a build argument replaced by its
    default; a reference with no known default (or in another form, ``${X:-y}``) is left,
    so the value stays computed."""

    def value(m: re.Match[str]) -> str:
        found = args.get(m.group("braced") or m.group("bare"))
        return m.group() if found is None else found

    return _REFERENCE.sub(value, text)


# A Dockerfile's RUN commands kept, and how much of each: enough for the options a note
# quotes ("installs with uv sync --locked"), bounded for a generated file.
_MAX_RUNS = 100
_MAX_RUN_TEXT = 2000


def _dockerfile(text: str) -> Iterator[InfraValue]:
    stages: list[tuple[str, str | None, int]] = []  # (name, image, line)
    last: list[InfraValue] = []  # the instructions of the stage being read
    # Each stage's configuration: a stage built FROM an earlier one starts with it (its
    # USER, ENV, EXPOSE, CMD), as Docker builds it; FROM an image, it starts empty.
    configured: dict[str, list[InfraValue]] = {}
    # Build arguments' defaults: those before the first FROM are FROM's; a stage sees its
    # own, and a global one it declares again without a default.
    global_args: dict[str, str | None] = {}
    args: dict[str, str | None] = global_args
    runs: list[InfraValue] = []
    for line, instruction in _logical_lines(text):
        m = _INSTRUCTION.match(instruction)
        if m is None:
            continue
        op, rest = m.group("op").upper(), (m.group("rest") or "").strip()
        if op in _BUILD_TIME:
            rest = _substituted(rest, global_args if op == "FROM" else args)
        if op == "FROM":
            args = {}
            words = [w for w in rest.split() if not w.startswith("--")]
            if not words:
                continue
            image = words[0]
            name = words[2] if len(words) >= 3 and words[1].lower() == "as" else str(len(stages))
            known = {n: i for n, i, _ in stages}
            resolved = known.get(image.lower(), image) if image.lower() in known else image
            stages.append((name.lower(), None if resolved is None or _computed(resolved)
                           else resolved, line))  # fmt: skip
            yield InfraValue(f"FROM.{name.lower()}", stages[-1][1], line)
            last = list(configured.get(image.lower(), ())) if image.lower() in known else []
            configured[name.lower()] = last
        elif op == "ARG":
            key, eq, default = rest.partition("=")
            key = key.strip()
            if _NAME.match(key):
                value = default.strip().strip("\"'") if eq else None
                if value is not None and _computed(value):
                    value = None
                if args is global_args or value is not None:
                    args[key] = value
                else:  # "ARG PY_VERSION" in a stage: the global default, if any
                    args[key] = global_args.get(key)
                yield InfraValue(f"ARG.{key}", value, line)
        elif op == "EXPOSE":
            last.extend(InfraValue("EXPOSE", None if _computed(p) else p, line)
                        for p in rest.split())  # fmt: skip
        elif op == "RUN" and len(runs) < _MAX_RUNS:  # how the image is built, every stage
            runs.append(InfraValue("RUN", " ".join(rest.split())[:_MAX_RUN_TEXT], line))
        elif op == "WORKDIR":
            before = next((v.text for v in last if v.key == "WORKDIR"), None)
            path = rest.strip("\"'")
            if _computed(path) or not path:
                path = None
            elif not path.startswith("/"):  # relative to the WORKDIR before it, if known
                path = f"{before.rstrip('/')}/{path}" if before else None
            last[:] = [v for v in last if v.key != "WORKDIR"]
            last.append(InfraValue("WORKDIR", path, line))
        elif op in ("USER", "CMD", "ENTRYPOINT"):
            last[:] = [v for v in last if v.key != op]  # the last one counts
            said = (None if _computed(rest) or not rest else rest) if op == "USER" else (
                _command(rest))  # fmt: skip
            last.append(InfraValue(op, said, line))
        elif op == "ENV":
            try:
                pairs = _env_pairs(rest)
            except ValueError:
                continue
            for key, value in pairs:
                if _NAME.match(key):
                    last[:] = [v for v in last if v.key != f"ENV.{key}"]
                    last.append(InfraValue(f"ENV.{key}", None if _computed(value) else value,
                                           line))  # fmt: skip
    if not stages:
        return
    _, image, line = stages[-1]
    yield InfraValue("FROM", image, line)
    yield from last
    yield from runs
    version = _version_of_image("python", image)
    if version is not None:
        yield InfraValue("python-version", version or None, line)
    for _, stage_image, stage_line in stages:
        for repository, key in _COMPILER_IMAGES.items():
            version = _version_of_image(repository, stage_image)
            if version is not None:
                yield InfraValue(key, version or None, stage_line)


# The official images of toolchains a build stage compiles or bundles with.
_COMPILER_IMAGES = {"node": "node-version", "golang": "go-version", "rust": "rust-version"}
_OFFICIAL_IMAGE = re.compile(
    r"^(?:docker\.io/)?(?:library/)?(?P<repo>python|node|golang|rust):(?P<tag>[^@\s]+)$"
)
_TAG_VERSION = re.compile(r"^(?P<v>\d+(?:\.\d+){0,2})(?:[-.].*)?$")


def _version_of_image(repository: str, image: str | None) -> str | None:
    """The version of an official ``repository`` image (``python``, ``node``, ``golang``,
    ``rust``): "3.11" for ``python:3.11-slim``, "18" for ``node:18-alpine``; "" when it is
    such an image whose tag names no version (``latest``, ``lts-alpine``); None when it is
    not such an image."""
    if image is None:
        return None
    m = _OFFICIAL_IMAGE.match(image)
    if m is None or m.group("repo") != repository:
        return None
    tag = _TAG_VERSION.match(m.group("tag"))
    return tag.group("v") if tag else ""


# -- YAML -------------------------------------------------------------------------------------
# libyaml's safe loader where PyYAML was built with it (the same nodes, ~10x faster)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _compose_yaml(text: str) -> Node | None:
    """The document's node tree (the first document), composed by the safe loader."""
    node: Node | None = yaml.compose(text, Loader=_LOADER)
    return node


def _line(node: Node) -> int:
    return int(node.start_mark.line) + 1


def _items(node: Node | None) -> list[tuple[str, Node]]:
    """A mapping node's (key, value) pairs, with ``<<`` merge keys followed one level."""
    if not isinstance(node, yaml.MappingNode):
        return []
    found: list[tuple[str, Node]] = []
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        if key.value == "<<":
            merged = value.value if isinstance(value, yaml.SequenceNode) else [value]
            for m in merged:
                found.extend((k.value, v) for k, v in (m.value if isinstance(m, yaml.MappingNode)
                             else []) if isinstance(k, yaml.ScalarNode))  # fmt: skip
            continue
        found.append((str(key.value), value))
    # a key given after a merge wins, as YAML says
    return list({k: (k, v) for k, v in found}.values())


def _get(node: Node | None, key: str) -> Node | None:
    return next((v for k, v in _items(node) if k == key), None)


def _scalar(node: Node | None) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.value != "":
        return str(node.value)
    return None


def _scalars(node: Node | None) -> list[Node]:
    """A scalar, or the scalars of a sequence."""
    if isinstance(node, yaml.ScalarNode):
        return [node]
    if isinstance(node, yaml.SequenceNode):
        return [n for n in node.value if isinstance(n, yaml.ScalarNode)]
    return []


# -- YAML settings ----------------------------------------------------------------------------
_MAX_DEPTH = 6


def _settings(root: Node, prefix: str = "", depth: int = 0) -> Iterator[InfraValue]:
    """Each scalar an application's YAML settings give, under its dotted key
    (``server.port``, ``plugin_directories.upload``); a list of scalars as one value,
    joined by ", "; lists of mappings and anything deeper than a few levels are not read."""
    for key, value in _items(root):
        name = f"{prefix}{key}"
        if isinstance(value, yaml.MappingNode) and depth < _MAX_DEPTH:
            yield from _settings(value, f"{name}.", depth + 1)
        elif isinstance(value, yaml.ScalarNode):
            yield InfraValue(name, _literal(str(value.value)), _line(value))
        elif isinstance(value, yaml.SequenceNode) and all(
                isinstance(n, yaml.ScalarNode) for n in value.value):  # fmt: skip
            joined = ", ".join(str(n.value) for n in value.value)
            yield InfraValue(name, _literal(joined), _line(value))


# -- compose ----------------------------------------------------------------------------------
def _compose(root: Node) -> Iterator[InfraValue]:
    for service, body in _items(_get(root, "services")):
        prefix = f"services.{service}"
        image = _get(body, "image")
        if image is not None:
            text = _scalar(image)
            yield InfraValue(f"{prefix}.image", _literal(text), _line(image))
        for port in _nodes(_get(body, "ports")):
            yield InfraValue(f"{prefix}.ports", _port(port), _line(port))
        environment = _get(body, "environment")
        if isinstance(environment, yaml.MappingNode):
            for key, value in _items(environment):
                text = _scalar(value)
                yield InfraValue(f"{prefix}.environment.{key}", _literal(text), _line(value))
        for item in _scalars(environment) if isinstance(environment, yaml.SequenceNode) else []:
            key, eq, value = str(item.value).partition("=")
            if eq and key.strip():
                yield InfraValue(f"{prefix}.environment.{key.strip()}", _literal(value),
                                 _line(item))  # fmt: skip
        command = _get(body, "command")
        if command is not None:
            parts = [_scalar(n) for n in _scalars(command)]
            text = None if None in parts else " ".join(str(p) for p in parts)
            yield InfraValue(f"{prefix}.command", _literal(text), _line(command))


def _nodes(node: Node | None) -> list[Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _port(node: Node) -> str | None:
    """``"8080:8000"``, ``8000``, or the long form's ``published:target``."""
    if isinstance(node, yaml.ScalarNode):
        return _literal(str(node.value))
    target, published = _scalar(_get(node, "target")), _scalar(_get(node, "published"))
    if target is None:
        return None
    return _literal(f"{published}:{target}" if published else target)


def _literal(text: str | None) -> str | None:
    """``text`` unless it is missing or names a variable the deployment fills in."""
    if text is None or _computed(text) or "${{" in text:
        return None
    return text.strip()


# -- CI ---------------------------------------------------------------------------------------
_VERSION_KEYS = ("python-version", "node-version", "go-version")
_PYTHON_MATRIX_KEYS = ("python-version", "python", "python_version", "py")
_EXPRESSION = re.compile(r"\$\{\{\s*(?P<expr>[^}]*?)\s*\}\}")


def _github(root: Node) -> Iterator[InfraValue]:
    env: Values = _env_of(_get(root, "env"))
    yield from _env_values(env)
    for _, job in _items(_get(root, "jobs")):
        scope = {**env, **_env_of(_get(job, "env"))}
        yield from _env_values(_env_of(_get(job, "env")))
        matrix = _matrix(_get(_get(job, "strategy"), "matrix"))
        for node in _scalars(_get(job, "runs-on")):
            yield from _expanded("runs-on", node, matrix, scope)
        container = _get(job, "container")
        image = _get(container, "image") if isinstance(container, yaml.MappingNode) else container
        if isinstance(image, yaml.ScalarNode):
            yield from _expanded("image", image, matrix, scope)
        given = False
        for step in _nodes(_get(job, "steps")):
            with_ = _get(step, "with")
            yield from _env_values(_env_of(_get(step, "env")))
            uses = _get(step, "uses")
            if isinstance(uses, yaml.ScalarNode) and not uses.value.startswith("./"):
                yield InfraValue("uses", str(uses.value), _line(uses))  # the actions it runs
            yield from _rust_toolchain_step(step, with_, matrix, scope)
            for key in _VERSION_KEYS:
                for node in _scalars(_get(with_, key)):
                    given |= key == "python-version"
                    yield from _expanded(key, node, matrix, scope)
                if _get(with_, f"{key}-file") is not None:
                    given |= key == "python-version"
                    yield InfraValue(key, None, _line(_get(with_, f"{key}-file") or step))
        if not given:  # ``uv python install ${{ matrix.python }}``: the matrix names them
            for name in _PYTHON_MATRIX_KEYS:
                for value, line in matrix.get(name, ()):
                    yield InfraValue("python-version", None if "${{" in value else value, line)


_RUST_ACTIONS = ("dtolnay/rust-toolchain", "actions-rs/toolchain",
                 "actions-rust-lang/setup-rust-toolchain")  # fmt: skip
# dtolnay/rust-toolchain@1.75 installs that toolchain; @master and @v1 are the action's own
_RUST_REF = re.compile(r"^(?:\d+\.\d+(?:\.\d+)?|stable|beta|nightly(?:-\d{4}-\d{2}-\d{2})?)$")


def _rust_toolchain_step(step: Node, with_: Node | None, matrix: Values,
                         env: Values) -> Iterator[InfraValue]:  # fmt: skip
    """``rust-version``: a Rust setup action's ``toolchain`` input, or dtolnay's ref."""
    uses = _get(step, "uses")
    action, _, ref = (_scalar(uses) or "").partition("@")
    if uses is None or action.lower() not in _RUST_ACTIONS:
        return
    toolchain = _scalars(_get(with_, "toolchain"))
    for node in toolchain:
        yield from _expanded("rust-version", node, matrix, env)
    if not toolchain and action.lower() == "dtolnay/rust-toolchain" and _RUST_REF.match(ref):
        yield InfraValue("rust-version", ref, _line(uses))


# A variable's values, each with the line that gives it.
Values = dict[str, list[tuple[str, int]]]


def _env_values(env: Values) -> Iterator[InfraValue]:
    """``env.NAME``: what a workflow, a job or a step sets in the environment."""
    for name, given in env.items():
        for value, line in given:
            yield InfraValue(f"env.{name}", _literal(value), line)


def _env_of(node: Node | None) -> Values:
    return {k: [(str(v.value), _line(v))] for k, v in _items(node)
            if isinstance(v, yaml.ScalarNode)}  # fmt: skip


def _matrix(node: Node | None) -> Values:
    """Every value a matrix gives each of its variables (lists and ``include`` entries)."""
    found: Values = {}
    for key, value in _items(node):
        if key == "include":
            for entry in _nodes(value):
                for k, v in _items(entry):
                    found.setdefault(k, []).extend((str(n.value), _line(n)) for n in _scalars(v))
        elif key != "exclude":
            if isinstance(value, yaml.SequenceNode):
                found.setdefault(key, []).extend((str(n.value), _line(n)) for n in _scalars(value))
            elif isinstance(value, yaml.ScalarNode):  # an expression: fromJSON(...)
                found.setdefault(key, []).append(("${{ }}", _line(value)))
    return found


def _expanded(key: str, node: Node, matrix: Values, env: Values) -> Iterator[InfraValue]:
    """The values ``node`` takes: ``${{ matrix.python-version }}`` becomes each of the
    matrix's; ``${{ env.X }}`` the workflow's or job's X; any other expression is computed."""
    text, line = str(node.value), _line(node)
    refs = list(_EXPRESSION.finditer(text))
    if not refs:
        yield InfraValue(key, text.strip() or None, line)
        return
    if len(refs) != 1:
        yield InfraValue(key, None, line)
        return
    ref = refs[0]
    source, _, name = ref.group("expr").partition(".")
    values = (matrix if source == "matrix" else env if source == "env" else {}).get(name)
    if not values:
        yield InfraValue(key, None, line)
        return
    firsts: dict[str, int] = {}
    for value, at in values:
        firsts.setdefault(value, at)  # a value the matrix repeats (in ``include``) once
    for value, at in firsts.items():
        full = text[: ref.start()] + value + text[ref.end() :]
        yield InfraValue(key, None if "${{" in full else full.strip(), at)


def _gitlab(root: Node) -> Iterator[InfraValue]:
    for name, job in _items(root):
        if name in ("variables", "stages", "include", "workflow", "cache"):
            continue
        image = _get(job, "image") if name != "image" else job
        if isinstance(image, yaml.MappingNode):
            image = _get(image, "name")
        if isinstance(image, yaml.ScalarNode):
            yield InfraValue("image", _literal(str(image.value)), _line(image))
