"""Values a note states of a JavaScript/TypeScript project's own configuration, bound to the
file that says them (issue #32): "package.json pins engines.node >= 18", "the repository
pins yarn 4 (packageManager yarn@4.x)", "the tsconfig compiles to ES2020".

Called by ``anchors.infra_binding.bind_infra`` for each plain sentence (no negation, plan
or elsewhere: that function's filters apply). A value is bound only when the sentence
names the thing it is a value of:

- ``engines.<tool>``: the words ``engines.node`` / ``engines`` … ``node`` and a range or a
  version after them; the ``package.json`` the sentence names by path, else the root's,
  else the one stating the key;
- ``packageManager``: ``yarn@4.x`` / ``yarn 4`` / ``pnpm 8.6`` in a sentence that speaks of
  the package manager (``packageManager``, "package manager", Corepack) or pins it; the
  ``package.json`` stating it (the root's first);
- a tsconfig's ``compilerOptions.target`` / ``module`` / ``strict``: an ECMAScript edition
  or a module system in a sentence that names the tsconfig or the TypeScript compiler;
  the tsconfig the sentence names, else the root's, following ``extends`` to the file
  that states the option.

Each binding is a ``config:PATH::KEY=VALUE`` anchor (compared by ``anchors.infra_compare``;
a ``package.json`` that states no ``engines.node`` refutes it, ``anchors.toolchain_files``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import Binding

__all__ = ["bind_npm_values"]

_I = re.IGNORECASE
_RANGE = r"(?:[<>]=?|[\^~=])?\s*v?\d+(?:\.(?:\d+|x|\*)){0,2}"
# "engines.node >= 18", "the engines field requires node >=20", "engines: node 18+"
_ENGINES = re.compile(
    r"\bengines?(?:\.|\s+(?:field|entry|key)?\s*(?:(?:of|in|for|requires?|pins?|says?|sets?|"
    r"declares?|is|:)\s*)*(?:the\s+)?)`?[\"']?(?P<tool>node|npm|yarn|pnpm|bun|vscode)[\"']?`?"
    r"(?:\s*(?:version\s+)?(?:is|=|:|at|to|of|as|requires?|set\s+to|pinned\s+to|must\s+be)\s*)*"
    rf"\s*[`\"']?(?P<v>{_RANGE}(?:\s*(?:\|\||-)\s*{_RANGE})?)(?P<plus>\+|\s+or\s+(?:newer|later|"
    r"higher|above))?",
    _I,
)
_MANAGER_CUE = re.compile(
    r"\bpackage\s*manager\b|\bpackageManager\b|\bcorepack\b|\bpin(?:s|ned)?\b", _I
)
_EXPLICIT_MANAGER = re.compile(r"\bpackageManager\b", _I)
_MANAGER = re.compile(
    r"(?<![\w@/-])(?P<tool>yarn|pnpm|npm|bun)(?:@|\s+v?(?=\d))(?P<v>\d+(?:\.(?:\d+|x|\*)){0,2})"
    r"(?![\w.@-])",
    _I,
)
_TSCONFIG_CUE = re.compile(
    r"\b[\w.-]*[tj]sconfig[\w.-]*\b|\btypescript\s+compiler\b|\btsc\b"
    r"|\btypescript\b.*\b(?:compil\w*|targets?|emits?|transpil\w*)\b",
    _I,
)
_NAMED_TSCONFIG = re.compile(r"(?<![\w/.-])(?P<p>(?:[\w.-]+/)*[tj]sconfig[\w.-]*\.json)\b", _I)
_EDITION = re.compile(r"(?<![\w-])(?P<v>ES(?:3|5|6|7|8|9|1[0-3]|20[12]\d)|ESNext)(?![\w-])", _I)
_MODULE_SYSTEM = re.compile(
    r"(?<![\w-])(?P<v>CommonJS|AMD|UMD|Node16|Node18|NodeNext|Preserve)(?![\w-])", _I
)
_MODULE_WORD = re.compile(r"\bmodules?\b", _I)
_STRICT = re.compile(
    r"\bstrict(?:\s+mode)?\s*(?:is\s+)?(?:on|enabled|true|turned\s+on)\b"
    r"|\bstrict\s*:\s*true\b|\b(?:enables?|uses?|turns?\s+on|compiles?\s+in|runs?\s+in)\s+"
    r"(?:the\s+)?strict(?:\s+mode)?\b",
    _I,
)
_NAMED_MANIFEST = re.compile(r"(?<![\w/.-])(?P<p>(?:[\w.-]+/)+package\.json)\b")


def bind_npm_values(text: str, start: int, end: int, fp: Fingerprint,
                    taken: Sequence[tuple[int, int]] = ()) -> list[Binding]:  # fmt: skip
    """The ``config:`` anchors the sentence ``text[start:end]`` supports (the module
    docstring); ``taken`` are value spans another anchor checks already."""
    sentence = text[start:end]
    out: list[Binding] = []
    if _MANAGER_CUE.search(sentence):
        out += _package_manager(text, start, end, fp)
    if _TSCONFIG_CUE.search(sentence):
        out += _tsconfig(text, start, end, fp)
    out = [b for b in out if not any(a <= b.span[0] < z for a, z in taken)]
    # "engines.node >= 18" names the key: it answers the version read after "node" too
    return out + (_engines(text, start, end, fp) if "ngine" in sentence else [])


def _manifest(sentence: str, fp: Fingerprint, key: str, *, explicit: bool) -> str | None:
    """The ``package.json`` the sentence is about: the one it names by path, else the
    root's, else the one stating ``key``. A manifest that states no such key is picked only
    when the sentence names the key itself (``explicit``): its absence then refutes."""
    named = [m["p"] for m in _NAMED_MANIFEST.finditer(sentence) if m["p"] in fp.infra]
    if len(named) == 1:
        return named[0] if explicit or _states(fp, named[0], key) else None
    if named:
        return None
    if "package.json" in fp.infra and (explicit or _states(fp, "package.json", key)):
        return "package.json"
    having = [p for p in _files(fp, InfraKind.PACKAGE_JSON) if _states(fp, p, key)]
    return having[0] if len(having) == 1 else None


def _engines(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    out = []
    for m in _ENGINES.finditer(text, start, end):
        key = f"engines.{m['tool'].lower()}"
        path = _manifest(text[start:end], fp, key, explicit=True)
        if path is None or fp.infra.get(path) is None:
            continue
        value = re.sub(r"\s+", "", m["v"]) if "||" not in m["v"] else m["v"].strip()
        if m["plus"] and value[:1].isdigit():
            value = f">={value}"
        anchor = _anchor(path, key, value)
        if anchor is not None:
            out.append(Binding(anchor, key, (m.start("v"), m.end())))
    return out


def _package_manager(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    sentence = text[start:end]
    explicit = _EXPLICIT_MANAGER.search(sentence) is not None
    path = _manifest(sentence, fp, "packageManager", explicit=explicit)
    if path is None or fp.infra.get(path) is None:
        return []
    out = []
    for m in _MANAGER.finditer(text, start, end):
        anchor = _anchor(path, "packageManager", f"{m['tool'].lower()}@{m['v']}")
        if anchor is not None:
            out.append(Binding(anchor, "packageManager", (m.start("v"), m.end("v"))))
    return out


def _tsconfig(text: str, start: int, end: int, fp: Fingerprint) -> list[Binding]:
    sentence = text[start:end]
    named = [m["p"] for m in _NAMED_TSCONFIG.finditer(sentence)]
    files = _files(fp, InfraKind.TSCONFIG)
    if named:
        picked = [p for p in files if p in named or p.rpartition("/")[2] in named]
        if len(picked) != 1:
            return []
        path = picked[0]
    elif "tsconfig.json" in files:
        path = "tsconfig.json"
    elif len(files) == 1:
        path = files[0]
    else:
        return []
    out = []
    for m in _EDITION.finditer(text, start, end):
        # "ES2020 modules", "module ES2020": the module system; else the target
        before = text[max(start, m.start() - 20) : m.start()]
        module = _MODULE_WORD.search(before) or _MODULE_WORD.match(text, m.end() + 1)
        out += _option(fp, path, "module" if module else "target", m["v"], m.span("v"))
    for m in _MODULE_SYSTEM.finditer(text, start, end):
        out += _option(fp, path, "module", m["v"], m.span("v"))
    for m in _STRICT.finditer(text, start, end):
        out += _option(fp, path, "strict", "true", m.span())
    return out


def _option(fp: Fingerprint, path: str, option: str, value: str,
            span: tuple[int, int]) -> list[Binding]:  # fmt: skip
    """The binding of a compiler option to the tsconfig that states it: ``path``, or the
    configuration it extends (followed within the repository, a few steps at most)."""
    key = f"compilerOptions.{option}"
    here = path
    for _ in range(4):
        if _states(fp, here, key):
            break
        bases = [v.text for v in fp.infra.get(here) or () if v.key == "extends" and v.text]
        base = _extended(here, bases[0], fp) if len(bases) == 1 else None
        if base is None:
            break  # stated nowhere it can be followed: ``here`` says what it can
        here = base
    anchor = _anchor(here, key, value)
    return [Binding(anchor, key, span)] if anchor is not None else []


def _extended(path: str, base: str, fp: Fingerprint) -> str | None:
    """The tracked tsconfig ``base`` (as ``extends`` writes it) names, relative to
    ``path``; None for a package's configuration (``@tsconfig/node18``)."""
    if not base.startswith("."):
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), base))
    for candidate in (joined, f"{joined}.json"):
        if candidate in fp.infra and fp.infra[candidate] is not None:
            return candidate
    return None


def _files(fp: Fingerprint, kind: InfraKind) -> list[str]:
    return [p for p in sorted(fp.infra) if infra_kind(p) is kind and fp.infra[p] is not None]


def _states(fp: Fingerprint, path: str, key: str) -> bool:
    return any(v.key == key for v in fp.infra.get(path) or ())


def _anchor(path: str, key: str, value: str) -> Anchor | None:
    if "=" in path or "::" in path or not value:
        return None  # the anchor's syntax could not carry it
    return Anchor(AnchorKind.CONFIG, key, scope=path, version=value)
