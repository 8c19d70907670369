"""The projects a repository holds, and which one a note's words name.

Each manifest is its own project at its own directory: ``pyproject.toml`` or a
requirements file for Python, ``package.json`` for JavaScript/TypeScript, ``go.mod`` for
Go, ``Cargo.toml`` for Rust. A polyglot repository holds several ("``web/`` is a Vue app
beside the Python backend at the root"), and a note that names "the frontend", "the UI" or
"the web client" is about the one JavaScript/TypeScript project that is not the root's
Python one, when there is exactly one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.manifests import manifest_kind
from anchors.mentions import in_area, subproject_of
from anchors.tooling_dirs import js_runs, test_directory

__all__ = [
    "FRONTEND_WORDS",
    "Project",
    "declares_above",
    "declares_for",
    "frontend_directory",
    "holds_python",
    "named_project",
    "projects",
]

# Words a note names the browser-side project with ("the frontend", "the web UI").
FRONTEND_WORDS = frozenset(
    {
        "frontend", "front-end", "front end", "ui", "web ui", "webui", "web client",
        "web frontend", "client side", "client-side", "spa", "single-page app",
        "browser code", "browser client", "js client", "typescript client",
    }
)  # fmt: skip
_ECOSYSTEM = {
    "package.json": "npm",
    "go.mod": "go",
    "Cargo.toml": "cargo",
    "pyproject.toml": "pypi",
    "setup.py": "pypi",
    "setup.cfg": "pypi",
}
_JS = frozenset({"javascript", "typescript"})
# A language's name as a note's subject ("the Go service", "the Rust worker", once generic
# nouns are dropped): the one project of that ecosystem.
_LANGUAGE_WORDS = {
    "go": "go", "golang": "go", "rust": "cargo", "typescript": "npm", "javascript": "npm",
    "ts": "npm", "js": "npm", "node": "npm", "nodejs": "npm",
}  # fmt: skip


@dataclass(frozen=True)
class Project:
    """One manifest's project: its directory ("" for the root) and ecosystem."""

    directory: str
    ecosystem: str
    manifest: str


def projects(fp: Fingerprint) -> tuple[Project, ...]:
    """Every project of the main repository (not under docs, examples, vendored code),
    sorted by directory; one directory may hold several (a ``package.json`` beside a
    ``pyproject.toml``)."""
    return fp.derived("projects", _projects)


def _projects(fp: Fingerprint) -> tuple[Project, ...]:
    found: list[Project] = []
    for name, ecosystem in _ECOSYSTEM.items():
        for path in fp.basename_paths(name):
            if subproject_of(path) is not None or "/node_modules/" in f"/{path}":
                continue
            found.append(Project(path.rpartition("/")[0], ecosystem, path))
    return tuple(sorted(found, key=lambda p: (p.directory, p.ecosystem)))


def frontend_directory(fp: Fingerprint) -> str | None:
    """The directory of the repository's one JavaScript/TypeScript project (the frontend),
    or None when there is none or several. At the root, where a ``package.json`` sits beside
    the Python project (a Jupyter extension's ``src/``), it is the one top-level directory
    that holds JavaScript/TypeScript code."""
    npm = [p.directory for p in projects(fp) if p.ecosystem == "npm" and _not_tooling(fp, p)]
    below = [d for d in npm if d and not _inside_any(d, npm)]
    if len(below) == 1:
        return below[0]
    if below or "" not in npm:
        return None
    tops = {path.split("/", 1)[0] for path, facts in fp.code.items()
            if facts.language in _JS and "/" in path and subproject_of(path) is None}  # fmt: skip
    tops.discard("node_modules")
    return tops.pop() if len(tops) == 1 else None


def _not_tooling(fp: Fingerprint, project: Project) -> bool:
    """Whether an npm project may be the application's: not a test project (``ui-tests/``),
    nor a folder whose JavaScript is all a build's output (a Jupyter extension's
    ``labextension/`` copy of its ``package.json`` beside its bundles)."""
    if test_directory(project.directory):
        return False
    prefix = f"{project.directory}/" if project.directory else ""
    code = [p for p, f in fp.code.items() if p.startswith(prefix) and f.language in _JS]
    return not code or not project.directory or any(js_runs(p) for p in code)


def _inside_any(directory: str, others: Sequence[str]) -> bool:
    return any(o and o != directory and directory.startswith(o + "/") for o in others)


def named_project(words: str, fp: Fingerprint) -> str | None:
    """The directory of the project ``words`` name ("frontend", "web ui": the frontend;
    "go": the one Go module; "rust": the one crate), or None when they name none, or the
    repository holds several such projects. The root is named as "" only for a language
    whose one project is at the root of a repository holding another language's too."""
    if words in FRONTEND_WORDS:
        return frontend_directory(fp)
    ecosystem = _LANGUAGE_WORDS.get(words)
    if ecosystem is None:
        return None
    if ecosystem == "npm":
        return frontend_directory(fp)
    found = [p.directory for p in projects(fp) if p.ecosystem == ecosystem]
    return found[0] if len(found) == 1 and found[0] else None


def declares_above(manifest: str, scope: str, fp: Fingerprint) -> bool:
    """Whether ``manifest``, in a directory above ``scope``, declares for the code there:
    no project of another ecosystem lies between them (a workspace root's ``package.json``
    declares for ``web/``; the root's ``pyproject.toml`` does not, when ``web/`` has a
    ``package.json``). False when ``manifest`` is not above ``scope``."""
    directory = manifest.rpartition("/")[0]
    if directory and not scope.startswith(directory + "/"):
        return False
    own = _ECOSYSTEM.get(manifest.rpartition("/")[2], "pypi")
    for project in projects(fp):
        d = project.directory
        between = d != directory and (d == scope or scope.startswith(d + "/"))
        inside = not directory or d.startswith(directory + "/")
        if between and inside and project.ecosystem != own:
            return False
    return True


def declares_for(source: str, scope: str | None, fp: Fingerprint) -> bool:
    """Whether the manifest ``source`` declares for the project at ``scope`` (None: the
    main project): it lies in that project, or in a directory above it (a workspace root)
    with no project of another ecosystem in between (``pyproject.toml`` at the root does
    not declare for ``web/``, which has its own ``package.json``)."""
    if scope is None:
        return in_area(source, None)
    if manifest_kind(scope) is not None:
        return source == scope  # a manifest named: that file alone
    return in_area(source, scope) or declares_above(source, scope, fp)


def holds_python(path: str, fp: Fingerprint) -> bool:
    """Whether ``path`` (a file or a directory) is Python code or holds some, or holds no
    code at all: where a Python package is what a note's words name. A Go service or a
    TypeScript frontend holds none, and checks there are in that code's own terms."""
    if path in fp.blobs:
        return fp.language(path) in ("python", None)
    with_python, with_code = fp.derived("projects.code_dirs", _code_directories)
    directory = path.rstrip("/")
    return directory in with_python or directory not in with_code


def _code_directories(fp: Fingerprint) -> tuple[frozenset[str], frozenset[str]]:
    """Every directory holding Python code, and every one holding any code (at any depth):
    built once per fingerprint, since notes ask of their scope on every reading."""
    with_python: set[str] = set()
    with_code: set[str] = set()
    for path, facts in fp.code.items():
        parts = path.split("/")[:-1]
        dirs = {"/".join(parts[: i + 1]) for i in range(len(parts))}
        with_code |= dirs
        if facts.language == "python":
            with_python |= dirs
    return frozenset(with_python), frozenset(with_code)
