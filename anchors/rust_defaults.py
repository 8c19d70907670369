"""Defaults a note states of Rust, Go and JavaScript code, bound to what the code gives them
(read by ``anchors.rustfacts``, ``anchors.gofacts`` and ``anchors.jsfacts``):

- **an enum's default variant**: "logs go to stdout by default (``Target::Stdout`` is the
  ``#[default]``)" is ``symbol:PATH::Target.default=Stdout``, where one file gives
  ``Target`` a default (its ``#[default]`` variant, or an ``impl Default`` returning
  ``Self::Variant``);
- **a struct field's default** in its ``impl Default``: "continuation lines are indented 2
  spaces by default (``format_indent: Some(2)``)" is
  ``symbol:PATH::Builder.default.format_indent=Some(2)``, where the types whose
  ``default()`` sets a field so named give it one literal (``Some(literal)`` and ``None``
  too), or the one file the sentence names does; likewise what a Rust ``new`` or a Go
  ``New...`` function's struct literals give a field ("sessions last 30 days by default
  (``MaxAge: 86400 * 30``)"), and a key of what JavaScript code calls its defaults
  ("(leading: true in src/debouncer.ts)" of ``defaultOptions``), a build's copy left out;
- **a true or false field said in its own words**: "MatchOptions::new is case insensitive
  by default" is ``symbol:PATH::MatchOptions.default.case_sensitive=false``.

Only in a sentence that says "default", is no question, plan, condition or negation, and
names one variant of the enum. The words bound (the path, the variant as prose writes it,
the field) are the binding's: the extractor anchors nothing else on them, and a number the
sentence repeats ("indented 2 spaces ... Some(2)") is the value said twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint, ValueFact
from anchors.literals import QUALIFIED_NAME
from anchors.manifest_binding import ManifestBinding
from anchors.spec import Anchor, AnchorKind
from anchors.subject import named_file
from anchors.tooling_dirs import built_copy
from anchors.value_claims import stated_values

__all__ = ["bind_rust_defaults"]

_I = re.IGNORECASE
_DEFAULT = re.compile(r"\bdefault(?:s|ed)?\b|#\[default\]", _I)
_NOT_PLAIN = re.compile(
    r"\b(?:if|unless|whether|should|would|could|might|will|was|were|not|no|never|n['’]t|"
    r"no\s+longer|used\s+to|previously|formerly|plan\w*|propos\w*|consider\w*|instead)\b"
    r"|n['’]t\b",
    _I,
)
_VARIANT = re.compile(r"`?(?<![\w:])(?P<type>[A-Z]\w*)::(?P<variant>[A-Z]\w*)`?(?![\w:(])")
_VALUE = (r"Some\(\s*[^()\s]{1,40}\s*\)|None|true|false|\"[^\"\n]{0,80}\"|'[^'\n]{0,80}'"
          r"|-?\d+(?:\.\d+)?(?:\s*[*+]\s*(?:\d+(?:\.\d+)?|time\.[A-Z][a-z]+))*"
          rf"|{QUALIFIED_NAME.pattern}")  # ``86400 * 30``, ``5 * time.Second``, ``time.Local``
_FIELD = re.compile(
    rf"`?(?<![\w.:])(?P<field>[A-Za-z_][A-Za-z0-9_]*)`?\s*(?::|=|\s+(?:is|defaults\s+to))\s*`?"
    rf"(?P<value>{_VALUE})`?(?![\w.])"
)


def bind_rust_defaults(
    text: str, fp: Fingerprint, spans: Sequence[tuple[int, int, bool]]
) -> list[ManifestBinding]:
    """The value anchors of the defaults ``text`` states (see the module docstring)."""
    if not fp.derived("rust_defaults.any", _has_defaults):
        return []
    out: list[ManifestBinding] = []
    for start, end, question in spans:
        sentence = text[start:end]
        if question or not _DEFAULT.search(sentence) or _NOT_PLAIN.search(sentence):
            continue
        out += _variants(text, start, end, fp)
        out += _fields(text, start, end, fp)
        out += _flags(text, start, end, fp)
    return out


_TYPE_WORD = re.compile(r"`?(?<![\w.:])(?P<type>[A-Z]\w*)(?:::\w+)?`?")
_CAMEL_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# Prefixes that turn a word into its opposite: "case insensitive", "non-blocking".
_OPPOSITE = r"(?:in|un|non-?)"


def _flags(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    """"MatchOptions::new is case sensitive by default": a true or false field of a type the
    sentence names, said in the field's own words (``case_sensitive``, ``CaseSensitive``), or
    their opposite ("case insensitive", "non-blocking"), which states false."""
    out: list[ManifestBinding] = []
    flags = fp.derived("rust_defaults.flags", _flag_fields)
    for t in _TYPE_WORD.finditer(text, start, end):
        for path, v in flags.get(t["type"], ()):
            words = [w.lower() for w in _CAMEL_PART.findall(v.name.partition(".default.")[2])]
            if not words:
                continue
            joined = r"[\s_-]?".join(re.escape(w) for w in words[:-1])
            last = re.escape(words[-1])
            pattern = re.compile(
                rf"\b(?:(?P<neg1>{_OPPOSITE}){joined}[\s_-]?{last}|{joined}[\s_-]?"
                rf"(?P<neg2>{_OPPOSITE})?{last})\b" if joined else
                rf"\b(?P<neg1>{_OPPOSITE})?{last}\b", re.IGNORECASE)  # fmt: skip
            m = pattern.search(text, t.end(), end)
            if m is None:
                continue
            said = "false" if (m["neg1"] or m.groupdict().get("neg2")) else "true"
            anchor = Anchor(AnchorKind.SYMBOL, v.name, scope=path, version=said)
            if all(b.anchor != anchor for b in out):
                out.append(ManifestBinding(anchor, m.group(), m.span(), (start, end),
                                           frozenset(m.group().split())))  # fmt: skip
    return out


def _flag_fields(fp: Fingerprint) -> dict[str, list[tuple[str, ValueFact]]]:
    """The true or false defaults of Rust and Go fields (``MatchOptions.default.x``), by the
    type's name."""
    found: dict[str, list[tuple[str, ValueFact]]] = {}
    for path, facts in fp.code.items():
        if facts.language not in ("rust", "go"):
            continue
        for v in facts.constants:
            owner, sep, _ = v.name.partition(".default.")
            if sep and v.text in ("true", "false"):
                found.setdefault(owner.rpartition(".")[2], []).append((path, v))
    return found


def _a_default(name: str, field: str) -> bool:
    """Whether ``name`` is a default of ``field``: a Rust or Go type's (``T.default.field``)
    or a key of what JavaScript code calls its defaults (``defaultOptions.field``)."""
    owner, _, last = name.rpartition(".")
    return last == field and "default" in owner.lower()


def _has_defaults(fp: Fingerprint) -> bool:
    return any(facts.language in ("rust", "go", "javascript", "typescript")
               and any("default" in v.name.lower() and "." in v.name for v in facts.constants)
               for facts in fp.code.values())  # fmt: skip


def _variants(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    found = list(_VARIANT.finditer(text, start, end))
    out: list[ManifestBinding] = []
    for m in found:
        enum, variant = m["type"], m["variant"]
        if len({f["variant"] for f in found if f["type"] == enum}) != 1:
            continue  # "Pipe falls back to Target::Stderr, not Target::Stdout": which one?
        given = {(p, v.name) for p, v in fp.constant_values(f"{enum}.default")
                 if v.text is not None}  # fmt: skip
        if len(given) != 1:
            continue
        [(path, name)] = given
        anchor = Anchor(AnchorKind.SYMBOL, name, scope=path, version=variant)
        if any(b.anchor == anchor for b in out):
            continue
        words = frozenset({m.group().strip("`"), variant, variant.lower()})
        span = (m.start("variant"), m.end("variant"))
        out.append(ManifestBinding(anchor, m.group().strip("`"), span, (start, end), words))
    return out


def _fields(text: str, start: int, end: int, fp: Fingerprint) -> list[ManifestBinding]:
    out: list[ManifestBinding] = []
    named = named_file(text, start, end, fp)  # "(leading: true in src/debouncer.ts)"
    for m in _FIELD.finditer(text, start, end):
        field = m["field"]
        held = {(p, v.name, v.text) for p, v in fp.members_named(field)
                if _a_default(v.name, field) and v.text is not None
                and not built_copy(p, fp)}  # fmt: skip
        if named is not None:
            held = {(p, n, t) for p, n, t in held if p == named}
        if not held or len({t for _, _, t in held}) != 1:
            continue  # none, or defaults that differ: which one is meant cannot be told
        path, name, _ = min(held)
        value = re.sub(r"\s+", "", m["value"])
        if re.search(r"[*+]", value):  # arithmetic as the facts spell it: ``86400 * 30``
            value = re.sub(r"\s*([*+])\s*", r" \1 ", m["value"].strip())
        anchor = Anchor(AnchorKind.SYMBOL, name, scope=path, version=value)
        inner = value.removeprefix("Some(").removesuffix(")")
        span = (m.start("value"), m.end("value"))
        # "indented 2 spaces by default (format_indent: Some(2))": the value said twice
        said = [(v.start, v.end) for v in stated_values(text)
                if start <= v.start < end and (v.text.strip("`") == inner
                                               or span[0] <= v.start < span[1])]  # fmt: skip
        binding = ManifestBinding(anchor, field, span, (start, end), frozenset({field}),
                                  tuple(said))  # fmt: skip
        out.append(binding)
    return out
