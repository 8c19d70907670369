"""What a note says a ``Cargo.toml`` or a ``go.mod`` states beyond its dependencies, bound
to the file (``config:PATH::KEY``, values read by ``anchors.toolchain_files`` and
``anchors.cargo_toml.cargo_values``):

- **default features**: "the default features are just color and humantime" is the exact
  set (``features.default=color,humantime``, compared as one sorted list); without "just"
  or "only" ("the default features include humantime", "humantime is a default feature")
  each named feature is one of them (``features.default.humantime``); "regex is not a
  default feature" the opposite (``!config:...::features.default.regex``); "the crate has
  no default features" none (``!config:...::features.default``).
- **docs.rs**: "docs.rs builds the documentation with all features" is
  ``config:Cargo.toml::package.metadata.docs.rs.all-features``.
- **the build script**: "the crate has no build script" is ``package.build = false`` where
  the file says so, else no ``build.rs`` beside it and no ``package.build``; "has a build
  script" the file ``package.build`` names, else ``build.rs``, as Cargo finds it.
- **a key the file does not state**: "the crate declares no MSRV (no rust-version in
  Cargo.toml)" is ``!config:Cargo.toml::package.rust-version``, "go.mod has no toolchain
  line" ``!config:go.mod::go-toolchain``; "declares an MSRV" with no version the key
  present (a stated version is ``anchors.infra_binding``'s).

Bound only where the repository has one such manifest (or the sentence names the one), it
was read, and the sentence is no plan, question or condition. The feature names and the
key's words are the binding's: the extractor anchors nothing else on them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from anchors.cargo_toml import default_features
from anchors.facts import Fingerprint
from anchors.infra_facts import InfraKind, infra_kind
from anchors.spec import Anchor, AnchorKind, Expect

__all__ = ["ManifestBinding", "bind_manifest"]

_I = re.IGNORECASE


class ManifestBinding(NamedTuple):
    """A ``config:`` anchor read from one sentence (``sentence``: its span), the value's
    span, and the words of the text it reads (no other anchor is made of them)."""

    anchor: Anchor
    name: str
    span: tuple[int, int]
    sentence: tuple[int, int]
    names: frozenset[str]
    also: tuple[tuple[int, int], ...] = ()  # other spans of the same value ("2 ... Some(2)")


_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|whether|should|would|could|might|will|plan\w*|propos\w*|consider\w*|"
    r"want|wants|going\s+to|todo|eventually|used\s+to|previously|formerly)\b",
    _I,
)
_NEGATION = re.compile(r"\b(?:not|no|never|n['’]t|without|except)\b", _I)
_FEATURE = r"`?[A-Za-z0-9][\w\-]*(?:/[\w\-]+)?`?"
_LIST = rf"(?P<list>{_FEATURE}(?:\s*,\s*(?:and\s+)?{_FEATURE}|\s+and\s+{_FEATURE})*)"
# "the default features are (just) a, b and c", "default features: a, b"
_DEFAULTS_ARE = re.compile(
    r"\b(?:the\s+)?(?:crate['’]s\s+|cargo\s+)?default\s+features?\s+(?:are|is|include|includes|"
    r"including|consist\s+of|:)\s+(?P<only>(?:just|only|exactly)\s+)?(?:the\s+)?" + _LIST
    + r"(?![\w\-/])",
    _I,
)
# "color and humantime are (the only) default features", "regex is not a default feature"
_ARE_DEFAULTS = re.compile(
    _LIST + r"\s+(?:is|are)\s+(?P<neg>not\s+|no\s+longer\s+)?(?:(?P<only>the\s+only)\s+|"
    r"(?:one\s+of\s+|among\s+)?the\s+|an?\s+)?(?:crate['’]s\s+)?default\s+features?\b",
    _I,
)
# "the std feature is on by default", "the `color` feature is disabled by default"
_ON_BY_DEFAULT = re.compile(
    r"\b(?:the\s+)?(?P<list>" + _FEATURE + r")\s+(?:cargo\s+)?feature\s+is\s+(?:(?P<on>on|enabled|"
    r"active|turned\s+on)|(?P<neg>off|disabled|not\s+enabled|turned\s+off))\s+by\s+default\b",
    _I,
)
_NO_DEFAULTS = re.compile(
    r"\b(?:has|have|declares?|enables?)\s+no\s+default\s+features?\b"
    r"|\bdefault\s+features?\s+(?:are|is)\s+empty\b",
    _I,
)
# A manifest key in words, and the file kind and key that state it
_KEYS: tuple[tuple[str, InfraKind, str], ...] = (
    (r"msrv|rust-version|minimum\s+supported\s+rust\s+version", InfraKind.CARGO_TOML,
     "package.rust-version"),
    (r"toolchain\s+(?:line|directive)", InfraKind.GO_MOD, "go-toolchain"),
)  # fmt: skip
_NEGATED_KEY = (
    r"(?:\b(?:declares?|sets?|specif(?:y|ies)|has|have|states?|pins?|is|are)\s+no"
    r"|\b(?:does\s*not|doesn[’']t|never)\s+(?:declare|set|specify|have|state|pin)"
    r"(?:\s+(?:an?|any))?|\bwithout(?:\s+(?:an?|any))?|^\W*no|[(,;]\s*no)\s+`?(?:{key})`?"
    r"(?=\s*(?:[.,;:()]|$|(?:in|at|set|declared|field|key|entry)\b))"
)
# ... "declares an MSRV." but not "has an MSRV policy": the key, and nothing said of it
_PRESENT_KEY = (
    r"\b(?:declares?|sets?|specif(?:y|ies)|has|states?)\s+(?:an?\s+|its\s+)`?(?:{key})`?"
    r"(?=\s*(?:[.,;:()]|$|in\b))"
)
_VERSION = re.compile(r"\b\d+\.\d+")


def bind_manifest(text: str, fp: Fingerprint,
                  spans: Sequence[tuple[int, int, bool]]) -> list[ManifestBinding]:  # fmt: skip
    """The ``config:`` anchors ``text`` supports (see the module docstring)."""
    if not fp.derived("manifest_binding.files", _read_manifests):
        return []
    out: list[ManifestBinding] = []
    for start, end, question in spans:
        sentence = text[start:end]
        if question or _NOT_PLAIN.search(sentence):
            continue
        out += _features(text, start, end, fp)
        out += _gates(text, start, end, fp)
        out += _keys(text, start, end, fp)
        out += _docs_rs(text, start, end, fp)
        out += _build_script(text, start, end, fp)
    return out


def _read_manifests(fp: Fingerprint) -> dict[InfraKind, list[str]]:
    """The read ``Cargo.toml`` and ``go.mod`` files by kind, sorted (once per fingerprint)."""
    found: dict[InfraKind, list[str]] = {}
    for path in sorted(fp.infra):
        kind = infra_kind(path)
        if kind in (InfraKind.CARGO_TOML, InfraKind.GO_MOD) and fp.infra[path] is not None:
            found.setdefault(kind, []).append(path)
    return found


def _manifest(fp: Fingerprint, kind: InfraKind, sentence: str) -> str | None:
    """The one read manifest of ``kind``: the only one, the one whose path the sentence
    names, or the root one."""
    files = fp.derived("manifest_binding.files", _read_manifests).get(kind, [])
    named = [p for p in files if "/" in p and p in sentence]
    if len(named) == 1:
        return named[0]
    if len(files) == 1:
        return files[0]
    root = {InfraKind.CARGO_TOML: "Cargo.toml", InfraKind.GO_MOD: "go.mod"}[kind]
    return root if root in files else None


def _names(listed: str) -> list[str]:
    return [n.strip("`") for n in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", listed) if n.strip()]


def _features(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    sentence = text[start:end]
    if "default" not in sentence.lower():
        return []
    path = _manifest(fp, InfraKind.CARGO_TOML, sentence)
    if path is None:
        return []
    out: list[ManifestBinding] = []
    for m in _NO_DEFAULTS.finditer(text, start, end):
        anchor = Anchor(AnchorKind.CONFIG, "features.default", Expect.ABSENT, scope=path)
        out.append(ManifestBinding(anchor, m.group(), m.span(), (start, end), frozenset()))
    if out:
        return out
    for pattern in (_DEFAULTS_ARE, _ARE_DEFAULTS, _ON_BY_DEFAULT):
        for m in pattern.finditer(text, start, end):
            names = _names(m["list"])
            neg = bool(m.groupdict().get("neg"))
            rest = text[m.end() : end] if pattern is _DEFAULTS_ARE else text[start : m.start()]
            if not names or (not neg and _NEGATION.search(text, start, end)) or (
                    neg and _NEGATION.search(rest)):  # fmt: skip
                continue
            span = m.span("list")
            words = frozenset(names)
            if m.groupdict().get("only") and not neg:
                value = default_features(names)
                anchor = Anchor(AnchorKind.CONFIG, "features.default", scope=path, version=value)
                out.append(ManifestBinding(anchor, m["list"], span, (start, end), words))
                continue
            expect = Expect.ABSENT if neg else Expect.PRESENT
            # "is on by default": the state said is the value the anchor checks
            state = next((m.span(g) for g in ("on", "neg") if m.groupdict().get(g)), None)
            for name in names:
                anchor = Anchor(AnchorKind.CONFIG, f"features.default.{name}", expect, scope=path)
                out.append(ManifestBinding(anchor, name, span, (start, end), words,
                                           (state,) if state else ()))  # fmt: skip
        if out:
            return out
    return out


_ITEM = r"`?[A-Za-z0-9][\w\-]*(?::[\w\-]+)?\??(?:/[\w\-]+)?`?"
_ITEMS = rf"(?P<list>{_ITEM}(?:\s*,\s*(?:and\s+)?{_ITEM}|\s+and\s+{_ITEM})*)"
_GATE = (r"(?:behind|gated\s+(?:behind|on|by)|under|requires?|needs?|enabled\s+(?:by|with)|"
         r"only\s+with|available\s+(?:with|behind|under))\s+(?:the\s+)?`?(?P<f>[A-Za-z0-9][\w\-]*)`?"
         r"\s+(?:cargo\s+)?feature(?:\s+flag)?\b")  # fmt: skip
_GATES = (
    # "is behind the unstable-kv feature (log/kv)"
    re.compile(_GATE + rf"(?:\s*\((?:which\s+)?(?:enables\s+|=\s*)?{_ITEMS}\))?", _I),
    # "the color feature enables anstream and anstyle"
    re.compile(r"\bthe\s+`?(?P<f>[A-Za-z0-9][\w\-]*)`?\s+(?:cargo\s+)?feature\s+(?:enables|"
               rf"turns\s+on|pulls\s+in|activates)\s+(?:the\s+)?{_ITEMS}(?![\w\-/])", _I),
)


def _gates(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    sentence = text[start:end]
    if "feature" not in sentence.lower() or re.search(r"\b(?:not|no|never|n['’]t|without)\b",
                                                      sentence, _I):  # fmt: skip
        return []
    path = _manifest(fp, InfraKind.CARGO_TOML, sentence)
    if path is None:
        return []
    out: list[ManifestBinding] = []
    for pattern in _GATES:
        for m in pattern.finditer(text, start, end):
            feature, items = m["f"], _names(m["list"] or "")
            if feature == "default":
                continue  # the default set is ``_features``'s
            key = f"features.{feature}"
            words = frozenset({feature, *items})
            anchors = [Anchor(AnchorKind.CONFIG, key, scope=path, version=i) for i in items]
            for anchor in anchors or [Anchor(AnchorKind.CONFIG, key, scope=path)]:
                out.append(ManifestBinding(anchor, feature, m.span(), (start, end), words))
    return out


def _keys(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    sentence = text[start:end]
    out: list[ManifestBinding] = []
    for words, kind, key in _KEYS:
        path = _manifest(fp, kind, sentence)
        if path is None:
            continue
        negated = re.compile(_NEGATED_KEY.format(key=words), _I | re.MULTILINE)
        found = list(negated.finditer(sentence))
        expect = Expect.ABSENT
        if not found and not _VERSION.search(sentence):
            found = list(re.finditer(_PRESENT_KEY.format(key=words), sentence, _I))
            expect = Expect.PRESENT
        if not found:
            continue
        said = {w for m in re.finditer(rf"\b(?:{words})\b", sentence, _I) for w in (
            m.group(), *m.group().split())}  # fmt: skip
        anchor = Anchor(AnchorKind.CONFIG, key, expect, scope=path)
        m = found[0]
        out.append(ManifestBinding(anchor, m.group().strip(), (start + m.start(), start + m.end()),
                                   (start, end), frozenset({*said, path})))  # fmt: skip
    return out


# "docs.rs builds the documentation with all features", "docs.rs documents every feature"
_DOCS_RS = re.compile(
    r"\bdocs\.rs\b[^.;]{0,80}?\b(?:with|enables?|enabling|turns\s+on|documents?|using|for)\s+"
    r"(?:all|every)\s+(?:(?:the|cargo|crate['’]s|of\s+the)\s+)?features?\b",
    _I,
)
_NO_BUILD_SCRIPT = re.compile(
    r"\b(?:has|have|with|uses?|needs?|ships?)\s+no\s+build\s+script\b"
    r"|\bwithout\s+(?:a\s+|any\s+)?build\s+script\b"
    r"|\b(?:does\s*not|doesn['’]t|never)\s+(?:have|use|need|run|ship)\s+(?:a\s+|any\s+)?"
    r"build\s+script\b",
    _I,
)
_BUILD_SCRIPT = re.compile(
    r"\b(?:has|have|uses?|runs?|ships?|with)\s+a\s+build\s+script\b", _I
)
_BUILD_WORDS = frozenset({"build", "script", "build.rs", "Cargo.toml"})
_BUILD_FALSE = re.compile(r"\bbuild\s*=\s*`?false\b")


def _docs_rs(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    sentence = text[start:end]
    if "docs.rs" not in sentence.lower() or _NEGATION.search(sentence):
        return []
    path = _manifest(fp, InfraKind.CARGO_TOML, sentence)
    m = _DOCS_RS.search(text, start, end)
    if path is None or m is None:
        return []
    anchor = Anchor(AnchorKind.CONFIG, "package.metadata.docs.rs.all-features", scope=path)
    words = frozenset({"docs.rs", "all", "every", "features", "feature"})
    return [ManifestBinding(anchor, m.group(), m.span(), (start, end), words)]


def _build_script(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    sentence = text[start:end]
    if "build" not in sentence.lower():
        return []
    path = _manifest(fp, InfraKind.CARGO_TOML, sentence)
    absent = _NO_BUILD_SCRIPT.search(text, start, end)
    m = absent or _BUILD_SCRIPT.search(text, start, end)
    if path is None or m is None or (not absent and _NEGATION.search(sentence)):
        return []
    here = path.rpartition("/")[0]
    written = next((v.text for v in fp.infra.get(path) or () if v.key == "package.build"), None)
    key = Anchor(AnchorKind.CONFIG, "package.build", scope=path)
    if written == "false":
        anchors = [replace(key, version="false")] if absent else [key.negated()]
    elif written:  # ``build = "tools/build.rs"``: that file is the script
        script = f"{here}/{written}" if here else written
        anchors = [key.negated()] if absent else [Anchor(AnchorKind.FILE, script)]
    else:
        script = f"{here}/build.rs" if here else "build.rs"
        anchors = ([Anchor(AnchorKind.FILE, script, Expect.ABSENT), key.negated()] if absent
                   else [Anchor(AnchorKind.FILE, script)])  # fmt: skip
    # "(build = false)": the key as the file writes it, the same value said again
    also = tuple(w.span() for w in _BUILD_FALSE.finditer(text, start, end))
    return [ManifestBinding(a, m.group(), m.span(), (start, end), _BUILD_WORDS, also)
            for a in anchors]  # fmt: skip
