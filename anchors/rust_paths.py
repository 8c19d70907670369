"""Rust paths a note writes: an item of another crate, or a module and item of its own.

"Colored output goes through ``anstream::AutoStream``", "the logger wraps an
``env_filter::Builder``": an item of another crate is used where a file of the crate
writes that path (the facts record each path a file writes as an import of it, with the
item as its name). A path no file writes is unchecked, not refuted: a glob ``use`` or an
alias may bring the item under another spelling.

"``env_logger::fmt::Formatter``", "``crate::filter``": a path of the crate's own name
(or ``crate``) names a module file (``src/fmt.rs`` or ``src/fmt/mod.rs``; the crate's
root is ``src/lib.rs``) and an item in it: its definition there, or the item a ``use``
of the module brings from elsewhere in the crate (``pub use self::writer::Target``, or a
glob: ``pub use self::logger::*``).
What the facts do not show of a module (a macro's items, an alias) is unchecked.
"""

from __future__ import annotations

from anchors.codenames import DropReason, Outcome
from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect

__all__ = ["own_item", "written_item"]

_ROOTS = ("src/lib.rs", "src/main.rs")


def written_item(path: str, fp: Fingerprint) -> str | None:
    """``path`` where a file writes it, else its longest part of two segments or more
    that a file writes (``anstream::AutoStream`` of ``anstream::AutoStream::new``,
    ``std::env`` of ``std::env::var`` after ``use std::env``); None when no file writes
    any of it."""
    parts = path.split("::")
    for end in range(len(parts), 1, -1):
        prefix = "::".join(parts[:end])
        if fp.importers(prefix):
            return prefix
    return None


def own_item(path: str, fp: Fingerprint) -> Outcome:
    """The module file and item ``path`` names under the crate's own name (its first
    segment, or ``crate``): a file anchor for a module, a symbol anchor in it for an item;
    a drop when the facts cannot tell (several crates' modules, an item they do not show)."""
    parts = path.split("::")[1:]
    for end in range(len(parts), -1, -1):
        files = _module_files(parts[:end], fp)
        if not files:
            continue
        if len(files) > 1:
            return DropReason.AMBIGUOUS, f"{path} may be a module of {len(files)} crates here"
        module, rest = files[0], parts[end:]
        if not rest:
            return [Anchor(AnchorKind.FILE, module, Expect.PRESENT)]
        qual = ".".join(rest)
        if fp.definition(module, qual) is not None:
            return [Anchor(AnchorKind.SYMBOL, qual, scope=module)]
        if any(rest[0] in imp.names or "*" in imp.names for imp in fp.code[module].imports):
            places = {p for p, _ in fp.definitions(qual)}
            if len(places) == 1:  # re-exported from the one file that defines it
                return [Anchor(AnchorKind.SYMBOL, qual, scope=places.pop())]
        return DropReason.UNRESOLVED, f"the facts of {module} do not show {qual}"
    return DropReason.UNRESOLVED, f"no module file of the crate is {path}"


def _module_files(modules: list[str], fp: Fingerprint) -> list[str]:
    """The Rust files that are module ``a::b`` (``src/a/b.rs``, ``src/a/b/mod.rs``) of a
    crate here, or its root for no module."""
    if modules:
        joined = "src/" + "/".join(modules)
        endings: tuple[str, ...] = (f"{joined}.rs", f"{joined}/mod.rs")
    else:
        endings = _ROOTS
    found = [
        p
        for p, facts in fp.code.items()
        if facts.language == "rust" and any(p == e or p.endswith(f"/{e}") for e in endings)
    ]
    if not modules and len(found) > 1:  # a library and its binary: the library's items
        found = [p for p in found if p.endswith(_ROOTS[0])] or found
    return sorted(found)
