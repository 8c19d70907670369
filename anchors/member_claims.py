"""A member a note names on a type of the repository that the type does not have.

"`Builder::parse_default_filters` reads RUST_LOG into the builder" names ``Builder``,
which the crate defines, and a member nothing in the crate is called: no definition, no
import, no constant, no call the facts record bears the name. The note is about a method
that does not exist, so the anchor ``symbol:Builder.parse_default_filters`` is kept to
break ("Builder is defined in src/logger.rs but has no parse_default_filters").

A member a type has without the project writing it must never be refuted, so the owner
is only judged when every member it can have is one the facts see:

- the owner is a type the code of the repository defines (a class, a struct, a trait, an
  interface: a definition with members of its own), in files that were read whole;
- a Python, JavaScript or TypeScript class extends only classes the repository defines
  (``class Muscle(models.Model)`` gets ``objects`` from Django), none of them answering
  any attribute (``__getattr__``);
- a Go struct embeds no type from outside the repository (``*http.Server`` brings
  ``ListenAndServe``);
- a Rust member is none of those the standard library's traits, the common derives and
  blanket implementations give every type that asks (``clone``, ``to_string``, ``parse``);
- the member's name is nowhere in the facts of any file (a definition of another type, a
  trait's default, a field, an import, a call with keywords, a parameter), and no file the
  grammars could not read holds the word;
- no file imports a type of the owner's name from outside the repository (a note about
  ``Builder`` may mean ``env_filter::Builder``, which a file of env_logger uses).

A variant a note names on a Rust enum ("`Error` has a `NotFound` variant") is judged on
the enum alone: its variants are all listed where it is declared, whatever other types or
imports are called.

The facts hold no word list of a file that was read, so a name used only in a body (an
attribute assigned in a method, ``self.record = []``; a call without keywords) is not
seen: that is why the owner's ancestry is checked rather than every use of the name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from anchors.codenames import own_names
from anchors.facts import FileFacts, Fingerprint
from anchors.finding import listed
from anchors.pyfacts import body_hash
from anchors.spec import Anchor, AnchorKind

__all__ = ["MissingMember", "lacking", "missing_member"]

_OWNER = re.compile(r"[A-Z][A-Za-z0-9_]*", re.ASCII)
_MEMBER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_READ = frozenset({"python", "javascript", "typescript", "go", "rust"})
_CLASSES = frozenset({"python", "javascript", "typescript"})
# Bases every class has, which add no member a note could name as the class's own.
_ROOTS = frozenset({"object"})
# A Python class answering any attribute: no member is missing from it.
_DYNAMIC = ("__getattr__", "__getattribute__")
# Methods a Rust type has through a trait it derives or implements, or a blanket
# implementation, without writing them: std's derivable traits, Display's ``to_string``,
# conversions, Iterator's and the io traits' provided methods, serde's and clap's derives.
# fmt: off
_RUST_PROVIDED = frozenset({
    "clone", "clone_from", "default", "fmt", "eq", "ne", "cmp", "partial_cmp", "lt", "le",
    "gt", "ge", "max", "min", "clamp", "hash", "to_string", "to_owned", "borrow",
    "borrow_mut", "as_ref", "as_mut", "deref", "deref_mut", "drop", "into", "from",
    "try_from", "try_into", "from_str", "from_iter", "into_iter", "iter", "type_id",
    "serialize", "deserialize", "parse", "try_parse", "parse_from", "try_parse_from",
    "update_from", "try_update_from", "command", "command_for_update", "augment_args",
    "augment_args_for_update", "from_arg_matches", "from_arg_matches_mut",
    "update_from_arg_matches", "value_variants", "to_possible_value", "builder", "next",
    "map", "filter", "filter_map", "flat_map", "for_each", "fold", "collect", "count",
    "last", "nth", "skip", "take", "take_while", "skip_while", "step_by", "chain", "zip",
    "enumerate", "peekable", "rev", "sum", "product", "any", "all", "find", "position",
    "cloned", "copied", "by_ref", "read", "read_to_end", "read_to_string", "read_exact",
    "write", "write_all", "write_fmt", "flush", "bytes", "lines", "poll", "poll_next",
    "source", "description", "cause", "provide",
})
# fmt: on
_DEPTH = 8  # classes above the owner followed at most


@dataclass(frozen=True)
class MissingMember:
    """``owner`` is defined in ``places`` and none of them, nor anything else, has ``member``."""

    owner: str
    member: str
    places: tuple[str, ...]
    in_body: bool = False  # a class's members are all in its body (not Go's, not Rust's)

    def anchor(self) -> Anchor:
        """The symbol anchor that breaks: in the class's file when one class is the owner
        (a class's members are written in its body); in no file for a Go or Rust type,
        whose methods any file of its package may add, or several owners."""
        scope = self.places[0] if len(self.places) == 1 and self.in_body else None
        return Anchor(AnchorKind.SYMBOL, f"{self.owner}.{self.member}", scope=scope)


def missing_member(
    fp: Fingerprint, owner: str, member: str, variant: bool = False
) -> MissingMember | None:
    """``owner.member`` as a claim the code refutes, or None when the member may exist
    unseen (see the module's docstring) or the owner is no type of the repository.
    ``variant``: the note says the member is a variant ("Error has a NotFound variant"),
    which a Rust enum lists where it is declared, whatever other types are called."""
    if not (_MEMBER.fullmatch(owner) and _MEMBER.fullmatch(member)) or member == owner:
        return None
    if member.startswith("__") or fp.definitions(f"{owner}.{member}"):
        return None
    places = sorted({path for path, _ in fp.definitions(owner)})
    if not _OWNER.fullmatch(owner) and not all(_in_go(fp, path) for path in places):
        return None  # a type in lower case is Go's unexported one (``timeFormat``)
    if not places or not all(_read_whole(fp.code.get(path)) for path in places):
        return None
    if not _has_members(fp, owner, places):
        return None
    languages = {fp.code[path].language for path in places}
    if "rust" in languages and member in _RUST_PROVIDED:
        return None
    if languages & _CLASSES and not _closed_ancestry(fp, owner):
        return None
    if "go" in languages and any(_embeds_from_outside(fp, owner, path) for path in places):
        return None
    listed_whole = variant and languages == {"rust"} and member[:1].isupper()
    if not listed_whole and (
        member in fp.derived("member_claims.names", _named) or _unread_may_hold(fp, member)
    ):
        return None
    if not listed_whole and owner in fp.derived("member_claims.imported", _imported):
        return None  # ``use env_filter::Builder``: the note may mean that type
    return MissingMember(owner, member, tuple(places), languages <= _CLASSES)


def _in_go(fp: Fingerprint, path: str) -> bool:
    facts = fp.code.get(path)
    return facts is not None and facts.language == "go"


def _read_whole(facts: FileFacts | None) -> bool:
    return facts is not None and facts.parsed and facts.language in _READ


def _has_members(fp: Fingerprint, owner: str, places: Iterable[str]) -> bool:
    """Whether ``owner`` is a type with members of its own in one of its files (a struct
    with fields, a class with methods), not a function or a constant."""
    prefix = f"{owner}."
    return any(d.qualname.startswith(prefix) for path in places
               for d in fp.code[path].definitions)  # fmt: skip


def _closed_ancestry(fp: Fingerprint, owner: str) -> bool:
    """Whether every class ``owner`` names (its definitions and their bases, up the tree)
    is one the repository defines, read whole, none answering any attribute."""
    seen: set[str] = set()
    todo = [(owner, 0)]
    while todo:
        name, depth = todo.pop()
        if name in seen or name in _ROOTS:
            continue
        seen.add(name)
        found = fp.definitions(name)
        if not found or depth > _DEPTH:
            return False  # a base from outside the repository, or too deep to tell
        for path, definition in found:
            facts = fp.code.get(path)
            if facts is None or not _read_whole(facts):
                return False
            if facts.language in _CLASSES and definition.bases is None:
                return False  # a function or an alias named like a class: cannot tell
            if any(fp.definition(path, f"{name}.{dunder}") for dunder in _DYNAMIC):
                return False
            todo += [(base, depth + 1) for base in definition.bases or ()]
    return True


def _embeds_from_outside(fp: Fingerprint, owner: str, path: str) -> bool:
    """Whether the Go struct ``owner`` in ``path`` embeds a type the repository does not
    define (``*http.Server``, ``sync.Mutex``): its methods are the owner's too. An embedded
    field is named by its type (``Router.Mutex``); it is told from a named one by its
    source, the type alone, which the definition's hash is of."""
    facts = fp.code[path]
    packages = {imp.module.rsplit("/", 1)[-1] for imp in facts.imports}
    packages |= {name for imp in facts.imports for name in imp.names}
    prefix = f"{owner}."
    for d in facts.definitions:
        field = d.qualname.removeprefix(prefix)
        if not d.qualname.startswith(prefix) or "." in field:
            continue
        hashes = {body_hash(f"{star}{field}".encode()) for star in ("", "*")}
        if d.body_hash in hashes:  # ``inner``: a type of this package, or a builtin one
            if not fp.definitions(field):
                return True
            continue
        qualified = {body_hash(f"{star}{p}.{field}".encode()) for p in packages
                     for star in ("", "*")}  # fmt: skip
        if d.body_hash in qualified:
            return True  # ``*http.Server``: another package's type
    return False


def _imported(fp: Fingerprint) -> frozenset[str]:
    """The names an import brings from outside the repository: a module whose first part
    is neither one of the repository's folders or files nor its own package's name. A
    Rust path written in place (``env_filter::Builder``) brings none: the bare name is
    still the file's own."""
    inside = own_names(fp) | {"", "crate", "self", "super"}
    inside |= {part for path in fp.code for part in re.split(r"[/.]", path)}
    return frozenset(
        name
        for facts in fp.code.values()
        for imp in facts.imports
        if not imp.qualified and re.split(r"::|[./]", imp.module, maxsplit=1)[0] not in inside
        for name in imp.names
    )


def recorded_names(fp: Fingerprint) -> frozenset[str]:
    """Every name the facts of the repository's files record (``_named``)."""
    return fp.derived("member_claims.names", _named)


def _unread_may_hold(fp: Fingerprint, word: str) -> bool:
    """Whether a file the grammars did not read whole may hold ``word``."""
    return any(facts.could_mention([word]) for _, facts in fp.unread())


def _named(fp: Fingerprint) -> frozenset[str]:
    """Every name the facts of the repository's files record: each part of a definition's,
    an import's, a constant's, a call's, a status's name, a parameter and a keyword."""
    found: set[str] = set()
    for facts in fp.code.values():
        for d in facts.definitions:
            found.update(d.qualname.split("."))
            found.update(d.bases or ())
        for imp in facts.imports:
            found.update(_WORDS.findall(imp.module))
            found.update(imp.names)
            found.update(imp.within.split("."))
        for value in (*facts.constants, *facts.env_defaults):
            found.update(value.name.split("."))
        for sig in facts.signatures:
            found.update(sig.function.split("."))
            found.update(_WORDS.findall(sig.text or ""))
        for call in facts.calls:
            found.update(_WORDS.findall(call.callee))
            found.update(k for k, _ in call.keywords)
        for status in facts.statuses:
            found.update(status.function.split("."))
            found.update(_WORDS.findall(status.written))
    return frozenset(found)


def lacking(fp: Fingerprint, qualname: str) -> str:
    """The receipt of a type's member that no file defines, where the type is defined:
    "Builder is defined in src/fmt/mod.rs (line 205), src/logger.rs (line 38) but none of
    them has parse_default_filters"; "" when ``qualname`` is no ``Type.member`` of a
    defined type."""
    owner, _, member = qualname.partition(".")
    if not member or "." in member or not _OWNER.fullmatch(owner) or fp.definitions(qualname):
        return ""
    found = fp.definitions(owner)
    if not found:
        return ""
    places = [f"{p} (line {d.line})" if d.line > 0 else p for p, d in found]
    none = "has no" if len(found) == 1 else "none of them has"
    return f"{owner} is defined in {listed(places)} but {none} {member}"
