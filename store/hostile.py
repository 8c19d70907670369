"""Hostile content in memory text: hidden characters and text that reads like instructions.

A memory is data written by an earlier session or a person, never instructions to the
agent that reads it. Two kinds of text are flagged when a memory is written (and again when
it is served, so older memories are covered too):

``hidden_characters``
    Characters a reader cannot see: Unicode tag characters (U+E0000-E007F, used to smuggle
    ASCII text invisibly), bidirectional controls (U+061C, U+200E/F, U+202A-202E,
    U+2066-2069), zero-width and other format characters (every ``Cf`` character: U+200B,
    U+200C, U+200D, U+2060, U+FEFF, U+00AD, ...), the rest of Unicode's default-ignorable
    code points (Hangul fillers, U+034F, U+17B4/5, U+180B-180F, U+FFF0-FFF8, the whole
    U+E0000-E0FFF block), variation selectors (U+FE00-FE0F, U+E0100-E01EF; a single U+FE0E
    or U+FE0F right after a non-ASCII character is an ordinary emoji presentation selector
    and is left alone), and control characters other than tab, line feed and CR-LF (ESC,
    backspace and a lone CR can hide text in a terminal).

``instruction_like``
    Text that addresses the agent rather than describing the code: see ``INSTRUCTION_PATTERNS``.
    The patterns are matched after NFKC normalisation (full-width letters), with hidden
    characters removed ("ig\\u200bnore"), and also against ASCII smuggled in tag characters.

The stored text is kept as written; ``reveal`` is what is served: every hidden character is
replaced by a visible escape ``[U+XXXX]`` (upper-case hex, at least four digits), so the
agent never receives invisible content. Flagged memories are served with their flags and
never in the ``assert`` band.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

__all__ = [
    "HIDDEN_CHARACTERS",
    "HOSTILE_FLAGS",
    "INSTRUCTION_LIKE",
    "INSTRUCTION_PATTERNS",
    "hostile_flags",
    "instruction_matches",
    "is_hidden",
    "reveal",
    "reveal_all",
]

HIDDEN_CHARACTERS = "hidden_characters"
INSTRUCTION_LIKE = "instruction_like"
HOSTILE_FLAGS = frozenset({HIDDEN_CHARACTERS, INSTRUCTION_LIKE})

# Default-ignorable code points that are not category Cf (letters and marks that render as
# nothing), and variation selectors.
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x2065, 0x2065),  # reserved in the invisible-operator block
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # reserved specials
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical formatting
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement, reserved
)
_EMOJI_SELECTORS = frozenset("\ufe0e\ufe0f")
# Everything that is not printable ASCII, tab or line feed is a candidate; most text has
# none, and the few candidates are classified one by one.
_CANDIDATE = re.compile(r"[^\t\n\x20-\x7e]")

# Text that addresses the agent instead of describing the code. Kept small and specific:
# a false positive only hedges a memory and shows the flag, it never hides it.
INSTRUCTION_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE))
    for name, pattern in (
        (
            "ignore previous instructions",
            r"\b(ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?\b(instructions?|"
            r"prompts?|directives?|guardrails?)\b|\b(ignore|disregard|forget)\s+(all|everything|"
            r"anything)\s+(previous|prior|above|earlier|before|you\b)",
        ),
        (
            "system prompt",
            r"\b(system|developer|hidden|secret)\s+(prompt|instructions?)\b|"
            r"\bdeveloper\s+message\b",
        ),
        (
            "chat-template or role marker",
            r"<\|?\s*(im_start|im_end|system|assistant|user|endoftext)\s*\|?>|\[/?INST\]|"
            r"</?\s*(system|instructions?)\s*>|#{2,}\s*(system|instructions?)\b",
        ),
        (
            "you must / should <act>",
            r"\byou\s+(must|should|shall|need\s+to|have\s+to|are\s+(required|instructed)\s+to)"
            r"\s+(now\s+|always\s+|immediately\s+|first\s+)?(run|execute|call|invoke|send|"
            r"upload|post|delete|remove|download|install|ignore|disable|reveal|print|output|"
            r"email|commit|push|obey|follow)\b",
        ),
        (
            "always / never run ...",
            r"\b(always|never)\s+(run|execute|call|invoke|eval|source|"
            r"curl|wget|sudo|pip\s+install|npm\s+install|rm\s+-rf)\b",
        ),
        (
            "pipe to shell",
            r"\b(curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]{0,300}\|\s*(sudo\s+)?"
            r"(ba|z|da|k|fi|c|tc)?sh\b|\|\s*(sudo\s+)?(ba|z|da|k)?sh\s+-s\b|"
            r"\bbase64\s+(-d|--decode)\b[^\n]{0,100}\|\s*(sudo\s+)?(ba|z|da|k)?sh\b",
        ),
        (
            "keep it from the user",
            r"\b(do\s+not|don't|dont|never)\s+(tell|inform|mention|reveal|show|disclose)\b"
            r".{0,20}?\b(the\s+)?(user|human|operator|developer)\b",
        ),
        (
            "new role or instructions",
            r"\byou\s+are\s+now\b|\bnew\s+(instructions|rules|system\s+prompt)\b|"
            r"\bact\s+as\s+(an?\s+)?(unrestricted|jailbroken|developer\s+mode|dan)\b",
        ),
        (
            "exfiltration",
            r"\bexfiltrat\w*|\b(send|upload|post|leak)\b[^.\n]{0,40}\b(secrets?|credentials|"
            r"api[\s_-]?keys?|ssh\s+keys?|private\s+keys?|passwords?|tokens?)\b[^\n]{0,40}\bto\s+"
            r"(https?://|\S+@\S+)",
        ),
    )
)


def is_hidden(ch: str) -> bool:
    """True for a character a reader cannot see (see the module docstring)."""
    cp = ord(ch)
    if ch in "\t\n":
        return False
    for low, high in _IGNORABLE_RANGES:
        if low <= cp <= high:
            return True
    return unicodedata.category(ch) in ("Cf", "Cc")


def _hidden_spans(text: str) -> list[tuple[int, str]]:
    """(position, character) of every hidden character in ``text``."""
    found = []
    for match in _CANDIDATE.finditer(text):
        pos, ch = match.start(), match.group()
        if ch == "\r" and text.startswith("\n", pos + 1):
            continue  # CR-LF line ending
        if (
            ch in _EMOJI_SELECTORS
            and pos > 0
            and not text[pos - 1].isascii()
            and not is_hidden(text[pos - 1])
        ):
            continue  # emoji presentation selector: "❤️"
        if is_hidden(ch):
            found.append((pos, ch))
    return found


def _escape(ch: str) -> str:
    return f"[U+{ord(ch):04X}]"


def reveal(text: str) -> str:
    """``text`` with every hidden character replaced by a visible ``[U+XXXX]`` escape."""
    if text.isascii() and text.isprintable():  # most text: nothing can hide in it
        return text
    spans = _hidden_spans(text)
    if not spans:
        return text
    parts, last = [], 0
    for pos, ch in spans:
        parts.append(text[last:pos])
        parts.append(_escape(ch))
        last = pos + 1
    parts.append(text[last:])
    return "".join(parts)


def reveal_all(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, strings) with ``reveal`` applied to every string,
    keys included. A whole result with nothing to reveal is checked at once, from its
    JSON text (most results: printable ASCII, control characters only as ``\\n`` or
    ``\\t``), instead of string by string."""
    if isinstance(value, dict | list | tuple) and _nothing_hidden(value):
        return value
    return _reveal_all(value)


def _nothing_hidden(value: Any) -> bool:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return False
    if any(escape in text for escape in ("\\u", "\\r", "\\b", "\\f")):
        return False
    if text.isascii():  # JSON escapes control characters below U+0020, not DEL
        return text.isprintable()
    # Printable marks (✓, é) hide nothing; a selector's meaning depends on what precedes it.
    marks = set(_CANDIDATE.findall(text))
    return not any(is_hidden(ch) or ch in _EMOJI_SELECTORS for ch in marks)


def _reveal_all(value: Any) -> Any:
    if isinstance(value, str):
        return reveal(value)
    if isinstance(value, dict):
        return {_reveal_all(k): _reveal_all(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_reveal_all(v) for v in value]
    return value


def _smuggled_ascii(text: str) -> str:
    """ASCII hidden in tag characters (U+E0020-E007E map to U+0020-007E)."""
    return "".join(chr(ord(ch) - 0xE0000) for ch in text if 0xE0020 <= ord(ch) <= 0xE007E)


def _readable(text: str, hidden: Iterable[tuple[int, str]]) -> str:
    """What a reader sees: hidden characters dropped, then NFKC (full-width letters)."""
    drop = {pos for pos, _ in hidden}
    seen = "".join(ch for i, ch in enumerate(text) if i not in drop) if drop else text
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", seen))


def instruction_matches(text: str) -> list[str]:
    """Names of the ``INSTRUCTION_PATTERNS`` that ``text`` matches."""
    hidden = _hidden_spans(text)
    views = [_readable(text, hidden)]
    smuggled = _smuggled_ascii(text)
    if smuggled:
        views.append(smuggled)
    return [name for name, rx in INSTRUCTION_PATTERNS if any(rx.search(v) for v in views)]


def hostile_flags(*texts: str | None) -> tuple[str, ...]:
    """The flags ``texts`` earn: ``hidden_characters`` and/or ``instruction_like``."""
    flags: set[str] = set()
    for text in texts:
        if text:
            flags.update(_text_flags(text))
    return tuple(sorted(flags))


@lru_cache(maxsize=1 << 16)  # every view of a memory asks again: ~40 µs a text
def _text_flags(text: str) -> tuple[str, ...]:
    flags = []
    if _hidden_spans(text):
        flags.append(HIDDEN_CHARACTERS)
    if instruction_matches(text):
        flags.append(INSTRUCTION_LIKE)
    return tuple(flags)
