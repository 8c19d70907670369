"""A definition a note says one file lacks: "there is no `PY2` flag in `_compat.py` any
more", "`_compat.py` has no `WIN` constant", "utils.py no longer defines `retry`"; or one
type ("the Viper struct has no keyDelim field", in the file that defines the type).

The file is the claim's place, so the check is the absent symbol there
(``!symbol:PATH::NAME``): broken while the file defines or assigns the name, whatever
else the note's words resolve to ("PY2" is no import). Bound only when the name is
written as code (backticks, or a code-like spelling) and the path is one source file of
the repository; the words of the match are the binding's.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.languages import language_of
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.subject import resolve_name

__all__ = ["AbsentDefinition", "absent_definitions"]

_I = re.IGNORECASE
_NAME = r"`(?P<name>[A-Za-z_]\w*)`|(?P<bare>[A-Z][A-Z0-9]*_[A-Z0-9_]+|[a-z]+_[a-z0-9_]+)"
_PATH = r"`?(?P<path>[\w./-]+\.\w+)`?"
_KIND = (r"(?:\s+(?:flag|constant|function|class|method|setting|variable|helper|type|"
         r"struct|enum|attribute|field))?")  # fmt: skip
_FORMS = (
    # "there is no (longer a) `PY2` flag in `_compat.py`"
    re.compile(rf"\bthere\s+(?:is|are)\s+no\s+(?:longer\s+(?:a|an|any)\s+)?(?:{_NAME}){_KIND}"
               rf"\s+(?:in|inside)\s+{_PATH}", _I),
    # "`_compat.py` has no `WIN` constant", "utils.py no longer defines `retry`",
    # "app/db.py does not define `connect`"
    re.compile(rf"{_PATH}\s+(?:(?:has|defines|contains|exports|declares)\s+no(?:\s+longer)?"
               rf"|no\s+longer\s+(?:has|defines|contains|exports|declares)"
               rf"|(?:does|do)\s*(?:not|n[’']t)\s+(?:have|define|contain|export|declare))"
               rf"\s+(?:(?:a|an|any)\s+)?(?:{_NAME}){_KIND}", _I),
)


# "The Viper struct has no keyDelim field", "`Store` no longer has a `close` method": the
# member on the type, which the repository defines in one file
_MEMBER = re.compile(
    r"`?(?P<owner>[A-Z]\w*)`?(?:\s+(?:struct|class|type|interface|trait))?\s+"
    r"(?:has\s+no(?:\s+longer)?|no\s+longer\s+has|(?:does|do)\s*(?:not|n[’']t)\s+have)"
    r"\s+(?:(?:a|an|any)\s+)?`?(?P<member>[A-Za-z_]\w*)`?\s+"
    r"(?:field|method|attribute|member|property)\b"
)


class AbsentDefinition(NamedTuple):
    """The absent symbol anchor, the name it was read from, and the match's span."""

    anchor: Anchor
    name: str
    span: tuple[int, int]


def absent_definitions(text: str, fp: Fingerprint) -> list[AbsentDefinition]:
    """The definitions ``text`` says a named source file lacks."""
    found: list[AbsentDefinition] = []
    for form in _FORMS:
        for m in form.finditer(text):
            name = m.group("name") or m.group("bare")
            path = resolve_name(m.group("path"), fp)
            if not name or path is None or language_of(path) is None or path not in fp.code:
                continue
            anchor = Anchor(AnchorKind.SYMBOL, name, Expect.ABSENT, scope=path)
            found.append(AbsentDefinition(anchor, name, m.span()))
    for m in _MEMBER.finditer(text):
        places = {p for p, _ in fp.definitions(m["owner"])}
        if len(places) == 1:
            qual = f"{m['owner']}.{m['member']}"
            anchor = Anchor(AnchorKind.SYMBOL, qual, Expect.ABSENT, scope=places.pop())
            found.append(AbsentDefinition(anchor, m["member"], m.span()))
    return found
