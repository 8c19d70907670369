"""The version a note says the project itself is at, bound to its manifest (issue #32):
"the package is at version 2.0.0", "the crate version is 0.3.0", "signals-core is at
1.14.5" is ``config:package.json::version=2.0.0`` or ``config:Cargo.toml::package.version``
(compared as a version's series, ``anchors.infra_compare``).

Bound only where the sentence's subject is the project (the package, the crate, the
library, or the name its manifest gives it) and the repository's root has one manifest
that states a version; a dependency's version ("depends on serde 1.0") is never this.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["bind_own_version"]

_SUBJECT = (r"(?:the\s+)?(?:(?:package|crate|library|project|module|extension)|`?(?P<name>"
            r"@?[\w.-]+(?:/[\w.-]+)?)`?)(?:['’]s)?")
# "is @preact/signals-core at", "is named glob and is at": the name said on the way
_NAMED = r"(?:is\s+(?:named\s+|called\s+)?`?(?P<named>@?[\w.-]+(?:/[\w.-]+)?)`?\s+(?:and\s+)?)?"
_OWN_VERSION = re.compile(
    rf"^\s*{_SUBJECT}\s+{_NAMED}(?:(?:is|are)\s+(?:now\s+|currently\s+)?(?:at\s+)?|at\s+"
    r"|(?:version|release)\s+(?:is\s+|=\s*|:\s*))(?:version\s+|release\s+)?v?"
    r"(?P<v>\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?)(?![\w.])",
    re.IGNORECASE,
)
# The root manifests that state the project's own version, with the key that holds it.
_KEYS = {"package.json": "version", "Cargo.toml": "package.version"}


def bind_own_version(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    """The own-version anchor the sentence ``text[start:end]`` supports, if any."""
    m = _OWN_VERSION.match(text, start, end)
    if m is None:
        return []
    found = [(path, key) for path, key in _KEYS.items() if _states(fp, path, key)]
    if len(found) != 1:
        return []
    [(path, key)] = found
    said = {m[g].lower() for g in ("name", "named") if m[g] is not None}
    if said - _own_names(fp, path):
        return []  # "serde is at 1.0": another package
    anchor = Anchor(AnchorKind.CONFIG, key, scope=path, version=m["v"])
    return [Binding(anchor, key, m.span("v"))]


def _states(fp: Fingerprint, path: str, key: str) -> bool:
    return any(v.key == key for v in fp.infra.get(path) or ())


def _own_names(fp: Fingerprint, path: str) -> set[str]:
    """The project's names as its manifest gives them (``@preact/signals-core`` and
    ``signals-core``)."""
    names = {v.text.lower() for v in fp.infra.get(path) or ()
             if v.key in ("name", "package.name") and v.text}  # fmt: skip
    return names | {n.rpartition("/")[2] for n in names}
