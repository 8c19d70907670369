"""Typed anchors: the checkable claims a memory makes about the code, and their syntax.

Syntax (one anchor per string; a leading ``!`` means the thing is expected to be absent)::

    file:PATH                      the path is tracked in the repository
    symbol:PATH::Qual.name         a definition with that qualified name exists in PATH
    symbol:Qual.name               ... anywhere in the repository (unscoped)
    symbol:PATH::NAME=VALUE        PATH assigns the constant NAME (or Class.ATTR) the literal
                                   VALUE (``symbol:NAME=VALUE``: wherever it is assigned)
    import:MODULE                  some source file imports MODULE (or a submodule of it):
                                   a Python module, an npm package or specifier, a Go import
                                   path or its package name, a Rust path (``tokio::sync``)
    import:MODULE@PATH             PATH imports it
    import:MODULE@PATH::Qual.name  the definition Qual.name in PATH imports it
    import:MODULE@*                the code that runs imports it: no test, example, benchmark,
                                   docs or build script (``anchors.running_code``);
                                   ``!import:log@*``: only such files may ("only tests use log")
    env:NAME                       the code reads NAME from the environment, or .env.example has it
    env:NAME@PATH                  PATH (a file, or a directory: a file under it) reads NAME
    env:NAME=VALUE                 the code's default for NAME is VALUE (``os.getenv("NAME",
                                   "20")``, ``os.environ.get``, a pydantic BaseSettings field)
    !env:* / !env:*@PATH           the code that runs (under PATH) reads no environment
                                   variable at all ("never reads environment variables")
    param:PATH::Qual.func(name)    the function or method Qual.func in PATH has a parameter
                                   ``name`` (``param:func(name)``: wherever func is defined)
    param:PATH::func(name?)        ... and it has a default (an "optional" parameter)
    param:PATH::func(name=VALUE)   ... and its default is the literal VALUE
    !param:PATH::func(name)        func has no parameter ``name`` ("no longer takes now")
    call:CALLEE(kw)                some call of CALLEE (dotted as written: ``create_engine``
                                   also finds ``sa.create_engine``) passes the keyword kw
    call:CALLEE(kw=VALUE)@PATH     ... passes kw=VALUE, in PATH (a file or a directory)
    !call:CALLEE(kw)@PATH          no call of CALLEE in PATH passes kw
    dep:NAME / dep:NAME>=2         a declared dependency, optionally with a version specifier
                                   (any PEP 440 specifier set ``packaging`` accepts, or an
                                   npm / Cargo range: ``^3``, ``~1.2``); NAME is a PyPI
                                   distribution, an npm package (``@vue/cli``), a Go module
                                   path or a crate, found in any manifest the fingerprint reads
    dep:NAME@PATH                  ... declared by the manifest of the project at PATH (its
                                   own, or one above it)
    !dep:* / !dep:*@PATH           the project (at PATH) declares no run-time dependency ("has
                                   no third-party dependencies"); a wildcard is always negated
    tech:NAME / tech:NAME@PATH     the project uses a named technology (a package or a system:
                                   imported, declared, configured, or its files are tracked);
                                   PATH narrows the project to that directory or sub-project
    config:PATH::KEY=VALUE         the infrastructure file PATH (or the files under the directory
                                   PATH) states VALUE for KEY (``anchors.infra_facts``): a
                                   Dockerfile's ``FROM`` (the built image), ``FROM.<stage>``,
                                   ``EXPOSE``, ``USER``, ``CMD``, ``ENTRYPOINT``, ``WORKDIR``,
                                   ``ENV.NAME``, ``ARG.NAME``, ``python-version`` (of a
                                   ``python:`` image); a Python program's option
                                   (``--port``: its declared default); a
                                   compose file's ``services.SVC.image`` / ``.ports`` /
                                   ``.command`` / ``.environment.NAME``; a CI workflow's
                                   ``python-version``, ``node-version``, ``go-version``,
                                   ``runs-on``, ``image``
    config:KEY=VALUE               ... in any infrastructure file that states KEY
    config:PATH::KEY               PATH states some value for KEY (``!``: it states none)
    status:PATH::Qual.func=404     the function Qual.func in PATH sets the HTTP status 404 in
                                   its own body (``anchors.http_status``); ``!status:...=405``:
                                   it never sets 405 (a status is the one value that can be
                                   negated: "never answers 405")
    message:PATH::TEXT             a string literal in PATH says TEXT, placeholders aside
                                   (``<editor>``, ``{name}``, ``%q``: ``anchors.messages``);
    message:TEXT                   ... in any source file; ``!``: none says it

A parameter or a keyword argument is never a symbol: ``symbol:app/db.py::pool_pre_ping``
names a definition, and a keyword is not one (``anchors.normalize`` rewrites such a given
anchor to the ``param:`` or ``call:`` one it means). The VALUE of a parameter's default or
of a keyword argument is stored like a symbol's (``stated``); such an anchor cannot be
negated, and ``?`` (any default) is a value only a parameter takes.

A config VALUE is compared by the rule of its key (``anchors.infra_compare``): an image as
a reference (``python:3.11-slim`` is a ``python:3.11``), a port as a mapping, a version as a
series or a set (``3.10-3.12``, ``>=3.8``) a CI matrix must cover. Any other VALUE is
compared as a typed value (``anchors.literals``): ``100`` is ``100.0``, the
string ``"20"`` is the number 20, ``true`` is ``True``, quotes are optional. A value anchor
cannot be negated: "the limit is not 500" is not a claim a value can check.

Paths are returned in NFC. ``anchors.normalize`` resolves looser spellings (``pkg.mod.Class``,
``x.py:42``, ``./x.py``) against the code before they get here.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from anchors.errors import InvalidInput

__all__ = [
    "WILDCARD",
    "Anchor",
    "AnchorKind",
    "AnchorSyntaxError",
    "Expect",
    "Provenance",
    "normalize_dist_name",
    "package_key",
    "parse_anchor",
    "split_stated",
    "validate_repo_path",
]

MAX_ANCHOR_LENGTH = 512


class AnchorKind(StrEnum):
    FILE = "file"
    SYMBOL = "symbol"
    IMPORT = "import"
    ENV = "env"
    DEP = "dep"
    TECH = "tech"
    PARAM = "param"
    CALL = "call"
    CONFIG = "config"
    STATUS = "status"
    MESSAGE = "message"


# ``!env:*``, ``!dep:*``: any variable, any dependency; ``import:X@*``: the code that runs.
WILDCARD = "*"


class Expect(StrEnum):
    PRESENT = "present"
    ABSENT = "absent"


class Provenance(StrEnum):
    """How an anchor was obtained."""

    EXPLICIT = "explicit"
    INFERRED = "inferred"


class AnchorSyntaxError(InvalidInput):
    """An anchor string is malformed or unsafe; the message says which and why. The
    caller gave it, so it is invalid input: it reaches the model or the CLI as such."""


_STATING = (AnchorKind.SYMBOL, AnchorKind.ENV, AnchorKind.PARAM, AnchorKind.CALL,
            AnchorKind.CONFIG, AnchorKind.STATUS)  # fmt: skip


@dataclass(frozen=True, order=True)
class Anchor:
    """One typed claim about the code.

    ``value`` is the path (file), qualified name (symbol), dotted module (import),
    variable name (env), PEP 503 normalised distribution name (dep) or technology name
    (tech). ``scope`` is the path a symbol lives in, the ``PATH`` / ``PATH::Qual.name`` an
    import is claimed for, the file or directory said to read an env variable, or the
    directory a technology is claimed for. ``version`` is a
    dependency's version specifier, e.g. ``>=2``, or the value a symbol or env anchor
    states (``stated``), as written after its ``=``: the one column for "what the anchor
    claims of its thing" keeps the stored form of anchors unchanged.
    """

    kind: AnchorKind
    value: str
    expect: Expect = Expect.PRESENT
    scope: str | None = None
    version: str | None = None

    def render(self) -> str:
        """The canonical anchor string; ``parse_anchor(a.render()) == a``."""
        bang = "!" if self.expect is Expect.ABSENT else ""
        if self.kind in (AnchorKind.PARAM, AnchorKind.CALL):
            return f"{bang}{self.kind.value}:{_render_argument(self)}"
        if self.kind is AnchorKind.CONFIG:
            body = f"{self.scope}::{self.value}" if self.scope else self.value
            said = "" if self.version is None else f"={self.version}"
            return f"{bang}config:{body}{said}"
        if self.kind in (AnchorKind.SYMBOL, AnchorKind.STATUS, AnchorKind.MESSAGE):
            body = f"{self.scope}::{self.value}" if self.scope else self.value
        elif self.kind in (AnchorKind.IMPORT, AnchorKind.TECH, AnchorKind.ENV):
            body = f"{self.value}@{self.scope}" if self.scope else self.value
        elif self.kind is AnchorKind.DEP:
            body = f"{self.value}{self.version or ''}" + (f"@{self.scope}" if self.scope else "")
        else:
            body = self.value
        if self.version is not None and self.kind in (AnchorKind.SYMBOL, AnchorKind.ENV,
                                                      AnchorKind.STATUS):
            body = f"{body}={self.version}"
        return f"{bang}{self.kind.value}:{body}"

    @property
    def stated(self) -> str | None:
        """The value a symbol, env, param (its default) or call (the keyword's value)
        anchor claims its thing has, or None."""
        return self.version if self.kind in _STATING else None

    @property
    def argument(self) -> tuple[str, str]:
        """A param or call anchor's (function or callee, parameter or keyword name)."""
        head, _, name = self.value.rstrip(")").partition("(")
        return head, name

    def negated(self) -> Anchor:
        flipped = Expect.ABSENT if self.expect is Expect.PRESENT else Expect.PRESENT
        return Anchor(self.kind, self.value, flipped, self.scope, self.version)


_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_QUALNAME = re.compile(rf"^{_IDENT}(\.{_IDENT})*$")
# A definition in JavaScript may be named with ``$`` (``$store``); Rust and Go names are
# identifiers, their methods written ``Type.method`` (``Type::method`` is read as that).
_CODE_IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
_CODE_QUALNAME = re.compile(rf"^{_CODE_IDENT}(\.{_CODE_IDENT})*$")
# What an import names: a dotted Python module; an npm specifier (``axios``,
# ``@vue/runtime-core``, ``lodash/fp``); a Go import path (``github.com/gin-gonic/gin``); a
# Rust path (``tokio::sync``). Never a relative path: those name files (``file:``).
_MODULE = re.compile(
    rf"^(?:{_IDENT}(?:::{_IDENT})+"
    r"|(?:@[a-z0-9][\w.-]*/)?[A-Za-z0-9_$](?:[\w.$-]*[\w$])?(?:/[\w.$~-]*[\w$])*)$"
)
_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DIST = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
# A dependency of any ecosystem: a PyPI distribution, an npm package (``@scope/name``), a Go
# module path (``github.com/gin-gonic/gin``), a crate.
_PACKAGE = re.compile(r"^(?:@[a-z0-9][a-z0-9._-]*/)?[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?$")
_DEP = re.compile(
    r"^(?P<name>@?[A-Za-z0-9][A-Za-z0-9._/-]*)(?P<extras>\[[A-Za-z0-9._,\s-]*\])?"
    r"\s*(?P<version>[<>=!~^].*)?$"
)
# An npm or Cargo range an agent may state (``^3``, ``~1.2``, ``3.x``, ``>=18 <20``).
_SEMVER_RANGE = re.compile(r"^[\^~]v?[0-9]+(?:\.(?:[0-9]+|[xX*])){0,2}$")


# Unicode categories nobody can see: controls, format (bidi, zero-width), line and
# paragraph separators, surrogates.
_INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
# Slash look-alikes that NFKC leaves alone (division, fraction, big solidus, set minus).
_SLASH_LOOKALIKES = frozenset("\u2215\u2044\u29f8\u2216\u29f5\u29f9")
# The ASCII characters in those categories: the controls (all of them "Cc").
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_DRIVE = re.compile(r"^[A-Za-z]:")


def _invisible(text: str) -> bool:
    """Whether ``text`` has a character of an ``_INVISIBLE`` category."""
    if text.isascii():
        return _ASCII_CONTROL.search(text) is not None
    return any(unicodedata.category(ch) in _INVISIBLE for ch in text)


_DIST_SEPARATORS = re.compile(r"[-_.]+")


def package_key(name: str) -> str:
    """The key a dependency of any ecosystem is known by: a name with a "/" (an npm
    ``@scope/name``, a Go module path) in lower case, any other PEP 503 normalised (which
    also makes a crate's ``serde_json`` the ``serde-json`` Cargo.toml may write)."""
    return name.lower() if "/" in name else normalize_dist_name(name)


def normalize_dist_name(name: str) -> str:
    """PEP 503 normalisation: lower case, runs of ``-_.`` become one ``-``."""
    if "-" in name or "_" in name or "." in name:
        return _DIST_SEPARATORS.sub("-", name).lower()
    return name.lower()  # nothing to replace: the common case, without the regex


def validate_repo_path(path: str) -> str:
    """Return ``path`` if it is a safe repository-relative POSIX path, else raise.

    Rejected: empty, absolute, ``..`` or ``.`` components, NUL and control characters,
    backslashes, ``.git`` components, a leading ``-``, percent-encoded bytes, and text
    compatibility characters that NFKC would change (look-alike separators and dots). The
    path is returned in NFC: a name committed decomposed (NFD, as macOS writes it) and its
    composed spelling are one path, found whichever way git stores it.
    """
    if not path:
        raise AnchorSyntaxError("empty path")
    # C1 controls (U+0085), bidi overrides and zero-width characters are invisible too.
    if _invisible(path):
        raise AnchorSyntaxError("path contains a control, format or separator character")
    if "\\" in path:
        raise AnchorSyntaxError("path contains a backslash; use '/' separators")
    # ASCII has no look-alike, and no normalisation changes it: only other text is checked.
    if not path.isascii() and any(ch in _SLASH_LOOKALIKES for ch in path):
        raise AnchorSyntaxError("path contains a look-alike of '/' or '\\'")
    if not path.isascii():
        path = unicodedata.normalize("NFC", path)
    if not path.isascii() and unicodedata.normalize("NFKC", path) != path:
        raise AnchorSyntaxError(
            "path contains compatibility characters (look-alikes) that change under "
            "Unicode normalisation"
        )
    if _PERCENT.search(path):
        raise AnchorSyntaxError("path contains percent-encoded bytes")
    if path.startswith("/") or _DRIVE.match(path) or path.startswith("~"):
        raise AnchorSyntaxError("path must be relative to the repository root")
    if path.startswith("-"):
        raise AnchorSyntaxError("path must not start with '-'")
    parts = path.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise AnchorSyntaxError(f"path has an empty, '.' or '..' component: {path!r}")
        if part.lower() == ".git" or part.lower().startswith(".git/"):
            raise AnchorSyntaxError("path must not name the .git directory")
    return path


def _check_qualname(name: str, what: str) -> str:
    if not _QUALNAME.match(name):
        raise AnchorSyntaxError(f"{what} {name!r} is not a dotted Python name")
    return name


def _check_code_name(name: str, what: str) -> str:
    """A definition's qualified name in any language read: ``Type::method`` is
    ``Type.method``."""
    name = name.replace("::", ".")
    if not _CODE_QUALNAME.match(name):
        raise AnchorSyntaxError(f"{what} {name!r} is not a qualified name (Class.method)")
    return name


def _symbol_parts(body: str) -> tuple[str | None, str]:
    """(path, qualified name) of a symbol anchor's body: the path ends at the first "::"
    whose left side is a path (it has a "/" or a "."), so a Rust method
    (``src/lib.rs::Store::get``) keeps its own "::"; a single "::" always ends a path (a
    directory may have neither); (None, body) when unscoped."""
    head, sep, rest = body.partition("::")
    if not sep:
        return None, body
    if "::" not in rest:
        return head, rest  # ``auth::charge``: a directory, as any single "::" scope is
    if "/" in head or "." in head:
        return head, rest
    return None, body


def _parse_scope(scope: str) -> str:
    path, sep, qual = scope.partition("::")
    path = validate_repo_path(path)
    if sep:
        _check_qualname(qual, "scope symbol")
        return f"{path}::{qual}"
    return path


def _check_specifier(version: str) -> str:
    """``version`` if ``packaging`` accepts it as a PEP 440 specifier set, whitespace
    removed; an empty clause (``>=1,``) is rejected too, which ``packaging`` lets through."""
    clauses = version.split(",")
    try:
        if any(not clause.strip() for clause in clauses):
            raise InvalidSpecifier(version)
        SpecifierSet(version)
        compact = re.sub(r"\s+", "", version)
        SpecifierSet(compact)  # removing whitespace must not make it mean something else
    except InvalidSpecifier:
        if _SEMVER_RANGE.match(version.strip()):
            return version.strip()  # an npm / Cargo caret or tilde range: ``^3``, ``~1.2``
        raise AnchorSyntaxError(
            f"dependency version specifier {version!r} is not a PEP 440 specifier set "
            "(e.g. '>=2', '~=1.4', '>=1.1,<2', '==2.*')"
        ) from None
    return compact


# ``NAME=VALUE`` at the end of a symbol or env anchor: the name is a dotted identifier, so the
# first ``=`` after the last ``::`` before it starts the value.
_ENV_AT = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*@(?P<path>[^=]+?)(?P<rest>\s*=.*)?$", re.DOTALL)
_STATED = re.compile(r"^(?P<head>(?:.*?::)?[A-Za-z_][\w.]*)\s*=\s*(?P<value>.*)$", re.DOTALL)
MAX_STATED_LENGTH = 200


def split_stated(body: str) -> tuple[str, str | None]:
    """``app/x.py::LIMIT=100`` -> (``app/x.py::LIMIT``, ``100``); no value: (body, None)."""
    m = _STATED.match(body)
    if m is None:
        return body, None
    value = m.group("value").strip()
    if not value:
        raise AnchorSyntaxError(f"anchor {body!r} has no value after '='")
    if len(value) > MAX_STATED_LENGTH:
        raise AnchorSyntaxError(f"stated value longer than {MAX_STATED_LENGTH} characters")
    return m.group("head").strip(), value


# ``func(name)``, ``func(name?)``, ``func(name=VALUE)``: the value runs to the last ``)``.
_ARGUMENT = re.compile(
    r"^(?P<head>[A-Za-z_][\w.]*)\(\s*(?P<name>[A-Za-z_]\w*)\s*"
    r"(?:(?P<optional>\?)|=\s*(?P<value>.*?))?\s*\)(?:@(?P<path>[^()]+))?$",
    re.DOTALL,
)
# ``param:F(-> T)``: F returns a T; ``param:F(: T)``: a parameter of F is a T
# (``anchors.type_claims``)
_TYPED_ARGUMENT = re.compile(
    r"^(?P<head>[A-Za-z_][\w.]*)\(\s*(?P<mark>->|:)\s*(?P<type>\S.*?)\s*\)$", re.DOTALL
)


def _render_argument(anchor: Anchor) -> str:
    head, name = anchor.argument
    said = "" if anchor.version is None else (
        "?" if anchor.version == "?" else f"={anchor.version}")  # fmt: skip
    if name in ("->", ":"):
        said = f" {anchor.version}"
    call = f"{head}({name}{said})"
    if anchor.kind is AnchorKind.PARAM:
        return f"{anchor.scope}::{call}" if anchor.scope else call
    return f"{call}@{anchor.scope}" if anchor.scope else call


def _parse_argument(kind: AnchorKind, body: str, expect: Expect, text: str) -> Anchor:
    """``param:[PATH::]func(name[?|=VALUE])`` or ``call:CALLEE(kw[=VALUE])[@PATH]``."""
    path = None
    if kind is AnchorKind.PARAM:
        head_part, paren, rest = body.partition("(")  # (a stated type may hold "::")
        path, sep, head_part = head_part.rpartition("::") if "::" in head_part else (
            None, "", head_part)  # fmt: skip
        body = head_part + paren + rest
        path = validate_repo_path(path.strip()) if sep and path is not None else None
    typed = _TYPED_ARGUMENT.match(body.strip()) if kind is AnchorKind.PARAM else None
    if typed is not None:
        stated = typed.group("type")
        if len(stated) > MAX_STATED_LENGTH:
            raise AnchorSyntaxError(f"stated type longer than {MAX_STATED_LENGTH} characters")
        if expect is Expect.ABSENT:
            raise AnchorSyntaxError(f"a type anchor cannot be negated: {text!r}")
        head = _check_qualname(typed.group("head"), "function")
        return Anchor(kind, f"{head}({typed.group('mark')})", expect, path, stated)
    m = _ARGUMENT.match(body.strip())
    what = ("param:[PATH::]func(name), func(name?), func(name=VALUE), func(-> TYPE) or "
            "func(: TYPE)") if kind is AnchorKind.PARAM else "call:CALLEE(keyword[=VALUE])[@PATH]"
    if m is None or (kind is AnchorKind.PARAM and m.group("path")):
        raise AnchorSyntaxError(f"anchor {text!r} is not {what}")
    head = _check_qualname(m.group("head"), "function" if kind is AnchorKind.PARAM else "callee")
    if kind is AnchorKind.CALL and m.group("optional"):
        raise AnchorSyntaxError(f"'?' (any default) is said of a parameter, not a call: {text!r}")
    value = "?" if m.group("optional") else m.group("value")
    if kind is AnchorKind.CALL and value is not None and value.strip() == "?":
        raise AnchorSyntaxError(f"'?' (any default) is said of a parameter, not a call: {text!r}")
    if value is not None:
        value = value.strip()
        if not value:
            raise AnchorSyntaxError(f"anchor {text!r} has no value after '='")
        if len(value) > MAX_STATED_LENGTH:
            raise AnchorSyntaxError(f"stated value longer than {MAX_STATED_LENGTH} characters")
        if expect is Expect.ABSENT:
            raise AnchorSyntaxError(f"a value anchor cannot be negated: {text!r}")
    if kind is AnchorKind.CALL and m.group("path"):
        path = validate_repo_path(m.group("path").strip().rstrip("/"))
    return Anchor(kind, f"{head}({m.group('name')})", expect, path, value)


_OPTION_KEY = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9_\-]*(?:=|$)")
# a key of a file (``EXPOSE``, ``services.web.ports``) or a program's option (``--port``)
_CONFIG_KEY = re.compile(r"^(?:[A-Za-z_]|--?[A-Za-z0-9])[A-Za-z0-9_.\-]*$")


def _parse_config(body: str, expect: Expect, text: str) -> Anchor:
    """``config:[PATH::]KEY[=VALUE]``: the first ``=`` ends the key (a value may hold "="
    and "::", a key never does)."""
    head, eq, value = body.partition("=")
    path, sep, key = head.strip().rpartition("::")
    key = key.strip()
    if not _CONFIG_KEY.match(key):
        raise AnchorSyntaxError(f"anchor {text!r} is not config:[PATH::]KEY[=VALUE]")
    scope = validate_repo_path(path.strip().rstrip("/")) if sep else None
    stated = None
    if eq:
        stated = value.strip()
        if not stated:
            raise AnchorSyntaxError(f"anchor {text!r} has no value after '='")
        if len(stated) > MAX_STATED_LENGTH:
            raise AnchorSyntaxError(f"stated value longer than {MAX_STATED_LENGTH} characters")
        if expect is Expect.ABSENT:
            raise AnchorSyntaxError(f"a value anchor cannot be negated: {text!r}")
    return Anchor(AnchorKind.CONFIG, key, expect, scope, stated)


_ANY_FUNCTION = re.compile(r"^(?:(?P<path>[^=]*?)::)?\*\s*=(?P<value>.*)$")


def _parse_status(body: str, expect: Expect, text: str) -> Anchor:
    """``status:[PATH::]Qual.func=NNN`` or ``status:[PATH::]*=NNN``: a status from 100 to
    599, negated or not."""
    if (every := _ANY_FUNCTION.match(body)) is not None:  # ``*`` is no name ``split_stated`` reads
        head, stated = f"{every['path']}::*" if every["path"] else "*", every["value"].strip()
    else:
        head, stated = split_stated(body)
    if stated is None or not stated.isdigit() or not 100 <= int(stated) <= 599:
        raise AnchorSyntaxError(f"anchor {text!r} is not status:[PATH::]func=NNN (100-599)")
    path, qual = _symbol_parts(head)
    where = validate_repo_path(path) if path is not None else None
    # ``*``: any function of PATH, or of the project's code (``anchors.status_anywhere``)
    function = qual if qual == "*" else _check_code_name(qual, "function")
    return Anchor(AnchorKind.STATUS, function, expect, where, str(int(stated)))


# A message's place: a path (no space, a "." or "/" in it) before the first "::".
_MESSAGE_PATH = re.compile(r"^(?P<path>[^\s:]*[./][^\s:]*)::(?P<text>.+)$", re.DOTALL)


def _parse_message(body: str, expect: Expect) -> Anchor:
    """``message:[PATH::]TEXT``: TEXT as written, up to ``MAX_STATED_LENGTH`` characters."""
    placed = _MESSAGE_PATH.match(body)
    path, message = (placed["path"], placed["text"].strip()) if placed else (None, body)
    if not message or len(message) > MAX_STATED_LENGTH:
        raise AnchorSyntaxError(f"a message is 1 to {MAX_STATED_LENGTH} characters")
    return Anchor(AnchorKind.MESSAGE, message, expect,
                  validate_repo_path(path) if path is not None else None)  # fmt: skip


def _parse_wildcard(kind: AnchorKind, body: str, expect: Expect, text: str) -> Anchor:
    """``!env:*``, ``!dep:*@web``: no variable read, no run-time dependency declared. Only
    the negation is an anchor: "reads some variable" is no claim a note makes."""
    if expect is not Expect.ABSENT:
        raise AnchorSyntaxError(f"a wildcard anchor must be negated ('!{kind.value}:*'): {text!r}")
    _, at, scope = body.partition("@")
    where = validate_repo_path(scope.strip().rstrip("/")) if at else None
    return Anchor(kind, WILDCARD, expect, scope=where)


_KINDS = {kind.value: kind for kind in AnchorKind}  # AnchorKind(value), without the Enum call


def parse_anchor(text: str) -> Anchor:
    """Parse one anchor string (see the module docstring), rejecting unsafe values."""
    if not isinstance(text, str):
        raise AnchorSyntaxError("an anchor must be a string")
    if len(text) > MAX_ANCHOR_LENGTH:
        raise AnchorSyntaxError(f"anchor longer than {MAX_ANCHOR_LENGTH} characters")
    raw = text.strip()
    expect = Expect.PRESENT
    if raw.startswith("!"):
        expect = Expect.ABSENT
        raw = raw[1:].strip()
    kind_text, sep, body = raw.partition(":")
    kind = _KINDS.get(kind_text.strip().lower())
    if kind is None:
        kinds = ", ".join(k.value for k in AnchorKind)
        raise AnchorSyntaxError(
            f"anchor {text!r} must start with one of {kinds} followed by ':'"
        ) from None
    if not sep or not body.strip():
        raise AnchorSyntaxError(f"anchor {text!r} has no value after '{kind.value}:'")
    body = body.strip()
    if body.startswith("-") and not (kind is AnchorKind.CONFIG and _OPTION_KEY.match(body)):
        # (a program's option is a config key, read from facts and never given to git)
        raise AnchorSyntaxError(f"anchor value must not start with '-': {text!r}")
    if _invisible(body):
        # Covers NUL, and a newline that would otherwise be stripped out of a name.
        raise AnchorSyntaxError("anchor contains NUL or another control character")

    if kind is AnchorKind.FILE:
        return Anchor(kind, validate_repo_path(body), expect)
    if kind in (AnchorKind.PARAM, AnchorKind.CALL):
        return _parse_argument(kind, body, expect, text)
    if kind is AnchorKind.CONFIG:
        return _parse_config(body, expect, text)
    if kind is AnchorKind.STATUS:
        return _parse_status(body, expect, text)
    if kind is AnchorKind.MESSAGE:
        return _parse_message(body, expect)
    env_scope = None
    if kind is AnchorKind.ENV and (placed := _ENV_AT.match(body)) is not None:
        # ``NAME@PATH`` before any ``=VALUE``: a value may hold "@", a path never holds "="
        env_scope = validate_repo_path(placed.group("path").strip().rstrip("/"))
        body = placed.group("name") + (placed.group("rest") or "")
    if kind in (AnchorKind.ENV, AnchorKind.DEP) and body.partition("@")[0].strip() == WILDCARD:
        return _parse_wildcard(kind, body, expect, text)
    if kind in (AnchorKind.SYMBOL, AnchorKind.ENV):
        body, stated = split_stated(body)
        if stated is not None and expect is Expect.ABSENT:
            raise AnchorSyntaxError(f"a value anchor cannot be negated: {text!r}")
    if kind is AnchorKind.SYMBOL:
        path, qual = _symbol_parts(body)
        if path is not None:
            path = validate_repo_path(path)
            return Anchor(kind, _check_code_name(qual, "symbol"), expect, path, stated)
        return Anchor(kind, _check_code_name(qual, "symbol"), expect, version=stated)
    if kind is AnchorKind.IMPORT:
        at_sign = body.find("@", 1)  # ``@vue/cli@web``: a scoped npm name starts with "@"
        module, scope = (body, "") if at_sign == -1 else (body[:at_sign], body[at_sign + 1 :])
        module = module.strip()
        if not _MODULE.match(module):
            raise AnchorSyntaxError(
                f"module {module!r} is not a Python module, npm package, Go or Rust path"
            )
        where = None
        if at_sign != -1:
            where = WILDCARD if scope.strip() == WILDCARD else _parse_scope(scope.strip())
        return Anchor(kind, module, expect, scope=where)
    if kind is AnchorKind.TECH:
        name, at, scope = body.partition("@")
        name = name.strip()
        if not _DIST.match(name):
            raise AnchorSyntaxError(f"technology name {name!r} is not valid (letters, digits, -._)")
        where = validate_repo_path(scope.strip().rstrip("/")) if at else None
        return Anchor(kind, normalize_dist_name(name), expect, scope=where)
    if kind is AnchorKind.ENV:
        if not _ENV.match(body):
            raise AnchorSyntaxError(f"environment variable name {body!r} is not valid")
        return Anchor(kind, body, expect, scope=env_scope, version=stated)
    at_sign = body.find("@", 1)  # ``dep:vue@web``: the manifest of that project
    where = None
    if at_sign != -1:
        where = validate_repo_path(body[at_sign + 1 :].strip().rstrip("/") or ".")
        where = None if where == "." else where
        body = body[:at_sign]
    match = _DEP.match(body.strip())
    if not match or not _PACKAGE.match(match.group("name")):
        raise AnchorSyntaxError(f"dependency {body!r} is not a valid package name")
    version = (match.group("version") or "").strip() or None
    if version is not None:
        version = _check_specifier(version)
    name = package_key(match.group("name"))
    return Anchor(kind, name, expect, scope=where, version=version)
