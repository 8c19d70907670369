"""A setting an application's YAML settings file gives, as a note states it: "the default
`plugin_directories.trash` in maubot/example-config.yaml is ./plugins/trash", "the listen
port is 8080 (`server.port` in the example config)", "`postgres_max_conns_per_plugin`
defaults to 10 in the example config".

The key is written as code (in backticks, dotted, or in snake_case) and matched against the
dotted keys the file gives (``anchors.infra_facts``): whole, or as the last parts of one
(``postgres_max_conns_per_plugin`` of ``plugin_databases.postgres_max_conns_per_plugin``).
The value is the one the sentence gives the key: after it ("is", "=", "defaults to",
past a place "in ..."), right before a parenthesis that names the key, or with it in
backticks as YAML writes it (`server.port: 29316`). The sentence
must say which file, or speak of a config or settings file; the key must be given by one
file only. The value is then checked by a ``config:`` anchor on that file and key: the
same value holds, another one breaks (``anchors.infra_check``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["bind_yaml_settings"]

_I = re.IGNORECASE
# A key written as code: in backticks, dotted, or snake_case
_KEY = re.compile(
    r"`(?P<t>[A-Za-z_][\w\-]*(?:\.[\w\-]+){0,6})`"
    r"|(?<![\w.`/\-])(?P<w>[A-Za-z_][\w\-]*(?:\.[A-Za-z_][\w\-]*){1,6}|[a-z][a-z0-9]*_[a-z0-9_]+)"
    r"(?![\w`/\-]|\.\w)"
)
_UNIT = (r"(?:ms|msec|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|days?|"
         r"[kmg]i?b|bytes?|mb|gb)\b")  # fmt: skip
_VALUE = (r"[`'\"]?(?P<v>[^\s`'\",;()]{1,120}?)[`'\"]?"
          rf"(?=[,;)]|\.(?:\s|$)|$|\s+(?!{_UNIT}))")  # fmt: skip
# after the key: a place named on the way, then the copula and the value
_AFTER = re.compile(
    r"`?(?:\s+(?:setting|option|key|value))?(?:\s+(?:in|of|from)\s+[^,;()]{1,60}?)?\s*"
    rf"(?:is(?:\s+set\s+to)?|defaults?\s+to|=|:|(?:is\s+)?set\s+to)\s+{_VALUE}",
    _I,
)
# before a parenthesis that names the key: "is 8080 (`server.port` in ...)"
_PAREN_VALUE = re.compile(r"(?:is|of|defaults?\s+to|=)\s+[`'\"]?(?P<v>[^\s`'\",;()]{1,120}?)"
                          r"[`'\"]?\s*\(\s*`?$", _I)  # fmt: skip
# "`server.port: 29316`": the key and its value as the file writes them
_INLINE = re.compile(r"`(?P<k>[A-Za-z_][\w\-]*(?:\.[\w\-]+){0,6}):\s*(?P<v>[^`\s][^`]{0,119})`")
_YAML_PATH = re.compile(r"[\w./\-]+\.ya?ml\b", _I)
_CONFIG_WORD = re.compile(r"\b(?:config|configuration|settings|yaml)\b", _I)


def bind_yaml_settings(
    text: str,
    start: int,
    end: int,
    fp: Fingerprint,
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:
    """The ``config:`` anchors on YAML settings files that the sentence ``text[start:end]``
    supports (the module docstring); ``taken``: value spans another anchor checks already."""
    files = fp.derived("yaml_binding.files", _settings_files)
    if not files:
        return []
    sentence = text[start:end]
    named = [_named_file(m.group(), files, fp) for m in _YAML_PATH.finditer(sentence)]
    if any(n is None for n in named):
        return []  # a YAML file the settings files are not: a workflow, a compose file
    if named:
        files = tuple(dict.fromkeys(n for n in named if n is not None))
    elif not _CONFIG_WORD.search(sentence):
        return []
    found: list[Binding] = []
    for m in _INLINE.finditer(text, start, end):
        place = _place(fp, files, m["k"])
        if place is not None and not any(a <= m.start("v") < b for a, b in taken):
            anchor = Anchor(AnchorKind.CONFIG, place[1], scope=place[0],
                            version=m["v"].strip().strip("'\""))
            found.append(Binding(anchor, m["k"], m.span("v")))
    for m in _KEY.finditer(text, start, end):
        name = m["t"] or m["w"]
        if any(a <= m.start() < b for a, b in taken) or _YAML_PATH.fullmatch(name):
            continue
        value = _AFTER.match(text, m.end(), end)
        if value is None and text[max(start, m.start() - 2) : m.start()].endswith("("):
            value = _PAREN_VALUE.search(text, start, m.start())
        if value is None or any(a <= value.start("v") < b for a, b in taken):
            continue
        place = _place(fp, files, name)
        if place is None:
            continue
        path, key = place
        anchor = Anchor(AnchorKind.CONFIG, key, scope=path, version=value["v"].rstrip("."))
        found.append(Binding(anchor, name, value.span("v")))
    return found


def _settings_files(fp: Fingerprint) -> tuple[str, ...]:
    return tuple(p for p in fp.infra if infra_kind(p) is InfraKind.YAML_SETTINGS)


def _named_file(written: str, files: Sequence[str], fp: Fingerprint) -> str | None:
    """The settings file a path of the sentence names: tracked as written, or the one
    settings file of that base name."""
    tracked = fp.tracked_path(written.rstrip("."))
    if tracked is not None:
        return tracked if tracked in files else None
    base = written.rsplit("/", 1)[-1]
    same = [p for p in files if p.rsplit("/", 1)[-1] == base]
    return same[0] if len(same) == 1 else None


def _place(fp: Fingerprint, files: Sequence[str], name: str) -> tuple[str, str] | None:
    """The one (file, dotted key) that gives ``name``, whole or as its last parts."""
    places = {(path, v.key) for path in files for v in fp.infra.get(path) or ()
              if v.key == name or v.key.endswith(f".{name}")}  # fmt: skip
    if len(places) != 1:
        return None
    path, key = places.pop()
    return None if "=" in path or "::" in path or "=" in key else (path, key)
