"""An ordinary word that is also a Go module or a crate, read as that library where the
note uses it as one in a repository of that ecosystem: "request logging goes through zap",
"the zap logger", "built with chi", "tracing via the tracing crate".

"zap", "chi", "echo", "tracing", "tower" are English words first: the vocabulary marks
them common, and a common word names a technology only where the sentence says so. Here it
does when both hold:

- the repository is of the library's ecosystem: it has a ``go.mod`` (Go) or a
  ``Cargo.toml`` (crates) the fingerprint read, so whether it requires the module is
  known, and a library absent from it is absent from the code too
  (``anchors.technology``);
- the word is used as a tool: right after "through", "with", "using", "via" or "by"
  ("goes through zap"), or before a word for what a library is ("the zap logger", "the
  chi router", "the tracing crate").

"echo the value" or "the request is traced" names nothing: no such cue stands beside the
word. A technology that is a PyPI package too is left to the rules of Python names.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.vocabulary import Technology, lookup_word

__all__ = ["ecosystem_library"]

_I = re.IGNORECASE
_BEFORE = re.compile(r"\b(?:through|with|using|via|by|on\s+top\s+of)\s+(?:the\s+)?[`'\"]?$", _I)
_AFTER = re.compile(
    r"[`'\"]?\s+(?:logger|logging\s+library|library|lib|module|package|crate|framework|router|"
    r"mux|client|driver|orm|cli|server|runtime|middleware|handler)s?\b",
    _I,
)
_MANIFEST = {"go": "go.mod", "cargo": "Cargo.toml"}


def ecosystem_library(text: str, start: int, end: int, fp: Fingerprint) -> Technology | None:
    """The Go or Rust library the word at ``text[start:end]`` names here (see the module
    docstring), or None."""
    hit = lookup_word(text[start:end].strip("`'\""))
    if hit is None or not hit[2]:
        return None  # unknown, or not an ordinary word: the usual rules read it
    tech = hit[0]
    if tech.dists or tech.imports:
        return None
    ecosystems = {p.partition(":")[0] for p in tech.packages} & set(_MANIFEST)
    if not ecosystems or not any(_has_manifest(e, fp) for e in ecosystems):
        return None
    before = _BEFORE.search(text, max(0, start - 24), start)
    if before is None and _AFTER.match(text, end) is None:
        return None
    return tech


def _has_manifest(ecosystem: str, fp: Fingerprint) -> bool:
    """Whether the repository has a read manifest of ``ecosystem`` at any depth."""
    name = _MANIFEST[ecosystem]
    return any(fp.infra.get(p) is not None for p in fp.basename_paths(name))
