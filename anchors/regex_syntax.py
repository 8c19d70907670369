"""A reader of Python regular-expression syntax, for the patterns this project writes itself.

``anchors.needles`` (the literals every match of a pattern holds) needs the structure of a
pattern, and the standard library offers its parser only as a private module.
``parse(source, flags)`` gives the tree that parser gives, in public terms: nodes are
``(op, value)`` tuples and a sequence is a tuple of nodes. The parser's own rewrites are
made here too, since the needles depend on them: a non-capturing group without flags is
spliced into the sequence around it, the first nodes that every alternative shares are
moved before the alternation, alternatives of one character each become one set, ``[a]`` is
a literal and ``[^a]`` a ``NOT_LITERAL``. For a pattern this does not read (verbose mode,
conditional groups, a pattern ``re`` rejects) ``parse`` gives None, and its callers find no
needles.

Nodes::

    (LITERAL, code)       (NOT_LITERAL, code)       (ANY, None)
    (IN, items)           items: (LITERAL, code), (RANGE, (lo, hi)), (CATEGORY, "d"|"D"|
                          "s"|"S"|"w"|"W"), (NEGATE, None) first when negated
    (AT, "beginning"|"end"|"boundary"|"non_boundary"|"beginning_string"|"end_string")
    (GROUP, (capturing, flagged, sequence))   a group left in place: capturing or with
                          inline flags (``(?i:...)``, ``(?-i:...)``)
    (BRANCH, alternatives)                    alternatives: a tuple of sequences
    (REPEAT, (low, high, kind, sequence))     high None when unbounded; kind "greedy",
                          "lazy" or "possessive"
    (ASSERT, sequence)    a lookahead or lookbehind, positive or negative
    (ATOMIC, sequence)    (GROUPREF, number or name)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ANY", "ASSERT", "AT", "ATOMIC", "BRANCH", "CATEGORY", "GROUP", "GROUPREF", "IN",
    "LITERAL", "NEGATE", "NOT_LITERAL", "RANGE", "REPEAT", "Node", "Parsed", "Sequence",
    "parse",
]  # fmt: skip

LITERAL, NOT_LITERAL, ANY, IN, AT = "literal", "not_literal", "any", "in", "at"
GROUP, BRANCH, REPEAT, ASSERT, ATOMIC, GROUPREF = (
    "group", "branch", "repeat", "assert", "atomic", "groupref",
)  # fmt: skip
RANGE, CATEGORY, NEGATE = "range", "category", "negate"

Node = tuple[str, Any]
Sequence = tuple[Node, ...]

_SPECIAL = set(".\\[{()*+?^$|")
_REPEATS = set("*+?{")
_DIGITS = set("0123456789")
_OCTAL = set("01234567")
_HEX = set("0123456789abcdefABCDEF")
_FLAG_LETTERS = set("aiLmsux")
_ESCAPES = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92}
_AT_ESCAPES = {"A": "beginning_string", "b": "boundary", "B": "non_boundary", "Z": "end_string"}
_CATEGORIES = set("dDsSwW")
# Nodes the standard parser compares by value when it looks for a prefix that all
# alternatives share; it compares the others (groups, repetitions...) by identity.
_BY_VALUE = {LITERAL, NOT_LITERAL, ANY, AT, IN, GROUPREF}


@dataclass(frozen=True, slots=True)
class Parsed:
    """A pattern read: its top-level sequence and the letters of the inline flags set for
    the whole pattern at its start (``"i"`` for ``(?i)``)."""

    sequence: Sequence
    global_flags: str


@dataclass(slots=True)
class _Source:
    text: str
    at: int = 0
    global_flags: str = ""

    def peek(self) -> str | None:
        """The next token: one character, or a backslash and the character after it."""
        if self.at >= len(self.text):
            return None
        if self.text[self.at] == "\\":
            if self.at + 1 >= len(self.text):
                raise ValueError("a pattern ending in a backslash")
            return self.text[self.at : self.at + 2]
        return self.text[self.at]

    def get(self) -> str | None:
        token = self.peek()
        if token is not None:
            self.at += len(token)
        return token

    def match(self, char: str) -> bool:
        if self.peek() == char:
            self.at += len(char)
            return True
        return False

    def take_while(self, most: int, chars: set[str]) -> str:
        taken = ""
        while len(taken) < most and (token := self.peek()) is not None and token in chars:
            taken += token
            self.at += 1
        return taken

    def take_until(self, end: str) -> str:
        stop = self.text.find(end, self.at)
        if stop < 0:
            raise ValueError(f"missing {end}")
        taken = self.text[self.at : stop]
        self.at = stop + 1
        return taken


def parse(source: str, flags: int = 0, compiled: bool = True) -> Parsed | None:
    """The tree of ``re.compile(source, flags)``; None for a pattern ``re`` rejects or
    whose syntax this does not read (``re.VERBOSE``, conditional groups). ``compiled``:
    ask ``re`` first whether it takes the pattern; without it, one it rejects may still
    be given a tree (for a caller that compiles the pattern itself)."""
    if compiled:
        try:
            re.compile(source, flags)
        except (re.error, OverflowError, RecursionError):
            return None
    if flags & re.VERBOSE:
        return None
    text = _Source(source)
    try:
        sequence = _alternation(text)
    except (ValueError, RecursionError):  # what this does not read, the cause its message
        return None
    if text.peek() is not None:
        return None  # an unbalanced parenthesis (which ``re`` rejects first)
    return Parsed(sequence, text.global_flags)


def _alternation(text: _Source) -> Sequence:
    alternatives = [_sequence(text)]
    while text.match("|"):
        alternatives.append(_sequence(text))
    if len(alternatives) == 1:
        return alternatives[0]
    lists = [list(alternative) for alternative in alternatives]
    prefix: list[Node] = []
    while (
        all(lists)
        and lists[0][0][0] in _BY_VALUE
        and all(one[0] == lists[0][0] for one in lists[1:])
    ):
        prefix.append(lists[0][0])
        for one in lists:
            del one[0]
    chars: list[Node] = []
    for one in lists:
        if len(one) != 1:
            break
        op, value = one[0]
        if op == LITERAL:
            chars.append(one[0])
        elif op == IN and value[0][0] != NEGATE:
            chars.extend(value)
        else:
            break
    else:
        return (*prefix, (IN, tuple(dict.fromkeys(chars))))
    return (*prefix, (BRANCH, tuple(tuple(one) for one in lists)))


def _sequence(text: _Source) -> Sequence:
    items: list[Node] = []
    while (token := text.peek()) is not None and token not in "|)":
        text.get()
        if token[0] == "\\":
            items.append(_escape(text, token))
        elif token not in _SPECIAL:
            items.append((LITERAL, ord(token)))
        elif token == "[":
            items.append(_set(text))
        elif token in _REPEATS:
            _repeat(text, token, items)
        elif token == ".":
            items.append((ANY, None))
        elif token == "(":
            group = _group(text, first=not items)
            if group is not None:
                items.append(group)
        elif token == "^":
            items.append((AT, "beginning"))
        elif token == "$":
            items.append((AT, "end"))
        else:
            raise ValueError(token)
    spliced: list[Node] = []
    for op, value in items:  # a plain (?:...) is only its contents
        if op == GROUP and not value[0] and not value[1]:
            spliced.extend(value[2])
        else:
            spliced.append((op, value))
    return tuple(spliced)


def _repeat(text: _Source, token: str, items: list[Node]) -> None:
    if token == "{":
        start = text.at
        if text.peek() == "}":
            items.append((LITERAL, ord("{")))
            return
        low_digits = text.take_while(len(text.text), _DIGITS)
        high_digits = text.take_while(len(text.text), _DIGITS) if text.match(",") else low_digits
        if not text.match("}"):
            items.append((LITERAL, ord("{")))
            text.at = start
            return
        low = int(low_digits) if low_digits else 0
        high: int | None = int(high_digits) if high_digits else None
    else:
        low, high = {"?": (0, 1), "*": (0, None), "+": (1, None)}[token]
    if not items or items[-1][0] in (AT, REPEAT):
        raise ValueError("nothing to repeat")
    op, value = items[-1]
    repeated: Sequence = value[2] if op == GROUP and not value[0] and not value[1] else (
        items[-1],
    )  # fmt: skip
    kind = "lazy" if text.match("?") else "possessive" if text.match("+") else "greedy"
    items[-1] = (REPEAT, (low, high, kind, repeated))


def _group(text: _Source, first: bool) -> Node | None:
    capturing, flagged, atomic = True, False, False
    if text.match("?"):
        char = text.get()
        if char == "P":
            if text.match("<"):
                text.take_until(">")
            elif text.match("="):
                return (GROUPREF, text.take_until(")"))
            else:
                raise ValueError("(?P")
        elif char == ":":
            capturing = False
        elif char == "#":
            text.take_until(")")
            return None
        elif char in ("=", "!", "<"):
            if char == "<" and text.get() not in ("=", "!"):
                raise ValueError("(?<")
            inner = _alternation(text)
            _close(text)
            return (ASSERT, inner)
        elif char == ">":
            capturing, atomic = False, True
        elif char is not None and (char in _FLAG_LETTERS or char == "-"):
            letters = char + _flag_letters(text)
            if "x" in letters:
                raise ValueError("verbose mode")
            if text.match(")"):
                if not first or "-" in letters:
                    raise ValueError("global flags not at the start")
                text.global_flags += letters
                return None
            if not text.match(":"):
                raise ValueError("flags")
            capturing, flagged = False, True
        else:
            raise ValueError(f"(?{char}")  # conditional groups and the unknown
    inner = _alternation(text)
    _close(text)
    if atomic:
        return (ATOMIC, inner)
    return (GROUP, (capturing, flagged, inner))


def _flag_letters(text: _Source) -> str:
    letters = ""
    while (token := text.peek()) is not None and (token in _FLAG_LETTERS or token == "-"):
        letters += token
        text.at += 1
    return letters


def _close(text: _Source) -> None:
    if not text.match(")"):
        raise ValueError("missing )")


def _escape(text: _Source, token: str) -> Node:
    letter = token[1]
    if letter in _AT_ESCAPES:
        return (AT, _AT_ESCAPES[letter])
    if letter in _CATEGORIES:
        return (IN, ((CATEGORY, letter),))
    if letter in _DIGITS and letter != "0":
        digits = letter + text.take_while(1, _DIGITS)
        if len(digits) == 2 and set(digits) <= _OCTAL and text.peek() in _OCTAL:
            return (LITERAL, int(digits + text.take_while(1, _OCTAL), 8))
        return (GROUPREF, int(digits))
    return (LITERAL, _character(text, token))


def _character(text: _Source, token: str) -> int:
    """The code of a character escape other than a class or an anchor."""
    letter = token[1]
    if letter in _ESCAPES:
        return _ESCAPES[letter]
    if letter in "xuU":
        size = {"x": 2, "u": 4, "U": 8}[letter]
        digits = text.take_while(size, _HEX)
        if len(digits) != size:
            raise ValueError(f"incomplete escape {token}")
        return int(digits, 16)
    if letter == "N":
        if not text.match("{"):
            raise ValueError("missing {")
        try:
            return ord(unicodedata.lookup(text.take_until("}")))
        except KeyError as error:
            raise ValueError("unknown character name") from error
    if letter in _OCTAL:
        return int(letter + text.take_while(2, _OCTAL), 8)
    if letter.isascii() and (letter.isalnum()):
        raise ValueError(f"bad escape {token}")
    return ord(letter)


def _set(text: _Source) -> Node:
    negate = text.match("^")
    items: list[Node] = []
    while True:
        token = text.get()
        if token is None:
            raise ValueError("unterminated character set")
        if token == "]" and items:
            break
        first = _set_item(text, token)
        if text.match("-"):
            other = text.get()
            if other is None:
                raise ValueError("unterminated character set")
            if other == "]":
                items += [first, (LITERAL, ord("-"))]
                break
            last = _set_item(text, other)
            if first[0] != LITERAL or last[0] != LITERAL or last[1] < first[1]:
                raise ValueError("bad character range")
            items.append((RANGE, (first[1], last[1])))
        else:
            items.append(first)
    unique = tuple(dict.fromkeys(items))
    if len(unique) == 1 and unique[0][0] == LITERAL:
        return (NOT_LITERAL, unique[0][1]) if negate else unique[0]
    return (IN, ((NEGATE, None), *unique) if negate else unique)


def _set_item(text: _Source, token: str) -> Node:
    """One character of a class, or a category (``\\d``, ``\\s``, ``\\w`` and their
    opposites); inside a class ``\\b`` is a backspace."""
    if token[0] != "\\":
        return (LITERAL, ord(token))
    letter = token[1]
    if letter in _CATEGORIES:
        return (CATEGORY, letter)
    if letter == "b":
        return (LITERAL, 8)
    if letter in _DIGITS and letter not in _OCTAL:
        raise ValueError(f"bad escape {token}")
    return (LITERAL, _character(text, token))
