"""Does the project use a named technology? The check behind ``tech:NAME[@PATH]``.

A technology (``anchors.vocabulary``) is *used* by the part of the repository a claim is
about (``anchors.mentions.in_area``) when a file there imports one of its modules, a
manifest there declares one of its distributions, one of its footprint files is tracked
there (``Dockerfile``, ``Pulumi.yaml``), or a configuration file there names it. Its npm,
Go and crate packages (``Technology.packages``) count where a file of that ecosystem's
languages imports one or a ``package.json``, ``go.mod`` or ``Cargo.toml`` declares one;
PyPI's where Python does: one name in two ecosystems is two packages. Found only
in prose, in a code comment, or in a sub-project, it is *weak*: not confirmed, not refuted.
Found nowhere in the tracked text, the claim is refuted, and the detail says what was
searched at which commit, unless the technology is one people use beside the code (an
issue tracker, a wiki, paging, chat, a hosting console: ``Technology.beside``): the
repository need not name those, so not finding one there is no answer either way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.finding import Finding
from anchors.languages import language_of
from anchors.manifests import manifest_kind
from anchors.mentions import (
    Role,
    config_tokens,
    documentation,
    in_area,
    role_of,
    runs,
    tool_area,
)
from anchors.projects import declares_above
from anchors.tooling_dirs import built_copy
from anchors.vocabulary import TechKind, Technology, by_name, english

__all__ = ["BESIDE_DETAIL", "EXTERNAL_HINT", "find_technology"]

EXTERNAL_HINT = (
    "if the note is about something outside this repository, remember it with scope 'external'"
)


# What the answer says of a tool people use beside the code that the repository does not use.
BESIDE_DETAIL = "not checkable from this repository"


# The languages whose files import the packages of each ecosystem; a file in none of them
# (Python, a notebook, a settings string) imports PyPI's.
_IMPORTED_IN = {
    "npm": frozenset({"javascript", "typescript"}),
    "go": frozenset({"go"}),
    "cargo": frozenset({"rust"}),
}
_NOT_PYTHON = frozenset().union(*_IMPORTED_IN.values())
# The ecosystem whose dependencies a manifest declares (``anchors.manifests``); PyPI's else.
_MANIFEST_ECOSYSTEM = {"package_json": "npm", "go_mod": "go", "cargo_toml": "cargo"}
_GO_MAJOR = re.compile(r"/v[0-9]+\Z")


def _uses(tech: Technology | None, name: str, fp: Fingerprint) -> list[tuple[str, str]]:
    """(path, what it does with the technology) for every use anywhere in the repository.
    Each import and declaration is matched in its own ecosystem: an npm ``debug`` in
    ``package.json`` is not the PyPI ``debug``, nor is a JavaScript ``import uuid``."""
    if tech is None:
        return _unknown_uses(name, fp)
    uses: list[tuple[str, str]] = []
    for module in tech.imports:
        uses.extend((path, f"imports {module}") for path, _ in fp.importers(module)
                    if language_of(path) not in _NOT_PYTHON)  # fmt: skip
    for dist in tech.dists:
        uses.extend((dep.source, f"declares {dist}") for dep in fp.dependency(dist)
                    if dep.ecosystem == "pypi")  # fmt: skip
    for entry in tech.packages:
        uses.extend(_package_uses(entry, fp))
    for pattern in tech.footprints:
        uses.extend((path, "is tracked") for path in fp.matching_paths(pattern))
    # A system is also used where the code names it ("s3" in a boto3 call, a Sentry DSN
    # setting); a package only where it is imported, declared or configured.
    roles = {Role.CONFIG, Role.MANIFEST}
    if tech.kind is TechKind.SYSTEM:
        roles.add(Role.CODE)
    ecosystems = _ecosystems(tech)
    for token in _used_tokens(tech):
        for path in fp.mentioned_in(token):
            role = role_of(path)
            if role is Role.CODE and not runs(path):
                continue  # a test naming Django, not code that talks to it
            if role in roles and _manifest_matches(path, ecosystems):
                uses.append((path, f"names {token}"))
    configured = (Role.CONFIG, Role.MANIFEST)
    for token in _config_words(tech):  # "black" in .pre-commit-config.yaml, not in prose
        for path in fp.mentioned_in(token):
            if role_of(path) in configured and _manifest_matches(path, ecosystems):
                uses.append((path, f"names {token}"))
    return uses


def _unknown_uses(name: str, fp: Fingerprint) -> list[tuple[str, str]]:
    """A name the vocabulary does not know: whatever imports or declares it, in any
    language (as Python imports it, with "_" for "-", or as written)."""
    uses: list[tuple[str, str]] = []
    for module in dict.fromkeys((name.replace("-", "_"), name)):
        uses.extend((path, f"imports {module}") for path, _ in fp.importers(module))
    uses.extend((dep.source, f"declares {name}") for dep in fp.dependency(name))
    return uses


def _package_uses(entry: str, fp: Fingerprint) -> list[tuple[str, str]]:
    """Files of the package's ecosystem importing it, and manifests declaring it: an npm
    package by its name (``vue``; ``lodash/fp`` is indexed as ``lodash`` too), a Go module
    by its path, with or without a major version (``github.com/redis/go-redis/v9``), a
    crate by its name with "-" as "_" in code and "_" as "-" in ``Cargo.toml``."""
    ecosystem, _, package = entry.partition(":")
    languages = _IMPORTED_IN.get(ecosystem, frozenset())
    module = package.replace("-", "_") if ecosystem == "cargo" else package
    uses = [(path, f"imports {module}") for path, _ in fp.importers(module)
            if language_of(path) in languages]  # fmt: skip
    if ecosystem == "go":
        names = [n for n in fp.dependency_names()
                 if n == package or (n.startswith(package) and _GO_MAJOR.fullmatch(
                     n[len(package):]))]  # fmt: skip
    else:
        names = [package.lower().replace("_", "-") if ecosystem == "cargo" else package.lower()]
    for dep_name in names:
        uses.extend((dep.source, f"declares {dep_name}") for dep in fp.dependency(dep_name)
                    if dep.ecosystem == ecosystem)  # fmt: skip
    return uses


def _ecosystems(tech: Technology) -> frozenset[str]:
    """The ecosystems ``tech`` has packages in ("pypi" for its distributions); none for a
    tool or service no package is (Docker, Terraform)."""
    found = {entry.partition(":")[0] for entry in tech.packages}
    if tech.dists:
        found.add("pypi")
    return frozenset(found)


def _manifest_matches(path: str, ecosystems: frozenset[str]) -> bool:
    """Whether a mention in ``path`` can be a use of a technology of ``ecosystems``: a
    manifest names packages of its own ecosystem only ("uuid" in ``package.json`` is the
    npm package, not the PyPI one)."""
    if not ecosystems:
        return True
    kind = manifest_kind(path)
    return kind is None or _MANIFEST_ECOSYSTEM.get(kind, "pypi") in ecosystems


def _config_words(tech: Technology | None) -> tuple[str, ...]:
    if tech is None or tech.kind is not TechKind.PACKAGE:
        return ()
    return tuple(t for t in (*tech.dists, *tech.common_aliases) if t in config_tokens())


def _above(path: str, scope: str | None, what: str, fp: Fingerprint) -> bool:
    """A manifest in a directory above ``scope`` declares for it too, unless a project of
    another ecosystem lies between (``anchors.projects.declares_above``)."""
    if scope is None or not what.startswith("declares ") or scope in fp.blobs:
        return False  # a file uses what it imports, not what its project declares
    # (a pyproject.toml beside a package.json declares nothing for ``src/``'s TypeScript)
    return declares_above(path, scope, fp) and _code_of(path, scope, fp)


def _code_of(manifest: str, scope: str, fp: Fingerprint) -> bool:
    """Whether ``scope`` holds code of ``manifest``'s ecosystem, or no code at all."""
    kind = manifest_kind(manifest)
    ecosystem = _MANIFEST_ECOSYSTEM.get(kind, "pypi") if kind is not None else "pypi"
    wanted = _IMPORTED_IN.get(ecosystem, frozenset({"python"}))
    languages = {facts.language for path, facts in fp.code.items() if in_area(path, scope)}
    return not languages or bool(languages & wanted)


def _list(paths: Sequence[str]) -> str:
    return ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def _tokens(tech: Technology | None) -> Sequence[str]:
    return tech.mention_tokens if tech else ()


def _used_tokens(tech: Technology) -> Sequence[str]:
    """The tokens whose mention in a configuration file is a use. A package's import name
    that is none of its distribution names is a use only as an import: "git" in
    ``.gitignore`` is not GitPython, nor "openssl" in a Dockerfile pyOpenSSL."""
    if tech.kind is not TechKind.PACKAGE:
        return tech.mention_tokens
    named = {d.lower().replace("_", "-") for d in (*tech.dists, *tech.common_aliases)}
    imported = {m.lower() for m in tech.imports}
    return tuple(t for t in tech.mention_tokens
                 if t not in imported or t.replace("_", "-") in named)  # fmt: skip


_MANIFEST_OF = {"go": "go.mod", "cargo": "Cargo.toml"}


def _ecosystem_manifests(tech: Technology, scope: str | None, fp: Fingerprint) -> list[str]:
    """The read ``go.mod`` / ``Cargo.toml`` files of the project at ``scope`` that would
    require ``tech``, a library only of Go or crates (no PyPI, npm or system side): where
    there is one, its absence from them is an answer."""
    ecosystems = {entry.partition(":")[0] for entry in tech.packages}
    if tech.dists or tech.imports or not ecosystems or not ecosystems <= set(
            _MANIFEST_OF):  # fmt: skip
        return []
    return sorted(p for e in ecosystems for p in fp.basename_paths(_MANIFEST_OF[e])
                  if fp.infra.get(p) is not None
                  and (in_area(p, scope) or (scope is not None and declares_above(p, scope, fp))))


def _product(tech: Technology | None) -> bool:
    """A system (a datastore, a service, a framework), a package with a brand's spelling
    ("MongoDB", "jQuery") or one whose name is no English word ("ujson", "orjson"), which
    a text names as that product."""
    return tech is not None and (tech.kind is TechKind.SYSTEM or tech.display != tech.name
                                 or not _english_like(tech.name.lower()))  # fmt: skip


# The endings of English words the word list holds only in another form ("deprecation",
# "warnings"): a package so named is as often the word itself.
_ENGLISH_ENDING = re.compile(
    r"(?:tion|sion|ment|ness|ing|ity|ance|ence|able|ible|ous|ive|ism|ship|hood|less|ful|"
    r"ed|es|s|er|ly)$"
)


def _english_like(word: str) -> bool:
    return word in english() or _ENGLISH_ENDING.search(word) is not None


def _only_built(scope: str, fp: Fingerprint) -> bool:
    """Whether the code ``scope`` (a file or a directory) holds is all a build's output
    (``dist/``, ``build/``, a bundle): no source a note placing a use there can mean. (A
    place with no code at all, CI's workflows, is a place of its own.)"""
    prefix = scope.rstrip("/") + "/"
    code = [path for path in fp.code if path == scope or path.startswith(prefix)]
    return bool(code) and all(built_copy(path, fp) for path in code)


def find_technology(name: str, scope: str | None, fp: Fingerprint) -> Finding:
    """Whether the project (or the directory ``scope``) uses the technology ``name``."""
    tech = by_name(name)
    label = tech.display if tech else name
    where = f"in {scope}/" if scope else "by the project"
    uses = _uses(tech, name, fp)
    if tech is not None and tech.described and (named := sorted(
            {p for p, _ in uses} | {p for t in _tokens(tech) for p in fp.mentioned_in(t)})):
        # A radix tree the code names: whether it is what the note says is built on one
        # ("routes are matched through a radix tree", not the sessions) no fact can tell.
        detail = (f"{label} is named in {_list(named)}; whether it is used as the note says "
                  "cannot be checked")  # fmt: skip
        return Finding((), None, detail, answerable=False)
    here = sorted({(p, what) for p, what in uses
                   if in_area(p, scope) or _above(p, scope, what, fp)})  # fmt: skip
    if here:
        paths = tuple(sorted({p for p, _ in here}))
        shown = "; ".join(f"{p} {what}" for p, what in here[:3])
        more = f" and {len(here) - 3} more" if len(here) > 3 else ""
        return Finding(paths, None, f"{label}: {shown}{more}")
    if tech is not None and tech.beside:
        # Used or not, an issue tracker or a chat leaves no trace the repository must hold.
        named = sorted({p for p, _ in uses}
                       | {p for t in _tokens(tech) for p in fp.mentioned_in(t)})  # fmt: skip
        seen = f"; mentioned only in {_list(named)}" if named else ""
        detail = (f"{label} is a tool people use beside the code{seen}: whether it is used is "
                  f"{BESIDE_DETAIL}")  # fmt: skip
        return Finding((), None, detail, answerable=False)
    if scope is not None and uses and not tool_area(scope):
        # The present-trap: used by the project, but not where the note says.
        used = sorted({p for p, _ in uses})
        if _only_built(scope, fp):  # "the web UI" read as a folder of built assets
            detail = (f"{label} is used in {_list(used)}; {scope} holds no source code, only "
                      "what a build made, so whether the note means it cannot be told")  # fmt: skip
            return Finding((), None, detail, answerable=False)
        return Finding((), None, f"{label} is used in {_list(used)}, not in {scope}")
    mentions = sorted({p for token in _tokens(tech) for p in fp.mentioned_in(token)})
    elsewhere = sorted({p for p, _ in uses} | set(mentions))
    if elsewhere and all(role_of(p) is Role.DATA for p in elsewhere):
        # A lock file, a generated bundle or a fixture names what something else resolved,
        # bundled or recorded: the code does not touch it.
        detail = (f"{label} is not used {where}: it is named only in {_list(elsewhere)} "
                  f"(a lock file, generated file or data, which is never a use) "
                  f"at {fp.commit[:12]} ({EXTERNAL_HINT})")  # fmt: skip
        return Finding((), None, detail)
    read_only = all(role_of(p) is Role.DATA or documentation(p) for p in elsewhere)
    if elsewhere and read_only and _product(tech):
        # A page of the docs, a README or a changelog says what was considered, dropped or
        # planned ("we considered Celery", "Elasticsearch was not adopted"); a product is
        # used only where code imports, declares or configures it. (A package named by an
        # English word, "arrow", is as often the word itself: weak.)
        detail = (f"{label} is not used {where}: it is named only in {_list(elsewhere)} "
                  f"(documentation or data, which is never a use) at {fp.commit[:12]} "
                  f"({EXTERNAL_HINT})")  # fmt: skip
        return Finding((), None, detail)
    if elsewhere:
        shown = _list(elsewhere)
        detail = (f"{label} is mentioned only in {shown}; not imported, declared or "
                  f"configured {where}")  # fmt: skip
        return Finding((), None, detail, weak=True)
    if tech is not None and (manifests := _ecosystem_manifests(tech, scope, fp)):
        # A Go module or a crate the code imports is required by go.mod or Cargo.toml:
        # one they do not require is not used, however ordinary its name ("zap", "chi")
        modules = " or ".join(p.partition(":")[2] for p in tech.packages)
        detail = (f"{label} is not used {where}: {_list(manifests)} does not require "
                  f"{modules} and no file imports it at {fp.commit[:12]} ({EXTERNAL_HINT})")
        return Finding((), None, detail)
    if tech is None or not (tech.mention_tokens or _config_words(tech)):
        detail = (f"{label} is not imported, declared or configured {where}; it is not a "
                  "name the repository's text can be searched for, so absence proves nothing")
        return Finding((), None, detail, weak=True)
    searched = fp.searched_files()
    words = "/".join((tech.mention_tokens or _config_words(tech))[:3])
    detail = (
        f"{label} is not used {where}: no import, dependency, configuration file or mention "
        f"of {words!r} in the {searched} tracked text files at {fp.commit[:12]} ({EXTERNAL_HINT})"
    )
    return Finding((), None, detail)
