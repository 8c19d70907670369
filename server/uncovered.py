"""The part of a note no anchor covers, as ``show`` names it (adr/0024).

The store keeps a memory's anchors but not the words each was read from, so the words are
found again in the note: the *code-shaped* ones (a `quoted span`, a path, a dotted name,
a call, a CamelCase, camelCase or snake_case name) and the *named things* (a technology
the vocabulary knows by a name that is not an ordinary English word: ``redis``, not
``black``). A word is covered when one anchor holds each of its parts (``billing.client
.charge`` by ``symbol:billing/client.py::charge``), or, for a technology, when an anchor
names it or one of its packages. What is left is what the code was never asked about:
the words a person should read before trusting the note."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["uncovered_words"]

MAX_WORDS = 12  # a note naming more is long; the first twelve say what is missing

_QUOTED = re.compile(r"`([^`\n]{1,200})`")
_EDGE = "\"'()[]{}<>,;:!?*"
_DOTTED = re.compile(r"^\.?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+$")
_CALL = re.compile(r"^([A-Za-z_][\w.]*)\([^)\s]*\)$")
_CALL_IN = re.compile(r"([A-Za-z_][\w.]*)\([^)\s]*\)")
_CAMEL = re.compile(r"^[A-Za-z]\w*[a-z0-9][A-Z]\w*$")
_SNAKE = re.compile(r"^[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+$")
_PATH = re.compile(r"^[\w.~-]*/[\w./~-]*$")
_WORD = re.compile(r"^[A-Za-z][\w-]*$")
_FINE = re.compile(r"[^0-9a-z_]+")
_COARSE = re.compile(r"[\s:/@!<>=~,]+")


def _is_path(token: str) -> bool:
    # "read/write" and "and/or" are prose; a path has an extension, two slashes, or a
    # slash at an end.
    if not _PATH.match(token) or not re.search(r"[A-Za-z]", token):
        return False
    last = token.rstrip("/").rsplit("/", 1)[-1]
    return (
        token.count("/") >= 2
        or token.startswith(("/", "./", "~/"))
        or token.endswith("/")
        or bool(re.search(r"\.[A-Za-z0-9]{1,8}$", last))
    )


def _code_shaped(token: str) -> str | None:
    """The name in ``token`` if it is shaped like code, else None."""
    call = _CALL.match(token)
    if call:
        return call.group(1)
    if _is_path(token):
        return token
    if _DOTTED.match(token):
        parts = token.strip(".").split(".")
        return None if all(len(p) == 1 for p in parts) else token  # "e.g", "i.e"
    if _CAMEL.match(token) or _SNAKE.match(token):
        return token
    return None


def _technology(word: str) -> tuple[str, ...] | None:
    """The names a technology ``word`` names goes by (its id, packages, imports), or None
    when the vocabulary does not know it or knows it as an ordinary English word."""
    from anchors.vocabulary import lookup_word

    found = lookup_word(word)
    if found is None or found[2]:  # found[2]: the name is also a common English word
        return None
    tech = found[0]
    return tuple(n.lower() for n in (tech.name, *tech.dists, *tech.imports))


def _candidates(text: str) -> list[tuple[str, bool]]:
    """(word, shaped like code) for each word of the note that may name something, in
    order."""
    found: list[tuple[str, bool]] = [(m.group(1).strip(), True) for m in _QUOTED.finditer(text)]
    prose = _QUOTED.sub(" ", text)
    for raw in prose.split():
        call = _CALL_IN.search(raw)  # before the brackets are stripped: "(see verify())."
        if call:
            found.append((call.group(1), True))
            continue
        token = raw.strip(_EDGE).rstrip(".").strip(_EDGE)
        if not token:
            continue
        shaped = _code_shaped(token)
        if shaped:
            found.append((shaped, True))
        elif _WORD.match(token):
            found.append((token, False))
    return found


def uncovered_words(
    text: str | None, anchors: Sequence[str], flags: Sequence[str] = ()
) -> list[str]:
    """The code-shaped words and named technologies of ``text`` that none of ``anchors``
    (as rendered: ``kind:value@scope``) covers, in the order the note says them, then the
    parts the store found unchecked when the note was written (``flags``: the values it
    states, adr/0025)."""
    from store.lifecycle import uncovered_parts

    stated = uncovered_parts(tuple(flags))
    if not text:
        return stated
    fine: list[set[str]] = []
    coarse: set[str] = set()
    for anchor in anchors:
        value = anchor.lstrip("!").split(":", 1)[-1].lower()
        fine.append({p for p in _FINE.split(value) if p})
        coarse.update(p for p in _COARSE.split(value) if p)
    names = set().union(*fine, coarse) if fine else set()
    out: list[str] = []
    seen: set[str] = set()
    for word, shaped in _candidates(text):
        key = word.lower()
        if key in seen:
            continue
        tech = _technology(word) if _WORD.match(word) or "." in word else None
        if not shaped and tech is None:
            continue  # an ordinary word
        seen.add(key)
        parts = {p for p in _FINE.split(key) if p}
        if parts and any(parts <= held for held in fine):
            continue
        if tech is not None and names.intersection(tech):
            continue
        out.append(word)
        if len(out) == MAX_WORDS:
            break
    return [*out, *(p for p in stated if p not in out)]
