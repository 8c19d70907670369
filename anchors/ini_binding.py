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
from anchors.mentions import subproject_of, tool_area
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["bind_named_settings", "bind_placed_settings", "bind_settings", "ini_files"]

_STATED = re.compile(
    r"(?:\[(?P<section>[^\]\n]{1,60})\]\s*)?`?(?P<key>[A-Za-z_][\w.\-]{0,80})\s?=\s?"
    r"(?P<value>[^\s,;()`'\"]{1,120})"
)
_INI_PATH = re.compile(r"[\w./\-]+\.(?:cfg|ini|conf)\b", re.IGNORECASE)


def ini_files(fp: Fingerprint) -> tuple[str, ...]:
    """The INI settings files the fingerprint read (found once per fingerprint)."""
    return fp.derived("ini_binding.files", _ini_files)


def _ini_files(fp: Fingerprint) -> tuple[str, ...]:
    return tuple(p for p in fp.infra if infra_kind(p) is InfraKind.INI)


def bind_settings(
    text: str,
    start: int,
    end: int,
    fp: Fingerprint,
    files: Sequence[str],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """The ``config:`` anchors on the INI settings ``files`` that the assignments of the
    sentence ``text[start:end]`` support (``anchors.infra_binding`` decides which sentences
    state what the files say now); ``taken``: value spans another anchor checks already."""
    named = [fp.tracked_path(m.group().rstrip("."))
             for m in _INI_PATH.finditer(text, start, end)]  # fmt: skip
    # the files the sentence names, else every settings file when it names none
    here = [p for p in named if p is not None and p in files] or ([] if named else files)
    found: list[Binding] = []
    for m in _STATED.finditer(text, start, end):
        if any(a <= m.start("key") < b for a, b in taken):
            continue
        anchor = _value_anchor(fp, here, m["section"], m["key"], m["value"])
        if anchor is not None:
            found.append(Binding(anchor, m.group("key"), (m.start(), m.end())))
    return found


def _value_anchor(fp: Fingerprint, files: Sequence[str], section: str | None, key: str,
                  value: str) -> Anchor | None:  # fmt: skip
    """The ``config:`` anchor of ``value`` on the one file that gives ``section.key``;
    None when none or several do, or the path is one the anchor's syntax cannot carry."""
    place = _setting(fp, files, section, key.lower())
    if place is None or "=" in place[0] or "::" in place[0]:
        return None
    path, setting = place
    return Anchor(AnchorKind.CONFIG, setting, scope=path, version=value.rstrip("."))


# "`core/restore_state` is on by default", "the `[http] port` defaults to 6680": a key named
# with its section, and the value stated for it (with no unit: the file's number has none)
_PLACED = re.compile(
    r"`?(?:\[(?P<section>[\w\-]{1,40})\]\s*|(?P<sec>[A-Za-z][\w\-]{0,40})/)"
    r"(?P<key>[A-Za-z_][\w\-]{0,60})`?(?:\s+(?:setting|option|key))?\s+(?:defaults?\s+to|"
    r"is(?:\s+set\s+to)?|=)\s+`?(?P<value>[^\s`,;()]{1,80}?)`?(?=[,;)]|\.(?:\s|$)|$|\s+"
    r"(?!(?:ms|msec|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|days?|"
    r"[kmg]i?b|bytes?)\b))", re.IGNORECASE,
)


def bind_placed_settings(
    text: str,
    start: int,
    end: int,
    fp: Fingerprint,
    files: Sequence[str],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """``section/key`` or ``[section] key`` and the value the sentence gives it, checked in
    the one settings file that gives that key in that section (``anchors.infra_binding``
    decides which sentences state what the files say now)."""
    found: list[Binding] = []
    for m in _PLACED.finditer(text, start, end):
        if any(a <= m.start("value") < b for a, b in taken):
            continue
        anchor = _value_anchor(fp, files, m["section"] or m["sec"], m["key"], m["value"])
        if anchor is not None:
            named = f"{m['sec']}/{m['key']}" if m["sec"] else m["key"]  # how the note names it
            found.append(Binding(anchor, named, m.span("value")))
    return found


# "port 465", "timeout of 30", "limit is 2": the setting's own word right before a number
_KEYED_NUMBER = re.compile(
    r"\b(?P<key>[A-Za-z][\w\-]{1,40})(?:\s+(?:of|is|to|at|=|:))?\s+`?(?P<value>\d+(?:\.\d+)?)`?"
    r"(?![\w.:/%]|\.\d)"
)
_WORD = re.compile(r"[A-Za-z][\w\-]*")


def bind_named_settings(
    text: str,
    start: int,
    end: int,
    fp: Fingerprint,
    files: Sequence[str],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """ "SMTP defaults to port 465": a number after a setting's own word, in a sentence
    that names the setting's section ("smtp", "moderation"), checked against the one
    settings file that gives ``section.word`` (``anchors.infra_binding`` decides which
    sentences state what the files say now)."""
    words = {w.lower() for w in _WORD.findall(text, start, end)}
    found: list[Binding] = []
    for m in _KEYED_NUMBER.finditer(text, start, end):
        if any(a <= m.start("value") < b for a, b in taken):
            continue
        key = m.group("key").lower()
        sections = {v.key.rpartition(".")[0] for path in files for v in fp.infra.get(path) or ()
                    if v.key.rpartition(".")[2] == key}  # fmt: skip
        named = [s for s in sections if s and s.lower() in words and s.lower() != key]
        if len(named) != 1:
            continue
        place = _setting(fp, files, named[0], key)
        if place is None or "=" in place[0] or "::" in place[0]:
            continue
        path, setting = place
        anchor = Anchor(AnchorKind.CONFIG, setting, scope=path, version=m.group("value"))
        found.append(Binding(anchor, m.group("key"), m.span("value")))
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
    if len(places) > 1:  # the application's own file, not a sample or a developer's copy
        places = {(path, key) for path, key in places if _primary(path)}
    return places.pop() if len(places) == 1 else None


_SECONDARY = re.compile(
    r"(?:^|[._\-])(?:sample|example|dev|devel|test|tests|local|demo)(?:$|[._\-])"
)


def _primary(path: str) -> bool:
    """Whether ``path`` is the settings the application ships, not an example of them:
    nothing in a contrib, example, test or docs folder, nor a name saying sample or dev."""
    directory, _, name = path.rpartition("/")
    folders = set(directory.lower().split("/")) if directory else set()
    return not (folders & _ASIDE or tool_area(directory) or subproject_of(path)
                or _SECONDARY.search(name.lower().rpartition(".")[0]))  # fmt: skip


_ASIDE = frozenset({"contrib", "examples", "example", "samples", "sample", "extras", "share"})
