"""Checking anchors: what the code at one fingerprint says about each anchor (the verdicts
and how they combine: ``anchors.verdicts``).

``capture`` records, when a memory is written, where each anchor was found and a hash of the
code it points at; ``check_anchor`` compares the code now with that capture, so a later read
can tell "gone" (broken) from "changed since written" (drifted). When the fingerprint cannot
answer (the file in scope failed to parse, dependencies live in a file we do not read), the
verdict is unknown: a memory is never refuted on evidence we could not read. That includes
unscoped checks: "no file defines X" is unknown while a source file that was not read (too
large, not UTF-8, syntax errors, a language no grammar here reads) could define X, unless the
words of its bytes rule X out.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Sequence

from anchors.argument_checks import find_call, find_param
from anchors.env_defaults import find_env_default
from anchors.facts import SETTINGS_STRING, Dependency, FileFacts, Fingerprint, ValueFact
from anchors.finding import Finding, listed
from anchors.infra_check import find_config
from anchors.literals import EXPLICITLY, mentioned_within, same_value
from anchors.manifests import PYTHON, manifest_kind
from anchors.member_claims import lacking
from anchors.mentions import in_area
from anchors.messages import find_message
from anchors.projects import declares_for
from anchors.pyfacts import package_of
from anchors.requirement_strings import COMPUTED
from anchors.running_code import find_any_dependency, find_any_env_read, find_running_import
from anchors.spec import WILDCARD, Anchor, AnchorKind, Expect
from anchors.status_checks import find_status
from anchors.technology import find_technology
from anchors.type_claims import find_typed, typed
from anchors.verdicts import AnchorCheck, Capture, Verdict
from anchors.versions import Relation, bound_mismatch, poetry_to_pep440, relation

__all__ = ["capture", "check_anchor"]

# Files that can declare dependencies but that the fingerprint does not read.
_UNREAD_MANIFESTS = frozenset({"Pipfile", "environment.yml"})
# What a check says of a file no grammar reads and that is not code (README.md, a JSON file).
_NOT_CODE = "is not source code the fingerprint reads"
# Read, but only their literal requirements: one that yielded none may compute them.
_LITERAL_MANIFESTS = frozenset({"setup.py", "setup.cfg"})


def capture(anchor: Anchor, fp: Fingerprint) -> Capture:
    """Where ``anchor`` is found in ``fp`` now, for storing with a new memory."""
    finding = _find(anchor, fp, before=False)
    return Capture(finding.found_in, finding.content_hash)


def check_anchor(anchor: Anchor, captured: Capture | None, fp: Fingerprint) -> AnchorCheck:
    """The verdict on ``anchor`` at ``fp``: holds, broken, drifted (found, but the code it
    points at changed since ``captured``) or unknown (``fp`` cannot tell)."""
    # Wording only: "no longer defines" when the capture had found it.
    finding = _find(anchor, fp, before=captured is not None and bool(captured.found_in))
    if anchor.kind is AnchorKind.DEP and anchor.version and finding.found_in:
        role = finding.content_hash  # what it is declared for, kept beside the version
        finding = _find_version(anchor, fp)
        if finding.found_in:
            finding = dataclasses.replace(finding, content_hash=role)
    found = bool(finding.found_in)
    if not found and not finding.answerable:
        return AnchorCheck(anchor, Verdict.UNKNOWN, (), finding.detail)
    if not found and finding.weak and anchor.expect is Expect.PRESENT:
        return AnchorCheck(anchor, Verdict.UNKNOWN, (), finding.detail)
    if anchor.expect is Expect.ABSENT:
        verdict = Verdict.BROKEN if found else Verdict.HOLDS
        return AnchorCheck(anchor, verdict, finding.found_in, finding.detail)
    if not found:
        return AnchorCheck(anchor, Verdict.BROKEN, (), finding.detail)
    if (
        captured is not None
        and captured.content_hash is not None
        and finding.content_hash != captured.content_hash
    ):
        detail = f"{finding.detail}, but it changed since the memory was written"
        return AnchorCheck(anchor, Verdict.DRIFTED, finding.found_in, detail)
    return AnchorCheck(anchor, Verdict.HOLDS, finding.found_in, finding.detail)


# -- finding each kind ---------------------------------------------------------------------
def _find(anchor: Anchor, fp: Fingerprint, before: bool) -> Finding:
    if anchor.kind is AnchorKind.PARAM:
        return find_typed(anchor, fp) if typed(anchor) else find_param(anchor, fp)
    if anchor.kind is AnchorKind.CALL:
        return find_call(anchor, fp)
    if anchor.kind is AnchorKind.CONFIG:
        return find_config(anchor, fp)
    if anchor.kind is AnchorKind.STATUS:
        return find_status(anchor, fp)
    if anchor.kind is AnchorKind.MESSAGE:
        return find_message(anchor, fp)
    if anchor.value == WILDCARD or anchor.scope == WILDCARD:  # anchors.running_code
        if anchor.kind is AnchorKind.ENV:
            return find_any_env_read(anchor.scope, fp)
        if anchor.kind is AnchorKind.DEP:
            return find_any_dependency(anchor.scope, fp)
        return find_running_import(anchor.value, fp)
    if anchor.stated is not None:
        return _find_value(anchor, anchor.stated, fp)
    if anchor.kind is AnchorKind.FILE:
        return _find_file(anchor.value, fp, before)
    if anchor.kind is AnchorKind.SYMBOL:
        return _find_symbol(anchor.value, anchor.scope, fp, before)
    if anchor.kind is AnchorKind.IMPORT:
        return _find_import(anchor.value, anchor.scope, fp, before,
                            named=anchor.expect is Expect.PRESENT)
    if anchor.kind is AnchorKind.ENV and anchor.scope is not None:
        return _find_env_read(anchor.value, anchor.scope, fp, before)
    if anchor.kind is AnchorKind.ENV:
        paths = tuple(fp.env_sources(anchor.value))
        if paths:
            return Finding(paths, None, f"{anchor.value} is read or declared in {listed(paths)}")
        unread = _unread_holding(fp, lambda path, facts: facts.could_mention([anchor.value]))
        if unread:
            return Finding((), None, f"no file read reads {anchor.value}; {unread}", False)
        if (field := _settings_field(anchor.value, fp)) is not None:
            return Finding((), None, f"no code reads {anchor.value}, but {field}, which a "
                                     "settings library may read from it: cannot tell", False)
        if (writer := _writes_name(anchor.value, fp)) is not None:
            return Finding((), None, f"no code reads {anchor.value} by name, but an option of "
                                     f"{writer} defaults to it (a name it may read through): "
                                     "cannot tell", False)  # fmt: skip
        if (keyed := _writes_key(anchor.value, fp)) is not None:
            return Finding((), None, _KEYED.format(name=anchor.value, path=keyed), False)
        return Finding((), None, f"no code reads {anchor.value} and no .env.example declares it")
    if anchor.kind is AnchorKind.TECH:
        return find_technology(anchor.value, anchor.scope, fp)
    return _find_dep(anchor.value, anchor.scope, fp)


def _find_file(path: str, fp: Fingerprint, before: bool) -> Finding:
    tracked = fp.tracked_path(path)  # as git spells it (NFD names are found from NFC)
    if tracked is not None:
        return Finding((tracked,), fp.blobs[tracked], f"{tracked} is tracked")
    directory = fp.tracked_directory(path)
    if directory is not None:
        return Finding((directory,), None, f"{directory}/ is a tracked directory")
    if "." not in path.rpartition("/")[2] and len(module := _module_file(path, fp)) == 1:
        # "kinto/plugins/counters": a module named without its suffix
        return Finding((module[0],), fp.blobs[module[0]], f"{module[0]} is tracked")
    if "/" not in path:  # a bare name ("transport.py") names the file wherever it is
        same = fp.basename_paths(path)
        if len(same) == 1:
            detail = f"{same[0]} is tracked (the only file named {path})"
            return Finding((same[0],), fp.blobs[same[0]], detail)
        if same:
            detail = f"{path} names {len(same)} tracked files ({listed(same)}); cannot tell which"
            return Finding((), None, detail, False)
    return Finding((), None, f"{path} is {_no(before)} in the repository")


_MODULE_SUFFIXES = ("py", "ts", "tsx", "js", "jsx", "mjs", "vue", "svelte", "go", "rs")


def _module_file(path: str, fp: Fingerprint) -> list[str]:
    """The tracked source files ``path`` names without its suffix (``plugins/counters``)."""
    return [f"{path}.{s}" for s in _MODULE_SUFFIXES if f"{path}.{s}" in fp.blobs]


def _line(line: int) -> str:
    """Where in its file the code a finding quotes stands (0: not recorded)."""
    return f" (line {line})" if line > 0 else ""


def _find_symbol(qualname: str, scope: str | None, fp: Fingerprint, before: bool) -> Finding:
    if scope is not None:
        scope = fp.tracked_path(scope) or scope
        if scope not in fp.blobs and fp.has_directory(scope):
            return _find_symbol_within(qualname, fp.tracked_directory(scope) or scope, fp,
                                       before)  # fmt: skip
        definition = fp.definition(scope, qualname)
        if definition is not None:
            detail = f"{scope} defines {qualname}{_line(definition.line)}"
            return Finding((scope,), definition.body_hash, detail)
        facts = fp.code.get(scope)
        if facts is not None and not facts.parsed:
            words = qualname.split(".")
            if qualname.isascii() and not facts.could_mention(words):
                # a file not parsed that does not hold the word cannot define it either
                absent = next(w for w in words if not facts.could_mention([w]))
                return Finding((), None, f"{scope} does not hold the word {absent}")
            return Finding((), None, f"{_not_parsed(scope, facts)}; cannot tell", False)
        if scope not in fp.blobs:
            return Finding((), None, f"{scope} is not in the repository{_defined_at(qualname, fp)}")
        if facts is None:
            return Finding((), None, f"{scope} {_NOT_CODE}; cannot tell", False)
        constant = next((c for c in facts.constants if c.name == qualname), None)
        if constant is None and "." not in qualname:  # ``DEFAULT_SETTINGS = {"ttl": 3}``
            constant = next((c for c in facts.constants if c.name.endswith(f".{qualname}")),
                            None)  # fmt: skip
        if constant is not None:  # ``MAX_RETRY_COUNT = 3``, ``Class.ATTR = 5``: assigned there
            hashed = hashlib.blake2b(f"{constant.text}".encode(), digest_size=8).hexdigest()
            detail = f"{scope} assigns {constant.name}{_line(constant.line)}"
            return Finding((scope,), hashed, detail)
        members = [d for d in facts.definitions if d.qualname.endswith(f".{qualname}")]
        if "." not in qualname and len(members) == 1 and not fp.definitions(qualname):
            # "`needs_upgrade` in shared_libs.py": the one member of that name the file has
            # (where no file defines the name itself: "Stop is declared in exponential.go"
            # means backoff.go's ``Stop``, not a method of exponential.go's)
            [member] = members
            detail = f"{scope} defines {member.qualname}{_line(member.line)}"
            return Finding((scope,), member.body_hash, detail)
        argument = _argument_named(facts, qualname)
        if argument:  # a keyword or a parameter: a symbol anchor cannot check what is said
            return Finding((), None, f"{scope} {argument}; not a definition: cannot tell", False)
        verb = "no longer defines" if before else "does not define"
        return Finding((), None, f"{scope} {verb} {qualname}{_defined_at(qualname, fp)}")
    found = fp.definitions(qualname)
    if not found:
        parts = qualname.split(".")
        unread = _unread_holding(fp, lambda path, facts: facts.could_mention(parts))
        if unread:
            return Finding((), None, f"no file read defines {qualname}; {unread}", False)
        if not before and (owned := lacking(fp, qualname)):
            return Finding((), None, owned)  # "Builder is defined in ... but none has ..."
        return Finding((), None, f"no file defines {qualname}{' any more' if before else ''}")
    paths = tuple(path for path, _ in found)
    if len(found) == 1:
        body = found[0][1].body_hash
    else:  # several definitions: any of them changing is drift
        joined = ",".join(f"{path}:{d.body_hash}" for path, d in found)
        body = hashlib.blake2b(joined.encode(), digest_size=8).hexdigest()
    line = _line(found[0][1].line) if len(found) == 1 else ""
    return Finding(paths, body, f"{listed(paths)} defines {qualname}{line}")


def _find_symbol_within(qualname: str, directory: str, fp: Fingerprint, before: bool) -> Finding:
    """A definition claimed for a directory ("``ping`` lives in the ``app/api`` package"):
    any file under it defining the name holds; one elsewhere is said in the receipt."""
    prefix = directory.rstrip("/") + "/"
    found = [(path, d) for path, d in fp.definitions(qualname) if path.startswith(prefix)]
    if found:
        paths = tuple(path for path, _ in found)
        joined = ",".join(f"{path}:{d.body_hash}" for path, d in found)
        body = hashlib.blake2b(joined.encode(), digest_size=8).hexdigest()
        line = _line(found[0][1].line) if len(found) == 1 else ""
        return Finding(paths, body, f"{listed(paths)} defines {qualname}{line}")
    unread = [p for p, facts in fp.unread() if p.startswith(prefix)
              and facts.could_mention(qualname.split("."))]  # fmt: skip
    if unread:
        detail = f"no file read in {directory}/ defines {qualname}; cannot tell: " + \
            _not_parsed(unread[0], fp.code[unread[0]])
        return Finding((), None, detail, False)
    again = " any more" if before else ""
    detail = f"no file in {directory}/ defines {qualname}{again}{_defined_at(qualname, fp)}"
    return Finding((), None, detail)


_KEYED = ("no code reads {name} by name, but {path} writes the literal \"{name}\" (read "
          "from a mapping the environment is passed as, or set for a program it runs): "
          "cannot tell")


def _writes_key(name: str, fp: Fingerprint) -> str | None:
    """A source file that touches the environment and writes ``name`` as a string literal
    (``source.get("PORT")`` of a settings class given ``os.environ``,
    ``env["BORG_EXIT_CODES"] = ...``), or None."""
    return fp.derived("verify.key_writers", _key_writers).get(name)


def _key_writers(fp: Fingerprint) -> dict[str, str]:
    found: dict[str, str] = {}
    for path, facts in sorted(fp.code.items()):
        for key in facts.keys or () if facts.env_access else ():
            found.setdefault(key, path)
    return found


def _writes_name(name: str, fp: Fingerprint) -> str | None:
    """A source file whose program option defaults to ``name`` (``flag.String("userenv",
    "RO_USER", ...)``, the variable read later through ``os.Getenv(*userEnv)``), or None."""
    return fp.derived("verify.option_defaults", _option_defaults).get(name)


def _option_defaults(fp: Fingerprint) -> dict[str, str]:
    """Each literal a program option defaults to -> the first file declaring it (once per
    fingerprint: it is asked on every read of a variable no code reads)."""
    found: dict[str, str] = {}
    for path, facts in sorted(fp.code.items()):
        for v in facts.constants:
            if v.name.startswith("--") and v.text:
                found.setdefault(v.text.strip("\"'`"), path)
    return found


def _settings_field(name: str, fp: Fingerprint) -> str | None:
    """Where a class declares the field ``name``, or ``name`` without a prefix
    (``ARCHIVEBOX_DATABASE_PORT``: ``DatabaseConfig.DATABASE_PORT``), as "PATH defines
    Class.FIELD"; None when none does."""
    parts = name.split("_")
    for i in range(len(parts) - 1):
        field = "_".join(parts[i:])
        found = [(p, v) for p, v in fp.members_named(field) if "." in v.name]
        if found and (i == 0 or "_" in field):
            path, value = found[0]
            return f"{path} defines {value.name}"
    return None


def _find_env_read(name: str, scope: str, fp: Fingerprint, before: bool) -> Finding:
    """``env:NAME@PATH``: Python code in PATH (a file, or any file under a directory) reads
    NAME. Not read there while other code does: broken, and the receipt says where. Read by
    no code the fingerprint sees while ``.env.example`` declares it: unknown, since a read
    through a helper the fingerprint does not follow would look the same."""
    path = fp.tracked_path(scope) or fp.tracked_directory(scope) or scope
    if path in fp.blobs:
        if path not in fp.code:
            return Finding((), None, f"{path} {_NOT_CODE}; cannot tell", False)
        files = [path]
    elif fp.has_directory(path):
        prefix = path.rstrip("/") + "/"
        files = [p for p in fp.code if p.startswith(prefix)]
    else:
        return Finding((), None, f"{path} is not in the repository")
    sources = fp.env_sources(name)
    readers = [p for p in sources if p in fp.code]
    found = tuple(p for p in readers if p in files)
    if found:
        return Finding(found, None, f"{name} is read in {listed(found)}")
    not_parsed = [p for p in files if not fp.code[p].parsed]
    if not_parsed:
        why = _not_parsed(not_parsed[0], fp.code[not_parsed[0]])
        return Finding((), None, f"{why}; cannot tell whether it reads {name}", False)
    where = path if path in fp.blobs else f"code under {path}/"
    if readers:
        verb = "no longer reads" if before else "does not read"
        return Finding((), None, f"{where} {verb} {name}; it is read in {listed(readers)}")
    if sources:
        detail = (f"no code the fingerprint reads reads {name} ({listed(sources)} declares "
                  f"it); cannot tell whether {where} does")  # fmt: skip
        return Finding((), None, detail, False)
    if (writer := _writes_name(name, fp)) is not None:
        return Finding((), None, f"no code reads {name} by name, but an option of {writer} "
                                 "defaults to it (a name it may read through): cannot tell",
                       False)  # fmt: skip
    if (keyed := _writes_key(name, fp)) is not None:
        return Finding((), None, _KEYED.format(name=name, path=keyed), False)
    return Finding((), None, f"no code reads {name} and no .env.example declares it")


def _defined_at(qualname: str, fp: Fingerprint) -> str:
    """Where ``qualname`` is defined instead, for the receipt of a definition claimed in a
    place that lacks it ("; it is defined in app/api/views.py:12"), or ""."""
    found = fp.definitions(qualname)
    if not found:
        return ""
    places = [f"{path}:{d.line}" if d.line > 0 else path for path, d in found]
    return f"; it is defined in {listed(places)}"


def _argument_named(facts: FileFacts, name: str) -> str:
    """How ``facts`` uses ``name`` as a parameter or a keyword argument ("passes
    pool_pre_ping to create_engine (line 5)"), or ""."""
    call = next((c for c in facts.calls if any(k == name for k, _ in c.keywords)), None)
    if call is not None:
        return f"passes {name} to {call.callee}{_line(call.line)}"
    sig = next((g for g in facts.signatures if any(p.name == name for p in g.params)), None)
    return "" if sig is None else f"has {name} as a parameter of {sig.function}{_line(sig.line)}"


_BARE_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def _find_import(module: str, scope: str | None, fp: Fingerprint, before: bool,
                 named: bool = False) -> Finding:  # fmt: skip
    """Whether ``scope`` (or the project) imports ``module``; ``named``: a file that names a
    package-shaped module as a string (a loader, a plugin) leaves a claim of use untold."""
    importers = fp.importers(module)
    everywhere = sorted({path for path, _ in importers})
    if scope is None:
        project = [p for p in everywhere if in_area(p, None)]
        if project:
            if all(imp.within == SETTINGS_STRING for p, imp in importers if p in project):
                detail = f"named by the Django settings in {listed(project)} (Django imports it)"
                return Finding(tuple(project), None, detail)
            return Finding(tuple(project), None, f"imported by {listed(project)}")
        if everywhere:
            detail = f"{module} is imported only in {listed(everywhere)}, outside the main project"
            return Finding((), None, detail, weak=True)
        by_name = [p for p in fp.derived("verify.name_importers", _name_importers).get(module, ())
                   if in_area(p, None)]  # fmt: skip
        if by_name:  # "CSEException is imported ...": a name imported from a module
            return Finding(tuple(by_name), None, f"imported by {listed(by_name)}")
        top = module.split(".")[0]
        unread = _unread_holding(
            fp,
            # a relative import names no package: any file inside ``top`` could make it
            lambda path, facts: facts.could_mention([top]) or package_of(path)[:1] == [top],
        )
        if unread:
            return Finding((), None, f"no file read imports {module}; {unread}", False)
        return Finding((), None, f"no file imports {module}{' any more' if before else ''}")
    path, _, within = scope.partition("::")
    path = fp.tracked_path(path) or fp.tracked_directory(path) or path
    where = f"{within} in {path}" if within else path
    if path in fp.blobs:
        if path not in fp.code:
            return Finding((), None, f"{path} {_NOT_CODE}; cannot tell", False)
        files = [path]
        # Inside a definition includes definitions nested in it (methods of a class).
        found = [
            p
            for p, imp in importers
            if p == path and (not within or f"{imp.within}.".startswith(f"{within}."))
        ]
    elif fp.has_directory(path):
        prefix = path.rstrip("/") + "/"
        files = [p for p in fp.code if p.startswith(prefix)]
        if not files:  # "rendered from xandikos/templates": a folder of no code
            return Finding((), None, f"{path}/ holds no source code; cannot tell", False)
        found = [p for p, _ in importers if p.startswith(prefix)]
    else:
        return Finding((), None, f"{path} is not in the repository")
    if not found and _BARE_NAME.fullmatch(module):
        # "src/index.ts imports AsyncStorage": a name imported from a module (``import type
        # { AsyncStorage } from '...'``, ``from a import B``)
        # (a Go import's name is the alias it is called by: ``flag "github.com/spf13/pflag"``
        # imports pflag, not the standard library's flag)
        found = [p for p in files if fp.code[p].language != "go" and any(
            module in imp.names for imp in fp.code[p].imports
            if not within or imp.within == within)]  # fmt: skip
        importers = [(p, imp) for p in found for imp in fp.code[p].imports
                     if module in imp.names]  # fmt: skip
    if found:
        paths = tuple(sorted(set(found)))
        lines = sorted(imp.line for p, imp in importers if p == paths[0])
        line = _line(lines[0]) if len(paths) == 1 and lines else ""
        detail = f"imported by {listed(paths)}" + (f" in {within}" if within else "") + line
        return Finding(paths, None, detail)
    not_parsed = [p for p in files if not fp.code[p].parsed]
    if not_parsed:
        why = _not_parsed(not_parsed[0], fp.code[not_parsed[0]])
        more = f" (and {len(not_parsed) - 1} more)" if len(not_parsed) > 1 else ""
        detail = f"{why}{more}; cannot tell whether {module} is imported in {where}"
        return Finding((), None, detail, False)
    if within and fp.definition(path, within) is None:
        return Finding((), None, f"{path} does not define {within}")
    parent = module.rpartition(".")[0]
    if parent and (held := [p for p in files if fp.code[p].language == "python" and any(
            imp.module == parent and not imp.names for imp in fp.code[p].imports)]):  # fmt: skip
        # ``import grpc`` and then ``grpc.aio.secure_channel(...)``: a submodule reached
        # through its package, which the facts do not follow
        detail = (f"{listed(held)} imports {parent}; whether it uses {module} through it "
                  "cannot be told")  # fmt: skip
        return Finding((), None, detail, False)
    if named and not within and (naming := [p for p in files
                                            if _names_as_string(module, fp.code[p])]):
        # ``require.resolve('swc-loader')``, a list of module names: named, not imported
        detail = (f"{listed(naming)} names {module} as a string, not as an import; cannot "
                  f"tell whether it uses it")  # fmt: skip
        return Finding((), None, detail, False)
    elsewhere = f" (imported by {listed(everywhere)})" if everywhere else ""
    return Finding((), None, f"{module} is {_no(before)} imported in {where}{elsewhere}")


def _name_importers(fp: Fingerprint) -> dict[str, tuple[str, ...]]:
    """The files (not Go's, whose import names are aliases) that import each name from a
    module (``from a import B``, ``import { B } from 'a'``), found once per fingerprint."""
    found: dict[str, set[str]] = {}
    for path, facts in fp.code.items():
        if facts.language != "go":
            for imp in facts.imports:
                for name in imp.names:
                    found.setdefault(name, set()).add(path)
    return {name: tuple(sorted(paths)) for name, paths in found.items()}


def _names_as_string(module: str, facts: FileFacts) -> bool:
    """Whether a file writes ``module``, a name shaped as a package's (``swc-loader``, not
    ``https``, which any protocol string is), as a string literal."""
    return "-" in module and facts.keys is not None and module in facts.keys


_DEPENDENCY_KEYWORDS = frozenset({"install_requires", "extras_require", "tests_require"})


def _declares_none(path: str, fp: Fingerprint) -> bool:
    """Whether a ``setup.py`` or ``setup.cfg`` that yielded no requirement declares none at
    all: a ``setup()`` passed no requirement keyword ("all configuration is now in
    pyproject.toml"), a ``setup.cfg`` with no requirement option. One that computes them
    (``install_requires=read_requirements()``) may declare anything."""
    facts = fp.code.get(path)
    if facts is not None:
        return facts.parsed and not any(
            keyword in _DEPENDENCY_KEYWORDS or keyword.startswith("**")
            for call in facts.calls if call.callee.rpartition(".")[2] == "setup"
            for keyword, _ in call.keywords)  # fmt: skip
    values = fp.infra.get(path)
    return values is not None and not any(
        v.key.rpartition(".")[2] in _DEPENDENCY_KEYWORDS or v.key.startswith("options.extras")
        for v in values)  # fmt: skip


def _find_dep(name: str, scope: str | None, fp: Fingerprint) -> Finding:
    everywhere = sorted({dep.source for dep in fp.dependency(name)})
    if name == PYTHON and not everywhere:
        # No requires-python / python_requires: the supported versions are not declared,
        # which says nothing about a claim on them.
        detail = "the project declares no supported Python versions (requires-python)"
        return Finding((), None, detail, False)
    sources = tuple(p for p in everywhere if declares_for(p, scope, fp))
    if sources:
        # what it is declared for, not where: a note written while it was a run-time
        # dependency is drifted once it is declared for development only
        roles = sorted({"run" if d.runtime or d.optional else "dev"
                        for d in fp.dependency(name) if d.source in sources})  # fmt: skip
        role = "dep-role:" + "+".join(roles)
        return Finding(sources, role, f"{name} is declared in {listed(sources)}")
    if scope is not None:
        if manifest_kind(scope) is not None and fp.tracked_path(scope) is not None:
            # "bleach was removed from requirements.txt": that manifest alone
            elsewhere = f" (declared in {listed(everywhere)})" if everywhere else ""
            return Finding((), None, f"{name} is not declared in {scope}{elsewhere}")
        if not fp.has_directory(scope):
            return Finding((), None, f"{scope} is not a directory of the repository")
        elsewhere = f" (declared in {listed(everywhere)})" if everywhere else ""
        manifests = [p for p in fp.blobs if manifest_kind(p) and declares_for(p, scope, fp)]
        if not manifests:
            detail = f"no manifest the fingerprint reads declares for {scope}/{elsewhere}"
            return Finding((), None, detail, False)
        return Finding((), None, f"{name} is not declared for {scope}/{elsewhere}")
    if everywhere:
        detail = f"{name} is declared only in {listed(everywhere)}, outside the main project"
        return Finding((), None, detail, weak=True)
    # (a Python version from classifiers is no requirement: it says nothing of the others)
    declaring = {dep.source for dep in fp.dependencies if dep.name != PYTHON}
    unread = sorted(
        p for name in (*_UNREAD_MANIFESTS, *_LITERAL_MANIFESTS) for p in fp.basename_paths(name)
        if in_area(p, None) and (name in _UNREAD_MANIFESTS
                                 or (p not in declaring and not _declares_none(p, fp)))
    )  # fmt: skip
    if unread:
        detail = f"{name} is not in the manifests read; {listed(unread)} may declare it"
        return Finding((), None, detail, False)
    if not any(manifest_kind(p) for p in fp.blobs):
        detail = "the repository has no manifest the fingerprint reads"
        return Finding((), None, detail, False)
    computed = sorted({d.source for d in fp.dependency(COMPUTED) if in_area(d.source, None)})
    if computed:  # ``dynamic = ["dependencies"]``: from a file the build names
        detail = (f"{name} is not in the manifests read; {listed(computed)} takes its "
                  "dependencies from elsewhere")
        return Finding((), None, detail, False)
    return Finding((), None, f"{name} is not a declared dependency")


def _find_version(anchor: Anchor, fp: Fingerprint) -> Finding:
    """PEP 440 set semantics (``anchors.versions``): a declaration satisfies the anchor when
    every version it allows, the anchor allows too (``>=3.1.0`` satisfies ``>=3``); none
    does when they are disjoint (``>=3`` against ``<2``); anything else, or a spec that
    cannot be decided (``===``, ``^1 || ^2``, no version at all), cannot tell."""
    wanted = anchor.version or ""
    declared = [d for d in fp.dependency(anchor.value) if declares_for(d.source, anchor.scope, fp)]
    relations = [(d, _relation(wanted, d)) for d in declared]
    # ("supports Python 3.14", ``~=3.14.0``, claims membership, no bound of the declaration)
    member = anchor.value == PYTHON and _MINOR_CLAIM.fullmatch(wanted) is not None
    bounds = {d: None if member else bound_mismatch(wanted, d.spec) if d.ecosystem == "pypi"
              else _range_bound(wanted, d) for d, r in relations
              if r is not Relation.DISJOINT}  # fmt: skip
    matching = tuple(sorted({d.source for d, r in relations
                             if r is Relation.SUBSET and bounds.get(d) is None}))  # fmt: skip
    if matching:
        detail = f"{_spec(anchor.value, wanted)} is satisfied by {_specs(declared)}"
        return Finding(matching, None, detail)
    specs = _specs(declared)
    if relations and all(r is Relation.DISJOINT or bounds.get(d) for d, r in relations):
        if all(r is Relation.DISJOINT for _, r in relations):
            excluded = _spec(anchor.value, wanted)
            return Finding((), None, f"declared as {specs}, which excludes {excluded}")
        why = next(b for b in bounds.values() if b)
        return Finding((), None, f"declared as {specs}: {why}")
    containing = _containing_minor(anchor, declared, relations)
    if containing:
        detail = f"{_spec(anchor.value, wanted)} is within {_specs(declared)}"
        return Finding(containing, None, detail)
    undecided = [d for d, r in relations if r is Relation.UNDECIDABLE]
    why = "cannot be compared" if undecided else "allows versions outside it"
    detail = (f"declared as {specs}, which {why}: cannot tell whether "
              f"{_spec(anchor.value, wanted)} holds")  # fmt: skip
    return Finding((), None, detail, False)


def _range_bound(wanted: str, dep: Dependency) -> str | None:
    """A range the note writes as npm or Cargo do ("pinned to ^0.4.17", ``~10.0.0``) whose
    bound the declaration puts elsewhere (``log = "0.4.8"``, Cargo's caret), as a phrase;
    None for a bare version, which claims a series, not the written range."""
    if dep.ecosystem not in ("cargo", "npm") or not wanted.startswith(("^", "~", ">=")):
        return None
    stated = poetry_to_pep440(wanted)
    declared = f"^{dep.spec}" if dep.ecosystem == "cargo" and dep.spec[:1].isdigit() else dep.spec
    return bound_mismatch(stated, declared) if stated else None


_MINOR_CLAIM = re.compile(r"~=\d+\.\d+\.0")  # (``anchors.version_claims``: "supports 3.8")


def _containing_minor(
    anchor: Anchor, declared: Sequence[Dependency], relations: Sequence[tuple[Dependency, Relation]]
) -> tuple[str, ...]:
    """The sources whose declared range holds every release of the one Python minor version
    the anchor names ("supports Python 3.8" against ``>=3.8``), when no source excludes it
    outright (classifiers that list 3.9-3.12 and not 3.8): a supported version is one the
    declaration allows, where a dependency's version claim needs the declaration inside it."""
    wanted = anchor.version or ""
    if anchor.value != PYTHON or not _MINOR_CLAIM.fullmatch(wanted):
        return ()
    sources = {d.source for d in declared}
    excluding = {s for s in sources
                 if all(r is Relation.DISJOINT for d, r in relations if d.source == s)}  # fmt: skip
    if excluding:
        return ()
    major, minor = wanted[2:].split(".")[:2]
    releases = f">={major}.{minor},<{major}.{int(minor) + 1}"  # no pre-release of X.Y
    return tuple(sorted({d.source for d in declared
                         if d.spec and relation(d.spec, releases) is Relation.SUBSET}))  # fmt: skip


# -- values ----------------------------------------------------------------------------------
def _find_value(anchor: Anchor, stated: str, fp: Fingerprint) -> Finding:
    """A value anchor: the literal the code gives the constant or the environment default,
    compared with ``stated`` as typed values (``anchors.literals``). Found where they are
    equal; not found (broken) where the code says another literal; unknown where it computes
    the value, says several, or says none the fingerprint read."""
    name = anchor.value
    if anchor.kind is AnchorKind.ENV:  # every read site's default (``anchors.env_defaults``)
        return find_env_default(name, stated, anchor.scope, fp)
    if anchor.scope is None:
        found = fp.constant_values(name)
        if not found:
            detail = f"no file read assigns {name} a value; cannot tell whether it is {stated}"
            return Finding((), None, detail, False)
        return _compare(name, stated, found)
    scope = fp.tracked_path(anchor.scope) or anchor.scope
    facts = fp.code.get(scope) or fp.settings.get(scope)  # a JSON settings schema's defaults
    if facts is None:
        where = "not source code the fingerprint reads" if scope in fp.blobs else (
            "not in the repository")  # fmt: skip
        return Finding((), None, f"{scope} is {where}", scope not in fp.blobs)
    found = [(scope, v) for v in facts.constants if v.name == name]
    if found:
        return _compare(name, stated, found)
    if not facts.parsed:
        return Finding((), None, f"{_not_parsed(scope, facts)}; cannot tell", False)
    if fp.definition(scope, name) is not None:
        detail = f"{scope} defines {name}, which is not a value; cannot tell"
        return Finding((), None, detail, False)
    return Finding((), None, f"{scope} does not assign {name}")


def _compare(name: str, stated: str, found: Sequence[tuple[str, ValueFact]]) -> Finding:
    """The receipt quotes the code: "`MAX_PAGE_SIZE = 100` at app/paging.py:3". A value
    stated as written (``EXPLICITLY``) is not one the language derives (``iota``)."""
    if stated.startswith(EXPLICITLY):
        stated = stated[len(EXPLICITLY):]
        derived = [(p, v) for p, v in found if v.derived]
        if derived and same_value(derived[0][1].text or "", stated):
            path, v = derived[0]
            detail = (f"{path}:{v.line} writes no value for {name}: it is {v.text} implicitly "
                      "(derived from the lines before)")  # fmt: skip
            return Finding((), None, detail)
    computed = [(p, v) for p, v in found if v.text is None]
    if computed:
        path, v = computed[0]
        detail = f"{path}:{v.line} computes {name}; cannot tell whether it is {stated}"
        return Finding((), None, detail, False)
    same = [(p, v) for p, v in found if same_value(v.text or "", stated)]
    named = [(p, v) for p, v in found if mentioned_within(v.text or "", stated)]
    if named and not same:  # "the broker is redis" and ``"redis://localhost:6379"``
        path, v = named[0]
        detail = (f"`{name} = {v.text}` at {path}:{v.line} names {stated}; "
                  "cannot tell whether the note means it")  # fmt: skip
        return Finding((), None, detail, False)
    path, v = (same or found)[0]
    said = f"`{name} = {v.text}`{' (implicitly)' if v.derived else ''}"
    if len(same) == len(found):
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        paths = tuple(sorted({p for p, _ in found}))
        return Finding(paths, None, f"{said} at {path}:{v.line}{more}")
    if not same:
        return Finding((), None, f"{path}:{v.line} sets {name} = {v.text}, not {stated}")
    other = next((p, o) for p, o in found if not same_value(o.text or "", stated))
    detail = (f"{said} at {path}:{v.line}, but {other[0]}:{other[1].line} says {other[1].text}; "
              "cannot tell which applies")  # fmt: skip
    return Finding((), None, detail, False)


def _relation(wanted: str, dep: Dependency) -> Relation:
    """How ``dep``'s declared range relates to ``wanted``: PEP 440 for PyPI, semver ranges
    for npm and Cargo, exact versions for Go (``anchors.semver``)."""
    if dep.ecosystem == "pypi":
        return relation(wanted, dep.spec)
    from anchors.semver import relation as semver_relation

    return semver_relation(wanted, dep.spec, dep.ecosystem)


def _specs(declared: Sequence[Dependency]) -> str:
    return "; ".join(f"{_spec(d.name, d.spec or ' (any version)')} in {d.source}"
                     for d in declared)  # fmt: skip


def _spec(name: str, spec: str) -> str:
    """A package with its spec as a manifest writes them: ``httpx>=0.27``, ``log 0.4.21``
    (a bare version is set apart, as Cargo, npm and ``go.mod`` write it)."""
    return f"{name} {spec}" if spec[:1].isalnum() else f"{name}{spec}"


def _not_parsed(path: str, facts: FileFacts) -> str:
    return f"{path} was not parsed: {facts.why_not_read()}"


def _unread_holding(fp: Fingerprint, could: Callable[[str, FileFacts], bool]) -> str:
    """Why an unread file may hold what was not found (e.g. "cannot tell: big.py was not
    parsed: too large (5 MB > 4 MB limit)"), or "" when no unread file could: files whose
    word set lacks the name are ruled out (``FileFacts.could_mention``)."""
    holding = [(path, facts) for path, facts in fp.unread() if could(path, facts)]
    if not holding:
        return ""
    path, facts = holding[0]
    more = f" (and {len(holding) - 1} more unread)" if len(holding) > 1 else ""
    return f"cannot tell: {_not_parsed(path, facts)}{more}"


def _no(before: bool) -> str:
    return "no longer" if before else "not"
