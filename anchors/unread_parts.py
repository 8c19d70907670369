"""What a note says that no reader checked, named as uncovered parts (issue #31, adr/0055):
the note stays ACTIVE and the answer says what is unchecked.

- a literal it quotes ("gets a ".s.MYSQL.3306" suffix"; in single quotes only what reads
  as code, 'virtual:msw', never a word, 'fine') that no value, message or anchor took;
- a table of a manifest ("declares a [features] section");
- a pattern with placeholders in backticks ("written as `{id}-v{version}.mbp`");
- a program's option in backticks that no option anchor checks ("aliased to `-c`");
- the license a project is under ("MIT-licensed per package.json");
- an order between two sources ("PAGER takes precedence over BAT_PAGER", "`GRPC_VERBOSITY`
  overrides `GRPC_NODE_VERBOSITY`"), a route's
  handler ("/orderout is handled by core.OrderInfo"), a field's type ("the Room field is
  an int").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

__all__ = ["unread_parts"]

# A literal in double or curly quotes, or in single quotes (where an apostrophe is not)
_QUOTED = re.compile(
    r'"(?P<d>[^"\n]{1,80})"|“(?P<c>[^”\n]{1,80})”|(?<!\w)\'(?P<s>[^\'\s]{1,80})\'(?!\w)')
_CODE_LIKE = re.compile(r"[:/._\-@#$%{}\[\]()=\d]")
# "MIT-licensed", "licensed under Apache-2.0", "the license is BSD": no reader checks it
_LICENSE = re.compile(r"\blicen[cs](?:e|ed|ing)\b", re.IGNORECASE)
# A program's option written as code, alone in backticks ("aliased to `-c`")
_OPTION_SPAN = re.compile(r"`(?P<o>--?[A-Za-z][\w\-]*)`")
# "written as `{id}-v{version}.mbp`": a pattern with placeholders, in backticks
_TEMPLATE = re.compile(r"(?P<t>`[^`\n{}]*(?<!\$)\{\w+\}[^`\n]*`)")
_SECTION = re.compile(r"`?\[(?P<s>[\w.\-:]{1,60})\]`?\s+(?:section|table)\b")
_RELATIONS = (
    re.compile(r"`?[\w./:\-]+`?\s+(?:takes|has|gets)\s+precedence\s+over\s+`?[\w./:\-]+`?"
               r"|\bgives?\s+`?[\w./:\-]+`?\s+(?:precedence|priority)\s+over\s+`?[\w./:\-]+`?"
               r"|`?[\w./:\-]+`?\s+(?:wins\s+over|is\s+preferred\s+(?:over|to))\s+`?[\w./:\-]+`?",
               re.IGNORECASE),
    # ("`GRPC_VERBOSITY` overrides `GRPC_NODE_VERBOSITY`": a variable's, an option's or a
    # file's order; a method that overrides another is a relation of code)
    re.compile(r"`?(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|--?[a-z][\w\-]*|[\w\-]+(?:/[\w.\-]+)*\.\w{2,5})`?"
               r"\s+(?:overrides|supersedes|takes\s+priority\s+over|has\s+priority\s+over|beats"
               r"|is\s+overridden\s+by)\s+(?:`[\w./:\-]+`|[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|--?[a-z][\w\-]*)"),
    re.compile(r"`?/[\w./{}<>:\-]*`?\s+(?:is|are)\s+(?:handled|served|implemented|processed)\s+by"
               r"\s+`?[\w.:]*\w`?"),
    re.compile(r"\b(?:the\s+)?`?[A-Za-z_]\w*`?\s+field\s+is\s+an?\s+`?[\w.\[\]*]*[\w\]]`?"
               r"|\b`?[A-Za-z_]\w*`?\s+is\s+an?\s+`?(?:int|string|str|bool|float|u?int\d+|"
               r"\[\]\w+|map\[\w+\]\w+|\*\w+)`?\s+field\b"),
)


def unread_parts(text: str, checked: Sequence[tuple[int, int]],
                 quoted: Sequence[tuple[int, int]], anchored: Collection[str],
                 said_by: Sequence[str]) -> list[str]:  # fmt: skip
    """The parts of ``text`` (module docstring) that no reader took. ``checked``: the
    spans of the values anchors check; ``quoted``: the spans of the quotes read as
    messages; ``anchored``: the words anchors were read from; ``said_by``: what each
    anchor checks (its value and stated value)."""
    said = [s.lower() for s in said_by]
    parts = [f'"{q}"' for q in _quotes(text, checked, quoted, anchored)
             if not any(q.lower() in s for s in said)]  # fmt: skip
    parts += [f"the option {m['o']}" for m in _OPTION_SPAN.finditer(text)
              if not any(a < m.end() and m.start() < b for a, b in checked)
              and m["o"] not in anchored
              and not any(m["o"].lower() in s for s in said)]  # fmt: skip
    parts += [f"the pattern {m['t']}" for m in _TEMPLATE.finditer(text)
              if not any(a < m.end() and m.start() < b for a, b in (*checked, *quoted))
              and not any(m["t"].strip("`").lower() in s for s in said)]  # fmt: skip
    parts += [f"the [{m['s']}] section" for m in _SECTION.finditer(text)]
    parts += ["the license"] if _LICENSE.search(text) else []
    parts += [f"that {' '.join(m.group().split())}" for pattern in _RELATIONS
              for m in pattern.finditer(text)]  # fmt: skip
    return parts


def _quotes(text: str, checked: Sequence[tuple[int, int]], quoted: Sequence[tuple[int, int]],
            anchored: Collection[str]) -> list[str]:  # fmt: skip
    found = []
    for m in _QUOTED.finditer(text):
        inner = (m["d"] or m["c"] or m["s"]).strip()
        start, end = m.span()
        if m["s"] and not _CODE_LIKE.search(inner):
            continue  # 'fine': a word in single quotes is the writer's, no literal
        if (not inner or any(a < end and start < b for a, b in (*checked, *quoted))
                or any(o and (o in inner or inner in o) for o in anchored)):  # fmt: skip
            continue
        found.append(inner)
    return found
