"""A setting stated as written in an INI file: "comments are rendered with mistune
(``[markup] renderer = mistune`` in ``isso/isso.cfg``)", "the guard's rate limit is 2
(``ratelimit = 2``)".

An assignment in a note is a value it states (``anchors.value_claims``); when the
sentence names an INI settings file (``*.cfg``, ``*.ini``) that gives that key, or names
none and exactly one such file gives it, the value is checked by a ``config:`` anchor on
that file and key (``config:isso/isso.cfg::markup.renderer=mistune``): the same value
holds, another one breaks, a key no file gives stays unchecked. With a ``[section]`` the
key is looked for in that section only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["bind_settings"]

_STATED = re.compile(
    r"(?:\[(?P<section>[^\]\n]{1,60})\]\s*)?`?(?P<key>[A-Za-z_][\w.\-]{0,80})\s?=\s?"
    r"(?P<value>[^\s,;()`'\"]{1,120})"
)
_INI_PATH = re.compile(r"[\w./\-]+\.(?:cfg|ini)\b", re.IGNORECASE)
# Not a setting the note states of the code: a condition, a plan, an override, the past.
_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|should|would|could|might|will|was|were|used\s+to|no\s+longer|not|never|"
    r"instead\s+of|rather\s+than|override\w*|set\s+it\s+to|e\.g\.|for\s+example)\b|n't\b",
    re.IGNORECASE,
)


def bind_settings(
    text: str,
    fp: Fingerprint,
    spans: Sequence[tuple[int, int, bool]],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """The ``config:`` anchors on INI settings files that ``text``'s assignments support;
    ``taken``: the value spans another anchor checks already."""
    files = [p for p in fp.infra if infra_kind(p) is InfraKind.INI]
    if not files:
        return []
    found: list[Binding] = []
    for start, end, question in spans:
        if question or _NOT_PLAIN.search(text, start, end):
            continue
        named = [fp.tracked_path(m.group().rstrip("."))
                 for m in _INI_PATH.finditer(text, start, end)]  # fmt: skip
        # the files the sentence names, else every settings file when it names none
        here = [p for p in named if p is not None and p in files]
        here = here or ([] if named else files)
        for m in _STATED.finditer(text, start, end):
            if any(a <= m.start("key") < b for a, b in taken):
                continue
            place = _setting(fp, here, m.group("section"), m.group("key").lower())
            if place is None:
                continue
            path, key = place
            if "=" in path or "::" in path:
                continue  # the anchor's syntax could not carry it
            value = m.group("value").rstrip(".")
            anchor = Anchor(AnchorKind.CONFIG, key, scope=path, version=value)
            found.append(Binding(anchor, m.group("key"), (m.start(), m.end())))
    return found


def _setting(fp: Fingerprint, files: Sequence[str], section: str | None,
             key: str) -> tuple[str, str] | None:  # fmt: skip
    """The one (file, ``section.key``) that gives ``key`` (in ``section`` when stated)."""
    wanted = f"{section.strip()}.{key}" if section else None
    places = {
        (path, value.key)
        for path in files
        for value in fp.infra.get(path) or ()
        if value.key == wanted or (wanted is None and value.key.rpartition(".")[2] == key)
    }
    return places.pop() if len(places) == 1 else None
