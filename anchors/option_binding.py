"""Values a note states for a command-line option, bound to the option's declaration and
checked against its default (issue #31; the declarations: ``anchors.cli_options``).

"The `--host` option defaults to 127.0.0.1", "`--rows-per-page` is 50 by default", "the
UI listens on 8080 unless `--port` is given", "50 rows per page by default
(`--rows-per-page`)", "the CLI's default port is 5000", "listens on port 5000 by
default", "binds to 0.0.0.0 by default" (``--port``, ``--host`` named by their word or
the address): the value belongs to the option,
and ``config:PATH::--port=8080`` checks it. A value is bound only when

- the option stands right before the value with "defaults to", "is" or "=", or after it in
  "unless `--port` is given" or in parentheses;
- nothing between the sentence's start and the value makes it a condition, a plan, the
  past or a negation, and nothing places it elsewhere (an example, production);
- a Python file of the repository declares that option (else it may be another program's:
  uvicorn's ``--port``, and nothing is bound).

The anchor is placed in the one file that declares the option, or left to every file when
several do: then it holds where one declaration gives the value and is refuted only when
every one gives another.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.durations import seconds
from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.literals import same_value
from anchors.spec import Anchor, AnchorKind
from anchors.value_binding import _ELSEWHERE, _NOT_PLAIN, Binding
from anchors.value_claims import StatedValue, bare_value, stated_values

__all__ = ["bind_option_names", "bind_option_values", "find_option"]

# (one dash, and capitals inside: a Go program's ``-notifyInterval``)
_OPT = r"`?(?P<opt>--?[a-z][A-Za-z0-9-]*[A-Za-z0-9])`?"
_BEFORE = re.compile(
    rf"{_OPT}\)?(?:\s+(?:option|flag|argument|switch))?(?:,?\s+(?:which|that))?\s+"
    r"(?:defaults?\s+to|falls\s+back\s+to|is|=|is\s+set\s+to)\s+[`\"“]?$",
    re.IGNORECASE,
)
_AFTER = (
    # ("(--web-port, LOCUST_WEB_PORT)": the variable that sets the option, named beside it)
    re.compile(rf"(?:\s+[A-Za-z][\w'\-]*){{0,5}}?(?:\s*,?\s*by\s+default)?\s*\(\s*{_OPT}"
               r"(?:\s*,\s*`?[A-Z][A-Z0-9]*_[A-Z0-9_]+`?)?"
               r"(?:\s+in\s+`?(?P<path>[\w./-]+?)`?)?\s*\)", re.IGNORECASE),
    re.compile(rf"(?:\s+[A-Za-z][\w'\-]*){{0,5}}?\s+unless\s+{_OPT}\s+is\s+"
               r"(?:given|set|passed|used)\b", re.IGNORECASE),
)


# "the CLI's default port is 5000", "listens on port 5000 by default": the option named by
# its word, where the repository declares ``--port`` (or ``--host``)
_WORDED = re.compile(
    r"\bdefault\s+(?P<word>port|host)\s+(?:is|=|of)\s+`?$"
    r"|\b(?:listens|runs|serves|binds)\s+(?:on\s+)?(?P<on>port|host)\s+`?$"
    r"|\b(?:listens|serves|binds)\s+(?P<to>on|to)\s+`?$",
    re.IGNORECASE,
)
# "binds to 0.0.0.0 by default": an address is the host option's value
_ADDRESS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}|localhost|::1?", re.IGNORECASE)
_BY_DEFAULT = re.compile(r"`?\s*(?:,\s*)?by\s+default\b", re.IGNORECASE)


def _worded(text: str, start: int, end: int, value: tuple[int, int]) -> str | None:
    """The option a sentence (``text[start:end]``) names by its word before the value at
    ``value``; None where the sentence names where the value is set ("(DEFAULT_PORT in
    kinto/__main__.py)"): that binding is another reader's."""
    m = _WORDED.search(text[start : value[0]])
    if m is None or ((m["on"] or m["to"]) and not _BY_DEFAULT.match(text, value[1])):
        return None
    if m["to"] and not _ADDRESS.fullmatch(text[value[0] : value[1]].strip("`")):
        return None
    if _NAMED_ELSEWHERE.search(text, start, end):
        return None
    return f"--{(m['word'] or m['on'] or 'host').lower()}"


def _qualified(option: str, sentence: str, fp: Fingerprint) -> str | None:
    """The one option the repository declares that ends with ``option``'s word and whose
    other words the sentence says ("the web UI listens on port 8080" and ``--web-port``;
    not ``--master-bind-port``), where it declares no ``option`` itself; None otherwise."""
    words = set(re.findall(r"[a-z0-9]+", sentence.lower()))
    suffix = "-" + option.removeprefix("--")
    fits = {name for name in fp.derived("option_binding.options", _options)
            if name.endswith(suffix)
            and set(name.removeprefix("--").removesuffix(suffix).split("-")) <= words}
    return fits.pop() if len(fits) == 1 else None


def _options(fp: Fingerprint) -> frozenset[str]:
    """Every long option a Python or Go file declares (``anchors.cli_options``,
    ``anchors.go_flags``)."""
    return frozenset(v.name for facts in fp.code.values() for v in facts.constants
                     if v.name.startswith("--"))  # fmt: skip


# "`--admin-user` defaults to `root`", "`-ifname` defaults to "eth0"": the value as written
_QUOTED_VALUE = re.compile(
    rf"{_OPT}\)?(?:\s+(?:option|flag|argument|switch))?\s+(?:defaults?\s+to|falls\s+back\s+to|"
    r"is|=|is\s+set\s+to)\s+(?P<q>[`\"“])(?P<v>[\w.:/@\-]{1,60})[`\"”]", re.IGNORECASE)
# "If you don't pass `-http`, dms listens on port 8200": what holds without the option
_WITHOUT = re.compile(
    rf"\b(?:if|when)\s+(?:you\s+)?(?:don[’']t|do\s+not)\s+(?:pass|give|set|use|specify)\s+"
    rf"(?:the\s+)?{_OPT}(?:\s+(?:option|flag))?,(?:\s+[A-Za-z][\w'\-]*){{0,6}}?\s+`?$",
    re.IGNORECASE)
_GO_DURATION = re.compile(r"\btime\.[A-Z][a-z]+")
_NAMED_ELSEWHERE = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|`|[\w.-]+/[\w.-]+|\w\.py\b")


# "turned on with a -systemd-socket flag", "the `--force` option": a program's option named
_NAMED_OPTION = re.compile(
    r"(?:\b(?:an?|the)\s+(?=`?--?[a-z][A-Za-z0-9-]*[A-Za-z0-9]`?\s+(?:flag|option|switch)\b)"
    rf"|\b(?:flag|option|switch)\s+){_OPT}", re.IGNORECASE)


def bind_option_names(text: str, fp: Fingerprint,
                      taken: Sequence[tuple[int, int]] = ()) -> list[Binding]:  # fmt: skip
    """``config:--NAME`` for each option a sentence says the program has (placed in the one
    file that declares it; unknown where no file the facts read declares options)."""
    found = []
    for m in _NAMED_OPTION.finditer(text):
        span = m.span("opt")
        if any(a <= span[0] < b for a, b in taken):
            continue
        option = m["opt"] if m["opt"].startswith("--") else f"-{m['opt']}"
        declared = {p for p, _ in fp.constant_values(option)}
        scope = next(iter(declared)) if len(declared) == 1 else None
        found.append(Binding(Anchor(AnchorKind.CONFIG, option, scope=scope), option, span))
    return found


def bind_option_values(
    text: str, fp: Fingerprint, spans: Sequence[tuple[int, int, bool]],
    taken: Sequence[tuple[int, int]] = (),
) -> list[Binding]:  # fmt: skip
    """The option value anchors ``text`` supports (see the module docstring)."""
    if "-" not in text and "default" not in text:
        return []
    found: list[Binding] = []
    values = stated_values(text)
    quoted = [StatedValue(m["v"], m.start("v"), m.end("v")) for m in _QUOTED_VALUE.finditer(text)]
    values = [v for v in values if not any(q.start < v.end and v.start < q.end for q in quoted)]
    for value in [*values, *quoted]:
        if any(a <= value.start < b for a, b in taken):
            continue
        sentence = next(((a, b) for a, b, question in spans if a <= value.start < b
                         and not question), None)  # fmt: skip
        if sentence is None or _ELSEWHERE.search(text, sentence[0], sentence[1]):
            continue
        before = text[sentence[0] : value.start]
        without = _WITHOUT.search(before)
        if without is not None and _NOT_PLAIN.search(before, before.rfind(",")):
            continue  # "If you don't pass `-http`, it does not listen on 8080"
        if without is None and _NOT_PLAIN.search(text, sentence[0], value.start):
            continue
        m = without or _BEFORE.search(before) or next(
            (after for p in _AFTER if (after := p.match(text, value.end, sentence[1]))), None
        )
        bare = value.text if value in quoted else bare_value(value)
        option = m.group("opt") if m is not None else _worded(
            text, sentence[0], sentence[1], (value.start, value.end))  # fmt: skip
        if option is None:
            continue
        if not option.startswith("--"):
            option = f"-{option}"  # Go's ``-http`` is its ``--http``
        declared = {p for p, _ in fp.constant_values(option)}
        if bare is None and declared and (duration := seconds(value.text)) is not None and all(
                v.text and _GO_DURATION.search(v.text) for _, v in fp.constant_values(option)):
            bare = f"{duration:g}"  # "30 seconds" of Go's ``30*time.Second``
        if not declared and m is None:  # "the web UI listens on port 8080": ``--web-port``
            option = _qualified(option, text[sentence[0] : sentence[1]], fp) or option
            declared = {p for p, _ in fp.constant_values(option)}
        placed = m.groupdict().get("path") if m is not None else None
        if placed is not None:  # "(`--port` in datasette/cli.py)": that file's declarations
            declared &= {placed}
        if not declared or bare is None:
            continue  # another program's option, or none this repository declares
        scope = next(iter(declared)) if len(declared) == 1 else None
        anchor = Anchor(AnchorKind.CONFIG, option, scope=scope, version=bare)
        found.append(Binding(anchor, option, (value.start, value.end)))
    return found


def find_option(anchor: Anchor, fp: Fingerprint) -> Finding:
    """``config:[PATH::]--port[=VALUE]``: the option's declarations (in PATH, a file or a
    directory, when given) and their defaults. Holds where one gives the stated value;
    refuted where every one gives a literal and none is it; unknown otherwise. With no
    value: whether any file declares the option."""
    option, stated = anchor.value, anchor.version
    found = [(p, v) for p, v in fp.constant_values(option) if _within(p, anchor.scope)]
    place = f" in {anchor.scope}" if anchor.scope else ""
    if not found:
        flags = sorted({p for p, f in fp.code.items() if f.language == "go"
                        and any(v.name.startswith("--") for v in f.constants)})  # fmt: skip
        if flags and anchor.scope is None and stated is None:
            # a Go program's flags are all declared through its flag package
            return Finding((), None, f"{listed(flags)} declare the program's flags, and no "
                                     f"{option}")  # fmt: skip
        return Finding((), None, f"no Python file{place} declares the option {option}; "
                                 "it may be another program's: cannot tell", False)  # fmt: skip
    if stated is None:
        path, v = found[0]
        return Finding(tuple(sorted({p for p, _ in found})), None,
                       f"{path}:{v.line} declares the option {option}")  # fmt: skip
    same = [(p, v) for p, v in found if v.text is not None and (
        same_value(v.text, stated) or _same_port(v.text, stated))]
    if same:
        path, v = same[0]
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return Finding(tuple(sorted({p for p, _ in same})), None,
                       f"`{option}` defaults to `{v.text}` at {path}:{v.line}{more}")  # fmt: skip
    computed = [(p, v) for p, v in found if v.text is None]
    if computed:
        path, v = computed[0]
        return Finding((), None, f"{path}:{v.line} computes the default of {option}; "
                                 f"cannot tell whether it is {stated}", False)  # fmt: skip
    path, v = found[0]
    others = f" (and {listed([f'{p}:{v.line}' for p, v in found[1:]])})" if len(found) > 1 else ""
    return Finding((), None, f"{path}:{v.line} gives {option} the default {v.text}, "
                             f"not {stated}{others}")  # fmt: skip


def _same_port(code: str, stated: str) -> bool:
    """Whether a stated port is the port of an address the code gives (``":1338"``)."""
    m = _ADDRESS_PORT.fullmatch(code.strip("\"'`"))
    return m is not None and m["port"] == stated.strip("`").lstrip(":")


_ADDRESS_PORT = re.compile(r"[\w.\-\[\]]*:(?P<port>\d{1,5})")


def _within(path: str, scope: str | None) -> bool:
    return scope is None or path == scope or path.startswith(scope.rstrip("/") + "/")
