"""What a note says is gone, in the words agents use (adr/0060): "Unleash was
decommissioned in March", "swapped the Fluentd sidecars for a Vector DaemonSet",
"`devtool lint` no longer exists", "moved off S3/CloudFront to Cloudflare R2", "inventory
writes are no longer batched". The slots read what was replaced only where a note's
shape lines it up with a value; here the thing said to be gone is read from the words
around the verb of the change, and a note that names it as something in use is asked
about, never decided (the names may be of other things: "the v1 search" is not "the
search page"). Pure functions; no database.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from anchors.needles import guarded
from store.contradictions.words import STOP, content_words

if TYPE_CHECKING:
    from store.contradictions.rules import Claim

__all__ = ["gone", "said_gone"]

# A name as agents write one: in backticks, or one or two words (a product, a path, an
# endpoint: "Fluentd sidecars", "S3/CloudFront", "/v1/login").
_THING = r"(?:`[^`]{1,60}`|[\w./+#-]*\w(?:\s+[A-Za-z][\w.+#/-]*)?)"
_ONE = r"(?:`[^`]{1,60}`|[\w./+#-]*\w)"
_GONE = guarded(
    rf"(?P<a>{_ONE})(?:\s+\w+)?\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?"
    r"(?:gone|decommissioned|retired|removed|dropped|deprecated|deleted|shut\s+down|"
    r"turned\s+off|sunset|sunsetted|phased\s+out|no\s+more)\b"
    rf"|(?P<b>{_ONE})(?:\s+\w+)?\s+(?:no\s+longer\s+exists?|doesn't\s+exist\s+any\s?more|"
    r"is\s+no\s+longer\s+(?:used|served|running|deployed|available))\b"
    rf"|\b(?:is|are)\s+no\s+longer\s+(?P<c>[a-z][\w-]+)"
    rf"|\b(?:swapped|replaced|traded)\s+(?:out\s+)?(?:the\s+|our\s+)?(?P<d>{_THING})\s+"
    r"(?:out\s+)?(?:for|with)\b"
    rf"|\b(?:swapped|switched|moved|migrated|changed)\s+(?:\w+\s+){{0,3}}?from\s+(?P<e>{_ONE})"
    r"\s+to\b"
    rf"|\b(?:moved|migrated|switched)\s+(?:\w+\s+){{0,3}}?(?:off|away\s+from)\s+"
    rf"(?:the\s+|our\s+)?(?P<f>{_ONE})"
    rf"|\b(?:removed|dropped|decommissioned|retired|killed|ripped\s+out|got\s+rid\s+of|"
    rf"sunsetted|deprecated)\s+(?:the\s+|our\s+)?(?P<g>{_ONE})"
    rf"|\binstead\s+of\s+(?:the\s+|our\s+)?(?P<h>{_ONE})"
    rf"|\bno\s+longer\s+(?:accepts|supports|uses|needs|runs)\s+(?P<i>{_ONE})",
    re.I,
)
_NOT_THINGS = frozenset({"it", "they", "this", "that", "them", "we", "us", "all", "everything"})


@functools.lru_cache(maxsize=1 << 14)
def gone(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The names a note says are gone or replaced, as written, each with what it says
    they are gone from or for ("we dropped Datadog for metrics": metrics), if it says."""
    return tuple((name, _scope(text[end:])) for name, end in _gone_at(text))


def _scope(after: str) -> frozenset[str]:
    m = _FOR.match(after)
    return content_words(m.group(1)) - STOP if m is not None else frozenset()


# What a removal is narrowed to, just after the name: "for metrics", "from the tests".
_FOR = re.compile(
    r"\s+(?:for|from)\s+(?!(?:now|good|ever|a\s+while|the\s+time|years|months|weeks|days)\b)"
    r"(?:the\s+|our\s+|its\s+)?((?:[\w-]+\s*){1,2})",
    re.I,
)


def _gone_at(text: str) -> list[tuple[str, int]]:
    found = []
    for m in _GONE.finditer(text):
        written = next(g for g in m.groups() if g is not None)
        name = written.strip("`").strip()
        if name.lower() in _NOT_THINGS or name.lower() in STOP:
            continue
        if m.group("c") is not None:
            if name.endswith("ed"):  # "writes are no longer batched": a way of doing it
                found.append((name, m.end()))
        elif re.search(r"\d", name) and not re.search(r"[A-Za-z]{3}", name):
            continue  # a value ("1.5s", "02:00"), not a name
        elif written.startswith("`") or _NAMED.search(name):
            found.append((name, m.end()))  # a name, not a value or a word ("the 10 MB cap")
    return found


# What makes a word a name: a capital, or the marks of a path, a command or an endpoint
# ("Fluentd", "S3/CloudFront", "legacy-search", "/v1/login").
_NAMED = re.compile(r"[A-Z]|[./_]|[a-z]-[a-z]")


@functools.lru_cache(maxsize=1 << 12)
def _parts(name: str) -> frozenset[str]:
    """What a name is matched by: its content words, and each part of a path."""
    parts = {p for p in re.split(r"[/\s]+", name.lower()) if len(p) > 1}
    return frozenset(content_words(" ".join(parts)) - STOP)


def said_gone(a: Claim, b: Claim) -> str | None:
    """One note says a thing is gone or replaced, the other names it and says nothing
    gone of it: asked ("whether X is still in use"), never decided."""
    if not (a.gone or b.gone):
        return None
    for says, other in ((b, a), (a, b)):
        for name, scope in says.gone:
            parts = _parts(name)
            if not parts or any(_parts(n) & parts for n, _ in other.gone):
                continue
            if scope and not scope & other.words:
                continue  # "we dropped Datadog for metrics" says nothing of its logs
            if parts <= other.words or _whole(name, other.text):
                return f"whether {name} is still in use"
    return None


def _whole(name: str, text: str) -> bool:
    """Whether ``text`` holds the name as written, a whole word (case-blind)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I) is not None
