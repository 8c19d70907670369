"""The defaults of a Go program's command-line flags: "`-http` defaults to ":1338"",
"`-notifyInterval` defaults to 30 seconds" are checked against
``flag.String("http", config.Http, "...")`` and ``flag.DurationVar(&c.Interval,
"notifyInterval", 30*time.Second, "...")``.

A declaration is a call of the ``flag`` package's (or a ``FlagSet``'s, or pflag's)
``String``, ``Int``, ``Int64``, ``Uint``, ``Uint64``, ``Bool``, ``Duration`` or
``Float64``, or its ``...Var`` form (a pointer first), or pflag's ``...P`` form (a
shorthand after the name). Its first string argument is the flag's name, the argument
after it (after the shorthand) its default, as written. A default that reads a field of a
package-level composite literal in the same file (``config.Http`` of ``var config =
&dmsConfig{Http: ":1338"}``) is that field's literal. Each is a ``ValueFact`` named
``--NAME`` (Go accepts ``-NAME`` and ``--NAME``; no name of code starts with ``-``), as
``anchors.cli_options`` keeps a Python program's options. Read from the bytes; nothing is
run.
"""

from __future__ import annotations

import re

from anchors.env_records import ValueFact

__all__ = ["MAX_FLAGS", "flag_defaults"]

MAX_FLAGS = 400  # per file
_KINDS = r"String|Int|Int64|Uint|Uint64|Bool|Duration|Float64"
_CALL = re.compile(rf"\.(?P<kind>{_KINDS})(?P<var>Var)?(?P<short>P)?\(")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|`[^`]*`')
_NAME = re.compile(r"[A-Za-z][\w\-.]*")
# ``var config = &dmsConfig{`` ... ``}``: a package-level composite literal
_COMPOSITE = re.compile(rb"^var\s+(?P<var>[A-Za-z_]\w*)\s*=\s*&?[\w.]+\{\s*\n", re.MULTILINE)
_FIELD = re.compile(r"^\s*(?P<key>[A-Z]\w*)\s*:\s*(?P<value>.+?),?\s*(?://.*)?$")
_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"|`[^`]*`|-?\d[\w.]*|true|false|nil'
                      r"|\d+\s*\*\s*time\.[A-Z][a-z]+|time\.[A-Z][a-z]+")


def flag_defaults(source: bytes) -> list[ValueFact]:
    """The flags ``source`` declares, with their defaults (see the module docstring)."""
    if b"flag" not in source:
        return []
    text = source.decode("utf-8", errors="replace")
    fields = _composite_fields(source)
    found: list[ValueFact] = []
    for m in _CALL.finditer(text):
        arguments = _arguments(text, m.end())
        skip = 1 if m["var"] else 0
        if len(arguments) < skip + 2 + (1 if m["short"] else 0):
            continue
        name = arguments[skip].strip()
        if not _STRING.fullmatch(name) or not _NAME.fullmatch(name[1:-1]):
            continue
        default = arguments[skip + 2 if m["short"] else skip + 1].strip()
        text_of = fields.get(default, default)
        value = text_of if _LITERAL.fullmatch(text_of) else None
        line = text.count("\n", 0, m.start()) + 1
        found.append(ValueFact(f"--{name[1:-1]}", value, line))
        if len(found) >= MAX_FLAGS:
            break
    return found


def _arguments(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` ends right before ``start``."""
    parts: list[str] = []
    depth, at, i = 0, start, start
    end = min(len(text), start + 2000)
    while i < end:
        ch = text[i]
        if ch in "\"`":
            m = _STRING.match(text, i)
            i = m.end() if m else i + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                parts.append(text[at:i])
                return parts
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[at:i])
            at = i + 1
        i += 1
    return []


def _composite_fields(source: bytes) -> dict[str, str]:
    """``var.Field`` -> its literal, for the package-level composite literals of ``source``
    written one field a line."""
    fields: dict[str, str] = {}
    for m in _COMPOSITE.finditer(source):
        var = m["var"].decode()
        for line in source[m.end() : m.end() + 4000].decode("utf-8", errors="replace").splitlines():
            if line.strip().startswith("}"):
                break
            field = _FIELD.match(line)
            if field is not None:
                fields[f"{var}.{field['key']}"] = field["value"].strip()
    return fields
