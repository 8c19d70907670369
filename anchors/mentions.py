"""Where the repository's tracked text names a technology, and which part of the project
each path belongs to.

Absence is evidence: a note saying "metrics go to Datadog" about a repository whose
tracked text never says "datadog" (nor "ddtrace") is refuted, and the receipt says what
was searched. So every text blob is scanned once for the vocabulary's mention tokens
(``anchors.vocabulary``); the result is cached by blob id like the Python facts.

A data structure the code is said to be built on (a radix tree, a Bloom filter) is named
by code that has one in its comments as often as in its names, so its tokens are searched
in comments and docstrings too (``anchors.vocabulary``, ``use`` ``described``).

Paths are sorted into *areas*: the main project, or a sub-project (``examples/``,
``docs/``, ``vendor/``, ...) whose dependencies and imports are not the project's; and
into *roles*: code, manifest, configuration or prose. Presence only in prose or in a
sub-project is weak evidence: it can keep a note ACTIVE, never make it VERIFIED.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache

from anchors.manifests import ENV_EXAMPLE_NAMES, manifest_kind
from anchors.vocabulary import load, mention_tokens

__all__ = [
    "MAX_TEXT_BYTES",
    "SUBPROJECT_DIRS",
    "Role",
    "config_tokens",
    "described_token",
    "documentation",
    "generated",
    "in_area",
    "is_text_path",
    "role_of",
    "runs",
    "scan_code_mentions",
    "scan_mentions",
    "strip_comments",
    "subproject_of",
    "system_token",
    "tool_area",
]

# Bigger blobs are data (fixtures, locales, generated code), not where a project says what
# it uses; skipping them keeps a cold build of a large repository within its budget.
MAX_TEXT_BYTES = 1_000_000

# Directories that hold another project's code or the project's documentation: their
# dependencies and imports are theirs, not the main project's (issue "scope rules").
SUBPROJECT_DIRS = frozenset(
    [
        "examples", "example", "samples", "sample", "demo", "demos", "docs", "doc",
        "documentation", "benchmarks", "benchmark", "bench", "vendor", "vendored",
        "_vendor", "third_party", "thirdparty", "third-party", "extern", "externals"
    ]
)

_BINARY_SUFFIXES = frozenset(
    [
        "png", "jpg", "jpeg", "gif", "ico", "bmp", "webp", "svgz", "tif", "tiff", "psd",
        "woff", "woff2", "ttf", "otf", "eot", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z",
        "rar", "jar", "war", "whl", "egg", "so", "dylib", "dll", "exe", "bin", "o", "a",
        "lib", "pyc", "pyo", "pyd", "mo", "pdf", "doc", "docx", "xls", "xlsx", "ppt",
        "pptx", "mp3", "mp4", "wav", "ogg", "flac", "avi", "mov", "mkv", "webm", "db",
        "sqlite", "sqlite3", "duckdb", "parquet", "npy", "npz", "pkl", "pickle", "h5",
        "onnx", "pt"
    ]
)
# Source code of the languages the fingerprint reads (``anchors.languages``) and of the
# common ones it does not: a name there is code, not configuration.
_CODE_SUFFIXES = frozenset(
    [
        "py", "pyi", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte",
        "go", "rs", "java", "kt", "scala", "rb", "php", "cs", "swift", "c", "h", "cc", "cpp",
        "hpp",
    ]
)  # fmt: skip
_CONFIG_SUFFIXES = frozenset(
    ["toml", "ini", "cfg", "yaml", "yml", "json", "conf", "tf", "hcl", "env", "properties"]
)
_CONFIG_NAMES = frozenset(
    [
        "makefile", "dockerfile", "procfile", "jenkinsfile", "vagrantfile", "justfile",
        "gemfile", "pipfile", "setup.py", "noxfile.py", "conftest.py", "manage.py",
        "fabfile.py", "tasks.py"
    ]
)
_PROSE_SUFFIXES = frozenset(
    [
        "md", "rst", "txt", "adoc", "asciidoc", "html", "htm", "textile", "org", "rdoc"
    ]
)
_TOKEN = re.compile(rb"[a-z0-9]+(?:[-_.][a-z0-9]+)*")


class Role(StrEnum):
    """What a tracked file is, for judging a mention found in it."""

    CODE = "code"  # Python source: imports count, a mention in a comment is weak
    MANIFEST = "manifest"  # declares dependencies
    CONFIG = "config"  # configures tools and deployment: a mention is a use
    PROSE = "prose"  # documentation and other text: a mention is weak
    # Lock files, minified or generated files, fixtures and data files: what they name
    # was resolved, bundled or recorded by something else; a mention is never a use.
    DATA = "data"


def is_text_path(path: str) -> bool:
    """Whether ``path`` is worth reading for mentions (not an obviously binary format)."""
    name = path.rpartition("/")[2].lower()
    return name.rpartition(".")[2] not in _BINARY_SUFFIXES or "." not in name


@cache
def _mention_bytes() -> frozenset[bytes]:
    return frozenset(t.encode() for t in mention_tokens() | config_tokens())


def described_token(token: str) -> bool:
    """Whether ``token`` names a data structure (searched in comments too)."""
    return token in load().described_tokens


@cache
def system_token(token: str) -> bool:
    """Whether ``token`` names a system (a datastore, a service), whose mention in code may
    be a use of it (looked up once per token: building the set for every token costs a
    process more than the few a file holds)."""
    from anchors.vocabulary import TechKind, technologies_for_token

    return any(x.kind is TechKind.SYSTEM for x in technologies_for_token(token))


@cache
def config_tokens() -> frozenset[str]:
    """Names of packages that are also ordinary words ("black", "falcon", "mock"): searched
    for too, but they count only where a configuration file or manifest names them."""
    return load().package_words()


# A URL's path, query and fragment: ``https://github.com/tokio-rs/tracing`` names an
# organisation's page, not a use of tokio; its scheme and host stay (``redis://``,
# ``o1.ingest.sentry.io``: a service the code talks to).
_URL_PATH = re.compile(rb"(\b[A-Za-z][A-Za-z0-9+.\-]*://[^/\s\"'<>()\[\]{}`]*)[^\s\"'<>()\[\]{}`]*")
# A whole line that is a comment in configuration and code (``#``, ``//``).
_COMMENT_LINE = re.compile(rb"(?m)^[ \t]*(?:#|//).*$")


# A linter's list of the standard library's modules (isort's ``known_standard_library``):
# it names every module there is, not the ones the project uses (``sqlite3`` is no SQLite).
_STDLIB_LIST = re.compile(
    rb"(?im)^[ \t]*[\w.-]*(?:standard[_-]library|stdlib)[\w.-]*[ \t]*[=:][ \t]*"
    rb"(?:\[[^\]]*\]|[^\n]*)"
)


def scan_mentions(data: bytes, comments: bool = True) -> tuple[str, ...]:
    """The vocabulary's mention tokens that occur as words in ``data`` (sorted); nothing
    for binary or oversized content. ``comments=False`` leaves out whole comment lines:
    what code or a configuration file says in a comment ("# a good idea if you set up
    redis", a commented-out requirement) is not a use (``reads_comments``)."""
    if len(data) > MAX_TEXT_BYTES or b"\0" in data[:8192]:
        return ()
    described = _described_in(data) if not comments else set()
    if not comments:
        data = _COMMENT_LINE.sub(b"", data)
    if b"standard" in data or b"stdlib" in data:
        data = _STDLIB_LIST.sub(b"", data)
    if b"://" in data:
        data = _URL_PATH.sub(rb"\1", data)
    low = data.lower()
    words = set(_TOKEN.findall(low))
    # "sentry-sdk", "ddtrace.tracer": the whole token and each of its parts count.
    parts = {p for w in words if b"-" in w or b"_" in w or b"." in w
             for p in re.split(rb"[-_.]", w)}  # fmt: skip
    found = (words | parts) & _mention_bytes()
    return tuple(sorted({*(t.decode() for t in found), *described}))


def _described_in(data: bytes) -> set[str]:
    """The data structures' tokens (``Vocabulary.described_tokens``) named anywhere in
    ``data``, comments included: "// Radix tree implementation below" is what code that
    has one says of it."""
    low = data.lower()
    if not any(token in low for token in _described_bytes()):
        return set()  # (a search for each token's bytes, before any word is split out)
    return set(scan_mentions(data)) & load().described_tokens


@cache
def _described_bytes() -> tuple[bytes, ...]:
    return tuple(t.encode() for t in load().described_tokens)


# In C-like code (JavaScript/TypeScript, Go, Rust): a string literal (kept, group 1), or a
# block or line comment (dropped). One pass from left to right, so a ``//`` inside a string
# ("https://...") is part of the string and a quote inside a comment starts nothing.
_CODE_COMMENT = re.compile(
    # A Rust lifetime (``&'a``, ``<'a>``, ``'static``) opens no quote. Any other quote not
    # closed on its line runs to the line's end: a line of thousands of unclosed quotes is
    # still scanned once, never again from each of them.
    rb"((?<=[&<])'[A-Za-z_]\w*(?![\w'])|'(?:static|_)\b(?!')"
    rb'|"[^"\\\n]*(?:\\.[^"\\\n]*)*(?:"|(?=\n)|\Z)'
    rb"|'[^'\\\n]*(?:\\.[^'\\\n]*)*(?:'|(?=\n)|\Z)"
    # An unclosed template string or block comment runs to the end, so no byte is scanned
    # twice however many of them a file holds.
    rb"|`[^`\\]*(?:\\.[^`\\]*)*(?:`|\Z))"
    rb"|/\*.*?(?:\*/|\Z)|//[^\n]*",
    re.DOTALL,
)


def _keep_string(match: re.Match[bytes]) -> bytes:
    return match.group(1) or b""


def strip_comments(data: bytes, language: str) -> bytes:
    """``data`` without its comments: Python's whole comment lines, C-like languages'
    ``//`` and ``/* */`` (string literals kept whole)."""
    if language == "python":
        return _COMMENT_LINE.sub(b"", data)
    return _CODE_COMMENT.sub(_keep_string, data) if b"/" in data else data


def scan_code_mentions(data: bytes) -> tuple[str, ...]:
    """The mention tokens of C-like source code (JavaScript/TypeScript, Vue, Svelte, Go,
    Rust) outside its comments: ``/* ... */`` blocks and ``// ...`` to the end of a line are
    left out, string literals are kept whole (a URL's ``//`` is not a comment). A Rust
    lifetime after ``&`` or ``<`` opens no quote; another quote not closed on its line
    (``<'a, 'b>``'s second) runs to the line's end, which may keep a comment after it: a
    mention too many, never a quadratic scan."""
    if len(data) > MAX_TEXT_BYTES or b"\0" in data[:8192]:
        return ()
    found = scan_mentions(strip_comments(data, "c-like"))
    described = _described_in(data)
    return tuple(sorted({*found, *described})) if described else found


def subproject_of(path: str) -> str | None:
    """The sub-project directory ``path`` lies in (``docs``, ``examples/demo``'s
    ``examples``...), or None when it belongs to the main project."""
    parts = path.split("/")[:-1]
    for i, part in enumerate(parts):
        if part.lower() in SUBPROJECT_DIRS:
            return "/".join(parts[: i + 1])
    return None


_TEST_DIRS = frozenset({"tests", "test", "testing"})


def tool_area(directory: str) -> bool:
    """Tests and sub-projects use tools and plugins without importing them (pytest plugins,
    Sphinx extensions): a technology claimed there is checked as used there, not imported,
    and one the project uses elsewhere is not a present-trap there."""
    return subproject_of(directory + "/x") is not None or bool(
        _TEST_DIRS & set(directory.split("/"))
    )


_TEST_FILE = re.compile(r"(?:conftest|test_\w*|\w*_tests?|noxfile|tasks)\.pyi?|\w*\.pyi")


# behave's acceptance tests: ``features/environment.py`` and ``features/steps/``
_BEHAVE = re.compile(r"(?:^|/)features/(?:environment\.pyi?$|steps/)")


def runs(path: str) -> bool:
    """Whether a Python file is code the application runs: not a test, a test helper, a
    stub, a task file, nor anything in a test folder or a sub-project (docs, examples)."""
    directory, _, name = path.rpartition("/")
    return not (_TEST_FILE.fullmatch(name) or tool_area(directory) or subproject_of(path)
                or _BEHAVE.search(path))  # fmt: skip


_DOC_SUFFIXES = frozenset(["md", "rst", "txt", "adoc", "asciidoc", "textile", "org", "rdoc"])
_DOC_NAMES = re.compile(
    r"(?:readme|changelog|changes|history|news|authors|contributors|license|licence|notice|"
    r"contributing|security|support|code_of_conduct)(?:[.\-_]\w+)?",
    re.IGNORECASE,
)
_DOC_DIRS = frozenset(["docs", "doc", "documentation"])


def documentation(path: str) -> bool:
    """Whether ``path`` is written for people to read about the project: a Markdown or
    reStructuredText page, a README or changelog, anything in a docs folder. Templates and
    other HTML outside the docs render pages of the application, and are not."""
    name = path.rpartition("/")[2].lower()
    suffix = name.rpartition(".")[2] if "." in name else ""
    if role_of(path) is not Role.PROSE:
        return False
    folders = {part.lower() for part in path.split("/")[:-1]}
    return suffix in _DOC_SUFFIXES or bool(folders & _DOC_DIRS) or bool(
        _DOC_NAMES.fullmatch(name))


def in_area(path: str, scope: str | None) -> bool:
    """Whether ``path`` belongs to the part of the repository a claim is about: under
    ``scope`` when given, else the main project (everything outside sub-projects)."""
    if scope is not None:
        return path == scope or path.startswith(scope.rstrip("/") + "/")
    return subproject_of(path) is None


# Written by a tool from other files: a lock resolves dependencies (transitive ones too),
# a bundle or a minified file carries whatever it was built from.
_LOCK_NAMES = frozenset(
    [
        "poetry.lock", "pipfile.lock", "uv.lock", "pdm.lock", "package-lock.json",
        "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "cargo.lock",
        "go.sum", "composer.lock", "gemfile.lock", "packages.lock.json", "conda-lock.yml"
    ]
)
_GENERATED = re.compile(r"[.-](?:min|bundle|chunk|umd|prod)\.(?:js|mjs|cjs|css)$|\.map$")
# A bundler's output names a file by a hash of its content ("index-BXi4lWmw.js",
# "main.3f2a9c1b.css"): whatever it names, it bundled from elsewhere (a vendored word list
# naming "celery" is no use of Celery)
_WORDLIKE = re.compile(r"[A-Z]?[a-z]+\d*|[A-Z]+\d*|[a-z]+")
_HASHED = re.compile(r"[.-](?P<h>[A-Za-z0-9_]{8}|[0-9a-f]{8,32})\.(?:js|mjs|cjs|css)$")


def generated(name: str) -> bool:
    """Whether a file named ``name`` is a tool's output: minified, bundled, a source map,
    or named by a hash of its content."""
    return _GENERATED.search(name.lower()) is not None or _hashed(name)


def _hashed(name: str) -> bool:
    m = _HASHED.search(name)
    if m is None:
        return False
    h = m["h"]
    if _WORDLIKE.fullmatch(h):  # ("run-Webpack5.js", "app.settings.js": a name)
        return False
    return sum(any(f(ch) for ch in h) for f in (str.isdigit, str.isupper, str.islower)) > 1
_DATA_SUFFIXES = frozenset(
    ["csv", "tsv", "jsonl", "ndjson", "parquet", "xml", "sql", "dat", "po", "pot", "har"]
)
# Recorded inputs and outputs of tests, and data shipped beside the code.
_DATA_DIRS = frozenset(
    [
        "fixtures", "fixture", "__fixtures__", "testdata", "test_data", "test-data",
        "__snapshots__", "snapshots", "cassettes", "golden", "goldens", "testfiles"
    ]
)


def reads_comments(path: str) -> bool:
    """Whether a mention in a comment line of ``path`` is searched for: in documentation
    and data a ``#`` starts a heading or a value, not a comment."""
    return role_of(path) in (Role.PROSE, Role.DATA)


def role_of(path: str) -> Role:
    name = path.rpartition("/")[2]
    low = name.lower()
    if low in _LOCK_NAMES or low.endswith(".lock") or generated(name):
        return Role.DATA
    folders = {part.lower() for part in path.split("/")[:-1]}
    suffix = low.rpartition(".")[2] if "." in low else ""
    if suffix in _DATA_SUFFIXES or folders & _DATA_DIRS:
        return Role.DATA
    if suffix == "json" and folders & _TEST_DIRS:
        return Role.DATA  # a test's JSON is its data, not a tool's configuration
    if manifest_kind(path) is not None:
        return Role.MANIFEST
    if low in _CONFIG_NAMES or name in ENV_EXAMPLE_NAMES or low.startswith(".env"):
        return Role.CONFIG
    if suffix in _CODE_SUFFIXES:
        return Role.CODE
    if suffix in _CONFIG_SUFFIXES or "/.github/" in f"/{path}" or low.startswith("."):
        return Role.CONFIG
    if suffix in _PROSE_SUFFIXES or not suffix:
        return Role.PROSE
    return Role.CONFIG
