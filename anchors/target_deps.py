"""The targets a crate's dependency is declared for, as a note states them.

"winapi is a Windows-only dependency", "libc is only a dependency on Unix targets",
"winapi is a dependency on every platform": ``Cargo.toml`` declares a crate for some
targets in ``[target.'cfg(...)'.dependencies]``, which ``anchors.cargo_toml`` gives as
``dependencies.NAME.target`` (the ``cfg`` as written). A note saying the crate is needed
everywhere is checked by that key's absence; one naming a platform, by the key's
presence and a ``cfg`` that names the platform (``cfg(unix)`` for Unix,
``cfg(target_os = "windows")`` for Windows), or by its absence where every ``cfg``
names only targets of another family (Windows against ``cfg(unix)``). A ``cfg`` that
names the platform only to exclude it (``not(windows)``), or none of either family,
leaves the claim to the caller's other readings: nothing is decided on a guess. Pure
functions.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect

__all__ = ["target_claim"]

_I = re.IGNORECASE
_EVERY = re.compile(
    r"\b(?:on|for|across|in)\s+(?:every|all|each|any)\s+(?:platforms?|targets?|oses|"
    r"operating\s+systems?)\b|\bunconditional(?:ly)?\b|\bcross-platform\b|\beverywhere\b",
    _I,
)
_PLATFORM = r"(?:windows|unix|linux|macos|mac\s*os|darwin|android|ios|freebsd|redox|wasm)"
_ONLY = re.compile(
    rf"\b(?P<a>{_PLATFORM})[- ]only\b|\bonly\s+(?:on|for)\s+(?P<b>{_PLATFORM})\b"
    rf"|\b(?:on|for)\s+(?P<c>{_PLATFORM})\s+(?:targets?|platforms?|only|builds?)\b"
    rf"|\bonly\b[^.;:]{{0,40}}?\b(?:on|for)\s+(?P<d>{_PLATFORM})\b",
    _I,
)
_SPELLINGS = {"mac os": "macos", "macos": "macos", "darwin": "macos"}


def target_claim(sentence: str, name: str, fp: Fingerprint) -> Anchor | None:
    """The ``config:`` anchor that checks the targets ``sentence`` (about a dependency)
    gives the crate ``name`` where one ``Cargo.toml`` declares it; None when it states
    none, or none that can be checked."""
    if _DEPENDENCY.search(sentence) is None:
        return None
    declared = [d for d in fp.dependency(name) if d.ecosystem == "cargo"]
    sources = {d.source for d in declared}
    if len(sources) != 1 or any(not (d.runtime or d.optional) for d in declared):
        return None  # (a dev- or build-dependency's targets are not read: which is meant?)
    [source] = sources
    values = fp.infra.get(source)
    if values is None:
        return None
    key = f"dependencies.{name}.target"
    targets = [v.text for v in values if v.key == key and v.text]
    if _EVERY.search(sentence):
        return Anchor(AnchorKind.CONFIG, key, Expect.ABSENT, scope=source)
    m = _ONLY.search(sentence)
    if m is None:
        return None
    if not targets:
        return Anchor(AnchorKind.CONFIG, key, scope=source)  # declared for every target
    said = re.sub(r"\s+", " ", (m["a"] or m["b"] or m["c"] or m["d"]).lower())
    platform = _SPELLINGS.get(said, said)
    named = [(cfg, set(re.findall(r"\w+", _NOT.sub("", cfg.lower())))) for cfg in targets]
    for cfg, words in named:  # ("not(target_os = "redox")" names no target of it)
        if platform in words:
            return Anchor(AnchorKind.CONFIG, key, scope=source, version=cfg)
    family = _FAMILY.get(platform)
    if family and all(
        (found := {_FAMILY[w] for w in words if w in _FAMILY}) and family not in found
        for _, words in named
    ):
        # "a Windows-only dependency" declared for cfg(unix) alone: another family
        return Anchor(AnchorKind.CONFIG, key, scope=source, version=f"cfg({platform})")
    return None


# Targets of one family never build for another's: a crate declared for Unix only is no
# Windows dependency.
_FAMILY = {
    "windows": "windows", "unix": "unix", "linux": "unix", "macos": "unix", "android": "unix",
    "ios": "unix", "freebsd": "unix", "redox": "unix", "wasm": "wasm", "wasm32": "wasm",
}  # fmt: skip


_NOT = re.compile(r"\bnot\s*\([^()]*\)")
# A sentence about a dependency: the targets it gives are a declaration's.
_DEPENDENCY = re.compile(r"\b(?:dependenc(?:y|ies)|depends?|pulled\s+in|needed|required)\b", _I)
