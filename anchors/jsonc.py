"""JSON with comments and trailing commas (``tsconfig.json``, ``jsconfig.json``), read as
data: the comments and the trailing commas are blanked, the rest is handed to ``json``.

Never executes anything; the caller caps the size (``anchors.infra_facts.MAX_INFRA_BYTES``).
A document that is still not JSON raises ``ValueError``, as ``json.loads`` does.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["loads_jsonc"]

# A string (kept as is), a comment (blanked), or a comma before a closing bracket (dropped).
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|,(?=\s*(?://[^\n]*\s*|/\*.*?\*/\s*)*[}\]])',
                    re.DOTALL)  # fmt: skip


def _blank(m: re.Match[str]) -> str:
    token = m.group()
    if token.startswith('"'):
        return token
    # a comment keeps its line breaks, so a value's line is where the file has it
    return "\n" * token.count("\n") + " " * (0 if "\n" in token else len(token))


def strip_jsonc(text: str) -> str:
    """``text`` without its comments and trailing commas, lines kept in place."""
    return _TOKEN.sub(_blank, text)


def loads_jsonc(text: str) -> Any:
    """The value a JSON-with-comments document holds."""
    if "/" not in text and "," not in text:
        return json.loads(text)
    return json.loads(strip_jsonc(text))
