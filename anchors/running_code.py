"""The code that runs, and the claims made of all of it: "mux never reads environment
variables", "the crate has no third-party dependencies", "only the tests import log".

Such a note speaks of the project as it runs, not of its tests, examples, benchmarks, docs
or build scripts, which may read ``CI`` or import ``log`` without making it false. Which
files run follows each language's conventions: Python's test modules and folders
(``anchors.mentions.runs``), JavaScript's specs, stories and tool configuration
(``anchors.tooling_dirs.js_runs``), Go's ``*_test.go`` and ``testdata/``, Rust's
``tests/``, ``benches/``, ``examples/`` and ``build.rs``.

Three wildcard anchors check them (``anchors.spec``):

- ``!env:*[@PATH]``: no file that runs reads any environment variable. A named read
  refutes it, with the variable and the file. A file whose bytes name a way of reading the
  environment (``os.getenv``, ``process.env``, ``std::env``) without a name the facts
  record (``os.Getenv(key)``), or that the grammars could not read, makes it unknown: the
  absence is proved only by every way of reading being absent. Reading all of it
  (``os.Environ()``, ``env::vars()``, ``{...process.env}``) refutes it.
- ``!dep:*[@PATH]``: the project's manifests declare no run-time dependency (development,
  test and optional ones aside; the Python version is no dependency). A manifest that may
  compute its requirements (``setup.py``) or that is not read makes it unknown.
- ``import:X@*`` / ``!import:X@*``: some / no file that runs imports ``X`` (an import in
  a Rust ``#[cfg(test)]`` module or under Python's ``if TYPE_CHECKING:`` is not made when
  the code runs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import FileFacts, Fingerprint
from anchors.finding import Finding, listed
from anchors.manifests import PYTHON, manifest_kind
from anchors.mentions import in_area, runs, strip_comments, subproject_of, tool_area
from anchors.projects import declares_for
from anchors.requirement_strings import COMPUTED
from anchors.spec import WILDCARD, Anchor, AnchorKind, Expect
from anchors.tooling_dirs import js_runs
from anchors.vocabulary import by_name

__all__ = [
    "MAY_READ",
    "READS_ALL",
    "code_runs",
    "find_any_dependency",
    "find_any_env_read",
    "find_running_import",
    "package_run_time_import",
    "touches_environment",
]

# The words of each dialect's ways of reading the environment, searched in the raw bytes
# (a comment naming one only makes a check unknown, never wrong).
_ENV_ACCESS = {
    # (settings libraries that read it for the code: django-environ, environs, decouple,
    # dynaconf, pydantic's BaseSettings, click's ``envvar``, Flask's ``from_envvar``)
    "python": re.compile(rb"\b(?:environ|environb|environs|getenv|getenvb|decouple|dotenv|dynaconf"
                         rb"|BaseSettings|envvar|auto_envvar_prefix|from_envvar|from_prefixed_env)\b"),
    "go": re.compile(rb"\b(?:Getenv|LookupEnv|Environ|ExpandEnv|envconfig|AutomaticEnv|BindEnv)\b"
                     rb"|\benv\.Parse\b"),
    # (``std::env``, clap's ``env`` attribute, the config and figment crates' sources; not
    # ``env!``, which Cargo fills in when it compiles)
    "rust": re.compile(rb"\benv\b(?!\s*!)|\bdotenvy?\b|\benvy\b|\bEnvironment::|\bEnv::"),
    "javascript": re.compile(rb"\bprocess\s*(?:\.\s*env\b|\[)|\bimport\.meta\.env\b|\bDeno\.env\b"
                             rb"|\bBun\.env\b|\b(?:dotenv|envalid|convict|ConfigService)\b"),
}
_DIALECT_LANGUAGE = {"typescript": "javascript", "tsx": "javascript", "vue": "javascript",
                     "svelte": "javascript"}  # fmt: skip
_GO_TEST = re.compile(r".*_test\.go")
_RUST_AREAS = frozenset({"tests", "benches", "examples"})


# Reading the whole environment (every variable, whatever its name), or a variable by a
# name the code computes (``os.Getenv(key)``, ``option.envVar in process.env``): a read
# whatever the name is.
_WHOLE_ENV = {
    "python": re.compile(rb"\bos\.environ\s*\.\s*(?:copy|items|keys|values)\s*\(|"
                         rb"\bdict\(\s*os\.environ\s*\)|\*\*\s*os\.environ\b|"
                         rb"\bos\.environ\s*\[\s*(?![\s'\"])|"
                         rb"\bos\.(?:getenv|environ\.get)\s*\(\s*(?![\s'\")])"),
    "go": re.compile(rb"\bos\.Environ\s*\(\s*\)|\bos\.(?:Getenv|LookupEnv)\s*\(\s*(?![\s\"`)])"),
    "rust": re.compile(rb"\benv::vars(?:_os)?\s*\(\s*\)|\benv::var(?:_os)?\s*\(\s*(?![\s\")])"),
    "javascript": re.compile(rb"\.\.\.\s*process\.env\b|\bObject\.(?:keys|entries|values|assign)"
                             rb"\s*\(\s*(?:\{\s*\}\s*,\s*)?process\.env\b|"
                             rb"\bprocess\.env\s*\[\s*(?![\s'\"`])|\bin\s+process\.env\b"),
}
MAY_READ = 1  # ``FileFacts.env_access``: the bytes name a way of reading the environment
READS_ALL = 2  # ... and reads all of it (``os.Environ()``) or a name it computes


def touches_environment(source: bytes, dialect: str) -> int:
    """0, ``MAY_READ`` or ``READS_ALL``: how ``source`` touches the environment in its
    dialect. The whole environment is looked for outside comments."""
    language = _DIALECT_LANGUAGE.get(dialect, dialect)
    pattern = _ENV_ACCESS.get(language)
    if pattern is None or pattern.search(source) is None:
        return 0
    code = strip_comments(source, language)
    return READS_ALL if _WHOLE_ENV[language].search(code) else MAY_READ


def code_runs(path: str, facts: FileFacts, fp: Fingerprint | None = None) -> bool:
    """Whether the source file ``path`` is code the project runs (see the module); ``fp``
    tells a JavaScript package's ``lib/`` sources from a build's output."""
    directory, _, name = path.rpartition("/")
    if facts.language == "python":
        return runs(path)
    if facts.language in ("javascript", "typescript"):
        return js_runs(path, fp)
    if tool_area(directory) or subproject_of(path) is not None:
        return False
    parts = set(directory.split("/")) if directory else set()
    if facts.language == "go":
        return not (_GO_TEST.fullmatch(name) or "testdata" in parts)
    if facts.language == "rust":
        return not (parts & _RUST_AREAS or name == "build.rs")
    return True


def _running(fp: Fingerprint, scope: str | None) -> list[tuple[str, FileFacts]]:
    return sorted((path, facts) for path, facts in fp.code.items()
                  if in_area(path, scope) and code_runs(path, facts, fp))  # fmt: skip


def _built_in(name: str, facts: FileFacts) -> bool:
    """A variable Cargo sets when it compiles the crate (``env!("CARGO_PKG_VERSION")``):
    read into the binary at build time, never from the environment it runs in."""
    return facts.language == "rust" and name.startswith("CARGO_")


def find_any_env_read(scope: str | None, fp: Fingerprint) -> Finding:
    """The environment reads of the code that runs (under ``scope``): found, none (every
    file read and none touching the environment), or cannot tell."""
    running = _running(fp, scope)
    if scope is not None and not (fp.has_directory(scope) or fp.has_path(scope)):
        return Finding((), None, f"{scope} is not in the repository", False)
    named = [(path, name) for path, facts in running for name in facts.env_reads
             if not _built_in(name, facts)]  # fmt: skip
    paths = {path: facts for path, facts in running}
    named += [(path, name) for name in fp.env_names() for path in fp.env_sources(name)
              if path in paths and (path, name) not in named
              and not _built_in(name, paths[path])]  # fmt: skip
    if named:
        shown = "; ".join(f"{path} reads {name}" for path, name in sorted(named)[:3])
        more = f" and {len(named) - 3} more reads" if len(named) > 3 else ""
        return Finding(tuple(sorted({p for p, _ in named})), None, f"{shown}{more}")
    whole = [path for path, facts in running if facts.env_access >= READS_ALL]
    if whole:
        return Finding(tuple(whole), None, f"{listed(whole)} reads the environment: all of "
                                           "it, or a variable whose name it computes")  # fmt: skip
    touching = [path for path, facts in running if facts.env_access]
    if touching:
        detail = (f"{listed(touching)} may read the environment (it names a way to) with no "
                  "variable the fingerprint records; cannot tell")  # fmt: skip
        return Finding((), None, detail, False)
    unread = [path for path, facts in running if not facts.parsed]
    if unread:
        return Finding((), None, f"{listed(unread)} could not be read; cannot tell", False)
    where = f" under {scope}/" if scope else ""
    return Finding((), None, f"no code that runs{where} reads the environment "
                             f"({len(running)} files read)")  # fmt: skip


def find_any_dependency(scope: str | None, fp: Fingerprint) -> Finding:
    """The run-time dependencies the project (at ``scope``: a directory or one manifest)
    declares: found, none (its manifests read, none declaring one), or cannot tell."""
    manifests = sorted(p for p in fp.blobs if manifest_kind(p) and declares_for(p, scope, fp))
    if not manifests:
        where = f"for {scope}" if scope else "for the project"
        return Finding((), None, f"no manifest the fingerprint reads declares {where}", False)
    declared = [d for d in fp.dependencies
                if d.source in manifests and d.runtime and not d.optional and d.name != PYTHON]
    computed = [d.source for d in declared if d.name == COMPUTED]
    declared = [d for d in declared if d.name != COMPUTED]
    if declared:
        names = [f"{d.name}{f' {d.spec}' if d.spec else ''}" for d in declared]
        sources = tuple(sorted({d.source for d in declared}))
        verb = "declares" if len(sources) == 1 else "declare"
        return Finding(sources, None, f"{listed(sources)} {verb} {listed(names)}")
    computed += [p for p in manifests if p.rpartition("/")[2] in ("setup.py", "setup.cfg")
                 and not any(d.source == p for d in fp.dependencies)]  # fmt: skip
    if computed:
        detail = f"{listed(computed)} may declare requirements the fingerprint does not read"
        return Finding((), None, detail, False)
    return Finding((), None, f"{listed(manifests)} declares no run-time dependency")


def find_running_import(module: str, fp: Fingerprint) -> Finding:
    """The files that run and import ``module``."""
    importing = sorted({path for path, _ in fp.importers(module)})
    running = sorted({path for path, imp in fp.importers(module) if not imp.typing
                      and (f := fp.code.get(path)) is not None and code_runs(path, f, fp)})
    if running:
        return Finding(tuple(running), None, f"{module} is imported by {listed(running)}")
    unread = [p for p, f in fp.unread() if code_runs(p, f, fp) and f.could_mention([module])]
    if unread:
        return Finding((), None, f"{listed(unread)} could not be read; cannot tell", False)
    typed = sorted({path for path, imp in fp.importers(module) if imp.typing})
    elsewhere = f" (only where the code does not run: {listed(importing)})" if importing else ""
    if typed and set(typed) == set(importing):
        elsewhere = f" (only its types, or in a test module: {listed(typed)})"
    return Finding((), None, f"no code that runs imports {module}{elsewhere}")


def package_run_time_import(outcome: Sequence[Anchor], fp: Fingerprint) -> Anchor | None:
    """For a crate or an npm package claimed as a run-time dependency whose declarations
    are all for development: the import by the code that runs that would make it one,
    which no such file makes today ("rand is a runtime dependency" while only tests use
    it; "express is a runtime dependency" while only its types are imported). None for any
    other anchor."""
    for anchor in outcome:
        if anchor.expect is not Expect.PRESENT or anchor.kind not in (AnchorKind.DEP,
                                                                     AnchorKind.TECH):
            continue
        tech = by_name(anchor.value) if anchor.kind is AnchorKind.TECH else None
        packages = tech.packages if tech is not None else ()
        names = [anchor.value] if tech is None else [
            p.partition(":")[2] for p in packages if p.startswith(("cargo:", "npm:"))]
        for name in names:
            declared = fp.dependency(name)
            if not declared or any(d.runtime or d.optional for d in declared):
                continue
            if all(d.ecosystem == "cargo" for d in declared):
                return Anchor(AnchorKind.IMPORT, name.replace("-", "_"), scope=WILDCARD)
            if all(d.ecosystem == "npm" for d in declared):
                return Anchor(AnchorKind.IMPORT, name, scope=WILDCARD)
    return None
